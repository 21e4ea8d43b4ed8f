//! Declared types in TypeScript suites: what the declarations of the code under test say about the
//! members a suite calls ([`export::Declarations`]), so that a value built for a parameter's declared
//! type is written as it is (an enum's value as its member, `Color.Red`), and any other value, or one that
//! cannot be proved to carry the type, keeps its cast to `any` (values outside the declared types, from
//! `--probe-outside-types`, among them).

use std::path::Path;
use std::rc::Rc;

use crate::analysis::declared::{self, DeclaredEnum, DeclaredType, Literal, Member, Orders};
use crate::export::{self, Declarations, DeclaredMember, EnumBinding, Typed};
use crate::js::literal;
use crate::model::program::ProgramInfo;
use crate::model::test::{Shape, TestCase, Value};

/// What the declarations of `program`'s classes say about their public members.
pub(super) fn declarations(program: &ProgramInfo) -> Declarations {
    let mut reader = declared::Declarations::default();
    let mut found = Vec::new();
    for (class, info) in program.classes.iter().enumerate() {
        for function in std::iter::once(&info.constructor).chain(&info.methods) {
            let constructor = function.name == "constructor";
            // A factory's parameters are not its class's constructor's, nor are a unit of statics' or of
            // functions'.
            if constructor && (info.factory.is_some() || info.statics_of.is_some() || info.functions.is_some()) {
                continue;
            }
            let member = reader.member_of(program, info, &function.name);
            let Some(member) = member else {
                continue;
            };
            if member.callable {
                found.push(((class, (!constructor).then(|| function.name.clone())), member));
            }
        }
    }
    let enum_values: Rc<Vec<Literal>> = Rc::new(reader.enum_values().to_vec());
    let mut declarations = Declarations::default();
    for (key, member) in found {
        let mut enums_used = Vec::new();
        let params = member
            .signature
            .params
            .iter()
            .enumerate()
            .map(|(i, param)| {
                let enums: Vec<(String, Vec<(String, Literal)>)> = member
                    .enums
                    .get(i)
                    .map_or(&[][..], Vec::as_slice)
                    .iter()
                    .filter_map(|e| {
                        let index = bind(&mut declarations.enums, e, program)?;
                        enums_used.push(index);
                        // An enum in a namespace is reached through the namespace the suite binds.
                        let inner = e.namespaces.iter().skip(1).chain(e.namespaces.first().map(|_| &e.name));
                        let path = std::iter::once(&declarations.enums[index].alias).chain(inner);
                        Some((path.cloned().collect::<Vec<_>>().join("."), e.members.clone()))
                    })
                    .collect();
                let param =
                    Param { ty: param.ty.clone(), optional: param.optional, enums, enum_values: enum_values.clone() };
                Box::new(param) as Box<dyn export::DeclaredParam>
            })
            .collect();
        let required = member.signature.params.iter().take_while(|p| !p.optional).count();
        enums_used.sort_unstable();
        enums_used.dedup();
        // Enums the rest's element names are not bound: its values of them are cast.
        let rest = member.signature.rest.as_ref().map(|param| {
            let param =
                Param { ty: param.ty.clone(), optional: false, enums: Vec::new(), enum_values: enum_values.clone() };
            Box::new(param) as Box<dyn export::DeclaredParam>
        });
        let unread_rest = member.signature.open && rest.is_none();
        let member =
            DeclaredMember { required, params, rest, unread_rest, enums: enums_used, generics: member.generics };
        declarations.members.insert(key, member);
    }
    declarations
}

/// The index of the binding of `declared` (or of its outermost namespace) among the suite's enum bindings,
/// bound now if it was not: `None` when no file of the program is the one declaring it, or its name is a
/// class's binding already.
fn bind(bindings: &mut Vec<EnumBinding>, declared: &DeclaredEnum, program: &ProgramInfo) -> Option<usize> {
    let file = program.files.iter().position(|f| same_file(&f.path, &declared.file))?;
    // An enum in a namespace: the namespace is bound.
    let export = declared.namespaces.first().unwrap_or(&declared.name);
    if let Some(index) = bindings.iter().position(|b| b.file == file && b.export == *export) {
        return Some(index);
    }
    let taken = program.classes.iter().any(|c| c.binding() == *export) || bindings.iter().any(|b| b.alias == *export);
    if taken {
        return None;
    }
    bindings.push(EnumBinding { alias: export.clone(), file, export: export.clone() });
    Some(bindings.len() - 1)
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b || a.canonicalize().ok().is_some_and(|a| b.canonicalize().ok().as_deref() == Some(a.as_path()))
}

/// A declared parameter: its type, whether it may be left out, the enums its values may be members of
/// (by the alias the suite binds them under), and the values of every enum member types stood for.
#[derive(Debug)]
struct Param {
    ty: DeclaredType,
    optional: bool,
    enums: Vec<(String, Vec<(String, Literal)>)>,
    enum_values: Rc<Vec<Literal>>,
}

impl export::DeclaredParam for Param {
    fn typed(&self, value: &Value, test: &TestCase, program: &ProgramInfo) -> Option<Typed> {
        if self.optional && *value == Value::Undefined {
            return Some(Typed::AsWritten);
        }
        if let Some(value) = literal_of(value) {
            for (alias, members) in &self.enums {
                if let Some((name, _)) = members.iter().find(|(_, v)| *v == value) {
                    let text = if literal::is_identifier_name(name) {
                        format!("{alias}.{name}")
                    } else {
                        format!("{alias}[{}]", literal::string(name))
                    };
                    return Some(Typed::As(text));
                }
            }
        }
        let carries = Carries { test, program, enum_values: &self.enum_values };
        if !carries.value(value, &self.ty) {
            return None;
        }
        Some(if context_lost(value, &constituents(&self.ty)) { Typed::Annotated } else { Typed::AsWritten })
    }
}

/// The types a union is made of, nested unions flattened; any other type alone.
fn constituents(ty: &DeclaredType) -> Vec<&DeclaredType> {
    match ty {
        DeclaredType::Union(types) => types.iter().flat_map(constituents).collect(),
        other => vec![other],
    }
}

/// Whether a callback in `value` gets no types for its parameters from where it is written, a place whose
/// declared type is one of `types`: TypeScript gives a function the signature of the one function type
/// there and none when there are several (`Coder<number> | Coder<bigint>`'s `encode`), an object literal's
/// member what each object type there declares under its name, an array's item each array type's item.
/// An `any` there types everything.
fn context_lost(value: &Value, types: &[&DeclaredType]) -> bool {
    if !has_callback(value) || types.iter().any(|t| **t == DeclaredType::Any) {
        return false;
    }
    let within = |pick: &dyn Fn(&DeclaredType) -> Option<&DeclaredType>| -> Vec<&DeclaredType> {
        types.iter().filter_map(|t| pick(t)).flat_map(constituents).collect()
    };
    match value {
        Value::Callback(_) | Value::Fluent { .. } => {
            types.iter().filter(|t| matches!(t, DeclaredType::Function { .. })).count() != 1
        }
        // A written class's parameters are annotated whatever its place (see `TestCase::constructor`).
        Value::Constructor(_) => false,
        Value::Function { arity, result } => {
            let functions: Vec<&DeclaredType> =
                types.iter().copied().filter(|t| matches!(t, DeclaredType::Function { .. })).collect();
            match functions[..] {
                [DeclaredType::Function { returns, .. }] => context_lost(result, &constituents(returns)),
                _ => *arity > 0 || context_lost(result, &[]),
            }
        }
        Value::Object { members, .. } => members.iter().any(|(name, v)| {
            let declared = within(&|t| match t {
                DeclaredType::Object(declared) => declared.iter().find(|m| m.name == *name).map(|m| &m.ty),
                DeclaredType::Dictionary(item) => Some(item),
                _ => None,
            });
            context_lost(v, &declared)
        }),
        Value::Array(items) => items.iter().enumerate().any(|(i, item)| {
            let declared = within(&|t| match t {
                DeclaredType::Array(item) => Some(item),
                DeclaredType::Tuple(types) => types.get(i),
                _ => None,
            });
            context_lost(item, &declared)
        }),
        Value::Set(items) | Value::AsyncIterable(items) => {
            let declared = within(&|t| match t {
                DeclaredType::Set(item) | DeclaredType::AsyncIterable(item) => Some(item),
                _ => None,
            });
            items.iter().any(|item| context_lost(item, &declared))
        }
        Value::Map(entries) => {
            let keys = within(&|t| if let DeclaredType::Map(key, _) = t { Some(key) } else { None });
            let values = within(&|t| if let DeclaredType::Map(_, value) = t { Some(value) } else { None });
            entries.iter().any(|(k, v)| context_lost(k, &keys) || context_lost(v, &values))
        }
        Value::Promise(result) => {
            context_lost(result, &within(&|t| if let DeclaredType::Promise(ty) = t { Some(ty) } else { None }))
        }
        _ => true,
    }
}

/// Whether a value is, or holds, a function a suite writes with parameters (a stub handing out answers
/// takes none).
fn has_callback(value: &Value) -> bool {
    match value {
        Value::Callback(_) | Value::Function { arity: 1.., .. } | Value::Fluent { arity: 1.. } => true,
        other => other.inner().into_iter().any(has_callback),
    }
}

/// The literal a value is, when it is a number or string (what enum members are).
fn literal_of(value: &Value) -> Option<Literal> {
    match value {
        Value::Number(n) => Some(Literal::Number(*n)),
        Value::String(s) => Some(Literal::String(s.clone())),
        _ => None,
    }
}

/// Whether values, written as JavaScript writes them, type-check against declared types: only what can
/// be proved is (an `any` stands for an unconstrained generic, which a typed receiver may have fixed).
struct Carries<'a> {
    test: &'a TestCase,
    program: &'a ProgramInfo,
    /// A literal type with one of these values may be an enum member, which a literal does not satisfy.
    enum_values: &'a [Literal],
}

impl Carries<'_> {
    fn value(&self, value: &Value, ty: &DeclaredType) -> bool {
        match (value, ty) {
            (_, DeclaredType::Union(types)) => types.iter().any(|t| self.value(value, t)),
            (Value::Number(_), DeclaredType::Number)
            | (Value::String(_), DeclaredType::String)
            | (Value::Boolean(_), DeclaredType::Boolean)
            | (Value::Null, DeclaredType::Null)
            | (Value::Undefined, DeclaredType::Undefined)
            | (Value::BigInt(_), DeclaredType::BigInt)
            | (
                Value::Callback(Shape::Subtract { .. }),
                DeclaredType::Function { compares: Some(Orders::Numbers), .. },
            )
            | (
                Value::Callback(Shape::Compare { .. }),
                DeclaredType::Function { compares: Some(Orders::Numbers | Orders::Strings), .. },
            )
            | (Value::Date(_), DeclaredType::Date)
            | (Value::RegExp { .. }, DeclaredType::RegExp)
            | (Value::Bytes { .. }, DeclaredType::Bytes) => true,
            (Value::Web(web), DeclaredType::Web(class)) => web.class() == *class,
            // `-0` is written as a negation, of type `number`.
            (Value::Number(n), DeclaredType::Literal(Literal::Number(l))) => {
                n == l && !(*n == 0.0 && n.is_sign_negative()) && !self.enum_values.contains(&Literal::Number(*l))
            }
            (Value::String(s), DeclaredType::Template(texts, _)) => fits_template(s, texts),
            (Value::String(s), DeclaredType::Literal(Literal::String(l))) => {
                s == l && !self.enum_values.contains(&Literal::String(l.clone()))
            }
            (Value::Boolean(b), DeclaredType::Literal(Literal::Boolean(l))) => b == l,
            (Value::BigInt(n), DeclaredType::Literal(Literal::BigInt(l))) => n == l,
            (Value::Array(items), DeclaredType::Array(item)) => items.iter().all(|i| self.value(i, item)),
            (Value::Array(items), DeclaredType::Tuple(types)) => {
                items.len() == types.len() && items.iter().zip(types).all(|(i, t)| self.value(i, t))
            }
            (Value::Object { members: fields, .. }, DeclaredType::Object(members)) => self.members(fields, members),
            // A class written of members constructs instances of an object type it has them of; a class of
            // the program is cast, its constructor's parameters not being compared with the signature's.
            (Value::Constructor(fields), DeclaredType::Constructs(made)) => self.instances(fields, made),
            (Value::Fluent { arity }, DeclaredType::Function { arity: declared, returns, .. }) => {
                arity <= declared && **returns == DeclaredType::This
            }
            (Value::Set(items), DeclaredType::Set(item))
            | (Value::AsyncIterable(items), DeclaredType::AsyncIterable(item)) => {
                items.iter().all(|i| self.value(i, item))
            }
            (Value::Object { members: fields, .. }, DeclaredType::Dictionary(item)) => {
                fields.iter().all(|(_, v)| self.value(v, item))
            }
            (Value::Map(entries), DeclaredType::Map(key, value)) => {
                entries.iter().all(|(k, v)| self.value(k, key) && self.value(v, value))
            }
            (Value::Promise(result), DeclaredType::Promise(ty)) => self.value(result, ty),
            (Value::Rejected, DeclaredType::Promise(_)) => true,
            // A function may take fewer parameters than the type; a `void` result takes any.
            (Value::Function { arity, result }, DeclaredType::Function { arity: declared, returns, .. }) => {
                arity <= declared && (**returns == DeclaredType::Undefined || self.value(result, returns))
            }
            (Value::Variable(v), DeclaredType::Class(name)) => self.program.type_named(name).is_some_and(|class| {
                self.test.variables.get(*v).is_some_and(|variable| self.program.is_subclass(variable.class, class))
            }),
            _ => false,
        }
    }
}

impl Carries<'_> {
    /// Whether instances of a class written of `fields` are of type `made`.
    fn instances(&self, fields: &[(String, Value)], made: &DeclaredType) -> bool {
        match made {
            DeclaredType::Object(members) => self.members(fields, members),
            DeclaredType::Union(types) => types.iter().any(|t| self.instances(fields, t)),
            DeclaredType::Any => true,
            _ => false,
        }
    }

    /// Whether an object's (or a written class's) `fields` are members of the object type of `members`,
    /// each of its type, and hold every required one.
    fn members(&self, fields: &[(String, Value)], members: &[Member]) -> bool {
        let declared = fields.iter().all(|(name, v)| {
            members
                .iter()
                .find(|m| m.name == *name)
                .is_some_and(|m| (m.optional && *v == Value::Undefined) || self.value(v, &m.ty))
        });
        let complete = members.iter().filter(|m| !m.optional).all(|m| fields.iter().any(|(n, _)| *n == m.name));
        declared && complete
    }
}

/// Whether `s` has a template literal type's text around its holes, in order (what a hole holds is not
/// checked: the values built for a template put in what each hole's type shows).
fn fits_template(s: &str, texts: &[String]) -> bool {
    let (Some(first), Some(last)) = (texts.first(), texts.last()) else {
        return false;
    };
    let Some(mut rest) = s.strip_prefix(first.as_str()) else {
        return false;
    };
    if texts.len() == 1 {
        return rest.is_empty();
    }
    for text in &texts[1..texts.len() - 1] {
        match rest.find(text.as_str()) {
            Some(at) => rest = &rest[at + text.len()..],
            None => return false,
        }
    }
    rest.ends_with(last.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::DeclaredParam;

    fn param(ty: DeclaredType, enums: Vec<(String, Vec<(String, Literal)>)>, enum_values: Vec<Literal>) -> Param {
        Param { ty, optional: false, enums, enum_values: Rc::new(enum_values) }
    }

    fn typed(param: &Param, value: Value) -> Option<Typed> {
        let test = TestCase { class: 0, method: "m".into(), variables: Vec::new(), statements: Vec::new() };
        param.typed(&value, &test, &ProgramInfo::default())
    }

    #[test]
    fn callbacks_are_annotated_where_the_declared_type_gives_them_no_signature() {
        let function =
            |returns: DeclaredType| DeclaredType::Function { arity: 1, returns: Box::new(returns), compares: None };
        let coder = |ty: DeclaredType| {
            DeclaredType::Object(vec![Member { name: "decode".into(), ty: function(ty), optional: false }])
        };
        let decoder =
            Value::object(vec![("decode".into(), Value::Function { arity: 1, result: Box::new(Value::Number(2.0)) })]);
        let one = param(coder(DeclaredType::Number), Vec::new(), Vec::new());
        assert_eq!(typed(&one, decoder.clone()), Some(Typed::AsWritten), "one object type types its methods");
        let length =
            DeclaredType::union(vec![coder(DeclaredType::Number), coder(DeclaredType::BigInt), DeclaredType::Number]);
        let length = param(length, Vec::new(), Vec::new());
        assert_eq!(typed(&length, decoder), Some(Typed::Annotated), "two object types give `decode` two signatures");
        assert_eq!(typed(&length, Value::Number(4.0)), Some(Typed::AsWritten), "no callback, nothing to annotate");
        let phrase = param(
            DeclaredType::union(vec![DeclaredType::String, function(DeclaredType::String)]),
            Vec::new(),
            Vec::new(),
        );
        let text = Value::Function { arity: 1, result: Box::new(Value::String("n".into())) };
        assert_eq!(typed(&phrase, text.clone()), Some(Typed::AsWritten), "one function type in the union");
        let two = DeclaredType::union(vec![function(DeclaredType::String), function(DeclaredType::Number)]);
        let two = param(DeclaredType::Array(Box::new(two)), Vec::new(), Vec::new());
        assert_eq!(typed(&two, Value::Array(vec![text])), Some(Typed::Annotated), "two function types for an item");
    }

    #[test]
    fn values_inside_the_declared_types_are_written_as_they_are_and_others_are_not() {
        let number = param(DeclaredType::Number, Vec::new(), Vec::new());
        assert_eq!(typed(&number, Value::Number(-3.5)), Some(Typed::AsWritten));
        assert_eq!(typed(&number, Value::String("3".into())), None, "a value outside the type keeps its cast");
        let member = |name: &str, ty: DeclaredType, optional: bool| Member { name: name.into(), ty, optional };
        let options = DeclaredType::Object(vec![
            member("capacity", DeclaredType::Number, false),
            member("name", DeclaredType::String, true),
        ]);
        let options = param(options, Vec::new(), Vec::new());
        let object =
            |fields: Vec<(&str, Value)>| Value::object(fields.into_iter().map(|(k, v)| (k.into(), v)).collect());
        assert_eq!(typed(&options, object(vec![("capacity", Value::Number(1.0))])), Some(Typed::AsWritten));
        assert_eq!(
            typed(&options, object(vec![("name", Value::String("a".into()))])),
            None,
            "a required member left out"
        );
        let extra = object(vec![("capacity", Value::Number(1.0)), ("other", Value::Null)]);
        assert_eq!(typed(&options, extra), None, "a member the type does not declare");
        let direction = DeclaredType::union(vec![
            DeclaredType::Literal(Literal::String("asc".into())),
            DeclaredType::Literal(Literal::String("desc".into())),
        ]);
        let direction = param(direction, Vec::new(), Vec::new());
        assert_eq!(typed(&direction, Value::String("asc".into())), Some(Typed::AsWritten));
        assert_eq!(typed(&direction, Value::String("up".into())), None);
        let zero = param(DeclaredType::Literal(Literal::Number(0.0)), Vec::new(), Vec::new());
        assert_eq!(typed(&zero, Value::Number(-0.0)), None, "`-0` is a number, not the literal 0");
        let callback = DeclaredType::Function { arity: 1, returns: Box::new(DeclaredType::Number), compares: None };
        let callback = param(callback, Vec::new(), Vec::new());
        assert_eq!(typed(&callback, Value::returning(Value::Number(2.0))), Some(Typed::AsWritten));
        assert_eq!(typed(&callback, Value::returning(Value::String("2".into()))), None);
        let two = |result: Value| Value::Function { arity: 2, result: Box::new(result) };
        assert_eq!(typed(&callback, two(Value::Number(2.0))), None, "more parameters than the type takes");
        assert_eq!(
            typed(&callback, Value::Callback(Shape::Subtract { descending: false })),
            None,
            "not a comparator's type"
        );
        let hex = DeclaredType::Template(vec!["0x".into(), String::new()], vec![DeclaredType::String]);
        let hex = param(hex, Vec::new(), Vec::new());
        assert_eq!(typed(&hex, Value::String("0x0a".into())), Some(Typed::AsWritten));
        assert_eq!(typed(&hex, Value::String("0a".into())), None, "a string without the template's text");
        let size =
            DeclaredType::Template(vec![String::new(), "px ".into(), "em".into()], vec![DeclaredType::Number; 2]);
        let size = param(size, Vec::new(), Vec::new());
        assert_eq!(typed(&size, Value::String("3px 4em".into())), Some(Typed::AsWritten));
        assert_eq!(typed(&size, Value::String("3em 4px".into())), None, "the texts out of order");
        let anything = param(DeclaredType::Any, Vec::new(), Vec::new());
        assert_eq!(typed(&anything, Value::Number(1.0)), None, "`any` may be a generic a typed receiver fixed");
    }

    #[test]
    fn a_class_written_of_an_object_type_s_members_constructs_it_and_a_class_of_the_program_is_cast() {
        let member = |name: &str, ty: DeclaredType| Member { name: name.into(), ty, optional: false };
        let chained = DeclaredType::Function { arity: 1, returns: Box::new(DeclaredType::This), compares: None };
        let hash = DeclaredType::Object(vec![member("size", DeclaredType::Number), member("update", chained)]);
        let maker = param(DeclaredType::Constructs(Box::new(hash.clone())), Vec::new(), Vec::new());
        let written =
            |update: Value| Value::Constructor(vec![("size".into(), Value::Number(32.0)), ("update".into(), update)]);
        assert_eq!(typed(&maker, written(Value::Fluent { arity: 1 })), Some(Typed::AsWritten));
        let unchained = written(Value::Function { arity: 1, result: Box::new(Value::Undefined) });
        assert_eq!(typed(&maker, unchained), None, "a method not returning its receiver");
        assert_eq!(typed(&maker, Value::Constructor(Vec::new())), None, "a required member left out");
        let class =
            param(DeclaredType::Constructs(Box::new(DeclaredType::Class("Sha".into()))), Vec::new(), Vec::new());
        assert_eq!(typed(&class, Value::Class(0)), None);
        // In an object literal, a method returning its receiver takes its parameters' types from its place.
        let counted = DeclaredType::Function { arity: 1, returns: Box::new(DeclaredType::Number), compares: None };
        let other = DeclaredType::Object(vec![member("update", counted)]);
        let object =
            Value::object(vec![("size".into(), Value::Number(1.0)), ("update".into(), Value::Fluent { arity: 1 })]);
        assert_eq!(typed(&param(hash.clone(), Vec::new(), Vec::new()), object.clone()), Some(Typed::AsWritten));
        let either = param(DeclaredType::union(vec![hash, other]), Vec::new(), Vec::new());
        assert_eq!(typed(&either, object), Some(Typed::Annotated), "two object types give `update` two signatures");
    }

    #[test]
    fn enum_values_are_written_as_their_members_and_cast_where_no_member_can_be_named() {
        let values = vec![Literal::String("draft".into()), Literal::Number(1.0)];
        let mode = DeclaredType::union(values.iter().cloned().map(DeclaredType::Literal).collect());
        let members =
            vec![("Draft".to_string(), values[0].clone()), ("not an identifier".to_string(), values[1].clone())];
        let bound = param(mode.clone(), vec![("Mode".into(), members)], values.clone());
        assert_eq!(typed(&bound, Value::String("draft".into())), Some(Typed::As("Mode.Draft".into())));
        assert_eq!(typed(&bound, Value::Number(1.0)), Some(Typed::As("Mode[\"not an identifier\"]".into())));
        let unbound = param(mode, Vec::new(), values.clone());
        assert_eq!(typed(&unbound, Value::String("draft".into())), None, "an enum the suite cannot reach");
        let nested = DeclaredType::Object(vec![Member {
            name: "mode".into(),
            ty: DeclaredType::Literal(values[0].clone()),
            optional: false,
        }]);
        let nested = param(nested, Vec::new(), values);
        let object = Value::object(vec![("mode".into(), Value::String("draft".into()))]);
        assert_eq!(typed(&nested, object), None, "an enum member inside an object is not written as one");
    }
}
