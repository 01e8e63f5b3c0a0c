//! The command line's shared arguments and their parsers: budgets, search options, the engine's
//! options, algorithm names, and numbers validated with messages in words.

use anyhow::Result;
use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
use gamesearch::trees::Values;
use gamesearch::{Algorithm, BStarParams, CnsParams, MctsParams};

/// The engine's settings for `search` without `--algo`.
#[derive(Args, Clone, Copy)]
pub struct EngineOpts {
    /// The engine's root driver: pvs (aspiration window) or mtdf (implies the engine).
    #[arg(long, value_enum)]
    pub driver: Option<DriverArg>,
    /// Half-width of the aspiration window (pvs driver; 0: full window).
    #[arg(long, default_value_t = 16, allow_negative_numbers = true, value_parser = whole::<i32>(0, i32::MAX as u64))]
    pub aspiration: i32,
    /// The engine's table, MiB.
    #[arg(long, default_value_t = 64, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1 << 30))]
    pub tt_mb: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DriverArg {
    /// Principal-variation search with an aspiration window.
    Pvs,
    /// MTD(f) from the previous iteration's value.
    Mtdf,
    /// Monte-Carlo tree search (UCT) until the budget: the same as --algo mcts.
    Mcts,
    /// MCTS-Solver until the budget or a proof: --algo mcts-solver.
    MctsSolver,
    /// PN-MCTS until the budget or a proof: --algo pn-mcts.
    PnMcts,
}

impl DriverArg {
    /// The Monte-Carlo algorithm this driver is, if it is one: the library's algorithm of the
    /// driver's name.
    pub fn mcts(self) -> Option<Algorithm> {
        match self.to_possible_value()?.get_name().parse() {
            Ok(a @ Algorithm::Mcts(_)) => Some(a),
            _ => None,
        }
    }
}

/// An algorithm name as clap parses it: the library's names, one list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlgoArg(pub Algorithm);

pub const ALGO_ARGS: [AlgoArg; Algorithm::NAMED.len()] = {
    let mut out = [AlgoArg(Algorithm::Minimax); Algorithm::NAMED.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = AlgoArg(Algorithm::NAMED[i]);
        i += 1;
    }
    out
};

impl ValueEnum for AlgoArg {
    fn value_variants<'a>() -> &'a [Self] {
        &ALGO_ARGS
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()))
    }
}

/// Node and time budgets: a search that hits one stops cleanly and prints its result so far.
#[derive(Args, Clone, Copy)]
pub struct Budgets {
    /// Stop after this many nodes (the result is then marked incomplete).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>(1, u64::MAX))]
    pub max_nodes: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_seconds)]
    pub max_time: Option<f64>,
}

impl Budgets {
    pub fn none() -> Self {
        Budgets {
            max_nodes: None,
            max_time: None,
        }
    }
    pub fn given(self) -> bool {
        self.max_nodes.is_some() || self.max_time.is_some()
    }
}

#[derive(Args, Clone)]
pub struct SearchOpts {
    /// Horizon (default: the whole tree; real games need one).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, u32::MAX.into()))]
    pub depth: Option<u32>,
    #[command(flatten)]
    pub budget: Budgets,
    /// Turn off NegaScout's depth < 3 refinement (re-search every fail-high).
    #[arg(long)]
    pub no_shallow_refinement: bool,
    /// Conspiracy-number search: accuracy ε (stop when Vmax - Vmin <= ε).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = whole::<i32>(0, i32::MAX as u64))]
    pub accuracy: i32,
    /// Conspiracy-number search: conspiracy threshold NT (default: unlimited).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>(1, u64::MAX))]
    pub threshold: Option<u64>,
    /// MCTS: UCT's exploration constant C (rewards in [0, 1]).
    #[arg(long, default_value_t = std::f64::consts::SQRT_2, allow_negative_numbers = true, value_parser = parse_epsilon)]
    pub exploration: f64,
    /// MCTS: seed of the playouts and of the order children are tried in.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX))]
    pub seed: u64,
    /// B*: a leaf's interval is its value ± this (with --horizon heuristic: the engine's
    /// evaluation). Default: the game's whole value range, which makes a separation a proof.
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<i32>(0, i32::MAX as u64))]
    pub margin: Option<i32>,
    /// PN-MCTS: the weight C_pn of the proof-number rank in selection.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true, value_parser = parse_epsilon)]
    pub pn_constant: f64,
    /// MCTS: stop each playout after this many random plies and take the sign of the value
    /// there (with --horizon heuristic: the engine's evaluation). Default: play to the end.
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, u32::MAX.into()))]
    pub playout_plies: Option<u32>,
    /// MCTS: threads searching.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<usize>(1, 1024))]
    pub threads: usize,
    /// MCTS: how the threads share the work: `root` (a tree each, their root statistics summed)
    /// or `tree` (one tree grown by every thread at once, without a lock, virtual loss).
    /// Default: tree (PN-MCTS: root).
    #[arg(long, value_enum)]
    pub parallel: Option<ParallelArg>,
    /// Print JSON for tools instead of text.
    #[arg(long)]
    pub json: bool,
    /// What values the positions at the horizon: `f`, the rules' value (exact where the game is
    /// over; Connect-Four's and tic-tac-toe's are 0 before the end), or `heuristic`, the engine's
    /// evaluation of the game.
    #[arg(long, value_enum, default_value_t = Horizon::F)]
    pub horizon: Horizon,
}

/// How MCTS's threads share the work ([`gamesearch::mcts::Parallel`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ParallelArg {
    /// A tree a thread, the root's statistics summed at the end.
    Root,
    /// One tree grown by every thread at once: atomics, virtual loss.
    Tree,
}

impl From<ParallelArg> for gamesearch::mcts::Parallel {
    fn from(p: ParallelArg) -> Self {
        match p {
            ParallelArg::Root => gamesearch::mcts::Parallel::Root,
            ParallelArg::Tree => gamesearch::mcts::Parallel::Tree,
        }
    }
}

/// What a textbook search values its horizon by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Horizon {
    /// The rules' `f(p)`.
    F,
    /// The game's heuristic (what the engine uses).
    Heuristic,
}

impl Horizon {
    /// How a report says it.
    pub fn describe(self) -> &'static str {
        match self {
            Horizon::F => "f(p), the rules' value (exact at a game's end; 0 before it on Connect-Four and tic-tac-toe; --horizon heuristic for the engine's evaluation)",
            Horizon::Heuristic => "the game's heuristic (the engine's evaluation)",
        }
    }
}

impl SearchOpts {
    /// The algorithm as the library runs it: CNS with this command line's parameters.
    pub fn algorithm(&self, a: AlgoArg) -> Algorithm {
        match a.0 {
            Algorithm::Cns(_) => Algorithm::Cns(CnsParams {
                accuracy: self.accuracy,
                threshold: self.threshold.map(|t| t as usize),
            }),
            Algorithm::Mcts(p) => Algorithm::Mcts(MctsParams {
                solver: p.solver,
                exploration: self.exploration,
                seed: self.seed,
                pn_constant: p.pn_constant.map(|_| self.pn_constant),
                playout_plies: self.playout_plies.unwrap_or(u32::MAX),
                threads: self.threads,
                parallel: self.parallel.map_or(p.parallel, Into::into),
            }),
            Algorithm::BStar(_) => Algorithm::BStar(BStarParams {
                margin: self.margin,
            }),
            other => other,
        }
    }
}

/// `WIDTHxHEIGHT` (a Connect-Four board's size, e.g. `7x6`): the numbers only; whether the
/// library can hold such a board is its own check.
pub fn board_size(s: &str) -> Result<(usize, usize), String> {
    s.split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)))
        .ok_or_else(|| format!("`{s}` is not WIDTHxHEIGHT (e.g. 7x6)"))
}

/// A whole number in `min..=max`, with a message in words when it is not (clap's own says
/// "-1 is not in 0..=4294967295", or takes `-1` for an unknown flag).
pub fn whole<T: TryFrom<u64> + Clone + Send + Sync + 'static>(
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        let t = s.trim();
        if t.starts_with('-') && t[1..].chars().all(|c| c.is_ascii_digit()) && t.len() > 1 {
            return Err(format!("must be {}", at_least(min)));
        }
        let n: u64 = t
            .parse()
            .map_err(|_| format!("`{s}` is not a whole number (must be {})", at_least(min)))?;
        if n < min {
            return Err(format!("must be {}", at_least(min)));
        }
        if n > max {
            return Err(format!("{n} is too large: at most {max}"));
        }
        T::try_from(n).map_err(|_| format!("{n} is too large"))
    }
}

pub fn at_least(min: u64) -> String {
    match min {
        0 => "≥ 0".to_string(),
        1 => "at least 1".to_string(),
        m => format!("at least {m}"),
    }
}

/// `--max-time`: a positive, finite number of seconds, at most 10^9 (about 31 years).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t.is_nan() => Err("must be a number of seconds".into()),
        Ok(t) if t <= 0.0 => Err("must be more than 0 seconds".into()),
        Ok(t) if t > 1e9 => Err(format!(
            "{s} seconds is longer than the limit of 10^9 seconds (about 31 years)"
        )),
        Ok(t) => Ok(t),
        Err(_) => Err(format!("`{s}` is not a number of seconds (e.g. 0.5, 10)")),
    }
}

/// `--epsilon`, `--exploration`: a finite number >= 0.
pub fn parse_epsilon(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(e) if e.is_finite() && e >= 0.0 => Ok(e),
        Ok(e) if e < 0.0 => Err("must be ≥ 0".into()),
        _ => Err(format!("`{s}` is not a finite number ≥ 0")),
    }
}

/// `--focus`: a share of a node's live children, above 0 and at most 1.
pub fn parse_focus(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(f) if f > 0.0 && f <= 1.0 => Ok(f),
        Ok(_) => Err("must be above 0 and at most 1 (1: every child)".into()),
        _ => Err(format!("`{s}` is not a number (e.g. 0.25, 1)")),
    }
}

/// `512M`, `2G`, `64k` or plain bytes.
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    if t.starts_with('-') {
        return Err("must be a positive size (e.g. 512M, 2G)".into());
    }
    let (num, mult) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let m: usize = match c.to_ascii_uppercase() {
                'K' => 1 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                _ => return Err(format!("`{s}`: the suffix must be K, M or G")),
            };
            (&t[..i], m)
        }
        _ => (t, 1),
    };
    let n: usize = num
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a size (e.g. 512M, 2G)"))?;
    n.checked_mul(mult)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("`{s}`: must be positive and fit in memory"))
}

/// `continuous` or `discrete:M`, as the `--values` flag takes them.
pub fn values_text(v: Values) -> String {
    match v {
        Values::Continuous => "continuous".into(),
        Values::Discrete(m) => format!("discrete:{m}"),
    }
}

/// `continuous` or `discrete:M` (M >= 2).
pub fn parse_values(s: &str) -> Result<Values, String> {
    match s.split_once(':') {
        None if s == "continuous" => Ok(Values::Continuous),
        Some(("discrete", m)) => match m.parse::<u32>() {
            Ok(m) if (2..=gamesearch::trees::random_tree::MAX_LEVELS).contains(&m) => {
                Ok(Values::Discrete(m))
            }
            _ => Err(format!(
                "discrete:{m}: M must be a whole number from 2 to {}",
                gamesearch::trees::random_tree::MAX_LEVELS
            )),
        },
        _ => Err(format!("`{s}`: expected continuous or discrete:M")),
    }
}

/// A `GAME` argument's help: every form of the kinds of game `which` keeps, read from the
/// registry ([`gamesearch_games::spec::GAMES`]), so that no command's list goes stale.
pub fn game_help(which: impl Fn(&gamesearch_games::spec::Kind) -> bool) -> String {
    format!("The game: {}", gamesearch_games::spec::forms(which))
}

/// [`game_help`] with what the abstract trees take.
pub fn game_long_help(which: impl Fn(&gamesearch_games::spec::Kind) -> bool) -> String {
    format!(
        "{}. A random tree takes b=B,h=H,seed=S[,values=continuous|discrete:M][,order=random|perfect|first:P][,turns=alternate|random]; a tree's text looks like \"tree:(A max (B min D=7 E=4) (C min F=2 G=3))\", a tree file like examples/trees/scout-test.tree",
        game_help(which)
    )
}
