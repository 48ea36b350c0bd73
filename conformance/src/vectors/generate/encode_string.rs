//! `<encoding>/encode-string.json`: a list of code points in, the bytes of the whole list
//! out, or the index and error kind of the first code point that has no encoding (SPEC
//! §1, "Encoding a string"). One generator for the three encodings, over each one's
//! table; the expected results come from the spec-literal `encode_string` of each.

use super::build::{strings, Groups};
use super::utf_inf8::classes;
use crate::vectors::model::{to_hex, EncodeStringTest, TestResult};
use crate::vectors::Encoding;
use conformance_literal::utf_inf8::CodePoint;
use conformance_literal::{corrected, utf8, utf_inf8, Kind};

/// What an encoding offers the generator: its rows' edges, the code points it refuses at
/// the edges of each refused range, and its string encoder.
struct Spec {
    encoding: Encoding,
    /// Each row (length class) as (first, last, length in bytes).
    rows: Vec<(CodePoint, CodePoint, usize)>,
    /// The edges of every refused range.
    refused: Vec<CodePoint>,
}

fn cp(v: u128) -> CodePoint {
    CodePoint::from_u128(v)
}

impl Spec {
    fn of(encoding: Encoding) -> Spec {
        match encoding {
            Encoding::CorrectedUtf8 => Spec {
                encoding,
                rows: corrected::TABLE
                    .iter()
                    .map(|r| (cp(r.first_cp.into()), cp(r.last_cp.into()), r.first.len()))
                    .collect(),
                refused: [0x80, 0x9F, 0xD800, 0xDFFF, 0x8421_10A0, 0xFFFF_FFFF]
                    .map(cp)
                    .to_vec(),
            },
            Encoding::Utf8 => Spec {
                encoding,
                rows: utf8::TABLE_3_7
                    .iter()
                    .map(|r| (cp(r.first_cp.into()), cp(r.last_cp.into()), r.bytes.len()))
                    .collect(),
                refused: [0xD800, 0xDFFF, 0x11_0000, 0xFFFF_FFFF].map(cp).to_vec(),
            },
            Encoding::UtfInf8 => Spec {
                encoding,
                // The fixed forms and the long-form classes up to 28 bytes (the first
                // with a B4); the longer classes are in `encode.json`.
                rows: classes()
                    .into_iter()
                    .filter(|c| c.bytes <= 28)
                    .map(|c| (c.first, c.last, c.bytes))
                    .collect(),
                refused: [0xD800, 0xDFFF].map(cp).to_vec(),
            },
        }
    }

    /// The literal encoder's answer for the list.
    fn encode(&self, cps: &[CodePoint]) -> Result<Vec<u8>, (usize, Kind)> {
        let small = || -> Vec<u32> {
            cps.iter()
                .map(|c| {
                    c.to_u128()
                        .and_then(|v| u32::try_from(v).ok())
                        .expect("32 bits")
                })
                .collect()
        };
        match self.encoding {
            Encoding::CorrectedUtf8 => corrected::encode_string(&small()),
            Encoding::Utf8 => utf8::encode_string(&small()),
            Encoding::UtfInf8 => utf_inf8::encode_string(cps),
        }
    }

    fn test(&self, comment: String, flags: &[&str], cps: Vec<CodePoint>) -> EncodeStringTest {
        let (bytes, error, index, result) = match self.encode(&cps) {
            Ok(b) => (Some(to_hex(&b)), None, None, TestResult::Valid),
            Err((i, k)) => (
                None,
                Some(k.as_str().to_string()),
                Some(i as u64),
                TestResult::Invalid,
            ),
        };
        EncodeStringTest {
            tc_id: 0,
            comment,
            flags: strings(flags),
            codepoints: cps.iter().map(ToString::to_string).collect(),
            bytes,
            error,
            index,
            result,
        }
    }

    /// A code point of the row between its edges.
    fn middle(&self, row: usize) -> CodePoint {
        let (first, last, _) = &self.rows[row];
        match (first.to_u128(), last.to_u128()) {
            (Some(a), Some(b)) => cp(a + (b - a) / 2),
            _ => first.clone(),
        }
    }

    /// The flag of a refused code point.
    fn kind_flag(&self, c: &CodePoint) -> &'static str {
        match self.encode(std::slice::from_ref(c)) {
            Err((_, Kind::C1Control)) => "C1Control",
            Err((_, Kind::Surrogate)) => "Surrogate",
            _ => "OutOfRange",
        }
    }
}

/// The test groups of `encoding`'s file, in file order.
pub(super) fn groups(encoding: Encoding) -> Groups<EncodeStringTest> {
    let spec = Spec::of(encoding);
    let mut g = Groups::new();
    empty(&spec, &mut g);
    row_edges(&spec, &mut g);
    errors(&spec, &mut g);
    first_error_wins(&spec, &mut g);
    block_runs(&spec, &mut g);
    g
}

/// A list for comments: each code point, runs of one written once with `×n`.
fn show(cps: &[CodePoint]) -> String {
    if cps.is_empty() {
        return "(empty list)".into();
    }
    let mut runs: Vec<(String, usize)> = Vec::new();
    for c in cps {
        let text = if c.hex().len() > 12 {
            format!("U+{}… ({} digits)", &c.hex()[..6], c.hex().len())
        } else {
            c.to_string()
        };
        match runs.last_mut() {
            Some((last, n)) if *last == text => *n += 1,
            _ => runs.push((text, 1)),
        }
    }
    let parts: Vec<String> = runs
        .into_iter()
        .map(|(s, n)| if n == 1 { s } else { format!("{s} ×{n}") })
        .collect();
    if parts.len() > 12 {
        format!(
            "{} … {} ({} code points)",
            parts[..6].join(" "),
            parts[parts.len() - 3..].join(" "),
            cps.len()
        )
    } else {
        parts.join(" ")
    }
}

fn empty(spec: &Spec, g: &mut Groups<EncodeStringTest>) {
    g.group("The empty list encodes to no bytes");
    g.push(spec.test("(empty list): no bytes".into(), &["Empty"], vec![]));
}

fn row_edges(spec: &Spec, g: &mut Groups<EncodeStringTest>) {
    g.group("Every row's first and last code point in runs of mixed lengths");
    let a = cp(0x41);
    let rows = &spec.rows;
    for (i, (first, last, len)) in rows.iter().enumerate() {
        let run = vec![a.clone(), first.clone(), last.clone(), a.clone()];
        g.push(spec.test(
            format!(
                "A, the first and last of the {len}-byte row {}, A: {}",
                i + 1,
                show(&run)
            ),
            &["RowEdgesRun"],
            run,
        ));
        if let Some((next, _, next_len)) = rows.get(i + 1) {
            let run = vec![last.clone(), next.clone(), last.clone(), next.clone()];
            g.push(spec.test(
                format!(
                    "the last of the {len}-byte row {} and the first of the {next_len}-byte row {}, twice: {}",
                    i + 1,
                    i + 2,
                    show(&run)
                ),
                &["RowEdgesRun"],
                run,
            ));
        }
        let run = vec![spec.middle(i), first.clone(), a.clone(), last.clone()];
        g.push(spec.test(
            format!(
                "inside row {}, its first, A, its last: {}",
                i + 1,
                show(&run)
            ),
            &["RowEdgesRun"],
            run,
        ));
    }
    // The code points next to every refused range, all encodable, in one list.
    let next_to: Vec<CodePoint> = spec
        .refused
        .iter()
        .filter_map(|c| c.to_u128())
        .flat_map(|v| [v.checked_sub(1), v.checked_add(1)])
        .flatten()
        .filter(|&v| spec.encoding == Encoding::UtfInf8 || v <= u128::from(u32::MAX))
        .map(cp)
        .filter(|c| spec.encode(std::slice::from_ref(c)).is_ok())
        .collect();
    g.push(spec.test(
        format!(
            "the code points next to every refused range's edges: {}",
            show(&next_to)
        ),
        &["RowEdgesRun"],
        next_to,
    ));
    let ascending: Vec<CodePoint> = rows
        .iter()
        .flat_map(|(f, l, _)| [f.clone(), l.clone()])
        .collect();
    let mut descending = ascending.clone();
    descending.reverse();
    let alternating: Vec<CodePoint> = rows
        .iter()
        .rev()
        .zip(rows.iter())
        .flat_map(|((f, _, _), (_, l, _))| [f.clone(), l.clone()])
        .collect();
    for (what, run) in [
        ("every row's first and last, in order", ascending),
        (
            "every row's last and first, from the last row down",
            descending,
        ),
        ("the longest and shortest rows alternating", alternating),
    ] {
        g.push(spec.test(format!("{what}: {}", show(&run)), &["RowEdgesRun"], run));
    }
}

fn errors(spec: &Spec, g: &mut Groups<EncodeStringTest>) {
    g.group("A code point without an encoding at the start, in the middle and at the end");
    let (a, e9) = (cp(0x41), cp(0xE9));
    let wide = spec.rows.last().map(|r| r.1.clone()).unwrap_or(cp(0x41));
    for bad in &spec.refused {
        let kind = spec.kind_flag(bad);
        let cases: [(&str, &str, Vec<CodePoint>); 6] = [
            ("alone", "ErrorAtStart", vec![bad.clone()]),
            (
                "at the start",
                "ErrorAtStart",
                vec![bad.clone(), a.clone(), e9.clone()],
            ),
            (
                "in the middle",
                "ErrorInMiddle",
                vec![a.clone(), bad.clone(), a.clone()],
            ),
            (
                "in the middle, after the widest code point",
                "ErrorInMiddle",
                vec![e9.clone(), wide.clone(), bad.clone(), wide.clone()],
            ),
            (
                "at the end",
                "ErrorAtEnd",
                vec![a.clone(), e9.clone(), bad.clone()],
            ),
            ("at the end of 8 ASCII", "ErrorAtEnd", {
                let mut v = vec![a.clone(); 8];
                v.push(bad.clone());
                v
            }),
        ];
        for (where_, flag, run) in cases {
            g.push(spec.test(
                format!("{bad} {where_}: {}", show(&run)),
                &[flag, kind],
                run,
            ));
        }
    }
}

fn first_error_wins(spec: &Spec, g: &mut Groups<EncodeStringTest>) {
    g.group("Several code points without an encoding: the first one's index and kind");
    let a = cp(0x41);
    let refused = &spec.refused;
    for (i, first) in refused.iter().enumerate() {
        let second = &refused[(i + 1) % refused.len()];
        let kind = spec.kind_flag(first);
        for run in [
            vec![first.clone(), second.clone()],
            vec![
                a.clone(),
                first.clone(),
                a.clone(),
                second.clone(),
                first.clone(),
            ],
        ] {
            g.push(spec.test(
                format!("{first} before {second}: {}", show(&run)),
                &["FirstErrorWins", kind],
                run,
            ));
        }
    }
    // A surrogate pair is two code points without an encoding, not one character.
    let pair = vec![cp(0xE9), cp(0xD83D), cp(0xDE00), cp(0x41)];
    g.push(spec.test(
        format!(
            "a UTF-16 surrogate pair for U+1F600, not joined: {}",
            show(&pair)
        ),
        &["FirstErrorWins", "Surrogate"],
        pair,
    ));
}

/// The block sizes of the fast paths (bytes: 16 for SSE2 and NEON, 32 for AVX2, 64 for
/// AVX-512, 256 for the ASCII skip), and for a code-point-wide encoder the same numbers
/// of code points.
const BLOCKS: [usize; 4] = [16, 32, 64, 256];

fn block_runs(spec: &Spec, g: &mut Groups<EncodeStringTest>) {
    g.group("Long runs across the fast paths' block sizes (16, 32, 64, 256 bytes and beyond)");
    let a = cp(0x41);
    for n in BLOCKS.iter().flat_map(|&b| [b - 1, b, b + 1]) {
        let run = vec![a.clone(); n];
        g.push(spec.test(format!("{n} × U+0041"), &["BlockRun"], run));
    }
    // Each row cycling through its first, middle and last code point, a little over
    // 256 bytes.
    for (i, (first, last, len)) in spec.rows.iter().enumerate() {
        if *len > 13 {
            continue;
        }
        let cycle = [first.clone(), spec.middle(i), last.clone()];
        let count = 257usize.div_ceil(*len) + 1;
        let run: Vec<CodePoint> = cycle.iter().cycle().take(count).cloned().collect();
        g.push(spec.test(
            format!(
                "{count} code points of row {} ({len} bytes each: {} bytes), its first, middle and last in turn",
                i + 1,
                count * len
            ),
            &["BlockRun", "RowEdgesRun"],
            run,
        ));
    }
    // Every row's edges, over and over: every length next to every other, 1100 code
    // points.
    let edges: Vec<CodePoint> = spec
        .rows
        .iter()
        .filter(|r| r.2 <= 13)
        .flat_map(|(f, l, _)| [f.clone(), l.clone()])
        .collect();
    let mixed: Vec<CodePoint> = edges.iter().cycle().take(1100).cloned().collect();
    g.push(spec.test(
        format!(
            "every row's edges in turn, 1100 code points: {}",
            show(&mixed)
        ),
        &["BlockRun", "RowEdgesRun"],
        mixed,
    ));
    // An error where a block ends, begins or just after: after k ASCII code points, then
    // three more that must not be written.
    for (j, k) in BLOCKS.iter().flat_map(|&b| [b - 1, b, b + 1]).enumerate() {
        let bad = &spec.refused[j % spec.refused.len()];
        let mut run = vec![a.clone(); k];
        run.extend([bad.clone(), a.clone(), a.clone(), a.clone()]);
        g.push(spec.test(
            format!("{k} × U+0041, then {bad} at index {k}, then 3 × U+0041"),
            &["BlockRun", "ErrorInMiddle", spec.kind_flag(bad)],
            run,
        ));
    }
    // The same after 2-byte and 4-byte code points, where the bytes before the error fill
    // a block exactly.
    for &b in &BLOCKS {
        for row in [1usize, 4] {
            let Some((first, last, len)) = spec.rows.get(row) else {
                continue;
            };
            let count = b / len;
            let bad = &spec.refused[(b / 16 + row) % spec.refused.len()];
            let mut run: Vec<CodePoint> = [first.clone(), last.clone()]
                .iter()
                .cycle()
                .take(count)
                .cloned()
                .collect();
            run.extend([bad.clone(), first.clone()]);
            g.push(spec.test(
                format!(
                    "{count} code points of {len} bytes ({} bytes), then {bad} at index {count}",
                    count * len
                ),
                &["BlockRun", "ErrorInMiddle", spec.kind_flag(bad)],
                run,
            ));
        }
    }
    // The last code point of a long valid run without an encoding.
    let bad = &spec.refused[0];
    let mut run: Vec<CodePoint> = edges.iter().cycle().take(300).cloned().collect();
    run.push(bad.clone());
    g.push(spec.test(
        format!("300 code points of every row's edges, then {bad} at the end (index 300)"),
        &["BlockRun", "ErrorAtEnd", spec.kind_flag(bad)],
        run,
    ));
}
