//! The learned evaluations the games use ([`gamesearch::learn`]): the weights the repository
//! ships, a file a run chooses in their place, and the hand-written evaluation asked for on one
//! thread (the side of a match that plays without the learned one).

use std::cell::Cell;
use std::sync::OnceLock;

use gamesearch::learn::{Features, Weights};
use gamesearch::Error;

thread_local! {
    static HAND_WRITTEN: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with every game's hand-written evaluation on this thread, whatever weights the
/// process chose: how one engine of a match plays without the learned evaluation while the
/// other plays with it.
///
/// ```
/// use gamesearch::engine::Heuristic;
/// use gamesearch_games::{learned::hand_written, Kalah};
/// let start = Kalah::new(6, 4).unwrap();
/// // The hand-written heuristic: four times the store difference, plus the seeds each side holds.
/// assert_eq!(hand_written(|| start.heuristic()), 0);
/// ```
pub fn hand_written<T>(f: impl FnOnce() -> T) -> T {
    /// Restores the thread's choice however `f` ends.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            HAND_WRITTEN.set(self.0);
        }
    }
    let _restore = Restore(HAND_WRITTEN.replace(true));
    f()
}

/// One kind of board's weights for the rest of the process: chosen once, else the shipped ones.
pub(crate) struct Choice(OnceLock<Option<Weights>>);

impl Choice {
    pub(crate) const fn new() -> Choice {
        Choice(OnceLock::new())
    }

    /// The weights in use: the chosen ones, else `shipped`; `None` (the hand-written guesses)
    /// where there are none or inside [`hand_written`].
    #[inline]
    pub(crate) fn active(
        &'static self,
        shipped: impl FnOnce() -> Option<&'static Weights>,
    ) -> Option<&'static Weights> {
        if HAND_WRITTEN.get() {
            return None;
        }
        self.0.get_or_init(|| shipped().cloned()).as_ref()
    }

    /// Chooses `weights` (checked against `board`'s features) or the hand-written evaluation
    /// (`None`), once, before any search; `what` names the board in the error.
    pub(crate) fn choose<G: Features>(
        &self,
        board: &G,
        weights: Option<Weights>,
        what: &str,
    ) -> Result<(), Error> {
        if let Some(w) = &weights {
            if w.feature_set() != board.feature_set() {
                return Err(Error::BadParameter(format!(
                    "weights learned for `{}`, not `{}`",
                    w.feature_set(),
                    board.feature_set()
                )));
            }
            w.check_shape(board, "the weights")?;
        }
        self.0.set(weights).map_err(|_| {
            Error::BadParameter(format!(
                "the evaluation of {what} is chosen once, before any search"
            ))
        })
    }
}

/// Weights compiled into the library (`bytes`, read from `path` under `games/`), read and
/// checked once into `cell`.
pub(crate) fn shipped(
    cell: &'static OnceLock<Weights>,
    bytes: &'static [u8],
    feature_set: &str,
    path: &str,
) -> &'static Weights {
    cell.get_or_init(|| {
        Weights::from_bytes(bytes, feature_set, path)
            .expect("the shipped weights are checked by the tests")
    })
}
