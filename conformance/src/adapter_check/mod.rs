//! The whole harness against an adapter: every short input (`conformance exhaustive
//! --adapter`, [`crate::exhaustive::adapter`]) and structure-aware differential fuzzing
//! (`conformance fuzz --adapter`, [`fuzz`]), each case judged exactly as `conformance run`
//! judges a vector.
//!
//! What is shared lives here: a [`Session`] (the adapter, started once, and what its
//! hello declared), the expected answer of any input built by the vector generator's own
//! builders from the spec-literal code ([`expected_case`]), the verdict (the runner's
//! [`judge`](crate::run::judge) plus its rule for answers short of the declaration), and
//! the vector file written for the disagreements found ([`write_vectors`]), with the
//! one-line command that reproduces them.

pub mod fuzz;

use crate::run::adapter::{Adapter, Limits};
use crate::run::handshake::{self, Declared};
use crate::run::suite::{Case, Test};
use crate::run::{Answer, CaseResult, Implementation, Status, UsageError};
use crate::vectors::generate::{build, utf_inf8 as inf_build, VERSION};
use crate::vectors::model::{
    to_hex, to_pretty_json, DecodeTest, DocumentTest, EncodeTest, Note, Schema, TestGroup,
    VectorFile,
};
use conformance_literal::{corrected, utf8, utf_inf8};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// An operation the spec-literal code can answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Op {
    /// Bytes in, events out.
    Decode,
    /// A code point in, bytes or an error kind out.
    Encode,
    /// A Corrected UTF-8 document in, findings out.
    Document,
}

impl Op {
    /// `"decode"`, `"encode"` or `"document"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Decode => "decode",
            Op::Encode => "encode",
            Op::Document => "document",
        }
    }

    fn from_name(name: &str) -> Option<Op> {
        [Op::Decode, Op::Encode, Op::Document]
            .into_iter()
            .find(|o| o.as_str() == name)
    }
}

/// One input: bytes (decode, document) or a code point (encode; at most `u32::MAX` for
/// Corrected UTF-8 and UTF-8).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Probe {
    /// Bytes to decode or check as a document.
    Bytes(Vec<u8>),
    /// A code point to encode.
    CodePoint(u128),
}

impl Probe {
    /// `input 41c2` or `codepoint U+0041`.
    pub fn describe(&self) -> String {
        match self {
            Probe::Bytes(b) if b.is_empty() => "input (empty)".into(),
            Probe::Bytes(b) => format!("input {}", to_hex(b)),
            Probe::CodePoint(cp) => format!("codepoint U+{cp:04X}"),
        }
    }
}

/// An encoding and operation the adapter declared, with its declared fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// `corrected-utf8`, `utf-8` or `utf-inf-8`.
    pub encoding: String,
    /// The operation.
    pub op: Op,
    /// The fields it declared it sends for every case.
    pub fields: Vec<String>,
}

impl Target {
    /// `corrected-utf8 decode`.
    pub fn label(&self) -> String {
        format!("{} {}", self.encoding, self.op.as_str())
    }

    /// The codec's name for the encoding (for the generators).
    pub fn codec_encoding(&self) -> corrected_utf8::Encoding {
        corrected_utf8::Encoding::from_name(&self.encoding)
            .unwrap_or(corrected_utf8::Encoding::CorrectedUtf8)
    }
}

/// Whether the spec-literal code answers this encoding and operation.
fn has_oracle(encoding: &str, op: Op) -> bool {
    crate::run::suite::ENCODINGS.contains(&encoding)
        && (op != Op::Document || encoding == "corrected-utf8")
}

/// The case for `probe`, its expected answer computed by the spec-literal code through
/// the vector generator's builders (so a written vector expects what `generate` would).
pub fn expected_case(encoding: &str, op: Op, probe: &Probe, id: String, flags: &[&str]) -> Case {
    let comment = String::new();
    // Corrected UTF-8 and UTF-8 take u32 code points; callers give no larger ones.
    let small = |cp: u128| u32::try_from(cp).unwrap_or(u32::MAX);
    let test = match (op, probe) {
        (Op::Document, Probe::Bytes(b)) => Test::Document(build::document_test(comment, flags, b)),
        (_, Probe::Bytes(b)) => Test::Decode(match encoding {
            "utf-8" => build::decode_test(utf8::decode, comment, flags, b),
            "utf-inf-8" => inf_build::dec(comment, flags, b),
            _ => build::decode_test(corrected::decode, comment, flags, b),
        }),
        (_, Probe::CodePoint(cp)) => Test::Encode(match encoding {
            "utf-8" => build::encode_test(utf8::encode, comment, flags, small(*cp)),
            "utf-inf-8" => inf_build::enc(comment, flags, &utf_inf8::CodePoint::from_u128(*cp)),
            _ => build::encode_test(corrected::encode, comment, flags, small(*cp)),
        }),
    };
    Case {
        id,
        file: 0,
        tc_id: 0,
        encoding: encoding.to_string(),
        test: std::sync::Arc::new(test),
        chunking: None,
    }
}

/// The runner's verdict on one answer ([`crate::run::judge`]), and, as `conformance run`
/// does, a failure when the answer has less than the adapter declared for the case's
/// encoding and operation (`unsupported`, or a declared field missing).
pub fn judge_declared(case: &Case, answer: Answer, fields: &[String]) -> CaseResult {
    crate::run::judge_declared(case, answer, Some(fields))
}

/// What a failing result is about, for minimizing: the first field that differed, the
/// shortfall, or the status (crash, timeout, protocol).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signature {
    /// This field differed.
    Field(String),
    /// Less than declared.
    Undeclared,
    /// Crash, timeout or protocol error.
    Status(Status),
}

impl Signature {
    /// The signature of a failing result; `None` when it passed (or was skipped).
    pub fn of(r: &CaseResult) -> Option<Signature> {
        if !r.raw.is_failure() {
            return None;
        }
        Some(if let Some(m) = r.mismatches.first() {
            Signature::Field(m.field.clone())
        } else if r.undeclared.is_some() {
            Signature::Undeclared
        } else {
            Signature::Status(r.raw)
        })
    }

    /// Whether `r` still fails this way (for a field: that field still differs).
    pub fn matches(&self, r: &CaseResult) -> bool {
        match self {
            Signature::Field(f) => {
                r.raw == Status::Fail && r.mismatches.iter().any(|m| &m.field == f)
            }
            Signature::Undeclared => r.raw == Status::Fail && r.undeclared.is_some(),
            Signature::Status(s) => r.raw == *s,
        }
    }
}

/// One disagreement between the adapter and the spec-literal code.
#[derive(Clone, Debug)]
pub struct Disagreement {
    /// The target.
    pub target: Target,
    /// The input.
    pub probe: Probe,
    /// The verdict.
    pub result: CaseResult,
}

impl Disagreement {
    /// Lines: the input, then per differing field the expected and the answered value
    /// (or the crash, timeout or protocol message).
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} {}: {}",
            self.target.label(),
            self.probe.describe(),
            self.result.raw.as_str().to_uppercase()
        );
        for m in &self.result.mismatches {
            s.push_str(&format!(
                "\n    {}: expected {}\n    {}  got      {}{}",
                m.field,
                short(&m.expected.to_string()),
                " ".repeat(m.field.len()),
                short(&m.got.to_string()),
                m.note
                    .as_ref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            ));
        }
        if let Some(m) = &self.result.message {
            s.push_str(&format!("\n    {}", short(m)));
        }
        s
    }

    /// The JSON of the `--json` reports.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "encoding": self.target.encoding,
            "op": self.target.op.as_str(),
            "input": match &self.probe {
                Probe::Bytes(b) => to_hex(b),
                Probe::CodePoint(cp) => format!("U+{cp:04X}"),
            },
            "status": self.result.raw.as_str(),
            "mismatches": self.result.mismatches,
            "message": self.result.message,
        })
    }
}

/// At most 300 characters of `s`.
fn short(s: &str) -> String {
    if s.chars().count() <= 300 {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(300).collect::<String>())
    }
}

/// The adapter, started, and what it declared that the spec-literal code can answer.
pub struct Session {
    adapter: Adapter,
    /// The adapter's name (`--adapter NAME=…`).
    pub name: String,
    /// Its command.
    pub command: String,
    /// What it declared (and the filters kept), in its declaration's order.
    pub targets: Vec<Target>,
    /// Cases sent so far.
    pub sent: u64,
    next_id: u64,
}

impl Session {
    /// Starts the adapter and reads its declaration; keeps the declared encodings and
    /// operations with an oracle, and of those the ones in `encodings` and `ops` (all
    /// when empty). Nothing usable is a usage error.
    pub fn open(
        (name, command): &(String, String),
        encodings: &[String],
        ops: &[Op],
    ) -> Result<Session, UsageError> {
        let limits = Limits {
            timeout: Duration::from_secs(5),
            startup_timeout: Duration::from_secs(60),
            max_line: crate::run::DEFAULT_MAX_LINE,
        };
        crate::run::adapter::kill_adapters_on_signal();
        let mut adapter = Adapter::new(name, command, limits);
        // The handshake happens on the first case: a harmless one, its answer unused.
        let probe = expected_case(
            "corrected-utf8",
            Op::Decode,
            &Probe::Bytes(b"A".to_vec()),
            "start".into(),
            &[],
        );
        let first = adapter.answer(&probe);
        let declared = adapter.declared();
        let declaration = match &declared {
            Declared::Protocol2(d) => d,
            _ => {
                let why = match first {
                    Answer::Crash(m) | Answer::Timeout(m) | Answer::Protocol(m) => {
                        format!("it did not start: {m}")
                    }
                    Answer::Response(_) => "it declared nothing (protocol 1)".into(),
                };
                return Err(UsageError(format!(
                    "adapter {name}: {why}. Only what an adapter declares is sent: answer the \
                     hello with `\"protocol\": 2` and a `supports` list \
                     (conformance/adapters/README.md, \"Protocol 2\")"
                )));
            }
        };
        let targets: Vec<Target> = declaration
            .supports
            .iter()
            .filter_map(|s| {
                let op = Op::from_name(&s.op)?;
                (has_oracle(&s.encoding, op)
                    && (encodings.is_empty() || encodings.contains(&s.encoding))
                    && (ops.is_empty() || ops.contains(&op)))
                .then(|| Target {
                    encoding: s.encoding.clone(),
                    op,
                    fields: s.fields.clone(),
                })
            })
            .collect();
        if targets.is_empty() {
            return Err(UsageError(format!(
                "adapter {name} declared nothing to check here (declared: {}; checked: decode \
                 and encode of corrected-utf8, utf-8, utf-inf-8 and document of \
                 corrected-utf8{})",
                handshake::describe_supports(&declaration.supports),
                if encodings.is_empty() && ops.is_empty() {
                    String::new()
                } else {
                    ", as narrowed by --encodings and --op".to_string()
                }
            )));
        }
        Ok(Session {
            adapter,
            name: name.clone(),
            command: command.clone(),
            targets,
            sent: 0,
            next_id: 0,
        })
    }

    /// Sends the probes of one target (all at once: batches when the adapter declared
    /// them) and judges every answer.
    pub fn check(&mut self, target: &Target, probes: &[Probe]) -> Vec<CaseResult> {
        let cases: Vec<Case> = probes
            .iter()
            .map(|p| {
                self.next_id += 1;
                let id = format!("{}#{}", target.op.as_str(), self.next_id);
                expected_case(&target.encoding, target.op, p, id, &[])
            })
            .collect();
        let refs: Vec<&Case> = cases.iter().collect();
        let answers = self.adapter.answer_all(&refs);
        self.sent += cases.len() as u64;
        cases
            .iter()
            .zip(answers)
            .map(|(case, answer)| judge_declared(case, answer, &target.fields))
            .collect()
    }

    /// Delta-debugs a failing byte input against the adapter: the smallest input,
    /// made of its bytes in order, that still fails with the same [`Signature`].
    pub fn minimize(&mut self, target: &Target, input: &[u8], sig: &Signature) -> Vec<u8> {
        conformance_checks::minimize::ddmin(input, |candidates| {
            let probes: Vec<Probe> = candidates.iter().cloned().map(Probe::Bytes).collect();
            self.check(target, &probes)
                .iter()
                .map(|r| sig.matches(r))
                .collect()
        })
    }
}

/// How a disagreement was found: the flag of its vector, and the note explaining it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoundBy {
    /// `conformance fuzz --adapter`.
    Fuzzing,
    /// `conformance exhaustive --adapter`.
    Exhaustive,
}

impl FoundBy {
    /// The flag.
    pub fn flag(self) -> &'static str {
        match self {
            FoundBy::Fuzzing => "FoundByFuzzing",
            FoundBy::Exhaustive => "FoundByExhaustive",
        }
    }

    fn note(self) -> &'static str {
        match self {
            FoundBy::Fuzzing => {
                "An input on which an implementation disagreed with the spec-literal code, \
                 found by `conformance fuzz --adapter` (structure-aware differential fuzzing) \
                 and minimized by delta debugging against that implementation; the expected \
                 result is the spec-literal code's (conformance/README.md, \"Fuzzing an \
                 adapter\")."
            }
            FoundBy::Exhaustive => {
                "An input on which an implementation disagreed with the spec-literal code, \
                 found by `conformance exhaustive --adapter` (every input up to --max-len \
                 bytes, every code point up to --max-codepoint and the table edges); the \
                 expected result is the spec-literal code's (conformance/README.md, \
                 \"Exhaustive checks of an adapter\")."
            }
        }
    }
}

/// `<dir>/<name>-<encoding>-<op>.json`.
pub fn vector_path(dir: &Path, name: &str, target: &Target) -> PathBuf {
    dir.join(format!(
        "{name}-{}-{}.json",
        target.encoding,
        target.op.as_str()
    ))
}

fn vector_file<T: Serialize + Clone>(
    schema: Schema,
    encoding: &str,
    header: Vec<String>,
    found_by: FoundBy,
    comment: String,
    tests: Vec<T>,
) -> Result<String, String> {
    let mut notes = BTreeMap::new();
    notes.insert(
        found_by.flag().to_string(),
        Note {
            description: found_by.note().to_string(),
            links: Some(vec!["conformance/README.md".to_string()]),
        },
    );
    to_pretty_json(&VectorFile {
        schema,
        encoding: encoding.to_string(),
        version: VERSION.to_string(),
        number_of_tests: tests.len(),
        header,
        notes,
        test_groups: vec![TestGroup { comment, tests }],
    })
}

/// Writes the disagreements of one target as a vector file in the schema of `vectors/`
/// (tcIds from 1, each test flagged [`FoundBy::flag`], expected results from the
/// spec-literal code), creating `dir`; returns its path.
pub fn write_vectors(
    dir: &Path,
    session: &Session,
    target: &Target,
    found: &[&Disagreement],
    found_by: FoundBy,
    how: &str,
) -> Result<PathBuf, String> {
    let flag = [found_by.flag()];
    let header = vec![
        format!(
            "Disagreements between the implementation `{}` ({}) and the spec-literal code, \
             found by {how}.",
            session.name, session.command
        ),
        "Expected results: the spec-literal code in conformance/literal/src/, as \
         `conformance generate` computes them. Semantics: docs/semantics.md; fields and \
         flags: vectors/README.md."
            .to_string(),
    ];
    let group = format!(
        "{} disagreement(s) of {} on {}",
        found.len(),
        session.name,
        target.label()
    );
    let describe = |d: &Disagreement| {
        let fields: Vec<&str> = d
            .result
            .mismatches
            .iter()
            .map(|m| m.field.as_str())
            .collect();
        let what = if fields.is_empty() {
            d.result.message.clone().unwrap_or_default()
        } else {
            format!("`{}` differed", fields.join("`, `"))
        };
        short(&format!("{}: {what}", session.name))
    };
    let cases: Vec<(u64, String, Test)> = found
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let case = expected_case(&target.encoding, target.op, &d.probe, String::new(), &flag);
            (
                i as u64 + 1,
                describe(d),
                std::sync::Arc::unwrap_or_clone(case.test),
            )
        })
        .collect();
    let (enc, by) = (&target.encoding, found_by);
    let text = match target.op {
        Op::Decode => {
            let tests: Vec<DecodeTest> = cases
                .into_iter()
                .filter_map(|(tc_id, comment, t)| match t {
                    Test::Decode(t) => Some(DecodeTest {
                        tc_id,
                        comment,
                        ..t
                    }),
                    _ => None,
                })
                .collect();
            vector_file(Schema::Decode, enc, header, by, group, tests)?
        }
        Op::Document => {
            let tests: Vec<DocumentTest> = cases
                .into_iter()
                .filter_map(|(tc_id, comment, t)| match t {
                    Test::Document(t) => Some(DocumentTest {
                        tc_id,
                        comment,
                        ..t
                    }),
                    _ => None,
                })
                .collect();
            vector_file(Schema::Document, enc, header, by, group, tests)?
        }
        Op::Encode => {
            let tests: Vec<EncodeTest> = cases
                .into_iter()
                .filter_map(|(tc_id, comment, t)| match t {
                    Test::Encode(t) => Some(EncodeTest {
                        tc_id,
                        comment,
                        ..t
                    }),
                    _ => None,
                })
                .collect();
            vector_file(Schema::Encode, enc, header, by, group, tests)?
        }
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = vector_path(dir, &session.name, target);
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// `s` quoted for `sh` when it needs it.
pub fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:+,@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The one-line command that replays a written vector file against the adapter.
pub fn reproduce_command(path: &Path, session: &Session) -> String {
    format!(
        "conformance run --vectors {} --adapter {}",
        shell_quote(&path.display().to_string()),
        shell_quote(&format!("{}={}", session.name, session.command))
    )
}

/// Writes one vector file per target that has disagreements and prints each path with
/// its reproduction command; an error writing is a usage error.
pub fn write_all(
    dir: &Path,
    session: &Session,
    found: &[Disagreement],
    found_by: FoundBy,
    how: &str,
) -> Result<Vec<PathBuf>, UsageError> {
    let mut paths = Vec::new();
    for target in &session.targets {
        let mine: Vec<&Disagreement> = found.iter().filter(|d| d.target == *target).collect();
        if mine.is_empty() {
            continue;
        }
        let path = write_vectors(dir, session, target, &mine, found_by, how).map_err(UsageError)?;
        crate::outln!("wrote {} ({} case(s))", path.display(), mine.len());
        crate::outln!("reproduce: {}", reproduce_command(&path, session));
        paths.push(path);
    }
    Ok(paths)
}

/// The default `--out`: `target/conformance-<what>/` under the current directory.
pub fn default_out(what: &str) -> PathBuf {
    PathBuf::from("target").join(format!("conformance-{what}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn quotes_for_sh() {
        assert_eq!(shell_quote("a/b.json"), "a/b.json");
        assert_eq!(shell_quote("py=python3 x.py"), "'py=python3 x.py'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn judged_as_the_runner_judges() {
        let case = expected_case(
            "corrected-utf8",
            Op::Decode,
            &Probe::Bytes(vec![0xC0, 0x80]),
            "x".into(),
            &[],
        );
        let fields = vec!["lossy".to_string(), "valid".to_string()];
        let answer = |v: serde_json::Value| Answer::Response(v.as_object().unwrap().clone().into());
        let ok = judge_declared(
            &case,
            answer(json!({"id": "x", "lossy": ["U+00A0"], "valid": true})),
            &fields,
        );
        assert_eq!(ok.raw, Status::Pass);
        // A lossy-only answer is checked on lossy alone, and fails there.
        let bad = judge_declared(
            &case,
            answer(json!({"id": "x", "lossy": ["U+00A1"], "valid": true})),
            &fields,
        );
        assert_eq!(Signature::of(&bad), Some(Signature::Field("lossy".into())));
        // Less than declared fails, as in `conformance run`.
        let short = judge_declared(
            &case,
            answer(json!({"id": "x", "lossy": ["U+00A0"]})),
            &fields,
        );
        assert_eq!(Signature::of(&short), Some(Signature::Undeclared));
        let unsupported = judge_declared(
            &case,
            answer(json!({"id": "x", "unsupported": true})),
            &fields,
        );
        assert_eq!(unsupported.raw, Status::Fail);
    }
}
