//! Lints every vector file: it validates against its JSON Schema in `vectors/schema/`,
//! reads back through the serde model, is formatted exactly as `generate` writes it, and
//! is consistent (unique tcIds, right `numberOfTests`, every flag explained, events that
//! cover the input, results that match outputs — `valid`, `reserved` or `invalid` —, no
//! error event of kind `reserved`, findings in order, a string's bytes the concatenation
//! of its code points' encodings or its `index` the first failure's).
//!
//! The schema check is the small validator in `common/schema.rs`, shared with the report
//! schema's test.

use crate::common::schema::validate;
use conformance::vectors::{default_dir, generate};
use conformance_literal::utf_inf8::{self, CodePoint};
use conformance_literal::{corrected, utf8, Kind};
use corrected_utf8_vectors::model::{
    codepoint_digits, from_hex, parse_codepoint, to_pretty_json, AnyVectorFile, OutputEvent,
    Severity, TestCase, TestResult, VectorFile,
};
use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The vector files under `dir`, found as the runner and the embedding find them.
fn vector_files(dir: &Path) -> Vec<PathBuf> {
    let (mut files, mut errors) = (Vec::new(), Vec::new());
    corrected_utf8_vectors::discover::json_files(dir, &mut files, &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    files
}

/// A file's name relative to `dir`, with `/`.
fn rel(file: &Path, dir: &Path) -> String {
    let rel = file.strip_prefix(dir).unwrap_or(file);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn load_schema(dir: &Path, name: &str) -> Value {
    let path = dir.join("schema").join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// File-level checks common to every shape.
fn lint_common<T: TestCase + serde::Serialize>(
    name: &str,
    file: &VectorFile<T>,
    text: &str,
    errors: &mut Vec<String>,
) {
    let mut ids = HashSet::new();
    let mut used = HashSet::new();
    let mut count = 0;
    for t in file.tests() {
        count += 1;
        if !ids.insert(t.tc_id()) {
            errors.push(format!("{name}: tcId {} repeated", t.tc_id()));
        }
        if t.flags().is_empty() {
            errors.push(format!("{name}: tcId {} has no flag", t.tc_id()));
        }
        for f in t.flags() {
            used.insert(f.clone());
            if !file.notes.contains_key(f) {
                errors.push(format!("{name}: flag {f} is not explained in notes"));
            }
        }
    }
    for f in file.notes.keys() {
        if !used.contains(f) {
            errors.push(format!("{name}: note {f} explains a flag no test uses"));
        }
    }
    if file.number_of_tests != count {
        errors.push(format!(
            "{name}: numberOfTests {} but {count} tests",
            file.number_of_tests
        ));
    }
    if file.header.is_empty() {
        errors.push(format!("{name}: empty header"));
    }
    if file.version != corrected_utf8_vectors::VERSION {
        errors.push(format!("{name}: version {}", file.version));
    }
    match to_pretty_json(file) {
        Ok(canonical) if canonical == text => {}
        _ => errors.push(format!(
            "{name}: not in canonical form (2-space pretty JSON, model key order, final newline)"
        )),
    }
}

/// The kinds a decoder of `encoding` may report.
fn decode_kinds(encoding: &str) -> &'static [Kind] {
    match encoding {
        // A reserved span is its own event, never an error of kind `reserved`.
        "corrected-utf8" => &[Kind::UnexpectedContinuation, Kind::Truncated],
        "utf-8" => &[
            Kind::UnexpectedContinuation,
            Kind::Truncated,
            Kind::Overlong,
            Kind::Surrogate,
            Kind::OutOfRange,
            Kind::InvalidByte,
        ],
        "utf-inf-8" => &[
            Kind::UnexpectedContinuation,
            Kind::Truncated,
            Kind::Overlong,
            Kind::Surrogate,
            Kind::InvalidLength,
            Kind::LimitExceeded,
        ],
        _ => &[],
    }
}

/// A code point's encoding (from its `"U+…"` text, of any length in UTF-∞-8), to check
/// that events cover the input exactly.
fn encode_in(encoding: &str, codepoint: &str) -> Option<Vec<u8>> {
    if encoding == "utf-inf-8" {
        let cp = CodePoint::from_hex(codepoint_digits(codepoint)?)?;
        return utf_inf8::encode(&cp).ok();
    }
    let cp = u32::try_from(parse_codepoint(codepoint)?).ok()?;
    match encoding {
        "corrected-utf8" => corrected::encode(cp).ok(),
        "utf-8" => utf8::encode(cp).ok(),
        _ => None,
    }
}

/// One code point's encoding or error kind by the spec-literal code; `None` when the
/// text is no code point of the encoding.
fn encode_result(encoding: &str, codepoint: &str) -> Option<Result<Vec<u8>, String>> {
    let kind = |k: Kind| k.as_str().to_string();
    if encoding == "utf-inf-8" {
        let cp = CodePoint::from_hex(codepoint_digits(codepoint)?)?;
        return Some(utf_inf8::encode(&cp).map_err(kind));
    }
    let cp = u32::try_from(parse_codepoint(codepoint)?).ok()?;
    match encoding {
        "corrected-utf8" => Some(corrected::encode(cp).map_err(kind)),
        "utf-8" => Some(utf8::encode(cp).map_err(kind)),
        _ => None,
    }
}

fn lint_file(path: &Path, dir: &Path) -> Vec<String> {
    let name = path.strip_prefix(dir).unwrap_or(path).display().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    let value: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => return vec![format!("{name}: not JSON: {e}")],
    };
    let schema_name = value["schema"].as_str().unwrap_or("?").to_string();
    let mut errors: Vec<String> = validate(&load_schema(dir, &schema_name), &value)
        .into_iter()
        .map(|e| format!("{name}: schema: {e}"))
        .take(20)
        .collect();
    let any = match AnyVectorFile::from_json(&text) {
        Ok(f) => f,
        Err(e) => {
            errors.push(format!("{name}: model: {e}"));
            return errors;
        }
    };
    let encoding = any.encoding().to_string();
    if !name.starts_with(&encoding) {
        errors.push(format!(
            "{name}: encoding {encoding} in the wrong directory"
        ));
    }
    #[allow(unreachable_patterns)] // the model's enum is non_exhaustive
    match &any {
        AnyVectorFile::Decode(f) => {
            lint_common(&name, f, &text, &mut errors);
            for t in f.tests() {
                let id = t.tc_id;
                let Ok(input) = from_hex(&t.input) else {
                    errors.push(format!("{name} {id}: bad hex"));
                    continue;
                };
                let mut at = 0usize;
                for e in &t.output {
                    match e {
                        OutputEvent::CodePoint { codepoint } => {
                            let bytes = encode_in(&encoding, codepoint);
                            match bytes {
                                Some(b) if input.get(at..at + b.len()) == Some(&b[..]) => {
                                    at += b.len()
                                }
                                _ => {
                                    errors.push(format!(
                                        "{name} {id}: {codepoint} does not match input at {at}"
                                    ));
                                    break;
                                }
                            }
                        }
                        OutputEvent::Error {
                            error,
                            offset,
                            length,
                        } => {
                            let known = Kind::from_name(error)
                                .is_some_and(|k| decode_kinds(&encoding).contains(&k));
                            if !known {
                                errors
                                    .push(format!("{name} {id}: kind {error} not for {encoding}"));
                            }
                            if *offset != at as u64 || *length == 0 {
                                errors
                                    .push(format!("{name} {id}: span at {offset}, expected {at}"));
                                break;
                            }
                            at += *length as usize;
                        }
                        OutputEvent::Reserved {
                            reserved,
                            offset,
                            length,
                        } => {
                            if !reserved || encoding != "corrected-utf8" {
                                errors.push(format!(
                                    "{name} {id}: \"reserved\": {reserved} in {encoding}"
                                ));
                            }
                            if *offset != at as u64 || *length == 0 {
                                errors
                                    .push(format!("{name} {id}: span at {offset}, expected {at}"));
                                break;
                            }
                            at += *length as usize;
                        }
                    }
                }
                if at != input.len() {
                    errors.push(format!(
                        "{name} {id}: events cover {at} of {} bytes",
                        input.len()
                    ));
                }
                if t.result != TestResult::of_output(&t.output) {
                    errors.push(format!(
                        "{name} {id}: result {} does not match output",
                        t.result.as_str()
                    ));
                }
            }
        }
        AnyVectorFile::Encode(f) => {
            lint_common(&name, f, &text, &mut errors);
            for t in f.tests() {
                let id = t.tc_id;
                let well_formed = if encoding == "utf-inf-8" {
                    codepoint_digits(&t.codepoint).is_some()
                } else {
                    parse_codepoint(&t.codepoint).is_some()
                };
                if !well_formed {
                    errors.push(format!("{name} {id}: bad codepoint {}", t.codepoint));
                }
                match (&t.bytes, &t.error, t.result) {
                    (Some(b), None, TestResult::Valid) => {
                        if from_hex(b).is_err() {
                            errors.push(format!("{name} {id}: bad hex"));
                        }
                    }
                    (None, Some(_), TestResult::Invalid) => {}
                    _ => errors.push(format!("{name} {id}: bytes/error/result inconsistent")),
                }
            }
        }
        AnyVectorFile::EncodeString(f) => {
            lint_common(&name, f, &text, &mut errors);
            for t in f.tests() {
                let id = t.tc_id;
                // Each code point's own encoding, in order, up to the first failure: the
                // string's bytes must be their concatenation, or its index and kind the
                // first failure's (SPEC §1, "Encoding a string").
                let mut bytes = Vec::new();
                let mut first_failure = None;
                for (i, c) in t.codepoints.iter().enumerate() {
                    let well_formed = if encoding == "utf-inf-8" {
                        codepoint_digits(c).is_some()
                    } else {
                        parse_codepoint(c).is_some_and(|v| v <= u64::from(u32::MAX))
                    };
                    if !well_formed {
                        errors.push(format!("{name} {id}: bad codepoint {c}"));
                    }
                    if first_failure.is_none() {
                        match encode_result(&encoding, c) {
                            Some(Ok(b)) => bytes.extend(b),
                            Some(Err(kind)) => first_failure = Some((i as u64, kind)),
                            None => errors.push(format!("{name} {id}: {c} not encodable here")),
                        }
                    }
                }
                match (&t.bytes, &t.error, t.index, t.result) {
                    (Some(b), None, None, TestResult::Valid) => {
                        if first_failure.is_some() || from_hex(b).ok() != Some(bytes) {
                            errors.push(format!(
                                "{name} {id}: bytes are not the code points' encodings"
                            ));
                        }
                    }
                    (None, Some(e), Some(index), TestResult::Invalid) => {
                        if first_failure != Some((index, e.clone())) {
                            errors.push(format!(
                                "{name} {id}: error {e} at {index}, but the first failure \
                                 is {first_failure:?}"
                            ));
                        }
                    }
                    _ => errors.push(format!(
                        "{name} {id}: bytes/error/index/result inconsistent"
                    )),
                }
            }
        }
        AnyVectorFile::Document(f) => {
            lint_common(&name, f, &text, &mut errors);
            for t in f.tests() {
                let id = t.tc_id;
                let len = from_hex(&t.input).map(|b| b.len() as u64).unwrap_or(0);
                let mut last = 0u64;
                let mut has_error = false;
                for (i, fd) in t.findings.iter().enumerate() {
                    let severity = match fd.kind.as_str() {
                        // Reserved spans and inner magic numbers are warnings.
                        "reserved" | "inner-magic" => Severity::Warning,
                        "nul" => Severity::Error,
                        k if Kind::from_name(k).is_some() => Severity::Error,
                        _ => Severity::Warning,
                    };
                    if fd.severity != severity {
                        errors.push(format!("{name} {id}: {} has the wrong severity", fd.kind));
                    }
                    has_error |= fd.severity == Severity::Error;
                    if (fd.kind == "missing-magic")
                        != (i == 0 && t.input.get(..16) != Some("efb79dedb2ae000a"))
                    {
                        errors.push(format!("{name} {id}: missing-magic misplaced"));
                    }
                    if fd.offset < last || fd.offset > len {
                        errors.push(format!(
                            "{name} {id}: findings out of order or past the end"
                        ));
                    }
                    last = fd.offset;
                }
                let want = if has_error {
                    TestResult::Invalid
                } else {
                    TestResult::Valid
                };
                if t.result != want {
                    errors.push(format!("{name} {id}: result does not match findings"));
                }
            }
        }
        other => errors.push(format!("{name}: no lint for schema {}", other.schema())),
    }
    errors
}

#[test]
fn every_vector_file_lints_clean() {
    let dir = default_dir();
    let files = vector_files(&dir);
    let mut names: Vec<String> = files.iter().map(|f| rel(f, &dir)).collect();
    names.sort();
    let mut want = corrected_utf8_vectors::PATHS.to_vec();
    want.sort();
    assert_eq!(
        names, want,
        "vectors/ holds other files than the vector set's"
    );
    let mut errors = Vec::new();
    for f in &files {
        errors.extend(lint_file(f, &dir));
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The vectors crate embeds `vectors/` byte for byte (through its `vectors` link; a
/// runner or testkit built from the packages carries the same bytes).
#[test]
fn the_embedded_vectors_are_the_committed_files() {
    let dir = default_dir();
    let on_disk: Vec<(String, String)> = vector_files(&dir)
        .iter()
        .map(|f| (rel(f, &dir), std::fs::read_to_string(f).unwrap()))
        .collect();
    let embedded: Vec<(String, String)> = corrected_utf8_vectors::EMBEDDED
        .iter()
        .map(|f| (f.path.to_string(), f.text.to_string()))
        .collect();
    let names = |v: &[(String, String)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&embedded), names(&on_disk));
    for ((name, disk), (_, built_in)) in on_disk.iter().zip(&embedded) {
        assert!(
            disk == built_in,
            "{name}: the embedded copy differs from vectors/{name}"
        );
    }
}

#[test]
fn committed_vectors_are_what_generate_writes() {
    let dir = default_dir();
    let files = generate::generate_files(|rel| std::fs::read_to_string(dir.join(rel)).ok())
        .expect("generate");
    for (rel, content) in files {
        let committed = std::fs::read_to_string(dir.join(rel)).unwrap_or_default();
        assert!(
            committed == content,
            "vectors/{rel} is stale: run `cargo run -p conformance -- generate`"
        );
    }
}

#[test]
fn tc_ids_are_kept_and_never_reused() {
    let dir = default_dir();
    let rel = "utf-8/encode.json";
    let committed = std::fs::read_to_string(dir.join(rel)).unwrap();
    let AnyVectorFile::Encode(mut file) = AnyVectorFile::from_json(&committed).unwrap() else {
        panic!("not an encode file");
    };
    let max = file.tests().map(|t| t.tc_id).max().unwrap();
    // Drop the first test and renumber another one: regeneration must keep the
    // renumbered id, and give the dropped case a fresh id above the maximum.
    let dropped = file.test_groups[0].tests.remove(0);
    file.test_groups[0].tests[0].tc_id = max + 100;
    let kept_key = file.test_groups[0].tests[0].codepoint.clone();
    let edited = to_pretty_json(&file).unwrap();
    let out =
        generate::generate_files(|r| if r == rel { Some(edited.clone()) } else { None }).unwrap();
    let text = &out.iter().find(|(r, _)| *r == rel).unwrap().1;
    let AnyVectorFile::Encode(regen) = AnyVectorFile::from_json(text).unwrap() else {
        panic!();
    };
    let id_of = |cp: &str| regen.tests().find(|t| t.codepoint == cp).unwrap().tc_id;
    assert_eq!(id_of(&kept_key), max + 100);
    assert_eq!(id_of(&dropped.codepoint), max + 101);

    // Remove a case for good: the next new case must not get its id, even when the
    // removed case had the highest one.
    let AnyVectorFile::Encode(mut file) = AnyVectorFile::from_json(text).unwrap() else {
        panic!();
    };
    let removed = file.test_groups[0].tests.remove(0);
    assert_eq!(removed.tc_id, max + 101);
    let edited = to_pretty_json(&file).unwrap();
    let out = generate::generate_files(|r| (r == rel).then(|| edited.clone())).unwrap();
    let text = &out.iter().find(|(r, _)| *r == rel).unwrap().1;
    let AnyVectorFile::Encode(regen) = AnyVectorFile::from_json(text).unwrap() else {
        panic!();
    };
    let readded = regen
        .tests()
        .find(|t| t.codepoint == removed.codepoint)
        .unwrap();
    assert_eq!(readded.tc_id, max + 102);
}

#[test]
fn the_validator_rejects_broken_files() {
    let dir = default_dir();
    let schema = load_schema(&dir, "decode");
    let text = std::fs::read_to_string(dir.join("utf-8/decode.json")).unwrap();
    let good: Value = serde_json::from_str(&text).unwrap();
    assert!(validate(&schema, &good).is_empty());
    type Mutation = Box<dyn Fn(&mut Value)>;
    let mutations: Vec<(&str, Mutation)> = vec![
        (
            "uppercase hex",
            Box::new(|v| v["testGroups"][0]["tests"][1]["input"] = "7F".into()),
        ),
        (
            "short code point",
            Box::new(|v| v["testGroups"][0]["tests"][0]["output"][0]["codepoint"] = "U+00".into()),
        ),
        (
            "lowercase code point",
            Box::new(|v| {
                v["testGroups"][0]["tests"][3]["output"][0]["codepoint"] = "U+07ff".into()
            }),
        ),
        (
            "unknown kind",
            Box::new(|v| v["testGroups"][1]["tests"][2]["output"][0]["error"] = "bogus".into()),
        ),
        (
            "missing result",
            Box::new(|v| {
                v["testGroups"][0]["tests"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("result");
            }),
        ),
        (
            "extra field",
            Box::new(|v| v["testGroups"][0]["tests"][0]["extra"] = 1.into()),
        ),
        ("bad version", Box::new(|v| v["version"] = "1.0".into())),
        (
            "zero-length span",
            Box::new(|v| v["testGroups"][1]["tests"][2]["output"][0]["length"] = 0.into()),
        ),
    ];
    for (what, mutate) in mutations {
        let mut bad = good.clone();
        mutate(&mut bad);
        assert!(
            !validate(&schema, &bad).is_empty(),
            "{what} passed the schema"
        );
    }
}

#[test]
fn the_lint_rejects_reserved_errors_and_wrong_results() {
    let dir = default_dir();
    let rel = "corrected-utf8/decode.json";
    let text = std::fs::read_to_string(dir.join(rel)).unwrap();
    let good: Value = serde_json::from_str(&text).unwrap();
    let reserved_only = |v: &Value| {
        v["result"] == "reserved" && v["output"].as_array().is_some_and(|o| o.len() == 1)
    };
    let (g, t) = good["testGroups"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .find_map(|(g, group)| {
            let tests = group["tests"].as_array()?;
            tests.iter().position(reserved_only).map(|t| (g, t))
        })
        .expect("a reserved-only vector");
    type Mutation = Box<dyn Fn(&mut Value)>;
    // (what, mutation, whether the schema alone rejects it too)
    let mutations: Vec<(&str, Mutation, bool)> = vec![
        (
            "an error of kind reserved",
            Box::new(move |v| {
                let e = &mut v["testGroups"][g]["tests"][t]["output"][0];
                let (offset, length) = (e["offset"].clone(), e["length"].clone());
                *e = serde_json::json!({"error": "reserved", "offset": offset, "length": length});
                v["testGroups"][g]["tests"][t]["result"] = "invalid".into();
            }),
            true,
        ),
        (
            "\"reserved\": false",
            Box::new(move |v| {
                v["testGroups"][g]["tests"][t]["output"][0]["reserved"] = false.into()
            }),
            true,
        ),
        (
            "a reserved span called valid",
            Box::new(move |v| v["testGroups"][g]["tests"][t]["result"] = "valid".into()),
            false,
        ),
        (
            "a reserved span called invalid",
            Box::new(move |v| v["testGroups"][g]["tests"][t]["result"] = "invalid".into()),
            false,
        ),
    ];
    let path = std::env::temp_dir().join(format!("vectors-lint-{}", std::process::id()));
    for (what, mutate, schema_rejects) in mutations {
        let mut bad = good.clone();
        mutate(&mut bad);
        let bad_dir = path.join(what.replace(['"', ' ', ':'], "_"));
        let file = bad_dir.join(rel);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::create_dir_all(bad_dir.join("schema")).unwrap();
        for s in ["decode", "encode", "encode-string", "document"] {
            std::fs::copy(
                dir.join("schema").join(format!("{s}.schema.json")),
                bad_dir.join("schema").join(format!("{s}.schema.json")),
            )
            .unwrap();
        }
        std::fs::write(&file, to_pretty_json(&bad).unwrap()).unwrap();
        let errors = lint_file(&file, &bad_dir);
        assert!(
            errors
                .iter()
                .any(|e| !e.contains("schema:") && !e.contains("canonical")),
            "{what} passed the lint's own checks: {errors:?}"
        );
        assert_eq!(
            errors.iter().any(|e| e.contains("schema:")),
            schema_rejects,
            "{what}: {errors:?}"
        );
    }
    std::fs::remove_dir_all(&path).ok();
}

/// A string vector whose bytes, index or kind do not follow from its code points fails
/// the lint's own checks (not only `generate --check`).
#[test]
fn the_lint_checks_string_bytes_and_indexes() {
    let dir = default_dir();
    let rel = "corrected-utf8/encode-string.json";
    let text = std::fs::read_to_string(dir.join(rel)).unwrap();
    let good: Value = serde_json::from_str(&text).unwrap();
    let find = |result: &str| {
        good["testGroups"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .find_map(|(g, group)| {
                let tests = group["tests"].as_array()?;
                tests
                    .iter()
                    .position(|t| {
                        t["result"] == result && t["codepoints"].as_array().unwrap().len() > 2
                    })
                    .map(|t| (g, t))
            })
            .unwrap()
    };
    let ((vg, vt), (ig, it)) = (find("valid"), find("invalid"));
    type Mutation = Box<dyn Fn(&mut Value)>;
    let mutations: Vec<(&str, Mutation)> = vec![
        (
            "bytes one short",
            Box::new(move |v| {
                let b = v["testGroups"][vg]["tests"][vt]["bytes"].as_str().unwrap();
                let short = b[..b.len() - 2].to_string();
                v["testGroups"][vg]["tests"][vt]["bytes"] = short.into();
            }),
        ),
        (
            "index one late",
            Box::new(move |v| {
                let i = v["testGroups"][ig]["tests"][it]["index"].as_u64().unwrap();
                v["testGroups"][ig]["tests"][it]["index"] = (i + 1).into();
            }),
        ),
        (
            "another kind",
            Box::new(move |v| {
                let e = &mut v["testGroups"][ig]["tests"][it]["error"];
                *e = if *e == "surrogate" {
                    "c1-control"
                } else {
                    "surrogate"
                }
                .into();
            }),
        ),
    ];
    let path = std::env::temp_dir().join(format!("vectors-lint-strings-{}", std::process::id()));
    for (what, mutate) in mutations {
        let mut bad = good.clone();
        mutate(&mut bad);
        let bad_dir = path.join(what.replace(' ', "_"));
        let file = bad_dir.join(rel);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::create_dir_all(bad_dir.join("schema")).unwrap();
        std::fs::copy(
            dir.join("schema/encode-string.schema.json"),
            bad_dir.join("schema/encode-string.schema.json"),
        )
        .unwrap();
        std::fs::write(&file, to_pretty_json(&bad).unwrap()).unwrap();
        let errors = lint_file(&file, &bad_dir);
        assert!(
            errors.iter().any(|e| !e.contains("schema:")),
            "{what} passed the lint's own checks: {errors:?}"
        );
    }
    std::fs::remove_dir_all(&path).ok();
}
