use super::*;
use glam::Quat;

/// A scene's placements name what they are: a new revision once a model is added or
/// a placement made or moved (a walker's remembered tick is then not reused), the
/// same while nothing changes, and none for a pose refused.
#[test]
fn placements_made_or_moved_are_a_new_revision() {
    let mut w = InstancedWorld::new(vec![crate::collision::square_wall(1.0)]);
    let mut seen = vec![w.revision()];
    assert_eq!(w.revision(), seen[0], "unchanged, the same");
    w.place(0, Affine3A::IDENTITY).unwrap();
    seen.push(w.revision());
    assert_eq!(w.add_model(crate::collision::square_wall(2.0)), 1);
    seen.push(w.revision());
    w.place(1, Affine3A::from_translation(Vec3::X)).unwrap();
    seen.push(w.revision());
    let refused = w.move_placements(&[PlacementPose {
        instance: 0,
        to_world: Affine3A::from_scale(Vec3::ZERO),
    }]);
    assert_eq!(refused.refused, 1);
    assert_eq!(w.revision(), seen[3], "nothing moved: the same");
    let moved = w.move_placements(&[PlacementPose {
        instance: 0,
        to_world: Affine3A::from_translation(Vec3::Y),
    }]);
    assert_eq!(moved.moved, 1);
    seen.push(w.revision());
    assert_eq!(w.clone().revision(), seen[4], "a clone shares it");
    for (k, a) in seen.iter().enumerate() {
        assert!(a.is_some());
        assert!(seen[..k].iter().all(|b| b != a), "revision {k} is new");
    }
}

#[test]
fn singular_placement_is_refused() {
    let mut w = InstancedWorld::new(vec![crate::collision::square_wall(1.0)]);
    assert_eq!(
        w.place(0, Affine3A::from_scale(Vec3::new(1.0, 0.0, 1.0))),
        Err(PlaceError::NotInvertible)
    );
    assert_eq!(w.place(3, Affine3A::IDENTITY), Err(PlaceError::NoModel(3)));
    assert_eq!(w.place(0, Affine3A::IDENTITY), Ok(0));
}

#[test]
fn stretched_wall_stops_the_body_at_its_world_rest_distance() {
    // Scaled 10 along its normal: a model-space sphere would be squashed tenfold. The
    // narrow phase runs in world (ellipsoid) space, so the distance is the world one.
    let mut w = InstancedWorld::new(vec![crate::collision::square_wall(1.0)]);
    let m = Affine3A::from_scale_rotation_translation(
        Vec3::new(3.0, 1.0, 10.0),
        Quat::from_rotation_y(0.3),
        Vec3::new(0.0, 0.0, -5.0),
    );
    w.place(0, m).unwrap();
    let n = (m.matrix3 * Vec3::Z).normalize();
    let start = Vec3::new(0.0, 0.0, -5.0) + (m.matrix3 * Vec3::Z).normalize() * 2.0;
    for body in [Body::FLYER, Body::WALKER] {
        let rules = crate::collision::MoveRules::new(body, crate::collision::Response::Stop);
        let o = crate::collision::resolve_move(&w, &rules, start, -n * 4.0);
        let plane_d = n.dot(o.end - Vec3::new(0.0, 0.0, -5.0));
        let want = body.rest_distance(n);
        assert!((plane_d - want).abs() < 1e-4, "{plane_d} vs {want}");
    }
}
