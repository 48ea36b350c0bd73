//! Running the `cutf8` binary from tests.
#![allow(dead_code)] // each test file uses part of this

pub mod inputs;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_cutf8");

/// A scratch directory under the target directory, fresh for each `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `cutf8 ARGS` in `dir` with `stdin`; writes stdin from a thread so that a large
/// input cannot deadlock against a full stdout pipe.
pub fn run_in(dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> Output {
    run_with(dir, args, stdin, None)
}

/// [`run_in`] with `COLUMNS` set to `columns`, or unset. (It is always one or the other:
/// `explain`'s layout follows it, and the outputs must not depend on the shell's.)
pub fn run_with(
    dir: &std::path::Path,
    args: &[&str],
    stdin: &[u8],
    columns: Option<&str>,
) -> Output {
    let mut command = Command::new(BIN);
    match columns {
        Some(c) => command.env("COLUMNS", c),
        None => command.env_remove("COLUMNS"),
    };
    let mut child = command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // The child may exit before reading everything (a usage error): ignore EPIPE.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

/// Exit status, stdout and stderr in one text for a snapshot. Stdout is shown as hex
/// when `bytes`, or when it is not printable UTF-8.
pub fn transcript(output: &Output, bytes: bool) -> String {
    let code = output
        .status
        .code()
        .map_or("killed by a signal".to_string(), |c| c.to_string());
    let stdout = match std::str::from_utf8(&output.stdout) {
        _ if output.stdout.is_empty() => String::new(),
        Ok(s) if !bytes && !s.chars().any(|c| c.is_control() && c != '\n') => s.to_string(),
        _ => {
            let hex: Vec<String> = output.stdout.iter().map(|b| format!("{b:02X}")).collect();
            format!("(bytes) {}\n", hex.join(" "))
        }
    };
    format!(
        "exit: {code}\n--- stdout\n{stdout}--- stderr\n{}",
        String::from_utf8_lossy(&output.stderr)
    )
}

/// This process's resident memory now, in KiB (`/proc/self/statm` counts pages).
#[cfg(unix)]
pub fn self_rss_kib() -> i64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: i64 = statm
        .split_whitespace()
        .nth(1)
        .map_or(0, |p| p.parse().unwrap_or(0));
    // SAFETY: `sysconf` reads a constant.
    pages * unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as i64 / 1024
}

/// Waits for `child`; its exit code and its own peak RSS in KiB (Linux reports
/// `ru_maxrss` in KiB). `wait4` measures this child alone, whatever else the tests run
/// at the same time.
#[cfg(unix)]
pub fn wait_with_peak_rss(child: &mut std::process::Child) -> (Option<i32>, i64) {
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is a plain C struct of integers and `timeval`s, for which all
    // zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `pid` is our own child, not yet waited for (std's `Child` never reaped
        // it: nothing called `wait` on it); `wait4` only writes `status` and `usage`,
        // both live locals of the types it expects.
        let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if rc == pid {
            break;
        }
        let e = std::io::Error::last_os_error();
        assert_eq!(e.kind(), std::io::ErrorKind::Interrupted, "wait4: {e}");
    }
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (code, usage.ru_maxrss as i64)
}
