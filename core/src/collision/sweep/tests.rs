use super::*;

/// A 2 x 2 triangle in the plane z = 0.
const TRI: [DVec3; 3] = [
    DVec3::new(-1.0, -1.0, 0.0),
    DVec3::new(1.0, -1.0, 0.0),
    DVec3::new(0.0, 1.0, 0.0),
];

/// Inside test by barycentric coordinates, in the plane z = 0.
fn inside(q: DVec3) -> bool {
    closest_point(q, TRI).feature == Feature::Face
        || (closest_point(q, TRI).point - q).length() < 1e-12
}

fn sweep(p0: DVec3, p1: DVec3) -> Option<SweepHit> {
    sweep_triangle(
        &EllipsoidSweep::new(p0, p1 - p0, 1.0, 1.0),
        TRI,
        1.0,
        inside,
    )
}

#[test]
fn head_on_sweep_touches_the_face_one_radius_away() {
    let h = sweep(DVec3::new(0.0, 0.0, 3.0), DVec3::new(0.0, 0.0, -3.0)).unwrap();
    assert_eq!(h.feature, Feature::Face);
    assert!((h.t - 2.0 / 6.0).abs() < 1e-12);
    assert_eq!(h.normal, DVec3::Z);
    assert!((h.point - DVec3::ZERO).length() < 1e-12);
}

#[test]
fn from_the_back_the_normal_faces_back() {
    let h = sweep(DVec3::new(0.0, 0.0, -3.0), DVec3::new(0.0, 0.0, 3.0)).unwrap();
    assert_eq!(h.normal, -DVec3::Z);
}

#[test]
fn passing_beside_an_edge_within_the_radius_touches_the_edge() {
    // Straight down at y = -1.5: the plane point (y = -1.5) is outside, but the sphere
    // meets the edge y = -1 when its centre is sqrt(1 - 0.25) above the plane.
    let h = sweep(DVec3::new(0.0, -1.5, 3.0), DVec3::new(0.0, -1.5, -3.0)).unwrap();
    assert_eq!(h.feature, Feature::Edge);
    let centre_z = 3.0 - 6.0 * h.t;
    assert!((centre_z - 0.75f64.sqrt()).abs() < 1e-12, "{centre_z}");
    assert!((h.point - DVec3::new(0.0, -1.0, 0.0)).length() < 1e-12);
    assert!((h.normal.length() - 1.0).abs() < 1e-12);
}

#[test]
fn passing_beside_a_vertex_within_the_radius_touches_the_vertex() {
    let h = sweep(DVec3::new(0.0, 1.6, 3.0), DVec3::new(0.0, 1.6, -3.0)).unwrap();
    assert_eq!(h.feature, Feature::Vertex);
    assert_eq!(h.point, TRI[2]);
    let centre_z = 3.0 - 6.0 * h.t;
    assert!((centre_z - 0.64f64.sqrt()).abs() < 1e-12);
}

#[test]
fn passing_farther_than_the_radius_misses() {
    assert!(sweep(DVec3::new(0.0, -2.01, 3.0), DVec3::new(0.0, -2.01, -3.0)).is_none());
    // Half a radius over the plane, along -x: the slanted edge from (1, -1) to (0, 1)
    // comes within the radius of the centre's line when 4x^2 - 4x - 2.75 = 0.
    let h = sweep(DVec3::new(5.0, 0.0, 0.5), DVec3::new(-5.0, 0.0, 0.5)).unwrap();
    assert_eq!(h.feature, Feature::Edge);
    let centre_x = 5.0 - 10.0 * h.t;
    assert!(
        (centre_x - (0.5 + 60f64.sqrt() / 8.0)).abs() < 1e-9,
        "{centre_x}"
    );
    let touch = DVec3::new(centre_x, 0.0, 0.5) - h.point;
    assert!((touch.length() - 1.0).abs() < 1e-9, "{touch}");
    assert!(sweep(DVec3::new(5.0, 0.0, 1.01), DVec3::new(-5.0, 0.0, 1.01)).is_none());
}

#[test]
fn edge_on_move_in_the_plane_touches_the_edge_one_radius_early() {
    // A zero-thickness wall met edge-on: the centre moves in the plane itself.
    let h = sweep(DVec3::new(0.0, -5.0, 0.0), DVec3::new(0.0, 5.0, 0.0)).unwrap();
    assert_eq!(h.feature, Feature::Edge);
    let centre_y = -5.0 + 10.0 * h.t;
    assert!((centre_y - -2.0).abs() < 1e-12, "{centre_y}");
    assert!((h.normal - -DVec3::Y).length() < 1e-12);
}

#[test]
fn resting_on_the_face_and_moving_along_it_is_free() {
    let p = DVec3::new(0.0, 0.0, 1.0 - 1e-9);
    assert!(sweep(p, p + DVec3::new(0.5, 0.3, 0.0)).is_none());
    assert!(sweep(p, p + DVec3::new(0.5, 0.3, 0.2)).is_none());
}

#[test]
fn embedded_in_the_face_and_pressing_into_it_is_blocked_at_once() {
    let p = DVec3::new(0.0, 0.0, 0.999);
    let h = sweep(p, p + DVec3::new(0.5, 0.3, -0.2)).unwrap();
    assert_eq!((h.t, h.feature, h.normal), (0.0, Feature::Face, DVec3::Z));
}

#[test]
fn resting_in_the_gap_and_pressing_in_stops_at_the_inner_radius() {
    let s = EllipsoidSweep::new(
        DVec3::new(0.0, 0.0, 1.009),
        DVec3::new(0.0, 0.0, -0.5),
        1.01,
        1.005,
    );
    let h = sweep_triangle(&s, TRI, 1.0, inside).unwrap();
    assert_eq!(h.feature, Feature::Face);
    let z = 1.009 - 0.5 * h.t;
    assert!((z - 1.005).abs() < 1e-12, "{z}");
}

#[test]
fn resting_in_the_gap_beside_a_convex_edge_slides_past_it() {
    // Resting on the face 1.01 - 1e-12 away, just short of the edge y = -1, moving
    // across it: the edge comes nearer by a rounding, never into the inner band.
    let s = EllipsoidSweep::new(
        DVec3::new(0.0, -0.9999, 1.01 - 1e-12),
        DVec3::new(0.0, -0.5, 0.0),
        1.01,
        1.005,
    );
    assert!(sweep_triangle(&s, TRI, 1.0, inside).is_none());
}

#[test]
fn grazing_an_edge_into_the_face_region_meets_the_face_at_the_graze_radius() {
    // Beside the edge y = -1 at 1.009 from the plane (radius 1.01, inner 1.005), moving
    // over the face and 0.01 nearer the plane: the edge line passes at about 1.008, a
    // graze, but the centre then comes within the graze radius of the face.
    let s = EllipsoidSweep::new(
        DVec3::new(0.0, -1.1, 1.009),
        DVec3::new(0.0, 0.5, -0.01),
        1.01,
        1.005,
    );
    let h = sweep_triangle(&s, TRI, 1.0, inside).unwrap();
    assert_eq!(h.feature, Feature::Face);
    let z = 1.009 - 0.01 * h.t;
    assert!((z - 1.005).abs() < 1e-12, "{z}");
    assert!(s.centre_at(h.t).y > -1.0, "touched before passing the edge");
}

#[test]
fn plane_touched_beside_the_triangle_then_an_edge_grazed_meets_the_face() {
    // From 1.02 above the plane, 0.5 beside the edge y = -1: the plane is touched
    // beside the triangle, the edge passes at about 1.008 (a graze), and the centre
    // comes over the face and down to the graze radius 1.005.
    let s = EllipsoidSweep::new(
        DVec3::new(0.0, -1.5, 1.02),
        DVec3::new(0.0, 1.0, -0.024),
        1.01,
        1.005,
    );
    let h = sweep_triangle(&s, TRI, 1.0, inside).unwrap();
    assert_eq!(h.feature, Feature::Face);
    assert!((s.centre_at(h.t).z - 1.005).abs() < 1e-12);
    assert!((h.t - 0.625).abs() < 1e-12, "{}", h.t);
}

#[test]
fn beside_an_edge_end_within_its_line_radius_the_edge_is_met_at_the_graze_radius() {
    // 1.007 from the line of the edge y = -1 (radius 1.01, inner 1.005), 0.08 beyond
    // its end x = 1: the vertex is grazed (passed at about 1.006), then the centre
    // comes over the edge and toward it, down to 0.99 by the end.
    let (ya, yb, z) = (0.451_719_9, 0.412_431_8, 0.9);
    let s = EllipsoidSweep::new(
        DVec3::new(1.08, -1.0 - ya, z),
        DVec3::new(-2.0, ya - yb, 0.0),
        1.01,
        1.005,
    );
    let h = sweep_triangle(&s, TRI, 1.0, inside).unwrap();
    assert_eq!(h.feature, Feature::Edge);
    let c = s.centre_at(h.t);
    let to_line = DVec3::new(0.0, c.y + 1.0, c.z).length();
    assert!((to_line - 1.005).abs() < 1e-9, "{to_line}");
}

#[test]
fn embedded_over_an_edge_moving_away_is_free_and_toward_is_blocked() {
    let p = DVec3::new(0.0, -1.5, 0.3);
    assert!(sweep(p, p + DVec3::new(0.0, -1.0, 0.0)).is_none());
    let h = sweep(p, p + DVec3::new(0.0, 1.0, 0.0)).unwrap();
    assert_eq!((h.t, h.feature), (0.0, Feature::Edge));
}

#[test]
fn tunnelling_sweep_of_10_km_is_caught_to_the_micrometre() {
    let p0 = DVec3::new(0.1, 0.1, 5000.0);
    let h = sweep(p0, DVec3::new(0.1, 0.1, -5000.0)).unwrap();
    let z = p0.z - 10000.0 * h.t;
    assert!((z - 1.0).abs() < 1e-6, "{z}");
}

#[test]
fn grazing_an_edge_at_exactly_the_radius_is_no_contact() {
    // A sphere of radius 1.01 (inner 1.005) passing the edge line y = -1, z = 0 at
    // 1.01 - 1e-7 (a rounding inside): a graze. At 1.004, inside the band but no
    // nearer the plane than the body itself (1), it passes over the face no nearer
    // than that: nothing is touched. At 0.999 the body would cut the plane: the edge
    // is met.
    let s = |z: f64| {
        let p0 = DVec3::new(0.0, -3.0, z);
        EllipsoidSweep::new(p0, DVec3::new(0.0, 2.0, 0.0), 1.01, 1.005)
    };
    assert!(sweep_triangle(&s(1.01 - 1e-7), TRI, 1.0, inside).is_none());
    assert!(sweep_triangle(&s(1.004), TRI, 1.0, inside).is_none());
    let h = sweep_triangle(&s(0.999), TRI, 1.0, inside).unwrap();
    assert_eq!(h.feature, Feature::Edge);
}

/// A walker sliding along a flat wall stopped for good at the
/// diagonal of its quad. Resting against the wall a rounding inside the inner band,
/// over one of the quad's triangles: the other one's edge (the diagonal, in the same
/// plane) is no obstacle to a move along the wall, and a move pressed into the wall
/// near it meets the wall's plane, not a normal tilted toward the edge.
#[test]
fn the_edge_of_a_triangle_in_the_wall_rested_on_is_no_obstacle_along_it() {
    let (radius, inner) = (1.01, 1.005);
    // `TRI`'s neighbour across its slanted edge from (1, -1) to (0, 1).
    let beside = [TRI[1], DVec3::new(2.0, 1.0, 0.0), TRI[2]];
    for z in [inner - 1e-7, inner - 1e-4, 1.0 + 1e-9] {
        // Over `TRI`, 0.01 from the shared edge, moving across it along +x.
        let p0 = DVec3::new(0.49, 0.0, z);
        let along = EllipsoidSweep::new(p0, DVec3::new(0.5, 0.0, 0.0), radius, inner);
        for tri in [TRI, beside] {
            assert!(sweep_triangle(&along, tri, 1.0, |_| true).is_none(), "{z}");
        }
        // Pressed into the wall as well: held by the wall's own normal, at once.
        let pressed = EllipsoidSweep::new(p0, DVec3::new(0.5, 0.0, -0.5), radius, inner);
        for tri in [TRI, beside] {
            let h = sweep_triangle(&pressed, tri, 1.0, |_| true).unwrap();
            assert_eq!(h.normal, DVec3::Z, "{z}");
            assert!(h.t < 1e-3, "{z}: {}", h.t);
        }
    }
}

#[test]
fn lowest_root_picks_the_smallest_in_range() {
    // (t - 0.25)(t - 0.75) = t^2 - t + 0.1875
    assert_eq!(lowest_root(1.0, -1.0, 0.1875, 1.0), Some(0.25));
    assert_eq!(lowest_root(1.0, -1.0, 0.1875, 0.2), None);
    assert_eq!(lowest_root(1.0, 0.0, 1.0, 1.0), None);
    // The same with the sign flipped (the edge quadratic's leading term is negative).
    assert_eq!(lowest_root(-1.0, 1.0, -0.1875, 1.0), Some(0.25));
}
