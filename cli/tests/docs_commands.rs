//! Every command the README and docs/ show in a ```sh block runs as written (exit 0), except
//! those marked `# long`, which `every_long_command_in_docs_runs` runs when asked (ignored by
//! default: hours; their figures are in docs/results/). Synopses, which
//! show placeholders, are ```text blocks. The hints the program prints are run by
//! `cli/tests/defects.rs`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The repository's root.
fn root() -> PathBuf {
    common::repo_root()
}

/// `(file:line, arguments)` of every `gamesearch …` or `cargo run --release -- …` line in the
/// ```sh blocks of `file`, its trailing comment dropped: with `long` false those whose comment
/// does not say `long`; with `long` true those whose comment does, but for those that say
/// `needs` (a peer built in /tmp, a package the project does not install).
fn commands_of(file: &str, long: bool) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let mut out = Vec::new();
    let mut in_sh = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(lang) = line.strip_prefix("```") {
            in_sh = match in_sh {
                None => Some(lang.trim() == "sh"),
                Some(_) => None,
            };
            continue;
        }
        if in_sh != Some(true) {
            continue;
        }
        let (words, comment) = split(line);
        let marked = comment.contains("long");
        if marked != long || (long && comment.contains("needs")) {
            continue;
        }
        let args = match words.first().map(String::as_str) {
            Some("gamesearch") => words[1..].to_vec(),
            Some("cargo") if words.get(1).map(String::as_str) == Some("run") => {
                match words.iter().position(|w| w == "--") {
                    Some(k) => words[k + 1..].to_vec(),
                    None => continue,
                }
            }
            _ => continue,
        };
        out.push((format!("{file}:{}", i + 1), args));
    }
    out
}

/// The quick commands of `file` (those not marked `# long`).
fn commands(file: &str) -> Vec<(String, Vec<String>)> {
    commands_of(file, false)
}

/// `path` as `commands_of` takes it: relative to the repository, with `/`.
fn page_name(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// Splits a shell line into words (single and double quotes) and its `# comment`.
fn split(line: &str) -> (Vec<String>, String) {
    let (mut words, mut word, mut quote, mut any) = (Vec::new(), String::new(), None, false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '#') if !any => return (words, chars.collect()),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), _) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            _ => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    (words, String::new())
}

/// Runs one command in a scratch directory that sees the repository's books, examples and test data
/// (so that files it writes land there, not in the source tree); fails past `limit`.
fn run(place: &str, args: &[String], dir: &Path, limit: Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamesearch"))
        .args(args)
        .arg("--quiet")
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
            assert!(
                status.success(),
                "{place}: `gamesearch {}` failed: {err}",
                args.join(" ")
            );
            return;
        }
        if start.elapsed() > limit {
            child.kill().ok();
            panic!(
                "{place}: `gamesearch {}` ran past {limit:?}: mark it `# long` or make it quicker",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A scratch directory of its own for each test (they run in parallel).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamesearch-docs-{}-{name}", std::process::id()));
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    #[cfg(unix)]
    for sub in ["books", "examples", "tests"] {
        let link = dir.join(sub);
        match std::os::unix::fs::symlink(root().join(sub), &link) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => panic!("{link:?}: {e}"),
            _ => {}
        }
    }
    dir
}

#[test]
fn the_splitter_reads_quotes_and_comments() {
    let (w, c) = split(r#"gamesearch search "tree:(A max 1 2)" --json   # a comment"#);
    assert_eq!(w, ["gamesearch", "search", "tree:(A max 1 2)", "--json"]);
    assert_eq!(c.trim(), "a comment");
}

#[cfg(unix)]
#[test]
fn every_command_in_the_readme_runs() {
    let cmds = commands("README.md");
    assert!(cmds.len() >= 4, "{cmds:?}");
    // The main job is among them.
    assert!(cmds
        .iter()
        .any(|(_, a)| a.join(" ") == "compare random:b=8,h=8,seed=1"));
    let dir = scratch("readme");
    for (place, args) in &cmds {
        run(place, args, &dir, Duration::from_secs(120));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn every_quick_command_in_docs_runs() {
    let dir = scratch("docs");
    let mut n = 0;
    // docs/ and its folders (the guide's pages).
    for path in common::markdown_pages(&root().join("docs")) {
        for (place, args) in commands(&page_name(&path)) {
            run(&place, &args, &dir, Duration::from_secs(120));
            n += 1;
        }
    }
    assert!(n >= 5, "only {n} commands found in docs/");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every command marked `# long` in the README and docs/, in page order, each in one scratch
/// directory shared by all (a database built by one line is read by the next), with six hours
/// each at most. Minutes to hours apiece and up to 12 GiB of memory, so not in CI; run by hand:
/// `cargo test --release -p gamesearch-cli --test docs_commands -- --ignored --nocapture`.
#[cfg(unix)]
#[test]
#[ignore]
fn every_long_command_in_docs_runs() {
    let dir = scratch("long");
    let mut pages = vec![root().join("README.md")];
    pages.extend(common::markdown_pages(&root().join("docs")));
    let mut n = 0;
    for path in pages {
        for (place, args) in commands_of(&page_name(&path), true) {
            let start = Instant::now();
            run(&place, &args, &dir, Duration::from_secs(6 * 3600));
            println!(
                "{place}: {:.1} s: gamesearch {}",
                start.elapsed().as_secs_f64(),
                args.join(" ")
            );
            n += 1;
        }
    }
    assert!(n >= 5, "only {n} long commands found");
}
