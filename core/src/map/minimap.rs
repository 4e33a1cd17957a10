//! The map seen from straight above, as an image made once when the map loads: floors
//! (surfaces facing up) shaded by height, the highest one on top, and walls (upright
//! surfaces) drawn as dark lines along their foot. A map whose level surfaces nearly all
//! face down (a terrain written with its winding reversed) has its floors read that way. The window shows it in a corner with
//! the player and its trail; here it is plain pixels, tested headless.

use glam::{Vec2, Vec3};

use super::Map;

/// A surface whose unit normal has at least this up component is a floor.
const FLOOR_UP: f32 = 0.5;
/// A surface whose unit normal has at most this up component (either way) is a wall.
const WALL_UP: f32 = 0.3;
/// Level surfaces facing down over those facing up, in area, beyond which the file's
/// winding is read as reversed: its floors face down. A closed level has about as much
/// ceiling as floor (0.2 to 1.04 on the seven real levels and the three maps), a
/// terrain written clockwise seen from above all of its ground facing down.
const REVERSED_WINDING: f64 = 3.0;
/// Pixel colours: empty (nothing below), walls, and floors from low to high.
const EMPTY: [u8; 4] = [20, 24, 30, 200];
const WALL: [u8; 4] = [235, 235, 235, 255];
const FLOOR_LOW: f32 = 60.0;
const FLOOR_HIGH: f32 = 170.0;

/// The top-down image and where it lies in the world.
#[derive(Clone, Debug, PartialEq)]
pub struct TopDown {
    /// Width and height in pixels.
    pub size: [u32; 2],
    /// RGBA rows, the first row at the smallest world z (north up: -z is the top).
    pub rgba: Vec<u8>,
    /// World (x, z) of the image's top-left corner.
    pub min: Vec2,
    /// World units per pixel.
    pub per_pixel: f32,
}

impl TopDown {
    /// The same picture of the map scaled by `factor` about the origin (its scale
    /// changed in the window): only the world placement changes.
    pub fn scale_by(&mut self, factor: f32) {
        self.min *= factor;
        self.per_pixel *= factor;
    }

    /// Pixel coordinates (fractional) of the world point `p`.
    pub fn to_pixel(&self, p: Vec3) -> Vec2 {
        (Vec2::new(p.x, p.z) - self.min) / self.per_pixel
    }

    fn put(&mut self, x: i64, y: i64, color: [u8; 4]) {
        if x >= 0 && y >= 0 && (x as u32) < self.size[0] && (y as u32) < self.size[1] {
            let i = (y as usize * self.size[0] as usize + x as usize) * 4;
            self.rgba[i..i + 4].copy_from_slice(&color);
        }
    }
}

/// Draw `map` from above into an image whose longer side is `side` pixels.
pub fn top_down(map: &Map, side: u32) -> TopDown {
    let b = map.bounds;
    let extent = Vec2::new(b.size().x, b.size().z).max(Vec2::splat(1e-6));
    let per_pixel = extent.max_element() / side.max(1) as f32;
    let size = [
        ((extent.x / per_pixel).ceil() as u32).clamp(1, side.max(1)),
        ((extent.y / per_pixel).ceil() as u32).clamp(1, side.max(1)),
    ];
    let pixels = (size[0] * size[1]) as usize;
    let mut image = TopDown {
        size,
        rgba: EMPTY.repeat(pixels),
        min: Vec2::new(b.min.x, b.min.z),
        per_pixel,
    };
    if !(per_pixel.is_finite() && per_pixel > 0.0) {
        return image;
    }
    let mut height = vec![f32::NEG_INFINITY; pixels];
    let (low, span) = (b.min.y, b.size().y.max(1e-6));
    let mut walls = Vec::new();
    let floors_up = floors_facing(map);
    for corners in map.triangles() {
        let [a, b2, c] = corners;
        let Some(n) = (b2 - a).cross(c - a).try_normalize() else {
            continue;
        };
        if n.y * floors_up >= FLOOR_UP {
            fill_floor(&mut image, &mut height, corners, low, span);
        } else if n.y.abs() <= WALL_UP {
            walls.push(corners);
        }
    }
    // Walls over floors: their footprint is the line of their lowest edge.
    for [a, b2, c] in walls {
        let mut edges = [(a, b2), (b2, c), (c, a)];
        edges.sort_by(|p, q| (p.0.y + p.1.y).total_cmp(&(q.0.y + q.1.y)));
        let (p, q) = edges[0];
        let (p, q) = (image.to_pixel(p), image.to_pixel(q));
        line(&mut image, p, q);
    }
    image
}

/// Which way `map`'s floors face along y: +1 (up, as OBJ's counter-clockwise winding
/// has it), or -1 where level surfaces facing down outweigh those facing up by more than
/// [`REVERSED_WINDING`].
fn floors_facing(map: &Map) -> f32 {
    let (mut up, mut down) = (0.0f64, 0.0f64);
    for [a, b, c] in map.triangles() {
        let n = (b - a).cross(c - a);
        let Some(unit) = n.try_normalize() else {
            continue;
        };
        let area = f64::from(n.length());
        if unit.y >= FLOOR_UP {
            up += area;
        } else if unit.y <= -FLOOR_UP {
            down += area;
        }
    }
    if down > REVERSED_WINDING * up {
        -1.0
    } else {
        1.0
    }
}

/// Fill a floor triangle where it is the highest floor so far, shaded by its height.
fn fill_floor(image: &mut TopDown, height: &mut [f32], corners: [Vec3; 3], low: f32, span: f32) {
    let p = corners.map(|c| image.to_pixel(c));
    let lo = p[0].min(p[1]).min(p[2]).floor().max(Vec2::ZERO);
    let hi = p[0].max(p[1]).max(p[2]).ceil();
    let area = (p[1] - p[0]).perp_dot(p[2] - p[0]);
    if area.abs() < 1e-12 {
        return;
    }
    let (w, h) = (image.size[0] as f32, image.size[1] as f32);
    for y in lo.y as u32..hi.y.min(h) as u32 {
        for x in lo.x as u32..hi.x.min(w) as u32 {
            let q = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            let w0 = (p[2] - p[1]).perp_dot(q - p[1]) / area;
            let w1 = (p[0] - p[2]).perp_dot(q - p[2]) / area;
            let w2 = 1.0 - w0 - w1;
            if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                continue;
            }
            let y_world = corners[0].y * w0 + corners[1].y * w1 + corners[2].y * w2;
            let k = (y * image.size[0] + x) as usize;
            if y_world > height[k] {
                height[k] = y_world;
                let shade = FLOOR_LOW + (FLOOR_HIGH - FLOOR_LOW) * ((y_world - low) / span);
                let g = shade.clamp(0.0, 255.0) as u8;
                image.put(x as i64, y as i64, [g, g, g.saturating_add(12), 255]);
            }
        }
    }
}

/// A one-pixel line from `a` to `b` (pixel coordinates).
fn line(image: &mut TopDown, a: Vec2, b: Vec2) {
    let steps = (b - a).abs().max_element().ceil().clamp(1.0, 4096.0) as u32;
    for i in 0..=steps {
        let p = a + (b - a) * (i as f32 / steps as f32);
        image.put(p.x.floor() as i64, p.y.floor() as i64, WALL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::builtin::default_map;

    #[test]
    fn the_built_in_hall_has_floor_inside_walls_round_it_and_the_gallery_lighter() {
        let map = default_map();
        let img = top_down(&map, 128);
        assert_eq!(img.size[0].max(img.size[1]), 128);
        let at = |p: Vec3| {
            let q = img.to_pixel(p);
            let i = (q.y as usize * img.size[0] as usize + q.x as usize) * 4;
            [img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]]
        };
        // The hall's floor at the spawn: a floor shade, not empty, not a wall.
        let floor = at(Vec3::new(0.0, 0.0, 6.0));
        assert!(floor[0] >= FLOOR_LOW as u8 && floor[0] < 200, "{floor:?}");
        // Up the stairs (x = -5.25, rising toward -z) to the gallery: lighter with height.
        let [foot, stair, gallery] = [-3.0, -5.0, -10.0].map(|z| at(Vec3::new(-5.25, 0.0, z))[0]);
        assert!(foot < stair && stair < gallery, "{foot} {stair} {gallery}");
        let walls = img.rgba.chunks(4).filter(|p| p[..3] == WALL[..3]).count();
        assert!(walls > 200, "only {walls} wall pixels");
    }

    /// A terrain whose faces are wound clockwise seen from above
    /// (all of its ground facing down) showed an empty minimap.
    #[test]
    fn a_terrain_wound_facing_down_still_shows_its_ground() {
        let n = 20;
        let mut obj = String::new();
        for i in 0..n {
            for j in 0..n {
                let y = (i as f32 * 0.3).sin() * (j as f32 * 0.2).cos();
                obj += &format!("v {} {y} {}\n", i as f32 * 0.5, j as f32 * 0.5);
            }
        }
        for i in 0..n - 1 {
            for j in 0..n - 1 {
                let a = i * n + j + 1;
                let (b, c) = (a + 1, a + n);
                // (c - a) along x, (b - a) along z: x cross z faces down.
                obj += &format!("f {a} {c} {b}\nf {b} {c} {}\n", c + 1);
            }
        }
        let opts = crate::map::LoadOptions {
            scale: Some(1.0),
            ..Default::default()
        };
        let map = crate::map::load_obj_str("terrain", &obj, &[], &opts).expect("terrain");
        assert_eq!(floors_facing(&map), -1.0);
        let img = top_down(&map, 64);
        let ground = img.rgba.chunks(4).filter(|p| p[..] != EMPTY[..]).count();
        let all = (img.size[0] * img.size[1]) as usize;
        assert!(
            ground * 10 > all * 9,
            "{ground} of {all} pixels show ground"
        );
        // The built-in hall, wound as OBJ has it, keeps its floors facing up.
        assert_eq!(floors_facing(&default_map()), 1.0);
    }
}
