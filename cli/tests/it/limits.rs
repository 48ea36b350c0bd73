//! `cutf8`'s memory ceilings, proven: each command runs with its address space capped by
//! `setrlimit(RLIMIT_AS)` (set in the child between fork and exec), so a single
//! allocation past the cap fails the run (Rust aborts: exit 134), whatever the machine's
//! load or timing. The caps are the README's "Limits" table, which a test here reads.
//!
//! * `check DIR` over a tree holding 16 MiB of NUL bytes, 4 MiB of lone continuation
//!   bytes (a finding per byte each) and small files, in each format and with 1, the
//!   default and 64 jobs, under [`TREE_CAP_MIB`]: every finding is printed (counted
//!   here as the lines go by, never stored), in path order, with each file's summary.
//!   Before the tree's outputs were streamed, the 16 MiB file alone aborted the run
//!   (`memory allocation of 4076863488 bytes failed`) and 2 MiB took 1.1 GB.
//! * Every streaming command on 16 MiB of NUL bytes from standard input, under
//!   [`STREAM_CAP_MIB`].

// Unix only: `setrlimit` in a `pre_exec` hook, and the child's peak RSS from `wait4`.
#![cfg(unix)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};

/// The address space `check DIR` is given, in MiB.
const TREE_CAP_MIB: u64 = 64;
/// The address space a command reading one input is given, in MiB.
const STREAM_CAP_MIB: u64 = 16;

const NUL_BYTES: u64 = 16 << 20;
const CONTINUATION_BYTES: u64 = 4 << 20;

#[test]
fn the_readme_states_these_caps() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let row = |label: &str| {
        readme
            .lines()
            .find(|line| line.starts_with(&format!("| {label} |")))
            .unwrap_or_else(|| panic!("no row '{label}' in the README's Limits table"))
            .to_string()
    };
    assert!(
        row("memory of `check DIR`").contains(&format!("under {TREE_CAP_MIB} MiB")),
        "{}",
        row("memory of `check DIR`")
    );
    assert!(
        row("memory of one input").contains(&format!("under {STREAM_CAP_MIB} MiB")),
        "{}",
        row("memory of one input")
    );
}

/// A tree of hostile and ordinary files: `a.txt` (a tab), `b-nul.bin`, `c/cont.bin`,
/// `c/d.txt` (nothing to report but its missing magic number).
fn tree(name: &str) -> std::path::PathBuf {
    let dir = crate::common::scratch(name);
    let tree = dir.join("tree");
    std::fs::create_dir_all(tree.join("c")).unwrap();
    std::fs::write(tree.join("a.txt"), b"tab\there\n").unwrap();
    write_filled(&tree.join("b-nul.bin"), 0x00, NUL_BYTES);
    write_filled(&tree.join("c/cont.bin"), 0x80, CONTINUATION_BYTES);
    std::fs::write(tree.join("c/d.txt"), b"ok\n").unwrap();
    dir
}

fn write_filled(path: &Path, byte: u8, len: u64) {
    let mut file = std::fs::File::create(path).unwrap();
    let block = vec![byte; 1 << 20];
    for _ in 0..len >> 20 {
        file.write_all(&block).unwrap();
    }
}

/// The file a line of output is about, for counting.
const FILES: [&str; 4] = [
    "tree/a.txt",
    "tree/b-nul.bin",
    "tree/c/cont.bin",
    "tree/c/d.txt",
];

#[test]
fn check_tree_short_prints_every_finding_under_the_cap() {
    let dir = tree("limits_tree_short");
    let run = capped(
        &dir,
        &["check", "--format", "short", "tree"],
        TREE_CAP_MIB,
        |line| !line.contains(": error: ") && !line.contains(": warning: "),
    );
    // Every finding: each file's own lines, in path order (a file's lines all come
    // before the next file's, checked as they are counted).
    assert_eq!(run.order, FILES);
    assert_eq!(run.count["tree/a.txt"], 2 + 1); // missing-magic, c0-control, summary
    assert_eq!(run.count["tree/b-nul.bin"], NUL_BYTES + 2 + 1);
    assert_eq!(run.count["tree/c/cont.bin"], CONTINUATION_BYTES + 2 + 1);
    assert_eq!(run.count["tree/c/d.txt"], 1 + 1);
    assert_eq!(
        run.kept,
        [
            "tree/a.txt: 0 errors, 2 warnings".to_string(),
            format!("tree/b-nul.bin: {NUL_BYTES} errors, 2 warnings"),
            format!("tree/c/cont.bin: {CONTINUATION_BYTES} errors, 2 warnings"),
            "tree/c/d.txt: 0 errors, 1 warning".into(),
            format!(
                "4 files: {} errors, 7 warnings",
                NUL_BYTES + CONTINUATION_BYTES
            ),
        ]
    );
    run.assert_ok(1);
}

#[test]
fn check_tree_json_with_64_jobs_prints_every_finding_under_the_cap() {
    // More jobs than the cap leaves room for thread stacks: those that cannot start
    // are done without; the output is the same.
    let dir = tree("limits_tree_json");
    let run = capped(
        &dir,
        &["check", "--format", "json", "--jobs", "64", "tree"],
        TREE_CAP_MIB,
        |line| !line.contains("\"severity\":"),
    );
    assert_eq!(run.order, FILES);
    assert_eq!(run.count["tree/b-nul.bin"], NUL_BYTES + 2 + 1);
    assert_eq!(run.count["tree/c/cont.bin"], CONTINUATION_BYTES + 2 + 1);
    assert_eq!(
        run.kept.last().unwrap(),
        &format!(
            "{{\"files\":4,\"errors\":{},\"warnings\":7,\"unreadable\":0}}",
            NUL_BYTES + CONTINUATION_BYTES
        )
    );
    run.assert_ok(1);
}

#[test]
fn check_tree_human_in_one_job_summarizes_runs_under_the_cap() {
    let dir = tree("limits_tree_human");
    let run = capped(
        &dir,
        &["check", "--jobs", "1", "tree"],
        TREE_CAP_MIB,
        |line| line.starts_with("… and") || line.starts_with("tree/") || line.contains("files:"),
    );
    // The first 20 of each run are shown, the rest counted exactly.
    assert_eq!(
        run.kept,
        [
            "tree/a.txt: 0 errors, 2 warnings".to_string(),
            format!(
                "… and {} more nul errors in tree/b-nul.bin, bytes 20-{}",
                grouped(NUL_BYTES - 20),
                NUL_BYTES - 1
            ),
            format!("tree/b-nul.bin: {NUL_BYTES} errors, 2 warnings"),
            format!(
                "… and {} more unexpected-continuation errors in tree/c/cont.bin, bytes 20-{}",
                grouped(CONTINUATION_BYTES - 20),
                CONTINUATION_BYTES - 1
            ),
            format!("tree/c/cont.bin: {CONTINUATION_BYTES} errors, 2 warnings"),
            "tree/c/d.txt: 0 errors, 1 warning".into(),
            format!(
                "4 files: {} errors, 7 warnings",
                NUL_BYTES + CONTINUATION_BYTES
            ),
        ]
    );
    run.assert_ok(1);
}

#[test]
fn streaming_commands_of_16_mib_of_nul_stay_under_the_cap() {
    let dir = crate::common::scratch("limits_stream");
    let nul = dir.join("nul.bin");
    write_filled(&nul, 0x00, NUL_BYTES);
    let last_offset = (NUL_BYTES - 1).to_string();
    let n = NUL_BYTES;
    // Arguments; the last line (or the output's size, for output without lines); exit.
    let cases: [(&[&str], Last, i32); 7] = [
        (
            &["check"],
            Last::Line(format!("1 file: {n} errors, 2 warnings")),
            1,
        ),
        (
            &["check", "--format", "short"],
            Last::Line(format!("1 file: {n} errors, 2 warnings")),
            1,
        ),
        (
            &["check", "--format", "json"],
            Last::Line(format!(
                "{{\"files\":1,\"errors\":{n},\"warnings\":2,\"unreadable\":0}}"
            )),
            1,
        ),
        (&["decode"], Last::Line(format!("{last_offset}: U+0000")), 0),
        (&["decode", "--json"], Last::Line("]".into()), 0),
        // NUL bytes as they are; `00 ` per byte, the last space a newline.
        (
            &["transcode", "--from", "utf-8", "--to", "utf-inf-8"],
            Last::Bytes(n),
            0,
        ),
        (&["encode", "--from-utf8", "-"], Last::Bytes(3 * n), 0),
    ];
    for (args, last, code) in cases {
        let run = capped_stdin(&dir, args, &nul, STREAM_CAP_MIB);
        match last {
            Last::Line(line) => assert_eq!(run.last, line, "{args:?}"),
            Last::Bytes(bytes) => assert_eq!(run.bytes, bytes, "{args:?}"),
        }
        run.assert_ok(code);
    }
}

enum Last {
    Line(String),
    Bytes(u64),
}

/// `12,345,678`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(d);
    }
    text
}

/// What a capped run printed, counted as it went by.
struct Capped {
    args: String,
    /// Lines that name each of [`FILES`].
    count: BTreeMap<&'static str, u64>,
    /// The files in the order their lines came; a file's lines after another file's
    /// came would show it twice.
    order: Vec<&'static str>,
    /// The lines `keep` chose, and the last line.
    kept: Vec<String>,
    last: String,
    bytes: u64,
    code: Option<i32>,
    stderr: String,
    peak_kib: i64,
}

impl Capped {
    fn assert_ok(&self, code: i32) {
        assert_eq!(
            (self.code, self.stderr.as_str()),
            (Some(code), ""),
            "{} (peak RSS {} KiB)",
            self.args,
            self.peak_kib
        );
    }
}

/// Runs `cutf8 ARGS` in `dir` with its address space capped at `cap_mib`; counts its
/// lines by file and keeps those `keep` chooses.
fn capped(dir: &Path, args: &[&str], cap_mib: u64, keep: impl Fn(&str) -> bool) -> Capped {
    let mut command = capped_command(dir, args, cap_mib);
    command.stdin(Stdio::null());
    read_run(command, args, Some(&keep))
}

/// [`capped`] with `input` as standard input, keeping only the last line.
fn capped_stdin(dir: &Path, args: &[&str], input: &Path, cap_mib: u64) -> Capped {
    let mut command = capped_command(dir, args, cap_mib);
    command.stdin(std::fs::File::open(input).unwrap());
    read_run(command, args, None)
}

fn capped_command(dir: &Path, args: &[&str], cap_mib: u64) -> Command {
    let mut command = Command::new(crate::common::BIN);
    command.args(args).current_dir(dir);
    let cap = (cap_mib << 20) as libc::rlim_t;
    // SAFETY: between fork and exec the hook only calls `setrlimit`, which is
    // async-signal-safe, with a struct on its own stack; it allocates nothing.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: cap,
                rlim_max: cap,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        })
    };
    command
}

fn read_run(mut command: Command, args: &[&str], keep: Option<&dyn Fn(&str) -> bool>) -> Capped {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr_pipe = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        stderr_pipe.read_to_string(&mut text).unwrap();
        text
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut run = Capped {
        args: args.join(" "),
        count: BTreeMap::new(),
        order: Vec::new(),
        kept: Vec::new(),
        last: String::new(),
        bytes: 0,
        code: None,
        stderr: String::new(),
        peak_kib: 0,
    };
    let mut buf = vec![0u8; 1 << 16];
    let mut line = Vec::new();
    loop {
        let n = stdout.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        run.bytes += n as u64;
        for piece in buf[..n].split_inclusive(|&b| b == b'\n') {
            // Lines are kept whole up to a bound: output without newlines stays small.
            let room = 4096usize.saturating_sub(line.len());
            line.extend_from_slice(&piece[..piece.len().min(room)]);
            if piece.last() == Some(&b'\n') {
                line.pop_if(|b| *b == b'\n');
                let text = String::from_utf8_lossy(&line);
                if let Some(file) = keep.is_some().then(|| file_of(&text)).flatten() {
                    *run.count.entry(file).or_default() += 1;
                    if run.order.last() != Some(&file) {
                        run.order.push(file);
                    }
                }
                if keep.is_some_and(|keep| keep(&text)) {
                    run.kept.push(text.to_string());
                }
                run.last = text.into_owned();
                line.clear();
            }
        }
    }
    let (code, peak_kib) = crate::common::wait_with_peak_rss(&mut child);
    run.code = code;
    run.peak_kib = peak_kib;
    run.stderr = stderr.join().unwrap();
    eprintln!("{}: peak RSS {peak_kib} KiB", run.args);
    run
}

/// The file of [`FILES`] a line names (the longest match: `tree/c/d.txt`, not a
/// prefix of another), if any.
fn file_of(line: &str) -> Option<&'static str> {
    FILES
        .iter()
        .copied()
        .filter(|f| {
            line.starts_with(&format!("{f}:")) || line.contains(&format!("\"file\":\"{f}\""))
        })
        .max_by_key(|f| f.len())
}
