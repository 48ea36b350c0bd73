//! Finding the vector files under a folder: every `*.json` file, JSON Schemas
//! (`*.schema.json`) left out, depth first in sorted path order.
//!
//! Used both by `conformance run --vectors DIR` ([`super::suite`]) and by the build
//! script, which embeds the same files in the binary, so that the two always agree on
//! what a vector file is. A build script cannot depend on its own crate, so `build.rs`
//! pulls this file in with `#[path]`: it must stay free of `crate::` paths and
//! dependencies beyond `std`.
//!
//! Symbolic links are followed, but each folder is entered once, known by its device and
//! inode (on Unix; elsewhere by its resolved path): a link back to a parent, or two links
//! to `.`, cannot make the walk loop or branch, and a folder reached twice adds nothing
//! new.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// A folder's identity: (device, inode), or its resolved path where there are none.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum FolderId {
    #[cfg_attr(not(unix), allow(dead_code))]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

fn folder_id(dir: &Path) -> Option<FolderId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(dir).ok()?;
        Some(FolderId::Inode(meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        dir.canonicalize().ok().map(FolderId::Path)
    }
}

/// Appends the vector files under `dir` to `files`. A folder that cannot be read is
/// appended to `errors` and skipped; entries that cannot be read are skipped silently.
pub fn json_files(
    dir: &Path,
    files: &mut Vec<PathBuf>,
    errors: &mut Vec<(PathBuf, std::io::Error)>,
) {
    walk(dir, files, errors, &mut HashSet::new());
}

fn walk(
    dir: &Path,
    files: &mut Vec<PathBuf>,
    errors: &mut Vec<(PathBuf, std::io::Error)>,
    seen: &mut HashSet<FolderId>,
) {
    // A folder already entered (through a link, or a loop back to it) is not walked again.
    if let Some(id) = folder_id(dir) {
        if !seen.insert(id) {
            return;
        }
    }
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
            walk(&path, files, errors, seen);
        } else if name.ends_with(".json") && !name.ends_with(".schema.json") {
            files.push(path);
        }
    }
}
