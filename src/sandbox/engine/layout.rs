//! QuickJS's objects read in place, for the built-ins' guard (`guard.rs`): an object's own keys, their
//! attributes and their values, in a few loads per property. Through the C interface a complete check of
//! the ~1,000 built-in properties cost about 27 us (a listing of every object's keys, a descriptor per
//! property), as much as a test of a small class, and the election makes one after every test it runs
//! alone; read in place it costs a few microseconds.
//!
//! The C interface does not publish these structures: [`Object`], [`Shape`], [`Key`] and [`Slot`] mirror
//! `JSObject`, `JSShape`, `JSShapeProperty` and `JSProperty` of `quickjs.c` in the QuickJS-ng that
//! rquickjs-sys 0.14.0 bundles (Cargo.toml pins it). They are read only when the engine reports that
//! version on a 64-bit target ([`readable`]), and the guard reads nothing in place that it did not first
//! find equal to what the C interface read (see `guard.rs`): a layout read wrongly makes no image, and the
//! object is checked through the C interface as before.

use std::ffi::CStr;
use std::sync::OnceLock;

use rquickjs::qjs;

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

/// `JSProperty`: a data property's `JSValue`, or an accessor's getter and setter (null when undefined).
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Slot([u64; 2]);

/// The kind of a property, in its attributes (`JS_PROP_TMASK`).
pub(super) const KIND: u8 = qjs::JS_PROP_TMASK as u8;

/// Whether objects can be read in place: the engine is the version mirrored here, on a 64-bit target
/// where a `JSValue` is a tag and a payload (16 bytes).
pub(super) fn readable() -> bool {
    static READABLE: OnceLock<bool> = OnceLock::new();
    *READABLE.get_or_init(|| {
        // SAFETY: `JS_GetVersion` answers a static C string.
        let version = unsafe { CStr::from_ptr(qjs::JS_GetVersion()) };
        cfg!(target_pointer_width = "64")
            && std::mem::size_of::<qjs::JSValue>() == 16
            && std::mem::size_of::<Shape>() == 56
            && version.to_bytes() == MIRRORED.as_bytes()
    })
}

/// The ids of the exotic classes whose own keys [`View::keys_in_shape`] can tell are all in the shape.
pub(super) struct Exotics {
    array: qjs::JSClassID,
    string: qjs::JSClassID,
}

impl Exotics {
    /// The ids, from an array and a `String` object made in `ctx`.
    ///
    /// # Safety
    /// `ctx` is a live context.
    pub(super) unsafe fn of(ctx: *mut qjs::JSContext) -> Exotics {
        // SAFETY: as the function's contract; every value made here is freed. A value not made (an
        // exception) has no class id, which no object has.
        unsafe {
            let array = qjs::JS_NewArray(ctx);
            let text = qjs::JS_NewStringLen(ctx, c"".as_ptr(), 0);
            let string = qjs::JS_ToObject(ctx, text);
            let exotics = Exotics { array: qjs::JS_GetClassID(array), string: qjs::JS_GetClassID(string) };
            for value in [array, text, string] {
                qjs::JS_FreeValue(ctx, value);
            }
            if qjs::JS_HasException(ctx) {
                qjs::JS_FreeValue(ctx, qjs::JS_GetException(ctx));
            }
            exotics
        }
    }
}

/// An object read in place, as it is now.
pub(super) struct View {
    object: *const Object,
    shape: *const Shape,
}

impl View {
    /// `value` read in place, or `None` when it is no object or objects cannot be read so ([`readable`]).
    ///
    /// # Safety
    /// `value` is alive, and nothing runs in its context while the view is used.
    pub(super) unsafe fn of(value: qjs::JSValue) -> Option<View> {
        // SAFETY: as the function's contract: an object value's pointer is its `JSObject`, whose shape
        // lives as long as it has it.
        unsafe {
            if !readable() || qjs::JS_VALUE_GET_TAG(value) != qjs::JS_TAG_OBJECT {
                return None;
            }
            let object = qjs::JS_VALUE_GET_PTR(value) as *const Object;
            Some(View { object, shape: (*object).shape })
        }
    }

    /// Whether every own key is in the shape: an ordinary object, a `String` object (whose indices are
    /// those of its string, which never changes) or an array (whose elements are kept apart: the caller
    /// sees them by its length, see [`View::fast_array`]).
    pub(super) fn keys_in_shape(&self, exotics: &Exotics) -> bool {
        let flags = self.flags();
        let class = self.class_id();
        flags & IS_EXOTIC == 0
            || flags & FAST_ARRAY != 0 && class == exotics.array
            || flags & FAST_ARRAY == 0 && class == exotics.string
    }

    /// Whether it keeps array elements apart from its shape.
    pub(super) fn fast_array(&self) -> bool {
        self.flags() & FAST_ARRAY != 0
    }

    /// The one-bit fields that say where own keys are kept (see [`View::keys_in_shape`]).
    pub(super) fn flags(&self) -> u8 {
        // SAFETY: `object` is a live `JSObject` (see `View::of`).
        unsafe { (*self.object).flags[0] & (IS_EXOTIC | FAST_ARRAY) }
    }

    fn class_id(&self) -> qjs::JSClassID {
        // SAFETY: as in `flags`.
        unsafe { (*self.object).class_id as qjs::JSClassID }
    }

    /// How many entries the shape has, deleted keys included.
    pub(super) fn entries(&self) -> usize {
        // SAFETY: `shape` is the live object's shape (see `View::of`).
        unsafe { (*self.shape).prop_count.max(0) as usize }
    }

    /// How many own keys the shape holds.
    pub(super) fn live(&self) -> usize {
        // SAFETY: as in `entries`.
        unsafe { ((*self.shape).prop_count - (*self.shape).deleted_prop_count).max(0) as usize }
    }

    /// The key at `index` (below [`View::entries`]): its atom (`JS_ATOM_NULL` when deleted) and attributes.
    pub(super) fn key(&self, index: usize) -> (qjs::JSAtom, u8) {
        // SAFETY: the keys follow the shape's hash table, `prop_count` of them in use.
        unsafe {
            let table = (*self.shape).hash_table.as_ptr();
            let keys = table.add((*self.shape).prop_hash_mask as usize + 1) as *const Key;
            let key = *keys.add(index);
            (key.atom, (key.hash_next_and_flags >> 26) as u8)
        }
    }

    /// The property at `index` (below [`View::entries`]).
    pub(super) fn slot(&self, index: usize) -> Slot {
        // SAFETY: the object has at least `prop_count` properties.
        unsafe { *(*self.object).prop.add(index) }
    }
}

impl Slot {
    /// A data property's value (no reference of its own).
    pub(super) fn value(self) -> qjs::JSValue {
        // SAFETY: a data property's slot is a `JSValue`, 16 bytes where objects are `readable`.
        unsafe { std::ptr::read_unaligned(self.0.as_ptr().cast::<qjs::JSValue>()) }
    }

    /// An accessor's getter and setter objects, null when undefined.
    pub(super) fn accessors(self) -> [usize; 2] {
        [self.0[0] as usize, self.0[1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use rquickjs::{Context, Ctx, Runtime, Value, qjs};

    use super::{Exotics, KIND, View, readable};

    /// The atom of `name` (freed at once: the runtime keeps it while the objects read here use it).
    fn atom(ctx: &Ctx, name: &std::ffi::CStr) -> qjs::JSAtom {
        let raw = ctx.as_raw().as_ptr();
        // SAFETY: a live context; the atom stays alive as a key of the objects made below.
        unsafe {
            let atom = qjs::JS_NewAtom(raw, name.as_ptr());
            qjs::JS_FreeAtom(raw, atom);
            atom
        }
    }

    #[test]
    fn reads_keys_attributes_and_values_where_quickjs_keeps_them() {
        assert!(readable(), "the bundled QuickJS is not the version mirrored: compare layout.rs with quickjs.c");
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        context.with(|ctx| {
            let view = |value: &Value| unsafe { View::of(value.as_raw()) }.expect("an object");
            let object: Value = ctx
                .eval("var o = { a: 1, b: 'x' }; Object.defineProperty(o, 'c', { get() { return 2; } }); delete o.a; o")
                .unwrap();
            let o = view(&object);
            assert!(o.keys_in_shape(&unsafe { Exotics::of(ctx.as_raw().as_ptr()) }) && !o.fast_array());
            assert_eq!((o.entries(), o.live()), (3, 2), "a deleted key keeps its entry");
            assert_eq!(o.key(0).0, qjs::JS_ATOM_NULL);
            let (b, flags) = o.key(1);
            assert_eq!(b, atom(&ctx, c"b"));
            assert_eq!((flags & qjs::JS_PROP_C_W_E as u8, flags & KIND), (7, qjs::JS_PROP_NORMAL as u8));
            let text: Value = ctx.eval("o.b").unwrap();
            let slot = o.slot(1).value();
            // SAFETY: reading JSValues' tags and payloads.
            unsafe {
                assert_eq!(qjs::JS_VALUE_GET_TAG(slot), qjs::JS_TAG_STRING);
                assert_eq!(qjs::JS_VALUE_GET_PTR(slot), qjs::JS_VALUE_GET_PTR(text.as_raw()), "the same string");
            }
            let (c, flags) = o.key(2);
            assert_eq!(
                (c, flags & qjs::JS_PROP_C_W_E as u8, flags & KIND),
                (atom(&ctx, c"c"), 0, qjs::JS_PROP_GETSET as u8)
            );
            let getter: Value = ctx.eval("Object.getOwnPropertyDescriptor(o, 'c').get").unwrap();
            // SAFETY: as above.
            let getter = unsafe { qjs::JS_VALUE_GET_PTR(getter.as_raw()) } as usize;
            assert_eq!(o.slot(2).accessors(), [getter, 0]);

            // An array keeps its elements apart, and its length first.
            let exotics = unsafe { Exotics::of(ctx.as_raw().as_ptr()) };
            let array: Value = ctx.eval("var a = []; a").unwrap();
            let a = view(&array);
            assert!(a.keys_in_shape(&exotics) && a.fast_array());
            assert_eq!(a.key(0).0, atom(&ctx, c"length"));
            let length = |a: &View| unsafe { qjs::JS_VALUE_GET_INT(a.slot(0).value()) };
            assert_eq!(length(&a), 0);
            let _: () = ctx.eval("a.push(7)").unwrap();
            assert_eq!((length(&view(&array)), view(&array).live()), (1, 1), "an element is no key of the shape");

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
                assert_eq!(view(&value).keys_in_shape(&exotics), in_shape, "{source}");
            }
        });
    }
}
