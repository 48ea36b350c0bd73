//! The JSON report is a contract: real reports (the reference on the embedded vectors, and
//! an adapter that fails, crashes, skips and declares nothing) validate against
//! `conformance/schema/report.schema.json`, and a report missing a field does not.
//!
//! The validator is a small one for the keywords that schema uses (it fails on any other,
//! so the schema cannot silently outgrow it); no JSON Schema crate is needed for that.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn check(root: &Value, schema: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
    let Some(obj) = schema.as_object() else {
        errors.push(format!("{path}: schema is not an object"));
        return;
    };
    let type_ok = |t: &str| match t {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_u64() || value.is_i64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => false,
    };
    for (key, want) in obj {
        match key.as_str() {
            "$schema" | "$id" | "title" | "description" | "$defs" => {}
            "$ref" => {
                let target = want
                    .as_str()
                    .and_then(|r| r.strip_prefix("#/"))
                    .map(|p| p.split('/').try_fold(root, |v, part| v.get(part)));
                match target {
                    Some(Some(t)) => check(root, t, value, path, errors),
                    _ => errors.push(format!("{path}: bad $ref {want}")),
                }
            }
            "type" => {
                let ok = match want {
                    Value::String(t) => type_ok(t),
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(type_ok),
                    _ => false,
                };
                if !ok {
                    errors.push(format!("{path}: {value} is not of type {want}"));
                }
            }
            "const" if value != want => errors.push(format!("{path}: {value} is not {want}")),
            "const" => {}
            "enum" => {
                if !want.as_array().is_some_and(|a| a.contains(value)) {
                    errors.push(format!("{path}: {value} not in {want}"));
                }
            }
            "minimum" => {
                if let (Some(m), Some(v)) = (want.as_f64(), value.as_f64()) {
                    if v < m {
                        errors.push(format!("{path}: {v} < {m}"));
                    }
                }
            }
            "required" => {
                if let (Some(req), Some(o)) = (want.as_array(), value.as_object()) {
                    for r in req.iter().filter_map(Value::as_str) {
                        if !o.contains_key(r) {
                            errors.push(format!("{path}: missing {r}"));
                        }
                    }
                }
            }
            "properties" => {
                if let (Some(props), Some(o)) = (want.as_object(), value.as_object()) {
                    for (k, s) in props {
                        if let Some(v) = o.get(k) {
                            check(root, s, v, &format!("{path}/{k}"), errors);
                        }
                    }
                }
            }
            "additionalProperties" => {
                if let Some(o) = value.as_object() {
                    let known = obj.get("properties").and_then(Value::as_object);
                    for (k, v) in o {
                        if known.is_some_and(|p| p.contains_key(k)) {
                            continue;
                        }
                        match want {
                            Value::Bool(false) => {
                                errors.push(format!("{path}: unexpected property {k}"))
                            }
                            Value::Bool(true) => {}
                            s => check(root, s, v, &format!("{path}/{k}"), errors),
                        }
                    }
                }
            }
            "items" => {
                if let Some(a) = value.as_array() {
                    for (i, v) in a.iter().enumerate() {
                        check(root, want, v, &format!("{path}/{i}"), errors);
                    }
                }
            }
            other => errors.push(format!("{path}: validator does not know keyword {other}")),
        }
    }
}

fn validate(value: &Value) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/report.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut errors = Vec::new();
    check(&schema, &schema, value, "", &mut errors);
    errors
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

    // The reference on the embedded vectors: every case passes.
    let reference = report(&dir, &[]);
    assert_eq!(validate(&reference), Vec::<String>::new());
    assert_eq!(reference["vectors"]["source"], "embedded");
    assert_eq!(reference["gate"]["met"], true);

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
    let adapter = report(
        &dir,
        &[
            "--adapter",
            "t=sh adapter.sh",
            "--reference",
            "--encoding",
            "utf-8",
            "--expected-failures",
            "xf.json",
        ],
    );
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
