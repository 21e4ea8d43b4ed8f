// Exercises: string inputs with a strict shape (13 digits, a matching check digit, well-placed hyphens) that random strings almost never hit: needs a regex string generator or mined constants.

/*
 * Validation of ISBN-13 book numbers, and conversion to the older ISBN-10
 * form for the numbers that have one.
 *
 *   var isbn = new IsbnValidator();
 *   isbn.isValid('978-0-306-40615-7');   // true
 *   isbn.isValid('9780306406158');       // false: wrong check digit
 *   isbn.toIsbn10('978-0-306-40615-7');  // '0306406152'
 */

/**
 * @param {boolean} strictHyphens when true (the default), hyphens must
 *   separate groups of digits: no leading, trailing or doubled hyphen.
 */
function IsbnValidator(strictHyphens) {
  this.strictHyphens = strictHyphens !== false;
}

/**
 * The digits of `code` without hyphens and spaces, or null when the hyphens
 * are misplaced.
 */
IsbnValidator.prototype.normalize = function (code) {
  var text = String(code).trim();
  if (this.strictHyphens && /^-|-$|--/.test(text)) {
    return null;
  }
  return text.replace(/[-\s]/g, '');
};

/**
 * The check digit (0-9) for the first twelve digits of an ISBN-13: digits
 * are weighted 1, 3, 1, 3, ... and the check digit brings the sum to a
 * multiple of ten.
 */
IsbnValidator.prototype.checkDigit = function (first12) {
  if (!/^\d{12}$/.test(first12)) {
    throw new Error('expected twelve digits, got "' + first12 + '"');
  }
  var sum = 0;
  for (var i = 0; i < 12; i++) {
    var digit = first12.charCodeAt(i) - 48;
    sum += i % 2 === 0 ? digit : 3 * digit;
  }
  return (10 - sum % 10) % 10;
};

/** Whether `code` is a well-formed ISBN-13 with the right check digit. */
IsbnValidator.prototype.isValid = function (code) {
  var digits = this.normalize(code);
  if (digits === null) {
    return false;
  }
  if (!/^\d{13}$/.test(digits)) {
    return false;
  }
  return this.checkDigit(digits.slice(0, 12)) === digits.charCodeAt(12) - 48;
};

/**
 * The ISBN-10 form of a valid ISBN-13.  Only numbers in the 978 range have
 * one: null for any other prefix (979).  Throws for an invalid ISBN-13.
 */
IsbnValidator.prototype.toIsbn10 = function (code) {
  if (!this.isValid(code)) {
    throw new Error('not a valid ISBN-13: ' + code);
  }
  var digits = this.normalize(code);
  if (digits.slice(0, 3) !== '978') {
    return null;
  }
  var core = digits.slice(3, 12);
  // ISBN-10 weights the digits 10 down to 2, modulo 11; 10 is written X.
  var sum = 0;
  for (var i = 0; i < 9; i++) {
    sum += (10 - i) * (core.charCodeAt(i) - 48);
  }
  var check = (11 - sum % 11) % 11;
  return core + (check === 10 ? 'X' : String(check));
};
