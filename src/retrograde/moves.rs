//! Strong solving from the moves alone (`moves`, `play`, `key`): the keys in an open-addressing
//! table, and each position's predecessors as numbers in one array; no position kept. The
//! game is walked twice, since a key cannot be turned back into its position:
//!
//! 1. **Enumerate** breadth first, inserting children's keys into the table from every thread,
//!    and counting each position's predecessors (its arrows in);
//! 2. **Number** the positions (a table slot's rank among the slots filled) and lay out the
//!    predecessor lists from the counts, so that each position's list has its place;
//! 3. **Turn the arrows round**: walk the game again from the root, writing each position's
//!    number into its children's lists, counting its children and settling the ends;
//! 4. **Settle backwards, a ply at a time**, reading a settled position's predecessors from
//!    its list;
//! 5. **Keep**: the keys sorted, each with its code, as a [`StrongSolution`].
//!
//! Memory: 12 bytes a table slot while enumerating (the key, the count in); then 8 a slot, 8 a
//! position (its list's place, its open children and code), 4 an arrow, and the second walk's
//! positions, two plies of them.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::keys::{
    end_code, enumerate, keep, reserved, settle, settle_by_plies, stopped_early, Keys, Walk, EMPTY,
};
use super::store::{StrongSolution, UNKNOWN, WIN};
use super::{set_once, RetrogradeConfig, RetrogradeProgress, RetrogradeStats, SAME_SIDE};
use crate::error::{human_bytes, Error};
use crate::game::{Game, PositionKey};

/// Solves every position reachable from `root` by retrograde analysis (see the module's
/// documentation), on `cfg.threads` threads, from the game's moves alone: the game may repeat
/// positions. The key must tell positions apart (two positions with one key are taken for
/// one, from the side to move's view).
///
/// Memory: 12 bytes a table slot (a slot per 0.75 position at most) while the positions are
/// found; then 8 a slot, 8 a position, 4 an arrow (a move to a different child) and the
/// widest ply of the game's positions twice, while the second walk holds them. It
/// refuses with [`Error::TooLarge`], saying what it needs, before passing `cfg.max_bytes`.
pub fn solve_strongly<G: Game + PositionKey + Send + Sync>(
    root: &G,
    cfg: &RetrogradeConfig,
) -> Result<StrongSolution, Error> {
    super::endless_play_is_a_draw(root)?;
    super::thread_pool(cfg)?.install(|| solve_in_pool(root, cfg))
}

/// A position's children that differ (a move to a key already among them is the same child),
/// with whether each has the same side to move: into `out`, as (key, same side, child).
fn children_of<G: Game + PositionKey>(p: &G, keys: &Keys, out: &mut Vec<(u64, bool, G)>) {
    out.clear();
    for m in p.moves() {
        let c = p.play(m);
        let k = c.key();
        keys.touch(k);
        out.push((k, c.to_move() == p.to_move(), c));
    }
    out.sort_unstable_by_key(|&(k, same, _)| (k, same));
    out.dedup_by_key(|&mut (k, same, _)| (k, same));
}

/// A position's number: the rank of its slot among the slots filled.
struct Numbers {
    filled: Vec<u64>,
    before: Vec<u64>,
}

impl Numbers {
    fn new(keys: &Keys) -> Numbers {
        let filled: Vec<u64> = keys
            .slots
            .par_chunks(64)
            .map(|w| {
                w.iter().enumerate().fold(0u64, |bits, (i, k)| {
                    bits | u64::from(k.load(Ordering::Relaxed) != EMPTY) << i
                })
            })
            .collect();
        let mut before = Vec::with_capacity(filled.len());
        let mut sum = 0u64;
        for w in &filled {
            before.push(sum);
            sum += u64::from(w.count_ones());
        }
        Numbers { filled, before }
    }

    #[inline]
    fn of(&self, slot: usize) -> usize {
        let below = self.filled[slot / 64] & ((1u64 << (slot % 64)) - 1);
        (self.before[slot / 64] + u64::from(below.count_ones())) as usize
    }
}

/// Where each position's list of predecessors lies in the one array of them: position j's at
/// `base[j / BLOCK] + part[j]`, so that a position's place costs 4 bytes, not 8.
struct Lists {
    base: Vec<u64>,
    part: Vec<AtomicU32>,
}

/// Positions to a block of [`Lists`].
const BLOCK: usize = 256;

impl Lists {
    /// Each of the `n` positions' list placed after the lists before it, `arrows_in` long (by
    /// table slot), and pointing at its end; one more, `n`'s, at the end of them all.
    fn new(keys: &Keys, arrows_in: &[AtomicU32], n: usize) -> Result<Lists, Error> {
        let mut base = Vec::with_capacity(n / BLOCK + 1);
        let mut part = Vec::with_capacity(n + 1);
        let mut sum = 0u64;
        let mut place = |sum: u64, base: &mut Vec<u64>, start: u64| {
            if part.len() % BLOCK == 0 {
                base.push(start);
            }
            let b = base[part.len() / BLOCK];
            let p = u32::try_from(sum - b).map_err(|_| {
                Error::TooLarge(
                    "more than 2^32 moves into 256 positions: past what the strong solve places"
                        .into(),
                )
            })?;
            part.push(AtomicU32::new(p));
            Ok::<(), Error>(())
        };
        for (slot, count) in arrows_in.iter().enumerate() {
            if keys.slots[slot].load(Ordering::Relaxed) != EMPTY {
                let start = sum;
                sum += u64::from(count.load(Ordering::Relaxed));
                place(sum, &mut base, start)?;
            }
        }
        place(sum, &mut base, sum)?;
        Ok(Lists { base, part })
    }

    /// Where position j's list starts (once it is filled), or ends (j = n).
    #[inline]
    fn start(&self, j: usize) -> usize {
        (self.base[j / BLOCK] + u64::from(self.part[j].load(Ordering::Relaxed))) as usize
    }

    /// The place before the last filled of j's list, to fill; `None` past the block's start
    /// (a game whose moves changed between the walks).
    #[inline]
    fn take_last(&self, j: usize) -> Option<usize> {
        let part = self.part[j].fetch_sub(1, Ordering::Relaxed);
        (part > 0).then(|| (self.base[j / BLOCK] + u64::from(part) - 1) as usize)
    }
}

/// Atomics set to zero, allocated as zeroed memory (the pages untouched until written).
fn zeroed_u32(n: usize) -> Vec<AtomicU32> {
    let mut v = std::mem::ManuallyDrop::new(vec![0u32; n]);
    // SAFETY: AtomicU32 has the size, alignment and bit validity of u32; the vector's buffer,
    // length and capacity are handed over whole.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<AtomicU32>(), v.len(), v.capacity()) }
}

// The steps share the numbers, the lists and the codes.
#[allow(clippy::too_many_lines)]
fn solve_in_pool<G: Game + PositionKey + Send + Sync>(
    root: &G,
    cfg: &RetrogradeConfig,
) -> Result<StrongSolution, Error> {
    let start = Instant::now();
    let stopped = || super::stopped(cfg, start);
    let progress = cfg
        .progress
        .clone()
        .unwrap_or_else(|| std::sync::Arc::new(RetrogradeProgress::default()));
    // Numbers are u32 below SAME_SIDE.
    let limit = cfg.max_positions.min(u64::from(SAME_SIDE - 1));
    let fits = |need: u64, what: String| {
        if need > cfg.max_bytes {
            return Err(Error::TooLarge(format!(
                "the strong solve needs at least {} ({what}); the limit is {} (max_bytes)",
                human_bytes(need as usize),
                human_bytes(cfg.max_bytes as usize)
            )));
        }
        Ok(())
    };
    let stopped_early = |positions: u64| Ok(stopped_early(start, positions));
    let root_key = root.key();
    if root_key == EMPTY {
        return Err(reserved());
    }
    let reserved_key = AtomicBool::new(false);
    let too_wide = AtomicBool::new(false);

    // 1. Enumerate, breadth first, counting each position's arrows in.
    let mut keys = Keys::new(16);
    let mut arrows_in = Some(zeroed_u32(keys.slots.len()));
    keys.insert(root_key);
    let may_grow = |bits: u32, len: u64| {
        let slots = 1u64 << bits;
        fits(
            12 * slots,
            format!("{len} positions found so far, a table of {slots} slots at 12 bytes"),
        )
    };
    let check = || {
        if reserved_key.load(Ordering::Relaxed) {
            return Err(reserved());
        }
        Ok(())
    };
    let walk = Walk {
        stopped: &stopped,
        may_grow: &may_grow,
        check: &check,
        limit,
        max_positions: cfg.max_positions,
    };
    let expand = |p: &G,
                  keys: &Keys,
                  arrows_in: Option<&[AtomicU32]>,
                  children: &mut Vec<(u64, bool, G)>,
                  new: &mut Vec<G>| {
        let arrows_in = arrows_in.expect("counted");
        children_of(p, keys, children);
        let count = children.len();
        for (k, _, c) in children.drain(..) {
            if k == EMPTY {
                reserved_key.store(true, Ordering::Relaxed);
                continue;
            }
            let (slot, is_new) = keys.insert(k);
            arrows_in[slot].fetch_add(1, Ordering::Relaxed);
            if is_new {
                new.push(c);
            }
        }
        count
    };
    let Some(widest) = enumerate(
        &mut keys,
        &mut arrows_in,
        root.clone(),
        &progress,
        &walk,
        expand,
    )?
    else {
        return stopped_early(keys.len.load(Ordering::Relaxed));
    };
    let arrows_in = arrows_in.expect("counted");
    let n = keys.len.load(Ordering::Relaxed) as usize;

    // 2. Number the positions, and lay out the lists: j's place is, at first, where the
    //    arrows into positions 0..=j end. Step 3 fills each list from its end, so that once
    //    filled j's place is where its list starts, and j + 1's where it ends.
    let slots = keys.slots.len();
    let arrows: u64 = arrows_in
        .par_iter()
        .map(|c| u64::from(c.load(Ordering::Relaxed)))
        .sum();
    // The second walk holds two plies of positions at once.
    let walk = 2 * widest as u64 * std::mem::size_of::<(G, u32)>() as u64;
    fits(
        8 * slots as u64 + slots as u64 / 4 + 8 * n as u64 + 4 * arrows + walk,
        format!(
            "{n} positions and {arrows} arrows: 8 bytes a table slot ({slots}), 8 a position, \
             4 an arrow, and {} for the widest ply twice",
            human_bytes(walk as usize)
        ),
    )?;
    let numbers = Numbers::new(&keys);
    let lists = Lists::new(&keys, &arrows_in, n)?;
    drop(arrows_in);
    let from = zeroed_u32(arrows as usize);

    // 3. Turn the arrows round: walk the game again, breadth first, each position writing its
    //    number (with SAME_SIDE for a child with its side to move) into its children's lists.
    progress.phase.store(1, Ordering::Relaxed);
    let seen: Vec<AtomicU64> = (0..slots.div_ceil(64))
        .into_par_iter()
        .map(|_| AtomicU64::new(0))
        .collect();
    let codes: Vec<AtomicU16> = (0..n)
        .into_par_iter()
        .map(|_| AtomicU16::new(UNKNOWN))
        .collect();
    let open: Vec<AtomicU16> = (0..n).into_par_iter().map(|_| AtomicU16::new(0)).collect();
    let ends = AtomicU64::new(0);
    let written = AtomicU64::new(0);
    let lost = AtomicBool::new(false); // a child the first walk did not find, or a list overfull
    let root_slot = keys.find(root_key).expect("the root is in the table");
    seen[root_slot / 64].fetch_or(1 << (root_slot % 64), Ordering::Relaxed);
    // (A ply is kept as the pieces its chunks found, not gathered into one vector: that would
    // hold it twice at the peak of memory.)
    let mut frontier: Vec<Vec<(G, u32)>> = vec![vec![(root.clone(), numbers.of(root_slot) as u32)]];
    while !frontier.is_empty() {
        if stopped() {
            return stopped_early(n as u64);
        }
        let found: Vec<Vec<(G, u32)>> = frontier
            .par_iter()
            .flat_map(|piece| piece.par_chunks(1024))
            .map(|chunk| {
                let mut new = Vec::new();
                let mut children = Vec::with_capacity(64);
                if stopped() {
                    return new;
                }
                for (p, i) in chunk {
                    children_of(p, &keys, &mut children);
                    if children.len() > usize::from(u16::MAX) {
                        too_wide.store(true, Ordering::Relaxed);
                    }
                    let count = children.len();
                    written.fetch_add(count as u64, Ordering::Relaxed);
                    for (k, same, c) in children.drain(..) {
                        let Some(slot) = keys.find(k) else {
                            lost.store(true, Ordering::Relaxed);
                            continue;
                        };
                        let j = numbers.of(slot);
                        let Some(at) = lists.take_last(j).filter(|&at| at < from.len()) else {
                            lost.store(true, Ordering::Relaxed);
                            continue;
                        };
                        from[at].store(*i | if same { SAME_SIDE } else { 0 }, Ordering::Relaxed);
                        if set_once(&seen[slot / 64], 1 << (slot % 64)) {
                            new.push((c, j as u32));
                        }
                    }
                    let i = *i as usize;
                    open[i].store(count as u16, Ordering::Relaxed);
                    if count == 0 {
                        ends.fetch_add(1, Ordering::Relaxed);
                        codes[i].store(
                            end_code(p.evaluate() * p.to_move().sign()),
                            Ordering::Relaxed,
                        );
                    }
                }
                new.shrink_to_fit(); // the ply is kept in these pieces until the next is found
                new
            })
            .collect();
        if lost.load(Ordering::Relaxed) || written.load(Ordering::Relaxed) > arrows {
            return Err(Error::BadParameter(
                "the game's moves or keys differed between two walks from the root: a strong \
                 solve needs them to depend on the position alone"
                    .into(),
            ));
        }
        if too_wide.load(Ordering::Relaxed) {
            return Err(Error::TooLarge(
                "a position has more than 65,535 different children: past what the strong solve counts"
                    .into(),
            ));
        }
        frontier = found;
        frontier.retain(|piece| !piece.is_empty());
    }
    drop(seen);

    // 4. Settle backwards, a ply at a time: the ends first (won or lost at 0 plies; a drawn end
    //    settles nothing above it).
    let ply: Vec<u32> = (0..n as u32)
        .into_par_iter()
        .filter(|&i| matches!(codes[i as usize].load(Ordering::Relaxed), 0 | WIN))
        .collect();
    let complete = settle_by_plies(
        ply,
        &codes,
        &progress,
        &stopped,
        |q, c_won, r, _: &mut (), next| {
            for arrow in &from[lists.start(q)..lists.start(q + 1)] {
                let arrow = arrow.load(Ordering::Relaxed);
                let p = (arrow & !SAME_SIDE) as usize;
                // The child is a win for p's mover when it is won for its own mover and that is
                // p's mover, or lost for its mover and that is p's opponent.
                if settle(&codes, &open, p, c_won == (arrow & SAME_SIDE != 0), r) {
                    next.push(p as u32);
                }
            }
        },
    )?;
    drop((from, lists, open));

    // 5. Keep.
    progress.phase.store(3, Ordering::Relaxed);
    let stats = RetrogradeStats {
        positions: n as u64,
        arrows,
        ends: ends.load(Ordering::Relaxed),
        ..RetrogradeStats::default()
    };
    let code_of = |slot: usize| codes[numbers.of(slot)].load(Ordering::Relaxed);
    Ok(keep(&keys, code_of, complete, stats, start))
}
