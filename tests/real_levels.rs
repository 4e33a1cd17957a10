//! The survey judged on real levels: the seven levels of `../shared/levels`, made by seven
//! tools (a Doom editor, Recast's demo, an IFC converter, a BSP viewer, Blender's BSP
//! import, 3ds Max, Blender), each opened without flags, must come out with the true up
//! axis, a scale within its `truth.csv` range and the spawn's eye 1.3 to 1.9 true metres
//! over a floor; and no level may be wrong with confidence "high". The table is printed
//! (`cargo test --release --test real_levels -- --nocapture`) and copied into the README.

mod common;

use walkthrough_core::map::UpAxis;
use walkthrough_core::session::{OpenOptions, Session};
use walkthrough_core::survey::Confidence;

/// One row of `truth.csv`.
#[derive(Clone)]
struct Truth {
    file: String,
    up: UpAxis,
    metres: f32,
    min_ok: f32,
    max_ok: f32,
}

/// The files the truth is written in: the first seven levels, and the six added later.
const TRUTH_FILES: [&str; 2] = ["truth.csv", "truth-added.csv"];

/// Every row of every file of [`TRUTH_FILES`] in `dir`.
fn truths(dir: &std::path::Path) -> Vec<Truth> {
    TRUTH_FILES
        .iter()
        .flat_map(|name| {
            let text =
                std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            text.lines()
                .skip(1)
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .map(|l| {
            let f: Vec<&str> = l.splitn(6, ',').collect();
            Truth {
                file: f[0].to_string(),
                up: f[1].parse().expect("an up axis"),
                metres: f[2].parse().expect("metres"),
                min_ok: f[3].parse().expect("min_ok"),
                max_ok: f[4].parse().expect("max_ok"),
            }
        })
        .collect()
}

/// What the survey made of one real level.
struct Outcome {
    file: String,
    up: UpAxis,
    up_right: bool,
    scale: f32,
    scale_right: bool,
    /// The spawn's eye over the floor under it, true metres.
    eye: Option<f32>,
    /// The survey's confidence in the up axis and in the scale.
    confidence: (Confidence, Confidence),
    reasons: String,
}

impl Outcome {
    fn eye_right(&self) -> bool {
        self.eye.is_some_and(|e| (1.3..=1.9).contains(&e))
    }
    fn right(&self) -> bool {
        self.up_right && self.scale_right && self.eye_right()
    }
    /// A half wrong without the window asking about it (its confidence fair or high).
    fn wrong_unasked(&self) -> bool {
        (!self.up_right && self.confidence.0 != Confidence::Low)
            || (!(self.scale_right && self.eye_right()) && self.confidence.1 != Confidence::Low)
    }
    /// A half wrong with confidence "high".
    fn sure_and_wrong(&self) -> bool {
        (!self.up_right && self.confidence.0 == Confidence::High)
            || (!(self.scale_right && self.eye_right()) && self.confidence.1 == Confidence::High)
    }
}

fn open(dir: &std::path::Path, t: &Truth) -> Outcome {
    let s = Session::open(Some(&dir.join(&t.file)), &OpenOptions::default())
        .unwrap_or_else(|e| panic!("{} opens: {e}", t.file));
    let scale = s.map.frame.scale;
    let ratio = scale / t.metres;
    let eye = common::spawn_eye_over_floor(&s, ratio);
    Outcome {
        file: t.file.clone(),
        up: s.map.frame.up,
        up_right: s.map.frame.up == t.up,
        scale,
        scale_right: (t.min_ok..=t.max_ok).contains(&scale),
        eye,
        confidence: (
            s.up_guess.expect("the up axis is inferred").confidence,
            s.scale_guess.expect("the scale is inferred").confidence,
        ),
        reasons: format!("{}; {}", s.up_reason, s.scale_reason),
    }
}

#[test]
fn real_levels_open_upright_at_their_scale_with_the_eye_over_a_floor() {
    let Some(dir) = common::shared("levels") else {
        return;
    };
    let truths = truths(&dir);
    assert!(truths.len() >= 7, "{} levels in truth.csv", truths.len());
    let outcomes: Vec<Outcome> = truths.iter().map(|t| open(&dir, t)).collect();
    println!(
        "| level | up (confidence) | metres a unit (confidence) | eye over the floor | right |"
    );
    println!("|---|---|---|---|---|");
    for o in &outcomes {
        println!(
            "| {} | {} ({}) | {} ({}) | {} | {} |",
            o.file,
            o.up,
            o.confidence.0,
            o.scale,
            o.confidence.1,
            o.eye.map_or("no floor".into(), |e| format!("{e:.2} m")),
            if o.right() { "yes" } else { "**no**" }
        );
    }
    for o in outcomes.iter().filter(|o| !o.right()) {
        println!("miss: {}: {}", o.file, o.reasons);
    }
    let wrong = files_where(&outcomes, |o| !o.right());
    let sure_and_wrong = files_where(&outcomes, Outcome::sure_and_wrong);
    assert!(
        sure_and_wrong.is_empty(),
        "wrong with confidence high: {sure_and_wrong:?}"
    );
    assert!(wrong.is_empty(), "opened wrong: {wrong:?}");
}

/// A turn of a level's file: proper rotations (the handedness kept, as an exporter's
/// axis conversion keeps it).
#[derive(Clone, Copy)]
enum Turn {
    /// Y-up to Z-up and Z-up to Y-up: what the other kind of exporter would have written.
    OtherConvention,
    /// X negated: a mirrored export, its triangles wound the other way round.
    Mirrored,
    /// A quarter turn that puts the level's up along +X: on its side.
    OnItsSide,
    /// Not turned, its header's comments dropped: what the geometry alone says.
    Unsaid,
}

impl Turn {
    fn point(self, up: UpAxis, [x, y, z]: [f32; 3]) -> [f32; 3] {
        match (self, up) {
            (Turn::OtherConvention, UpAxis::Z) => [x, z, -y],
            (Turn::OtherConvention, _) => [x, -z, y],
            (Turn::Mirrored, _) => [-x, y, z],
            (Turn::OnItsSide, UpAxis::Z) => [z, y, -x],
            (Turn::OnItsSide, _) => [y, -x, z],
            (Turn::Unsaid, _) => [x, y, z],
        }
    }

    fn up(self, up: UpAxis) -> UpAxis {
        match (self, up) {
            (Turn::OtherConvention, UpAxis::Z) => UpAxis::Y,
            (Turn::OtherConvention, _) => UpAxis::Z,
            (Turn::Mirrored, up) => up,
            (Turn::OnItsSide, _) => UpAxis::X,
            (Turn::Unsaid, up) => up,
        }
    }
}

/// Write level `t` of `dir` turned by `turn` into `out` (its positions and normals
/// turned, every other line as it was, its material libraries beside it) and return
/// its truth there.
fn write_turned(dir: &std::path::Path, t: &Truth, turn: Turn, out: &std::path::Path) -> Truth {
    let src = dir.join(&t.file);
    let text = std::fs::read_to_string(&src).expect("the level reads");
    let mut turned = String::with_capacity(text.len() + text.len() / 8);
    for line in text.lines() {
        // Turned, the file is no longer what the tool its header names wrote (another
        // exporter writes a header of its own): the header goes. Mirrored, it keeps its
        // axes and units, and its header.
        if line.trim_start().starts_with('#') && !matches!(turn, Turn::Mirrored) {
            continue;
        }
        let mut words = line.split_whitespace();
        let tag = words.next();
        if let Some(tag @ ("v" | "vn")) = tag {
            let f: Vec<f32> = words.map(|w| w.parse().expect("a number")).collect();
            let [x, y, z] = turn.point(t.up, [f[0], f[1], f[2]]);
            turned.push_str(&format!("{tag} {x} {y} {z}"));
            for rest in &f[3..] {
                turned.push_str(&format!(" {rest}"));
            }
        } else {
            turned.push_str(line);
        }
        turned.push('\n');
    }
    let file = std::path::Path::new(&t.file);
    let folder = out.join(file.parent().expect("a level's folder"));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(out.join(file), turned).unwrap();
    for entry in std::fs::read_dir(src.parent().unwrap()).unwrap() {
        let path = entry.unwrap().path();
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("mtl"))
        {
            std::fs::copy(&path, folder.join(path.file_name().unwrap())).unwrap();
        }
    }
    Truth {
        up: turn.up(t.up),
        ..t.clone()
    }
}

/// Every level of `dir` turned by `turn`, written into a folder named for `name` and
/// opened: what the survey made of each (the folder removed), its findings printed.
fn open_turned(dir: &std::path::Path, turn: Turn, name: &str) -> Vec<Outcome> {
    let out = std::env::temp_dir().join(format!("walkthrough-{name}-{}", std::process::id()));
    let outcomes: Vec<Outcome> = truths(dir)
        .iter()
        .map(|t| open(&out, &write_turned(dir, t, turn, &out)))
        .collect();
    let _ = std::fs::remove_dir_all(&out);
    for o in &outcomes {
        println!("{}: {} ({:?}): {}", o.file, o.up, o.confidence, o.reasons);
    }
    outcomes
}

/// The files of the outcomes `bad` picks.
fn files_where(outcomes: &[Outcome], bad: impl Fn(&Outcome) -> bool) -> Vec<&str> {
    outcomes
        .iter()
        .filter(|o| bad(o))
        .map(|o| o.file.as_str())
        .collect()
}

/// Each real level written as the other kind of exporter would have written it (a Y-up
/// level Z-up, a Z-up one Y-up) opens as right as the original: the survey's cues read
/// the level, not the file's convention. (At first four of the seven read Y-up when
/// written Z-up, three of them with the scale "high": the cues that real levels give, many
/// small floors at many heights, spoke too softly against the head start of OBJ's
/// convention.)
///
/// Turned, a level loses its header (see [`write_turned`]): one that only its header
/// reads right (Cube 2's player size is known by the tool's name alone) is held to what
/// its geometry says without it, and is never wrong with confidence high; one whose
/// geometry is split between two axes may read wrong where the window asks about it.
#[test]
fn real_levels_written_in_the_other_convention_open_right() {
    let Some(dir) = common::shared("levels") else {
        return;
    };
    let unsaid = open_turned(&dir, Turn::Unsaid, "unsaid");
    let outcomes = open_turned(&dir, Turn::OtherConvention, "turned");
    let paired: Vec<Outcome> = outcomes
        .into_iter()
        .zip(&unsaid)
        .filter(|(o, u)| o.sure_and_wrong() || (o.wrong_unasked() && u.right()))
        .map(|(o, _)| o)
        .collect();
    let wrong = files_where(&paired, |_| true);
    assert!(
        wrong.is_empty(),
        "opened wrong in the other convention: {wrong:?}"
    );
}

/// Each real level mirrored (an export through a negative scale: every triangle wound the
/// other way round) opens as right as the original: no cue may read which way a triangle
/// is wound. (A cue of which way the surface faces turned four of the seven upside down,
/// one with confidence high; it was dropped.)
#[test]
fn real_levels_mirrored_open_right() {
    let Some(dir) = common::shared("levels") else {
        return;
    };
    let outcomes = open_turned(&dir, Turn::Mirrored, "mirrored");
    let wrong = files_where(&outcomes, |o| !o.right() || o.sure_and_wrong());
    assert!(wrong.is_empty(), "opened wrong mirrored: {wrong:?}");
}

/// A real level turned on its side (its up along X, which the survey weighs last: the
/// window's U is there for it) may be read wrong, but never with confidence "high": the
/// scale is read along the up axis, so while that is a guess the scale is at most fair.
/// (Doom's E1M1 read its walls as floors and said its scale, inches, with confidence
/// high.)
#[test]
fn real_levels_on_their_side_are_never_wrong_with_confidence_high() {
    let Some(dir) = common::shared("levels") else {
        return;
    };
    let outcomes = open_turned(&dir, Turn::OnItsSide, "side");
    let sure = files_where(&outcomes, Outcome::sure_and_wrong);
    assert!(
        sure.is_empty(),
        "wrong with confidence high on its side: {sure:?}"
    );
}

/// A scale far from what a map surely reads as is warned of (`--scale 1000` on a house in
/// metres said nothing); a user giving a real level its true up
/// axis and scale must never be told the scale looks wrong, and one giving it a hundred
/// times that is told so wherever the reading is sure.
#[test]
fn real_levels_given_their_true_scale_are_never_doubted() {
    let Some(dir) = common::shared("levels") else {
        return;
    };
    let doubted = |t: &Truth, scale: f32| {
        let opts = OpenOptions {
            up: Some(t.up),
            scale: Some(scale),
            ..OpenOptions::default()
        };
        let s = Session::open(Some(&dir.join(&t.file)), &opts)
            .unwrap_or_else(|e| panic!("{} opens: {e}", t.file));
        s.map
            .warnings
            .iter()
            .any(|w| w.contains("is the scale right?"))
    };
    let truths = truths(&dir);
    let wrongly: Vec<&str> = truths
        .iter()
        .filter(|t| doubted(t, t.metres))
        .map(|t| t.file.as_str())
        .collect();
    assert!(wrongly.is_empty(), "true scales doubted: {wrongly:?}");
    let told = truths
        .iter()
        .filter(|t| doubted(t, t.metres * 100.0))
        .count();
    assert!(
        told >= 4,
        "only {told} of {} levels at 100 times their scale were doubted",
        truths.len()
    );
}

/// Each real level with its header's comments dropped (what its geometry alone says):
/// at least three in four still open right; the header decides between readings the
/// geometry leaves close. (Sauerbraten's pandora without its header reads as inches,
/// surely: its rooms, steps and size are those of a building in inches, and only the
/// tool's name says its unit is the 15-unit player's. docs/survey.md lists it.)
#[test]
fn real_levels_without_their_headers_mostly_open_right() {
    let Some(dir) = common::shared("levels") else {
        return;
    };
    let outcomes = open_turned(&dir, Turn::Unsaid, "unsaid");
    let sure = files_where(&outcomes, Outcome::sure_and_wrong);
    println!("wrong with confidence high without their headers: {sure:?}");
    let right = outcomes.iter().filter(|o| o.right()).count();
    println!("{right} of {} right without their headers", outcomes.len());
    assert!(
        right * 4 >= outcomes.len() * 3,
        "{right} of {} right without their headers",
        outcomes.len()
    );
}
