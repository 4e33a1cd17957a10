//! Fuzzing the OBJ reader: the shared corpus of tricky files (a loader's bug reports),
//! mutated as a fuzzer would (lines duplicated many times, huge and negative indices,
//! very long faces, flipped bytes, NaN vertices, lines deleted and swapped, terminal
//! control sequences and lone carriage returns, a byte order mark). Every mutant loads or
//! is refused with a message naming the file (and a line that exists), never panics,
//! never lets a NaN into the world, never puts a raw control byte in a message, and ends:
//! the whole run is watched, and a run that does not end in time fails (a watchdog, not a
//! timing assertion). `WALKTHROUGH_FUZZ_SCALE=N` runs N times as many mutants.

mod common;

use std::sync::mpsc;
use std::time::Duration;

use common::corpus_files;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use walkthrough_core::collision::CollisionWorld;
use walkthrough_core::map::{LoadOptions, MapError, load_obj_str};
use walkthrough_core::test_kit::random::Xorshift64;
use walkthrough_core::text::quote::quote;

/// Mutants tried per run (times [`common::fuzz_scale`]).
const CASES: u32 = 1000;
/// The run fails if it has not ended in this long (it takes seconds).
const WATCHDOG: Duration = Duration::from_secs(300);

fn corpus() -> Option<Vec<(String, String)>> {
    let files = corpus_files()?;
    Some(
        files
            .iter()
            .map(|p| {
                let text = String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
                (p.file_name().unwrap().to_string_lossy().into_owned(), text)
            })
            .collect(),
    )
}

/// One mutation of a file's lines.
#[derive(Clone, Debug)]
enum Mutation {
    /// Repeat line `at` this many times.
    Repeat(usize, usize),
    /// Insert a face with this index.
    HugeIndex(usize, i64),
    /// Insert a face of this many random corners.
    LongFace(usize, usize, u64),
    /// Set byte `b` of line `at` to this.
    Flip(usize, usize, u8),
    /// Insert a vertex with non-finite or overflowing coordinates.
    NanVertex(usize),
    /// Delete line `at`.
    Delete(usize),
    /// Swap two lines.
    Swap(usize, usize),
    /// Repeat line `at`'s text on one line this many times.
    Widen(usize, usize),
    /// Put a terminal's control sequence (title, clear screen, a lone CR, a bell) into line
    /// `at`, at byte `b` (a message that clears the screen
    /// or rings must never reach the terminal raw).
    Control(usize, usize, usize),
    /// Start the file with a UTF-8 byte order mark.
    Bom,
}

/// What [`Mutation::Control`] puts in a line.
const CONTROLS: [&str; 5] = [
    "\u{1b}]0;owned\u{7}",
    "\u{1b}[2J",
    "\r",
    "\u{7}\u{8}\u{8}",
    "\u{202e}\u{9b}",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        (at, prop_oneof![Just(2usize), Just(100), Just(10_000)])
            .prop_map(|(a, n)| Mutation::Repeat(a, n)),
        (
            at,
            prop_oneof![
                Just(1i64 << 31),
                Just((1 << 32) + 1),
                Just(-(1 << 40)),
                Just(i64::MAX)
            ]
        )
            .prop_map(|(a, i)| Mutation::HugeIndex(a, i)),
        (at, prop_oneof![Just(100usize), Just(20_000)], any::<u64>())
            .prop_map(|(a, n, s)| Mutation::LongFace(a, n, s)),
        (at, any::<usize>(), any::<u8>()).prop_map(|(a, b, v)| Mutation::Flip(a, b, v)),
        at.prop_map(Mutation::NanVertex),
        at.prop_map(Mutation::Delete),
        (at, any::<usize>()).prop_map(|(a, b)| Mutation::Swap(a, b)),
        (at, prop_oneof![Just(10usize), Just(5_000)]).prop_map(|(a, n)| Mutation::Widen(a, n)),
        (at, any::<usize>(), 0..CONTROLS.len()).prop_map(|(a, b, c)| Mutation::Control(a, b, c)),
        Just(Mutation::Bom),
    ]
}

/// Largest mutant made: a repeat or a widening that would make a bigger file is left out
/// (a 20,000-corner face widened 5,000 times and repeated 10,000 times is 6 GB of text,
/// which tests the test machine, not the reader; the size limits have tests of their own).
const MAX_MUTANT_BYTES: usize = 64 << 20;

fn apply(text: &str, mutations: &[Mutation]) -> String {
    let mut lines: Vec<Vec<u8>> = text.split('\n').map(|l| l.as_bytes().to_vec()).collect();
    let mut size = text.len();
    for m in mutations {
        if lines.is_empty() {
            lines.push(b"v 0 0 0".to_vec());
        }
        let n = lines.len();
        let grows = match *m {
            Mutation::Repeat(a, k) | Mutation::Widen(a, k) => (lines[a % n].len() + 1) * k,
            _ => 0,
        };
        if size + grows > MAX_MUTANT_BYTES {
            continue;
        }
        size += grows;
        match *m {
            Mutation::Repeat(a, k) => {
                let l = lines[a % n].clone();
                lines.splice(a % n..a % n, std::iter::repeat_n(l, k));
            }
            Mutation::HugeIndex(a, i) => lines.insert(a % n, format!("f 1 2 {i}").into_bytes()),
            Mutation::LongFace(a, k, seed) => {
                let mut x = Xorshift64(seed | 1);
                let mut face = String::from("f");
                for _ in 0..k {
                    face += &format!(" {}", 1 + x.next_u64() % (n as u64 / 2).max(1));
                }
                lines.insert(a % n, face.into_bytes());
            }
            Mutation::Flip(a, b, v) => {
                let l = &mut lines[a % n];
                if !l.is_empty() {
                    let len = l.len();
                    l[b % len] = v;
                }
            }
            Mutation::NanVertex(a) => lines.insert(a % n, b"v nan inf 1e39".to_vec()),
            Mutation::Delete(a) => {
                lines.remove(a % n);
            }
            Mutation::Swap(a, b) => lines.swap(a % n, b % n),
            Mutation::Widen(a, k) => lines[a % n] = lines[a % n].repeat(k),
            Mutation::Control(a, b, c) => {
                let l = &mut lines[a % n];
                let at = b % (l.len() + 1);
                l.splice(at..at, CONTROLS[c].bytes());
            }
            Mutation::Bom => lines[0].splice(0..0, "\u{feff}".bytes()).for_each(drop),
        }
    }
    String::from_utf8_lossy(&lines.join(&b'\n')).into_owned()
}

#[test]
fn mutated_corpus_files_load_or_are_refused_clearly_and_in_bounded_time() {
    let Some(files) = corpus() else { return };
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut runner = TestRunner::new(Config {
            cases: CASES * common::fuzz_scale(),
            rng_seed: RngSeed::Fixed(20_261_123),
            failure_persistence: None,
            ..Config::default()
        });
        let strategy = (0..files.len(), prop::collection::vec(mutation(), 1..5));
        let (loaded, refused) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
        let result = runner.run(&strategy, |(file, mutations)| {
            let (name, text) = &files[file];
            let mutant = apply(text, &mutations);
            // Lines as the reader sees them: a file whose lines end in CR alone (classic Mac
            // OS; a lone CR put in a one-line file makes one) is split at its CRs, and tabs
            // are spaces, and a byte order mark at the start is no part of line 1.
            let unmarked = mutant.strip_prefix('\u{feff}').unwrap_or(&mutant);
            let read_as = if unmarked.contains('\r') && !unmarked.contains('\n') {
                unmarked.replace('\r', "\n")
            } else {
                unmarked.to_string()
            }
            .replace('\t', " ");
            let lines = read_as.lines().count();
            match load_obj_str(name, &mutant, &[], &LoadOptions::default()) {
                Ok(map) => {
                    loaded.set(loaded.get() + 1);
                    prop_assert!(map.triangle_count() > 0);
                    let finite = map.vertices.iter().all(|v| {
                        v.position
                            .iter()
                            .chain(&v.normal)
                            .chain(&v.uv)
                            .all(|x| x.is_finite())
                    });
                    prop_assert!(finite, "a NaN reached the map");
                    let world = CollisionWorld::new(map.triangles());
                    prop_assert!(
                        world.stats().triangles + world.stats().dropped + world.stats().duplicates
                            == map.triangle_count()
                    );
                }
                Err(e) => {
                    refused.set(refused.get() + 1);
                    let message = e.to_string();
                    prop_assert!(message.starts_with(&format!("{name}:")), "{message}");
                    prop_assert!(
                        !message.chars().any(char::is_control),
                        "raw control bytes: {message:?}"
                    );
                    if let MapError::Parse { line, reason, .. } = e {
                        prop_assert!(
                            (1..=lines.max(1)).contains(&line),
                            "line {line} of {lines}: {message}"
                        );
                        // The line named is the one quoted, and a face's index is blamed
                        // on a face, never on the `o` that closed the face's object.
                        let named = read_as.lines().nth(line - 1).unwrap_or("").trim();
                        let quoted = quote(named).to_string();
                        prop_assert!(
                            reason.ends_with(&quoted) || !reason.contains(" '"),
                            "line {line} is {quoted}: {message}"
                        );
                        if reason.contains(" index ") {
                            let key = named.split_whitespace().next().unwrap_or("");
                            prop_assert!(key == "f" || key == "l", "{message}");
                        }
                    }
                }
            }
            Ok(())
        });
        eprintln!(
            "{} OBJ mutants: {} loaded, {} refused",
            loaded.get() + refused.get(),
            loaded.get(),
            refused.get()
        );
        let _ = done_tx.send(result.map_err(|e| e.to_string()));
    });
    match done_rx.recv_timeout(WATCHDOG) {
        Ok(result) => result.unwrap(),
        Err(_) => panic!("fuzzing the mutants did not end within {WATCHDOG:?}"),
    }
}
