//! `--expected-failures FILE`: known gaps per implementation, each with a reason.
//!
//! ```json
//! {"node": {"utf-8/encode.json#12": "TextEncoder replaces a lone surrogate with U+FFFD"}}
//! ```
//!
//! A listed case that fails, crashes, times out or breaks the protocol is an *expected
//! failure*: reported, not counted as failed. A listed case that passes is an *unexpected
//! pass* and fails the run (like pytest's `xfail(strict=True)`), so that the list never
//! hides a fixed gap: delete the entry.
//!
//! The option is repeatable (say one file per decoder): the entries are merged, and the
//! same implementation and case listed in two files is an error naming both.

use super::suite::LoadError;
use crate::files::MAX_STATE_FILE;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The parsed file: implementation name → case id → reason.
#[derive(Clone, Debug, Default)]
pub struct ExpectedFailures {
    /// Where it was read from (empty when no file was given).
    pub paths: Vec<PathBuf>,
    /// The entries.
    pub entries: BTreeMap<String, BTreeMap<String, String>>,
}

impl ExpectedFailures {
    /// Reads a file; any error comes with the file, line and column.
    pub fn load(path: &Path) -> Result<ExpectedFailures, LoadError> {
        let text = super::suite::read_input(path, MAX_STATE_FILE, "an expected-failures file")?;
        let entries: BTreeMap<String, BTreeMap<String, String>> = serde_json::from_str(&text)
            .map_err(|e| {
                let text = e.to_string();
                let message = text
                    .rfind(" at line ")
                    .map_or(text.clone(), |i| text[..i].to_string());
                LoadError {
                    path: path.to_path_buf(),
                    line: e.line().max(1),
                    column: e.column().max(1),
                    message: format!(
                        "{message} (expected {{\"implementation\": {{\"file#tcId\": \"reason\"}}}})"
                    ),
                }
            })?;
        for (name, ids) in &entries {
            for id in ids.keys() {
                if !id.contains('#') {
                    return Err(LoadError {
                        path: path.to_path_buf(),
                        line: 0,
                        column: 0,
                        message: format!("{name}: {id:?} is not a case id (\"<file>#<tcId>\")"),
                    });
                }
            }
        }
        Ok(ExpectedFailures {
            paths: vec![path.to_path_buf()],
            entries,
        })
    }

    /// Reads several files and merges their entries (a file given twice is read once);
    /// an implementation and case listed in two files is an error naming both.
    pub fn load_all(paths: &[PathBuf]) -> Result<ExpectedFailures, LoadError> {
        let mut all = ExpectedFailures::default();
        // Which file each entry came from.
        let mut from: BTreeMap<(String, String), usize> = BTreeMap::new();
        for path in paths {
            if all.paths.contains(path) {
                continue;
            }
            let file = all.paths.len();
            let one = ExpectedFailures::load(path)?;
            all.paths.push(path.clone());
            for (name, ids) in one.entries {
                for (id, reason) in ids {
                    if let Some(&first) = from.get(&(name.clone(), id.clone())) {
                        return Err(LoadError {
                            path: path.clone(),
                            line: 0,
                            column: 0,
                            message: format!(
                                "{name}: {id:?} is listed here and in {} too (one entry per \
                                 implementation and case)",
                                all.paths[first].display()
                            ),
                        });
                    }
                    from.insert((name.clone(), id.clone()), file);
                    all.entries
                        .entry(name.clone())
                        .or_default()
                        .insert(id, reason);
                }
            }
        }
        Ok(all)
    }

    /// The reason `implementation` is expected to fail case `id`, if listed.
    pub fn reason(&self, implementation: &str, id: &str) -> Option<&str> {
        self.entries
            .get(implementation)
            .and_then(|m| m.get(id))
            .map(String::as_str)
    }

    /// Entries of the implementations in `ran` whose id is not among `ids` (a stale entry,
    /// or a case filtered out of this run), as `(implementation, id)`.
    pub fn unmatched(&self, ran: &[&str], ids: &BTreeSet<&str>) -> Vec<(String, String)> {
        self.entries
            .iter()
            .filter(|(name, _)| ran.contains(&name.as_str()))
            .flat_map(|(name, m)| {
                m.keys()
                    .filter(|id| !ids.contains(id.as_str()))
                    .map(move |id| (name.clone(), id.clone()))
            })
            .collect()
    }
}
