//! Finds out whether the browser tests can run here: they need a headless-capable Chromium and
//! its WebDriver (`chromium` and `chromium-driver` on Debian). Where either is missing, the
//! tests are compiled with `no_browser` and show as `ignored` (`.ci/run` installs both, and a
//! test there fails when they are missing under CI).

use std::path::PathBuf;

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(no_browser)");
    println!("cargo::rerun-if-env-changed=PATH");
    let browser = on_path(&[
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]);
    let driver = on_path(&["chromedriver"]);
    for found in [&browser, &driver] {
        match found {
            // Installed or removed later: look again.
            Some(p) => println!("cargo::rerun-if-changed={}", p.display()),
            // A path that does not exist makes cargo run this script on every build (cheap),
            // so installing the browser later is noticed.
            None => println!("cargo::rerun-if-changed=/nonexistent/gamesearch-browser-probe"),
        }
    }
    if browser.is_none() || driver.is_none() {
        println!("cargo::rustc-cfg=no_browser");
    }
}
