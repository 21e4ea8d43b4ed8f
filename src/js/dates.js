// Dates read from strings as V8 reads them, before any user code runs. `Date.parse(text)` and
// `new Date(text)` read the language's date format (`2019-01-01T10:00:00Z`) alike in every engine, but
// the specification leaves any other string to the engine, and there QuickJS and V8 part: '1' is
// January 2001 to V8 and the year 1 to QuickJS, '-16' and '5,0280,3' no date to V8 and a date to
// QuickJS, 'Jan 1 2019 GMT-8' 2019 to V8 and the year -8 to QuickJS. A test that recorded what QuickJS
// made of such a string failed under Node (cookie's `expires=-16`; croner's `previousRuns(1,
// "5,0280,3")`, whose time zone parser throws under Node for a string V8 reads as no date). So here
// both read strings by a port of V8's DateParser (src/date/dateparser*.h/cc, and ParseDateTimeString of
// src/builtins/builtins-date.cc, as in Node 20): its ES5 reader of the language's format, then its
// legacy reader of what remains (Safari-compatible words, numbers and separators). Fields without a
// zone are local time, converted by QuickJS's own rules (the host's zone, as Node's): the rest of the
// sandbox and these dates agree on what local time is.
(function (g) {
  'use strict';
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const defineOwn = Object.defineProperty;
  const charCodeAt = g.String.prototype.charCodeAt;
  const TypeErrorOf = g.TypeError;
  const TO_PRIMITIVE = g.Symbol.toPrimitive;
  const RealDate = g.Date;
  const dateProto = RealDate.prototype;
  const getTime = dateProto.getTime;
  const setFullYear = dateProto.setFullYear;
  const setHours = dateProto.setHours;
  const floor = Math.floor;
  const imul = Math.imul;

  // V8's kNone (kMaxInt): a field not given.
  const NONE = 2147483647;
  // Digits past the ninth of a number are read and ignored (kMaxSignificantDigits).
  const SIGNIFICANT_DIGITS = 9;
  // The largest time value, and the bound of a local one before its conversion (kMaxTimeInMs,
  // kMaxTimeBeforeUTCInMs: 30 days more).
  const MAX_TIME = 8.64e15;
  const MAX_LOCAL_TIME = MAX_TIME + 30 * 864e5;
  const between = (x, lo, hi) => x >= lo && x <= hi;
  const isMonth = (x) => between(x, 1, 12);
  const isDay = (x) => between(x, 1, 31);
  const isHour = (x) => between(x, 0, 23);
  const isMinute = (x) => between(x, 0, 59);

  // Token tags (negative) and keyword types (from 0), as in V8's DateToken and KeywordType.
  const INVALID_TOKEN = -6;
  const UNKNOWN = -5;
  const WHITE_SPACE = -4;
  const NUMBER = -3;
  const SYMBOL = -2;
  const END = -1;
  const INVALID_WORD = 0;
  const MONTH_NAME = 1;
  const TIME_ZONE_NAME = 2;
  const TIME_SEPARATOR = 3;
  const AM_PM = 4;
  const token = (tag, length, value) => ({ tag, length, value });
  const END_TOKEN = token(END, 0, -1);
  const INVALID = token(INVALID_TOKEN, 0, -1);
  const isSymbol = (t, c) => t.tag === SYMBOL && t.value === c;
  const isSign = (t) => t.tag === SYMBOL && (t.value === 45 || t.value === 43);
  const isFixedNumber = (t, length) => t.tag === NUMBER && t.length === length;
  const isZ = (t) => t.tag === TIME_ZONE_NAME && t.length === 1 && t.value === 0;
  // 1 for '+', -1 for '-'.
  const signOf = (t) => 44 - t.value;

  // V8's KeywordTable: the first three letters of a word (zero-padded), its type and value (a month's
  // number, a zone's offset in hours, the hours AM and PM add). Only a month's name may be longer.
  const KEYWORDS = [
    ['jan', MONTH_NAME, 1], ['feb', MONTH_NAME, 2], ['mar', MONTH_NAME, 3], ['apr', MONTH_NAME, 4],
    ['may', MONTH_NAME, 5], ['jun', MONTH_NAME, 6], ['jul', MONTH_NAME, 7], ['aug', MONTH_NAME, 8],
    ['sep', MONTH_NAME, 9], ['oct', MONTH_NAME, 10], ['nov', MONTH_NAME, 11], ['dec', MONTH_NAME, 12],
    ['am', AM_PM, 0], ['pm', AM_PM, 12], ['ut', TIME_ZONE_NAME, 0], ['utc', TIME_ZONE_NAME, 0],
    ['z', TIME_ZONE_NAME, 0], ['gmt', TIME_ZONE_NAME, 0], ['cdt', TIME_ZONE_NAME, -5], ['cst', TIME_ZONE_NAME, -6],
    ['edt', TIME_ZONE_NAME, -4], ['est', TIME_ZONE_NAME, -5], ['mdt', TIME_ZONE_NAME, -6], ['mst', TIME_ZONE_NAME, -7],
    ['pdt', TIME_ZONE_NAME, -7], ['pst', TIME_ZONE_NAME, -8], ['t', TIME_SEPARATOR, 0],
  ];
  const PREFIXES = KEYWORDS.map(([name]) => [0, 1, 2].map((j) => (j < name.length ? name.charCodeAt(j) : 0)));
  const keywordOf = (prefix, length) => {
    for (let i = 0; i < KEYWORDS.length; i++) {
      const entry = KEYWORDS[i];
      const known = PREFIXES[i];
      if (prefix[0] === known[0] && prefix[1] === known[1] && prefix[2] === known[2] &&
        (length <= 3 || entry[1] === MONTH_NAME)) {
        return token(entry[1], length, entry[2]);
      }
    }
    return token(INVALID_WORD, length, 0);
  };

  // V8's InputReader and DateStringTokenizer over `text`'s UTF-16 units. A NUL unit ends the input, as
  // it does there.
  const tokenizer = (text) => {
    let index = 0;
    let ch = 0;
    const advance = () => {
      ch = index < text.length ? apply(charCodeAt, text, [index]) : 0;
      index++;
    };
    const isDigit = () => ch >= 48 && ch <= 57;
    // What V8 skips as white space: ASCII's, and Unicode's (U+2028 and U+2029, line terminators, are
    // read as words there, as they are here).
    const isSpace = () => ch === 32 || (ch >= 9 && ch <= 13) || ch === 0xa0 || ch === 0x1680 ||
      (ch >= 0x2000 && ch <= 0x200a) || ch === 0x202f || ch === 0x205f || ch === 0x3000 || ch === 0xfeff;
    const isWord = () => ch >= 65 && !isSpace();
    const scan = () => {
      const start = index;
      if (ch === 0) return END_TOKEN;
      if (isDigit()) {
        let n = 0;
        for (let i = 0; isDigit(); i++, advance()) {
          if (i < SIGNIFICANT_DIGITS) n = n * 10 + ch - 48;
        }
        return token(NUMBER, index - start, n);
      }
      // ':', '-', '+', '.', ')'.
      if (ch === 58 || ch === 45 || ch === 43 || ch === 46 || ch === 41) {
        const symbol = ch;
        advance();
        return token(SYMBOL, 1, symbol);
      }
      // A word: every unit from 'A' up but white space, letters or not, ASCII or not; V8 lower-cases by
      // setting 0x20.
      if (isWord()) {
        const prefix = [0, 0, 0];
        let length = 0;
        for (; isWord(); advance(), length++) {
          if (length < 3) prefix[length] = ch | 0x20;
        }
        return keywordOf(prefix, length);
      }
      if (isSpace()) {
        advance();
        return token(WHITE_SPACE, 1, -1);
      }
      // Parenthesized text, nested, up to its balancing ')' or the end.
      if (ch === 40) {
        let balance = 0;
        do {
          if (ch === 41) balance--;
          else if (ch === 40) balance++;
          advance();
        } while (balance > 0 && ch !== 0);
        return token(UNKNOWN, 1, -1);
      }
      advance();
      return token(UNKNOWN, 1, -1);
    };
    advance();
    let ahead = scan();
    return {
      next() {
        const result = ahead;
        ahead = scan();
        return result;
      },
      peek: () => ahead,
      skip(symbol) {
        if (!isSymbol(ahead, symbol)) return false;
        ahead = scan();
        return true;
      },
    };
  };

  // V8's ReadMilliseconds: the first three significant digits of the numeral, from its value and length.
  const milliseconds = (t) => {
    let n = t.value;
    let length = t.length;
    if (length === 1) n *= 100;
    else if (length === 2) n *= 10;
    else if (length > 3) {
      if (length > SIGNIFICANT_DIGITS) length = SIGNIFICANT_DIGITS;
      let factor = 1;
      do {
        factor *= 10;
        length--;
      } while (length > 3);
      n = (n / factor) | 0;
    }
    return n;
  };

  // V8's DayComposer, TimeComposer and TimeZoneComposer.
  // Their components live in arrays made full-length, so that writing one never meets a setter user
  // code put on Array.prototype; `count` is V8's index_.
  const dayComposer = () => ({ comp: [0, 0, 0], count: 0, namedMonth: NONE, iso: false });
  const timeComposer = () => ({ comp: [0, 0, 0, 0], count: 0, hourOffset: NONE });
  const add = (composer, n) => (composer.count < composer.comp.length ? ((composer.comp[composer.count++] = n), true) : false);
  const addFinalTime = (time, n) => {
    if (!add(time, n)) return false;
    while (time.count < 4) time.comp[time.count++] = 0;
    return true;
  };
  const timeExpects = (time, n) => {
    const at = time.count;
    return (at === 1 && isMinute(n)) || (at === 2 && isMinute(n)) || (at === 3 && between(n, 0, 999));
  };
  const zoneComposer = () => ({ sign: NONE, hour: NONE, minute: NONE });
  const setZone = (tz, hours) => {
    tz.sign = hours < 0 ? -1 : 1;
    tz.hour = hours * tz.sign;
    tz.minute = 0;
  };
  const zoneExpects = (tz, n) => tz.hour !== NONE && tz.minute === NONE && isMinute(n);
  const zoneIsUTC = (tz) => tz.hour === 0 && tz.minute === 0;

  // The fields `day` makes, or null: [year, month from 0, day].
  const writeDay = (day) => {
    const comp = day.comp;
    if (day.count < 1) return null;
    while (day.count < 3) comp[day.count++] = 1;
    let year = 0;
    let month;
    let date;
    if (day.namedMonth === NONE) {
      if (day.iso || !isDay(comp[0])) {
        year = comp[0];
        month = comp[1];
        date = comp[2];
      } else {
        month = comp[0];
        date = comp[1];
        year = comp[2];
      }
    } else {
      month = day.namedMonth;
      // The components were filled up to three: V8's "one component given" case reads the same.
      if (!isDay(comp[0])) {
        year = comp[0];
        date = comp[1];
      } else {
        date = comp[0];
        year = comp[1];
      }
    }
    if (!day.iso) {
      if (between(year, 0, 49)) year += 2000;
      else if (between(year, 50, 99)) year += 1900;
    }
    if (!isMonth(month) || !isDay(date)) return null;
    return [year, month - 1, date];
  };
  // [hour, minute, second, millisecond], or null.
  const writeTime = (time) => {
    const comp = time.comp;
    let hour = comp[0];
    const minute = comp[1];
    const second = comp[2];
    const ms = comp[3];
    if (time.hourOffset !== NONE) {
      if (!between(hour, 0, 12)) return null;
      hour = (hour % 12) + time.hourOffset;
    }
    if (!isHour(hour) || !isMinute(minute) || !isMinute(second) || !between(ms, 0, 999)) {
      // The 24th hour, when nothing follows it.
      if (hour !== 24 || minute !== 0 || second !== 0 || ms !== 0) return null;
    }
    return [hour, minute, second, ms];
  };
  // The offset in seconds, NaN for local time, or null.
  const writeZone = (tz) => {
    if (tz.sign === NONE) return NaN;
    const hour = tz.hour === NONE ? 0 : tz.hour;
    const minute = tz.minute === NONE ? 0 : tz.minute;
    // V8 sums in unsigned 32-bit arithmetic and refuses what passes its largest small integer.
    const seconds = (imul(hour, 3600) + imul(minute, 60)) >>> 0;
    if (seconds > 2147483647) return null;
    return tz.sign < 0 ? -seconds : seconds;
  };

  // V8's ParseES5DateTime: reads the language's format as far as it goes. Answers END_TOKEN when all of
  // it was, INVALID when it cannot be a date, else the token the legacy reader goes on from.
  const readES5 = (scanner, day, time, tz) => {
    const peek = scanner.peek;
    if (isSign(peek())) {
      const sign = scanner.next();
      if (!isFixedNumber(peek(), 6)) return sign;
      const year = scanner.next().value;
      if (signOf(sign) < 0 && year === 0) return sign;
      add(day, signOf(sign) * year);
    } else if (isFixedNumber(peek(), 4)) {
      add(day, scanner.next().value);
    } else {
      return scanner.next();
    }
    if (scanner.skip(45)) {
      if (!isFixedNumber(peek(), 2) || !isMonth(peek().value)) return scanner.next();
      add(day, scanner.next().value);
      if (scanner.skip(45)) {
        if (!isFixedNumber(peek(), 2) || !isDay(peek().value)) return scanner.next();
        add(day, scanner.next().value);
      }
    }
    if (peek().tag !== TIME_SEPARATOR) {
      if (peek().tag !== END) return scanner.next();
    } else {
      scanner.next();
      if (!isFixedNumber(peek(), 2) || !between(peek().value, 0, 24)) return INVALID;
      // 24:00[:00[.000]], and no other time from 24.
      const hourIs24 = peek().value === 24;
      add(time, scanner.next().value);
      if (!scanner.skip(58)) return INVALID;
      if (!isFixedNumber(peek(), 2) || !isMinute(peek().value) || (hourIs24 && peek().value > 0)) return INVALID;
      add(time, scanner.next().value);
      if (scanner.skip(58)) {
        if (!isFixedNumber(peek(), 2) || !isMinute(peek().value) || (hourIs24 && peek().value > 0)) return INVALID;
        add(time, scanner.next().value);
        if (scanner.skip(46)) {
          if (peek().tag !== NUMBER || (hourIs24 && peek().value > 0)) return INVALID;
          // More or fewer digits than three.
          add(time, milliseconds(scanner.next()));
        }
      }
      if (isZ(peek())) {
        scanner.next();
        setZone(tz, 0);
      } else if (isSign(peek())) {
        tz.sign = signOf(scanner.next());
        if (isFixedNumber(peek(), 4)) {
          // hhmm, an extension.
          const hourMinute = scanner.next().value;
          const hour = (hourMinute / 100) | 0;
          const minute = hourMinute % 100;
          if (!isHour(hour) || !isMinute(minute)) return INVALID;
          tz.hour = hour;
          tz.minute = minute;
        } else {
          if (!isFixedNumber(peek(), 2) || !isHour(peek().value)) return INVALID;
          tz.hour = scanner.next().value;
          if (!scanner.skip(58)) return INVALID;
          if (!isFixedNumber(peek(), 2) || !isMinute(peek().value)) return INVALID;
          tz.minute = scanner.next().value;
        }
      }
      if (peek().tag !== END) return INVALID;
    }
    // A date alone is UTC, a date with a time local.
    if (tz.hour === NONE && time.count === 0) setZone(tz, 0);
    day.iso = true;
    return END_TOKEN;
  };

  // One token of V8's legacy reader; false when the text cannot be a date.
  const readLegacy = (t, scanner, state) => {
    const { day, time, tz } = state;
    if (t.tag === NUMBER) {
      state.hasNumber = true;
      const n = t.value;
      if (scanner.skip(58)) {
        if (scanner.skip(58)) {
          // n::
          if (time.count !== 0) return false;
          add(time, n);
          add(time, 0);
        } else {
          // n:
          if (!add(time, n)) return false;
          if (isSymbol(scanner.peek(), 46)) scanner.next();
        }
      } else if (scanner.skip(46) && timeExpects(time, n)) {
        add(time, n);
        if (scanner.peek().tag !== NUMBER) return false;
        addFinalTime(time, milliseconds(scanner.next()));
      } else if (zoneExpects(tz, n)) {
        tz.minute = n;
      } else if (timeExpects(time, n)) {
        addFinalTime(time, n);
        // The end, white space, 'Z' or a sign right after a complete time.
        const peek = scanner.peek();
        if (peek.tag !== END && peek.tag !== WHITE_SPACE && !isZ(peek) && !isSign(peek)) return false;
      } else {
        if (!add(day, n)) return false;
        scanner.skip(45);
      }
    } else if (t.tag >= INVALID_WORD) {
      if (t.tag === AM_PM && time.count !== 0) {
        time.hourOffset = t.value;
      } else if (t.tag === MONTH_NAME) {
        day.namedMonth = t.value;
        scanner.skip(45);
      } else if (t.tag === TIME_ZONE_NAME && state.hasNumber) {
        setZone(tz, t.value);
      } else {
        // Any word before the first number, apart from it.
        if (state.hasNumber) return false;
        if (scanner.peek().tag === NUMBER) return false;
      }
    } else if (isSign(t) && (zoneIsUTC(tz) || time.count !== 0)) {
      // An offset, after UTC or a time: hh, hhmm, or hh: (whose minutes are read apart).
      tz.sign = signOf(t);
      let n = 0;
      let length = 0;
      if (scanner.peek().tag === NUMBER) {
        const number = scanner.next();
        length = number.length;
        n = number.value;
      }
      state.hasNumber = true;
      if (isSymbol(scanner.peek(), 58)) {
        tz.hour = n;
        tz.minute = NONE;
      } else if (length === 1 || length === 2) {
        tz.hour = n;
        tz.minute = 0;
      } else if (length === 3 || length === 4) {
        tz.hour = (n / 100) | 0;
        tz.minute = n % 100;
      } else {
        return false;
      }
    } else if ((isSign(t) || isSymbol(t, 41)) && state.hasNumber) {
      return false;
    }
    return true;
  };

  // V8's DateParser::Parse: [year, month, day, hour, minute, second, millisecond, offset in seconds or
  // NaN], or null.
  const fieldsOf = (text) => {
    const scanner = tokenizer(text);
    const state = { day: dayComposer(), time: timeComposer(), tz: zoneComposer(), hasNumber: false };
    const first = readES5(scanner, state.day, state.time, state.tz);
    if (first.tag === INVALID_TOKEN) return null;
    state.hasNumber = state.day.count !== 0;
    for (let t = first; t.tag !== END; t = scanner.next()) {
      if (!readLegacy(t, scanner, state)) return null;
    }
    const day = writeDay(state.day);
    const time = day === null ? null : writeTime(state.time);
    const offset = time === null ? null : writeZone(state.tz);
    return offset === null ? null : [day[0], day[1], day[2], time[0], time[1], time[2], time[3], offset];
  };

  // V8's MakeDay, for the whole numbers the parser gives: NaN beyond a million years.
  const DAYS_BEFORE_MONTH = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
  const daysBefore = (y) => 365 * y + floor(y / 4) - floor(y / 100) + floor(y / 400);
  const makeDay = (year, month, date) => {
    if (!(year >= -1000000 && year <= 1000000)) return NaN;
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    return daysBefore(year - 1) - daysBefore(1969) + DAYS_BEFORE_MONTH[month] + (leap && month > 1 ? 1 : 0) +
      date - 1;
  };

  // V8's ParseDateTimeString: the time value `text` gives.
  const parse = (text) => {
    const f = fieldsOf(text);
    if (f === null) return NaN;
    const date = makeDay(f[0], f[1], f[2]) * 864e5 + f[3] * 3600000 + f[4] * 60000 + f[5] * 1000 + f[6];
    if (date !== date) return NaN;
    if (f[7] !== f[7]) {
      if (date < -MAX_LOCAL_TIME || date > MAX_LOCAL_TIME) return NaN;
      // Local time, to UTC by QuickJS's rules (which part from V8's in a few zones' daylight saving
      // changes, as they do for any local date), clipped to the time values' range. The constructor reads
      // the years 0 to 99 as 1900 to 1999: those (only the language's format gives them, and they had no
      // daylight saving) are set field by field.
      if (f[0] < 0 || f[0] > 99) return apply(getTime, construct(RealDate, [f[0], f[1], f[2], f[3], f[4], f[5], f[6]]), []);
      const local = construct(RealDate, [2000, 0, 1]);
      apply(setFullYear, local, [f[0], f[1], f[2]]);
      return apply(setHours, local, [f[3], f[4], f[5], f[6]]);
    }
    const utc = date - f[7] * 1000;
    return utc < -MAX_TIME || utc > MAX_TIME ? NaN : utc + 0;
  };

  // ToPrimitive with no hint, as `new Date(value)` converts its one argument.
  const toPrimitive = (value) => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
    const exotic = value[TO_PRIMITIVE];
    if (exotic !== undefined && exotic !== null) {
      if (typeof exotic !== 'function') throw new TypeErrorOf('Symbol.toPrimitive is not a function');
      const result = apply(exotic, value, ['default']);
      if (result !== null && (typeof result === 'object' || typeof result === 'function')) {
        throw new TypeErrorOf('Cannot convert object to primitive value');
      }
      return result;
    }
    for (let i = 0; i < 2; i++) {
      const method = value[i === 0 ? 'valueOf' : 'toString'];
      if (typeof method !== 'function') continue;
      const result = apply(method, value, []);
      if (result === null || (typeof result !== 'object' && typeof result !== 'function')) return result;
    }
    throw new TypeErrorOf('Cannot convert object to primitive value');
  };
  const isDate = (value) => {
    if (value === null || typeof value !== 'object') return false;
    try {
      apply(getTime, value, []);
      return true;
    } catch (_) {
      return false;
    }
  };

  const FixedParse = { parse(text) { return parse(`${text}`); } }.parse;
  function Date(...args) {
    if (new.target === undefined) return apply(RealDate, undefined, args);
    if (args.length === 1 && !isDate(args[0])) {
      const value = toPrimitive(args[0]);
      return construct(RealDate, [typeof value === 'string' ? parse(value) : value], new.target);
    }
    return construct(RealDate, args, new.target);
  }
  for (const key of Reflect.ownKeys(RealDate)) {
    if (key === 'prototype' || key === 'length' || key === 'name') continue;
    const d = Object.getOwnPropertyDescriptor(RealDate, key);
    if (key === 'parse') d.value = FixedParse;
    defineOwn(Date, key, d);
  }
  defineOwn(Date, 'prototype', { value: dateProto, writable: false, enumerable: false, configurable: false });
  defineOwn(Date, 'length', { value: RealDate.length });
  defineOwn(g, 'Date', { value: Date, writable: true, enumerable: false, configurable: true });
})(globalThis);
