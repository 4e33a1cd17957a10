//! What one OBJ file loads as (its faces and their normals, its materials, the spawn it
//! marks, its axes and scale) and every line it refuses, named with what is wrong there.

use super::*;
use crate::map::{Corners, FLAT_NORMAL, face_normal};

#[test]
fn quad_becomes_two_triangles_with_face_normals() {
    let m = load(CUBE_FACE).unwrap();
    assert_eq!(m.triangle_count(), 2);
    assert_eq!(m.batches.len(), 1);
    // No normals in the file: each corner takes its face's (the shader's), and the
    // faces are wound to face +Z.
    for v in m.vertices.iter() {
        assert_eq!(v.normal, FLAT_NORMAL);
    }
    for t in m.triangles() {
        assert_eq!(face_normal(t), Some(Vec3::Z));
    }
}

#[test]
fn faces_without_normals_share_their_corners() {
    // A 4 x 4 grid of quads: 32 triangles, 96 corners, at 25 places.
    let mut obj = String::new();
    for z in 0..5 {
        for x in 0..5 {
            obj += &format!("v {x} 0 {z}\n");
        }
    }
    for z in 0..4 {
        for x in 0..4 {
            let i = z * 5 + x + 1;
            obj += &format!("f {} {} {} {}\n", i, i + 5, i + 6, i + 1);
        }
    }
    let m = load(&obj).unwrap();
    assert_eq!(m.vertices.len(), 96);
    let distinct: HashSet<[u32; 8]> = m
        .vertices
        .iter()
        .map(|v| {
            let [x, y, z] = v.position;
            let [a, b, c] = v.normal;
            let [u, w] = v.uv;
            [x, y, z, a, b, c, u, w].map(f32::to_bits)
        })
        .collect();
    assert_eq!(
        distinct.len(),
        25,
        "a corner is one vertex whichever face it is of"
    );
}

/// A file without normals or texture coordinates keeps positions alone, whatever
/// else it holds: a trailing `g` or `o` (tobj ends it with an empty model), a spawn
/// marker with normals of its own, or normals that are all unusable (flat after all).
#[test]
fn a_plain_files_corners_are_positions_whatever_else_it_holds() {
    let spawn = "o spawn\nv 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nvn 0 0 1\nf 5//1 6//1 7//1\n";
    let cases = [
        ("plain", CUBE_FACE.to_string()),
        ("a trailing g", format!("{CUBE_FACE}g trailing\n")),
        ("a trailing o", format!("{CUBE_FACE}o later\n")),
        ("a spawn marker with normals", format!("{CUBE_FACE}{spawn}")),
        (
            "unusable normals",
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 0\nf 1//1 2//1 3//1\n".to_string(),
        ),
    ];
    for (what, obj) in cases {
        let m = load(&obj).unwrap();
        assert!(matches!(m.vertices, Corners::Positions(_)), "{what}");
    }
    let given = load("v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1\n").unwrap();
    assert!(
        matches!(given.vertices, Corners::Full(_)),
        "a usable normal is kept"
    );
}

#[test]
fn a_files_normals_are_kept_and_an_unusable_one_is_the_faces() {
    let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 2\nvn 0 0 0\nvn nan 0 1\nf 1//1 2//2 3//3\n";
    let m = load(obj).unwrap();
    let normals: Vec<[f32; 3]> = m.vertices.iter().map(|v| v.normal).collect();
    // Made unit; a zero and a NaN normal become the face's own.
    assert_eq!(normals, [[0.0, 0.0, 1.0], FLAT_NORMAL, FLAT_NORMAL]);
}

#[test]
fn malformed_vertex_is_refused_with_file_and_line() {
    let e = load("v 0 0 0\nv 1 0 zero\nv 0 1 0\nf 1 2 3\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "test.obj:2: a vertex needs three numbers: 'v 1 0 zero'"
    );
}

#[test]
fn face_index_out_of_range_names_the_line() {
    let e = load("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 9\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "test.obj:5: vertex index 9 is out of range (3 vertices defined by the end of its object): 'f 1 2 9'"
    );
}

#[test]
fn face_index_zero_names_the_line() {
    let e = load("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("test.obj:4: vertex index 0 is invalid"),
        "{e}"
    );
}

#[test]
fn negative_indices_work() {
    let m = load("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n").unwrap();
    assert_eq!(m.triangle_count(), 1);
}

#[test]
fn crlf_line_endings_work() {
    let m = load(&CUBE_FACE.replace('\n', "\r\n")).unwrap();
    assert_eq!(m.triangle_count(), 2);
}

/// An OBJ line holding `ESC ]0;...BEL ESC[2J` would clear the
/// screen and set the window's title if an error quoted it raw, and a lone CR would send
/// the cursor back over the start of the message.
#[test]
fn an_obj_line_of_terminal_sequences_is_quoted_escaped() {
    let tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    for (text, want) in [
        (
            format!("{tri}f 1 2 \u{1b}]0;owned\u{7}\u{1b}[2J\n"),
            "test.obj:4: '\\x1b]0;owned\\x07\\x1b[2J' is not a vertex index: 'f 1 2 \\x1b]0;owned\\x07\\x1b[2J'",
        ),
        (
            format!("{tri}v 1 2\r\u{1b}[2J\nf 1 2 3\n"),
            "test.obj:4: a vertex needs three numbers: 'v 1 2\\r\\x1b[2J'",
        ),
    ] {
        let e = load(&text).unwrap_err().to_string();
        assert_eq!(e, want);
        assert!(!e.chars().any(char::is_control), "{e:?}");
    }
}

/// A file of three vertices, `f 1 2 3` three million times
/// and then a bad vertex line was refused at its last line only after tobj had kept
/// every face (328 MiB). Every line is checked before tobj reads the file; faces whose
/// indices are already defined are not kept at all, and of the rest only those that
/// beat every earlier index (whose first past the end is the first bad face).
#[test]
fn a_bad_last_line_is_found_before_any_face_is_kept() {
    let mut text = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\n");
    text += &"f 1 2 3\n".repeat(1000);
    text += "v 1 2\n";
    let e = load(&text).unwrap_err().to_string();
    assert_eq!(e, "test.obj:1004: a vertex needs three numbers: 'v 1 2'");
    // Forward indices, the first past the end among many: the earliest bad face.
    let tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    let text = format!("{tri}f 1 2 4\nf 1 2 9\nf 1 2 5\nf 1 2 7\nv 1 1 1\nv 2 2 2\n");
    let e = load(&text).unwrap_err().to_string();
    assert_eq!(
        e,
        "test.obj:5: vertex index 9 is out of range (5 vertices defined by the end of its object): 'f 1 2 9'"
    );
    // Once any vertex has a colour, a face's vertex without one is named at the face.
    let text = "v 0 0 0 1 0 0\nv 1 0 0 1 0 0\nv 0 1 0\nf 1 2 3\n";
    let e = load(text).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "test.obj:4: face uses vertex 3, which has no colour, but the first 2 vertices have one"
        ),
        "{e}"
    );
    // One coloured vertex is "the first vertex" (it read "the first 1 vertices").
    let e = load("v 0 0 0 1 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("but the first vertex has one"), "{e}");
    assert!(load("v 0 0 0 1 0 0\nv 1 0 0 1 0 0\nv 0 1 0 1 0 0\nf 1 2 3\n").is_ok());
}

#[test]
fn nan_vertices_never_reach_the_map() {
    let m = load("v 0 0 0\nv 1 0 0\nv 0 1 0\nv nan 0 0\nf 1 2 3\nf 1 2 4\n").unwrap();
    assert_eq!(m.triangle_count(), 1);
    assert!(
        m.vertices
            .iter()
            .all(|v| v.position.iter().all(|x| x.is_finite()))
    );
    assert!(
        m.warnings.iter().any(|w| w.contains("non-finite")),
        "{:?}",
        m.warnings
    );
}

#[test]
fn points_and_lines_only_is_an_empty_map_error() {
    let e = load("v 0 0 0\nv 1 0 0\nl 1 2\np 1\n").unwrap_err();
    assert!(matches!(e, MapError::Empty { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("test.obj: no triangles to walk in")
    );
}

#[test]
fn missing_mtl_is_a_warning_and_grey() {
    let m = load(&format!("mtllib nowhere.mtl\nusemtl red\n{CUBE_FACE}")).unwrap();
    assert!(
        m.warnings.iter().any(|w| w.contains("nowhere.mtl")),
        "{:?}",
        m.warnings
    );
    assert_eq!(m.materials[m.batches[0].material].diffuse, [0.7, 0.7, 0.7]);
}

#[test]
fn mtl_colours_apply_per_material_one_batch_each() {
    let obj = "mtllib c.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nusemtl red\nf 1 2 3\nusemtl blue\nf 1 2 4\nusemtl red\nf 1 3 4\n";
    let mtl = "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\n";
    let m = load_obj_str("t.obj", obj, &[("c.mtl", mtl)], &LoadOptions::default()).unwrap();
    assert_eq!(m.batches.len(), 2);
    let colours: Vec<[f32; 3]> = m
        .batches
        .iter()
        .map(|b| m.materials[b.material].diffuse)
        .collect();
    assert!(colours.contains(&[1.0, 0.0, 0.0]) && colours.contains(&[0.0, 0.0, 1.0]));
    let red = m
        .batches
        .iter()
        .find(|b| m.materials[b.material].diffuse == [1.0, 0.0, 0.0])
        .unwrap();
    assert_eq!(red.count, 6);
}

#[test]
fn short_colour_in_mtl_is_completed_not_a_crash() {
    let mtl = "newmtl grey\nKd 0.5\nnewmtl bad\nKd x y z\n";
    let obj = format!("mtllib c.mtl\nusemtl grey\n{CUBE_FACE}");
    let m = load_obj_str("t.obj", &obj, &[("c.mtl", mtl)], &LoadOptions::default()).unwrap();
    assert_eq!(m.materials[m.batches[0].material].diffuse, [0.5, 0.5, 0.5]);
    assert!(
        m.warnings.iter().any(|w| w.contains("c.mtl:4")),
        "{:?}",
        m.warnings
    );
}

#[test]
fn spawn_object_marks_the_spawn_and_is_not_geometry() {
    let obj = format!("{CUBE_FACE}o spawn\nv 5 1 5\nv 5.1 1 5\nv 5 1 5.1\nf 5 6 7\n");
    let m = load(&obj).unwrap();
    assert_eq!(m.triangle_count(), 2);
    let s = m.marked_spawn.unwrap().position;
    assert!((s - Vec3::new(5.0333, 1.0, 5.0333)).length() < 1e-3);
}

#[test]
fn z_up_and_scale_are_applied() {
    let opts = LoadOptions {
        scale: Some(0.5),
        up: UpAxis::Z,
        ..LoadOptions::default()
    };
    let m = load_obj_str("t.obj", CUBE_FACE, &[], &opts).unwrap();
    // The face lay in z = 0 of a Z-up file: a floor, facing +Y in the world.
    assert!(m.vertices.iter().all(|v| v.position[1] == 0.0));
    assert!(m.triangles().all(|t| face_normal(t) == Some(Vec3::Y)));
    assert_eq!(m.bounds.max.x, 0.5);
}

#[test]
fn concave_polygon_is_ear_clipped_and_warned() {
    let obj = "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\nf 1 2 3 4 5 6\n";
    let m = load(obj).unwrap();
    assert_eq!(m.triangle_count(), 4);
    let area: f32 = m
        .triangles()
        .map(|[a, b, c]| (b - a).cross(c - a).length() / 2.0)
        .sum();
    assert!((area - 3.0).abs() < 1e-5);
    assert!(m.warnings.iter().any(|w| w.contains("concave")));
}

#[test]
fn every_refused_line_is_named_with_what_it_should_be() {
    let tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    let cases = [
        (
            format!("{tri}v 0 0 0 0\nf 1 2 3\n"),
            "test.obj:4: the fourth number of a vertex is its weight w and must not be 0: 'v 0 0 0 0'",
        ),
        (
            format!("{tri}v 1 2 3 4 5\nf 1 2 3\n"),
            "test.obj:4: a vertex is 'v x y z', 'v x y z w' (w not 0) or 'v x y z r g b', not 5 numbers: 'v 1 2 3 4 5'",
        ),
        (
            format!("{tri}usemtl\nf 1 2 3\n"),
            "test.obj:4: 'usemtl' needs a material name: 'usemtl'",
        ),
        (
            format!("{tri}f 1 2\r3x\n"),
            "test.obj:4: '3x' is not a vertex index: 'f 1 2\\r3x'",
        ),
        (
            format!("{tri}vt 0.5\nf 1 2 3\n"),
            "test.obj:4: a texture coordinate needs two numbers: 'vt 0.5'",
        ),
        (
            format!("{tri}f 1 2 3\no next\nf 1 2 -4\n"),
            "test.obj:6: relative vertex index -4 reaches before the first vertex (3 defined so far): 'f 1 2 -4'",
        ),
    ];
    for (text, want) in cases {
        let e = load(&text).unwrap_err().to_string();
        assert_eq!(e, want, "for {text:?}");
    }
}

/// A bad index is named at its face, with the face's reason: tobj finds a bad index
/// only as the face's object closes and stops on the line that closed it, which would
/// name the wrong line, often with the wrong reason.
#[test]
fn a_bad_face_is_named_at_its_own_line_with_its_own_reason() {
    let tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    let cases = [
        (
            // A face using a vertex defined after its object closed (was blamed on
            // "'o' needs a name: 'o b'").
            "v 0 0 0\nv 1 0 0\nf 1 2 3\no b\nv 0 1 0\n".to_string(),
            "test.obj:3: vertex index 3 is out of range (2 vertices defined by the end of its object): 'f 1 2 3'",
        ),
        (
            format!("{tri}f 1 2 0\no next\n"),
            "test.obj:4: vertex index 0 is invalid (OBJ indices start at 1): 'f 1 2 0'",
        ),
        (
            format!("{tri}f 1 2 0\n# the end\n"),
            "test.obj:4: vertex index 0 is invalid (OBJ indices start at 1): 'f 1 2 0'",
        ),
        (
            format!("{tri}vt 0 0\nf 1/1 2/0 3/1\n"),
            "test.obj:5: texture coordinate index 0 is invalid (OBJ indices start at 1): 'f 1/1 2/0 3/1'",
        ),
        (
            format!("{tri}vn 0 0 1\nf 1//1 2//0 3//1\n"),
            "test.obj:5: normal index 0 is invalid (OBJ indices start at 1): 'f 1//1 2//0 3//1'",
        ),
        (
            format!("{tri}vt 0 0\nf 1/1 /1 3/1\n"),
            "test.obj:5: the corner '/1' has no vertex index (a corner is v, v/vt, v//vn or v/vt/vn): 'f 1/1 /1 3/1'",
        ),
        (
            format!("{tri}f 1 2 4\nusemtl stone\nf 1 2 3\n"),
            "test.obj:4: vertex index 4 is out of range (3 vertices defined by the end of its object): 'f 1 2 4'",
        ),
    ];
    for (text, want) in cases {
        let e = load(&text).unwrap_err().to_string();
        assert_eq!(e, want, "for {text:?}");
    }
    // A face may use a vertex defined later in its own object, as tobj allows.
    assert!(load("v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 1 0\no next\n").is_ok());
}

/// `usemtl<TAB>name` was refused ("'usemtl' needs a material name"), and a file with
/// classic Mac line endings (CR alone) was called "text".
#[test]
fn tabs_and_carriage_return_line_endings_load() {
    let mtl = "newmtl red\nKd 1 0 0\n";
    let obj = format!("mtllib\tc.mtl\nusemtl\tred\n{CUBE_FACE}");
    let m = load_obj_str("t.obj", &obj, &[("c.mtl", mtl)], &LoadOptions::default()).unwrap();
    assert_eq!(m.materials[m.batches[0].material].diffuse, [1.0, 0.0, 0.0]);
    let mac = CUBE_FACE.replace('\n', "\r");
    let m = load(&mac).unwrap();
    assert_eq!(
        m.triangle_count(),
        load(CUBE_FACE).unwrap().triangle_count()
    );
    let e = load("v 0 0 0\rv 1 0 0\rf 1 2 3\r").unwrap_err().to_string();
    assert!(
        e.starts_with("test.obj:3: vertex index 3 is out of range"),
        "{e}"
    );
}

/// An OBJ starting with a UTF-8 byte order mark lost its first
/// vertex (tobj read `\u{feff}v` as no vertex) and every index named the one after;
/// an MTL lost its first `newmtl`. Both read as without it, errors at their own line.
#[test]
fn a_byte_order_mark_is_no_part_of_the_first_line() {
    let bom = |t: &str| format!("\u{feff}{t}");
    let mtl = "newmtl red\nKd 1 0 0\n";
    let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nmtllib c.mtl\nusemtl red\nf 1 2 3\n";
    let m = load_obj_str(
        "t.obj",
        &bom(obj),
        &[("c.mtl", &bom(mtl))],
        &LoadOptions::default(),
    )
    .unwrap();
    let plain = load_obj_str("t.obj", obj, &[("c.mtl", mtl)], &LoadOptions::default()).unwrap();
    assert_eq!(
        m.triangles().collect::<Vec<_>>(),
        plain.triangles().collect::<Vec<_>>()
    );
    assert_eq!(m.materials[m.batches[0].material].diffuse, [1.0, 0.0, 0.0]);
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    let e = load(&bom("v 0 0 0\nv 1 0 0\nf 1 2 4\n"))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("test.obj:3: vertex index 4 is out of range (2 vertices"),
        "{e}"
    );
}

#[test]
fn an_mtl_syntax_error_names_the_library_and_its_line() {
    let mtl = "newmtl a\nKd 1 0 0\nnewmtl b\nNs lots\n";
    let obj = format!("mtllib c.mtl\nusemtl a\n{CUBE_FACE}");
    let m = load_obj_str("t.obj", &obj, &[("c.mtl", mtl)], &LoadOptions::default()).unwrap();
    assert_eq!(
        m.warnings,
        vec!["c.mtl:4: cannot read 'Ns lots' (material parse error); its materials are grey"]
    );
}
