//! The code a function runs by building an instance of a class of its file (`new TokenStream(this,
//! text)`): the methods of its prototype of the names the function calls (`lexer.next()`), and of those
//! these and the constructor call in turn.

use std::collections::BTreeSet;

use super::{Bound, Collector};

impl Collector {
    /// `new TokenStream(parser, text)`: a function that builds an instance of a class of the file runs
    /// the class's code through it, the methods of its prototype it calls (see [`built_calls`]). A parser
    /// class the module keeps to itself is reached only so: it belongs to the goal of the exported method
    /// that builds it. The constructor is left out: a factory of a class under test (`Color.fromHex`)
    /// never reaches the checks its constructor makes of other callers' arguments.
    pub(super) fn builds(&mut self, name: &str) {
        if let (Some(binding), Some(current)) = (self.binding(name), self.open.last_mut()) {
            current.built.push(binding);
        }
    }
}

/// The methods of the prototypes of `built` that a function calling methods named `called` runs: those
/// of these names, then those of the names they and the constructors call in turn (`this.parseTerm()`,
/// `this.tokens.next()`), which names alone cannot resolve to a function. What a function calls counts
/// with what the functions nested in it call (its callbacks; and a class method's range holds its key).
pub(super) fn built_calls<'b>(
    built: impl Iterator<Item = &'b Bound> + Clone,
    mut called: BTreeSet<String>,
    methods_called: &[((u32, u32), BTreeSet<String>)],
) -> BTreeSet<(u32, u32)> {
    let calls_of = |(start, end): (u32, u32)| {
        methods_called
            .iter()
            .filter(move |((s, e), _)| *s >= start && *e <= end)
            .flat_map(|(_, names)| names.iter().cloned())
    };
    let mut runs = BTreeSet::new();
    for constructor in built.clone().filter_map(|b| b.function) {
        called.extend(calls_of(constructor));
    }
    let methods: Vec<(&str, (u32, u32))> = built
        .flat_map(|b| b.members.iter().flatten())
        .filter_map(|(path, function)| Some((path.strip_prefix("prototype.")?, (*function)?)))
        .collect();
    loop {
        let reached: Vec<(u32, u32)> =
            methods.iter().filter(|(name, f)| called.contains(*name) && !runs.contains(f)).map(|(_, f)| *f).collect();
        if reached.is_empty() {
            return runs;
        }
        for function in reached {
            runs.insert(function);
            called.extend(calls_of(function));
        }
    }
}
