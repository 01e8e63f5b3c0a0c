//! Endgame databases by retrograde analysis, for games whose positions fall into **classes**
//! that moves never raise (Kalah and Awari: the seeds still in the pits). A class is built from
//! the classes below it and itself: every position's value is the best over its moves, a move
//! into a lower class read from that class's table, a move that stays in the class from the
//! class's own table, its child settled first (depth first) when it is not known yet — sweeps
//! repeat until every value is known (Kalah's moves within a class form no cycle, so one sweep
//! does it; a cycle is reported as an error). Values are stored relative to the
//! class (Kalah: the mover's margin over the seeds still in play), one byte a position, so
//! positions that differ only in what is already banked share an entry (Irving, Donkers &
//! Uiterwijk 2000; Rawlings 2015; Romein & Bal's Awari).
//!
//! A game opts in with [`Tablebase`]: the class of a position, the class's size, and a dense
//! [`Tablebase::rank`]/[`Tablebase::unrank`] of its positions (Kalah: the combinatorial number
//! system over the 2m pits, the mover's side first). The solver reads the tables through
//! [`Probed`], an adapter whose positions answer [`crate::SolverKnowledge::exact_value`] from them:
//! a position of a loaded class is a leaf with its exact value.
//!
//! ```
//! # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
//! use gamesearch::tablebase::{Probed, Tables};
//! use gamesearch::{solver::solve_alphabeta, Game, SolveConfig};
//!
//! // Nim (docs/nim.rs): the class is the pile, the rank the side to move.
//! let start = Nim::new(18);
//! let mut tables = Tables::new(&start);
//! for class in 0..=10 {
//!     tables.build_class(class).unwrap(); // every pile of at most 10 stones
//! }
//! let cfg = SolveConfig { tt_bytes: 1 << 20, ..SolveConfig::default() };
//! let with = solve_alphabeta(&Probed::new(start, &tables), &cfg, |_| {}).unwrap();
//! let without = solve_alphabeta(&start, &cfg, |_| {}).unwrap();
//! assert_eq!(with.value, without.value);
//! assert!(with.stats.nodes() < without.stats.nodes());
//! ```
//!
//! **A second game.** Any game whose classes moves never raise can implement [`Tablebase`].
//! Here, a pile of stones: take 1 to 3, whoever takes the last one wins; instead of taking, each
//! side may pass once in the game, a move that stays in the class. The class is the stones
//! left; the rank, which sides may still pass (the mover's first); the values are the mover's.
//!
//! ```
//! use gamesearch::tablebase::{Tablebase, Tables};
//! use gamesearch::{solver::solve_alphabeta, Game, Player, PositionKey, Score, SolveConfig, SolverKnowledge};
//!
//! #[derive(Clone, Copy, Debug)]
//! struct Stones { left: u32, mover: Player, may_pass: (bool, bool) } // (the mover, the other)
//!
//! impl Game for Stones {
//!     type Move = u32; // 0: pass; 1..=3: take
//!     type Moves = std::vec::IntoIter<u32>;
//!     fn to_move(&self) -> Player { self.mover }
//!     fn moves(&self) -> Self::Moves {
//!         let pass = (self.left > 0 && self.may_pass.0).then_some(0);
//!         pass.into_iter().chain(1..=self.left.min(3)).collect::<Vec<_>>().into_iter()
//!     }
//!     fn play(&self, m: u32) -> Self {
//!         let (mine, theirs) = self.may_pass;
//!         Stones { left: self.left - m, mover: self.mover.opponent(), may_pass: (theirs, mine && m > 0) }
//!     }
//!     // Whoever faces an empty pile has lost.
//!     fn evaluate(&self) -> Score { if self.left == 0 { -self.mover.sign() } else { 0 } }
//! }
//! impl PositionKey for Stones {
//!     fn key(&self) -> u64 { (self.left as u64) << 3 | (self.rank() << 1) | (self.mover == Player::Max) as u64 }
//! }
//! impl SolverKnowledge for Stones {}
//!
//! impl Tablebase for Stones {
//!     fn tablebase_rules(&self) -> String { "stones".into() }
//!     fn class(&self) -> u32 { self.left }
//!     fn class_size(&self, _class: u32) -> Option<u64> { Some(4) }
//!     fn rank(&self) -> u64 { 2 * self.may_pass.0 as u64 + self.may_pass.1 as u64 }
//!     fn unrank(&self, class: u32, rank: u64) -> Self {
//!         Stones { left: class, mover: Player::Max, may_pass: (rank >= 2, rank % 2 == 1) }
//!     }
//!     fn relative_value(&self, score: Score) -> i32 { self.mover.sign() * score }
//!     fn absolute_value(&self, relative: i32) -> Score { self.mover.sign() * relative }
//! }
//!
//! let proto = Stones { left: 0, mover: Player::Max, may_pass: (true, true) };
//! let mut tables = Tables::new(&proto);
//! for class in 0..=12 {
//!     tables.build_class(class).unwrap();
//! }
//! // Every position, either side to move, has the value the solver finds without the tables.
//! let cfg = SolveConfig { tt_bytes: 1 << 16, ..SolveConfig::default() };
//! for class in 0..=12 {
//!     for rank in 0..4 {
//!         let p = proto.unrank(class, rank);
//!         for p in [p, Stones { mover: Player::Min, ..p }] {
//!             assert_eq!(tables.probe(&p), solve_alphabeta(&p, &cfg, |_| {}).unwrap().value);
//!         }
//!     }
//! }
//! // Without passes, a multiple of 4 loses for the mover (Bouton's theory of such games).
//! assert_eq!(tables.probe(&proto.unrank(8, 0)), Some(-1));
//! assert_eq!(tables.probe(&proto.unrank(9, 0)), Some(1));
//! ```

mod file;

use std::sync::atomic::{AtomicI8, Ordering};

use rayon::prelude::*;

use crate::error::Error;
use crate::game::{Adapter, Game, Player, PositionKey, Score};

pub use file::{class_file, FILE_VERSION};

/// What a game gives the tablebase: positions in classes that moves never raise, each class
/// ranked densely, values relative to the class.
pub trait Tablebase: Game {
    /// The rules as text (`kalah:6`): files name them, and a table of other rules is refused.
    fn tablebase_rules(&self) -> String;

    /// The position's class: no move leads to a higher one (Kalah: seeds in the pits).
    fn class(&self) -> u32;

    /// Positions in `class` under this position's rules: the range of [`Tablebase::rank`], or
    /// `None` when it does not fit a `u64`.
    fn class_size(&self, class: u32) -> Option<u64>;

    /// The position's index in its class, `0..class_size(class)`; positions with the same
    /// index have the same relative value.
    fn rank(&self) -> u64;

    /// A position of `class` with index `rank` under this position's rules (the inverse of
    /// [`Tablebase::rank`] up to what the relative value ignores).
    fn unrank(&self, class: u32, rank: u64) -> Self;

    /// The game's value `score` (MAX's view) of this position as the class stores it: the side
    /// to move's share of what is still to be won (Kalah: the mover's final margin less its
    /// margin now). Must fit an `i8`.
    fn relative_value(&self, score: Score) -> i32;

    /// The inverse of [`Tablebase::relative_value`] for this position.
    fn absolute_value(&self, relative: i32) -> Score;
}

/// A class's values, by rank.
#[derive(Debug)]
enum Values {
    /// Built here.
    Owned(Vec<i8>),
    /// Read from a file (memory-mapped, checksum verified).
    Mapped(file::MappedClass),
}

impl Values {
    fn get(&self, rank: u64) -> i8 {
        match self {
            Values::Owned(v) => v[rank as usize],
            Values::Mapped(m) => m.values()[rank as usize] as i8,
        }
    }
    fn bytes(&self) -> &[u8] {
        match self {
            Values::Owned(v) => {
                // SAFETY: i8 and u8 have the same size and alignment.
                unsafe { std::slice::from_raw_parts(v.as_ptr().cast(), v.len()) }
            }
            Values::Mapped(m) => m.values(),
        }
    }
}

/// The databases of one game's rules: a table for each class built or loaded.
#[derive(Debug)]
pub struct Tables<G> {
    prototype: G,
    rules: String,
    classes: Vec<Option<Values>>,
}

/// A class built: its positions and the sweeps it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassReport {
    /// The class.
    pub class: u32,
    /// Positions in it.
    pub positions: u64,
    /// Sweeps over the class until every value was known.
    pub sweeps: u32,
}

/// The value kept for a position not known yet.
const UNKNOWN: i8 = i8::MIN;

/// How deep [`Tables::settle`] follows unknown children of the same class before it leaves a
/// position to the next sweep. With it every Kalah class up to 18 seeds settles in one sweep
/// (14 sweeps without it; `tablebase build kalah:6 --seeds 18` 43 s → 25 s, docs/results/kalah.md).
const SETTLE_DEPTH: u32 = 64;

impl<G: Tablebase + Sync> Tables<G> {
    /// No tables yet, for the rules of `prototype`.
    pub fn new(prototype: &G) -> Self {
        Tables {
            prototype: prototype.clone(),
            rules: prototype.tablebase_rules(),
            classes: Vec::new(),
        }
    }

    /// The rules the tables are for.
    pub fn rules(&self) -> &str {
        &self.rules
    }

    /// True when `class` is built or loaded.
    pub fn has(&self, class: u32) -> bool {
        self.classes
            .get(class as usize)
            .is_some_and(Option::is_some)
    }

    /// The classes built or loaded, in order.
    pub fn classes(&self) -> Vec<u32> {
        (0..self.classes.len() as u32)
            .filter(|&c| self.has(c))
            .collect()
    }

    /// The exact value (MAX's view) of `p`, when its class is here.
    #[inline]
    pub fn probe(&self, p: &G) -> Option<Score> {
        let values = self.classes.get(p.class() as usize)?.as_ref()?;
        let v = values.get(p.rank());
        Some(p.absolute_value(i32::from(v)))
    }

    /// Builds `class` from the classes below it (all of which must be here) and keeps it. The
    /// positions are swept in parallel (rayon), each settling its unknown in-class children
    /// first, until every value is known.
    pub fn build_class(&mut self, class: u32) -> Result<ClassReport, Error> {
        if let Some(missing) = (0..class).find(|&c| !self.has(c)) {
            return Err(Error::BadParameter(format!(
                "class {class} needs class {missing} first (build the classes in order)"
            )));
        }
        let size = self.class_size(class)?;
        let values: Vec<AtomicI8> = (0..size).map(|_| AtomicI8::new(UNKNOWN)).collect();
        let mut sweeps = 0;
        loop {
            sweeps += 1;
            let changed: u64 = (0..size as usize)
                .into_par_iter()
                .with_min_len(1 << 12)
                .map(|r| u64::from(self.settle(class, r as u64, &values, 0)))
                .sum();
            let unknown = values
                .par_iter()
                .filter(|v| v.load(Ordering::Relaxed) == UNKNOWN)
                .count();
            if unknown == 0 {
                break;
            }
            if changed == 0 {
                return Err(Error::BadParameter(format!(
                    "class {class} of {}: {unknown} positions depend on each other in a cycle (the game's moves within a class must not repeat a position)",
                    self.rules
                )));
            }
        }
        let values: Vec<i8> = values.into_iter().map(AtomicI8::into_inner).collect();
        self.insert(class, Values::Owned(values));
        Ok(ClassReport {
            class,
            positions: size,
            sweeps,
        })
    }

    /// Positions in `class`, or an error when they cannot be indexed.
    fn class_size(&self, class: u32) -> Result<u64, Error> {
        self.prototype
            .class_size(class)
            .filter(|&s| s < usize::MAX as u64 / 2)
            .ok_or_else(|| {
                Error::TooLarge(format!(
                    "class {class} of {} has too many positions to index",
                    self.rules
                ))
            })
    }

    fn insert(&mut self, class: u32, values: Values) {
        let i = class as usize;
        if self.classes.len() <= i {
            self.classes.resize_with(i + 1, || None);
        }
        self.classes[i] = Some(values);
    }

    /// Gives position `rank` of `class` its value if every move's value is known, settling an
    /// unknown child of the same class first (depth first, up to [`SETTLE_DEPTH`] deep: a
    /// sweep then settles nearly the whole class, and a cycle only runs into the limit); returns
    /// whether it gave the value now.
    fn settle(&self, class: u32, rank: u64, values: &[AtomicI8], depth: u32) -> bool {
        if values[rank as usize].load(Ordering::Relaxed) != UNKNOWN {
            return false;
        }
        let p = self.prototype.unrank(class, rank);
        let mut best: Option<Score> = None;
        let mut any = false;
        for m in p.moves() {
            any = true;
            let child = p.play(m);
            let c = child.class();
            let v = if c == class {
                let r = child.rank();
                let mut v = values[r as usize].load(Ordering::Relaxed);
                if v == UNKNOWN && depth < SETTLE_DEPTH {
                    self.settle(class, r, values, depth + 1);
                    v = values[r as usize].load(Ordering::Relaxed);
                }
                if v == UNKNOWN {
                    return false;
                }
                child.absolute_value(i32::from(v))
            } else {
                assert!(
                    c < class,
                    "a move raised the class: the Tablebase impl is wrong"
                );
                self.probe(&child).expect("lower classes are built first")
            };
            best = Some(match (best, p.to_move()) {
                (None, _) => v,
                (Some(b), Player::Max) => b.max(v),
                (Some(b), Player::Min) => b.min(v),
            });
        }
        let score = if any {
            best.expect("a move")
        } else {
            p.evaluate()
        };
        let rel = p.relative_value(score);
        debug_assert!(i8::try_from(rel).is_ok_and(|r| r != UNKNOWN));
        values[rank as usize].store(rel as i8, Ordering::Relaxed);
        true
    }
}

/// A position that answers the solver from the tables: of a loaded class, its exact value
/// ([`crate::SolverKnowledge::exact_value`]); every other hook is the game's own.
#[derive(Clone, Copy, Debug)]
pub struct Probed<'t, G> {
    position: G,
    tables: &'t Tables<G>,
}

impl<'t, G: Tablebase + Sync> Probed<'t, G> {
    /// `position`, answered from `tables`.
    pub fn new(position: G, tables: &'t Tables<G>) -> Self {
        Probed { position, tables }
    }

    /// The position.
    pub fn position(&self) -> &G {
        &self.position
    }
}

impl<G: Tablebase + Sync> Game for Probed<'_, G> {
    type Move = G::Move;
    type Moves = G::Moves;
    #[inline]
    fn to_move(&self) -> Player {
        self.position.to_move()
    }
    #[inline]
    fn moves(&self) -> G::Moves {
        self.position.moves()
    }
    #[inline]
    fn play(&self, m: G::Move) -> Self {
        Probed {
            position: self.position.play(m),
            tables: self.tables,
        }
    }
    #[inline]
    fn evaluate(&self) -> Score {
        self.position.evaluate()
    }
    #[inline]
    fn value_bounds(&self) -> Option<(Score, Score)> {
        self.position.value_bounds()
    }
    fn move_name(&self, m: G::Move) -> String {
        self.position.move_name(m)
    }
    const REPEATS: bool = G::REPEATS;
    fn repetition_value(&self) -> Score {
        self.position.repetition_value()
    }
}

impl<G: Tablebase + PositionKey + Sync> Adapter for Probed<'_, G> {
    type Inner = G;
    #[inline]
    fn inner(&self) -> &G {
        &self.position
    }
    #[inline]
    fn known_value(&self) -> Option<Score> {
        self.tables.probe(&self.position)
    }
}
