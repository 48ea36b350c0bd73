//! Checking an implementation on inputs made at run time: every short input
//! (`conformance exhaustive --adapter`) and structure-aware fuzzing (`conformance fuzz`),
//! each answer judged by [`crate::judge`] exactly as `conformance run` judges a vector.
//!
//! * [`Session`]: the adapter, started once with the hello as its liveness probe, what it
//!   declared, and an optional deadline after which no case is sent. Each answer is judged
//!   as it arrives ([`Session::check_each`]): what a wrong answer costs after that is its
//!   bounded [`Mismatch`](crate::judge::Mismatch), however long it was, and however many
//!   cases a round trip holds.
//! * [`oracle`]: the expected answer of any input, from the spec-literal code.
//! * [`disagreement`]: a failing result, its class and signature.
//! * [`vector_file`]: disagreements written as vector files, with the command that
//!   replays them.

pub mod disagreement;
pub mod oracle;
pub mod vector_file;

pub use disagreement::{Disagreement, Signature};
pub use oracle::{expected_case, has_oracle};
pub use vector_file::{default_out, write_all, FoundBy};

use crate::adapter::{self, Adapter};
use crate::adapter_spec::AdapterSpec;
use crate::case::Case;
use crate::exit::UsageError;
use crate::judge::{judge_declared, CaseResult};
use crate::protocol::hello::describe_supports;
use crate::protocol::{Answer, Declaration, Declared, Implementation};
use crate::vectors::model::to_hex;
use crate::vectors::{Encoding, Op};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::time::Instant;

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
    /// The encoding.
    pub encoding: Encoding,
    /// The operation.
    pub op: Op,
    /// The fields it declared it sends for every case.
    pub fields: Vec<String>,
    /// Its declared code length limit (`utf-inf-8 decode`): cases are judged at it.
    pub limit: Option<u64>,
}

impl Target {
    /// `corrected-utf8 decode`.
    pub fn label(&self) -> String {
        format!("{} {}", self.encoding, self.op)
    }
}

/// What became of the cases handed to [`Session::check_each`] that got no verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unjudged {
    /// Never sent: the deadline had passed.
    pub not_sent: u64,
    /// Sent, and their answers lost with no verdict: a batch that failed as a whole
    /// after the deadline, whose cases could not be sent again one by one. A run with
    /// such cases is incomplete.
    pub lost: u64,
}

/// The adapter, started, and what it declared that the spec-literal code can answer.
pub struct Session {
    adapter: Adapter,
    /// The adapter's name (`--adapter NAME=…`).
    pub name: String,
    /// Its command.
    pub command: String,
    /// Its answer to the hello.
    pub declaration: Declaration,
    /// What it declared (and the filters kept), in its declaration's order.
    pub targets: Vec<Target>,
    /// Cases sent and judged so far.
    pub sent: u64,
    /// Cases that got no verdict, and why.
    pub unjudged: Unjudged,
    next_id: u64,
}

impl Session {
    /// Starts the adapter and reads its declaration; keeps the declared encodings and
    /// operations with an oracle, and of those the ones in `encodings` and `ops` (all
    /// when empty). Nothing usable is a usage error.
    pub fn open(
        spec: &AdapterSpec,
        config: adapter::Config,
        encodings: &[Encoding],
        ops: &[Op],
    ) -> Result<Session, UsageError> {
        adapter::kill_adapters_on_signal();
        let mut adapter = Adapter::new(&spec.name, &spec.command, config);
        // The hello is the liveness probe: no case goes out before it declares what it takes.
        let started = adapter.hello();
        let name = &spec.name;
        let declaration = match (adapter.declared(), started) {
            (Declared::Protocol2(d), Ok(())) => d,
            (_, started) => {
                let why = match started {
                    Err(answer) => format!("it did not start: {}", answer.message()),
                    Ok(()) => "it declared nothing (protocol 1)".into(),
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
                let (encoding, op) = (s.encoding, s.op);
                (has_oracle(encoding, op)
                    && (encodings.is_empty() || encodings.contains(&encoding))
                    && (ops.is_empty() || ops.contains(&op)))
                .then(|| Target {
                    encoding,
                    op,
                    fields: s.fields.clone(),
                    limit: s.limit,
                })
            })
            .collect();
        if targets.is_empty() {
            return Err(UsageError(format!(
                "adapter {name} declared nothing to check here (declared: {}; checked: decode \
                 and encode of corrected-utf8, utf-8, utf-inf-8 and document of \
                 corrected-utf8{})",
                describe_supports(&declaration.supports),
                if encodings.is_empty() && ops.is_empty() {
                    String::new()
                } else {
                    ", as narrowed by --encoding and --op".to_string()
                }
            )));
        }
        Ok(Session {
            adapter,
            name: spec.name.clone(),
            command: spec.command.clone(),
            declaration,
            targets,
            sent: 0,
            unjudged: Unjudged::default(),
            next_id: 0,
        })
    }

    /// No case is sent after `at`. A case sent before it still waits its whole
    /// `--timeout` for the answer, and one that gets none is a timeout like any other: a
    /// case in flight when time runs out is judged, not dropped.
    pub fn set_deadline(&mut self, at: Instant) {
        self.adapter.set_deadline(Some(at), false);
    }

    /// Whether the deadline ([`Session::set_deadline`]) has passed.
    pub fn past_deadline(&self) -> bool {
        self.adapter.past_deadline()
    }

    /// How many times the adapter was started (1 when it never had to be restarted).
    pub fn starts(&self) -> usize {
        self.adapter.starts()
    }

    /// The cases of `probes` for `target`, each with a fresh id and the spec-literal
    /// code's expected answer.
    fn cases(&mut self, target: &Target, probes: &[Probe]) -> Vec<Case> {
        probes
            .iter()
            .map(|p| {
                self.next_id += 1;
                let id = format!("{}#{}", target.op.as_str(), self.next_id);
                let case = expected_case(target.encoding, target.op, p, id, &[]);
                oracle::at_limit(&case, target.limit).unwrap_or(case)
            })
            .collect()
    }

    /// Sends the probes of one target (all at once: batches when the adapter declared
    /// them) and hands each answer, with the index of its probe, to `each` as it
    /// arrives, in order; `each` may stop the round. Answers that are no verdict (a case
    /// not sent, or sent and lost, once the deadline has passed) are counted in
    /// [`Session::unjudged`] and not handed on.
    pub fn answer_each(
        &mut self,
        target: &Target,
        probes: &[Probe],
        mut each: impl FnMut(usize, &Case, Answer) -> ControlFlow<()>,
    ) {
        let cases = self.cases(target, probes);
        let refs: Vec<&Case> = cases.iter().collect();
        let mut next = 0;
        let (sent, unjudged) = (&mut self.sent, &mut self.unjudged);
        self.adapter.answer_each(&refs, &mut |answer| {
            let i = next;
            next += 1;
            match answer {
                Answer::NotSent(_) => {
                    unjudged.not_sent += 1;
                    ControlFlow::Continue(())
                }
                Answer::Lost(_) => {
                    unjudged.lost += 1;
                    ControlFlow::Continue(())
                }
                answer => {
                    *sent += 1;
                    each(i, &cases[i], answer)
                }
            }
        });
        // Cases after a stop were not sent.
        self.unjudged.not_sent += (cases.len() - next.min(cases.len())) as u64;
    }

    /// [`Session::answer_each`], each answer judged as it arrives (the answer itself is
    /// dropped right after): `each` gets the index of the probe and its result.
    pub fn check_each(
        &mut self,
        target: &Target,
        probes: &[Probe],
        mut each: impl FnMut(usize, CaseResult) -> ControlFlow<()>,
    ) {
        let fields = target.fields.clone();
        self.answer_each(target, probes, |i, case, answer| {
            each(i, judge_declared(case, answer, Some(fields.as_slice())))
        });
    }

    /// The results of the probes of one target, judged as they arrived: `(index of the
    /// probe, result)`, in order; fewer than the probes when the deadline came.
    pub fn check(&mut self, target: &Target, probes: &[Probe]) -> Vec<(usize, CaseResult)> {
        let mut results = Vec::new();
        self.check_each(target, probes, |i, r| {
            results.push((i, r));
            ControlFlow::Continue(())
        });
        results
    }

    /// Minimizes a failing byte input against the adapter
    /// ([`conformance_checks::minimize::minimize`]): the smallest input, made of its bytes
    /// in order, that still fails as `still_fails` says (the same [`Signature`], the same
    /// class), and its result. `None` when nothing smaller was found (the deadline came
    /// first, or nothing can go).
    pub fn minimize(
        &mut self,
        target: &Target,
        input: &[u8],
        still_fails: impl Fn(&CaseResult) -> bool,
    ) -> Option<(Vec<u8>, CaseResult)> {
        // The results of the candidates that still failed: the last one kept is one of them.
        let mut failing: HashMap<Vec<u8>, CaseResult> = HashMap::new();
        let small = conformance_checks::minimize::minimize(input, |candidates| {
            let probes: Vec<Probe> = candidates.iter().cloned().map(Probe::Bytes).collect();
            // A candidate without a verdict (the deadline came) does not fail.
            let mut fails = vec![false; candidates.len()];
            for (i, r) in self.check(target, &probes) {
                if still_fails(&r) {
                    fails[i] = true;
                    failing.insert(candidates[i].clone(), r);
                }
            }
            fails
        });
        let result = failing.remove(&small)?;
        Some((small, result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Status;
    use serde_json::json;

    #[test]
    fn judged_as_the_runner_judges() {
        let case = expected_case(
            Encoding::CorrectedUtf8,
            Op::Decode,
            &Probe::Bytes(vec![0xC0, 0x80]),
            "x".into(),
            &[],
        );
        let fields = vec!["lossy".to_string(), "valid".to_string()];
        let answer = |v: serde_json::Value| Answer::Response(v.as_object().unwrap().clone().into());
        let judge = |v| judge_declared(&case, answer(v), Some(fields.as_slice()));
        let ok = judge(json!({"id": "x", "lossy": ["U+00A0"], "valid": true}));
        assert_eq!(ok.raw, Status::Pass);
        // A lossy-only answer is checked on lossy alone, and fails there.
        let bad = judge(json!({"id": "x", "lossy": ["U+00A1"], "valid": true}));
        assert_eq!(Signature::of(&bad), Some(Signature::Field("lossy".into())));
        // Less than declared fails, as in `conformance run`.
        let short = judge(json!({"id": "x", "lossy": ["U+00A0"]}));
        assert_eq!(Signature::of(&short), Some(Signature::Undeclared));
        let unsupported = judge(json!({"id": "x", "unsupported": true}));
        assert_eq!(unsupported.raw, Status::Fail);
    }
}
