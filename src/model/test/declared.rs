//! Every variable a test names is declared, once, before it is used: the invariant that makes a test
//! mean the same in the sandbox (where an undeclared variable is `undefined`, so a call on it throws a
//! `TypeError`) and in the exported suite (where it is a `ReferenceError`). Rewrites that drop
//! statements (minimisation, shortening a witness, cutting a test at a throw) go through
//! [`TestCase::without_statement`] and [`TestCase::truncate`], which also forget the variables they
//! leave undeclared, so that no later rewrite (an extension reusing a variable of the test) can name one;
//! [`TestCase::check_declarations`] says what is wrong with a test that breaks it, and
//! [`TestCase::is_valid`] refuses such a test.

use super::{CALL_ITSELF, Statement, TestCase, Value};

impl TestCase {
    /// `Ok` when every variable is declared by exactly one statement and every statement names only
    /// variables declared by an earlier one, and every call of a function a call returned (see
    /// [`CALL_ITSELF`]) calls a call's result; else what is wrong, naming the variable and the statement.
    /// An instance (of a module of functions, whose construction no suite writes) called itself would be
    /// `x()` of a name the suite never declares.
    pub(crate) fn check_declarations(&self) -> Result<(), String> {
        let mut declared = vec![false; self.variables.len()];
        let mut results = vec![false; self.variables.len()];
        let name = |v: usize| self.variables.get(v).map_or_else(|| format!("#{v}"), |v| v.name.clone());
        for (index, statement) in self.statements.iter().enumerate() {
            let mut named = Vec::new();
            statement.visit_variables(&mut |v| named.push(v));
            if let Some(&v) = named.iter().find(|v| !declared.get(**v).copied().unwrap_or(false)) {
                return Err(format!("statement {index} uses {} before any declaration", name(v)));
            }
            if let Statement::Call { receiver, method, .. } = statement
                && method == CALL_ITSELF
                && !results[*receiver]
            {
                return Err(format!("statement {index} calls {}, which no call returned", name(*receiver)));
            }
            if let Statement::Call { result: Some(v), .. } = statement
                && let Some(slot) = results.get_mut(*v)
            {
                *slot = true;
            }
            if let Some(v) = statement.declared() {
                match declared.get_mut(v) {
                    None => return Err(format!("statement {index} declares #{v}, not a variable of the test")),
                    Some(true) => return Err(format!("statement {index} declares {} again", name(v))),
                    Some(slot) => *slot = true,
                }
            }
        }
        match declared.iter().position(|d| !d) {
            Some(v) => Err(format!("{} is never declared", name(v))),
            None => Ok(()),
        }
    }

    /// The test without statement `index`, or `None` when that statement declares a variable another
    /// statement still uses. A variable it declared is forgotten.
    pub(crate) fn without_statement(&self, index: usize) -> Option<TestCase> {
        let mut shorter = self.clone();
        let removed = shorter.statements.remove(index);
        if removed.declared().is_some_and(|v| shorter.uses_variable(v)) {
            return None;
        }
        shorter.forget_undeclared();
        Some(shorter)
    }

    /// The test without statement `index`, a call whose bound result later statements use, those uses
    /// now naming the call's receiver: a link taken out of a chain of versions (`stack3 = stack2.push(2)`
    /// gone, `stack3.push(3)` becomes `stack2.push(3)`). `None` for any other statement.
    pub(crate) fn without_link(&self, index: usize) -> Option<TestCase> {
        let Some(&Statement::Call { receiver, result: Some(result), .. }) = self.statements.get(index) else {
            return None;
        };
        // Only a link of a chain of one class: a result of another class (a module's function's, a
        // factory method's) cannot stand where its receiver stood, as receiver or as argument.
        // Nor a function a call returned, which is no instance at all.
        let class = |v: usize| self.variables.get(v).map(|v| v.class);
        if class(receiver) != class(result) || self.is_function(result) {
            return None;
        }
        let mut shorter = self.clone();
        shorter.statements.remove(index);
        let map = |v: usize| if v == result { receiver } else { v };
        for statement in &mut shorter.statements {
            if let Statement::Call { receiver: r, .. } = statement {
                *r = map(*r);
            }
            for value in statement.values_mut() {
                *value = value.remapped(&map);
            }
        }
        shorter.forget_undeclared();
        Some(shorter)
    }

    /// The test with the results no statement uses unbound (their calls kept), and their variables
    /// forgotten: what minimisation leaves of a result that fed nothing it kept.
    pub(crate) fn without_unused_results(&self) -> TestCase {
        let mut unbound = self.clone();
        let unused: Vec<usize> = (0..self.variables.len()).filter(|v| !self.uses_variable(*v)).collect();
        for statement in &mut unbound.statements {
            if let Statement::Call { result, .. } = statement
                && result.is_some_and(|r| unused.contains(&r))
            {
                *result = None;
            }
        }
        unbound.forget_undeclared();
        unbound
    }

    /// Keeps the first `len` statements, and the variables they declare.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.statements.truncate(len);
        self.forget_undeclared();
    }

    /// Removes the variables no statement declares, numbering the others again in order.
    pub(super) fn forget_undeclared(&mut self) {
        let mut declared = vec![false; self.variables.len()];
        for v in self.statements.iter().filter_map(Statement::declared) {
            declared[v] = true;
        }
        if declared.iter().all(|d| *d) {
            return;
        }
        let mut numbers = Vec::with_capacity(declared.len());
        let mut next = 0;
        for kept in &declared {
            numbers.push(next);
            next += usize::from(*kept);
        }
        let mut index = 0;
        self.variables.retain(|_| {
            index += 1;
            declared[index - 1]
        });
        let map = |v: usize| numbers[v];
        for statement in &mut self.statements {
            match statement {
                Statement::Construct { variable, .. } | Statement::Rebuild { variable, .. } => {
                    *variable = map(*variable)
                }
                Statement::Call { receiver, result, .. } => {
                    *receiver = map(*receiver);
                    *result = result.map(map);
                }
            }
            for value in statement.values_mut() {
                *value = value.remapped(&map);
            }
        }
    }
}

impl Statement {
    /// The variable the statement declares: a construction's, a rebuilt instance's, or the one a call's
    /// result defines.
    pub(crate) fn declared(&self) -> Option<usize> {
        match self {
            Statement::Construct { variable, .. } | Statement::Rebuild { variable, .. } => Some(*variable),
            Statement::Call { result, .. } => *result,
        }
    }

    /// Calls `visit` with every variable the statement uses (its receiver, and those among its values),
    /// not the one it declares.
    fn visit_variables(&self, visit: &mut impl FnMut(usize)) {
        if let Statement::Call { receiver, .. } = self {
            visit(*receiver);
        }
        let values: &[Value] = match self {
            Statement::Construct { args, .. } | Statement::Call { args, .. } => args,
            Statement::Rebuild { fields, .. } => {
                fields.iter().for_each(|(_, v)| v.visit_variables(visit));
                &[]
            }
        };
        values.iter().for_each(|v| v.visit_variables(visit));
    }
}

impl Value {
    /// Calls `visit` with every variable named anywhere in this value.
    fn visit_variables(&self, visit: &mut impl FnMut(usize)) {
        match self {
            Value::Variable(v) => visit(*v),
            other => other.inner().into_iter().for_each(|i| i.visit_variables(visit)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Variable;
    use super::*;

    fn variable(name: &str) -> Variable {
        Variable { class: 0, name: name.into() }
    }

    fn construct(variable: usize, args: Vec<Value>) -> Statement {
        Statement::Construct { variable, class: 0, args }
    }

    fn call(receiver: usize, args: Vec<Value>) -> Statement {
        Statement::call(receiver, "add", args, true)
    }

    /// `v = new V(); v2 = new V(); v3 = new V(); v.add(v3)`.
    fn three() -> TestCase {
        TestCase {
            class: 0,
            method: "add".into(),
            variables: vec![variable("v"), variable("v2"), variable("v3")],
            statements: vec![
                construct(0, vec![]),
                construct(1, vec![]),
                construct(2, vec![]),
                call(0, vec![Value::Array(vec![Value::Variable(2)])]),
            ],
        }
    }

    #[test]
    fn a_variable_left_without_its_declaration_is_refused() {
        // What minimisation made before: the construction of `v2` dropped, the variable kept, so an
        // extension could pass it (victor@1.1.0: `victor2.randomizeAny(victor7, victor3)`).
        let mut stale = three();
        stale.statements.remove(1);
        stale.statements.push(call(2, vec![Value::Variable(1)]));
        assert_eq!(stale.check_declarations(), Err("statement 3 uses v2 before any declaration".into()));
        assert!(!stale.is_valid());
        stale.statements.pop();
        assert_eq!(stale.check_declarations(), Err("v2 is never declared".into()));
    }

    #[test]
    fn only_a_call_s_result_is_called_itself() {
        // true-myth@9.4.0's failing suites held `const task8: any = task7();` of a module's variable,
        // whose construction no suite writes: tsc's "Cannot find name 'task7'".
        let mut test = three();
        test.statements.push(Statement::call(1, CALL_ITSELF, vec![], true));
        assert_eq!(test.check_declarations(), Err("statement 4 calls v2, which no call returned".into()));
        assert!(!test.is_valid());
        test.variables.push(variable("off"));
        test.statements[3] = Statement::Call {
            receiver: 0,
            method: "on".into(),
            args: vec![],
            under_test: true,
            result: Some(3),
            deferred: false,
        };
        test.statements[4] = Statement::call(3, CALL_ITSELF, vec![], true);
        assert_eq!(test.check_declarations(), Ok(()));
    }

    #[test]
    fn uses_before_the_declaration_and_second_declarations_are_refused() {
        let mut early = three();
        early.statements.swap(2, 3);
        assert_eq!(early.check_declarations(), Err("statement 2 uses v3 before any declaration".into()));
        let mut twice = three();
        twice.statements.insert(1, construct(0, vec![]));
        assert_eq!(twice.check_declarations(), Err("statement 1 declares v again".into()));
        assert_eq!(three().check_declarations(), Ok(()));
    }

    #[test]
    fn dropping_a_declaration_forgets_its_variable_and_numbers_the_others_again() {
        let shorter = three().without_statement(1).expect("v2 is unused");
        assert_eq!(shorter.variables, vec![variable("v"), variable("v3")]);
        assert_eq!(shorter.statements[1], construct(1, vec![]));
        assert_eq!(shorter.statements[2], call(0, vec![Value::Array(vec![Value::Variable(1)])]));
        assert_eq!(shorter.check_declarations(), Ok(()));
        assert!(three().without_statement(2).is_none(), "v3 is still used");
    }

    #[test]
    fn truncating_forgets_the_variables_declared_after_the_cut() {
        let mut cut = three();
        cut.truncate(2);
        assert_eq!(cut.variables, vec![variable("v"), variable("v2")]);
        assert_eq!(cut.check_declarations(), Ok(()));
    }

    /// `v = new V(); v2 = v.add(); v3 = v2.add(); v3.add(v2)`: a chain of versions, each bound.
    fn chain() -> TestCase {
        let bound = |receiver: usize, result: usize, args: Vec<Value>| Statement::Call {
            receiver,
            method: "add".into(),
            args,
            under_test: false,
            result: Some(result),
            deferred: false,
        };
        TestCase {
            class: 0,
            method: "add".into(),
            variables: vec![variable("v"), variable("v2"), variable("v3")],
            statements: vec![
                construct(0, vec![]),
                bound(0, 1, vec![]),
                bound(1, 2, vec![]),
                call(2, vec![Value::Variable(1)]),
            ],
        }
    }

    #[test]
    fn a_bound_result_is_a_declaration_its_uses_keep() {
        let test = chain();
        assert_eq!(test.check_declarations(), Ok(()));
        assert!(test.without_statement(1).is_none(), "v2 is used");
        let mut early = chain();
        early.statements.swap(1, 2);
        assert_eq!(early.check_declarations(), Err("statement 1 uses v2 before any declaration".into()));
        assert_eq!(test.without_unused_results(), test, "every result feeds a later statement");
    }

    #[test]
    fn a_link_taken_out_of_a_chain_hands_its_uses_to_its_receiver() {
        let shorter = chain().without_link(2).expect("a bound call");
        assert_eq!(shorter.variables, vec![variable("v"), variable("v2")]);
        assert_eq!(shorter.statements[2], call(1, vec![Value::Variable(1)]));
        let shorter = chain().without_link(1).expect("a bound call");
        assert_eq!(shorter.variables, vec![variable("v"), variable("v3")]);
        assert!(matches!(shorter.statements[1], Statement::Call { receiver: 0, result: Some(1), .. }));
        assert_eq!(shorter.statements[2], call(1, vec![Value::Variable(0)]));
        assert_eq!(shorter.check_declarations(), Ok(()));
        assert!(chain().without_link(0).is_none() && chain().without_link(3).is_none(), "no bound call");
        // A result of another class (a module's function returning an instance): its uses cannot go to
        // the receiver (true-myth: `fromJSON(maybe2)` with `maybe2` the module itself, never declared).
        let mut other = chain();
        other.variables[1].class = 1;
        assert!(other.without_link(1).is_none() && other.without_link(2).is_none());
    }

    #[test]
    fn results_nothing_uses_are_unbound_and_their_variables_forgotten() {
        let mut test = chain();
        test.statements[3] = call(0, vec![]);
        let unbound = test.without_unused_results();
        assert_eq!(unbound.variables, vec![variable("v"), variable("v2")]);
        assert!(matches!(unbound.statements[1], Statement::Call { result: Some(1), .. }), "v2 feeds v3's call");
        assert!(matches!(unbound.statements[2], Statement::Call { receiver: 1, result: None, .. }));
        assert_eq!(unbound.check_declarations(), Ok(()));
    }
}
