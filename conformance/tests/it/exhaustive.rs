//! `conformance exhaustive` on small ranges: the reference codec passes, the spec-literal
//! code passes against itself (which tests the check's shortcuts), and a codec with one
//! shifted offset fails with the expected counterexample. A checkpoint is believed only
//! for the implementation it was made with, whole, and after a sample of it is walked
//! again; one that never ends is refused. The JSON report follows its schema.

use crate::common::process::{self, Finished};
use conformance::exhaustive::codec_fns::{CodecFns, Ev, EvBuf, KindCode, Value, ENCODE_CAP};
use conformance::exhaustive::reference::{execute, render, Config, ReferenceOutcome as Outcome};
use conformance::exhaustive::{Failure, LITERAL, REFERENCE};
use conformance::vectors::Op;
use conformance_literal::Kind;
use corrected_utf8::corrected;
use std::path::Path;
use std::time::{Duration, Instant};

/// Code points `0..=0x200000` (every 1-, 2- and 3-byte encoding and the first 4-byte
/// ones) and inputs of up to `max_len` bytes.
fn small(max_len: usize, ops: &[Op]) -> Config {
    Config {
        max_len,
        ops: ops.to_vec(),
        code_points: (0, 0x20_0000),
        ..Config::default()
    }
}

fn run_ok(imp: &CodecFns, cfg: &Config) -> Outcome {
    let out = execute(imp, cfg).expect("valid config");
    if let Some(f) = &out.failure {
        panic!("{f}");
    }
    out
}

#[test]
fn reference_passes_on_small_ranges() {
    let out = run_ok(&REFERENCE, &small(3, &[]));
    let c = &out.walk.counts;
    assert_eq!(c["codepoints.values"], 0x20_0001);
    // U+0000..U+200000 less the C1 controls and the surrogates.
    assert_eq!(c["codepoints.encodable"], 0x20_0001 - 32 - 2048);
    assert_eq!(c["corrected-utf8.inputs.3-byte"], 1 << 24);
    assert_eq!(c["utf-8.std-agrees"], 256 + 65536 + (1 << 24));
    // Well-formed = no error span: every complete sequence of up to 3 bytes, and the
    // reserved spans (SPEC §2.4a: not errors): ASCII and FE/FF in either order, FE/FF
    // then a continuation byte, FE/FF twice.
    assert_eq!(
        c["corrected-utf8.well-formed.2-byte"],
        128 * 128 + 32 * 64 + 2 * (128 * 2) + 2 * 64 + 2 * 2
    );
    // The inputs part is complete: its Table 3.1b counts matched `conformance audit`'s.
    assert!(c["table-3.1b.agree"] > 0);
}

#[test]
fn spec_literal_passes_against_itself() {
    run_ok(&LITERAL, &small(3, &[Op::Decode]));
}

/// The reference codec with the 2-byte offset shifted from 160 to 161, both ways.
const SHIFTED: CodecFns = CodecFns {
    name: "shifted",
    corrected_encode: |cp, buf: &mut [u8; ENCODE_CAP]| {
        if (0xA0..=0x89F).contains(&cp) {
            let raw = cp.wrapping_sub(161);
            buf[0] = 0xC0 | ((raw >> 6) & 0x1F) as u8;
            buf[1] = 0x80 | (raw & 0x3F) as u8;
            return Ok(2);
        }
        (REFERENCE.corrected_encode)(cp, buf)
    },
    corrected_decode: |bytes, out: &mut EvBuf| {
        out.fill(corrected::events(bytes));
        let shifted: Vec<Ev> = out
            .as_slice()
            .iter()
            .map(|e| match e.value {
                Value::CodePoint(cp) if e.length == 2 => Ev {
                    value: Value::CodePoint(cp + 1),
                    ..*e
                },
                _ => *e,
            })
            .collect();
        out.clear();
        for e in shifted {
            out.push(e);
        }
    },
    utf8_decode: REFERENCE.utf8_decode,
    utf_inf8_decode: REFERENCE.utf_inf8_decode,
    corrected_document: REFERENCE.corrected_document,
};

fn failure(cfg: &Config) -> Failure {
    let out = execute(&SHIFTED, cfg).expect("valid config");
    out.failure.expect("the shifted codec must fail")
}

#[test]
fn shifted_offset_fails_at_u_00a0() {
    let f = failure(&small(2, &[Op::Encode]));
    assert_eq!(f.check, "corrected-utf8 encode");
    assert_eq!(f.input, "U+00A0");
    // 0xA0 − 161 wraps around: the broken encoder writes DF BF, the literal one C0 80.
    assert_eq!((f.got.as_str(), f.want.as_str()), ("df bf", "c0 80"));
    assert!(f.to_string().contains("U+00A0"), "{f}");
}

#[test]
fn shifted_offset_fails_at_c0_80() {
    let f = failure(&small(2, &[Op::Decode]));
    assert_eq!(f.check, "corrected-utf8 decode");
    assert_eq!(f.input, "c0 80");
    assert_eq!(f.got, "[U+00A1 @0+2]");
    assert_eq!(f.want, "[U+00A0 @0+2]");
    let text = f.to_string();
    assert!(text.contains("c0 80") && text.contains("shifted"), "{text}");
}

#[test]
fn both_parts_report_the_code_point_first() {
    // Code point units come before input units: the first counterexample is U+00A0.
    assert_eq!(failure(&small(2, &[])).input, "U+00A0");
}

#[test]
fn checkpoint_resumes_and_keeps_counts() {
    let dir = std::env::temp_dir().join(format!("exhaustive-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("checkpoint.json");
    let _ = std::fs::remove_file(&file);
    let cfg = Config {
        resume: Some(file.clone()),
        ..small(2, &[])
    };
    let first = run_ok(&REFERENCE, &cfg);
    assert!(file.exists());
    // Everything is done: the second run skips every unit and reports the same counts.
    let second = run_ok(&REFERENCE, &cfg);
    assert_eq!(first.walk.counts, second.walk.counts);
    assert_eq!(second.walk.units.0, second.walk.units.1);
    // A checkpoint of another configuration is refused.
    let other = Config {
        max_len: 3,
        ..cfg.clone()
    };
    assert!(execute(&REFERENCE, &other).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_add_up_to_the_whole() {
    let whole = run_ok(&REFERENCE, &small(2, &[]));
    let mut sum = conformance::exhaustive::Counters::new();
    for k in 1..=3 {
        let cfg = Config {
            shard: conformance::exhaustive::Shard { k, n: 3 },
            ..small(2, &[])
        };
        let part = run_ok(&REFERENCE, &cfg);
        assert!(!part.complete);
        for (key, v) in part.walk.counts {
            *sum.entry(key).or_default() += v;
        }
    }
    assert_eq!(sum, whole.walk.counts);
}

/// Inputs of up to `max_len` bytes, UTF-∞-8 only (both limits).
fn inf_only(max_len: usize) -> Config {
    Config {
        encodings: vec![corrected_utf8::Encoding::UtfInf8],
        ..small(max_len, &[Op::Decode])
    }
}

#[test]
fn utf_inf8_is_not_in_the_default_run() {
    let out = run_ok(&REFERENCE, &small(1, &[Op::Decode]));
    assert!(out.walk.counts.keys().all(|k| !k.starts_with("utf-inf-8")));
}

#[test]
fn reference_utf_inf8_passes_up_to_3_bytes() {
    let out = run_ok(&REFERENCE, &inf_only(3));
    let c = &out.walk.counts;
    assert!(out.complete);
    assert_eq!(c["utf-inf-8.inputs.3-byte"], 1 << 24);
    // ASCII pairs, and C2..DF with a continuation (C0 and C1 are overlong).
    assert_eq!(c["utf-inf-8.well-formed.2-byte"], 128 * 128 + 30 * 64);
    // 3-byte codes as in UTF-8: E0 A0..BF and E1..EF with two continuations, less
    // ED A0..BF (surrogates); plus the ASCII and 2-byte combinations.
    let three = 32 * 64 + 15 * 64 * 64 - 32 * 64;
    assert_eq!(
        c["utf-inf-8.well-formed.3-byte"],
        128 * 128 * 128 + 2 * 128 * 30 * 64 + three
    );
    // Under a limit of 3 bytes every 3-byte code still decodes; 4-byte leads exceed it.
    assert_eq!(
        c["utf-inf-8-limit-3.well-formed.3-byte"],
        c["utf-inf-8.well-formed.3-byte"]
    );
    assert!(c["utf-inf-8-limit-3.error-spans.limit-exceeded"] > 0);
    assert!(!c.contains_key("utf-inf-8.error-spans.limit-exceeded"));
    assert!(c["utf-inf-8.error-spans.invalid-length"] > 0);
}

#[test]
fn spec_literal_utf_inf8_passes_against_itself() {
    run_ok(&LITERAL, &inf_only(2));
}

/// The reference codec with `invalid-length` spans of UTF-∞-8 reported as `overlong`.
const MISKINDED: CodecFns = CodecFns {
    name: "miskinded",
    utf_inf8_decode: |bytes, limit, out: &mut EvBuf| {
        (REFERENCE.utf_inf8_decode)(bytes, limit, out);
        let changed: Vec<Ev> = out
            .as_slice()
            .iter()
            .map(|e| match e.value {
                Value::Error(k) if k.to_literal() == Some(Kind::InvalidLength) => Ev {
                    value: Value::Error(KindCode::literal(Kind::Overlong)),
                    ..*e
                },
                _ => *e,
            })
            .collect();
        out.clear();
        for e in changed {
            out.push(e);
        }
    },
    ..REFERENCE
};

#[test]
fn miskinded_invalid_length_fails_at_ff_b0() {
    let out = execute(&MISKINDED, &inf_only(2)).expect("valid config");
    let f = out.failure.expect("the miskinded codec must fail");
    assert_eq!(f.check, "utf-inf-8 decode");
    assert_eq!(f.input, "ff b0");
    assert_eq!(f.got, "[overlong @0+1, unexpected-continuation @1+1]");
    assert_eq!(
        f.want,
        "[invalid-length @0+1, unexpected-continuation @1+1]"
    );
}

/// The address space each command of these tests may use (`ulimit -v`, KiB): an input
/// that grows without bound fails fast instead of taking the machine's memory.
const ADDRESS_SPACE_KIB: u64 = 2 << 20;

/// `conformance ARGS` in `dir` under [`ADDRESS_SPACE_KIB`], killed as hung after
/// [`process::HANG`]; its result, its wall time and its stdout and stderr as one text.
fn capped(dir: &Path, args: &[&str]) -> (Finished, Duration, String) {
    let start = Instant::now();
    let f = process::run(process::with_memory_cap(ADDRESS_SPACE_KIB, args).current_dir(dir));
    let text = format!("{}\n--- stderr:\n{}", f.stdout, f.stderr);
    (f, start.elapsed(), text)
}

/// The shifted codec under the reference's name: only its answers tell them apart.
const SHIFTED_AS_REFERENCE: CodecFns = CodecFns {
    name: "reference",
    ..SHIFTED
};

/// The reference codec, under its own name, wrong on the one input `42 42` (which no
/// fixed probe holds): only walking that input again tells them apart.
const WRONG_ON_4242: CodecFns = CodecFns {
    corrected_decode: |bytes, out: &mut EvBuf| {
        (REFERENCE.corrected_decode)(bytes, out);
        if bytes == [0x42, 0x42] {
            out.clear();
            out.push(Ev {
                offset: 0,
                length: 2,
                value: Value::CodePoint(0x42),
            });
        }
    },
    ..REFERENCE
};

/// In the reference's run, a checkpoint binds to the implementation (its
/// name, and a fingerprint of its answers to fixed probes), to itself (a checksum) and
/// is walked again on a sample before it is believed. Before, every one of these resumed
/// and passed with nothing walked.
#[test]
fn a_checkpoint_is_believed_only_for_its_implementation() {
    let dir = process::scratch("exhaustive", "checkpoint-binding");
    let file = dir.join("checkpoint.json");
    let cfg = Config {
        resume: Some(file.clone()),
        ..small(2, &[Op::Decode])
    };
    run_ok(&REFERENCE, &cfg);

    // Another codec answering as another build would: its answers to the probes differ.
    let e = execute(&SHIFTED_AS_REFERENCE, &cfg).unwrap_err();
    assert!(
        e.contains("answers to the") && e.contains("fixed probes differ"),
        "{e}"
    );
    // Another implementation by name.
    let e = execute(&SHIFTED, &cfg).unwrap_err();
    assert!(
        e.contains("its implementation is \"reference\", this run's is \"shifted\""),
        "{e}"
    );

    // The same answers to the probes, wrong on one input: the units walked again catch it.
    let out = execute(&WRONG_ON_4242, &cfg).expect("valid config");
    let f = out.failure.clone().expect("the sample must catch 42 42");
    assert_eq!(f.input, "42 42");
    assert!(!out.complete);
    let text = render(&cfg, &out);
    assert!(
        text.contains("NOT BELIEVED") && text.contains("FAIL"),
        "{text}"
    );

    // Edited to claim more (the code point units, never walked): the checksum no longer
    // holds.
    let mut ck: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(ck["done"], serde_json::json!([[256, 257]]), "{ck}");
    ck["done"] = serde_json::json!([[0, 257]]);
    std::fs::write(&file, serde_json::to_string_pretty(&ck).unwrap()).unwrap();
    let e = execute(&REFERENCE, &cfg).unwrap_err();
    assert!(e.contains("checksum does not match"), "{e}");
}

/// A resumed run says how much it walked itself, and a complete
/// pass from a checkpoint says so.
#[test]
fn a_resumed_run_says_what_it_walked() {
    let dir = process::scratch("exhaustive", "checkpoint-report");
    let cfg = Config {
        resume: Some(dir.join("checkpoint.json")),
        ..small(2, &[Op::Decode])
    };
    let first = run_ok(&REFERENCE, &cfg);
    assert!(render(&cfg, &first).contains("units done: 2/2 (2 walked in this run)"));
    let second = run_ok(&REFERENCE, &cfg);
    let text = render(&cfg, &second);
    assert!(
        text.contains(
            "units done: 2/2 (0 walked in this run, 2 (65792 case(s)) from the checkpoint"
        ) && text.contains("2 of its units walked again")
            && text
                .contains("PASS (complete: 0 unit(s) walked in this run, 2 from the checkpoint)"),
        "{text}"
    );
}

/// `exhaustive --resume` on a FIFO or `/dev/zero` is refused before a
/// byte is read (before: a FIFO blocked forever, `/dev/zero` grew until the address-space
/// limit of [`capped`]), and a malformed checkpoint is named with its line and column.
#[test]
#[cfg(unix)] // FIFOs and /dev/zero
fn checkpoints_that_never_end_are_refused() {
    let dir = process::scratch("exhaustive", "resume-fifo");
    let fifo = dir.join("fifo");
    process::mkfifo(&fifo);
    std::fs::write(dir.join("bad.json"), "{\n  \"format\": tru\n").unwrap();
    std::fs::write(dir.join("comma.json"), "{\"format\": 2,}\n").unwrap();
    for (resume, want) in [
        ("fifo", "fifo: is a FIFO (named pipe), not a regular file"),
        (
            "/dev/zero",
            "/dev/zero: is a character device, not a regular file",
        ),
        ("comma.json", "comma.json:1:14: trailing comma"),
        ("bad.json", "bad.json:3:0: expected ident"),
    ] {
        let (out, _, text) = capped(
            &dir,
            &[
                "exhaustive",
                "--max-len",
                "1",
                "--only",
                "inputs",
                "--resume",
                resume,
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{resume}\n{text}");
        assert!(text.contains(want), "{resume}\n{text}");
    }
}

/// The JSON report's schema.
fn schema() -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/exhaustive.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `exhaustive --json` is camelCase, versioned and follows
/// `conformance/schema/exhaustive.schema.json`, resumed or not; a report missing a field
/// or with an old snake_case key does not. It is written after the
/// verdict, atomically: a symbolic link at the path is replaced, its target untouched.
#[test]
fn the_json_report_follows_its_schema() {
    let dir = process::scratch("exhaustive", "json");
    let args = [
        "exhaustive",
        "--max-len",
        "1",
        "--only",
        "inputs",
        "--resume",
        "ck.json",
        "--json",
        "r.json",
    ];
    let keep = dir.join("keep.txt");
    std::fs::write(&keep, "keep").unwrap();
    // A symbolic link where the report goes (Unix; elsewhere a plain file is replaced).
    #[cfg(unix)]
    std::os::unix::fs::symlink(&keep, dir.join("r.json")).unwrap();
    for round in ["fresh", "resumed"] {
        let (out, _, text) = capped(&dir, &args);
        assert_eq!(out.status.code(), Some(0), "{round}\n{text}");
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
        assert_eq!(
            crate::common::schema::validate(&schema(), &report),
            Vec::<String>::new(),
            "{round}: {report}"
        );
        assert_eq!(report["reportVersion"], 3);
        assert_eq!(report["report"], "conformance-exhaustive");
        assert_eq!(report["maxLen"], 1);
        assert_eq!(report["checkpoint"].is_null(), round == "fresh", "{report}");
        assert_eq!(std::fs::read_to_string(&keep).unwrap(), "keep");
        assert!(!std::fs::symlink_metadata(dir.join("r.json"))
            .unwrap()
            .file_type()
            .is_symlink());
        if round == "resumed" {
            assert_eq!(report["unitsThisRun"], 0, "{report}");
            assert_eq!(report["checkpoint"]["believed"], true, "{report}");
            let mut old = report.clone();
            let v = old.as_object_mut().unwrap().shift_remove("maxLen").unwrap();
            assert!(!crate::common::schema::validate(&schema(), &old).is_empty());
            old.as_object_mut().unwrap().insert("max_len".into(), v);
            assert!(!crate::common::schema::validate(&schema(), &old).is_empty());
        }
    }
}
