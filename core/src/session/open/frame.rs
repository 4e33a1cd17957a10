//! The frame stage of an open: what is given of a map's up axis and scale (the options,
//! or the user's correction remembered for the file), the reasons the load gives for the
//! frame it settled on, the world turned and scaled into it (Y up, metres), and the
//! checks that the map is one a person can walk in and the scale one they can stand in.

use std::path::Path;

use crate::collision::CollisionWorld;
use crate::files::Digest;
use crate::map::{MAX_WORLD_EXTENT, Map, MapError, MapFrame, UpAxis};
use crate::session::{MIN_RESCALED_EXTENT, OpenOptions};
use crate::store::{ContentKey, Store, recall_by_key};
use crate::survey::{FrameGuess, Given};

/// The user's correction of a map's frame, remembered in the store by the file's content
/// ([`crate::store`]): recalled into an open's options once the file's digest is known,
/// or, asked to `forget`, dropped.
pub struct Recall<'a> {
    /// The store (`None`: nothing is recalled or dropped).
    store: Option<&'a mut Store>,
    /// Drop what is remembered of the file instead (`--forget`).
    forget: bool,
    /// The file's content key, once its digest is known (`None`: the built-in map, a
    /// scene, or a file that could not be read).
    pub key: Option<ContentKey>,
    /// What the store said: what was forgotten, or why saving failed.
    pub note: Option<String>,
}

impl<'a> Recall<'a> {
    /// What `store` remembers of the file opened, to be recalled, or with `forget`
    /// dropped.
    pub fn new(store: Option<&'a mut Store>, forget: bool) -> Recall<'a> {
        Recall {
            store,
            forget,
            key: None,
            note: None,
        }
    }

    /// The file at `path` has the content `digest`: what the store remembers of it fills
    /// what `opts` leave open (see [`recall_by_key`]), or is dropped.
    pub(super) fn heard(&mut self, digest: &Digest, path: &Path, opts: &mut OpenOptions) {
        let key = ContentKey::from(*digest);
        if let Some(store) = self.store.as_deref_mut() {
            self.note = recall_by_key(store, &key, path, opts, self.forget);
        }
        self.key = Some(key);
    }
}

/// What is given of a map's frame before it is surveyed.
pub(super) struct GivenFrame {
    /// The up axis and scale known without the survey.
    pub(super) given: Given,
    /// The frame the user set for the file before, when it is what is given (for the
    /// reasons, and to blame should it make the map unusable).
    pub(super) remembered: Option<MapFrame>,
}

/// What is given of a map's frame: `opts`' up and scale, else the frame remembered for
/// the file, for a `file`; the built-in map is known (Y up, metres).
pub(super) fn given_frame(file: bool, opts: &OpenOptions) -> GivenFrame {
    let remembered = opts
        .remembered
        .filter(|_| file && opts.up.is_none() && opts.scale.is_none());
    let given = match (file, remembered) {
        (true, Some(r)) => Given {
            up: Some(r.up),
            scale: Some(r.scale),
        },
        (true, None) => Given {
            up: opts.up,
            scale: opts.scale,
        },
        (false, _) => Given {
            up: Some(opts.up.unwrap_or(UpAxis::Y)),
            scale: Some(opts.scale.unwrap_or(1.0)),
        },
    };
    GivenFrame { given, remembered }
}

/// Why a map has its scale and up axis.
pub(super) struct Reasons {
    /// Why it has its scale.
    pub(super) scale: String,
    /// Why it has its up axis.
    pub(super) up: String,
}

/// The reasons of a map's frame: the built-in map's, the frame remembered for the `file`,
/// or the survey's (`guess`).
pub(super) fn frame_reasons(
    opts: &OpenOptions,
    file: bool,
    remembered: Option<MapFrame>,
    guess: &FrameGuess,
) -> Reasons {
    Reasons {
        scale: match (opts.scale, file, remembered) {
            (None, false, _) => "the built-in map is in metres".to_string(),
            (_, _, Some(r)) => format!(
                "scale {} as you set it for this file (remembered; --forget drops it)",
                r.scale
            ),
            _ => guess.scale_reason.clone(),
        },
        up: match (opts.up, file, remembered) {
            (None, false, _) => "the built-in map is Y-up".to_string(),
            (_, _, Some(r)) => format!(
                "up axis {} as you set it for this file (remembered; --forget drops it)",
                r.up
            ),
            _ => guess.up_reason.clone(),
        },
    }
}

/// `world`, built in its file's coordinates, turned and scaled into `frame`'s world. A
/// file already Y-up keeps its world as built (turning ten million triangles by the
/// identity and refitting the tree took 0.6 s).
pub(super) fn to_world(world: CollisionWorld, frame: MapFrame) -> CollisionWorld {
    let turn = MapFrame {
        scale: 1.0,
        up: frame.up,
    };
    let turned = match frame.up {
        UpAxis::Y => world,
        _ => world.turned(|v| turn.rotate_to_world(v)),
    };
    turned.scaled(frame.scale)
}

/// A map made unusable by the frame `remembered` for its file says so: a scale of 1e38
/// set by hand in the settings would stop every open of it, with an error naming neither
/// the settings nor `--forget`.
pub(super) fn blamed_on(e: MapError, remembered: Option<MapFrame>) -> MapError {
    let Some(frame) = remembered else { return e };
    let blame = format!(
        "; the frame remembered for this file ({}) makes it so: --forget drops it",
        frame.flags()
    );
    match e {
        MapError::Invalid { path, reason } => MapError::Invalid {
            path,
            reason: reason + &blame,
        },
        MapError::Empty { path, reason } => MapError::Empty {
            path,
            reason: reason + &blame,
        },
        other => other,
    }
}

/// Refuse a map that nobody could walk in: every triangle lost its area on the way into
/// the world, or it reaches past [`MAX_WORLD_EXTENT`].
pub(super) fn usable(map: &Map, world: &CollisionWorld) -> Result<(), MapError> {
    let path = map.shown();
    if world.stats().triangles == 0 {
        return Err(MapError::Empty {
            path,
            reason: format!(
                "{} in world coordinates: placed or scaled so far out that their corners round together",
                match map.triangle_count() {
                    1 => "its one triangle loses its area".to_string(),
                    n => format!("all {n} triangles lose their area"),
                }
            ),
        });
    }
    let b = world.bounds();
    let reach = b.min.abs().max(b.max.abs()).max_element();
    if reach > MAX_WORLD_EXTENT {
        return Err(MapError::Invalid {
            path,
            reason: format!(
                "the map reaches {reach:e} m from the origin (bounds {:?} to {:?}), beyond the {MAX_WORLD_EXTENT:e} m where positions are too coarse to walk: move or scale it nearer the origin",
                b.min.to_array(),
                b.max.to_array()
            ),
        });
    }
    Ok(())
}

/// A warning for a map that `--scale` (given as `scale`) makes smaller across than
/// [`MIN_RESCALED_EXTENT`], where nobody stands (`--scale 1e-30` walked a map smaller than
/// an atom without a word), or that the survey surely reads in a
/// unit far from it (`doubt`, see [`crate::survey::FrameGuess::scale_doubt`]: `--scale
/// 1000` made a house 24 km across without a word). The window's `[` refuses to go
/// there; a scale given is the user's to keep, so it is said, not refused.
pub(super) fn doubtful_scale(
    world: &CollisionWorld,
    scale: Option<f32>,
    doubt: Option<&str>,
) -> Option<String> {
    let s = scale?;
    let across = world.bounds().size().max_element();
    if across < MIN_RESCALED_EXTENT {
        return Some(format!(
            "--scale {s:?} makes the map {across:.3e} m across, too small to stand in (a person is 1.8 m tall): is the scale right?"
        ));
    }
    doubt.map(|reads| {
        format!(
            "--scale {s} makes the map {across:.3e} m across, but it reads as {reads}: is the scale right?"
        )
    })
}
