//! The `GAME` argument of the CLI, parsed in the library so that tools can share it.

use crate::error::Error;
use crate::games::{Connect4, ExplicitTree, Kalah, RandomTreeSpec, TicTacToe};

/// A parsed `GAME` argument: `random:b=B,h=H,seed=S[,…]`, `tree:FILE`, `tree:TEXT`,
/// `kalah:M,N` (the start of Kalah(M, N)) or `kalah:POSITION` (see [`Kalah`]'s text form),
/// `tictactoe[:CELLS]`, or `connect4:WxH[:MOVES]` (MOVES: 1-based columns played).
///
/// ```
/// use gamesearch::GameSpec;
/// assert!(matches!("random:b=2,h=3,seed=1".parse::<GameSpec>(), Ok(GameSpec::Random(_))));
/// assert!(matches!("tree:(max 1 2)".parse::<GameSpec>(), Ok(GameSpec::Tree(_))));
/// assert!(matches!("kalah:6,4".parse::<GameSpec>(), Ok(GameSpec::Kalah(_))));
/// assert!(matches!("connect4:5x4:33".parse::<GameSpec>(), Ok(GameSpec::Connect4(_))));
/// assert!(matches!("tictactoe".parse::<GameSpec>(), Ok(GameSpec::TicTacToe(_))));
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
    /// A Connect-Four position.
    Connect4(Connect4),
}

impl std::str::FromStr for GameSpec {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        if s == "tictactoe" {
            return Ok(GameSpec::TicTacToe(TicTacToe::new()));
        }
        let (kind, rest) = s
            .split_once(':')
            .ok_or_else(|| Error::UnknownGame(s.to_string()))?;
        match kind {
            "random" => Ok(GameSpec::Random(rest.parse()?)),
            "tree" => {
                let t = rest.trim_start();
                if t.starts_with('(') || t.parse::<i64>().is_ok() {
                    Ok(GameSpec::Tree(ExplicitTree::parse(rest)?))
                } else {
                    Ok(GameSpec::Tree(ExplicitTree::from_file(rest)?))
                }
            }
            "kalah" => Ok(GameSpec::Kalah(rest.parse()?)),
            "tictactoe" => Ok(GameSpec::TicTacToe(rest.parse()?)),
            "connect4" => {
                let (size, moves) = rest.split_once(':').unwrap_or((rest, ""));
                let bad = || {
                    Error::BadParameter(format!(
                        "connect4:{rest}: expected WxH[:MOVES], e.g. connect4:7x6:4453"
                    ))
                };
                let (w, h) = size.split_once('x').ok_or_else(bad)?;
                let (w, h) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
                Ok(GameSpec::Connect4(Connect4::new(w, h)?.play_moves(moves)?))
            }
            _ => Err(Error::UnknownGame(s.to_string())),
        }
    }
}

impl GameSpec {
    /// The depth that searches the whole tree: `h` or the explicit tree's height; `None` for
    /// real games, whose trees are too deep to search to the end without a horizon.
    pub fn full_depth(&self) -> Option<u32> {
        match self {
            GameSpec::Random(r) => Some(r.h),
            GameSpec::Tree(t) => Some(t.height()),
            GameSpec::Kalah(_) | GameSpec::Connect4(_) => None,
            GameSpec::TicTacToe(_) => Some(9),
        }
    }
}
