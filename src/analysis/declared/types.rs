//! The declared types, as far as the engine can use them: a small language of what TypeScript says a
//! value is, with every name already resolved (interfaces, aliases and enums expanded; classes kept by
//! name, for the program to find).

use crate::model::test::WebClass;

/// What a declaration says a value is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum DeclaredType {
    /// `number`.
    Number,
    /// `string`.
    String,
    /// `boolean`.
    Boolean,
    /// `bigint`.
    BigInt,
    /// One value: `'asc'`, `0`, `1n`, `true`, or an enum member.
    Literal(Literal),
    /// `null`.
    Null,
    /// `undefined` or `void`.
    Undefined,
    /// One of several types; unions of literals and enums are unions of [`DeclaredType::Literal`]s.
    Union(Vec<DeclaredType>),
    /// `T[]`, `Array<T>`, `ReadonlyArray<T>`.
    Array(Box<DeclaredType>),
    /// `[A, B]`.
    Tuple(Vec<DeclaredType>),
    /// An object type, an interface or an alias of one: its members.
    Object(Vec<Member>),
    /// An object of any string keys whose values are of one type: an object type of an index signature
    /// alone (`{ [key: string]: T }`), `Record<string, T>`.
    Dictionary(Box<DeclaredType>),
    /// A function type: how many parameters it takes, and what it returns.
    Function {
        /// Parameters before any rest parameter.
        arity: usize,
        /// Its return type.
        returns: Box<DeclaredType>,
        /// What it orders, when it is a comparator (two required parameters of one type, a number
        /// returned: `(a: T, b: T) => number`), which sorting code needs consistent.
        compares: Option<Orders>,
    },
    /// `Map<K, V>`, `ReadonlyMap<K, V>`: its keys' and its values' types.
    Map(Box<DeclaredType>, Box<DeclaredType>),
    /// `Set<T>`, `ReadonlySet<T>`.
    Set(Box<DeclaredType>),
    /// `Promise<T>`, `PromiseLike<T>`: what it resolves to.
    Promise(Box<DeclaredType>),
    /// `AsyncIterable<T>`, `AsyncIterableIterator<T>`, `AsyncGenerator<T>`, `AsyncIterator<T>`: what it
    /// yields (an async generator is each of them).
    AsyncIterable(Box<DeclaredType>),
    /// An instance of the class of that name.
    Class(String),
    /// What constructs instances of a type: a construct signature's type (`new () => Hash`, `{ new (x:
    /// number): T }`) or a class's own (`typeof Queue`), by what the instances are (an object type, a
    /// class, a union of them).
    Constructs(Box<DeclaredType>),
    /// `this` returned by a method of an interface or object type: the receiver, whatever implements the
    /// type, which chained calls (`h.update(x).finish(out)`) call on again.
    This,
    /// `Date`.
    Date,
    /// `RegExp`.
    RegExp,
    /// `Uint8Array`: bytes, what binary and cryptographic code takes (keys, seeds, buffers).
    Bytes,
    /// A template literal type (`0x${string}`, `${number}px`): the text around the holes (one more than
    /// the holes) and each hole's type, a string, a number, a bigint, a boolean or a union of literals.
    Template(Vec<String>, Vec<DeclaredType>),
    /// An instance of one of Node's global web classes (`URL`, `Headers`, `AbortSignal`...), when no
    /// declaration in scope takes the name.
    Web(WebClass),
    /// Any value the caller picks: `any`, `unknown`, an unconstrained generic, or one whose bound says
    /// nothing (`K extends {}`).
    Any,
    /// A type the engine cannot build a value of (`never`, `symbol`, conditional and mapped types, a name
    /// it could not resolve).
    Opaque,
}

/// What a comparator's two parameters are, for an order of them to be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Orders {
    /// Numbers: subtracting them orders them.
    Numbers,
    /// Strings: `<` orders them.
    Strings,
    /// Values of a type the caller picks (`any`, an unconstrained generic): `<` orders numbers and strings
    /// alike, whichever the caller's values are.
    Values,
}

impl Orders {
    /// What a comparator of two values of type `ty` orders, when `ty` is one it can order.
    pub(crate) fn of(ty: &DeclaredType) -> Option<Orders> {
        match ty {
            DeclaredType::Number => Some(Orders::Numbers),
            DeclaredType::String => Some(Orders::Strings),
            DeclaredType::Any => Some(Orders::Values),
            _ => None,
        }
    }
}

/// A literal value of a type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Literal {
    /// A number.
    Number(f64),
    /// A string.
    String(String),
    /// A bigint (one a test's values can hold: within 64 bits).
    BigInt(i64),
    /// `true` or `false`.
    Boolean(bool),
}

/// A member of an object type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Member {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: DeclaredType,
    /// Whether it may be left out (`name?: T`).
    pub optional: bool,
}

/// A parameter as declared.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DeclaredParam {
    /// Its name in the declaration.
    pub name: String,
    /// Its type.
    pub ty: DeclaredType,
    /// The annotation as written (`'asc' | 'desc'`), for people.
    pub text: String,
    /// Whether callers may leave it out (`x?: T`, or a default value).
    pub optional: bool,
}

/// The declared parameters of a constructor or method.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Signature {
    /// In order; a rest parameter and what follows it are not listed.
    pub params: Vec<DeclaredParam>,
    /// Whether calls may pass more arguments than `params` lists (a rest parameter). When not, a
    /// parameter the code has beyond them is one no TypeScript caller can pass.
    pub open: bool,
    /// What each argument from `params.len()` on is declared to be, when the rest parameter's type is an
    /// array: its element (`...items: Item[]` takes `Item`s), optional, since a call may pass none.
    pub rest: Option<DeclaredParam>,
}

impl DeclaredType {
    /// A union of `types`, flattened, without repeats: one type stays itself, and a union with `any` in it
    /// is `any`, or `any` with `undefined` and `null` when it names them (`K | undefined`: code checks for
    /// them, and callers may pass them).
    pub(crate) fn union(types: Vec<DeclaredType>) -> DeclaredType {
        let mut members: Vec<DeclaredType> = Vec::new();
        for ty in types {
            let parts = match ty {
                DeclaredType::Union(parts) => parts,
                other => vec![other],
            };
            for part in parts {
                if !members.contains(&part) {
                    members.push(part);
                }
            }
        }
        if members.contains(&DeclaredType::Any) {
            members.retain(|m| matches!(m, DeclaredType::Any | DeclaredType::Undefined | DeclaredType::Null));
        }
        match members.len() {
            0 => DeclaredType::Opaque,
            1 => members.pop().expect("one member"),
            _ => DeclaredType::Union(members),
        }
    }
}
