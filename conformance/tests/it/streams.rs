//! The standard streams: no subcommand panics when
//! stdout is a full disk or a pipe nobody reads (exit 2 with one line on stderr, never
//! exit 101 and a backtrace), and a closed stdout or stderr (`>&-`, `2>&-`) stops the
//! command with exit 2 before anything runs, instead of losing the verdict with exit 0.

use crate::common::process::{conformance, finish, run, scratch};
use std::process::{Command, Stdio};

/// Every subcommand that writes to stdout, each quick: (what, arguments).
fn commands(dir: &std::path::Path) -> Vec<(&'static str, Vec<String>)> {
    let bin = env!("CARGO_BIN_EXE_conformance");
    let serve = format!("s={bin} serve");
    let d = |p: &str| dir.join(p).display().to_string();
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        ("run", strings(&["run", "--encoding", "utf-8"])),
        ("generate --check", strings(&["generate", "--check"])),
        ("audit", strings(&["audit", "--max-len", "1"])),
        (
            "exhaustive",
            strings(&["exhaustive", "--max-len", "1", "--only", "inputs"]),
        ),
        (
            "exhaustive --adapter",
            vec![
                "exhaustive".into(),
                "--adapter".into(),
                serve.clone(),
                "--max-len".into(),
                "1".into(),
                "--op".into(),
                "decode".into(),
                "--out".into(),
                d("exhaustive"),
            ],
        ),
        (
            "fuzz",
            vec![
                "fuzz".into(),
                "--adapter".into(),
                serve,
                "--seconds".into(),
                "1".into(),
                "--seed".into(),
                "1".into(),
                "--out".into(),
                d("fuzz"),
            ],
        ),
        (
            "seed-corpus",
            vec!["seed-corpus".into(), "--out".into(), d("corpus")],
        ),
    ]
}

/// The checks on one run whose stdout could not be written.
fn exits_2_without_a_panic(what: &str, code: Option<i32>, stderr: &str) {
    assert!(
        !stderr.contains("panicked"),
        "{what}: a panic instead of an error:\n{stderr}"
    );
    assert_eq!(code, Some(2), "{what}: {stderr}");
    assert!(
        stderr.contains("cannot write to standard output"),
        "{what}: {stderr}"
    );
}

#[test]
fn stdout_on_a_full_disk_exits_2_and_never_panics() {
    let dir = scratch("streams", "full");
    for (what, args) in commands(&dir) {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = finish(
            conformance()
                .args(&args)
                .stdout(Stdio::from(full))
                .stderr(Stdio::piped()),
        );
        exits_2_without_a_panic(what, out.code(), &out.stderr);
        assert!(
            out.stderr.contains("No space left"),
            "{what}: {}",
            out.stderr
        );
    }
}

#[test]
fn a_pipe_nobody_reads_exits_2_and_never_panics() {
    let dir = scratch("streams", "pipe");
    for (what, args) in commands(&dir) {
        // The read end is closed before the command starts: its first write is EPIPE,
        // however short the output (`| head -1` only meets it past the pipe's buffer).
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = finish(
            conformance()
                .args(&args)
                .stdout(Stdio::from(writer))
                .stderr(Stdio::piped()),
        );
        exits_2_without_a_panic(what, out.code(), &out.stderr);
        assert!(out.stderr.contains("Broken pipe"), "{what}: {}", out.stderr);
    }
}

/// `conformance ARGS` with the shell redirection `redirect` (`>&-`, `2>&-`, `<&-`).
fn with_redirect(redirect: &str, args: &str) -> crate::common::process::Finished {
    run(Command::new("sh").arg("-c").arg(format!(
        "exec {} {args} {redirect}",
        env!("CARGO_BIN_EXE_conformance")
    )))
}

#[test]
fn a_closed_standard_stream_exits_2_before_anything_runs() {
    let dir = scratch("streams", "closed");
    let json = dir.join("r.json");
    let args = format!("run --encoding utf-8 --json {}", json.display());

    let out = with_redirect(">&-", &args);
    assert_eq!(out.code(), Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("standard output is closed"),
        "{}",
        out.stderr
    );
    assert!(!json.exists(), "nothing runs");

    // Nothing can say why on a closed stderr: the exit code does.
    let out = with_redirect("2>&-", &args);
    assert_eq!(out.code(), Some(2), "{}", out.stdout);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert!(!json.exists(), "nothing runs");

    // `serve` reads stdin: closed is not empty.
    let out = with_redirect("<&-", "serve");
    assert_eq!(out.code(), Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("standard input is closed"),
        "{}",
        out.stderr
    );

    // Redirected to /dev/null (opened write-only by the shell) is not closed.
    let out = with_redirect(">/dev/null", &args);
    assert_eq!(out.code(), Some(0), "{}", out.stderr);
    assert!(json.exists());
}
