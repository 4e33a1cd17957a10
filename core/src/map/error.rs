//! Why a map could not be loaded: every message names the file, and the line when one
//! line is to blame. A reason is cut at [`crate::text::quote::MAX_MESSAGE_CHARS`]: one that
//! echoed a scene's list of 31 million numbers was a 155 MB line.

use crate::files::ReadError;
use crate::text::quote::cut_message;

/// Why a map could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// The file could not be read: missing, a directory, not a regular file, too large.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A syntax error at a known line.
    #[error("{path}:{line}: {}", cut_message(.reason))]
    Parse {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A problem with no single line to blame.
    #[error("{path}: {}", cut_message(.reason))]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// The file parsed but has nothing to walk in.
    #[error("{path}: no triangles to walk in ({})", cut_message(.reason))]
    Empty {
        /// The file.
        path: String,
        /// Why (points or lines only, every face degenerate...).
        reason: String,
    },
    /// Over a documented limit (placements, triangles): refused before building.
    #[error("{path}: {}", cut_message(.reason))]
    TooBig {
        /// The file.
        path: String,
        /// Which limit, and how far over.
        reason: String,
    },
    /// Whoever waited for the load gave up on it (the window's Esc): nothing was kept.
    #[error("{path}: loading was cancelled")]
    Cancelled {
        /// The file.
        path: String,
    },
}
