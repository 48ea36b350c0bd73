//! Lints every vector file: it validates against its JSON Schema in `vectors/schema/`,
//! reads back through the serde model, is formatted exactly as `generate` writes it, and
//! is consistent (unique tcIds, right `numberOfTests`, every flag explained, events that
//! cover the input, results that match outputs, findings in order).
//!
//! The schema check is a small validator for the subset of JSON Schema the schema files
//! use; it fails loudly on any keyword or pattern it does not know, so the schemas cannot
//! silently outgrow it.

use conformance::vectors::model::{
    codepoint_digits, from_hex, parse_codepoint, to_pretty_json, AnyVectorFile, OutputEvent,
    Severity, TestCase, TestResult, VectorFile,
};
use conformance::vectors::{default_dir, generate};
use conformance_literal::utf_inf8::{self, CodePoint};
use conformance_literal::{corrected, utf8, Kind};
use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------
// A JSON Schema subset validator.

/// The patterns the schema files use, each with a hand-written matcher.
fn pattern_matches(pattern: &str, s: &str) -> Result<bool, String> {
    let hex = |c: char| matches!(c, '0'..='9' | 'A'..='F');
    Ok(match pattern {
        "^([0-9a-f]{2})*$" => {
            s.len().is_multiple_of(2) && s.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f'))
        }
        "^U\\+([0-9A-F]{4}|[1-9A-F][0-9A-F]{4,})$" => match s.strip_prefix("U+") {
            Some(d) => d.chars().all(hex) && (d.len() == 4 || (d.len() > 4 && !d.starts_with('0'))),
            None => false,
        },
        "^[A-Za-z0-9][A-Za-z0-9.-]*$" => {
            s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        }
        "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$" => {
            let parts: Vec<&str> = s.split('.').collect();
            parts.len() == 3
                && parts.iter().all(|p| {
                    !p.is_empty()
                        && p.chars().all(|c| c.is_ascii_digit())
                        && (p.len() == 1 || !p.starts_with('0'))
                })
        }
        other => return Err(format!("validator does not know pattern {other}")),
    })
}

struct Validator<'a> {
    root: &'a Value,
}

impl Validator<'_> {
    fn resolve<'s>(&'s self, reference: &str) -> Result<&'s Value, String> {
        let path = reference
            .strip_prefix("#/")
            .ok_or_else(|| format!("unsupported $ref {reference}"))?;
        let mut v = self.root;
        for part in path.split('/') {
            v = v
                .get(part)
                .ok_or_else(|| format!("dangling $ref {reference}"))?;
        }
        Ok(v)
    }

    /// Errors of `value` against `schema`, each with a JSON-pointer-like path.
    fn check(&self, schema: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
        let Some(obj) = schema.as_object() else {
            errors.push(format!("{path}: schema is not an object"));
            return;
        };
        for (key, want) in obj {
            match key.as_str() {
                "$schema" | "$id" | "title" | "description" | "$defs" => {}
                "$ref" => match want.as_str().map(|r| self.resolve(r)) {
                    Some(Ok(target)) => self.check(target, value, path, errors),
                    Some(Err(e)) => errors.push(format!("{path}: {e}")),
                    None => errors.push(format!("{path}: $ref is not a string")),
                },
                "type" => {
                    let ok = match want.as_str() {
                        Some("object") => value.is_object(),
                        Some("array") => value.is_array(),
                        Some("string") => value.is_string(),
                        Some("integer") => value.is_u64() || value.is_i64(),
                        Some("boolean") => value.is_boolean(),
                        other => {
                            errors.push(format!("{path}: unsupported type {other:?}"));
                            true
                        }
                    };
                    if !ok {
                        errors.push(format!("{path}: not of type {want}"));
                    }
                }
                "const" => {
                    if value != want {
                        errors.push(format!("{path}: {value} is not {want}"));
                    }
                }
                "enum" => {
                    if !want.as_array().is_some_and(|a| a.contains(value)) {
                        errors.push(format!("{path}: {value} not in {want}"));
                    }
                }
                "pattern" => {
                    if let (Some(p), Some(s)) = (want.as_str(), value.as_str()) {
                        match pattern_matches(p, s) {
                            Ok(true) => {}
                            Ok(false) => errors.push(format!("{path}: {s:?} does not match {p}")),
                            Err(e) => errors.push(e),
                        }
                    }
                }
                "minimum" => {
                    if let (Some(m), Some(v)) = (want.as_i64(), value.as_i64()) {
                        if v < m {
                            errors.push(format!("{path}: {v} < {m}"));
                        }
                    }
                }
                "minLength" => {
                    if let (Some(m), Some(s)) = (want.as_u64(), value.as_str()) {
                        if (s.chars().count() as u64) < m {
                            errors.push(format!("{path}: shorter than {m}"));
                        }
                    }
                }
                "uniqueItems" => {
                    if let (Some(true), Some(a)) = (want.as_bool(), value.as_array()) {
                        let set: HashSet<String> = a.iter().map(|v| v.to_string()).collect();
                        if set.len() != a.len() {
                            errors.push(format!("{path}: items not unique"));
                        }
                    }
                }
                "required" => {
                    if let (Some(req), Some(o)) = (want.as_array(), value.as_object()) {
                        for r in req.iter().filter_map(Value::as_str) {
                            if !o.contains_key(r) {
                                errors.push(format!("{path}: missing {r}"));
                            }
                        }
                    }
                }
                "properties" => {
                    if let (Some(props), Some(o)) = (want.as_object(), value.as_object()) {
                        for (k, s) in props {
                            if let Some(v) = o.get(k) {
                                self.check(s, v, &format!("{path}/{k}"), errors);
                            }
                        }
                    }
                }
                "additionalProperties" => {
                    if let Some(o) = value.as_object() {
                        let known: HashSet<&str> = obj
                            .get("properties")
                            .and_then(Value::as_object)
                            .map(|p| p.keys().map(String::as_str).collect())
                            .unwrap_or_default();
                        for (k, v) in o.iter().filter(|(k, _)| !known.contains(k.as_str())) {
                            match want {
                                Value::Bool(false) => {
                                    errors.push(format!("{path}: unexpected property {k}"))
                                }
                                Value::Bool(true) => {}
                                s => self.check(s, v, &format!("{path}/{k}"), errors),
                            }
                        }
                    }
                }
                "items" => {
                    if let Some(a) = value.as_array() {
                        for (i, v) in a.iter().enumerate() {
                            self.check(want, v, &format!("{path}/{i}"), errors);
                        }
                    }
                }
                "oneOf" => {
                    let branches = want.as_array().cloned().unwrap_or_default();
                    let passing = branches
                        .iter()
                        .filter(|b| {
                            let mut e = Vec::new();
                            self.check(b, value, path, &mut e);
                            e.is_empty()
                        })
                        .count();
                    if passing != 1 {
                        errors.push(format!("{path}: {passing} oneOf branches match, not 1"));
                    }
                }
                other => errors.push(format!("{path}: validator does not know keyword {other}")),
            }
        }
    }
}

fn validate(schema: &Value, value: &Value) -> Vec<String> {
    let v = Validator { root: schema };
    let mut errors = Vec::new();
    v.check(schema, value, "", &mut errors);
    errors
}

// ---------------------------------------------------------------------------------
// The files.

fn vector_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("vectors/ exists") {
        let path = entry.unwrap().path();
        if path.is_dir() && path.file_name().is_some_and(|n| n != "schema") {
            for f in std::fs::read_dir(&path).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "json") {
                    out.push(f);
                }
            }
        }
    }
    out.sort();
    out
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
    if file.version != generate::VERSION {
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
        "corrected-utf8" => &[
            Kind::UnexpectedContinuation,
            Kind::Truncated,
            Kind::Reserved,
        ],
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
                let mut has_error = false;
                let mut has_reserved = false;
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
                            has_error = true;
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
                        OutputEvent::Reserved { offset, length, .. } => {
                            has_reserved = true;
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
                let want = if has_error {
                    TestResult::Invalid
                } else if has_reserved {
                    TestResult::Reserved
                } else {
                    TestResult::Valid
                };
                if t.result != want {
                    errors.push(format!("{name} {id}: result does not match output"));
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
        AnyVectorFile::Document(f) => {
            lint_common(&name, f, &text, &mut errors);
            for t in f.tests() {
                let id = t.tc_id;
                let len = from_hex(&t.input).map(|b| b.len() as u64).unwrap_or(0);
                let mut last = 0u64;
                let mut has_error = false;
                for (i, fd) in t.findings.iter().enumerate() {
                    let severity = match fd.kind.as_str() {
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
    }
    errors
}

#[test]
fn every_vector_file_lints_clean() {
    let dir = default_dir();
    let files = vector_files(&dir);
    assert_eq!(files.len(), generate::FILES.len(), "{files:?}");
    let mut errors = Vec::new();
    for f in &files {
        errors.extend(lint_file(f, &dir));
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
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
