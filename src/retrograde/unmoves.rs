//! Strong solving with the game's un-moves: no arrows kept, only the keys of the positions
//! (in an open-addressing table whose slot is the position's number) and two bytes a slot
//! each for the open children and the result. The predecessors a settled position needs are
//! made again from its key when it is settled, by [`UnMoves`].
//!
//! The steps are those of [`solve_strongly`](super::solve_strongly), run on every thread:
//! 1. **Enumerate** breadth first, a batch of the frontier at a time, inserting children's keys
//!    into the table without locks;
//! 2. **Count** each position's moves (its open children), and settle the ends;
//! 3. **Settle backwards, a ply at a time**: each position settled at ply `r` is turned back
//!    into its predecessors; a predecessor is won at `r + 1` by its first child lost for its
//!    opponent, lost at `r + 1` when its last child is won for its opponent;
//! 4. **Keep**: the keys sorted, each with its code, as a [`StrongSolution`].

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::keys::{
    end_code, enumerate, keep, reserved, settle, settle_by_plies, stopped_early, Keys, Walk, EMPTY,
};
use super::store::{StrongSolution, UNKNOWN, WIN};
use super::{RetrogradeConfig, RetrogradeStats};
use crate::error::{human_bytes, Error};
use crate::game::{Game, PositionKey};

/// What a game offers the strong solver to go faster and smaller than with its moves alone:
/// the position of a key, and the positions one move before a position.
///
/// The key must be exact on the positions reachable from the root: two positions with one key
/// are taken for one, from the side to move's view (a key that leaves out whose turn it is
/// serves a game whose sides play alike, as Dōbutsu shōgi's does).
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::retrograde::{solve_by_unmoves, solve_strongly, RetrogradeConfig};
/// // Nim implements UnMoves (docs/nim.rs): both solvers agree on every position.
/// let cfg = RetrogradeConfig::default();
/// let by_arrows = solve_strongly(&Nim::new(12), &cfg).unwrap();
/// let by_unmoves = solve_by_unmoves(&Nim::new(12), &cfg).unwrap();
/// for pile in 0..=12 {
///     let p = Nim::new(pile);
///     assert_eq!(by_arrows.probe(&p), by_unmoves.probe(&p), "pile {pile}");
/// }
/// ```
pub trait UnMoves: PositionKey + Send + Sync {
    /// The position whose key is `key`, `None` when no position has it. `self` is any position
    /// of the game (it carries the rules: sizes, variants).
    fn position_of(&self, key: u64) -> Option<Self>;

    /// Calls `each` with every position from which one move leads to `self` (or to a position
    /// with its key), at least once each. Positions that cannot be reached, or that are already
    /// over, may be given too: the solver skips them.
    fn unmoves(&self, each: impl FnMut(Self));
}

/// Bytes a slot costs once the solve settles: its key, its open children, its code.
const SLOT_BYTES: u64 = 12;

/// Solves every position reachable from `root` as [`solve_strongly`](super::solve_strongly)
/// does, from the game's [`UnMoves`] instead of kept arrows: about 12 bytes a table slot (a
/// slot per 0.75 position at most) and 10 a position at the end, on `cfg.threads` threads.
/// Refuses, before the table would pass `cfg.max_bytes`, with [`Error::TooLarge`].
pub fn solve_by_unmoves<G: Game + UnMoves>(
    root: &G,
    cfg: &RetrogradeConfig,
) -> Result<StrongSolution, Error> {
    super::endless_play_is_a_draw(root)?;
    super::thread_pool(cfg)?.install(|| solve_in_pool(root, cfg))
}

fn solve_in_pool<G: Game + UnMoves>(
    root: &G,
    cfg: &RetrogradeConfig,
) -> Result<StrongSolution, Error> {
    let start = Instant::now();
    let stopped = || super::stopped(cfg, start);
    let progress = cfg.progress.clone().unwrap_or_default();
    let limit = cfg.max_positions.min(u64::from(u32::MAX) - 1);
    let unreadable = |key: u64| {
        Error::BadParameter(format!(
            "the game's position_of does not read back the key {key:#x} of a position it played"
        ))
    };
    let fits = |bits: u32, len: u64| {
        if bits > 32 {
            // Slots are numbered in u32.
            return Err(Error::TooLarge(format!(
                "more than 2^32 table slots ({len} positions found so far): past what solve_by_unmoves numbers"
            )));
        }
        let need = (1u64 << bits) * SLOT_BYTES + len * 10;
        if need > cfg.max_bytes {
            return Err(Error::TooLarge(format!(
                "the strong solve needs at least {} ({len} positions found so far, a table of {} slots \
                 at {SLOT_BYTES} bytes and 10 bytes a position kept); the limit is {} (max_bytes)",
                human_bytes(need as usize),
                1u64 << bits,
                human_bytes(cfg.max_bytes as usize)
            )));
        }
        Ok(())
    };
    let stopped_early = |positions: u64| Ok(stopped_early(start, positions));

    // 1. Enumerate, breadth first. A batch of the frontier is expanded only when the table has
    //    room for every child it could add (at the most moves a position has had so far).
    let mut keys = Keys::new(16);
    let root_key = root.key();
    if root_key == EMPTY {
        return Err(reserved());
    }
    keys.insert(root_key);
    let bad_key = AtomicU64::new(EMPTY);
    let reserved_key = AtomicBool::new(false);
    let check = || {
        if bad_key.load(Ordering::Relaxed) != EMPTY {
            return Err(unreadable(bad_key.load(Ordering::Relaxed)));
        }
        if reserved_key.load(Ordering::Relaxed) {
            return Err(reserved());
        }
        Ok(())
    };
    let walk = Walk {
        stopped: &stopped,
        may_grow: &fits,
        check: &check,
        limit,
        max_positions: cfg.max_positions,
    };
    let expand = |&key: &u64,
                  keys: &Keys,
                  _: Option<&[AtomicU32]>,
                  children: &mut Vec<u64>,
                  new: &mut Vec<u64>| {
        let Some(p) = root.position_of(key) else {
            bad_key.store(key, Ordering::Relaxed);
            return 0;
        };
        children.clear();
        for m in p.moves() {
            let k = p.play(m).key();
            keys.touch(k);
            children.push(k);
        }
        for &k in children.iter() {
            if k == EMPTY {
                reserved_key.store(true, Ordering::Relaxed);
            } else if keys.insert(k).1 {
                new.push(k);
            }
        }
        children.len()
    };
    if enumerate(&mut keys, &mut None, root_key, &progress, &walk, expand)?.is_none() {
        return stopped_early(keys.len.load(Ordering::Relaxed));
    }
    let n = keys.len.load(Ordering::Relaxed);
    fits(keys.bits, n)?;

    // 2. Count each position's moves; the ends are settled here (won or lost at 0 plies, or a
    //    drawn end that settles nothing above it).
    progress.phase.store(1, Ordering::Relaxed);
    let slots = keys.slots.len();
    let arrows = AtomicU64::new(0);
    let ends = AtomicU64::new(0);
    let too_wide = AtomicBool::new(false);
    let codes: Vec<AtomicU16> = (0..slots)
        .into_par_iter()
        .map(|_| AtomicU16::new(UNKNOWN))
        .collect();
    let open: Vec<AtomicU16> = (0..slots)
        .into_par_iter()
        .map(|i| {
            let key = keys.slots[i].load(Ordering::Relaxed);
            if key == EMPTY {
                return AtomicU16::new(0);
            }
            let Some(p) = root.position_of(key) else {
                bad_key.store(key, Ordering::Relaxed);
                return AtomicU16::new(0);
            };
            // The children that differ (moves to one key are one child: the open count is
            // taken off once per child settled).
            let mut children: arrayvec::ArrayVec<u64, 256> = arrayvec::ArrayVec::new();
            let mut count = 0usize;
            for m in p.moves() {
                let k = p.play(m).key();
                if !children.contains(&k) {
                    if children.try_push(k).is_err() {
                        too_wide.store(true, Ordering::Relaxed);
                    }
                    count += 1;
                }
            }
            arrows.fetch_add(count as u64, Ordering::Relaxed);
            if count == 0 {
                ends.fetch_add(1, Ordering::Relaxed);
                codes[i].store(
                    end_code(p.evaluate() * p.to_move().sign()),
                    Ordering::Relaxed,
                );
            }
            AtomicU16::new(count.min(usize::from(u16::MAX)) as u16)
        })
        .collect();
    if bad_key.load(Ordering::Relaxed) != EMPTY {
        return Err(unreadable(bad_key.load(Ordering::Relaxed)));
    }
    if too_wide.load(Ordering::Relaxed) {
        return Err(Error::TooLarge(
            "a position has more than 256 different children: past what solve_by_unmoves counts"
                .into(),
        ));
    }
    let ply: Vec<u32> = (0..slots as u32)
        .into_par_iter()
        .filter(|&i| matches!(codes[i as usize].load(Ordering::Relaxed), 0 | WIN))
        .collect();

    // 3. Settle backwards, a ply at a time.
    let turn_back =
        |q: usize, c_won: bool, r: u32, before: &mut Vec<(u64, bool)>, next: &mut Vec<u32>| {
            let Some(c) = root.position_of(keys.slots[q].load(Ordering::Relaxed)) else {
                return;
            };
            before.clear();
            c.unmoves(|p| {
                let k = p.key();
                keys.touch(k);
                before.push((k, p.to_move() == c.to_move()));
            });
            // Each predecessor once: its open count counts children, not moves.
            before.sort_unstable();
            before.dedup();
            for &(k, same_side) in before.iter() {
                let Some(p) = keys.find(k) else {
                    continue; // not reachable from the root
                };
                // Whether this child is a win for p's mover: c_won == same_side.
                if settle(&codes, &open, p, c_won == same_side, r) {
                    next.push(p as u32);
                }
            }
        };
    let complete = settle_by_plies(ply, &codes, &progress, &stopped, turn_back)?;
    drop(open);

    // 4. Keep: the keys sorted, each with its code (what is still unknown after a complete
    //    solve is a draw).
    progress.phase.store(3, Ordering::Relaxed);
    let stats = RetrogradeStats {
        positions: n,
        arrows: arrows.load(Ordering::Relaxed),
        ends: ends.load(Ordering::Relaxed),
        ..RetrogradeStats::default()
    };
    let code_of = |slot: usize| codes[slot].load(Ordering::Relaxed);
    Ok(keep(&keys, code_of, complete, stats, start))
}
