//! Writes to shared state: journalled by the instrumented code, undone by the journal.

use super::*;

/// Runs `check` in a context holding the undo journal and then `code`, as the engine sets them up.
fn with_journal(code: &str, check: impl FnOnce(rquickjs::Ctx)) {
    let runtime = Runtime::new().unwrap();
    let context = Context::full(&runtime).unwrap();
    context.with(|ctx| {
        // The engine gives the journal a native setter check (`sandbox/engine/props.rs`); a stand-in
        // that answers the same here.
        let prelude = format!(
            "var {SHARED_WRITE} = new Uint8Array(1); var {STATEMENTS} = new Uint8Array(64); var {BRANCHES} = new Uint8Array(64);\
             var {HAS_SETTER} = function (o, skipProto) {{ return Reflect.ownKeys(o).some(function (k) {{ \
             var d = Object.getOwnPropertyDescriptor(o, k); \
             return d.set !== undefined && !(skipProto && k === '__proto__'); }}); }};"
        );
        ctx.eval_with_options::<(), _>(prelude, options("prelude.js")).unwrap();
        ctx.eval_with_options::<(), _>(crate::js::PRIMORDIALS_JS, options("primordials.js")).unwrap();
        ctx.eval_with_options::<(), _>(crate::js::JOURNAL_JS, options("journal.js")).unwrap();
        ctx.eval_with_options::<(), _>(code, options("code.js")).unwrap();
        check(ctx);
    });
}

#[test]
fn writes_to_shared_state_are_journalled_and_undone() {
    let code = "var log = [];\nvar count = 0;\nvar seen = new Map([[1, 'a']]);\nfunction C() { this.n = 0; }\n\
                C.total = 5;\n\
                C.prototype.local = function () { var k = 0; k++; this.n++; return [k].push(1); };\n\
                C.prototype.shared = function (x) { count += 1; C.total++; C['made' + x] = x; seen.set(x, 'b'); \
                seen.delete(1); leaked = x; return log.push(x); };\n\
                C.prototype.fixed = function () { Object.defineProperty(C, 'total', { value: 0 }); };\n                var dict = { a: 1, b: 2 };\nvar list = [1, 2];\nlist.tag = 't';\n                C.prototype.keyed = function (x) { var key = { toString: function () { return x; } };                 dict[key] = 3; delete dict.a; dict[{ toString: function () { return 'a'; } }] = 1;                 list[key] = 4; list[5] = x; list.push(x); return list.length; };\n                var seal = Object.freeze;\n                C.prototype.tagged = function (x) { list[{ toString: function () { return x; } }] = 1; return list.length; };\n                C.prototype.frozen = function () { dict[{}] = 0; seal(dict); };\n";
    let inst = instrument(&parse(code), 0, 0, false);
    // Each write keeps its value and its receiver.
    for journalled in [
        format!("{JOURNAL_COLLECTION}(log, \"push\").push(x)"),
        format!("{JOURNAL_MEMBER}(C, \"total\").total++"),
        format!("{JOURNAL_BINDING}(()=>count"),
    ] {
        assert!(inst.code.replace(' ', "").contains(&journalled.replace(' ', "")), "{journalled}: {}", inst.code);
    }
    with_journal(&inst.code, |ctx| {
        let state = "JSON.stringify([count, C.total, Object.keys(C), [...seen], log, typeof leaked, \
                     Object.keys(dict), dict, Object.keys(list), list, Object.getPrototypeOf(dict) === Object.prototype])";
        let loaded: String = ctx.eval(state).unwrap();
        let flag = |ctx: &rquickjs::Ctx| ctx.eval::<u32, _>(format!("{SHARED_WRITE}[0]")).unwrap();
        let _: u32 = ctx.eval("new C().local()").unwrap();
        assert_eq!(flag(&ctx), 0);
        let _: u32 = ctx.eval("new C().shared(7) + new C().shared(8)").unwrap();
        assert_eq!(flag(&ctx), 1);
        assert_ne!(ctx.eval::<String, _>(state).unwrap(), loaded);
        assert!(ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap());
        assert_eq!((ctx.eval::<String, _>(state).unwrap(), flag(&ctx)), (loaded.clone(), 0));
        // Keys that are objects, and arrays: the whole object is copied, and put back key order included.
        let _: u32 = ctx.eval("new C().keyed('b') + new C().keyed('__proto__')").unwrap();
        assert_eq!(flag(&ctx), 1);
        assert_ne!(ctx.eval::<String, _>(state).unwrap(), loaded);
        assert!(ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap());
        assert_eq!((ctx.eval::<String, _>(state).unwrap(), flag(&ctx)), (loaded, 0));
        // An object the test froze (through a name the analysis does not know) cannot be put back.
        ctx.eval::<(), _>("new C().frozen()").unwrap();
        assert_eq!(flag(&ctx), 1);
        assert!(!ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap());
        // What the journal cannot undo asks for a new context.
        ctx.eval::<(), _>("new C().fixed()").unwrap();
        assert_eq!(flag(&ctx), 2);
        // So does a write to an array whose prototype has a setter the write could run.
        ctx.eval::<(), _>(format!("{SHARED_WRITE}[0] = 0; {FORGET}();")).unwrap();
        ctx.eval::<(), _>("new C().tagged('c')").unwrap();
        assert_eq!(flag(&ctx), 1);
        assert!(ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap());
        ctx.eval::<(), _>("Object.defineProperty(Array.prototype, 'x', { set: function (v) {}, configurable: true })")
            .unwrap();
        ctx.eval::<(), _>("new C().tagged('c')").unwrap();
        assert_eq!(flag(&ctx), 2);
    });
}

#[test]
fn writes_to_the_elements_of_a_shared_typed_array_are_journalled() {
    // A module's scratch buffer read as a float's bits, as numeric and hashing libraries keep one; a
    // DataView and a typed array's named property cannot be put back by key.
    let code = "var f64 = new Float64Array(1); var u32 = new Uint32Array(f64.buffer); var view = new DataView(new ArrayBuffer(4));\n\
                function bits(x) { f64[0] = x; u32[5] = 1; u32['-0'] = 2; return u32[1]; }\n\
                function count(i) { u32[i]++; return u32[i]; }\n\
                function poke() { view[0] = 1; }\n\
                function tag() { u32.tag = 1; }";
    let inst = instrument(&parse(code), 0, 0, false);
    with_journal(&inst.code, |ctx| {
        let flag = |ctx: &rquickjs::Ctx| ctx.eval::<u32, _>(format!("{SHARED_WRITE}[0]")).unwrap();
        let undo = |ctx: &rquickjs::Ctx| ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap();
        let state = "JSON.stringify([Array.from(u32), Object.keys(u32), f64[0]])";
        let loaded: String = ctx.eval(state).unwrap();
        assert_eq!(ctx.eval::<u32, _>("bits(-2) + count(0) + count(0)").unwrap(), 0xc000_0000 + 3);
        assert_eq!(flag(&ctx), 1);
        assert!(undo(&ctx));
        assert_eq!((ctx.eval::<String, _>(state).unwrap(), flag(&ctx)), (loaded.clone(), 0));
        // An element the array no longer has (its buffer detached) cannot take its value back.
        ctx.eval::<(), _>("count(1); u32.buffer.transfer && u32.buffer.transfer()").unwrap();
        assert!(!undo(&ctx));
        for write in ["poke()", "tag()"] {
            ctx.eval::<(), _>(format!("{SHARED_WRITE}[0] = 0; {FORGET}(); {write}")).unwrap();
            assert_eq!(flag(&ctx), 2, "{write}");
        }
    });
}

#[test]
fn writes_to_private_fields_are_journalled_where_the_name_is_in_scope() {
    // A constructor guarded by a static flag (as lru-cache's `Stack`), a static counter, an instance's
    // own field reached through the class, and a private setter, which may write anything. An inner
    // class's `#n` is a method: the outer field of that name is not its.
    let code = "var other = { hits: 0 };\n\
                class Pool {\n\
                  static #making = false; static #n = 0; #id = 0; static last = null;\n\
                  static make() { Pool.#making = true; const p = new Pool(); Pool.#making = false; Pool.#n += 2; \
                    Pool.#n++; return p; }\n\
                  constructor() { if (!Pool.#making) throw new TypeError('use make'); }\n\
                  static tag(p) { Pool.last = p; p.#id = Pool.#n; return p.#id; }\n\
                  static set #spy(v) { other.hits = v; }\n\
                  static spy(v) { Pool.#spy = v; }\n\
                  static count() { return Pool.#n; }\n\
                  static inner() { return class { #n() { return 1; } static poke() { try { Pool.#n = 1; } catch (e) {} } }; }\n\
                }";
    let inst = instrument(&parse(code), 0, 0, false);
    assert!(inst.code.contains(&format!("{JOURNAL_PRIVATE}(Pool")), "{}", inst.code);
    with_journal(&inst.code, |ctx| {
        let flag = |ctx: &rquickjs::Ctx| ctx.eval::<u32, _>(format!("{SHARED_WRITE}[0]")).unwrap();
        let state = "JSON.stringify([Pool.count(), Pool.last === null, other.hits])";
        let loaded: String = ctx.eval(state).unwrap();
        assert_eq!(ctx.eval::<u32, _>("Pool.tag(Pool.make()) + Pool.tag(Pool.make())").unwrap(), 9);
        assert_eq!(flag(&ctx), 1);
        assert!(ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap());
        assert_eq!((ctx.eval::<String, _>(state).unwrap(), flag(&ctx)), (loaded.clone(), 0));
        assert!(ctx.eval::<bool, _>("try { new Pool(); false } catch (e) { true }").unwrap(), "the guard is back");
        // A write through a private accessor cannot be undone by writing a value back; nor can one
        // through a name that the class around the write declares as a method.
        ctx.eval::<(), _>("Pool.spy(3)").unwrap();
        assert_eq!(flag(&ctx), 2);
        ctx.eval::<(), _>(format!("{SHARED_WRITE}[0] = 0; {FORGET}(); Pool.inner().poke()")).unwrap();
        assert_eq!(flag(&ctx), 2);
    });
}
