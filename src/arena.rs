//! What the explicit search trees (proof-number and conspiracy-number search) share: nodes in one
//! vector, root at index 0, each node's children stored contiguously after it.

use std::ops::Range;

/// `first_child` of a node without children.
pub(crate) const NO_CHILD: u32 = u32::MAX;

/// The arena indices of a node's children (empty for a leaf).
#[inline]
pub(crate) fn child_range(first_child: u32, children: u32) -> Range<usize> {
    if first_child == NO_CHILD {
        0..0
    } else {
        first_child as usize..(first_child + children) as usize
    }
}

/// The node reached from the root by `path`, given each node's children and the move that led to
/// it; `None` when the path leaves the tree.
pub(crate) fn find_path<M: PartialEq + Copy>(
    path: &[M],
    children: impl Fn(usize) -> Range<usize>,
    move_to: impl Fn(usize) -> Option<M>,
) -> Option<usize> {
    let mut i = 0;
    for &m in path {
        i = children(i).find(|&k| move_to(k) == Some(m))?;
    }
    Some(i)
}

/// The moves from the root to node `i`, given each node's parent and the move that led to it
/// (the root has none).
pub(crate) fn path_to<M>(
    mut i: usize,
    parent: impl Fn(usize) -> usize,
    move_to: impl Fn(usize) -> Option<M>,
) -> Vec<M> {
    let mut path = Vec::new();
    while let Some(m) = move_to(i) {
        path.push(m);
        i = parent(i);
    }
    path.reverse();
    path
}
