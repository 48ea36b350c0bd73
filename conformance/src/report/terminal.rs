//! The terminal report: counts per implementation and file, the level each reached, every
//! failure with its tcId, comment, input, expected and got, and the closing line
//! `N passed, M failed[, K skipped]`.
//!
//! Nothing from a vector or an answer reaches the terminal raw: every control character
//! but the report's own line feeds (ESC first) is written as `\u{XXXX}` text
//! ([`terminal_safe`]).

use super::model::{Counts, ImplResult, RunReport};
use super::{detail_lines, terminal_safe};
use crate::judge::Status;
use crate::protocol::hello::describe_supports;
use crate::protocol::Declared;
use std::fmt::Write;

/// Failures shown in full per implementation; the rest are counted in one line (every
/// one is in the JSON, JUnit and HTML reports).
pub const FULL_FAILURES: usize = 10;

/// Renders the report; `written` lists report files already written (`"json: path"`),
/// printed before the closing line. (`conformance run` prints the report first and
/// writes the files after, so it passes none.)
pub fn render(report: &RunReport, written: &[String]) -> String {
    let mut out = String::new();
    header(&mut out, report);
    for imp in &report.implementations {
        implementation(&mut out, report, imp);
    }
    outcome_sections(&mut out, report);
    unmatched_expected(&mut out, report);
    closing(&mut out, report, written);
    terminal_safe(&out, true).into_owned()
}

/// What ran: files, cases, implementations, the vectors' version and manifest hash.
fn header(out: &mut String, report: &RunReport) {
    let suite = &report.suite;
    let names: Vec<&str> = report
        .implementations
        .iter()
        .map(|i| i.name.as_str())
        .collect();
    let _ = writeln!(
        out,
        "conformance run: {} vector file(s), {} case(s); implementation(s): {}",
        suite.files.len(),
        suite.cases.len(),
        names.join(", ")
    );
    let _ = writeln!(
        out,
        "vectors: {} (version {}, manifest sha256 {})",
        if suite.embedded {
            "embedded in this binary"
        } else {
            "from --vectors"
        },
        suite.versions().join(", "),
        suite.manifest_sha256
    );
}

/// One implementation: what it declared, its counts per file, the level reached, how
/// it was run, its total.
fn implementation(out: &mut String, report: &RunReport, imp: &ImplResult) {
    let suite = &report.suite;
    let _ = writeln!(out, "\n{} ({})", imp.name, imp.describe);
    let _ = writeln!(
        out,
        "  declared: {}",
        match &imp.declared {
            Declared::Protocol2(d) => match d.batch {
                Some(n) => format!("{}; batches of up to {n}", describe_supports(&d.supports)),
                None => describe_supports(&d.supports),
            },
            Declared::Protocol1 => "nothing (protocol 1: no handshake)".into(),
            Declared::Unknown => "unknown (the handshake never completed)".into(),
        }
    );
    counts_table(out, report, imp);
    levels(out, report, imp);
    run_notes(out, report, imp);
    let c = imp.counts(suite, None);
    let _ = writeln!(
        out,
        "  {}: {} passed, {} failed, {} skipped in {:.1} s",
        imp.name,
        c.passed(),
        c.failed(),
        c.skipped(),
        imp.elapsed.as_secs_f64()
    );
}

/// Outcomes per vector file, one column per status.
fn counts_table(out: &mut String, report: &RunReport, imp: &ImplResult) {
    let suite = &report.suite;
    let width = suite
        .files
        .iter()
        .map(|f| f.rel.chars().count())
        .max()
        .unwrap_or(4)
        .max(5);
    let columns = report.columns();
    let _ = write!(out, "  {:width$}", "file");
    for &s in &columns {
        let _ = write!(out, " {:>8}", s.as_str());
    }
    out.push('\n');
    for (i, f) in suite.files.iter().enumerate() {
        let c = imp.counts(suite, Some(i));
        let _ = write!(out, "  {:width$}", f.rel);
        for &s in &columns {
            let _ = write!(out, " {:>8}", c.get(s));
        }
        out.push('\n');
    }
}

/// The level reached, per encoding and operation.
fn levels(out: &mut String, report: &RunReport, imp: &ImplResult) {
    let _ = writeln!(out, "  level:");
    for c in imp.coverage(&report.suite) {
        let _ = writeln!(
            out,
            "    {:24} {} ({}/{} answered)",
            format!("{} {}", c.encoding, c.op),
            c.describe(),
            c.answered,
            c.total
        );
    }
}

/// Giving up, chunked variants and string encode cases not applicable, batches.
fn run_notes(out: &mut String, report: &RunReport, imp: &ImplResult) {
    let suite = &report.suite;
    if let Some(at) = imp.gave_up_at {
        let _ = writeln!(
            out,
            "  gave up after case {} of {}: too many crashes, timeouts or protocol errors in a row",
            at,
            suite.cases.len()
        );
    }
    let (ran, not_applicable) = imp.chunked(suite);
    if ran + not_applicable > 0 {
        let _ = writeln!(
            out,
            "  chunked (--splits): {ran} case(s) ran, {not_applicable} not applicable (no \
             streaming declared)"
        );
    }
    let (_, strings_not_sent) = imp.strings(suite);
    if strings_not_sent > 0 {
        let _ = writeln!(
            out,
            "  string encode: {strings_not_sent} case(s) not applicable (no `codepoints` \
             declared for encode)"
        );
    }
    let b = &imp.batches;
    if b.sent > 0 {
        let _ = write!(
            out,
            "  batches: {} sent ({} cases), {} fell back to one case per line",
            b.sent, b.cases, b.fell_back
        );
        match &b.first_failure {
            Some(why) => {
                let _ = writeln!(out, " (first: {why})");
            }
            None => out.push('\n'),
        }
    }
}

/// FAILURES, UNEXPECTED PASSES and EXPECTED FAILURES.
fn outcome_sections(out: &mut String, report: &RunReport) {
    let xf_file = report.describe_expected_failures_files();
    section(
        out,
        report,
        "FAILURES",
        "",
        &|s| s.is_failure() && s != Status::Xpass,
        true,
    );
    section(
        out,
        report,
        "UNEXPECTED PASSES",
        &format!("listed in {xf_file} but passed: remove them from the list"),
        &|s| s == Status::Xpass,
        true,
    );
    section(
        out,
        report,
        "EXPECTED FAILURES",
        &format!("listed in {xf_file}; counted as skipped, not failed"),
        &|s| s == Status::Xfail,
        false,
    );
}

/// The cases whose status `pick` selects, per implementation: the first
/// [`FULL_FAILURES`] in full when `full`, the rest counted in one line.
fn section(
    out: &mut String,
    report: &RunReport,
    title: &str,
    note: &str,
    pick: &dyn Fn(Status) -> bool,
    full: bool,
) {
    let suite = &report.suite;
    let mut n = 0;
    let mut body = String::new();
    for imp in &report.implementations {
        let mut shown = 0;
        let mut rest = Counts::default();
        for (case, r) in suite.cases.iter().zip(&imp.results) {
            if r.not_applicable || !pick(r.status) {
                continue;
            }
            n += 1;
            if full && shown == FULL_FAILURES {
                rest.add(r.status);
                continue;
            }
            shown += 1;
            let _ = writeln!(
                body,
                "[{}] {}  {}",
                imp.name,
                case.id,
                r.status.as_str().to_uppercase()
            );
            if full {
                for line in detail_lines(case, r) {
                    let _ = writeln!(body, "    {line}");
                }
            } else if let Some(reason) = &r.expected_failure {
                let line = format!("{} ({}): {reason}", case.comment(), r.raw.as_str());
                let _ = writeln!(body, "    {}", terminal_safe(&line, false));
            }
        }
        let more: Vec<String> = Status::ALL
            .iter()
            .filter(|&&s| rest.get(s) > 0)
            .map(|&s| format!("{} {}", rest.get(s), s.as_str()))
            .collect();
        if !more.is_empty() {
            let _ = writeln!(
                body,
                "[{}] … and {} more like these ({}): every one is in the --json, \
                 --junit and --html reports",
                imp.name,
                rest.0.iter().sum::<usize>(),
                more.join(", ")
            );
        }
    }
    if n > 0 {
        let _ = writeln!(out, "\n{title} ({n})");
        if !note.is_empty() {
            let _ = writeln!(out, "({note})");
        }
        out.push_str(&body);
    }
}

/// Expected-failure entries that matched no case.
fn unmatched_expected(out: &mut String, report: &RunReport) {
    if report.unmatched_expected.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nnote: {} expected-failure entr{} matched no case of this run:",
        report.unmatched_expected.len(),
        if report.unmatched_expected.len() == 1 {
            "y"
        } else {
            "ies"
        }
    );
    for (name, id) in &report.unmatched_expected {
        let _ = writeln!(out, "    [{name}] {id}");
    }
}

/// Totals of expected failures and of the failed, the files written, the gate, and the
/// closing line (always last).
fn closing(out: &mut String, report: &RunReport, written: &[String]) {
    let t = report.totals();
    out.push('\n');
    if t.get(Status::Xfail) + t.get(Status::Xpass) > 0 {
        let _ = writeln!(
            out,
            "expected failures: {} still failing (counted as skipped), {} unexpected pass(es) (counted as failed)",
            t.get(Status::Xfail),
            t.get(Status::Xpass)
        );
    }
    let bad: Vec<String> = [Status::Crash, Status::Timeout, Status::Protocol]
        .iter()
        .filter(|&&s| t.get(s) > 0)
        .map(|&s| format!("{} {}", t.get(s), s.as_str()))
        .collect();
    if !bad.is_empty() {
        let _ = writeln!(out, "of the failed: {}", bad.join(", "));
    }
    for w in written {
        let _ = writeln!(out, "report written: {w}");
    }
    if t.passed() + t.failed() == 0 {
        let _ = writeln!(out, "warning: no case was checked");
    }
    if !report.gate.is_empty() {
        let _ = writeln!(
            out,
            "GATE NOT MET ({}): what was declared or required is not met",
            report.gate.len()
        );
        for p in &report.gate {
            let _ = writeln!(out, "  {p}");
        }
    }
    let _ = writeln!(out, "{}", report.summary_line());
}
