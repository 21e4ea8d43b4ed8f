//! Maps, sets and typed arrays described by their items ([`Desc::Collection`]): the state a method
//! changes is often held in one (a graph's `Map` of edges, a triangulation's `Uint32Array`), and a
//! description by fields alone sees none of it, so no assertion could tell a mutant that changes it.

use super::desc::Desc;
use super::walk::Walk;
use rquickjs::{Object, Value};

use crate::sandbox::qjs::{Kept, Ref, Step};

/// The built-ins that read maps, sets and typed arrays, as they were before user code ran (`__fc$P`).
pub(super) struct Collections {
    pub(super) map_proto: Kept,
    pub(super) set_proto: Kept,
    pub(super) map_size: Kept,
    pub(super) set_size: Kept,
    pub(super) map_entries: Kept,
    pub(super) set_values: Kept,
    pub(super) typed_array_length: Kept,
}

impl Collections {
    /// Read from the primordials `p`, then each kept by `keep` (nothing is kept when a read fails).
    pub(super) fn of<'js>(p: &Object<'js>, keep: impl Fn(&Value<'js>) -> Kept) -> rquickjs::Result<Collections> {
        let names = ["MapProto", "SetProto", "mapSize", "setSize", "mapEntries", "setValues", "typedArrayLength"];
        let values: Vec<Value> = names.iter().map(|name| p.get::<_, Value>(*name)).collect::<rquickjs::Result<_>>()?;
        let [map_proto, set_proto, map_size, set_size, map_entries, set_values, typed_array_length] =
            std::array::from_fn(|i| keep(&values[i]));
        Ok(Collections { map_proto, set_proto, map_size, set_size, map_entries, set_values, typed_array_length })
    }
}

/// The typed array constructors a suite names as globals under every runner.
const TYPED_ARRAYS: &[&[u8]] = &[
    b"Int8Array",
    b"Uint8Array",
    b"Uint8ClampedArray",
    b"Int16Array",
    b"Uint16Array",
    b"Int32Array",
    b"Uint32Array",
    b"Float32Array",
    b"Float64Array",
    b"BigInt64Array",
    b"BigUint64Array",
];

impl<'js> Walk<'_, 'js> {
    /// A map (its entries as `[key, value]` pairs), a set (its values) or a typed array of a built-in
    /// constructor (its elements), `proto` its prototype: its items in order, with its constructor's
    /// name, as `Array.from` takes them. `None` for anything else, and for one with more items than the
    /// limit (a bit set's storage): it stays an object of another kind, not asserted.
    pub(super) fn collection(&mut self, value: Ref<'_, 'js>, proto: Ref<'_, 'js>, depth: usize) -> Step<Option<Desc>> {
        let (cx, p) = (self.cx, self.p);
        let c = &p.collections;
        if value.is_proxy() {
            return Ok(None);
        }
        let map = cx.strict_eq(proto, c.map_proto.get(cx));
        if map || cx.strict_eq(proto, c.set_proto.get(cx)) {
            let (size, read, class) =
                if map { (&c.map_size, &c.map_entries, "Map") } else { (&c.set_size, &c.set_values, "Set") };
            let size = cx.call(size.get(cx), value)?;
            if cx.to_f64(size.get())? > self.d.max_items as f64 {
                return Ok(None);
            }
            let list = cx.call(read.get(cx), value)?;
            let mut items = Vec::new();
            for i in 0..u32::try_from(cx.length(list.get())?).unwrap_or(0) {
                let item = cx.get_index(list.get(), i)?;
                // A pair is no object of the state: its key and value are described one level down.
                items.push(match map {
                    true => Desc::Array {
                        items: vec![self.item(item.get(), 0, depth)?, self.item(item.get(), 1, depth)?],
                        extra: false,
                    },
                    false => self.describe(item.get(), depth + 1)?,
                });
            }
            return Ok(Some(Desc::Collection { class: class.as_bytes().to_vec(), items }));
        }
        if !value.is_typed_array() {
            return Ok(None);
        }
        let class = self.constructor_name(proto)?;
        if !TYPED_ARRAYS.contains(&class.as_slice()) {
            return Ok(None);
        }
        let length = cx.call(c.typed_array_length.get(cx), value)?;
        let length = cx.to_f64(length.get())?;
        if length > self.d.max_items as f64 {
            return Ok(None);
        }
        let mut items = Vec::new();
        for i in 0..length as u32 {
            items.push(self.item(value, i, depth)?);
        }
        Ok(Some(Desc::Collection { class, items }))
    }

    /// The description of `list[index]`, one level below `depth`.
    fn item(&mut self, list: Ref<'_, 'js>, index: u32, depth: usize) -> Step<Desc> {
        let item = self.cx.get_index(list, index)?;
        self.describe(item.get(), depth + 1)
    }
}
