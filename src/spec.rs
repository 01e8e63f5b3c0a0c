//! The `GAME` argument of the CLI, parsed in the library so that tools can share it.

use crate::error::Error;
use crate::games::{ExplicitTree, Kalah, RandomTreeSpec};

/// A parsed `GAME` argument: `random:b=B,h=H,seed=S[,…]`, `tree:FILE`, `tree:TEXT`,
/// `kalah:M,N` (the start of Kalah(M, N)) or `kalah:POSITION` (see [`Kalah`]'s text form).
///
/// ```
/// use gamesearch::GameSpec;
/// assert!(matches!("random:b=2,h=3,seed=1".parse::<GameSpec>(), Ok(GameSpec::Random(_))));
/// assert!(matches!("tree:(max 1 2)".parse::<GameSpec>(), Ok(GameSpec::Tree(_))));
/// assert!(matches!("kalah:6,4".parse::<GameSpec>(), Ok(GameSpec::Kalah(_))));
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
}

impl std::str::FromStr for GameSpec {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
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
            GameSpec::Kalah(_) => None,
        }
    }
}
