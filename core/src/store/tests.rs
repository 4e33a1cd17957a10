//! The store's tests: settings and maps kept, read back, warned about.

use super::parse::UNKNOWN_SETTINGS_NAMED;
use super::*;
use crate::map::UpAxis;
use crate::preferences::{LightingMode, TextureFilter};

fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("walkthrough-store-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A scratch folder for `test` holding a store file of `text`.
fn written(test: &str, text: &str) -> PathBuf {
    let dir = scratch(test);
    std::fs::write(dir.join(STORE_FILE), text).unwrap();
    dir
}

fn frame(up: UpAxis, scale: f32) -> MapFrame {
    MapFrame { up, scale }
}

#[test]
fn a_correction_is_remembered_across_loads_and_forgotten() {
    let dir = scratch("round-trip");
    let key = ContentKey::of_bytes(b"v 0 0 0\n");
    let mut c = Store::load(Some(&dir)).store;
    assert_eq!(c.recall(&key), None);
    c.remember(&key, Path::new("/maps/a.obj"), frame(UpAxis::Z, 0.0254))
        .unwrap();
    let again = Store::load(Some(&dir));
    assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    let mut c = again.store;
    assert_eq!(c.recall(&key), Some(frame(UpAxis::Z, 0.0254)));
    assert!(c.forget(&key).unwrap());
    assert!(!c.forget(&key).unwrap());
    assert_eq!(Store::load(Some(&dir)).store.recall(&key), None);
}

#[test]
fn the_key_is_the_content_not_the_name() {
    let dir = scratch("key");
    let (a, b, c) = (dir.join("a.obj"), dir.join("b.obj"), dir.join("c.obj"));
    std::fs::write(&a, "v 0 0 0\nv 1 0 0\n").unwrap();
    std::fs::write(&b, "v 0 0 0\nv 1 0 0\n").unwrap();
    std::fs::write(&c, "v 0 0 0\nv 2 0 0\n").unwrap();
    let key = |p: &Path| ContentKey::of_file(p).unwrap();
    assert_eq!(key(&a), key(&b));
    assert_ne!(key(&a), key(&c));
    assert_eq!(key(&a), ContentKey::of_bytes(b"v 0 0 0\nv 1 0 0\n"));
}

#[test]
fn a_corrupt_file_is_a_warning_with_its_line_and_is_kept_aside_when_saving() {
    let dir = scratch("corrupt");
    let path = dir.join(STORE_FILE);
    std::fs::write(&path, "[maps.abc]\nup = \"z\"\nscale = [oops\n").unwrap();
    let loaded = Store::load(Some(&dir));
    assert_eq!(loaded.warnings.len(), 1);
    assert!(
        loaded.warnings[0].contains("line 3"),
        "{:?}",
        loaded.warnings
    );
    assert!(loaded.warnings[0].contains(STORE_FILE));
    let mut c = loaded.store;
    let key = ContentKey::of_bytes(b"x");
    c.remember(&key, Path::new("x.obj"), frame(UpAxis::Y, 2.0))
        .unwrap();
    let aside = std::fs::read_to_string(dir.join("settings.toml.bad")).unwrap();
    assert!(aside.contains("[oops"), "the user's file is kept");
    assert_eq!(
        Store::load(Some(&dir)).store.recall(&key),
        Some(frame(UpAxis::Y, 2.0))
    );
    // The next corrupt file replaced the first one set aside.
    std::fs::write(&path, "[settings]\nfov = 75\n[wide\n").unwrap();
    let mut c = Store::load(Some(&dir)).store;
    c.remember(&key, Path::new("x.obj"), frame(UpAxis::Z, 3.0))
        .unwrap();
    let first = std::fs::read_to_string(dir.join("settings.toml.bad")).unwrap();
    assert!(first.contains("[oops"), "the first set aside is kept");
    let second = std::fs::read_to_string(dir.join("settings.toml.bad.2")).unwrap();
    assert!(second.contains("wide"), "{second}");
}

#[test]
fn invalid_tables_are_skipped_by_name_and_the_rest_kept() {
    let dir = written(
        "invalid",
        "[maps.good]\nfile = \"g.obj\"\nup = \"-x\"\nscale = 0.5\n\n[maps.sideways]\nfile = \"s.obj\"\nup = \"w\"\nscale = 1.0\n\n[maps.tiny]\nfile = \"t.obj\"\nup = \"y\"\nscale = -3.0\n",
    );
    let loaded = Store::load(Some(&dir));
    assert_eq!(loaded.store.len(), 1);
    let w = loaded.warnings.join("\n");
    assert!(w.contains("[maps.sideways] skipped: up = \"w\""), "{w}");
    assert!(w.contains("[maps.tiny] skipped: scale = -3"), "{w}");
    assert_eq!(
        loaded.store.recall(&ContentKey("good".into())),
        Some(frame(UpAxis::NegX, 0.5))
    );
}

/// A decal of NaNs and a view in slot "99" were taken without
/// a word. Each goes alone, said; the rest of its map's memory is kept.
#[test]
fn a_decal_not_finite_and_a_view_in_no_slot_are_skipped_alone() {
    let good = "[0.0, 1.0, 2.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.5, 0.0]";
    let bad = "[nan, 1.0, 2.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.5, 0.0]";
    let dir = written(
        "bad-decal",
        &format!(
            "[maps.m]\nfile = \"m.obj\"\nup = \"z\"\nscale = 0.5\ndecals = [{good}, {bad}]\n\n[maps.m.views]\n3 = [1.0, 2.0, 3.0, 0.0, 0.0]\n99 = [1.0, 2.0, 3.0, 0.0, 0.0]\n"
        ),
    );
    let loaded = Store::load(Some(&dir));
    let w = loaded.warnings.join("\n");
    assert!(w.contains("[maps.m]: 1 decal skipped: not finite"), "{w}");
    assert!(
        w.contains("[maps.m]: view \"99\" skipped: views are kept in slots 1 to 9"),
        "{w}"
    );
    let key = ContentKey("m".into());
    assert_eq!(loaded.store.recall(&key), Some(frame(UpAxis::Z, 0.5)));
    assert_eq!(loaded.store.decals(&key).len(), 1);
    assert!(loaded.store.view(&key, 3).is_some());
}

#[test]
fn a_settings_path_that_is_a_directory_is_a_warning() {
    let dir = scratch("dir");
    std::fs::create_dir_all(dir.join(STORE_FILE)).unwrap();
    let loaded = Store::load(Some(&dir));
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert!(loaded.store.is_empty());
}

#[test]
fn recall_fills_the_frame_only_when_the_command_line_leaves_it_open_and_forget_drops_it() {
    let dir = scratch("recall");
    let map = dir.join("m.obj");
    std::fs::write(&map, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    let mut store = Store::load(Some(&dir)).store;
    let key = ContentKey::of_file(&map).unwrap();
    store
        .remember(&key, &map, frame(UpAxis::Z, 0.3048))
        .unwrap();
    let mut opts = OpenOptions::default();
    let r = recall(&mut store, Some(&map), &mut opts, false);
    assert_eq!(r.key, Some(key.clone()));
    assert_eq!(opts.remembered, Some(frame(UpAxis::Z, 0.3048)));
    let mut given = OpenOptions {
        scale: Some(2.0),
        ..OpenOptions::default()
    };
    recall(&mut store, Some(&map), &mut given, false);
    assert_eq!(given.remembered, None, "--scale overrides the memory");
    let mut opts = OpenOptions::default();
    let r = recall(&mut store, Some(&map), &mut opts, true);
    assert!(r.note.unwrap().contains("forgot"));
    assert_eq!(opts.remembered, None);
    assert_eq!(Store::load(Some(&dir)).store.recall(&key), None);
    let none = recall(&mut store, None, &mut OpenOptions::default(), false);
    assert_eq!(none, Recall::default());
}

#[test]
fn views_are_kept_per_map_beside_the_correction_and_outlive_forget() {
    let dir = scratch("views");
    let key = ContentKey::of_bytes(b"v 0 0 0\n");
    let view = SavedView {
        position: Vec3::new(1.25, -2.0, 3.5),
        yaw_deg: 91.5,
        pitch_deg: -7.25,
    };
    {
        let mut c = Store::load(Some(&dir)).store;
        c.keep_view(&key, Path::new("room.obj"), 3, view).unwrap();
        // A view alone is no correction.
        assert_eq!(c.recall(&key), None);
        c.remember(&key, Path::new("room.obj"), frame(UpAxis::Z, 0.01))
            .unwrap();
    }
    let mut c = Store::load(Some(&dir)).store;
    assert_eq!(c.view(&key, 3), Some(view));
    assert_eq!(c.view(&key, 4), None);
    assert_eq!(c.recall(&key), Some(frame(UpAxis::Z, 0.01)));
    assert_eq!(c.forget(&key), Ok(true));
    let c = Store::load(Some(&dir)).store;
    assert_eq!(c.recall(&key), None);
    assert_eq!(c.view(&key, 3), Some(view));
}

#[test]
fn decals_are_kept_per_map_in_order_and_outlive_forget() {
    let dir = scratch("decals");
    let key = ContentKey::of_bytes(b"v 0 0 1\n");
    let decal = |x: f32, texture: u8| Placement {
        point: Vec3::new(x, 1.5, -0.25),
        normal: Vec3::Z,
        up: Vec3::Y,
        size: 0.5,
        texture,
    };
    let kept = [decal(1.0, 2), decal(-3.5, 0)];
    {
        let mut c = Store::load(Some(&dir)).store;
        assert!(c.decals(&key).is_empty());
        c.keep_decals(&key, Path::new("room.obj"), &kept).unwrap();
        c.remember(&key, Path::new("room.obj"), frame(UpAxis::Y, 1.0))
            .unwrap();
    }
    let mut c = Store::load(Some(&dir)).store;
    assert_eq!(c.decals(&key), kept);
    assert_eq!(c.forget(&key), Ok(true));
    let mut c = Store::load(Some(&dir)).store;
    assert_eq!(c.decals(&key), kept);
    c.keep_decals(&key, Path::new("room.obj"), &kept[1..])
        .unwrap();
    assert_eq!(Store::load(Some(&dir)).store.decals(&key), kept[1..]);
}

#[test]
fn past_the_limit_the_oldest_is_dropped() {
    let mut c = Store::default();
    for i in 0..=MAX_REMEMBERED {
        let key = ContentKey(format!("k{i:05}"));
        c.maps.insert(
            key.0.clone(),
            Stored {
                file: String::new(),
                built_in: false,
                up: Some("y".into()),
                scale: Some(1.0),
                views: BTreeMap::new(),
                decals: Vec::new(),
                saved: i as u64 + 10,
            },
        );
    }
    c.remember(
        &ContentKey("new".into()),
        Path::new("n.obj"),
        frame(UpAxis::Y, 1.0),
    )
    .unwrap();
    assert_eq!(c.len(), MAX_REMEMBERED);
    assert_eq!(c.recall(&ContentKey("k00000".into())), None);
    assert_eq!(c.recall(&ContentKey("k00001".into())), None);
    assert!(c.recall(&ContentKey("new".into())).is_some());
}

#[test]
fn settings_are_kept_beside_the_maps_and_read_back() {
    let dir = scratch("settings");
    let key = ContentKey::of_bytes(b"v 0 0 0\n");
    let mut c = Store::load(Some(&dir)).store;
    assert_eq!(c.settings(), &Preferences::default(), "missing: defaults");
    c.remember(&key, Path::new("a.obj"), frame(UpAxis::Z, 0.01))
        .unwrap();
    let mine = Preferences {
        fov: 75.0,
        invert_y: true,
        mouse_sensitivity: 0.3,
        window_size: [800, 600],
        texture_filter: TextureFilter::Bilinear,
        ..Preferences::default()
    };
    c.set_settings(&mine).unwrap();
    let again = Store::load(Some(&dir));
    assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    assert_eq!(again.store.settings(), &mine);
    assert_eq!(again.store.recall(&key), Some(frame(UpAxis::Z, 0.01)));
}

#[test]
fn the_recent_maps_are_read_back_newest_first_beside_the_settings_and_a_missing_one_is_not_offered()
{
    let dir = scratch("recent");
    let (a, b) = (dir.join("a.obj"), dir.join("b.toml"));
    std::fs::write(&a, "v 0 0 0\n").unwrap();
    std::fs::write(&b, "").unwrap();
    let mut c = Store::load(Some(&dir)).store;
    let mine = Preferences {
        fov: 75.0,
        ..Preferences::default()
    };
    c.set_settings(&mine).unwrap();
    c.note_opened(&a).unwrap();
    c.note_opened(&b).unwrap();
    c.note_opened(&dir.join("gone.obj")).unwrap();
    let again = Store::load(Some(&dir));
    assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    assert_eq!(again.store.recent_maps(), [b, a]);
    assert_eq!(again.store.settings(), &mine);
}

#[test]
fn a_setting_out_of_range_or_unknown_is_a_warning_with_its_line() {
    let dir = written(
        "settings-range",
        "# mine\n[settings]\nfov = 300\nfeild_of_view = 90\ninvert_y = true\n\n[maps.k]\nfile = \"k.obj\"\nup = \"z\"\nscale = 1.0\n",
    );
    let loaded = Store::load(Some(&dir));
    let w = loaded.warnings.join("\n");
    assert_eq!(loaded.warnings.len(), 2, "{w}");
    assert!(
        w.contains("line 3: fov = 300 is outside 60 to 110: 110 is used"),
        "{w}"
    );
    assert!(
        w.contains("line 4: [settings] has no setting 'feild_of_view'"),
        "{w}"
    );
    let s = loaded.store.settings();
    assert_eq!((s.fov, s.invert_y), (110.0, true), "the rest is kept");
    assert_eq!(loaded.store.len(), 1, "and the maps");
}

#[test]
fn an_unknown_texture_filter_is_a_warning_with_its_line_not_the_loss_of_the_file() {
    let dir = written(
        "settings-filter",
        "[settings]\nfov = 75\ntexture_filter = \"fancy\"\ninvert_y = true\n\n[maps.k]\nfile = \"k.obj\"\nup = \"z\"\nscale = 1.0\n",
    );
    let loaded = Store::load(Some(&dir));
    let w = loaded.warnings.join("\n");
    assert_eq!(loaded.warnings.len(), 1, "{w}");
    assert!(
        w.contains("line 3: texture_filter: 'fancy' is no texture filter (one of trilinear, bilinear, nearest): trilinear is used"),
        "{w}"
    );
    let s = loaded.store.settings();
    assert_eq!(s.texture_filter, TextureFilter::Trilinear);
    assert_eq!((s.fov, s.invert_y), (75.0, true), "the rest is kept");
    assert_eq!(loaded.store.len(), 1, "and the maps");
    // A number where a name goes is refused the same way.
    let dir = written("settings-filter-number", "[settings]\ntexture_filter = 3\n");
    let loaded = Store::load(Some(&dir));
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert!(loaded.warnings[0].contains("line 2: texture_filter: 3 is no texture filter"));
    // And a name that is one is read.
    let dir = written(
        "settings-filter-ok",
        "[settings]\ntexture_filter = \"nearest\"\n",
    );
    let loaded = Store::load(Some(&dir));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(
        loaded.store.settings().texture_filter,
        TextureFilter::Nearest
    );
}

/// One value of the wrong type (`window_size = [-5, 720]`, an
/// integer past any type, a word for a number) lost every setting and every map's
/// memory. Each is a warning with its line and its default used, the rest kept.
#[test]
fn a_setting_of_the_wrong_type_costs_that_setting_not_the_file() {
    let dir = written(
        "settings-type",
        "[settings]\nwindow_size = [-5, 720]\nfov = \"wide\"\ninvert_y = true\nmouse_sensitivity = 100000000000000000000\nvsync = 3\nrender_scale = 0.5\n\n[maps.k]\nfile = \"k.obj\"\nup = \"z\"\nscale = 1.0\n",
    );
    let loaded = Store::load(Some(&dir));
    let w = loaded.warnings.join("\n");
    for (line, key) in [
        (2, "window_size"),
        (3, "fov"),
        (5, "mouse_sensitivity"),
        (6, "vsync"),
    ] {
        let said = format!("line {line}: {key}: ");
        assert!(
            w.contains(&said) && w.contains("the default is used"),
            "{said}: {w}"
        );
    }
    assert_eq!(loaded.warnings.len(), 4, "{w}");
    let s = loaded.store.settings();
    let d = Preferences::default();
    assert_eq!(
        (s.window_size, s.fov, s.vsync),
        (d.window_size, d.fov, d.vsync)
    );
    assert_eq!(s.mouse_sensitivity, d.mouse_sensitivity);
    assert_eq!(
        (s.invert_y, s.render_scale),
        (true, 0.5),
        "the rest is kept"
    );
    assert_eq!(loaded.store.len(), 1, "and the maps");
    // An error outside the settings is still the file's.
    let dir = written("settings-type-map", "[maps.k]\nscale = \"big\"\n");
    let loaded = Store::load(Some(&dir));
    assert!(
        loaded.warnings.join("\n").contains("line 2"),
        "{:?}",
        loaded.warnings
    );
}

#[test]
fn a_legacy_corrections_file_is_read_when_there_is_no_settings_file() {
    let dir = scratch("legacy");
    std::fs::write(
        dir.join(LEGACY_FILE),
        "[maps.k]\nfile = \"k.obj\"\nup = \"x\"\nscale = 0.5\n",
    )
    .unwrap();
    let mut c = Store::load(Some(&dir)).store;
    let key = ContentKey("k".into());
    assert_eq!(c.recall(&key), Some(frame(UpAxis::X, 0.5)));
    c.set_settings(&Preferences::default()).unwrap();
    // Written to the new file; the old one is left as it was.
    let c = Store::load(Some(&dir)).store;
    assert_eq!(c.recall(&key), Some(frame(UpAxis::X, 0.5)));
    assert!(dir.join(STORE_FILE).is_file());
    assert!(
        std::fs::read_to_string(dir.join(LEGACY_FILE))
            .unwrap()
            .contains("scale = 0.5")
    );
}

#[test]
fn a_folder_that_cannot_be_written_is_an_error_to_report_not_a_panic() {
    let dir = scratch("unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    // A config folder under a regular file can be neither made nor written.
    let mut c = Store::load(Some(&file.join("config"))).store;
    let e = c.set_settings(&Preferences::default()).unwrap_err();
    assert!(e.contains("cannot create the folder"), "{e}");
    assert_eq!(c.settings(), &Preferences::default(), "kept in memory");
}

/// An unknown setting whose number is too large for any type
/// (`x = 99999999999999999999`) made the file unreadable as a plain table, and no unknown
/// setting was warned about. Each is named at its line, and a file with a byte order mark
/// reads as one without.
#[test]
fn an_unknown_setting_with_a_huge_number_is_warned_at_its_line() {
    let dir = written(
        "huge-unknown",
        "\u{feff}[settings]\nfov = 75\nbig = 99999999999999999999\nhuge = -99999999999999999999\ninvert_y = true\n",
    );
    let loaded = Store::load(Some(&dir));
    let w = loaded.warnings.join("\n");
    assert!(w.contains("line 3: [settings] has no setting 'big'"), "{w}");
    assert!(
        w.contains("line 4: [settings] has no setting 'huge'"),
        "{w}"
    );
    assert_eq!(loaded.warnings.len(), 2, "{w}");
    assert_eq!(loaded.store.settings().fov, 75.0);
    assert!(loaded.store.settings().invert_y);
}

/// Ten thousand names that are no setting were ten thousand warnings (3.5 MB, each
/// repeating the list of settings): one warning counts them, names the first few and
/// stands at the first's line.
#[test]
fn many_unknown_settings_are_one_warning_with_a_count_and_the_first_names() {
    let mut text = String::from("[settings]\nfov = 75\n");
    for i in 0..10_000 {
        text.push_str(&format!("unknown_{i} = {i}\n"));
    }
    let dir = written("many-unknown", &text);
    let loaded = Store::load(Some(&dir));
    assert_eq!(loaded.warnings.len(), 1, "{:?}", &loaded.warnings[..3]);
    let w = &loaded.warnings[0];
    assert!(
        w.contains(
            "line 3: [settings] has 10000 names that are no setting: 'unknown_0', 'unknown_1', 'unknown_10' and 9997 more (ignored; the settings are mouse_sensitivity,"
        ),
        "{w}"
    );
    assert!(w.len() < 1000, "{w}");
    assert_eq!(loaded.store.settings().fov, 75.0);
    // A few are still one warning each, at their lines.
    let dir = written("few-unknown", "[settings]\na = 1\nb = 2\nc = 3\n");
    let w = Store::load(Some(&dir)).warnings;
    assert_eq!(w.len(), UNKNOWN_SETTINGS_NAMED, "{w:?}");
    assert!(
        w[2].contains("line 4: [settings] has no setting 'c'"),
        "{w:?}"
    );
}

/// `window_size = [5, 5, 5]` was quoted as `window_size = [5, 5]` (what was read of
/// it), and `fov = 3e2` as `fov = 300`: a value is quoted as the file writes it.
#[test]
fn a_value_out_of_range_is_quoted_as_the_file_writes_it() {
    let dir = written(
        "as-written",
        "[settings]\nwindow_size = [5, 5, 5]\nfov = 3e2 # wide\nkey_jump = \"Spacebar\"\n",
    );
    let w = Store::load(Some(&dir)).warnings;
    assert_eq!(
        w[..2],
        [
            format!(
                "{}: line 2: window_size = [5, 5, 5] has a side outside 64 to 16384 pixels: [64, 64] is used",
                dir.join(STORE_FILE).display()
            ),
            format!(
                "{}: line 3: fov = 3e2 is outside 60 to 110: 110 is used",
                dir.join(STORE_FILE).display()
            ),
        ]
    );
    assert!(
        w[2].contains("line 4: key_jump = \"Spacebar\" is no key name"),
        "{w:?}"
    );
}

/// The warnings came grouped by kind (a texture filter, then values of the wrong
/// type, then values out of range, then unknown names): they come in the file's line
/// order, the maps' (which name no line) after them.
#[test]
fn warnings_come_in_the_files_line_order() {
    let dir = written(
        "line-order",
        "[settings]\nmystery = 1\nfov = 300\nvsync = 3\ntexture_filter = \"fancy\"\n\n[maps.k]\nup = \"q\"\nscale = 1.0\n",
    );
    let w = Store::load(Some(&dir)).warnings;
    let lines: Vec<&str> = w
        .iter()
        .map(|w| w.split(": ").nth(1).unwrap_or(""))
        .collect();
    assert_eq!(
        lines,
        ["line 2", "line 3", "line 4", "line 5", "[maps.k] skipped"],
        "{w:?}"
    );
}

/// A name from the file in a warning is escaped: it reaches the terminal as text.
#[test]
fn an_unknown_setting_named_with_control_bytes_is_escaped() {
    let dir = written("escape", "[settings]\n\"\\u001b[2J\" = 1\n");
    let w = Store::load(Some(&dir)).warnings.join("\n");
    assert!(w.contains("has no setting '\\x1b[2J'"), "{w}");
    assert!(!w.chars().any(char::is_control), "{w:?}");
}

/// The settings fuzz (20 times the CI run): an error at the very end of the file (a
/// multi-line string never closed) was blamed on a line after the last. It names the last.
#[test]
fn an_error_at_the_end_of_the_file_names_its_last_line() {
    let dir = written("end", "[settings]\nfov = 90.0\nname = \"\"\"never closed\n");
    let w = Store::load(Some(&dir)).warnings.join("\n");
    assert!(w.contains("settings.toml: line 3: "), "{w}");
}

/// The built-in map's views were kept under `file = ".../built-in map"`, a file
/// in the working folder that does not exist. Its table says what it is, and an old
/// table is named right when the file is next saved.
#[test]
fn the_built_in_map_is_named_as_such_not_as_a_file() {
    let dir = scratch("built-in");
    let key = ContentKey::built_in();
    // The key the window keeps the built-in map's views under.
    assert_eq!(key, ContentKey::of_bytes(b"walkthrough built-in map"));
    let view = SavedView {
        position: Vec3::new(1.0, 1.7, -2.0),
        yaw_deg: 30.0,
        pitch_deg: 0.0,
    };
    let mut c = Store::load(Some(&dir)).store;
    // What the window passes for the built-in map's file.
    c.keep_view(&key, Path::new("built-in map"), 1, view)
        .unwrap();
    let map_file = dir.join("room.obj");
    let room = ContentKey::of_bytes(b"v 0 0 0\n");
    c.keep_view(&room, &map_file, 2, view).unwrap();
    let table = |text: &str, key: &ContentKey| -> toml::Table {
        let file: toml::Table = toml::from_str(text).unwrap();
        file["maps"][&key.0].as_table().unwrap().clone()
    };
    let text = std::fs::read_to_string(dir.join(STORE_FILE)).unwrap();
    let built_in = table(&text, &key);
    assert_eq!(built_in.get("built_in"), Some(&toml::Value::Boolean(true)));
    assert_eq!(built_in.get("file"), None, "{text}");
    assert!(!text.contains("built-in map\""), "{text}");
    // A map file's table still says where the file was, and is no built-in map.
    let room_table = table(&text, &room);
    assert_eq!(
        room_table.get("file").and_then(|f| f.as_str()),
        Some(map_file.to_str().unwrap())
    );
    assert_eq!(room_table.get("built_in"), None);
    assert_eq!(Store::load(Some(&dir)).store.view(&key, 1), Some(view));

    // A table an earlier version wrote is read, and named right at the next save.
    let old = format!(
        "[maps.{}]\nfile = \"/home/u/built-in map\"\nviews = {{ 1 = [1.0, 1.7, -2.0, 30.0, 0.0] }}\n",
        key.0
    );
    let dir = written("built-in-old", &old);
    let loaded = Store::load(Some(&dir));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let mut c = loaded.store;
    assert_eq!(c.view(&key, 1), Some(view));
    c.keep_view(&room, &map_file, 2, view).unwrap();
    let text = std::fs::read_to_string(dir.join(STORE_FILE)).unwrap();
    assert!(!text.contains("/home/u/built-in map"), "{text}");
    assert_eq!(
        table(&text, &key).get("built_in"),
        Some(&toml::Value::Boolean(true))
    );
}

#[test]
fn lighting_reads_its_words_and_the_true_or_false_of_older_files() {
    for (value, want) in [
        ("true", LightingMode::On),
        ("false", LightingMode::Off),
        ("\"on\"", LightingMode::On),
        ("\"off\"", LightingMode::Off),
        ("\"auto\"", LightingMode::Auto),
    ] {
        let dir = written(
            &format!("lighting-{}", value.trim_matches('"')),
            &format!("[settings]\nfov = 75\nlighting = {value}\n"),
        );
        let loaded = Store::load(Some(&dir));
        assert!(loaded.warnings.is_empty(), "{value}: {:?}", loaded.warnings);
        assert_eq!(loaded.store.settings().lighting, want, "{value}");
        assert_eq!(loaded.store.settings().fov, 75.0);
    }
    // An unknown word costs that setting, not the file.
    let dir = written("lighting-dim", "[settings]\nfov = 75\nlighting = \"dim\"\n");
    let loaded = Store::load(Some(&dir));
    let w = loaded.warnings.join("\n");
    assert!(w.contains("line 3: lighting"), "{w}");
    assert_eq!(loaded.store.settings().lighting, LightingMode::Auto);
    assert_eq!(loaded.store.settings().fov, 75.0, "the rest is kept");
}

#[test]
fn lighting_is_written_as_its_word_and_read_back() {
    let dir = scratch("lighting-saved");
    for mode in [LightingMode::Off, LightingMode::Auto, LightingMode::On] {
        let mut store = Store::load(Some(&dir)).store;
        let settings = Preferences {
            lighting: mode,
            ..Preferences::default()
        };
        store.set_settings(&settings).unwrap();
        let text = std::fs::read_to_string(dir.join(STORE_FILE)).unwrap();
        assert!(text.contains(&format!("lighting = \"{mode}\"")), "{text}");
        assert_eq!(Store::load(Some(&dir)).store.settings().lighting, mode);
    }
}
