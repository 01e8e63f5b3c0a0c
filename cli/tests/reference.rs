//! The user's docs stay true by themselves:
//! - the command-line reference, `docs/cli.md`, is generated from the clap definitions (every
//!   command's and subcommand's `--help`, as clap renders it), and this test fails when the
//!   committed page is not what they generate now. To rewrite it:
//!   `GAMESEARCH_WRITE_REFERENCE=1 cargo test --release --test reference`;
//! - every relative link of every Markdown page of the repository leads to a file that exists.

mod common;
use common::gamesearch;

use std::path::PathBuf;

fn root() -> PathBuf {
    common::repo_root()
}

/// The subcommands a help text lists under "Commands:" (`help` left out).
fn subcommands(help: &str) -> Vec<String> {
    let Some((_, rest)) = help.split_once("\nCommands:\n") else {
        return Vec::new();
    };
    rest.lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The section of `path`'s help, then its subcommands' sections.
fn sections(path: &[String], out: &mut String) {
    let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
    args.push("--help");
    let (code, help, err) = gamesearch(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    let depth = "#".repeat(path.len().min(2) + 2);
    let title = std::iter::once("gamesearch")
        .chain(path.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    out.push_str(&format!(
        "\n{depth} `{title}`\n\n```text\n{}\n```\n",
        help.trim_end()
    ));
    for sub in subcommands(&help) {
        let mut next = path.to_vec();
        next.push(sub);
        sections(&next, out);
    }
}

/// The reference as the clap definitions generate it now.
fn generated() -> String {
    let mut page = String::from(
        "# The command-line reference\n\n\
         Every command's `--help`, generated from the clap definitions (`cli/src`) by\n\
         `GAMESEARCH_WRITE_REFERENCE=1 cargo test --release --test reference`; a test fails when\n\
         this page is out of date. `gamesearch COMMAND --help` prints the same.\n",
    );
    sections(&[], &mut page);
    page
}

#[test]
fn the_command_line_reference_is_current() {
    let page = generated();
    let path = root().join("docs/cli.md");
    if std::env::var_os("GAMESEARCH_WRITE_REFERENCE").is_some() {
        std::fs::write(&path, &page).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == page,
        "docs/cli.md is not what the clap definitions generate: run \
         GAMESEARCH_WRITE_REFERENCE=1 cargo test --release --test reference"
    );
    // Every command is in it, and the README links to it.
    for command in [
        "search",
        "solve",
        "play",
        "serve",
        "tablebase build",
        "experiment hex",
    ] {
        assert!(
            page.contains(&format!("`gamesearch {command}`")),
            "{command}"
        );
    }
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains("](docs/cli.md)"),
        "the README links to docs/cli.md"
    );
}

/// The targets of a page's Markdown links `[text](target)` and `![alt](target)`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].trim().to_string());
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_leads_to_a_file() {
    let mut broken = Vec::new();
    let pages = common::markdown_pages(&root());
    assert!(pages.len() > 5, "the pages were not found");
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        for target in links(&text) {
            let target = target.split_whitespace().next().unwrap_or("");
            if target.is_empty()
                || target.starts_with('#')
                || target.contains("://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let file = target.split(['#', '?']).next().unwrap();
            let resolved = page.parent().unwrap().join(file);
            if !resolved.exists() {
                broken.push(format!(
                    "{}: {target}",
                    page.strip_prefix(root()).unwrap_or(&page).display()
                ));
            }
        }
    }
    assert!(broken.is_empty(), "links to no file: {broken:#?}");
}

/// The README stays a front page (at most 200 lines: what gamesearch is, the two commands, a
/// tour, links) and ARCHITECTURE.md what a newcomer reads in five minutes (at most 150), as
/// issue #73 asked.
#[test]
fn the_front_pages_keep_their_sizes() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 200, "README.md has {lines} lines (at most 200)");
    for guide in [
        "docs/guide/command-line.md",
        "docs/guide/library.md",
        "docs/cli.md",
    ] {
        assert!(
            readme.contains(&format!("]({guide})")),
            "the README links to {guide}"
        );
    }
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= 150,
        "ARCHITECTURE.md has {lines} lines (at most 150)"
    );
    // It names every family's folder and every crate.
    for place in [
        "src/depth_first/",
        "src/solver/",
        "src/proof_number/",
        "src/engine/",
        "src/mcts/",
        "games/",
        "cli/",
        "python/",
    ] {
        assert!(
            text.contains(place),
            "ARCHITECTURE.md does not name {place}"
        );
    }
}

/// The results are an index (`docs/results.md`, at most 200 lines, its headline table linking
/// every page) and one page a subject under `docs/results/` (at most 300 lines each), each
/// opening with its figures against their anchors in one table that names the commit.
#[test]
fn the_results_pages_keep_their_sizes() {
    let index = std::fs::read_to_string(root().join("docs/results.md")).unwrap();
    let lines = index.lines().count();
    assert!(
        lines <= 200,
        "docs/results.md has {lines} lines (at most 200)"
    );
    let pages = common::markdown_pages(&root().join("docs/results"));
    assert!(pages.len() >= 10, "docs/results/ has {} pages", pages.len());
    for page in pages {
        let name = page.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&page).unwrap();
        let lines = text.lines().count();
        assert!(
            lines <= 300,
            "docs/results/{name} has {lines} lines (at most 300)"
        );
        assert!(
            index.contains(&format!("](results/{name})")),
            "docs/results.md does not link to results/{name}"
        );
        assert!(
            text.contains("| figure | ours | anchor | ours / anchor | reproduce | commit |"),
            "docs/results/{name} does not open with its table of figures and anchors"
        );
    }
}
