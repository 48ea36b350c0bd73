//! The gate never passes what it did not check, and never falsifies a verdict (issue 25
//! items 1, 4 and 6; issue 26 items 8 and 9; issue 32 items 1, 4 and 5), through the
//! `conformance` binary with small `sh` adapters and the Python peer adapter.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    common::process::scratch("gate-floor", name)
}

/// A UTF-8 decode file of `n` cases: odd tcIds `41` (valid), even ones `c0` (invalid).
fn decode_file(n: usize) -> String {
    common::fixtures::decode_file("gate floor", n)
}

/// A UTF-8 encode file of two cases.
const ENCODE: &str = r#"{"schema": "encode", "encoding": "utf-8", "version": "0.0.1", "numberOfTests": 2,
 "header": ["gate floor"], "notes": {},
 "testGroups": [{"comment": "", "tests": [
  {"tcId": 1, "comment": "A", "flags": [], "codepoint": "U+0041", "bytes": "41", "result": "valid"},
  {"tcId": 2, "comment": "surrogate", "flags": [], "codepoint": "U+D800", "error": "surrogate", "result": "invalid"}
 ]}]}
"#;

/// Declares `valid` for UTF-8 decode.
const HELLO_VALID: &str = r#"hello) echo '{"id":"hello","protocol":2,"name":"t","supports":[{"encoding":"utf-8","op":"decode","fields":["valid"]}]}';;"#;
/// The right `valid` for [`decode_file`]'s cases.
const RIGHT: &str = r#"*[13579]) echo "{\"id\":\"$id\",\"valid\":true}";;
  *) echo "{\"id\":\"$id\",\"valid\":false}";;"#;

/// `vectors/t/decode.json` with `n` cases and `NAME.sh` answering with `arms`, for each
/// `(NAME, arms)`.
fn setup(name: &str, n: usize, adapters: &[(&str, &str)]) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("vectors/t")).unwrap();
    std::fs::write(dir.join("vectors/t/decode.json"), decode_file(n)).unwrap();
    for (adapter, arms) in adapters {
        let script = format!(
            "while IFS= read -r line; do\n  id=${{line#*\\\"id\\\":\\\"}}; id=${{id%%\\\"*}}\n  case \"$id\" in\n  {arms}\n  esac\ndone\n"
        );
        std::fs::write(dir.join(format!("{adapter}.sh")), script).unwrap();
    }
    dir
}

/// `conformance ARGS` in `dir`: exit code, stdout, stderr.
fn conformance(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `conformance run --vectors vectors --adapter t="sh t.sh" EXTRA`.
fn run_t(dir: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["run", "--vectors", "vectors", "--adapter", "t=sh t.sh"];
    args.extend_from_slice(extra);
    conformance(dir, &args)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn schema_errors(report: &Value) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/report.schema.json");
    common::schema::validate(&read_json(&path), report)
}

fn python_codec() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/python_codec.py");
    format!("python3 {}", path.display())
}

// --- Issue 25 item 1: a field the runner never compares is no declaration, and a run that
// checked nothing fails. ---

#[test]
fn a_declared_field_the_runner_does_not_know_is_a_protocol_error_naming_it() {
    for field in ["events", "id"] {
        let hello = HELLO_VALID.replace(r#"["valid"]"#, &format!(r#"["{field}"]"#));
        let answer = format!(r#"*) echo "{{\"id\":\"$id\",\"{field}\":[]}}";;"#);
        let dir = setup(
            &format!("unknown-field-{field}"),
            4,
            &[("t", &format!("{hello}\n  {answer}"))],
        );
        let (code, stdout, stderr) = run_t(&dir, &[]);
        assert_eq!(code, Some(1), "{field}: {stdout}{stderr}");
        assert!(
            stdout.contains(&format!(
                "answer to the hello: `supports` item 0 (utf-8 decode) declares the field \
                 \"{field}\", which decode has not: its fields are output, spans, lossy, \
                 result, valid, strict"
            )),
            "{field}: {stdout}"
        );
        assert!(stdout.contains("GATE NOT MET"), "{stdout}");
        assert!(
            !stdout.contains("0 passed, 0 failed, 4 skipped\n"),
            "{stdout}"
        );
    }
}

#[test]
fn a_run_that_checked_nothing_of_an_implementation_fails_whatever_it_declared() {
    // Protocol 1 with --allow-undeclared, answering `unsupported` to everything: every
    // case skipped, nothing checked.
    let unsupported = r#"*) echo "{\"id\":\"$id\",\"unsupported\":true}";;"#;
    let dir = setup("checked-nothing", 4, &[("t", unsupported)]);
    let (code, stdout, _) = run_t(&dir, &["--allow-undeclared"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("[t] no case was checked: none of its 4 case(s) was answered"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("0 passed, 0 failed, 4 skipped; gate not met (1)\n"),
        "{stdout}"
    );
}

// --- Issue 25 item 4: floors count only the cases that apply. ---

#[test]
fn splits_and_ascii_prefixes_count_only_applicable_cases_against_require() {
    if !common::prereq::python3() {
        return;
    }
    let dir = scratch("applicable");
    let python = format!("python={}", python_codec());
    for extra in [
        &["--splits"][..],
        &["--ascii-prefixes"],
        &["--splits", "--ascii-prefixes"],
    ] {
        let mut args = vec![
            "run",
            "--adapter",
            &python,
            "--encoding",
            "utf-8",
            "--require",
            "utf-8:decode:lossy",
        ];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = conformance(&dir, &args);
        assert_eq!(code, Some(0), "{extra:?}: {stdout}{stderr}");
        assert!(!stdout.contains("GATE NOT MET"), "{extra:?}: {stdout}");
        if extra.contains(&"--splits") {
            assert!(
                stdout.contains("not applicable (no streaming declared)"),
                "{stdout}"
            );
        }
    }
}

// --- Issue 25 item 6: after giving up, the rest is "not run", in every report. ---

#[test]
fn giving_up_reports_not_run_apart_from_real_crashes_in_every_format() {
    // Answers the hello, then garbage: protocol errors. Its encode cases were never
    // declared.
    let garbage = r#"*) echo "garbage";;"#;
    let dir = setup(
        "gave-up",
        8,
        &[("t", &format!("{HELLO_VALID}\n  {garbage}"))],
    );
    std::fs::write(dir.join("vectors/t/encode.json"), ENCODE).unwrap();
    let (code, stdout, stderr) = run_t(
        &dir,
        &[
            "--give-up-after",
            "3",
            "--json",
            "r.json",
            "--junit",
            "r.xml",
            "--html",
            "r.html",
            // Every case in every report, so each not-run case can be counted.
            "--report-all",
        ],
    );
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    let reason = "not run (gave up after 3 protocol errors in a row: not JSON";
    assert!(
        stdout.contains(&format!("[t] 7 case(s) {reason}")),
        "{stdout}"
    );
    assert!(
        stdout.contains("0 passed, 3 failed, 7 not run; gate not met ("),
        "{stdout}"
    );
    assert!(stdout.contains(" not-run\n"), "the column: {stdout}");
    assert!(
        stdout.contains("of the failed: 3 protocol\n"),
        "no crash: {stdout}"
    );

    let report = read_json(&dir.join("r.json"));
    assert_eq!(schema_errors(&report), Vec::<String>::new());
    let counts = &report["implementations"][0]["counts"];
    assert_eq!(counts["protocol"], 3, "{counts}");
    assert_eq!(counts["not-run"], 7, "{counts}");
    assert_eq!(counts["crash"], 0, "{counts}");
    assert_eq!(report["gate"]["met"], false);
    let xml = std::fs::read_to_string(dir.join("r.xml")).unwrap();
    assert_eq!(
        xml.matches(r#"<skipped message="not run (gave up"#).count(),
        7,
        "{xml}"
    );
    let html = std::fs::read_to_string(dir.join("r.html")).unwrap();
    assert_eq!(
        html.matches(r#"<td class="c not-run""#).count(),
        7,
        "{html}"
    );
}

// --- Issue 26 item 8: numeric options are range-checked before anything runs. ---

#[test]
fn numeric_options_out_of_range_are_usage_errors() {
    let dir = setup("ranges", 2, &[("t", &format!("{HELLO_VALID}\n  {RIGHT}"))]);
    for (args, says) in [
        (
            &["--max-line-bytes", "18446744073709551615"][..],
            "from 1024 to 1073741824",
        ),
        (&["--max-line-bytes", "10"], "from 1024 to 1073741824"),
        (&["--batch-size", "0"], "from 1 to 65536"),
        (&["--batch-size", "70000"], "from 1 to 65536"),
        (
            &["--give-up-after", "18446744073709551616"],
            "from 0 to 1000000",
        ),
        (&["--timeout", "1e300"], "at most 86400"),
        (&["--deadline", "0"], "more than 0"),
        (&["--deadline", "inf"], "at most 2592000"),
    ] {
        let (code, stdout, stderr) = run_t(&dir, args);
        assert_eq!(code, Some(2), "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: nothing run: {stdout}");
    }
    for args in [
        &["--max-line-bytes", "18446744073709551615"][..],
        &["--max-input-bytes", "0"],
        &["--batch", "0"],
    ] {
        let mut all = vec!["serve"];
        all.extend_from_slice(args);
        let (code, _, stderr) = conformance(&dir, &all);
        assert_eq!(code, Some(2), "serve {args:?}: {stderr}");
    }
    // The largest values that are allowed work.
    let (code, stdout, _) = run_t(
        &dir,
        &["--max-line-bytes", "1073741824", "--batch-size", "65536"],
    );
    assert_eq!(code, Some(0), "{stdout}");
}

// --- Issue 26 item 9: a deadline for the whole run. ---

#[test]
fn a_deadline_ends_the_run_with_not_run_cases_a_failed_gate_and_every_report() {
    // Answers the hello, then takes 30 s per case: without the deadline, 6 × 20 s.
    let slow = r#"*) sleep 30; echo "{\"id\":\"$id\",\"valid\":true}";;"#;
    let dir = setup("deadline", 6, &[("t", &format!("{HELLO_VALID}\n  {slow}"))]);
    let (code, stdout, stderr) = run_t(
        &dir,
        &[
            "--timeout",
            "20",
            "--give-up-after",
            "0",
            "--deadline",
            "2",
            "--json",
            "r.json",
            "--junit",
            "r.xml",
            "--html",
            "r.html",
        ],
    );
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("[t] 6 case(s) not run (the --deadline of 2 s passed)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n0 passed, 0 failed, 6 not run; gate not met ("),
        "{stdout}"
    );
    let report = read_json(&dir.join("r.json"));
    assert_eq!(schema_errors(&report), Vec::<String>::new());
    assert_eq!(report["counts"]["not-run"], 6);
    assert!(dir.join("r.xml").exists() && dir.join("r.html").exists());
}

// --- Issue 32 item 1: `spans`, every span's offset and length without kinds. ---

#[test]
fn python_codec_spans_mode_passes_every_utf8_vector_on_spans() {
    if !common::prereq::python3() {
        return;
    }
    let dir = scratch("spans");
    let adapter = format!("python={} --spans", python_codec());
    let (code, stdout, stderr) = conformance(
        &dir,
        &[
            "run",
            "--adapter",
            &adapter,
            "--encoding",
            "utf-8",
            "--require",
            "python=utf-8:decode:spans",
            "--json",
            "r.json",
            "--report-all",
        ],
    );
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("declared: utf-8 decode (lossy, result, valid, strict, spans)"),
        "{stdout}"
    );
    let report = read_json(&dir.join("r.json"));
    let results = report["implementations"][0]["results"].as_array().unwrap();
    let with_spans = results
        .iter()
        .filter(|r| r["checked"].as_array().unwrap().contains(&"spans".into()))
        .count();
    assert!(with_spans > 1000, "{with_spans} cases checked on spans");

    // Offsets that are off by one fail, on `spans`.
    let hello = HELLO_VALID.replace(r#"["valid"]"#, r#"["spans"]"#);
    let off = r#"*[13579]) echo "{\"id\":\"$id\",\"spans\":[{\"codepoint\":\"U+0041\"}]}";;
  *) echo "{\"id\":\"$id\",\"spans\":[{\"error\":null,\"offset\":1,\"length\":1}]}";;"#;
    let dir = setup("spans-off", 4, &[("t", &format!("{hello}\n  {off}"))]);
    let (code, stdout, _) = run_t(&dir, &[]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("spans: expected"), "{stdout}");
    assert!(stdout.ends_with("2 passed, 2 failed\n"), "{stdout}");
}

// --- Issue 32 item 4: floors per adapter. ---

#[test]
fn require_names_the_adapter_it_applies_to() {
    // A validator (valid) and a replacer (lossy), in one run with a floor each.
    let lossy_hello = HELLO_VALID.replace(r#"["valid"]"#, r#"["lossy"]"#);
    let lossy = r#"*[13579]) echo "{\"id\":\"$id\",\"lossy\":[\"U+0041\"]}";;
  *) echo "{\"id\":\"$id\",\"lossy\":[\"U+FFFD\"]}";;"#;
    let dir = setup(
        "per-adapter",
        4,
        &[
            ("validator", &format!("{HELLO_VALID}\n  {RIGHT}")),
            ("replacer", &format!("{lossy_hello}\n  {lossy}")),
        ],
    );
    let both = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "--vectors",
            "vectors",
            "--adapter",
            "validator=sh validator.sh",
            "--adapter",
            "replacer=sh replacer.sh",
        ];
        args.extend_from_slice(extra);
        conformance(&dir, &args)
    };
    let (code, stdout, stderr) = both(&[
        "--require",
        "validator=utf-8:decode:validity",
        "--require",
        "replacer=utf-8:decode:lossy",
    ]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    // The global form still applies to both.
    let (code, stdout, _) = both(&["--require", "utf-8:decode:lossy"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("[validator] --require utf-8:decode:lossy: declared without lossy"),
        "{stdout}"
    );
    assert!(!stdout.contains("[replacer] --require"), "{stdout}");
    // A named floor the adapter misses names both.
    let (code, stdout, _) = both(&["--require", "replacer=utf-8:decode:validity"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("[replacer] --require replacer=utf-8:decode:valid: declared without valid"),
        "{stdout}"
    );
    assert!(!stdout.contains("[validator] --require"), "{stdout}");
    // A name that is not in the run is a usage error.
    let (code, _, stderr) = both(&["--require", "nobody=utf-8:decode"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("no implementation of this run is named \"nobody\""),
        "{stderr}"
    );
}

// --- Issue 32 item 5: the flush hint while the hello is awaited. ---

#[test]
fn a_silent_adapter_gets_the_flush_hint_at_once_while_the_timeout_still_decides() {
    // Alive and silent for 6 s, then it answers: the run passes, and the hint was printed
    // on the way (not only in a timeout's message).
    let dir = setup(
        "flush-hint",
        2,
        &[("t", &format!("{HELLO_VALID}\n  {RIGHT}"))],
    );
    let (code, stdout, stderr) = conformance(
        &dir,
        &[
            "run",
            "--vectors",
            "vectors",
            "--adapter",
            "t=sleep 6; exec sh t.sh",
            "--startup-timeout",
            "60",
        ],
    );
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(
        stderr.contains("[t] has run 5 s and nothing at all came on its stdout since it started: did it flush stdout after each line?"),
        "{stderr}"
    );
    assert!(stdout.ends_with("2 passed, 0 failed\n"), "{stdout}");
}
