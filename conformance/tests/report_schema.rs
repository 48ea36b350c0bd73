//! The JSON report is a contract: real reports (the reference on the embedded vectors, and
//! an adapter that fails, crashes, skips and declares nothing; failures listed, the
//! default, and every case listed, `--report-all`) validate against
//! `conformance/schema/report.schema.json`, and a report missing a field does not.
//!
//! The validator is the small one in `common/schema.rs`, shared with the vector lint.

mod common;

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn validate(value: &Value) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/report.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    common::schema::validate(&schema, value)
}

/// Runs `conformance run ARGS --json r.json` in `dir` and returns the report.
fn report(dir: &Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .current_dir(dir)
        .arg("run")
        .args(args)
        .args(["--json", "r.json"])
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap()
}

#[test]
fn real_reports_follow_the_schema() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-schema");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    // The reference on the embedded vectors: every case passes, so none is listed...
    let reference = report(&dir, &[]);
    assert_eq!(validate(&reference), Vec::<String>::new());
    assert_eq!(reference["reportVersion"], 3);
    assert_eq!(reference["resultsListed"], "failures");
    assert_eq!(
        reference["implementations"][0]["results"],
        serde_json::json!([])
    );
    assert_eq!(reference["vectors"]["source"], "embedded");
    assert_eq!(reference["gate"]["met"], true);
    // ... but all of them with --report-all.
    let reference = report(&dir, &["--report-all"]);
    assert_eq!(validate(&reference), Vec::<String>::new());
    assert_eq!(reference["resultsListed"], "all");
    assert_eq!(
        reference["implementations"][0]["results"]
            .as_array()
            .unwrap()
            .len() as u64,
        reference["summary"]["passed"].as_u64().unwrap()
            + reference["summary"]["skipped"].as_u64().unwrap()
    );

    // A protocol-1 adapter that answers wrong, skips, crashes: every optional shape.
    std::fs::write(
        dir.join("adapter.sh"),
        r#"n=0
while IFS= read -r line; do
  n=$((n+1)); id=${line#*\"id\":\"}; id=${id%%\"*}
  case "$n" in
    1) echo '{"id":"hello","unsupported":true}';;
    2) echo "{\"id\":\"$id\",\"unsupported\":true}";;
    3) if [ ! -e crashed ]; then touch crashed; exit 3; fi
       echo "{\"id\":\"$id\",\"valid\":true}";;
    *) echo "{\"id\":\"$id\",\"valid\":true,\"bytes\":\"00\",\"findings\":[]}";;
  esac
done
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("xf.json"),
        r#"{"t": {"utf-8/encode.json#1": "known"}}"#,
    )
    .unwrap();
    let args = [
        "--adapter",
        "t=sh adapter.sh",
        "--reference",
        "--encoding",
        "utf-8",
        "--expected-failures",
        "xf.json",
    ];
    let listed = report(&dir, &args);
    assert_eq!(validate(&listed), Vec::<String>::new());
    let skips = listed["implementations"][1]["skips"].as_array().unwrap();
    assert!(
        skips.iter().any(|s| s["reason"] == "unsupported"),
        "{skips:?}"
    );
    std::fs::remove_file(dir.join("crashed")).unwrap();
    let adapter = report(&dir, &[&args[..], &["--report-all"]].concat());
    assert_eq!(validate(&adapter), Vec::<String>::new());
    assert_eq!(adapter["gate"]["met"], false);
    let statuses: std::collections::BTreeSet<&str> = adapter["implementations"][1]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["status"].as_str())
        .collect();
    for s in ["pass", "fail", "crash", "skip"] {
        assert!(statuses.contains(s), "{statuses:?}");
    }

    // A field missing, or one the schema does not know, is caught.
    let mut broken = reference.clone();
    broken["implementations"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("status");
    broken["extra"] = Value::Bool(true);
    let errors = validate(&broken);
    assert!(
        errors.contains(&"/implementations/0/results/0: missing status".to_string()),
        "{errors:?}"
    );
    assert!(
        errors.contains(&": unexpected property extra".to_string()),
        "{errors:?}"
    );
}
