//! The HUD's tests: its fit to the window, its lines, the notices and the offer's place.

use super::*;

#[test]
fn the_render_scale_shows_after_the_frame_rate_only_under_1() {
    assert_eq!(ScaleNote(1.0).to_string(), "");
    assert_eq!(ScaleNote(0.5).to_string(), " (scale 0.50)");
    assert_eq!(ScaleNote(0.75).to_string(), " (scale 0.75)");
}

#[test]
fn units_label_names_metres_or_the_scale_in_a_readable_unit() {
    assert_eq!(units_label(1.0), "m");
    assert_eq!(units_label(0.005_466_472), "units (1 unit = 5.47 mm)");
    assert_eq!(units_label(0.0254), "units (1 unit = 2.54 cm)");
    assert_eq!(units_label(0.3048), "units (1 unit = 30.5 cm)");
    assert_eq!(units_label(2.0), "units (1 unit = 2.00 m)");
}

#[test]
fn the_hud_covers_at_most_40_percent_of_a_small_window_in_readable_text() {
    let full = hud_fit(1280.0);
    assert_eq!(
        full,
        HudFit {
            width: HUD_WIDTH,
            points: HUD_POINTS
        }
    );
    assert_eq!(hud_right(1280.0), 8.0 + 440.0 + 16.0);
    for window in [640.0, 800.0, 1024.0] {
        let fit = hud_fit(window);
        assert!(
            hud_right(window) <= 0.4 * window + 1e-3,
            "{window}: {fit:?}"
        );
        assert!(fit.points >= HUD_MIN_POINTS, "{window}: {fit:?}");
    }
    assert_eq!(hud_fit(640.0).points, HUD_MIN_POINTS);
    // Between, the text shrinks with the box.
    let mid = hud_fit(1024.0);
    assert!(
        mid.points > HUD_MIN_POINTS && mid.points < HUD_POINTS,
        "{mid:?}"
    );
}

/// Walking head-on into a step in slide mode flashed SLIDING
/// at 0 m/s. Held by the wall, the flash says STOPPED in either mode.
#[test]
fn a_head_on_hit_in_slide_mode_flashes_stopped() {
    assert_eq!(flash_word(Response::Slide, 0.0, true), "SLIDING");
    assert_eq!(flash_word(Response::Slide, 0.0, false), "STOPPED");
    assert_eq!(flash_word(Response::Stop, 0.0, false), "STOPPED");
    assert_eq!(flash_word(Response::Slide, HIT_FLASH_SECS, true), "");
}

/// `a_scene_s_hud_offers_no_correction_its_keys_refuse`: a scene's HUD said "(U, [ ],
/// Shift+[ ] correct it)", and each key then refused.
#[test]
fn a_scene_s_hud_offers_no_correction_its_keys_refuse() {
    let frame = MapFrame {
        scale: 0.0254,
        ..MapFrame::default()
    };
    let map = Overlay::new("m".into(), frame, false);
    assert!(
        map.frame_line.starts_with(&frame.flags()) && map.frame_line.contains("correct it"),
        "{}",
        map.frame_line
    );
    let scene = Overlay::new("s".into(), frame, true);
    assert!(
        !scene.frame_line.contains("correct") && scene.frame_line.contains("scene"),
        "{}",
        scene.frame_line
    );
}

/// `the_frame_question_is_not_covered_by_the_loaded_notice`: a map's warnings made
/// the notice that it loaded several lines tall, and it covered the survey's
/// question's last line ("(remembered for the file)", on five real levels). Drawn headless for a few frames (a message is sized on its first),
/// the two never overlap, in a big window and a small one.
#[test]
fn the_frame_question_is_not_covered_by_the_loaded_notice() {
    let offer = "not sure of this map's frame: it reads as z up at 0.0254 m a unit \
                 (Enter keeps it, U and [ ] correct it; remembered for the file)";
    let warnings = "loaded e1m1.obj (12,345 tris); warnings: 160 faces lose their area \
                    read as 32-bit floats; 3 triangles lie far from the rest; \
                    the map is open: who walks out falls off the map";
    for size in [egui::vec2(1280.0, 720.0), egui::vec2(640.0, 400.0)] {
        let ctx = egui::Context::default();
        let mut o = Overlay::new("m".into(), MapFrame::default(), false);
        o.notice = Some((warnings.into(), Instant::now()));
        let state = HudState {
            response: Response::Slide,
            mode: Mode::Walk,
            method: InsideMethod::default(),
            position: [0.0; 3],
            speed: 3.0,
            captured: false,
            settings_open: false,
            stance: "on ground",
            fallen: false,
            loading: None,
            scripted: false,
            replay_speed: 1,
            recording: None,
            detached: false,
            debug: None,
            render_scale: 1.0,
            offer: Some(offer),
            marker: true,
        };
        for _ in 0..4 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
                ..Default::default()
            };
            let _ = ctx.run_ui(input, |ui| draw(ui, &mut o, &state));
        }
        let rect = |id: &str| {
            ctx.memory(|m| m.area_rect(egui::Id::unique(id)))
                .expect("laid out")
        };
        let (question, notice) = (rect("offer"), rect("notice"));
        assert!(
            question.bottom() <= notice.top(),
            "{size:?}: the question {question:?} runs into the notice {notice:?}"
        );
    }
}

/// At 640x360 "REC (F5 stops and saves)" after the modes, and
/// a scene's line, wrapped. Each of the HUD's lines, recording in a scene or in a
/// map (a frame of inches), fits the box's width at 640 points, measured in its font.
#[test]
fn no_hud_line_wraps_in_a_640_point_window_recording_in_a_scene_or_a_map() {
    let fit = hud_fit(640.0);
    let ctx = egui::Context::default();
    // The fonts are there once a frame has run.
    let _ = ctx.run_ui(egui::RawInput::default(), |_| {});
    let inches = MapFrame {
        scale: 0.0254,
        up: walkthrough_core::map::UpAxis::Z,
    };
    for (frame, scene) in [(MapFrame::default(), true), (inches, false)] {
        let o = Overlay::new("scene.toml (204 tris)".into(), frame, scene);
        let state = HudState {
            response: Response::Slide,
            mode: Mode::Walk,
            method: InsideMethod::MollerTrumbore,
            position: [-10.25, 1.6, 6.03],
            speed: 3.0,
            captured: true,
            settings_open: false,
            stance: "on ground",
            fallen: false,
            loading: None,
            scripted: false,
            replay_speed: 1,
            recording: Some("(F5 stops and saves)"),
            detached: false,
            debug: None,
            render_scale: 1.0,
            offer: None,
            marker: false,
        };
        let mut text = String::new();
        write_status(&mut text, &o, &state);
        assert!(text.contains("REC (F5 stops and saves)"), "{text}");
        for line in text.lines() {
            let width = ctx.fonts_mut(|f| {
                f.layout_no_wrap(
                    line.into(),
                    egui::FontId::monospace(fit.points),
                    Color32::WHITE,
                )
                .size()
                .x
            });
            assert!(width <= fit.width, "{line:?}: {width} > {}", fit.width);
        }
    }
}

#[test]
fn f1_shows_the_help_turns_its_pages_then_hides_it() {
    let mut o = Overlay::new("m".into(), MapFrame::default(), false);
    o.press_help();
    assert!(o.help);
    // Drawn in a small window: two pages.
    o.help_pages = 2;
    o.press_help();
    assert!(o.help && o.help_page == 1);
    o.press_help();
    assert!(!o.help);
    // In a big window, one page: the second press hides it.
    o.press_help();
    o.help_pages = 1;
    assert_eq!(o.help_page, 0);
    o.press_help();
    assert!(!o.help);
}

/// `a_damaged_cache_warning_shown_only_in_the_terminal`: a map's warnings reach the
/// window's notice that it loaded, on screen (the terminal printed them as it loaded).
#[test]
fn a_map_s_warnings_are_in_the_notice_that_it_loaded() {
    assert_eq!(warnings_note(&[]), None);
    let damaged = "the cache of built maps: its header is damaged; it was built again";
    let mut o = Overlay::new("m".into(), MapFrame::default(), false);
    o.notify_with("loaded m.obj".into(), warnings_note(&[damaged.into()]));
    assert_eq!(
        o.notice(),
        Some(format!("loaded m.obj; warning: {damaged}").as_str())
    );
    let two = [damaged.to_string(), "2 polygons were fanned".into()];
    assert_eq!(
        warnings_note(&two).unwrap(),
        format!("2 warnings (all in the terminal), the first: {damaged}")
    );
    // A long one is cut, on a character's boundary.
    let long = "é".repeat(WARNING_SHOWN + 10);
    let note = warnings_note(&[long]).unwrap();
    assert_eq!(note, format!("warning: {}...", "é".repeat(WARNING_SHOWN)));
}

#[test]
fn a_new_overlay_flashes_no_hit() {
    let o = Overlay::new("m".into(), MapFrame::default(), false);
    assert!(o.since_hit >= HIT_FLASH_SECS);
}
