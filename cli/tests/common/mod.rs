#![allow(dead_code)] // each test binary uses some of these
//! What the binary's test files share.

use std::process::Command;

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

/// A headless-capable Chromium on this machine, if any.
pub fn chromium() -> Option<&'static str> {
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .into_iter()
    .find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// The browser for a test that needs one; `None` (the test then returns at once) after saying it
/// was skipped. Under CI (`CI=true`, as .ci/run runs) a missing browser fails instead: a skip
/// there would read as a pass.
pub fn browser() -> Option<&'static str> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var("CI").map_or(true, |v| v.is_empty() || v == "false"),
            "no Chromium installed, and CI is set: .ci/run installs it (apt-get install chromium)"
        );
        eprintln!("skipped: no Chromium installed (.ci/run installs it: apt-get install chromium)");
    }
    found
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
