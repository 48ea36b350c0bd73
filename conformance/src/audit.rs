//! `conformance audit`: Table 3.1b (as transcribed) against Table 3-7, over every input
//! of 1 to 4 bytes.
//!
//! The verdicts compared are "ill-formed" by Table 3.1b's rule (some row matches a
//! contiguous run, [`table31b::is_ill_formed`]) and by Table 3-7 (some error span,
//! [`utf8::is_well_formed`]). Each disagreeing input is put in a class
//! ([`Disagreement`]) that says why, in terms of byte *ranges* only.
//!
//! Method ([`audit_by_classes`]): every decision both checkers make is whether a byte
//! lies in a range of Table 3-7, of the error-kind table or of Table 3.1b. Cutting
//! `00..FF` at every end of those ranges gives byte classes ([`byte_classes`]) that no
//! decision can tell apart, so two inputs whose bytes are in the same classes, position
//! by position, get the same verdicts and the same [`Disagreement`]. One representative
//! per class sequence (its lowest bytes) therefore decides every input it stands for,
//! counted with the product of its classes' sizes; the counts add up to exactly
//! 256 + 256² + 256³ + 256⁴ inputs. [`audit_brute_force`] checks every input one by one
//! instead and must give the same report (a test does this up to 3 bytes).
//!
//! `conformance audit --amended` audits [`amended::AMENDED`] the same way: Table 3.1b
//! amended to flag exactly what a table of contexts can flag ([`Table`]).

pub mod amended;

use conformance_literal::table31b::{self, Row};
use conformance_literal::{utf8, Kind};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::process::ExitCode;

/// Which Table 3.1b is audited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// [`table31b::TABLE_3_1B`], exactly as transcribed.
    Transcribed,
    /// [`amended::AMENDED`], our amended reading.
    Amended,
}

impl Table {
    /// The table's rows.
    pub fn rows(self) -> &'static [Row] {
        match self {
            Table::Transcribed => &table31b::TABLE_3_1B,
            Table::Amended => &amended::AMENDED,
        }
    }
}

/// Every (row, offset) where a row of `table` matches a contiguous run of `input`, by
/// offset then row.
fn matches(table: Table, input: &[u8]) -> Vec<table31b::Match> {
    (0..input.len())
        .flat_map(|offset| {
            table
                .rows()
                .iter()
                .filter(move |row| table31b::row_matches_at(row, input, offset))
                .map(move |row| table31b::Match {
                    row: row.number,
                    offset,
                })
        })
        .collect()
}

/// Whether `table` calls `input` ill-formed: some row matches a contiguous run of it.
pub fn is_ill_formed_in(table: Table, input: &[u8]) -> bool {
    table
        .rows()
        .iter()
        .any(|row| (0..input.len()).any(|o| table31b::row_matches_at(row, input, o)))
}

/// Why Table 3.1b and Table 3-7 disagree on an input.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Disagreement {
    /// Table 3.1b says ill-formed, Table 3-7 well-formed. Each entry is a matching row's
    /// number and the index in [`utf8::TABLE_3_7`] of the character starting where the
    /// match starts (`None`: the match starts inside a character).
    FlagsWellFormed(Vec<(u8, Option<usize>)>),
    /// Table 3-7 says ill-formed, no row of Table 3.1b matches. `kind` is the first error
    /// span's kind.
    MissesIllFormed {
        /// Kind of the first error span.
        kind: Kind,
        /// For `truncated` spans: what cut the sequence short.
        cut: Option<Cut>,
    },
}

/// What cut a truncated sequence short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cut {
    /// The end of the input.
    EndOfInput,
    /// A byte that cannot continue it; `lead_row` is the index in [`utf8::TABLE_3_7`] of
    /// the row whose first byte range holds the lead.
    NonContinuation {
        /// Table 3-7 row of the lead byte.
        lead_row: Option<usize>,
    },
}

/// Inclusive byte ranges as text: `F1..F3`, or `ED` for a single byte.
fn range_text(r: (u8, u8)) -> String {
    if r.0 == r.1 {
        format!("{:02X}", r.0)
    } else {
        format!("{:02X}..{:02X}", r.0, r.1)
    }
}

/// A Table 3-7 row as text: `U+10000..U+3FFFF (F0 90..BF 80..BF 80..BF)`.
fn row_text(index: usize) -> String {
    match utf8::TABLE_3_7.get(index) {
        Some(row) => {
            let bytes: Vec<String> = row.bytes.iter().map(|&r| range_text(r)).collect();
            format!(
                "U+{:04X}..U+{:04X} ({})",
                row.first_cp,
                row.last_cp,
                bytes.join(" ")
            )
        }
        None => "?".to_string(),
    }
}

impl Disagreement {
    /// A one-line description of the class.
    pub fn describe(&self) -> String {
        match self {
            Disagreement::FlagsWellFormed(matches) => {
                let parts: Vec<String> = matches
                    .iter()
                    .map(|(row, at)| match at {
                        Some(i) => format!(
                            "row {row} matches at the start of a Table 3-7 {} sequence",
                            row_text(*i)
                        ),
                        None => format!("row {row} matches inside a character"),
                    })
                    .collect();
                format!(
                    "Table 3.1b: ill-formed, Table 3-7: well-formed; {}",
                    parts.join("; ")
                )
            }
            Disagreement::MissesIllFormed { kind, cut } => {
                let what = match (kind, cut) {
                    (Kind::Truncated, Some(Cut::EndOfInput)) => {
                        "truncated by the end of the input".to_string()
                    }
                    (Kind::Truncated, Some(Cut::NonContinuation { lead_row })) => format!(
                        "truncated: lead byte {} followed by a byte that cannot continue it",
                        lead_row.map_or("?".to_string(), |i| {
                            utf8::TABLE_3_7
                                .get(i)
                                .and_then(|r| r.bytes.first())
                                .map_or("?".to_string(), |&r| range_text(r))
                        })
                    ),
                    (Kind::UnexpectedContinuation, _) => {
                        "unexpected-continuation: a continuation byte where a character must start"
                            .to_string()
                    }
                    (Kind::Surrogate, _) => "surrogate: ED A0..BF".to_string(),
                    (k, _) => k.as_str().to_string(),
                };
                format!("Table 3-7: ill-formed, Table 3.1b: no row matches; first error {what}")
            }
        }
    }
}

/// The class of an input where Table 3.1b as transcribed and Table 3-7 disagree, or
/// `None` where they agree.
pub fn classify(input: &[u8]) -> Option<Disagreement> {
    classify_in(Table::Transcribed, input)
}

/// The class of an input where `table` and Table 3-7 disagree, or `None` where they
/// agree.
pub fn classify_in(table: Table, input: &[u8]) -> Option<Disagreement> {
    let error = utf8::first_error(input);
    let ill_31b = is_ill_formed_in(table, input);
    match (error, ill_31b) {
        (None, false) | (Some(_), true) => None,
        (None, true) => {
            let starts: Vec<usize> = utf8::decode_located(input)
                .into_iter()
                .map(|(o, _, _)| o)
                .collect();
            let mut rows: Vec<(u8, Option<usize>)> = matches(table, input)
                .into_iter()
                .map(|m| {
                    let row = if starts.contains(&m.offset) {
                        table37_row_index(&input[m.offset..])
                    } else {
                        None
                    };
                    (m.row, row)
                })
                .collect();
            rows.sort();
            rows.dedup();
            Some(Disagreement::FlagsWellFormed(rows))
        }
        (Some((offset, length, kind)), false) => {
            let cut = (kind == Kind::Truncated).then(|| {
                if offset + length == input.len() {
                    Cut::EndOfInput
                } else {
                    Cut::NonContinuation {
                        lead_row: lead_row_index(input.get(offset).copied()),
                    }
                }
            });
            Some(Disagreement::MissesIllFormed { kind, cut })
        }
    }
}

/// Index of the Table 3-7 row that `input` starts with completely.
fn table37_row_index(input: &[u8]) -> Option<usize> {
    let row = utf8::row_at(input)?;
    utf8::TABLE_3_7.iter().position(|r| r == row)
}

/// Index of the Table 3-7 row whose first byte range holds `lead`.
fn lead_row_index(lead: Option<u8>) -> Option<usize> {
    let lead = lead?;
    utf8::TABLE_3_7.iter().position(|r| {
        r.bytes
            .first()
            .is_some_and(|&(lo, hi)| lo <= lead && lead <= hi)
    })
}

/// The byte classes: `00..FF` cut at both ends of every range that Table 3-7, the
/// error-kind table and Table 3.1b (as transcribed and amended) test, in order. The
/// check of [`amended::is_factor_of_well_formed`] tests Table 3-7's ranges only.
pub fn byte_classes() -> Vec<(u8, u8)> {
    let mut ranges: Vec<(u8, u8)> = Vec::new();
    for row in &utf8::TABLE_3_7 {
        ranges.extend(row.bytes);
    }
    for rule in &utf8::KINDS {
        ranges.push(rule.first);
        ranges.extend(rule.second);
    }
    for row in table31b::TABLE_3_1B.iter().chain(&amended::AMENDED) {
        for cell in row.cells {
            ranges.extend(cell.ranges());
        }
    }
    let mut cuts: BTreeSet<u16> = BTreeSet::from([0, 256]);
    for (lo, hi) in ranges {
        cuts.insert(u16::from(lo));
        cuts.insert(u16::from(hi) + 1);
    }
    let cuts: Vec<u16> = cuts.into_iter().collect();
    cuts.windows(2)
        .map(|w| (w[0] as u8, (w[1] - 1) as u8))
        .collect()
}

/// How a report was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// One representative per sequence of byte classes ([`audit_by_classes`]).
    ByteClasses,
    /// Every input, one by one ([`audit_brute_force`]).
    BruteForce,
}

/// One class of disagreement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassReport {
    /// What the class is.
    pub disagreement: Disagreement,
    /// Inputs in the class by length: `counts[n]` for inputs of n bytes (`counts[0]` is 0).
    pub counts: [u64; 5],
    /// The shortest, then byte-wise smallest, input of the class.
    pub example: Vec<u8>,
    /// How many of the class's inputs are factors of well-formed UTF-8
    /// ([`amended::is_factor_of_well_formed`]): no table of contexts can flag them.
    pub factors: u64,
}

impl ClassReport {
    /// Inputs in the class, all lengths.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// The audit's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The Table 3.1b audited.
    pub table: Table,
    /// Inputs of 1 to `max_len` bytes were checked.
    pub max_len: usize,
    /// How.
    pub method: Method,
    /// How many inputs that is (256 + … + 256^max_len).
    pub inputs: u64,
    /// How many inputs the two tables agree on.
    pub agree: u64,
    /// Each class of disagreement, in the order of their examples (shortest, then
    /// byte-wise smallest).
    pub classes: Vec<ClassReport>,
}

/// Longest input length the audit accepts.
pub const MAX_LEN: usize = 4;

/// Collects disagreements: counts by length, the smallest example and the count of
/// factors of well-formed UTF-8.
struct Tally {
    table: Table,
    agree: u64,
    inputs: u64,
    classes: BTreeMap<Disagreement, ([u64; 5], Vec<u8>, u64)>,
}

impl Tally {
    fn new(table: Table) -> Tally {
        Tally {
            table,
            agree: 0,
            inputs: 0,
            classes: BTreeMap::new(),
        }
    }

    fn add(&mut self, input: &[u8], weight: u64) {
        self.inputs += weight;
        match classify_in(self.table, input) {
            None => self.agree += weight,
            Some(d) => {
                let entry = self
                    .classes
                    .entry(d)
                    .or_insert_with(|| ([0; 5], input.to_vec(), 0));
                entry.0[input.len()] += weight;
                if (input.len(), input) < (entry.1.len(), entry.1.as_slice()) {
                    entry.1 = input.to_vec();
                }
                if amended::is_factor_of_well_formed(input) {
                    entry.2 += weight;
                }
            }
        }
    }

    fn merge(&mut self, other: Tally) {
        self.agree += other.agree;
        self.inputs += other.inputs;
        for (d, (counts, example, factors)) in other.classes {
            let entry = self
                .classes
                .entry(d)
                .or_insert_with(|| ([0; 5], example.clone(), 0));
            for (a, b) in entry.0.iter_mut().zip(counts) {
                *a += b;
            }
            entry.2 += factors;
            if (example.len(), &example) < (entry.1.len(), &entry.1) {
                entry.1 = example;
            }
        }
    }

    fn report(self, max_len: usize, method: Method) -> Report {
        let mut classes: Vec<ClassReport> = self
            .classes
            .into_iter()
            .map(|(disagreement, (counts, example, factors))| ClassReport {
                disagreement,
                counts,
                example,
                factors,
            })
            .collect();
        classes.sort_by(|a, b| (a.example.len(), &a.example).cmp(&(b.example.len(), &b.example)));
        Report {
            table: self.table,
            max_len,
            method,
            inputs: self.inputs,
            agree: self.agree,
            classes,
        }
    }
}

/// The audit of Table 3.1b as transcribed by byte classes (see the module doc).
/// `max_len` is clamped to 1..=4.
pub fn audit_by_classes(max_len: usize) -> Report {
    audit_table_by_classes(Table::Transcribed, max_len)
}

/// The audit of `table` by byte classes (see the module doc). `max_len` is clamped to
/// 1..=4.
pub fn audit_table_by_classes(table: Table, max_len: usize) -> Report {
    let max_len = max_len.clamp(1, MAX_LEN);
    let classes = byte_classes();
    let mut tally = Tally::new(table);
    for n in 1..=max_len {
        // An odometer over class indices, last position fastest: lexicographic order.
        let mut idx = vec![0usize; n];
        loop {
            let input: Vec<u8> = idx.iter().map(|&i| classes[i].0).collect();
            let weight: u64 = idx
                .iter()
                .map(|&i| u64::from(classes[i].1 - classes[i].0) + 1)
                .product();
            tally.add(&input, weight);
            let Some(pos) = (0..n).rev().find(|&p| idx[p] + 1 < classes.len()) else {
                break;
            };
            idx[pos] += 1;
            for i in &mut idx[pos + 1..] {
                *i = 0;
            }
        }
    }
    tally.report(max_len, Method::ByteClasses)
}

/// The audit of Table 3.1b as transcribed input by input, on `threads` threads.
/// `max_len` is clamped to 1..=4.
pub fn audit_brute_force(max_len: usize, threads: usize) -> Report {
    audit_table_brute_force(Table::Transcribed, max_len, threads)
}

/// The audit of `table` input by input, on `threads` threads. `max_len` is clamped to
/// 1..=4.
pub fn audit_table_brute_force(table: Table, max_len: usize, threads: usize) -> Report {
    let max_len = max_len.clamp(1, MAX_LEN);
    let threads = threads.max(1);
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut tally = Tally::new(table);
                    let mut buf = [0u8; MAX_LEN];
                    for n in 1..=max_len {
                        // Thread t takes the first bytes t, t + threads, …
                        for first in (t..256).step_by(threads) {
                            buf[0] = first as u8;
                            for rest in 0..(1u64 << (8 * (n - 1))) {
                                for (k, b) in buf[1..n].iter_mut().enumerate() {
                                    *b = (rest >> (8 * (n - 2 - k))) as u8;
                                }
                                tally.add(&buf[..n], 1);
                            }
                        }
                    }
                    tally
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Tally::new(table)))
            .collect()
    });
    let mut total = Tally::new(table);
    for t in tallies {
        total.merge(t);
    }
    total.report(max_len, Method::BruteForce)
}

/// The report as printed by `conformance audit` (and snapshotted).
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let n = report.max_len;
    let _ = match report.table {
        Table::Transcribed => writeln!(
            out,
            "Table 3.1b (Davis 2000, as transcribed) against Table 3-7, every input of 1 to {n} bytes"
        ),
        Table::Amended => writeln!(
            out,
            "Table 3.1b amended (audit::amended::AMENDED: row 6 corrected, rows 11-16 added) \
             against Table 3-7,\nevery input of 1 to {n} bytes"
        ),
    };
    match report.method {
        Method::ByteClasses => {
            let classes = byte_classes();
            let list: Vec<String> = classes
                .iter()
                .map(|&(lo, hi)| {
                    if lo == hi {
                        format!("{lo:02X}")
                    } else {
                        format!("{lo:02X}-{hi:02X}")
                    }
                })
                .collect();
            let sequences: u64 = (1..=n as u32).map(|k| (classes.len() as u64).pow(k)).sum();
            let _ = writeln!(
                out,
                "method: byte classes. The ends of every range tested by Table 3-7, its error kinds and\n\
                 Table 3.1b cut 00-FF into {} classes that no test tells apart:\n  {}\n\
                 so one representative (lowest bytes) of each of the {sequences} class sequences decides\n\
                 every input it stands for, counted by the product of its classes' sizes.",
                classes.len(),
                list.join(" ")
            );
        }
        Method::BruteForce => {
            let _ = writeln!(out, "method: brute force, every input one by one.");
        }
    }
    let disagree = report.inputs - report.agree;
    let _ = writeln!(out, "inputs: {}", report.inputs);
    let _ = writeln!(out, "agree: {}", report.agree);
    let _ = writeln!(
        out,
        "disagree: {disagree}, in {} classes",
        report.classes.len()
    );
    let factors: u64 = report.classes.iter().map(|c| c.factors).sum();
    let _ = writeln!(
        out,
        "of which factors of well-formed UTF-8, that no table of contexts can flag: {factors}"
    );
    for (i, class) in report.classes.iter().enumerate() {
        let by_len: Vec<String> = (1..=n)
            .map(|k| {
                format!(
                    "{k} byte{}: {}",
                    if k == 1 { "" } else { "s" },
                    class.counts[k]
                )
            })
            .collect();
        let example: Vec<String> = class.example.iter().map(|b| format!("{b:02X}")).collect();
        let _ = writeln!(out);
        let _ = writeln!(out, "class {}: {}", i + 1, class.disagreement.describe());
        let _ = writeln!(out, "  count: {} ({})", class.total(), by_len.join(", "));
        let _ = writeln!(out, "  example: {}", example.join(" "));
        let _ = writeln!(out, "  factors of well-formed UTF-8: {}", class.factors);
    }
    out
}

/// `conformance audit [--max-len N] [--brute-force] [--amended]`: prints the report;
/// the time taken goes to stderr so that stdout stays deterministic.
pub fn run(max_len: usize, brute_force: bool, amended: bool) -> ExitCode {
    let table = if amended {
        Table::Amended
    } else {
        Table::Transcribed
    };
    if !(1..=MAX_LEN).contains(&max_len) {
        crate::errln!("conformance audit: --max-len must be 1 to {MAX_LEN}");
        return ExitCode::from(2);
    }
    let start = std::time::Instant::now();
    let report = if brute_force {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        audit_table_brute_force(table, max_len, threads)
    } else {
        audit_table_by_classes(table, max_len)
    };
    crate::out!("{}", render(&report));
    crate::errln!("audit took {:.2?}", start.elapsed());
    ExitCode::SUCCESS
}
