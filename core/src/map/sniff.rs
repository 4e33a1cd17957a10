//! What a file given as the map is when it is no OBJ, told before any line is parsed:
//! archives and compressed files, images and documents by their first bytes, a material
//! library by its first statement.
//!
//! A `.tar` of an OBJ, or a ZIP whose entries are stored uncompressed, shows the OBJ's
//! text through the archive's headers: parsed as OBJ, it loaded (exit 0) as whatever its
//! lines said; a deflated ZIP or a `.tar.gz` was refused at a line of binary bytes. Each
//! is now refused with one line that says what the file is and what to do.
//!
//! The signatures: ZIP, PKWARE's APPNOTE.TXT 4.3.7 (local file header), 4.3.16 (end of
//! central directory: an empty archive) and 8.5.3 (spanned); gzip, RFC 1952 2.3.1; xz,
//! the .xz file format 2.1.1.1; bzip2, the stream header "BZh" then a block size digit
//! and the first block's (or the end of stream's) magic; zstd, RFC 8878 3.1.1; 7-Zip,
//! 7zFormat.txt (signature header); RAR, RARLAB's technote ("Rar!" 1A 07); tar, POSIX
//! ustar ("ustar" at byte 257, NUL- or space-terminated by GNU tar); PNG, JPEG (SOI then
//! a marker), GIF87a/89a and PDF by their specifications' first bytes.

/// Bytes read from the start of a file to tell what it is (tar's magic ends at 263).
pub(super) const HEAD_BYTES: usize = 512;

/// A kind of file that is not an OBJ, known by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    Zip,
    SevenZip,
    Rar,
    Tar,
    Gzip,
    Xz,
    Bzip2,
    Zstd,
    Png,
    Jpeg,
    Gif,
    Pdf,
}

/// Bytes that must be at given offsets; a format may have several signatures.
struct Signature {
    parts: &'static [(usize, &'static [u8])],
    format: Format,
}

const SIGNATURES: [Signature; 16] = [
    sig(&[(0, b"PK\x03\x04")], Format::Zip),
    sig(&[(0, b"PK\x05\x06")], Format::Zip),
    sig(&[(0, b"PK\x07\x08")], Format::Zip),
    sig(&[(0, b"7z\xbc\xaf\x27\x1c")], Format::SevenZip),
    sig(&[(0, b"Rar!\x1a\x07")], Format::Rar),
    sig(&[(257, b"ustar\0")], Format::Tar),
    sig(&[(257, b"ustar  \0")], Format::Tar),
    sig(&[(0, b"\x1f\x8b")], Format::Gzip),
    sig(&[(0, b"\xfd7zXZ\0")], Format::Xz),
    sig(&[(0, b"BZh"), (4, b"1AY&SY")], Format::Bzip2),
    sig(
        &[(0, b"BZh"), (4, b"\x17\x72\x45\x38\x50\x90")],
        Format::Bzip2,
    ),
    sig(&[(0, b"\x28\xb5\x2f\xfd")], Format::Zstd),
    sig(&[(0, b"\x89PNG\r\n\x1a\n")], Format::Png),
    sig(&[(0, b"\xff\xd8\xff")], Format::Jpeg),
    sig(&[(0, b"GIF8")], Format::Gif),
    sig(&[(0, b"%PDF-")], Format::Pdf),
];

const fn sig(parts: &'static [(usize, &'static [u8])], format: Format) -> Signature {
    Signature { parts, format }
}

impl Format {
    /// The format in a sentence: "a ZIP archive".
    pub(super) fn article_name(self) -> &'static str {
        match self {
            Format::Zip => "a ZIP archive",
            Format::SevenZip => "a 7-Zip archive",
            Format::Rar => "a RAR archive",
            Format::Tar => "a tar archive",
            Format::Gzip => "a gzip-compressed file",
            Format::Xz => "an xz-compressed file",
            Format::Bzip2 => "a bzip2-compressed file",
            Format::Zstd => "a zstd-compressed file",
            Format::Png => "a PNG image",
            Format::Jpeg => "a JPEG image",
            Format::Gif => "a GIF image",
            Format::Pdf => "a PDF document",
        }
    }

    /// An archive or a compressed file: the map is inside, once unpacked.
    fn packed(self) -> bool {
        !matches!(self, Format::Png | Format::Jpeg | Format::Gif | Format::Pdf)
    }

    /// Why a file of this format is refused as the map (after its name and a colon).
    pub(super) fn refusal(self) -> String {
        let name = self.article_name();
        if self.packed() {
            format!("{name}: unpack it and open the .obj inside")
        } else {
            format!(
                "does not look like an OBJ file: it looks like {name} (an OBJ file is text with lines such as 'v x y z' and 'f 1 2 3')"
            )
        }
    }
}

/// The format of a file starting with `head` (its first [`HEAD_BYTES`] or all of it),
/// when it is one known not to be an OBJ.
pub(super) fn sniff(head: &[u8]) -> Option<Format> {
    SIGNATURES
        .iter()
        .find(|s| {
            s.parts
                .iter()
                .all(|(at, magic)| head.get(*at..).is_some_and(|h| h.starts_with(magic)))
        })
        .map(|s| s.format)
}

/// Whether the file at `path` reads as an OBJ by its first bytes: none of the formats
/// above and no material library (a folder's suggestions name only such files; an image
/// renamed `.obj` is no map to suggest). A file that cannot be read is none.
pub(crate) fn looks_like_obj(path: &std::path::Path) -> bool {
    crate::files::read_head(path, crate::files::FileKind::Obj, HEAD_BYTES).is_ok_and(|head| {
        sniff(&head).is_none() && !material_library(&String::from_utf8_lossy(&head))
    })
}

/// Statements of an OBJ file (Wavefront's specification, geometry and grouping, with
/// the free-form ones): the first of these or `newmtl` tells the two kinds of file apart.
const OBJ_STATEMENTS: [&str; 18] = [
    "v", "vt", "vn", "vp", "f", "fo", "l", "p", "o", "g", "s", "usemtl", "mtllib", "cstype",
    "curv", "curv2", "surf", "call",
];

/// Whether `text` is a material library: its first statement of an OBJ or of a library
/// (past blank lines, comments and lines neither knows) is `newmtl`, which no OBJ file
/// has. Some exporters open a library with a bare title line (lost_empire's
/// "Wavefront OBJ material file", no `#`): it is neither, and passed over.
pub(super) fn material_library(text: &str) -> bool {
    text.lines()
        .filter_map(|l| l.trim_start_matches('\u{feff}').split_whitespace().next())
        .find(|word| *word == "newmtl" || OBJ_STATEMENTS.contains(word))
        == Some("newmtl")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_by_their_first_bytes_and_obj_text_is_none() {
        let mut tar = vec![0u8; 512];
        tar[..7].copy_from_slice(b"tri.obj");
        tar[257..263].copy_from_slice(b"ustar\0");
        let mut gnu_tar = tar.clone();
        gnu_tar[257..265].copy_from_slice(b"ustar  \0");
        for (head, want) in [
            (&b"PK\x03\x04\x0a\0\0\0"[..], Format::Zip),
            (b"PK\x05\x06\0\0", Format::Zip),
            (b"7z\xbc\xaf\x27\x1c\0\x04", Format::SevenZip),
            (b"Rar!\x1a\x07\x01\0", Format::Rar),
            (&tar, Format::Tar),
            (&gnu_tar, Format::Tar),
            (b"\x1f\x8b\x08\0", Format::Gzip),
            (b"\xfd7zXZ\0\0\x04", Format::Xz),
            (b"BZh91AY&SY\x93", Format::Bzip2),
            (b"BZh9\x17\x72\x45\x38\x50\x90\0", Format::Bzip2),
            (b"\x28\xb5\x2f\xfd\x24", Format::Zstd),
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", Format::Png),
            (b"\xff\xd8\xff\xe0\0\x10JFIF", Format::Jpeg),
            (b"GIF89a", Format::Gif),
            (b"%PDF-1.7", Format::Pdf),
        ] {
            assert_eq!(sniff(head), Some(want), "{head:?}");
        }
        // OBJ text, however it starts; a short file; tar's magic at another offset.
        let mut late = vec![b' '; 512];
        late[258..264].copy_from_slice(b"ustar\0");
        for head in [
            &b"v 0 0 0\n"[..],
            b"# PK\x03\x04\n",
            b"BZh9 is no bzip2 stream\n",
            b"",
            b"P",
            &late,
        ] {
            assert_eq!(sniff(head), None, "{head:?}");
        }
    }

    #[test]
    fn a_material_library_starts_with_newmtl() {
        assert!(material_library(
            "# made by hand\n\nnewmtl brick\nKd 1 0 0\n"
        ));
        assert!(material_library("\u{feff}newmtl a\n"));
        assert!(!material_library("mtllib a.mtl\nv 0 0 0\n"));
        assert!(!material_library("# newmtl in a comment\nv 0 0 0\n"));
        assert!(!material_library(""));
    }

    /// `an_mtl_opening_with_a_bare_title_is_named_a_material_library`: lost_empire's
    /// library starts "Wavefront OBJ material file" (no `#`) and was refused as "text";
    /// an OBJ whose first line is such a title is still an OBJ.
    #[test]
    fn an_mtl_opening_with_a_bare_title_is_named_a_material_library() {
        assert!(material_library(
            "Wavefront OBJ material file\n# Contains 45 materials\n\nnewmtl Material_0\n"
        ));
        assert!(!material_library("Exported by a tool\nv 0 0 0\nnewmtl x\n"));
        assert!(!material_library("just some words\nand more\n"));
    }
}
