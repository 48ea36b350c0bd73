//! The line protocol between the tools and an implementation
//! (`conformance/adapters/README.md`): one JSON request per line, one JSON answer per line,
//! in order, after a hello that declares what the implementation answers.
//!
//! * [`hello`]: protocol 2's handshake — the hello request and the declaration it answers
//!   with ([`hello::Declaration`]), read strictly: every name is checked against the
//!   vocabulary, a repeated encoding and operation is an error.
//! * [`request`]: a case as a request line, and many as one batch line.
//! * [`answer`]: what came back ([`Answer`]): a response kept as the text it came as
//!   ([`answer::RawResponse`]), read a field and a list item at a time; or the crash,
//!   timeout or protocol error that took its place.
//!
//! [`Implementation`] is what answers cases: the built-in reference
//! ([`crate::reference`]) or an adapter process ([`crate::adapter`]). Every tool (`run`,
//! `exhaustive --adapter`, `fuzz`) talks to implementations through it and judges their
//! answers with [`crate::judge`], so that a guarantee made here holds in all of them.

pub mod answer;
pub mod hello;
pub mod request;

pub use answer::{Answer, RawResponse};
pub use hello::{Declaration, Declared, Support};

use crate::case::Case;
use std::ops::ControlFlow;

/// Something that answers cases: the built-in reference, or an adapter process.
pub trait Implementation: Send {
    /// The name in reports.
    fn name(&self) -> &str;
    /// A longer description (the command of an adapter).
    fn describe(&self) -> String;
    /// Answers one case.
    fn answer(&mut self, case: &Case) -> Answer;
    /// Answers several cases, one answer per case in order. The default asks one at a
    /// time; an adapter that declared batches sends them together.
    fn answer_all(&mut self, cases: &[&Case]) -> Vec<Answer> {
        let mut answers = Vec::with_capacity(cases.len());
        self.answer_each(cases, &mut |answer| {
            answers.push(answer);
            ControlFlow::Continue(())
        });
        answers
    }
    /// Answers several cases in order, handing each answer to `on_answer` as soon as it
    /// is known; once `on_answer` breaks, no further case is sent (the runner's
    /// `--give-up-after`). The default asks one at a time.
    fn answer_each(
        &mut self,
        cases: &[&Case],
        on_answer: &mut dyn FnMut(Answer) -> ControlFlow<()>,
    ) {
        for case in cases {
            if on_answer(self.answer(case)).is_break() {
                return;
            }
        }
    }
    /// What its handshake declared (known once it has started).
    fn declared(&self) -> Declared;
    /// The batches sent so far (none unless it declared `batch`).
    fn batches(&self) -> Batches {
        Batches::default()
    }
}

/// The batch requests sent to one implementation (`"batch": N` in its hello).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batches {
    /// Batch requests sent.
    pub sent: usize,
    /// The cases in them.
    pub cases: usize,
    /// Batches that failed as a whole (crash, timeout, a malformed batch answer) and were
    /// replayed one case per line, each case getting its own verdict.
    pub fell_back: usize,
    /// Why the first of them failed.
    pub first_failure: Option<String>,
}
