//! Every boundary twice from each side (issue 38 item 1): the vectors must see every split
//! the spec-literal tables define, from both sides, with at least two vectors each.
//!
//! A *planted change* is a copy of an encoding's tables (`Tables`, a mutant table; the
//! codec is not touched) with one split constant moved by one: a range's `lo <= x` or
//! `x <= hi` turned strict (the bound moves inwards), the bound moved outwards, a split
//! between two neighbouring ranges moved one lower or one higher (the issue's
//! `raw <= 0xCF60` for `raw < 0xCF60`), a row's offset ±1. Each moves exactly one value
//! (a byte, a byte sequence or a code point) across the split: that value is the *side*
//! it tests. For each planted change the test counts the vectors it fails: in
//! `decode.json`, `encode.json` and `encode-string.json` of its encoding.
//!
//! A change that no input can see (a range widened onto one that an earlier table entry
//! already claims, say) is *invisible*: a probe of inputs and code points around every
//! constant (every byte in every position of every row or form, every code point within
//! two of every constant) says which operation can see each change at all. Every change
//! visible to decoding must fail at least 2 vectors of `decode.json`, every change visible
//! to encoding at least 2 of `encode.json`; and a change that fails a vector must be
//! visible to the probe (else the probe is too small).
//!
//! The count per boundary and side is `vectors/README.md`'s generated table, between
//! markers; `CONFORMANCE_BLESS_DOCS=1 cargo test -p conformance-literal --test boundaries`
//! rewrites it, and the test fails when it is stale.

/// `struct Mutant(Tables)` and its [`Subject`] for an encoding whose `Tables` has the
/// spec-literal `decode`, `encode` and `encode_string` (Corrected UTF-8's and UTF-8's).
macro_rules! mutant_subject {
    () => {
        struct Mutant(Tables);

        impl Subject for Mutant {
            fn decode(&self, input: &[u8]) -> Vec<String> {
                self.0
                    .decode(input)
                    .into_iter()
                    .map(|e| match e {
                        conformance_literal::Event::CodePoint(cp) => format!("U+{cp:04X}"),
                        conformance_literal::Event::Error {
                            kind,
                            offset,
                            length,
                        } => format!("{kind}@{offset}+{length}"),
                        conformance_literal::Event::Reserved { offset, length } => {
                            format!("reserved@{offset}+{length}")
                        }
                    })
                    .collect()
            }

            fn encode(&self, cp: &str) -> Option<String> {
                let cp = u32::from_str_radix(cp.strip_prefix("U+")?, 16).ok()?;
                Some(match self.0.encode(cp) {
                    Ok(b) => format!("bytes:{}", conformance_literal::hex(&b, "")),
                    Err(k) => format!("error:{k}"),
                })
            }

            fn encode_string(&self, cps: &[String]) -> Option<String> {
                let cps: Vec<u32> = cps
                    .iter()
                    .map(|c| u32::from_str_radix(c.strip_prefix("U+")?, 16).ok())
                    .collect::<Option<_>>()?;
                Some(match self.0.encode_string(&cps) {
                    Ok(b) => format!("bytes:{}", conformance_literal::hex(&b, "")),
                    Err((i, k)) => format!("error:{k}@{i}"),
                })
            }
        }
    };
}

mod corrected;
mod utf8;
mod utf_inf8;

use corrected_utf8_vectors::model::{AnyVectorFile, OutputEvent};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What an encoding (its spec tables, or a mutant) answers, in the vectors' terms.
pub trait Subject: Sync {
    /// The events of a decode, each as text (`U+0041`, `truncated@3+2`, `reserved@0+1`).
    fn decode(&self, input: &[u8]) -> Vec<String>;
    /// `bytes:<hex>` or `error:<kind>` for a `U+…` code point (`None`: not one of this
    /// encoding's).
    fn encode(&self, cp: &str) -> Option<String>;
    /// `bytes:<hex>` or `error:<kind>@<index>` for a list.
    fn encode_string(&self, cps: &[String]) -> Option<String>;
}

/// One planted change.
pub struct Planted {
    /// The boundary: the two neighbouring values the split lies between (`D7FF | D800`).
    pub split: String,
    /// The value the change moves across the split.
    pub side: String,
    /// What was changed.
    pub change: String,
    /// The mutant encoding.
    pub subject: Box<dyn Subject>,
}

/// A bound of a range in one of the tables, and how to set it in a copy.
pub struct Bound<'a, T> {
    /// Its value.
    pub value: u128,
    /// The largest value of its domain.
    pub max: u128,
    /// Sets it in a copy of the tables.
    pub set: &'a dyn Fn(&mut T, u128),
}

/// Builds planted changes for one encoding's tables `T`.
pub struct Planter<'a, T> {
    /// The spec tables.
    pub spec: T,
    /// Turns a mutant into a subject.
    pub subject: &'a dyn Fn(T) -> Box<dyn Subject>,
    /// The changes so far.
    pub out: Vec<Planted>,
}

impl<T: Copy> Planter<'_, T> {
    fn plant(&mut self, split: String, side: String, change: String, edit: &dyn Fn(&mut T)) {
        let mut t = self.spec;
        edit(&mut t);
        self.out.push(Planted {
            split,
            side,
            change,
            subject: (self.subject)(t),
        });
    }

    /// The four moves of a range's two bounds: each inwards (the comparison made
    /// strict) and outwards, by one. `label` names a value of the domain.
    pub fn range(
        &mut self,
        what: &str,
        label: &dyn Fn(u128) -> String,
        lo: Bound<T>,
        hi: Bound<T>,
    ) {
        let split = |a: Option<u128>, b: Option<u128>| {
            let show = |v: Option<u128>, end: &str| v.map_or(end.to_string(), label);
            format!("{} | {}", show(a, "start"), show(b, "end"))
        };
        let (l, h) = (lo.value, hi.value);
        let below = l.checked_sub(1);
        let above = (h < hi.max).then(|| h + 1);
        self.plant(
            split(below, Some(l)),
            label(l),
            format!("{what}: `{} <= x` made `<`", label(l)),
            &|t| (lo.set)(t, l + 1),
        );
        if let Some(b) = below {
            self.plant(
                split(below, Some(l)),
                label(b),
                format!("{what}: lower bound {} − 1", label(l)),
                &|t| (lo.set)(t, b),
            );
        }
        if let Some(h1) = h.checked_sub(1) {
            self.plant(
                split(Some(h), above),
                label(h),
                format!("{what}: `x <= {}` made `<`", label(h)),
                &|t| (hi.set)(t, h1),
            );
        }
        if let Some(a) = above {
            self.plant(
                split(Some(h), above),
                label(a),
                format!("{what}: upper bound {} + 1", label(h)),
                &|t| (hi.set)(t, a),
            );
        }
    }

    /// The split between a range ending at `upper.value` and the next one starting right
    /// after it, moved one lower and one higher (both bounds at once).
    pub fn split(
        &mut self,
        what: &str,
        label: &dyn Fn(u128) -> String,
        upper: Bound<T>,
        lower: Bound<T>,
    ) {
        let h = upper.value;
        assert_eq!(lower.value, h + 1, "{what}: not neighbours");
        let split = format!("{} | {}", label(h), label(h + 1));
        if h > 0 {
            self.plant(
                split.clone(),
                label(h),
                format!("{what}: the split one lower"),
                &|t| {
                    (upper.set)(t, h - 1);
                    (lower.set)(t, h);
                },
            );
        }
        if h + 1 < lower.max {
            self.plant(
                split,
                label(h + 1),
                format!("{what}: the split one higher"),
                &|t| {
                    (upper.set)(t, h + 1);
                    (lower.set)(t, h + 2);
                },
            );
        }
    }
}

/// A range of code points of the tables `T`: its name, its bounds, and how to set each
/// bound in a copy.
pub type CodePointRange<T> = (String, u128, u128, SetBound<T>, SetBound<T>);

/// Sets a bound in a copy of the tables `T`.
pub type SetBound<T> = Box<dyn Fn(&mut T, u128)>;

impl<T: Copy> Planter<'_, T> {
    /// Every range of 32-bit code points ([`Planter::range`]), and every split between
    /// two neighbouring ones ([`Planter::split`]), in code point order.
    pub fn code_point_ranges(&mut self, mut ranges: Vec<CodePointRange<T>>) {
        ranges.sort_by_key(|r| r.1);
        for (i, (what, lo, hi, set_lo, set_hi)) in ranges.iter().enumerate() {
            self.range(what, &cp_label, at(*lo, set_lo), at(*hi, set_hi));
            if let Some((next, next_lo, _, next_set, _)) = ranges.get(i + 1) {
                self.split(
                    &format!("{what} | {next}"),
                    &cp_label,
                    at(*hi, set_hi),
                    at(*next_lo, next_set),
                );
            }
        }
    }
}

/// A bound of a 32-bit code point range.
fn at<T>(value: u128, set: &SetBound<T>) -> Bound<'_, T> {
    Bound {
        value,
        max: 0xFFFF_FFFF,
        set: &**set,
    }
}

/// A static copy of a slice (a mutant table keeps `&'static` rows; a test leaks a few).
pub fn leak<T: Clone>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

/// `U+…` as in the vectors.
pub fn cp_label(v: u128) -> String {
    format!("U+{v:04X}")
}

/// A byte.
pub fn byte_label(v: u128) -> String {
    format!("{v:02X}")
}

/// Bytes, spaced.
pub fn bytes_label(b: &[u8]) -> String {
    b.iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An encoding's vectors, as the files have them.
pub struct Vectors {
    /// `decode.json`: input and expected events.
    pub decode: Vec<(Vec<u8>, Vec<String>)>,
    /// `encode.json`: code point and expected answer.
    pub encode: Vec<(String, String)>,
    /// `encode-string.json`: code points and expected answer.
    pub strings: Vec<(Vec<String>, String)>,
}

/// The repository's `vectors/`.
fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors")
}

fn event_text(e: &OutputEvent) -> String {
    match e {
        OutputEvent::CodePoint { codepoint } => codepoint.clone(),
        OutputEvent::Error {
            error,
            offset,
            length,
        } => format!("{error}@{offset}+{length}"),
        OutputEvent::Reserved { offset, length, .. } => format!("reserved@{offset}+{length}"),
    }
}

fn answer(bytes: &Option<String>, error: &Option<String>, index: Option<u64>) -> String {
    match (bytes, error, index) {
        (Some(b), _, _) => format!("bytes:{b}"),
        (None, Some(e), Some(i)) => format!("error:{e}@{i}"),
        (None, Some(e), None) => format!("error:{e}"),
        _ => "malformed".into(),
    }
}

/// Inputs longer than this are left out of the counts: the mutants of the tables move
/// values that short inputs hold, and the literal UTF-∞-8 decoder takes a while over the
/// 64 KiB codes of the limit cases.
pub const MAX_INPUT: usize = 4096;

/// Reads `vectors/<encoding>/{decode,encode,encode-string}.json` under `dir`.
pub fn load(dir: &Path, encoding: &str) -> Vectors {
    let read = |name: &str| {
        let path = dir.join(encoding).join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        AnyVectorFile::from_json(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
    };
    let mut v = Vectors {
        decode: vec![],
        encode: vec![],
        strings: vec![],
    };
    if let AnyVectorFile::Decode(f) = read("decode.json") {
        for t in f.tests() {
            let input = corrected_utf8_vectors::model::from_hex(&t.input).expect("hex");
            if input.len() <= MAX_INPUT {
                v.decode
                    .push((input, t.output.iter().map(event_text).collect()));
            }
        }
    }
    if let AnyVectorFile::Encode(f) = read("encode.json") {
        for t in f.tests() {
            v.encode
                .push((t.codepoint.clone(), answer(&t.bytes, &t.error, None)));
        }
    }
    if let AnyVectorFile::EncodeString(f) = read("encode-string.json") {
        for t in f.tests() {
            v.strings
                .push((t.codepoints.clone(), answer(&t.bytes, &t.error, t.index)));
        }
    }
    assert!(!v.decode.is_empty() && !v.encode.is_empty() && !v.strings.is_empty());
    v
}

/// What a planted change does to the vectors and to the probe.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kills {
    /// Failing vectors of `decode.json`.
    pub decode: usize,
    /// Of `encode.json`.
    pub encode: usize,
    /// Of `encode-string.json`.
    pub strings: usize,
    /// Whether any probe input decodes differently.
    pub decode_visible: bool,
    /// Whether any probe code point encodes differently.
    pub encode_visible: bool,
}

/// The probe: inputs and code points around every constant of the tables.
pub struct Probe {
    /// Inputs to decode.
    pub inputs: Vec<Vec<u8>>,
    /// Code points (`U+…`) to encode.
    pub codepoints: Vec<String>,
}

/// Counts what `mutant` fails, against the vectors and, for visibility, the spec on the
/// probe (whose answers `spec_answers` holds).
pub fn kills(mutant: &dyn Subject, vectors: &Vectors, probe: &Probe, spec: &ProbeAnswers) -> Kills {
    let decode = vectors
        .decode
        .iter()
        .filter(|(input, want)| mutant.decode(input) != *want)
        .count();
    let encode = vectors
        .encode
        .iter()
        .filter(|(cp, want)| mutant.encode(cp).as_ref() != Some(want))
        .count();
    let strings = vectors
        .strings
        .iter()
        .filter(|(cps, want)| mutant.encode_string(cps).as_ref() != Some(want))
        .count();
    let decode_visible = probe
        .inputs
        .iter()
        .zip(&spec.decode)
        .any(|(input, want)| mutant.decode(input) != *want);
    let encode_visible = probe
        .codepoints
        .iter()
        .zip(&spec.encode)
        .any(|(cp, want)| mutant.encode(cp) != *want);
    Kills {
        decode,
        encode,
        strings,
        decode_visible,
        encode_visible,
    }
}

/// The spec's answers on the probe.
pub struct ProbeAnswers {
    decode: Vec<Vec<String>>,
    encode: Vec<Option<String>>,
}

impl ProbeAnswers {
    fn of(spec: &dyn Subject, probe: &Probe) -> ProbeAnswers {
        ProbeAnswers {
            decode: probe.inputs.iter().map(|i| spec.decode(i)).collect(),
            encode: probe.codepoints.iter().map(|c| spec.encode(c)).collect(),
        }
    }
}

/// One encoding: its spec, its planted changes, its probe.
pub struct Case {
    /// `corrected-utf8`, …
    pub encoding: &'static str,
    /// The spec tables as a subject.
    pub spec: Box<dyn Subject>,
    /// The planted changes.
    pub planted: Vec<Planted>,
    /// The probe.
    pub probe: Probe,
}

/// Each planted change of `case` with what it fails, computed on both cores.
fn judge(case: &Case, vectors: &Vectors) -> Vec<Kills> {
    let answers = ProbeAnswers::of(&*case.spec, &case.probe);
    // The spec itself fails no vector: the counts mean something.
    let spec = kills(&*case.spec, vectors, &case.probe, &answers);
    assert_eq!(
        spec,
        Kills::default(),
        "{}: the spec tables fail vectors",
        case.encoding
    );
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4);
    let chunk = case.planted.len().div_ceil(workers).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = case
            .planted
            .chunks(chunk)
            .map(|part| {
                let answers = &answers;
                s.spawn(move || {
                    part.iter()
                        .map(|p| kills(&*p.subject, vectors, &case.probe, answers))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("no panic"))
            .collect()
    })
}

/// The fewest vectors of each file that the planted changes of one side fail (over the
/// changes visible to that operation), and how many changes there are.
#[derive(Default)]
struct Side {
    decode: Option<usize>,
    encode: Option<usize>,
    strings: Option<usize>,
    changes: usize,
}

fn min_into(slot: &mut Option<usize>, v: usize) {
    *slot = Some(slot.map_or(v, |s| s.min(v)));
}

/// What the test found: the problems, the generated table's rows, the invisible changes.
struct Findings {
    problems: Vec<String>,
    rows: Vec<String>,
    invisible: Vec<String>,
    totals: Vec<(String, usize, usize)>,
}

/// Checks every case against `dir`'s vectors.
fn check(cases: &[Case], dir: &Path) -> Findings {
    let mut f = Findings {
        problems: vec![],
        rows: vec![],
        invisible: vec![],
        totals: vec![],
    };
    for case in cases {
        let vectors = load(dir, case.encoding);
        let all = judge(case, &vectors);
        let mut sides: BTreeMap<(usize, String, String), Side> = BTreeMap::new();
        let mut order: Vec<String> = Vec::new();
        let mut visible_count = 0;
        for (p, k) in case.planted.iter().zip(&all) {
            let name = format!("{} {} ({})", case.encoding, p.change, p.split);
            if (k.decode > 0 && !k.decode_visible)
                || (k.encode + k.strings > 0 && !k.encode_visible)
            {
                f.problems.push(format!(
                    "{name}: fails vectors the probe does not see ({k:?}): widen the probe"
                ));
            }
            if !k.decode_visible && !k.encode_visible {
                f.invisible.push(format!("{}: {}", case.encoding, p.change));
                continue;
            }
            visible_count += 1;
            if k.decode_visible && k.decode < 2 {
                f.problems.push(format!(
                    "{name}: fails {} decode vector(s) of {}/decode.json, needs 2 (side {})",
                    k.decode, case.encoding, p.side
                ));
            }
            if k.encode_visible && k.encode < 2 {
                f.problems.push(format!(
                    "{name}: fails {} encode vector(s) of {}/encode.json, needs 2 (side {})",
                    k.encode, case.encoding, p.side
                ));
            }
            if !order.contains(&p.split) {
                order.push(p.split.clone());
            }
            let at = order.iter().position(|s| *s == p.split).unwrap_or(0);
            let side = sides
                .entry((at, p.split.clone(), p.side.clone()))
                .or_default();
            side.changes += 1;
            if k.decode_visible {
                min_into(&mut side.decode, k.decode);
            }
            if k.encode_visible {
                min_into(&mut side.encode, k.encode);
                min_into(&mut side.strings, k.strings);
            }
        }
        f.totals.push((
            case.encoding.to_string(),
            visible_count,
            case.planted.len() - visible_count,
        ));
        let show = |v: Option<usize>| v.map_or("—".to_string(), |n| n.to_string());
        let cell = |s: &str| s.replace('|', "\\|");
        for ((_, split, side), s) in sides {
            f.rows.push(format!(
                "| `{}` | {} | {} | {} | {} | {} | {} |",
                case.encoding,
                cell(&split),
                cell(&side),
                show(s.decode),
                show(s.encode),
                show(s.strings),
                s.changes
            ));
        }
    }
    f
}

const BLESS: &str = "CONFORMANCE_BLESS_DOCS";
const BEGIN: &str =
    "<!-- BEGIN GENERATED: CONFORMANCE_BLESS_DOCS=1 cargo test -p conformance-literal --test boundaries -->";
const END: &str = "<!-- END GENERATED: boundaries -->";

fn table(f: &Findings) -> String {
    let mut out = format!("{BEGIN}\n");
    let totals: Vec<String> = f
        .totals
        .iter()
        .map(|(e, visible, invisible)| {
            format!("{e}: {visible} planted changes, {invisible} invisible to every input")
        })
        .collect();
    out.push_str(&format!("{}.\n\n", totals.join("; ")));
    out.push_str(
        "| encoding | split | side | decode | encode | encode-string | changes |\n\
         |---|---|---|--:|--:|--:|--:|\n",
    );
    for row in &f.rows {
        out.push_str(row);
        out.push('\n');
    }
    out.push_str(END);
    out
}

fn cases() -> Vec<Case> {
    vec![corrected::case(), utf8::case(), utf_inf8::case()]
}

#[test]
fn every_split_is_seen_by_two_vectors_from_each_side() {
    let dir = vectors_dir();
    let findings = check(&cases(), &dir);
    // `cargo test … -- --nocapture` lists the changes no input can see.
    for change in &findings.invisible {
        eprintln!("invisible: {change}");
    }
    assert!(
        findings.problems.is_empty(),
        "{} planted change(s) are seen by too few vectors:\n{}",
        findings.problems.len(),
        findings.problems.join("\n")
    );
    let path = dir.join("README.md");
    let readme = std::fs::read_to_string(&path).expect("vectors/README.md");
    let block = table(&findings);
    let (Some(begin), Some(end)) = (readme.find(BEGIN), readme.find(END)) else {
        panic!("vectors/README.md has no `{BEGIN}` … `{END}` block");
    };
    let current = &readme[begin..end + END.len()];
    if std::env::var_os(BLESS).is_some() {
        let new = format!("{}{block}{}", &readme[..begin], &readme[end + END.len()..]);
        std::fs::write(&path, new).expect("write vectors/README.md");
        return;
    }
    assert!(
        current == block,
        "vectors/README.md's table of boundaries is stale: \
         {BLESS}=1 cargo test -p conformance-literal --test boundaries rewrites it"
    );
}

/// The check can fail: with the vectors of one side of a split taken out but one, the
/// planted change of that side is reported. (U+D800 in Corrected UTF-8: the first
/// surrogate, whose encode error the issue found tested by a single vector.)
#[test]
fn one_vector_on_a_side_is_reported() {
    let case = corrected::case();
    let dir = vectors_dir();
    let mut vectors = load(&dir, case.encoding);
    let mut kept = 0;
    vectors.encode.retain(|(cp, _)| {
        if cp != "U+D800" {
            return true;
        }
        kept += 1;
        kept == 1
    });
    assert!(kept >= 2, "{kept} encode vector(s) of U+D800");
    let answers = ProbeAnswers::of(&*case.spec, &case.probe);
    let moved = case
        .planted
        .iter()
        .find(|p| p.side == "U+D800" && p.change.contains("made `<`"))
        .expect("a change of U+D800");
    let k = kills(&*moved.subject, &vectors, &case.probe, &answers);
    assert!(k.encode_visible);
    assert_eq!(k.encode, 1, "{k:?}");
}
