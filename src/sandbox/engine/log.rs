//! Reading the harness's log (`log` in `harness.js`: flat (parameter key, event, detail) triples, see
//! [`read_log`]) from its array through the C interface, after every test.
//!
//! It came as JSON: `JSON.stringify` of the log in the harness, then serde in Rust: about 2 us of a
//! ~24 us run on `ledger.cjs`, most of it for a log of one or two triples. Now an empty log costs a
//! length read, and a string is converted once, its lone surrogates made U+FFFD ([`lossy_text`]) where
//! serde refused their JSON escapes.

use rquickjs::{Array, Ctx, Value, qjs};

use crate::sandbox::events::{LogValue, PatternNote, ProxyEvent, lossy_text, read_log};

/// The proxies' events and the patterns met of the test that just ran; `is_user_file` tells the code
/// under test's files in stack frames.
pub(super) fn read<'js>(
    ctx: &Ctx<'js>,
    log: &Array<'js>,
    is_user_file: impl Fn(&str) -> bool,
) -> (Vec<ProxyEvent>, Vec<PatternNote>) {
    if log.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let values = (0..log.len()).map(|i| log.get::<Value>(i).map_or(LogValue::Other, |v| value(ctx, v)));
    read_log(values, is_user_file)
}

fn value(ctx: &Ctx, value: Value) -> LogValue {
    if let Some(n) = value.as_number() {
        return LogValue::Number(n);
    }
    if !value.is_string() {
        return LogValue::Other;
    }
    let raw = ctx.as_raw().as_ptr();
    // SAFETY: `raw` is the live context of `value`; the C string QuickJS makes is copied, then freed.
    unsafe {
        let mut length = 0;
        let text = qjs::JS_ToCStringLen(raw, &mut length, value.as_raw());
        if text.is_null() {
            qjs::JS_FreeValue(raw, qjs::JS_GetException(raw));
            return LogValue::Other;
        }
        let read = lossy_text(std::slice::from_raw_parts(text.cast::<u8>(), length));
        qjs::JS_FreeCString(raw, text);
        LogValue::Text(read)
    }
}
