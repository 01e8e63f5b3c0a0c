//! `gamesearch serve`: the analysis board in the browser and its JSON API (`gamesearch_cli::serve`).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use gamesearch::solver::{ExactSolver, SolveConfig};
use gamesearch_cli::serve::{bare_errors, router, ServeConfig, Shared};
use gamesearch_games::TicTacToe;

use crate::args::whole;

/// Serve the analysis board (a page with a board for Connect-Four, Kalah and tic-tac-toe, each
/// move's value) and its JSON API on http://HOST:PORT/ (docs/guide/server-api.md).
#[derive(Args)]
pub struct ServeArgs {
    /// The port (0: any free one, printed when the server starts).
    #[arg(long, default_value_t = 8080, allow_negative_numbers = true, value_parser = whole::<u16>(0, u16::MAX.into()))]
    pub port: u16,
    /// The address to listen on: 127.0.0.1 serves this machine only; 0.0.0.0 every network
    /// it is on (anyone who can reach it may search on it).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// The most seconds one request may search (and what a request that names none gets).
    #[arg(long, default_value_t = 3.0, allow_negative_numbers = true)]
    pub max_time: f64,
    /// The most nodes one request may search.
    #[arg(long, default_value_t = 200_000_000, allow_negative_numbers = true, value_parser = whole::<u64>(1, u64::MAX))]
    pub max_nodes: u64,
    /// Requests searching or waiting at once; one more is answered 503.
    #[arg(long, default_value_t = 8, allow_negative_numbers = true, value_parser = whole::<usize>(1, 1024))]
    pub queue: usize,
    /// Requests searching at once (default: the machine's cores); the rest of the queue waits.
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>(1, 1024))]
    pub workers: Option<usize>,
    /// The solver's table in MiB (one per game in use, shared by the workers; each worker's
    /// engine has a quarter of it).
    #[arg(long, default_value_t = 256, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1 << 20))]
    pub tt_mb: u64,
}

/// Runs `gamesearch serve` until Ctrl-C or SIGTERM.
/// How long a signal leaves the requests in hand to finish before the server stops.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

pub fn run(a: ServeArgs) -> Result<()> {
    if !(a.max_time > 0.0 && a.max_time <= 3600.0) {
        bail!(
            "--max-time {}: must be more than 0 and at most 3600 seconds",
            a.max_time
        );
    }
    let tt_bytes = usize::try_from(a.tt_mb << 20).context("--tt-mb: too large")?;
    // A table this size must be possible before anyone asks for one.
    ExactSolver::<TicTacToe>::new(&SolveConfig {
        tt_bytes,
        ..SolveConfig::default()
    })
    .with_context(|| format!("--tt-mb {}", a.tt_mb))?;
    let cfg = ServeConfig {
        max_time: Duration::from_secs_f64(a.max_time),
        max_nodes: a.max_nodes,
        queue: a.queue,
        workers: a
            .workers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
        tt_bytes,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(a.queue)
        .build()
        .context("starting the server's runtime")?;
    runtime.block_on(async move {
        let addr = SocketAddr::new(a.host, a.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let bound = listener.local_addr()?;
        println!("gamesearch serve: http://{bound}/  (Ctrl-C stops it)");
        use std::io::Write as _;
        std::io::stdout().flush()?;
        let shared = Shared::new(cfg);
        let signal = || async {
            while !super::interrupted() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        let stopping = Arc::clone(&shared);
        let server = axum::serve(bare_errors::Listener(listener), router(shared))
            .with_graceful_shutdown(async move {
                signal().await;
                // The searches in hand stop now and answer 503, so that their clients get a
                // JSON error at once rather than a closed connection.
                stopping.stop_all();
            });
        // A graceful shutdown waits for every connection to close, and an idle or slow client
        // (a request line sent and nothing more) holds its own open: the requests in hand get
        // SHUTDOWN_GRACE to finish, then the server stops whoever is still connected.
        tokio::select! {
            r = async move { server.await } => {
                r.context("serving")?;
                eprintln!("gamesearch serve: stopped");
                Ok(())
            }
            () = async {
                signal().await;
                tokio::time::sleep(SHUTDOWN_GRACE).await;
            } => {
                eprintln!("gamesearch serve: stopped (clients still connected were cut off)");
                Ok(())
            }
        }
    })
}
