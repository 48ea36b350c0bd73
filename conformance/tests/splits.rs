//! `conformance run --splits`: the reference's streaming decoders and document checker,
//! fed every decode and document vector in chunks, give the vectors' own answers.

use conformance::run::{execute, RunArgs, EXIT_OK};

#[test]
fn reference_passes_every_chunking_of_the_corrected_utf8_vectors() {
    // Corrected UTF-8 holds the document vectors (magic number split across chunks) and
    // the long reserved runs; the UTF-∞-8 64 KiB inputs would make a debug test slow
    // (the CLI's --splits covers every file).
    let args = RunArgs {
        encodings: vec!["corrected-utf8".into()],
        splits: true,
        ..RunArgs::default()
    };
    let report = execute(&args).expect("the embedded vectors load");
    let imp = &report.implementations[0];
    let (ran, not_applicable) = imp.chunked(&report.suite);
    assert!(ran > 6000, "only {ran} chunked cases ran");
    assert_eq!(not_applicable, 0);
    let failed: Vec<&str> = report
        .suite
        .cases
        .iter()
        .zip(&imp.results)
        .filter(|(_, r)| r.status.is_failure())
        .map(|(c, _)| c.id.as_str())
        .take(5)
        .collect();
    assert!(failed.is_empty(), "failed: {failed:?}");
    assert_eq!(report.exit_code(), EXIT_OK);
    assert!(report
        .suite
        .cases
        .iter()
        .any(|c| c.id.starts_with("corrected-utf8/document.json#") && c.id.ends_with("@split=3")));
}
