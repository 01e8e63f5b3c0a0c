//! The Go Text Protocol (GTP version 2), which Othello's Edax (`-gtp`), Hex's Benzene/MoHex and
//! the GUIs that drive them speak, both ways:
//! - [`GtpEngine`]: an outside engine as a match contender. It runs as a child process
//!   (`sh -c COMMAND`), is told the board size and every move played, and is asked `genmove`
//!   for its own.
//! - [`serve`]: the library's engine as a GTP engine (`gamesearch gtp GAME`), on standard input
//!   and output.
//!
//! Colours: `black` (`b`) is the first player (MAX), `white` (`w`) the second. Moves are the
//! game's own names (Othello: `f5`, `pass`).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use gamesearch::{Limits, Player};

use crate::play::{Board, EngineSpec};

/// Lines of the engine's standard error kept for an error message.
const STDERR_LINES: usize = 5;

/// The engine's standard input. On Unix one end of a socket pair, written with `MSG_NOSIGNAL`:
/// an engine that has exited makes a write fail with `EPIPE` instead of raising SIGPIPE, whose
/// default action (the one `gamesearch` keeps, so that a closed standard output ends it quietly)
/// would end this program without a word.
#[cfg(unix)]
struct ToEngine(std::os::unix::net::UnixStream);

#[cfg(unix)]
impl ToEngine {
    /// The writing end, and the end the engine reads as its standard input.
    fn pair() -> std::io::Result<(ToEngine, Stdio)> {
        let (ours, theirs) = std::os::unix::net::UnixStream::pair()?;
        Ok((
            ToEngine(ours),
            Stdio::from(std::os::fd::OwnedFd::from(theirs)),
        ))
    }
}

#[cfg(unix)]
impl Write for ToEngine {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        use std::os::fd::AsRawFd;
        // SAFETY: `buf` is valid for `buf.len()` bytes; the descriptor is the socket's, open
        // while `self` lives.
        let n = unsafe {
            libc::send(
                self.0.as_raw_fd(),
                buf.as_ptr().cast(),
                buf.len(),
                libc::MSG_NOSIGNAL,
            )
        };
        if n < 0 {
            Err(std::io::Error::last_os_error())
        } else {
            Ok(n as usize)
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Elsewhere, the child's standard input as a pipe (no SIGPIPE to avoid).
#[cfg(not(unix))]
struct ToEngine(Option<std::process::ChildStdin>);

#[cfg(not(unix))]
impl ToEngine {
    fn pair() -> std::io::Result<(ToEngine, Stdio)> {
        Ok((ToEngine(None), Stdio::piped()))
    }
}

#[cfg(not(unix))]
impl Write for ToEngine {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.0 {
            Some(p) => p.write(buf),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.0 {
            Some(p) => p.flush(),
            None => Ok(()),
        }
    }
}

/// A running GTP engine.
pub struct GtpEngine {
    command: String,
    child: Child,
    stdin: ToEngine,
    stdout: BufReader<ChildStdout>,
    stderr: Arc<Mutex<Vec<String>>>,
    /// Time spent in `genmove`, and how many were asked.
    pub thinking: Duration,
    /// `genmove`s asked.
    pub generated: u64,
}

/// GTP's name of a player.
fn colour(p: Player) -> &'static str {
    match p {
        Player::Max => "black",
        Player::Min => "white",
    }
}

impl GtpEngine {
    /// Starts `command` (through `sh -c`) and checks that it answers `protocol_version`.
    pub fn start(command: &str) -> Result<GtpEngine> {
        let (stdin, theirs) = ToEngine::pair()
            .map_err(|e| anyhow!("GTP engine `{command}`: no channel to it: {e}"))?;
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(theirs)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| anyhow!("GTP engine `{command}`: cannot start `sh`: {e}"))?;
        #[cfg(not(unix))]
        let stdin = ToEngine(child.stdin.take().or(stdin.0));
        let (Some(stdout), Some(mut err)) = (child.stdout.take(), child.stderr.take()) else {
            bail!("GTP engine `{command}`: no pipes to the process");
        };
        // The last lines of its standard error, for the message if it fails.
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            if let Ok(mut k) = kept.lock() {
                k.extend(text.lines().map(str::to_owned));
            }
        });
        let mut e = GtpEngine {
            command: command.to_owned(),
            child,
            stdin,
            stdout: BufReader::new(stdout),
            stderr,
            thinking: Duration::ZERO,
            generated: 0,
        };
        e.ask("protocol_version")?;
        Ok(e)
    }

    /// Sends `cmd` and reads the answer (`= …` or `? …` up to an empty line): the text of a
    /// success, an error naming the command for a failure or a process that ended.
    pub fn ask(&mut self, cmd: &str) -> Result<String> {
        let sent = writeln!(self.stdin, "{cmd}").and_then(|()| self.stdin.flush());
        if sent.is_err() {
            return Err(self.ended(cmd));
        }
        let mut answer: Option<String> = None;
        loop {
            let mut line = String::new();
            match self.stdout.read_line(&mut line) {
                Ok(0) | Err(_) => return Err(self.ended(cmd)),
                Ok(_) => {}
            }
            let line = line.trim_end();
            match &mut answer {
                None if line.is_empty() => continue,
                None => answer = Some(line.to_owned()),
                Some(_) if line.is_empty() => break,
                Some(a) => {
                    a.push('\n');
                    a.push_str(line);
                }
            }
        }
        let answer = answer.unwrap_or_default();
        if let Some(ok) = answer.strip_prefix('=') {
            // An optional id follows the `=`; commands here are sent without one.
            Ok(ok.trim().to_owned())
        } else if let Some(failed) = answer.strip_prefix('?') {
            bail!(
                "GTP engine `{}` refused `{cmd}`: {}",
                self.command,
                failed.trim()
            )
        } else {
            bail!(
                "GTP engine `{}` answered `{cmd}` with `{answer}`, not `= …` or `? …`",
                self.command
            )
        }
    }

    /// The error for an engine that stopped answering, with the end of its standard error.
    fn ended(&mut self, cmd: &str) -> anyhow::Error {
        // Give the reader thread a moment to collect what the process printed as it died.
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(50));
        let said = self
            .stderr
            .lock()
            .map(|l| {
                let from = l.len().saturating_sub(STDERR_LINES);
                l[from..].join(" / ")
            })
            .unwrap_or_default();
        let said = if said.is_empty() {
            String::new()
        } else {
            format!(" (it printed: {said})")
        };
        anyhow!(
            "GTP engine `{}` stopped answering at `{cmd}`{said}",
            self.command
        )
    }

    /// A new game: `boardsize` and `clear_board`.
    pub fn new_game(&mut self, size: u32) -> Result<()> {
        self.ask(&format!("boardsize {size}"))?;
        self.ask("clear_board")?;
        Ok(())
    }

    /// Tells the engine that `side` played `mv` (the game's name of the move).
    pub fn play(&mut self, side: Player, mv: &str) -> Result<()> {
        self.ask(&format!("play {} {mv}", colour(side)))?;
        Ok(())
    }

    /// Asks the engine for `side`'s move; its name as the engine wrote it, lower case.
    pub fn genmove(&mut self, side: Player) -> Result<String> {
        let start = Instant::now();
        let mv = self.ask(&format!("genmove {}", colour(side)))?;
        self.thinking += start.elapsed();
        self.generated += 1;
        Ok(mv.to_lowercase())
    }
}

impl Drop for GtpEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        // An engine that does not quit at once is ended.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The commands [`serve`] answers.
const COMMANDS: [&str; 12] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "undo",
    "showboard",
];

/// A GTP colour: `black`/`b` is MAX, `white`/`w` MIN.
fn parse_colour(s: &str) -> Option<Player> {
    match s.to_ascii_lowercase().as_str() {
        "black" | "b" => Some(Player::Max),
        "white" | "w" => Some(Player::Min),
        _ => None,
    }
}

/// The library's engine as a GTP engine over `input` and `output`, from `start` (`clear_board`
/// returns there; `boardsize` accepts only its size): until `quit` or the end of the input.
/// Where the other side is to move and its only move is a pass, a `play` or `genmove` for this
/// colour passes for it first (clients that leave passes out, as Edax's own do).
///
/// ```
/// use gamesearch_cli::{gtp, play::EngineSpec};
/// use gamesearch_games::Othello;
/// let engine: EngineSpec = "depth=2".parse().unwrap();
/// let mut out = Vec::new();
/// let input = "boardsize 8\nplay black f5\n7 genmove white\nboardsize 6\nquit\n";
/// gtp::serve(&Othello::new(8).unwrap(), &engine, input.as_bytes(), &mut out).unwrap();
/// let out = String::from_utf8(out).unwrap();
/// let answers: Vec<&str> = out.split("\n\n").collect();
/// assert_eq!(answers[0], "= ");
/// assert!(["=7 d6", "=7 f6", "=7 f4"].contains(&answers[2]), "{out}");
/// assert!(answers[3].starts_with("? unacceptable size"));
/// ```
pub fn serve<G: Board>(
    start: &G,
    engine: &EngineSpec,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<()> {
    let mut searcher = engine.build::<G>()?;
    let mut line: Vec<G> = vec![start.clone()];
    for text in input.lines() {
        let text = text?;
        // Comments and control characters go; an empty line is no command.
        let text: String = text
            .split('#')
            .next()
            .unwrap_or_default()
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let mut words = text.split_whitespace().peekable();
        let id = match words.peek() {
            Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.next(),
            _ => None,
        };
        let Some(cmd) = words.next() else {
            continue;
        };
        let args: Vec<&str> = words.collect();
        let p = line.last().expect("the line keeps its start").clone();
        let answer: std::result::Result<String, String> = match cmd {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("gamesearch".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS
                .contains(&args.first().copied().unwrap_or_default())
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                write!(output, "={} \n\n", id.unwrap_or_default())?;
                output.flush()?;
                return Ok(());
            }
            "boardsize" => match (
                args.first().map(|a| a.parse::<u32>()),
                start.gtp_board_size(),
            ) {
                (Some(Ok(n)), Some(size)) if n == size => Ok(String::new()),
                (Some(Ok(_)), Some(size)) => {
                    Err(format!("unacceptable size: this game is played on {size}"))
                }
                (Some(Ok(_)), None) => {
                    Err("unacceptable size: this game has no GTP board size".into())
                }
                _ => Err("syntax error: boardsize N".into()),
            },
            "clear_board" => {
                line.truncate(1);
                searcher.new_game();
                Ok(String::new())
            }
            "play" | "genmove" => match args.first().and_then(|c| parse_colour(c)) {
                None => Err(format!("syntax error: {cmd} black|white …")),
                Some(side) => {
                    let p = passed_to(&p, side);
                    if p.moves().next().is_none() {
                        Err("the game is over".into())
                    } else if p.to_move() != side {
                        Err(format!("wrong colour: {} is to move", colour(p.to_move())))
                    } else if cmd == "play" {
                        match args.get(1).and_then(|m| p.parse_move(&m.to_lowercase())) {
                            Some(m) => {
                                line.push(p.play(m));
                                Ok(String::new())
                            }
                            None => Err(format!(
                                "illegal move: {} (legal: {})",
                                args.get(1).copied().unwrap_or("none given"),
                                p.move_help()
                            )),
                        }
                    } else {
                        let t = engine.evaluating(|| {
                            searcher.think(&p, &engine.limits(&Limits::none()), |_| {})
                        });
                        match t.best_move {
                            Some(m) => {
                                line.push(p.play(m));
                                Ok(p.move_name(m))
                            }
                            None => Err("the engine found no move".into()),
                        }
                    }
                }
            },
            "undo" if line.len() > 1 => {
                line.pop();
                Ok(String::new())
            }
            "undo" => Err("cannot undo".into()),
            "showboard" => Ok(format!("\n{}", p.board().trim_end())),
            _ => Err("unknown command".into()),
        };
        let id = id.unwrap_or_default();
        match answer {
            Ok(a) => write!(output, "={id} {a}\n\n")?,
            Err(e) => write!(output, "?{id} {e}\n\n")?,
        }
        output.flush()?;
    }
    Ok(())
}

/// `p`, or the position after the side to move's forced pass when `side` is not to move and a
/// move named `pass` is all it has.
fn passed_to<G: Board>(p: &G, side: Player) -> G {
    if p.to_move() != side {
        let mut moves = p.moves();
        if let (Some(only), None) = (moves.next(), moves.next()) {
            if p.move_name(only) == "pass" {
                return p.play(only);
            }
        }
    }
    p.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A GTP engine written in the shell: answers every command with `=`, and `genmove` with
    /// `pass`.
    const ECHO_ENGINE: &str = r#"while read -r c a; do case "$c" in quit) printf '=\n\n'; exit;; genmove) printf '= PASS\n\n';; bad) printf '? no such command\n\n';; *) printf '= \n\n';; esac; done"#;

    #[test]
    fn talks_to_an_engine_and_reports_its_refusals() {
        let mut e = GtpEngine::start(ECHO_ENGINE).unwrap();
        e.new_game(8).unwrap();
        e.play(Player::Max, "f5").unwrap();
        assert_eq!(e.genmove(Player::Min).unwrap(), "pass");
        assert_eq!(e.generated, 1);
        let refused = e.ask("bad").unwrap_err().to_string();
        assert!(
            refused.contains("refused `bad`: no such command"),
            "{refused}"
        );
    }

    #[test]
    fn an_engine_that_is_not_there_is_a_clear_error() {
        let err = GtpEngine::start("no-such-gtp-engine-here --gtp")
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("stopped answering at `protocol_version`"),
            "{err}"
        );
        assert!(err.contains("not found"), "{err}");
    }
}
