//! Running the `conformance` binary in tests that must not hang or eat the machine when
//! the code under test is wrong: a watchdog kills a child that has not finished in
//! [`HANG`] (a hang guard, not a timed assertion: a correct run takes a fraction of
//! it), and [`with_memory_cap`] runs it under `ulimit -v`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long a child may run before it counts as hung.
pub const HANG: Duration = Duration::from_secs(120);

/// The binary under test.
pub fn conformance() -> Command {
    Command::new(env!("CARGO_BIN_EXE_conformance"))
}

/// `conformance ARGS` in `dir` (standard input empty) to its end, under the watchdog:
/// its exit code, stdout and stderr.
pub fn conformance_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let f = run(conformance()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null()));
    (f.code(), f.stdout, f.stderr)
}

/// A fresh folder under the target directory.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `conformance ARGS` under `ulimit -v KIB` (RLIMIT_AS), through `sh`.
pub fn with_memory_cap(kib: u64, args: &[&str]) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_conformance"))
        .args(args);
    c
}

/// `conformance ARGS` in `dir` with at most `ceiling` bytes of address space
/// (`setrlimit(RLIMIT_AS)`, a soft limit, which the adapters it starts may raise again
/// for themselves) and glibc's arenas kept to one (each would reserve 64 MiB that
/// `RLIMIT_AS` counts though it is never touched).
#[cfg(target_os = "linux")] // its one user, `every_tool`, is Linux-only
pub fn capped(dir: &Path, ceiling: u64, args: &[&str]) -> Command {
    use std::os::unix::process::CommandExt;
    let mut command = conformance();
    command
        .current_dir(dir)
        .args(args)
        .env("MALLOC_ARENA_MAX", "1");
    // SAFETY: runs in the child between fork and exec; setrlimit(2) is async-signal-safe
    // and the closure allocates nothing.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: ceiling,
                rlim_max: libc::RLIM_INFINITY,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command
}

/// What a finished child did.
#[derive(Debug)]
pub struct Finished {
    /// Its exit status.
    pub status: ExitStatus,
    /// Its stdout (empty when not piped).
    pub stdout: String,
    /// Its stderr (empty when not piped).
    pub stderr: String,
}

impl Finished {
    /// The exit code (None: killed by a signal).
    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }
}

/// Runs `cmd` (stdout and stderr piped unless set already) to its end, or kills it and
/// panics after [`HANG`].
pub fn finish(cmd: &mut Command) -> Finished {
    let child = cmd.spawn().expect("spawn");
    wait(child)
}

/// Like [`finish`], with stdout and stderr piped.
pub fn run(cmd: &mut Command) -> Finished {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    finish(cmd)
}

/// Waits for `child` with the watchdog, reading its piped outputs meanwhile.
pub fn wait(mut child: Child) -> Finished {
    let mut readers = Vec::new();
    for pipe in [
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    ] {
        readers.push(std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        }));
    }
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the child hung: killed after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut texts = readers.into_iter().map(|r| r.join().unwrap_or_default());
    Finished {
        status,
        stdout: texts.next().unwrap_or_default(),
        stderr: texts.next().unwrap_or_default(),
    }
}

/// A folder `vectors/t/decode.json` of four UTF-8 decode cases (all passing with the
/// reference) under a fresh scratch folder, which is returned.
pub fn vectors_folder(group: &str, name: &str) -> PathBuf {
    let dir = scratch(group, name);
    std::fs::create_dir_all(dir.join("vectors/t")).unwrap();
    std::fs::write(dir.join("vectors/t/decode.json"), DECODE).unwrap();
    dir
}

/// Four UTF-8 decode cases: #1 `41`, #2 `c0`, #3 `e282ac`, #4 `ff`.
pub const DECODE: &str = r#"{
  "schema": "decode",
  "encoding": "utf-8",
  "version": "0.0.1",
  "numberOfTests": 4,
  "header": ["test"],
  "notes": {},
  "testGroups": [
    {
      "comment": "four cases",
      "tests": [
        {"tcId": 1, "comment": "A", "flags": [], "input": "41", "output": [{"codepoint": "U+0041"}], "result": "valid"},
        {"tcId": 2, "comment": "C0", "flags": [], "input": "c0", "output": [{"error": "overlong", "offset": 0, "length": 1}], "result": "invalid"},
        {"tcId": 3, "comment": "euro", "flags": [], "input": "e282ac", "output": [{"codepoint": "U+20AC"}], "result": "valid"},
        {"tcId": 4, "comment": "FF", "flags": [], "input": "ff", "output": [{"error": "invalid-byte", "offset": 0, "length": 1}], "result": "invalid"}
      ]
    }
  ]
}
"#;

/// Makes a FIFO at `path`.
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}
