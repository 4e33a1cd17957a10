//! Reading a built map's file back: its header checked against this build's and the
//! content's key, then its body, section by section, every part checked before it is
//! used; and the messages of a map kept under another name given the name opened now.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;
use std::time::SystemTime;

use glam::Vec3;

use super::layout::{BatchRecord, Counts, MAGIC, Points, VERSION_END, header, lines_of};
use super::sections::Reader;
use super::{Cached, file_for};
use crate::collision::{CollisionWorld, NodeRecord, WorldParts};
use crate::files::Digest;
use crate::geometry::{Aabb, Triangle};
use crate::map::progress::Progress;
use crate::map::{Batch, Corners, Map, MarkedSpawn, Material, Solids, Vertex};

/// The map of content `digest` kept in `dir`: `None` when there is none (or it was made
/// by other code, or for other content), an error when it is there but damaged.
/// With `drawn` false (`sim`), the map's vertices, which only the renderer draws, are
/// passed over: the map has the triangles of its world alone. `progress` is told the
/// file's length, then the bytes read of it.
pub fn load(
    dir: &Path,
    digest: &Digest,
    drawn: bool,
    progress: &Progress,
) -> Option<Result<Cached, String>> {
    let path = file_for(dir, digest);
    // A pipe, device or socket at a kept map's name is refused before it is opened (a
    // FIFO there would hold `sim` waiting for a writer for ever), and checked again on
    // the handle. The caller removes it and builds the map again.
    let not_regular = || {
        Some(Err(format!(
            "{}: is not a regular file (a folder, pipe, device or socket)",
            path.display()
        )))
    };
    if !std::fs::metadata(&path).ok()?.is_file() {
        return not_regular();
    }
    let file = File::open(&path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return not_regular();
    }
    let left = meta.len();
    progress.set_total(left);
    progress.read(0);
    let mut r = Reader {
        input: BufReader::with_capacity(1 << 20, file),
        left,
        progress,
    };
    let want = header(digest);
    let mut head = vec![0u8; want.len()];
    // Cut short, or not this cache's magic: damaged. The same magic with another format
    // or code is a file of another build of the program, passed over in silence. A whole
    // header with another content's key is another map's cache under this one's name
    // (copied or renamed), not damage.
    let damaged = || Some(Err(format!("{}: its header is damaged", path.display())));
    if r.exact(&mut head).is_err() || head[..MAGIC.len()] != MAGIC {
        return damaged();
    }
    if head[..VERSION_END] != want[..VERSION_END] {
        return None;
    }
    if head != want {
        return Some(Err(format!(
            "{}: is another map's cache (its key names other content)",
            path.display()
        )));
    }
    // Used recently: trimmed last.
    let _ = File::options()
        .append(true)
        .open(&path)
        .and_then(|f| f.set_modified(SystemTime::now()));
    Some(read_body(&mut r, drawn).map_err(|e| format!("{}: {e}", path.display())))
}

fn read_body<R: Read + std::io::Seek>(r: &mut Reader<R>, drawn: bool) -> Result<Cached, String> {
    let counts: Counts = r.one()?;
    let points: Points = r.one()?;
    let (positions, full, batches, of_triangle): (
        Vec<[f32; 3]>,
        Vec<Vertex>,
        Vec<BatchRecord>,
        Vec<u32>,
    ) = if drawn {
        (r.section()?, r.section()?, r.section()?, r.section()?)
    } else {
        r.skip::<[f32; 3]>()?;
        r.skip::<Vertex>()?;
        r.skip::<BatchRecord>()?;
        r.skip::<u32>()?;
        Default::default()
    };
    let built_as = String::from_utf8_lossy(&r.section::<u8>()?).into_owned();
    let warnings = lines_of(&r.section::<u8>()?);
    let details = lines_of(&r.section::<u8>()?);
    let triangles: Vec<Triangle> = r.section()?;
    let nodes: Vec<NodeRecord> = r.section()?;
    if r.left != 0 {
        return Err("it goes on past its last section: damaged".into());
    }
    let world = CollisionWorld::from_parts(WorldParts {
        triangles,
        nodes,
        dropped: counts.dropped,
        duplicates: counts.duplicates,
        depth: counts.depth,
    })?;
    let vertices = if !drawn {
        Corners::default()
    } else if counts.derived != 0 {
        Corners::Positions(positions)
    } else if full.len() == positions.len() {
        drop(positions);
        Corners::Full(full)
    } else {
        return Err("its vertices are not whole: damaged".into());
    };
    let finite = match &vertices {
        Corners::Full(v) => bytemuck::cast_slice::<Vertex, f32>(v)
            .iter()
            .all(|x| x.is_finite()),
        Corners::Positions(p) => p.iter().flatten().all(|x| x.is_finite()),
    };
    let whole = vertices.len().is_multiple_of(3)
        && finite
        && batches.iter().all(|&[m, first, count]| {
            m == 0 && u64::from(first) + u64::from(count) <= vertices.len() as u64
        })
        && (of_triangle.is_empty() || of_triangle.len() * 3 == vertices.len());
    if !whole {
        return Err("its map is not whole: damaged".into());
    }
    // The spawn and the bounds as a built map has them: finite (a forged spawn of NaN
    // would walk every trace row as NaN).
    let finite = |p: &[f32; 3]| p.iter().all(|x| x.is_finite());
    if !(finite(&points.spawn) && finite(&points.min) && finite(&points.max)) {
        return Err("its spawn or bounds are not numbers: damaged".into());
    }
    let mut map = Map {
        materials: vec![Material::default_grey()],
        ..Map::default()
    };
    map.vertices = vertices;
    map.batches = batches
        .iter()
        .map(|&[material, first, count]| Batch {
            material: material as usize,
            first,
            count,
        })
        .collect();
    map.bounds = Aabb {
        min: Vec3::from(points.min),
        max: Vec3::from(points.max),
    };
    map.solids = Solids {
        of_triangle,
        count: counts.solids as u32,
    };
    map.marked_spawn = (counts.has_spawn != 0).then(|| MarkedSpawn {
        position: Vec3::from(points.spawn),
    });
    map.objects = counts.objects as usize;
    map.warnings = warnings;
    map.details = details;
    Ok(Cached {
        map,
        world,
        built_as,
    })
}

/// Give `map`'s messages, made when the file was `built_as`, the name `shown` of the file
/// opened now (the same content under another name or from another folder): a warning
/// must name the file the user opened.
pub(crate) fn rename_messages(map: &mut Map, built_as: &str, shown: &str) {
    if built_as.is_empty() || built_as == shown {
        return;
    }
    for line in map.warnings.iter_mut().chain(map.details.iter_mut()) {
        if let Some(rest) = line.strip_prefix(built_as)
            && rest.starts_with(':')
        {
            *line = format!("{shown}{rest}");
        }
    }
}
