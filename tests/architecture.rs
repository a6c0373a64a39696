//! docs/architecture.md is the map of the source: every `.rs` file of the
//! crates' source folders is named in the section of its folder (as
//! `path/inside/the/folder.rs`, in backquotes), and every file a section
//! names exists. And no two source files of a crate import each other.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The source folders, each with the heading of its section in the map.
const FOLDERS: [(&str, &str); 8] = [
    ("engine/src", "## engine/"),
    ("protocol/src", "## protocol/"),
    ("match/src", "## match/"),
    ("train/src", "## train/"),
    ("shard/src", "## shard/"),
    ("os/src", "## os/"),
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

/// The crates' source folders with their roots: a library's `lib.rs` and a
/// binary's `main.rs` are separate crates, each a module tree of its own.
const CRATE_ROOTS: [&str; 10] = [
    "engine/src/lib.rs",
    "protocol/src/lib.rs",
    "match/src/lib.rs",
    "train/src/lib.rs",
    "shard/src/lib.rs",
    "os/src/lib.rs",
    "src/lib.rs",
    "src/main.rs",
    "lab/src/lib.rs",
    "lab/src/main.rs",
];

/// The module path of `file` (relative to its crate's folder).
fn module_path(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// `text` without comments, string literals and `#[cfg(test)]` items, so
/// that only what the compiled product uses is looked at.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut kept = String::new();
        let mut in_string = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_string {
                if c == '\\' {
                    chars.next();
                } else if c == '"' {
                    in_string = false;
                }
                continue;
            }
            if c == '/' && chars.peek() == Some(&'/') {
                break;
            }
            if c == '"' {
                in_string = true;
                kept.push_str("\"\"");
                continue;
            }
            kept.push(c);
        }
        out.push_str(&kept);
        out.push('\n');
    }
    // Drop each `#[cfg(test)]` item: up to its `;` or its closing brace.
    while let Some(at) = out.find("#[cfg(test)]") {
        let rest = &out[at..];
        let end = match (rest.find('{'), rest.find(';')) {
            (Some(b), s) if s.is_none_or(|s| b < s) => {
                let mut depth = 0;
                let mut end = rest.len();
                for (i, c) in rest[b..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (_, Some(s)) => s + 1,
            _ => rest.len(),
        };
        out.replace_range(at..at + end, "");
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths a `use` tree names, expanded (`a::{b, c::d}` gives `a::b` and
/// `a::c::d`), as lists of segments.
fn use_paths(tree: &str) -> Vec<Vec<String>> {
    fn expand(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        if let Some(open) = tree.find('{') {
            let head: Vec<String> = tree[..open]
                .split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            let mut base = prefix.to_vec();
            base.extend(head);
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&inner[start..i], &base, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand(&inner[start..], &base, out);
        } else if !tree.is_empty() {
            let path = tree.split(" as ").next().unwrap_or(tree);
            let mut full = prefix.to_vec();
            full.extend(
                path.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty() && *s != "*")
                    .map(String::from),
            );
            out.push(full);
        }
    }
    let mut out = Vec::new();
    expand(tree, &[], &mut out);
    out
}

/// The paths `code` names: its `use` trees, and the paths written out in
/// full (`crate::a::b`, `super::c`) anywhere else.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let boundary = i == 0 || !is_ident(bytes[i - 1] as char);
        if boundary && code[i..].starts_with("use ") {
            let end = code[i..].find(';').map_or(code.len(), |e| i + e);
            paths.extend(use_paths(&code[i + 4..end]));
            i = end;
            continue;
        }
        if boundary && (code[i..].starts_with("crate::") || code[i..].starts_with("super::")) {
            let end = code[i..]
                .find(|c: char| !(is_ident(c) || c == ':'))
                .map_or(code.len(), |e| i + e);
            paths.push(
                code[i..end]
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect(),
            );
            i = end;
            continue;
        }
        i += 1;
    }
    paths
}

/// The module a path names, as the file that holds it: the longest leading
/// part of the path that is a module of the crate. `None` for paths out of
/// the crate.
fn target<'a>(
    path: &[String],
    here: &[String],
    modules: &'a std::collections::BTreeMap<Vec<String>, String>,
) -> Option<&'a String> {
    let (mut base, rest): (Vec<String>, &[String]) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("self") => (here.to_vec(), &path[1..]),
        Some("super") => {
            let supers = path.iter().take_while(|s| *s == "super").count();
            (
                here[..here.len().saturating_sub(supers)].to_vec(),
                &path[supers..],
            )
        }
        // A path that starts with a child module of this one (2018 paths).
        Some(first) => {
            let mut child = here.to_vec();
            child.push(first.to_string());
            if !modules.contains_key(&child) {
                return None;
            }
            (here.to_vec(), path)
        }
        None => return None,
    };
    let mut found = modules.get(&base);
    for segment in rest {
        base.push(segment.clone());
        match modules.get(&base) {
            Some(file) => found = Some(file),
            None => break,
        }
    }
    found
}

/// The pairs of files of one crate that import each other, as
/// `"a.rs <-> b.rs"`. A module and its own submodules are not counted: a
/// `mod.rs` that re-exports its children is their front, not their peer.
fn circles(folder: &Path, root_file: &str) -> Vec<String> {
    let mut files = BTreeSet::new();
    rust_files(folder, folder, &mut files);
    let other_root = if root_file == "main.rs" {
        "lib.rs"
    } else {
        "main.rs"
    };
    let files: Vec<String> = files.into_iter().filter(|f| f != other_root).collect();
    let modules: std::collections::BTreeMap<Vec<String>, String> =
        files.iter().map(|f| (module_path(f), f.clone())).collect();
    let mut edges = BTreeSet::new();
    for file in &files {
        let here = module_path(file);
        let code = code_only(&std::fs::read_to_string(folder.join(file)).unwrap());
        for path in named_paths(&code) {
            if let Some(to) = target(&path, &here, &modules) {
                let there = module_path(to);
                let nested = there.starts_with(&here) || here.starts_with(&there);
                if to != file && !nested {
                    edges.insert((file.clone(), to.clone()));
                }
            }
        }
    }
    edges
        .iter()
        .filter(|(a, b)| a < b && edges.contains(&(b.clone(), a.clone())))
        .map(|(a, b)| format!("{a} <-> {b}"))
        .collect()
}

#[test]
fn no_two_source_files_import_each_other() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for crate_root in CRATE_ROOTS {
        let (folder, root_file) = crate_root.rsplit_once('/').unwrap();
        for circle in circles(&root.join(folder), root_file) {
            found.push(format!("{folder}: {circle}"));
        }
    }
    assert!(
        found.is_empty(),
        "source files that import each other (move what both need to a third module):\n{}",
        found.join("\n")
    );
}
