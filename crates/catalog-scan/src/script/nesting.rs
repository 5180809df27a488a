//! How deep a piece of JavaScript or TypeScript could make oxc's parser recurse, found before
//! the parser reads it: oxc is a recursive-descent parser, a stack overflow ends the whole
//! process, and no panic handler can catch it. (tree-sitter's parsers keep their stack on the
//! heap, and the walkers over their trees stop at a depth of their own.)
//!
//! Each level of brackets (`(`, `[`, `{`, `${`) and each JSX element is one recursion of the
//! parser, and so is each operator that parses what follows it by calling itself: `=` and
//! `=>`, `?`, `!`, `~`, a `+` or `-` in front of an operand, `new`, `typeof`, `void`, `delete`,
//! `await`, `yield`, and `<` (a comparison, a type's arguments or a JSX tag). The estimate
//! counts those operators since the last `;` or `,` of each open bracket, and adds the brackets:
//! counting strings and comments too, it can only over-estimate.
//!
//! TypeScript's parser has a second runaway: each `<` may open type arguments, which it tries
//! and takes back, so a run of `<` left open costs it time and memory that double every few
//! (a fuzzed 150-byte file ran past 60 s and 5 GB). [`open_angles`] counts them.

/// Code whose estimate is past this is read by the line readers alone. Real scripts stay
/// under a few tens; oxc takes at most about 1.5 KB of stack a level (measured: 1,700 nested
/// parentheses overflow a 2 MiB thread), so this keeps a parse within 300 KB of any thread's
/// stack.
pub const MAX_NESTING: usize = 200;

/// Code with more `<` open at once than this is read by the line readers alone. Measured on the
/// fuzzed file: 30 open cost oxc 50 ms, 39 cost 2 s. Real code leaves a few open (comparisons).
pub const MAX_OPEN_ANGLES: usize = 20;

/// The most `<` open at once in `code`: each `<` opens one, each `>` (not of `=>` or `>=`)
/// closes one, and a statement's or a block's end (`;`, `{`, `}`) closes them all. Counting
/// stops past [`MAX_OPEN_ANGLES`].
pub fn open_angles(code: &str) -> usize {
    let bytes = code.as_bytes();
    let (mut open, mut most) = (0usize, 0usize);
    for (i, &byte) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied().unwrap_or(b' ');
        let before = i.checked_sub(1).and_then(|at| bytes.get(at)).copied().unwrap_or(b' ');
        match byte {
            b'<' if next != b'=' => open += 1,
            b'>' if before != b'=' && next != b'=' => open = open.saturating_sub(1),
            b';' | b'{' | b'}' => open = 0,
            _ => {}
        }
        most = most.max(open);
        if most > MAX_OPEN_ANGLES {
            break;
        }
    }
    most
}

/// The deepest recursion `code` could cause, as estimated above; counting stops past
/// [`MAX_NESTING`], so what is returned is at most one more than that.
pub fn depth(code: &str) -> usize {
    let bytes = code.as_bytes();
    // Per open bracket: the operators counted since its last `;` or `,`.
    let mut open: Vec<usize> = vec![0];
    // Brackets open, plus the operators counted in each.
    let mut total: usize = 0;
    let mut deepest = 0;
    // The last byte that was not white space: whether a `+`, `-` or `<` opens an operand.
    let mut before = b';';
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        let next = bytes.get(i + 1).copied().unwrap_or(b' ');
        let mut operator = false;
        match byte {
            b'(' | b'[' | b'{' => {
                open.push(0);
                total += 1;
            }
            b'$' if next == b'{' => {
                open.push(0);
                total += 1;
                i += 1;
            }
            b')' | b']' | b'}' if open.len() > 1 => total -= 1 + open.pop().unwrap_or(0),
            b';' | b',' => {
                if let Some(count) = open.last_mut() {
                    total -= *count;
                    *count = 0;
                }
            }
            // `==`, `!=`, `<=`, `>=` and `=>`'s `=` are no assignment; `=>` is an arrow.
            b'=' => operator = next != b'=' && !matches!(before, b'=' | b'!' | b'<' | b'>'),
            b'?' => operator = !matches!(next, b'.' | b'?'),
            b'!' | b'~' => operator = next != b'=',
            b'+' | b'-' => operator = next != byte && opens_operand(before),
            b'<' => operator = next != b'/' && next != b'=',
            b if b.is_ascii_lowercase()
                && !i.checked_sub(1).and_then(|at| bytes.get(at)).is_some_and(|b| is_word(*b)) =>
            {
                let word_end = bytes.get(i..).map_or(0, |rest| rest.iter().take_while(|b| is_word(**b)).count());
                let word = bytes.get(i..i + word_end).unwrap_or_default();
                operator = matches!(word, b"new" | b"typeof" | b"void" | b"delete" | b"await" | b"yield");
                i += word_end.max(1) - 1;
            }
            _ => {}
        }
        if operator {
            if let Some(count) = open.last_mut() {
                *count += 1;
            }
            total += 1;
        }
        deepest = deepest.max(total);
        if deepest > MAX_NESTING {
            break;
        }
        if !byte.is_ascii_whitespace() {
            before = if is_word(byte) { b'a' } else { byte };
        }
        i += 1;
    }
    deepest
}

fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$'
}

/// Whether an operator after `before` starts an operand rather than following one.
fn opens_operand(before: u8) -> bool {
    !is_word(before) && !matches!(before, b')' | b']' | b'}' | b'"' | b'\'' | b'`')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_code_stays_shallow() {
        let code = "const x = require('x');\nfunction f(a, b) {\n  if (a < b && !c) { return a ? b : c; }\n  \
                    for (let i = 0; i < n; i++) { x[i] = -i; }\n  return `${a}-${b}`;\n}\n";
        let depth = depth(code);
        assert!((3..=8).contains(&depth), "{depth}");
        // A comparison in every loop of a long file does not add up: `;` ends its statement.
        assert!(super::depth(&"for (i = 0; i < n; i++) { a = b; }\n".repeat(2000)) < 8);
    }

    #[test]
    fn every_kind_of_recursion_counts() {
        for (open, close) in [
            ("(", ")"),
            ("[", "]"),
            ("{a:", "}"),
            ("`${", "}`"),
            ("a=", ""),
            ("a?b:", ""),
            ("x=>", ""),
            ("!", ""),
            ("- ", ""),
            ("new ", ""),
            ("typeof ", ""),
            ("await ", ""),
            ("<a>", "</a>"),
            ("A<", ">"),
        ] {
            let code = format!("{}x{}", open.repeat(300), close.repeat(300));
            assert!(depth(&code) > MAX_NESTING, "{open}: {}", depth(&code));
        }
        // A long sum is parsed in a loop, not by recursion.
        assert!(depth(&"a + ".repeat(5000)) < 4);
    }

    #[test]
    fn angles_left_open_are_counted_and_closed_ones_are_not() {
        let generics = "const m: Map<string, Array<Promise<Record<string, number>>>> = new Map();\n";
        assert_eq!(open_angles(&generics.repeat(500)), 4);
        let comparisons = "if (a < b && c < d) { x = y => y < 2; }\n".repeat(500);
        assert!(open_angles(&comparisons) <= 3, "{}", open_angles(&comparisons));
        // The shape of the fuzzed file: `<` after `<`, across lines, never closed.
        let runaway = "oaw<oo<w<c<c<cw<ooaw<w<c<c<c<(wG9=\n".repeat(4);
        assert!(open_angles(&runaway) > MAX_OPEN_ANGLES);
    }

    /// What the angle limit lets through, oxc reads at once: the runaway shape, cut at the
    /// limit, parsed as TypeScript within a second (past it, the time doubles every few `<`).
    #[test]
    fn what_the_angle_limit_lets_through_parses_quickly() {
        let mut code = String::new();
        for piece in "oaw<oo<w<c<c<cw<ooaw<w<c<c<c<(wG9=\n".repeat(4).split_inclusive('<') {
            if open_angles(&(code.clone() + piece)) > MAX_OPEN_ANGLES {
                break;
            }
            code.push_str(piece);
        }
        let started = std::time::Instant::now();
        let allocator = oxc_allocator::Allocator::default();
        let _ = oxc_parser::Parser::new(&allocator, &code, oxc_span::SourceType::tsx()).parse();
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
    }

    /// At the limit, the parser stays well within a thread's default stack (2 MiB): each kind
    /// nested as deep as the estimate lets through, parsed on a thread of that size.
    #[test]
    fn what_the_limit_lets_through_parses_on_a_default_stack() {
        for (open, close) in [("(", ")"), ("{a:", "}"), ("`${", "}`"), ("a=", ""), ("function f(){", "}")] {
            let mut n = 1;
            while depth(&format!("{}x{}", open.repeat(n + 1), close.repeat(n + 1))) <= MAX_NESTING {
                n += 1;
            }
            let code = format!("{}x{}", open.repeat(n), close.repeat(n));
            std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn(move || {
                    let allocator = oxc_allocator::Allocator::default();
                    let source = oxc_span::SourceType::tsx();
                    oxc_parser::Parser::new(&allocator, &code, source).parse().panicked
                })
                .expect("a thread")
                .join()
                .expect("no overflow");
        }
    }
}
