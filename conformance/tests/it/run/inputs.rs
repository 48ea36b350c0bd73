//! Inputs that never end or never stop branching: `--vectors`
//! and `--expected-failures` read only regular files, each under a cap named in the
//! error (vector files 1 GiB, expected-failures 64 MiB), and a folder of symbolic links
//! back to itself is walked once. Each run is under `ulimit -v` and a watchdog, so that a
//! runner that reads `/dev/zero` whole or walks a loop fails the test instead of the
//! machine.

#[cfg(unix)]
use crate::common::process::mkfifo;
use crate::common::process::{run, vectors_folder, with_memory_cap};

/// A memory cap far above what these runs need (a debug build reading four cases) and
/// far below what reading an endless input, or walking a loop, takes.
const CAP_KIB: u64 = 1 << 20;

/// `conformance run ARGS` in `dir` under the memory cap.
fn capped(dir: &std::path::Path, args: &[&str]) -> crate::common::process::Finished {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    run(with_memory_cap(CAP_KIB, &all).current_dir(dir))
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_in_vectors_is_walked_once() {
    let dir = vectors_folder("inputs", "loop");
    let t = dir.join("vectors/t");
    // Two links to the folder itself and one to its parent: a walk that follows them
    // without remembering where it has been branches three ways at every level.
    std::os::unix::fs::symlink(".", t.join("a")).unwrap();
    std::os::unix::fs::symlink(".", t.join("b")).unwrap();
    std::os::unix::fs::symlink("..", t.join("up")).unwrap();
    let out = capped(&dir, &["--vectors", "vectors"]);
    assert_eq!(out.code(), Some(0), "{}", out.stderr);
    // The one file, once.
    assert!(
        out.stdout
            .starts_with("conformance run: 1 vector file(s), 4 case(s)"),
        "{}",
        out.stdout
    );
    assert_eq!(out.stdout.lines().last(), Some("4 passed, 0 failed"));
}

#[cfg(unix)]
#[test]
fn inputs_that_never_end_are_refused() {
    let dir = vectors_folder("inputs", "endless");
    mkfifo(&dir.join("fifo"));
    mkfifo(&dir.join("vectors/t/fifo.json"));
    for (args, what) in [
        (&["--vectors", "/dev/zero"][..], "is a character device"),
        (&["--vectors", "fifo"], "is a FIFO"),
        (&["--vectors", "vectors"], "fifo.json: is a FIFO"),
        (
            &["--expected-failures", "/dev/zero"],
            "is a character device",
        ),
        (&["--expected-failures", "fifo"], "is a FIFO"),
    ] {
        let out = capped(&dir, args);
        assert_eq!(out.code(), Some(2), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(what), "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{args:?}: nothing runs");
    }
}

#[test]
fn inputs_over_their_cap_are_refused_naming_it() {
    let dir = vectors_folder("inputs", "large");
    // Sparse files one byte over each cap: nothing is written to disk, and a runner that
    // reads them whole needs more memory than the cap allows.
    let sparse = |name: &str, len: u64| {
        let f = std::fs::File::create(dir.join(name)).unwrap();
        f.set_len(len).unwrap();
    };
    sparse("huge.json", (1 << 30) + 1);
    sparse("xf.json", (64 << 20) + 1);
    let out = capped(&dir, &["--vectors", "huge.json"]);
    assert_eq!(out.code(), Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "huge.json: larger than 1073741824 bytes (1 GiB), the most a vector file may hold"
        ),
        "{}",
        out.stderr
    );
    let out = capped(
        &dir,
        &["--vectors", "vectors", "--expected-failures", "xf.json"],
    );
    assert_eq!(out.code(), Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "xf.json: larger than 67108864 bytes (64 MiB), the most an expected-failures file may hold"
        ),
        "{}",
        out.stderr
    );
}
