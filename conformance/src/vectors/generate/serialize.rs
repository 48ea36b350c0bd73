//! The tcId keeping and the JSON serializer: each case keeps the `tcId` it has in the
//! committed file, matched by (group comment, input, code point or list of code points); a new case gets one
//! more than the highest `tcId` ever assigned in the file.

use super::build::Groups;
use super::flags::note_for;
use super::VERSION;
use crate::vectors::model::{
    to_pretty_json, AnyVectorFile, DecodeTest, DocumentTest, EncodeStringTest, EncodeTest, Schema,
    TestCase, VectorFile,
};
use crate::vectors::Encoding;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Identity of a test inside its group, for keeping tcIds.
pub(super) trait Keyed: TestCase + Serialize {
    fn key(&self) -> String;
    fn set_tc_id(&mut self, id: u64);
    fn from_any(file: AnyVectorFile) -> Option<VectorFile<Self>>
    where
        Self: Sized;
}

/// `impl Keyed` for a test type: its key (from the test `t`), and the variant of
/// [`AnyVectorFile`] that holds a file of it.
macro_rules! keyed {
    ($test:ty, $variant:ident, |$t:ident| $key:expr) => {
        impl Keyed for $test {
            fn key(&self) -> String {
                let $t = self;
                $key
            }
            fn set_tc_id(&mut self, id: u64) {
                self.tc_id = id;
            }
            fn from_any(file: AnyVectorFile) -> Option<VectorFile<Self>> {
                match file {
                    AnyVectorFile::$variant(f) => Some(f),
                    _ => None,
                }
            }
        }
    };
}

keyed!(DecodeTest, Decode, |t| t.input.clone());
keyed!(EncodeTest, Encode, |t| t.codepoint.clone());
// The code points, space-separated (`(empty)` for none).
keyed!(
    EncodeStringTest,
    EncodeString,
    |t| if t.codepoints.is_empty() {
        "(empty)".into()
    } else {
        t.codepoints.join(" ")
    }
);
keyed!(DocumentTest, Document, |t| t.input.clone());

/// The header line that records the highest tcId ever assigned in a file, so that the
/// id of a removed case is never given to a new one.
const HIGH_WATER: &str = "Highest tcId ever assigned in this file (never reused): ";

/// Turns groups into a file's JSON: drops repeated keys within a group, keeps committed
/// tcIds, numbers new cases, and explains every flag used.
pub(super) fn finish<T: Keyed>(
    schema: Schema,
    encoding: Encoding,
    mut header: Vec<String>,
    groups: Groups<T>,
    existing: Option<String>,
) -> Result<String, String> {
    let (mut ids, mut next) = committed_ids::<T>(schema, encoding, existing)?;
    let mut test_groups = Vec::new();
    let mut flags_used = BTreeSet::new();
    let mut count = 0;
    for mut group in groups.groups {
        let mut seen = HashSet::new();
        group.tests.retain(|t| seen.insert(t.key()));
        for t in &mut group.tests {
            let key = (group.comment.clone(), t.key());
            let id = *ids.entry(key).or_insert_with(|| {
                next += 1;
                next - 1
            });
            t.set_tc_id(id);
            flags_used.extend(t.flags().iter().cloned());
        }
        count += group.tests.len();
        if !group.tests.is_empty() {
            test_groups.push(group);
        }
    }
    header.push(format!("{HIGH_WATER}{}.", next - 1));
    let mut notes = BTreeMap::new();
    for flag in flags_used {
        let note = note_for(&flag).ok_or_else(|| format!("flag {flag} has no note"))?;
        notes.insert(flag, note);
    }
    let file = VectorFile {
        schema,
        encoding: encoding.name().to_string(),
        version: VERSION.to_string(),
        number_of_tests: count,
        header,
        notes,
        test_groups,
    };
    to_pretty_json(&file)
}

/// tcIds by (group comment, key).
type Ids = HashMap<(String, String), u64>;

/// The committed file's tcIds by (group comment, key), and the first id never assigned.
fn committed_ids<T: Keyed>(
    schema: Schema,
    encoding: Encoding,
    existing: Option<String>,
) -> Result<(Ids, u64), String> {
    let mut ids = Ids::new();
    let mut next = 1;
    if let Some(text) = existing {
        let file = AnyVectorFile::from_json(&text)
            .ok()
            .and_then(T::from_any)
            .ok_or_else(|| {
                format!(
                    "the committed {encoding} {} file does not parse as one; fix or delete it",
                    schema.name()
                )
            })?;
        for g in &file.test_groups {
            for t in &g.tests {
                ids.insert((g.comment.clone(), t.key()), t.tc_id());
                next = next.max(t.tc_id() + 1);
            }
        }
        let recorded = file.header.iter().find_map(|l| {
            l.strip_prefix(HIGH_WATER)?
                .trim_end_matches('.')
                .parse::<u64>()
                .ok()
        });
        if let Some(high) = recorded {
            next = next.max(high + 1);
        }
    }
    Ok((ids, next))
}

pub(super) fn header(what: &str) -> Vec<String> {
    vec![
        what.to_string(),
        "Semantics: docs/semantics.md. Fields, flags, versioning and how to import: vectors/README.md.".to_string(),
        "Generated by `cargo run -p conformance -- generate` from the spec-literal code in conformance/literal/src/, written from the source tables as data and sharing no code with the reference codec. Do not edit by hand; `generate --check` fails when this file is stale.".to_string(),
    ]
}
