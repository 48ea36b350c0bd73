//! What a test needs besides Rust, said by the test itself.
//!
//! The sample adapters the runner's tests drive are Python scripts
//! (`conformance/adapters/*.py`, and ones a test writes), run as `python3 FILE` under
//! `sh` (every adapter command is a `sh -c` line, so these tests need a Unix too). A
//! test that needs python3 starts with `if !common::prereq::python3() { return; }`:
//! without python3 on `PATH` it says so on stderr and passes without checking anything;
//! in CI (`CI` set, as on GitHub Actions) a missing python3 fails it
//! instead, so that CI never skips a test. The README lists the prerequisites.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// Whether `python3` runs; when it does not, a message (or, in CI, a panic) says why
/// the caller is skipped.
#[track_caller]
pub fn python3() -> bool {
    static FOUND: OnceLock<Result<(), String>> = OnceLock::new();
    let found = FOUND.get_or_init(|| {
        match Command::new("python3")
            .arg("--version")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
        {
            Ok(status) if status.success() => Ok(()),
            Ok(status) => Err(format!("`python3 --version` exited with {status}")),
            Err(e) => Err(format!("python3 is not on PATH ({e})")),
        }
    });
    let Err(why) = found else { return true };
    let at = std::panic::Location::caller();
    let message = format!(
        "{at}: this test drives Python adapters and needs python3, but {why}; \
         install python3 to run it (README.md, \"Two commands\", lists the test prerequisites)"
    );
    if std::env::var_os("CI").is_some() {
        panic!("{message} (CI is set: a test is never skipped in CI)");
    }
    // Straight to the descriptor: the test harness captures `eprintln!` of a passing
    // test, and a skip must be seen.
    let _ = writeln!(std::io::stderr(), "skipped: {message}");
    false
}
