//! Standard streams that fail: every subcommand, with standard output closed (`>&-`),
//! full (`>/dev/full`) or hung up (`| head`), and standard input closed (`<&-`). Never
//! exit 0 with the output lost, never read a closed input as empty, never panic.

use crate::common::BIN;
use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};

/// Every subcommand (and the options that print and exit), with arguments that make it
/// write.
fn every_command() -> Vec<Vec<&'static str>> {
    [
        &["decode", "input.bin"][..],
        &["decode", "--json", "input.bin"],
        &["encode", "U+41"],
        &["encode", "--raw", "U+41"],
        &["encode", "--from-utf8", "input.bin"],
        &["check", "input.bin"],
        &["check", "--format", "short", "input.bin"],
        &["check", "--format", "json", "input.bin"],
        &["check", "tree"],
        &["explain", "41 C0 AF"],
        &[
            "transcode",
            "--from",
            "utf-8",
            "--to",
            "corrected-utf8",
            "input.bin",
        ],
        &["--help"],
        &["--version"],
        &["check", "--help"],
    ]
    .iter()
    .map(|args| args.to_vec())
    .collect()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = crate::common::scratch(name);
    std::fs::write(dir.join("input.bin"), b"A\x00\n").unwrap();
    std::fs::create_dir(dir.join("tree")).unwrap();
    std::fs::write(dir.join("tree/a.txt"), b"a\tb\n").unwrap();
    dir
}

/// `cutf8 ARGS` run by bash after `redirect` (`exec >&-`: the descriptor closed, not
/// just a pipe nobody reads).
fn run_redirected(dir: &std::path::Path, redirect: &str, args: &[&str]) -> Output {
    Command::new("bash")
        .arg("-c")
        .arg(format!("{redirect}; exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

fn assert_no_panic(output: &Output, what: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace"),
        "{what}: {stderr}"
    );
}

/// Before: `encode U+41 >&-` exited 0 and the output went nowhere (the runtime puts
/// `/dev/null` on a closed descriptor before `main`).
#[test]
fn closed_stdout_is_an_error_before_anything_runs() {
    let dir = scratch("streams_closed_stdout");
    for args in every_command() {
        let output = run_redirected(&dir, "exec >&-", &args);
        assert_eq!(
            (
                output.status.code(),
                String::from_utf8_lossy(&output.stderr).as_ref()
            ),
            (
                Some(2),
                "cutf8: error: cannot write to standard output: it is closed\n"
            ),
            "{args:?}"
        );
    }
    // A shell's `>/dev/null` is no closed stream: the output is discarded as asked.
    let output = run_redirected(&dir, "exec >/dev/null", &["encode", "U+41"]);
    assert_eq!((output.status.code(), output.stderr.len()), (Some(0), 0));
}

/// Before: `check <&-` read a closed standard input as empty and passed (exit 0).
#[test]
fn closed_stdin_is_an_error_when_it_is_read() {
    let dir = scratch("streams_closed_stdin");
    for args in [
        &["check"][..],
        &["check", "-"],
        &["check", "input.bin", "-"],
        &["decode"],
        &["decode", "--json", "-"],
        &["encode", "--from-utf8", "-"],
        &["transcode", "--from", "utf-8", "--to", "corrected-utf8"],
    ] {
        let output = run_redirected(&dir, "exec <&-", args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("cutf8: error: cannot read '<stdin>': standard input is closed"),
            "{args:?}: {stderr}"
        );
    }
    // Files and arguments need no standard input.
    for (args, stdout) in [
        (&["encode", "U+41"][..], "41\n"),
        (
            &["decode", "input.bin"],
            "0: U+0041\n1: U+0000\n2: U+000A\n",
        ),
    ] {
        let output = run_redirected(&dir, "exec <&-", args);
        assert_eq!(String::from_utf8_lossy(&output.stdout), stdout, "{args:?}");
        assert!(output.stderr.is_empty(), "{args:?}");
    }
    // `</dev/null` is empty input, as asked.
    let output = run_redirected(&dir, "exec </dev/null", &["decode", "--json"]);
    assert_eq!(
        (output.status.code(), output.stdout.as_slice()),
        (Some(0), &b"[]\n"[..])
    );
}

/// A full disk: exit 2 and the error named, for every command. Before: `--help` and
/// `--version` exited 0.
#[test]
fn full_stdout_is_an_error_naming_it() {
    let dir = scratch("streams_full");
    for args in every_command() {
        let output = Command::new(BIN)
            .args(&args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_no_panic(&output, &format!("{args:?}"));
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.starts_with(
                "cutf8: error: cannot write to standard output: No space left on device"
            ),
            "{args:?}: {stderr}"
        );
    }
}

/// `cutf8 … | head`: when the reader goes away, stop quietly with status 141, as the
/// shell reports `cat` killed by SIGPIPE; not 0, since the output was cut short (a
/// `check` cut short has not checked everything). Before: 0.
#[test]
fn broken_pipe_is_quiet_and_not_a_success() {
    let dir = scratch("streams_broken_pipe");
    let zeros = vec![0u8; 8 << 20];
    std::fs::write(dir.join("zeros.bin"), &zeros).unwrap();
    std::fs::write(dir.join("tree/zeros.bin"), &zeros).unwrap();
    let many_bytes = "C0 AF ".repeat(20_000);
    let stdin_commands: [&[&str]; 9] = [
        &["decode"],
        &["decode", "--json"],
        &["check", "--format", "short"],
        &["check", "--format", "json"],
        &["transcode", "--from", "utf-8", "--to", "corrected-utf8"],
        &["encode", "--from-utf8", "-"],
        &["decode", "-e", "utf-inf-8"],
        &["transcode", "--from", "utf-inf-8", "--to", "utf-inf-8"],
        &["check", "--format", "short", "-", "zeros.bin"],
    ];
    let mut cases: Vec<(Vec<&str>, bool)> = stdin_commands
        .iter()
        .map(|args| (args.to_vec(), true))
        .collect();
    cases.push((vec!["check", "--format", "short", "tree"], false));
    cases.push((
        vec!["check", "--format", "json", "--jobs", "1", "tree"],
        false,
    ));
    cases.push((vec!["explain", many_bytes.as_str()], false));
    for (args, feed) in cases {
        let mut child = Command::new(BIN)
            .args(&args)
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = if feed { zeros.clone() } else { Vec::new() };
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        // Read a little, then hang up like `head -c 100`.
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0; 100];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        writer.join().unwrap();
        assert_eq!(
            (status.code(), stderr.as_str()),
            (Some(141), ""),
            "{args:?}"
        );
    }
}
