//! `--junit FILE`: JUnit XML, a `<testsuite>` per implementation and vector file, a
//! `<testcase>` per case. fail and unexpected pass are `<failure>`; crash, timeout and
//! protocol are `<error>`; skip and expected failure are `<skipped>` (as pytest writes
//! xfail). A gate not met adds a `<testsuite name="gate">` with one failure per problem.

use super::detail_lines;
use crate::run::outcome::{RunReport, Status};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

/// Renders the XML document.
pub fn render(report: &RunReport) -> String {
    let suite = &report.suite;
    let mut xml = Report::new("conformance");
    let mut total = std::time::Duration::ZERO;
    for imp in &report.implementations {
        total += imp.elapsed;
        for (fi, file) in suite.files.iter().enumerate() {
            let mut ts = TestSuite::new(format!("{}: {}", imp.name, file.rel));
            for (case, r) in suite.cases.iter().zip(&imp.results) {
                if case.file != fi || r.not_applicable {
                    continue;
                }
                let detail = detail_lines(case, r).join("\n");
                let headline = r
                    .mismatches
                    .iter()
                    .map(|m| format!("{} differs", m.field))
                    .chain(r.message.clone())
                    .collect::<Vec<_>>()
                    .join("; ");
                let status = match r.status {
                    Status::Pass => TestCaseStatus::success(),
                    // Never sent: skipped here; the gate's failure says why.
                    Status::NotRun => {
                        let mut s = TestCaseStatus::skipped();
                        s.set_message(r.message.clone().unwrap_or_else(|| "not run".into()))
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
                        s.set_message(why).set_description(detail);
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
                let mut tc = TestCase::new(format!("#{} {}", case.tc_id, case.comment()), status);
                tc.set_classname(format!("{}.{}", imp.name, file.rel));
                ts.add_test_case(tc);
            }
            xml.add_test_suite(ts);
        }
    }
    // The gate's floor, as failing test cases, so that a JUnit reader fails too.
    if !report.gate.is_empty() {
        let mut ts = TestSuite::new("gate");
        for (i, p) in report.gate.iter().enumerate() {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_type("gate").set_message(p.clone());
            let mut tc = TestCase::new(format!("floor {}", i + 1), s);
            tc.set_classname("gate");
            ts.add_test_case(tc);
        }
        xml.add_test_suite(ts);
    }
    xml.set_time(total);
    xml.to_string()
        .unwrap_or_else(|e| format!("<!-- cannot write the JUnit report: {e} -->\n"))
}
