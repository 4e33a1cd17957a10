//! A large build shared between two threads: the top of the tree split on one thread
//! until what is left below it can be dealt out evenly, the subtrees grown on two threads,
//! and stitched in after the top so that the tree is the one a single thread makes.

use super::prim::{Prim, RangeBounds};
use super::sah::Bins;
use super::{Subtree, Task, build_subtree, grow};
use crate::collision::bvh::Node;

/// The top of the tree is split on one thread while a pending subtree holds more than
/// this share of the triangles (1 / `TASK_SHARE`) ...
const TASK_SHARE: usize = 8;
/// ... and dealing the pending subtrees out would leave the two threads' loads further
/// apart than this share of the triangles (a balanced first split stops at once: each
/// more split of the top is a pass over its prims on one thread).
const BALANCE_SHARE: usize = 16;

/// Tasks dealt to two threads: the tasks of each (indices), and its triangles.
struct Deal {
    sides: [Vec<usize>; 2],
    load: [usize; 2],
}

/// Deal `tasks` to two threads, largest first, each to the thread with less work so far.
fn deal(tasks: &[Task], top: &[Node]) -> Deal {
    let mut by_size: Vec<usize> = (0..tasks.len()).collect();
    by_size.sort_by_key(|&k| std::cmp::Reverse(top[tasks[k].node].count()));
    let mut d = Deal {
        sides: [Vec::new(), Vec::new()],
        load: [0, 0],
    };
    for k in by_size {
        let side = usize::from(d.load[1] < d.load[0]);
        d.load[side] += top[tasks[k].node].count() as usize;
        d.sides[side].push(k);
    }
    d
}

/// The tree a subtree's task became.
struct Grown {
    node: usize,
    sub: Subtree,
}

/// The top of a tree and the subtrees grown below it, not yet one list of nodes.
pub(super) struct TopAndSubtrees {
    top: Vec<Node>,
    /// Sorted by the top's node each replaces.
    built: Vec<Grown>,
    /// The depth of the top's deepest leaf.
    depth: usize,
}

/// Build the top of the tree on this thread until its pending subtrees can be dealt to
/// two threads evenly (a map's first split is often lopsided: conference's root left one
/// thread 80% of the work), build them on two threads, and stitch them in after the top
/// so siblings stay adjacent. The tree is the one [`build_subtree`] makes on one thread
/// (a node's split depends only on its own prims), laid out top first.
pub(super) fn build_in_two(prims: &mut [Prim], root: RangeBounds) -> TopAndSubtrees {
    let n = prims.len();
    let mut top = vec![Node::new(root.min, root.max, 0, n as u32)];
    let mut tasks = vec![Task {
        node: 0,
        bounds: root,
        depth: 1,
    }];
    let mut depth = 1;
    let mut bins = Bins::EMPTY;
    let uneven = |tasks: &[Task], top: &[Node]| {
        let Deal { load, .. } = deal(tasks, top);
        load[0].abs_diff(load[1]) > n / BALANCE_SHARE
    };
    while uneven(&tasks, &top) {
        let Some(k) = (0..tasks.len())
            .filter(|&k| top[tasks[k].node].count() as usize > n / TASK_SHARE)
            .max_by_key(|&k| top[tasks[k].node].count())
        else {
            break;
        };
        let task = tasks.swap_remove(k);
        match grow(&mut top, prims, 0, &task, &mut bins) {
            Some(children) => tasks.extend(children),
            None => depth = depth.max(task.depth), // a leaf after all
        }
    }
    let Deal { sides, .. } = deal(&tasks, &top);
    let mut slices = carve(prims, &tasks, &top);
    let mut share = sides.map(|ks| {
        ks.into_iter()
            .map(|k| (tasks[k], slices[k].take().expect("each task has its slice")))
            .collect::<Vec<_>>()
    });
    let build_all = |mine: Vec<(Task, &mut [Prim])>| -> Vec<Grown> {
        mine.into_iter()
            .map(|(t, slice)| Grown {
                node: t.node,
                sub: build_subtree(slice, top[t.node].index() as usize, t.bounds, t.depth),
            })
            .collect()
    };
    let two = std::mem::take(&mut share[1]);
    let one = std::mem::take(&mut share[0]);
    let (mut built, other) = std::thread::scope(|s| {
        let other = s.spawn(|| build_all(two));
        (
            build_all(one),
            other.join().expect("BVH builder thread panicked"),
        )
    });
    built.extend(other);
    built.sort_by_key(|g| g.node);
    TopAndSubtrees { top, built, depth }
}

impl TopAndSubtrees {
    /// One list of nodes: the top first, then each subtree, its links made global.
    pub(super) fn stitched(self) -> Subtree {
        let TopAndSubtrees {
            top,
            built,
            mut depth,
        } = self;
        let total = top.len() + built.iter().map(|g| g.sub.nodes.len() - 1).sum::<usize>();
        let mut nodes = Vec::with_capacity(total);
        nodes.extend(top);
        for Grown { node, sub } in built {
            depth = depth.max(sub.depth);
            // Local node i > 0 goes to base + i - 1; local 0 replaces the task's node.
            let base = nodes.len();
            let place = |i: u32| (base + i as usize - 1) as u32;
            for (i, mut n) in sub.nodes.into_iter().enumerate() {
                if !n.is_leaf() {
                    n = n.linked(place(n.index()), 0);
                }
                if i == 0 {
                    nodes[node] = n;
                } else {
                    nodes.push(n);
                }
            }
        }
        Subtree { nodes, depth }
    }
}

/// The tasks' prim ranges as disjoint slices, one a task, in the tasks' order.
fn carve<'a>(prims: &'a mut [Prim], tasks: &[Task], top: &[Node]) -> Vec<Option<&'a mut [Prim]>> {
    let mut by_start: Vec<usize> = (0..tasks.len()).collect();
    by_start.sort_unstable_by_key(|&k| top[tasks[k].node].index());
    let mut slices: Vec<Option<&mut [Prim]>> = (0..tasks.len()).map(|_| None).collect();
    let mut rest = prims;
    let mut at = 0;
    for k in by_start {
        let (start, count) = (
            top[tasks[k].node].index() as usize,
            top[tasks[k].node].count() as usize,
        );
        let (_, from) = std::mem::take(&mut rest).split_at_mut(start - at);
        let (mine, after) = from.split_at_mut(count);
        slices[k] = Some(mine);
        rest = after;
        at = start + count;
    }
    slices
}
