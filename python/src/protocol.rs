//! Games written in Python: any object with `to_move()`, `moves()`, `play(move)` and
//! `evaluate()` (optionally `key()`, `score_so_far()` and `value_bounds()`), which the Rust
//! algorithms drive.
//!
//! [`PyGame`] implements the library's `Game` for such an object. Each position is asked each
//! question at most once — its answers are kept beside it — so a search costs one `play`, one
//! `to_move`, one `moves` and (at a leaf) one `evaluate` per node. A move is its index in the
//! position's `moves()`; the objects themselves stay in Python.
//!
//! The search runs on a thread of its own that holds the GIL (Python's thread waits with it
//! released and turns Ctrl-C into the stop flag, as for the shipped games). A callback that
//! raises, or breaks the protocol, is remembered in the thread's [`Session`] and stops the
//! search; from then on every position reads as a finished game, so the search unwinds at once,
//! and the caller raises the error instead of returning a result.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use gamesearch::{Game, Player, PositionKey, Score, SolverKnowledge, INF};
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

use crate::GameSearchError;

/// How many plies below the root a Python game may go: deeper, the search stops with an error
/// (an endless game would otherwise recurse until the stack ran out).
pub const PLY_LIMIT: u32 = 10_000;

/// The search thread's stack: deep enough for [`PLY_LIMIT`] plies of any algorithm (only the
/// pages touched are ever committed).
pub const STACK_BYTES: usize = 512 << 20;

/// What one search of a Python game has learnt about it, on the thread that runs it.
struct Session {
    /// The first error: a callback that raised or broke the protocol.
    error: Option<PyErr>,
    /// Raised with the error, so that the search stops.
    stop: Arc<AtomicBool>,
    /// Whether the game has `key()`; without it every position gets a key of its own.
    keyed: bool,
    /// Whether the game has `key()` and `score_so_far()`: `key()` then leaves the score out,
    /// the solver's table keys by it and the other algorithms by it and the score together.
    scored: bool,
    /// `value_bounds()` of the root, when the game has it.
    bounds: Option<(Score, Score)>,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Keys for games without `key()`: unique per position, so the table never confuses two.
static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

fn failed() -> bool {
    SESSION.with(|s| s.borrow().as_ref().is_none_or(|s| s.error.is_some()))
}

/// Remembers the first error and stops the search.
fn fail(err: PyErr) {
    SESSION.with(|s| {
        if let Some(s) = s.borrow_mut().as_mut() {
            if s.error.is_none() {
                s.error = Some(err);
                s.stop.store(true, Ordering::Relaxed);
            }
        }
    });
}

/// "the game's `what` raised E: message", with the original exception as its cause.
fn raised(py: Python<'_>, what: &str, err: PyErr) -> PyErr {
    let e = GameSearchError::new_err(format!("the game's {what} raised {err}"));
    e.set_cause(py, Some(err));
    e
}

fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// `repr(v)` for messages, shortened.
fn short_repr(v: &Bound<'_, PyAny>) -> String {
    let r = v
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into());
    let mut s: String = r.chars().take(60).collect();
    if s.len() < r.len() {
        s.push('…');
    }
    s
}

/// A value a callback returned, for messages: `3 (int)`.
fn shown(v: &Bound<'_, PyAny>) -> String {
    format!("{} ({})", short_repr(v), type_name(v))
}

/// A position of a game written in Python, with the answers it has given.
#[derive(Clone)]
pub struct PyGame(Arc<Node>);

struct Node {
    obj: Py<PyAny>,
    ply: u32,
    to_move: OnceLock<Player>,
    /// The `moves()` sequence (a list or tuple; anything else iterable is made a list once).
    moves: OnceLock<Option<(Py<PyAny>, u32)>>,
    evaluation: OnceLock<Score>,
    key: OnceLock<u64>,
    score: OnceLock<Score>,
}

impl PyGame {
    fn new(obj: Py<PyAny>, ply: u32) -> Self {
        PyGame(Arc::new(Node {
            obj,
            ply,
            to_move: OnceLock::new(),
            moves: OnceLock::new(),
            evaluation: OnceLock::new(),
            key: OnceLock::new(),
            score: OnceLock::new(),
        }))
    }

    /// A position that reads as a finished game (after an error: the search unwinds).
    fn finished(&self) -> Self {
        let p = Python::with_gil(|py| PyGame::new(self.0.obj.clone_ref(py), self.0.ply));
        let _ = p.0.moves.set(None);
        p
    }

    /// The `moves()` sequence and its length, asked once.
    fn move_list(&self) -> Option<&(Py<PyAny>, u32)> {
        self.0
            .moves
            .get_or_init(|| {
                if failed() {
                    return None;
                }
                Python::with_gil(|py| match self.ask_moves(py) {
                    Ok(m) => Some(m),
                    Err(e) => {
                        fail(e);
                        None
                    }
                })
            })
            .as_ref()
    }

    /// `self.name()` in Python; an exception it raises becomes "the game's name() raised …".
    fn call<'py>(
        &self,
        py: Python<'py>,
        name: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.0
            .obj
            .bind(py)
            .call_method0(name)
            .map_err(|e| raised(py, &format!("{name}()"), e))
    }

    fn ask_moves(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, u32)> {
        let ms = self.call(py, intern!(py, "moves"))?;
        let seq = if ms.is_instance_of::<PyList>() || ms.is_instance_of::<PyTuple>() {
            ms
        } else if ms.is_instance_of::<PyString>() || ms.is_instance_of::<PyBytes>() {
            return Err(GameSearchError::new_err(format!(
                "the game's moves() must return a sequence of moves (a list or tuple); it returned {}",
                shown(&ms)
            )));
        } else {
            match ms.try_iter() {
                Ok(it) => PyTuple::new(py, it.collect::<PyResult<Vec<_>>>()?)?.into_any(),
                Err(_) => {
                    return Err(GameSearchError::new_err(format!(
                        "the game's moves() must return a sequence of moves (a list or tuple); it returned {}",
                        shown(&ms)
                    )))
                }
            }
        };
        let n = u32::try_from(seq.len()?)
            .map_err(|_| GameSearchError::new_err("the game's moves() returned over 2^32 moves"))?;
        Ok((seq.unbind(), n))
    }

    /// The move object of index `m`.
    pub fn move_object(&self, py: Python<'_>, m: u32) -> Option<Py<PyAny>> {
        let (seq, _) = self.move_list()?;
        item(seq.bind(py), m).ok().map(Bound::unbind)
    }

    fn ask_play(&self, py: Python<'_>, m: u32) -> PyResult<PyGame> {
        let obj = self.0.obj.bind(py);
        let Some((seq, n)) = self.move_list() else {
            return Err(GameSearchError::new_err(
                "move played at a finished position",
            ));
        };
        if m >= *n {
            return Err(GameSearchError::new_err(
                "the game's moves() changed between calls",
            ));
        }
        let mv = item(seq.bind(py), m)?;
        let next = obj
            .call_method1(intern!(py, "play"), (&mv,))
            .map_err(|e| raised(py, &format!("play({})", short_repr(&mv)), e))?;
        if next.is_none() {
            return Err(GameSearchError::new_err(format!(
                "the game's play({}) returned None: it must return the position after the move, as a new object",
                short_repr(&mv)
            )));
        }
        if next.is(obj) {
            return Err(GameSearchError::new_err(format!(
                "the game's play({}) returned the same object: it must return a new position and leave this one as it was",
                short_repr(&mv)
            )));
        }
        if self.0.ply + 1 > PLY_LIMIT {
            return Err(GameSearchError::new_err(format!(
                "the game went on for more than {PLY_LIMIT} plies below the position searched: does it end? (search with depth=…)"
            )));
        }
        Ok(PyGame::new(next.unbind(), self.0.ply + 1))
    }

    fn ask_to_move(&self, py: Python<'_>) -> PyResult<Player> {
        let v = self.call(py, intern!(py, "to_move"))?;
        match v.extract::<i64>() {
            Ok(1) => Ok(Player::Max),
            Ok(-1) => Ok(Player::Min),
            _ => Err(GameSearchError::new_err(format!(
                "the game's to_move() must return +1 (MAX, the first player) or -1 (MIN); it returned {}",
                shown(&v)
            ))),
        }
    }

    /// The int a method of the game returns, within the scores the library takes.
    fn ask_score(&self, py: Python<'_>, method: &Bound<'_, PyString>) -> PyResult<Score> {
        let v = self.call(py, method)?;
        score(&v).ok_or_else(|| {
            GameSearchError::new_err(format!(
                "the game's {method}() must return an int from -{m} to {m}; it returned {}",
                shown(&v),
                m = INF - 1
            ))
        })
    }

    fn ask_key(&self, py: Python<'_>) -> PyResult<u64> {
        let v = self.call(py, intern!(py, "key"))?;
        let k = v
            .extract::<u64>()
            .or_else(|_| v.extract::<i64>().map(|k| k as u64))
            .map_err(|_| {
                GameSearchError::new_err(format!(
                    "the game's key() must return an int of at most 64 bits (hash(…) gives one); it returned {}",
                    shown(&v)
                ))
            })?;
        // Python's ints hash to themselves: mix the bits so that tables index by all of them.
        Ok(splitmix(k))
    }

    /// Asks once; after an error anywhere, answers `otherwise` without asking.
    fn answer<T: Copy>(
        &self,
        cell: &OnceLock<T>,
        otherwise: T,
        ask: impl FnOnce(Python<'_>) -> PyResult<T>,
    ) -> T {
        if let Some(&v) = cell.get() {
            return v;
        }
        if failed() {
            return otherwise;
        }
        match Python::with_gil(ask) {
            Ok(v) => *cell.get_or_init(|| v),
            Err(e) => {
                fail(e);
                otherwise
            }
        }
    }
}

/// Item `i` of a `moves()` sequence (a list or tuple: the C API's direct access).
fn item<'py>(seq: &Bound<'py, PyAny>, i: u32) -> PyResult<Bound<'py, PyAny>> {
    let i = i as usize;
    if let Ok(l) = seq.downcast::<PyList>() {
        l.get_item(i)
    } else if let Ok(t) = seq.downcast::<PyTuple>() {
        t.get_item(i)
    } else {
        seq.get_item(i)
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A Python int as a score strictly inside `(-INF, INF)`.
fn score(v: &Bound<'_, PyAny>) -> Option<Score> {
    if !v.is_instance_of::<pyo3::types::PyInt>() {
        return None;
    }
    v.extract::<Score>().ok().filter(|s| s.abs() < INF)
}

/// A position's moves (their indices), asked of Python only when first looked at: a search
/// that stops at its horizon evaluates a leaf without generating its moves.
pub struct Moves {
    game: PyGame,
    next: u32,
    len: Option<u32>,
}

impl Iterator for Moves {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let len = *self.len.get_or_insert_with(|| {
            if failed() {
                0
            } else {
                self.game.move_list().map_or(0, |&(_, n)| n)
            }
        });
        (self.next < len).then(|| {
            self.next += 1;
            self.next - 1
        })
    }
}

impl Game for PyGame {
    type Move = u32;
    type Moves = Moves;

    fn to_move(&self) -> Player {
        self.answer(&self.0.to_move, Player::Max, |py| self.ask_to_move(py))
    }

    fn moves(&self) -> Self::Moves {
        Moves {
            game: self.clone(),
            next: 0,
            len: None,
        }
    }

    fn play(&self, m: u32) -> Self {
        if failed() {
            return self.finished();
        }
        match Python::with_gil(|py| self.ask_play(py, m)) {
            Ok(p) => p,
            Err(e) => {
                fail(e);
                self.finished()
            }
        }
    }

    fn evaluate(&self) -> Score {
        self.answer(&self.0.evaluation, 0, |py| {
            self.ask_score(py, intern!(py, "evaluate"))
        })
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        SESSION.with(|s| s.borrow().as_ref().and_then(|s| s.bounds))
    }

    fn move_name(&self, m: u32) -> String {
        Python::with_gil(|py| {
            self.move_object(py, m)
                .and_then(|o| o.bind(py).str().ok().map(|s| s.to_string()))
                .unwrap_or_else(|| m.to_string())
        })
    }
}

impl PyGame {
    /// The game's `key()` (without the score, when it has `score_so_far()`).
    fn own_key(&self) -> u64 {
        self.answer(&self.0.key, 0, |py| self.ask_key(py))
    }

    /// The game's `score_so_far()`.
    fn score_so_far(&self) -> Score {
        self.answer(&self.0.score, 0, |py| {
            self.ask_score(py, intern!(py, "score_so_far"))
        })
    }
}

/// What the session knows of the game: (has `key()`, has `key()` and `score_so_far()`).
fn keying() -> (bool, bool) {
    SESSION.with(|s| {
        s.borrow()
            .as_ref()
            .map_or((false, false), |s| (s.keyed, s.scored))
    })
}

impl PositionKey for PyGame {
    fn key(&self) -> u64 {
        match keying() {
            (false, _) => *self
                .0
                .key
                .get_or_init(|| NEXT_KEY.fetch_add(1, Ordering::Relaxed)),
            (true, false) => self.own_key(),
            // The whole position for every algorithm but the solver's table: the score mixed in.
            (true, true) => splitmix(self.own_key() ^ splitmix(self.score_so_far() as u32 as u64)),
        }
    }
}

impl SolverKnowledge for PyGame {
    /// With `key()` and `score_so_far()`: the solver's table keys by `key()` alone and holds
    /// values relative to the score, so that a transposition reached with another score is found.
    fn score_so_far(&self) -> Option<(Score, u64)> {
        match keying() {
            (true, true) => Some((PyGame::score_so_far(self), self.own_key())),
            _ => None,
        }
    }
}

/// The engine's heuristic: the game's `evaluate()`.
impl gamesearch::engine::Heuristic for PyGame {}

/// A game written in Python that says its positions repeat (`repeats = True`): the same game,
/// with [`Game::REPEATS`] and what a repetition is worth (its `repetition_value`, MAX's view;
/// 0, a draw, by default), which the solvers read.
#[derive(Clone)]
pub struct Repeating(pub PyGame, pub Score);

impl Game for Repeating {
    type Move = u32;
    type Moves = Moves;
    fn to_move(&self) -> Player {
        self.0.to_move()
    }
    fn moves(&self) -> Moves {
        self.0.moves()
    }
    fn play(&self, m: u32) -> Self {
        Repeating(self.0.play(m), self.1)
    }
    fn evaluate(&self) -> Score {
        self.0.evaluate()
    }
    fn value_bounds(&self) -> Option<(Score, Score)> {
        self.0.value_bounds()
    }
    fn move_name(&self, m: u32) -> String {
        self.0.move_name(m)
    }
    const REPEATS: bool = true;
    fn repetition_value(&self) -> Score {
        self.1
    }
}

impl gamesearch::Adapter for Repeating {
    type Inner = PyGame;
    fn inner(&self) -> &PyGame {
        &self.0
    }
}

/// A Python game checked at its root: the methods the protocol needs exist, and
/// `value_bounds()`, when there, is a pair of ints.
pub struct Root {
    obj: Py<PyAny>,
    repeats: bool,
    repetition: Score,
    keyed: bool,
    scored: bool,
    bounds: Option<(Score, Score)>,
}

impl Root {
    pub fn new(obj: &Bound<'_, PyAny>) -> PyResult<Root> {
        let missing: Vec<&str> = ["to_move", "moves", "play", "evaluate"]
            .into_iter()
            .filter(|m| !obj.hasattr(*m).unwrap_or(false))
            .collect();
        if !missing.is_empty() {
            return Err(PyTypeError::new_err(format!(
                "a game needs the methods to_move(), moves(), play(move) and evaluate() (optionally key()); {} has no {}",
                type_name(obj),
                missing.iter().map(|m| format!("{m}()")).collect::<Vec<_>>().join(", ")
            )));
        }
        let bounds = if obj.hasattr("value_bounds")? {
            let b = obj
                .call_method0("value_bounds")
                .map_err(|e| raised(obj.py(), "value_bounds()", e))?;
            let pair: Option<(Bound<PyAny>, Bound<PyAny>)> = b.extract().ok();
            match pair.and_then(|(lo, hi)| Some((score(&lo)?, score(&hi)?))) {
                Some((lo, hi)) if lo <= hi => Some((lo, hi)),
                _ => {
                    return Err(GameSearchError::new_err(format!(
                        "the game's value_bounds() must return (lo, hi), two ints with lo <= hi; it returned {}",
                        shown(&b)
                    )))
                }
            }
        } else {
            None
        };
        // A game whose positions repeat says so (`repeats = True`) and needs `key()`: a
        // repetition is a position whose key is met again on the line.
        let repeats = obj.hasattr("repeats")? && obj.getattr("repeats")?.is_truthy()?;
        if repeats && !obj.hasattr("key")? {
            return Err(PyTypeError::new_err(format!(
                "{} says its positions repeat (repeats = True): it needs key(), equal for equal positions",
                type_name(obj)
            )));
        }
        // What a repetition is worth (MAX's view): `repetition_value`, an int; a draw without.
        let repetition = if obj.hasattr("repetition_value")? {
            let v = obj.getattr("repetition_value")?;
            score(&v).ok_or_else(|| {
                GameSearchError::new_err(format!(
                    "the game's repetition_value must be an int (MAX's view); it is {}",
                    shown(&v)
                ))
            })?
        } else {
            0
        };
        Ok(Root {
            obj: obj.clone().unbind(),
            repeats,
            repetition,
            keyed: obj.hasattr("key")?,
            scored: obj.hasattr("key")? && obj.hasattr("score_so_far")?,
            bounds,
        })
    }

    /// Whether the game has `key()`.
    pub fn keyed(&self) -> bool {
        self.keyed
    }

    /// Whether the game says its positions repeat (`repeats = True`): it is then solved as
    /// [`Repeating`].
    pub fn repeats(&self) -> bool {
        self.repeats
    }

    /// What a repetition is worth, MAX's view (`repetition_value`; 0 without).
    pub fn repetition(&self) -> Score {
        self.repetition
    }

    /// Runs `job` on the root with the GIL held (call it on the search thread), and returns its
    /// result or the first error a callback gave.
    pub fn run<T>(self, stop: Arc<AtomicBool>, job: impl FnOnce(&PyGame) -> T) -> PyResult<T> {
        Python::with_gil(|_| {
            let session = Session {
                error: None,
                stop,
                keyed: self.keyed,
                scored: self.scored,
                bounds: self.bounds,
            };
            // A game's callback may itself search (a nested session): keep the outer one.
            let outer = SESSION.with(|s| s.replace(Some(session)));
            let root = PyGame::new(self.obj, 0);
            let out = job(&root);
            let session = SESSION.with(|s| s.replace(outer));
            match session.and_then(|s| s.error) {
                Some(e) => Err(e),
                None => Ok(out),
            }
        })
    }
}

/// A result's best move and PV from `root` as the game's own objects (what search and the
/// engine return for a game written in Python).
pub fn move_objects(
    root: &PyGame,
    best: Option<u32>,
    pv: &[u32],
) -> (Option<Py<PyAny>>, Vec<Py<PyAny>>) {
    Python::with_gil(|py| {
        let best = best.and_then(|m| root.move_object(py, m));
        (best, path_objects(py, root, pv))
    })
}

/// The objects of the moves `path` names, played from `root` (a best move and PV by object).
fn path_objects(py: Python<'_>, root: &PyGame, path: &[u32]) -> Vec<Py<PyAny>> {
    let mut p = root.clone();
    let mut out = Vec::with_capacity(path.len());
    for &m in path {
        let Some(o) = p.move_object(py, m) else { break };
        out.push(o);
        p = p.play(m);
    }
    out
}
