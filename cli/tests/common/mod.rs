#![allow(dead_code)] // each test binary uses some of these
//! What the binary's test files share.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// Runs the `gamesearch` binary: (exit status, stdout, stderr).
pub fn gamesearch(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gamesearch"))
        .args(args)
        .output()
        .expect("run gamesearch");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs gamesearch with `input` on standard input.
pub fn gamesearch_stdin(args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamesearch"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gamesearch");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Whether `program --version` runs and succeeds here.
pub fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A headless-capable Chromium on this machine, if any.
pub fn chromium() -> Option<&'static str> {
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .into_iter()
    .find(|c| runs(c))
}

/// The path of a worked example's tree file (`examples/trees/NAME`).
pub fn example_tree(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/trees")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A scratch folder of its own for test `test` of the test file `file`, made if missing, and
/// removed when the test passes (a failed test leaves it to look at).
pub fn scratch_dir(file: &str, test: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("gamesearch-{file}-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

/// A folder removed when dropped, unless the test is failing.
pub struct Scratch(pub std::path::PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The browser for a test that needs one (tests/browser.rs runs such a test only where
/// [`chromium`] found one).
pub fn browser() -> &'static str {
    chromium().expect("no Chromium that runs here")
}

/// The DOM of `url` after headless Chromium ran its scripts; with `virtual_ms`, after that much
/// virtual time (what a page that fetches and waits needs: the clock runs as fast as the page
/// lets it).
pub fn dump_dom(browser: &str, url: &str, virtual_ms: Option<u32>) -> String {
    let budget = virtual_ms.map(|ms| format!("--virtual-time-budget={ms}"));
    let out = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu"])
        .args(budget)
        .args(["--dump-dom", url])
        .output()
        .expect("run chromium");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A server on a free port, stopped when dropped.
pub struct Server {
    pub child: Child,
    pub addr: String,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamesearch"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start gamesearch serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "gamesearch serve: http://127.0.0.1:PORT/  (Ctrl-C stops it)"
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// GET `path`: (status, body).
    pub fn get(&self, path: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut reply = String::new();
        s.read_to_string(&mut reply).unwrap();
        let status = reply[9..12].parse().unwrap();
        let body = reply.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, body.to_string())
    }

    pub fn json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
    }

    pub fn status(&self) -> Value {
        self.json("/api/status")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The exact value (the first player's view) of a position of a shipped game,
/// by the library's solver: the oracle the server's and the browser's tests check against.
pub fn exact(game: &str) -> i64 {
    use gamesearch::{solver::solve_alphabeta, SolveConfig};
    use gamesearch_games::GameSpec;
    let cfg = SolveConfig {
        tt_bytes: 1 << 20,
        ..SolveConfig::default()
    };
    let value = match game.parse::<GameSpec>().unwrap() {
        GameSpec::Connect4(p) => solve_alphabeta(&p, &cfg, |_| {}).unwrap().value,
        GameSpec::Kalah(p) => solve_alphabeta(&p, &cfg, |_| {}).unwrap().value,
        GameSpec::TicTacToe(p) => solve_alphabeta(&p, &cfg, |_| {}).unwrap().value,
        GameSpec::Othello(p) => solve_alphabeta(&p, &cfg, |_| {}).unwrap().value,
        GameSpec::Domineering(p) => solve_alphabeta(&p, &cfg, |_| {}).unwrap().value,
        GameSpec::Hex(p) => solve_alphabeta(&p, &cfg, |_| {}).unwrap().value,
        _ => unreachable!(),
    };
    value.unwrap().into()
}

/// The repository's top folder.
pub fn repo_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every Markdown page under `dir`, sorted: not the build's, hidden folders, nor a virtual
/// environment made in the checkout (python/README.md makes one), whose pages are other
/// projects'.
pub fn markdown_pages(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut pages = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                let ours = !name.starts_with('.')
                    && !["target", "node_modules"].contains(&name.as_str())
                    && !p.join("pyvenv.cfg").exists();
                if ours {
                    stack.push(p);
                }
            } else if name.ends_with(".md") {
                pages.push(p);
            }
        }
    }
    pages.sort();
    pages
}
