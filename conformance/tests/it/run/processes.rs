//! The runner ends and reaps everything an adapter started: a grandchild
//! that left the process group (`setsid`), an adapter whose runner was SIGKILLed, more
//! than 64 adapters on SIGTERM; and a crash is the adapter's own exit, whoever still holds
//! its stdout. Linux only: the checks read `/proc`.
#![cfg(target_os = "linux")]

use crate::common::sh::{self, HELLO_VALID, INVALID, RIGHT};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    crate::common::process::scratch("processes", name)
}

/// A UTF-8 decode file of `n` cases: odd tcIds `41` (valid), even ones `c0` (invalid).
fn decode_file(n: usize) -> String {
    crate::common::fixtures::decode_file("processes", n)
}

/// `vectors/t/decode.json` with `n` cases, and `adapter.sh`: declares `valid`, answers
/// right, and runs `on_case_2` before answering case `#2`.
fn setup(name: &str, n: usize, on_case_2: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("vectors/t")).unwrap();
    std::fs::write(dir.join("vectors/t/decode.json"), decode_file(n)).unwrap();
    let arms = format!("{HELLO_VALID}\n  *#2) {on_case_2}\n    {INVALID}\n  {RIGHT}");
    std::fs::write(dir.join("adapter.sh"), sh::script(&arms)).unwrap();
    dir
}

fn runner(dir: &Path, adapter: &str, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_conformance"));
    command
        .current_dir(dir)
        .args(["run", "--vectors", "vectors", "--adapter", adapter])
        .args(extra);
    command
}

/// Whether process `pid` has ended (gone, or a zombie).
fn ended(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

/// Waits (at most `limit`: a bound, not a measurement) for every process to end; the
/// ones still running.
fn wait_ended(pids: &[i32], limit: Duration) -> Vec<i32> {
    let start = Instant::now();
    loop {
        let alive: Vec<i32> = pids.iter().copied().filter(|&p| !ended(p)).collect();
        if alive.is_empty() || start.elapsed() > limit {
            return alive;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits (at most a minute: a bound) for a file holding a pid and a newline, as `echo`
/// writes it in one write, and reads it: a file being written is not read half.
fn read_pid(path: &Path) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.strip_suffix('\n')?.parse().ok())
        {
            return pid;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{} never written",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(pid: i32, sig: libc::c_int) {
    // SAFETY: kill(2) of a process this test started; no memory involved.
    unsafe {
        libc::kill(pid, sig);
    }
}

#[test]
fn a_grandchild_that_left_the_process_group_is_killed_with_its_adapter() {
    // Case #2 starts a grandchild in a session (and process group) of its own: the group
    // kill cannot reach it. The adapter answers only once the grandchild has written its
    // pid (written whole, then renamed): the run cannot end, and kill everything, before
    // the grandchild exists as the `sleep` the test looks for.
    let dir = setup(
        "setsid",
        4,
        "setsid sh -c 'echo $$ > grandchild.tmp && mv grandchild.tmp grandchild.pid && exec sleep 1000' >/dev/null 2>&1 < /dev/null &\n    \
         while [ ! -e grandchild.pid ]; do sleep 0.01; done",
    );
    // The per-case timeout only bounds a hang: a loaded machine may take its time to start
    // the grandchild.
    let out = runner(&dir, "t=sh adapter.sh", &["--timeout", "60"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let grandchild = read_pid(&dir.join("grandchild.pid"));
    let alive = wait_ended(&[grandchild], Duration::from_secs(10));
    if !alive.is_empty() {
        kill(grandchild, libc::SIGKILL);
    }
    assert!(alive.is_empty(), "sleep {grandchild} outlived the run");
}

#[test]
fn a_crash_is_a_crash_while_a_child_still_holds_its_stdout() {
    // Case #2: a child that keeps the adapter's stdout open, then the adapter exits 3.
    let dir = setup("crash-held", 4, "sleep 1000 & echo $! > child.pid; exit 3");
    let out = runner(&dir, "t=sh adapter.sh", &["--timeout", "30"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("t/decode.json#2  CRASH"), "{stdout}");
    assert!(stdout.contains("exited with status 3"), "{stdout}");
    assert!(!stdout.contains("TIMEOUT"), "{stdout}");
    // The other cases pass (the adapter is started again), and the child is gone.
    assert!(stdout.ends_with("3 passed, 1 failed\n"), "{stdout}");
    let child = read_pid(&dir.join("child.pid"));
    let alive = wait_ended(&[child], Duration::from_secs(10));
    if !alive.is_empty() {
        kill(child, libc::SIGKILL);
    }
    assert!(alive.is_empty(), "sleep {child} outlived the run");
}

#[test]
fn a_sigkilled_runner_does_not_orphan_its_adapter() {
    // An adapter that never answers (and ignores stdin closing): only the runner's death
    // can end it.
    let dir = setup("pdeathsig", 2, "true");
    let mut child = runner(
        &dir,
        "t=echo $$ > adapter.pid; exec sleep 1000",
        &["--startup-timeout", "600"],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let adapter = read_pid(&dir.join("adapter.pid"));
    let _ = child.kill(); // SIGKILL: no handler runs
    let _ = child.wait();
    let alive = wait_ended(&[adapter], Duration::from_secs(10));
    if !alive.is_empty() {
        kill(adapter, libc::SIGKILL);
    }
    assert!(alive.is_empty(), "adapter {adapter} outlived its runner");
}

#[test]
fn sigterm_ends_every_adapter_of_a_run_of_more_than_64() {
    // 70 adapters, each waiting on a child in its group, none answering the hello.
    let dir = setup("many", 1, "true");
    std::fs::create_dir_all(dir.join("pids")).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_conformance"));
    command
        .current_dir(&dir)
        .args(["run", "--vectors", "vectors", "--startup-timeout", "600"]);
    for i in 0..70 {
        command
            .arg("--adapter")
            .arg(format!("a{i}=sleep 1000 & echo $! > pids/{i}; wait"));
    }
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let sleeps: Vec<i32> = (0..70)
        .map(|i| read_pid(&dir.join(format!("pids/{i}"))))
        .collect();
    kill(child.id() as i32, libc::SIGTERM);
    let status = child.wait().unwrap();
    let alive = wait_ended(&sleeps, Duration::from_secs(20));
    for &p in &alive {
        kill(p, libc::SIGKILL);
    }
    assert!(
        alive.is_empty(),
        "{} of 70 outlived the runner: {alive:?}",
        alive.len()
    );
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
}
