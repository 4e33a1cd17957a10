//! Reading the store's file: TOML of the store's shape into settings (in range) and map
//! tables (the valid ones), with a warning naming the line for each thing set right or
//! left out. The file's shape ([`StoredFile`], a [`Stored`] table a map) is here too.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::browse::MOST_RECENT;
use crate::files::line_at;
use crate::map::UpAxis;
use crate::preferences::{Checked, OutOfRange, Preferences, TextureFilter};
use crate::text::quote::{cut_message, escape, quote};
use crate::text::wording::counted;

/// One map's memory (its correction, its views) as the TOML file holds it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(super) struct Stored {
    /// Where the map was when last remembered (for the reader of the file; not the key);
    /// empty, and left out, for the built-in map, which is no file.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(super) file: String,
    /// The table is the built-in map's (the map inside walkthrough, opened with no MAP).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(super) built_in: bool,
    /// The up axis, as `--up` takes it (none: only views are kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) up: Option<String>,
    /// Metres per file unit, as `--scale` takes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) scale: Option<f32>,
    /// Saved views by slot ("1" to "9"): X, Y, Z in the file's coordinates, yaw, pitch.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) views: BTreeMap<String, [f32; 5]>,
    /// Decals stuck on the map, oldest first: the point X, Y, Z, the surface's normal,
    /// the square's up (file coordinates), its side (file units) and its texture number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) decals: Vec<[f32; 11]>,
    /// When it was set, seconds since 1970 (the oldest goes first past the limit).
    #[serde(default)]
    pub(super) saved: u64,
}

/// The TOML file: the settings, and one table per map named by its content key.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct StoredFile {
    /// The maps opened lately, newest first (Ctrl+O lists them), absolute paths. First:
    /// TOML writes a table's plain values before its tables.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) recent: Vec<String>,
    #[serde(default)]
    pub(super) settings: Preferences,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) maps: BTreeMap<String, Stored>,
}

/// A store file read: its settings (in range) and maps, and a line for each thing set right
/// or skipped.
pub(super) struct Parsed {
    pub(super) recent: Vec<String>,
    pub(super) settings: Preferences,
    pub(super) maps: BTreeMap<String, Stored>,
    pub(super) warnings: Vec<String>,
}

/// The settings and maps of a store file; a setting out of range, an unknown setting or an
/// invalid map table is a warning (naming its line), a file that is no TOML of this shape
/// an error naming its line.
pub(super) fn parse(bytes: &[u8]) -> Result<Parsed, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 text ({e})"))?;
    // An editor's byte order mark is no part of the first line (its header is looked for).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut unknown_filter = None;
    let text = &*without_unknown_filter(text, &mut unknown_filter);
    let mut warnings: Vec<Said> = unknown_filter.into_iter().collect();
    let file = read_leniently(text, &mut warnings)?;
    let Checked {
        settings,
        out_of_range,
    } = file.settings.checked();
    warnings.extend(settings_warnings(text, out_of_range));
    let mut skipped = Vec::new();
    let maps = valid_maps(file.maps, &mut skipped);
    warnings.extend(skipped.into_iter().map(|s| Said::at(None, s)));
    Ok(Parsed {
        // A hand-made list longer than the window keeps is cut to it.
        recent: file.recent.into_iter().take(MOST_RECENT).collect(),
        settings,
        maps,
        warnings: in_line_order(warnings),
    })
}

/// The file `text` as the store's shape. A setting's line whose value is not of its
/// setting's type (`window_size = [-5, 720]`, a number past any integer, a word for a
/// number) is said into `warnings` and blanked, and the file read again, its default used:
/// one such value lost every setting and every map's memory. Any
/// other error is the file's, naming its line.
fn read_leniently(text: &str, warnings: &mut Vec<Said>) -> Result<StoredFile, String> {
    let mut text = Cow::Borrowed(text);
    // Each try blanks a line of its own: no more tries than the settings' lines.
    for _ in 0..=settings_lines(&text).count() {
        let e = match toml::from_str::<StoredFile>(&text) {
            Ok(file) => return Ok(file),
            Err(e) => e,
        };
        let line = e.span().map(|s| line_at(&text, s.start));
        let setting = line.and_then(|l| {
            let (_, t) = settings_lines(&text).find(|&(at, _)| at == l)?;
            Some((l, setting_key(t)?.to_string()))
        });
        let Some((l, key)) = setting else {
            return Err(match line {
                Some(l) => format!("line {l}: {}", escape(e.message())),
                None => escape(e.message()).into_owned(),
            });
        };
        warnings.push(Said::at(
            Some(l),
            format!(
                "{}: {}; the default is used",
                escape(&key),
                escape(e.message())
            ),
        ));
        text = Cow::Owned(blank_line(&text, l));
    }
    Err("too many settings that cannot be read".into())
}

/// `text` with its line `line` (from 1) blanked, not removed: the lines after it keep
/// their numbers.
fn blank_line(text: &str, line: usize) -> String {
    let kept: Vec<&str> = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| if i + 1 == line { "" } else { l })
        .collect();
    kept.join("\n")
}

/// `text` with its `texture_filter` line blanked when the value names no filter, and the
/// warning that says so (with the line) in `warning`: one unknown word costs that setting
/// (the default is used), not the whole file, as a number out of range does.
fn without_unknown_filter<'a>(text: &'a str, warning: &mut Option<Said>) -> Cow<'a, str> {
    const KEY: &str = "texture_filter";
    let Ok(table) = toml::from_str::<toml::Table>(text) else {
        return Cow::Borrowed(text);
    };
    let Some(value) = table
        .get("settings")
        .and_then(|s| s.as_table())
        .and_then(|s| s.get(KEY))
    else {
        return Cow::Borrowed(text);
    };
    let why = match value.as_str().map(str::parse::<TextureFilter>) {
        Some(Ok(_)) => return Cow::Borrowed(text),
        Some(Err(e)) => e,
        None => format!("{value} is no texture filter"),
    };
    let Some(line) = line_of_setting(text, KEY) else {
        return Cow::Borrowed(text);
    };
    *warning = Some(Said::at(
        Some(line),
        format!("{KEY}: {why}: {} is used", TextureFilter::default()),
    ));
    Cow::Owned(blank_line(text, line))
}

/// Most unknown settings warned of one by one; past it, one warning counts them and names
/// the first this many (ten thousand unknown names were ten thousand lines, each repeating
/// the list of settings).
pub(super) const UNKNOWN_SETTINGS_NAMED: usize = 3;

/// A warning about a line of the file (`None`: about no one line, said after those that
/// are), so that the warnings can be said in the file's order.
struct Said {
    line: Option<usize>,
    text: String,
}

impl Said {
    fn at(line: Option<usize>, text: String) -> Said {
        Said { line, text }
    }

    /// `line N: text`, or the text alone.
    fn shown(self) -> String {
        match self.line {
            Some(l) => format!("line {l}: {}", self.text),
            None => self.text,
        }
    }
}

/// `said` in the file's order (stable: a line's warnings in the order they were found).
fn in_line_order(mut said: Vec<Said>) -> Vec<String> {
    said.sort_by_key(|s| s.line.unwrap_or(usize::MAX));
    said.into_iter().map(Said::shown).collect()
}

/// A warning for each setting out of its range (`out_of_range`, its value quoted as the
/// file writes it) and for the names that are no setting (one each up to
/// [`UNKNOWN_SETTINGS_NAMED`], else one for them all), each at its line.
fn settings_warnings(text: &str, out_of_range: Vec<OutOfRange>) -> Vec<Said> {
    let lines = setting_lines(text);
    let at = |key: &str| lines.get(key).copied();
    let written = written_values(text);
    let mut out: Vec<Said> = out_of_range
        .into_iter()
        .map(|o| {
            let value = match (&o.value, written.get(o.key)) {
                (Some(_), Some(w)) => Some(cut_message(&escape(w)).into_owned()),
                (v, _) => v.clone(),
            };
            Said::at(at(o.key), o.said_with(value.as_deref()))
        })
        .collect();
    let unknown: Vec<String> = setting_names(text)
        .into_iter()
        .filter(|k| !Preferences::KEYS.contains(&k.as_str()))
        .collect();
    let known = Preferences::KEYS.join(", ");
    if unknown.len() <= UNKNOWN_SETTINGS_NAMED {
        out.extend(unknown.iter().map(|key| {
            let text = format!(
                "[settings] has no setting {} (ignored; the settings are {known})",
                quote(key)
            );
            Said::at(at(key), text)
        }));
    } else {
        let first: Vec<String> = unknown[..UNKNOWN_SETTINGS_NAMED]
            .iter()
            .map(|k| quote(k).to_string())
            .collect();
        let line = unknown.iter().filter_map(|k| at(k)).min();
        out.push(Said::at(
            line,
            format!(
                "[settings] has {} names that are no setting: {} and {} more (ignored; the settings are {known})",
                unknown.len(),
                first.join(", "),
                unknown.len() - UNKNOWN_SETTINGS_NAMED
            ),
        ));
    }
    out
}

/// Each setting's value as the file writes it (`[5, 5, 5]`, `1e3`), by name: a warning
/// quotes what the user wrote, not what was read of it (`window_size = [5, 5, 5]` was
/// quoted as `[5, 5]`). Empty when the file does not parse as plain TOML.
fn written_values(text: &str) -> BTreeMap<String, String> {
    #[derive(Deserialize)]
    struct Spans {
        #[serde(default)]
        settings: BTreeMap<String, toml::Spanned<toml::Value>>,
    }
    let Ok(spans) = toml::from_str::<Spans>(text) else {
        return BTreeMap::new();
    };
    spans
        .settings
        .into_iter()
        .filter_map(|(k, v)| Some((k, text.get(v.span())?.to_string())))
        .collect()
}

/// The names set in the `[settings]` table of `text`. The file parsed as the store's shape,
/// whose unknown settings are skipped unread; read as a plain table it may not parse (an
/// unknown setting's number too large for any type: `x = 99999999999999999999` was no
/// warning at all), and then the names are read line by line.
fn setting_names(text: &str) -> Vec<String> {
    match toml::from_str::<toml::Table>(text) {
        Ok(table) => match table.get("settings") {
            Some(toml::Value::Table(s)) => s.keys().cloned().collect(),
            _ => Vec::new(),
        },
        Err(_) => settings_lines(text)
            .filter_map(|(_, line)| setting_key(line))
            .map(str::to_string)
            .collect(),
    }
}

/// The lines (numbered from 1) of the `[settings]` table of `text`, trimmed, headers left
/// out.
fn settings_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut in_settings = false;
    text.lines().enumerate().filter_map(move |(i, line)| {
        let t = line.trim();
        if t.starts_with('[') {
            in_settings = t
                .trim_start_matches('[')
                .trim_start()
                .starts_with("settings")
                && t.trim_end_matches(']').trim_end().ends_with("settings");
            return None;
        }
        in_settings.then_some((i + 1, t))
    })
}

/// The line (from 1) on which `key` is set in the `[settings]` table of `text`.
fn line_of_setting(text: &str, key: &str) -> Option<usize> {
    settings_lines(text)
        .find(|&(_, t)| setting_key(t) == Some(key))
        .map(|(line, _)| line)
}

/// The line (from 1) each key is first set on in the `[settings]` table of `text`: one
/// pass for all of them (a line looked up per name was quadratic in the names).
fn setting_lines(text: &str) -> std::collections::HashMap<&str, usize> {
    let mut lines = std::collections::HashMap::new();
    for (line, t) in settings_lines(text) {
        if let Some(key) = setting_key(t) {
            lines.entry(key).or_insert(line);
        }
    }
    lines
}

/// The key a `key = value` line of the settings sets (unquoted), if it is one.
fn setting_key(line: &str) -> Option<&str> {
    let (key, _) = line.split_once('=')?;
    Some(key.trim().trim_matches('"'))
}

/// `s` (the table of map `key`) without a decal that is not finite nor a view in no
/// slot Ctrl+1..9 names, each said into `skipped`: they go alone, the rest of the map's
/// memory kept (both were taken without a word).
fn without_bad_entries(key: &str, mut s: Stored, skipped: &mut Vec<String>) -> Stored {
    let decals = s.decals.len();
    s.decals.retain(|d| d.iter().all(|v| v.is_finite()));
    if s.decals.len() < decals {
        skipped.push(format!(
            "[maps.{}]: {} skipped: not finite",
            escape(key),
            counted(decals - s.decals.len(), "decal", "decals")
        ));
    }
    let named =
        |slot: &str| slot.len() == 1 && ('1'..='9').contains(&slot.chars().next().unwrap_or('0'));
    for slot in s.views.keys().filter(|k| !named(k)) {
        skipped.push(format!(
            "[maps.{}]: view \"{}\" skipped: views are kept in slots 1 to 9",
            escape(key),
            escape(slot)
        ));
    }
    s.views.retain(|slot, _| named(slot));
    s
}

/// The map tables that are valid; a line into `warnings` for each skipped.
fn valid_maps(
    maps: BTreeMap<String, Stored>,
    warnings: &mut Vec<String>,
) -> BTreeMap<String, Stored> {
    let skipped = warnings;
    let maps: Vec<(String, Stored)> = maps
        .into_iter()
        .map(|(key, s)| {
            let s = without_bad_entries(&key, s, skipped);
            (key, s)
        })
        .collect();
    maps.into_iter()
        .filter(|(key, s)| {
            let bad = if let Some(up) = s.up.as_ref().filter(|u| u.parse::<UpAxis>().is_err()) {
                Some(format!("up = \"{}\" is no axis", escape(up)))
            } else if let Some(scale) = s.scale.filter(|x| !(x.is_finite() && *x > 0.0)) {
                Some(format!("scale = {scale} is not a positive number"))
            } else if s.up.is_some() != s.scale.is_some() {
                Some("up and scale come together".into())
            } else if s.views.values().flatten().any(|v| !v.is_finite()) {
                Some("a view is not finite".into())
            } else {
                None
            };
            if let Some(why) = &bad {
                skipped.push(format!("[maps.{}] skipped: {why}", escape(key)));
            }
            bad.is_none()
        })
        .collect()
}
