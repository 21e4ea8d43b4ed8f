//! The types a parameter can be given, and the decisions that give them: inferred, a leap of faith,
//! recorded, declared, or fixed by a person.

use crate::model::program::{ClassId, ProgramInfo};

/// The type of a value a test passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParamType {
    /// Not decided: tests pass a recording proxy.
    Unknown,
    /// A number.
    Number,
    /// A string.
    String,
    /// `true` or `false`.
    Boolean,
    /// An array of numbers or strings.
    Array,
    /// A function (a callback), returning a number.
    Function,
    /// A `Date`.
    Date,
    /// A regular expression (`RegExp`).
    RegExp,
    /// A plain object with the members read from the parameter (an options object, say).
    Object,
    /// An instance of a class of the program.
    Class(ClassId),
}

impl ParamType {
    /// Name for users; classes by their name in `program`.
    pub(crate) fn name(self, program: &ProgramInfo) -> String {
        match self {
            ParamType::Unknown => "Unknown".into(),
            ParamType::Number => "number".into(),
            ParamType::String => "string".into(),
            ParamType::Boolean => "boolean".into(),
            ParamType::Array => "array".into(),
            ParamType::Function => "function".into(),
            ParamType::Date => "Date".into(),
            ParamType::RegExp => "RegExp".into(),
            ParamType::Object => "object".into(),
            ParamType::Class(c) => program.classes[c].name.clone(),
        }
    }

    /// The types that are not classes of the program, as a user can name them.
    pub(crate) const BUILT_IN: [ParamType; 8] = [
        ParamType::Number,
        ParamType::String,
        ParamType::Boolean,
        ParamType::Array,
        ParamType::Function,
        ParamType::Date,
        ParamType::RegExp,
        ParamType::Object,
    ];

    /// Parses a type named by a user: a primitive or a class of `program`.
    pub(crate) fn parse(text: &str, program: &ProgramInfo) -> Option<ParamType> {
        ParamType::BUILT_IN
            .into_iter()
            .find(|t| t.name(program) == text)
            .or_else(|| program.class_named(text).map(ParamType::Class))
    }
}

/// How a decision was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecisionSource {
    /// From the recorded evidence.
    Inferred,
    /// No evidence: a random primitive.
    LeapOfFaith,
    /// The user accepted the inferred type (it no longer changes).
    Accepted,
    /// The user chose the type.
    Overridden,
    /// Read from the project file.
    Configured,
    /// The type of the values a recorded run passed (see `record`).
    Recorded,
    /// Declared in TypeScript (a `.ts` source, or the `.d.ts` a JavaScript file ships): the evidence
    /// quotes the annotation, and values are built from the declaration itself.
    Declared,
}

impl DecisionSource {
    /// How people are told where a type comes from, in the explorer and the reports.
    pub fn name(self) -> &'static str {
        match self {
            DecisionSource::Inferred => "inferred",
            DecisionSource::LeapOfFaith => "leap of faith",
            DecisionSource::Accepted => "accepted",
            DecisionSource::Overridden => "overridden",
            DecisionSource::Configured => "project file",
            DecisionSource::Recorded => "recorded",
            DecisionSource::Declared => "declared",
        }
    }
}

/// A decision with its reasons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The type tests use.
    pub ty: ParamType,
    /// Why, for people: the evidence that decided.
    pub evidence: String,
    /// How it was reached.
    pub source: DecisionSource,
}
