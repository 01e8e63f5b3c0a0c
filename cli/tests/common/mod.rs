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
