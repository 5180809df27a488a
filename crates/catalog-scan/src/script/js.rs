//! JavaScript and TypeScript read with oxc_parser: values followed through declarations and
//! assignments, template strings, `+`, `path.join`, `os.homedir()`, `require`/`import`
//! aliases, the returns of the file's own functions, and callbacks (`.then(r => ...)`,
//! `fs.readFile(p, (err, data) => ...)`), whose parameters carry what the call carried.

use std::collections::HashMap;

use oxc_allocator::Allocator;
use oxc_ast::ast::{
    Argument, ArrayExpressionElement, AssignmentOperator, AssignmentTarget, BinaryOperator, BindingPattern,
    BindingPatternKind, CallExpression, ChainElement, Expression, FormalParameters, Function, ImportDeclaration,
    ImportDeclarationSpecifier, ModuleExportName, ObjectPropertyKind, ReturnStatement, VariableDeclarator,
};
use oxc_ast_visit::{Visit, walk};
use oxc_span::SourceType;
use oxc_syntax::scope::ScopeFlags;

use super::engine::{Call, Engine};
use super::value::{Origin, Val};

const BUDGET: usize = 400_000;
const MAX_DEPTH: usize = 150;

pub fn walk(engine: &mut Engine, code: &str, base: usize, path: &str) {
    let allocator = Allocator::default();
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e).to_ascii_lowercase();
    let source_type = match ext.as_str() {
        "ts" | "mts" | "cts" => SourceType::ts(),
        "tsx" => SourceType::tsx(),
        "md" | "mdx" | "markdown" => SourceType::tsx().with_unambiguous(true),
        _ => SourceType::jsx().with_unambiguous(true),
    };
    let parsed = oxc_parser::Parser::new(&allocator, code, source_type).parse();
    if parsed.panicked {
        return;
    }
    let mut walker = Walker {
        eng: engine,
        base,
        env: HashMap::new(),
        aliases: HashMap::new(),
        summaries: HashMap::new(),
        returns: Vec::new(),
        acc: Vec::new(),
        budget: BUDGET,
        depth: 0,
    };
    walker.visit_program(&parsed.program);
}

struct Walker<'e, 's, 't> {
    eng: &'e mut Engine<'s, 't>,
    base: usize,
    env: HashMap<String, Val>,
    /// Local names of modules and their members: `cp` -> `child_process`.
    aliases: HashMap<String, String>,
    summaries: HashMap<String, Val>,
    returns: Vec<Val>,
    /// Values of the expressions under the one being read by default.
    acc: Vec<Val>,
    budget: usize,
    depth: usize,
}

/// `node:fs/promises` -> `fs.promises`.
fn module_name(source: &str) -> String {
    source.trim_start_matches("node:").replace('/', ".").to_ascii_lowercase()
}

impl<'a> Walker<'_, '_, '_> {
    fn eval(&mut self, e: &Expression<'a>) -> Val {
        if self.budget == 0 || self.depth > MAX_DEPTH {
            return Val::default();
        }
        self.budget -= 1;
        self.depth += 1;
        let v = self.eval_inner(e.get_inner_expression());
        self.depth -= 1;
        v
    }

    /// The module a `require("x")` call names.
    fn required(e: &Expression<'a>) -> Option<String> {
        let Expression::CallExpression(call) = e.get_inner_expression() else { return None };
        if !call.callee.is_specific_id("require") {
            return None;
        }
        match call.arguments.first()?.as_expression()? {
            Expression::StringLiteral(s) => Some(module_name(&s.value)),
            _ => None,
        }
    }

    /// `a.b.c` when the expression is a chain of names (aliases resolved, lower-cased);
    /// `None` for a variable the file assigned.
    fn dotted(&self, e: &Expression<'a>) -> Option<String> {
        match e.get_inner_expression() {
            Expression::Identifier(id) => {
                let name = id.name.as_str();
                if let Some(alias) = self.aliases.get(name) {
                    return Some(alias.clone());
                }
                (!self.env.contains_key(name)).then(|| name.to_ascii_lowercase())
            }
            Expression::StaticMemberExpression(m) => {
                Some(format!("{}.{}", self.dotted(&m.object)?, m.property.name.as_str().to_ascii_lowercase()))
            }
            other => Self::required(other),
        }
    }

    fn eval_inner(&mut self, e: &Expression<'a>) -> Val {
        let at = self.base + oxc_span::GetSpan::span(e).start as usize;
        match e {
            Expression::StringLiteral(s) => Val::literal(s.value.as_str(), at),
            Expression::TemplateLiteral(t) => {
                let mut out = Val::text("", at);
                for (i, quasi) in t.quasis.iter().enumerate() {
                    let piece = quasi.value.cooked.as_ref().unwrap_or(&quasi.value.raw);
                    out = out.concat(&Val::text(piece.as_str(), at));
                    if let Some(expr) = t.expressions.get(i) {
                        let v = self.eval(expr);
                        out = out.concat(&v);
                    }
                }
                out.literal = t.expressions.is_empty();
                out.at = Some(at);
                out
            }
            Expression::Identifier(id) => self.env.get(id.name.as_str()).cloned().unwrap_or_default(),
            Expression::StaticMemberExpression(m) => {
                let object = self.dotted(&m.object);
                if object.as_deref() == Some("process") && m.property.name == "env" {
                    return Val {
                        secret: Some(Origin {
                            source: String::new(),
                            at,
                            what: "reads the whole environment (process.env)".into(),
                        }),
                        ..Val::default()
                    };
                }
                if object.as_deref() == Some("process.env") {
                    let home = matches!(m.property.name.as_str(), "HOME" | "USERPROFILE");
                    return if home { Val::text("~", at) } else { Val::default() };
                }
                let v = self.eval(&m.object);
                let mut out = Val::derived([&v]);
                out.writes = v.writes.clone();
                out
            }
            Expression::ComputedMemberExpression(m) => {
                let key = self.eval(&m.expression);
                if self.dotted(&m.object).as_deref() == Some("process.env") {
                    let home = key.text.as_deref().is_some_and(|k| matches!(k, "HOME" | "USERPROFILE"));
                    return if home { Val::text("~", at) } else { Val::default() };
                }
                let v = self.eval(&m.object);
                let index = key.text.as_deref().and_then(|k| k.parse::<usize>().ok());
                if let (Some(i), Some(items)) = (index, v.items.as_ref())
                    && let Some(item) = items.get(i)
                {
                    return item.clone();
                }
                Val::derived([&v])
            }
            Expression::BinaryExpression(b) => {
                let left = self.eval(&b.left);
                let right = self.eval(&b.right);
                if b.operator == BinaryOperator::Addition { left.concat(&right) } else { Val::derived([&left, &right]) }
            }
            Expression::CallExpression(call) => self.call(call, false),
            Expression::NewExpression(n) => {
                let name = self.dotted(&n.callee).unwrap_or_else(|| "?".into());
                let (args, callbacks) = self.arguments(&n.arguments);
                let call = Call {
                    name: &name,
                    recv: None,
                    args: &args,
                    kwargs: &[],
                    start: at,
                    end: self.base + n.span.end as usize,
                };
                let out = self.eng.call(&call);
                self.callbacks(&n.arguments, &callbacks, &Val::derived([&out]));
                out
            }
            Expression::ChainExpression(c) => match &c.expression {
                ChainElement::CallExpression(call) => self.call(call, false),
                _ => self.default(e),
            },
            Expression::ArrayExpression(a) => {
                let items: Vec<Val> = a
                    .elements
                    .iter()
                    .map(|el| match el {
                        ArrayExpressionElement::SpreadElement(s) => self.eval(&s.argument),
                        ArrayExpressionElement::Elision(_) => Val::default(),
                        other => other.as_expression().map(|x| self.eval(x)).unwrap_or_default(),
                    })
                    .collect();
                let mut out = Val::derived(items.iter());
                out.items = Some(items);
                out
            }
            Expression::ObjectExpression(o) => {
                let mut out = Val::default();
                for prop in &o.properties {
                    let v = match prop {
                        ObjectPropertyKind::ObjectProperty(p) => self.eval(&p.value),
                        ObjectPropertyKind::SpreadProperty(s) => self.eval(&s.argument),
                    };
                    out.absorb(&v);
                }
                out
            }
            Expression::AwaitExpression(a) => self.eval(&a.argument),
            Expression::AssignmentExpression(a) => {
                let right = self.eval(&a.right);
                let value = if a.operator == AssignmentOperator::Addition
                    && let AssignmentTarget::AssignmentTargetIdentifier(id) = &a.left
                {
                    self.env.get(id.name.as_str()).cloned().unwrap_or_default().concat(&right)
                } else {
                    right
                };
                if let AssignmentTarget::AssignmentTargetIdentifier(id) = &a.left {
                    self.env.insert(id.name.to_string(), value.clone());
                }
                value
            }
            Expression::ConditionalExpression(_) | Expression::LogicalExpression(_) => {
                let mut out = self.default(e);
                out.text = None;
                out
            }
            _ => self.default(e),
        }
    }

    /// Any other expression: the values of the expressions inside it, taints only.
    fn default(&mut self, e: &Expression<'a>) -> Val {
        self.acc.push(Val::default());
        walk::walk_expression(self, e);
        self.acc.pop().unwrap_or_default()
    }

    /// Argument values, and which arguments are functions (callbacks, walked afterwards).
    fn arguments(&mut self, args: &oxc_allocator::Vec<'a, Argument<'a>>) -> (Vec<Val>, Vec<usize>) {
        let mut values = Vec::new();
        let mut callbacks = Vec::new();
        for (i, arg) in args.iter().enumerate() {
            match arg {
                Argument::SpreadElement(s) => values.push(self.eval(&s.argument)),
                Argument::ArrowFunctionExpression(_) | Argument::FunctionExpression(_) => {
                    callbacks.push(i);
                    values.push(Val::default());
                }
                other => values.push(other.as_expression().map(|x| self.eval(x)).unwrap_or_default()),
            }
        }
        (values, callbacks)
    }

    /// Walks the callbacks of a call with their parameters carrying what the call produced
    /// (`readFile(p, (err, data) => ...)`, `.then(body => ...)`).
    fn callbacks(&mut self, args: &oxc_allocator::Vec<'a, Argument<'a>>, callbacks: &[usize], given: &Val) {
        for arg in callbacks.iter().filter_map(|&i| args.get(i)) {
            match arg {
                Argument::ArrowFunctionExpression(f) => {
                    self.bind_params(&f.params, given);
                    self.visit_function_body(&f.body);
                }
                Argument::FunctionExpression(f) => {
                    self.bind_params(&f.params, given);
                    if let Some(body) = &f.body {
                        self.visit_function_body(body);
                    }
                }
                _ => {}
            }
        }
    }

    fn bind_params(&mut self, params: &FormalParameters<'a>, value: &Val) {
        for p in &params.items {
            self.bind(&p.pattern, value);
        }
    }

    fn call(&mut self, call: &CallExpression<'a>, _optional: bool) -> Val {
        let at = self.base + call.span.start as usize;
        let (name, recv) = match call.callee.get_inner_expression() {
            Expression::Identifier(id) => {
                if let Some(summary) = self.summaries.get(id.name.as_str()).cloned() {
                    let (_, callbacks) = self.arguments(&call.arguments);
                    self.callbacks(&call.arguments, &callbacks, &summary);
                    return summary;
                }
                (self.dotted(&call.callee).unwrap_or_else(|| "?".into()), None)
            }
            Expression::StaticMemberExpression(m) => {
                let prop = m.property.name.as_str().to_ascii_lowercase();
                let name = match self.dotted(&m.object) {
                    Some(object) => format!("{object}.{prop}"),
                    None => format!("?.{prop}"),
                };
                (name, Some(self.eval(&m.object)))
            }
            other => ("?".to_string(), Some(self.eval(other))),
        };
        if name == "require" {
            return Val::default();
        }
        let (args, callbacks) = self.arguments(&call.arguments);
        let c = Call {
            name: &name,
            recv: recv.as_ref(),
            args: &args,
            kwargs: &[],
            start: at,
            end: self.base + call.span.end as usize,
        };
        let out = self.eng.call(&c);
        if !callbacks.is_empty() {
            let mut given = Val::derived(args.iter().chain(recv.iter()).chain([&out]));
            given.net = out.net;
            self.callbacks(&call.arguments, &callbacks, &given);
        }
        out
    }

    fn bind(&mut self, pattern: &BindingPattern<'a>, value: &Val) {
        match &pattern.kind {
            BindingPatternKind::BindingIdentifier(id) => {
                self.env.insert(id.name.to_string(), value.clone());
            }
            BindingPatternKind::ObjectPattern(o) => {
                for prop in &o.properties {
                    self.bind(&prop.value, &Val::derived([value]));
                }
            }
            BindingPatternKind::ArrayPattern(a) => {
                for (i, el) in a.elements.iter().enumerate() {
                    if let Some(el) = el {
                        let item = value.items.as_ref().and_then(|items| items.get(i)).cloned();
                        self.bind(el, &item.unwrap_or_else(|| Val::derived([value])));
                    }
                }
            }
            BindingPatternKind::AssignmentPattern(a) => self.bind(&a.left, value),
        }
    }
}

impl<'a> Visit<'a> for Walker<'_, '_, '_> {
    fn visit_expression(&mut self, it: &Expression<'a>) {
        let v = self.eval(it);
        if let Some(acc) = self.acc.last_mut() {
            acc.absorb(&v);
        }
    }

    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        let Some(init) = &it.init else { return };
        // `const cp = require("child_process")`, `const { exec: run } = require(...)`.
        // A member of a module (`require("x").y`, `cp.exec`) is aliased; `process.env` is a value.
        let member = || self.dotted(init).filter(|d| d.contains('.') && !d.starts_with("process"));
        if let Some(module) = Self::required(init).or_else(member) {
            match &it.id.kind {
                BindingPatternKind::BindingIdentifier(id) => {
                    self.aliases.insert(id.name.to_string(), module);
                    return;
                }
                BindingPatternKind::ObjectPattern(o) => {
                    for prop in &o.properties {
                        let (Some(key), BindingPatternKind::BindingIdentifier(local)) =
                            (prop.key.static_name(), &prop.value.kind)
                        else {
                            continue;
                        };
                        self.aliases.insert(local.name.to_string(), format!("{module}.{}", key.to_ascii_lowercase()));
                    }
                    return;
                }
                _ => {}
            }
        }
        let value = self.eval(init);
        // `const { A, B } = process.env` reads two named variables, as `process.env.A` does,
        // not the whole environment; a `...rest` of it still holds the rest.
        if let (Some("process.env"), BindingPatternKind::ObjectPattern(o)) = (self.dotted(init).as_deref(), &it.id.kind)
        {
            for prop in &o.properties {
                let named = prop.key.static_name().map(|key| key.to_string());
                let home = named.as_deref().is_some_and(|key| matches!(key, "HOME" | "USERPROFILE"));
                let at = value.at.unwrap_or_default();
                self.bind(&prop.value, &if home { Val::text("~", at) } else { Val::default() });
            }
            if let Some(rest) = &o.rest {
                self.bind(&rest.argument, &value);
            }
            return;
        }
        self.bind(&it.id, &value);
    }

    fn visit_import_declaration(&mut self, it: &ImportDeclaration<'a>) {
        let module = module_name(&it.source.value);
        for spec in it.specifiers.iter().flatten() {
            let (local, full) = match spec {
                ImportDeclarationSpecifier::ImportSpecifier(s) => {
                    let imported = match &s.imported {
                        ModuleExportName::IdentifierName(n) => n.name.as_str(),
                        ModuleExportName::IdentifierReference(n) => n.name.as_str(),
                        ModuleExportName::StringLiteral(n) => n.value.as_str(),
                    };
                    (s.local.name.to_string(), format!("{module}.{}", imported.to_ascii_lowercase()))
                }
                ImportDeclarationSpecifier::ImportDefaultSpecifier(s) => (s.local.name.to_string(), module.clone()),
                ImportDeclarationSpecifier::ImportNamespaceSpecifier(s) => (s.local.name.to_string(), module.clone()),
            };
            self.aliases.insert(local, full);
        }
    }

    fn visit_function(&mut self, it: &Function<'a>, flags: ScopeFlags) {
        self.returns.push(Val::default());
        walk::walk_function(self, it, flags);
        let returned = self.returns.pop().unwrap_or_default();
        if let Some(id) = &it.id {
            self.summaries.insert(id.name.to_string(), returned);
        }
    }

    fn visit_return_statement(&mut self, it: &ReturnStatement<'a>) {
        let Some(arg) = &it.argument else { return };
        let v = self.eval(arg);
        if let Some(returns) = self.returns.last_mut() {
            returns.absorb(&v);
        }
    }
}
