//! The judge: one answer against its case ([`judge`]), and against what the
//! implementation declared for the case's encoding and operation ([`judge_declared`]).
//!
//! The one place every tool turns an [`Answer`] into a [`CaseResult`]: `conformance run`
//! for each vector, `exhaustive --adapter` and `fuzz` for each input they make. A field
//! that differs is kept as a bounded [`verdict::Mismatch`] (an excerpt, the whole field's
//! length and SHA-256), so what a wrong answer costs after it is judged is a few KiB,
//! however long it was.

mod decode;
mod document;
mod encode;
mod mismatch;
pub mod verdict;

pub use verdict::{Mismatch, Verdict};

use crate::case::Case;
use crate::protocol::{hello, Answer};

/// The outcome of one case for one implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every field answered matched.
    Pass,
    /// Some field differed.
    Fail,
    /// The adapter exited or its pipes broke.
    Crash,
    /// No answer in time.
    Timeout,
    /// Not a JSON object, wrong or missing id, or a field of the wrong shape.
    Protocol,
    /// Unsupported, or nothing checkable.
    Skip,
    /// Listed in the expected failures, and did not pass.
    Xfail,
    /// Listed in the expected failures, and passed.
    Xpass,
    /// Never sent: the runner gave up on the implementation (`--give-up-after`) or the
    /// `--deadline` passed. Neither passed nor failed, but the gate fails
    /// ([`RunReport::gate`]).
    #[serde(rename = "not-run")]
    NotRun,
}

impl Status {
    /// Every status, in report order.
    pub const ALL: [Status; 9] = [
        Status::Pass,
        Status::Fail,
        Status::Crash,
        Status::Timeout,
        Status::Protocol,
        Status::Skip,
        Status::Xfail,
        Status::Xpass,
        Status::NotRun,
    ];

    /// The lowercase name used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Crash => "crash",
            Status::Timeout => "timeout",
            Status::Protocol => "protocol",
            Status::Skip => "skip",
            Status::Xfail => "xfail",
            Status::Xpass => "xpass",
            Status::NotRun => "not-run",
        }
    }

    /// Counts as failed in `N passed, M failed` (and makes the exit code 1).
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Status::Fail | Status::Crash | Status::Timeout | Status::Protocol | Status::Xpass
        )
    }
}

/// One case's result for one implementation.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The final status (expected failures applied).
    pub status: Status,
    /// The status before expected failures were applied (never `Xfail`/`Xpass`).
    pub raw: Status,
    /// The response fields that were compared.
    pub checked: Vec<&'static str>,
    /// The fields that differed.
    pub mismatches: Vec<Mismatch>,
    /// Skip reason, crash detail, protocol message or timeout.
    pub message: Option<String>,
    /// The reason given in the expected-failures file, when listed.
    pub expected_failure: Option<String>,
    /// The fields the response had (every key but `id`, and `error-kind` when `error` is
    /// a kind; empty without a response).
    pub answered: Vec<String>,
    /// When it failed because it answered less than declared: `ENCODING OP: what`.
    pub undeclared: Option<String>,
    /// A chunked variant (`--splits`) not sent, because the implementation did not
    /// declare streaming for its encoding and operation: counted nowhere (not a skip),
    /// only in [`ImplResult::chunked`].
    pub not_applicable: bool,
    /// A UTF-∞-8 decode case of an implementation that declared a code length limit:
    /// judged at that limit (expected results from the spec-literal decoder at it).
    pub judged_at_limit: Option<u64>,
}

/// Judges an answer like [`judge`], and against the handshake's declaration (`fields`:
/// what was declared for the case's encoding and operation, if anything): a declared
/// encoding and operation answered `unsupported` or without a declared field fails, and so
/// does a chunked case answered with nothing checkable.
pub fn judge_declared(case: &Case, answer: Answer, fields: Option<&[String]>) -> CaseResult {
    let shortfall = match (&answer, fields) {
        // A chunked answer gives what a streaming decoder gives: checked as
        // answered, but it must answer something checkable (below).
        _ if case.chunking.is_some() => None,
        (Answer::Response(response), Some(fields)) => {
            if response.unsupported() {
                Some("answered `unsupported`".to_string())
            } else {
                let missing = hello::missing_in(case.op(), fields, response);
                (!missing.is_empty())
                    .then(|| format!("no `{}` in the answer", missing.join("`, `")))
            }
        }
        _ => None,
    };
    let mut r = judge(case, answer);
    if case.chunking.is_some() && r.raw == Status::Skip {
        r.message = Some(format!(
            "declared streaming for {} {} but answered nothing checkable to \
                 a chunked request ({})",
            case.encoding,
            case.op(),
            r.message.as_deref().unwrap_or("no field")
        ));
        r.status = Status::Fail;
        r.raw = Status::Fail;
    }
    if let Some(what) = shortfall {
        r.message = Some(format!(
            "{what}, but the handshake declared {} {} with {}",
            case.encoding,
            case.op(),
            fields.unwrap_or_default().join(", ")
        ));
        r.undeclared = Some(format!("{} {}: {what}", case.encoding, case.op()));
        r.status = Status::Fail;
        r.raw = Status::Fail;
    }
    r
}

/// Turns an answer into a result (expected failures not applied yet).
pub fn judge(case: &Case, answer: Answer) -> CaseResult {
    let answered = match &answer {
        Answer::Response(response) => hello::answered_fields(response),
        _ => vec![],
    };
    let (raw, checked, mismatches, message) = match answer {
        Answer::Response(response) => match verdict::verdict_of(case, &response) {
            Verdict::Pass { checked } => (Status::Pass, checked, vec![], None),
            Verdict::Fail {
                checked,
                mismatches,
            } => (Status::Fail, checked, mismatches, None),
            Verdict::Skip { reason } => (Status::Skip, vec![], vec![], Some(reason)),
            Verdict::Protocol { message } => (Status::Protocol, vec![], vec![], Some(message)),
        },
        Answer::Crash(m) => (Status::Crash, vec![], vec![], Some(m)),
        Answer::Timeout(m) => (Status::Timeout, vec![], vec![], Some(m)),
        Answer::Protocol(m) => (Status::Protocol, vec![], vec![], Some(m)),
        Answer::NotSent(m) | Answer::Lost(m) => (Status::NotRun, vec![], vec![], Some(m)),
    };
    CaseResult {
        status: raw,
        raw,
        checked,
        mismatches,
        message,
        expected_failure: None,
        answered,
        undeclared: None,
        not_applicable: false,
        judged_at_limit: None,
    }
}
