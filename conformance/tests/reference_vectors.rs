//! The vectors alone, as an importer gets them: the reference codec against every case
//! of every vector file, whole and at every split point (`conformance run --splits`).
//!
//! The second test asks the codec's fast paths the Corrected UTF-8 vectors the same way,
//! each decode case also with 1 to 64 bytes of ASCII in front (`conformance run
//! --ascii-prefixes`), so that a block boundary falls inside every sequence and error
//! span: where a fast path hands over to the careful one; the fast encoders also get the
//! code points of every valid decode vector, which must encode to its input, and the
//! direct transcoders every decode vector (to UTF-8 and back). The third
//! asks the document checker's fast path every document vector at every split point, the
//! fourth the codec's one handle per encoding (`Encoding`) every decode vector.
//!
//! This is the "vectors only" test set of mutation testing (`docs/mutation.md`): a codec
//! mutant that these tests do not kill is one the vectors cannot see. Keep every answer
//! judged against a vector by the runner's own verdict, no extra assertions on the
//! codec, or the number would overstate the vectors.

use conformance::case::Case;
use conformance::judge::verdict::{verdict, Verdict};
use conformance::judge::Status;
use conformance::reference::{respond_fast, respond_handle};
use conformance::run::suite::load_embedded;
use conformance::run::{execute, Config as RunArgs};
use conformance::vectors::{Encoding, Op};
use corrected_utf8::corrected::fast::InstructionSet;
use serde_json::{Map, Value};

#[test]
fn reference_passes_every_vector_whole_and_chunked() {
    let args = RunArgs {
        splits: true,
        ..RunArgs::default()
    };
    let report = execute(&args).expect("the embedded vectors load");
    let imp = &report.implementations[0];
    assert_eq!(imp.name, "reference");
    // Only the first few are formatted: a broken codec fails tens of thousands of cases,
    // and formatting them all would take longer than the run.
    let failed = || {
        report
            .suite
            .cases
            .iter()
            .zip(&imp.results)
            .filter(|(_, r)| r.status != Status::Pass)
    };
    let first: Vec<String> = failed()
        .take(10)
        .map(|(c, r)| format!("{} {:?} {:?} {:?}", c.id, r.status, r.mismatches, r.message))
        .collect();
    assert!(
        first.is_empty(),
        "{} cases not passed, the first: {first:#?}",
        failed().count()
    );
    assert_eq!(report.exit_code(), 0);
}

/// Answers judged by the runner's own verdict: anything but a pass fails (a mismatch, a
/// field of the wrong shape, nothing to check); the first 10 failures are kept to show.
#[derive(Default)]
struct Judged {
    count: usize,
    failed: usize,
    first: Vec<String>,
}

impl Judged {
    fn fail(&mut self, what: String) {
        self.failed += 1;
        if self.first.len() < 10 {
            self.first.push(what);
        }
    }

    fn judge(&mut self, label: &str, case: &Case, response: &Map<String, Value>) {
        self.count += 1;
        let judged = verdict(case, response);
        if !matches!(judged, Verdict::Pass { .. }) {
            self.fail(format!("{label}{}: {judged:?}", case.id));
        }
    }

    fn assert_all_passed(&self, what: &str) {
        assert!(
            self.first.is_empty(),
            "{} {what} differ from the vectors, the first: {:#?}",
            self.failed,
            self.first
        );
    }
}

/// The codec's fast paths (`corrected::fast`, every instruction set this CPU runs) against
/// every Corrected UTF-8 decode, encode and document vector, decode cases also with ASCII
/// in front: what an importer with a fast decoder gets from the vectors
/// (`conformance::reference::respond_fast`).
#[test]
fn fast_paths_pass_every_vector() {
    let mut suite = load_embedded(&[Encoding::CorrectedUtf8]).expect("the embedded vectors load");
    suite.add_ascii_prefixes();
    let mut judged = Judged::default();
    for imp in InstructionSet::available() {
        let label = format!("{} ", imp.name());
        for case in &suite.cases {
            let responses = respond_fast(case, imp);
            if case.op() != Op::Document && responses.len() < 2 {
                judged.fail(format!("{label}{}: no fast-path answer", case.id));
            }
            for response in &responses {
                judged.judge(&label, case, response);
            }
        }
    }
    judged.assert_all_passed("fast-path answers");
    assert!(judged.count > 0);
}

/// The document checker's fast path (`DocumentChecker::push_fast`) against every document
/// vector at every split point and byte by byte, one `push_fast` per chunk: what it skips
/// in bulk depends on what the chunk before left pending (a magic number's start held
/// back, a sequence cut by the split).
#[test]
fn document_checker_push_fast_passes_every_split() {
    let mut suite = load_embedded(&[Encoding::CorrectedUtf8]).expect("the embedded vectors load");
    suite.cases.retain(|c| c.op() == Op::Document);
    suite.add_splits();
    let mut judged = Judged::default();
    for case in suite.cases.iter().filter(|c| c.chunking.is_some()) {
        let responses = respond_fast(case, InstructionSet::detect());
        if responses.len() != 1 {
            judged.fail(format!("{}: no answer from push_fast", case.id));
        }
        for response in &responses {
            judged.judge("", case, response);
        }
    }
    judged.assert_all_passed("push_fast answers");
    assert!(judged.count > 0);
}

/// The codec's one handle per encoding (`corrected_utf8::Encoding`) against every decode
/// vector, whole: `output`, `result`, `lossy`, `valid` and `strict` through its methods
/// (`conformance::reference::respond_handle`), which the built-in reference does not
/// call.
#[test]
fn encoding_handle_passes_every_decode_vector() {
    let suite = load_embedded(&[]).expect("the embedded vectors load");
    let mut judged = Judged::default();
    for case in &suite.cases {
        if let Some(response) = respond_handle(case) {
            judged.judge("", case, &response);
        }
    }
    judged.assert_all_passed("answers of the Encoding handle");
    let decodes = suite.cases.iter().filter(|c| c.op() == Op::Decode).count();
    assert_eq!(judged.count, decodes);
}
