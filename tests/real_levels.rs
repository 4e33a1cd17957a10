//! The survey judged on real levels: the seven levels of `../shared/levels`, made by seven
//! tools (a Doom editor, Recast's demo, an IFC converter, a BSP viewer, Blender's BSP
//! import, 3ds Max, Blender), each opened without flags, must come out with the true up
//! axis, a scale within its `truth.csv` range and the spawn's eye 1.3 to 1.9 true metres
//! over a floor; and no level may be wrong with confidence "high". The table is printed
//! (`cargo test --release --test real_levels -- --nocapture`) and copied into the README.

mod common;

use glam::Vec3;
use walkthrough::map::UpAxis;
use walkthrough::session::{OpenOptions, Session};
use walkthrough::survey::Confidence;

/// One row of `truth.csv`.
struct Truth {
    file: String,
    up: UpAxis,
    metres: f32,
    min_ok: f32,
    max_ok: f32,
}

fn truths(dir: &std::path::Path) -> Vec<Truth> {
    let text = std::fs::read_to_string(dir.join("truth.csv")).expect("truth.csv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
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
    let eye = s
        .world
        .ray_cast(s.spawn.position, -Vec3::Y, 1e9)
        .filter(|h| {
            s.world.triangles()[h.triangle as usize]
                .plane
                .normal
                .y
                .abs()
                > 0.7
        })
        .map(|h| h.distance / ratio);
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
    let wrong: Vec<&str> = outcomes
        .iter()
        .filter(|o| !o.right())
        .map(|o| o.file.as_str())
        .collect();
    let sure_and_wrong: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.sure_and_wrong())
        .map(|o| o.file.as_str())
        .collect();
    assert!(
        sure_and_wrong.is_empty(),
        "wrong with confidence high: {sure_and_wrong:?}"
    );
    assert!(wrong.is_empty(), "opened wrong: {wrong:?}");
}
