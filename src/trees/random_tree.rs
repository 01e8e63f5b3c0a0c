//! Pearl's random (h, d, F) trees (Pearl 1980, section III): uniform depth `h`, branching `b`, leaf
//! values from a distribution F — continuous (ties negligible) or discrete with `M` levels.
//!
//! A node is its path; everything about it is a hash of (seed, path), computed incrementally, so
//! a tree of 10^12 leaves needs no memory and every algorithm sees the same tree.
//!
//! Two value models:
//! - [`TreeOrder::Random`]: Pearl's model — leaf values independent draws from F; interior nodes
//!   (seen at a horizon shallower than `h`) get an independent draw too (an uninformed heuristic).
//! - [`TreeOrder::First`] / [`TreeOrder::Perfect`]: values are generated top-down. The root's
//!   value is drawn from F; at each node the best child is the first with probability `p`
//!   (otherwise one of the others, uniformly) and carries the node's value; every other child
//!   gets a strictly worse value for the side to move (a tie only where the discrete range has no
//!   room). A node's carried value is its minimax value, and serves as its heuristic `f(p)`.
//!   `Perfect` is `First(1.0)`: the Knuth–Moore best case, on which alpha-beta evaluates the
//!   minimal tree `b^ceil(h/2) + b^floor(h/2) - 1` leaves (Hsu, *Scout and NegaScout*, "Number of nodes visited").

use std::fmt;
use std::ops::Range;

use crate::engine::Heuristic;
use crate::error::Error;
use crate::game::{Game, Player, PositionKey, Score, INF};
use crate::solver::SolverKnowledge;

/// Half-width of the continuous distribution: values are uniform integers in `[-2^29, 2^29)`.
const CONTINUOUS_HALF: Score = 1 << 29;
/// The largest step between a node's value and a worse sibling's in the top-down model.
const CONTINUOUS_STEP: u64 = 1 << 20;
/// The deepest tree accepted; deeper ones would leave the value range.
pub const MAX_HEIGHT: u32 = 200;

/// The most levels of `values=discrete:M`: 2^29, the span of the continuous values. (Found by
/// fuzzing: `discrete:3019670348` made values past `i32::MAX` wrap to negatives and beyond the
/// searches' infinity, and alpha-beta and NegaScout disagreed.)
pub const MAX_LEVELS: u32 = 1 << 29;

/// The leaf-value distribution F.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// Uniform integers in `[-2^29, 2^29)`: ties have probability ~1e-9.
    Continuous,
    /// Uniform over `M` levels `0 … M-1`.
    Discrete(u32),
}

/// How the children are ordered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TreeOrder {
    /// Pearl's model: independent leaf values, no ordering.
    Random,
    /// Top-down values; the first child is the best with this probability.
    First(f64),
    /// Top-down values; the first child is always the best.
    Perfect,
}

/// Who moves at each node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turns {
    /// MAX and MIN alternate (the root is MAX).
    Alternate,
    /// Each node's mover is the parent's mover again with probability 1/3 (as a Kalah extra
    /// move), otherwise the opponent. Tests the algorithms' handling of non-alternating turns.
    Random,
}

/// The parameters of a random tree.
///
/// ```
/// use gamesearch::trees::RandomTreeSpec;
/// let spec: RandomTreeSpec = "b=3,h=4,seed=7,values=discrete:5".parse().unwrap();
/// assert_eq!((spec.b, spec.h, spec.seed), (3, 4, 7));
/// assert!("b=0,h=4,seed=1".parse::<RandomTreeSpec>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomTreeSpec {
    /// Branching factor (Pearl's d), at least 1.
    pub b: u32,
    /// Height: leaves are at depth `h`.
    pub h: u32,
    /// The seed; the same seed gives the same tree.
    pub seed: u64,
    /// The distribution F.
    pub values: Values,
    /// The ordering model.
    pub order: TreeOrder,
    /// Who moves where.
    pub turns: Turns,
}

impl RandomTreeSpec {
    /// A continuous, randomly ordered, alternating tree.
    pub fn new(b: u32, h: u32, seed: u64) -> Self {
        RandomTreeSpec {
            b,
            h,
            seed,
            values: Values::Continuous,
            order: TreeOrder::Random,
            turns: Turns::Alternate,
        }
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |m: String| Err(Error::BadParameter(m));
        if self.b == 0 {
            return bad("b must be at least 1 (b=0 is a tree with no moves)".into());
        }
        if self.h > MAX_HEIGHT {
            return bad(format!(
                "h={} is larger than the maximum {MAX_HEIGHT}",
                self.h
            ));
        }
        if let Values::Discrete(m) = self.values {
            if m < 2 {
                return bad(format!("values=discrete:{m} needs at least 2 levels"));
            }
            if m > MAX_LEVELS {
                return bad(format!(
                    "values=discrete:{m}: at most {MAX_LEVELS} levels (the values must stay \
                     well inside the searches' ±{INF})"
                ));
            }
        }
        if let TreeOrder::First(p) = self.order {
            if !(0.0..=1.0).contains(&p) {
                return bad(format!(
                    "order=first:{p}: the probability must be in [0, 1]"
                ));
            }
        }
        Ok(())
    }

    /// The root of the tree described.
    pub fn root(&self) -> Result<RandomTree, Error> {
        self.validate()?;
        let key = mix(self.seed ^ 0x5851_F42D_4C95_7F2D);
        let mut root = RandomTree {
            spec: *self,
            key,
            level: 0,
            to_move: Player::Max,
            value: 0,
        };
        root.value = root.draw(key);
        Ok(root)
    }
}

impl std::str::FromStr for RandomTreeSpec {
    type Err = Error;
    /// Parses `b=B,h=H,seed=S[,values=continuous|discrete:M][,order=random|perfect|first:P][,turns=alternate|random]`.
    /// A key given twice is an error.
    ///
    /// ```
    /// use gamesearch::trees::RandomTreeSpec;
    /// assert!("b=4,h=3,seed=1".parse::<RandomTreeSpec>().is_ok());
    /// assert!("b=4,h=3,seed=1,seed=2".parse::<RandomTreeSpec>().is_err());
    /// assert!("b=2,h=6,seed=9,values=discrete:3019670348".parse::<RandomTreeSpec>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Error> {
        let bad = |m: String| Error::BadParameter(m);
        let (mut b, mut h, mut seed) = (None, None, None);
        let mut spec = RandomTreeSpec::new(0, 0, 0);
        let mut seen: Vec<&str> = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| bad(format!("`{part}` is not key=value")))?;
            if seen.contains(&k) {
                return Err(bad(format!("`{k}` is given twice")));
            }
            seen.push(k);
            let int = |what: &str| -> Result<u64, Error> {
                v.parse::<u64>()
                    .map_err(|_| bad(format!("{what}={v}: expected a non-negative integer")))
            };
            match k {
                "b" => b = Some(int("b")?),
                "h" => h = Some(int("h")?),
                "seed" => seed = Some(int("seed")?),
                "values" => {
                    spec.values = match v.split_once(':') {
                        None if v == "continuous" => Values::Continuous,
                        Some(("discrete", m)) => Values::Discrete(
                            m.parse()
                                .map_err(|_| bad(format!("values={v}: M must be an integer")))?,
                        ),
                        _ => {
                            return Err(bad(format!(
                                "values={v}: expected continuous or discrete:M"
                            )))
                        }
                    }
                }
                "order" => {
                    spec.order = match v.split_once(':') {
                        None if v == "random" => TreeOrder::Random,
                        None if v == "perfect" => TreeOrder::Perfect,
                        Some(("first", p)) => TreeOrder::First(p.parse().map_err(|_| {
                            bad(format!("order={v}: P must be a probability like 0.8"))
                        })?),
                        _ => {
                            return Err(bad(format!(
                                "order={v}: expected random, perfect or first:P"
                            )))
                        }
                    }
                }
                "turns" => {
                    spec.turns = match v {
                        "alternate" => Turns::Alternate,
                        "random" => Turns::Random,
                        _ => return Err(bad(format!("turns={v}: expected alternate or random"))),
                    }
                }
                _ => {
                    return Err(bad(format!(
                        "unknown key `{k}` (known: b, h, seed, values, order, turns)"
                    )))
                }
            }
        }
        let need = |x: Option<u64>, k: &str| x.ok_or_else(|| bad(format!("missing {k}=…")));
        let small = |x: u64, k: &str| {
            u32::try_from(x).map_err(|_| bad(format!("{k}={x} is far too large")))
        };
        spec.b = small(need(b, "b")?, "b")?;
        spec.h = small(need(h, "h")?, "h")?;
        spec.seed = need(seed, "seed")?;
        spec.validate()?;
        Ok(spec)
    }
}

impl fmt::Display for RandomTreeSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "random:b={},h={},seed={}", self.b, self.h, self.seed)?;
        if let Values::Discrete(m) = self.values {
            write!(f, ",values=discrete:{m}")?;
        }
        match self.order {
            TreeOrder::Random => {}
            TreeOrder::Perfect => write!(f, ",order=perfect")?,
            TreeOrder::First(p) => write!(f, ",order=first:{p}")?,
        }
        if self.turns == Turns::Random {
            write!(f, ",turns=random")?;
        }
        Ok(())
    }
}

/// A node of a random tree: its path hash, level, mover and (top-down model) carried value.
///
/// ```
/// use gamesearch::{depth_first::DepthFirst, trees::RandomTreeSpec, Limits};
/// let root = RandomTreeSpec::new(3, 4, 1).root().unwrap();
/// let mm = gamesearch::depth_first::search(&root, DepthFirst::Minimax, 4, &Limits::none());
/// let ab = gamesearch::depth_first::search(&root, DepthFirst::AlphaBeta, 4, &Limits::none());
/// assert_eq!(mm.value, ab.value);
/// assert_eq!(mm.stats.leaves, 81);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct RandomTree {
    spec: RandomTreeSpec,
    key: u64,
    level: u32,
    to_move: Player,
    /// The carried value (top-down model) or the heuristic draw (Pearl's model).
    value: Score,
}

/// SplitMix64's finaliser: a good 64-bit mixer.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform draw in `0..n` from a hash (n > 0).
#[inline]
fn below(key: u64, n: u64) -> u64 {
    ((key as u128 * n as u128) >> 64) as u64
}

impl RandomTree {
    /// The spec this tree was built from.
    pub fn spec(&self) -> &RandomTreeSpec {
        &self.spec
    }

    /// Depth of this node below the root.
    pub fn level(&self) -> u32 {
        self.level
    }

    /// A draw from F.
    #[inline]
    fn draw(&self, key: u64) -> Score {
        match self.spec.values {
            Values::Continuous => below(key, 2 * CONTINUOUS_HALF as u64) as Score - CONTINUOUS_HALF,
            Values::Discrete(m) => below(key, m as u64) as Score,
        }
    }

    /// The value of a non-best child in the top-down model: strictly worse for `self.to_move`.
    #[inline]
    fn worse(&self, key: u64) -> Score {
        let v = self.value;
        let up = self.to_move == Player::Min; // worse for MIN is larger
        match self.spec.values {
            Values::Continuous => {
                let d = 1 + below(key, CONTINUOUS_STEP) as Score;
                if up {
                    v + d
                } else {
                    v - d
                }
            }
            Values::Discrete(m) => {
                let top = m as Score - 1;
                if up && v < top {
                    v + 1 + below(key, (top - v) as u64) as Score
                } else if !up && v > 0 {
                    below(key, v as u64) as Score
                } else {
                    v // no room: a tie
                }
            }
        }
    }

    fn first_best_probability(&self) -> Option<f64> {
        match self.spec.order {
            TreeOrder::Random => None,
            TreeOrder::Perfect => Some(1.0),
            TreeOrder::First(p) => Some(p),
        }
    }
}

impl Game for RandomTree {
    type Move = u32;
    type Moves = Range<u32>;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn moves(&self) -> Range<u32> {
        if self.level < self.spec.h {
            0..self.spec.b
        } else {
            0..0
        }
    }

    #[inline]
    fn play(&self, i: u32) -> Self {
        let key = mix(self.key ^ (u64::from(i) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let to_move = match self.spec.turns {
            Turns::Alternate => self.to_move.opponent(),
            Turns::Random if below(mix(key ^ 0xA5A5), 3) == 0 => self.to_move,
            Turns::Random => self.to_move.opponent(),
        };
        let value = match self.first_best_probability() {
            None => 0, // drawn lazily in evaluate()
            Some(p) => {
                let b = u64::from(self.spec.b);
                let sel = mix(self.key ^ 0xB357);
                let best = if b == 1 || ((sel >> 11) as f64 / (1u64 << 53) as f64) < p {
                    0
                } else {
                    1 + below(mix(sel), b - 1)
                };
                if u64::from(i) == best {
                    self.value
                } else {
                    self.worse(mix(key ^ 0x77))
                }
            }
        };
        RandomTree {
            spec: self.spec,
            key,
            level: self.level + 1,
            to_move,
            value,
        }
    }

    #[inline]
    fn evaluate(&self) -> Score {
        match self.spec.order {
            TreeOrder::Random => self.draw(self.key),
            _ => self.value,
        }
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        Some(match (self.spec.values, self.spec.order) {
            (Values::Discrete(m), _) => (0, m as Score - 1),
            (Values::Continuous, TreeOrder::Random) => (-CONTINUOUS_HALF, CONTINUOUS_HALF - 1),
            (Values::Continuous, _) => {
                let drift = (self.spec.h as Score) * CONTINUOUS_STEP as Score;
                (-CONTINUOUS_HALF - drift, CONTINUOUS_HALF - 1 + drift)
            }
        })
    }

    fn move_name(&self, m: u32) -> String {
        m.to_string()
    }
}
impl PositionKey for RandomTree {
    fn key(&self) -> u64 {
        self.key
    }
}

/// No knowledge beyond the tree: the solver's defaults.
impl SolverKnowledge for RandomTree {}

/// The engine scores the horizon with `f(p)` itself.
impl Heuristic for RandomTree {}
