//! The docs against the tree: docs/layout.md names every file and folder of the code, the
//! README and docs/*.md cite only paths that exist, and the core stays a library with no
//! window.
//!
//! docs/layout.md's rule, read from its first ```` ```text ```` block: a line that starts in
//! the first column starts an entry, its first word the entry's path; indented lines
//! continue it.
//!
//! - Every folder under `core/src` and `src` has an entry whose path is the folder's, with
//!   a `/` (`core/src/collision/`). Its text is a summary, a `:`, then the folder's
//!   modules as a comma-separated list of `name (what it is)`: outside the parentheses
//!   each item is one module name, and the names are exactly the folder's `.rs` files
//!   (`body` for `body.rs`): a file that is not listed fails, and so does a listed name
//!   with no file.
//! - A folder's own module file beside it (`core/src/collision.rs` beside
//!   `core/src/collision/`) is its folder's entry; every other `.rs` file directly in
//!   `core/src` or `src` has an entry whose path is the file's (`core/src/lib.rs`).
//! - Every entry's path exists.
//! - A unit test file (`tests.rs`, the tests of the module beside it, and any file in a
//!   `tests/` folder beside it, its parts) needs no name; a folder that holds only such
//!   files needs no entry.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the repository as text, or a panic naming it.
fn read(relative: &str) -> String {
    fs::read_to_string(root().join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// A path relative to the root, with `/` between its parts.
fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(root()).expect("under the root");
    let parts: Vec<_> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// The `.rs` files and the folders under `dir`, recursively, relative to the root.
fn walk(dir: &Path, files: &mut Vec<String>, folders: &mut Vec<String>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a folder's entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            folders.push(relative(&path));
            walk(&path, files, folders);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(relative(&path));
        }
    }
}

/// A unit test file: the tests of the module beside it (`foo/tests.rs`) or a part of
/// them (`foo/tests/loads.rs`), named by that module.
fn is_unit_tests(file: &str) -> bool {
    file.rsplit('/').next() == Some("tests.rs") || file.contains("/tests/")
}

/// One entry of docs/layout.md: its path and its text (continuation lines joined).
struct Entry {
    path: String,
    text: String,
}

/// The entries of docs/layout.md's first `text` block.
fn layout_entries() -> Vec<Entry> {
    let layout = read("docs/layout.md");
    let block = layout
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/layout.md has a ```text block");
    let mut entries: Vec<Entry> = Vec::new();
    for line in block.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with(char::is_whitespace) {
            let last = entries
                .last_mut()
                .unwrap_or_else(|| panic!("docs/layout.md: an indented first line: {line}"));
            last.text.push(' ');
            last.text.push_str(line.trim());
        } else {
            let (path, text) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            entries.push(Entry {
                path: path.to_string(),
                text: text.trim().to_string(),
            });
        }
    }
    entries
}

/// `text` with every parenthesised part (nested ones too) taken out.
fn outside_parentheses(text: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The module names a folder's entry lists: after its summary's `:`, outside parentheses,
/// separated by commas. An item that is not one name is an error naming it.
fn listed_modules(entry: &Entry) -> Result<BTreeSet<String>, String> {
    let plain = outside_parentheses(&entry.text);
    let list = plain
        .split_once(':')
        .map_or(plain.as_str(), |(_, list)| list);
    let mut names = BTreeSet::new();
    for item in list.split(',') {
        let name = item.trim().trim_end_matches('.');
        let one_name = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !one_name {
            return Err(format!(
                "docs/layout.md: {}'s list has `{}`, not one module name (write \
                 `summary: name (what it is), name (...)`)",
                entry.path,
                item.trim()
            ));
        }
        names.insert(name.to_string());
    }
    Ok(names)
}

#[test]
fn the_layout_names_every_file_and_folder_of_the_code() {
    let (mut files, mut folders) = (Vec::new(), Vec::new());
    for top in ["core/src", "src"] {
        walk(&root().join(top), &mut files, &mut folders);
    }
    let entries = layout_entries();
    let mut problems = Vec::new();
    for entry in &entries {
        if !root().join(&entry.path).exists() {
            problems.push(format!(
                "docs/layout.md names {}, which does not exist",
                entry.path
            ));
        }
    }
    let entry_of = |path: &str| entries.iter().find(|e| e.path == path);
    for folder in &folders {
        let code: Vec<&String> = files
            .iter()
            .filter(|f| f.rsplit_once('/').map(|(dir, _)| dir) == Some(folder.as_str()))
            .collect();
        // A `tests/` folder holds unit tests' parts, not code.
        let has_subfolder = folders.iter().any(|f| {
            f.starts_with(&format!("{folder}/")) && !f.ends_with("/tests") && !f.contains("/tests/")
        });
        if !has_subfolder && code.iter().all(|f| is_unit_tests(f)) {
            continue;
        }
        let Some(entry) = entry_of(&format!("{folder}/")) else {
            problems.push(format!(
                "docs/layout.md has no entry for the folder {folder}/"
            ));
            continue;
        };
        let listed = match listed_modules(entry) {
            Ok(listed) => listed,
            Err(problem) => {
                problems.push(problem);
                continue;
            }
        };
        let present: BTreeSet<String> = code
            .iter()
            .filter(|f| !is_unit_tests(f))
            .map(|f| {
                f.rsplit('/')
                    .next()
                    .unwrap()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .collect();
        for missing in present.difference(&listed) {
            problems.push(format!(
                "docs/layout.md: {folder}/'s entry does not list {missing} ({folder}/{missing}.rs)"
            ));
        }
        for stale in listed.difference(&present) {
            problems.push(format!(
                "docs/layout.md: {folder}/'s entry lists {stale}, but {folder}/{stale}.rs does \
                 not exist"
            ));
        }
    }
    for top in ["core/src", "src"] {
        for file in files
            .iter()
            .filter(|f| f.rsplit_once('/').map(|(dir, _)| dir) == Some(top))
        {
            let beside = file.trim_end_matches(".rs");
            let is_folder_root = folders.iter().any(|f| f == beside);
            if !is_folder_root && !is_unit_tests(file) && entry_of(file).is_none() {
                problems.push(format!("docs/layout.md has no entry for the file {file}"));
            }
        }
    }
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

/// The folders whose paths the docs may cite, relative to the root.
const CITED_TOPS: [&str; 7] = [
    "src/", "core/", "docs/", "tests/", "benches/", "assets/", "shaders/",
];

/// The Markdown files checked: the README and docs/*.md.
fn markdown_files() -> Vec<String> {
    let mut files = vec!["README.md".to_string()];
    let mut docs: Vec<String> = fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("an entry of docs/").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| relative(&p))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The targets of the Markdown links `[text](target)` in `line`.
fn link_targets(line: &str) -> Vec<String> {
    line.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(target, _)| target.to_string()))
        .collect()
}

/// The words inside backquotes in `line` that start with one of [`CITED_TOPS`].
fn backquoted_paths(line: &str) -> Vec<String> {
    line.split('`')
        .skip(1)
        .step_by(2)
        .flat_map(str::split_whitespace)
        .filter(|word| CITED_TOPS.iter().any(|top| word.starts_with(top)))
        .map(str::to_string)
        .collect()
}

/// A cited path as a path to look for: no `#anchor`, `:line` or `::item`, and a glob
/// (`src/**`) cut to the folder before it.
fn cleaned(path: &str) -> String {
    let path = path.split('#').next().unwrap_or(path);
    let path = path.split("::").next().unwrap_or(path);
    let path = match path.rsplit_once(':') {
        Some((file, line)) if line.chars().all(|c| c.is_ascii_digit()) => file,
        _ => path,
    };
    let path = path.split('*').next().unwrap_or(path);
    path.trim_end_matches([',', '.', ';', ')']).to_string()
}

#[test]
fn the_docs_cite_only_paths_that_exist() {
    let mut problems = Vec::new();
    for doc in markdown_files() {
        let dir = Path::new(&doc).parent().unwrap_or(Path::new(""));
        let mut fenced = false;
        for (number, line) in read(&doc).lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                continue;
            }
            if fenced {
                continue;
            }
            let mut cited: Vec<(String, PathBuf)> = Vec::new();
            for target in link_targets(line) {
                let is_web = target.contains("://") || target.starts_with("mailto:");
                if is_web || target.starts_with('#') {
                    continue;
                }
                let path = cleaned(&target);
                cited.push((target, root().join(dir).join(path)));
            }
            for word in backquoted_paths(line) {
                let path = cleaned(&word);
                cited.push((word, root().join(path)));
            }
            for (as_written, path) in cited {
                if !path.exists() {
                    problems.push(format!(
                        "{doc}:{}: cites {as_written}, which does not exist",
                        number + 1
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

/// The crates of the window, GL, overlays and gamepads: the program's, never the core's.
const SHELL_CRATES: [&str; 8] = [
    "winit",
    "glutin",
    "glutin-winit",
    "glow",
    "egui",
    "egui-winit",
    "egui_glow",
    "gilrs",
];

#[test]
fn the_core_depends_on_no_window_gl_or_gamepad_crate() {
    let manifest: toml::Table = read("core/Cargo.toml")
        .parse()
        .expect("core/Cargo.toml is TOML");
    let mut tables = vec![("[dependencies]".to_string(), manifest.get("dependencies"))];
    if let Some(targets) = manifest.get("target").and_then(toml::Value::as_table) {
        for (target, table) in targets {
            let name = format!("[target.{target}.dependencies]");
            tables.push((name, table.get("dependencies")));
        }
    }
    let mut problems = Vec::new();
    for (name, table) in tables {
        let Some(table) = table.and_then(toml::Value::as_table) else {
            continue;
        };
        for (key, value) in table {
            let package = value
                .get("package")
                .and_then(toml::Value::as_str)
                .unwrap_or(key);
            if SHELL_CRATES.contains(&package) {
                problems.push(format!("core/Cargo.toml's {name} names {package}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
