//! The walks that reach what short inputs cannot: documents around
//! the magic number (`exhaustive --op document`) and UTF-∞-8's long codes at a limit
//! (`exhaustive --op decode --encoding utf-inf-8`), for the reference walk and an
//! adapter's. Each planted mistake fails them: in a broken [`CodecFns`] for the
//! reference's walk, and in `adapters/testing/broken_corrected.py` for an adapter's; the
//! reference and the honest Python adapter pass.

use crate::common::process;
use conformance::exhaustive::codec_fns::{
    CodecFns, DocFinding, Ev, EvBuf, FindingCode, KindCode, Value,
};
use conformance::exhaustive::long_forms::{self, LongForms};
use conformance::exhaustive::reference::{execute, Config, ReferenceOutcome};
use conformance::exhaustive::{Failure, REFERENCE};
use conformance::vectors::Op;
use conformance_literal::Kind;
use corrected_utf8::{utf_inf8, Encoding, Event};
use std::path::Path;

fn documents(max_len: usize) -> Config {
    Config {
        max_len,
        ops: vec![Op::Document],
        ..Config::default()
    }
}

fn long(max_len: usize) -> Config {
    Config {
        max_len,
        ops: vec![Op::Decode],
        encodings: vec![Encoding::UtfInf8],
        ..Config::default()
    }
}

fn passes(imp: &CodecFns, cfg: &Config) -> ReferenceOutcome {
    let out = execute(imp, cfg).expect("valid config");
    if let Some(f) = &out.failure {
        panic!("{f}");
    }
    assert!(out.complete);
    out
}

fn fails(imp: &CodecFns, cfg: &Config) -> Failure {
    let out = execute(imp, cfg).expect("valid config");
    out.failure
        .unwrap_or_else(|| panic!("{} must fail", imp.name))
}

// ---------------------------------------------------------------------------------------
// Documents, the reference's walk.

#[test]
fn the_reference_passes_every_document_of_bodies_up_to_3_bytes() {
    let out = passes(&REFERENCE, &documents(3));
    let c = &out.walk.counts;
    assert_eq!(c["document.magic-then.3-byte"], 1 << 24);
    assert_eq!(c["document.magic-then.0-byte"], 1);
    // An inner magic number at each of the 3 positions of a 2-byte body after a leading
    // one, and at the 2 positions past the start without one.
    assert_eq!(c["document.inner-magic.2-byte"], 5 * 65_536);
    assert_eq!(c["document.plain.2-byte"], 65_536);
    // Every inner-magic document has its warning, and MAGIC MAGIC's 00 is not `nul`.
    assert_eq!(
        c["document.findings.inner-magic"],
        1 + 3 * 256 + 5 * 65_536,
        "{c:?}"
    );
    assert_eq!(out.walk.cases, 16_843_009 + 328_449 + 65_793);
}

/// The reference's checker with the planted mistake of issue 38: the `00` of an inner
/// magic number is also `nul`.
const INNER_MAGIC_NUL: CodecFns = CodecFns {
    name: "inner-magic-nul",
    corrected_document: |bytes, out: &mut Vec<DocFinding>| {
        (REFERENCE.corrected_document)(bytes, out);
        let inner: Vec<DocFinding> = out
            .iter()
            .filter(|f| f.kind.name() == "inner-magic")
            .copied()
            .collect();
        for f in inner {
            let nul = DocFinding {
                kind: FindingCode(0),
                offset: f.offset + 6,
                line: f.line,
                column: f.column + 2,
            };
            let at = out
                .iter()
                .position(|g| g.offset > nul.offset)
                .unwrap_or(out.len());
            out.insert(at, nul);
        }
    },
    ..REFERENCE
};

/// The other planted mistake: after a leading magic number, lines count from 2.
const MAGIC_LINE: CodecFns = CodecFns {
    name: "magic-line",
    corrected_document: |bytes, out: &mut Vec<DocFinding>| {
        (REFERENCE.corrected_document)(bytes, out);
        if bytes.starts_with(&corrected_utf8::corrected::MAGIC) {
            for f in out.iter_mut() {
                f.line += 1;
            }
        }
    },
    ..REFERENCE
};

#[test]
fn the_two_planted_document_mistakes_fail_the_reference_walk() {
    let f = fails(&INNER_MAGIC_NUL, &documents(2));
    assert_eq!(f.check, "corrected-utf8 document");
    // MAGIC MAGIC: the first document with an inner magic number.
    assert_eq!(f.input, "ef b7 9d ed b2 ae 00 0a ef b7 9d ed b2 ae 00 0a");
    assert!(f.got.contains("nul @14 1:3"), "{f}");
    assert_eq!(f.want, "[inner-magic @8 1:1]");
    let f = fails(&MAGIC_LINE, &documents(2));
    // The magic number then `00`: `nul` on line 1, not 2.
    assert_eq!(f.input, "ef b7 9d ed b2 ae 00 0a 00");
    assert_eq!(f.want, "[nul @8 1:1, missing-final-newline @9 1:2]");
    assert_eq!(f.got, "[nul @8 2:1, missing-final-newline @9 2:2]");
}

// ---------------------------------------------------------------------------------------
// UTF-∞-8's long forms, the reference's walk.

#[test]
fn the_reference_passes_the_long_forms_at_every_limit() {
    let out = passes(&REFERENCE, &long(1));
    let c = &out.walk.counts;
    assert_eq!(c["utf-inf-8-long-forms.limits"], 17);
    let inputs: u64 = long_forms::REFERENCE_LIMITS
        .iter()
        .map(|&l| LongForms::at_limit(u64::from(l)).len() as u64)
        .sum();
    assert_eq!(c["utf-inf-8-long-forms.inputs"], inputs);
    for kind in ["limit-exceeded", "overlong", "invalid-length", "truncated"] {
        assert!(
            c[&format!("utf-inf-8-long-forms.error-spans.{kind}")] > 0,
            "{kind}"
        );
    }
    assert!(c["utf-inf-8-long-forms.well-formed"] > 0);
}

/// Events of the reference codec, as a broken decoder rewrites them.
fn reference_events(
    bytes: &[u8],
    limit: u32,
) -> Vec<corrected_utf8::Located<corrected_utf8::BigCodePoint>> {
    let mut events = utf_inf8::events_with_limit(bytes, limit);
    std::iter::from_fn(|| events.next_located()).collect()
}

fn error(kind: Kind, offset: u64, length: u64) -> Ev {
    Ev {
        offset: offset as u32,
        length: length as u32,
        value: Value::Error(KindCode::literal(kind)),
    }
}

/// Issue 41's first mistake: the limit test is `>=`, so a code of exactly the limit is
/// refused (planted where the code is complete: an open code still compares right, so
/// the walk of short inputs cannot see it).
const LIMIT_GE: CodecFns = CodecFns {
    name: "limit-ge",
    utf_inf8_decode: |bytes, limit, out: &mut EvBuf| {
        out.clear();
        for l in reference_events(bytes, limit) {
            if matches!(l.event, Event::CodePoint(_)) && l.length == u64::from(limit) {
                out.push(error(Kind::LimitExceeded, l.offset, l.length));
            } else {
                out.push_inf(&l, 0);
            }
        }
    },
    ..REFERENCE
};

/// The prefix length of an over-long code at which the limit is first seen crossed.
fn crossing(code: &[u8], limit: u32) -> usize {
    (1..=code.len())
        .find(|&n| {
            reference_events(&code[..n], limit)
                .first()
                .and_then(|l| l.event.error())
                .is_some_and(|e| e.kind == corrected_utf8::ErrorKind::LimitExceeded)
        })
        .unwrap_or(code.len())
}

/// Issue 41's second mistake: a `limit-exceeded` span cut where the limit is crossed;
/// decoding resumes there (the code's other bytes are stray continuation bytes).
fn limit_cut(bytes: &[u8], limit: u32, shift: u64, out: &mut EvBuf) {
    for l in reference_events(bytes, limit) {
        if let Some(e) = l
            .event
            .error()
            .filter(|e| e.kind == corrected_utf8::ErrorKind::LimitExceeded)
        {
            let at = e.offset as usize;
            let n = crossing(&bytes[at..at + e.length as usize], limit);
            if n < e.length as usize {
                out.push(error(Kind::LimitExceeded, shift + e.offset, n as u64));
                return limit_cut(&bytes[at + n..], limit, shift + (at + n) as u64, out);
            }
        }
        out.push_inf(&l, shift);
    }
}

const LIMIT_CUT: CodecFns = CodecFns {
    name: "limit-cut",
    utf_inf8_decode: |bytes, limit, out: &mut EvBuf| {
        out.clear();
        limit_cut(bytes, limit, 0, out);
    },
    ..REFERENCE
};

/// Issue 41's third mistake: the 13-byte form's overlong decided once the code is
/// complete: one `overlong` span of 13 bytes (`truncated` when cut short), not the
/// maximal subpart.
fn late_overlong(bytes: &[u8], limit: u32, shift: u64, out: &mut EvBuf) {
    for l in reference_events(bytes, limit) {
        let at = l.offset as usize;
        let thirteen =
            bytes[at] == 0xFF && bytes.get(at + 1).is_some_and(|b| (0x80..=0x9F).contains(b));
        if thirteen
            && l.event
                .error()
                .is_some_and(|e| e.kind == corrected_utf8::ErrorKind::Overlong)
        {
            let n = 1 + bytes[at + 1..]
                .iter()
                .take(12)
                .take_while(|b| (0x80..=0xBF).contains(*b))
                .count();
            let kind = if n == 13 {
                Kind::Overlong
            } else {
                Kind::Truncated
            };
            out.push(error(kind, shift + l.offset, n as u64));
            return late_overlong(&bytes[at + n..], limit, shift + (at + n) as u64, out);
        }
        out.push_inf(&l, shift);
    }
}

const LATE_OVERLONG: CodecFns = CodecFns {
    name: "late-overlong",
    utf_inf8_decode: |bytes, limit, out: &mut EvBuf| {
        out.clear();
        late_overlong(bytes, limit, 0, out);
    },
    ..REFERENCE
};

#[test]
fn the_three_planted_long_form_mistakes_fail_the_reference_walk() {
    // Inputs of 1 byte cannot show any of them (the input part passes): the long forms do.
    for imp in [&LIMIT_GE, &LIMIT_CUT, &LATE_OVERLONG] {
        let f = fails(imp, &long(1));
        assert_eq!(f.check, "utf-inf-8 decode, long forms", "{f}");
    }
    let f = fails(&LIMIT_GE, &long(1));
    // At limit 1, the first limit walked, a code of 1 byte is refused.
    assert_eq!(f.input, "fe 41 at limit 1", "{f}");
    assert_eq!(f.got, "[limit-exceeded @0+1, limit-exceeded @1+1]");
    assert_eq!(f.want, "[limit-exceeded @0+1, U+0041 @1+1]");
    let f = fails(&LIMIT_CUT, &long(1));
    // FE 82 starts a 7-byte code: over the limit 1 from its lead, one span to the end.
    assert_eq!(f.input, "fe 82 at limit 1", "{f}");
    assert_eq!(f.got, "[limit-exceeded @0+1, unexpected-continuation @1+1]");
    assert_eq!(f.want, "[limit-exceeded @0+2]");
    let f = fails(&LATE_OVERLONG, &long(1));
    // Under a limit below 13 the 13-byte form is over the limit from its lead: the
    // overlong shows from the limit 13 on.
    assert_eq!(f.input, "ff 80 80 80 80 80 80 at limit 13", "{f}");
    assert_eq!(f.got, "[truncated @0+7]");
    assert_eq!(f.want, "[overlong @0+6, unexpected-continuation @6+1]");
}

/// A decoder whose code points above `u32::MAX` have a wrong last digit: the walk compares
/// every digit of a large code point, not a saturated stand-in.
const LARGE_WRONG_DIGIT: CodecFns = CodecFns {
    name: "large-wrong-digit",
    utf_inf8_decode: |bytes, limit, out: &mut EvBuf| {
        out.clear();
        for mut l in reference_events(bytes, limit) {
            if let Event::CodePoint(cp) = &l.event {
                if cp.to_u32().is_none() {
                    let mut digits = cp.digits().to_vec();
                    // The last digit one more (F wraps to 0: wrong either way).
                    if let Some(last) = digits.last_mut() {
                        *last = (*last + 1) & 15;
                    }
                    l.event = Event::CodePoint(
                        corrected_utf8::BigCodePoint::from_digits(&digits).unwrap_or_default(),
                    );
                }
            }
            out.push_inf(&l, 0);
        }
    },
    ..REFERENCE
};

#[test]
fn a_wrong_large_code_point_fails_the_reference_walk() {
    let f = fails(&LARGE_WRONG_DIGIT, &long(1));
    assert_eq!(f.check, "utf-inf-8 decode, long forms");
    // At limit 7, the first limit a 7-byte code is not over: the FE form's smallest
    // boundary value above u32::MAX, its first digit at its maximum (FC0000000). The
    // lowest limit's, though the units of the higher limits run beside it and fail too.
    assert_eq!(f.input, "fe bf 80 80 80 80 80 at limit 7", "{f}");
    assert_eq!(f.got, "[U+FC0000001 @0+7]");
    assert_eq!(f.want, "[U+FC0000000 @0+7]");
}

/// The new units are ordinary units: shards add up to the whole run, and a checkpoint
/// of it resumes with the same counts after walking some of its units again.
#[test]
fn documents_and_long_forms_shard_and_resume_like_every_unit() {
    let cfg = Config {
        max_len: 2,
        ops: vec![Op::Decode, Op::Document],
        encodings: vec![Encoding::CorrectedUtf8, Encoding::UtfInf8],
        ..Config::default()
    };
    let whole = passes(&REFERENCE, &cfg);
    assert!(whole
        .walk
        .counts
        .contains_key("utf-inf-8-long-forms.inputs"));
    assert!(whole.walk.counts.contains_key("document.magic-then.2-byte"));
    let mut sum = conformance::exhaustive::Counters::new();
    for k in 1..=3 {
        let part = execute(
            &REFERENCE,
            &Config {
                shard: conformance::exhaustive::Shard { k, n: 3 },
                ..cfg.clone()
            },
        )
        .unwrap();
        assert!(part.failure.is_none() && !part.complete);
        for (key, v) in part.walk.counts {
            *sum.entry(key).or_default() += v;
        }
    }
    assert_eq!(sum, whole.walk.counts);
    let dir = process::scratch("exhaustive_walks", "resume");
    let resumed = Config {
        resume: Some(dir.join("ck.json")),
        ..cfg.clone()
    };
    let first = passes(&REFERENCE, &resumed);
    let again = passes(&REFERENCE, &resumed);
    let r = again.walk.resumed.clone().expect("resumed");
    assert!(r.believed && r.rechecked == 4, "{r:?}");
    assert_eq!(again.walk.units_now, 0);
    assert_eq!(first.walk.counts, again.walk.counts);
    // The checkpoint names its parts: a run of other parts refuses it.
    let other = Config {
        ops: vec![Op::Document],
        ..resumed
    };
    let e = execute(&REFERENCE, &other).unwrap_err();
    assert!(e.contains("only"), "{e}");
}

/// Each mistake at the default limit and at 16 alone: the limit's edge is walked at each.
#[test]
fn the_long_form_mistakes_fail_at_the_default_limit_and_at_16() {
    for limit in [65_536u32, 16] {
        let forms = LongForms::at_limit(u64::from(limit));
        for imp in [&LIMIT_GE, &LIMIT_CUT, &LATE_OVERLONG] {
            let f = long_forms::check(imp, &forms, limit).expect_err(imp.name);
            assert!(f.input.ends_with(&format!("at limit {limit}")), "{f}");
        }
        long_forms::check(&REFERENCE, &forms, limit).unwrap_or_else(|f| panic!("{f}"));
    }
    // At the default limit, the `>=` mistake refuses the code of exactly 65 536 bytes.
    let forms = LongForms::at_limit(65_536);
    let f = long_forms::check(&LIMIT_GE, &forms, 65_536).unwrap_err();
    assert!(f.input.contains("(65536 bytes)"), "{f}");
}

// ---------------------------------------------------------------------------------------
// The command line.

fn conformance(dir: &Path, args: &[&str]) -> process::Finished {
    process::run(process::conformance().args(args).current_dir(dir))
}

#[test]
fn op_selects_the_reference_walks_parts_and_only_is_its_older_spelling() {
    let dir = process::scratch("exhaustive_walks", "op");
    for args in [
        &[
            "exhaustive",
            "--op",
            "document",
            "--max-len",
            "1",
            "--json",
            "r.json",
        ][..],
        &[
            "exhaustive",
            "--only",
            "documents",
            "--max-len",
            "1",
            "--json",
            "r.json",
        ],
    ] {
        let f = conformance(&dir, args);
        assert_eq!(f.code(), Some(0), "{args:?}\n{}{}", f.stdout, f.stderr);
        assert!(
            f.stdout
                .contains("documents (bodies of 0 to 1 bytes); shard 1/1"),
            "{}",
            f.stdout
        );
        assert!(!f.stdout.contains("code points"), "{}", f.stdout);
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
        assert_eq!(report["only"], "documents");
        let schema: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/exhaustive.schema.json"),
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(
            crate::common::schema::validate(&schema, &report),
            Vec::<String>::new()
        );
    }
    let f = conformance(&dir, &["exhaustive", "--op", "decode", "--only", "inputs"]);
    assert_eq!(f.code(), Some(2), "{}", f.stderr);
    // Documents are Corrected UTF-8's: with another encoding alone nothing is walked.
    let f = conformance(
        &dir,
        &[
            "exhaustive",
            "--op",
            "document",
            "--encoding",
            "utf-8",
            "--max-len",
            "1",
        ],
    );
    assert_eq!(f.code(), Some(2), "{}", f.stderr);
    assert!(f.stderr.contains("nothing to walk"), "{}", f.stderr);
}

// ---------------------------------------------------------------------------------------
// An adapter's walk.

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn honest(args: &str) -> String {
    format!(
        "python3 {}/adapters/corrected_utf8.py {args}",
        manifest().display()
    )
}

fn broken(args: &str) -> String {
    format!(
        "python3 {}/adapters/testing/broken_corrected.py {args}",
        manifest().display()
    )
}

/// `exhaustive --adapter NAME=COMMAND ARGS…`, writing its vector files in a fresh folder.
fn walk(name: &str, command: &str, args: &[&str]) -> process::Finished {
    let dir = process::scratch("exhaustive_walks", name);
    let adapter = format!("{name}={command}");
    let mut all = vec!["exhaustive", "--adapter", &adapter, "--out", "out"];
    all.extend_from_slice(args);
    conformance(&dir, &all)
}

const DOCUMENTS: [&str; 4] = ["--op", "document", "--max-len", "2"];
const LONG: [&str; 6] = [
    "--op",
    "decode",
    "--encoding",
    "utf-inf-8",
    "--max-len",
    "1",
];

#[test]
fn the_honest_adapter_passes_the_documents_and_the_long_forms() {
    if !crate::common::prereq::python3() {
        return;
    }
    let f = walk("honest-documents", &honest(""), &DOCUMENTS);
    assert_eq!(f.code(), Some(0), "{}{}", f.stdout, f.stderr);
    // Magic then 0..=2 bytes, inner magic in bodies of 0..=1, the plain inputs.
    assert!(f.stdout.contains("cases: 132354 "), "{}", f.stdout);
    for limit in ["", "--limit 16"] {
        let f = walk("honest-long", &honest(limit), &LONG);
        assert_eq!(f.code(), Some(0), "{limit}\n{}{}", f.stdout, f.stderr);
        let at = if limit.is_empty() {
            "65536 (the default)"
        } else {
            "16 (declared)"
        };
        assert!(
            f.stdout.contains(&format!("long forms at the limit {at}")),
            "{}",
            f.stdout
        );
    }
}

/// The first disagreement's line.
fn first_disagreement(f: &process::Finished) -> &str {
    f.stdout
        .lines()
        .find(|l| l.starts_with("disagreement 1: "))
        .unwrap_or_else(|| panic!("no disagreement in:\n{}{}", f.stdout, f.stderr))
}

#[test]
fn the_planted_document_mistakes_fail_an_adapters_walk() {
    if !crate::common::prereq::python3() {
        return;
    }
    for (bug, input) in [
        // MAGIC MAGIC: the inner magic number's 00 reported as `nul`.
        ("inner-magic-nul", "efb79dedb2ae000aefb79dedb2ae000a"),
        // The magic number then 00: `nul` on line 2.
        ("magic-line", "efb79dedb2ae000a00"),
    ] {
        let f = walk(
            bug,
            &broken(&format!("--bug {bug}")),
            &[&DOCUMENTS[..], &["--max-failures", "1"]].concat(),
        );
        assert_eq!(f.code(), Some(1), "{bug}\n{}{}", f.stdout, f.stderr);
        let line = first_disagreement(&f);
        assert!(
            line.starts_with(&format!(
                "disagreement 1: corrected-utf8 document input {input}: FAIL"
            )),
            "{bug}: {line}"
        );
    }
}

#[test]
fn the_planted_long_form_mistakes_fail_an_adapters_walk_at_its_limit() {
    if !crate::common::prereq::python3() {
        return;
    }
    for (bug, limit, input) in [
        // The prefix of the 65 536-byte code: truncated, not over the limit.
        ("inf-limit-ge", "", "ffb4b4b4b4a1a7afadad"),
        // FF A1: a 16-byte code (NUD 19) starts: at the limit 16, not over it.
        ("inf-limit-ge", "--limit 16", "ffa1"),
        ("inf-limit-cut", "", "ffb4b4b4b4a1a7afaea0"),
        ("inf-limit-cut", "--limit 16", "ffaf84"),
        ("inf-late-overlong", "", "ff808080808080"),
        ("inf-late-overlong", "--limit 16", "ff808080808080"),
    ] {
        let f = walk(
            bug,
            &broken(&format!("--bug {bug} {limit}")),
            &[&LONG[..], &["--max-failures", "1"]].concat(),
        );
        assert_eq!(f.code(), Some(1), "{bug} {limit}\n{}{}", f.stdout, f.stderr);
        let line = first_disagreement(&f);
        assert!(
            line.starts_with(&format!(
                "disagreement 1: utf-inf-8 decode input {input}: FAIL"
            )),
            "{bug} {limit}: {line}"
        );
    }
}

/// The walk judges at the declared limit: the honest adapter decoding at 16 passes when
/// it says so (above), and fails when it does not (judged at the default 65 536).
#[test]
fn an_adapter_is_judged_at_the_limit_it_declares() {
    if !crate::common::prereq::python3() {
        return;
    }
    let silent = format!(
        "python3 -c 'import sys; sys.path.insert(0, \"{}/adapters\"); import corrected_utf8 as h; \
         h.INF8_LIMIT = 16; sys.exit(h.main([]))'",
        manifest().display()
    );
    let f = walk(
        "silent-16",
        &silent,
        &[&LONG[..], &["--max-failures", "1"]].concat(),
    );
    assert_eq!(f.code(), Some(1), "{}{}", f.stdout, f.stderr);
    assert!(
        first_disagreement(&f).contains("utf-inf-8 decode input"),
        "{}",
        f.stdout
    );
}
