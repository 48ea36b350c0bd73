//! The vectors alone, as an importer gets them: the reference codec against every case
//! of every vector file, whole and at every split point (`conformance run --splits`).
//!
//! This is the "vectors only" test set of mutation testing (`docs/mutation.md`): a codec
//! mutant that this test does not kill is one the vectors cannot see. Keep it to exactly
//! what `conformance run --splits` checks for the reference, no extra assertions on the
//! codec, or the number would overstate the vectors.

use conformance::run::{execute, RunArgs, Status};

#[test]
fn reference_passes_every_vector_whole_and_chunked() {
    let args = RunArgs {
        splits: true,
        ..RunArgs::default()
    };
    let report = execute(&args).expect("the embedded vectors load");
    let imp = &report.implementations[0];
    assert_eq!(imp.name, "reference");
    let failures: Vec<String> = report
        .suite
        .cases
        .iter()
        .zip(&imp.results)
        .filter(|(_, r)| r.status != Status::Pass)
        .map(|(c, r)| format!("{} {:?} {:?} {:?}", c.id, r.status, r.mismatches, r.message))
        .collect();
    assert!(
        failures.is_empty(),
        "{} cases not passed, the first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
    assert_eq!(report.exit_code(), 0);
}
