//! End-to-end runs of `cutf8`: each subcommand and each error path, snapshotted as exit
//! status, stdout and stderr.

use crate::common::inputs::{drafts, unhex, DRAFT_EXAMPLES, INF_ERRORS};
use crate::common::{run_in, run_with, scratch, transcript};
use corrected_utf8::{corrected, utf8, utf_inf8, BigCodePoint, Event};
use std::path::PathBuf;

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
    write("drafts.bin", &drafts());
    write("inf-errors.bin", INF_ERRORS);
    // UTF-∞-8: `ok`, U+800000000000000000 (beyond both others), `!`, a newline.
    let mut huge = b"ok".to_vec();
    huge.extend(unhex("FF A0 A0 80 80 80 80 80 80 80 80 80 80 80"));
    huge.extend_from_slice(b"!\n");
    write("huge.inf", &huge);
    // UTF-∞-8: U+FFFFFFFFF, beyond Corrected UTF-8's U+8421109F.
    write("fe.inf", &unhex("FE BF BF BF BF BF BF 0A"));
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
    // Reserved spans but no error: shown as themselves, and the decode succeeds (exit 0).
    let reserved = b"A\xFE\xFE\x80B\xFF";
    insta::assert_snapshot!("decode_reserved", snap(&d, &["decode"], reserved));
    insta::assert_snapshot!(
        "decode_reserved_json",
        snap(&d, &["decode", "--json"], reserved)
    );
}

#[test]
fn decode_utf_inf_8() {
    let d = files("decode_utf_inf_8");
    let inf = ["decode", "--encoding", "utf-inf-8"];
    insta::assert_snapshot!(
        "decode_utf_inf_8_drafts",
        snap(&d, &[&inf[..], &["drafts.bin"]].concat(), b"")
    );
    insta::assert_snapshot!(
        "decode_utf_inf_8_drafts_json",
        snap(&d, &[&inf[..], &["--json", "-"]].concat(), &drafts())
    );
    insta::assert_snapshot!(
        "decode_utf_inf_8_errors",
        snap(&d, &[&inf[..], &["inf-errors.bin"]].concat(), b"")
    );
    insta::assert_snapshot!(
        "decode_utf_inf_8_errors_json",
        snap(&d, &[&inf[..], &["--json", "inf-errors.bin"]].concat(), b"")
    );
    // The 14-byte code is over a 13-byte limit once `FF A0` says how long it is.
    insta::assert_snapshot!(
        "decode_utf_inf_8_max_code_len",
        snap(
            &d,
            &[&inf[..], &["--max-code-len", "13", "huge.inf"]].concat(),
            b""
        )
    );
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
        "decode_max_code_len_without_utf_inf_8",
        snap(&d, &["decode", "--max-code-len", "13", "mixed.bin"], b"")
    );
    insta::assert_snapshot!(
        "decode_max_code_len_zero",
        snap(
            &d,
            &[
                "decode",
                "-e",
                "utf-inf-8",
                "--max-code-len",
                "0",
                "mixed.bin"
            ],
            b""
        )
    );
}

/// `decode --json` is the vectors' `output` form: parse it back and compare with the
/// codec's events, for every encoding, on input full of every kind of span.
#[test]
fn decode_json_round_trips_through_the_codec() {
    let d = scratch("decode_json_round_trip");
    let mut input = Vec::new();
    for i in 0..4096u32 {
        input.push((i.wrapping_mul(2_654_435_761) >> 13) as u8);
    }
    // The codec's events as the vectors write them: `U+` and at least 4 uppercase digits.
    fn expected<C: std::fmt::UpperHex>(
        events: impl Iterator<Item = Event<C>>,
    ) -> Vec<serde_json::Value> {
        events
            .map(|e| match e {
                Event::CodePoint(cp) => serde_json::json!({ "codepoint": format!("U+{cp:04X}") }),
                Event::Error(e) => serde_json::json!({
                    "error": e.kind.as_str(), "offset": e.offset, "length": e.length
                }),
                Event::Reserved(r) => serde_json::json!({
                    "reserved": true, "offset": r.offset, "length": r.length
                }),
            })
            .collect()
    }
    // Big UTF-∞-8 codes among the noise.
    for cp in ["U+80000000", "U+7FFFFFFFFFFFFFFFFF", "U+800000000000000000"] {
        let cp: BigCodePoint = cp.parse().unwrap();
        input.extend(utf_inf8::encode([&cp]).unwrap());
    }
    for (name, want) in [
        ("corrected-utf8", expected(corrected::events(&input))),
        ("utf-8", expected(utf8::events(&input))),
        ("utf-inf-8", expected(utf_inf8::events(&input))),
    ] {
        let out = run_in(&d, &["decode", "--json", "-e", name], &input);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let json: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
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
fn encode_utf_inf_8() {
    let d = files("encode_utf_inf_8");
    insta::assert_snapshot!(
        "encode_utf_inf_8",
        snap(
            &d,
            &[
                "encode",
                "-e",
                "utf-inf-8",
                "U+0041",
                "U+110000",
                "0x80000000",
                "U+800000000000000000"
            ],
            b""
        )
    );
    insta::assert_snapshot!(
        "encode_utf_inf_8_from_utf8",
        snap(
            &d,
            &["encode", "-e", "utf-inf-8", "--from-utf8", "text.txt"],
            b""
        )
    );
    // Every draft example, each both ways through the binary.
    for (codepoint, bytes) in DRAFT_EXAMPLES {
        let out = run_in(&d, &["encode", "-e", "utf-inf-8", codepoint], b"");
        assert_eq!(
            (out.status.code(), String::from_utf8(out.stdout).unwrap()),
            (Some(0), format!("{bytes}\n")),
            "{codepoint}"
        );
        let out = run_in(&d, &["decode", "-e", "utf-inf-8"], &unhex(bytes));
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            format!("0: {codepoint}\n")
        );
    }
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
        "encode_utf_inf_8_surrogate",
        snap(&d, &["encode", "-e", "utf-inf-8", "41", "U+DFFF"], b"")
    );
    insta::assert_snapshot!(
        "encode_big_to_utf8",
        snap(&d, &["encode", "-e", "utf-8", "U+800000000000000000"], b"")
    );
    let a51 = format!("U+{}", "A".repeat(51));
    insta::assert_snapshot!(
        "encode_huge_is_abbreviated",
        snap(&d, &["encode", &a51], b"")
    );
    insta::assert_snapshot!(
        "encode_both_sources",
        snap(&d, &["encode", "--from-utf8", "text.txt", "41"], b"")
    );
}

#[test]
fn check() {
    let d = files("check");
    insta::assert_snapshot!(
        "check_good",
        snap(&d, &["check", "--format", "short", "good.txt"], b"")
    );
    insta::assert_snapshot!(
        "check_bad",
        snap(
            &d,
            &["check", "--format", "short", "bad.txt", "good.txt"],
            b""
        )
    );
    insta::assert_snapshot!(
        "check_stdin_warning",
        snap(&d, &["check", "--format", "short"], b"no magic\n")
    );
    insta::assert_snapshot!(
        "check_strict",
        snap(
            &d,
            &["check", "--format", "short", "--strict", "-"],
            b"no magic\n"
        )
    );
    insta::assert_snapshot!(
        "check_empty",
        snap(&d, &["check", "--format", "short", "empty.txt"], b"")
    );
    // Reserved spans are warnings: the document stays valid, unless `--strict`.
    let reserved = [&MAGIC[..], b"a\xFE\x80\x80b\xFFc\n"].concat();
    insta::assert_snapshot!(
        "check_reserved",
        snap(&d, &["check", "--format", "short"], &reserved)
    );
    insta::assert_snapshot!(
        "check_reserved_strict",
        snap(&d, &["check", "--format", "short", "--strict"], &reserved)
    );
    // The default: each finding on its line, with a caret, as rustc shows errors; and
    // JSON lines.
    insta::assert_snapshot!(
        "check_bad_human",
        snap(&d, &["check", "bad.txt", "good.txt"], b"")
    );
    insta::assert_snapshot!("check_reserved_human", snap(&d, &["check"], &reserved));
    insta::assert_snapshot!(
        "check_bad_json",
        snap(
            &d,
            &["check", "--format", "json", "bad.txt", "good.txt"],
            b""
        )
    );
}

#[test]
fn check_tree() {
    let d = files("check_tree");
    let tree = d.join("tree");
    std::fs::create_dir_all(tree.join("sub")).unwrap();
    let write = |file: &str, bytes: &[u8]| std::fs::write(tree.join(file), bytes).unwrap();
    write(".gitignore", b"ignored.txt\n");
    write("ignored.txt", b"\x00");
    write(".hidden", b"\x00");
    write("b.txt", b"no magic\n");
    write("a.txt", b"line 1\r\nta\tb\x00\n\xFE\x80x");
    write("sub/c.txt", &[&MAGIC[..], b"ok\n"].concat());
    // In path order whatever finishes first; hidden and ignored files are left out.
    insta::assert_snapshot!(
        "check_tree",
        snap(&d, &["check", "--format", "short", "tree", "good.txt"], b"")
    );
    insta::assert_snapshot!(
        "check_tree_json",
        snap(&d, &["check", "--format", "json", "tree/sub"], b"")
    );
    // One job or many, in this thread or in workers: the same output.
    let args = ["check", "--format", "short", "tree", "good.txt"];
    let many = run_in(&d, &args, b"");
    for jobs in ["1", "3", "64"] {
        let one = run_in(&d, &[&args[..], &["--jobs", jobs]].concat(), b"");
        assert_eq!(
            transcript(&one, false),
            transcript(&many, false),
            "--jobs {jobs}"
        );
    }
}

/// The default format shows 20 findings of a run (one kind, on one line or on lines
/// in a row, or with nothing else between them) and summarizes the rest, exactly
/// counted, before the next thing shown; `--format short` lists every one.
#[test]
fn check_summarizes_runs() {
    let d = scratch("check_summarizes_runs");
    let mut text = MAGIC.to_vec();
    // 30 NUL bytes on one line: 20 shown, then 10 summarized when the tab is shown.
    text.extend_from_slice(&[0; 30]);
    text.extend_from_slice(b"\t\n");
    // A tab on each of 23 lines in a row: one run with the tab above (24 in all).
    for _ in 0..23 {
        text.extend_from_slice(b"a\tb\n");
    }
    // NUL bytes on every other line, nothing else between them: one run, 20 + 1.
    for _ in 0..21 {
        text.extend_from_slice(b"\x00\n\n");
    }
    text.extend_from_slice(b"end\n");
    std::fs::write(d.join("runs.txt"), &text).unwrap();
    let human = run_in(&d, &["check", "runs.txt"], b"");
    let human = String::from_utf8(human.stdout).unwrap();
    let summaries: Vec<&str> = human.lines().filter(|l| l.starts_with('…')).collect();
    assert_eq!(
        summaries,
        [
            "… and 10 more nul errors in runs.txt, bytes 28-37",
            "… and 4 more c0-control warnings in runs.txt, bytes 117-129",
            "… and 1 more nul error in runs.txt, byte 192",
        ]
    );
    // 20 + 20 + 20 findings shown, each with its ` --> ` line.
    assert_eq!(human.matches(" --> ").count(), 60);
    let short = run_in(&d, &["check", "--format", "short", "runs.txt"], b"");
    let short = String::from_utf8(short.stdout).unwrap();
    assert_eq!(short.lines().count(), 30 + 24 + 21 + 1);
    assert!(
        human.ends_with("1 file: 51 errors, 24 warnings\n"),
        "{human}"
    );
}

#[test]
fn check_errors() {
    let d = files("check_errors");
    insta::assert_snapshot!(
        "check_unreadable_among_others",
        snap(
            &d,
            &["check", "--format", "short", "nope.txt", "good.txt"],
            b""
        )
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
    // Reserved spans are counted apart from errors.
    insta::assert_snapshot!(
        "explain_reserved",
        snap(
            &d,
            &["explain", "-e", "corrected-utf8", "41 FE FE 80 42 FF C3"],
            b""
        )
    );
    // The examples of *All you need to know about UTF-8 decoding*.
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
        "explain_two_encodings",
        snap(
            &d,
            &["explain", "-e", "utf-8,corrected-utf8", "C0 AF ED A0 80"],
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
fn explain_utf_inf_8() {
    let d = scratch("explain_utf_inf_8");
    // The three encodings on the example: U+110000 and an overlong length.
    insta::assert_snapshot!(
        "explain_utf_inf_8_all",
        snap(&d, &["explain", "F4 90 80 80 FF B4 A0"], b"")
    );
    insta::assert_snapshot!(
        "explain_utf_inf_8_ff_b4_a0",
        snap(&d, &["explain", "FF B4 A0"], b"")
    );
    let forms: Vec<&str> = DRAFT_EXAMPLES
        .iter()
        .filter(|(cp, _)| {
            [
                "U+0041",
                "U+7FFFFFFF",
                "U+80000000",
                "U+1000000000",
                "U+800000000000000000",
                "U+1000000000000000000",
                "U+1000000000000000000000000000000000",
            ]
            .contains(cp)
        })
        .map(|(_, bytes)| *bytes)
        .collect();
    insta::assert_snapshot!(
        "explain_utf_inf_8_forms",
        snap(
            &d,
            &[&["explain", "-e", "utf-inf-8"][..], &forms].concat(),
            b""
        )
    );
    let errors: String = INF_ERRORS.iter().map(|b| format!("{b:02X}")).collect();
    insta::assert_snapshot!(
        "explain_utf_inf_8_errors",
        snap(&d, &["explain", "--encoding", "utf-inf-8", &errors], b"")
    );
    insta::assert_snapshot!(
        "explain_utf_inf_8_max_code_len",
        snap(
            &d,
            &[
                "explain",
                "-e",
                "utf-inf-8",
                "--max-code-len",
                "13",
                "FF A0 A0 80 FE"
            ],
            b""
        )
    );
    let truncated = "FF A0 A0 80 41 FF B4 A1 A0 80 FF B4";
    insta::assert_snapshot!(
        "explain_utf_inf_8_truncated",
        snap(&d, &["explain", "-e", "utf-inf-8", truncated], b"")
    );
}

/// Side by side when that fits COLUMNS (or, on a terminal, its width), else stacked;
/// `--layout` decides regardless.
#[test]
fn explain_layout() {
    let d = scratch("explain_layout");
    let args = ["explain", "41 C0 AF FF"];
    let run =
        |args: &[&str], columns: Option<&str>| transcript(&run_with(&d, args, b"", columns), false);
    let unlimited = run(&args, None);
    let widest = unlimited.lines().map(|l| l.chars().count()).max().unwrap();
    insta::assert_snapshot!("explain_layout_stacked", run(&args, Some("80")));
    let stacked = run(&args, Some("80"));
    assert_eq!(stacked.matches("offset  byte").count(), 3);
    assert_eq!(unlimited.matches("offset  byte").count(), 1);
    assert_eq!(run(&args, Some(&widest.to_string())), unlimited);
    assert_eq!(
        run(&[&args[..], &["--layout", "stacked"]].concat(), None),
        stacked
    );
    assert_eq!(
        run(&[&args[..], &["--layout", "columns"]].concat(), Some("80")),
        unlimited
    );
    // A COLUMNS that is no width is ignored.
    assert_eq!(run(&args, Some("wide")), unlimited);
}

#[test]
fn explain_errors() {
    let d = scratch("explain_errors");
    insta::assert_snapshot!("explain_bad_hex", snap(&d, &["explain", "41", "C0A"], b""));
    insta::assert_snapshot!("explain_not_hex", snap(&d, &["explain", "zz"], b""));
    insta::assert_snapshot!("explain_no_bytes", snap(&d, &["explain", ""], b""));
    insta::assert_snapshot!("explain_no_args", snap(&d, &["explain"], b""));
    insta::assert_snapshot!(
        "explain_unknown_in_list",
        snap(&d, &["explain", "-e", "utf-8,utf8", "41"], b"")
    );
    insta::assert_snapshot!(
        "explain_bad_layout",
        snap(&d, &["explain", "--layout", "wide", "41"], b"")
    );
    insta::assert_snapshot!(
        "explain_max_code_len_without_utf_inf_8",
        snap(
            &d,
            &["explain", "-e", "utf-8", "--max-code-len", "13", "41"],
            b""
        )
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
fn transcode_utf_inf_8() {
    let d = files("transcode_utf_inf_8");
    let from_inf = |to| ["transcode", "--from", "utf-inf-8", "--to", to];
    // U+110000, beyond UTF-8, is F4 90 80 80 in UTF-∞-8 (as in the original UTF-8).
    insta::assert_snapshot!(
        "transcode_corrected_to_utf_inf_8",
        snap_bytes(
            &d,
            &[
                "transcode",
                "--from",
                "corrected-utf8",
                "--to",
                "utf-inf-8",
                "beyond.txt"
            ],
            b""
        )
    );
    insta::assert_snapshot!(
        "transcode_utf_inf_8_to_corrected",
        snap_bytes(&d, &from_inf("corrected-utf8"), "héllo €\n".as_bytes())
    );
    insta::assert_snapshot!(
        "transcode_utf_inf_8_replace",
        snap_bytes(
            &d,
            &[&from_inf("utf-8")[..], &["--replace", "huge.inf"]].concat(),
            b""
        )
    );
    insta::assert_snapshot!(
        "transcode_utf_inf_8_replace_errors",
        snap_bytes(
            &d,
            &[&from_inf("utf-8")[..], &["--replace", "inf-errors.bin"]].concat(),
            b""
        )
    );
}

/// Big code points through the binary: encoded, transcoded UTF-∞-8 to UTF-∞-8 (with a
/// limit they fit), decoded back to the same list.
#[test]
fn utf_inf_8_round_trip_through_the_binary() {
    let d = scratch("utf_inf_8_round_trip");
    let mut cps: Vec<String> = DRAFT_EXAMPLES
        .iter()
        .map(|(cp, _)| cp.to_string())
        .collect();
    // 3000 digits: `FF B4 B4 AB AA A6` (NME 0xBA6), then 2000 storage bytes.
    cps.push(format!("U+{}", "9".repeat(3000)));
    cps.push(format!("U+1{}", "0".repeat(17)));
    let args: Vec<&str> = ["encode", "-e", "utf-inf-8", "--raw"]
        .into_iter()
        .chain(cps.iter().map(String::as_str))
        .collect();
    let encoded = run_in(&d, &args, b"");
    assert!(encoded.status.success(), "{}", transcript(&encoded, true));
    let copied = run_in(
        &d,
        &[
            "transcode",
            "--from",
            "utf-inf-8",
            "--to",
            "utf-inf-8",
            "--max-code-len",
            "2006",
        ],
        &encoded.stdout,
    );
    assert!(copied.status.success(), "{}", transcript(&copied, true));
    assert_eq!(copied.stdout, encoded.stdout);
    let decoded = run_in(&d, &["decode", "-e", "utf-inf-8", "--json"], &copied.stdout);
    let json: Vec<serde_json::Value> = serde_json::from_slice(&decoded.stdout).unwrap();
    let want: Vec<serde_json::Value> = cps
        .iter()
        .map(|cp| serde_json::json!({ "codepoint": cp.parse::<BigCodePoint>().unwrap().to_string() }))
        .collect();
    assert_eq!(json, want);
    // One byte less of limit, and the 3000-digit code is over it.
    let limited = run_in(
        &d,
        &[
            "transcode",
            "--from",
            "utf-inf-8",
            "--to",
            "utf-inf-8",
            "--max-code-len",
            "2005",
        ],
        &encoded.stdout,
    );
    assert_eq!(limited.status.code(), Some(1));
    let stderr = String::from_utf8(limited.stderr).unwrap();
    assert!(
        stderr.contains("not valid utf-inf-8: limit-exceeded"),
        "{stderr}"
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
    // One U+FFFD per reserved span, however long.
    insta::assert_snapshot!(
        "transcode_reserved_replace",
        snap_bytes(
            &d,
            &[&to_u[..], &["--replace"]].concat(),
            b"ab\xFE\x80\x80c\xFF"
        )
    );
    insta::assert_snapshot!(
        "transcode_magic_to_utf8",
        snap_bytes(&d, &[&to_u[..], &["--magic"]].concat(), b"")
    );
    insta::assert_snapshot!(
        "transcode_missing_to",
        snap_bytes(&d, &["transcode", "--from", "utf-8"], b"")
    );
    let from_inf = |to| ["transcode", "--from", "utf-inf-8", "--to", to];
    insta::assert_snapshot!(
        "transcode_big_to_utf8",
        snap_bytes(&d, &[&from_inf("utf-8")[..], &["huge.inf"]].concat(), b"")
    );
    insta::assert_snapshot!(
        "transcode_big_to_corrected",
        snap_bytes(
            &d,
            &[&from_inf("corrected-utf8")[..], &["fe.inf"]].concat(),
            b""
        )
    );
    insta::assert_snapshot!(
        "transcode_invalid_utf_inf_8",
        snap_bytes(&d, &from_inf("utf-8"), b"ok\xFF\xB4\xA0")
    );
    insta::assert_snapshot!(
        "transcode_utf_inf_8_limit",
        snap_bytes(
            &d,
            &[
                &from_inf("utf-inf-8")[..],
                &["--max-code-len", "13", "huge.inf"]
            ]
            .concat(),
            b""
        )
    );
    insta::assert_snapshot!(
        "transcode_max_code_len_from_utf8",
        snap_bytes(
            &d,
            &[
                "transcode",
                "--from",
                "utf-8",
                "--to",
                "utf-inf-8",
                "--max-code-len",
                "9"
            ],
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
