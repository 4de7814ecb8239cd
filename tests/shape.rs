//! The shape the code keeps, checked on its text: the layers' one
//! forbidden arrow (`solve` never names `table`), a file named by its key
//! (no function takes a file's material as two integers but `FileKey`'s
//! constructor), and the README's length.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.rs` files under `dir`, recursively, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_solver_does_not_name_the_table_layer() {
    let files = rust_files(&root().join("src/solve"));
    assert!(files.len() >= 5, "{files:?}");
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        for (i, line) in text.lines().enumerate() {
            assert!(
                !line.contains("crate::table") && !line.contains("super::super::table"),
                "{}:{}: {line}",
                p.display(),
                i + 1
            );
        }
    }
}

/// The parameter lists of the functions in `text` (from `fn name(` to its
/// closing parenthesis), with the function's name and line.
fn signatures(text: &str) -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(i) = text[at..].find("fn ") {
        let start = at + i;
        at = start + 3;
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        let name: String = text[at..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // Generic parameters may stand between the name and the list
        // (`->` inside them is no closing bracket).
        let mut open = at + name.len();
        if text[open..].starts_with('<') {
            let mut depth = 0;
            let mut prev = ' ';
            for (j, c) in text[open..].char_indices() {
                match c {
                    '<' => depth += 1,
                    '>' if prev != '-' => {
                        depth -= 1;
                        if depth == 0 {
                            open += j + 1;
                            break;
                        }
                    }
                    _ => {}
                }
                prev = c;
            }
        }
        if !text[open..].starts_with('(') {
            continue;
        }
        let mut depth = 0;
        let mut end = open;
        for (j, c) in text[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + j;
                        break;
                    }
                }
                _ => {}
            }
        }
        let line = text[..start].lines().count() + 1;
        out.push((name, line, text[open + 1..end].to_string()));
    }
    out
}

#[test]
fn no_function_takes_a_file_as_two_integers() {
    let mut offenders = Vec::new();
    let mut seen = 0;
    for dir in ["src", "tests"] {
        // This file's own self-test names such a function in a string.
        for p in rust_files(&root().join(dir))
            .into_iter()
            .filter(|p| !p.ends_with("tests/shape.rs"))
        {
            let text = std::fs::read_to_string(&p).unwrap();
            for (name, line, params) in signatures(&text) {
                seen += 1;
                let flat: String = params.split_whitespace().collect::<Vec<_>>().join(" ");
                let takes = |param: &str| {
                    flat.split(',')
                        .any(|a| a.trim().trim_start_matches("mut ") == param)
                };
                if takes("n: u8")
                    && takes("k: u8")
                    && !(name == "new" && p.ends_with("src/index.rs"))
                {
                    offenders.push(format!("{}:{line}: fn {name}({flat})", p.display()));
                }
            }
        }
    }
    // The scan finds the functions (it would pass vacuously otherwise),
    // FileKey::new among them.
    assert!(seen > 1000, "only {seen} functions found");
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}

#[test]
fn the_signature_scan_sees_what_it_looks_for() {
    let text = "pub const fn new(n: u8, k: u8) -> FileKey {}\nfn g<T: Fn(u8)>(\n    n: u8,\n    mut k: u8,\n) {}\nfn h(file: FileKey) {}";
    let sigs = signatures(text);
    let names: Vec<&str> = sigs.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(names, ["new", "g", "h"]);
    assert_eq!(sigs[0].2, "n: u8, k: u8");
    assert_eq!(sigs[1].1, 2);
    assert!(sigs[1].2.contains("mut k: u8"));
}

#[test]
fn the_readme_stays_within_350_lines() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= 350,
        "README.md has {lines} lines: move depth to docs/"
    );
}

/// The functions of `text` longer than `most` lines (from the `fn` line to
/// the closing brace at its indentation), with their first line; items
/// under `#[cfg(test)]` are skipped (tests may run long).
fn long_functions(text: &str, most: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    // The line closing the item that starts at `i` (its brace at its indent).
    let close = |i: usize| {
        let at = indent(lines[i]);
        (i..lines.len())
            .find(|&j| lines[j].trim_end() == format!("{}}}", " ".repeat(at)))
            .unwrap_or(lines.len() - 1)
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim_start();
        if l.starts_with("#[cfg(test)]") && i + 1 < lines.len() {
            i = close(i + 1) + 1;
            continue;
        }
        let head = l
            .trim_start_matches("pub ")
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("const ")
            .trim_start_matches("unsafe ");
        if let Some(rest) = head.strip_prefix("fn ") {
            // A declaration without a body (in a trait) ends with `;`.
            let end = close(i);
            if !lines[i].trim_end().ends_with(';') && end - i + 1 > most {
                let name = rest.split(['(', '<']).next().unwrap_or("").to_string();
                out.push((name, i + 1, end - i + 1));
            }
        }
        i += 1;
    }
    out
}

#[test]
fn no_library_function_runs_over_100_lines() {
    let mut long = Vec::new();
    let mut files = 0;
    for p in rust_files(&root().join("src")) {
        files += 1;
        let text = std::fs::read_to_string(&p).unwrap();
        for (name, line, len) in long_functions(&text, 100) {
            long.push(format!("{}:{line}: fn {name} has {len} lines", p.display()));
        }
    }
    assert!(files > 20, "only {files} files under src/");
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn the_length_scan_measures_bodies_and_skips_tests() {
    let body = |n: usize| "    x();\n".repeat(n);
    let text = format!(
        "pub fn a() {{\n{}}}\n\nfn b() {{\n{}}}\n\n#[cfg(test)]\nmod tests {{\n    fn c() {{\n{}    }}\n}}\n\ntrait T {{\n    fn d();\n}}\n",
        body(8),
        body(3),
        body(50)
    );
    // a: 10 lines, b: 5, c is under cfg(test), d has no body.
    assert_eq!(long_functions(&text, 9), [("a".to_string(), 1, 10)]);
    assert_eq!(long_functions(&text, 4).len(), 2);
}
