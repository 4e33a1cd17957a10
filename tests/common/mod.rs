//! Helpers shared by the integration tests: worlds made of walls, and stepping.
#![allow(dead_code)]

pub mod buildings;
pub mod city;
pub mod corner;
pub mod counted;
pub mod pile;

use glam::Vec3;
use walkthrough_core::collision::{Body, Collider, MoveOutcome, MoveRules, Response, resolve_move};
use walkthrough_core::geometry::InsideMethod;

/// A vertical wall quad from `(x0, z0)` to `(x1, z1)`, from y = -h to y = +h, as two triangles.
pub fn wall(x0: f32, z0: f32, x1: f32, z1: f32, h: f32) -> [[Vec3; 3]; 2] {
    let a = Vec3::new(x0, -h, z0);
    let b = Vec3::new(x1, -h, z1);
    let c = Vec3::new(x1, h, z1);
    let d = Vec3::new(x0, h, z0);
    [[a, b, c], [a, c, d]]
}

/// A square floor at y = 0 reaching `half` along x and z, facing up, as two triangles.
pub fn floor(half: f32) -> Vec<[Vec3; 3]> {
    let f = half;
    vec![
        [
            Vec3::new(-f, 0.0, -f),
            Vec3::new(-f, 0.0, f),
            Vec3::new(f, 0.0, f),
        ],
        [
            Vec3::new(-f, 0.0, -f),
            Vec3::new(f, 0.0, f),
            Vec3::new(f, 0.0, -f),
        ],
    ]
}

/// Triangles of an axis-aligned box (12 triangles, both sides collide anyway).
pub use walkthrough_core::test_kit::boxes::cube;

/// The rules for `body` with `response` and `method`, sliding along true planes.
pub fn rules(body: Body, response: Response, method: InsideMethod) -> MoveRules {
    MoveRules::new(body, response).with_method(method)
}

/// Step the body's centre `n` times by `d` from `p`, returning every outcome.
pub fn walk(
    world: &dyn Collider,
    rules: &MoveRules,
    mut p: Vec3,
    d: Vec3,
    n: usize,
) -> Vec<MoveOutcome> {
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let o = resolve_move(world, rules, p, d);
        assert!(o.end.is_finite(), "NaN position");
        p = o.end;
        out.push(o);
    }
    out
}

/// Independent check that the segment `p0 -> p1` does not touch triangle `t`:
/// signed volumes for the plane, same-side edge tests for the inside.
pub fn segment_touches(t: &[Vec3; 3], p0: Vec3, p1: Vec3) -> bool {
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    let s0 = n.dot(p0 - t[0]);
    let s1 = n.dot(p1 - t[0]);
    if s0 * s1 > 0.0 || (s0 == 0.0 && s1 == 0.0) {
        return false;
    }
    let q = p0 + (p1 - p0) * (s0 / (s0 - s1));
    let side = |a: Vec3, b: Vec3| (b - a).cross(q - a).dot(n);
    let (e0, e1, e2) = (side(t[0], t[1]), side(t[1], t[2]), side(t[2], t[0]));
    (e0 >= 0.0 && e1 >= 0.0 && e2 >= 0.0) || (e0 <= 0.0 && e1 <= 0.0 && e2 <= 0.0)
}

/// Independent oracle: the distance from `p` to triangle `t`, in the space where `body` is
/// a unit sphere (positions divided by its radii). Not Ericson's Voronoi regions (the code
/// under test): the plane distance when the projection passes same-side edge tests, else
/// the nearest of the three edge segments by clamped projection.
pub fn ellipsoid_distance(body: &Body, p: Vec3, t: &[Vec3; 3]) -> f64 {
    let r = body.radii.as_dvec3();
    let p = p.as_dvec3() / r;
    let [a, b, c] = t.map(|v| v.as_dvec3() / r);
    let n = (b - a).cross(c - a).normalize();
    let q = p - n * n.dot(p - a);
    let side = |u: glam::DVec3, v: glam::DVec3| (v - u).cross(q - u).dot(n);
    if side(a, b) >= 0.0 && side(b, c) >= 0.0 && side(c, a) >= 0.0 {
        return (p - q).length();
    }
    let seg = |u: glam::DVec3, v: glam::DVec3| {
        let e = v - u;
        let f = ((p - u).dot(e) / e.length_squared()).clamp(0.0, 1.0);
        (p - (u + e * f)).length()
    };
    seg(a, b).min(seg(b, c)).min(seg(c, a))
}

/// The smallest [`ellipsoid_distance`] from `p` to any triangle of `tris`.
pub fn nearest_ellipsoid_distance(body: &Body, p: Vec3, tris: &[[Vec3; 3]]) -> f64 {
    tris.iter()
        .map(|t| ellipsoid_distance(body, p, t))
        .fold(f64::INFINITY, f64::min)
}

/// xorshift64*: a small random source that gives the same numbers on every machine.
pub use walkthrough_core::test_kit::random::Rng;

/// `../shared/SUB` if it is there. On CI it must be (the test fails); elsewhere the test
/// says SKIPPED and passes.
pub fn shared(sub: &str) -> Option<std::path::PathBuf> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(sub);
    if p.exists() {
        return Some(p);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must provide ../shared/{sub}"
    );
    eprintln!("SKIPPED: ../shared/{sub} not found");
    None
}

/// The `.obj` files of `../shared/obj-corpus`, sorted (see [`shared`] when it is missing).
pub fn corpus_files() -> Option<Vec<std::path::PathBuf>> {
    let dir = shared("obj-corpus")?;
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "obj"))
        .collect();
    files.sort();
    Some(files)
}

/// How many times its default number of cases a fuzz test runs: `WALKTHROUGH_FUZZ_SCALE`
/// (a whole number, at least 1), else 1. CI runs the default; a larger run is asked for by
/// hand and its figures kept in the README.
pub fn fuzz_scale() -> u32 {
    std::env::var("WALKTHROUGH_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
        .unwrap_or(1)
        .max(1)
}

/// Where writes fail for want of room, for the tests of failed writes: a 64 KiB tmpfs,
/// filled to its last byte by [`FullDisk::fill`], when this process may mount one (root,
/// as CI runs); else a folder on the disk, and the binary run by [`FullDisk::command`]
/// has its file sizes capped at 512 bytes (`ulimit -f 1`, with SIGXFSZ ignored), so its
/// writes past them fail as on a full disk (EFBIG instead of ENOSPC). Unmounted and
/// removed on drop.
pub struct FullDisk {
    /// The folder to write in.
    pub dir: std::path::PathBuf,
    mounted: bool,
}

impl FullDisk {
    /// A fresh one for `test`.
    pub fn new(test: &str) -> FullDisk {
        let dir =
            std::env::temp_dir().join(format!("walkthrough-full-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(&dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        eprintln!(
            "failed writes in {}: {}",
            dir.display(),
            if mounted {
                "a full 64 KiB tmpfs"
            } else {
                "files capped at 512 bytes (no tmpfs could be mounted)"
            }
        );
        FullDisk { dir, mounted }
    }

    /// Fill it: nothing more can be written (on the tmpfs; the cap needs no filling).
    /// Call it once the files the test wants kept are written.
    pub fn fill(&self) {
        if !self.mounted {
            return;
        }
        use std::io::Write;
        let mut f = std::fs::File::create(self.dir.join("filler")).unwrap();
        let block = [0u8; 4096];
        // Whole blocks, then single bytes, until the disk says no.
        while f.write_all(&block).is_ok() {}
        while f.write_all(&[0]).is_ok() {}
        let _ = f.flush();
    }

    /// The binary with `args`, under the file-size cap when there is no tmpfs.
    pub fn command(&self, args: &[&str]) -> std::process::Command {
        let bin = env!("CARGO_BIN_EXE_walkthrough");
        let mut c = if self.mounted {
            std::process::Command::new(bin)
        } else {
            let mut c = std::process::Command::new("sh");
            c.arg("-c")
                .arg("trap '' XFSZ; ulimit -f 1 && exec \"$0\" \"$@\"")
                .arg(bin);
            c
        };
        c.args(args);
        c
    }
}

impl Drop for FullDisk {
    fn drop(&mut self) {
        if self.mounted {
            let _ = std::process::Command::new("umount").arg(&self.dir).status();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A flat terrain of `n` x `n` quads, 1 m apart, at y = 0, as OBJ text (2 n^2 triangles:
/// big enough, for n in the hundreds or more, that loading it takes a while).
pub fn terrain_obj(n: usize) -> String {
    use std::fmt::Write as _;
    let mut obj = String::with_capacity(n * n * 40);
    for j in 0..=n {
        for i in 0..=n {
            let _ = writeln!(obj, "v {i} 0 {j}");
        }
    }
    let at = |i: usize, j: usize| j * (n + 1) + i + 1;
    for j in 0..n {
        for i in 0..n {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            let _ = writeln!(obj, "f {a} {d} {c}\nf {a} {c} {b}");
        }
    }
    obj
}

/// How high the eye of `s`'s spawn stands over the walkable floor straight below it, in
/// the map's own units (`ratio`: the frame's scale over the true metres a unit); `None`
/// when no walkable floor lies below.
pub fn spawn_eye_over_floor(s: &walkthrough_core::session::Session, ratio: f32) -> Option<f32> {
    let walkable = walkthrough_core::walk::WalkSettings::default().walkable_min_up;
    s.world
        .ray_cast(s.spawn.position, -Vec3::Y, 1e9)
        .filter(|h| {
            s.world.triangles()[h.triangle as usize]
                .plane
                .normal
                .y
                .abs()
                >= walkable
        })
        .map(|h| h.distance / ratio)
}
