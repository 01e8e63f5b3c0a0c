//! `gamesearch.Solver`: the alpha-beta solver with its transposition table kept from position to
//! position, as `gamesearch bench` keeps it — what a loop over many positions wants.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use gamesearch::{ExactSolver, PositionKey, SolveConfig, SolverKnowledge};
use gamesearch_games::GameSpec;
use gamesearch_games::{Connect4, Domineering, Hex, Kalah, Othello, TicTacToe};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::protocol::PyGame;
use crate::{
    bad, finish, limits, on_this_thread, python_root, replay, solve_config, solve_python, Game,
};

/// A table for one kind of game: it is kept while the positions share their rules (the keys of
/// two boards of different sizes could collide), and a new one is made when they change.
enum Table {
    Connect4(ExactSolver<Connect4>),
    Connect4Wide(ExactSolver<Connect4<u128>>),
    Kalah(ExactSolver<Kalah>),
    TicTacToe(ExactSolver<TicTacToe>),
    Othello(ExactSolver<Othello>),
    Domineering(ExactSolver<Domineering>),
    Hex(ExactSolver<Hex>),
    /// With the game's class, kept alive (never read) so that its address, in the rules, is not
    /// reused by another class.
    #[allow(dead_code)]
    Python(ExactSolver<PyGame>, Py<PyAny>),
}

/// The alpha-beta solver with a table that outlives each solve.
#[pyclass(module = "gamesearch._core")]
pub struct Solver {
    tt_mb: u64,
    threads: usize,
    best_move: bool,
    id_depth: u32,
    /// The opening book, if any.
    book: Option<Py<crate::book::Book>>,
    /// The rules the table's positions follow, and the table.
    table: Mutex<Option<(String, Table)>>,
}

/// The table for `rules` in `slot`, made anew (with `cfg`'s size) when the rules changed.
fn table_for<'a, G: PositionKey + SolverKnowledge + Sync>(
    slot: &'a mut Option<(String, Table)>,
    rules: String,
    cfg: &SolveConfig,
    wrap: impl FnOnce(ExactSolver<G>) -> Table,
    unwrap: fn(&mut Table) -> Option<&mut ExactSolver<G>>,
) -> PyResult<&'a mut ExactSolver<G>> {
    if slot.as_ref().is_none_or(|(r, _)| *r != rules) {
        // The old table goes first: two need not fit.
        *slot = None;
        *slot = Some((rules, wrap(ExactSolver::new(cfg).map_err(bad)?)));
    }
    let (_, table) = slot.as_mut().expect("just set");
    unwrap(table).ok_or_else(|| bad("the solver's table changed kind"))
}

macro_rules! solve_shipped {
    ($py:ident, $cfg:ident, $stop:ident, $slot:ident, $rules:expr, $start:expr, $moves:expr, $variant:ident) => {{
        let p = replay(&$start, $moves)?;
        let solver = table_for($slot, $rules, &$cfg, Table::$variant, |t| match t {
            Table::$variant(s) => Some(s),
            _ => None,
        })?;
        let (out, interrupted) = on_this_thread($py, &$stop, || {
            let start = std::time::Instant::now();
            solver
                .solve(&p, &$cfg, |_| {})
                .map(|s| s.report(&p, "alphabeta-tt", start.elapsed().as_secs_f64() * 1e3))
        })?;
        let report = out.map_err(bad)?;
        finish(
            $py,
            serde_json::to_value(&report).map_err(bad)?,
            interrupted,
        )
    }};
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (tt_mb = 64, threads = 1, best_move = true, id_depth = 8, book = None))]
    fn new(
        tt_mb: u64,
        threads: usize,
        best_move: bool,
        id_depth: u32,
        book: Option<Py<crate::book::Book>>,
    ) -> PyResult<Self> {
        solve_config(tt_mb, threads, gamesearch::Limits::none(), false)?;
        Ok(Solver {
            tt_mb,
            threads,
            best_move,
            id_depth,
            book,
            table: Mutex::new(None),
        })
    }

    /// Solves `game` (a Game, or an object of the game protocol) with the kept table; random
    /// and explicit trees get a fresh table each time.
    #[pyo3(signature = (game, max_nodes = None, max_time = None, window = None))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        max_nodes: Option<u64>,
        max_time: Option<f64>,
        window: Option<(i32, i32)>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let stop = Arc::new(AtomicBool::new(false));
        let book = match (&self.book, game.downcast::<Game>()) {
            (None, _) => None,
            (Some(b), Ok(g)) => Some(b.get().for_game(&g.get().spec)?),
            (Some(_), Err(_)) => {
                return Err(bad("a book holds positions of the shipped games (Connect-Four, Kalah, Othello, Domineering, Hex, tic-tac-toe), not a game written in Python"))
            }
        };
        let cfg = SolveConfig {
            book,
            best_move: self.best_move,
            id_depth: self.id_depth,
            window,
            ..solve_config(
                self.tt_mb,
                self.threads,
                limits(max_nodes, max_time, &stop)?,
                false,
            )?
        };
        let mut guard = self
            .table
            .lock()
            .map_err(|_| bad("the solver was poisoned by a panic"))?;
        let slot = &mut *guard;
        if let Ok(g) = game.downcast::<Game>() {
            let g = g.get();
            return match g.spec.parse::<GameSpec>().map_err(bad)? {
                GameSpec::Connect4(p) => {
                    let rules = format!("connect4:{}x{}", p.width(), p.height());
                    solve_shipped!(py, cfg, stop, slot, rules, p, &g.moves, Connect4)
                }
                GameSpec::Connect4Wide(p) => {
                    let rules = format!("connect4:{}x{}", p.width(), p.height());
                    solve_shipped!(py, cfg, stop, slot, rules, p, &g.moves, Connect4Wide)
                }
                GameSpec::Kalah(p) => {
                    let rules = gamesearch::split::Splittable::rules(&p);
                    solve_shipped!(py, cfg, stop, slot, rules, p, &g.moves, Kalah)
                }
                GameSpec::TicTacToe(p) => {
                    let rules = "tictactoe".to_string();
                    solve_shipped!(py, cfg, stop, slot, rules, p, &g.moves, TicTacToe)
                }
                GameSpec::Othello(p) => {
                    let rules = gamesearch::split::Splittable::rules(&p);
                    solve_shipped!(py, cfg, stop, slot, rules, p, &g.moves, Othello)
                }
                GameSpec::Domineering(p) => {
                    let rules = gamesearch::split::Splittable::rules(&p);
                    solve_shipped!(py, cfg, stop, slot, rules, p, &g.moves, Domineering)
                }
                GameSpec::Hex(p) => {
                    let rules = gamesearch::split::Splittable::rules(&p);
                    solve_shipped!(py, cfg, stop, slot, rules, p, &g.moves, Hex)
                }
                GameSpec::Dobutsu(_) => Err(bad(
                    "Dōbutsu shōgi's positions repeat, which this kept-table solver does not follow: gs.solve(game, \"dfpn\") solves one position, the command line's `gamesearch tablebase build dobutsu` every position",
                )),
                GameSpec::Random(_) | GameSpec::Tree(_) if window.is_some() => Err(bad(
                    "window: random and explicit trees are solved without one",
                )),
                GameSpec::Random(_) | GameSpec::Tree(_) => crate::solve(
                    py,
                    game,
                    "alphabeta-tt",
                    self.tt_mb,
                    self.threads,
                    max_nodes,
                    max_time,
                    false,
                    self.id_depth,
                    None,
                ),
            };
        }
        // A game written in Python: one table per class (its keys are the class's own).
        let root = python_root(game, self.threads)?;
        let class = game.get_type();
        let rules = format!(
            "python:{}:{:p}",
            class.name()?,
            class.as_ptr() as *const std::ffi::c_void
        );
        let keep = class.clone().into_any().unbind();
        let solver = table_for(
            slot,
            rules,
            &cfg,
            |s| Table::Python(s, keep),
            |t| match t {
                Table::Python(s, _) => Some(s),
                _ => None,
            },
        )?;
        solve_python(py, root, &stop, "alphabeta-tt", |p| {
            solver.solve(p, &cfg, |_| {})
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Solver(tt_mb={}, threads={}, best_move={}, id_depth={})",
            self.tt_mb,
            self.threads,
            if self.best_move { "True" } else { "False" },
            self.id_depth
        )
    }
}
