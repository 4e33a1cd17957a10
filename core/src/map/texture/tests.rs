use super::*;
use crate::map::{LoadOptions, load_obj_file};

/// A folder with a quad whose three materials use three 64 x 64 PNGs.
fn three_textures(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "walkthrough-textures-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let mut mtl = String::new();
    let mut obj = String::from("mtllib m.mtl\n");
    for k in 0..3 {
        let img = image::GrayImage::from_pixel(64, 64, image::Luma([40 * k + 20]));
        img.save(d.join(format!("t{k}.png"))).unwrap();
        mtl += &format!("newmtl m{k}\nKd 1 1 1\nmap_Kd t{k}.png\n");
        let x = k as f32 * 2.0;
        obj += &format!(
            "v {x} 0 0\nv {} 0 0\nv {x} 0 1\nusemtl m{k}\nf -3 -2 -1\n",
            x + 1.0
        );
    }
    std::fs::write(d.join("m.mtl"), mtl).unwrap();
    std::fs::write(d.join("m.obj"), obj).unwrap();
    d
}

fn load(d: &Path, textures: TextureOptions) -> crate::map::Map {
    let opts = LoadOptions {
        textures,
        ..LoadOptions::default()
    };
    load_obj_file(&d.join("m.obj"), &opts).unwrap()
}

fn sizes(m: &crate::map::Map) -> Vec<Option<(u32, u32)>> {
    m.materials[1..]
        .iter()
        .map(|m| m.texture.as_ref().map(|t| (t.width, t.height)))
        .collect()
}

/// Textures had no total budget (five grey 16384-pixel PNGs
/// took 5.4 GiB). Past the budget they are drawn in their plain colour, with one
/// warning; wider than the widest side kept, they are scaled down.
#[test]
fn textures_past_the_budget_are_plain_and_wide_ones_are_scaled_down() {
    let d = three_textures("budget");
    let all = load(&d, TextureOptions::default());
    assert_eq!(sizes(&all), vec![Some((64, 64)); 3]);
    assert!(all.warnings.is_empty(), "{:?}", all.warnings);
    // Room for two of 64 x 64 x 4 bytes.
    let two = load(
        &d,
        TextureOptions {
            budget: 2 * 64 * 64 * 4,
            ..TextureOptions::default()
        },
    );
    assert_eq!(sizes(&two), vec![Some((64, 64)), Some((64, 64)), None]);
    assert_eq!(two.warnings.len(), 1, "{:?}", two.warnings);
    assert!(
        two.warnings[0].starts_with("1 textures (the first ")
            && two.warnings[0].ends_with("t2.png) did not fit the 32768 bytes of decoded textures a map may keep; their materials are drawn in plain colours"),
        "{}",
        two.warnings[0]
    );
    let small = load(
        &d,
        TextureOptions {
            max_side: 16,
            ..TextureOptions::default()
        },
    );
    assert_eq!(sizes(&small), vec![Some((16, 16)); 3]);
    assert_eq!(
        small.warnings,
        vec!["3 textures wider than 16 pixels were scaled down to it"]
    );
    // The grey of the second texture survives scaling (and becomes RGBA).
    let t = small.materials[2].texture.as_ref().unwrap();
    assert_eq!(&t.rgba[..4], &[60, 60, 60, 255]);
}

/// An atrium's MTL names `SP_LUK.JPG` where its folder holds `sp_luk.JPG`
/// (files written on Windows, which also write `\` in paths), and "9 textures not
/// found" drew grey arches. Each is found, ignoring case where it must, and
/// `--verbose`'s details say which were matched by case.
#[test]
fn textures_named_in_another_case_or_with_backslashes_are_all_found() {
    let d = std::env::temp_dir().join(format!("walkthrough-textures-{}-case", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("Maps/Stone")).unwrap();
    let files = [
        "sp_luk.png",
        "00_skap.png",
        "Maps/Stone/Wall.png",
        "exact.png",
    ];
    for (k, f) in files.iter().enumerate() {
        let img = image::GrayImage::from_pixel(8, 8 + k as u32, image::Luma([50]));
        img.save(d.join(f)).unwrap();
    }
    // Each material's texture: as the MTL names it, and the file it must find.
    let named = [
        ("SP_LUK.PNG", "sp_luk.png"),
        ("00_Skap.PNG", "00_skap.png"),
        (r"maps\STONE\wall.png", "Maps/Stone/Wall.png"),
        (r"Maps\Stone\Wall.png", "Maps/Stone/Wall.png"),
        ("-s 1 1 1 Sp_Luk.png", "sp_luk.png"),
        ("exact.png", "exact.png"),
    ];
    let (mut mtl, mut obj) = (String::new(), String::from("mtllib m.mtl\n"));
    for (k, (name, _)) in named.iter().enumerate() {
        mtl += &format!("newmtl m{k}\nKd 1 1 1\nmap_Kd {name}\n");
        let x = k as f32 * 2.0;
        obj += &format!(
            "v {x} 0 0\nv {} 0 0\nv {x} 0 1\nusemtl m{k}\nf -3 -2 -1\n",
            x + 1.0
        );
    }
    std::fs::write(d.join("m.mtl"), mtl).unwrap();
    std::fs::write(d.join("m.obj"), obj).unwrap();
    let m = load(&d, TextureOptions::default());
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    for (k, (name, file)) in named.iter().enumerate() {
        let height = 8 + files.iter().position(|f| f == file).unwrap() as u32;
        let t = m.materials[k + 1].texture.as_ref();
        assert_eq!(t.map(|t| (t.width, t.height)), Some((8, height)), "{name}");
    }
    // Three files matched by case, each said once (under the name first met); the
    // backslashed name of the right case is no match by case.
    let by_case: Vec<&String> = m
        .details
        .iter()
        .filter(|l| l.contains("found ignoring case"))
        .collect();
    let want: Vec<String> = named[..3]
        .iter()
        .map(|(name, file)| {
            format!(
                "texture {name} found ignoring case: {}",
                d.join(file).display()
            )
        })
        .collect();
    assert_eq!(by_case, want.iter().collect::<Vec<_>>());
    // Every texture is an input of the map (outputs may never overwrite one).
    for f in files {
        assert!(m.inputs.contains(&d.join(f)), "{f}: {:?}", m.inputs);
    }
}

/// `sim` draws nothing: its textures are looked for, never decoded, and the missing
/// are no warning (only a detail for `--verbose`).
#[test]
fn without_decoding_textures_are_only_looked_for_and_the_missing_not_warned_of() {
    let d = three_textures("nodecode");
    std::fs::remove_file(d.join("t1.png")).unwrap();
    let m = load(
        &d,
        TextureOptions {
            decode: false,
            ..TextureOptions::default()
        },
    );
    assert_eq!(sizes(&m), vec![None; 3]);
    assert_eq!(m.warnings, Vec::<String>::new());
    assert!(
        m.details
            .iter()
            .any(|d| d.starts_with("texture t1.png not found")),
        "{:?}",
        m.details
    );
    assert!(m.inputs.iter().any(|p| p.ends_with("t0.png")));
}

/// "texture -colorspace sRGB -o 0.1 diffuse.jpg not found":
/// a missing texture named with options is said by its file's name.
#[test]
fn a_missing_texture_named_with_options_is_said_by_its_file_name() {
    let d = three_textures("options");
    let mtl = std::fs::read_to_string(d.join("m.mtl")).unwrap();
    let mtl = mtl.replace(
        "map_Kd t1.png",
        "map_Kd -colorspace sRGB -o 0.1 diffuse.jpg",
    );
    std::fs::write(d.join("m.mtl"), mtl).unwrap();
    let m = load(&d, TextureOptions::default());
    assert_eq!(sizes(&m), vec![Some((64, 64)), None, Some((64, 64))]);
    assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
    assert!(
        m.warnings[0].starts_with("texture diffuse.jpg not found in "),
        "{:?}",
        m.warnings
    );
}
