//! `check` runs in constant memory: a hostile stream (`FE` and then nothing but
//! continuation bytes, one reserved span as long as the stream) is piped in from a
//! generator thread, never stored, and the child's peak RSS must stay under 16 MiB.
//!
//! The full 1 GiB of the issue runs by default: about 1.6 s at the test profile's
//! opt-level 2 on the project's 2-core machine.

mod common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

const LIMIT_KIB: i64 = 16 * 1024;

#[test]
fn check_of_a_1_gib_hostile_stream_stays_under_16_mib() {
    hostile_check(1 << 30);
}

fn hostile_check(total: u64) {
    let start = Instant::now();
    let mut child = Command::new(common::BIN)
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let generator = std::thread::spawn(move || {
        let mut block = vec![0x80u8; 1 << 16];
        block[0] = 0xFE;
        let mut left = total;
        while left > 0 {
            let n = left.min(block.len() as u64) as usize;
            stdin.write_all(&block[..n]).unwrap();
            block[0] = 0x80;
            left -= n as u64;
        }
        // Dropping stdin ends the stream.
    });
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    generator.join().unwrap();
    let elapsed = start.elapsed();
    let peak_kib = children_peak_rss_kib();
    eprintln!(
        "check of {} MiB: {:.2} s, children's peak RSS {} KiB",
        total >> 20,
        elapsed.as_secs_f64(),
        peak_kib
    );

    // One span however long, and the right end offset: the stream really went through.
    assert_eq!(
        stdout,
        format!(
            "<stdin>:1:1: warning: missing-magic (byte 0)\n\
             <stdin>:1:1: error: reserved (byte 0)\n\
             <stdin>:1:2: warning: missing-final-newline (byte {total})\n\
             1 file: 1 error, 2 warnings\n"
        )
    );
    assert_eq!((status.code(), stderr.as_str()), (Some(1), ""));
    assert!(
        peak_kib < LIMIT_KIB,
        "peak RSS {peak_kib} KiB is over {LIMIT_KIB} KiB"
    );
}

/// The largest peak RSS of any child this process has waited for, in KiB (Linux
/// reports `ru_maxrss` in KiB). This test binary runs no other child, so it is the
/// peak of the `check` above.
fn children_peak_rss_kib() -> i64 {
    // SAFETY: `getrusage` only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(rc, 0, "getrusage failed");
    usage.ru_maxrss as i64
}
