//! Disagreements written as vector files in the schema of `vectors/` (tcIds from 1, each
//! test flagged by how it was found, expected results from the spec-literal code),
//! atomically, with the one-line command that replays them.

use super::disagreement::{cut_short, Disagreement};
use super::oracle::expected_case;
use super::{Session, Target};
use crate::case::Test;
use crate::vectors::generate::VERSION;
use crate::vectors::model::{
    to_pretty_json, DecodeTest, DocumentTest, EncodeTest, Note, TestGroup, VectorFile,
};
use crate::vectors::{Encoding, Op};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How a disagreement was found: the flag of its vector, and the note explaining it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoundBy {
    /// `conformance fuzz --adapter`.
    Fuzzing,
    /// `conformance exhaustive --adapter`.
    Exhaustive,
}

impl FoundBy {
    /// The flag.
    pub fn flag(self) -> &'static str {
        match self {
            FoundBy::Fuzzing => "FoundByFuzzing",
            FoundBy::Exhaustive => "FoundByExhaustive",
        }
    }

    fn note(self) -> &'static str {
        match self {
            FoundBy::Fuzzing => {
                "An input on which an implementation disagreed with the spec-literal code, \
                 found by `conformance fuzz --adapter` (structure-aware differential fuzzing) \
                 and minimized by delta debugging against that implementation; the expected \
                 result is the spec-literal code's (conformance/README.md, \"Fuzzing an \
                 adapter\")."
            }
            FoundBy::Exhaustive => {
                "An input on which an implementation disagreed with the spec-literal code, \
                 found by `conformance exhaustive --adapter` (every input up to --max-len \
                 bytes, every code point up to --max-codepoint and the table edges); the \
                 expected result is the spec-literal code's (conformance/README.md, \
                 \"Exhaustive checks of an adapter\")."
            }
        }
    }
}

/// `<dir>/<name>-<encoding>-<op>.json`.
pub fn vector_path(dir: &Path, name: &str, target: &Target) -> PathBuf {
    dir.join(format!("{name}-{}-{}.json", target.encoding, target.op))
}

fn vector_file<T: Serialize + Clone>(
    schema: Op,
    encoding: Encoding,
    header: Vec<String>,
    found_by: FoundBy,
    comment: String,
    tests: Vec<T>,
) -> Result<String, String> {
    let mut notes = BTreeMap::new();
    notes.insert(
        found_by.flag().to_string(),
        Note {
            description: found_by.note().to_string(),
            links: Some(vec!["conformance/README.md".to_string()]),
        },
    );
    to_pretty_json(&VectorFile {
        schema: schema.into(),
        encoding: encoding.name().to_string(),
        version: VERSION.to_string(),
        number_of_tests: tests.len(),
        header,
        notes,
        test_groups: vec![TestGroup { comment, tests }],
    })
}

/// Writes the disagreements of one target as a vector file in the schema of `vectors/`
/// (tcIds from 1, each test flagged [`FoundBy::flag`], expected results from the
/// spec-literal code), creating `dir`; returns its path.
pub fn write_vectors(
    dir: &Path,
    session: &Session,
    target: &Target,
    found: &[&Disagreement],
    found_by: FoundBy,
    how: &str,
) -> Result<PathBuf, String> {
    let flag = [found_by.flag()];
    let mut header = vec![
        format!(
            "Disagreements between the implementation `{}` ({}) and the spec-literal code, \
             found by {how}.",
            session.name, session.command
        ),
        "Expected results: the spec-literal code in conformance/literal/src/, as \
         `conformance generate` computes them. Semantics: docs/semantics.md; fields and \
         flags: vectors/README.md."
            .to_string(),
    ];
    if let Some(limit) = target.limit {
        header.push(format!(
            "The implementation declared a code length limit of {limit} bytes: these cases \
             were judged at it, and `conformance run` judges them at it again (expected \
             results from the spec-literal decoder at {limit} bytes); the file itself holds \
             the results at the vectors' limit of 65 536."
        ));
    }
    let group = format!(
        "{} disagreement(s) of {} on {}",
        found.len(),
        session.name,
        target.label()
    );
    let describe = |d: &Disagreement| {
        let fields: Vec<&str> = d
            .result
            .mismatches
            .iter()
            .map(|m| m.field.as_str())
            .collect();
        let what = if fields.is_empty() {
            d.result.message.clone().unwrap_or_default()
        } else {
            format!("`{}` differed", fields.join("`, `"))
        };
        cut_short(&format!("{}: {what}", session.name))
    };
    let cases: Vec<(u64, String, Test)> = found
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let case = expected_case(target.encoding, target.op, &d.probe, String::new(), &flag);
            (
                i as u64 + 1,
                describe(d),
                std::sync::Arc::unwrap_or_clone(case.test),
            )
        })
        .collect();
    let (enc, by) = (target.encoding, found_by);
    let text = match target.op {
        Op::Decode => {
            let tests: Vec<DecodeTest> = cases
                .into_iter()
                .filter_map(|(tc_id, comment, t)| match t {
                    Test::Decode(t) => Some(DecodeTest {
                        tc_id,
                        comment,
                        ..t
                    }),
                    _ => None,
                })
                .collect();
            vector_file(Op::Decode, enc, header, by, group, tests)?
        }
        Op::Document => {
            let tests: Vec<DocumentTest> = cases
                .into_iter()
                .filter_map(|(tc_id, comment, t)| match t {
                    Test::Document(t) => Some(DocumentTest {
                        tc_id,
                        comment,
                        ..t
                    }),
                    _ => None,
                })
                .collect();
            vector_file(Op::Document, enc, header, by, group, tests)?
        }
        Op::Encode => {
            let tests: Vec<EncodeTest> = cases
                .into_iter()
                .filter_map(|(tc_id, comment, t)| match t {
                    Test::Encode(t) => Some(EncodeTest {
                        tc_id,
                        comment,
                        ..t
                    }),
                    _ => None,
                })
                .collect();
            vector_file(Op::Encode, enc, header, by, group, tests)?
        }
    };
    let path = vector_path(dir, &session.name, target);
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    std::fs::create_dir_all(dir).map_err(cannot)?;
    // Whole or absent: a full disk leaves no half vector file to be loaded next time.
    crate::files::write_atomic(&path, text.as_bytes()).map_err(cannot)?;
    Ok(path)
}

/// `s` quoted for `sh` when it needs it.
pub fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:+,@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The one-line command that replays a written vector file against the adapter.
pub fn reproduce_command(path: &Path, session: &Session) -> String {
    format!(
        "conformance run --vectors {} --adapter {}",
        shell_quote(&path.display().to_string()),
        shell_quote(&format!("{}={}", session.name, session.command))
    )
}

/// Writes one vector file per target that has disagreements and prints each path with
/// its reproduction command. A file that cannot be written is named in the errors
/// returned; the others are written all the same.
pub fn write_all(
    dir: &Path,
    session: &Session,
    found: &[Disagreement],
    found_by: FoundBy,
    how: &str,
) -> (Vec<PathBuf>, Vec<String>) {
    let (mut paths, mut errors) = (Vec::new(), Vec::new());
    for target in &session.targets {
        let mine: Vec<&Disagreement> = found.iter().filter(|d| d.target == *target).collect();
        if mine.is_empty() {
            continue;
        }
        match write_vectors(dir, session, target, &mine, found_by, how) {
            Ok(path) => {
                crate::out!(
                    "wrote {} ({} case(s))\nreproduce: {}\n",
                    path.display(),
                    mine.len(),
                    reproduce_command(&path, session)
                );
                paths.push(path);
            }
            Err(e) => errors.push(e),
        }
    }
    (paths, errors)
}

/// The default `--out`: `target/conformance-<what>/` under the current directory.
pub fn default_out(what: &str) -> PathBuf {
    PathBuf::from("target").join(format!("conformance-{what}"))
}
