//! Running a test's statements from Rust: constructions and calls made through the C interface, with
//! the harness's JavaScript called only for what it alone knows (recording proxies, the arguments Rust
//! does not build, promises, iterators, how a test that threw ended).
//!
//! The harness's interpreter (`__fc$exec`) parses a test from JSON and interprets it statement by
//! statement: for a fast method that cost more than the method (a `JSON.parse` of a ten-statement test
//! alone took as long as the calls). Describing results stays the harness's (`start` and `finish`
//! around the calls); tests that inspect their last call (mutation analysis's) keep to the
//! interpreter, and a test whose call returns a promise, or an async iterator to consume, goes on there.

use rquickjs::function::Args;
use rquickjs::{Array, Ctx, Function, Object, Persistent, TypedArray, Value};

use super::arrays::set_statement_running;
use crate::js::DIRECT;
use crate::model::program::ProgramInfo;
use crate::model::test::{CALL_ITSELF, Statement, TestCase, Value as Argument};
use crate::sandbox::qjs::Ref;

/// The harness's functions a direct run calls (see `__fc$direct` in `harness.js`), taken once.
pub(super) struct Direct {
    begin: Persistent<Function<'static>>,
    vars: Persistent<Array<'static>>,
    classes: Persistent<Array<'static>>,
    recording: Persistent<Function<'static>>,
    argument: Persistent<Function<'static>>,
    member: Persistent<Function<'static>>,
    construct: Persistent<Function<'static>>,
    apply: Persistent<Function<'static>>,
    is_promise: Persistent<Function<'static>>,
    start: Persistent<Function<'static>>,
    finish: Persistent<Function<'static>>,
    bind: Persistent<Function<'static>>,
    ended: Persistent<Function<'static>>,
    failed: Persistent<Function<'static>>,
    resume: Persistent<Function<'static>>,
}

/// [`Direct`]'s handles restored in the context of one run.
struct Harness<'js> {
    vars: Array<'js>,
    classes: Array<'js>,
    recording: Function<'js>,
    argument: Function<'js>,
    member: Function<'js>,
    construct: Function<'js>,
    apply: Function<'js>,
    is_promise: Function<'js>,
    start: Function<'js>,
    finish: Function<'js>,
    bind: Function<'js>,
}

impl Direct {
    pub(super) fn take(ctx: &Ctx) -> rquickjs::Result<Direct> {
        let direct: Object = ctx.globals().get(DIRECT)?;
        let function = |name: &str| direct.get::<_, Function>(name).map(|f| Persistent::save(ctx, f));
        let array = |name: &str| direct.get::<_, Array>(name).map(|a| Persistent::save(ctx, a));
        Ok(Direct {
            begin: function("begin")?,
            vars: array("vars")?,
            classes: array("classes")?,
            recording: function("recording")?,
            argument: function("argument")?,
            member: function("member")?,
            construct: function("construct")?,
            apply: function("apply")?,
            is_promise: function("isPromise")?,
            start: function("start")?,
            finish: function("finish")?,
            bind: function("bind")?,
            ended: function("ended")?,
            failed: function("failed")?,
            resume: function("resume")?,
        })
    }

    /// Runs `test` as `__fc$exec` does, describing the results of the method under test if `describe`,
    /// and answers what it answers. `running` is the harness's index of the statement running.
    /// Exceptions the code under test can catch end the test as the interpreter ends it; an interrupt
    /// (the time limit) reaches the caller as an exception.
    pub(super) fn run<'js>(
        &self,
        ctx: &Ctx<'js>,
        (test, program): (&TestCase, &ProgramInfo),
        (seed, salt): (u32, u32),
        describe: bool,
        running: &TypedArray<'js, u32>,
    ) -> rquickjs::Result<String> {
        let harness = Harness {
            vars: self.vars.clone().restore(ctx)?,
            classes: self.classes.clone().restore(ctx)?,
            recording: self.recording.clone().restore(ctx)?,
            argument: self.argument.clone().restore(ctx)?,
            member: self.member.clone().restore(ctx)?,
            construct: self.construct.clone().restore(ctx)?,
            apply: self.apply.clone().restore(ctx)?,
            is_promise: self.is_promise.clone().restore(ctx)?,
            start: self.start.clone().restore(ctx)?,
            finish: self.finish.clone().restore(ctx)?,
            bind: self.bind.clone().restore(ctx)?,
        };
        self.begin.clone().restore(ctx)?.call::<_, ()>((seed, describe, salt))?;
        for (at, statement) in test.statements.iter().enumerate() {
            set_statement_running(running, at);
            let built = test.constructed_under_test(at);
            let tested = test.tests_at(at);
            let step = || -> rquickjs::Result<Option<Value<'js>>> {
                if describe {
                    harness.start.call::<_, ()>((at as u32, tested))?;
                }
                let mut value = harness.perform(ctx, test, program, statement)?;
                // The construction under test answers what it built, as in the interpreter.
                if let Some(variable) = built {
                    value = Some(harness.vars.get(variable)?);
                }
                if let Some(value) = &value
                    && value.is_object()
                    && harness.is_promise.call::<_, bool>((value.clone(),))?
                {
                    return Ok(Some(value.clone()));
                }
                if test.awaits_as_written(at, program) {
                    return Ok(Some(value.unwrap_or_else(|| Value::new_undefined(ctx.clone()))));
                }
                // Without a description to make, only an object can be an iterator to consume.
                let object = value.as_ref().is_some_and(Value::is_object);
                // An async iterator is consumed as jobs run: the rest of the test awaits that.
                if tested && (describe || object) {
                    let consuming: Value = harness.finish.call((value.clone(), at as u32))?;
                    if consuming.is_object() {
                        return Ok(Some(consuming));
                    }
                }
                // After the description: a result bound to a variable is described as a value, not as
                // the variable it becomes. Only an object (a function among them) can be a new instance
                // or a function of the code to note.
                let result = match statement {
                    Statement::Call { result, .. } => *result,
                    _ => None,
                };
                if object || result.is_some() {
                    let bound = result.map_or(-1, |r| r as i32);
                    harness.bind.call::<_, ()>((value, at as u32, bound))?;
                }
                Ok(None)
            };
            match step() {
                Ok(None) => {}
                Ok(Some(pending)) => {
                    let json = test.to_json(program);
                    return self.resume.clone().restore(ctx)?.call((pending, json, at as u32));
                }
                Err(rquickjs::Error::Exception) => {
                    let thrown = ctx.catch();
                    if Ref::of(&thrown).is_uncatchable() {
                        return Err(ctx.throw(thrown));
                    }
                    return self.failed.clone().restore(ctx)?.call((thrown, at as u32));
                }
                Err(e) => return Err(e),
            }
        }
        self.ended.clone().restore(ctx)?.call(())
    }
}

impl<'js> Harness<'js> {
    /// One statement, as the interpreter's `perform` does it: a construction or a rebuilt instance
    /// defines its variable, a call answers its result.
    fn perform(
        &self,
        ctx: &Ctx<'js>,
        test: &TestCase,
        program: &ProgramInfo,
        statement: &Statement,
    ) -> rquickjs::Result<Option<Value<'js>>> {
        match statement {
            Statement::Construct { class, args, variable } => {
                let class: Value = self.classes.get(*class)?;
                let args = self.arguments(ctx, test, program, args)?;
                let instance: Value = match class.as_constructor() {
                    Some(constructor) => constructor.construct_args(call_arguments(ctx, args)?)?,
                    // What is no constructor throws `Reflect.construct`'s own error, as in the interpreter.
                    None => self.construct.call((class, array_of(ctx, args)?))?,
                };
                self.vars.set(*variable, instance)?;
                Ok(None)
            }
            Statement::Call { receiver, method, args, .. } if method == CALL_ITSELF => {
                // A function a call returned, called without a receiver as the interpreter calls it.
                let function: Value = self.vars.get(*receiver)?;
                let args = self.arguments(ctx, test, program, args)?;
                match function.as_function() {
                    Some(function) => function.call_arg(call_arguments(ctx, args)?).map(Some),
                    None => {
                        let this = Value::new_undefined(ctx.clone());
                        self.apply.call((function, this, array_of(ctx, args)?)).map(Some)
                    }
                }
            }
            Statement::Call { receiver, method, args, .. } => {
                let receiver: Value = self.vars.get(*receiver)?;
                // The method is read before the arguments are built, as the interpreter reads it.
                let function: Value = match receiver.as_object() {
                    Some(object) => object.get(method.as_str())?,
                    None => self.member.call((receiver.clone(), method.as_str()))?,
                };
                let args = self.arguments(ctx, test, program, args)?;
                match function.as_function() {
                    Some(function) => {
                        let mut call = call_arguments(ctx, args)?;
                        call.this(receiver)?;
                        function.call_arg(call).map(Some)
                    }
                    // What cannot be called throws `Reflect.apply`'s own error, as in the interpreter.
                    None => self.apply.call((function, receiver, array_of(ctx, args)?)).map(Some),
                }
            }
            Statement::Rebuild { variable, class, fields } => {
                // Replayed tests only: made by the harness, as the argument that is the same instance.
                let instance = Argument::Instance { class: *class, fields: fields.clone() };
                let instance: Value = self.argument.call((test.value_json(&instance, program),))?;
                self.vars.set(*variable, instance)?;
                Ok(None)
            }
        }
    }

    /// The values of `values`, made in order.
    fn arguments(
        &self,
        ctx: &Ctx<'js>,
        test: &TestCase,
        program: &ProgramInfo,
        values: &[Argument],
    ) -> rquickjs::Result<Vec<Value<'js>>> {
        values.iter().map(|value| self.argument(ctx, test, program, value)).collect()
    }

    /// One argument, as the interpreter's `argument` makes it from its JSON: primitives, variables,
    /// proxies and arrays here, anything else by the harness from its JSON.
    fn argument(
        &self,
        ctx: &Ctx<'js>,
        test: &TestCase,
        program: &ProgramInfo,
        value: &Argument,
    ) -> rquickjs::Result<Value<'js>> {
        Ok(match value {
            Argument::Number(n) => number(ctx, *n),
            Argument::String(text) => rquickjs::String::from_str(ctx.clone(), text)?.into_value(),
            Argument::Boolean(b) => Value::new_bool(ctx.clone(), *b),
            Argument::Null => Value::new_null(ctx.clone()),
            Argument::Undefined => Value::new_undefined(ctx.clone()),
            Argument::Variable(v) => self.vars.get(*v)?,
            Argument::Proxy(id) => self.recording.call((*id,))?,
            Argument::Array(items) => array_of(ctx, self.arguments(ctx, test, program, items)?)?.into_value(),
            _ => self.argument.call((test.value_json(value, program),))?,
        })
    }
}

/// A JavaScript array of `values`.
fn array_of<'js>(ctx: &Ctx<'js>, values: Vec<Value<'js>>) -> rquickjs::Result<Array<'js>> {
    let array = Array::new(ctx.clone())?;
    for (index, value) in values.into_iter().enumerate() {
        array.set(index, value)?;
    }
    Ok(array)
}

/// `values` as the arguments of a call made through the C interface: the interpreter's `Reflect.apply`
/// and `Reflect.construct` took an array made for the call, which cost more than many methods under test.
fn call_arguments<'js>(ctx: &Ctx<'js>, values: Vec<Value<'js>>) -> rquickjs::Result<Args<'js>> {
    let mut args = Args::new(ctx.clone(), values.len());
    args.push_args(values)?;
    Ok(args)
}

/// A number as the interpreter makes one (its `integral`): a whole number in 32 bits but -0 is an
/// integer value, which QuickJS indexes arrays with fast, any other a double.
fn number<'js>(ctx: &Ctx<'js>, n: f64) -> Value<'js> {
    if n.fract() == 0.0 && n >= f64::from(i32::MIN) && n <= f64::from(i32::MAX) && !(n == 0.0 && n.is_sign_negative()) {
        Value::new_int(ctx.clone(), n as i32)
    } else {
        Value::new_float(ctx.clone(), n)
    }
}
