//! Classes declared as a variable whose type constructs them, beside an interface of their instances: how
//! `.d.ts` files written by hand for JavaScript classes often declare them (and TypeScript's own library
//! declares `Map`): `export interface Queue<T> { push(value: T): Queue<T> }` with `export const Queue: {
//! new <T>(compare: Compare<T>): Queue<T>; fromArray<T>(values: T[]): Queue<T> }`, or `declare var Queue:
//! QueueConstructor` and an interface of construct signatures. The construct signatures declare the
//! constructor, the variable's type's methods the static ones, and the type the first construct signature
//! returns the instances' methods.

use std::collections::HashMap;
use std::rc::Rc;

use swc_ecma_ast::TsType;

use super::classes::{DeclaredMember, Overloads};
use super::made::{Wanted, constructs, signatures};
use super::resolve::{Ctx, Files, Named, Place, Space};

/// A variable whose type constructs the class, with the context its type is read in.
pub(super) struct Constructed {
    ty: Rc<TsType>,
    ctx: Ctx,
}

/// The variable `names` (tried in order, as for a class) in the file `top`, when its type has a construct
/// signature.
pub(super) fn find(files: &mut Files, top: &Place, names: &[&str]) -> Option<Constructed> {
    names.iter().find_map(|name| match files.exported_in(top, name, 0, Space::Values)? {
        Named::Value(place, ty) => {
            let ctx = Ctx { place, env: Rc::new(HashMap::new()), this_class: None, depth: 0 };
            constructs(files, &ty, &ctx).map(|_| Constructed { ty, ctx })
        }
        _ => None,
    })
}

/// The declared signature of `function` (`constructor` or a method; a static method when `statics`) of
/// the class `found` declares; a constructor of several construct signatures has them merged, as
/// overloads are.
pub(super) fn member(files: &mut Files, found: &Constructed, function: &str, statics: bool) -> Option<DeclaredMember> {
    let mut read = Overloads::default();
    match (statics, function) {
        (true, _) => signatures(files, &found.ty, &found.ctx, Wanted::Method(function), &mut read),
        (false, "constructor") => signatures(files, &found.ty, &found.ctx, Wanted::Construct, &mut read),
        (false, _) => {
            let (instances, ctx) = constructs(files, &found.ty, &found.ctx)?;
            signatures(files, &instances, &ctx, Wanted::Method(function), &mut read);
        }
    }
    read.member(true)
}
