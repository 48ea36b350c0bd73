//! A release gate that cannot pass by accident: one test per bug of the gate's issue
//! (same-named vector files, unbounded answer lines, skips that pass, start-up against
//! the per-case timeout, messages, docs), all through the `conformance` binary with tiny
//! `sh` adapters.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    common::process::scratch("gate", name)
}

/// A UTF-8 decode file of `n` cases: odd tcIds `41` (valid), even ones `c0` (invalid).
fn decode_file(n: usize, header: &str) -> String {
    common::fixtures::decode_file(header, n)
}

/// Declares `valid` for UTF-8 decode.
const HELLO_VALID: &str = r#"hello) echo '{"id":"hello","protocol":2,"name":"t","supports":[{"encoding":"utf-8","op":"decode","fields":["valid"]}]}';;"#;
/// Answers the hello as a protocol-1 adapter does.
const HELLO_P1: &str = r#"hello) echo '{"id":"hello","unsupported":true}';;"#;
/// The right `valid` for [`decode_file`]'s cases.
const RIGHT: &str = r#"*[13579]) echo "{\"id\":\"$id\",\"valid\":true}";;
  *) echo "{\"id\":\"$id\",\"valid\":false}";;"#;

/// `vectors/t/decode.json` with `n` cases and `adapter.sh` answering with `arms`.
fn setup(name: &str, n: usize, arms: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("vectors/t")).unwrap();
    std::fs::write(dir.join("vectors/t/decode.json"), decode_file(n, "t")).unwrap();
    let script = format!(
        "while IFS= read -r line; do\n  id=${{line#*\\\"id\\\":\\\"}}; id=${{id%%\\\"*}}\n  case \"$id\" in\n  {arms}\n  esac\ndone\n"
    );
    std::fs::write(dir.join("adapter.sh"), script).unwrap();
    dir
}

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .current_dir(dir)
        .arg("run")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn run_t(dir: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["--vectors", "vectors", "--adapter", "t=sh adapter.sh"];
    args.extend_from_slice(extra);
    run(dir, &args)
}

// --- 1. Vector files with the same name are never silently dropped. ---

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

// --- 2. Answer lines are capped. ---

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

// --- 3. Skips do not pass: the handshake's declaration and --require are a floor. ---

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

// --- 4. Start-up does not count against the per-case timeout. ---

#[test]
fn a_slow_start_gets_the_startup_allowance() {
    let dir = setup("slow-start", 4, &format!("{HELLO_VALID}\n  {RIGHT}"));
    let (code, stdout, _) = run(
        &dir,
        &[
            "--vectors",
            "vectors",
            "--adapter",
            "t=sleep 1.5; exec sh adapter.sh",
            "--timeout",
            "1",
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
            "t=sleep 1.5; exec sh adapter.sh",
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

// --- 5. Messages. ---

#[test]
fn a_silent_adapter_is_asked_whether_it_flushed() {
    let dir = setup("silent", 4, "");
    std::fs::write(dir.join("adapter.sh"), "exec cat > /dev/null\n").unwrap();
    let start = Instant::now();
    let (code, stdout, _) = run_t(&dir, &["--startup-timeout", "0.5"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("did it flush stdout"), "{stdout}");
    // Two start-up allowances, not one per case.
    assert!(stdout.contains("not started again"), "{stdout}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
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

// --- 6. The docs agree with each other and with the code. ---

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
