//! `cli/README.md`'s examples are real: every `$ command` line in a ```console block is
//! run by bash (in one scratch directory, in order, with this build's `cutf8` first on
//! `PATH`) and its output (stdout and stderr as a terminal would interleave them) must be
//! the lines under it. A trailing `# exit N` is the expected exit status (else 0).
//!
//! After changing the tool or the examples, rewrite the outputs with
//! `CUTF8_BLESS_README=1 cargo test -p cutf8 --test it readme` and review the diff.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn readme_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")
}

#[test]
fn readme_examples_print_what_the_readme_says() {
    let readme = std::fs::read_to_string(readme_path()).unwrap();
    let dir = crate::common::scratch("readme");
    let regenerated = regenerate(&readme, &dir);
    if std::env::var_os("CUTF8_BLESS_README").is_some() {
        std::fs::write(readme_path(), &regenerated).unwrap();
        return;
    }
    if regenerated != readme {
        let (want, got) = first_difference(&readme, &regenerated);
        panic!(
            "cli/README.md's examples are out of date; first difference:\n  README: {want}\n  actual: {got}\n\
             (CUTF8_BLESS_README=1 rewrites them)"
        );
    }
}

/// The README with every example's output replaced by what the command prints now.
fn regenerate(readme: &str, dir: &Path) -> String {
    let mut out = String::new();
    let mut in_console = false;
    let mut commands = 0;
    for line in readme.lines() {
        if !in_console {
            in_console = line.trim_end() == "```console";
        } else if line.trim_end() == "```" {
            in_console = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            out.push_str(line);
            out.push('\n');
            out.push_str(&run(command, dir));
            commands += 1;
            continue;
        } else {
            // An old output line: replaced by the run above.
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    assert!(commands > 0, "no examples found in the README");
    out
}

/// Runs one example; its output, each line ending in a newline.
fn run(command: &str, dir: &Path) -> String {
    let want_status = command.rsplit_once("# exit ").map_or(0, |(_, n)| {
        n.trim().parse().expect("`# exit N` takes a number")
    });
    let bin_dir = Path::new(crate::common::BIN).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let output = Command::new("bash")
        // One stream, as on a terminal; pipefail so that a failing `cutf8` in a pipe shows.
        .args(["-c", &format!("set -o pipefail; exec 2>&1; {command}")])
        .current_dir(dir)
        .env("PATH", path)
        // `explain`'s layout follows COLUMNS; the examples must not depend on the shell.
        .env_remove("COLUMNS")
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .expect("bash runs");
    assert_eq!(
        output.status.code(),
        Some(want_status),
        "`{command}` printed:\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let mut text = String::from_utf8(output.stdout).expect("examples print UTF-8");
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn first_difference<'a>(a: &'a str, b: &'a str) -> (&'a str, &'a str) {
    a.lines()
        .chain(std::iter::repeat("<end>"))
        .zip(b.lines().chain(std::iter::repeat("<end>")))
        .find(|(x, y)| x != y)
        .unwrap_or(("", ""))
}
