//! The model of a description as Rust makes it ([`Desc`]), before it is read as an [`Observed`]: equal
//! exactly when the JSON texts the harness compared before were.

use std::collections::BTreeMap;

use crate::model::observed::Observed;

/// A string's text as QuickJS gives it: UTF-8, a lone surrogate written as if it were a character
/// (so two texts are equal exactly when their strings are).
pub(super) type Text = Vec<u8>;

/// A number as `JSON.stringify` compares it: every non-finite value writes `null`.
#[derive(Debug, Clone, Copy)]
pub(super) struct JsonNumber(pub(super) f64);

impl PartialEq for JsonNumber {
    fn eq(&self, other: &JsonNumber) -> bool {
        self.0 == other.0 || !self.0.is_finite() && !other.0.is_finite()
    }
}

/// A description as made, before Rust reads it as an [`Observed`]: fields in the order JavaScript
/// lists them and text as QuickJS gives it, so that two descriptions are equal exactly when the JSON
/// texts the harness compared before were (a field's order counts, as it did in the text).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Desc {
    Undefined,
    Boolean(bool),
    Number(String),
    String(Text),
    BigInt(String),
    Symbol,
    Null,
    Variable(usize),
    Class(usize),
    Function,
    Cycle,
    Deep,
    Hole,
    LongArray(JsonNumber),
    Array { items: Vec<Desc>, extra: bool },
    Iterator { done: bool, items: Vec<Desc>, asynchronous: bool, threw: Option<Box<Desc>> },
    Date(JsonNumber),
    RegExp(Text),
    Error { name: Text, message: Text, stack: Text },
    Object { fields: Vec<(Text, Desc)>, cut: bool, bare: bool },
    Instance { class: usize, fields: Vec<(Text, Desc)> },
    Collection { class: Text, items: Vec<Desc> },
    Other(Text),
    Unreadable,
    Ref(i64),
    Pending,
    Web { class: String, text: String },
}

impl Desc {
    pub(super) fn fields(&self) -> Option<&[(Text, Desc)]> {
        match self {
            Desc::Object { fields, .. } | Desc::Instance { fields, .. } => Some(fields),
            _ => None,
        }
    }

    /// The description as Rust keeps it; fails on what it cannot hold (a lone surrogate), as serde
    /// refused it in the harness's JSON.
    pub(super) fn observed(self) -> Result<Observed, &'static str> {
        let text = |t: Text| String::from_utf8(t).map_err(|_| "a string with a lone surrogate");
        let list = |items: Vec<Desc>| items.into_iter().map(Desc::observed).collect::<Result<Vec<_>, _>>();
        let map = |fields: Vec<(Text, Desc)>| {
            fields
                .into_iter()
                .map(|(k, d)| Ok::<_, &'static str>((text(k)?, d.observed()?)))
                .collect::<Result<BTreeMap<_, _>, _>>()
        };
        Ok(match self {
            Desc::Undefined => Observed::Undefined,
            Desc::Boolean(value) => Observed::Boolean { value },
            Desc::Number(text) => Observed::Number { text },
            Desc::String(value) => Observed::String { value: text(value)? },
            Desc::BigInt(digits) => Observed::BigInt { digits },
            Desc::Symbol => Observed::Symbol,
            Desc::Null => Observed::Null,
            Desc::Variable(index) => Observed::Variable { index },
            Desc::Class(class) => Observed::Class { class },
            Desc::Function => Observed::Function,
            Desc::Cycle => Observed::Cycle,
            Desc::Deep => Observed::Deep,
            Desc::Hole => Observed::Hole,
            Desc::LongArray(JsonNumber(n)) => Observed::LongArray { length: index(n).ok_or("an index was expected")? },
            Desc::Array { items, extra } => Observed::Array { items: list(items)?, extra },
            Desc::Iterator { done, items, asynchronous, threw } => Observed::Iterator {
                done,
                items: list(items)?,
                asynchronous,
                threw: threw.map(|t| t.observed().map(Box::new)).transpose()?,
            },
            Desc::Date(JsonNumber(t)) => Observed::Date { time: json_number(t) },
            Desc::RegExp(source) => Observed::RegExp { source: text(source)? },
            Desc::Error { name, message, stack } => Observed::Error {
                name: text(name)?,
                message: Some(text(message)?),
                stack: String::from_utf8(stack).ok(),
            },
            Desc::Object { fields, cut, bare } => Observed::Object { fields: map(fields)?, cut, bare },
            Desc::Instance { class, fields } => Observed::Instance { class, fields: map(fields)? },
            Desc::Collection { class, items } => Observed::Collection { class: text(class)?, items: list(items)? },
            Desc::Other(name) => Observed::Other { name: text(name)? },
            Desc::Unreadable => Observed::Unreadable,
            Desc::Ref(object) => Observed::Ref { object },
            Desc::Pending => Observed::Pending,
            Desc::Web { class, text } => Observed::Web { class, text },
        })
    }
}

/// A number as serde read a count or an index from the JSON: a whole number, not negative.
pub(in crate::sandbox::engine) fn index(n: f64) -> Option<usize> {
    (n >= 0.0 && n.fract() == 0.0 && n <= usize::MAX as f64).then_some(n as usize)
}

/// A date's time as the JSON number `JSON.stringify` wrote (`None` for `NaN`, written `null`): a whole
/// number as serde reads one (unsigned unless negative), any other as a double.
fn json_number(t: f64) -> Option<serde_json::Number> {
    if !t.is_finite() {
        None
    } else if t.fract() == 0.0 && t >= 0.0 && t < u64::MAX as f64 {
        Some(serde_json::Number::from(t as u64))
    } else if t.fract() == 0.0 && t < 0.0 && t >= i64::MIN as f64 {
        Some(serde_json::Number::from(t as i64))
    } else {
        serde_json::Number::from_f64(t)
    }
}

#[cfg(test)]
mod tests {
    use super::{Desc, JsonNumber};
    use crate::model::observed::Observed;

    #[test]
    fn descriptions_are_equal_when_their_json_was() {
        // Every non-finite number wrote `null`; field order counted, as in the text.
        assert_eq!(Desc::Date(JsonNumber(f64::NAN)), Desc::Date(JsonNumber(f64::INFINITY)));
        assert_ne!(Desc::Date(JsonNumber(1.0)), Desc::Date(JsonNumber(f64::NAN)));
        let field = |k: &str, n: &str| (k.as_bytes().to_vec(), Desc::Number(n.into()));
        let object = |fields| Desc::Object { fields, cut: false, bare: false };
        assert_eq!(object(vec![field("a", "1"), field("b", "2")]), object(vec![field("a", "1"), field("b", "2")]));
        assert_ne!(object(vec![field("a", "1"), field("b", "2")]), object(vec![field("b", "2"), field("a", "1")]));
    }

    #[test]
    fn what_rust_cannot_hold_is_refused() {
        // A lone surrogate, as QuickJS writes it in UTF-8.
        let lone = Desc::String(vec![0xed, 0xa0, 0x80]);
        assert_eq!(lone.observed(), Err("a string with a lone surrogate"));
        let nested = Desc::Object { fields: vec![(vec![0xed, 0xa0, 0x80], Desc::Null)], cut: false, bare: false };
        assert!(nested.observed().is_err());
        assert_eq!(Desc::LongArray(JsonNumber(1.5)).observed(), Err("an index was expected"));
        assert_eq!(Desc::LongArray(JsonNumber(60.0)).observed(), Ok(Observed::LongArray { length: 60 }));
        let date = Desc::Date(JsonNumber(-1.0)).observed().unwrap();
        assert_eq!(serde_json::to_string(&date).unwrap(), r#"{"t":"date","v":-1}"#);
    }
}
