//! The `GAME` argument of the CLI, parsed in the library so that tools can share it.

use crate::{Connect4, Dobutsu, Domineering, Hex, Kalah, Othello, TicTacToe};
use gamesearch::error::Error;
use gamesearch::trees::{ExplicitTree, RandomTreeSpec};

/// A parsed `GAME` argument: `random:b=B,h=H,seed=S[,…]`, `tree:FILE`, `tree:TEXT`,
/// `kalah:M,N` (the start of Kalah(M, N)) or `kalah:POSITION` (see [`Kalah`]'s text form), each
/// with `:standard` for the standard capture rule (see [`crate::Rule`]), `othello[:NxN[:MOVES]]`
/// or `othello:NxN:board=CELLS/SIDE` (see [`Othello`]'s text form),
/// `domineering[:MxN[:v|:h][:MOVES]]` or `domineering:MxN:v|h:board=CELLS/SIDE` (see
/// [`Domineering`]'s text form), `hex[:NxN[:swap][:MOVES]]` or `hex:NxN[:swap]:board=CELLS/SIDE`
/// (see [`Hex`]'s text form), `tictactoe[:CELLS]`, or
/// `connect4:WxH[:MOVES]` (MOVES: 1-based columns played, as digits or numbers separated by
/// commas; see [`crate::Connect4::play_moves`]).
///
/// ```
/// use gamesearch_games::GameSpec;
/// assert!(matches!("random:b=2,h=3,seed=1".parse::<GameSpec>(), Ok(GameSpec::Random(_))));
/// assert!(matches!("tree:(max 1 2)".parse::<GameSpec>(), Ok(GameSpec::Tree(_))));
/// assert!(matches!("kalah:6,4".parse::<GameSpec>(), Ok(GameSpec::Kalah(_))));
/// assert!(matches!("connect4:5x4:33".parse::<GameSpec>(), Ok(GameSpec::Connect4(_))));
/// assert!(matches!("connect4:8x8:4,5".parse::<GameSpec>(), Ok(GameSpec::Connect4Wide(_))));
/// assert!(matches!("tictactoe".parse::<GameSpec>(), Ok(GameSpec::TicTacToe(_))));
/// assert!(matches!("domineering:6x6:h".parse::<GameSpec>(), Ok(GameSpec::Domineering(_))));
/// assert!(matches!("hex:5x5:c3".parse::<GameSpec>(), Ok(GameSpec::Hex(_))));
/// assert!("chess:start".parse::<GameSpec>().is_err());
/// ```
#[derive(Debug)]
pub enum GameSpec {
    /// A random (h, d, F) tree.
    Random(RandomTreeSpec),
    /// An explicit tree (already parsed).
    Tree(ExplicitTree),
    /// A Kalah position.
    Kalah(Kalah),
    /// A tic-tac-toe position.
    TicTacToe(TicTacToe),
    /// An Othello position.
    Othello(Othello),
    /// A Domineering position.
    Domineering(Domineering),
    /// A Hex position.
    Hex(Hex),
    /// A Dōbutsu shōgi position (its positions repeat: solved by retrograde analysis).
    Dobutsu(Dobutsu),
    /// A Connect-Four position on a board of at most 64 bits (`(H+1)·W <= 64`).
    Connect4(Connect4),
    /// A Connect-Four position on a board past 64 bits (`64 < (H+1)·W <= 128`: 10x6, 9x7, 8x8,
    /// 7x9, …), in `u128` bitboards.
    Connect4Wide(Connect4<u128>),
}

/// One kind of game a `GAME` argument may name: the registry every list of games (the error
/// for an unknown one, each command's `--help`, the docs' check) is read from, so that no list
/// goes stale when a game is added.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// The word the argument starts with.
    pub name: &'static str,
    /// The forms it takes.
    pub forms: &'static [&'static str],
    /// A board game (every command takes it: `play`, `serve`'s board, the Python package), or
    /// an abstract tree (`search`, `compare`, `trace`, `solve` only).
    pub board: bool,
    /// A game whose solve `split` cuts into jobs (a board game whose positions never repeat:
    /// a job's result must not depend on the line that reached it).
    pub splits: bool,
}

/// Every kind of game, abstract trees first.
pub const GAMES: [Kind; 9] = [
    Kind {
        name: "random",
        forms: &["random:b=B,h=H,seed=S[,…]"],
        board: false,
        splits: false,
    },
    Kind {
        name: "tree",
        forms: &["tree:FILE", "tree:TEXT"],
        board: false,
        splits: false,
    },
    Kind {
        name: "kalah",
        forms: &["kalah:M,N[:standard]", "kalah:POSITION[:standard]"],
        board: true,
        splits: true,
    },
    Kind {
        name: "tictactoe",
        forms: &["tictactoe[:CELLS]"],
        board: true,
        splits: true,
    },
    Kind {
        name: "connect4",
        forms: &["connect4:WxH[:MOVES]"],
        board: true,
        splits: true,
    },
    Kind {
        name: "othello",
        forms: &["othello[:NxN[:MOVES]]", "othello:NxN:board=CELLS/SIDE"],
        board: true,
        splits: true,
    },
    Kind {
        name: "domineering",
        forms: &[
            "domineering[:MxN[:v|:h][:MOVES]]",
            "domineering:MxN:v|h:board=CELLS/SIDE",
        ],
        board: true,
        splits: true,
    },
    Kind {
        name: "hex",
        forms: &[
            "hex[:NxN[:swap][:MOVES]]",
            "hex:NxN[:swap]:board=CELLS/SIDE",
        ],
        board: true,
        splits: true,
    },
    Kind {
        name: "dobutsu",
        forms: &["dobutsu[:MOVES]", "dobutsu:board=RANKS/SIDE[/HANDS]"],
        board: true,
        splits: false,
    },
];

/// The forms of the kinds `which` keeps, as a sentence's list: "a, b or c".
///
/// ```
/// use gamesearch_games::spec::{forms, GAMES};
/// let boards = forms(|k| k.board);
/// assert!(boards.starts_with("kalah:M,N[:standard], "));
/// assert!(boards.ends_with(" or dobutsu:board=RANKS/SIDE[/HANDS]"));
/// for k in GAMES.iter().filter(|k| k.board) {
///     assert!(boards.contains(k.name));
/// }
/// ```
pub fn forms(which: impl Fn(&Kind) -> bool) -> String {
    let all: Vec<&str> = GAMES
        .iter()
        .filter(|k| which(k))
        .flat_map(|k| k.forms.iter().copied())
        .collect();
    listed(&all, "or")
}

/// `items` as a sentence lists them: "a, b and c" (`conjunction` "and"), "a" alone.
pub(crate) fn listed(items: &[&str], conjunction: &str) -> String {
    match items.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} {conjunction} {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The forms a `GAME` argument may take, as an unknown game's error lists them.
pub fn expected() -> String {
    forms(|_| true)
}

/// Whether `kind` names a kind of game.
fn known_kind(kind: &str) -> bool {
    GAMES.iter().any(|k| k.name == kind)
}

/// The error for a `GAME` argument that names no known game.
fn unknown(s: &str) -> Error {
    Error::UnknownGame {
        game: s.to_string(),
        expected: expected(),
    }
}

impl std::str::FromStr for GameSpec {
    type Err = Error;
    /// One rule for every command: a known kind (`random:`, `tree:`, `kalah:`, `tictactoe`,
    /// `connect4:`), else a path to a tree file. A path that names no file (it has a `/` or a
    /// `.`) is "no such file"; anything else is an unknown game.
    ///
    /// ```
    /// use gamesearch::Error;
    /// use gamesearch_games::GameSpec;
    /// let e = "examples/trees/missing.tree".parse::<GameSpec>().unwrap_err();
    /// assert!(e.to_string().contains("no such file"), "{e}");
    /// assert!(matches!("tree:nowhere.tree".parse::<GameSpec>(), Err(Error::TreeFile { .. })));
    /// assert!(matches!("chess".parse::<GameSpec>(), Err(Error::UnknownGame { .. })));
    /// ```
    fn from_str(s: &str) -> Result<Self, Error> {
        if let Some(path) = GameSpec::tree_file(s) {
            return Ok(GameSpec::Tree(ExplicitTree::from_file(path)?));
        }
        if s == "tictactoe" {
            return Ok(GameSpec::TicTacToe(TicTacToe::new()));
        }
        if s == "othello" {
            return Ok(GameSpec::Othello(Othello::new(8)?));
        }
        if s == "domineering" {
            return Ok(GameSpec::Domineering(Domineering::new(8, 8, true)?));
        }
        if s == "hex" {
            return Ok(GameSpec::Hex(Hex::new(11, false)?));
        }
        if s == "dobutsu" {
            return Ok(GameSpec::Dobutsu(Dobutsu::start()));
        }
        let known = s.split_once(':').filter(|(kind, _)| known_kind(kind));
        let Some((kind, rest)) = known else {
            return Err(unknown(s));
        };
        match kind {
            "random" => Ok(GameSpec::Random(rest.parse()?)),
            "tree" => Ok(GameSpec::Tree(ExplicitTree::parse(rest)?)),
            "kalah" => Ok(GameSpec::Kalah(rest.parse()?)),
            "tictactoe" => Ok(GameSpec::TicTacToe(rest.parse()?)),
            "othello" => Ok(GameSpec::Othello(rest.parse()?)),
            "domineering" => Ok(GameSpec::Domineering(rest.parse()?)),
            "hex" => Ok(GameSpec::Hex(rest.parse()?)),
            "dobutsu" => Ok(GameSpec::Dobutsu(rest.parse()?)),
            "connect4" => {
                let (size, moves) = rest.split_once(':').unwrap_or((rest, ""));
                let bad = || {
                    Error::BadParameter(format!(
                        "connect4:{rest}: expected WxH[:MOVES], e.g. connect4:7x6:4453"
                    ))
                };
                let (w, h) = size.split_once('x').ok_or_else(bad)?;
                let (w, h): (usize, usize) =
                    (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
                // u64 bitboards where the board fits, u128 past them (whose error, for a
                // board that fits neither, states the largest board there is).
                match Connect4::new(w, h) {
                    Ok(p) => Ok(GameSpec::Connect4(p.play_moves(moves)?)),
                    Err(_) => Ok(GameSpec::Connect4Wide(
                        Connect4::<u128>::sized(w, h)?.play_moves(moves)?,
                    )),
                }
            }
            _ => Err(unknown(s)),
        }
    }
}

impl GameSpec {
    /// The tree file a `GAME` argument names, if it names one (`tree:FILE`, or a bare path:
    /// an existing file, or text with a `/` or a `.`), before anything is read: the one rule
    /// `from_str` follows, and what a caller that must not touch the disk checks first.
    ///
    /// ```
    /// use gamesearch_games::GameSpec;
    /// assert_eq!(GameSpec::tree_file("tree:x.tree"), Some("x.tree"));
    /// assert_eq!(GameSpec::tree_file("examples/trees/x.tree"), Some("examples/trees/x.tree"));
    /// assert_eq!(GameSpec::tree_file("tree:(max 1 2)"), None);
    /// assert_eq!(GameSpec::tree_file("kalah:6,4"), None);
    /// ```
    pub fn tree_file(s: &str) -> Option<&str> {
        if ["tictactoe", "othello", "domineering", "hex", "dobutsu"].contains(&s) {
            return None;
        }
        match s.split_once(':').filter(|(kind, _)| known_kind(kind)) {
            Some(("tree", rest)) => {
                let t = rest.trim_start();
                let text = t.starts_with('(') || t.parse::<i64>().is_ok();
                (!text).then_some(rest)
            }
            Some(_) => None,
            None => (std::path::Path::new(s).is_file() || s.contains('/') || s.contains('.'))
                .then_some(s),
        }
    }

    /// The rule set a game is played under, in one line for people, where a game's name alone
    /// leaves it open (Kalah's capture rule); `None` where the name says it all.
    ///
    /// ```
    /// use gamesearch_games::GameSpec;
    /// let rule = |g: &str| g.parse::<GameSpec>().unwrap().rules_note();
    /// assert!(rule("kalah:4,3").unwrap().starts_with("empty-capture rule"));
    /// assert!(rule("kalah:4,3:standard").unwrap().starts_with("standard rule"));
    /// assert_eq!(rule("tictactoe"), None);
    /// ```
    pub fn rules_note(&self) -> Option<&'static str> {
        match self {
            GameSpec::Kalah(k) => Some(k.rule().describe()),
            _ => None,
        }
    }

    /// The depth that searches the whole tree: `h` or the explicit tree's height; `None` for
    /// real games, whose trees are too deep to search to the end without a horizon.
    pub fn full_depth(&self) -> Option<u32> {
        match self {
            GameSpec::Random(r) => Some(r.h),
            GameSpec::Tree(t) => Some(t.height()),
            GameSpec::Kalah(_)
            | GameSpec::Connect4(_)
            | GameSpec::Connect4Wide(_)
            | GameSpec::Othello(_)
            | GameSpec::Domineering(_)
            | GameSpec::Hex(_)
            | GameSpec::Dobutsu(_) => None,
            GameSpec::TicTacToe(_) => Some(9),
        }
    }

    /// The horizon a search of `depth` uses: `depth`, no deeper than the whole tree, or the
    /// whole tree where `depth` is not given; `None` when the game needs one and none was given
    /// (each front end words that error its own way).
    ///
    /// ```
    /// use gamesearch_games::GameSpec;
    /// let r: GameSpec = "random:b=2,h=3,seed=1".parse().unwrap();
    /// assert_eq!((r.horizon(None), r.horizon(Some(9))), (Some(3), Some(3)));
    /// assert_eq!("kalah:6,4".parse::<GameSpec>().unwrap().horizon(None), None);
    /// ```
    pub fn horizon(&self, depth: Option<u32>) -> Option<u32> {
        match (depth, self.full_depth()) {
            (Some(d), Some(full)) => Some(d.min(full)),
            (None, full) => full,
            (Some(d), None) => Some(d),
        }
    }

    /// The most plies the game can still last, where the rules bound it: the random tree's
    /// `h`, the explicit tree's height, the empty cells of Connect-Four and tic-tac-toe; `None`
    /// for Kalah (whose games end, but with no bound this cheap to state).
    ///
    /// ```
    /// use gamesearch_games::GameSpec;
    /// let c: GameSpec = "connect4:5x4:33".parse().unwrap();
    /// assert_eq!(c.max_plies(), Some(18));
    /// assert_eq!("tictactoe".parse::<GameSpec>().unwrap().max_plies(), Some(9));
    /// ```
    pub fn max_plies(&self) -> Option<u32> {
        match self {
            GameSpec::Random(r) => Some(r.h),
            GameSpec::Tree(t) => Some(t.height()),
            GameSpec::Kalah(_) => None,
            // Positions repeat: no bound.
            GameSpec::Dobutsu(_) => None,
            // Every move but a pass fills a square; two passes in a row end the game.
            GameSpec::Othello(p) => Some(2 * p.empties()),
            GameSpec::Domineering(p) => Some(p.empty_cells() / 2),
            GameSpec::Hex(p) => gamesearch::SolverKnowledge::plies_left_at_most(p),
            GameSpec::TicTacToe(p) => Some(gamesearch::Game::moves(p).count() as u32),
            GameSpec::Connect4(c) => gamesearch::SolverKnowledge::plies_left_at_most(c),
            GameSpec::Connect4Wide(c) => gamesearch::SolverKnowledge::plies_left_at_most(c),
        }
    }

    /// An upper bound on the nodes of the tree searched to `depth` (root included): `Σ b^i` for
    /// a random tree, the node count of an explicit one, `Σ w^i` for Connect-Four (w columns),
    /// `Σ m^i` for Kalah (m pits; counted in plies), the permutations for tic-tac-toe.
    /// Saturates at `u64::MAX`. `compare` uses it to bound what an algorithm may cost: minimax
    /// visits every one of these nodes, proof-number and conspiracy search may keep them all
    /// in memory.
    ///
    /// ```
    /// use gamesearch_games::GameSpec;
    /// let s: GameSpec = "random:b=2,h=3,seed=1".parse().unwrap();
    /// assert_eq!(s.max_nodes(3), 1 + 2 + 4 + 8);
    /// assert_eq!(s.max_nodes(99), 15); // no deeper than the tree
    /// let t: GameSpec = "tictactoe".parse().unwrap();
    /// assert_eq!(t.max_nodes(9), 986_410); // 1 + 9 + 9·8 + … + 9!
    /// ```
    pub fn max_nodes(&self, depth: u32) -> u64 {
        let uniform = |b: u64, d: u32| -> u64 {
            let (mut total, mut level) = (1u64, 1u64);
            for _ in 0..d {
                level = level.saturating_mul(b);
                total = total.saturating_add(level);
            }
            total
        };
        match self {
            GameSpec::Random(r) => uniform(u64::from(r.b), depth.min(r.h)),
            GameSpec::Tree(t) => t.nodes().len() as u64,
            GameSpec::Kalah(k) => uniform(k.pits() as u64, depth),
            // (An Othello position has rarely more than 20 moves; the bound is the empties.)
            GameSpec::Othello(p) => uniform(u64::from(p.empties().max(1)), depth),
            // (A domino's places are at most the empty cells.)
            GameSpec::Domineering(p) => uniform(
                u64::from(p.empty_cells().max(1)),
                depth.min(p.empty_cells() / 2),
            ),
            // (At most 47 moves in any position.)
            GameSpec::Dobutsu(_) => uniform(47, depth),
            GameSpec::Hex(p) => {
                let cells = u64::from(p.empty().count_ones());
                uniform(cells.max(1), depth.min(cells as u32 + 1))
            }
            GameSpec::Connect4(c) => uniform(
                c.width() as u64,
                depth.min(self.max_plies().unwrap_or(depth)),
            ),
            GameSpec::Connect4Wide(c) => uniform(
                c.width() as u64,
                depth.min(self.max_plies().unwrap_or(depth)),
            ),
            GameSpec::TicTacToe(_) => {
                let (mut total, mut level) = (1u64, 1u64);
                for i in 0..depth.min(9) {
                    level *= u64::from(9 - i);
                    total += level;
                }
                total
            }
        }
    }
}
