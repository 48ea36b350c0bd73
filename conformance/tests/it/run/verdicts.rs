//! `conformance run`: the reference codec against every vector, and the runner's handling
//! of adapters that answer wrong, hang, crash or break the protocol, expected failures,
//! malformed vector files and bad usage. Adapters here are tiny `sh` scripts.

use crate::common::process::{self, Finished, DECODE};
use crate::common::sh::{self, HELLO_VALID, INVALID, VALID};
use conformance::judge::Status;
use conformance::run::{self, Config as RunArgs};
use conformance::vectors::{Encoding, Op};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The reference codec agrees with every vector, through the runner's own
/// checks of every protocol field.
#[test]
fn reference_passes_every_vector() {
    let report = run::execute(&RunArgs::default()).expect("the vectors load");
    assert!(report.suite.files.len() >= 5, "{:?}", report.suite.files);
    let reference = &report.implementations[0];
    assert_eq!(reference.name, "reference");
    let mut failures = Vec::new();
    for (case, r) in report.suite.cases.iter().zip(&reference.results) {
        match r.status {
            Status::Pass => assert!(!r.checked.is_empty()),
            // UTF-∞-8 is not in the reference yet: the only allowed skip.
            Status::Skip if case.encoding == Encoding::UtfInf8 => {}
            _ => failures.push(format!(
                "{} {:?} {:?} {:?}",
                case.id, r.status, r.mismatches, r.message
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(report.exit_code(), 0);
    // Decode cases are checked at the full level.
    for c in reference.coverage(&report.suite) {
        if c.op == Op::Decode && c.encoding != Encoding::UtfInf8 {
            assert_eq!(c.describe(), "full events", "{c:?}");
        }
    }
}

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    process::scratch("runner", name)
}

/// A folder `vectors/t/decode.json` (ids `t/decode.json#N`) and an adapter script whose
/// `case` arms answer each id: `$id` is the request's id. The adapter declares `valid`
/// for UTF-8 decode ([`HELLO_VALID`]) unless `arms` answers `hello` itself first.
fn setup(name: &str, arms: &str) -> PathBuf {
    let arms = if arms.starts_with("hello)") {
        arms.to_string()
    } else {
        format!("{HELLO_VALID}\n{arms}")
    };
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("vectors/t")).unwrap();
    std::fs::write(dir.join("vectors/t/decode.json"), DECODE).unwrap();
    std::fs::write(dir.join("adapter.sh"), sh::script(&arms)).unwrap();
    dir
}

fn run_in(dir: &Path, extra: &[&str]) -> (Finished, String, String) {
    let out = process::run(
        process::conformance()
            .current_dir(dir)
            .args([
                "run",
                "--vectors",
                "vectors",
                "--adapter",
                "t=sh adapter.sh",
            ])
            .args(extra)
            .stdin(Stdio::null()),
    );
    let (stdout, stderr) = (out.stdout.clone(), out.stderr.clone());
    (out, stdout, stderr)
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or_default()
}

#[test]
fn a_wrong_answer_exits_1() {
    // Says every input is valid: #2 and #4 fail.
    let dir = setup("wrong", &format!("*) {VALID}"));
    let (out, stdout, _) = run_in(&dir, &[]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(last_line(&stdout), "2 passed, 2 failed");
    assert!(stdout.contains("[t] t/decode.json#2  FAIL"), "{stdout}");
    assert!(stdout.contains("valid: expected false"), "{stdout}");
    assert!(stdout.contains("input c0"), "{stdout}");
    assert!(stdout.contains("utf-8 decode"), "{stdout}");
    assert!(stdout.contains("validity (4/4 answered)"), "{stdout}");
}

#[test]
fn a_right_answer_exits_0_with_reports() {
    // Protocol 1 (no handshake), so that an unsupported case may be skipped.
    let dir = setup(
        "right",
        &format!("hello) echo '{{\"id\":\"hello\",\"unsupported\":true}}';;\n*#1|*#3) {VALID}\n*#2) echo '{{\"id\":\"t/decode.json#2\",\"unsupported\":true}}';;\n*) {INVALID}"),
    );
    let (out, stdout, _) = run_in(
        &dir,
        &[
            "--allow-undeclared",
            "--json",
            "r.json",
            "--junit",
            "r.xml",
            "--html",
            "r.html",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(last_line(&stdout), "3 passed, 0 failed, 1 skipped");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    assert_eq!(json["summary"]["passed"], 3);
    // Passes and skips are counts (every case is listed with --report-all).
    assert_eq!(
        json["implementations"][0]["skips"][0]["first"],
        "t/decode.json#2"
    );
    assert_eq!(json["implementations"][0]["results"], serde_json::json!([]));
    let xml = std::fs::read_to_string(dir.join("r.xml")).unwrap();
    assert!(
        xml.contains("<testsuite name=\"t: t/decode.json\""),
        "{xml}"
    );
    assert!(xml.contains("<skipped"), "{xml}");
    let html = std::fs::read_to_string(dir.join("r.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no external resources"
    );
}

#[test]
fn a_hanging_adapter_times_out_and_the_run_finishes() {
    // #2 hangs (`exec sleep`, so its pid is known); the adapter is killed and restarted.
    let dir = setup(
        "hang",
        &format!("*#2) echo $$ > pid; exec sleep 60;;\n*#4) {INVALID}\n*) {VALID}"),
    );
    // The other cases answer at once: 5 s is a bound for them on a loaded machine, not a
    // guess of how long the hang takes (it never ends).
    let start = Instant::now();
    let (out, stdout, _) = run_in(&dir, &["--timeout", "5"]);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("t/decode.json#2  TIMEOUT"), "{stdout}");
    assert!(stdout.contains("no answer within 5 s"), "{stdout}");
    assert_eq!(last_line(&stdout), "3 passed, 1 failed");
    // The hung process is gone, not a zombie.
    let pid = std::fs::read_to_string(dir.join("pid")).unwrap();
    assert!(
        !Path::new(&format!("/proc/{}", pid.trim())).exists(),
        "process {pid} still exists"
    );
}

#[test]
fn a_crashing_adapter_gives_crash_and_the_run_goes_on() {
    let dir = setup(
        "crash",
        &format!("*#2) echo dying >&2; exit 3;;\n*#4) {INVALID}\n*) {VALID}"),
    );
    let (out, stdout, _) = run_in(&dir, &[]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("t/decode.json#2  CRASH"), "{stdout}");
    assert!(stdout.contains("exited with status 3"), "{stdout}");
    assert!(stdout.contains("stderr: dying"), "{stdout}");
    assert_eq!(last_line(&stdout), "3 passed, 1 failed");
}

#[test]
fn protocol_errors_restart_the_adapter() {
    let dir = setup(
        "protocol",
        &format!("*#2) echo 'not json';;\n*#3) echo '{{\"id\":\"wrong\"}}';;\n*#4) {INVALID}\n*) {VALID}"),
    );
    let (out, stdout, _) = run_in(&dir, &[]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("t/decode.json#2  PROTOCOL"), "{stdout}");
    assert!(stdout.contains("not JSON"), "{stdout}");
    assert!(stdout.contains("answered id \"wrong\""), "{stdout}");
    assert_eq!(last_line(&stdout), "2 passed, 2 failed");
}

#[test]
fn expected_failures_and_unexpected_passes() {
    let dir = setup("xfail", &format!("*) {VALID}"));
    // #2 fails as listed; #4 fails unlisted; #1 is listed but passes.
    std::fs::write(
        dir.join("xf.json"),
        r#"{"t": {"t/decode.json#2": "known", "t/decode.json#1": "stale"}, "other": {"x#1": "-"}}"#,
    )
    .unwrap();
    let (out, stdout, _) = run_in(&dir, &["--expected-failures", "xf.json"]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("t/decode.json#1  XPASS"), "{stdout}");
    assert!(stdout.contains("t/decode.json#2  XFAIL"), "{stdout}");
    assert_eq!(last_line(&stdout), "1 passed, 2 failed, 1 skipped");

    // Listing both real failures and nothing else: exit 0.
    std::fs::write(
        dir.join("xf.json"),
        r#"{"t": {"t/decode.json#2": "known", "t/decode.json#4": "known too"}}"#,
    )
    .unwrap();
    let (out, stdout, _) = run_in(&dir, &["--expected-failures", "xf.json"]);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(last_line(&stdout), "2 passed, 0 failed, 2 skipped");
}

#[test]
fn expected_failures_from_several_files_are_merged() {
    let dir = setup("xfail-files", &format!("*) {VALID}"));
    // #2 and #4 fail: one listed in each file.
    std::fs::write(dir.join("a.json"), r#"{"t": {"t/decode.json#2": "known"}}"#).unwrap();
    std::fs::write(
        dir.join("b.json"),
        r#"{"t": {"t/decode.json#4": "known too"}}"#,
    )
    .unwrap();
    let (out, stdout, _) = run_in(
        &dir,
        &[
            "--expected-failures",
            "a.json",
            "--expected-failures",
            "b.json",
            "--json",
            "r.json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(last_line(&stdout), "2 passed, 0 failed, 2 skipped");
    assert!(stdout.contains("listed in a.json, b.json"), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    assert_eq!(json["expectedFailuresFile"], "a.json");
    assert_eq!(
        json["expectedFailuresFiles"],
        serde_json::json!(["a.json", "b.json"])
    );
    // Only one of them: #4 fails.
    let (out, stdout, _) = run_in(&dir, &["--expected-failures", "a.json"]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    // The same file twice is read once.
    let (out, _, stderr) = run_in(
        &dir,
        &[
            "--expected-failures",
            "a.json",
            "--expected-failures",
            "a.json",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{stderr}");

    // The same implementation and case in two files: exit 2, naming both, nothing run.
    std::fs::write(dir.join("c.json"), r#"{"t": {"t/decode.json#2": "again"}}"#).unwrap();
    let (out, stdout, stderr) = run_in(
        &dir,
        &[
            "--expected-failures",
            "a.json",
            "--expected-failures",
            "c.json",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("c.json")
            && stderr.contains("a.json")
            && stderr.contains("t/decode.json#2"),
        "{stderr}"
    );
}

#[test]
fn a_malformed_vector_file_exits_2_with_its_position() {
    let dir = setup("malformed", &format!("*) {VALID}"));
    std::fs::write(
        dir.join("vectors/t/bad.json"),
        "{\n  \"schema\": \"decode\",\n  \"encoding\": 5\n}\n",
    )
    .unwrap();
    let (out, stdout, stderr) = run_in(&dir, &[]);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stdout.is_empty(), "nothing run: {stdout}");
    assert!(
        stderr.contains("bad.json:3:15: invalid type: integer `5`, expected a string"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    // A duplicate tcId is located too.
    std::fs::write(
        dir.join("vectors/t/bad.json"),
        DECODE.replace("\"tcId\": 3", "\"tcId\": 1"),
    )
    .unwrap();
    let (out, _, stderr) = run_in(&dir, &[]);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.json:14:10: tcId 1 appears twice"),
        "{stderr}"
    );
}

#[test]
fn bad_usage_exits_2() {
    let dir = setup("usage", &format!("*) {VALID}"));
    for args in [
        &["--timeout", "0"][..],
        &["--encoding", "utf8"],
        &["--adapter", "no-equals-sign"],
        &["--adapter", "t=sh other.sh"],
        &["--vectors", "missing"],
        &["--expected-failures", "missing.json"],
    ] {
        let (out, stdout, stderr) = run_in(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout} {stderr}");
    }
}

/// Three Corrected UTF-8 decode cases in the vectors' 2.0 shapes: #1 `fe` reserved, #2
/// `41fe` reserved, #3 `fe80` then a truncated `c0`: invalid (both classes).
const RESERVED: &str = r#"{
  "schema": "decode",
  "encoding": "corrected-utf8",
  "version": "2.0.0",
  "numberOfTests": 3,
  "header": ["runner test"],
  "notes": {},
  "testGroups": [
    {
      "comment": "reserved spans",
      "tests": [
        {"tcId": 1, "comment": "FE", "flags": [], "input": "fe", "output": [{"reserved": true, "offset": 0, "length": 1}], "result": "reserved"},
        {"tcId": 2, "comment": "A FE", "flags": [], "input": "41fe", "output": [{"codepoint": "U+0041"}, {"reserved": true, "offset": 1, "length": 1}], "result": "reserved"},
        {"tcId": 3, "comment": "FE 80 C0", "flags": [], "input": "fe80c0", "output": [{"reserved": true, "offset": 0, "length": 2}, {"error": "truncated", "offset": 2, "length": 1}], "result": "invalid"}
      ]
    }
  ]
}
"#;

/// A folder with only [`RESERVED`] (ids `t/reserved.json#N`) and an adapter that declares
/// `fields` for Corrected UTF-8 decode and answers with `arms`.
fn setup_reserved(name: &str, fields: &str, arms: &str) -> PathBuf {
    let hello = format!(
        r#"hello) echo '{{"id":"hello","protocol":2,"name":"t","supports":[{{"encoding":"corrected-utf8","op":"decode","fields":[{fields}]}}]}}';;"#
    );
    let dir = setup(name, &format!("{hello}\n{arms}"));
    std::fs::remove_file(dir.join("vectors/t/decode.json")).unwrap();
    std::fs::write(dir.join("vectors/t/reserved.json"), RESERVED).unwrap();
    dir
}

/// `echo` of one JSON answer (single-quoted; `ID` stands for the request's id).
fn answer(json: &str) -> String {
    format!(
        "echo '{}';;",
        json.replace("ID", "'\"$id\"'").replace('\n', " ")
    )
}

#[test]
fn a_correct_reserved_answer_passes() {
    let arms = [
        format!(
            "*#1) {}",
            answer(
                r#"{"id":"ID","output":[{"reserved":true,"offset":0,"length":1}],"lossy":["U+FFFD"],"result":"reserved","valid":false,"strict":{"offset":0,"length":1,"reserved":true}}"#
            )
        ),
        format!(
            "*#2) {}",
            answer(
                r#"{"id":"ID","output":[{"codepoint":"U+0041"},{"reserved":true,"offset":1,"length":1}],"lossy":["U+0041","U+FFFD"],"result":"reserved","valid":false,"strict":{"offset":1,"length":1,"reserved":true}}"#
            )
        ),
        format!(
            "*#3) {}",
            answer(
                r#"{"id":"ID","output":[{"reserved":true,"offset":0,"length":2},{"error":"truncated","offset":2,"length":1}],"lossy":["U+FFFD","U+FFFD"],"result":"invalid","valid":false,"strict":{"offset":0,"length":2,"reserved":true}}"#
            )
        ),
    ];
    let dir = setup_reserved(
        "reserved-right",
        r#""output","lossy","result","valid","strict""#,
        &arms.join("\n"),
    );
    let (out, stdout, _) = run_in(
        &dir,
        &["--json", "r.json", "--html", "r.html", "--report-all"],
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(last_line(&stdout), "3 passed, 0 failed");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    assert_eq!(
        json["implementations"][0]["results"][0]["checked"],
        serde_json::json!(["output", "lossy", "result", "valid", "strict"])
    );
}

#[test]
fn a_reserved_span_answered_as_an_error_fails() {
    // The protocol-1 shape of a reserved span: an error event of kind `reserved`, and a
    // strict answer with that kind.
    let dir = setup_reserved(
        "reserved-as-error",
        r#""output","strict""#,
        &format!(
            "*) {}",
            answer(
                r#"{"id":"ID","output":[{"error":"reserved","offset":0,"length":1}],"strict":{"offset":0,"length":1,"error":"reserved"}}"#
            )
        ),
    );
    let (out, stdout, _) = run_in(&dir, &["--junit", "r.xml"]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("t/reserved.json#1  FAIL"), "{stdout}");
    assert!(
        stdout.contains(r#"output: expected [{"reserved":true,"offset":0,"length":1}]"#),
        "{stdout}"
    );
    assert!(
        stdout.contains(r#"strict: expected {"offset":0,"length":1,"reserved":true}"#),
        "{stdout}"
    );
    assert!(
        stdout.contains("a reserved span, not an error span"),
        "{stdout}"
    );
    assert_eq!(last_line(&stdout), "0 passed, 3 failed");
    let xml = std::fs::read_to_string(dir.join("r.xml")).unwrap();
    assert!(xml.contains("<failure"), "{xml}");
}

#[test]
fn valid_true_for_a_reserved_input_fails() {
    // `valid` means "decodes to code points alone": false for FE.
    let dir = setup_reserved("reserved-valid", r#""valid""#, &format!("*) {VALID}"));
    let (out, stdout, _) = run_in(&dir, &[]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("t/reserved.json#1  FAIL"), "{stdout}");
    assert!(stdout.contains("valid: expected false"), "{stdout}");
    assert!(
        stdout.contains("a reserved input does not decode to code points alone"),
        "{stdout}"
    );
    assert_eq!(last_line(&stdout), "0 passed, 3 failed");
}

#[test]
fn a_wrong_result_fails_and_a_bad_one_is_a_protocol_error() {
    // #1 says invalid (it is reserved), #2 valid, #3 an unknown word; `valid` false is
    // right for all three.
    let arms = [
        format!(
            "*#1) {}",
            answer(r#"{"id":"ID","result":"invalid","valid":false}"#)
        ),
        format!(
            "*#2) {}",
            answer(r#"{"id":"ID","result":"valid","valid":false}"#)
        ),
        format!(
            "*#3) {}",
            answer(r#"{"id":"ID","result":"bad","valid":false}"#)
        ),
    ];
    let dir = setup_reserved("reserved-result", r#""result","valid""#, &arms.join("\n"));
    let (out, stdout, _) = run_in(&dir, &["--json", "r.json"]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(r#"result: expected "reserved""#),
        "{stdout}"
    );
    assert!(stdout.contains("t/reserved.json#3  PROTOCOL"), "{stdout}");
    assert!(
        stdout.contains(r#"field `result`: not "valid", "reserved" or "invalid""#),
        "{stdout}"
    );
    assert_eq!(last_line(&stdout), "0 passed, 3 failed");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    let first = &json["implementations"][0]["results"][0];
    assert_eq!(first["mismatches"][0]["field"], "result");
    assert_eq!(first["mismatches"][0]["expected"], "reserved");
    assert_eq!(first["mismatches"][0]["got"], "invalid");
}
