//! Material libraries: finding the files an `mtllib` names, reading them within limits,
//! making them safe for tobj (a `Kd` with fewer than three numbers makes tobj 4
//! panic), and parsing them once for every reader of the OBJ that asks ([`Libraries`]).

use std::cell::Cell;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use super::locate::LineCounter;
use super::lookup::Folders;
use crate::files::{FileKind, ReadError, folder_entries, read_file, read_head};
use crate::text::quote::quote;

/// Where MTL files come from.
pub(super) enum Source<'a> {
    /// Files next to the OBJ, in this directory.
    Dir(&'a Path),
    /// In-memory MTL texts by name (the built-in map and tests); no textures.
    Memory(&'a [(&'a str, &'a str)]),
}

/// One material library, read.
pub(super) struct Library {
    /// The name shown in messages (its path, for a file).
    pub shown: String,
    /// Its text.
    pub text: String,
    /// The folder it is in, where its textures are looked for (none in memory).
    pub dir: Option<PathBuf>,
    /// Its file (none in memory).
    pub path: Option<PathBuf>,
}

/// What an `mtllib` value found.
pub(super) struct LibrariesRead {
    /// The libraries read.
    pub found: Vec<Library>,
    /// The files it named that could not be read (refused, or none found: then each it
    /// may mean): the map changes when one is added or mended.
    pub unread: Vec<PathBuf>,
}

/// Read every library an `mtllib` value names. Messages for those that could not be read
/// go to `warnings`, named after `obj` (the OBJ that asked for them).
pub(super) fn read_libraries(
    obj: &str,
    value: &str,
    source: &Source,
    warnings: &mut Vec<String>,
) -> LibrariesRead {
    let mut found = Vec::new();
    let mut refused = Vec::new();
    let (mut missing, mut unread) = (Vec::new(), Vec::new());
    let mut folders = Folders::default();
    for name in mtllib_names(value) {
        match source {
            Source::Dir(dir) => {
                // As written, else with `\` as `/` or ignoring case, as a texture is found
                // (`mtllib LEVEL.MTL` beside `level.mtl`, written on Windows).
                let full = match folders.find(dir, &name) {
                    Some(found) => found.path,
                    None => dir.join(&name),
                };
                match read_file(&full, FileKind::Material) {
                    Ok(bytes) => found.push(Library {
                        shown: full.display().to_string(),
                        text: String::from_utf8_lossy(&bytes).into_owned(),
                        dir: Some(full.parent().unwrap_or(dir).to_path_buf()),
                        path: Some(full.clone()),
                    }),
                    Err(ReadError::Io { source, .. }) if source.kind() == ErrorKind::NotFound => {
                        missing.push(full)
                    }
                    Err(e) => {
                        refused.push(e.to_string());
                        unread.push(full);
                    }
                }
            }
            Source::Memory(mtls) => {
                if let Some((n, t)) = mtls.iter().find(|(n, _)| *n == name) {
                    found.push(Library {
                        shown: n.to_string(),
                        text: t.to_string(),
                        dir: None,
                        path: None,
                    });
                }
            }
        }
        if found.len() == 1 && name == value {
            break; // the whole value named one file
        }
    }
    let any_refused = !refused.is_empty();
    warnings.extend(
        refused
            .into_iter()
            .map(|e| format!("material library {e}; its materials are grey")),
    );
    if found.is_empty() && !any_refused {
        warnings.push(format!(
            "{obj}: material library {} not found; its materials are grey",
            quote(value)
        ));
    }
    // A name not found beside one found is one of the value's other readings, not a
    // file the map needs.
    if found.is_empty() {
        unread.append(&mut missing);
    }
    LibrariesRead { found, unread }
}

/// The file names an `mtllib` value may mean: the value as one name, then its words split
/// at unescaped whitespace with `\ ` read as a space.
pub(super) fn mtllib_names(value: &str) -> Vec<String> {
    let mut names = vec![value.to_string()];
    let mut word = String::new();
    let mut chars = value.chars().peekable();
    let mut split = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(|n| n.is_whitespace()) => {
                word.push(chars.next().unwrap_or(' '))
            }
            c if c.is_whitespace() => {
                if !word.is_empty() {
                    split.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        split.push(word);
    }
    if split.len() > 1 || split.first().is_some_and(|w| w != value) {
        names.extend(split);
    }
    names
}

/// Most entries of a material library's folder looked at for the OBJ files that use it.
const MAX_USERS_SCANNED: usize = 10_000;
/// Most OBJ files beside a material library read for their `mtllib` lines.
const MAX_USERS_READ: usize = 64;
/// Bytes of each OBJ file read for its `mtllib` lines: exporters write them at the top.
const USERS_HEAD_BYTES: usize = 64 << 10;
/// Most OBJ files named as using a material library.
const MAX_USERS_NAMED: usize = 3;

/// The OBJ files beside the material library `mtl` (in its folder) whose `mtllib` names
/// it, ignoring case and reading `\` as `/` (as textures are found), sorted: for the
/// message that refuses a material library given as the map. Bounded: at most
/// [`MAX_USERS_READ`] files, [`USERS_HEAD_BYTES`] of each.
pub(super) fn users_of(mtl: &Path) -> Vec<PathBuf> {
    let Some(own) = mtl.file_name().map(|n| n.to_string_lossy().to_lowercase()) else {
        return Vec::new();
    };
    let mut objs: Vec<PathBuf> = folder_entries(crate::files::folder_of(mtl), MAX_USERS_SCANNED)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("obj")))
        .collect();
    objs.sort();
    objs.truncate(MAX_USERS_READ);
    let names_it = |value: &str| {
        mtllib_names(value).iter().any(|n| {
            let n = n.replace('\\', "/").to_lowercase();
            n.rsplit('/').next() == Some(own.as_str())
        })
    };
    let mut users: Vec<PathBuf> = objs
        .into_iter()
        .filter(|obj| {
            let Ok(head) = read_head(obj, FileKind::Obj, USERS_HEAD_BYTES) else {
                return false;
            };
            String::from_utf8_lossy(&head).lines().any(|l| {
                l.trim()
                    .strip_prefix("mtllib")
                    .filter(|v| v.starts_with(char::is_whitespace))
                    .is_some_and(|v| names_it(v.trim()))
            })
        })
        .collect();
    users.truncate(MAX_USERS_NAMED);
    // Named as the library was: `atrium.obj` beside `atrium.mtl`, not `./atrium.obj`.
    users
        .iter()
        .filter_map(|u| u.file_name().map(|n| mtl.with_file_name(n)))
        .collect()
}

/// Colour keywords whose values tobj reads as exactly three numbers.
const COLOUR_KEYS: [&str; 5] = ["Ka", "Kd", "Ks", "Ke", "Tf"];

/// Make an MTL safe for tobj: colour lines with one or two numbers are completed (the
/// spec allows `Kd 0.5` for grey), lines that do not parse are dropped with a warning.
pub(super) fn sanitize_mtl(name: &str, text: &str, warnings: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(text.len());
    // A byte order mark is no part of the first line (its `newmtl` was lost).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let key = words.next().unwrap_or("");
        if COLOUR_KEYS.contains(&key) {
            let nums: Vec<&str> = words.collect();
            // "Kd spectral file.rfl" and "Kd xyz x y z" are valid forms we do not read.
            let parsed: Option<Vec<f32>> = nums.iter().map(|w| w.parse::<f32>().ok()).collect();
            match parsed.as_deref() {
                Some([_, _, _, ..]) => out.push_str(line),
                Some([x]) => out.push_str(&format!("{key} {x} {x} {x}")),
                Some([x, y]) => out.push_str(&format!("{key} {x} {y} {y}")),
                _ => {
                    warnings.push(format!(
                        "{name}:{}: ignored {}: expected three numbers",
                        i + 1,
                        quote(line.trim())
                    ));
                    continue;
                }
            }
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The material libraries a text names, read once however many readers ask: each
/// reader asks for them in the text's order (the second reader of a split asks again for
/// those before the split), and the `k`-th asked of any reader is the `k`-th of the text,
/// read by whichever asks first and handed to the other as it was read.
pub(super) struct Libraries<'a> {
    shown: &'a str,
    source: &'a Source<'a>,
    state: Mutex<LibraryState>,
}

/// What reading the libraries made so far.
#[derive(Default)]
pub(super) struct LibraryState {
    /// What tobj was given for each `mtllib` line, in the text's order.
    answers: Vec<tobj::MTLLoadResult>,
    pub(super) warnings: Vec<String>,
    /// Where textures are looked for: the folder of the first library found.
    pub(super) texture_dir: Option<PathBuf>,
    /// The library files read, and those named but not read (the map's inputs: adding
    /// or mending one changes the map).
    pub(super) paths: Vec<PathBuf>,
}

impl<'a> Libraries<'a> {
    pub(super) fn new(shown: &'a str, source: &'a Source<'a>) -> Self {
        Libraries {
            shown,
            source,
            state: Mutex::new(LibraryState::default()),
        }
    }

    /// tobj's answer to a reader's `mtllib` line `p`, its `asked`-th.
    pub(super) fn load(&self, asked: &Cell<usize>, p: &Path) -> tobj::MTLLoadResult {
        let k = asked.replace(asked.get() + 1);
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(answer) = state.answers.get(k) {
            return answer.clone();
        }
        let value = p.to_string_lossy();
        let LibraryState {
            answers,
            warnings,
            texture_dir,
            paths,
        } = &mut *state;
        let LibrariesRead {
            found: libraries,
            unread,
        } = read_libraries(self.shown, &value, self.source, warnings);
        paths.extend(unread);
        let answer = if libraries.is_empty() {
            Err(tobj::LoadError::OpenFileFailed)
        } else {
            paths.extend(libraries.iter().filter_map(|l| l.path.clone()));
            if let Some(dir) = libraries.iter().find_map(|l| l.dir.clone()) {
                texture_dir.get_or_insert(dir);
            }
            parse_libraries(&libraries, warnings)
        };
        answers.push(answer.clone());
        answer
    }

    /// Forget what was read (the text is read again from its start by one reader).
    pub(super) fn forget(&self) {
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = LibraryState::default();
    }

    /// What reading them made.
    pub(super) fn into_state(self) -> LibraryState {
        self.state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// Sanitise and parse the libraries of one `mtllib` as one; a syntax error is a warning
/// naming the library and line, and leaves its materials grey.
fn parse_libraries(libraries: &[Library], warnings: &mut Vec<String>) -> tobj::MTLLoadResult {
    let mut clean = String::new();
    // Where each library starts in `clean`, in lines (sanitising ends every line in '\n').
    let mut starts = Vec::new();
    let mut lines = 0;
    for lib in libraries {
        starts.push((lines, lib.shown.as_str()));
        let text = sanitize_mtl(&lib.shown, &lib.text, warnings);
        lines += text.lines().count();
        clean += &text;
    }
    let mut reader = LineCounter::new(clean.as_bytes());
    tobj::load_mtl_buf(&mut reader).inspect_err(|e| {
        let line = reader.line().max(1);
        let (first, name) = starts
            .iter()
            .rev()
            .find(|(first, _)| *first < line)
            .copied()
            .unwrap_or((0, "material library"));
        let text = clean.lines().nth(line - 1).unwrap_or("").trim();
        warnings.push(format!(
            "{name}:{}: cannot read {} ({e}); its materials are grey",
            line - first,
            quote(text)
        ));
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mtllib_with_escaped_spaces_names_several_files() {
        assert_eq!(mtllib_names("a.mtl"), vec!["a.mtl"]);
        assert_eq!(
            mtllib_names(r"a.mtl b\ c.mtl"),
            vec![
                r"a.mtl b\ c.mtl".to_string(),
                "a.mtl".into(),
                "b c.mtl".into()
            ]
        );
    }

    #[test]
    fn a_device_as_mtllib_is_refused_with_its_reason_not_read() {
        let mut warnings = Vec::new();
        let libs = read_libraries(
            "m.obj",
            "/dev/zero",
            &Source::Dir(Path::new("/")),
            &mut warnings,
        );
        assert!(libs.found.is_empty());
        // Refused: a map input all the same (mended, it changes the map).
        assert_eq!(libs.unread, [Path::new("/dev/zero")]);
        assert_eq!(
            warnings,
            vec![
                "material library /dev/zero: is not a regular file (a pipe, device or socket); give an MTL file saved on disk; its materials are grey"
            ]
        );
    }
}
