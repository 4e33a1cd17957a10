//! Files that are no map, given as the map: archives and compressed files are
//! told by their first bytes and refused with one line that says what they are and what
//! to do, before any line is parsed (a `.tar` of an OBJ and a ZIP stored uncompressed
//! loaded as an OBJ, exit 0); a material library names the OBJ beside it that uses it.
//! No message carries a byte of the file, nor a control character of its name.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use walkthrough_core::map::{LoadOptions, load_obj_file, load_obj_str};

/// A triangle, after a comment line (an archive's header swallows the first line up to
/// its newline; the vertices after it show through).
const TRIANGLE: &str = "# a triangle\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n";

/// A fresh scratch folder for one test.
fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "walkthrough-not-maps-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// CRC-32 (ISO-HDLC, the ZIP one), bit by bit: the archives here are a few hundred bytes.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

/// A ZIP archive of one file `name` holding `data`, stored uncompressed (PKWARE's
/// APPNOTE.TXT: local file header 4.3.7, central directory header 4.3.12, end of central
/// directory 4.3.16).
fn stored_zip(name: &str, data: &[u8]) -> Vec<u8> {
    let (crc, size, len) = (crc32(data), data.len() as u32, name.len() as u16);
    let mut z = Vec::new();
    // Version 1.0, no flags, method 0 (stored), time 0, date 1980-01-01.
    let common = |z: &mut Vec<u8>| {
        for h in [10u16, 0, 0, 0, 0x21] {
            z.extend(h.to_le_bytes());
        }
        for w in [crc, size, size] {
            z.extend(w.to_le_bytes());
        }
        z.extend(len.to_le_bytes());
    };
    z.extend(b"PK\x03\x04");
    common(&mut z);
    z.extend(0u16.to_le_bytes()); // no extra field
    z.extend(name.as_bytes());
    z.extend(data);
    let central = z.len() as u32;
    z.extend(b"PK\x01\x02");
    z.extend(20u16.to_le_bytes()); // made by version 2.0
    common(&mut z);
    z.extend([0u8; 2 + 2 + 2 + 2 + 4 + 4]); // extra, comment, disk, attributes, offset 0
    z.extend(name.as_bytes());
    let central_size = z.len() as u32 - central;
    z.extend(b"PK\x05\x06");
    z.extend([0u8; 4]); // this disk, the central directory's disk
    z.extend(1u16.to_le_bytes());
    z.extend(1u16.to_le_bytes());
    z.extend(central_size.to_le_bytes());
    z.extend(central.to_le_bytes());
    z.extend(0u16.to_le_bytes()); // no comment
    z
}

/// A POSIX ustar archive of one file `name` holding `data`.
fn tar(name: &str, data: &[u8]) -> Vec<u8> {
    let mut h = [0u8; 512];
    let mut put = |at: usize, field: &[u8]| h[at..at + field.len()].copy_from_slice(field);
    put(0, name.as_bytes());
    put(100, b"0000644\0");
    put(108, b"0000000\0");
    put(116, b"0000000\0");
    put(124, format!("{:011o}\0", data.len()).as_bytes());
    put(136, b"00000000000\0");
    put(148, b"        "); // the checksum counts its own field as spaces
    put(156, b"0");
    put(257, b"ustar\0");
    put(263, b"00");
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    let mut t = h.to_vec();
    t.extend(data);
    t.resize(t.len().div_ceil(512) * 512 + 1024, 0);
    t
}

/// Real streams of `v 0 0 0 / v 1 0 0 / v 0 0 1 / f 1 2 3`, made by `gzip -n -9`,
/// `xz -9`, `bzip2 -9` and `zstd -19`.
const GZIP: &[u8] = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\x2b\x53\x30\x00\x41\xae\x32\x05\x43\x28\x0d\xe2\x1b\x72\xa5\x01\xf9\x46\x0a\xc6\x5c\x00\x12\xde\x09\x5e\x20\x00\x00\x00";
const XZ: &[u8] = b"\xfd\x37\x7a\x58\x5a\x00\x00\x04\xe6\xd6\xb4\x46\x02\x00\x21\x01\x1c\x00\x00\x00\x10\xcf\x58\xcc\xe0\x00\x1f\x00\x16\x5d\x00\x3b\x08\x02\x11\x02\x0a\x80\x5b\x9c\x8b\x83\x0b\xcc\xb0\xba\x6f\x4d\xd6\x4f\x1c\x64\x20\x00\x00\x00\x99\x0b\x65\x0f\xd1\x2f\xc3\xce\x00\x01\x32\x20\x92\xc1\x98\xf6\x1f\xb6\xf3\x7d\x01\x00\x00\x00\x00\x04\x59\x5a";
const BZIP2: &[u8] = b"\x42\x5a\x68\x39\x31\x41\x59\x26\x53\x59\x93\xed\x81\xe4\x00\x00\x0e\xd9\x80\x00\x10\x40\x00\x78\x00\x01\x00\x01\x00\x20\x00\x31\x0c\x08\x12\x9a\x6a\x1f\xaa\x5e\xf0\x36\x24\x23\x54\x31\x0f\x8b\xb9\x22\x9c\x28\x48\x49\xf6\xc0\xf2\x00";
const ZSTD: &[u8] = b"\x28\xb5\x2f\xfd\x24\x20\xe5\x00\x00\x92\x01\x05\x0a\xe0\xe9\x58\xc0\x94\xbd\x3b\xa1\xf1\x09\x0a\xc1\x29\x9a\xfb\x1c\xed\xee\x04\x01\x00\xb3\xeb\x05\x55\x23\x37\xdd";

/// A 7-Zip signature header (7zFormat.txt: signature, version 0.4, start header CRC,
/// next header offset, size and CRC) and some packed bytes.
fn seven_zip() -> Vec<u8> {
    let mut s = b"7z\xbc\xaf\x27\x1c\x00\x04".to_vec();
    let start: Vec<u8> = [32u64.to_le_bytes(), 6u64.to_le_bytes()]
        .concat()
        .into_iter()
        .chain(0u32.to_le_bytes())
        .collect();
    s.extend(crc32(&start).to_le_bytes());
    s.extend(start);
    s.extend(b"\x00\x1b\x0a\x00\xff\x01");
    s
}

/// Each kind of file, as it would be named, and the one line that refuses it.
fn kinds() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let mut png = Vec::new();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut png),
        &[200, 10, 10],
        1,
        1,
        image::ExtendedColorType::Rgb8,
    )
    .unwrap();
    vec![
        (
            "conference.zip",
            stored_zip("tri.obj", TRIANGLE.as_bytes()),
            "a ZIP archive",
        ),
        (
            "tri.tar",
            tar("tri.obj", TRIANGLE.as_bytes()),
            "a tar archive",
        ),
        ("tri.obj.gz", GZIP.to_vec(), "a gzip-compressed file"),
        ("tri.obj.xz", XZ.to_vec(), "an xz-compressed file"),
        ("tri.obj.bz2", BZIP2.to_vec(), "a bzip2-compressed file"),
        ("tri.obj.zst", ZSTD.to_vec(), "a zstd-compressed file"),
        ("tri.7z", seven_zip(), "a 7-Zip archive"),
        (
            "tri.rar",
            b"Rar!\x1a\x07\x01\x00\x33\x92\xb5\xe5\x0a\x01".to_vec(),
            "a RAR archive",
        ),
        ("photo.obj", png, "a PNG image"),
    ]
}

/// The whole message, one line, with no control character (nor any byte of the file).
fn assert_one_clean_line(message: &str) {
    assert!(!message.contains('\n'), "more than one line: {message:?}");
    assert!(
        !message.chars().any(|c| c.is_control() || c == '\u{fffd}'),
        "a control character or a replaced byte: {message:?}"
    );
}

#[test]
fn each_archive_or_compressed_file_is_refused_with_one_line_before_parsing() {
    let d = scratch("kinds");
    for (name, bytes, what) in kinds() {
        let p = d.join(name);
        std::fs::write(&p, &bytes).unwrap();
        let e = load_obj_file(&p, &LoadOptions::default())
            .err()
            .unwrap_or_else(|| panic!("{name} loaded as a map"))
            .to_string();
        let why = if what.ends_with("image") {
            format!(
                "does not look like an OBJ file: it looks like {what} (an OBJ file is text with lines such as 'v x y z' and 'f 1 2 3')"
            )
        } else {
            format!("{what}: unpack it and open the .obj inside")
        };
        assert_eq!(e, format!("{}: {why}", p.display()), "{name}");
        assert_one_clean_line(&e);
    }
}

/// Both loaded, exit 0, before: their OBJ's lines show through the archive's headers.
#[test]
fn a_tar_or_a_stored_zip_of_an_obj_is_refused_not_loaded() {
    let d = scratch("show-through");
    for (name, bytes) in [
        ("stored.zip", stored_zip("tri.obj", TRIANGLE.as_bytes())),
        ("tri.tar", tar("tri.obj", TRIANGLE.as_bytes())),
    ] {
        // Read as text, the archive is a loadable OBJ: only its first bytes tell.
        let as_text = String::from_utf8_lossy(&bytes);
        let shown_through = load_obj_str(name, &as_text, &[], &LoadOptions::default());
        assert_eq!(shown_through.map(|m| m.triangle_count()).ok(), Some(1));
        let p = d.join(name);
        std::fs::write(&p, &bytes).unwrap();
        let e = load_obj_file(&p, &LoadOptions::default()).unwrap_err();
        assert!(
            e.to_string()
                .ends_with(": unpack it and open the .obj inside"),
            "{e}"
        );
    }
}

/// A file name's own control characters are escaped too.
#[test]
fn an_archive_with_an_escape_in_its_name_is_refused_in_printable_text() {
    let d = scratch("escape");
    let p = d.join("evil\u{1b}[2J\r.zip");
    std::fs::write(&p, stored_zip("tri.obj", TRIANGLE.as_bytes())).unwrap();
    let e = load_obj_file(&p, &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert_one_clean_line(&e);
    assert_eq!(
        e,
        format!(
            "{}/evil\\x1b[2J\\r.zip: a ZIP archive: unpack it and open the .obj inside",
            d.display()
        )
    );
}

#[test]
fn a_material_library_as_the_map_names_the_obj_beside_it_that_uses_it() {
    let d = scratch("mtl");
    let mtl = "# exported\nnewmtl stone\nKd 0.5 0.5 0.5\n";
    std::fs::write(d.join("atrium.mtl"), mtl).unwrap();
    // Named in another case, as Windows exporters do; another OBJ uses another library.
    std::fs::write(
        d.join("atrium.obj"),
        format!("mtllib ATRIUM.MTL\n{TRIANGLE}"),
    )
    .unwrap();
    std::fs::write(d.join("other.obj"), format!("mtllib other.mtl\n{TRIANGLE}")).unwrap();
    let e = load_obj_file(&d.join("atrium.mtl"), &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        format!(
            "{}: a material library; open the .obj that uses it ({})",
            d.join("atrium.mtl").display(),
            d.join("atrium.obj").display()
        )
    );
    assert_one_clean_line(&e);
    // Alone in its folder (and named .obj), it says what it is and names no file.
    let alone = scratch("mtl-alone");
    std::fs::write(alone.join("materials.obj"), mtl).unwrap();
    let e = load_obj_file(&alone.join("materials.obj"), &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        format!(
            "{}: a material library; open the .obj that uses it",
            alone.join("materials.obj").display()
        )
    );
}

fn sim(map: &Path, script: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_walkthrough"))
        // Never the user's remembered corrections: an empty settings folder.
        .env(
            "WALKTHROUGH_CONFIG_DIR",
            std::env::temp_dir().join("walkthrough-tests-config"),
        )
        .args(["sim", map.to_str().unwrap(), "--script"])
        .arg(script)
        .output()
        .expect("binary runs")
}

#[test]
fn sim_of_an_archive_exits_non_zero_with_its_one_line() {
    let d = scratch("cli");
    let script = d.join("wait.txt");
    std::fs::write(&script, "wait 0.1\n").unwrap();
    for (name, bytes, what) in [
        (
            "conference.zip",
            stored_zip("tri.obj", TRIANGLE.as_bytes()),
            "a ZIP archive",
        ),
        ("level.tar.gz", GZIP.to_vec(), "a gzip-compressed file"),
    ] {
        let p = d.join(name);
        std::fs::write(&p, bytes).unwrap();
        let o = sim(&p, &script);
        assert!(!o.status.success(), "{name}: exit 0");
        let err = String::from_utf8(o.stderr).expect("UTF-8 on stderr");
        assert_eq!(
            err,
            format!(
                "walkthrough: error: {}: {what}: unpack it and open the .obj inside\n",
                p.display()
            )
        );
        assert!(
            o.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
}
