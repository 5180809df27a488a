//! Python read with tree-sitter-python: statements in order, values followed through
//! assignments, `with ... as`, `for` targets, f-strings, `%` formatting, `Path / "x"`, and
//! into the file's own functions (their returns, and their bodies again with the arguments
//! of a call that passes a secret or a download).

use std::collections::HashMap;

use tree_sitter::Node;

use super::engine::{Call, Engine};
use super::value::{Origin, Val};

/// Nodes one file may cost before the reader stops (a bound on pathological input).
const BUDGET: usize = 400_000;
/// Nesting deeper than this is not followed (recursion on the stack).
const MAX_DEPTH: usize = 150;
/// Calls into the file's own functions followed at once.
const MAX_CALLS: usize = 3;

pub fn walk(engine: &mut Engine, code: &str, base: usize) {
    let tree = super::tree_sitter_parse(&tree_sitter_python::LANGUAGE.into(), code);
    let Some(tree) = tree else { return };
    let mut walker = Walker {
        eng: engine,
        src: code,
        base,
        scopes: vec![HashMap::new()],
        aliases: HashMap::new(),
        funcs: HashMap::new(),
        summaries: HashMap::new(),
        returns: Vec::new(),
        walking: Vec::new(),
        budget: BUDGET,
        depth: 0,
    };
    walker.collect_functions(tree.root_node(), 0);
    walker.stmt(tree.root_node());
}

struct Walker<'e, 's, 't, 'c> {
    eng: &'e mut Engine<'s, 't>,
    src: &'c str,
    base: usize,
    scopes: Vec<HashMap<String, Val>>,
    /// Import aliases: local name -> dotted module path, lower-cased.
    aliases: HashMap<String, String>,
    funcs: HashMap<String, Node<'c>>,
    /// What each function returns when called with nothing known.
    summaries: HashMap<String, Val>,
    returns: Vec<Val>,
    walking: Vec<usize>,
    budget: usize,
    depth: usize,
}

fn named<'c>(node: Node<'c>) -> Vec<Node<'c>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

impl<'c> Walker<'_, '_, '_, 'c> {
    fn text(&self, node: Node) -> &'c str {
        super::node_text(self.src, node)
    }

    fn at(&self, node: Node) -> usize {
        self.base + node.start_byte()
    }

    fn collect_functions(&mut self, node: Node<'c>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if node.kind() == "function_definition"
            && let Some(name) = node.child_by_field_name("name")
        {
            self.funcs.entry(self.text(name).to_string()).or_insert(node);
        }
        for child in named(node) {
            self.collect_functions(child, depth + 1);
        }
    }

    fn spend(&mut self) -> bool {
        if self.budget == 0 || self.depth > MAX_DEPTH {
            return false;
        }
        self.budget -= 1;
        true
    }

    fn stmt(&mut self, node: Node<'c>) {
        if !self.spend() {
            return;
        }
        self.depth += 1;
        match node.kind() {
            "import_statement" | "import_from_statement" => self.import(node),
            "function_definition" => {
                if let Some(name) = node.child_by_field_name("name") {
                    let name = self.text(name).to_string();
                    let returned = self.invoke(node, &[], false);
                    self.summaries.insert(name, returned);
                }
            }
            "with_statement" => {
                for child in named(node) {
                    if child.kind() == "with_clause" {
                        for item in named(child) {
                            self.with_item(item);
                        }
                    } else {
                        self.stmt(child);
                    }
                }
            }
            "for_statement" => {
                let value = node.child_by_field_name("right").map(|r| self.eval(r)).unwrap_or_default();
                if let Some(left) = node.child_by_field_name("left") {
                    self.bind(left, &Val::derived([&value]));
                }
                for field in ["body", "alternative"] {
                    if let Some(body) = node.child_by_field_name(field) {
                        self.stmt(body);
                    }
                }
            }
            "return_statement" => {
                let mut value = Val::default();
                for child in named(node) {
                    let v = self.eval(child);
                    value = if value.text.is_none() && !value.is_tainted() { v } else { Val::derived([&value, &v]) };
                }
                if let Some(returns) = self.returns.last_mut() {
                    returns.absorb(&value);
                    if returns.text.is_none() {
                        returns.text = value.text;
                    }
                }
            }
            "comment" | "pass_statement" | "break_statement" | "continue_statement" => {}
            kind if is_statement(kind) => {
                for child in named(node) {
                    self.stmt(child);
                }
            }
            _ => {
                self.eval(node);
            }
        }
        self.depth -= 1;
    }

    fn import(&mut self, node: Node<'c>) {
        let module = node.child_by_field_name("module_name").map(|m| self.text(m).to_ascii_lowercase());
        for child in named(node) {
            if Some(child) == node.child_by_field_name("module_name") {
                continue;
            }
            let (full, local) = match child.kind() {
                "aliased_import" => {
                    let name = child.child_by_field_name("name").map(|n| self.text(n)).unwrap_or("");
                    let alias = child.child_by_field_name("alias").map(|n| self.text(n)).unwrap_or("");
                    (name.to_ascii_lowercase(), alias.to_string())
                }
                "dotted_name" => {
                    let name = self.text(child);
                    let local = if module.is_some() { name } else { name.split('.').next().unwrap_or(name) };
                    let full = if module.is_some() { name.to_ascii_lowercase() } else { local.to_ascii_lowercase() };
                    (full, local.to_string())
                }
                _ => continue,
            };
            let full = match &module {
                Some(m) => format!("{m}.{full}"),
                None => full,
            };
            if full != local.to_ascii_lowercase() {
                self.aliases.insert(local, full);
            }
        }
    }

    fn with_item(&mut self, item: Node<'c>) {
        let Some(value) = item.child_by_field_name("value") else { return };
        if value.kind() == "as_pattern" {
            let children = named(value);
            let v = children.first().map(|e| self.eval(*e)).unwrap_or_default();
            if let Some(alias) = value.child_by_field_name("alias") {
                let target = named(alias).first().copied().unwrap_or(alias);
                self.bind(target, &v);
            }
        } else {
            self.eval(value);
        }
    }

    fn lookup(&self, name: &str) -> Option<&Val> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn bind(&mut self, target: Node<'c>, value: &Val) {
        match target.kind() {
            "identifier" => {
                let name = self.text(target).to_string();
                self.scopes.last_mut().expect("a scope").insert(name, value.clone());
            }
            "attribute" => {
                let name = self.text(target).to_string();
                self.scopes.first_mut().expect("a scope").insert(name, value.clone());
            }
            "pattern_list" | "tuple_pattern" | "list_pattern" | "tuple" | "list" | "expression_list" => {
                for (i, child) in named(target).into_iter().enumerate() {
                    let item = value
                        .items
                        .as_ref()
                        .and_then(|items| items.get(i))
                        .cloned()
                        .unwrap_or_else(|| Val::derived([value]));
                    self.bind(child, &item);
                }
            }
            _ => {}
        }
    }

    /// `a.b.c` when the node is a chain of names, import aliases resolved, lower-cased.
    fn dotted(&self, node: Node) -> Option<String> {
        match node.kind() {
            "identifier" => {
                let name = self.text(node);
                Some(self.aliases.get(name).cloned().unwrap_or_else(|| name.to_ascii_lowercase()))
            }
            "attribute" => {
                let object = self.dotted(node.child_by_field_name("object")?)?;
                let attr = self.text(node.child_by_field_name("attribute")?);
                Some(format!("{object}.{}", attr.to_ascii_lowercase()))
            }
            _ => None,
        }
    }

    fn eval(&mut self, node: Node<'c>) -> Val {
        if !self.spend() {
            return Val::default();
        }
        self.depth += 1;
        let v = self.eval_inner(node);
        self.depth -= 1;
        v
    }

    fn eval_inner(&mut self, node: Node<'c>) -> Val {
        match node.kind() {
            "string" => self.string(node),
            "concatenated_string" => {
                let parts: Vec<Val> = named(node).into_iter().map(|n| self.eval(n)).collect();
                let mut out = parts.iter().fold(Val::default(), |acc, p| acc.concat(p));
                out.literal = false;
                out
            }
            "identifier" => self.lookup(self.text(node)).cloned().unwrap_or_default(),
            "attribute" => {
                if let Some(v) = self.lookup(self.text(node)) {
                    return v.clone();
                }
                if self.dotted(node).as_deref() == Some("os.environ") {
                    return whole_environment(self.at(node));
                }
                let object = node.child_by_field_name("object").map(|o| self.eval(o)).unwrap_or_default();
                let mut out = Val::derived([&object]);
                out.writes = object.writes.clone();
                out
            }
            "subscript" => {
                let value = node.child_by_field_name("value");
                let key = node.child_by_field_name("subscript").map(|s| self.eval(s)).unwrap_or_default();
                if value.and_then(|v| self.dotted(v)).as_deref() == Some("os.environ") {
                    let home = key.text.as_deref().is_some_and(|k| matches!(k, "HOME" | "USERPROFILE"));
                    return if home { Val::text("~", self.at(node)) } else { Val::default() };
                }
                let v = value.map(|v| self.eval(v)).unwrap_or_default();
                let index = key.text.as_deref().and_then(|k| k.parse::<usize>().ok());
                if let (Some(i), Some(items)) = (index, v.items.as_ref())
                    && let Some(item) = items.get(i)
                {
                    return item.clone();
                }
                Val::derived([&v])
            }
            "integer" => Val { text: Some(self.text(node).to_string()), ..Val::default() },
            "binary_operator" => {
                let left = node.child_by_field_name("left").map(|n| self.eval(n)).unwrap_or_default();
                let right = node.child_by_field_name("right").map(|n| self.eval(n)).unwrap_or_default();
                let op = node.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
                match op {
                    "+" => left.concat(&right),
                    "/" => Val::join([&left, &right]),
                    "%" => percent_format(&left, &right),
                    _ => Val::derived([&left, &right]),
                }
            }
            "call" => self.call(node),
            "list" | "tuple" | "set" | "expression_list" => {
                let items: Vec<Val> = named(node).into_iter().map(|n| self.eval(n)).collect();
                let mut out = Val::derived(items.iter());
                out.items = Some(items);
                out
            }
            "parenthesized_expression" | "await" => {
                named(node).into_iter().map(|n| self.eval(n)).next_back().unwrap_or_default()
            }
            "assignment" => {
                let value = node.child_by_field_name("right").map(|r| self.eval(r)).unwrap_or_default();
                if let Some(left) = node.child_by_field_name("left") {
                    self.bind(left, &value);
                }
                value
            }
            "augmented_assignment" => {
                let left = node.child_by_field_name("left");
                let current = left.map(|l| self.eval(l)).unwrap_or_default();
                let right = node.child_by_field_name("right").map(|r| self.eval(r)).unwrap_or_default();
                let value = current.concat(&right);
                if let Some(left) = left {
                    self.bind(left, &value);
                }
                value
            }
            "named_expression" => {
                let value = node.child_by_field_name("value").map(|r| self.eval(r)).unwrap_or_default();
                if let Some(name) = node.child_by_field_name("name") {
                    self.bind(name, &value);
                }
                value
            }
            "conditional_expression" | "boolean_operator" => {
                let parts: Vec<Val> = named(node).into_iter().map(|n| self.eval(n)).collect();
                let mut out = Val::derived(parts.iter());
                out.text = parts.iter().find_map(|p| p.text.clone());
                out
            }
            "lambda" | "comment" | "true" | "false" | "none" | "float" => Val::default(),
            _ => {
                let parts: Vec<Val> = named(node).into_iter().map(|n| self.eval(n)).collect();
                Val::derived(parts.iter())
            }
        }
    }

    fn string(&mut self, node: Node<'c>) -> Val {
        let mut text = String::new();
        let mut out = Val::default();
        let mut literal = true;
        let mut raw = false;
        for child in named(node) {
            match child.kind() {
                "string_start" => raw = self.text(child).to_ascii_lowercase().contains('r'),
                "string_content" | "escape_sequence" => {
                    let piece = self.text(child);
                    if raw { text.push_str(piece) } else { text.push_str(&unescape(piece)) }
                }
                "interpolation" => {
                    literal = false;
                    let v = named(child).first().map(|e| self.eval(*e)).unwrap_or_default();
                    text.push_str(v.text.as_deref().unwrap_or(""));
                    out.absorb(&v);
                }
                _ => {}
            }
        }
        out.text = Some(text);
        out.at = Some(self.at(node));
        out.literal = literal;
        out
    }

    fn call(&mut self, node: Node<'c>) -> Val {
        let Some(func) = node.child_by_field_name("function") else { return Val::default() };
        let mut args = Vec::new();
        let mut kwargs = Vec::new();
        if let Some(list) = node.child_by_field_name("arguments") {
            if list.kind() == "argument_list" {
                for arg in named(list) {
                    match arg.kind() {
                        "keyword_argument" => {
                            let name = arg.child_by_field_name("name").map(|n| self.text(n)).unwrap_or("");
                            let value = arg.child_by_field_name("value").map(|v| self.eval(v)).unwrap_or_default();
                            kwargs.push((name.to_string(), value));
                        }
                        "comment" => {}
                        _ => args.push(self.eval(arg)),
                    }
                }
            } else {
                args.push(self.eval(list));
            }
        }
        let (name, recv) = match func.kind() {
            "identifier" => {
                let local = self.text(func);
                if let Some(def) = self.funcs.get(local).copied() {
                    return self.call_own(local, def, &args, false);
                }
                (self.dotted(func).unwrap_or_default(), None)
            }
            "attribute" => {
                let object = func.child_by_field_name("object");
                let attr = func.child_by_field_name("attribute").map(|a| self.text(a)).unwrap_or("");
                let on_self = object.is_some_and(|o| matches!(self.text(o), "self" | "cls"));
                if on_self && let Some(def) = self.funcs.get(attr).copied() {
                    return self.call_own(attr, def, &args, true);
                }
                let bound = object.is_some_and(|o| self.lookup(self.text(o)).is_some());
                let module = object.filter(|_| !bound).and_then(|o| self.dotted(o));
                let recv = object.map(|o| self.eval(o));
                let name = match module {
                    Some(m) => format!("{m}.{}", attr.to_ascii_lowercase()),
                    None => format!("?.{}", attr.to_ascii_lowercase()),
                };
                (name, recv)
            }
            _ => ("?".to_string(), Some(self.eval(func))),
        };
        let call = Call {
            name: &name,
            recv: recv.as_ref(),
            args: &args,
            kwargs: &kwargs,
            start: self.at(node),
            end: self.base + node.end_byte(),
        };
        self.eng.call(&call)
    }

    /// A call into a function of the file: its body walked again when an argument matters.
    fn call_own(&mut self, name: &str, def: Node<'c>, args: &[Val], method: bool) -> Val {
        let matters = args.iter().any(|a| a.is_tainted() || a.text.is_some() || a.items.is_some());
        if matters && self.walking.len() < MAX_CALLS && !self.walking.contains(&def.id()) {
            return self.invoke(def, args, method);
        }
        self.summaries.get(name).cloned().unwrap_or_default()
    }

    /// Walks a function's body with its parameters bound to `args`; returns what it returns.
    fn invoke(&mut self, def: Node<'c>, args: &[Val], method: bool) -> Val {
        let mut scope = HashMap::new();
        if let Some(params) = def.child_by_field_name("parameters") {
            let mut args = args.iter();
            for (i, param) in named(params).into_iter().enumerate() {
                let name = match param.kind() {
                    "identifier" => Some(param),
                    "typed_parameter" => named(param).first().copied(),
                    "default_parameter" | "typed_default_parameter" => param.child_by_field_name("name"),
                    _ => None,
                };
                let Some(name) = name else { continue };
                let name = self.text(name);
                if i == 0 && method && matches!(name, "self" | "cls") {
                    continue;
                }
                if let Some(value) = args.next() {
                    scope.insert(name.to_string(), value.clone());
                }
            }
        }
        self.scopes.push(scope);
        self.returns.push(Val::default());
        self.walking.push(def.id());
        if let Some(body) = def.child_by_field_name("body") {
            self.stmt(body);
        }
        self.walking.pop();
        self.scopes.pop();
        self.returns.pop().unwrap_or_default()
    }
}

fn is_statement(kind: &str) -> bool {
    kind.ends_with("_statement")
        || kind.ends_with("_clause")
        || matches!(
            kind,
            "module" | "block" | "decorated_definition" | "class_definition" | "match_statement" | "case_clause"
        )
}

fn whole_environment(at: usize) -> Val {
    Val {
        secret: Some(Origin { source: String::new(), at, what: "reads the whole environment (os.environ)".into() }),
        ..Val::default()
    }
}

/// `"%s/%s" % (a, b)`.
fn percent_format(template: &Val, values: &Val) -> Val {
    let mut out = Val::derived([template, values]);
    let Some(t) = template.text.as_deref() else { return out };
    let single = [values.clone()];
    let items = values.items.as_deref().unwrap_or(&single);
    let mut items = items.iter();
    let mut text = String::new();
    let mut rest = t;
    while let Some((before, after)) = rest.split_once('%') {
        text.push_str(before);
        let spec = after.chars().next().unwrap_or(' ');
        if matches!(spec, 's' | 'r' | 'd') {
            text.push_str(items.next().and_then(|v| v.text.as_deref()).unwrap_or(""));
            rest = after.strip_prefix(spec).unwrap_or(after);
        } else {
            text.push('%');
            rest = after;
        }
    }
    text.push_str(rest);
    out.text = Some(text);
    out.at = template.at;
    out
}

/// Python string escapes that matter for paths and commands.
fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                match u8::from_str_radix(&hex, 16) {
                    Ok(b) => out.push(b as char),
                    Err(_) => out.push_str(&hex),
                }
            }
            Some('\n') => {}
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}
