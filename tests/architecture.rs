//! docs/architecture.md is the map of the source: every `.rs` file of the
//! five crates' source folders is named in the section of its folder (as
//! `path/inside/the/folder.rs`, in backquotes), and every file a section
//! names exists.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The source folders, each with the heading of its section in the map.
const FOLDERS: [(&str, &str); 6] = [
    ("engine/src", "## engine/"),
    ("protocol/src", "## protocol/"),
    ("match/src", "## match/"),
    ("train/src", "## train/"),
    ("src", "## src/"),
    ("lab/src", "## lab/"),
];

fn rust_files(dir: &Path, under: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, under, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(under).unwrap();
            out.insert(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The section of the map under `heading`, up to the next `## ` heading.
fn section<'a>(map: &'a str, heading: &str) -> &'a str {
    let start = map
        .find(&format!("\n{heading}"))
        .unwrap_or_else(|| panic!("docs/architecture.md has no section {heading:?}"));
    let body = &map[start + 1..];
    let end = body[3..].find("\n## ").map_or(body.len(), |e| e + 3);
    &body[..end]
}

/// The `.rs` paths a section names in backquotes, as written.
fn named(section: &str) -> BTreeSet<String> {
    section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| t.ends_with(".rs") && !t.contains(' '))
        .map(String::from)
        .collect()
}

#[test]
fn the_architecture_map_names_every_source_file_and_only_those() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let mut problems = Vec::new();
    for (folder, heading) in FOLDERS {
        let dir = root.join(folder);
        let mut files = BTreeSet::new();
        rust_files(&dir, &dir, &mut files);
        let section = section(&map, heading);
        let names = named(section);
        for f in &files {
            if !names.contains(f) {
                problems.push(format!("{folder}/{f} is not in the section {heading:?}"));
            }
        }
        for n in &names {
            // A section may point at a file of another folder by its full
            // path (`engine/src/...`); those must exist too.
            let exists = files.contains(n) || root.join(n).is_file();
            if !exists {
                problems.push(format!(
                    "the section {heading:?} names {n}, which does not exist"
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "docs/architecture.md is out of date:\n{}",
        problems.join("\n")
    );
}
