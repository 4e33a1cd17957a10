//! Water: how deep the walker is in it, and how it swims (after Quake III's water
//! levels, `PM_SetWaterLevel`, `PM_WaterMove` and `PM_CheckWaterJump` in `bg_pmove.c`,
//! id Software, 1999), on the swept ellipsoid: every move is the same collision sweep as
//! walking's, only the speeds and the vertical differ.

use glam::Vec3;

use super::WalkSettings;
use crate::collision::{Body, Collider, MoveRules, Response, resolve_move};
use crate::geometry::Aabb;

/// How deep in water the walker is (the trace's `water` column: 0, 1, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WaterLevel {
    /// Out of water.
    #[default]
    Dry,
    /// The feet in water, the eye out: walking, slower (Quake's water level 1).
    Wading,
    /// The eye under the surface (and, once swimming, as long as the waist stays under
    /// and no ground holds the body: the head may bob out): swimming, no falling.
    Swimming,
}

impl WaterLevel {
    /// The trace's number: 0 dry, 1 wading, 2 swimming.
    pub fn number(self) -> u8 {
        self as u8
    }
}

/// Where the walker is in the water at the start of a tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Immersion {
    /// How deep.
    pub level: WaterLevel,
    /// The surface over the body (the top of the highest box holding its waist or eye).
    pub surface: f32,
}

/// The top of the highest box of `water` holding `p`.
fn surface_at(water: &[Aabb], p: Vec3) -> Option<f32> {
    water
        .iter()
        .filter(|b| b.contains(p))
        .map(|b| b.max.y)
        .reduce(f32::max)
}

/// How deep the body centred at `centre` is in `water`, given the level it was at
/// (`was`) and whether ground holds it: swimming with the eye under, or still swimming
/// while the waist is (unless standing); wading with the feet in.
pub fn immersion(
    water: &[Aabb],
    body: &Body,
    centre: Vec3,
    was: WaterLevel,
    grounded: bool,
) -> Immersion {
    let eye = surface_at(water, body.eye_of(centre));
    let waist = surface_at(water, centre);
    let feet = surface_at(water, body.feet_of(centre));
    let level = if eye.is_some() || (was == WaterLevel::Swimming && !grounded && waist.is_some()) {
        WaterLevel::Swimming
    } else if feet.is_some() {
        WaterLevel::Wading
    } else {
        WaterLevel::Dry
    };
    Immersion {
        level,
        surface: waist.or(eye).or(feet).unwrap_or(f32::NEG_INFINITY),
    }
}

/// The vertical speed a swimmer wants: up or down at the swimming speed (`vertical` +1
/// Space, -1 C), else drifting toward its floating height (the eye
/// [`float_eye_above`](WalkSettings::float_eye_above) the surface): buoyancy below it, a
/// slow sinking above it.
pub fn swim_speed(s: &WalkSettings, body: &Body, centre: Vec3, surface: f32, vertical: f32) -> f32 {
    if vertical != 0.0 {
        return vertical.clamp(-1.0, 1.0) * s.swim_vertical_speed;
    }
    let below = surface + s.float_eye_above - body.eye_of(centre).y;
    (below / s.float_time).clamp(-s.float_sink_speed, s.float_rise_speed)
}

/// The swimmer's vertical move of one tick at speed `v` from `centre`: never raising the
/// waist over the surface (it would stop swimming and fall back in, bobbing), swept as
/// every move is. The centre it ends at.
pub fn swim_vertical(
    world: &dyn Collider,
    free: &MoveRules,
    centre: Vec3,
    surface: f32,
    v: f32,
    dt: f32,
) -> Vec3 {
    let mut dy = v * dt;
    if dy > 0.0 {
        dy = dy.min((surface - centre.y).max(0.0));
    }
    if dy == 0.0 {
        return centre;
    }
    resolve_move(world, free, centre, Vec3::Y * dy).end
}

/// Quake III's water jump: a swimmer whose move along `wish` was blocked climbs out when
/// the body raised by [`water_jump_clearance`](WalkSettings::water_jump_clearance) has
/// room to rise and then room ahead (the wall ends below that height: an edge to climb
/// over).
pub fn can_climb_out(
    world: &dyn Collider,
    s: &WalkSettings,
    level: &MoveRules,
    centre: Vec3,
    wish: Vec3,
) -> bool {
    let ahead = Vec3::new(wish.x, 0.0, wish.z).normalize_or_zero() * s.water_jump_reach;
    if ahead == Vec3::ZERO {
        return false;
    }
    let up = MoveRules {
        response: Response::Stop,
        ..*level
    };
    let rise = Vec3::Y * s.water_jump_clearance;
    let raised = resolve_move(world, &up, centre, rise);
    !raised.hit && world.sweep(&level.probe, raised.end, ahead).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool() -> Vec<Aabb> {
        vec![Aabb {
            min: Vec3::new(-5.0, -2.0, -5.0),
            max: Vec3::new(5.0, 0.3, 5.0),
        }]
    }

    #[test]
    fn the_level_follows_the_feet_the_eye_and_once_swimming_the_waist() {
        let b = Body::WALKER;
        let at = |feet: f32| Vec3::new(0.0, feet + b.radii.y, 0.0);
        let dry = WaterLevel::Dry;
        assert_eq!(immersion(&pool(), &b, at(0.5), dry, true).level, dry);
        assert_eq!(
            immersion(&pool(), &b, at(0.0), dry, true).level,
            WaterLevel::Wading
        );
        let deep = immersion(&pool(), &b, at(-1.5), dry, false);
        assert_eq!(deep.level, WaterLevel::Swimming);
        assert_eq!(deep.surface, 0.3);
        // The eye out (1.6 m above feet at -1.4: 0.2 under... at -1.2 it is 0.4, out),
        // the waist under: still swimming once swimming, wading from outside.
        let swim = WaterLevel::Swimming;
        assert_eq!(immersion(&pool(), &b, at(-1.2), swim, false).level, swim);
        assert_eq!(
            immersion(&pool(), &b, at(-1.2), dry, false).level,
            WaterLevel::Wading
        );
        assert_eq!(
            immersion(&pool(), &b, at(-1.2), swim, true).level,
            WaterLevel::Wading
        );
    }

    #[test]
    fn an_idle_swimmer_drifts_toward_its_eye_just_over_the_surface() {
        let s = WalkSettings::default();
        let b = Body::WALKER;
        let centre = |eye: f32| b.centre_of(Vec3::new(0.0, eye, 0.0));
        // Deep: buoyancy at its fastest; over: sinking at its slowest; at: still.
        assert_eq!(
            swim_speed(&s, &b, centre(-1.0), 0.3, 0.0),
            s.float_rise_speed
        );
        assert_eq!(
            swim_speed(&s, &b, centre(1.5), 0.3, 0.0),
            -s.float_sink_speed
        );
        assert!(swim_speed(&s, &b, centre(0.4), 0.3, 0.0).abs() < 1e-5);
        assert_eq!(
            swim_speed(&s, &b, centre(0.4), 0.3, 1.0),
            s.swim_vertical_speed
        );
    }
}
