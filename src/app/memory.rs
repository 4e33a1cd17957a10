//! What the window remembers of maps, and what it asks of the one open: the store
//! (settings, corrections, views, decals), the open file's content key, the frame
//! corrected for it, the survey's question and the person marker shown with either.

use std::path::Path;
use std::time::{Duration, Instant};

use walkthrough_core::map::MapFrame;
use walkthrough_core::store::{ContentKey, Store};

use super::ui::offer::Offer;

/// How long the person marker stands after a correction.
const MARKER_TIME: Duration = Duration::from_secs(10);

/// The map's memory.
pub struct MapMemory {
    /// The settings and what is remembered of maps (corrections, views, decals).
    pub store: Store,
    /// The current map file's content key (`None`: the built-in map or a scene).
    pub content_key: Option<ContentKey>,
    /// The frame set by U or `[` `]` for the current map: R keeps it.
    pub correction: Option<MapFrame>,
    /// The person marker stands until then.
    pub marker_until: Option<Instant>,
    /// The survey's question about the map's frame, while it is unsure and unanswered.
    pub offer: Option<Offer>,
}

impl MapMemory {
    /// The memory of the map opened with `content_key`, nothing corrected yet, `offer`
    /// the survey's question if it asks one.
    pub fn new(store: Store, content_key: Option<ContentKey>, offer: Option<Offer>) -> MapMemory {
        MapMemory {
            store,
            content_key,
            correction: None,
            marker_until: None,
            offer,
        }
    }

    /// The map (the file `path`; `None`: the built-in map) was corrected to `frame`: kept
    /// for reloads, remembered for the file when it is one, the marker shown for a while.
    /// Returns what became of it, as the notice says it.
    pub fn keep_correction(&mut self, frame: MapFrame, path: Option<&Path>) -> String {
        self.correction = Some(frame);
        self.marker_until = Some(Instant::now() + MARKER_TIME);
        match (&self.content_key, path) {
            (Some(key), Some(path)) => match self.store.remember(key, path, frame) {
                Ok(()) => "remembered for this file".to_string(),
                Err(e) => format!("not remembered: {e}"),
            },
            _ => "not remembered (only map files are)".to_string(),
        }
    }

    /// Whether the person marker stands ahead at `now`: while the survey asks, and for
    /// a while after a correction.
    pub fn marker_shows(&self, now: Instant) -> bool {
        self.offer.is_some() || self.marker_until.is_some_and(|t| now < t)
    }
}
