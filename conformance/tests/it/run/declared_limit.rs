//! `conformance run` and a UTF-∞-8 decoder's declared code length limit (`"limit": N` on
//! `utf-inf-8 decode` in the hello): the vectors whose answer depends on the limit are
//! judged at the limit declared, a decoder using another limit without saying so fails,
//! and a limit outside 1 to 2^32 bytes is a protocol error of the hello.

use crate::common::process::{conformance_in, scratch};
use serde_json::Value;
use std::path::Path;

/// The honest Python adapter, decoding UTF-∞-8 at a limit of 16 bytes; `hello_edit`, a
/// `sed` expression applied to its output (the hello is its only line naming a limit).
fn limit_16_adapter(hello_edit: Option<&str>) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/corrected_utf8.py");
    let mut command = format!("t=python3 '{}' --limit 16", script.display());
    if let Some(edit) = hello_edit {
        command.push_str(&format!(" | sed -u '{edit}'"));
    }
    command
}

/// `run --encoding utf-inf-8` of `adapter`: exit code, stdout, the JSON report.
fn run_inf(name: &str, adapter: &str) -> (Option<i32>, String, Value) {
    let dir = scratch("declared_limit", name);
    let (code, stdout, stderr) = conformance_in(
        &dir,
        &[
            "run",
            "--encoding",
            "utf-inf-8",
            "--adapter",
            adapter,
            "--json",
            "r.json",
            "--report-all",
        ],
    );
    let report = std::fs::read(dir.join("r.json"))
        .unwrap_or_else(|e| panic!("no report ({e}); stdout:\n{stdout}\nstderr:\n{stderr}"));
    (code, stdout, serde_json::from_slice(&report).unwrap())
}

/// The results of the report's only implementation.
fn results(report: &Value) -> &Vec<Value> {
    report["implementations"][0]["results"].as_array().unwrap()
}

#[test]
fn a_decoder_at_a_declared_limit_of_16_passes_judged_at_16() {
    if !crate::common::prereq::python3() {
        return;
    }
    let (code, stdout, report) = run_inf("declared", &limit_16_adapter(None));
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("limit 16"), "{stdout}");
    let decode: Vec<&Value> = results(&report)
        .iter()
        .filter(|r| r["op"] == "decode")
        .collect();
    assert!(decode.len() > 900, "{} decode results", decode.len());
    for r in decode {
        assert_eq!(r["status"], "pass", "{r}");
        assert_eq!(r["judgedAtLimit"], 16, "{r}");
    }
}

#[test]
fn a_decoder_at_16_that_does_not_declare_it_fails_at_the_default_limit() {
    if !crate::common::prereq::python3() {
        return;
    }
    let (code, stdout, report) =
        run_inf("undeclared", &limit_16_adapter(Some(r#"s/,"limit":16//"#)));
    assert_eq!(code, Some(1), "{stdout}");
    let failed: Vec<&Value> = results(&report)
        .iter()
        .filter(|r| r["status"] == "fail")
        .collect();
    // Every code of 17 bytes to the default limit of 65,536 is refused at 16: many
    // vectors, each its own failure.
    assert!(failed.len() >= 20, "{} failures:\n{stdout}", failed.len());
    assert!(
        failed.iter().all(|r| r["judgedAtLimit"].is_null()),
        "judged at a limit nobody declared"
    );
    assert!(stdout.contains("limit-exceeded"), "{stdout}");
}

#[test]
fn a_limit_outside_1_to_2_pow_32_is_a_protocol_error() {
    if !crate::common::prereq::python3() {
        return;
    }
    for (name, limit) in [("zero", "0"), ("above", "4294967297"), ("text", r#""16""#)] {
        let edit = format!(r#"s/"limit":16/"limit":{limit}/"#);
        let (code, stdout, report) = run_inf(name, &limit_16_adapter(Some(&edit)));
        assert_eq!(code, Some(1), "{stdout}");
        assert!(
            stdout.contains(&format!("declares the limit {limit}, which is not a whole number of bytes from 1 to 4294967296")),
            "{stdout}"
        );
        assert_eq!(report["summary"]["passed"], 0, "{}", report["summary"]);
    }
}
