//! `--json FILE`: the machine-readable report, a contract: its JSON Schema is
//! `conformance/schema/report.schema.json` (version [`REPORT_VERSION`]), documented field
//! by field in `docs/report.md`.
//!
//! ```text
//! { "report": "conformance-run", "reportVersion": 2,
//!   "summary": {"passed", "failed", "skipped", "line"}, "counts",
//!   "gate": {"met", "problems": [TEXT]},
//!   "timeoutSeconds", "expectedFailuresFile", "expectedFailuresFiles",
//!   "vectors": {"source": "embedded" | "files", "versions": [VERSION]},
//!   "vectorFiles": [{"file", "path", "schema", "encoding", "version", "cases"}],
//!   "implementations": [{"name", "command", "elapsedSeconds", "gaveUpAt",
//!       "declared": {"protocol": 1 | 2 | null, "name", "supports": [{"encoding", "op", "fields"}],
//!                    "batch"?},
//!       "batches": {"sent", "cases", "fellBack", "firstFailure"},
//!       "counts": {"pass", "fail", …}, "files": {FILE: counts},
//!       "coverage": [{"encoding", "op", "level", "answered", "total", "fields"}],
//!       "results": [{"id", "file", "tcId", "encoding", "op", "comment", "status", "raw",
//!                    "checked", "mismatches": [{"field", "expected", "got", "note"}],
//!                    "message", "expectedFailure", "undeclared"}]}],
//!   "unmatchedExpectedFailures": [{"implementation", "id"}] }
//! ```
//!
//! `status` is the final outcome (`pass`, `fail`, `crash`, `timeout`, `protocol`,
//! `skip`, `xfail`, `xpass`), `raw` the one before expected failures were applied.

use crate::run::handshake::Declared;
use crate::run::outcome::{Counts, RunReport, Status};

/// The `reportVersion`: 2 added `gate`, `vectors`, `declared` and `undeclared`; 3 the
/// outcome `not-run` and a mismatch's `gotLength` and `gotSha256` (its `got` an excerpt).
pub const REPORT_VERSION: u64 = 3;

fn declared_json(d: &Declared) -> Value {
    match d {
        Declared::Protocol2(d) => {
            let mut v = json!({"protocol": 2, "name": d.name, "supports": d.supports});
            if let Some(n) = d.batch {
                v["batch"] = json!(n);
            }
            v
        }
        Declared::Protocol1 => json!({"protocol": 1, "name": null, "supports": []}),
        Declared::Unknown => json!({"protocol": null, "name": null, "supports": []}),
    }
}
use serde_json::{json, Map, Value};

fn counts_json(c: &Counts) -> Value {
    let mut m = Map::new();
    for s in Status::ALL {
        m.insert(s.as_str().into(), json!(c.get(s)));
    }
    Value::Object(m)
}

/// Renders the report as pretty JSON with a final newline.
pub fn render(report: &RunReport) -> String {
    let suite = &report.suite;
    let t = report.totals();
    let files: Vec<Value> = suite
        .files
        .iter()
        .map(|f| {
            json!({"file": f.rel, "path": f.path.display().to_string(), "schema": f.schema.as_str(),
                   "encoding": f.encoding, "version": f.version, "cases": f.cases})
        })
        .collect();
    let implementations: Vec<Value> = report
        .implementations
        .iter()
        .map(|imp| {
            let mut per_file = Map::new();
            for (i, f) in suite.files.iter().enumerate() {
                per_file.insert(f.rel.clone(), counts_json(&imp.counts(suite, Some(i))));
            }
            let coverage: Vec<Value> = imp
                .coverage(suite)
                .iter()
                .map(|c| {
                    json!({"encoding": c.encoding, "op": c.op, "level": c.describe(),
                           "answered": c.answered, "total": c.total, "fields": c.fields})
                })
                .collect();
            let results: Vec<Value> = suite
                .cases
                .iter()
                .zip(&imp.results)
                .filter(|(_, r)| !r.not_applicable)
                .map(|(case, r)| {
                    json!({
                        "id": case.id,
                        "file": suite.files[case.file].rel,
                        "tcId": case.tc_id,
                        "encoding": case.encoding,
                        "op": case.op(),
                        "comment": case.comment(),
                        "status": r.status,
                        "raw": r.raw,
                        "checked": r.checked,
                        "mismatches": r.mismatches,
                        "message": r.message,
                        "expectedFailure": r.expected_failure,
                        "undeclared": r.undeclared,
                    })
                })
                .collect();
            json!({
                "name": imp.name,
                "command": imp.describe,
                "elapsedSeconds": imp.elapsed.as_secs_f64(),
                "gaveUpAt": imp.gave_up_at,
                "declared": declared_json(&imp.declared),
                "batches": {"sent": imp.batches.sent, "cases": imp.batches.cases,
                            "fellBack": imp.batches.fell_back,
                            "firstFailure": imp.batches.first_failure},
                "counts": counts_json(&imp.counts(suite, None)),
                "files": per_file,
                "coverage": coverage,
                "results": results,
            })
        })
        .collect();
    let unmatched: Vec<Value> = report
        .unmatched_expected
        .iter()
        .map(|(name, id)| json!({"implementation": name, "id": id}))
        .collect();
    let doc = json!({
        "report": "conformance-run",
        "reportVersion": REPORT_VERSION,
        "summary": {"passed": t.passed(), "failed": t.failed(), "skipped": t.skipped(),
                    "line": report.summary_line()},
        "counts": counts_json(&t),
        "gate": {"met": report.gate.is_empty(), "problems": report.gate},
        "vectors": {"source": if suite.embedded { "embedded" } else { "files" },
                    "versions": suite.versions()},
        "timeoutSeconds": report.timeout.as_secs_f64(),
        "expectedFailuresFile": report.expected_failures.paths.first().map(|p| p.display().to_string()),
        "expectedFailuresFiles": report.expected_failures.paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "vectorFiles": files,
        "implementations": implementations,
        "unmatchedExpectedFailures": unmatched,
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
