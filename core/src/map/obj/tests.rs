use super::*;
use crate::test_kit::random::Xorshift64;

// What one file loads as (faces, normals, materials, the spawn, axes and scale) and
// each line it refuses, and why; the tests here are of its readings agreeing.
mod loads;

const CUBE_FACE: &str = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";

/// `obj` read three ways: checked before tobj reads it; checked once tobj has refused
/// it; and that, read by two readers.
fn three_ways(obj: &str) -> [Result<Map, MapError>; 3] {
    [(usize::MAX, usize::MAX), (0, usize::MAX), (0, 0)].map(|(check_first, two_from)| {
        let (opts, progress) = (LoadOptions::default(), Progress::default());
        let source = Source::Memory(&[]);
        let reading = Reading {
            check_first,
            two_from,
            ..Reading::USUAL
        };
        parse("t.obj", obj, source, &opts, &progress, reading)
    })
}

#[test]
fn a_long_text_checked_after_tobj_refused_it_is_refused_at_the_same_line() {
    let mut obj = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\n");
    obj += &"f 1 2 3\n".repeat(200_000);
    for (tail, line) in [("v 1 2\n", 200_004), ("f 1 2 9\no next\n", 200_004)] {
        let [first, after, two] = three_ways(&(obj.clone() + tail)).map(|r| r.unwrap_err());
        assert_eq!(first.to_string(), after.to_string());
        assert_eq!(first.to_string(), two.to_string());
        assert!(
            matches!(after, MapError::Parse { line: l, .. } if l == line),
            "{after}"
        );
    }
    let [first, after, two] = three_ways(&obj).map(Result::unwrap);
    assert_eq!(first.vertices.len(), after.vertices.len());
    assert_eq!(first.vertices.len(), two.vertices.len());
    // The map keeps every face as the file has it (the world drops the repeats).
    assert_eq!(two.triangle_count(), 200_000);
}

/// What a load of `obj` (its libraries in `source`) made, read so: everything a map
/// is drawn, walked and described from, or the error.
fn made_by(obj: &str, source: Source, reading: Reading) -> String {
    let opts = LoadOptions::default();
    match parse("t.obj", obj, source, &opts, &Progress::default(), reading) {
        Ok(m) => format!(
            "{:?} {:?} {:?} {} {:?} {:?}",
            m.vertices, m.batches, m.marked_spawn, m.objects, m.warnings, m.details
        ),
        Err(e) => e.to_string(),
    }
}

/// A strip of `n` triangles over shared corners: its vertex lines and its face lines,
/// each face's corners as `corner` writes them from their indices.
fn strip(n: usize, corner: impl Fn(usize) -> String) -> (String, String) {
    let vertices = (0..n + 2)
        .map(|i| format!("v {} {} {}\n", i / 2, i % 2, i % 3))
        .collect();
    let faces = (1..=n)
        .map(|i| format!("f {} {} {}\n", corner(i), corner(i + 1), corner(i + 2)))
        .collect();
    (vertices, faces)
}

/// The library of [`tricky_files`].
const MTL: [(&str, &str); 1] = [("m.mtl", "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\n")];

/// Read by one reader, whole (no pieces).
const WHOLE: Reading = Reading {
    per_piece: usize::MAX,
    two_from: usize::MAX,
    ..Reading::USUAL
};

/// What a load of `obj` made, in pieces of `per_piece` faces.
fn made_in_pieces(obj: &str, source: Source, per_piece: usize) -> String {
    made_by(obj, source, Reading { per_piece, ..WHOLE })
}

/// What a load of `obj` made, read by two readers split at the first face line from
/// byte `split_from` where one may be.
fn made_in_halves(obj: &str, source: Source, split_from: usize) -> String {
    let reading = Reading {
        two_from: 0,
        split_from: Some(split_from),
        ..WHOLE
    };
    made_by(obj, source, reading)
}

/// The files whose map changed when tobj read them in pieces (read whole and in
/// pieces by `map::pieces`), with material libraries, repeated and after the last face.
fn tricky_files() -> Vec<String> {
    let plain = |i: usize| i.to_string();
    let (v, f) = strip(9, plain);
    let (_, f_uv) = strip(9, |i| format!("{i}/{i}"));
    let (_, f_n) = strip(4, |i| format!("{i}//1"));
    let texcoords: String = (0..11).map(|i| format!("vt {} 0\n", i % 2)).collect();
    [
        // An object named after Unicode whitespace: the cut repeats that name.
        format!("o spawn\n{v}f 1 2 3\no\u{a0}terrain\n{f}"),
        format!("o\u{0b}terrain\n{v}{f}"),
        // Faces naming a vertex, or texture coordinates, defined after them.
        "o floor\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 3 2\nf 1 4 3\nv 1 0 1\n".to_string(),
        format!("o floor\n{v}{f_uv}{texcoords}"),
        // Faces of fewer than three corners among the rest: counted once, however
        // split.
        format!("o floor\n{v}f 1 2\n{f}f 3\nl 1 2\n"),
        // One object whose faces mix normals and none: shaded alike.
        format!("o mixed\n{v}vn 0 1 0\n{f_n}{f}"),
        // A spawn marker of many faces keeps its centre.
        format!("{v}o player_start\n{f}"),
        // Comments and blank lines after an exact multiple of the pieces.
        format!("o a\n{v}{f}# end\n\n"),
        // Materials switched inside an object, and a usemtl after the last face.
        format!("mtllib m.mtl\no a\n{v}usemtl red\n{f}usemtl blue\n{f}usemtl red\n"),
        // Colours after the faces that use them: tobj
        // wants each vertex's colour as it exports, so no object ends before they come.
        format!("v 0 0 0 1 0 0\n{v}{f}{}", "v 0 0 0 1 1 1\n".repeat(12)),
        // Libraries named again after the split, and one missing (a warning each time).
        format!("mtllib m.mtl\n{v}usemtl red\n{f}mtllib none.mtl\nmtllib m.mtl\nusemtl blue\n{f}"),
    ]
    .to_vec()
}

/// Tobj closes an object where `usemtl`
/// changes the material it found, not the name. A name used before its library is
/// loaded (no material) and again after (red) closes the object there, and a face
/// before it using a vertex not defined yet was refused at the `usemtl` line as
/// "'usemtl' needs a material name"; now at the face's own line, with its reason, read
/// whole, in pieces and by two readers.
#[test]
fn a_face_checked_where_a_material_loaded_since_is_used_is_named_at_its_line() {
    let obj = "usemtl red\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\nmtllib m.mtl\nusemtl red\nv 0 1 0\nf 1 2 3\n";
    let want = "t.obj:5: vertex index 4 is out of range (3 vertices defined by the end of its object): 'f 1 2 4'";
    assert_eq!(made_in_pieces(obj, Source::Memory(&MTL), usize::MAX), want);
    assert_eq!(made_in_pieces(obj, Source::Memory(&MTL), 1), want);
    for (at, _) in obj.match_indices('\n') {
        assert_eq!(made_in_halves(obj, Source::Memory(&MTL), at + 1), want);
    }
}

/// Beside the rule above: the check does not close objects at `usemtl`, so it could
/// read on past one where tobj stops (the material changes, red to
/// blue, with a face out of range before it) and name a later bad line (a vertex of
/// two numbers, a face past the vertices) instead of that face. A line the check
/// refuses after such a `usemtl` waits for tobj, whose stop tells which; with two
/// names no library defines tobj reads on, and the later line is the one named.
#[test]
fn a_bad_line_after_a_usemtl_where_tobj_stops_names_the_face_before_it() {
    let head = "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 0 1\nusemtl red\nf 1 2 4\n";
    let face = "t.obj:6: vertex index 4 is out of range (3 vertices defined by the end of its object): 'f 1 2 4'";
    for tail in ["v 1 2\n", "f 1 2 9\ng x\n", "f 1 2 3\n"] {
        let obj = format!("{head}usemtl blue\nv 0 1 0\nf 1 2 3\n{tail}");
        for per_piece in [usize::MAX, 1] {
            let made = made_in_pieces(&obj, Source::Memory(&MTL), per_piece);
            assert_eq!(made, face, "{obj:?} in pieces of {per_piece}");
        }
    }
    // No library: `red` and `blue` are both no material, tobj reads on.
    let obj =
        "v 0 0 0\nv 1 0 0\nv 0 0 1\nusemtl red\nf 1 2 4\nusemtl blue\nv 0 1 0\nf 1 2 3\nv 1 2\n";
    assert_eq!(
        made_in_pieces(obj, Source::Memory(&MTL), usize::MAX),
        "t.obj:9: a vertex needs three numbers: 'v 1 2'"
    );
}

/// The other side of the same rule: two names that no library defines are one
/// material (none) to tobj, so no object closes between them, and a face there may
/// use a vertex defined before the object ends. The check closed objects where the
/// name changed, and refused the file tobj reads.
#[test]
fn faces_under_two_undefined_materials_are_one_object_and_the_file_loads() {
    let obj =
        "v 0 0 0\nv 1 0 0\nv 0 0 1\nusemtl nothing\nf 1 2 4\nusemtl other\nv 0 1 0\nf 1 2 3\n";
    let made = made_in_pieces(obj, Source::Memory(&MTL), usize::MAX);
    assert!(!made.contains("t.obj:"), "{made}");
    assert_eq!(load(obj).unwrap().triangle_count(), 2);
}

/// Each of [`tricky_files`] loads the same in pieces of 1, 2 and 3 faces as whole.
#[test]
fn a_map_read_in_pieces_is_the_map_read_whole() {
    for obj in &tricky_files() {
        let whole = made_in_pieces(obj, Source::Memory(&MTL), usize::MAX);
        assert!(!whole.contains("error"), "{obj}: {whole}");
        for per_piece in 1..=3 {
            let pieces = made_in_pieces(obj, Source::Memory(&MTL), per_piece);
            assert_eq!(pieces, whole, "{obj} in pieces of {per_piece}");
        }
    }
}

/// Each of [`tricky_files`] loads the same read by two readers, split at every line
/// where a split may be, as whole.
#[test]
fn a_map_read_by_two_readers_is_the_map_read_whole() {
    for obj in &tricky_files() {
        let whole = made_in_pieces(obj, Source::Memory(&MTL), usize::MAX);
        for (at, _) in obj.match_indices('\n') {
            let halves = made_in_halves(obj, Source::Memory(&MTL), at + 1);
            assert_eq!(halves, whole, "{obj} split from byte {}", at + 1);
        }
    }
}

/// Random texts of hostile lines (every kind of
/// line, relative and forward indices, two libraries naming one material, a missing
/// one, spawn markers, Unicode whitespace, a last line without its end), each read by
/// two readers split at every line, and in pieces of one face, makes one reader's map
/// or error.
#[test]
fn random_texts_read_by_two_readers_or_in_pieces_are_read_as_whole() {
    let lines: &[&str] = &[
        "v 0 0 0\n",
        "v 1 0 0\n",
        "v 0 1 0\n",
        "v nan 0 0\n",
        "v 0 0 0 1 1 1\n",
        "vt 0 0\n",
        "vt 1 1\n",
        "vn 0 0 1\n",
        "vn 0 0 0\n",
        "f 1 2 3\n",
        "f 3 4 1\n",
        "f 1 2 3 4\n",
        "f 1/1 2/2 3/1\n",
        "f 1//1 2//1 3//1\n",
        "f 1/1/1 2/2/1 3/1/1\n",
        "f -1 -2 -3\n",
        "f 1 5 6\n",
        "f 1/3 2/1 3/1\n",
        "  f 3 2 1\n",
        "f\u{a0}1 2 3\n",
        "l 1 2\n",
        "p 1\n",
        "o a\n",
        "o b\n",
        "g a\n",
        "g\n",
        "o spawn\n",
        "o player_start\n",
        "usemtl red\n",
        "usemtl blue\n",
        "usemtl green\n",
        "usemtl none\n",
        "mtllib m.mtl\n",
        "mtllib n.mtl\n",
        "mtllib missing.mtl\n",
        "mtllib m.mtl n.mtl\n",
        "# c\n",
        "\n",
        "s 1\n",
        "f 1 2 3\r\n",
        "o\u{0b}c\n",
    ];
    let mtl = [
        ("m.mtl", "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\n"),
        ("n.mtl", "newmtl green\nKd 0 1 0\nnewmtl red\nKd 1 1 0\n"),
    ];
    let mut seed = Xorshift64(0x1234_5678_9abc_def0);
    let mut random = || seed.next_u64();
    let mut loaded = 0;
    for _ in 0..300 {
        let mut text = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0 0\nvn 0 0 1\n");
        for _ in 0..4 + random() % 14 {
            text += lines[(random() % lines.len() as u64) as usize];
        }
        if random() % 4 == 0 {
            text.pop();
        }
        let whole = made_by(&text, Source::Memory(&mtl), WHOLE);
        loaded += usize::from(!whole.contains("t.obj:"));
        assert_eq!(
            made_in_pieces(&text, Source::Memory(&mtl), 1),
            whole,
            "{text:?}"
        );
        for (at, _) in text.match_indices('\n') {
            let halves = made_in_halves(&text, Source::Memory(&mtl), at + 1);
            assert_eq!(halves, whole, "{text:?} split from byte {}", at + 1);
        }
    }
    assert!(loaded > 30, "{loaded} of 300 loaded");
}

/// The same over the tricky and malformed files of a loader's bug reports, when the
/// shared folder is there (it is in CI): read in pieces of one face, and by two
/// readers split at eight places, each makes the same map, or the same error, as read
/// whole.
#[test]
fn the_obj_corpus_reads_the_same_in_pieces_and_halves() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/obj-corpus");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("SKIPPED: {} not found", dir.display());
        return;
    };
    let mut read = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "obj") {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let made = |per_piece| made_in_pieces(&text, Source::Dir(&dir), per_piece);
        let whole = made(usize::MAX);
        assert_eq!(made(1), whole, "{}", path.display());
        // Split by two readers at eight places along the file.
        for eighth in 0..8 {
            let from = text.len() * eighth / 8;
            let halves = made_in_halves(&text, Source::Dir(&dir), from);
            assert_eq!(halves, whole, "{} split from byte {from}", path.display());
        }
        read += 1;
    }
    assert!(read >= 40, "{read} files read");
}

#[test]
fn a_cancelled_load_stops_with_cancelled() {
    let progress = Progress::default();
    progress.cancel();
    let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n".repeat(1000);
    for (check_first, two_from) in [(usize::MAX, usize::MAX), (0, usize::MAX), (0, 0)] {
        let r = parse(
            "t.obj",
            &obj,
            Source::Memory(&[]),
            &LoadOptions::default(),
            &progress,
            Reading {
                check_first,
                two_from,
                ..Reading::USUAL
            },
        );
        assert!(matches!(r, Err(MapError::Cancelled { .. })), "{r:?}");
    }
}

fn load(obj: &str) -> Result<Map, MapError> {
    load_obj_str("test.obj", obj, &[], &LoadOptions::default())
}
