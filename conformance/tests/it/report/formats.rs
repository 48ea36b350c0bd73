//! What the report files hold: JUnit that an XML
//! parser accepts whatever the vectors and answers contain, with dot-free class names; a
//! terminal report with no raw control character; files that list failures one by one
//! (with their input, cut, and flags) and passes and skips as counts, and every case
//! with `--report-all`.

use crate::common::process::{conformance, run, scratch, Finished};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Four UTF-8 decode cases: #1 `41`; #2 `c0`, whose comment holds ESC sequences and
/// U+0001; #3 5000 × `41`; #4 `ff`.
fn vector_file() -> String {
    let long = "41".repeat(5000);
    let long_output = vec![r#"{"codepoint": "U+0041"}"#; 5000].join(", ");
    format!(
        r#"{{
  "schema": "decode", "encoding": "utf-8", "version": "0.0.1", "numberOfTests": 4,
  "header": ["test"], "notes": {{}},
  "testGroups": [{{"comment": "four cases", "tests": [
    {{"tcId": 1, "comment": "A", "flags": ["Sample"], "input": "41", "output": [{{"codepoint": "U+0041"}}], "result": "valid"}},
    {{"tcId": 2, "comment": "C0 \u001b[31mred\u001b[0m \u0001", "flags": ["Overlong"], "input": "c0", "output": [{{"error": "overlong", "offset": 0, "length": 1}}], "result": "invalid"}},
    {{"tcId": 3, "comment": "long", "flags": ["LargeInput"], "input": "{long}", "output": [{long_output}], "result": "valid"}},
    {{"tcId": 4, "comment": "FF", "flags": ["InvalidByte"], "input": "ff", "output": [{{"error": "invalid-byte", "offset": 0, "length": 1}}], "result": "invalid"}}
  ]}}]
}}
"#
    )
}

/// A protocol-1 adapter: #1 right, #2 a lossy answer of U+FFFE and U+FFFF (characters
/// XML 1.0 forbids), #3 wrong, #4 unsupported (a skip).
const ADAPTER: &str = r#"while IFS= read -r line; do
  id=${line#*\"id\":\"}; id=${id%%\"*}
  case "$id" in
    hello) echo '{"id":"hello","unsupported":true}';;
    *#1) echo "{\"id\":\"$id\",\"lossy\":[\"U+0041\"]}";;
    *#2) echo "{\"id\":\"$id\",\"lossy\":[\"\\uFFFE\",\"\\uFFFF\",\"\\u001b[2J\"]}";;
    *#3) echo "{\"id\":\"$id\",\"lossy\":[\"U+0042\"]}";;
    *) echo "{\"id\":\"$id\",\"unsupported\":true}";;
  esac
done
"#;

fn setup(name: &str) -> PathBuf {
    let dir = scratch("report-formats", name);
    std::fs::create_dir_all(dir.join("vectors/t")).unwrap();
    std::fs::write(dir.join("vectors/t/decode.json"), vector_file()).unwrap();
    std::fs::write(dir.join("adapter.sh"), ADAPTER).unwrap();
    dir
}

/// Runs the adapter with every report, plus `extra`.
fn run_reports(dir: &Path, extra: &[&str]) -> Finished {
    let out = run(conformance()
        .current_dir(dir)
        .args([
            "run",
            "--vectors",
            "vectors",
            "--adapter",
            "t=sh adapter.sh",
        ])
        .args(["--allow-undeclared", "--json", "r.json", "--junit", "r.xml"])
        .args(["--html", "r.html"])
        .args(extra));
    assert_eq!(out.code(), Some(1), "{}{}", out.stdout, out.stderr);
    out
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn junit_is_well_formed_whatever_the_answers_hold() {
    let dir = setup("xml");
    run_reports(&dir, &[]);
    let xml = read(&dir, "r.xml");
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let text: String = doc
        .descendants()
        .flat_map(|n| {
            n.attributes()
                .map(|a| a.value().to_string())
                .chain(n.text().map(str::to_string))
                .collect::<Vec<_>>()
        })
        .collect();
    // Forbidden or control characters are written as text, never dropped.
    for shown in [
        "\\u{FFFE}",
        "\\u{FFFF}",
        "\\u{1B}[31mred",
        "\\u{1}",
        "\\u001b[2J",
    ] {
        assert!(text.contains(shown), "{shown} missing from\n{xml}");
    }
    assert!(!text.contains('\u{1b}') && !text.contains('\u{FFFE}'));
}

#[test]
fn junit_class_names_have_no_dots() {
    let dir = setup("classname");
    // Two failures listed, the pass and the skip counted: four test cases.
    run_reports(&dir, &[]);
    let xml = read(&dir, "r.xml");
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let names: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("classname"))
        .collect();
    assert_eq!(names.len(), 4, "{xml}");
    assert!(names.iter().all(|&n| n == "t/t/decode_json"), "{names:?}");
}

#[test]
fn the_terminal_report_escapes_control_characters() {
    let dir = setup("terminal");
    let out = run_reports(&dir, &[]);
    assert!(!out.stdout.contains('\u{1b}'), "raw ESC on the terminal");
    assert!(!out.stdout.contains('\u{1}'));
    assert!(
        out.stdout
            .contains("comment: C0 \\u{1B}[31mred\\u{1B}[0m \\u{1}"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("\\u001b[2J"), "{}", out.stdout);
}

#[test]
fn reports_list_failures_and_count_passes_and_skips() {
    let dir = setup("listed");
    run_reports(&dir, &[]);
    let json: Value = serde_json::from_str(&read(&dir, "r.json")).unwrap();
    assert_eq!(json["reportVersion"], 5);
    assert_eq!(json["resultsListed"], "failures");
    let imp = &json["implementations"][0];
    let ids: Vec<&str> = imp["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["t/decode.json#2", "t/decode.json#3"]);
    // Readable without the vector file: the input (cut, with its length) and the flags.
    let long = &imp["results"][1];
    assert_eq!(long["inputLength"], 5000);
    assert_eq!(long["input"].as_str().unwrap().len(), 4096);
    assert_eq!(long["flags"], serde_json::json!(["LargeInput"]));
    assert_eq!(imp["results"][0]["input"], "c0");
    // The rest as counts: per file, and the skips by reason.
    assert_eq!(imp["files"]["t/decode.json"]["pass"], 1);
    assert_eq!(
        imp["skips"],
        serde_json::json!([{"file": "t/decode.json", "reason": "unsupported", "count": 1,
                            "first": "t/decode.json#4"}])
    );
    let xml = read(&dir, "r.xml");
    roxmltree::Document::parse(&xml).unwrap();
    assert!(xml.contains("1 case(s) passed"), "{xml}");
    assert!(xml.contains("1 case(s) skipped: unsupported"), "{xml}");
    assert!(!xml.contains("#1 A"), "{xml}");
    let html = read(&dir, "r.html");
    assert!(html.contains("title=\"t/decode.json#2\""));
    assert!(!html.contains("title=\"t/decode.json#1\""));

    // --report-all: every case.
    run_reports(&dir, &["--report-all"]);
    let json: Value = serde_json::from_str(&read(&dir, "r.json")).unwrap();
    assert_eq!(json["resultsListed"], "all");
    assert_eq!(
        json["implementations"][0]["results"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    assert!(read(&dir, "r.xml").contains("#1 A"));
    assert!(read(&dir, "r.html").contains("title=\"t/decode.json#1\""));
}
