use super::*;

/// `key_forward = "F12"` was refused for `KeyW`, its default,
/// while `key_back = "KeyW"`: both moves on W, and nothing said.
#[test]
fn two_moves_on_one_key_in_the_file_are_parted_with_a_line() {
    let p = Preferences {
        key_forward: "F12".into(),
        key_back: "KeyW".into(),
        ..Preferences::default()
    };
    let Checked {
        settings: c,
        out_of_range: out,
    } = p.checked();
    // The key the file asked for stays; the refused one's stand-in moves.
    assert_eq!(
        (c.key_forward.as_str(), c.key_back.as_str()),
        ("KeyS", "KeyW")
    );
    let line = out.last().expect("a line for the two");
    assert_eq!(line.key, "key_forward");
    assert_eq!(
        line.message(),
        "key_forward (its default KeyW) is key_back's key too: KeyS is used"
    );
    // Neither refused: the later moves, to its default where free.
    let p = Preferences {
        key_left: "KeyD".into(),
        key_right: "KeyA".into(),
        key_jump: "KeyD".into(),
        ..Preferences::default()
    };
    let Checked {
        settings: c,
        out_of_range: out,
    } = p.checked();
    assert_eq!(c.key_jump, "Space", "jump back on its default");
    assert!(out.iter().any(|o| o.key == "key_jump"), "{out:?}");
    assert!(!out.iter().any(|o| o.key == "key_right"), "{out:?}");
    // Its default taken too: to a default nobody has.
    let p = Preferences {
        key_forward: "KeyS".into(),
        key_back: "KeyS".into(),
        ..Preferences::default()
    };
    let Checked {
        settings: c,
        out_of_range: out,
    } = p.checked();
    assert_eq!(
        (c.key_forward.as_str(), c.key_back.as_str()),
        ("KeyS", "KeyW")
    );
    assert_eq!(
        out[0].message(),
        "key_back = KeyS is key_forward's key too: KeyW is used"
    );
}

#[test]
fn defaults_are_within_their_ranges() {
    let Checked {
        settings: checked,
        out_of_range: out,
    } = Preferences::default().checked();
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(checked, Preferences::default());
}

#[test]
fn out_of_range_values_come_back_in_range_each_with_a_line() {
    let p = Preferences {
        mouse_sensitivity: f32::NAN,
        fov: 300.0,
        walking_speed: -1.0,
        run_factor: 1.5,
        window_size: [10, 720],
        render_scale: 0.1,
        boom_length: 10.0,
        ..Preferences::default()
    };
    let Checked {
        settings: c,
        out_of_range: out,
    } = p.checked();
    assert_eq!(c.mouse_sensitivity, DEFAULT_SENSITIVITY);
    assert_eq!(c.fov, 110.0);
    assert_eq!(c.walking_speed, 0.1);
    assert_eq!(c.run_factor, 1.5, "in range: kept");
    assert_eq!(c.window_size, [64, 720]);
    assert_eq!(c.render_scale, 0.25);
    assert_eq!(c.boom_length, 6.0);
    let keys: Vec<_> = out.iter().map(|o| o.key).collect();
    assert_eq!(
        keys,
        [
            "mouse_sensitivity",
            "fov",
            "walking_speed",
            "render_scale",
            "boom_length",
            "window_size"
        ]
    );
    assert!(
        out[1]
            .message()
            .contains("fov = 300 is outside 60 to 110: 110 is used")
    );
}

#[test]
fn texture_filters_read_back_from_their_names_and_refuse_others() {
    for f in TextureFilter::ALL {
        assert_eq!(f.name().parse::<TextureFilter>(), Ok(f));
        assert_eq!(f.to_string().to_uppercase().parse::<TextureFilter>(), Ok(f));
    }
    let e = "anisotropic".parse::<TextureFilter>().unwrap_err();
    assert_eq!(
        e,
        "'anisotropic' is no texture filter (one of trilinear, bilinear, nearest)"
    );
    let table = toml::Table::try_from(Preferences {
        texture_filter: TextureFilter::Nearest,
        ..Preferences::default()
    })
    .unwrap();
    assert_eq!(table["texture_filter"].as_str(), Some("nearest"));
}

#[test]
fn a_move_bound_to_no_key_name_gets_its_default_with_a_line() {
    let p = Preferences {
        key_forward: "KeyI".into(),
        key_jump: "Spacebar".into(),
        ..Preferences::default()
    };
    let Checked {
        settings: c,
        out_of_range: out,
    } = p.checked();
    assert_eq!(c.key_forward, "KeyI", "a key name: kept");
    assert_eq!(c.key_jump, "Space");
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].key, "key_jump");
    assert!(
        out[0].message().contains("'Spacebar' is no key name"),
        "{out:?}"
    );
    for (_, name) in Preferences::default().move_keys() {
        assert!(KEY_NAMES.contains(&name.as_str()), "{name}");
    }
    assert_eq!(key_label("KeyW"), "W");
    assert_eq!(key_label("Digit1"), "1");
    assert_eq!(key_label("ShiftLeft"), "ShiftLeft");
}

#[test]
fn the_sun_comes_down_from_its_bearing_at_its_elevation() {
    let p = |sun_elevation, sun_azimuth| Preferences {
        sun_elevation,
        sun_azimuth,
        ..Preferences::default()
    };
    let near = |a: glam::Vec3, b: glam::Vec3| (a - b).length() < 1e-5;
    assert!(near(p(90.0, 0.0).sun_direction(), -glam::Vec3::Y));
    // Low in the east (+X): its light travels west and a little down.
    let d = p(30.0, 90.0).sun_direction();
    assert!(near(d, glam::Vec3::new(-0.866_025, -0.5, 0.0)), "{d}");
    // From the north (-Z) at 45 degrees: towards +Z, down.
    let d = p(45.0, 0.0).sun_direction();
    assert!(near(d, glam::Vec3::new(0.0, -1.0, 1.0).normalize()), "{d}");
    // The default lights from behind the default view (yaw 0 looks to -Z) and to its
    // right: shadows fall ahead and to the left.
    let d = Preferences::default().sun_direction();
    assert!(d.y < -0.7 && d.z < 0.0 && d.x < 0.0, "{d}");
}

#[test]
fn the_keys_are_the_fields() {
    let table = toml::Table::try_from(Preferences::default()).unwrap();
    let mut names: Vec<_> = table.keys().map(String::as_str).collect();
    let mut keys = Preferences::KEYS.to_vec();
    names.sort_unstable();
    keys.sort_unstable();
    assert_eq!(names, keys);
}

#[test]
fn lighting_auto_lights_a_gpu_s_frames_and_not_a_software_renderer_s() {
    assert_eq!(Preferences::default().lighting, LightingMode::Auto);
    for software in [false, true] {
        assert!(LightingMode::On.lit(software));
        assert!(!LightingMode::Off.lit(software));
        assert_eq!(LightingMode::Auto.lit(software), !software);
        let p = Preferences::default();
        assert_eq!(p.sun(software).is_some(), !software);
    }
    assert_eq!("ON".parse::<LightingMode>(), Ok(LightingMode::On));
    assert_eq!("false".parse::<LightingMode>(), Ok(LightingMode::Off));
    assert!("dim".parse::<LightingMode>().is_err());
}
