//! The repository explains itself: every document the code, the tests, the
//! README and the help texts cite is in the repository, with the sections
//! cited, and nothing points outside it.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every text file under `dir` with one of the extensions.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, exts, out);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| exts.contains(&e))
        {
            out.push(path);
        }
    }
}

/// The sources that may cite documents: code, tests, scripts, README.
fn sources() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md")];
    for dir in ["src", "tests", "scripts"] {
        files(&root().join(dir), &["rs", "sh", "perft", "md"], &mut out);
    }
    files(&root().join("notebooks"), &["ipynb", "txt"], &mut out);
    out.retain(|p| !p.ends_with("tests/docs.rs"));
    out
}

/// The section numbers of a document's `## N.` headings.
fn sections(doc: &str) -> Vec<u32> {
    let text = std::fs::read_to_string(root().join("docs").join(doc)).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter_map(|l| l.split('.').next()?.parse().ok())
        .collect()
}

#[test]
fn no_reference_leaves_the_repository() {
    for path in sources() {
        let text = std::fs::read_to_string(&path).unwrap();
        for bad in ["../shared", "shared/RULES", "shared/DESIGN", "seeds/"] {
            assert!(
                !text.contains(bad),
                "{} cites {bad}, which a clone does not have",
                path.display()
            );
        }
    }
}

#[test]
fn cited_sections_exist() {
    let docs = [
        ("RULES.md", sections("RULES.md")),
        ("DESIGN.md", sections("DESIGN.md")),
    ];
    assert_eq!(docs[0].1, (1..=11).collect::<Vec<_>>());
    let mut checked = 0;
    for path in sources() {
        let text = std::fs::read_to_string(&path).unwrap();
        // Comments wrap lines: read the text as one line of words.
        let words: Vec<&str> = text.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            for (doc, numbers) in &docs {
                if !w.contains(doc) {
                    continue;
                }
                let next = words.get(i + 1).copied().unwrap_or("");
                if !next.starts_with("section") {
                    continue;
                }
                // "section 9", "sections 3 to 6 and 10", "sections 1 and 3".
                for n in words[i + 2..]
                    .iter()
                    .take(5)
                    .map(|w| w.trim_matches(|c: char| !c.is_ascii_digit()).parse::<u32>())
                    .map_while(Result::ok)
                {
                    assert!(
                        numbers.contains(&n),
                        "{} cites {doc} section {n}, which it does not have",
                        path.display()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 30, "only {checked} citations found");
}
