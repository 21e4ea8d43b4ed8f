//! Reading the harness's log (`log` in `harness.js`: flat (parameter key, event, detail) triples, see
//! [`read_log`]) from its array through the C interface, after every test.
//!
//! It came as JSON: `JSON.stringify` of the log in the harness, then serde in Rust: about 2 us of a
//! ~24 us run on `ledger.cjs`, most of it for a log of one or two triples. Now an empty log costs a
//! length read, and a string is converted once (within the test's budget, see `text.rs`), its lone
//! surrogates made U+FFFD ([`lossy_text`]) where serde refused their JSON escapes.

use rquickjs::{Array, Ctx, Value};

use super::text::{TextBudget, with_text};

use crate::sandbox::events::{LogValue, PatternNote, ProxyEvent, lossy_text, read_log};

/// The proxies' events and the patterns met of the test that just ran; `is_user_file` tells the code
/// under test's files in stack frames. Fails as out of memory past `budget` (see `text.rs`).
pub(super) fn read<'js>(
    ctx: &Ctx<'js>,
    log: &Array<'js>,
    budget: &TextBudget,
    is_user_file: impl Fn(&str) -> bool,
) -> rquickjs::Result<(Vec<ProxyEvent>, Vec<PatternNote>)> {
    if log.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let values = (0..log.len())
        .map(|i| {
            let value: Value = log.get(i)?;
            if let Some(n) = value.as_number() {
                return Ok(LogValue::Number(n));
            }
            Ok(with_text(ctx, &value, budget, lossy_text)?.map_or(LogValue::Other, LogValue::Text))
        })
        .collect::<rquickjs::Result<Vec<LogValue>>>()?;
    Ok(read_log(values, is_user_file))
}
