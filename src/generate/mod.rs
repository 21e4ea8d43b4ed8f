//! Candidate tests: the model, how it is written as JavaScript, and how it is generated.
//!
//! A test is a straight-line sequence: constructions (`var node = new Node(5);`) and calls on the class
//! under test (`list.add(node);`), the method under test last. The same model is written three ways:
//! for plain execution in the sandbox, for execution that also describes results (to write
//! assertions), and for export.

pub mod literal;
pub mod random;
pub mod values;

use crate::inference::TypeTable;
use crate::program::{ClassId, ProgramInfo};

/// A value passed to a constructor or method.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A number literal.
    Number(f64),
    /// A string literal.
    String(String),
    /// `true` or `false`.
    Boolean(bool),
    /// `null`: only where a class instance was needed and none could be built.
    Null,
    /// A variable of the test.
    Variable(usize),
    /// A recording proxy for a parameter of unknown type (its id in the [`TypeTable`]).
    Proxy(u32),
}

/// A variable of a test: always an instance of a class of the program.
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// Its class.
    pub class: ClassId,
    /// Its name in the code (`list`, `node2`).
    pub name: String,
}

/// One statement of a test.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// `var v = new C(args);`
    Construct {
        /// The variable defined.
        variable: usize,
        /// Its class.
        class: ClassId,
        /// Constructor arguments.
        args: Vec<Value>,
    },
    /// `receiver.method(args);`
    Call {
        /// The variable called on.
        receiver: usize,
        /// Method name.
        method: String,
        /// Arguments.
        args: Vec<Value>,
        /// Whether this is a call of the method under test (its result is asserted).
        under_test: bool,
    },
}

/// A candidate test for one method under test.
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    /// The class under test.
    pub class: ClassId,
    /// The method under test.
    pub method: String,
    /// Variables, in order of definition.
    pub variables: Vec<Variable>,
    /// Statements, in order.
    pub statements: Vec<Statement>,
}

/// How a test is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// For the sandbox: statements numbered so the harness knows which one threw.
    Execute,
    /// For the sandbox, also describing each result of the method under test right after the call,
    /// and registering variables so results can be asserted by identity.
    Describe,
}

impl TestCase {
    /// Whether the test has no unknowns left: only such tests can be elected.
    pub fn is_valid(&self) -> bool {
        self.statements.iter().all(|s| s.args().iter().all(|a| !matches!(a, Value::Proxy(_))))
    }

    /// Ids of the parameters passed a recording proxy.
    pub fn proxies(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self
            .statements
            .iter()
            .flat_map(|s| s.args().iter())
            .filter_map(|a| if let Value::Proxy(id) = a { Some(*id) } else { None })
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The classes the test names, in order of first use.
    pub fn classes_used(&self) -> Vec<ClassId> {
        let mut classes = Vec::new();
        for s in &self.statements {
            if let Statement::Construct { class, .. } = s
                && !classes.contains(class)
            {
                classes.push(*class);
            }
        }
        classes
    }

    /// The JavaScript expression or statement text of statement `index`, without a terminating `;`:
    /// `new Node(5)` for constructions (see [`TestCase::declaration`]), `list.add(node)` for calls.
    pub fn expression(&self, index: usize, program: &ProgramInfo) -> String {
        let args = |args: &[Value]| args.iter().map(|a| self.value(a)).collect::<Vec<_>>().join(", ");
        match &self.statements[index] {
            Statement::Construct { class, args: a, .. } => format!("new {}({})", program.classes[*class].alias, args(a)),
            Statement::Call { receiver, method, args: a, .. } => {
                let name = &self.variables[*receiver].name;
                if literal::is_identifier_name(method) {
                    format!("{name}.{method}({})", args(a))
                } else {
                    format!("{name}[{}]({})", literal::string(method), args(a))
                }
            }
        }
    }

    /// What statement `index` calls, for messages: `add` or `new Node`.
    pub fn callee(&self, index: usize, program: &ProgramInfo) -> String {
        match self.statements.get(index) {
            Some(Statement::Construct { class, .. }) => format!("new {}", program.classes[*class].alias),
            Some(Statement::Call { method, .. }) => method.clone(),
            None => self.method.clone(),
        }
    }

    /// `var name = new C(...)` for a construction, the call expression otherwise.
    pub fn declaration(&self, index: usize, program: &ProgramInfo, keyword: &str) -> String {
        let expression = self.expression(index, program);
        match &self.statements[index] {
            Statement::Construct { variable, .. } => format!("{keyword} {} = {expression}", self.variables[*variable].name),
            Statement::Call { .. } => expression,
        }
    }

    fn value(&self, value: &Value) -> String {
        match value {
            Value::Number(n) => literal::number(*n),
            Value::String(s) => literal::string(s),
            Value::Boolean(b) => b.to_string(),
            Value::Null => "null".into(),
            Value::Variable(v) => self.variables[*v].name.clone(),
            Value::Proxy(id) => format!("__fc$u({id})"),
        }
    }

    /// The body of the test function as the sandbox runs it.
    pub fn sandbox_body(&self, program: &ProgramInfo, mode: Mode) -> String {
        let mut body = String::new();
        let aliases: Vec<String> = self
            .classes_used()
            .iter()
            .map(|c| format!("{} = __fc$C[{c}]", program.classes[*c].alias))
            .collect();
        if !aliases.is_empty() {
            body.push_str(&format!("var {};\n", aliases.join(", ")));
        }
        for (index, statement) in self.statements.iter().enumerate() {
            body.push_str(&format!("__fc$at = {index}; "));
            let expression = self.expression(index, program);
            match (mode, statement) {
                (Mode::Describe, Statement::Construct { variable, .. }) => body.push_str(&format!(
                    "var {} = __fc$v({variable}, {expression});\n",
                    self.variables[*variable].name
                )),
                (Mode::Describe, Statement::Call { receiver, under_test: true, .. }) => body.push_str(&format!(
                    "__fc$d({index}, {expression}, {});\n",
                    self.variables[*receiver].name
                )),
                _ => body.push_str(&format!("{};\n", self.declaration(index, program, "var"))),
            }
        }
        body
    }

    /// The test as readable JavaScript, with unknown parameters marked (`<?name>`), for people.
    pub fn display(&self, program: &ProgramInfo, types: &TypeTable) -> Vec<String> {
        (0..self.statements.len())
            .map(|i| {
                let mut text = self.declaration(i, program, "var");
                for id in self.proxies() {
                    text = text.replace(&format!("__fc$u({id})"), &format!("<?{}>", types.get(id).name));
                }
                format!("{text};")
            })
            .collect()
    }
}

impl Statement {
    /// The arguments of the statement.
    pub fn args(&self) -> &[Value] {
        match self {
            Statement::Construct { args, .. } | Statement::Call { args, .. } => args,
        }
    }
}
