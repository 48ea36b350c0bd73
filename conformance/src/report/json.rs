//! `--json FILE`: the machine-readable report, a contract: its JSON Schema is
//! `conformance/schema/report.schema.json` (version [`REPORT_VERSION`]), documented field
//! by field in `docs/report.md`.
//!
//! ```text
//! { "report": "conformance-run", "reportVersion": 4, "resultsListed": "failures" | "all",
//!   "summary": {"passed", "failed", "skipped", "line"}, "counts",
//!   "gate": {"met", "problems": [TEXT]},
//!   "timeoutSeconds", "expectedFailuresFile", "expectedFailuresFiles",
//!   "vectors": {"source": "embedded" | "files", "versions": [VERSION], "manifestSha256"},
//!   "vectorFiles": [{"file", "path", "schema", "encoding", "version", "cases"}],
//!   "implementations": [{"name", "command", "elapsedSeconds", "gaveUpAt",
//!       "declared": {"protocol": 1 | 2 | null, "name", "supports": [{"encoding", "op", "fields"}],
//!                    "batch"?},
//!       "batches": {"sent", "cases", "fellBack", "firstFailure"},
//!       "counts": {"pass", "fail", …}, "files": {FILE: counts},
//!       "chunked": {"ran", "notApplicable"},
//!       "skips": [{"file", "reason", "count", "first"}],
//!       "coverage": [{"encoding", "op", "level", "answered", "total", "fields"}],
//!       "results": [{"id", "file", "tcId", "encoding", "op", "comment", "flags",
//!                    "input", "inputLength", "codepoint", "status", "raw",
//!                    "checked", "mismatches": [{"field", "expected", "got", "note"}],
//!                    "message", "expectedFailure", "undeclared"}]}],
//!   "unmatchedExpectedFailures": [{"implementation", "id"}] }
//! ```
//!
//! `status` is the final outcome (`pass`, `fail`, `crash`, `timeout`, `protocol`,
//! `skip`, `xfail`, `xpass`), `raw` the one before expected failures were applied.
//! `results` lists the cases that [`Listed`] picks (by default not passes and skips,
//! which are in `counts`, `files` and `skips`); it is written case by case, never held
//! whole in memory.

use super::model::{Counts, ImplResult, RunReport};
use super::{Listed, MAX_INPUT_BYTES};
use crate::case::{Case, Test};
use crate::judge::{CaseResult, Status};
use crate::protocol::Declared;
use serde::ser::{Serialize, Serializer};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The `reportVersion`: 2 added `gate`, `vectors`, `declared` and `undeclared`; 3 lists
/// only failures by default (`resultsListed`), added `flags`, `input`, `inputLength`
/// and `codepoint` to each result and `chunked` and `skips` to each implementation, the
/// outcome `not-run`, and a mismatch's `gotLength` and `gotSha256` (its `got` an
/// excerpt); 4 added `vectors.manifestSha256`; 5 added each result's `codepoints`,
/// `codepointsLength` (string encode cases, vectors 2.5) and `judgedAtLimit` (a declared
/// code length limit), the schema `encode-string`, the encode field `codepoints` and the
/// declaration's `limit`.
pub const REPORT_VERSION: u64 = 5;

/// A listed string encode case's code points: the first this many (its length is given).
pub const MAX_LISTED_CODEPOINTS: usize = 256;

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

fn counts_json(c: &Counts) -> Value {
    let mut m = Map::new();
    for s in Status::ALL {
        m.insert(s.as_str().into(), json!(c.get(s)));
    }
    Value::Object(m)
}

/// One listed result, with the case's input so that it reads without the vector file.
fn result_json(report: &RunReport, case: &Case, r: &CaseResult) -> Value {
    let (input, length, codepoint) = match &*case.test {
        Test::Decode(t) => (Some(&t.input), Some(t.input.len() / 2), None),
        Test::Document(t) => (Some(&t.input), Some(t.input.len() / 2), None),
        Test::Encode(t) => (
            None,
            None,
            Some(crate::text::cut(&t.codepoint, MAX_INPUT_BYTES)),
        ),
        Test::EncodeString(_) => (None, None, None),
    };
    // A string encode's list, its first MAX_LISTED_CODEPOINTS items (each cut as a code
    // point is) and its length.
    let (codepoints, codepoints_length) = match &*case.test {
        Test::EncodeString(t) => (
            Some(
                t.codepoints
                    .iter()
                    .take(MAX_LISTED_CODEPOINTS)
                    .map(|c| crate::text::cut(c, MAX_INPUT_BYTES))
                    .collect::<Vec<_>>(),
            ),
            Some(t.codepoints.len()),
        ),
        _ => (None, None),
    };
    let input = input.map(|hex| &hex[..hex.len().min(2 * MAX_INPUT_BYTES)]);
    json!({
        "id": case.id,
        "file": report.suite.files[case.file].rel,
        "tcId": case.tc_id,
        "encoding": case.encoding,
        "op": case.op(),
        "comment": case.comment(),
        "flags": case.flags(),
        "input": input,
        "inputLength": length,
        "codepoint": codepoint,
        "codepoints": codepoints,
        "codepointsLength": codepoints_length,
        "status": r.status,
        "raw": r.raw,
        "checked": r.checked,
        "mismatches": r.mismatches,
        "message": r.message,
        "expectedFailure": r.expected_failure,
        "undeclared": r.undeclared,
        "judgedAtLimit": r.judged_at_limit,
    })
}

/// The listed results of one implementation, serialized one at a time.
struct Results<'a> {
    report: &'a RunReport,
    imp: &'a ImplResult,
    listed: Listed,
}

impl Serialize for Results<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let report = self.report;
        serializer.collect_seq(
            report
                .suite
                .cases
                .iter()
                .zip(&self.imp.results)
                .filter(|(_, r)| !r.not_applicable && self.listed.includes(r))
                .map(|(case, r)| result_json(report, case, r)),
        )
    }
}

/// The skips of one implementation, by file and reason: how many, and the first case.
fn skips_json(report: &RunReport, imp: &ImplResult) -> Vec<Value> {
    let mut groups: BTreeMap<(usize, &str), (usize, &str)> = BTreeMap::new();
    for (case, r) in report.suite.cases.iter().zip(&imp.results) {
        if r.not_applicable || r.status != Status::Skip {
            continue;
        }
        let reason = r.message.as_deref().unwrap_or("skipped");
        groups
            .entry((case.file, reason))
            .or_insert((0, case.id.as_str()))
            .0 += 1;
    }
    groups
        .into_iter()
        .map(|((file, reason), (count, first))| {
            json!({"file": report.suite.files[file].rel, "reason": reason, "count": count,
                   "first": first})
        })
        .collect()
}

/// One implementation; its `results` last, streamed.
struct Implementation<'a> {
    head: Map<String, Value>,
    results: Results<'a>,
}

impl Serialize for Implementation<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.head.len() + 1))?;
        for (k, v) in &self.head {
            map.serialize_entry(k, v)?;
        }
        map.serialize_entry("results", &self.results)?;
        map.end()
    }
}

fn implementation<'a>(
    report: &'a RunReport,
    imp: &'a ImplResult,
    listed: Listed,
) -> Implementation<'a> {
    let suite = &report.suite;
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
    let (ran, not_applicable) = imp.chunked(suite);
    let (strings_ran, strings_not_applicable) = imp.strings(suite);
    let head = json!({
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
        "chunked": {"ran": ran, "notApplicable": not_applicable},
        "encodeStrings": {"ran": strings_ran, "notApplicable": strings_not_applicable},
        "skips": skips_json(report, imp),
        "coverage": coverage,
    });
    let Value::Object(head) = head else {
        unreachable!("json! of an object literal")
    };
    Implementation {
        head,
        results: Results {
            report,
            imp,
            listed,
        },
    }
}

/// The whole document; its implementations streamed.
struct Document<'a> {
    head: Map<String, Value>,
    implementations: Vec<Implementation<'a>>,
    tail: Map<String, Value>,
}

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.head.len() + 1 + self.tail.len()))?;
        for (k, v) in &self.head {
            map.serialize_entry(k, v)?;
        }
        map.serialize_entry("implementations", &self.implementations)?;
        for (k, v) in &self.tail {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// Writes the report as pretty JSON with a final newline, listing the cases `listed`
/// picks.
pub fn write(report: &RunReport, listed: Listed, w: &mut dyn Write) -> io::Result<()> {
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
    let unmatched: Vec<Value> = report
        .unmatched_expected
        .iter()
        .map(|(name, id)| json!({"implementation": name, "id": id}))
        .collect();
    let head = json!({
        "report": "conformance-run",
        "reportVersion": REPORT_VERSION,
        "resultsListed": listed.as_str(),
        "summary": {"passed": t.passed(), "failed": t.failed(), "skipped": t.skipped(),
                    "line": report.summary_line()},
        "counts": counts_json(&t),
        "gate": {"met": report.gate.is_empty(), "problems": report.gate},
        "vectors": {"source": if suite.embedded { "embedded" } else { "files" },
                    "versions": suite.versions(), "manifestSha256": suite.manifest_sha256},
        "timeoutSeconds": report.timeout.as_secs_f64(),
        "expectedFailuresFile": report.expected_failures_files.first().map(|p| p.display().to_string()),
        "expectedFailuresFiles": report.expected_failures_files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "vectorFiles": files,
    });
    let (Value::Object(head), Value::Object(tail)) =
        (head, json!({ "unmatchedExpectedFailures": unmatched }))
    else {
        unreachable!("json! of object literals")
    };
    let doc = Document {
        head,
        implementations: report
            .implementations
            .iter()
            .map(|imp| implementation(report, imp, listed))
            .collect(),
        tail,
    };
    let mut w = io::BufWriter::new(w);
    serde_json::to_writer_pretty(&mut w, &doc).map_err(io::Error::from)?;
    w.write_all(b"\n")?;
    w.flush()
}

/// Renders the report as pretty JSON with a final newline (failures listed, as
/// `conformance run --json` writes it by default).
pub fn render(report: &RunReport) -> String {
    render_listed(report, Listed::default())
}

/// Renders the report, listing the cases `listed` picks.
pub fn render_listed(report: &RunReport, listed: Listed) -> String {
    let mut out = Vec::new();
    // Writing to memory does not fail, and serde_json writes UTF-8.
    let _ = write(report, listed, &mut out);
    String::from_utf8(out).unwrap_or_default()
}
