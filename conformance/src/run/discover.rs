//! Finding the vector files under a folder: every `*.json` file, JSON Schemas
//! (`*.schema.json`) left out, depth first in sorted path order.
//!
//! Used both by `conformance run --vectors DIR` ([`super::suite`]) and by the build
//! script, which embeds the same files in the binary, so that the two always agree on
//! what a vector file is. A build script cannot depend on its own crate, so `build.rs`
//! pulls this file in with `#[path]`: it must stay free of `crate::` paths and
//! dependencies beyond `std`.

use std::path::{Path, PathBuf};

/// Appends the vector files under `dir` to `files`. A folder that cannot be read is
/// appended to `errors` and skipped; entries that cannot be read are skipped silently.
pub fn json_files(
    dir: &Path,
    files: &mut Vec<PathBuf>,
    errors: &mut Vec<(PathBuf, std::io::Error)>,
) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            errors.push((dir.to_path_buf(), e));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path.is_dir() {
            json_files(&path, files, errors);
        } else if name.ends_with(".json") && !name.ends_with(".schema.json") {
            files.push(path);
        }
    }
}
