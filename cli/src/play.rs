//! `gamesearch play`: a game against the engine in the terminal (or scripted through standard
//! input), and `play --match`: engine against engine over seeded openings with colours swapped.

use std::io::{BufRead, Write};
use std::time::Duration;

use gamesearch::adapters::AtHorizon;
use gamesearch::engine::{Driver, Engine, EngineConfig, Heuristic, Thought};
use gamesearch::mcts::{Mcts, MctsConfig, MctsResult};
use gamesearch::solver::book::Book;
use gamesearch::solver::{ExactSolver, SolveConfig};
use gamesearch::tablebase::Probed;
use gamesearch::{Algorithm, Limits, MctsParams, Player, PositionKey, SolverKnowledge};
use gamesearch_games::dobutsu::DobutsuMove;
use gamesearch_games::{Connect4, Dobutsu, Domineering, Hex, Kalah, Othello, TicTacToe};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::gtp::GtpEngine;
use crate::sprt::{Pentanomial, Sprt, Verdict};

/// A game that can be played in the terminal: drawn as text, moves typed in its own notation
/// (what [`Game::move_name`](gamesearch::Game::move_name) prints). Positions and moves may
/// cross threads (MCTS's threads search them).
pub trait Board:
    PositionKey + Heuristic + SolverKnowledge + Send + Sync + gamesearch::Game<Move: Send + Sync>
{
    /// The position, drawn for people.
    fn board(&self) -> String;
    /// Which side a player is, in this game's words (default: X first, O second).
    fn side_name(p: Player) -> &'static str {
        match p {
            Player::Max => "X (first)",
            Player::Min => "O (second)",
        }
    }
    /// The move named `s`, if legal here.
    fn parse_move(&self, s: &str) -> Option<Self::Move> {
        self.moves().find(|&m| self.move_name(m) == s)
    }
    /// How moves are written, for the prompt.
    fn move_help(&self) -> String {
        let names: Vec<String> = self.moves().map(|m| self.move_name(m)).collect();
        names.join(" ")
    }
    /// What the final score `v` (the first player's view) means, for the game-over line
    /// (`None`: a win is all there is to say).
    fn score_text(&self, v: gamesearch::Score) -> Option<String> {
        Some(format!("score {v:+}, the first player's view"))
    }
    /// Whether the engine reads endgame databases here: a proven result it reports may then be
    /// a database's position, not the end of the game.
    fn with_databases(&self) -> bool {
        false
    }
    /// What the engine's heuristic values count, as the estimates it prints name it.
    fn heuristic_unit() -> &'static str {
        "heuristic points"
    }
    /// The board size a GTP engine is told (`boardsize`), if this game has a GTP form and this
    /// is its starting position (GTP sets up no other: a match with a GTP engine starts here
    /// and tells it every move). Default: none.
    fn gtp_board_size(&self) -> Option<u32> {
        None
    }
}

/// Kalah with its endgame databases: drawn and played as Kalah; the engine reads the databases.
impl Board for Probed<'_, Kalah> {
    fn board(&self) -> String {
        self.position().board()
    }
    fn side_name(p: Player) -> &'static str {
        Kalah::side_name(p)
    }
    fn score_text(&self, v: gamesearch::Score) -> Option<String> {
        self.position().score_text(v)
    }
    fn with_databases(&self) -> bool {
        true
    }
    fn heuristic_unit() -> &'static str {
        Kalah::heuristic_unit()
    }
}

impl<B: gamesearch_games::Bitboard> Board for Connect4<B> {
    /// Connect-Four's score counts the winner's stones: `(cells + 1)/2 + 1 - stones`.
    fn score_text(&self, v: gamesearch::Score) -> Option<String> {
        // The winner made the last move: its stones are half the moves, rounded up.
        let stones = self.moves_played().div_ceil(2);
        Some(format!(
            "with its stone number {stones}; score {v:+}: the first player's view, more for a quicker win"
        ))
    }

    fn board(&self) -> String {
        let mut s = String::new();
        for row in (0..self.height()).rev() {
            s.push('|');
            for col in 0..self.width() {
                s.push(match self.cell(col, row) {
                    Some(Player::Max) => 'X',
                    Some(Player::Min) => 'O',
                    None => '.',
                });
                s.push('|');
            }
            s.push('\n');
        }
        s.push(' ');
        for col in 0..self.width() {
            s.push_str(&format!("{} ", (col + 1) % 10));
        }
        s.push('\n');
        s
    }
}

impl Board for Kalah {
    /// The engine's Kalah heuristic: the stores' difference counted four times, plus the
    /// difference of the seeds on each side.
    fn heuristic_unit() -> &'static str {
        "points (stores ×4 + seeds on each side)"
    }
    /// Kalah's score is the difference of the stores.
    fn score_text(&self, v: gamesearch::Score) -> Option<String> {
        Some(format!(
            "by {} seeds: South's store minus North's, {v:+}",
            v.abs()
        ))
    }
    /// North's pits on top (its pit 1 at the right, as it sows right to left seen from South),
    /// the stores at the ends, South's pits below; each side names its pits 1.. from its left.
    fn board(&self) -> String {
        let (south_store, north_store) = self.stores();
        let pits =
            |v: &mut dyn Iterator<Item = &u8>| v.map(|s| format!("{s:>3}")).collect::<String>();
        let m = self.pits();
        let numbers =
            |v: &mut dyn Iterator<Item = usize>| v.map(|i| format!("{i:>3}")).collect::<String>();
        format!(
            "      {}   North's pits\n      {}\n {north_store:>3} {} {south_store:>3}   stores: North left, South right\n      {}\n      {}   South's pits\n",
            numbers(&mut (1..=m).rev()),
            pits(&mut self.north().iter().rev()),
            " ".repeat(3 * m),
            pits(&mut self.south().iter()),
            numbers(&mut (1..=m)),
        )
    }
    fn side_name(p: Player) -> &'static str {
        match p {
            Player::Max => "South (first)",
            Player::Min => "North (second)",
        }
    }
}

impl Board for TicTacToe {
    /// The engine's tic-tac-toe heuristic counts the lines still open to one side only.
    fn heuristic_unit() -> &'static str {
        "open lines"
    }
    /// Three in a row: there is no margin to explain.
    fn score_text(&self, _: gamesearch::Score) -> Option<String> {
        None
    }
    fn board(&self) -> String {
        let cells: Vec<char> = self.to_string().chars().collect();
        let mut s = String::new();
        for r in 0..3 {
            for c in 0..3 {
                let i = 3 * r + c;
                s.push(if cells[i] == '.' {
                    char::from_digit(i as u32 + 1, 10).unwrap_or('.')
                } else {
                    cells[i].to_ascii_uppercase()
                });
                s.push(if c < 2 { '|' } else { '\n' });
            }
        }
        s
    }
}

impl Board for Othello {
    /// The engine's Othello heuristic, in hundredths of a disc (corners, mobility, discs).
    fn heuristic_unit() -> &'static str {
        "hundredths of a disc (corners, mobility, discs)"
    }
    fn score_text(&self, v: gamesearch::Score) -> Option<String> {
        Some(format!(
            "by {} discs: Black's less White's, empty squares to the winner, {v:+}",
            v.abs()
        ))
    }
    fn board(&self) -> String {
        format!("{self}\n")
    }
    fn side_name(p: Player) -> &'static str {
        match p {
            Player::Max => "X (Black, first)",
            Player::Min => "O (White, second)",
        }
    }
    /// `f5`, `F5`, `ps` or `pass`.
    fn parse_move(&self, s: &str) -> Option<u8> {
        Othello::parse_move(self, s).filter(|&m| gamesearch::Game::moves(self).any(|x| x == m))
    }
    /// Edax's GTP (`-gtp`) plays 8x8 from the four centre discs, Black to move.
    fn gtp_board_size(&self) -> Option<u32> {
        let n = self.size();
        (Othello::new(n).ok()? == *self).then_some(n as u32)
    }
}

impl Board for Domineering {
    /// Safe moves (×4), moves at most (×2) and places (×1), the side to move's less the other's.
    fn heuristic_unit() -> &'static str {
        "move counts (safe moves, moves at most, places)"
    }
    /// A win is all there is: the first player wins (+1) or loses (−1).
    fn score_text(&self, _: gamesearch::Score) -> Option<String> {
        None
    }
    fn board(&self) -> String {
        format!("{self}\n")
    }
    fn side_name(p: Player) -> &'static str {
        match p {
            Player::Max => "the first player",
            Player::Min => "the second player",
        }
    }
    /// Two cells, either order: `a1a2` (Vertical), `a1b1` (Horizontal).
    fn parse_move(&self, s: &str) -> Option<u8> {
        Domineering::parse_move(self, s)
            .ok()
            .filter(|&m| gamesearch::Game::moves(self).any(|x| x == m))
    }
}

impl Board for Hex {
    /// Each player's fewest empty cells still to fill to join its edges, White's less Black's.
    fn heuristic_unit() -> &'static str {
        "distances (cells each player still needs)"
    }
    /// A win is all there is: the first player wins (+1) or loses (−1).
    fn score_text(&self, _: gamesearch::Score) -> Option<String> {
        None
    }
    fn board(&self) -> String {
        format!("{self}\n")
    }
    fn side_name(p: Player) -> &'static str {
        match p {
            Player::Max => "Black (first, top to bottom)",
            Player::Min => "White (second, left to right)",
        }
    }
    /// A cell (`c3`, either case) or `swap`.
    fn parse_move(&self, s: &str) -> Option<u8> {
        Hex::parse_move(self, s)
            .ok()
            .filter(|&m| gamesearch::Game::moves(self).any(|x| x == m))
    }
    fn move_help(&self) -> String {
        format!(
            "an empty cell, a1 to {}{}{}",
            (b'a' + self.size() as u8 - 1) as char,
            self.size(),
            if self.can_swap() { ", or swap" } else { "" }
        )
    }
}

impl Board for Dobutsu {
    /// Material, the mover's less the opponent's, in tenths of a chick.
    fn heuristic_unit() -> &'static str {
        "material (a chick 10, a giraffe or an elephant 30, a hen 40)"
    }
    /// A win is all there is.
    fn score_text(&self, _: gamesearch::Score) -> Option<String> {
        None
    }
    /// Rank 1 (Gote's home) at the top, the hands below.
    fn board(&self) -> String {
        let text = self.to_string();
        let parts: Vec<&str> = text.split('/').collect();
        let mut out = String::from("   a b c\n");
        for (i, rank) in parts[..4].iter().enumerate() {
            let cells: Vec<String> = rank.chars().map(String::from).collect();
            out += &format!(" {} {}\n", i + 1, cells.join(" "));
        }
        let hand = parts.get(5).copied().unwrap_or("");
        let sente: String = hand.chars().filter(char::is_ascii_uppercase).collect();
        let gote: String = hand.chars().filter(char::is_ascii_lowercase).collect();
        out += &format!("in hand: Sente {sente:-<1}  Gote {gote:-<1}\n");
        out
    }
    fn side_name(p: Player) -> &'static str {
        match p {
            Player::Max => "Sente (first, upper case, from rank 4)",
            Player::Min => "Gote (second, lower case, from rank 1)",
        }
    }
    fn parse_move(&self, s: &str) -> Option<DobutsuMove> {
        Dobutsu::parse_move(self, s).ok()
    }
    fn move_help(&self) -> String {
        "a step from square to square (b3b2), or a drop (C*b2)".into()
    }
}

/// How long and how deep the engine thinks per move, with which driver and table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineSpec {
    /// Seconds per move (`None`: depth only).
    pub time: Option<f64>,
    /// The deepest iteration.
    pub depth: u32,
    /// PVS with aspiration, or MTD(f).
    pub driver: Driver,
    /// Monte-Carlo tree search instead of alpha-beta (`driver=mcts`, `driver=mcts-solver`,
    /// `driver=pn-mcts`; `plies=N` cuts its playouts off, valued by the heuristic). It needs a
    /// time a move.
    pub mcts: Option<MctsParams>,
    /// Table size, MiB.
    pub tt_mb: usize,
    /// The game's hand-written evaluation in place of its learned one (`eval=hand`: Othello
    /// and Kalah have both; [`gamesearch_games::learned::hand_written`]).
    pub hand_written: bool,
}

impl Default for EngineSpec {
    fn default() -> Self {
        EngineSpec {
            time: Some(1.0),
            depth: 128,
            driver: Driver::Pvs { aspiration: 16 },
            mcts: None,
            tt_mb: 64,
            hand_written: false,
        }
    }
}

/// Engine settings as typed on the command line: only the fields given, laid over a default
/// (`--a tt=128` keeps the match's `time=0.01`). A key given twice is an error.
///
/// ```
/// use gamesearch_cli::play::{EngineSettings, EngineSpec};
/// let base: EngineSpec = "time=0.01".parse().unwrap();
/// let a: EngineSettings = "tt=128".parse().unwrap();
/// assert_eq!((a.over(base).time, a.over(base).tt_mb), (Some(0.01), 128));
/// assert!("tt=1,tt=2".parse::<EngineSettings>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EngineSettings {
    time: Option<f64>,
    depth: Option<u32>,
    driver: Option<(Driver, Option<MctsParams>)>,
    tt_mb: Option<usize>,
    hand_written: Option<bool>,
    plies: Option<u32>,
    pn: Option<f64>,
    threads: Option<usize>,
    parallel: Option<gamesearch::mcts::Parallel>,
}

impl std::str::FromStr for EngineSettings {
    type Err = String;
    /// `time=0.1,depth=12,driver=mtdf,tt=64,eval=hand` (any subset).
    fn from_str(s: &str) -> Result<Self, String> {
        let mut e = EngineSettings::default();
        let mut seen: Vec<&str> = Vec::new();
        for part in s.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                format!("`{part}`: expected key=value (time, depth, driver, tt, eval, plies, pn, threads, parallel)")
            })?;
            if seen.contains(&k) {
                return Err(format!("`{k}` is given twice"));
            }
            seen.push(k);
            match k {
                "time" => {
                    let t: f64 = v.parse().map_err(|_| format!("time={v}: not a number"))?;
                    if !(t > 0.0 && t <= 1e9) {
                        return Err(format!(
                            "time={v}: must be a positive number of seconds (at most 10^9)"
                        ));
                    }
                    e.time = Some(t);
                }
                "depth" => {
                    e.depth = Some(
                        v.parse()
                            .ok()
                            .filter(|&d| d >= 1)
                            .ok_or_else(|| format!("depth={v}: must be a whole number ≥ 1"))?,
                    );
                }
                "driver" => {
                    let pvs = Driver::Pvs { aspiration: 16 };
                    // The Monte-Carlo drivers are the library's algorithms of those names.
                    let mcts = match v.parse() {
                        Ok(Algorithm::Mcts(p)) => Some(p),
                        _ => None,
                    };
                    e.driver = Some(match (v, mcts) {
                        ("pvs", _) => (pvs, None),
                        ("mtdf", _) => (Driver::Mtdf, None),
                        (_, Some(p)) => (pvs, Some(p)),
                        _ => {
                            return Err(format!(
                                "driver={v}: expected pvs, mtdf, mcts, mcts-solver or pn-mcts"
                            ))
                        }
                    })
                }
                "tt" => {
                    e.tt_mb = Some(
                        v.parse()
                            .ok()
                            .filter(|&m| (1..=1 << 30).contains(&m))
                            .ok_or_else(|| format!("tt={v}: must be a number of MiB ≥ 1"))?,
                    );
                }
                "eval" => {
                    e.hand_written = Some(match v {
                        "learned" => false,
                        "hand" => true,
                        _ => return Err(format!("eval={v}: expected learned or hand")),
                    });
                }
                "pn" => {
                    let c: f64 = v.parse().map_err(|_| format!("pn={v}: not a number"))?;
                    if !(c.is_finite() && c >= 0.0) {
                        return Err(format!("pn={v}: PN-MCTS's C_pn must be a number ≥ 0"));
                    }
                    e.pn = Some(c);
                }
                "plies" => {
                    e.plies = Some(v.parse().map_err(|_| {
                        format!("plies={v}: must be a whole number of plies (MCTS's playouts)")
                    })?);
                }
                "threads" => {
                    e.threads = Some(
                        v.parse()
                            .ok()
                            .filter(|t| (1..=1024).contains(t))
                            .ok_or_else(|| format!("threads={v}: must be a whole number from 1 to 1024"))?,
                    );
                }
                "parallel" => {
                    e.parallel = Some(match v {
                        "root" => gamesearch::mcts::Parallel::Root,
                        "tree" => gamesearch::mcts::Parallel::Tree,
                        _ => return Err(format!("parallel={v}: expected root or tree")),
                    });
                }
                _ => {
                    return Err(format!(
                        "`{k}`: unknown engine setting (time, depth, driver, tt, eval, plies, pn, threads, parallel)"
                    ))
                }
            }
        }
        if e.pn.is_some() && !matches!(e.driver, Some((_, Some(m))) if m.pn_constant.is_some()) {
            return Err("pn= is PN-MCTS's C_pn: give it with driver=pn-mcts".into());
        }
        if (e.threads.is_some() || e.parallel.is_some()) && !matches!(e.driver, Some((_, Some(_))))
        {
            return Err(
                "threads= and parallel= are MCTS's: give them with driver=mcts, mcts-solver or pn-mcts"
                    .into(),
            );
        }
        if let Some((_, Some(m))) = e.driver {
            // What the library refuses of these settings (PN-MCTS on one shared tree, say).
            let m = MctsParams {
                threads: e.threads.unwrap_or(m.threads),
                parallel: e.parallel.unwrap_or(m.parallel),
                ..m
            };
            m.check().map_err(|err| err.to_string())?;
        }
        if e.hand_written == Some(true) && e.threads.is_some_and(|t| t > 1) {
            // The choice holds on the engine's own thread.
            return Err("eval=hand plays on one thread: not with threads=".into());
        }
        if e.plies.is_some() && !matches!(e.driver, Some((_, Some(_)))) {
            return Err(
                "plies= cuts MCTS's playouts off: give it with driver=mcts, mcts-solver or pn-mcts"
                    .into(),
            );
        }
        Ok(e)
    }
}

impl EngineSettings {
    /// `base` with the fields given here replaced. A depth given without a time means depth
    /// only (no time limit).
    pub fn over(&self, base: EngineSpec) -> EngineSpec {
        EngineSpec {
            time: match (self.time, self.depth) {
                (Some(t), _) => Some(t),
                (None, Some(_)) => None,
                (None, None) => base.time,
            },
            depth: self.depth.unwrap_or(base.depth),
            driver: self.driver.map_or(base.driver, |(d, _)| d),
            mcts: self
                .driver
                .map_or(base.mcts, |(_, m)| m)
                .map(|m| MctsParams {
                    playout_plies: self.plies.unwrap_or(m.playout_plies),
                    pn_constant: self.pn.or(m.pn_constant),
                    threads: self.threads.unwrap_or(m.threads),
                    parallel: self.parallel.unwrap_or(m.parallel),
                    ..m
                }),
            tt_mb: self.tt_mb.unwrap_or(base.tt_mb),
            hand_written: self.hand_written.unwrap_or(base.hand_written),
        }
    }
}

/// A side of a match: one of the library's engines, or an outside engine spoken to in GTP.
#[derive(Clone, Debug, PartialEq)]
pub enum Contender {
    /// The library's engine.
    Engine(EngineSpec),
    /// An outside engine: the command that starts it in GTP mode (run by `sh -c`).
    Gtp(String),
}

impl std::fmt::Display for Contender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contender::Engine(e) => e.fmt(f),
            Contender::Gtp(command) => write!(f, "GTP engine `{command}`"),
        }
    }
}

/// A match side as typed: `gtp:COMMAND`, or engine settings laid over the side's defaults.
///
/// ```
/// use gamesearch_cli::play::{Contender, ContenderSettings, EngineSpec};
/// let b: ContenderSettings = "gtp:edax -gtp -l 8".parse().unwrap();
/// assert_eq!(b.over(EngineSpec::default()), Contender::Gtp("edax -gtp -l 8".into()));
/// let a: ContenderSettings = "tt=128".parse().unwrap();
/// assert!(matches!(a.over(EngineSpec::default()), Contender::Engine(e) if e.tt_mb == 128));
/// assert!("gtp:".parse::<ContenderSettings>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum ContenderSettings {
    /// The library's engine, with the settings given.
    Engine(EngineSettings),
    /// An outside GTP engine's command.
    Gtp(String),
}

impl Default for ContenderSettings {
    fn default() -> Self {
        ContenderSettings::Engine(EngineSettings::default())
    }
}

impl std::str::FromStr for ContenderSettings {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.strip_prefix("gtp:") {
            Some(command) if command.trim().is_empty() => {
                Err("gtp: needs the command that starts the engine in GTP mode".into())
            }
            Some(command) => Ok(ContenderSettings::Gtp(command.trim().to_owned())),
            None => s.parse().map(ContenderSettings::Engine),
        }
    }
}

impl ContenderSettings {
    /// The contender, an engine's settings laid over `base`.
    pub fn over(&self, base: EngineSpec) -> Contender {
        match self {
            ContenderSettings::Engine(e) => Contender::Engine(e.over(base)),
            ContenderSettings::Gtp(command) => Contender::Gtp(command.clone()),
        }
    }
}

impl std::str::FromStr for EngineSpec {
    type Err = String;
    /// `time=0.1,depth=12,driver=mtdf,tt=64` (any subset; the rest defaults).
    ///
    /// ```
    /// use gamesearch_cli::play::EngineSpec;
    /// let e: EngineSpec = "time=0.01,driver=mtdf".parse().unwrap();
    /// assert_eq!(e.time, Some(0.01));
    /// assert!("time=-1".parse::<EngineSpec>().is_err());
    /// assert!("colour=red".parse::<EngineSpec>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(s.parse::<EngineSettings>()?.over(EngineSpec::default()))
    }
}

impl std::fmt::Display for EngineSpec {
    /// As people read it: `0.01 s a move, PVS, 64 MiB table` or `depth 6, MTD(f), 64 MiB table`.
    ///
    /// ```
    /// use gamesearch_cli::play::EngineSpec;
    /// let e: EngineSpec = "time=0.01".parse().unwrap();
    /// assert_eq!(e.to_string(), "0.01 s a move, PVS, 64 MiB table");
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let limit = match (self.time, self.depth) {
            (Some(t), d) if d < 128 => format!("{t} s a move up to depth {d}"),
            (Some(t), _) => format!("{t} s a move"),
            (None, d) => format!("depth {d}"),
        };
        let driver = match (self.mcts, self.driver) {
            (Some(m), _) => {
                match (m.pn_constant, m.solver) {
                    (Some(c), _) if c != 1.0 => write!(f, "{limit}, PN-MCTS (C_pn {c})")?,
                    (Some(_), _) => write!(f, "{limit}, PN-MCTS")?,
                    (None, true) => write!(f, "{limit}, MCTS-Solver")?,
                    (None, false) => write!(f, "{limit}, MCTS (UCT)")?,
                }
                if m.playout_plies != u32::MAX {
                    write!(f, ", playouts cut at {} plies", m.playout_plies)?;
                }
                if m.threads > 1 {
                    let how = match m.parallel {
                        gamesearch::mcts::Parallel::Root => "a tree each",
                        gamesearch::mcts::Parallel::Tree => "one tree",
                    };
                    write!(f, ", {} threads ({how})", m.threads)?;
                }
                if self.hand_written {
                    write!(f, ", hand-written evaluation")?;
                }
                return Ok(());
            }
            (None, Driver::Mtdf) => "MTD(f)",
            (None, Driver::Pvs { .. }) => "PVS",
        };
        write!(f, "{limit}, {driver}, {} MiB table", self.tt_mb)?;
        if self.hand_written {
            write!(f, ", hand-written evaluation")?;
        }
        Ok(())
    }
}

impl EngineSpec {
    /// The alpha-beta engine this describes (an MCTS driver is no such engine: `play` and
    /// `play --match` run MCTS themselves, `gtp` refuses it).
    pub fn build<G: PositionKey + Heuristic>(&self) -> Result<Engine<G>, gamesearch::Error> {
        if self.mcts.is_some() {
            return Err(gamesearch::Error::BadParameter(
                "the MCTS drivers play in `play`, not here, for now".into(),
            ));
        }
        Engine::new(&EngineConfig {
            tt_bytes: self.tt_mb << 20,
            driver: self.driver,
            max_depth: self.depth,
        })
    }

    /// Runs `f` (the engine's thinking) with the evaluation asked for: the game's
    /// hand-written one on this thread where `eval=hand`.
    pub fn evaluating<T>(&self, f: impl FnOnce() -> T) -> T {
        if self.hand_written {
            gamesearch_games::learned::hand_written(f)
        } else {
            f()
        }
    }

    /// The limits of one move.
    pub fn limits(&self, base: &Limits) -> Limits {
        match self.time {
            Some(t) => base.clone().with_max_time(Duration::from_secs_f64(t)),
            None => base.clone(),
        }
    }
}

/// Who the person plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Human {
    /// The first player (the engine answers).
    First,
    /// The second player (the engine opens).
    Second,
    /// Both sides (the engine only gives hints).
    Both,
    /// Neither: the engine plays itself.
    None,
}

impl Human {
    fn plays(self, side: Player) -> bool {
        match self {
            Human::First => side == Player::Max,
            Human::Second => side == Player::Min,
            Human::Both => true,
            Human::None => false,
        }
    }
}

/// A result as people read it, one convention everywhere: a value is the first player's (`+3`
/// favours the first player, whoever moves), a proven result names its winner (`X wins in 5`).
/// `side` is the side the engine thought for, `names` the first player's and the second's.
///
/// ```
/// use gamesearch::engine::{Engine, EngineConfig};
/// use gamesearch::{Limits, Player};
/// use gamesearch_games::Connect4;
/// use gamesearch_cli::play::describe;
/// let p = Connect4::new(7, 6).unwrap().play_moves("445566").unwrap();
/// let mut e: Engine<Connect4> = Engine::new(&EngineConfig::default()).unwrap();
/// let t = e.think(&p, &Limits::none(), |_| {});
/// assert_eq!(describe(&t, Player::Max, ["X", "O"]), "X wins in 1");
/// // O to move, X threatening both ends of its three: O cannot stop X.
/// let q = Connect4::new(7, 6).unwrap().play_moves("44556").unwrap();
/// let t = e.think(&q, &Limits::none(), |_| {});
/// assert_eq!(describe(&t, Player::Min, ["X", "O"]), "X wins in 2");
/// ```
pub fn describe(t: &Thought<impl Copy>, side: Player, names: [&str; 2]) -> String {
    describe_result(t.mate, t.value, side, names)
}

/// [`describe`] of a result given by its parts: `mate` (plies to a proven end, positive when
/// `side` wins) and `value` (the first player's); an iteration's as well as a search's.
pub fn describe_result(
    mate: Option<i32>,
    value: Option<gamesearch::Score>,
    side: Player,
    names: [&str; 2],
) -> String {
    let name = |p: Player| names[usize::from(p == Player::Min)];
    match (mate, value) {
        (Some(n), _) if n > 0 => format!("{} wins in {n}", name(side)),
        (Some(n), _) => format!("{} wins in {}", name(side.opponent()), -n),
        (None, Some(v)) => format!("{v:+}"),
        (None, None) => "?".into(),
    }
}

/// A side's short name: `X`, `South`, `Black` (without "(first)").
pub fn short_name<G: Board>(p: Player) -> &'static str {
    let full = G::side_name(p);
    full.split(" (").next().unwrap_or(full)
}

/// A side as the engine's line names it: `O, second`.
fn side_words<G: Board>(p: Player) -> String {
    G::side_name(p)
        .replacen(" (", ", ", 1)
        .trim_end_matches(')')
        .to_string()
}

/// The first player's short name and the second's, for [`describe`].
fn names<G: Board>() -> [&'static str; 2] {
    [short_name::<G>(Player::Max), short_name::<G>(Player::Min)]
}

/// [`describe`], saying where a proven result comes from when the engine reads databases.
fn describe_at<G: Board>(p: &G, t: &Thought<G::Move>, side: Player) -> String {
    match (t.mate, t.value) {
        (Some(n), _) if p.with_databases() => {
            let winner = if n > 0 { side } else { side.opponent() };
            format!(
                "proven: {} wins (the game's end or the databases within {} plies)",
                short_name::<G>(winner),
                n.abs()
            )
        }
        (None, Some(_)) => format!(
            "{} {} (+ favours {})",
            describe(t, side, names::<G>()),
            G::heuristic_unit(),
            short_name::<G>(Player::Max)
        ),
        _ => describe(t, side, names::<G>()),
    }
}

/// A proven value `v` in words, the value the first player's: "a win for X (+3)", "a draw (0)",
/// "a win for O (-2)".
fn outcome_of<G: Board>(v: gamesearch::Score) -> String {
    match v.signum() {
        1 => format!("a win for {} ({v:+})", short_name::<G>(Player::Max)),
        -1 => format!("a win for {} ({v:+})", short_name::<G>(Player::Min)),
        _ => "a draw (0)".to_string(),
    }
}

/// The move the book gives `p`, with what it proves for `side`: a position it has exactly.
fn book_move<G: Board>(book: Option<&Book>, p: &G) -> Option<(G::Move, String)> {
    let a = book?.lookup(p)?;
    let (v, m) = (a.value()?, a.best_move?);
    Some((m, format!("proven by the book: {}", outcome_of::<G>(v))))
}

/// A proven move for `p`, with what it proves: the book's, else the solver's when it solves `p`
/// within `limits` (the engine's estimate can lose a won game: its value swings with the
/// depth's parity).
fn proven_move<G: Board + Sync>(
    book: Option<&Book>,
    solver: &mut ExactSolver<G>,
    p: &G,
    limits: Option<&Limits>,
) -> Option<(G::Move, String)> {
    if let Some(found) = book_move(book, p) {
        return Some(found);
    }
    let cfg = SolveConfig {
        limits: limits?.clone(),
        threads: 1,
        ..SolveConfig::default()
    };
    let s = solver.solve(p, &cfg, |_| {}).ok()?;
    match (s.complete, s.value, s.best_move) {
        (true, Some(v), Some(m)) => Some((m, format!("proven: {}", outcome_of::<G>(v)))),
        _ => None,
    }
}

/// The solver's share of a move's time budget: half, the engine thinking in the other half when
/// the solver does not finish. `None` for an engine limited by depth alone: the solver has no
/// budget to keep to then, and is not asked.
fn halved(spec: &EngineSpec, base: &Limits) -> Option<Limits> {
    spec.time
        .map(|t| base.clone().with_max_time(Duration::from_secs_f64(t / 2.0)))
}

/// Plays one game in the terminal: reads moves (and `undo`, `hint`, `quit`) from `input`, writes
/// the board and the engine's moves to `out`. An illegal move is answered with one line and the
/// prompt again. A position the opening `book` has exactly is answered from it, without a
/// search. Returns the final position.
pub fn play_game<G: Board + Sync>(
    start: &G,
    human: Human,
    spec: &EngineSpec,
    book: Option<&Book>,
    base: &Limits,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<G> {
    let mut engine = Thinker::<G>::new(spec)?;
    let mut solver: ExactSolver<G> = ExactSolver::new(&SolveConfig {
        tt_bytes: spec.tt_mb << 20,
        threads: 1,
        ..SolveConfig::default()
    })?;
    let mut history = vec![start.clone()];
    if book.is_some() {
        writeln!(
            out,
            "opening book: the engine plays the book's move where it has the position (--no-book: it thinks instead)"
        )?;
    }
    loop {
        let p = history.last().expect("the start").clone();
        writeln!(out, "\n{}", p.board())?;
        if p.moves().next().is_none() {
            let v = p.evaluate();
            let why = p.score_text(v).map_or(String::new(), |t| format!(" ({t})"));
            let result = match v.signum() {
                1 => format!("{} wins{why}", G::side_name(Player::Max)),
                -1 => format!("{} wins{why}", G::side_name(Player::Min)),
                _ => "draw".to_string(),
            };
            writeln!(out, "game over: {result}")?;
            return Ok(p);
        }
        let side = p.to_move();
        if !human.plays(side) {
            if let Some((mv, why)) = proven_move(book, &mut solver, &p, halved(spec, base).as_ref())
            {
                writeln!(
                    out,
                    "engine ({}) plays {}   {why}",
                    side_words::<G>(side),
                    p.move_name(mv)
                )?;
                history.push(p.play(mv));
                continue;
            }
            let limits = halved(spec, base).unwrap_or_else(|| spec.limits(base));
            let (mv, estimate, secs) = spec.evaluating(|| engine.estimate(&p, &limits))?;
            writeln!(
                out,
                "engine ({}) plays {}   estimate: {}, {secs:.2} s",
                side_words::<G>(side),
                p.move_name(mv),
                estimate.words(),
            )?;
            history.push(p.play(mv));
            if base.stop_requested() {
                return Ok(history.last().expect("a position").clone());
            }
            continue;
        }
        write!(
            out,
            "{} to move [{} | undo | hint | quit]: ",
            G::side_name(side),
            p.move_help()
        )?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out, "\ninput ended")?;
            return Ok(p);
        }
        match line.trim() {
            "" => {}
            "quit" | "q" => return Ok(p),
            "undo" => {
                // Back to the person's previous turn: their move and the engine's reply.
                let before = history.len();
                while history.len() > 1 {
                    history.pop();
                    let q = history.last().expect("the start");
                    if human.plays(q.to_move()) {
                        break;
                    }
                }
                if history.len() == before {
                    writeln!(out, "nothing to undo")?;
                }
            }
            "hint" => {
                if let Some((mv, why)) =
                    proven_move(book, &mut solver, &p, halved(spec, base).as_ref())
                {
                    writeln!(out, "hint: {}   ({why})", p.move_name(mv))?;
                    continue;
                }
                let limits = halved(spec, base).unwrap_or_else(|| spec.limits(base));
                let (m, estimate, _) = spec.evaluating(|| engine.estimate(&p, &limits))?;
                writeln!(
                    out,
                    "hint: {}   (estimate: {})",
                    p.move_name(m),
                    estimate.words(),
                )?;
            }
            s => match p.parse_move(s) {
                Some(m) => history.push(p.play(m)),
                None => writeln!(out, "illegal move `{s}`: legal moves are {}", p.move_help())?,
            },
        }
    }
}

/// The searcher behind the terminal game: the alpha-beta engine, or MCTS.
enum Thinker<G: Board> {
    AlphaBeta(Box<Engine<G>>),
    Mcts(MctsPlayer<G>),
}

/// MCTS as a player: its playouts to the end, or cut off and valued by the game's heuristic.
enum MctsPlayer<G: Board> {
    ToTheEnd(Box<Mcts<G>>),
    CutOff(Box<Mcts<AtHorizon<G>>>),
}

impl<G: Board> MctsPlayer<G> {
    /// The player `spec` describes (an MCTS driver, a time a move), its playouts from `seed`.
    fn new(spec: &EngineSpec, seed: u64) -> anyhow::Result<Self> {
        let Some(p) = spec.mcts else {
            anyhow::bail!("not an MCTS driver");
        };
        if spec.time.is_none() {
            anyhow::bail!("the MCTS drivers need a time a move (time=SECS)");
        }
        let cfg = MctsConfig {
            seed,
            ..p.config(u32::MAX)
        };
        Ok(if p.playout_plies == u32::MAX {
            MctsPlayer::ToTheEnd(Box::new(Mcts::new(&cfg)))
        } else {
            MctsPlayer::CutOff(Box::new(Mcts::new(&cfg)))
        })
    }

    fn clear(&mut self) {
        match self {
            MctsPlayer::ToTheEnd(m) => m.clear(),
            MctsPlayer::CutOff(m) => m.clear(),
        }
    }

    fn search(&mut self, p: &G, limits: &Limits) -> anyhow::Result<MctsResult<G::Move>> {
        Ok(match self {
            MctsPlayer::ToTheEnd(m) => m.search(p, limits)?,
            MctsPlayer::CutOff(m) => m.search(&AtHorizon::new(p.clone()), limits)?,
        })
    }
}

/// What a search says of the game, in words (values the first player's, sides named).
enum Estimate {
    /// The engine's: its depth and its value described.
    AlphaBeta { depth: u32, value: String },
    /// MCTS's: playouts and the proven result, or the mean reward of the side it names.
    Mcts { playouts: u64, result: String },
}

impl Estimate {
    /// The words.
    fn words(&self) -> String {
        match self {
            Estimate::AlphaBeta { depth, value } => format!("depth {depth}, {value}"),
            Estimate::Mcts { playouts, result } => format!("MCTS, {playouts} playouts, {result}"),
        }
    }
}

impl<G: Board> Thinker<G> {
    fn new(spec: &EngineSpec) -> anyhow::Result<Self> {
        Ok(match spec.mcts {
            Some(p) => Thinker::Mcts(MctsPlayer::new(spec, p.seed)?),
            None => Thinker::AlphaBeta(Box::new(spec.build()?)),
        })
    }

    /// The move for `p` within `limits`, what the search makes of it, and its seconds.
    fn estimate(&mut self, p: &G, limits: &Limits) -> anyhow::Result<(G::Move, Estimate, f64)> {
        let side = p.to_move();
        match self {
            Thinker::AlphaBeta(e) => {
                let t = e.think(p, limits, |_| {});
                let mv = t.best_move.expect("a move: the game is not over");
                let value = describe_at(p, &t, side);
                Ok((
                    mv,
                    Estimate::AlphaBeta {
                        depth: t.depth,
                        value,
                    },
                    t.elapsed.as_secs_f64(),
                ))
            }
            Thinker::Mcts(m) => {
                let start = std::time::Instant::now();
                let r = m.search(p, limits)?;
                let mv = r
                    .best_move
                    .ok_or_else(|| anyhow::anyhow!("MCTS found no move in a live game"))?;
                let result = match r.proven {
                    Some(v) => format!("proven: {}", outcome_of::<G>(v)),
                    None => {
                        let mean = if side == Player::Max {
                            r.mean
                        } else {
                            1.0 - r.mean
                        };
                        format!("a mean reward of {mean:.2} for {}", short_name::<G>(side))
                    }
                };
                Ok((
                    mv,
                    Estimate::Mcts {
                        playouts: r.playouts,
                        result,
                    },
                    start.elapsed().as_secs_f64(),
                ))
            }
        }
    }
}

/// One side's tally in a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Tally {
    /// Games won by engine A.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by engine A.
    pub losses: u32,
    /// The openings' pairs of games by A's score in them.
    pub pairs: Pentanomial,
}

impl Tally {
    /// A's score per game (win 1, draw ½) and its 95 % confidence interval (normal
    /// approximation over the games' scores).
    ///
    /// ```
    /// use gamesearch_cli::play::Tally;
    /// let t = Tally { wins: 30, draws: 0, losses: 10, ..Tally::default() };
    /// let (s, lo, hi) = t.score();
    /// assert!((s - 0.75).abs() < 1e-9 && lo < s && s < hi && hi <= 1.0);
    /// ```
    pub fn score(&self) -> (f64, f64, f64) {
        let n = f64::from(self.wins + self.draws + self.losses);
        if n == 0.0 {
            return (0.5, 0.0, 1.0);
        }
        let mean = (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n;
        let var = (f64::from(self.wins) * (1.0 - mean).powi(2)
            + f64::from(self.draws) * (0.5 - mean).powi(2)
            + f64::from(self.losses) * mean.powi(2))
            / n;
        let half = 1.96 * (var / n).sqrt();
        (mean, (mean - half).max(0.0), (mean + half).min(1.0))
    }
}

/// Engine A against engine B: `openings` positions reached by `opening_plies` seeded random
/// moves from the start, each played twice with the colours swapped.
#[derive(Clone, Debug)]
pub struct Match {
    /// Contender A (the tally is A's).
    pub a: Contender,
    /// Contender B.
    pub b: Contender,
    /// Openings (each gives two games).
    pub openings: usize,
    /// Random plies that make an opening.
    pub opening_plies: u32,
    /// Seed of the openings.
    pub seed: u64,
    /// Stop as soon as this test decides (after a pair of games).
    pub sprt: Option<Sprt>,
}

/// Random openings tried before a match gives up on finding one that leaves a game to play.
pub const OPENING_TRIES: usize = 10_000;

/// The two sides of a match, started: [`Seats::start`] before the match, so that a GTP engine
/// that cannot be started is an error before anything is printed.
pub struct Seats<G: Board>([Seat<G>; 2]);

impl<G: Board> Seats<G> {
    /// Builds A's and B's engines, or starts their GTP engines.
    pub fn start(m: &Match, start: &G) -> anyhow::Result<Seats<G>> {
        Ok(Seats([
            Seat::start(&m.a, start, m.seed, 0)?,
            Seat::start(&m.b, start, m.seed, 1)?,
        ]))
    }

    /// For each side that is a GTP engine, the time it took.
    pub fn gtp_times(&self) -> [Option<GtpTime>; 2] {
        self.0.each_ref().map(|s| {
            s.gtp_thinking().map(|(seconds_a_move, moves)| GtpTime {
                moves,
                seconds_a_move,
            })
        })
    }
}

/// One side of a match, running.
enum Seat<G: Board> {
    Engine(Box<Engine<G>>, EngineSpec),
    Mcts(MctsPlayer<G>, EngineSpec),
    Gtp(GtpEngine),
}

impl<G: Board> Seat<G> {
    /// Side `side` (0: A, 1: B) of a match whose seed is `seed`.
    fn start(c: &Contender, start: &G, seed: u64, side: u64) -> anyhow::Result<Seat<G>> {
        Ok(match c {
            Contender::Engine(spec) if spec.mcts.is_some() => {
                // Each side its own playouts, both reproducible from the match's seed.
                let seed = seed.wrapping_mul(2).wrapping_add(side);
                Seat::Mcts(MctsPlayer::new(spec, seed)?, *spec)
            }
            Contender::Engine(spec) => Seat::Engine(Box::new(spec.build()?), *spec),
            Contender::Gtp(command) => {
                if start.gtp_board_size().is_none() {
                    anyhow::bail!(
                        "a GTP engine plays from the game's starting position, and this game \
                         has no GTP form or does not start here (Othello: `othello` or \
                         `othello:NxN`)"
                    );
                }
                Seat::Gtp(GtpEngine::start(command)?)
            }
        })
    }

    /// A new game from `start`, the opening's moves told to a GTP engine.
    fn new_game(&mut self, start: &G, opening: &[G::Move]) -> anyhow::Result<()> {
        match self {
            Seat::Engine(e, _) => e.new_game(),
            Seat::Mcts(m, _) => m.clear(),
            Seat::Gtp(g) => {
                g.new_game(start.gtp_board_size().unwrap_or_default())?;
                let mut p = start.clone();
                for &m in opening {
                    g.play(p.to_move(), &p.move_name(m))?;
                    p = p.play(m);
                }
            }
        }
        Ok(())
    }

    /// This side's move in `p`.
    fn choose(&mut self, p: &G, base: &Limits) -> anyhow::Result<G::Move> {
        match self {
            Seat::Engine(e, spec) => {
                let t = spec.evaluating(|| e.think(p, &spec.limits(base), |_| {}));
                t.best_move
                    .ok_or_else(|| anyhow::anyhow!("the engine found no move in a live game"))
            }
            Seat::Mcts(m, spec) => {
                let r = spec.evaluating(|| m.search(p, &spec.limits(base)))?;
                r.best_move
                    .ok_or_else(|| anyhow::anyhow!("MCTS found no move in a live game"))
            }
            Seat::Gtp(g) => {
                let name = g.genmove(p.to_move())?;
                p.parse_move(&name).ok_or_else(|| {
                    anyhow::anyhow!(
                        "the GTP engine played `{name}` where the legal moves are {}",
                        p.move_help()
                    )
                })
            }
        }
    }

    /// Tells a GTP engine the opponent's move.
    fn opponent_played(&mut self, p: &G, m: G::Move) -> anyhow::Result<()> {
        if let Seat::Gtp(g) = self {
            g.play(p.to_move(), &p.move_name(m))?;
        }
        Ok(())
    }

    /// Seconds a move a GTP engine took, and its moves.
    fn gtp_thinking(&self) -> Option<(f64, u64)> {
        match self {
            Seat::Gtp(g) => Some((
                g.thinking.as_secs_f64() / g.generated.max(1) as f64,
                g.generated,
            )),
            Seat::Engine(..) | Seat::Mcts(..) => None,
        }
    }
}

/// What a GTP engine in a match took: its moves and seconds a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct GtpTime {
    /// Moves it generated.
    pub moves: u64,
    /// Mean seconds a move (its answer's wall-clock time, as seen from here).
    pub seconds_a_move: f64,
}

/// An opening: the position and the moves from the start that reach it.
pub type Opening<G> = (G, Vec<<G as gamesearch::Game>::Move>);

/// The openings of a file (`--openings`): one a line, its moves from `start` in the game's
/// notation, separated by spaces or commas; empty lines and `#` comments skipped. Every move
/// must be legal, and no opening may end the game; the error names the line.
///
/// ```
/// use gamesearch_cli::play::read_openings;
/// use gamesearch_games::Connect4;
/// let start = Connect4::new(7, 6).unwrap();
/// let o = read_openings(&start, "# two\n4 4\n3,5\n").unwrap();
/// assert_eq!((o.len(), o[1].1.len()), (2, 2));
/// assert!(read_openings(&start, "4 9").unwrap_err().contains("line 1: `9`"));
/// assert!(read_openings(&start, "\n# none\n").is_err());
/// ```
pub fn read_openings<G: Board>(start: &G, text: &str) -> Result<Vec<Opening<G>>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let mut p = start.clone();
        let mut moves = Vec::new();
        for word in line.split([' ', '\t', ',']).filter(|w| !w.is_empty()) {
            let Some(m) = p.parse_move(word) else {
                let word: String = word.chars().take(20).collect();
                return Err(format!(
                    "line {}: `{word}` is not a legal move there (legal: {})",
                    i + 1,
                    p.move_help()
                ));
            };
            moves.push(m);
            p = p.play(m);
        }
        if p.moves().next().is_none() {
            return Err(format!("line {}: the opening ends the game", i + 1));
        }
        out.push((p, moves));
    }
    if out.is_empty() {
        return Err("no openings: every line is empty or a comment".into());
    }
    Ok(out)
}

/// Plays the match from `start` between the sides started by [`Seats::start`]: over
/// `m.openings` seeded random openings, or the first `m.openings` of `given`. `on_game` sees the
/// running tally after each game. The stop flag of `base` ends it with the games finished.
/// Returns A's tally.
pub fn play_match<G: Board>(
    start: &G,
    m: &Match,
    given: Option<&[Opening<G>]>,
    seats: &mut Seats<G>,
    base: &Limits,
    mut on_game: impl FnMut(&Tally),
) -> anyhow::Result<Tally> {
    let (openings, opening_plies, seed) = (m.openings, m.opening_plies, m.seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let seats = &mut seats.0;
    for k in 0..openings {
        // A random opening that does not end the game: a bounded number of tries (one that
        // cannot exist must not spin forever), the stop flag honoured between them.
        let mut opening = given.and_then(|g| g.get(k).cloned());
        for _ in 0..OPENING_TRIES {
            if opening.is_some() {
                break;
            }
            if base.stop_requested() {
                return Ok(tally);
            }
            opening = crate::experiments::random_line(start, opening_plies, &mut rng);
        }
        let Some((opening, line)) = opening else {
            anyhow::bail!(
                "no opening of {opening_plies} random plies that leaves the game unfinished \
                 was found in {OPENING_TRIES} tries: lower --opening-plies"
            );
        };
        let mut halves = 0;
        for a_is_first in [true, false] {
            for s in seats.iter_mut() {
                s.new_game(start, &line)?;
            }
            let mut p = opening.clone();
            while p.moves().next().is_some() {
                if base.stop_requested() {
                    return Ok(tally);
                }
                // Seat 0 (A) plays MAX when it is first.
                let i = usize::from((p.to_move() == Player::Max) != a_is_first);
                let mv = seats[i].choose(&p, base)?;
                seats[1 - i].opponent_played(&p, mv)?;
                p = p.play(mv);
            }
            let v = p.evaluate().signum() * if a_is_first { 1 } else { -1 };
            match v {
                1 => tally.wins += 1,
                -1 => tally.losses += 1,
                _ => tally.draws += 1,
            }
            halves += (v + 1) as usize;
            if !a_is_first {
                tally.pairs.add(halves);
            }
            on_game(&tally);
        }
        if let Some(test) = &m.sprt {
            if test.verdict(&tally.pairs).0 != Verdict::Continue {
                break;
            }
        }
    }
    Ok(tally)
}

/// What the engine's values count for the game `spec` names (its heuristic's unit), for a board
/// game; `None` for the abstract trees, whose values are their own.
pub fn heuristic_unit(spec: &gamesearch_games::GameSpec) -> Option<&'static str> {
    use gamesearch_games::GameSpec as S;
    Some(match spec {
        S::Connect4(_) => <Connect4 as Board>::heuristic_unit(),
        S::Connect4Wide(_) => <Connect4<u128> as Board>::heuristic_unit(),
        S::Kalah(_) => <Kalah as Board>::heuristic_unit(),
        S::TicTacToe(_) => <TicTacToe as Board>::heuristic_unit(),
        S::Othello(_) => <Othello as Board>::heuristic_unit(),
        S::Domineering(_) => <Domineering as Board>::heuristic_unit(),
        S::Hex(_) => <Hex as Board>::heuristic_unit(),
        S::Dobutsu(_) => <Dobutsu as Board>::heuristic_unit(),
        S::Random(_) | S::Tree(_) => return None,
    })
}
