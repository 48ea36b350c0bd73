//! Judging answers: one case's answer against its vector and the handshake's
//! declaration ([`judge`], [`judge_declared`]), and one implementation's tally over a
//! whole suite, with `--give-up-after`.

use super::expected::ExpectedFailures;
use super::handshake::{self, Declared};
use super::outcome::{Answer, CaseResult, Implementation, Status};
use super::suite::{Case, Suite};
use super::verdict::{self, Verdict};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// Cases handed to an implementation at once ([`Implementation::answer_each`]): an
/// adapter that declared batches cuts them into batches, four in flight.
const WINDOW: usize = 4096;

/// Runs every case through one implementation: the results in case order.
pub(super) fn run_cases<'a>(
    imp: &mut dyn Implementation,
    suite: &Suite,
    xf: &'a ExpectedFailures,
    give_up_after: usize,
) -> Tally<'a> {
    let mut tally = Tally {
        name: imp.name().to_string(),
        total: suite.cases.len(),
        xf,
        give_up_after,
        results: Vec::with_capacity(suite.cases.len()),
        in_a_row: 0,
        gave_up_at: None,
        last_progress: Instant::now(),
    };
    let cases = &suite.cases;
    let mut i = 0;
    while i < cases.len() {
        let declared = imp.declared();
        if tally.gave_up_at.is_some() {
            tally.push(&cases[i], None, &declared);
            i += 1;
            continue;
        }
        if declared == Declared::Unknown {
            // Not started yet (or its handshake failed): one case, whose answer starts it
            // and makes the declaration known for the cases after it.
            let case = &cases[i];
            let answer = (!not_applicable(case, &declared)).then(|| imp.answer(case));
            tally.push(case, answer, &imp.declared());
            i += 1;
            continue;
        }
        // The next cases up to WINDOW sent ones; the chunked variants it declared no
        // streaming for are not sent.
        let mut end = i;
        let mut sent = Vec::new();
        while end < cases.len() && sent.len() < WINDOW {
            if !not_applicable(&cases[end], &declared) {
                sent.push(&cases[end]);
            }
            end += 1;
        }
        let mut next = i;
        imp.answer_each(&sent, &mut |answer| {
            while next < end && not_applicable(&cases[next], &declared) {
                tally.push(&cases[next], None, &declared);
                next += 1;
            }
            if next == end {
                return ControlFlow::Break(()); // more answers than cases: ignored
            }
            tally.push(&cases[next], Some(answer), &declared);
            next += 1;
            if tally.gave_up_at.is_some() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        // Not applicable after the last answer, or not sent after a give-up.
        for case in &cases[next..end] {
            tally.push(case, None, &declared);
        }
        i = end;
    }
    tally
}

/// A chunked variant (`--splits`) of an encoding and operation the implementation did
/// not declare streaming for: not sent.
pub(super) fn not_applicable(case: &Case, declared: &Declared) -> bool {
    case.chunking.is_some()
        && !declared
            .declaration()
            .is_some_and(|d| d.streaming(&case.encoding, case.op()))
}

/// One implementation's results so far, in case order, and its give-up count.
pub(super) struct Tally<'a> {
    pub(super) name: String,
    total: usize,
    xf: &'a ExpectedFailures,
    give_up_after: usize,
    pub(super) results: Vec<CaseResult>,
    /// Crashes, timeouts and protocol errors in a row.
    in_a_row: usize,
    /// The index of the first case not sent after too many of them.
    pub(super) gave_up_at: Option<usize>,
    last_progress: Instant,
}

impl Tally<'_> {
    /// The result of the next case: judged from its answer, or not sent (given up, or not
    /// applicable) without one.
    fn push(&mut self, case: &Case, answer: Option<Answer>, declared: &Declared) {
        let i = self.results.len();
        let give_up_after = self.give_up_after;
        let mut r = match (self.gave_up_at, answer) {
            (Some(_), _) => CaseResult {
                status: Status::Crash,
                raw: Status::Crash,
                checked: vec![],
                mismatches: vec![],
                message: Some(format!(
                    "not sent: gave up on the adapter after {give_up_after} crashes, timeouts \
                     or protocol errors in a row"
                )),
                expected_failure: None,
                answered: vec![],
                undeclared: None,
                not_applicable: false,
            },
            (None, None) if not_applicable(case, declared) => CaseResult {
                status: Status::Skip,
                raw: Status::Skip,
                checked: vec![],
                mismatches: vec![],
                message: Some(format!(
                    "not applicable: no streaming declared for {} {}",
                    case.encoding,
                    case.op()
                )),
                expected_failure: None,
                answered: vec![],
                undeclared: None,
                not_applicable: true,
            },
            (None, None) => judge(
                case,
                Answer::Crash("the implementation gave no answer to this case".into()),
            ),
            (None, Some(answer)) => {
                let fields = declared
                    .declaration()
                    .and_then(|d| d.fields(&case.encoding, case.op()));
                judge_declared(case, answer, fields)
            }
        };
        if matches!(r.raw, Status::Crash | Status::Timeout | Status::Protocol) {
            self.in_a_row += 1;
            if self.gave_up_at.is_none() && give_up_after > 0 && self.in_a_row >= give_up_after {
                self.gave_up_at = Some(i + 1);
            }
        } else {
            self.in_a_row = 0;
        }
        if let Some(reason) = self.xf.reason(&self.name, &case.id) {
            r.expected_failure = Some(reason.to_string());
            r.status = match r.raw {
                Status::Pass => Status::Xpass,
                Status::Skip => Status::Skip,
                _ => Status::Xfail,
            };
        }
        self.results.push(r);
        if self.last_progress.elapsed() > Duration::from_secs(10) {
            self.last_progress = Instant::now();
            crate::errln!(
                "conformance run: {}: {}/{} cases",
                self.name,
                i + 1,
                self.total
            );
        }
    }
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
        (Answer::Response(obj), Some(fields)) => {
            if verdict::get(obj, "unsupported") == Some(&serde_json::Value::Bool(true)) {
                Some("answered `unsupported`".to_string())
            } else {
                let missing = handshake::missing_fields(case.op(), fields, obj);
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
        Answer::Response(obj) => {
            let mut keys: Vec<String> = obj.keys().filter(|k| *k != "id").cloned().collect();
            if obj.get("error").is_some_and(serde_json::Value::is_string) {
                keys.push("error-kind".into());
            }
            keys
        }
        _ => vec![],
    };
    let (raw, checked, mismatches, message) = match answer {
        Answer::Response(obj) => match verdict::verdict(case, &obj) {
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
    }
}
