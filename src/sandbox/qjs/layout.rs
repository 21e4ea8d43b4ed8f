//! QuickJS's objects read in place, for the built-ins' guard (`engine/guard.rs`): an object's own keys,
//! their attributes and their values, in a few loads per property. Through the C interface a complete
//! check of the ~1,000 built-in properties cost about 27 us (a listing of every object's keys, a
//! descriptor per property), as much as a test of a small class, and the election makes one after every
//! test it runs alone; read in place it costs a few microseconds.
//!
//! The C interface does not publish these structures: [`Object`], [`Shape`], [`Key`] and [`Slot`] mirror
//! `JSObject`, `JSShape`, `JSShapeProperty` and `JSProperty` of `quickjs.c` in the QuickJS-ng that
//! rquickjs-sys 0.14.0 bundles (Cargo.toml pins it). They are read only when the engine reports that
//! version on a 64-bit target ([`readable`]). A [`View`] is borrowed from a live object; it reads the
//! object's shape afresh at every read and checks every index against that shape's count, so a shape
//! changed by JavaScript run meanwhile is read as it is then. Values are never dereferenced: a slot is
//! only compared, bit for bit, with a reference the guard keeps. And the guard reads nothing in place
//! that it did not first find equal to what the C interface read: a layout read wrongly makes no image,
//! and the object is checked through the C interface, as when reading in place is switched off.

use std::ffi::CStr;
use std::marker::PhantomData;
use std::sync::OnceLock;

use rquickjs::qjs;

use super::props::Attributes;
use super::value::same_bits;
use super::{Cx, Kept, Owned, Ref};

/// The QuickJS-ng version whose layout this file mirrors.
const MIRRORED: &str = "0.16.2";

/// `struct list_head`: the link of an object in the collector's lists.
#[repr(C)]
struct Link {
    _prev: *const u8,
    _next: *const u8,
}

/// `JSObject`'s first fields. `flags` holds its one-bit fields, `is_prototype` first.
#[repr(C)]
struct Object {
    _header: Link,
    flags: [u8; 2],
    class_id: u16,
    shape: *const Shape,
    prop: *const Slot,
}

/// `JSObject.is_exotic`: own keys come from the class's hooks too (array elements, a proxy's trap).
const IS_EXOTIC: u8 = 1 << 3;
/// `JSObject.fast_array`: an array's elements are kept outside the shape.
const FAST_ARRAY: u8 = 1 << 4;

/// `JSShape`: an object's keys and their attributes, shared between objects made the same way. Its hash
/// table (`prop_hash_mask + 1` words) follows, then the keys.
#[repr(C)]
struct Shape {
    _header: Link,
    _is_hashed: u8,
    _hash: u32,
    prop_hash_mask: u32,
    _prop_size: i32,
    prop_count: i32,
    deleted_prop_count: i32,
    _shape_hash_next: *const Shape,
    _proto: *const Object,
    hash_table: [u32; 0],
}

/// `JSShapeProperty`: a key and its attributes (`hash_next: 26, flags: 6` in the first word); a deleted
/// key's atom is `JS_ATOM_NULL`.
#[repr(C)]
#[derive(Clone, Copy)]
struct Key {
    hash_next_and_flags: u32,
    atom: qjs::JSAtom,
}

/// `JSProperty`, copied: a data property's `JSValue`, or an accessor's getter and setter (null when
/// undefined). Only compared, never dereferenced.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Slot([u64; 2]);

/// The attributes of a key as its shape holds them (`JS_PROP_...` in six bits).
pub(crate) type Flags = u8;

/// Whether objects can be read in place: the engine is the version mirrored here, on a 64-bit target
/// where a `JSValue` is a tag and a payload (16 bytes).
pub(crate) fn readable() -> bool {
    static READABLE: OnceLock<bool> = OnceLock::new();
    *READABLE.get_or_init(|| {
        // SAFETY: `JS_GetVersion` answers a static C string.
        let version = unsafe { CStr::from_ptr(qjs::JS_GetVersion()) };
        cfg!(target_pointer_width = "64")
            && std::mem::size_of::<qjs::JSValue>() == 16
            && std::mem::size_of::<Slot>() == 16
            && std::mem::size_of::<Shape>() == 56
            && version.to_bytes() == MIRRORED.as_bytes()
    })
}

/// The ids of the exotic classes whose own keys [`View::keys_in_shape`] can tell are all in the shape.
pub(crate) struct Exotics {
    array: qjs::JSClassID,
    string: qjs::JSClassID,
}

impl Exotics {
    /// The ids, from an array and a `String` object made in `cx`. A value not made (an exception,
    /// dismissed) has no class id, which no object has.
    pub(crate) fn of(cx: Cx<'_>) -> Exotics {
        // SAFETY: a live context; every value made here goes to an `Owned`, which frees it.
        unsafe {
            let array = Owned::take(cx, qjs::JS_NewArray(cx.raw()));
            let text = Owned::take(cx, qjs::JS_NewStringLen(cx.raw(), c"".as_ptr(), 0));
            let string = match &text {
                Ok(text) => Owned::take(cx, qjs::JS_ToObject(cx.raw(), text.get().raw())),
                Err(_) => Err(super::Thrown),
            };
            let class = |value: &Result<Owned, _>| value.as_ref().map_or(0, |v| qjs::JS_GetClassID(v.get().raw()));
            let exotics = Exotics { array: class(&array), string: class(&string) };
            if qjs::JS_HasException(cx.raw()) {
                super::Thrown.dismiss(cx);
            }
            exotics
        }
    }
}

/// An object read in place, borrowed for `'a` from a reference that keeps it alive.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    object: *const Object,
    _borrow: PhantomData<&'a ()>,
}

impl<'a> View<'a> {
    /// `value` read in place, or `None` when it is no object or objects cannot be read so ([`readable`]).
    #[inline]
    pub(crate) fn of(value: Ref<'a, '_>) -> Option<View<'a>> {
        if !readable() {
            return None;
        }
        // An object value's payload is its `JSObject`, alive while `value` is borrowed.
        value.identity().map(|address| View { object: address as *const Object, _borrow: PhantomData })
    }

    /// The object's fields as they are now.
    #[inline]
    fn object(&self) -> &Object {
        // SAFETY: `object` is a live `JSObject` for `'a` (see `View::of`), laid out as mirrored
        // ([`readable`]); nothing writes it while this borrow is used (QuickJS runs on this thread only,
        // and no QuickJS call is made while it is borrowed).
        unsafe { &*self.object }
    }

    /// The object's shape as it is now.
    #[inline]
    fn shape(&self) -> &Shape {
        // SAFETY: a live object always has a live shape, which it holds a reference to; as in `object`.
        unsafe { &*self.object().shape }
    }

    /// Whether every own key is in the shape: an ordinary object, a `String` object (whose indices are
    /// those of its string, which never changes) or an array (whose elements are kept apart: the caller
    /// sees them by its length, see [`View::fast_array`]).
    pub(crate) fn keys_in_shape(&self, exotics: &Exotics) -> bool {
        let flags = self.flags();
        let class = self.object().class_id as qjs::JSClassID;
        flags & IS_EXOTIC == 0
            || flags & FAST_ARRAY != 0 && class == exotics.array
            || flags & FAST_ARRAY == 0 && class == exotics.string
    }

    /// Whether it keeps array elements apart from its shape.
    #[inline]
    pub(crate) fn fast_array(&self) -> bool {
        self.flags() & FAST_ARRAY != 0
    }

    /// The one-bit fields that say where own keys are kept (see [`View::keys_in_shape`]).
    #[inline]
    pub(crate) fn flags(&self) -> u8 {
        self.object().flags[0] & (IS_EXOTIC | FAST_ARRAY)
    }

    /// How many entries the shape has, deleted keys included.
    #[inline]
    pub(crate) fn entries(&self) -> usize {
        self.shape().prop_count.max(0) as usize
    }

    /// How many own keys the shape holds.
    #[inline]
    pub(crate) fn live(&self) -> usize {
        let shape = self.shape();
        (shape.prop_count - shape.deleted_prop_count).max(0) as usize
    }

    /// The key at `index`: its atom's id (see [`super::AtomRef::id`]; `JS_ATOM_NULL` when deleted) and
    /// attributes; `None` past [`View::entries`].
    #[inline]
    pub(crate) fn key(&self, index: usize) -> Option<(u32, Flags)> {
        let shape = self.shape();
        if index >= shape.prop_count.max(0) as usize {
            return None;
        }
        // SAFETY: the keys follow the shape's hash table (`prop_hash_mask + 1` words), `prop_count` of
        // them in use, and `index` is below that.
        let key = unsafe {
            let keys = shape.hash_table.as_ptr().add(shape.prop_hash_mask as usize + 1) as *const Key;
            *keys.add(index)
        };
        Some((key.atom, (key.hash_next_and_flags >> 26) as u8))
    }

    /// The property at `index`, copied; `None` past [`View::entries`].
    #[inline]
    pub(crate) fn slot(&self, index: usize) -> Option<Slot> {
        if index >= self.entries() {
            return None;
        }
        // SAFETY: the object has room for its shape's `prop_size` properties, at least `prop_count`, and
        // `index` is below that.
        Some(unsafe { *self.object().prop.add(index) })
    }
}

impl Slot {
    /// A data property's value, as bits (no reference of its own: only compared).
    #[inline]
    fn value(self) -> qjs::JSValue {
        // SAFETY: a `JSValue` is 16 bytes of plain data where objects are `readable`; reading its bits
        // makes no reference.
        unsafe { std::ptr::read_unaligned(self.0.as_ptr().cast::<qjs::JSValue>()) }
    }

    /// Whether it is a data property's `0` (an empty array's length).
    #[inline]
    pub(crate) fn is_zero(self) -> bool {
        let value = self.value();
        // SAFETY: reading a JSValue's tag and payload only looks at the struct's fields.
        unsafe { qjs::JS_VALUE_GET_TAG(value) == qjs::JS_TAG_INT && qjs::JS_VALUE_GET_INT(value) == 0 }
    }
}

/// The address of an accessor's function, 0 for none (as a property's slot holds it).
fn object_address(value: &Kept) -> usize {
    // SAFETY: reading a JSValue's tag and payload only looks at the struct's fields.
    unsafe {
        let value = value.raw();
        if qjs::JS_VALUE_GET_TAG(value) == qjs::JS_TAG_OBJECT { qjs::JS_VALUE_GET_PTR(value) as usize } else { 0 }
    }
}

/// Whether a key read in place (its `flags` and `slot`) holds what the C interface read as
/// `attributes` and `[value, getter, setter]`. A binding's reference or a value not made yet (other
/// kinds) is only read through the C interface: never.
pub(crate) fn reads_as(flags: Flags, slot: Slot, attributes: Attributes, [value, getter, setter]: [&Kept; 3]) -> bool {
    let c_w_e = qjs::JS_PROP_C_W_E as u8;
    match flags & qjs::JS_PROP_TMASK as u8 {
        kind if kind == qjs::JS_PROP_NORMAL as u8 => {
            (flags & c_w_e) as i32 == attributes && same_bits(slot.value(), value.raw())
        }
        kind if kind == qjs::JS_PROP_GETSET as u8 => {
            ((flags & c_w_e) as i32 | qjs::JS_PROP_GETSET as i32) == attributes
                && [slot.0[0] as usize, slot.0[1] as usize] == [object_address(getter), object_address(setter)]
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use rquickjs::{Context, Runtime, Value, qjs};

    use super::{Exotics, View, readable, reads_as, same_bits};
    use crate::sandbox::qjs::{Anchor, Atom, Cx, Kept, Owned, Ref};

    fn keep<'js>(anchor: &Anchor, cx: Cx<'js>, value: &Value<'js>) -> Kept {
        Kept::new(anchor, Owned::dup(cx, Ref::of(value)))
    }

    #[test]
    fn reads_keys_attributes_and_values_where_quickjs_keeps_them() {
        assert!(readable(), "the bundled QuickJS is not the version mirrored: compare layout.rs with quickjs.c");
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        let anchor = Anchor::new(&context);
        context.with(|ctx| {
            let cx = Cx::of(&ctx);
            let (c_w_e, kind) = (qjs::JS_PROP_C_W_E as u8, qjs::JS_PROP_TMASK as u8);
            let object: Value = ctx
                .eval("var o = { a: 1, b: 'x' }; Object.defineProperty(o, 'c', { get() { return 2; } }); delete o.a; o")
                .unwrap();
            let o = View::of(Ref::of(&object)).expect("an object");
            let exotics = Exotics::of(cx);
            assert!(o.keys_in_shape(&exotics) && !o.fast_array());
            assert_eq!((o.entries(), o.live()), (3, 2), "a deleted key keeps its entry");
            assert_eq!(o.key(0).unwrap().0, qjs::JS_ATOM_NULL);
            assert_eq!((o.key(3), o.slot(3)), (None, None), "nothing is read past the shape's count");
            let (b, flags) = o.key(1).unwrap();
            assert_eq!(b, Atom::new(cx, c"b").get().id());
            assert_eq!((flags & c_w_e, flags & kind), (7, qjs::JS_PROP_NORMAL as u8));
            let text: Value = ctx.eval("o.b").unwrap();
            let slot = o.slot(1).unwrap();
            assert!(same_bits(slot.value(), Ref::of(&text).raw()), "the same string");
            let (text, undefined) = (keep(&anchor, cx, &text), keep(&anchor, cx, &Value::new_undefined(ctx.clone())));
            assert!(reads_as(flags, slot, 7, [&text, &undefined, &undefined]));
            assert!(!reads_as(flags, slot, 5, [&text, &undefined, &undefined]), "other attributes");
            let (c, flags) = o.key(2).unwrap();
            assert_eq!(
                (c, flags & c_w_e, flags & kind),
                (Atom::new(cx, c"c").get().id(), 0, qjs::JS_PROP_GETSET as u8)
            );
            let getter: Value = ctx.eval("Object.getOwnPropertyDescriptor(o, 'c').get").unwrap();
            let accessors = o.slot(2).unwrap();
            assert_eq!(accessors.0, [Ref::of(&getter).identity().unwrap() as u64, 0]);
            let getter = keep(&anchor, cx, &getter);
            let attributes = qjs::JS_PROP_GETSET as i32;
            assert!(reads_as(flags, accessors, attributes, [&undefined, &getter, &undefined]));
            assert!(!reads_as(flags, accessors, attributes, [&undefined, &text, &undefined]), "another getter");

            // An array keeps its elements apart, and its length first.
            let array: Value = ctx.eval("var a = []; a").unwrap();
            let a = View::of(Ref::of(&array)).unwrap();
            assert!(a.keys_in_shape(&exotics) && a.fast_array());
            assert_eq!(a.key(0).unwrap().0, Atom::new(cx, c"length").get().id());
            assert!(a.slot(0).unwrap().is_zero());
            let _: () = ctx.eval("a.push(7)").unwrap();
            assert!(!a.slot(0).unwrap().is_zero(), "a view reads the object as it is now");
            assert_eq!(a.live(), 1, "an element is no key of the shape");

            // Objects whose keys come from elsewhere too, or not.
            for (source, in_shape) in [
                ("new Proxy({}, {})", false),
                ("new Uint8Array(2)", false),
                ("(function () { return arguments; })(1)", false),
                ("new String('ab')", true),
                ("String.prototype", true),
                ("Math", true),
            ] {
                let value: Value = ctx.eval(source).unwrap();
                assert_eq!(View::of(Ref::of(&value)).unwrap().keys_in_shape(&exotics), in_shape, "{source}");
            }
            let number: Value = ctx.eval("1").unwrap();
            assert!(View::of(Ref::of(&number)).is_none(), "only an object is read in place");
        });
    }
}
