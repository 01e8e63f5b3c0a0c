//! A solve split into jobs (the library's `split`): the jobs as (key, game) pairs, and the
//! jobs' values combined into the root's. `gamesearch.distributed` runs the jobs on Ray.

use std::collections::HashMap;
use std::path::PathBuf;

use gamesearch_games::split::{job_key as key_of, split_text, SplitText, TextMaster};
use pyo3::prelude::*;

use crate::bad;

/// The top tree of a position split at some ply, and its jobs.
#[pyclass(module = "gamesearch._core", frozen)]
pub struct Split {
    inner: SplitText,
}

#[pymethods]
impl Split {
    /// Splits the position `game` (a GAME spec of Connect-Four, Kalah or tic-tac-toe) at
    /// `plies`; more than `max_jobs` jobs is an error. The GIL is released while it enumerates.
    #[new]
    fn new(py: Python<'_>, game: String, plies: u32, max_jobs: usize) -> PyResult<Self> {
        let inner = py
            .allow_threads(move || split_text(&game, plies, max_jobs))
            .map_err(bad)?;
        Ok(Split { inner })
    }

    /// The jobs as (key, game) pairs, in the order they were met.
    fn jobs(&self) -> Vec<(String, String)> {
        self.inner
            .jobs()
            .iter()
            .map(|j| (j.key.clone(), j.game.clone()))
            .collect()
    }

    /// Positions above the frontier.
    fn top_nodes(&self) -> usize {
        self.inner.top_nodes()
    }

    /// A job-level proof-number master over this split, its first test at `guess`.
    fn master(&self, guess: i32) -> Master {
        Master {
            inner: self.inner.master(guess),
        }
    }

    /// Writes the opening book of this split to `path` from the jobs' answers by key
    /// ((lower, upper), best move), made by `source`; (positions, exact ones) in it.
    fn book(
        &self,
        py: Python<'_>,
        answers: HashMap<String, ((i32, i32), Option<String>)>,
        path: PathBuf,
        source: String,
    ) -> PyResult<(usize, usize)> {
        py.allow_threads(|| {
            let book = self.inner.book(&answers, &source)?;
            book.write(&path)?;
            Ok((book.len(), book.exact()))
        })
        .map_err(|e: gamesearch::Error| bad(e))
    }

    /// The root's (value, best move, jobs still missing) from the jobs' values by key.
    fn combine(&self, values: HashMap<String, i32>) -> (Option<i32>, Option<String>, usize) {
        let c = self.inner.combine(&values);
        (c.value, c.best_move, c.missing)
    }
}

/// The job key of the position `game` names.
#[pyfunction]
pub fn job_key(game: &str) -> PyResult<String> {
    key_of(game).map_err(bad)
}

/// Job-level proof-number search over a split: which jobs to ask "is your value at least v?"
/// next, their answers, the root's value (the library's `TextMaster`).
#[pyclass(module = "gamesearch._core")]
pub struct Master {
    inner: TextMaster,
}

#[pymethods]
impl Master {
    /// Up to `k` (job index, v) pairs to ask next, most-proving first.
    fn next_jobs(&mut self, k: usize) -> Vec<(usize, i32)> {
        self.inner.next_jobs(k)
    }

    /// Job `i`'s proven bounds; whether the root's bounds moved.
    fn record(&mut self, i: usize, lower: i32, upper: i32) -> PyResult<bool> {
        if lower > upper {
            return Err(bad(format!("job {i}: bounds [{lower}, {upper}] are empty")));
        }
        Ok(self.inner.record(i, (lower, upper)))
    }

    /// Job `i` will not answer: it may be asked again.
    fn forget(&mut self, i: usize) {
        self.inner.forget(i)
    }

    /// Jobs out whose answer can no longer matter (cancel them).
    fn needless(&mut self) -> Vec<usize> {
        self.inner.needless()
    }

    /// (value or None, (lower, upper), tests answered, best move or None).
    fn state(&self) -> (Option<i32>, (i32, i32), u32, Option<String>) {
        (
            self.inner.value(),
            self.inner.bounds(),
            self.inner.tests(),
            self.inner.best_move(),
        )
    }
}
