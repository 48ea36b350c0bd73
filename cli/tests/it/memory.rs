//! `cutf8` runs in constant memory on hostile streams: each is piped in from a generator
//! thread, never stored, its output counted as it goes by, and the child's own peak RSS
//! must stay under 16 MiB.
//!
//! * `check` of 1 GiB of `FE` and then nothing but continuation bytes: one reserved span
//!   as long as the stream, a warning with its extent (about 1.6 s at the test profile's
//!   opt-level 2 on the project's 2-core machine).
//! * `decode --encoding utf-inf-8` of `FF` and endless `B4` (a length that would never
//!   end), of `FF AF` and endless storage-like bytes, and of codes of exactly the code
//!   length limit back to back (the most a UTF-∞-8 decoder may hold). The first two are
//!   20 MiB of input each, more than the limit on RSS, so a decoder that kept the bytes
//!   (or, for the second, its output of a line per byte) would fail.
//! * `transcode --from utf-inf-8` of those codes of the limit's length.

// Unix only: `pre_exec`, and the child's peak RSS from `wait4`.
#![cfg(unix)]

use crate::common::{self_rss_kib, wait_with_peak_rss};
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::Instant;

const LIMIT_KIB: i64 = 16 * 1024;
const BLOCK: usize = 1 << 16;

#[test]
fn check_of_a_1_gib_hostile_stream_stays_under_16_mib() {
    let total: u64 = 1 << 30;
    let run = hostile(
        &["check", "--format", "short", "-"],
        total,
        |offset, block| {
            block.fill(0x80);
            if offset == 0 {
                block[0] = 0xFE;
            }
        },
    );
    // One span however long, and the right end offset: the stream really went through.
    assert_eq!(
        run.first,
        [
            "<stdin>:1:1: warning: missing-magic (byte 0)".to_string(),
            format!("<stdin>:1:1: warning: reserved (bytes 0-{})", total - 1),
            format!("<stdin>:1:2: warning: missing-final-newline (byte {total})"),
            "1 file: 0 errors, 3 warnings".into(),
        ]
    );
    // Warnings only: a reserved span is not an error.
    assert_eq!((run.lines, run.code, run.stderr.as_str()), (4, Some(0), ""));
    run.assert_under_limit();
}

#[test]
fn utf_inf_8_ff_then_endless_b4_stays_under_16_mib() {
    let total: u64 = 20 << 20;
    let run = hostile(
        &["decode", "--encoding", "utf-inf-8", "-"],
        total,
        |offset, block| {
            block.fill(0xB4);
            if offset == 0 {
                block[0] = 0xFF;
            }
        },
    );
    // After 5 `B4`s the length promises more than the limit (docs/semantics.md §4). The
    // over-long code is skipped as one `limit-exceeded` span, however far it goes (here
    // to the end of the input); what is asked here holds whatever the span's extent:
    // it starts at 0 and the events that follow it cover the rest of the stream.
    let (offset, length) = span(&run.first[0], "limit-exceeded");
    assert_eq!(offset, 0);
    assert!(length >= 6, "{}", run.first[0]);
    let (offset, length) = span(&run.last, "");
    assert_eq!(
        offset + length,
        total,
        "the events reach the end: {}",
        run.last
    );
    assert!(run.lines <= 1 + (total - length), "{} lines", run.lines);
    assert_eq!((run.code, run.stderr.as_str()), (Some(1), ""));
    run.assert_under_limit();
}

#[test]
fn utf_inf_8_ff_length_then_endless_storage_stays_under_16_mib() {
    let total: u64 = 20 << 20;
    let run = hostile(
        &["decode", "--encoding", "utf-inf-8", "-"],
        total,
        |offset, block| {
            block.fill(0xBF);
            if offset == 0 {
                // NME 15: a code of 33 digits in 22 storage bytes, then bytes like them.
                block[..2].copy_from_slice(&[0xFF, 0xAF]);
            }
        },
    );
    assert_eq!(
        run.first[..2],
        [
            format!("0: U+{}", "F".repeat(33)),
            "24: error: unexpected-continuation (1 byte)".into()
        ]
    );
    assert_eq!(
        run.last,
        format!("{}: error: unexpected-continuation (1 byte)", total - 1)
    );
    assert_eq!(run.lines, 1 + (total - 24));
    assert_eq!((run.code, run.stderr.as_str()), (Some(1), ""));
    run.assert_under_limit();
}

#[test]
fn utf_inf_8_codes_of_the_length_limit_stay_under_16_mib() {
    const CODE: u64 = 1 << 16;
    const DIGITS: usize = 98_289;
    let total: u64 = 64 << 20;
    // Each block is one whole code.
    let run = hostile(
        &["decode", "--encoding", "utf-inf-8", "-"],
        total,
        limit_code,
    );
    let line = |offset: u64| format!("{offset}: U+{}", "F".repeat(DIGITS));
    assert_eq!(run.first[0], line(0));
    assert_eq!(run.last, line(total - CODE));
    assert_eq!(run.lines, total / CODE);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    run.assert_under_limit();
}

#[test]
fn utf_inf_8_transcode_of_codes_of_the_length_limit_stays_under_16_mib() {
    let total: u64 = 64 << 20;
    let args = ["transcode", "--from", "utf-inf-8", "--to", "utf-inf-8", "-"];
    let run = hostile(&args, total, limit_code);
    // Well-formed codes come out as they went in.
    assert_eq!((run.bytes, run.lines), (total, 0));
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    run.assert_under_limit();
}

/// The offset and length of a `decode` error line, `OFFSET: error: KIND (N byte[s])`,
/// whose kind starts with `kind`.
fn span(line: &str, kind: &str) -> (u64, u64) {
    let parsed = line.split_once(": error: ").and_then(|(offset, rest)| {
        let (name, length) = rest.strip_suffix(')')?.split_once(" (")?;
        let length = length.split_once(' ')?.0;
        name.starts_with(kind)
            .then(|| Some((offset.parse().ok()?, length.parse().ok()?)))?
    });
    parsed.unwrap_or_else(|| panic!("not a {kind} span: {line}"))
}

/// Fills a block with one code of the default length limit, 65 536 bytes: `FF`, 4 `B4`,
/// NME 0x17FDF in 5 digits (so NUD 98 289), then 65 526 storage bytes `BF`, every digit
/// F.
fn limit_code(_offset: u64, block: &mut [u8]) {
    const HEADER: [u8; 10] = [0xFF, 0xB4, 0xB4, 0xB4, 0xB4, 0xA1, 0xA7, 0xAF, 0xAD, 0xAF];
    assert_eq!(block.len(), 1 << 16);
    block.fill(0xBF);
    block[..HEADER.len()].copy_from_slice(&HEADER);
}

/// What a run printed, kept small: its size, the line count, the first lines and the
/// last.
struct Run {
    name: String,
    bytes: u64,
    /// This process's resident memory when it forked the child (which counts in the
    /// child's peak).
    parent_kib: i64,
    lines: u64,
    first: Vec<String>,
    last: String,
    code: Option<i32>,
    stderr: String,
    peak_kib: i64,
}

impl Run {
    fn assert_under_limit(&self) {
        assert!(
            self.peak_kib < LIMIT_KIB,
            "{}: peak RSS {} KiB is over {LIMIT_KIB} KiB (the test process had {} KiB when \
             it forked the child)",
            self.name,
            self.peak_kib,
            self.parent_kib
        );
    }
}

/// Pipes `total` bytes into `cutf8 ARGS`, block by block as `fill(offset, block)` makes
/// them, and reads its output as it comes.
fn hostile<F>(args: &[&str], total: u64, fill: F) -> Run
where
    F: Fn(u64, &mut [u8]) + Send + 'static,
{
    let start = Instant::now();
    let mut command = Command::new(crate::common::BIN);
    // Linux counts in a child's peak RSS the memory of the process image it replaced:
    // spawned the default way (posix_spawn, sharing this process's memory until exec),
    // that is this process's peak so far, which other tests (or a panic's backtrace)
    // can make anything; forked, it is a copy of what this process holds now, a few MiB.
    // A `pre_exec` hook makes std fork.
    // SAFETY: the hook does nothing, so it is safe between fork and exec.
    unsafe { command.pre_exec(|| Ok(())) };
    let parent_kib = self_rss_kib();
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let generator = std::thread::spawn(move || {
        let mut block = vec![0u8; BLOCK];
        let mut offset = 0;
        while offset < total {
            let n = (total - offset).min(BLOCK as u64) as usize;
            fill(offset, &mut block[..n]);
            stdin.write_all(&block[..n]).unwrap();
            offset += n as u64;
        }
        // Dropping stdin ends the stream.
    });
    let mut stderr_pipe = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        stderr_pipe.read_to_string(&mut text).unwrap();
        text
    });

    let mut stdout = child.stdout.take().unwrap();
    let (mut bytes, mut lines, mut first, mut current) = (0u64, 0u64, Vec::new(), Vec::new());
    let mut last = Vec::new();
    // Small, so that this process stays small for the next child it forks.
    let mut buf = vec![0u8; BLOCK];
    loop {
        let n = stdout.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        bytes += n as u64;
        for piece in buf[..n].split_inclusive(|&b| b == b'\n') {
            // Lines are kept whole up to a bound: output without newlines stays small too.
            let room = (1usize << 18).saturating_sub(current.len());
            current.extend_from_slice(&piece[..piece.len().min(room)]);
            if piece.last() == Some(&b'\n') && current.last() != Some(&b'\n') {
                current.push(b'\n');
            }
            if current.last() == Some(&b'\n') {
                current.pop();
                lines += 1;
                if first.len() < 10 {
                    first.push(String::from_utf8_lossy(&current).into_owned());
                }
                std::mem::swap(&mut last, &mut current);
                current.clear();
            }
        }
    }
    let (code, peak_kib) = wait_with_peak_rss(&mut child);
    generator.join().unwrap();
    let name = args.join(" ");
    eprintln!(
        "{name} of {} MiB: {:.2} s, {} MiB ({lines} lines) out, peak RSS {peak_kib} KiB \
         (test process at fork: {parent_kib} KiB)",
        total >> 20,
        start.elapsed().as_secs_f64(),
        bytes >> 20,
    );
    Run {
        name,
        bytes,
        parent_kib,
        lines,
        first,
        last: String::from_utf8_lossy(&last).into_owned(),
        code,
        stderr: stderr.join().unwrap(),
        peak_kib,
    }
}
