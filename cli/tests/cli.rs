//! End-to-end runs of `cutf8`: each subcommand and each error path, snapshotted as exit
//! status, stdout and stderr.

mod common;

use common::{run_in, scratch, transcript, BIN};
use corrected_utf8::{corrected, utf8, Event};
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const MAGIC: [u8; 8] = corrected::MAGIC;

/// A directory with the files the tests read.
fn files(name: &str) -> PathBuf {
    let dir = scratch(name);
    let write = |file: &str, bytes: &[u8]| std::fs::write(dir.join(file), bytes).unwrap();
    let good = corrected::encode("Ï ok\n".chars().map(u32::from)).unwrap();
    write("good.txt", &[&MAGIC[..], &good].concat());
    write("bad.txt", b"line 1\r\nta\tb\x00\n\xFE\x80x");
    write("empty.txt", b"");
    write("mixed.bin", b"A\xC0\xAF\xFE\xFE\x80A\xE0\x80");
    write("c1.txt", "ok\n\u{85}next\n".as_bytes());
    write("text.txt", "héllo €\n".as_bytes());
    // Corrected UTF-8 with the magic number, `x`, then U+110000 (beyond UTF-8).
    let mut big = MAGIC.to_vec();
    big.extend(corrected::encode([0x78, 0x11_0000, 0x0A]).unwrap());
    write("beyond.txt", &big);
    dir
}

fn snap(dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> String {
    transcript(&run_in(dir, args, stdin), false)
}

/// For outputs that are bytes, not text: stdout as hex.
fn snap_bytes(dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> String {
    transcript(&run_in(dir, args, stdin), true)
}

#[test]
fn decode() {
    let d = files("decode");
    insta::assert_snapshot!("decode_text", snap(&d, &["decode", "mixed.bin"], b""));
    insta::assert_snapshot!(
        "decode_json",
        snap(&d, &["decode", "--json", "mixed.bin"], b"")
    );
    insta::assert_snapshot!(
        "decode_utf8_stdin",
        snap(&d, &["decode", "-e", "utf-8", "-"], b"\xC3\xA9\xED\xA0\x80")
    );
    insta::assert_snapshot!("decode_valid", snap(&d, &["decode"], b"\xC0\xAF\n"));
    insta::assert_snapshot!("decode_empty_json", snap(&d, &["decode", "--json"], b""));
}

#[test]
fn decode_errors() {
    let d = files("decode_errors");
    insta::assert_snapshot!(
        "decode_missing_file",
        snap(&d, &["decode", "nope.bin"], b"")
    );
    insta::assert_snapshot!("decode_directory", snap(&d, &["decode", "."], b""));
    insta::assert_snapshot!(
        "decode_unknown_encoding",
        snap(&d, &["decode", "--encoding", "utf8"], b"")
    );
    insta::assert_snapshot!(
        "decode_utf_inf_8",
        snap(&d, &["decode", "--encoding", "utf-inf-8"], b"")
    );
}

/// `decode --json` is the vectors' `output` form: parse it back and compare with the
/// codec's events, for both encodings, on input full of every kind of span.
#[test]
fn decode_json_round_trips_through_the_codec() {
    let d = scratch("decode_json_round_trip");
    let mut input = Vec::new();
    for i in 0..4096u32 {
        input.push((i.wrapping_mul(2_654_435_761) >> 13) as u8);
    }
    for (name, events) in [
        (
            "corrected-utf8",
            corrected::events(&input).collect::<Vec<_>>(),
        ),
        ("utf-8", utf8::events(&input).collect()),
    ] {
        let out = run_in(&d, &["decode", "--json", "-e", name], &input);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let json: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
        let want: Vec<serde_json::Value> = events
            .iter()
            .map(|e| match e {
                Event::CodePoint(cp) => serde_json::json!({ "codepoint": format!("U+{cp:04X}") }),
                Event::Error(e) => serde_json::json!({
                    "error": e.kind.as_str(), "offset": e.offset, "length": e.length
                }),
            })
            .collect();
        assert_eq!(json, want, "{name}");
    }
}

#[test]
fn encode() {
    let d = files("encode");
    insta::assert_snapshot!(
        "encode_corrected",
        snap(
            &d,
            &["encode", "U+00CF", "41", "0x10E7D", "u+8421109f"],
            b""
        )
    );
    insta::assert_snapshot!(
        "encode_utf8",
        snap(
            &d,
            &["encode", "--encoding", "utf-8", "U+00CF", "U+10FFFF"],
            b""
        )
    );
    insta::assert_snapshot!(
        "encode_raw",
        snap(&d, &["encode", "--raw", "U+00CF", "U+000A"], b"")
    );
    insta::assert_snapshot!(
        "encode_from_utf8",
        snap(&d, &["encode", "--from-utf8", "text.txt"], b"")
    );
    insta::assert_snapshot!(
        "encode_from_utf8_c1",
        snap(&d, &["encode", "--from-utf8", "c1.txt"], b"")
    );
}

#[test]
fn encode_errors() {
    let d = files("encode_errors");
    insta::assert_snapshot!(
        "encode_c1_control",
        snap(&d, &["encode", "41", "U+0085"], b"")
    );
    insta::assert_snapshot!("encode_surrogate", snap(&d, &["encode", "U+D800"], b""));
    insta::assert_snapshot!(
        "encode_above_u32",
        snap(&d, &["encode", "U+100000000"], b"")
    );
    insta::assert_snapshot!(
        "encode_utf8_out_of_range",
        snap(&d, &["encode", "-e", "utf-8", "U+110000"], b"")
    );
    insta::assert_snapshot!(
        "encode_bad_syntax",
        snap(&d, &["encode", "41", "U+ZZ"], b"")
    );
    insta::assert_snapshot!("encode_nothing", snap(&d, &["encode"], b""));
    insta::assert_snapshot!(
        "encode_both_sources",
        snap(&d, &["encode", "--from-utf8", "text.txt", "41"], b"")
    );
}

#[test]
fn check() {
    let d = files("check");
    insta::assert_snapshot!("check_good", snap(&d, &["check", "good.txt"], b""));
    insta::assert_snapshot!(
        "check_bad",
        snap(&d, &["check", "bad.txt", "good.txt"], b"")
    );
    insta::assert_snapshot!("check_stdin_warning", snap(&d, &["check"], b"no magic\n"));
    insta::assert_snapshot!(
        "check_strict",
        snap(&d, &["check", "--strict", "-"], b"no magic\n")
    );
    insta::assert_snapshot!("check_empty", snap(&d, &["check", "empty.txt"], b""));
}

#[test]
fn check_errors() {
    let d = files("check_errors");
    insta::assert_snapshot!(
        "check_unreadable_among_others",
        snap(&d, &["check", "nope.txt", "good.txt"], b"")
    );
    insta::assert_snapshot!("check_bad_flag", snap(&d, &["check", "--pedantic"], b""));
}

#[test]
fn explain() {
    let d = scratch("explain");
    insta::assert_snapshot!(
        "explain_all",
        snap(&d, &["explain", "41 C0 AF EF B7 9D FE 80 E0 80"], b"")
    );
    // Seed 004's examples.
    insta::assert_snapshot!(
        "explain_seed_004",
        snap(&d, &["explain", "F2 80 9F A2", "ED BF 80", "C1 81"], b"")
    );
    insta::assert_snapshot!(
        "explain_corrected_edges",
        snap(
            &d,
            &[
                "explain",
                "-e",
                "corrected-utf8",
                "EC BD 9F EC BD A0 FD BF BF BF BF BF"
            ],
            b""
        )
    );
    insta::assert_snapshot!(
        "explain_utf8_kinds",
        snap(
            &d,
            &[
                "explain",
                "--encoding=utf-8",
                "\\xE0\\x9F",
                "0xF4,0x90",
                "F5 FF C3"
            ],
            b""
        )
    );
}

#[test]
fn explain_errors() {
    let d = scratch("explain_errors");
    insta::assert_snapshot!("explain_bad_hex", snap(&d, &["explain", "41", "C0A"], b""));
    insta::assert_snapshot!("explain_not_hex", snap(&d, &["explain", "zz"], b""));
    insta::assert_snapshot!("explain_no_bytes", snap(&d, &["explain", ""], b""));
    insta::assert_snapshot!("explain_no_args", snap(&d, &["explain"], b""));
    insta::assert_snapshot!(
        "explain_utf_inf_8",
        snap(&d, &["explain", "-e", "utf-inf-8", "41"], b"")
    );
}

#[test]
fn transcode() {
    let d = files("transcode");
    let to_c = ["transcode", "--from", "utf-8", "--to", "corrected-utf8"];
    let to_u = ["transcode", "--from", "corrected-utf8", "--to", "utf-8"];
    insta::assert_snapshot!(
        "transcode_to_corrected",
        snap_bytes(&d, &to_c, "héllo €\n".as_bytes())
    );
    insta::assert_snapshot!(
        "transcode_to_corrected_magic",
        snap_bytes(&d, &[&to_c[..], &["--magic", "text.txt"]].concat(), b"")
    );
    insta::assert_snapshot!(
        "transcode_back_drops_magic",
        snap_bytes(&d, &[&to_u[..], &["good.txt"]].concat(), b"")
    );
    insta::assert_snapshot!(
        "transcode_replace",
        snap_bytes(
            &d,
            &[&to_c[..], &["--replace"]].concat(),
            b"a\xC2\x85b\xFFc"
        )
    );
    insta::assert_snapshot!(
        "transcode_back_replace",
        snap_bytes(&d, &[&to_u[..], &["--replace", "beyond.txt"]].concat(), b"")
    );
}

#[test]
fn transcode_round_trip_through_the_binary() {
    let d = scratch("transcode_round_trip");
    let text: String = (0..0x11_0000u32)
        .step_by(97)
        .filter_map(char::from_u32)
        .filter(|c| !('\u{80}'..='\u{9F}').contains(c))
        .collect();
    let c = run_in(
        &d,
        &["transcode", "--from", "utf-8", "--to", "corrected-utf8"],
        text.as_bytes(),
    );
    assert!(c.status.success(), "{}", transcript(&c, true));
    let cps: Vec<u32> = text.chars().map(|c| c as u32).collect();
    assert_eq!(corrected::decode(&c.stdout), Ok(cps));
    let u = run_in(
        &d,
        &["transcode", "--from", "corrected-utf8", "--to", "utf-8"],
        &c.stdout,
    );
    assert!(u.status.success());
    assert_eq!(u.stdout, text.as_bytes());
}

#[test]
fn transcode_errors() {
    let d = files("transcode_errors");
    let to_c = ["transcode", "--from", "utf-8", "--to", "corrected-utf8"];
    let to_u = ["transcode", "--from", "corrected-utf8", "--to", "utf-8"];
    // What comes before the error is written, then the message.
    insta::assert_snapshot!(
        "transcode_c1_control",
        snap_bytes(&d, &[&to_c[..], &["c1.txt"]].concat(), b"")
    );
    insta::assert_snapshot!(
        "transcode_invalid_utf8",
        snap_bytes(&d, &to_c, b"ok\xE2\x82")
    );
    insta::assert_snapshot!(
        "transcode_beyond_utf8",
        snap_bytes(&d, &[&to_u[..], &["beyond.txt"]].concat(), b"")
    );
    insta::assert_snapshot!(
        "transcode_reserved",
        snap_bytes(&d, &to_u, b"ab\xFE\x80\x80")
    );
    insta::assert_snapshot!(
        "transcode_magic_to_utf8",
        snap_bytes(&d, &[&to_u[..], &["--magic"]].concat(), b"")
    );
    insta::assert_snapshot!(
        "transcode_missing_to",
        snap_bytes(&d, &["transcode", "--from", "utf-8"], b"")
    );
    insta::assert_snapshot!(
        "transcode_utf_inf_8",
        snap_bytes(
            &d,
            &["transcode", "--from", "utf-inf-8", "--to", "utf-8"],
            b""
        )
    );
}

#[test]
fn usage() {
    let d = scratch("usage");
    insta::assert_snapshot!("usage_no_command", snap(&d, &[], b""));
    insta::assert_snapshot!("usage_unknown_command", snap(&d, &["frobnicate"], b""));
    let help = run_in(&d, &["--help"], b"");
    assert!(help.status.success());
    let help = String::from_utf8(help.stdout).unwrap();
    for command in ["decode", "encode", "check", "explain", "transcode"] {
        assert!(help.contains(command), "{command} missing from --help");
    }
}

/// `cutf8 … | head`: when the reader goes away, stop quietly with status 0, for every
/// command that can write a lot.
#[test]
fn broken_pipe_is_quiet() {
    let d = scratch("broken_pipe");
    let zeros = vec![0u8; 8 << 20];
    for args in [
        &["decode"][..],
        &["decode", "--json"],
        &["check"],
        &["transcode", "--from", "utf-8", "--to", "corrected-utf8"],
        &["encode", "--from-utf8", "-"],
    ] {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(&d)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = zeros.clone();
        let writer = std::thread::spawn(move || {
            use std::io::Write;
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
        assert_eq!((status.code(), stderr.as_str()), (Some(0), ""), "{args:?}");
    }
}
