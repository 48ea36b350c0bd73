//! `utf-8/table-3.1b.json`: the Table 3.1b inputs, decoded per Table 3-7.

use super::build::{decode_test, spaced, Groups};
use super::flags::row31b_text;
use crate::audit::{self, Disagreement};
use crate::vectors::model::DecodeTest;
use conformance_literal::{corrected, table31b, utf8};
use std::collections::BTreeSet;

pub(super) fn groups() -> Groups<DecodeTest> {
    let mut g = Groups::new();
    for (group, cases) in cases() {
        g.group(group);
        for (input, comment) in cases {
            let flags = table31b_flags(&input);
            let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
            g.push(decode_test(utf8::decode, comment, &flags, &input));
        }
    }
    g
}

/// A group comment and its (input, comment) cases.
pub(super) type CaseGroup = (String, Vec<(Vec<u8>, String)>);

/// The inputs of `table-3.1b.json`: (group comment, [(input, comment)]).
pub(super) fn cases() -> Vec<CaseGroup> {
    let mut out = Vec::new();
    for row in &table31b::TABLE_3_1B {
        out.push(row_cases(row));
    }
    let report = audit::audit_by_classes(audit::MAX_LEN);
    let cases = report
        .classes
        .iter()
        .map(|c| (c.example.clone(), c.disagreement.describe()))
        .collect();
    out.push((
        "Table 3.1b against Table 3-7: the example of each disagreement class found by `conformance audit`".to_string(),
        cases,
    ));
    out
}

/// One row's inputs: every choice of first or last byte per cell, and their completions.
fn row_cases(row: &table31b::Row) -> CaseGroup {
    // First and last byte of each printed range; XX: 00, FF and the continuation
    // range's ends, the only bytes where a later cell can matter.
    let choices: Vec<Vec<u8>> = row
        .cells
        .iter()
        .map(|c| match c {
            table31b::Cell::Any => vec![0x00, 0x80, 0xBF, 0xFF],
            table31b::Cell::Ranges(rs) => {
                let mut v: Vec<u8> = rs.iter().flat_map(|&(lo, hi)| [lo, hi]).collect();
                v.dedup();
                v
            }
        })
        .collect();
    let mut inputs: Vec<Vec<u8>> = vec![Vec::new()];
    for choice in &choices {
        inputs = inputs
            .into_iter()
            .flat_map(|prefix| {
                choice.iter().map(move |&b| {
                    let mut p = prefix.clone();
                    p.push(b);
                    p
                })
            })
            .collect();
    }
    let mut cases = Vec::new();
    for input in inputs {
        cases.push((
            input.clone(),
            format!("row {}: {}", row.number, spaced(&input)),
        ));
        // The run matches anywhere, so also try it as the start of a sequence that
        // continuation bytes complete to its lead's RFC 2044 length (this is where
        // F0 90..9F shows up; in Corrected UTF-8 these are all code points).
        let want = match input.first() {
            Some(&b) => match corrected::role(b) {
                corrected::Role::Lead(n) => n,
                _ => 0,
            },
            None => 0,
        };
        if want > input.len() && input[1..].iter().all(|&b| (0x80..=0xBF).contains(&b)) {
            let mut completed = input.clone();
            completed.resize(want, 0x80);
            cases.push((
                completed.clone(),
                format!(
                    "row {}: {}, completed with continuation bytes: {}",
                    row.number,
                    spaced(&input),
                    spaced(&completed)
                ),
            ));
        }
    }
    (
        format!(
            "Table 3.1b row {}: {} (first and last byte of each range)",
            row.number,
            row31b_text(row)
        ),
        cases,
    )
}

/// The Table 3.1b flags of an input: matching rows, and disagreement with Table 3-7.
fn table31b_flags(input: &[u8]) -> Vec<String> {
    let rows: BTreeSet<u8> = table31b::matches(input).iter().map(|m| m.row).collect();
    let mut flags: Vec<String> = rows.iter().map(|r| format!("Table3.1b-row{r}")).collect();
    match audit::classify(input) {
        Some(Disagreement::FlagsWellFormed(_)) => {
            flags.push("Table3.1b-disagrees".into());
            flags.push("Table3.1b-flags-well-formed".into());
        }
        Some(Disagreement::MissesIllFormed { .. }) => {
            flags.push("Table3.1b-disagrees".into());
            flags.push("Table3.1b-misses-ill-formed".into());
        }
        None => {}
    }
    flags
}
