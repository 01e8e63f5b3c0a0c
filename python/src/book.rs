//! `gamesearch.Book`: an opening book read once, for `solve`, `Solver` and `Engine`.

use std::path::PathBuf;
use std::sync::Arc;

use gamesearch_games::split::check_book;
use gamesearch_games::GameSpec;
use pyo3::prelude::*;

use crate::{bad, replay, Game};

/// An opening book (`gamesearch combine … --book`, `Split.book`): solved positions by key.
#[pyclass(frozen, module = "gamesearch._core")]
pub struct Book {
    inner: Arc<gamesearch::solver::book::Book>,
    path: String,
}

impl Book {
    /// The book, for the position `spec` names: an error when it is a book of other rules.
    pub(crate) fn for_game(&self, spec: &str) -> PyResult<Arc<gamesearch::solver::book::Book>> {
        check_book(&self.inner, spec).map_err(bad)?;
        Ok(Arc::clone(&self.inner))
    }
}

/// What `book` knows of `p`: (lower, upper, best move by name), MAX's view.
fn answer<G: gamesearch::Game + gamesearch::PositionKey + gamesearch::SolverKnowledge>(
    book: &gamesearch::solver::book::Book,
    p: &G,
) -> Option<(i32, i32, Option<String>)> {
    let a = book.lookup(p)?;
    Some((a.bounds.0, a.bounds.1, a.best_move.map(|m| p.move_name(m))))
}

/// What the book has for the position `game` is at: (lower, upper, best move), MAX's view.
pub(crate) fn lookup(
    book: &gamesearch::solver::book::Book,
    game: &Game,
) -> PyResult<Option<(i32, i32, Option<String>)>> {
    Ok(match game.spec.parse::<GameSpec>().map_err(bad)? {
        GameSpec::Connect4(p) => answer(book, &replay(&p, &game.moves)?),
        GameSpec::Kalah(p) => answer(book, &replay(&p, &game.moves)?),
        GameSpec::TicTacToe(p) => answer(book, &replay(&p, &game.moves)?),
        GameSpec::Othello(p) => answer(book, &replay(&p, &game.moves)?),
        GameSpec::Domineering(p) => answer(book, &replay(&p, &game.moves)?),
        GameSpec::Hex(p) => answer(book, &replay(&p, &game.moves)?),
        _ => return Err(bad(
            "a book holds Connect-Four, Kalah, tic-tac-toe, Othello, Domineering or Hex positions",
        )),
    })
}

#[pymethods]
impl Book {
    /// Reads the book at `path`.
    #[new]
    fn new(path: PathBuf) -> PyResult<Self> {
        let inner = gamesearch::solver::book::Book::read(&path).map_err(bad)?;
        Ok(Book {
            inner: Arc::new(inner),
            path: path.display().to_string(),
        })
    }

    /// The file it was read from.
    #[getter]
    fn path(&self) -> String {
        self.path.clone()
    }

    /// The rules it is a book of (`connect4:7x6`).
    #[getter]
    fn rules(&self) -> String {
        self.inner.rules().to_string()
    }

    /// How it was made.
    #[getter]
    fn source(&self) -> String {
        self.inner.source().to_string()
    }

    /// Positions with an exact value.
    #[getter]
    fn exact(&self) -> usize {
        self.inner.exact()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// (lower, upper, best move) for `game`'s position, MAX's view; None when not in the book.
    fn lookup(&self, game: &Game) -> PyResult<Option<(i32, i32, Option<String>)>> {
        check_book(&self.inner, &game.spec).map_err(bad)?;
        lookup(&self.inner, game)
    }

    fn __repr__(&self) -> String {
        format!(
            "Book({:?}: {} positions of {}, {} exact)",
            self.path,
            self.inner.len(),
            self.inner.rules(),
            self.inner.exact()
        )
    }
}
