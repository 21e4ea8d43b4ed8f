use std::path::Path;

use super::*;
use crate::model::test::WebClass;

/// The signature of `function` of class `class` in `files` (name, text), the first being looked in.
fn signature_in(files: &[(&str, &str)], class: &str, function: &str) -> Option<Signature> {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let mut declarations = Declarations::default();
    let found = declarations.member(&dir.path().join(files[0].0), &[class], function, false).map(|m| m.signature);
    assert!(declarations.errors().is_empty(), "{:?}", declarations.errors());
    found
}

fn types_of(text: &str, class: &str, function: &str) -> Vec<DeclaredType> {
    let signature = signature_in(&[("x.d.ts", text)], class, function).expect("declared");
    signature.params.into_iter().map(|p| p.ty).collect()
}

fn string(s: &str) -> DeclaredType {
    DeclaredType::Literal(Literal::String(s.into()))
}

fn number(n: f64) -> DeclaredType {
    DeclaredType::Literal(Literal::Number(n))
}

#[test]
fn primitives_literals_and_aliases_resolve() {
    let text = "type Order = 'asc' | 'desc';\n\
                export declare class C { m(a: number, b: string, c: boolean, d: Order, e: 0 | 1, f: Date, g: RegExp): void; }";
    assert_eq!(
        types_of(text, "C", "m"),
        vec![
            DeclaredType::Number,
            DeclaredType::String,
            DeclaredType::Boolean,
            DeclaredType::Union(vec![string("asc"), string("desc")]),
            DeclaredType::Union(vec![number(0.0), number(1.0)]),
            DeclaredType::Date,
            DeclaredType::RegExp,
        ]
    );
}

#[test]
fn iterables_and_array_likes_are_built_as_arrays_of_their_elements_and_async_ones_as_async_iterables() {
    let text = "export declare class C { m(a: Iterable<number>, b: ArrayLike<string>, c: Iterable<number> | AsyncIterable<number>, d: AsyncGenerator<string>): void; }";
    let numbers = DeclaredType::Array(Box::new(DeclaredType::Number));
    let [a, b, c, d] = <[DeclaredType; 4]>::try_from(types_of(text, "C", "m")).unwrap();
    assert_eq!(a, numbers);
    assert_eq!(b, DeclaredType::Array(Box::new(DeclaredType::String)));
    let async_numbers = DeclaredType::AsyncIterable(Box::new(DeclaredType::Number));
    assert_eq!(c, DeclaredType::Union(vec![numbers, async_numbers]));
    assert_eq!(d, DeclaredType::AsyncIterable(Box::new(DeclaredType::String)));
}

#[test]
fn interfaces_merge_their_bases_and_keep_optional_members() {
    let text = "interface Base { id: number }\n\
                interface Options extends Base { label?: string; each(x: number, y: number): boolean }\n\
                export class C { constructor(options: Options); }";
    let members = vec![
        Member { name: "id".into(), ty: DeclaredType::Number, optional: false },
        Member { name: "label".into(), ty: DeclaredType::String, optional: true },
        Member {
            name: "each".into(),
            ty: DeclaredType::Function { arity: 2, returns: Box::new(DeclaredType::Boolean), compares: None },
            optional: false,
        },
    ];
    assert_eq!(types_of(text, "C", "constructor"), vec![DeclaredType::Object(members)]);
}

#[test]
fn a_comparator_takes_two_required_numbers() {
    // A mapping's `map(pos, assoc?)` returns a number from numbers, but its second parameter may be left
    // out: a comparator's `a - b` would not type-check against it (`assoc` is possibly undefined).
    let text = "interface Mappable { map(pos: number, assoc?: number): number }\n\
                export declare class C { m(compare: (a: number, b: number) => number, mapping: Mappable): void; }";
    let function = |compares| DeclaredType::Function { arity: 2, returns: Box::new(DeclaredType::Number), compares };
    let mapping = Member { name: "map".into(), ty: function(None), optional: false };
    assert_eq!(types_of(text, "C", "m"), vec![function(Some(Orders::Numbers)), DeclaredType::Object(vec![mapping])]);
}

#[test]
fn a_comparator_is_one_however_its_type_is_written() {
    // A generic alias of a function type, an interface with a call signature, each instantiated or left to
    // the class's unconstrained type parameter; a pair of objects or of different types orders nothing.
    let text = "export type Comparator<T> = (a: T, b: T) => number;\n\
                interface Ordering<T> { (left: T, right: T): number }\n\
                interface Point { x: number }\n\
                export declare class C<T> {\n\
                  m(a: Comparator<T>, b: Comparator<number>, c: Ordering<string>, d: Ordering<T>,\n\
                    e: Comparator<Point>, f: (a: number, b: string) => number): void;\n\
                }";
    let function = |compares| DeclaredType::Function { arity: 2, returns: Box::new(DeclaredType::Number), compares };
    let expected =
        [Some(Orders::Values), Some(Orders::Numbers), Some(Orders::Strings), Some(Orders::Values), None, None];
    assert_eq!(types_of(text, "C", "m"), expected.map(function).to_vec());
}

#[test]
fn a_this_parameter_is_not_one_callers_pass() {
    let text = "export declare class C { forEach<T>(callback: (this: T, value: string, name: string) => void, thisArg?: T): void; }";
    let callback = DeclaredType::Function { arity: 2, returns: Box::new(DeclaredType::Undefined), compares: None };
    assert_eq!(types_of(text, "C", "forEach")[0], callback);
}

#[test]
fn enums_give_their_values_and_members_name_one() {
    let text = "declare enum Level { Low, Mid = 5, High }\ndeclare enum Kind { A = 'a', B = 'b' }\n\
                export declare class C { m(level: Level, kind: Kind, only: Level.High): void; }";
    assert_eq!(
        types_of(text, "C", "m"),
        vec![
            DeclaredType::Union(vec![number(0.0), number(5.0), number(6.0)]),
            DeclaredType::Union(vec![string("a"), string("b")]),
            number(6.0),
        ]
    );
}

#[test]
fn generics_are_any_value_unless_bounded_and_classes_stay_names() {
    let text = "declare class Node { value: number }\n\
                export declare class Tree<K, V extends number> { m(k: K, v: V, n: Node | null, xs: K[], t: [string, number]): this; }";
    assert_eq!(
        types_of(text, "Tree", "m"),
        vec![
            DeclaredType::Any,
            DeclaredType::Number,
            DeclaredType::Union(vec![DeclaredType::Class("Node".into()), DeclaredType::Null]),
            DeclaredType::Array(Box::new(DeclaredType::Any)),
            DeclaredType::Tuple(vec![DeclaredType::String, DeclaredType::Number]),
        ]
    );
}

#[test]
fn this_is_the_class_in_its_members_and_the_receiver_an_interfaces_method_returns() {
    let text = "interface Copyable { copy(): this; size: number; peer: (x: this) => this }\n\
                export declare class Box { m(other: this, source: Copyable): void; }";
    let function =
        |returns: DeclaredType| DeclaredType::Function { arity: 0, returns: Box::new(returns), compares: None };
    let copyable = DeclaredType::Object(vec![
        Member { name: "copy".into(), ty: function(DeclaredType::This), optional: false },
        Member { name: "size".into(), ty: DeclaredType::Number, optional: false },
        // Only a method's own result is its receiver; elsewhere `this` is whatever implements the type.
        Member {
            name: "peer".into(),
            ty: DeclaredType::Function { arity: 1, returns: Box::new(DeclaredType::Any), compares: None },
            optional: false,
        },
    ]);
    assert_eq!(types_of(text, "Box", "m"), vec![DeclaredType::Class("Box".into()), copyable]);
}

#[test]
fn construct_signatures_and_a_class_s_own_type_construct_instances() {
    let text = "interface Hash { readonly size: number; update(data: Uint8Array): this }\n\
                interface HashMaker { new (seed: number): Hash }\n\
                export declare class Sha { constructor(); }\n\
                export declare class C { m(a: new () => Hash, b: { new (x: number): Sha }, c: typeof Sha, d: HashMaker, \
                e: { new (): Hash; create(): Hash }, f: abstract new () => Sha): void; }";
    let hash = DeclaredType::Object(vec![
        Member { name: "size".into(), ty: DeclaredType::Number, optional: false },
        Member {
            name: "update".into(),
            ty: DeclaredType::Function { arity: 1, returns: Box::new(DeclaredType::This), compares: None },
            optional: false,
        },
    ]);
    let constructs = |made: DeclaredType| DeclaredType::Constructs(Box::new(made));
    let sha = || DeclaredType::Class("Sha".into());
    assert_eq!(
        types_of(text, "C", "m"),
        vec![
            constructs(hash.clone()),
            constructs(sha()),
            constructs(sha()),
            constructs(hash),
            // A constructor with static members of its own is no class a test can write.
            DeclaredType::Opaque,
            constructs(sha()),
        ]
    );
}

#[test]
fn a_union_with_any_keeps_undefined_and_null_only() {
    let text = "export declare class Tree<K> { m(a: K | undefined, b: K | null | string, c: any | number): void; }";
    assert_eq!(
        types_of(text, "Tree", "m"),
        vec![
            DeclaredType::Union(vec![DeclaredType::Any, DeclaredType::Undefined]),
            DeclaredType::Union(vec![DeclaredType::Any, DeclaredType::Null]),
            DeclaredType::Any,
        ]
    );
}

#[test]
fn overloads_merge_and_defaults_are_optional() {
    let text = "export class C {\n  m(a: number): void;\n  m(a: string, b: boolean): void;\n  \
                m(a: any, b?: any) {}\n  n(x = 3, y?: string) {}\n}";
    let signature = signature_in(&[("x.ts", text)], "C", "m").unwrap();
    assert_eq!(signature.params[0].ty, DeclaredType::Union(vec![DeclaredType::Number, DeclaredType::String]));
    assert_eq!(signature.params[0].text, "number | string");
    assert!(!signature.params[0].optional && signature.params[1].optional);
    let defaults = signature_in(&[("x.ts", text)], "C", "n").unwrap();
    assert!(defaults.params.iter().all(|p| p.optional));
    // Without an annotation, a literal default gives TypeScript's widened type.
    assert_eq!(defaults.params[0].ty, DeclaredType::Number);
    assert_eq!(defaults.params[0].text, "number");
}

#[test]
fn index_signatures_alone_and_records_of_strings_are_dictionaries() {
    let text = "type Table = { [name: string]: string[] };
                interface Mixed { [k: string]: number; size: number }
                export declare class C { m(a: Table, b: Record<string, boolean>, c: Mixed, d: { [i: number]: string }): void; }";
    let strings = DeclaredType::Array(Box::new(DeclaredType::String));
    assert_eq!(
        types_of(text, "C", "m"),
        vec![
            DeclaredType::Dictionary(Box::new(strings)),
            DeclaredType::Dictionary(Box::new(DeclaredType::Boolean)),
            DeclaredType::Object(vec![Member { name: "size".into(), ty: DeclaredType::Number, optional: false }]),
            DeclaredType::Object(Vec::new()),
        ]
    );
}

#[test]
fn names_are_followed_into_namespaces_imports_and_base_classes() {
    let main = "import { Base } from './base';\n\
                export declare namespace Cache { interface Options { max: number } }\n\
                export default class Cache extends Base<string> { constructor(options: Cache.Options); }";
    let base = "export declare class Base<T> { get(key: T): void; }";
    let files = [("main.d.ts", main), ("base.d.ts", base)];
    let constructor = signature_in(&files, "Cache", "constructor").unwrap();
    let max = Member { name: "max".into(), ty: DeclaredType::Number, optional: false };
    assert_eq!(constructor.params[0].ty, DeclaredType::Object(vec![max]));
    assert_eq!(constructor.params[0].text, "Cache.Options");
    // Inherited from the base, its type parameter bound by `extends Base<string>`.
    assert_eq!(signature_in(&files, "Cache", "get").unwrap().params[0].ty, DeclaredType::String);
    // The default export is found as `default` whatever the program calls the class (a class the program
    // reaches as the default export is looked up under that name too), and never as another class.
    assert!(signature_in(&files, "default", "constructor").is_some());
    assert!(signature_in(&files, "Other", "constructor").is_none(), "an undeclared class is not the default one");
}

#[test]
fn names_are_followed_through_subpath_imports() {
    let main = "import { Base } from '#internal/base.js';\n\
                export declare class Cache extends Base<string> { constructor(max: number); }";
    let base = "export declare class Base<T> { get(key: T): void; }";
    let manifest = r##"{ "imports": { "#internal/*.js": { "types": "./*.d.ts", "default": "./*.js" } } }"##;
    let files = [("main.d.ts", main), ("base.d.ts", base), ("package.json", manifest)];
    assert_eq!(signature_in(&files, "Cache", "get").unwrap().params[0].ty, DeclaredType::String);
}

#[test]
fn a_union_s_computed_members_are_variants_of_the_others() {
    let text = "type Arg<T> = T | ([T] extends [never] ? T : { [K in keyof T]: Arg<T[K]> });\n\
                type Deep<T> = { [K in keyof T]?: Deep<T[K]> } | (T extends string ? T : never);\n\
                export declare class C { m(a: Arg<Uint8Array>, b: string | (T extends 1 ? 2 : 3), c: Deep<string>, d: Hidden | string): void; }";
    assert_eq!(
        types_of(text, "C", "m"),
        vec![
            DeclaredType::Bytes,
            DeclaredType::String,
            // Nothing but computed members: as unknown as before.
            DeclaredType::Opaque,
            // A name the declarations do not know is no variant of anything: its proxy learns which.
            DeclaredType::Union(vec![DeclaredType::Opaque, DeclaredType::String]),
        ]
    );
}

#[test]
fn what_cannot_be_built_is_opaque_and_broken_files_are_reported() {
    let text = "export declare class C { m(a: keyof Window, b: symbol, c: T extends 1 ? 2 : 3): void; }";
    assert!(types_of(text, "C", "m").iter().all(|t| *t == DeclaredType::Opaque));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.d.ts");
    std::fs::write(&path, "export declare class {").unwrap();
    let mut declarations = Declarations::default();
    assert!(declarations.member(&path, &["C"], "m", false).map(|m| m.signature).is_none());
    assert!(declarations.errors()[0].contains("broken.d.ts:1:"), "{:?}", declarations.errors());
}

#[test]
fn declarations_are_found_beside_the_file_or_through_the_package() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("dist")).unwrap();
    for file in ["a.js", "a.d.ts", "b.mjs", "b.d.mts", "dist/index.js", "types.d.ts", "c.js"] {
        std::fs::write(root.join(file), "").unwrap();
    }
    let manifest =
        r#"{ "main": "dist/index.js", "exports": { ".": { "types": "./types.d.ts", "require": "./dist/index.js" } } }"#;
    std::fs::write(root.join("package.json"), manifest).unwrap();
    assert_eq!(declarations_of(&root.join("a.js")), Some(root.join("a.d.ts")));
    assert_eq!(declarations_of(&root.join("b.mjs")), Some(root.join("b.d.mts")));
    assert_eq!(declarations_of(&root.join("dist/index.js")), Some(root.join("./types.d.ts")));
    assert_eq!(declarations_of(&root.join("c.js")), None);
    assert_eq!(declarations_of(Path::new("/x/source.ts")), Some(Path::new("/x/source.ts").to_path_buf()));
}

/// Interfaces whose members name the next interface eight times over: read to the depth limit they
/// expand to 8^8 members, which ran out of memory. Each parameter has its own allowance, so the one
/// after such a type is still read.
#[test]
fn interfaces_that_fan_out_stop_at_the_allowance_and_spare_the_next_parameter() {
    let mut text = String::new();
    for level in 0..12 {
        let members: String = (0..8).map(|m| format!(" m{m}: Node{};", level + 1)).collect();
        text.push_str(&format!("interface Node{level} {{{members} }}\n"));
    }
    text.push_str("interface Node12 { leaf: number }\n");
    text.push_str("export declare class C { m(tree: Node0, count: number): void; }");
    let types = types_of(&text, "C", "m");
    assert_eq!(types[1], DeclaredType::Number);
    fn has_opaque(ty: &DeclaredType) -> bool {
        match ty {
            DeclaredType::Opaque => true,
            DeclaredType::Object(members) => members.iter().any(|m| has_opaque(&m.ty)),
            _ => false,
        }
    }
    assert!(matches!(&types[0], DeclaredType::Object(_)), "{:?}", types[0]);
    assert!(has_opaque(&types[0]), "the fan-out is cut somewhere");
}

#[test]
fn members_say_whether_a_suite_calls_them_as_declared_and_which_enums_it_can_name() {
    let dir = tempfile::tempdir().unwrap();
    let colors = "export enum Color { Red = 'red', Blue = 'blue' }\nexport const enum Size { S, M }\n";
    let shop = "import { Color, Size } from './colors';\n\
                enum Hidden { A }\n\
                export abstract class Base { protected constructor() {} }\n\
                export class Shop extends Base {\n\
                  paint(color: Color | null, size: Size, hidden: Hidden): void {}\n\
                  private secret(): void {}\n\
                  protected guarded(): void {}\n\
                  pick(a: string): void;\n  pick(a: number, b: string): void;\n  pick(a: any, b?: any): void {}\n\
                }\n";
    std::fs::write(dir.path().join("colors.ts"), colors).unwrap();
    std::fs::write(dir.path().join("shop.ts"), shop).unwrap();
    let file = dir.path().join("shop.ts");
    let mut declarations = Declarations::default();
    let mut member =
        |class: &str, function: &str| declarations.member(&file, &[class], function, false).expect(function);
    let paint = member("Shop", "paint");
    assert!(paint.callable);
    let named: Vec<Vec<&str>> = paint.enums.iter().map(|e| e.iter().map(|e| e.name.as_str()).collect()).collect();
    // A const enum is not there at run time, a local one is not exported: neither can be named.
    assert_eq!(named, vec![vec!["Color"], vec![], vec![]]);
    assert!(paint.enums[0][0].file.ends_with("colors.ts"));
    assert_eq!(paint.enums[0][0].members[0], ("Red".to_string(), Literal::String("red".into())));
    for private in ["secret", "guarded", "pick"] {
        assert!(!member("Shop", private).callable, "{private}: private, protected or overloaded");
    }
    assert!(!member("Base", "constructor").callable, "an abstract class's protected constructor");
    assert!(declarations.enum_values().contains(&Literal::String("red".into())));
}

#[test]
fn a_class_without_a_constructor_takes_its_nearest_bases_or_none() {
    let text = "export class Plain { m(): void {} }\n\
                export class Base { constructor(unit: 'cm' | 'in', factor: number) {} }\n\
                export class Middle extends Base {}\n\
                export class Leaf extends Middle {}\n\
                export class Unknown extends Elsewhere {}\n\
                export abstract class Shape {}\n";
    let files = [("x.ts", text)];
    let plain = signature_in(&files, "Plain", "constructor").expect("the implicit constructor");
    assert_eq!(plain, Signature::default());
    let leaf = signature_in(&files, "Leaf", "constructor").expect("the base's constructor");
    let names: Vec<&str> = leaf.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["unit", "factor"]);
    assert!(signature_in(&files, "Unknown", "constructor").is_none(), "a base that cannot be read says nothing");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.ts"), text).unwrap();
    let mut declarations = Declarations::default();
    let shape = declarations.member(&dir.path().join("x.ts"), &["Shape"], "constructor", false).unwrap();
    assert!(!shape.callable, "an abstract class is not constructed");
}

#[test]
fn bigint_literals_are_literals_alone_or_mixed_with_others() {
    let text =
        "export declare class C { m(a: 1n | 2n, b: 0n | 'none' | 1, c: 123456789012345678901234567890n): void; }";
    let bigint = |n: i64| DeclaredType::Literal(Literal::BigInt(n));
    assert_eq!(
        types_of(text, "C", "m"),
        vec![
            DeclaredType::Union(vec![bigint(1), bigint(2)]),
            DeclaredType::Union(vec![bigint(0), string("none"), number(1.0)]),
            // Past what a test's values hold: not built.
            DeclaredType::Opaque,
        ]
    );
}

#[test]
fn private_and_protected_members_are_hidden_along_the_bases() {
    let dir = tempfile::tempdir().unwrap();
    let text = "export class Base { protected steps: number[] = []; private static made = 0; #own = 1; }\n\
                export class Tally extends Base {\n\
                  private total = 0;\n\
                  public shown = 1;\n\
                  constructor(private readonly start: number = 0, public label = '') { super(); }\n\
                  private record(n: number): void {}\n\
                  protected get doubled(): number { return 2; }\n\
                  add(n: number): number { return n; }\n\
                }\n";
    std::fs::write(dir.path().join("tally.ts"), text).unwrap();
    let mut declarations = Declarations::default();
    let hidden = declarations.hidden_members(&dir.path().join("tally.ts"), &["Tally"], false);
    // Static members are not an instance's; `#own` is private by its name already.
    assert_eq!(hidden, vec!["doubled", "record", "start", "steps", "total"]);
    assert!(declarations.hidden_members(&dir.path().join("tally.ts"), &["Missing"], false).is_empty());
}

#[test]
fn static_methods_have_signatures_of_their_own_and_factories_are_known_by_their_return_type() {
    let dir = tempfile::tempdir().unwrap();
    let text = "export declare class Point {\n\
                  private constructor(raw: Uint8Array);\n\
                  m(a: number): void;\n\
                  static m(a: string): Point;\n\
                  static fromHex(hex: string): Point;\n\
                  static origin(): this;\n\
                  static distance(a: Point, b: Point): number;\n\
                  private static check(n: number): void;\n\
                }\n";
    std::fs::write(dir.path().join("point.d.ts"), text).unwrap();
    let file = dir.path().join("point.d.ts");
    let mut declarations = Declarations::default();
    let types = |d: &mut Declarations, function: &str, statics: bool| {
        d.member(&file, &["Point"], function, statics)
            .map(|m| m.signature)
            .map(|s| s.params.into_iter().map(|p| p.ty).collect::<Vec<_>>())
    };
    // The static `m` and the method `m` are two members.
    assert_eq!(types(&mut declarations, "m", false), Some(vec![DeclaredType::Number]));
    assert_eq!(types(&mut declarations, "m", true), Some(vec![DeclaredType::String]));
    assert_eq!(types(&mut declarations, "fromHex", false), None, "no method of an instance");
    assert_eq!(types(&mut declarations, "constructor", true), None, "the constructor is not static");
    for factory in ["m", "fromHex", "origin"] {
        assert!(declarations.static_factory(&file, &["Point"], factory), "{factory}");
    }
    assert!(!declarations.static_factory(&file, &["Point"], "distance"));
    assert_eq!(declarations.hidden_members(&file, &["Point"], true), vec!["check".to_string()]);
    assert!(declarations.hidden_members(&file, &["Point"], false).is_empty());
}

#[test]
fn template_literal_types_keep_their_text_and_holes_that_a_string_can_show() {
    let text = "type Hex = `0x${string}`;\ntype Size = `${number}px`;\ntype Side = `${'top' | 'left'}-${boolean}`;\n\
                export declare class C { m(a: Hex, b: Size, c: Side, d: `${Date}`): void; }";
    let template = |texts: &[&str], holes: Vec<DeclaredType>| {
        DeclaredType::Template(texts.iter().map(|t| t.to_string()).collect(), holes)
    };
    assert_eq!(
        types_of(text, "C", "m"),
        vec![
            template(&["0x", ""], vec![DeclaredType::String]),
            template(&["", "px"], vec![DeclaredType::Number]),
            template(
                &["", "-", ""],
                vec![DeclaredType::Union(vec![string("top"), string("left")]), DeclaredType::Boolean]
            ),
            DeclaredType::Opaque,
        ]
    );
}

#[test]
fn a_const_object_of_literals_is_an_enum_its_type_names_and_a_suite_can_name() {
    let dir = tempfile::tempdir().unwrap();
    let modes = "export type Mode = (typeof Mode)[keyof typeof Mode]\n\
                 export const Mode = { Fast: 'fast', Slow: 'slow' } as const\n\
                 export const Limits = { low: -1, high: 2 } satisfies Record<string, number>\n\
                 export const Mixed = { a: 'a', b: [1] } as const\n";
    let job = "import { Mode, Limits, Mixed } from './modes';\n\
               interface Options { mode: Mode | string; at: `0x${string}` | Opaque }\n\
               export class Job {\n\
                 run(mode: Mode, limit: (typeof Limits)[keyof typeof Limits], key: keyof typeof Limits, mixed: (typeof Mixed)[keyof typeof Mixed], options: Options): void {}\n\
               }\n";
    std::fs::write(dir.path().join("modes.ts"), modes).unwrap();
    std::fs::write(dir.path().join("job.ts"), job).unwrap();
    let file = dir.path().join("job.ts");
    let mut declarations = Declarations::default();
    let run = declarations.member(&file, &["Job"], "run", false).expect("run");
    let types: Vec<DeclaredType> = run.signature.params.iter().map(|p| p.ty.clone()).collect();
    assert_eq!(types[0], DeclaredType::Union(vec![string("fast"), string("slow")]));
    assert_eq!(types[1], DeclaredType::Union(vec![number(-1.0), number(2.0)]));
    assert_eq!(types[2], DeclaredType::Union(vec![string("low"), string("high")]));
    assert_eq!(types[3], DeclaredType::Opaque, "an object with a member that is no literal is no enum");
    let DeclaredType::Object(members) = &types[4] else { panic!("{:?}", types[4]) };
    assert_eq!(members[0].ty, DeclaredType::Union(vec![string("fast"), string("slow"), DeclaredType::String]));
    let named: Vec<Vec<&str>> = run.enums.iter().map(|e| e.iter().map(|e| e.name.as_str()).collect()).collect();
    assert_eq!(named[0], vec!["Mode"], "the suite names `Mode.Fast` as it would an enum's member");
}

#[test]
fn types_imported_from_packages_are_read_from_their_declarations_or_their_types_package() {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "node_modules/@scope/util/package.json",
        r#"{ "exports": { ".": { "types": "./dist/index.d.ts", "default": "./dist/index.js" } } }"#,
    );
    write("node_modules/@scope/util/dist/index.d.ts", "export * from './types.ts';\n");
    write("node_modules/@scope/util/dist/types.d.ts", "export type Hex = `0x${string}`;\n");
    write("node_modules/untyped/package.json", r#"{ "main": "index.js" }"#);
    write("node_modules/@types/untyped/package.json", r#"{ "types": "index.d.ts" }"#);
    write("node_modules/@types/untyped/index.d.ts", "export interface Point { x: number }\n");
    write(
        "src/x.ts",
        "import type { Hex } from '@scope/util';\nimport type { Point } from 'untyped';\n\
         export class C { m(hash: Hex, at: Point): void {} }\n",
    );
    let mut declarations = Declarations::default();
    let found =
        declarations.member(&dir.path().join("src/x.ts"), &["C"], "m", false).map(|m| m.signature).expect("declared");
    let types: Vec<DeclaredType> = found.params.into_iter().map(|p| p.ty).collect();
    assert_eq!(types[0], DeclaredType::Template(vec!["0x".into(), String::new()], vec![DeclaredType::String]));
    assert_eq!(
        types[1],
        DeclaredType::Object(vec![Member { name: "x".into(), ty: DeclaredType::Number, optional: false }])
    );
}

#[test]
fn rest_parameters_declare_their_element_and_web_classes_resolve_unless_declared() {
    let text = "interface Part { size: number }\n\
                export declare class C {\n\
                  add(label: string, ...parts: Part[]): void;\n\
                  tag(...tags: Array<'a' | 'b'>): void;\n\
                  any(...args: [number, string]): void;\n\
                  fetch(url: URL, headers: Headers, signal?: AbortSignal): void;\n\
                }\n\
                declare class Headers { own: boolean }\n";
    let files = [("x.d.ts", text)];
    let add = signature_in(&files, "C", "add").unwrap();
    assert_eq!(add.params.len(), 1);
    let rest = add.rest.expect("the element of `Part[]`");
    let part = DeclaredType::Object(vec![Member { name: "size".into(), ty: DeclaredType::Number, optional: false }]);
    assert_eq!((rest.name.as_str(), &rest.ty, rest.text.as_str(), rest.optional), ("parts", &part, "Part", true));
    let tag = signature_in(&files, "C", "tag").unwrap().rest.unwrap();
    assert_eq!((tag.ty, tag.text.as_str()), (DeclaredType::Union(vec![string("a"), string("b")]), "'a' | 'b'"));
    let tuple = signature_in(&files, "C", "any").unwrap();
    assert!(tuple.open && tuple.rest.is_none(), "a rest of a tuple type is not one element");
    // A class the file declares under a global's name is that class.
    assert_eq!(
        types_of(text, "C", "fetch"),
        [
            DeclaredType::Web(WebClass::Url),
            DeclaredType::Class("Headers".into()),
            DeclaredType::Web(WebClass::AbortSignal)
        ]
    );
}

#[test]
fn exported_functions_are_declared_however_a_module_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    // A TypeScript source: overloads merged, an implementation alone, arrow and function expressions
    // bound to constants, a default export, and a namespace.
    write(
        "x.ts",
        "export function pad(text: string, width: number): string;\n\
         export function pad(text: string, width: number, fill: '-' | '.'): string;\n\
         export function pad(text: string, width: number, fill = ' '): string { return text; }\n\
         export function clamp(value: number, low = 0): number { return value; }\n\
         export const join = (parts: string[], ...more: number[]): string => parts.join('');\n\
         export const twice = function (n: bigint) { return n * 2n; } as (n: bigint) => bigint;\n\
         export default function shout(loud: boolean) {}\n\
         export namespace text { export function upper(s: string): string { return s; } }\n\
         export { pad as padded } from './x.ts';\n\
         export * from './y';\n",
    );
    // What `tsc` writes for them in a `.d.ts`.
    write("y.d.ts", "export declare const size: (of: Uint8Array | string) => number;\n");
    let mut declarations = Declarations::default();
    let x = dir.path().join("x.ts");
    let mut types = |path: &[&str]| -> Option<Vec<(DeclaredType, bool)>> {
        let member = declarations.function(&x, path)?;
        Some(member.signature.params.into_iter().map(|p| (p.ty, p.optional)).collect())
    };
    let fill = DeclaredType::Union(vec![string("-"), string(".")]);
    assert_eq!(
        types(&["pad"]).unwrap(),
        [(DeclaredType::String, false), (DeclaredType::Number, false), (fill.clone(), true)]
    );
    assert_eq!(types(&["padded"]).unwrap().len(), 3, "re-exported under another name");
    assert_eq!(types(&["clamp"]).unwrap(), [(DeclaredType::Number, false), (DeclaredType::Number, true)]);
    assert_eq!(types(&["join"]).unwrap(), [(DeclaredType::Array(Box::new(DeclaredType::String)), false)]);
    assert_eq!(types(&["twice"]).unwrap(), [(DeclaredType::BigInt, false)]);
    assert_eq!(types(&[]).unwrap(), [(DeclaredType::Boolean, false)], "the default export");
    assert_eq!(types(&["default"]).unwrap(), [(DeclaredType::Boolean, false)]);
    assert_eq!(types(&["text", "upper"]).unwrap(), [(DeclaredType::String, false)]);
    assert_eq!(types(&["size"]).unwrap().len(), 1, "a `.d.ts`'s function-typed constant, through `export *`");
    assert_eq!(types(&["missing"]), None);
    assert_eq!(types(&["text"]), None, "a namespace is no function");
    let join = declarations.function(&x, &["join"]).unwrap();
    assert!(join.signature.open && join.signature.rest.is_some(), "{join:?}");
    assert!(!declarations.function(&x, &["pad"]).unwrap().callable, "overloads are checked each apart");
    assert!(declarations.errors().is_empty(), "{:?}", declarations.errors());
}

#[test]
fn the_methods_of_what_a_factory_makes_are_those_of_its_return_type() {
    let dir = tempfile::tempdir().unwrap();
    let types_d = "export interface Hooks { onChange?: (value: number) => void }\n\
                   export interface Base { reset(hard?: boolean): void }\n\
                   export interface Counter extends Base { add(amount: number, label: string): number; stop: (at: Date) => void }\n";
    std::fs::write(dir.path().join("types.ts"), types_d).unwrap();
    let source = "import type { Counter, Hooks } from './types.ts';\n\
                  type Pair = { left(): number; swap(first: bigint): Pair };\n\
                  export function createCounter(hooks: Hooks): Counter { return null as any; }\n\
                  export const createPair = (): Pair => null as any;\n\
                  export function untyped(hooks: Hooks) { return { add(n: number) { return n; } }; }\n";
    std::fs::write(dir.path().join("x.ts"), source).unwrap();
    let mut declarations = Declarations::default();
    let x = dir.path().join("x.ts");
    let mut types = |path: &[&str], method: &str| -> Option<Vec<DeclaredType>> {
        let member = declarations.made_member(&x, path, method)?;
        Some(member.signature.params.into_iter().map(|p| p.ty).collect())
    };
    assert_eq!(types(&["createCounter"], "add").unwrap(), [DeclaredType::Number, DeclaredType::String]);
    assert_eq!(types(&["createCounter"], "stop").unwrap(), [DeclaredType::Date], "a property of a function type");
    assert_eq!(types(&["createCounter"], "reset").unwrap(), [DeclaredType::Boolean], "from the base interface");
    assert_eq!(types(&["createPair"], "swap").unwrap(), [DeclaredType::BigInt], "an alias of an object type");
    assert_eq!(types(&["createCounter"], "missing"), None);
    assert_eq!(types(&["untyped"], "add"), None, "no return annotation: nothing declared");
}
