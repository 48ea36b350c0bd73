//! The release gate: `conformance run` exits 0 only when every case it was asked about
//! was checked and passed, never for what it did not check, and never with a verdict
//! falsified. Vector files with the same name, endless answer lines, skips and
//! declarations (the handshake's and `--require`'s floors, per adapter, counting only
//! the cases that apply), fields the runner does not compare, start-up against the
//! per-case timeout, giving up, the deadline for the whole run, range-checked options,
//! the messages (the flush hint among them) and the docs; through the `conformance`
//! binary with small `sh` adapters and the Python peer adapters.

use crate::common::fixtures;
use crate::common::process::{self, conformance_in as conformance};
use crate::common::sh::{self, HELLO_P1, HELLO_VALID, RIGHT};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    process::scratch("gate", name)
}

/// A UTF-8 decode file of `n` cases: odd tcIds `41` (valid), even ones `c0` (invalid).
fn decode_file(n: usize, header: &str) -> String {
    fixtures::decode_file(header, n)
}

/// A UTF-8 encode file of two cases.
const ENCODE: &str = r#"{"schema": "encode", "encoding": "utf-8", "version": "0.0.1", "numberOfTests": 2,
 "header": ["gate floor"], "notes": {},
 "testGroups": [{"comment": "", "tests": [
  {"tcId": 1, "comment": "A", "flags": [], "codepoint": "U+0041", "bytes": "41", "result": "valid"},
  {"tcId": 2, "comment": "surrogate", "flags": [], "codepoint": "U+D800", "error": "surrogate", "result": "invalid"}
 ]}]}
"#;

/// `vectors/t/decode.json` with `n` cases and `adapter.sh` answering with `arms`.
fn setup(name: &str, n: usize, arms: &str) -> PathBuf {
    setup_each(name, n, &[("adapter", arms)])
}

/// `vectors/t/decode.json` with `n` cases and `NAME.sh` answering with `arms`, for each
/// `(NAME, arms)`.
fn setup_each(name: &str, n: usize, adapters: &[(&str, &str)]) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("vectors/t")).unwrap();
    std::fs::write(dir.join("vectors/t/decode.json"), decode_file(n, "t")).unwrap();
    for (adapter, arms) in adapters {
        std::fs::write(dir.join(format!("{adapter}.sh")), sh::script(arms)).unwrap();
    }
    dir
}

/// `conformance run ARGS` in `dir`: exit code, stdout, stderr.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    conformance(dir, &all)
}

/// `conformance run --vectors vectors --adapter t="sh adapter.sh" EXTRA`.
fn run_t(dir: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["--vectors", "vectors", "--adapter", "t=sh adapter.sh"];
    args.extend_from_slice(extra);
    run(dir, &args)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn schema_errors(report: &Value) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/report.schema.json");
    crate::common::schema::validate(&read_json(&path), report)
}

fn python_codec() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/python_codec.py");
    format!("python3 {}", path.display())
}

// --- Vector files with the same name are never silently dropped. ---

#[test]
fn same_named_vector_files_stop_the_run_naming_both() {
    let dir = setup("same-name", 4, &format!("{HELLO_VALID}\n  {RIGHT}"));
    for (d, n) in [("a", 4), ("b", 2), ("root2/t", 2)] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
        std::fs::write(dir.join(d).join("decode.json"), decode_file(n, d)).unwrap();
    }
    for pair in [
        ["a/decode.json", "b/decode.json"],
        ["b/decode.json", "a/decode.json"],
    ] {
        let (code, stdout, stderr) = run(
            &dir,
            &[
                "--vectors",
                pair[0],
                "--vectors",
                pair[1],
                "--adapter",
                "t=sh adapter.sh",
            ],
        );
        assert_eq!(code, Some(2), "{pair:?}: {stdout}{stderr}");
        assert!(
            stderr.contains("a/decode.json") && stderr.contains("b/decode.json"),
            "{stderr}"
        );
        assert!(stdout.is_empty(), "nothing run: {stdout}");
    }
    // Two roots holding the same relative name.
    let (code, _, stderr) = run_t(&dir, &["--vectors", "root2"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("t/decode.json"), "{stderr}");
    // The same file reached twice is one file.
    let (code, stdout, stderr) = run_t(&dir, &["--vectors", "vectors/t/decode.json"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.ends_with("4 passed, 0 failed\n"), "{stdout}");
}

// --- Answer lines are capped. ---

#[test]
fn an_endless_answer_line_is_a_protocol_error() {
    let dir = setup("endless", 4, "*) exec cat /dev/zero;;");
    let start = Instant::now();
    let (code, stdout, stderr) = run_t(&dir, &["--max-line-bytes", "100000"]);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("PROTOCOL"), "{stdout}");
    assert!(
        stdout.contains("longer than 100000 bytes (--max-line-bytes)"),
        "{stdout}"
    );
    // The default cap is documented in --help.
    let (_, help, _) = run(&dir, &["--help"]);
    assert!(
        help.contains("--max-line-bytes") && help.contains("16777216"),
        "{help}"
    );
}

// --- Skips do not pass: the handshake's declaration and --require are a floor. ---

#[test]
fn answering_unsupported_for_a_declared_encoding_fails_and_says_which() {
    let unsupported = r#"*#2) echo "{\"id\":\"$id\",\"unsupported\":true}";;"#;
    let dir = setup(
        "declared",
        4,
        &format!("{HELLO_VALID}\n  {unsupported}\n  {RIGHT}"),
    );
    let (code, stdout, stderr) = run_t(&dir, &[]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("t/decode.json#2  FAIL"), "{stdout}");
    assert!(stdout.contains("GATE NOT MET"), "{stdout}");
    assert!(
        stdout.contains(
            "[t] answered less than it declared: utf-8 decode: answered `unsupported` on 1 case(s)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("declared: utf-8 decode (valid)"),
        "{stdout}"
    );
    // JUnit and HTML readers see it too.
    let (code, _, _) = run_t(&dir, &["--junit", "r.xml", "--html", "r.html"]);
    assert_eq!(code, Some(1));
    let xml = std::fs::read_to_string(dir.join("r.xml")).unwrap();
    assert!(xml.contains(r#"<testsuite name="gate""#), "{xml}");
    let html = std::fs::read_to_string(dir.join("r.html")).unwrap();
    assert!(html.contains("Gate not met (1)"), "{html}");

    // A declared field missing from an answer fails too.
    let hello = HELLO_VALID.replace(r#"["valid"]"#, r#"["valid","lossy"]"#);
    let dir = setup("missing-field", 4, &format!("{hello}\n  {RIGHT}"));
    let (code, stdout, _) = run_t(&dir, &[]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("utf-8 decode: no `lossy` in the answer on 4 case(s)"),
        "{stdout}"
    );
}

#[test]
fn declaring_nothing_that_the_vectors_test_fails() {
    let hello = HELLO_VALID.replace("utf-8", "corrected-utf8");
    let dir = setup("declared-other", 4, &format!("{hello}\n  {RIGHT}"));
    let (code, stdout, _) = run_t(&dir, &[]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("[t] declared nothing that these vectors test"),
        "{stdout}"
    );
}

#[test]
fn a_protocol_1_adapter_needs_require_or_allow_undeclared() {
    let dir = setup("protocol-1", 4, &format!("{HELLO_P1}\n  {RIGHT}"));
    let (code, stdout, _) = run_t(&dir, &[]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("[t] declared nothing (protocol 1)"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("4 passed, 0 failed; gate not met (1)\n"),
        "{stdout}"
    );

    let (code, stdout, _) = run_t(&dir, &["--allow-undeclared"]);
    assert_eq!(code, Some(0), "{stdout}");

    let (code, stdout, _) = run_t(&dir, &["--require", "utf-8:decode:validity"]);
    assert_eq!(code, Some(0), "{stdout}");

    let (code, stdout, _) = run_t(&dir, &["--require", "utf-8:decode:lossy"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("[t] --require utf-8:decode:lossy: 4 of 4 case(s) not answered with lossy"),
        "{stdout}"
    );
    let (code, stdout, _) = run_t(&dir, &["--require", "utf-8:encode"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("no vector of this run tests utf-8 encode"),
        "{stdout}"
    );
}

#[test]
fn require_checks_the_declaration_too() {
    let dir = setup("require-declared", 4, &format!("{HELLO_VALID}\n  {RIGHT}"));
    let (code, stdout, _) = run_t(&dir, &["--require", "utf-8:decode:strict"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("[t] --require utf-8:decode:strict: declared without strict"),
        "{stdout}"
    );
}

#[test]
fn no_vectors_at_all_exits_2() {
    let dir = setup("empty", 4, &format!("{HELLO_VALID}\n  {RIGHT}"));
    std::fs::create_dir_all(dir.join("nothing")).unwrap();
    let (code, stdout, stderr) = run(
        &dir,
        &["--vectors", "nothing", "--adapter", "t=sh adapter.sh"],
    );
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("no vector file found"), "{stderr}");
}

// --- Start-up does not count against the per-case timeout. ---

#[test]
fn a_slow_start_gets_the_startup_allowance() {
    // The start-up takes at least 6 s (`sleep` never ends early), more than the per-case
    // timeout of 5 s, which is a bound for cases answered at once on a loaded machine.
    let dir = setup("slow-start", 4, &format!("{HELLO_VALID}\n  {RIGHT}"));
    let (code, stdout, _) = run(
        &dir,
        &[
            "--vectors",
            "vectors",
            "--adapter",
            "t=sleep 6; exec sh adapter.sh",
            "--timeout",
            "5",
        ],
    );
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.ends_with("4 passed, 0 failed\n"), "{stdout}");

    // Beyond the allowance: a timeout that names the handshake.
    let (code, stdout, _) = run(
        &dir,
        &[
            "--vectors",
            "vectors",
            "--adapter",
            "t=sleep 6; exec sh adapter.sh",
            "--startup-timeout",
            "0.5",
            "--give-up-after",
            "1",
        ],
    );
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("no answer to the hello"), "{stdout}");
    assert!(stdout.contains("--startup-timeout"), "{stdout}");
}

// --- Messages. ---

#[test]
fn a_silent_adapter_is_asked_whether_it_flushed() {
    let dir = setup("silent", 4, "");
    // Each start is logged: the count, not the time taken, says how many allowances the
    // runner gave.
    std::fs::write(
        dir.join("adapter.sh"),
        "echo start >> starts\nexec cat > /dev/null\n",
    )
    .unwrap();
    let start = Instant::now();
    let (code, stdout, _) = run_t(&dir, &["--startup-timeout", "0.5"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("did it flush stdout"), "{stdout}");
    // Two start-up allowances, not one per case.
    assert!(stdout.contains("not started again"), "{stdout}");
    let starts = std::fs::read_to_string(dir.join("starts")).unwrap();
    assert_eq!(starts.lines().count(), 2, "{starts}\n{stdout}");
    // A bound against a run that waits on, not a measurement.
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn repeated_failures_are_summarized() {
    // Says every input is valid: the 20 even cases fail.
    let always = r#"*) echo "{\"id\":\"$id\",\"valid\":true}";;"#;
    let dir = setup("many", 40, &format!("{HELLO_VALID}\n  {always}"));
    let (code, stdout, _) = run_t(&dir, &[]);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(stdout.matches("  FAIL\n").count(), 10, "{stdout}");
    assert!(
        stdout.contains("[t] … and 10 more like these (10 fail)"),
        "{stdout}"
    );
    assert!(stdout.ends_with("20 passed, 20 failed\n"), "{stdout}");
}

#[test]
fn a_malformed_event_is_named_in_protocol_terms() {
    let bad = r#"*) echo "{\"id\":\"$id\",\"output\":[{\"cp\":65}]}";;"#;
    let hello = HELLO_VALID.replace(r#"["valid"]"#, r#"["output"]"#);
    let dir = setup("bad-event", 2, &format!("{hello}\n  {bad}"));
    let (code, stdout, _) = run_t(&dir, &[]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains(r#"field `output`: event 0 is {"cp":65}, expected {"codepoint": "U+…"}, {"error": KIND, "offset": N, "length": N} or {"reserved": true, "offset": N, "length": N}"#),
        "{stdout}"
    );
    assert!(!stdout.contains("enum"), "{stdout}");
}

#[test]
fn an_unwritable_report_stops_before_the_run() {
    let start_marker = r#"hello) touch started; echo '{"id":"hello","unsupported":true}';;"#;
    let dir = setup("unwritable", 4, &format!("{start_marker}\n  {RIGHT}"));
    let (code, stdout, stderr) = run_t(
        &dir,
        &["--allow-undeclared", "--json", "no/such/folder/r.json"],
    );
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("cannot write the json report"), "{stderr}");
    assert!(!dir.join("started").exists(), "the adapter was started");
}

// --- The docs agree with each other and with the code. ---

#[test]
fn the_docs_agree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    let runner = read("README.md");
    let adapters = read("adapters/README.md");
    // stderr: kept for crash messages, in both.
    for doc in [&runner, &adapters] {
        assert!(!doc.contains("stderr is ignored"));
        assert!(doc.contains("last lines for crash messages"));
        // Code points in answers: lenient, and said so in both.
        assert!(doc.contains("`U+41`, `u+0041`"), "lenient code points");
    }
    // The exit codes: an unwritable report and signals.
    assert!(runner.contains("cannot be written"));
    assert!(runner.contains("128 + the signal's number"));
}

#[test]
fn answered_code_points_are_read_leniently_as_documented() {
    let lenient = r#"*) echo "{\"id\":\"$id\",\"lossy\":[\"u+41\"]}";;"#;
    let hello = HELLO_VALID.replace(r#"["valid"]"#, r#"["lossy"]"#);
    let dir = setup("lenient", 1, &format!("{hello}\n  {lenient}"));
    let (code, stdout, _) = run_t(&dir, &[]);
    assert_eq!(code, Some(0), "{stdout}");
}

// --- A field the runner never compares is no declaration, and a run that checked
// nothing fails. ---

#[test]
fn a_declared_field_the_runner_does_not_know_is_a_protocol_error_naming_it() {
    for field in ["events", "id"] {
        let hello = HELLO_VALID.replace(r#"["valid"]"#, &format!(r#"["{field}"]"#));
        let answer = format!(r#"*) echo "{{\"id\":\"$id\",\"{field}\":[]}}";;"#);
        let dir = setup(
            &format!("unknown-field-{field}"),
            4,
            &format!("{hello}\n  {answer}"),
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
    let dir = setup("checked-nothing", 4, unsupported);
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

// --- Floors count only the cases that apply. ---

#[test]
fn splits_and_ascii_prefixes_count_only_applicable_cases_against_require() {
    if !crate::common::prereq::python3() {
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

// --- After giving up, the rest is "not run", in every report. ---

#[test]
fn giving_up_reports_not_run_apart_from_real_crashes_in_every_format() {
    // Answers the hello, then garbage: protocol errors. Its encode cases were never
    // declared.
    let garbage = r#"*) echo "garbage";;"#;
    let dir = setup("gave-up", 8, &format!("{HELLO_VALID}\n  {garbage}"));
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

// --- Numeric options are range-checked before anything runs. ---

#[test]
fn numeric_options_out_of_range_are_usage_errors() {
    let dir = setup("ranges", 2, &format!("{HELLO_VALID}\n  {RIGHT}"));
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

// --- A deadline for the whole run. ---

#[test]
fn a_deadline_ends_the_run_with_not_run_cases_a_failed_gate_and_every_report() {
    // Answers the hello, then takes 30 s per case: without the deadline, 6 × 20 s.
    let slow = r#"*) sleep 30; echo "{\"id\":\"$id\",\"valid\":true}";;"#;
    let dir = setup("deadline", 6, &format!("{HELLO_VALID}\n  {slow}"));
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

// --- `spans`: every span's offset and length, without kinds. ---

#[test]
fn python_codec_spans_mode_passes_every_utf8_vector_on_spans() {
    if !crate::common::prereq::python3() {
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
    let dir = setup("spans-off", 4, &format!("{hello}\n  {off}"));
    let (code, stdout, _) = run_t(&dir, &[]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("spans: expected"), "{stdout}");
    assert!(stdout.ends_with("2 passed, 2 failed\n"), "{stdout}");
}

// --- Floors per adapter. ---

#[test]
fn require_names_the_adapter_it_applies_to() {
    // A validator (valid) and a replacer (lossy), in one run with a floor each.
    let lossy_hello = HELLO_VALID.replace(r#"["valid"]"#, r#"["lossy"]"#);
    let lossy = r#"*[13579]) echo "{\"id\":\"$id\",\"lossy\":[\"U+0041\"]}";;
  *) echo "{\"id\":\"$id\",\"lossy\":[\"U+FFFD\"]}";;"#;
    let dir = setup_each(
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

// --- The flush hint while the hello is awaited. ---

#[test]
fn a_silent_adapter_gets_the_flush_hint_at_once_while_the_timeout_still_decides() {
    // Alive and silent until the hint has been printed, then it answers: the run passes,
    // and the hint was printed on the way (not only in a timeout's message). The adapter
    // waits for the file `go`, which this test creates when it reads the hint.
    let dir = setup("flush-hint", 2, &format!("{HELLO_VALID}\n  {RIGHT}"));
    let mut child = process::conformance()
        .current_dir(&dir)
        .args([
            "run",
            "--vectors",
            "vectors",
            "--adapter",
            "t=while [ ! -e go ]; do sleep 0.05; done; exec sh adapter.sh",
            "--startup-timeout",
            "60",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout_pipe = child.stdout.take().unwrap();
    let stdout = std::thread::spawn(move || {
        let mut text = String::new();
        stdout_pipe.read_to_string(&mut text).unwrap();
        text
    });
    let hint = "[t] has run 5 s and nothing at all came on its stdout since it started: did it \
                flush stdout after each line?";
    let mut stderr = String::new();
    // Until the end of stderr: the runner's exit (the start-up allowance bounds it).
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        if line.contains(hint) {
            std::fs::write(dir.join("go"), "").unwrap();
        }
        stderr += &line;
        stderr.push('\n');
    }
    let status = child.wait().unwrap();
    let stdout = stdout.join().unwrap();
    assert_eq!(status.code(), Some(0), "{stdout}{stderr}");
    assert!(stderr.contains(hint), "{stderr}");
    assert!(stdout.ends_with("2 passed, 0 failed\n"), "{stdout}");
}
