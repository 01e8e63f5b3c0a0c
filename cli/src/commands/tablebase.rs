//! `gamesearch tablebase`: Kalah's endgame databases built class by class (`build`), and a
//! position looked up in them (`probe`); for a game whose positions repeat (Dōbutsu shōgi), its
//! strong solution: every placement of its pieces (or, `--by-keys` and `--by-moves`, every position reachable
//! from the root), with its value and remoteness, in one checksummed file. `gamesearch solve …
//! --tablebase DIR` reads either.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use gamesearch::retrograde::{
    solve_by_index, solve_by_unmoves, solve_strongly, DenseSolution, RetrogradeConfig,
    RetrogradeProgress, RetrogradeStats, Solved, StrongSolution,
};
use gamesearch::tablebase::{class_file, Tablebase, Tables};
use gamesearch::Game;
use gamesearch_cli::progress::Activity;
use gamesearch_games::GameSpec;
use gamesearch_games::{Dobutsu, DobutsuMove, Kalah};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::args::whole;

/// Endgame databases (Kalah) and strong solutions (Dōbutsu shōgi): build them, or look a
/// position up.
#[derive(Subcommand)]
pub enum TablebaseCommand {
    /// Build every class of 0..=SEEDS seeds in the pits, each written to DIR as it finishes; a
    /// class whose file is already there (and checks) is loaded instead, so a stopped build
    /// goes on where it stopped.
    Build(BuildArgs),
    /// A position's exact value from the databases in DIR, and each move's.
    Probe(ProbeArgs),
}

/// `tablebase build`.
#[derive(Args)]
pub struct BuildArgs {
    /// The rules: kalah:M (M pits a side), or any kalah:M,N (its pits count); kalah:M:standard
    /// for the standard capture rule; or dobutsu (every placement of its pieces over the game's
    /// dense index, and the positions reachable from the start counted; or of the pieces of a
    /// dobutsu:… position).
    pub game: String,
    /// Kalah: the largest class, positions with at most this many seeds in the pits.
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, 127))]
    pub seeds: Option<u32>,
    /// Dōbutsu shōgi: threads for the strong solve (default: every core).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>(1, 1024))]
    pub threads: Option<usize>,
    /// Dōbutsu shōgi: the most memory the strong solve may take, e.g. 8G (default: three
    /// quarters of the memory available); it refuses, saying what it needs, before passing it.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::parse_size)]
    pub max_memory: Option<usize>,
    /// Dōbutsu shōgi: solve only the positions reachable from the root, by their keys (10 bytes
    /// a position: 3.0 GiB from the start, 8.5 GiB while it works), instead of every placement
    /// of the root's pieces over the game's dense index (a byte each: 239 MiB).
    #[arg(long, conflicts_with = "by_moves")]
    pub by_keys: bool,
    /// Dōbutsu shōgi: as --by-keys, from the game's moves alone (as any game with a key can be
    /// solved: no un-moves, no index), walking the game twice and keeping its arrows (12.5
    /// GiB from the start, 17 minutes on 2 threads). Writes the same file as --by-keys.
    #[arg(long)]
    pub by_moves: bool,
    /// The directory the class files go to.
    #[arg(long)]
    pub out: PathBuf,
    /// Print one JSON line per class for tools instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `tablebase probe`.
#[derive(Args)]
pub struct ProbeArgs {
    /// A Kalah position (kalah:M,N or kalah:POSITION) or a Dōbutsu shōgi one (dobutsu:…).
    pub game: String,
    /// The directory of the class files.
    #[arg(long)]
    pub tablebase: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// The Kalah rules a `kalah:M` or `kalah:…` argument names.
fn kalah_rules(game: &str) -> Result<Kalah> {
    let Some(rest) = game.strip_prefix("kalah:") else {
        bail!("tablebases are built for Kalah: kalah:M (M pits a side), not `{game}`");
    };
    let (pits, rule) = rest.split_once(':').unwrap_or((rest, "empty-capture"));
    if let Ok(m) = pits.parse::<usize>() {
        return Ok(Kalah::new(m, 1)?.with_rule(rule.parse()?));
    }
    match game.parse::<GameSpec>()? {
        GameSpec::Kalah(k) => Ok(k),
        _ => bail!("tablebases are built for Kalah, not `{game}`"),
    }
}

/// The databases of `rules` in `dir`, every class found from 0 up; an error when there are none.
pub fn load(rules: &Kalah, dir: &Path) -> Result<Tables<Kalah>> {
    let mut tables = Tables::new(rules);
    let loaded = tables.load_dir(dir)?;
    if loaded.is_empty() {
        bail!(
            "no tablebase of {} in {} (expected {}; build one with `gamesearch tablebase build`)",
            rules.tablebase_rules(),
            dir.display(),
            class_file(dir, &rules.tablebase_rules(), 0).display()
        );
    }
    Ok(tables)
}

/// Runs `gamesearch tablebase`.
pub fn run(cmd: TablebaseCommand, show: bool) -> Result<()> {
    match cmd {
        TablebaseCommand::Build(a) => build(a, show),
        TablebaseCommand::Probe(a) => probe(a),
    }
}

/// Bytes the classes `0..=seeds` of `rules` take on disk (one a position), or `None` when a
/// class's size does not fit a `u64`.
fn tables_bytes(rules: &Kalah, seeds: u32) -> Option<u64> {
    (0..=seeds).try_fold(0u64, |sum, c| sum.checked_add(rules.class_size(c)?))
}

/// Bytes free for an unprivileged writer on the file system that holds `dir` (or, while `dir`
/// does not exist yet, the nearest folder above it that does).
#[cfg(unix)]
fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let mut at = dir.to_path_buf();
    while !at.exists() {
        at = at
            .parent()
            .filter(|p| !p.as_os_str().is_empty())?
            .to_path_buf();
    }
    let c = std::ffi::CString::new(at.as_os_str().as_bytes()).ok()?;
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a valid C string and `st` a statvfs to fill.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
}

#[cfg(not(unix))]
fn free_bytes(_: &Path) -> Option<u64> {
    None
}

fn build(a: BuildArgs, show: bool) -> Result<()> {
    if a.game == "dobutsu" || a.game.starts_with("dobutsu:") {
        let GameSpec::Dobutsu(root) = a.game.parse::<GameSpec>()? else {
            unreachable!("a dobutsu text is a Dōbutsu position")
        };
        return build_strong(root, &a, show);
    }
    let rules = kalah_rules(&a.game)?;
    let Some(seeds) = a.seeds else {
        bail!(
            "tablebase build {}: give --seeds N, the largest class to build",
            a.game
        );
    };
    // What the build will write, checked before any work: a size past the disk's free space is
    // one line and exit 2, not hours of work and a full disk.
    let human = |b: u64| gamesearch::error::human_bytes(usize::try_from(b).unwrap_or(usize::MAX));
    let Some(need) = tables_bytes(&rules, seeds) else {
        bail!(
            "{} with up to {} seeds: a class has more positions than fit a 64-bit count",
            rules.tablebase_rules(),
            seeds
        );
    };
    if let Some(free) = free_bytes(&a.out) {
        if need > free {
            bail!(
                "{} up to {} seeds needs {} on disk and {} has {} free: give fewer --seeds",
                rules.tablebase_rules(),
                seeds,
                human(need),
                a.out.display(),
                human(free)
            );
        }
    }
    let mut tables = Tables::new(&rules);
    let start = Instant::now();
    let (mut positions, mut bytes) = (0u64, 0u64);
    for class in 0..=seeds {
        if super::interrupted() {
            bail!("stopped: classes 0..{class} are in {}", a.out.display());
        }
        let t = Instant::now();
        let path = class_file(&a.out, &rules.tablebase_rules(), class);
        let (size, sweeps, built) = if path.exists() {
            tables.load_class(&a.out, class).with_context(|| {
                format!("class {class} is there but cannot be used; remove it to build it again")
            })?;
            (rules.class_size(class).unwrap_or(0), 0, false)
        } else {
            let r = tables.build_class(class)?;
            tables.write_class(&a.out, class)?;
            (r.positions, r.sweeps, true)
        };
        let file_bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        positions += size;
        bytes += file_bytes;
        let secs = t.elapsed().as_secs_f64();
        if a.json {
            println!(
                "{}",
                serde_json::json!({"class": class, "positions": size, "sweeps": sweeps,
                    "built": built, "seconds": secs, "bytes": file_bytes})
            );
        } else if show {
            eprintln!(
                "class {class:>3}: {size:>13} positions  {}  {:>8.2} s  {}",
                if built {
                    format!("{sweeps:>2} sweeps")
                } else {
                    "  loaded".into()
                },
                secs,
                gamesearch::error::human_bytes(file_bytes as usize)
            );
        }
    }
    if !a.json {
        println!(
            "{}: classes 0..={} in {}: {positions} positions, {}, {:.1} s",
            rules.tablebase_rules(),
            seeds,
            a.out.display(),
            gamesearch::error::human_bytes(bytes as usize),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn probe(a: ProbeArgs) -> Result<()> {
    let p = match a.game.parse::<GameSpec>()? {
        GameSpec::Kalah(k) => k,
        GameSpec::Dobutsu(p) => return probe_strong(p, &a),
        _ => bail!(
            "tablebases hold Kalah and Dōbutsu shōgi positions, not `{}`",
            a.game
        ),
    };
    let tables = load(&p, &a.tablebase)?;
    let Some(value) = tables.probe(&p) else {
        bail!(
            "{} has {} seeds in its pits; the tablebase in {} has classes 0..={}",
            a.game,
            p.class(),
            a.tablebase.display(),
            tables.classes().last().copied().unwrap_or(0)
        );
    };
    let moves: Vec<(String, Option<i32>)> = p
        .moves()
        .map(|m| (p.move_name(m), tables.probe(&p.play(m))))
        .collect();
    if a.json {
        let moves: Vec<_> = moves
            .iter()
            .map(|(m, v)| serde_json::json!({"move": m, "value": v}))
            .collect();
        println!(
            "{}",
            serde_json::json!({"game": a.game, "rules": p.rule().describe(), "class": p.class(), "value": value, "moves": moves})
        );
    } else {
        println!(
            "{}: value {value:+} (class {}, South's view)\nrules: {}",
            a.game,
            p.class(),
            p.rule().describe()
        );
        for (m, v) in moves {
            let v = v.map_or("not in the tablebase".to_string(), |v| format!("{v:+}"));
            println!("  move {m}: {v}");
        }
    }
    Ok(())
}

/// The name a strong solution of Dōbutsu shōgi by keys has in its file (the rules it solves).
const DOBUTSU: &str = "dobutsu";

/// The file of Dōbutsu shōgi's strong solution by keys (`--by-keys`) in `dir`.
pub fn keys_file(dir: &Path) -> PathBuf {
    dir.join("dobutsu.gsss")
}

/// The file of the dense table of `p`'s pieces in `dir` (`dobutsu.gssd` for the whole set).
pub fn dense_file(dir: &Path, p: &Dobutsu) -> PathBuf {
    dir.join(format!("{}.gssd", p.table_name()))
}

/// A strong solution of Dōbutsu shōgi: every placement of a set of pieces over the game's
/// dense index (what `tablebase build` writes), or the positions reachable from a root by
/// their keys (`--by-keys`).
pub enum Strong {
    /// Over the dense index.
    Dense(DenseSolution),
    /// By keys.
    Keys(StrongSolution),
}

impl Strong {
    /// The position's value (first player's view) and remoteness.
    pub fn probe(&self, p: &Dobutsu) -> Option<Solved> {
        match self {
            Strong::Dense(s) => s.probe(p),
            Strong::Keys(s) => s.probe(p),
        }
    }

    /// A move that keeps the value: the fastest win, the slowest loss.
    pub fn best_move(&self, p: &Dobutsu) -> Option<DobutsuMove> {
        match self {
            Strong::Dense(s) => s.best_move(p),
            Strong::Keys(s) => s.best_move(p),
        }
    }

    /// The solve's counts.
    pub fn stats(&self) -> RetrogradeStats {
        match self {
            Strong::Dense(s) => s.stats(),
            Strong::Keys(s) => s.stats(),
        }
    }

    /// Whether every position was settled.
    pub fn complete(&self) -> bool {
        match self {
            Strong::Dense(s) => s.complete(),
            Strong::Keys(s) => s.complete(),
        }
    }
}

/// The strong solution in `dir` that holds `p`, checked whole: the dense table of its pieces,
/// or else a solution by keys.
pub fn open_strong(dir: &Path, p: &Dobutsu) -> Result<Strong> {
    let dense = dense_file(dir, p);
    if dense.exists() {
        return Ok(Strong::Dense(DenseSolution::open(&dense, &p.table_name())?));
    }
    let keys = keys_file(dir);
    if keys.exists() {
        return Ok(Strong::Keys(StrongSolution::open(&keys, DOBUTSU)?));
    }
    bail!(
        "no strong solution of Dōbutsu shōgi for {p} in {} (expected {} or {}; build one with `gamesearch tablebase build dobutsu --out {}`)",
        dir.display(),
        dense.display(),
        keys.display(),
        dir.display()
    )
}

/// How a strong solve of Dōbutsu shōgi goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum By {
    /// Every placement of the root's pieces, over the game's dense index.
    Index,
    /// The positions reachable from the root, by their keys and the game's un-moves.
    Keys,
    /// The positions reachable from the root, by their keys, from the moves alone.
    Moves,
}

/// Solves `root` strongly, with a progress line: over the dense index (every placement of its
/// pieces), or by keys (the positions reachable from it); an error when stopped (a strong
/// solution stopped half-way settles nothing worth keeping).
pub fn solve_strong(
    root: &Dobutsu,
    threads: Option<usize>,
    max_memory: Option<usize>,
    by: By,
    show: bool,
) -> Result<Strong> {
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let max_bytes = match max_memory {
        Some(m) => m as u64,
        None => RetrogradeConfig::default().max_bytes,
    };
    let progress = Arc::new(RetrogradeProgress::default());
    let cfg = RetrogradeConfig {
        max_positions: u64::from(u32::MAX - 1),
        max_bytes,
        threads,
        limits: super::limits(crate::args::Budgets::none())?,
        progress: Some(progress.clone()),
    };
    if show {
        let how = match by {
            By::Keys => "by keys and un-moves: about 12 bytes a table slot (a slot per 0.75 position at most) and 10 a position kept".to_string(),
            By::Moves => "by keys from the moves alone: 12 bytes a table slot (a slot per 0.75 position at most), then 8 a slot, 8 a position, 4 a move and the widest ply twice".to_string(),
            By::Index => {
                use gamesearch::retrograde::DenseIndex;
                format!(
                    "over the dense index: {} numbers, a byte and a bit each",
                    root.index_len()
                )
            }
        };
        eprintln!(
            "strong solve of {root} on {threads} threads, {how}; limit {}",
            gamesearch::error::human_bytes(max_bytes as usize)
        );
    }
    let activity = Activity::start(show, "retrograde");
    let done = AtomicBool::new(false);
    let solved = std::thread::scope(|scope| {
        scope.spawn(|| {
            let counter = activity.counter();
            while !done.load(Ordering::Relaxed) {
                counter.store(
                    progress.positions.load(Ordering::Relaxed),
                    Ordering::Relaxed,
                );
                activity.message(format!(
                    "{}: {} settled, ply {}",
                    progress.phase(),
                    progress.settled.load(Ordering::Relaxed),
                    progress.ply.load(Ordering::Relaxed)
                ));
                std::thread::sleep(std::time::Duration::from_millis(250));
            }
        });
        let solved = match by {
            By::Keys => solve_by_unmoves(root, &cfg).map(Strong::Keys),
            By::Moves => solve_strongly(root, &cfg).map(Strong::Keys),
            By::Index => solve_by_index(root, &cfg).map(Strong::Dense),
        };
        done.store(true, Ordering::Relaxed);
        solved
    });
    activity.finish();
    let solved = solved?;
    if !solved.complete() {
        bail!("stopped before every position was settled: nothing written");
    }
    Ok(solved)
}

fn build_strong(root: Dobutsu, a: &BuildArgs, show: bool) -> Result<()> {
    if a.seeds.is_some() {
        bail!("--seeds is Kalah's: Dōbutsu shōgi is solved whole");
    }
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    let by = match (a.by_keys, a.by_moves) {
        (true, _) => By::Keys,
        (_, true) => By::Moves,
        _ => By::Index,
    };
    let s = solve_strong(&root, a.threads, a.max_memory, by, show)?;
    let path = match &s {
        Strong::Keys(k) => {
            let path = keys_file(&a.out);
            k.write(&path, DOBUTSU)?;
            path
        }
        Strong::Dense(d) => {
            let path = dense_file(&a.out, &root);
            d.write(&path, &root.table_name())?;
            path
        }
    };
    let st = s.stats();
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let at_root = s.probe(&root).expect("the root is in its own solution");
    let size = gamesearch::error::human_bytes(bytes as usize);
    match &s {
        Strong::Keys(k) => {
            // Tanaka (2009) counts the positions before a lion is taken: those with both lions.
            let both_lions = Dobutsu::with_both_lions(k);
            if a.json {
                println!(
                    "{}",
                    serde_json::json!({"game": a.game, "by": if a.by_moves { "moves" } else { "keys" }, "positions": st.positions, "with_both_lions": both_lions, "ends": st.ends, "arrows": st.arrows,
                        "wins": st.wins, "draws": st.draws, "losses": st.losses,
                        "value": at_root.value, "remoteness": at_root.remoteness,
                        "seconds": st.seconds, "bytes": bytes, "file": path.display().to_string()})
                );
            } else {
                println!(
                    "{}: {} positions reachable, {} of them ends ({} won, {} drawn, {} lost for the side to move), {} with both lions on the board (Tanaka's count), {} moves; start {}; {size} in {}, {:.1} s",
                    a.game,
                    st.positions,
                    st.ends,
                    st.wins,
                    st.draws,
                    st.losses,
                    both_lions,
                    st.arrows,
                    describe(&at_root),
                    path.display(),
                    st.seconds
                );
            }
        }
        Strong::Dense(d) => {
            let numbers = d.len();
            drop(s);
            // Tanaka (2009) counts the positions reachable before a lion is taken.
            let t = Instant::now();
            let activity = Activity::start(show, "counting");
            activity.message("the positions with both lions reachable from the root".into());
            let threads = a
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .context("cannot start the threads")?;
            let stop = super::stop_flag();
            let both_lions = pool.install(|| root.count_with_both_lions(stop));
            activity.finish();
            let Some(both_lions) = both_lions else {
                bail!(
                    "stopped while counting: the table is written to {}",
                    path.display()
                );
            };
            let seconds = st.seconds + t.elapsed().as_secs_f64();
            if a.json {
                println!(
                    "{}",
                    serde_json::json!({"game": a.game, "by": "index", "numbers": numbers, "placements": st.positions, "with_both_lions": both_lions, "ends": st.ends,
                        "wins": st.wins, "draws": st.draws, "losses": st.losses,
                        "value": at_root.value, "remoteness": at_root.remoteness,
                        "seconds": seconds, "bytes": bytes, "file": path.display().to_string()})
                );
            } else {
                println!(
                    "{}: {} placements of its pieces solved ({} won, {} drawn, {} lost for the side to move), {} positions with both lions reachable (Tanaka's count); start {}; {size} in {}, {:.1} s",
                    a.game,
                    st.positions,
                    st.wins,
                    st.draws,
                    st.losses,
                    both_lions,
                    describe(&at_root),
                    path.display(),
                    seconds
                );
            }
        }
    }
    Ok(())
}

/// `+1 in 7 plies`, `-1 in 78 plies`, `0 (a draw)`.
pub fn describe(s: &Solved) -> String {
    match s.remoteness {
        Some(r) => format!("{:+} in {r} plies", s.value),
        None => "0 (a draw)".into(),
    }
}

fn probe_strong(p: Dobutsu, a: &ProbeArgs) -> Result<()> {
    let s = open_strong(&a.tablebase, &p)?;
    let Some(here) = s.probe(&p) else {
        bail!(
            "{} is not in the strong solution in {} (not reachable from the position it was built from, or not a placement the table numbers)",
            a.game,
            a.tablebase.display()
        );
    };
    let best = s.best_move(&p).map(|m| p.move_name(m));
    let moves: Vec<(String, Option<Solved>)> = p
        .moves()
        .map(|m| (p.move_name(m), s.probe(&p.play(m))))
        .collect();
    if a.json {
        let moves: Vec<_> = moves
            .iter()
            .map(|(m, v)| serde_json::json!({"move": m, "value": v.map(|v| v.value), "remoteness": v.and_then(|v| v.remoteness)}))
            .collect();
        println!(
            "{}",
            serde_json::json!({"game": a.game, "position": p.to_string(), "value": here.value,
                "remoteness": here.remoteness, "best_move": best, "moves": moves})
        );
    } else {
        println!("{}: {} (Sente's view)", a.game, describe(&here));
        if let Some(b) = best {
            println!("best move: {b}");
        }
        for (m, v) in moves {
            let v = v.map_or("not in the solution".to_string(), |v| describe(&v));
            println!("  move {m}: {v}");
        }
    }
    Ok(())
}
