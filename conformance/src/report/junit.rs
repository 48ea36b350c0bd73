//! `--junit FILE`: JUnit XML, a `<testsuite>` per implementation and vector file.
//!
//! Each listed case ([`Listed`]: by default failures, crashes, timeouts, protocol
//! errors, unexpected passes and expected failures) is a `<testcase>`: fail and
//! unexpected pass are `<failure>`; crash, timeout and protocol are `<error>`; expected
//! failure (and skip, with `--report-all`) is `<skipped>` (as pytest writes xfail). The
//! cases not listed are counted in one `<testcase>` per suite, `N case(s) passed`, and
//! one `<skipped>` per skip reason, `N case(s) skipped: REASON`. A gate not met adds a
//! `<testsuite name="gate">` with one failure per problem. Every `<testsuite>` names the
//! vectors in its `<properties>`: `vectors.source`, `vectors.version` and
//! `vectors.manifestSha256` (the JSON report's `vectors`).
//!
//! The `classname` is `IMPLEMENTATION/FILE` with every `.` written `_`
//! (`node/utf-8/decode_json`): JUnit viewers split a class name at its dots into
//! packages. Every text is well-formed XML 1.0 whatever the vectors and answers hold:
//! the characters XML forbids (and the other control characters) are written as
//! `\u{XXXX}` text ([`xml_safe`]).

use super::model::{ImplResult, RunReport};
use super::{detail_lines, xml_safe, Listed};
use crate::case::{Case, SuiteFile};
use crate::judge::{CaseResult, Status};
use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The `classname` of an implementation's cases of one file: dot-free.
pub fn classname(implementation: &str, file: &str) -> String {
    format!("{implementation}/{file}").replace('.', "_")
}

/// One listed case as a `<testcase>`.
fn test_case(case: &Case, r: &CaseResult, classname: &str) -> TestCase {
    let detail = xml_safe(&detail_lines(case, r).join("\n")).into_owned();
    let headline = r
        .mismatches
        .iter()
        .map(|m| format!("{} differs", m.field))
        .chain(r.message.clone())
        .collect::<Vec<_>>()
        .join("; ");
    let headline = xml_safe(&headline).into_owned();
    let status = match r.status {
        Status::Pass => TestCaseStatus::success(),
        // Never sent: skipped here; the gate's failure says why.
        Status::NotRun => {
            let mut s = TestCaseStatus::skipped();
            let why = r.message.clone().unwrap_or_else(|| "not run".into());
            s.set_message(xml_safe(&why).into_owned())
                .set_description(detail);
            s
        }
        Status::Skip | Status::Xfail => {
            let mut s = TestCaseStatus::skipped();
            let why = match (&r.expected_failure, r.status) {
                (Some(reason), Status::Xfail) => {
                    format!("expected failure ({}): {reason}", r.raw.as_str())
                }
                _ => r.message.clone().unwrap_or_else(|| "skipped".into()),
            };
            s.set_message(xml_safe(&why).into_owned())
                .set_description(detail);
            s
        }
        Status::Fail | Status::Xpass => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            let message = if r.status == Status::Xpass {
                "unexpected pass: listed as an expected failure".to_string()
            } else {
                headline
            };
            s.set_type(r.status.as_str())
                .set_message(message)
                .set_description(detail);
            s
        }
        Status::Crash | Status::Timeout | Status::Protocol => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_type(r.status.as_str())
                .set_message(headline)
                .set_description(detail);
            s
        }
    };
    let name = xml_safe(&format!("#{} {}", case.tc_id, case.comment())).into_owned();
    let mut tc = TestCase::new(name, status);
    tc.set_classname(classname.to_string());
    tc
}

/// Which vectors ran, as `<property>`s: the JSON report's `vectors`, so that a JUnit
/// reader can say which vectors gated a build.
fn vector_properties(report: &RunReport) -> [Property; 3] {
    let suite = &report.suite;
    let source = if suite.embedded { "embedded" } else { "files" };
    [
        Property::new("vectors.source", source),
        Property::new(
            "vectors.version",
            xml_safe(&suite.versions().join(", ")).into_owned(),
        ),
        Property::new("vectors.manifestSha256", suite.manifest_sha256.as_str()),
    ]
}

/// One implementation's cases of one file.
fn test_suite(
    report: &RunReport,
    imp: &ImplResult,
    fi: usize,
    file: &SuiteFile,
    listed: Listed,
) -> TestSuite {
    let name = xml_safe(&format!("{}: {}", imp.name, file.rel)).into_owned();
    let class = xml_safe(&classname(&imp.name, &file.rel)).into_owned();
    let mut ts = TestSuite::new(name);
    ts.add_properties(vector_properties(report));
    let mut passed = 0;
    let mut skipped: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
    for (case, r) in report.suite.cases.iter().zip(&imp.results) {
        if case.file != fi || r.not_applicable {
            continue;
        }
        if listed.includes(r) {
            ts.add_test_case(test_case(case, r, &class));
        } else if r.status == Status::Pass {
            passed += 1;
        } else {
            let reason = r.message.as_deref().unwrap_or("skipped");
            skipped.entry(reason).or_insert((0, &case.id)).0 += 1;
        }
    }
    // What is not listed, counted (so that a JUnit reader still sees passes and skips).
    if passed > 0 {
        let mut tc = TestCase::new(
            format!("{passed} case(s) passed (listed one by one with --report-all)"),
            TestCaseStatus::success(),
        );
        tc.set_classname(class.clone());
        ts.add_test_case(tc);
    }
    for (reason, (n, first)) in skipped {
        let mut s = TestCaseStatus::skipped();
        s.set_message(xml_safe(reason).into_owned())
            .set_description(xml_safe(&format!("first: {first}")).into_owned());
        let mut tc = TestCase::new(
            xml_safe(&format!("{n} case(s) skipped: {reason}")).into_owned(),
            s,
        );
        tc.set_classname(class.clone());
        ts.add_test_case(tc);
    }
    ts
}

/// Builds the XML document.
fn document(report: &RunReport, listed: Listed) -> Report {
    let suite = &report.suite;
    let mut xml = Report::new("conformance");
    let mut total = std::time::Duration::ZERO;
    for imp in &report.implementations {
        total += imp.elapsed;
        for (fi, file) in suite.files.iter().enumerate() {
            xml.add_test_suite(test_suite(report, imp, fi, file, listed));
        }
    }
    // The gate's floor, as failing test cases, so that a JUnit reader fails too.
    if !report.gate.is_empty() {
        let mut ts = TestSuite::new("gate");
        ts.add_properties(vector_properties(report));
        for (i, p) in report.gate.iter().enumerate() {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_type("gate").set_message(xml_safe(p).into_owned());
            let mut tc = TestCase::new(format!("floor {}", i + 1), s);
            tc.set_classname("gate");
            ts.add_test_case(tc);
        }
        xml.add_test_suite(ts);
    }
    xml.set_time(total);
    xml
}

/// Writes the XML document, listing the cases `listed` picks.
pub fn write(report: &RunReport, listed: Listed, w: &mut dyn Write) -> io::Result<()> {
    let mut w = io::BufWriter::new(w);
    document(report, listed)
        .serialize(&mut w)
        .map_err(|e| io::Error::other(e.to_string()))?;
    w.flush()
}

/// Renders the XML document (failures listed, as `conformance run --junit` writes it by
/// default).
pub fn render(report: &RunReport) -> String {
    document(report, Listed::default())
        .to_string()
        .unwrap_or_else(|e| format!("<!-- cannot write the JUnit report: {e} -->\n"))
}
