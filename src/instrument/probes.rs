//! The syntax-tree rewrite that inserts statement and branch probes.
//!
//! Synthetic nodes get dummy spans except the probe identifiers (and the statements holding them), which
//! get an empty span at the original position they stand for: QuickJS reports positions of identifiers
//! and statement starts, and those spans make the codegen source map send such positions back to the
//! statement or operand the probe belongs to.

use swc_common::{BytePos, DUMMY_SP, Span, Spanned, util::take::Take};
use swc_ecma_ast::*;
use swc_ecma_visit::{VisitMut, VisitMutWith, VisitWith};

use super::folding::Bindings;
use super::implied::Implied;
use super::marks::{Marker, drop_else_mark, mark_stmt, marked, wrap};
use super::texts::{SourceText, class_start, method_start};
use super::{Branch, BranchKind, Function, Statement, line_of, shorten, snippet};
use crate::analysis::parse::{ParsedFile, prop_name};
use crate::js::{BRANCHES, NULLISH, STATEMENTS};

/// Longest source text quoted in a branch's label or condition.
const LABEL_LENGTH: usize = 40;

/// The rewrite, and what it recorded.
pub(super) struct Probes<'a> {
    file: &'a ParsedFile,
    first_statement: u32,
    first_branch: u32,
    /// Probed statements, by id minus `first_statement`.
    pub statements: Vec<Statement>,
    /// Branch outcomes, by id minus `first_branch`.
    pub branches: Vec<Branch>,
    /// Function-like nodes in pre-order.
    pub functions: Vec<Function>,
    /// Inside a function-like body (or its parameters), where probes go.
    probing: bool,
    /// Name for the function-like node about to be visited, set by its syntactic parent.
    name: Option<String>,
    /// Span for that node when its parent's span is the better one (methods include their key).
    span: Option<Span>,
    /// Where that node's key starts, for a method: V8 prints its text from there (see `texts.rs`).
    key: Option<BytePos>,
    /// Where V8 starts the text of each function-like node, by index in `functions` (none for a
    /// constructor, which prints as its class).
    text_starts: Vec<Option<u32>>,
    /// The classes, with the statement probes their members hold.
    pub classes: Vec<SourceText>,
    /// Whether conditions measure branch distances.
    pub(super) distances: bool,
    /// The probes left out because another one marks whenever they would.
    pub implied: Implied,
    /// The declarations of the function being probed.
    bindings: Bindings,
}

/// What `enter_function` saves for `leave_function`.
struct Frame {
    index: usize,
    probing: bool,
    bindings: Bindings,
}

impl<'a> Probes<'a> {
    /// A rewrite of `file` numbering statements and branches from the given ids, measuring branch
    /// distances when asked to.
    pub(crate) fn new(file: &'a ParsedFile, first_statement: u32, first_branch: u32, distances: bool) -> Self {
        Probes {
            file,
            first_statement,
            first_branch,
            statements: Vec::new(),
            branches: Vec::new(),
            functions: Vec::new(),
            probing: false,
            name: None,
            span: None,
            key: None,
            text_starts: Vec::new(),
            classes: Vec::new(),
            distances,
            implied: Implied::default(),
            bindings: Bindings::default(),
        }
    }

    /// Every function-like node (but constructors) and class, with where V8 starts its text, in pre-order
    /// of their starts.
    pub(super) fn texts(&mut self) -> Vec<SourceText> {
        let functions = self.functions.iter().zip(&self.text_starts).filter_map(|(f, start)| {
            start.map(|start| SourceText { statements: f.statements.clone(), start, end: f.end, class: false })
        });
        let mut texts: Vec<SourceText> = functions.chain(self.classes.drain(..)).collect();
        texts.sort_by_key(|t| (t.start, std::cmp::Reverse(t.end)));
        // A text holds the probes written: a range ending in statements another probe marks ends earlier.
        let mut left_out: Vec<u32> = self.implied.statements.iter().map(|&(_, id)| id).collect();
        left_out.sort_unstable();
        for text in &mut texts {
            while text.statements.len() > 1 && left_out.binary_search(&(text.statements.end - 1)).is_ok() {
                text.statements.end -= 1;
            }
        }
        texts
    }

    fn offset(&self, pos: BytePos) -> u32 {
        self.file.offset(pos)
    }

    fn next_statement(&self) -> u32 {
        self.first_statement + self.statements.len() as u32
    }

    fn next_branch(&self) -> u32 {
        self.first_branch + self.branches.len() as u32
    }

    fn new_statement(&mut self, span: Span) -> u32 {
        let id = self.next_statement();
        let (start, end) = (self.offset(span.lo), self.offset(span.hi));
        self.statements.push(Statement { start, end, line: line_of(self.file, span.lo) });
        id
    }

    fn new_branch(&mut self, kind: BranchKind, outcome: &str, at: BytePos, condition: Span) -> u32 {
        let id = self.next_branch();
        let branch = Branch {
            kind,
            outcome: outcome.to_string(),
            line: line_of(self.file, at),
            start: self.offset(at),
            condition: shorten(&snippet(self.file, condition), LABEL_LENGTH),
            condition_end: self.offset(condition.hi),
            guards: None,
        };
        self.branches.push(branch);
        id
    }

    /// Two outcomes with consecutive ids; returns the first.
    pub(super) fn new_branch_pair(
        &mut self,
        kind: BranchKind,
        yes: &str,
        no: &str,
        at: BytePos,
        condition: Span,
    ) -> u32 {
        let id = self.new_branch(kind, yes, at, condition);
        self.new_branch(kind, no, at, condition);
        id
    }

    fn enter_function(&mut self, span: Span, params: Vec<String>, bindings: Bindings) -> Frame {
        let span = self.span.take().unwrap_or(span);
        let text_start = match self.key.take() {
            Some(key) => method_start(self.file.text(), self.offset(key)),
            None => self.offset(span.lo),
        };
        self.text_starts.push(Some(text_start));
        let (statement, branch) = (self.next_statement(), self.next_branch());
        self.functions.push(Function {
            name: self.name.take(),
            start: self.offset(span.lo),
            end: self.offset(span.hi),
            line: line_of(self.file, span.lo),
            params,
            statements: statement..statement,
            branches: branch..branch,
        });
        Frame {
            index: self.functions.len() - 1,
            probing: std::mem::replace(&mut self.probing, true),
            bindings: std::mem::replace(&mut self.bindings, bindings),
        }
    }

    fn leave_function(&mut self, frame: Frame) {
        self.probing = frame.probing;
        self.bindings = frame.bindings;
        let (statement, branch) = (self.next_statement(), self.next_branch());
        let function = &mut self.functions[frame.index];
        function.statements.end = statement;
        function.branches.end = branch;
    }

    /// Whether the function-like node about to be visited was written by the TypeScript transform (swc's
    /// helpers, an `accessor` field's accessors, an enum's or namespace's wrapper): it has no position in
    /// the file, so it is no code of the user's to cover. Forgets what its parent said of it.
    fn written_by_transform(&mut self, span: Span) -> bool {
        if !self.span.unwrap_or(span).is_dummy() {
            return false;
        }
        (self.name, self.span, self.key) = (None, None, None);
        true
    }

    /// Visits `node` outside any probed body: class field initialisers and static blocks run at
    /// construction or definition time, not as part of the enclosing function.
    fn unprobed<N: VisitMutWith<Self>>(&mut self, node: &mut N) {
        let probing = std::mem::replace(&mut self.probing, false);
        node.visit_mut_with(self);
        self.probing = probing;
    }

    /// Probes a statement list; `directives` when it is a function body, whose prologue must stay first.
    ///
    /// The statement after an `if` without `else` whose body always leaves (`if (!ok) return;`), or
    /// after a loop that may return or throw but never breaks, is reached only through the outcome that
    /// stays (the `else`, the loop's exit): that outcome guards it, as the branches' own bodies are
    /// guarded (see [`Branch::guards`]).
    ///
    /// A statement after one that cannot complete abruptly gets no probe of its own: the probe of the
    /// first statement of such a run marks it (see `folding.rs`).
    ///
    /// The statements after one that always leaves the list (`return x; var t;`, as minifiers write the
    /// temporaries of the expression returned) are never reached: no probe, nor in what they hold, so no
    /// goal waits for them. A function declared there is hoisted, and its body probed as any.
    fn statement_list(&mut self, stmts: &mut Vec<Stmt>, directives: bool) {
        let mut out = Vec::with_capacity(stmts.len() * 2);
        let mut prologue = directives;
        let mut staying: Option<u32> = None;
        // The probe that marks the next statement too, when the statement before cannot leave.
        let mut run: Option<u32> = None;
        let mut reached = true;
        for mut stmt in stmts.drain(..) {
            if !reached {
                self.unprobed(&mut stmt);
                out.push(stmt);
                continue;
            }
            reached = !always_leaves(&stmt);
            prologue &= is_directive(&stmt);
            if !prologue && is_executable(&stmt) {
                let span = stmt.span();
                let id = self.new_statement(span);
                if let Some(outcome) = staying.take() {
                    self.branches[(outcome - self.first_branch) as usize].guards.get_or_insert(id);
                    // `if (!ok) return;` right before: this statement's probe marks the `else` it needed.
                    if run.is_none() && drop_else_mark(out.last_mut(), outcome) {
                        self.implied.branches.push((id, outcome));
                    }
                }
                match run {
                    Some(probe) => self.implied.statements.push((probe, id)),
                    None => out.push(mark_stmt(STATEMENTS, id, span.lo)),
                }
                run = self.bindings.cannot_leave(&stmt).then_some(run.unwrap_or(id));
            } else if matches!(stmt, Stmt::Decl(Decl::Class(_))) {
                // A class declaration runs code (its heritage, computed keys, static blocks).
                run = None;
            }
            // The construct's own pair comes first among the branches it creates; its second outcome stays.
            let pair = self.next_branch();
            let leaves = leaves_unless_second_outcome(&stmt);
            stmt.visit_mut_with(self);
            if is_executable(&stmt) {
                staying = leaves.then_some(pair + 1);
            }
            out.push(stmt);
        }
        *stmts = out;
    }

    /// Visits the body that branch outcome `branch` runs, noting the first statement it probes there.
    fn guarded<N: VisitMutWith<Self> + ?Sized>(&mut self, branch: u32, body: &mut N) {
        let first = self.next_statement();
        body.visit_mut_with(self);
        if self.next_statement() > first {
            self.branches[(branch - self.first_branch) as usize].guards = Some(first);
        }
    }

    /// Visits a statement that was made a block, then puts a branch probe first in it, unless the block
    /// starts with a statement probe, which then marks the outcome too.
    fn probed_block(&mut self, stmt: &mut Stmt, branch: u32, at: BytePos) {
        let first = self.next_statement();
        let probed = starts_with_statement(stmt);
        self.guarded(branch, stmt);
        if probed {
            self.implied.branches.push((first, branch));
        } else if let Stmt::Block(block) = stmt {
            block.stmts.insert(0, mark_stmt(BRANCHES, branch, at));
        }
    }

    fn branch_stmt(&mut self, stmt: &mut Stmt) {
        match stmt {
            Stmt::If(s) => {
                let id = self.new_branch_pair(BranchKind::If, "then", "else", s.span.lo, s.test.span());
                self.condition(&mut s.test, id, None);
                // Positions before wrapping: the new blocks have no span.
                let at = s.cons.span().lo;
                make_block(&mut s.cons);
                self.probed_block(&mut s.cons, id, at);
                match &mut s.alt {
                    Some(alt) => {
                        let at = alt.span().lo;
                        make_block(alt);
                        self.probed_block(alt, id + 1, at);
                    }
                    None => s.alt = Some(Box::new(block(vec![mark_stmt(BRANCHES, id + 1, s.span.lo)]))),
                }
            }
            Stmt::While(s) => {
                let id = self.new_branch_pair(BranchKind::While, "true", "false", s.test.span().lo, s.test.span());
                make_block(&mut s.body);
                let marker = Marker::Truth { taken: !starts_with_statement(&s.body) };
                self.condition(&mut s.test, id, Some(marker));
                self.loop_body(&mut s.body, id, marker);
            }
            Stmt::DoWhile(s) => {
                let id = self.new_branch_pair(BranchKind::DoWhile, "true", "false", s.test.span().lo, s.test.span());
                make_block(&mut s.body);
                s.body.visit_mut_with(self);
                // The body's first run is no outcome of the test: it marks its own.
                self.condition(&mut s.test, id, Some(Marker::Truth { taken: true }));
            }
            Stmt::For(s) => {
                let id = s
                    .test
                    .as_ref()
                    .map(|t| self.new_branch_pair(BranchKind::For, "true", "false", t.span().lo, t.span()));
                make_block(&mut s.body);
                let marker = Marker::Truth { taken: !starts_with_statement(&s.body) };
                s.init.visit_mut_with(self);
                if let (Some(test), Some(id)) = (&mut s.test, id) {
                    self.condition(test, id, Some(marker));
                }
                s.update.visit_mut_with(self);
                match id {
                    Some(id) => self.loop_body(&mut s.body, id, marker),
                    None => s.body.visit_mut_with(self),
                }
            }
            Stmt::Switch(s) => self.switch(s),
            Stmt::ForIn(ForInStmt { body, .. })
            | Stmt::ForOf(ForOfStmt { body, .. })
            | Stmt::With(WithStmt { body, .. }) => {
                make_block(body);
                stmt.visit_mut_children_with(self);
            }
            Stmt::Labeled(s) => {
                // A loop keeps its label: `continue label` needs the label directly on the loop.
                if !is_loop(&s.body) {
                    make_block(&mut s.body);
                }
                s.body.visit_mut_with(self);
            }
            _ => stmt.visit_mut_children_with(self),
        }
    }

    /// Visits the body of a loop whose test marks outcomes `id` and `id + 1` as `marker` says: when it
    /// leaves the true outcome out, the body's first statement probe marks it.
    fn loop_body(&mut self, body: &mut Box<Stmt>, id: u32, marker: Marker) {
        if matches!(marker, Marker::Truth { taken: false }) {
            self.implied.branches.push((self.next_statement(), id));
        }
        self.guarded(id, body);
    }

    fn switch(&mut self, s: &mut SwitchStmt) {
        let first = self.next_branch();
        for case in &s.cases {
            let outcome = match &case.test {
                Some(test) => format!("case {}", shorten(&snippet(self.file, test.span()), LABEL_LENGTH)),
                None => "default".to_string(),
            };
            self.new_branch(BranchKind::Switch, &outcome, case.span.lo, s.discriminant.span());
        }
        let no_case = (!s.cases.iter().any(|c| c.test.is_none()))
            .then(|| self.new_branch(BranchKind::Switch, "no case", s.span.lo, s.discriminant.span()));
        s.discriminant.visit_mut_with(self);
        self.switch_cases(&mut s.discriminant, &s.cases, first);
        for (id, case) in (first..).zip(s.cases.iter_mut()) {
            case.test.visit_mut_with(self);
            self.guarded(id, &mut case.cons);
            case.cons.insert(0, mark_stmt(BRANCHES, id, case.span.lo));
        }
        if let Some(id) = no_case {
            // The last clause must not fall through into the added default.
            if let Some(last) = s.cases.last_mut() {
                last.cons.push(Stmt::Break(BreakStmt { span: DUMMY_SP, label: None }));
            }
            s.cases.push(SwitchCase { span: DUMMY_SP, test: None, cons: vec![mark_stmt(BRANCHES, id, s.span.lo)] });
        }
    }

    /// The branch outcomes of the left operand of `&&` or `||` ("true" and "false"); returns the first.
    pub(super) fn logical_pair(&mut self, b: &BinExpr) -> u32 {
        let kind = if b.op == BinaryOp::LogicalAnd { BranchKind::And } else { BranchKind::Or };
        self.new_branch_pair(kind, "true", "false", b.left.span().lo, b.left.span())
    }

    /// Gives the next function-like node a name when `value` is one.
    fn name_next(&mut self, value: &Expr, name: Option<String>) {
        if is_function_like(value) {
            self.name = name;
        }
    }
}

impl VisitMut for Probes<'_> {
    fn visit_mut_function(&mut self, f: &mut swc_ecma_ast::Function) {
        if self.written_by_transform(f.span) {
            return self.unprobed(&mut f.body);
        }
        let bindings = bindings_of(f.params.iter().map(|p| &p.pat), f.body.as_ref());
        let frame = self.enter_function(f.span, param_names(f.params.iter().map(|p| &p.pat)), bindings);
        f.params.visit_mut_with(self);
        f.body.visit_mut_with(self);
        self.leave_function(frame);
    }

    fn visit_mut_constructor(&mut self, c: &mut Constructor) {
        let params = c.params.iter().filter_map(|p| match p {
            ParamOrTsParamProp::Param(p) => Some(&p.pat),
            ParamOrTsParamProp::TsParamProp(_) => None,
        });
        self.name = Some("constructor".to_string());
        if self.written_by_transform(c.span) {
            return self.unprobed(&mut c.body);
        }
        // Parameter properties declare what `Bindings` does not read: no statement of such a body folds.
        let plain = c.params.iter().all(|p| matches!(p, ParamOrTsParamProp::Param(_)));
        let bindings = if plain { bindings_of(params.clone(), c.body.as_ref()) } else { Bindings::default() };
        let frame = self.enter_function(c.span, param_names(params), bindings);
        // A class's constructor is the class: it prints as the class does.
        self.text_starts[frame.index] = None;
        c.params.visit_mut_with(self);
        c.body.visit_mut_with(self);
        self.leave_function(frame);
    }

    fn visit_mut_arrow_expr(&mut self, a: &mut ArrowExpr) {
        if self.written_by_transform(a.span) {
            return self.unprobed(&mut a.body);
        }
        let body = match &*a.body {
            ArrowFunctionBody::FunctionBody(body) => Some(body),
            ArrowFunctionBody::Expr(_) => None,
        };
        let bindings = bindings_of(a.params.iter(), body);
        let frame = self.enter_function(a.span, param_names(a.params.iter()), bindings);
        a.params.visit_mut_with(self);
        if let ArrowFunctionBody::Expr(expr) = &mut *a.body {
            // A block body gives the expression a statement, hence a probe.
            let span = expr.span();
            let id = self.new_statement(span);
            let mut ret = Stmt::Return(ReturnStmt { span: DUMMY_SP, arg: Some(expr.take()) });
            ret.visit_mut_with(self);
            let stmts = vec![mark_stmt(STATEMENTS, id, span.lo), ret];
            *a.body = ArrowFunctionBody::FunctionBody(FunctionBody { span: DUMMY_SP, stmts });
        } else {
            a.body.visit_mut_with(self);
        }
        self.leave_function(frame);
    }

    fn visit_mut_function_body(&mut self, body: &mut FunctionBody) {
        if !self.probing {
            // The body of a function the TypeScript transform wrote (see `written_by_transform`).
            return body.stmts.visit_mut_with(self);
        }
        // A body with nothing to execute (`noop() {}`) still gets one probe, for the body itself: every
        // function has a statement to cover, and its code can be located by its probes.
        let empty = !body.stmts.iter().any(|s| !is_directive(s) && is_executable(s));
        let entry = empty.then(|| self.new_statement(body.span));
        self.statement_list(&mut body.stmts, true);
        if let Some(id) = entry {
            let after_directives = body.stmts.iter().take_while(|s| is_directive(s)).count();
            body.stmts.insert(after_directives, mark_stmt(STATEMENTS, id, body.span.lo));
        }
    }

    fn visit_mut_stmts(&mut self, stmts: &mut Vec<Stmt>) {
        if self.probing {
            self.statement_list(stmts, false);
        } else {
            stmts.visit_mut_children_with(self);
        }
    }

    fn visit_mut_stmt(&mut self, stmt: &mut Stmt) {
        if self.probing {
            self.branch_stmt(stmt);
        } else {
            stmt.visit_mut_children_with(self);
        }
    }

    fn visit_mut_expr(&mut self, expr: &mut Expr) {
        if !self.probing {
            expr.visit_mut_children_with(self);
            return;
        }
        match expr {
            Expr::Bin(b) if matches!(b.op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) => {
                let id = self.logical_pair(b);
                self.condition(&mut b.left, id, Some(Marker::Value));
                b.right.visit_mut_with(self);
            }
            Expr::Bin(b) if b.op == BinaryOp::NullishCoalescing => {
                let (at, left) = (b.left.span().lo, b.left.span());
                let id = self.new_branch_pair(BranchKind::Nullish, "nullish", "not nullish", at, left);
                b.visit_mut_children_with(self);
                wrap(&mut b.left, NULLISH, id);
            }
            Expr::Call(c) => self.call(c),
            Expr::Cond(c) => {
                let id = self.new_branch_pair(BranchKind::Conditional, "true", "false", c.span.lo, c.test.span());
                self.condition(&mut c.test, id, None);
                c.cons.visit_mut_with(self);
                c.alt.visit_mut_with(self);
                marked(&mut c.cons, id);
                marked(&mut c.alt, id + 1);
            }
            _ => expr.visit_mut_children_with(self),
        }
    }

    fn visit_mut_fn_decl(&mut self, f: &mut FnDecl) {
        self.name = Some(f.ident.sym.to_string());
        f.function.visit_mut_with(self);
    }

    fn visit_mut_fn_expr(&mut self, f: &mut FnExpr) {
        if self.name.is_none() {
            self.name = f.ident.as_ref().map(|i| i.sym.to_string());
        }
        f.function.visit_mut_with(self);
    }

    fn visit_mut_class_method(&mut self, m: &mut ClassMethod) {
        m.key.visit_mut_with(self);
        self.name = prop_name(&m.key);
        self.span = Some(m.span);
        self.key = Some(m.key.span().lo);
        m.function.visit_mut_with(self);
    }

    fn visit_mut_private_method(&mut self, m: &mut PrivateMethod) {
        self.name = Some(format!("#{}", m.key.name));
        self.span = Some(m.span);
        self.key = Some(m.key.span.lo);
        m.function.visit_mut_with(self);
    }

    fn visit_mut_method_prop(&mut self, m: &mut MethodProp) {
        m.key.visit_mut_with(self);
        self.name = prop_name(&m.key);
        self.span = Some(m.key.span().with_hi(m.function.span.hi));
        self.key = Some(m.key.span().lo);
        m.function.visit_mut_with(self);
    }

    fn visit_mut_getter_prop(&mut self, m: &mut GetterProp) {
        m.key.visit_mut_with(self);
        self.name = prop_name(&m.key);
        self.span = Some(m.span);
        self.key = Some(m.key.span().lo);
        m.function.visit_mut_with(self);
    }

    fn visit_mut_setter_prop(&mut self, m: &mut SetterProp) {
        m.key.visit_mut_with(self);
        self.name = prop_name(&m.key);
        self.span = Some(m.span);
        self.key = Some(m.key.span().lo);
        m.function.visit_mut_with(self);
    }

    fn visit_mut_class(&mut self, c: &mut Class) {
        let first = self.next_statement();
        c.visit_mut_children_with(self);
        if !c.span.is_dummy() {
            let (start, end) = (self.offset(c.span.lo), self.offset(c.span.hi));
            let start = class_start(self.file.text(), start, end);
            self.classes.push(SourceText { statements: first..self.next_statement(), start, end, class: true });
        }
    }

    fn visit_mut_key_value_prop(&mut self, p: &mut KeyValueProp) {
        p.key.visit_mut_with(self);
        self.name_next(&p.value, prop_name(&p.key));
        p.value.visit_mut_with(self);
    }

    fn visit_mut_var_declarator(&mut self, d: &mut VarDeclarator) {
        d.name.visit_mut_with(self);
        if let (Some(init), Pat::Ident(id)) = (&d.init, &d.name) {
            self.name_next(init, Some(id.id.sym.to_string()));
        }
        d.init.visit_mut_with(self);
    }

    fn visit_mut_assign_expr(&mut self, a: &mut AssignExpr) {
        a.left.visit_mut_with(self);
        self.name_next(&a.right, target_name(&a.left));
        a.right.visit_mut_with(self);
    }

    fn visit_mut_class_prop(&mut self, p: &mut ClassProp) {
        p.key.visit_mut_with(self);
        if let Some(value) = &p.value {
            self.name_next(value, prop_name(&p.key));
        }
        self.unprobed(&mut p.value);
    }

    fn visit_mut_private_prop(&mut self, p: &mut PrivateProp) {
        if let Some(value) = &p.value {
            self.name_next(value, Some(format!("#{}", p.key.name)));
        }
        self.unprobed(&mut p.value);
    }

    fn visit_mut_static_block(&mut self, b: &mut StaticBlock) {
        self.unprobed(&mut b.body);
    }
}

/// Whether `stmt` is a block whose first statement gets a statement probe, the first thing the block
/// runs: the first executable statement of a list always has one of its own.
fn starts_with_statement(stmt: &Stmt) -> bool {
    matches!(stmt, Stmt::Block(b) if b.stmts.first().is_some_and(is_executable))
}

/// A statement that does something when reached: declarations of functions and classes are hoisted or
/// evaluated with their scope, a declaration without an initialiser (`var t;`, `let y;`) only names a
/// binding its scope made, and empty statements do nothing.
fn is_executable(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Decl(Decl::Fn(_) | Decl::Class(_)) | Stmt::Empty(_) => false,
        Stmt::Decl(Decl::Var(v)) => v.decls.iter().any(|d| d.init.is_some()),
        _ => true,
    }
}

/// Whether the code after `stmt` is reached only through its second branch outcome: an `if` without
/// `else` whose body always leaves, or a `while` or `for` loop with a condition that may return or throw
/// but never breaks.
fn leaves_unless_second_outcome(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::If(s) => s.alt.is_none() && always_leaves(&s.cons),
        Stmt::While(WhileStmt { body, .. }) | Stmt::For(ForStmt { test: Some(_), body, .. }) => {
            let mut finder = Leaving::default();
            body.visit_with(&mut finder);
            finder.returns && !finder.breaks
        }
        _ => false,
    }
}

/// Whether running `stmt` always ends with a jump out of the statement list: `return`, `throw`,
/// `break`, `continue`, a block holding one, or an `if` whose both branches do.
fn always_leaves(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Return(_) | Stmt::Throw(_) | Stmt::Break(_) | Stmt::Continue(_) => true,
        Stmt::Block(b) => b.stmts.iter().any(always_leaves),
        Stmt::If(s) => always_leaves(&s.cons) && s.alt.as_deref().is_some_and(always_leaves),
        _ => false,
    }
}

/// The jumps a loop's body holds, nested functions' aside.
#[derive(Default)]
struct Leaving {
    returns: bool,
    breaks: bool,
}

impl swc_ecma_visit::Visit for Leaving {
    fn visit_return_stmt(&mut self, _: &ReturnStmt) {
        self.returns = true;
    }

    fn visit_throw_stmt(&mut self, _: &ThrowStmt) {
        self.returns = true;
    }

    fn visit_break_stmt(&mut self, _: &BreakStmt) {
        self.breaks = true;
    }

    fn visit_function(&mut self, _: &swc_ecma_ast::Function) {}

    fn visit_arrow_expr(&mut self, _: &ArrowExpr) {}

    fn visit_class(&mut self, _: &Class) {}
}

fn is_directive(stmt: &Stmt) -> bool {
    matches!(stmt, Stmt::Expr(ExprStmt { expr, .. }) if matches!(&**expr, Expr::Lit(Lit::Str(_))))
}

fn is_loop(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::For(_) | Stmt::ForIn(_) | Stmt::ForOf(_) | Stmt::While(_) | Stmt::DoWhile(_) => true,
        Stmt::Labeled(l) => is_loop(&l.body),
        _ => false,
    }
}

fn is_function_like(expr: &Expr) -> bool {
    match expr {
        Expr::Fn(_) | Expr::Arrow(_) => true,
        Expr::Paren(p) => is_function_like(&p.expr),
        _ => false,
    }
}

fn block(stmts: Vec<Stmt>) -> Stmt {
    Stmt::Block(BlockStmt { span: DUMMY_SP, ctxt: Default::default(), stmts })
}

/// Makes a single-statement body a block, so probes can go before the statement.
fn make_block(stmt: &mut Box<Stmt>) {
    if !matches!(**stmt, Stmt::Block(_)) {
        let inner = std::mem::replace(&mut **stmt, Stmt::Empty(EmptyStmt { span: DUMMY_SP }));
        **stmt = block(vec![inner]);
    }
}

/// The declarations of a function with parameters `params` and body `body` (none without a body).
fn bindings_of<'p>(params: impl Iterator<Item = &'p Pat>, body: Option<&FunctionBody>) -> Bindings {
    body.map(|body| Bindings::of(params, body)).unwrap_or_default()
}

fn param_names<'p>(pats: impl Iterator<Item = &'p Pat>) -> Vec<String> {
    pats.enumerate()
        .map(|(i, pat)| {
            let named = match pat {
                Pat::Assign(a) => &*a.left,
                Pat::Rest(r) => &*r.arg,
                other => other,
            };
            match named {
                Pat::Ident(b) => b.id.sym.to_string(),
                _ => format!("arg{i}"),
            }
        })
        .collect()
}

fn target_name(target: &AssignTarget) -> Option<String> {
    match target {
        AssignTarget::Simple(SimpleAssignTarget::Ident(b)) => Some(b.id.sym.to_string()),
        // `module.exports = function Name() {}` is known by its own name, if any.
        AssignTarget::Simple(SimpleAssignTarget::Member(m))
            if m.prop.is_ident_with("exports") && matches!(&*m.obj, Expr::Ident(o) if o.sym == "module") =>
        {
            None
        }
        AssignTarget::Simple(SimpleAssignTarget::Member(m)) => match &m.prop {
            MemberProp::Ident(i) => Some(i.sym.to_string()),
            MemberProp::PrivateName(p) => Some(format!("#{}", p.name)),
            MemberProp::Computed(c) => match &*c.expr {
                Expr::Lit(Lit::Str(s)) => Some(s.value.to_atom_lossy().to_string()),
                _ => None,
            },
        },
        _ => None,
    }
}
