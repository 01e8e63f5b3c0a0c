//! The solvers and engines the server keeps, one pool per game type: a solver owning the table
//! of the rules in use, and the analysts (a solver sharing that table and an engine) the workers
//! take and give back.

use super::*;

/// The solver and engine kept for one game type, with the rules their tables hold.
pub(super) struct Analyst<G: Game> {
    rules: String,
    pub(super) solver: ExactSolver<G>,
    pub(super) engine: Engine<G>,
}

/// A game the server analyses.
pub(super) trait Served: Board + Send + Sync + 'static {
    /// The rules, for keeping one table per rules.
    fn rules(&self) -> String;
    /// The `game` argument of the position after `mv` from this one, written `game`.
    fn game_after(&self, game: &str, mv: Self::Move) -> String;
    /// The position in a form the page draws, where its `game` argument may not be one (a
    /// Dōbutsu move list: drawing it would need the rules in the page). Default: none, the
    /// `game` argument is drawn.
    fn board_form(&self) -> Option<String> {
        None
    }
    /// This game type's analysts.
    fn pool(shared: &Shared) -> &Slot<Self>;
}

/// Connect-Four on boards of 64 bits and on wider ones (u128 bitboards): the same but for the
/// pool.
macro_rules! served_connect4 {
    ($t:ty, $pool:ident) => {
        impl Served for $t {
            fn rules(&self) -> String {
                format!("connect4:{}x{}", self.width(), self.height())
            }
            /// The moves so far, and this one (in the text's notation).
            fn game_after(&self, game: &str, mv: u8) -> String {
                self.notation_after(game, &[mv])
            }
            fn pool(shared: &Shared) -> &Slot<Self> {
                &shared.$pool
            }
        }
    };
}
served_connect4!(Connect4, connect4);
served_connect4!(Connect4<u128>, connect4_wide);
impl Served for Kalah {
    fn rules(&self) -> String {
        self.tablebase_rules()
    }
    fn game_after(&self, _: &str, mv: u8) -> String {
        format!("kalah:{}", self.play(mv))
    }
    fn pool(shared: &Shared) -> &Slot<Self> {
        &shared.kalah
    }
}
impl Served for TicTacToe {
    fn rules(&self) -> String {
        "tictactoe".into()
    }
    fn game_after(&self, _: &str, mv: Self::Move) -> String {
        format!("tictactoe:{}", self.play(mv))
    }
    fn pool(shared: &Shared) -> &Slot<Self> {
        &shared.tictactoe
    }
}

impl Served for Othello {
    fn rules(&self) -> String {
        format!("othello:{0}x{0}", self.size())
    }
    /// A move list grows by the move (`othello:8x8:f5` then `othello:8x8:f5d6`); a position in
    /// the board form gives the child's board form.
    fn game_after(&self, game: &str, mv: u8) -> String {
        if game.contains("board=") {
            return format!("othello:{}", self.play(mv).notation());
        }
        let game = game.trim();
        let list = if game == "othello" {
            "othello:8x8"
        } else {
            game
        };
        let sep = if list.matches(':').count() == 1 {
            ":"
        } else {
            ""
        };
        format!("{list}{sep}{}", self.move_name(mv))
    }
    fn pool(shared: &Shared) -> &Slot<Self> {
        &shared.othello
    }
}

impl Served for Domineering {
    fn rules(&self) -> String {
        gamesearch::split::Splittable::rules(self)
    }
    /// A move list grows by the move (`domineering:8x8:d4d5` then `…:d4d5,c3d3`); a position
    /// in the board form gives the child's board form.
    fn game_after(&self, game: &str, mv: u8) -> String {
        let game = game.trim();
        if game.contains("board=") {
            return format!("domineering:{}", self.play(mv).notation());
        }
        let list = if game == "domineering" {
            "domineering:8x8"
        } else {
            game
        };
        // `domineering:MxN[:v|:h]` has no move yet: the list starts after a colon.
        let last = list.rsplit(':').next().unwrap_or("");
        let started = list.matches(':').count() >= 2 && !matches!(last, "v" | "h" | "V" | "H");
        let sep = if started { "," } else { ":" };
        format!("{list}{sep}{}", self.move_name(mv))
    }
    fn pool(shared: &Shared) -> &Slot<Self> {
        &shared.domineering
    }
}

impl Served for Hex {
    fn rules(&self) -> String {
        gamesearch::split::Splittable::rules(self)
    }
    /// A move list grows by the move (`hex:7x7:d4` then `hex:7x7:d4,c5`); a position in the
    /// board form gives the child's board form.
    fn game_after(&self, game: &str, mv: u8) -> String {
        let game = game.trim();
        if game.contains("board=") {
            return format!("hex:{}", self.play(mv).notation());
        }
        let list = if game == "hex" { "hex:11x11" } else { game };
        // `hex:NxN[:swap]` has no move yet: the list starts after a colon.
        let last = list.rsplit(':').next().unwrap_or("");
        let started = list.matches(':').count() >= 2 && !last.eq_ignore_ascii_case("swap");
        let sep = if started { "," } else { ":" };
        format!("{list}{sep}{}", self.move_name(mv))
    }
    fn pool(shared: &Shared) -> &Slot<Self> {
        &shared.hex
    }
}

impl Served for Dobutsu {
    fn rules(&self) -> String {
        "dobutsu".into()
    }
    /// A move list grows by the move (`dobutsu` then `dobutsu:b3b2`, then `dobutsu:b3b2,b2b1`);
    /// a position in the board form gives the child's board form.
    fn game_after(&self, game: &str, mv: Self::Move) -> String {
        let game = game.trim();
        if game.contains("board=") {
            return format!("dobutsu:board={}", self.play(mv));
        }
        let sep = if game == "dobutsu" { ":" } else { "," };
        format!("{game}{sep}{}", self.move_name(mv))
    }
    fn board_form(&self) -> Option<String> {
        Some(format!("dobutsu:board={self}"))
    }
    fn pool(shared: &Shared) -> &Slot<Self> {
        &shared.dobutsu
    }
}

/// The analysts of one game type: the solver that owns the shared table (for the rules in use)
/// and the analysts not at work, each with a solver over that table and an engine of its own.
pub(super) struct Pool<G: Game> {
    rules: String,
    table: Option<ExactSolver<G>>,
    free: Vec<Analyst<G>>,
}

pub(super) type Slot<G> = Mutex<Pool<G>>;

/// An analyst for `p`'s rules, taken from the pool (or made, over the pool's table; a pool of
/// other rules is emptied first, and its table replaced).
pub(super) fn take<G: Served>(
    slot: &Slot<G>,
    p: &G,
    cfg: &ServeConfig,
) -> Result<Analyst<G>, ApiError> {
    let mut pool = slot.lock().unwrap_or_else(|e| e.into_inner());
    let rules = p.rules();
    if pool.rules != rules || pool.table.is_none() {
        pool.free.clear();
        pool.table = None; // the old table goes before the new one is allocated
        pool.table = Some(ExactSolver::new(&SolveConfig {
            tt_bytes: cfg.tt_bytes,
            ..SolveConfig::default()
        })?);
        pool.rules = rules.clone();
    }
    if let Some(a) = pool.free.pop() {
        return Ok(a);
    }
    Ok(Analyst {
        rules,
        solver: pool.table.as_ref().expect("made above").sharing_table(),
        engine: Engine::new(&EngineConfig {
            tt_bytes: (cfg.tt_bytes / 4).max(1 << 20),
            ..EngineConfig::default()
        })?,
    })
}

/// Puts `a` back in the pool, unless the pool has moved on to other rules.
pub(super) fn give_back<G: Game>(slot: &Slot<G>, a: Analyst<G>) {
    let mut pool = slot.lock().unwrap_or_else(|e| e.into_inner());
    if pool.rules == a.rules {
        pool.free.push(a);
    }
}

/// A pool with nothing in it yet.
pub(super) fn empty<G: Game>() -> Slot<G> {
    Mutex::new(Pool {
        rules: String::new(),
        table: None,
        free: Vec::new(),
    })
}
