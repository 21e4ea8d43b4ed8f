//! Objects fitted to the names a run read on them. Code that looks an object up by names another value
//! gives (a template's `context[name]` for the names its pattern holds, `table[key]` for a key
//! argument) reads names that change with that other value: no record keeps them for long, and an
//! object drawn afresh holds them by chance only. An object built for a record is watched for reads of
//! names it lacks (see [`Value::Object`]); after a run that read such names, [`fitted`] gives the same
//! test again with those names set, so the object now fits the other value of the same test.

use rand::Rng;

use super::Request;
use super::objects::any_entry;
use super::places::{places, value_at};
use super::random::Builder;
use crate::analysis::declared::DeclaredType;
use crate::inference::ParamType;
use crate::model::test::{TestCase, Value};
use crate::sandbox::ProxyEvent;

/// Most names set on one object: a loop reading names of its own making (`obj['k' + i]`) is not a
/// lookup by another value's names.
const MAX_NAMES: usize = 8;
/// Longest name set: a name longer is a whole text looked up, not a name.
const MAX_NAME_LENGTH: usize = 40;

/// `test` again with its watched objects holding the names `events` show the run read on them while
/// they lacked them; `None` when no object lacked a name its record has not learnt as a member (names it
/// has are set half the time by every object built for it anyway). A name of a member whose type is
/// decided gets a value of that type, one of a declared dictionary a value of its declared items, any
/// other a number, string, flag or short array.
pub(crate) fn fitted(
    request: &Request,
    test: &TestCase,
    events: &[ProxyEvent],
    rng: &mut (impl Rng + ?Sized),
) -> Option<TestCase> {
    let mut read: Vec<(u32, Vec<&str>)> = Vec::new();
    for event in events {
        let (ProxyEvent::Get { key, name } | ProxyEvent::Has { key, name }) = event else { continue };
        if name.is_empty() || name.len() > MAX_NAME_LENGTH || name.starts_with("@@") {
            continue;
        }
        match read.iter_mut().find(|(k, _)| k == key) {
            Some((_, names)) if !names.contains(&name.as_str()) => names.push(name),
            Some(_) => {}
            None => read.push((*key, vec![name])),
        }
    }
    let watched =
        |value: &Value| matches!(value, Value::Object { record: Some(r), .. } if read.iter().any(|(k, _)| k == r));
    let at: Vec<_> = places(test, watched).into_iter().map(|(place, _)| place).collect();
    let mut out = test.clone();
    let mut fitted = false;
    for place in at {
        let Some(Value::Object { members, record: Some(record) }) = value_at(&mut out, &place) else {
            continue;
        };
        let record = *record;
        let Some((_, names)) = read.iter().find(|(k, _)| *k == record) else { continue };
        let missing: Vec<&str> =
            names.iter().copied().filter(|name| !members.iter().any(|(m, _)| m == name)).take(MAX_NAMES).collect();
        if missing.iter().all(|name| request.types.member_of(record, name).is_some()) {
            continue;
        }
        let added: Vec<(String, Value)> =
            missing.into_iter().map(|name| (name.to_string(), member_value(request, record, name, rng))).collect();
        if let Some(Value::Object { members, .. }) = value_at(&mut out, &place) {
            members.extend(added);
            fitted = true;
        }
    }
    fitted.then_some(out)
}

/// A value for member `name` of an object built for `record`: of the member's type when decided, unless
/// building it takes statements of its own (an instance of a class, declared before it is used), which
/// would come after the call that uses it.
fn member_value(request: &Request, record: u32, name: &str, rng: &mut (impl Rng + ?Sized)) -> Value {
    let mut builder = Builder::new(request);
    if let Some(DeclaredType::Dictionary(item)) = request.types.get(record).declared_in_force().map(|d| &d.ty) {
        let value = builder.declared(None, item, 1, rng);
        if builder.test.statements.is_empty() {
            return value;
        }
    }
    let typed =
        request.types.member_of(record, name).filter(|m| request.types.get(*m).current_type() != ParamType::Unknown);
    if let Some(member) = typed {
        let value = builder.argument(member, 1, rng);
        if builder.test.statements.is_empty() {
            return value;
        }
    }
    any_entry(&mut builder, rng)
}
