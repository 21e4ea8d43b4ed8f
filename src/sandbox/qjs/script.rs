//! Scripts and modules compiled to bytecode, written out, and read back: a new engine reads the
//! harness's and the program's bytecode rather than parsing them again (see `engine/script.rs`).

use std::ffi::CString;
use std::sync::Arc;

use rquickjs::module::{Declared, WriteOptions};
use rquickjs::{Ctx, Module, Value, qjs};

use super::{Cx, Owned};

/// Bytecode QuickJS wrote in this process (so by this build of it), of a script or of a module: the
/// only bytes QuickJS is given to read (it trusts bytecode as it trusts its compiler).
#[derive(Clone)]
pub(crate) struct Bytecode(Arc<[u8]>);

/// A script compiled, not run yet.
pub(crate) struct Compiled<'js>(Owned<'js>);

/// Compiles the global, non-strict script `code` named `filename`.
pub(crate) fn compile<'js>(ctx: &Ctx<'js>, code: &str, filename: &str) -> rquickjs::Result<Compiled<'js>> {
    let cx = Cx::of(ctx);
    let source = CString::new(code)?;
    let name = CString::new(filename)?;
    let flags = (qjs::JS_EVAL_TYPE_GLOBAL | qjs::JS_EVAL_FLAG_COMPILE_ONLY) as i32;
    // SAFETY: a live context and C strings alive through the call (`code.len()` bytes before the
    // terminator); the function compiled is a new reference, which goes to the answer.
    let function =
        unsafe { Owned::take(cx, qjs::JS_Eval(cx.raw(), source.as_ptr(), code.len() as _, name.as_ptr(), flags)) }?;
    Ok(Compiled(function))
}

/// Reads a script that [`Compiled::write`] wrote.
pub(crate) fn read<'js>(ctx: &Ctx<'js>, bytecode: &Bytecode) -> rquickjs::Result<Compiled<'js>> {
    let cx = Cx::of(ctx);
    let bytes = &bytecode.0;
    let flags = qjs::JS_READ_OBJ_BYTECODE as i32;
    // SAFETY: a live context; the bytes are bytecode this build of QuickJS wrote (see `Bytecode`),
    // which it copies as it reads; the function read is a new reference, which goes to the answer.
    let function = unsafe { Owned::take(cx, qjs::JS_ReadObject(cx.raw(), bytes.as_ptr(), bytes.len() as _, flags)) }?;
    Ok(Compiled(function))
}

impl<'js> Compiled<'js> {
    /// The bytecode of the script, with the text of its functions unless `strip_source`; `None` when it
    /// cannot be written.
    pub(crate) fn write(&self, strip_source: bool) -> Option<Bytecode> {
        let (cx, function) = (self.0.cx(), self.0.get());
        let strip = if strip_source { qjs::JS_WRITE_OBJ_STRIP_SOURCE } else { 0 };
        let flags = (qjs::JS_WRITE_OBJ_BYTECODE | strip) as i32;
        let mut size = 0;
        // SAFETY: a live context and its compiled function; the buffer QuickJS allocates (`size`
        // bytes) is copied, then freed with the context's allocator.
        unsafe {
            let bytes = qjs::JS_WriteObject(cx.raw(), &mut size, function.raw(), flags);
            if bytes.is_null() {
                return None;
            }
            let copy = Arc::from(std::slice::from_raw_parts(bytes, size as usize));
            qjs::js_free(cx.raw(), bytes.cast());
            Some(Bytecode(copy))
        }
    }

    /// Runs the script: its completion value.
    pub(crate) fn run(self) -> rquickjs::Result<Value<'js>> {
        let (cx, function) = self.0.into_raw();
        // SAFETY: a live context; `JS_EvalFunction` takes the reference to the function, and answers a
        // new reference, which goes to the answer.
        let result = unsafe { Owned::take(cx, qjs::JS_EvalFunction(cx.raw(), function)) }?;
        Ok(result.into_value())
    }
}

/// Writes the bytecode of a module declared, or `None` (the exception its writing left pending
/// dismissed by the caller).
pub(crate) fn write_module(module: &Module<'_, Declared>) -> Option<Bytecode> {
    module.write(WriteOptions::default()).ok().map(|bytes| Bytecode(Arc::from(bytes)))
}

/// Declares a module from the bytecode [`write_module`] wrote.
pub(crate) fn load_module<'js>(ctx: &Ctx<'js>, bytecode: &Bytecode) -> rquickjs::Result<Module<'js, Declared>> {
    // SAFETY: the bytes are what `Module::write` made of a module in this process (see `Bytecode`), so
    // by this build of QuickJS, which copies what it reads.
    unsafe { Module::load(ctx.clone(), &bytecode.0) }
}
