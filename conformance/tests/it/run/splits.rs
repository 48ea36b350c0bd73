//! `conformance run --splits`: the reference's streaming decoders and document checker,
//! fed every decode and document vector in chunks, give the vectors' own answers.

use conformance::run::{execute, Config as RunArgs, EXIT_OK};

#[test]
fn reference_passes_every_chunking_of_the_corrected_utf8_vectors() {
    // Corrected UTF-8 holds the document vectors (magic number split across chunks) and
    // the long reserved runs; the UTF-∞-8 64 KiB inputs would make a debug test slow
    // (the CLI's --splits covers every file).
    let args = RunArgs {
        encodings: vec![conformance::vectors::Encoding::CorrectedUtf8],
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

/// A protocol-2 adapter over the independent Python implementation that declares
/// streaming for Corrected UTF-8 decode; `body` turns a request's `chunks` into the bytes
/// it decodes (all of them, or — the bug under test — only the first).
fn streaming_adapter(dir: &std::path::Path, body: &str) -> String {
    let adapters = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters");
    let script = dir.join("streaming_adapter.py");
    let source = format!(
        r#"import json, sys
sys.path.insert(0, {adapters:?})
import corrected_utf8 as c
HELLO = {{"id": "hello", "protocol": 2, "name": "streaming test",
         "supports": [{{"encoding": "corrected-utf8", "op": "decode",
                       "fields": ["output", "result"], "streaming": True}}]}}
for line in sys.stdin:
    req = json.loads(line)
    if req.get("op") == "hello":
        resp = HELLO
    elif req.get("encoding") != "corrected-utf8" or req.get("op") != "decode":
        resp = {{"id": req.get("id"), "unsupported": True}}
    else:
        chunks = req.get("chunks")
        data = {body} if chunks is not None else bytes.fromhex(req["input"])
        events = c.decode_corrected(data)
        resp = {{"id": req["id"], "output": [c.event_to_json(e) for e in events],
                "result": c.validity(events)}}
    print(json.dumps(resp), flush=True)
"#,
        adapters = adapters.display().to_string(),
    );
    std::fs::write(&script, source).expect("write the test adapter");
    format!("python3 {}", script.display())
}

fn run_streaming_adapter(name: &str, body: &str) -> conformance::report::model::RunReport {
    let dir =
        std::env::temp_dir().join(format!("conformance-splits-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let args = RunArgs {
        encodings: vec![conformance::vectors::Encoding::CorrectedUtf8],
        splits: true,
        adapters: vec![conformance::adapter_spec::AdapterSpec {
            name: "streaming".into(),
            command: streaming_adapter(&dir, body),
        }],
        ..RunArgs::default()
    };
    execute(&args).expect("the embedded vectors load")
}

#[test]
fn an_adapter_that_declares_streaming_gets_every_chunking() {
    if !crate::common::prereq::python3() {
        return;
    }
    let report = run_streaming_adapter("joins", r#"b"".join(bytes.fromhex(x) for x in chunks)"#);
    let imp = &report.implementations[0];
    let (ran, _) = imp.chunked(&report.suite);
    assert!(ran > 5000, "only {ran} chunked cases ran");
    // It declared streaming for decode only: the chunked document cases are not
    // applicable to it (never sent, never counted), every chunked decode case ran.
    for (case, r) in report.suite.cases.iter().zip(&imp.results) {
        if case.chunking.is_some() {
            let document = case.id.starts_with("corrected-utf8/document.json#");
            assert_eq!(r.not_applicable, document, "{}", case.id);
        }
    }
    assert_eq!(report.exit_code(), EXIT_OK);
}

#[test]
fn an_adapter_that_drops_chunks_fails_only_on_chunked_cases() {
    if !crate::common::prereq::python3() {
        return;
    }
    let report = run_streaming_adapter("drops", r#"bytes.fromhex(chunks[0])"#);
    let imp = &report.implementations[0];
    let failed: Vec<&str> = report
        .suite
        .cases
        .iter()
        .zip(&imp.results)
        .filter(|(_, r)| r.status.is_failure())
        .map(|(c, _)| c.id.as_str())
        .collect();
    assert!(!failed.is_empty());
    assert!(
        failed.iter().all(|id| id.contains('@')),
        "an unchunked case failed: {failed:?}"
    );
    assert_ne!(report.exit_code(), EXIT_OK);
}
