//! Where the report files go: the verdict is on
//! stdout before any file is written, and a file that cannot be written exits 2 after
//! it; a report path that is (or resolves to) an input, lies inside a `--vectors`
//! folder, or is shared by two reports is refused before anything runs; a symbolic link
//! at a report path is replaced, never written through; a FIFO as a report never blocks.

#[cfg(unix)]
use crate::common::process::mkfifo;
use crate::common::process::{conformance, run, vectors_folder, Finished};
use std::path::Path;

const SUMMARY: &str = "4 passed, 0 failed";

/// `conformance run --vectors vectors ARGS` in `dir` (the reference on four cases).
fn run_in(dir: &Path, args: &[&str]) -> Finished {
    run(conformance()
        .current_dir(dir)
        .args(["run", "--vectors", "vectors"])
        .args(args))
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or_default()
}

#[test]
fn the_verdict_comes_first_and_a_report_that_cannot_be_written_exits_2() {
    let dir = vectors_folder("report-output", "full");
    let out = run_in(&dir, &["--json", "/dev/full", "--junit", "r.xml"]);
    assert_eq!(out.code(), Some(2), "{}", out.stderr);
    // The whole verdict is on stdout, though the disk is full.
    assert_eq!(last_line(&out.stdout), SUMMARY, "{}", out.stdout);
    assert!(
        out.stderr
            .contains("cannot write the json report /dev/full: No space left on device"),
        "{}",
        out.stderr
    );
    // The other report is written all the same.
    assert!(
        out.stderr.contains("junit report written: r.xml"),
        "{}",
        out.stderr
    );
    assert!(std::fs::read_to_string(dir.join("r.xml"))
        .unwrap()
        .contains("<testsuite"));
}

#[test]
fn a_report_path_that_is_an_input_is_refused_before_the_run() {
    let dir = vectors_folder("report-output", "input");
    let vector = dir.join("vectors/t/decode.json");
    std::fs::copy(&vector, dir.join("v.json")).unwrap();
    std::fs::write(dir.join("xf.json"), r#"{"x": {"t/decode.json#1": "-"}}"#).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("v.json", dir.join("link.json")).unwrap();
    let before = |p: &str| std::fs::read(dir.join(p)).unwrap();
    let (v, xf) = (before("v.json"), before("xf.json"));
    for args in [
        &["--vectors", "v.json", "--json", "v.json"][..],
        &["--vectors", "v.json", "--html", "./v.json"],
        &[
            "--vectors",
            "v.json",
            "--expected-failures",
            "xf.json",
            "--junit",
            "xf.json",
        ],
        #[cfg(unix)]
        &["--vectors", "v.json", "--json", "link.json"],
    ] {
        let out = run(conformance().current_dir(&dir).arg("run").args(args));
        assert_eq!(out.code(), Some(2), "{args:?}: {}", out.stderr);
        assert!(
            out.stdout.is_empty(),
            "{args:?}: nothing runs: {}",
            out.stdout
        );
        assert!(
            out.stderr.contains("input of this run"),
            "{args:?}: {}",
            out.stderr
        );
        // Nothing was truncated or replaced.
        assert_eq!(before("v.json"), v, "{args:?}");
        assert_eq!(before("xf.json"), xf, "{args:?}");
    }
    #[cfg(unix)]
    assert!(std::fs::symlink_metadata(dir.join("link.json"))
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn a_report_path_inside_a_vectors_folder_is_refused() {
    let dir = vectors_folder("report-output", "inside");
    let vector = std::fs::read(dir.join("vectors/t/decode.json")).unwrap();
    for path in [
        "vectors/r.json",
        "vectors/t/decode.json",
        "vectors/t/../r.xml",
    ] {
        let out = run_in(&dir, &["--junit", path]);
        assert_eq!(out.code(), Some(2), "{path}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{path}: {}", out.stdout);
        assert!(
            out.stderr.contains("is inside the --vectors folder"),
            "{path}: {}",
            out.stderr
        );
    }
    assert!(!dir.join("vectors/r.json").exists());
    assert!(!dir.join("vectors/r.xml").exists());
    assert_eq!(
        std::fs::read(dir.join("vectors/t/decode.json")).unwrap(),
        vector
    );

    // A report an older runner left there is named for what it is.
    let out = run_in(&dir, &["--json", "r.json"]);
    assert_eq!(out.code(), Some(0), "{}", out.stderr);
    std::fs::copy(dir.join("r.json"), dir.join("vectors/old.json")).unwrap();
    let out = run_in(&dir, &[]);
    assert_eq!(out.code(), Some(2), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("old.json: a `conformance run --json` report"),
        "{}",
        out.stderr
    );
}

#[test]
fn two_reports_on_one_path_are_refused() {
    let dir = vectors_folder("report-output", "twice");
    for args in [
        &["--json", "r", "--junit", "r", "--html", "r"][..],
        &["--json", "r", "--html", "./r"],
        &["--json", "r", "--junit", "../twice/r"],
    ] {
        let out = run_in(&dir, args);
        assert_eq!(out.code(), Some(2), "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("one report per path"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(!dir.join("r").exists(), "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_symlink_at_a_report_path_is_replaced_not_followed() {
    let dir = vectors_folder("report-output", "symlink");
    std::fs::write(dir.join("precious.txt"), "keep me").unwrap();
    std::os::unix::fs::symlink("precious.txt", dir.join("r.json")).unwrap();
    std::os::unix::fs::symlink("missing.txt", dir.join("r.html")).unwrap();
    let out = run_in(&dir, &["--json", "r.json", "--html", "r.html"]);
    assert_eq!(out.code(), Some(0), "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.join("precious.txt")).unwrap(),
        "keep me"
    );
    assert!(!dir.join("missing.txt").exists());
    for report in ["r.json", "r.html"] {
        let meta = std::fs::symlink_metadata(dir.join(report)).unwrap();
        assert!(meta.file_type().is_file(), "{report}: {meta:?}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    assert_eq!(json["summary"]["passed"], 4);
}

#[cfg(unix)]
#[test]
fn a_fifo_as_a_report_never_blocks() {
    let dir = vectors_folder("report-output", "fifo");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    // Nobody reads it: an error after the verdict, not a hang.
    let out = run_in(&dir, &["--json", "fifo"]);
    assert_eq!(out.code(), Some(2), "{}", out.stderr);
    assert_eq!(last_line(&out.stdout), SUMMARY, "{}", out.stdout);
    assert!(
        out.stderr.contains("a FIFO that no process is reading"),
        "{}",
        out.stderr
    );
    // A reader gets the report through it; the FIFO stays a FIFO. The read end is open
    // before the run starts (O_NONBLOCK: the open does not wait for a writer), so the
    // runner finds a reader whenever it looks; it is read while the runner writes, until
    // the runner has ended and nothing is left in it.
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut read_end = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let runner = {
        let dir = dir.clone();
        std::thread::spawn(move || run_in(&dir, &["--json", "fifo"]))
    };
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let ended = runner.is_finished();
        match read_end.read(&mut buf) {
            Ok(n) if n > 0 => bytes.extend_from_slice(&buf[..n]),
            // Nothing there now (no writer yet, or one that has not written): read again
            // once the runner has ended, else wait for it a little.
            Ok(_) => {
                if ended {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Err(e) => panic!("reading the FIFO: {e}"),
        }
    }
    let out = runner.join().unwrap();
    assert_eq!(out.code(), Some(0), "{}", out.stderr);
    let text = String::from_utf8(bytes).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["summary"]["passed"], 4);
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_folder_as_a_report_is_refused_before_the_run() {
    let dir = vectors_folder("report-output", "folder");
    std::fs::create_dir(dir.join("out")).unwrap();
    let out = run_in(&dir, &["--html", "out"]);
    assert_eq!(out.code(), Some(2), "{}", out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert!(out.stderr.contains("it is a folder"), "{}", out.stderr);
}

#[cfg(unix)]
#[test]
fn devices_and_dev_stdout_are_streams_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = vectors_folder("report-output", "devices");
    // /dev/stdout: the JSON follows the terminal report on the same pipe.
    let out = run_in(&dir, &["--json", "/dev/stdout", "--html", "/dev/null"]);
    assert_eq!(out.code(), Some(0), "{}", out.stderr);
    let closing = format!("\n{SUMMARY}\n");
    let at = out.stdout.find(&closing).expect("the verdict") + closing.len();
    let json: serde_json::Value = serde_json::from_str(&out.stdout[at..]).unwrap();
    assert_eq!(json["summary"]["passed"], 4);
    for device in ["/dev/stdout", "/dev/null"] {
        let meta = std::fs::symlink_metadata(device).unwrap();
        assert!(
            meta.file_type().is_symlink() || meta.file_type().is_char_device(),
            "{device} was replaced: {meta:?}"
        );
    }
    // Nothing is created in /dev.
    let out = run_in(&dir, &["--json", "/dev/no-such-report"]);
    assert_eq!(out.code(), Some(2), "{}", out.stderr);
    assert!(out.stdout.is_empty());
    assert!(!Path::new("/dev/no-such-report").exists());
}
