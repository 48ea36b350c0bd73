//! One implementation's tally over a whole suite: every case sent (in windows, so that an
//! adapter can batch them), each answer judged as it comes ([`crate::judge`]), with
//! `--give-up-after` and `--deadline`.

use super::expected::ExpectedFailures;
use crate::case::{Case, Suite, Test};
use crate::differential::oracle::at_limit;
use crate::judge::{judge, judge_declared, CaseResult, Status};
use crate::protocol::{Answer, Declaration, Declared, Implementation};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Cases handed to an implementation at once ([`Implementation::answer_each`]): an
/// adapter that declared batches cuts them into batches, four in flight.
const WINDOW: usize = 4096;

/// Runs every case through one implementation: the results in case order. After
/// `give_up_after` crashes, timeouts or protocol errors in a row, or once `deadline` has
/// passed, the remaining cases are not sent ([`Status::NotRun`]).
pub(crate) fn run_cases<'a>(
    imp: &mut dyn Implementation,
    suite: &Suite,
    xf: &'a ExpectedFailures,
    give_up_after: usize,
    deadline: Option<Deadline>,
) -> Tally<'a> {
    let mut tally = Tally {
        name: imp.name().to_string(),
        total: suite.cases.len(),
        xf,
        give_up_after,
        deadline,
        results: Vec::with_capacity(suite.cases.len()),
        streak: Streak::default(),
        stopped: None,
        gave_up_at: None,
        last_progress: Instant::now(),
        at_limit: None,
    };
    let cases = &suite.cases;
    let mut i = 0;
    while i < cases.len() {
        let declared = imp.declared();
        tally.check_deadline();
        if tally.stopped.is_some() {
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
            tally.check_deadline();
            if tally.stopped.is_some() {
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

/// `--deadline`: when the whole run must end, and its length (for messages).
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    /// The instant.
    pub at: Instant,
    /// `--deadline`'s value.
    pub secs: Duration,
}

impl Deadline {
    /// Whether it has passed.
    pub fn passed(&self) -> bool {
        Instant::now() >= self.at
    }
}

/// A chunked variant (`--splits`) of an encoding and operation the implementation did
/// not declare streaming for, or a string encode case of an encoding whose `encode` it
/// did not declare with `codepoints`: not sent.
pub(crate) fn not_applicable(case: &Case, declared: &Declared) -> bool {
    why_not_applicable(case, declared).is_some()
}

/// Why a case is not sent ([`not_applicable`]), if it is not.
fn why_not_applicable(case: &Case, declared: &Declared) -> Option<&'static str> {
    let declaration = declared.declaration();
    if case.chunking.is_some()
        && !declaration.is_some_and(|d| d.streaming(case.encoding, case.op()))
    {
        return Some("no streaming declared");
    }
    let strings = |d: &Declaration| {
        d.fields(case.encoding, case.op())
            .is_some_and(|f| f.iter().any(|f| f == "codepoints"))
    };
    if matches!(*case.test, Test::EncodeString(_)) && !declaration.is_some_and(strings) {
        return Some("no `codepoints` declared");
    }
    None
}

/// Crashes, timeouts and protocol errors in a row, and the first one's message.
#[derive(Default)]
struct Streak {
    crash: usize,
    timeout: usize,
    protocol: usize,
    first: Option<String>,
}

impl Streak {
    fn len(&self) -> usize {
        self.crash + self.timeout + self.protocol
    }

    /// `10 protocol errors`, `3 crashes and 7 timeouts`.
    fn describe(&self) -> String {
        let parts: Vec<String> = [
            (self.crash, "crash", "crashes"),
            (self.timeout, "timeout", "timeouts"),
            (self.protocol, "protocol error", "protocol errors"),
        ]
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|&(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
        .collect();
        match parts.as_slice() {
            [] => "nothing".into(),
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        }
    }
}

/// One implementation's results so far, in case order, and why it stopped, if it did.
pub(crate) struct Tally<'a> {
    pub(super) name: String,
    total: usize,
    xf: &'a ExpectedFailures,
    give_up_after: usize,
    deadline: Option<Deadline>,
    pub(super) results: Vec<CaseResult>,
    streak: Streak,
    /// Why no more cases are sent: the message of every case not run.
    pub(super) stopped: Option<String>,
    /// The index of the first case not sent after too many failures in a row.
    pub(super) gave_up_at: Option<usize>,
    last_progress: Instant,
    /// The last case recomputed at the implementation's declared limit, by its test: the
    /// chunked variants that follow a case share its test, so it is computed once for
    /// them, and only one is kept.
    at_limit: Option<(*const Test, Arc<Test>)>,
}

impl Tally<'_> {
    /// `case` as judged at a declared code length limit ([`at_limit`]), the expected
    /// answer computed once per test.
    fn at_limit(&mut self, case: &Case, limit: Option<u64>) -> Option<Case> {
        let key = Arc::as_ptr(&case.test);
        if let Some((last, test)) = &self.at_limit {
            if *last == key {
                return Some(Case {
                    test: Arc::clone(test),
                    ..case.clone()
                });
            }
        }
        let at = at_limit(case, limit)?;
        self.at_limit = Some((key, Arc::clone(&at.test)));
        Some(at)
    }

    /// Stops sending once the deadline has passed.
    fn check_deadline(&mut self) {
        if let (None, Some(d)) = (&self.stopped, self.deadline) {
            if d.passed() {
                self.stopped = Some(format!(
                    "not run (the --deadline of {} s passed)",
                    d.secs.as_secs_f64()
                ));
            }
        }
    }

    /// The result of the next case: judged from its answer, or not sent (stopped, or not
    /// applicable) without one.
    fn push(&mut self, case: &Case, answer: Option<Answer>, declared: &Declared) {
        let i = self.results.len();
        // A case cut short by the deadline (its wait ended there) was not run either.
        let answer = match answer {
            Some(Answer::Timeout(_)) if self.deadline.is_some_and(|d| d.passed()) => {
                self.check_deadline();
                None
            }
            // Not sent, or sent and lost, once the deadline passed: not run.
            Some(Answer::NotSent(_) | Answer::Lost(_)) => {
                self.check_deadline();
                if self.stopped.is_none() {
                    self.stopped = Some("not run (the --deadline passed)".into());
                }
                None
            }
            other => other,
        };
        let mut r = match (&self.stopped, answer) {
            (Some(why), None) => not_run(why.clone()),
            (None, None) if not_applicable(case, declared) => CaseResult {
                status: Status::Skip,
                raw: Status::Skip,
                checked: vec![],
                mismatches: vec![],
                message: Some(format!(
                    "not applicable: {} for {} {}",
                    why_not_applicable(case, declared).unwrap_or_default(),
                    case.encoding,
                    case.op()
                )),
                expected_failure: None,
                answered: vec![],
                undeclared: None,
                not_applicable: true,
                judged_at_limit: None,
            },
            (_, None) => judge(
                case,
                Answer::Crash("the implementation gave no answer to this case".into()),
            ),
            (_, Some(answer)) => {
                let declaration = declared.declaration();
                let fields = declaration.and_then(|d| d.fields(case.encoding, case.op()));
                // A declared code length limit: UTF-∞-8 decode cases are judged at it.
                let limit = declaration.and_then(|d| d.limit());
                match self.at_limit(case, limit) {
                    Some(at) => {
                        let mut r = judge_declared(&at, answer, fields);
                        r.judged_at_limit = limit;
                        r
                    }
                    None => judge_declared(case, answer, fields),
                }
            }
        };
        match r.raw {
            Status::Crash | Status::Timeout | Status::Protocol => {
                if self.streak.len() == 0 {
                    self.streak.first = r.message.clone();
                }
                match r.raw {
                    Status::Crash => self.streak.crash += 1,
                    Status::Timeout => self.streak.timeout += 1,
                    _ => self.streak.protocol += 1,
                }
                let n = self.streak.len();
                if self.stopped.is_none() && self.give_up_after > 0 && n >= self.give_up_after {
                    self.gave_up_at = Some(i + 1);
                    self.stopped = Some(format!(
                        "not run (gave up after {} in a row: {})",
                        self.streak.describe(),
                        self.streak.first.as_deref().unwrap_or("no message")
                    ));
                }
            }
            Status::NotRun => {}
            _ => self.streak = Streak::default(),
        }
        if let Some(reason) = self.xf.reason(&self.name, &case.id) {
            r.expected_failure = Some(reason.to_string());
            r.status = match r.raw {
                Status::Pass => Status::Xpass,
                Status::Skip => Status::Skip,
                Status::NotRun => Status::NotRun,
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

/// A case never sent, with why.
fn not_run(message: String) -> CaseResult {
    CaseResult {
        status: Status::NotRun,
        raw: Status::NotRun,
        checked: vec![],
        mismatches: vec![],
        message: Some(message),
        expected_failure: None,
        answered: vec![],
        undeclared: None,
        not_applicable: false,
        judged_at_limit: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::hello::parse_hello;
    use crate::protocol::RawResponse;
    use crate::run::suite::load_embedded;
    use crate::vectors::Encoding;
    use serde_json::json;

    fn hello(fields: &[&str]) -> Declared {
        let v = json!({"id": "hello", "protocol": 2, "supports": [
            {"encoding": "utf-8", "op": "encode", "fields": fields}]});
        parse_hello(v.as_object().unwrap()).unwrap()
    }

    /// A string encode case is sent only to an implementation that declared
    /// `codepoints` for its encoding's `encode`; a one-code-point case always is.
    #[test]
    fn string_cases_need_codepoints_declared() {
        let suite = load_embedded(&[Encoding::Utf8]).unwrap();
        let string = suite
            .cases
            .iter()
            .find(|c| matches!(*c.test, Test::EncodeString(_)))
            .expect("a utf-8 encode-string case");
        let single = suite
            .cases
            .iter()
            .find(|c| matches!(*c.test, Test::Encode(_)))
            .expect("a utf-8 encode case");
        let (plain, strings) = (hello(&["bytes", "error"]), hello(&["bytes", "codepoints"]));
        assert!(not_applicable(string, &plain));
        assert!(not_applicable(string, &Declared::Protocol1));
        assert!(!not_applicable(string, &strings));
        assert!(!not_applicable(single, &plain));
        assert_eq!(
            why_not_applicable(string, &plain),
            Some("no `codepoints` declared")
        );
        // `codepoints` is not an answer field: an answer without it misses nothing.
        let answer = RawResponse::from(
            json!({"id": "x", "bytes": "41"})
                .as_object()
                .unwrap()
                .clone(),
        );
        let fields = vec!["bytes".to_string(), "codepoints".to_string()];
        let r = judge_declared(string, Answer::Response(answer), Some(&fields));
        assert!(r.undeclared.is_none(), "{:?}", r.message);
    }
}
