//! The JSON report is a contract: real reports (the reference on the embedded vectors, and
//! an adapter that fails, crashes, skips and declares nothing; failures listed, the
//! default, and every case listed, `--report-all`) validate against
//! `conformance/schema/report.schema.json`, and a report missing a field does not.
//!
//! The validator is the small one in `common/schema.rs`, shared with the vector lint.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn validate(value: &Value) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/report.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    crate::common::schema::validate(&schema, value)
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
    assert_eq!(reference["reportVersion"], 5);
    assert_eq!(reference["resultsListed"], "failures");
    assert_eq!(
        reference["implementations"][0]["results"],
        serde_json::json!([])
    );
    assert_eq!(reference["vectors"]["source"], "embedded");
    assert_eq!(
        reference["vectors"]["manifestSha256"],
        corrected_utf8_vectors::manifest_sha256()
    );
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
    // Every case is accounted for: the adapter (no `codepoints` declared) was sent no
    // string encode case, and those are counted in `encodeStrings`, not in `counts`.
    let total = |imp: &Value| -> u64 {
        imp["counts"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum()
    };
    let (reference_run, adapter_run) =
        (&listed["implementations"][0], &listed["implementations"][1]);
    assert_eq!(reference_run["encodeStrings"]["notApplicable"], 0);
    let strings = reference_run["encodeStrings"]["ran"].as_u64().unwrap();
    assert!(strings > 0, "{}", reference_run["encodeStrings"]);
    assert_eq!(adapter_run["encodeStrings"]["ran"], 0);
    assert_eq!(
        adapter_run["encodeStrings"]["notApplicable"].as_u64(),
        Some(strings)
    );
    assert_eq!(total(adapter_run) + strings, total(reference_run));
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
    broken["vectors"]
        .as_object_mut()
        .unwrap()
        .remove("manifestSha256");
    let errors = validate(&broken);
    assert!(
        errors.contains(&"/vectors: missing manifestSha256".to_string()),
        "{errors:?}"
    );
    assert!(
        errors.contains(&"/implementations/0/results/0: missing status".to_string()),
        "{errors:?}"
    );
    assert!(
        errors.contains(&": unexpected property extra".to_string()),
        "{errors:?}"
    );
}

/// Copies the folder `from` to `to`, files and subfolders.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The manifest hash the runner prints in its header and writes in its reports is the
/// release's: `scripts/vectors_manifest.py`'s `manifestSha256` over a folder laid out as
/// the vectors tarball (`docs/gating.md` §5), for the embedded files and for the same
/// files read with `--vectors`. Two implementations of one definition, so a change to
/// either (order, line format, which files count) fails here.
#[test]
fn the_runner_names_the_manifest_hash_the_release_script_writes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: needs python3 (scripts/vectors_manifest.py), not found on PATH");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("manifest-hash");
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&root.join("vectors"), &dir.join("tarball/vectors"));
    let out = Command::new("python3")
        .arg(root.join("scripts/vectors_manifest.py"))
        .arg(dir.join("tarball"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let manifest: Value = serde_json::from_slice(&out.stdout).unwrap();
    let hash = manifest["manifestSha256"].as_str().unwrap().to_owned();
    assert_eq!(hash.len(), 64, "{manifest}");
    assert_eq!(hash, corrected_utf8_vectors::manifest_sha256());

    let vectors = dir.join("tarball/vectors").display().to_string();
    for args in [&["--encoding", "utf-8"][..], &["--vectors", &vectors]] {
        let out = Command::new(env!("CARGO_BIN_EXE_conformance"))
            .current_dir(&dir)
            .arg("run")
            .args(args)
            .args(["--json", "r.json", "--junit", "r.xml", "--html", "r.html"])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let header = stdout.lines().find(|l| l.starts_with("vectors: ")).unwrap();
        assert!(
            header.ends_with(&format!(
                "(version {}, manifest sha256 {hash})",
                corrected_utf8_vectors::VERSION
            )),
            "{args:?}: {header}"
        );
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
        assert_eq!(json["vectors"]["manifestSha256"], hash.as_str(), "{args:?}");
        let junit = std::fs::read_to_string(dir.join("r.xml")).unwrap();
        let property = format!(r#"<property name="vectors.manifestSha256" value="{hash}"/>"#);
        assert!(junit.contains(&property), "{args:?}: {junit}");
        let html = std::fs::read_to_string(dir.join("r.html")).unwrap();
        assert!(
            html.contains(&format!("manifest sha256 <code>{hash}</code>")),
            "{args:?}"
        );
    }
}
