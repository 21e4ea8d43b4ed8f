//! The undo journal's native question (`js/journal.js`): whether a write by key could run a
//! prototype's setter, answered through QuickJS's C interface (see [`crate::sandbox::qjs`]), about ten
//! times faster than JavaScript reads own properties (no descriptor object is made).

use rquickjs::{Ctx, Value};

use crate::sandbox::qjs::{Atom, Cx, KeyFilter, OwnKeys, Ref};

/// Whether `object` has an own accessor with a setter, `Object.prototype`'s `__proto__` aside when
/// `skip_proto` (a copy of a whole object puts its prototype back). The undo journal asks it of
/// `Object.prototype` and `Array.prototype` before it copies an object or array whole (`js/journal.js`):
/// made in JavaScript, the question built a descriptor object for each of their fifty-odd properties,
/// and cost a shared-state test more than its own code.
pub(super) fn has_setter<'js>(ctx: Ctx<'js>, object: Value<'js>, skip_proto: bool) -> bool {
    if object.as_object().is_none() {
        return false;
    }
    let cx = Cx::of(&ctx);
    let object = Ref::of(&object);
    // Keys that cannot be listed (a proxy's trap threw): a setter cannot be ruled out.
    let Some(keys) = OwnKeys::of_or_none(cx, object, KeyFilter::ALL) else { return true };
    let proto = skip_proto.then(|| Atom::new(cx, c"__proto__"));
    keys.atoms().any(|key| {
        let Some(d) = cx.own_property_or_none(object, key) else { return false };
        d.is_accessor() && !d.setter().is_undefined() && proto.as_ref().is_none_or(|proto| proto.get() != key)
    })
}

#[cfg(test)]
mod tests {
    use rquickjs::{Context, Runtime};

    use super::has_setter;

    #[test]
    fn finds_own_setters_only() {
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        context.with(|ctx| {
            let asks = |code: &str, skip_proto: bool| has_setter(ctx.clone(), ctx.eval(code).unwrap(), skip_proto);
            assert!(!asks("({ a: 1, f() {} })", false));
            assert!(!asks("({ get a() { return 1; } })", false));
            assert!(asks("({ a: 1, set b(v) {} })", false));
            assert!(asks("Object.create({ set b(v) {} }, { c: { set(v) {} } })", false));
            assert!(!asks("Object.create({ set b(v) {} })", false), "inherited setters are the prototype's");
            // `Object.prototype.__proto__` is an accessor with a setter: left out when asked to.
            assert!(asks("Object.prototype", false));
            assert!(!asks("Object.prototype", true));
            assert!(!asks("Array.prototype", false));
            assert!(!asks("42", false));
            // Keys that cannot be listed leave a setter possible.
            assert!(asks("new Proxy({}, { ownKeys() { throw new Error('no'); } })", false));
            assert!(!ctx.has_exception(), "no exception is left pending");
        });
    }
}
