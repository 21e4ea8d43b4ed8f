//! Evidence from errors: what a thrown message says about the value that caused it.
//!
//! Validation code often rejects a recording proxy before it shows any use of it (`typeof` leaves no
//! trace on a proxy), but says in words what it wanted: "Must be a string. Got type \"function\"",
//! "expected a number", "callback is not a function", "value is not iterable". Such a message is
//! evidence for the parameter whose value caused it: its recording proxy's, or a leap of faith's (the
//! leap goes to the type named at once, instead of failing for thirty calls first). A message that only
//! rejects ("Invalid argument") says that the proxy will not do: members read on it before were probes
//! (`v.toStringTag`, a brand check), not uses, and a leap of faith need not wait as long.
//!
//! Which parameter caused it: among the arguments of the call that threw (or, for a function a call
//! returned, of the call that made it) that are still proxies or leaps of faith, the one whose name the
//! message says, else the only one, or else the only proxy the code used before it threw, unless the
//! message names another value of the call (a member of the same options object whose type is settled).

use super::{Decision, DecisionSource, ParamType, TypeTable};
use crate::model::program::ProgramInfo;
use crate::model::test::{TestCase, Value};
use crate::sandbox::ProxyEvent;

/// What a thrown message says about the value that caused it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Complaint {
    /// It names the type it wanted.
    Wants(ParamType),
    /// It rejects the value without naming a type.
    Rejects,
}

/// A type a parameter's thrown errors asked for: how often, and one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    /// The type named.
    pub ty: ParamType,
    /// How many calls threw it.
    pub count: u32,
    /// The first message.
    pub message: String,
}

/// Type names as messages write them.
const TYPE_WORDS: &[(&str, ParamType)] = &[
    ("string", ParamType::String),
    ("strings", ParamType::String),
    ("number", ParamType::Number),
    ("numbers", ParamType::Number),
    ("numeric", ParamType::Number),
    ("integer", ParamType::Number),
    ("integers", ParamType::Number),
    ("finite", ParamType::Number),
    ("function", ParamType::Function),
    ("functions", ParamType::Function),
    ("callable", ParamType::Function),
    ("array", ParamType::Array),
    ("arrays", ParamType::Array),
    ("iterable", ParamType::Array),
    ("boolean", ParamType::Boolean),
    ("booleans", ParamType::Boolean),
    ("date", ParamType::Date),
    ("regexp", ParamType::RegExp),
    ("object", ParamType::Object),
    ("objects", ParamType::Object),
];

/// Words just before a type name that say it is wanted ("must be a", "expected", "is not a").
const WANTING: &[&str] = &[
    "must",
    "should",
    "be",
    "are",
    "expected",
    "expects",
    "expecting",
    "requires",
    "required",
    "needs",
    "not",
    "only",
];

/// Words just before a type name that say it is what was received instead ("got type", "received").
const RECEIVED: &[&str] = &["got", "received", "receive", "given", "was", "found", "passed", "instead"];

/// Words that reject a value without naming a type.
const REJECTING: &[&str] = &["invalid", "illegal", "unsupported", "unexpected", "malformed"];

/// What `message` says about the value that caused it, if anything: the first type name preceded
/// (within four words) by a word of wanting and by none of receiving; else a rejection.
pub(crate) fn complaint(message: &str) -> Option<Complaint> {
    let lower = message.to_lowercase();
    // The engine's own word when it iterates a value whose iterator's `next` gives no object (a
    // recording proxy's): the value was iterated, and the object named is the iterator's result.
    if lower.contains("iterator must return an object") {
        return Some(Complaint::Wants(ParamType::Array));
    }
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    for (i, word) in words.iter().enumerate() {
        let Some((_, ty)) = TYPE_WORDS.iter().find(|(name, _)| name == word) else { continue };
        let before = &words[i.saturating_sub(4)..i];
        if before.iter().any(|w| RECEIVED.contains(w)) {
            continue;
        }
        if before.iter().any(|w| WANTING.contains(w)) {
            return Some(Complaint::Wants(*ty));
        }
    }
    words.iter().any(|w| REJECTING.contains(w)).then_some(Complaint::Rejects)
}

impl TypeTable {
    /// Learns from `message`, thrown by statement `at` of `test` (`events` are what the run's proxies
    /// saw): a type named goes to the proxy's record as evidence, or replaces a leap of faith; a
    /// rejection is counted on the proxy's record, and the members read on a rejected proxy are taken
    /// for probes. Returns the leaps of faith replaced.
    pub(crate) fn learn_from_error(
        &mut self,
        test: &TestCase,
        at: usize,
        message: &str,
        events: &[ProxyEvent],
        program: &ProgramInfo,
    ) -> Vec<(u32, Decision)> {
        let Some(complaint) = complaint(message) else { return Vec::new() };
        // A function a call returned (`once(fn)`'s wrapper) throws about what that call gave it: a
        // parameter only such a function uses (`fn`, called by the wrapper) shows nothing else.
        let maker = test.maker_of(at);
        let given: Vec<_> =
            self.given(test).into_iter().filter(|g| g.statement == at || Some(g.statement) == maker).collect();
        let mut suspects: Vec<(u32, bool)> = Vec::new();
        for given in &given {
            let record = &self.records[given.record as usize];
            let proxy = matches!(given.value, Value::Proxy(_));
            let leap = record.decision.as_ref().is_some_and(|d| d.source == DecisionSource::LeapOfFaith);
            if (proxy || leap) && !record.frozen() && !suspects.iter().any(|(id, _)| *id == given.record) {
                suspects.push((given.record, proxy));
            }
        }
        let lower = message.to_lowercase();
        let named: Vec<(u32, bool)> =
            suspects.iter().copied().filter(|(id, _)| names(&lower, &self.records[*id as usize].name)).collect();
        // A message naming a member read on the only suspect ("limit must be a positive integer" after
        // `options.limit` was read) is about that member's value, not the parameter's; so is one naming
        // a value of the call whose type is settled (`options.limit` a number beside a proxy for
        // `options.clock`).
        let about_member = |id: u32| {
            events.iter().any(|e| matches!(e, ProxyEvent::Get { key, name } if *key == id && names(&lower, name)))
        };
        // A message saying what it received ("Expected a string but received a Number", "... a null") is
        // about such a value the call passed, when one of its settled arguments is one.
        let received = received(&lower);
        let about_settled = given.iter().any(|g| {
            !suspects.iter().any(|(id, _)| *id == g.record)
                && (names(&lower, &self.records[g.record as usize].name)
                    || received.is_some_and(|kind| kind_of(g.value) == Some(kind)))
        });
        // Of several proxies, a message naming none is about the one the code used before it threw
        // (`assertString(url)` read `url.constructor` while `options` was never reached), when only one
        // was used.
        let used: Vec<(u32, bool)> = suspects
            .iter()
            .copied()
            .filter(|(id, proxy)| {
                *proxy && events.iter().any(|e| e.key() == *id && !matches!(e, ProxyEvent::Created { .. }))
            })
            .collect();
        let mut blamed = match (named.is_empty(), suspects.len()) {
            (false, _) => named,
            (true, 1) if !(about_settled || suspects[0].1 && about_member(suspects[0].0)) => suspects,
            (true, _) if used.len() == 1 && !(about_settled || about_member(used[0].0)) => used,
            _ => return Vec::new(),
        };
        // A recording proxy can be called, so a call that failed for want of a function called
        // something reached through it when the code read its members (`text.split(';')[0].indexOf('=')`
        // runs out of inert answers): the parameter is not the function wanted.
        if complaint == Complaint::Wants(ParamType::Function) {
            let read = |id: u32| events.iter().any(|e| matches!(e, ProxyEvent::Get { key, .. } if *key == id));
            blamed.retain(|(id, proxy)| !(*proxy && read(*id)));
        }
        let mut replaced = Vec::new();
        for (id, proxy) in blamed {
            let record = &mut self.records[id as usize];
            if proxy {
                for event in events {
                    if let ProxyEvent::Get { key, name } = event
                        && *key == id
                    {
                        *record.probed.entry(name.clone()).or_default() += 1;
                    }
                }
            }
            match complaint {
                Complaint::Rejects if proxy => record.rejected += 1,
                Complaint::Rejects => {}
                Complaint::Wants(ty) if proxy => match record.wanted.iter_mut().find(|w| w.ty == ty) {
                    Some(wanted) => wanted.count += 1,
                    None => record.wanted.push(Wanted { ty, count: 1, message: message.to_string() }),
                },
                Complaint::Wants(ty) if record.current_type() != ty => {
                    let evidence = format!(
                        "a leap of faith to {} made calls throw '{message}': {}",
                        record.current_type().name(program),
                        ty.name(program)
                    );
                    let decision = Decision { ty, evidence, source: DecisionSource::Inferred };
                    record.decision = Some(decision.clone());
                    replaced.push((id, decision));
                }
                Complaint::Wants(_) => {}
            }
        }
        replaced
    }
}

/// What a message says it received: a value of a type, `null` or `undefined`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Received {
    Type(ParamType),
    Null,
    Undefined,
}

/// What `message` (lower case) says it received instead ("received a Number", "got string", "received
/// a null"), if anything.
fn received(message: &str) -> Option<Received> {
    let words: Vec<&str> = message.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    words.iter().enumerate().find_map(|(i, word)| {
        let kind = match *word {
            "null" => Received::Null,
            "undefined" => Received::Undefined,
            _ => Received::Type(TYPE_WORDS.iter().find(|(name, _)| name == word)?.1),
        };
        words[i.saturating_sub(2)..i].iter().any(|w| RECEIVED.contains(w)).then_some(kind)
    })
}

/// What a message would say it received of `value`, for the values a test passes as they are.
fn kind_of(value: &Value) -> Option<Received> {
    match value {
        Value::Number(_) => Some(Received::Type(ParamType::Number)),
        Value::String(_) => Some(Received::Type(ParamType::String)),
        Value::Boolean(_) => Some(Received::Type(ParamType::Boolean)),
        Value::Null => Some(Received::Null),
        Value::Undefined => Some(Received::Undefined),
        _ => None,
    }
}

/// Whether `message` (lower case) names the parameter called `name` (`options.max` and `items[i]` by
/// their last name), as a word.
fn names(message: &str, name: &str) -> bool {
    let last = name.trim_end_matches("[i]").trim_end_matches("()").rsplit('.').next().unwrap_or(name).to_lowercase();
    !last.is_empty() && message.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '$').any(|w| w == last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_type_wanted_not_the_one_received() {
        let cases = [
            ("Invalid release. Must be a string. Got type \"function\".", Some(Complaint::Wants(ParamType::String))),
            (
                "Invalid Version: x. Received type \"number\", expected a string",
                Some(Complaint::Wants(ParamType::String)),
            ),
            ("expected a number, got string", Some(Complaint::Wants(ParamType::Number))),
            ("callback is not a function", Some(Complaint::Wants(ParamType::Function))),
            ("not a function", Some(Complaint::Wants(ParamType::Function))),
            ("value is not iterable", Some(Complaint::Wants(ParamType::Array))),
            ("iterator must return an object", Some(Complaint::Wants(ParamType::Array))),
            ("keys are numbers", Some(Complaint::Wants(ParamType::Number))),
            ("places must be a non-negative integer", Some(Complaint::Wants(ParamType::Number))),
            ("[Amount] Invalid argument: 0.5", Some(Complaint::Rejects)),
            ("got a number", None),
            ("index out of bounds: 3", None),
            ("the string was empty", None),
        ];
        for (message, expected) in cases {
            assert_eq!(complaint(message), expected, "{message}");
        }
    }

    #[test]
    fn a_message_says_which_type_it_received() {
        let number = Some(Received::Type(ParamType::Number));
        assert_eq!(received("expected a string but received a number"), number);
        assert_eq!(received("invalid version. received type \"number\", expected a string"), number);
        assert_eq!(received("expected a number, got string"), Some(Received::Type(ParamType::String)));
        assert_eq!(received("expected a string but received a null"), Some(Received::Null));
        assert_eq!(received("must be a string"), None);
    }

    /// `const wrapped = once(fn); wrapped();`: the wrapper threw "not a function", about the `fn` that
    /// `once` was given on a leap of faith (it used `fn` only in the wrapper, so no proxy saw it used).
    #[test]
    fn a_function_a_call_returned_throws_about_what_that_call_gave_it() {
        use crate::model::program::{ClassInfo, MethodInfo, Origin};
        use crate::model::test::{CALL_ITSELF, Statement, Variable};
        let module = ClassInfo {
            methods: vec![MethodInfo::bare("once", vec!["fn".into()], Origin::Prototype)],
            ..ClassInfo::script("combinators")
        };
        let program = ProgramInfo { classes: vec![module], ..Default::default() };
        let mut types = TypeTable::new(&program);
        let id = types.params_of(0, "once")[0];
        let leap = Decision { ty: ParamType::String, evidence: String::new(), source: DecisionSource::LeapOfFaith };
        types.get_mut(id).decision = Some(leap);
        let variable = |name: &str| Variable { class: 0, name: name.into() };
        let mut once = Statement::call(0, "once", vec![Value::String("a".into())], true);
        if let Statement::Call { result, .. } = &mut once {
            *result = Some(1);
        }
        let test = TestCase {
            class: 0,
            method: "once".into(),
            variables: vec![variable("combinators"), variable("wrapped")],
            statements: vec![once, Statement::call(1, CALL_ITSELF, Vec::new(), true)],
        };
        assert_eq!(test.maker_of(1), Some(0));
        let replaced = types.learn_from_error(&test, 1, "not a function", &[], &program);
        assert_eq!(replaced.len(), 1, "{replaced:?}");
        assert_eq!(types.get(id).current_type(), ParamType::Function);
    }

    #[test]
    fn a_parameter_is_named_by_its_last_name() {
        assert!(names("options.limit must be a number", "options.limit"));
        assert!(names("items must be an array", "items[i]") && names("text must be a string", "text"));
        assert!(!names("context is wrong", "text"));
    }
}
