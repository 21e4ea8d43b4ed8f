#![allow(unsafe_code)]
//! The one room of the crate where QuickJS is reached through its raw C interface (`rquickjs::qjs`):
//! every raw pointer, every `JSValue` and `JSAtom`, every reference count, behind a small safe API that
//! the engine (`sandbox/engine/`) is written in. The crate root denies unsafe code; only this module
//! allows it, and every block here says why it holds.
//!
//! The API follows rquickjs's own safe layer (and rusty_v8's handles):
//!
//! - [`Cx<'js>`] is a context for the scope of one `Context::with` (the lifetime `'js` of
//!   [`rquickjs::Ctx`], invariant: values of two contexts cannot be mixed). Every operation that may
//!   run JavaScript or allocate is a method of it.
//! - [`Owned<'js>`] is a reference to a value, freed when dropped; [`Ref<'a, 'js>`] a value borrowed
//!   for `'a` from what holds it (an [`Owned`], an `rquickjs::Value`, a [`props::Descriptor`], a [`Kept`]), so
//!   it cannot outlive the reference that keeps it alive. [`Atom<'js>`] and [`AtomRef<'a, 'js>`] are the
//!   same for property keys; [`OwnKeys`] is a listing of an object's keys, freed when dropped, whose
//!   atoms are borrowed from it; [`props::Descriptor`] an own property's descriptor, its references freed
//!   when dropped.
//! - A reference kept from one `with` to the next (the describers' primordials, the built-ins'
//!   snapshot, the results' keys) is a [`Kept`] or a [`KeptAtom`]: it holds an [`Anchor`], a reference
//!   to the context, so it is freed while the context lives whatever order its owner drops things in,
//!   and it is read only in a scope of that same context (checked).
//! - An exception QuickJS left pending is [`Thrown`]: the caller takes it, dismisses it or passes it
//!   on explicitly (as `rquickjs::Error::Exception`).
//! - [`layout`] reads QuickJS's private structures in place, for the built-ins' guard: only for the
//!   QuickJS version it mirrors, through a view borrowed from a live object, every index checked
//!   against the object's shape as it is at the time of the read.
//! - [`script`] compiles, writes and reads bytecode; bytecode is read only from a [`script::Bytecode`],
//!   which only this module makes (from what QuickJS wrote in this process).
//!
//! Invariants every block relies on: a `Cx<'js>` is only made from a live `Ctx<'js>`, so its context
//! is alive for `'js`; an `Owned`, `Descriptor`, `OwnKeys` or `Atom` holds exactly one reference of
//! its context, freed once in `Drop`; a borrowed view never outlives its owner; nothing here is `Send`
//! (QuickJS is single-threaded).

mod atom;
mod call;
mod countdown;
mod cx;
mod error;
mod keep;
mod keys;
pub(crate) mod layout;
mod props;
pub(crate) mod script;
mod text;
mod value;

pub(crate) use atom::{Atom, AtomRef};
pub(crate) use cx::Cx;
pub(crate) use error::{Step, Thrown};
pub(crate) use keep::{Anchor, Kept, KeptAtom};
pub(crate) use keys::{KeyFilter, OwnKeys};
pub(crate) use text::{CText, with_bytes};
pub(crate) use value::{Kind, Owned, Ref};
