//! `gamesearch gtp`: the engine as a GTP engine on standard input and output, for GUIs and
//! match programs (and for `play --match --b gtp:…`).

use anyhow::{bail, Result};
use clap::Args;
use gamesearch_cli::gtp;
use gamesearch_cli::play::{EngineSettings, EngineSpec};
use gamesearch_games::GameSpec;

/// Speak GTP (version 2) on standard input and output: `boardsize`, `clear_board`, `play`,
/// `genmove`, `undo`, `showboard`, … (`list_commands`). Black is the first player.
#[derive(Args)]
pub struct GtpArgs {
    /// othello or othello:NxN (the games with a GTP form).
    pub game: String,
    /// The engine: time=SECS,depth=D,driver=pvs|mtdf,tt=MB,eval=learned|hand (any subset; the
    /// rest: time=1, pvs, tt=64, learned).
    #[arg(long)]
    pub engine: Option<EngineSettings>,
    /// The engine's evaluation: a weights file from `gamesearch learn`, or `none` for the
    /// hand-written one (default: the weights the repository ships).
    #[arg(long)]
    pub weights: Option<String>,
}

/// Runs `gamesearch gtp`.
pub fn run(args: GtpArgs) -> Result<()> {
    let engine = args.engine.unwrap_or_default().over(EngineSpec::default());
    let spec: GameSpec = args.game.parse()?;
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    match &spec {
        GameSpec::Othello(p) if gamesearch_cli::play::Board::gtp_board_size(p).is_some() => {
            super::use_weights(&spec, args.weights.as_deref())?;
            gtp::serve(p, &engine, stdin.lock(), stdout.lock())
        }
        _ => bail!(
            "gtp plays a game with a GTP form from its start: othello or othello:NxN, not `{}`",
            args.game
        ),
    }
}
