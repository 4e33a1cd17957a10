use super::*;

#[test]
fn a_recording_s_header_names_its_map_and_frame() {
    let s = read_script(
        "r.txt",
        "# walkthrough recording\n# map: maps/a.obj\n# frame: --up z --scale 0.01\nwait 1\n",
    )
    .unwrap();
    let on = s.recorded_on.expect("a header");
    assert_eq!((on.line, on.map.as_str()), (2, "maps/a.obj"));
    assert_eq!(on.frame.as_deref(), Some("--up z --scale 0.01"));
    assert_eq!(
        read_script("w.txt", "# a walk\nwait 1\n")
            .unwrap()
            .recorded_on,
        None
    );
}
use crate::player::{ControllerSettings, Pose};

/// Verbs were read in any case, but `keys Forward 1` and
/// `run On` were refused.
#[test]
fn key_names_and_on_off_are_read_in_any_case_as_verbs_are() {
    let c = parse_script(
        "s.txt",
        "KEYS Forward+RIGHT 1\nkeys NONE 0.5\nRun On\ncrouch OFF\n",
    )
    .unwrap();
    let Command::Hold(intent, secs) = c[0] else {
        panic!("{:?}", c[0]);
    };
    assert_eq!((intent.forward, intent.strafe, secs), (1.0, 1.0, 1.0));
    assert!(matches!(c[1], Command::Hold(i, s) if i == MoveIntent::default() && s == 0.5));
    assert!(matches!(c[2], Command::Run(true)));
    assert!(matches!(c[3], Command::Crouch(false)));
    // Seconds out of range are refused alike by a hold, a wait and `keys`.
    for line in ["forward 1e9", "wait -1", "keys left 1e9"] {
        let e = parse_script("s.txt", line).unwrap_err();
        assert!(
            e.to_string().contains("seconds is out of range"),
            "{line}: {e}"
        );
    }
}

#[test]
fn keys_start_and_speed_parse_and_bad_ones_are_refused() {
    let c = parse_script(
        "r.txt",
        "start 1.5,-2,3e2 -90 10\nkeys forward+left 0.5\nkeys none 1\nspeed 4.25\nrun-factor 1.5\n",
    )
    .unwrap();
    assert_eq!(
        c[0],
        Command::Start(Pose::new(glam::Vec3::new(1.5, -2.0, 300.0), -90.0, 10.0))
    );
    let Command::Hold(i, s) = c[1] else {
        panic!("{c:?}")
    };
    assert_eq!((i.forward, i.strafe, i.vertical, s), (1.0, -1.0, 0.0, 0.5));
    assert_eq!(c[2], Command::Hold(MoveIntent::default(), 1.0));
    assert_eq!(c[3], Command::Speed(4.25));
    assert_eq!(c[4], Command::RunFactor(1.5));
    for (bad, why) in [
        ("keys forward+jump 1", "'jump' is not a key"),
        ("keys forward", "'keys' needs"),
        ("start 1,2 0 0", "is not X,Y,Z"),
        ("start 1,2,3 0 95", "out of range"),
        ("start 1,2,nan 0 0", "not a number"),
        ("speed 0", "must be positive"),
        ("run-factor 0.5", "out of range (1 to 10)"),
    ] {
        let e = parse_script("r.txt", bad).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.reason.contains(why), "{bad}: {}", e.reason);
    }
}

#[test]
fn view_lines_become_effects_at_their_step_and_leave_the_walk_alone() {
    let commands =
        parse_script("v.txt", "forward 0.05\nview third\nwait 0.05\nview First\n").unwrap();
    assert_eq!(commands[1], Command::View(ViewKind::Third));
    let mut p = ScriptPlayer::new(commands, 0.025);
    let mut c = Controller::new(Pose::default(), ControllerSettings::default());
    let mut seen = Vec::new();
    while p.next_step(&mut c).is_some() {
        seen.push(p.take_effects());
    }
    // Two steps of forward, then the effect comes with the first step of the wait.
    assert_eq!(seen[0], vec![]);
    assert_eq!(seen[2], vec![ScriptEffect::View(ViewKind::Third)]);
    assert_eq!(p.take_effects(), vec![ScriptEffect::View(ViewKind::First)]);
    let e = parse_script("v.txt", "view second\n").unwrap_err();
    assert!(e.reason.contains("unknown view 'second'"), "{}", e.reason);
}

/// A script that began with a UTF-8 byte order mark was refused
/// ("unknown command"), where an OBJ file with one loads.
#[test]
fn a_script_with_a_byte_order_mark_is_read() {
    let s = read_script("bom.txt", "\u{feff}forward 1\nturn 90\n").unwrap();
    assert_eq!(s.commands.len(), 2);
    assert_eq!(s.lines, vec![1, 2]);
    // Only at the start: one inside a line is what it is, and quoted escaped.
    let e = parse_script("bom.txt", "forward 1\n\u{feff}turn 90\n").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(
        e.reason.starts_with("unknown command '\\u{feff}turn'"),
        "{}",
        e.reason
    );
}

/// A script whose lines end in a carriage return alone was read
/// as one line ("unexpected 'turn' after 'forward'"); OBJ files with them load. Read as
/// lines, numbered as the file's.
#[test]
fn a_script_with_carriage_return_line_endings_is_read() {
    let s = read_script("mac.txt", "forward 1\rturn 90\r\rwait 0.5\r").unwrap();
    assert_eq!(
        s.commands,
        parse_script("unix.txt", "forward 1\nturn 90\nwait 0.5\n").unwrap()
    );
    assert_eq!(s.lines, vec![1, 2, 4]);
    let e = parse_script("mac.txt", "forward 1\rturn x\r").unwrap_err();
    assert_eq!(e.line, 2);
}

/// `start 1e30,1e30,1e30 0 0` froze the walker for the run with
/// exit 0. A start farther out than any map may reach is refused at its line; the
/// `start` lines of a script are kept with their lines (to be checked against the map).
#[test]
fn a_start_line_too_far_out_is_refused_at_its_line() {
    let e = parse_script("far.txt", "wait 1\nstart 1e30,1e30,1e30 0 0\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "far.txt:2: the start 1e30,1e30,1e30 is 1e30 m from the origin, beyond the 1e6 m any map may reach: nothing can stand there"
    );
    let s = read_script(
        "ok.txt",
        "# rec\nstart 70,1.6,7 0 0\nwait 1\nstart 1,2,3 90 0\n",
    )
    .unwrap();
    let starts: Vec<_> = s.starts().map(|l| (l.line, l.pose.position.x)).collect();
    assert_eq!(starts, vec![(2, 70.0), (4, 1.0)]);
}

/// An unknown verb was quoted in lower case ('turnx' for
/// `TurnX`), not as typed.
#[test]
fn an_unknown_command_is_quoted_as_typed() {
    let e = parse_script("t.txt", "Forward 1\nTurnX 3\n").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("t.txt:2: unknown command 'TurnX'"),
        "{e}"
    );
    let e = parse_script("t.txt", "WAIT\n").unwrap_err();
    assert!(e.to_string().contains("'WAIT' needs seconds"), "{e}");
}

/// A script line of terminal sequences is never quoted raw in an error (it would clear
/// the screen or set the title).
#[test]
fn a_script_line_of_terminal_sequences_is_quoted_escaped() {
    let e = parse_script("t.txt", "\u{1b}]0;owned\u{7}\u{1b}[2J 1\n").unwrap_err();
    let m = e.to_string();
    assert!(
        m.starts_with("t.txt:1: unknown command '\\x1b]0;owned\\x07\\x1b[2J'"),
        "{m}"
    );
    assert!(!m.chars().any(char::is_control), "{m:?}");
    let e = parse_script("t.txt", "wait 1\u{1b}[2J\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("'1\\x1b[2J' is not a number"), "{e}");
}

#[test]
fn every_command_parses() {
    let s = "# a comment\nforward 1\nback 0.5\nleft 2 # trailing\nright 1\nup 1\ndown 1\nturn 90\nlook -10\nwait 0.25\nresponse stop\nmode fly\nmethod angle-sum\nrun on\n\n";
    let c = parse_script("s.txt", s).unwrap();
    assert_eq!(c.len(), 13);
    assert_eq!(c[6], Command::Turn(90.0, 0.0));
    assert_eq!(c[9], Command::Response(Response::Stop));
    assert_eq!(c[11], Command::Method(InsideMethod::AngleSum));
}

#[test]
fn bad_lines_are_refused_with_their_number() {
    let cases = [
        ("forward 1\nleap 2\n", "s.txt:2: unknown command 'leap'"),
        ("jump 2\n", "s.txt:1: unexpected '2' after 'jump'"),
        ("crouch maybe\n", "s.txt:1: 'maybe' is not on or off"),
        ("forward\n", "s.txt:1: 'forward' needs seconds"),
        (
            "wait abc\n",
            "s.txt:1: 'abc' is not a number (wait needs seconds)",
        ),
        ("\n\nforward -1\n", "s.txt:3: -1 seconds is out of range"),
        ("turn nan\n", "s.txt:1: 'nan' is not a number"),
        ("turn inf\n", "s.txt:1: 'inf' is not a number"),
        (
            "turn 1e300\n",
            "s.txt:1: '1e300' is too large (numbers here go to about 3.4e38) (turn needs",
        ),
        ("response bounce\n", "s.txt:1: unknown response 'bounce'"),
        ("forward 1 2\n", "s.txt:1: unexpected '2' after 'forward'"),
    ];
    for (text, want) in cases {
        let e = parse_script("s.txt", text).unwrap_err().to_string();
        assert!(e.starts_with(want), "{e:?} should start with {want:?}");
    }
}

#[test]
fn player_holds_for_the_right_number_of_steps_and_applies_instants() {
    let cmds = parse_script("s", "turn 90\nforward 0.5\nresponse stop\nwait 0.25\n").unwrap();
    let mut p = ScriptPlayer::new(cmds, 0.125);
    let mut c = Controller::new(Pose::default(), ControllerSettings::default());
    let mut intents = vec![];
    while let Some(i) = p.next_step(&mut c) {
        intents.push(i);
    }
    assert_eq!(intents.len(), 6);
    assert!(intents[..4].iter().all(|i| i.forward == 1.0));
    assert!(intents[4..].iter().all(|i| i.is_idle()));
    assert_eq!(c.pose.yaw_deg, 90.0);
    assert_eq!(c.settings.response, Response::Stop);
    assert!(p.finished());
    let cmds = parse_script("s", "turn 90\nforward 0.5\nresponse stop\nwait 0.25\n").unwrap();
    assert_eq!(total_steps(&cmds, 0.125), 6);
}

#[test]
fn an_absurd_script_counts_a_huge_number_of_steps_without_wrapping() {
    let line = "forward 3600\n".repeat(80_000);
    let cmds = parse_script("s", &line).unwrap();
    assert_eq!(total_steps(&cmds, 0.125), 80_000 * 28_800);
    assert_eq!(total_steps(&cmds[..1], 1e-45), u64::MAX);
}
