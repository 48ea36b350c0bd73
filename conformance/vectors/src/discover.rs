//! Finding the vector files under a folder: every `*.json` file, JSON Schemas
//! (`*.schema.json`) left out, depth first in sorted path order.
//!
//! The one rule for what a vector file is: the build script embeds the files it finds
//! under `vectors/`, and `conformance run --vectors DIR` loads the ones it finds under
//! `DIR`, so the two always agree. A build script cannot depend on its own crate, so
//! `build.rs` pulls this file in with `#[path]`: it must stay free of `crate::` paths and
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

/// Appends the vector files under `dir` to `files`. A folder that cannot be listed, an
/// entry that cannot be read, and an entry whose kind cannot be known (its `stat` fails:
/// a dangling link, a path too long, no permission) are appended to `errors`, each with
/// its path, never skipped in silence: the caller decides (`conformance run` stops, exit
/// 2; so does the build script).
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
    let mut paths = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) => paths.push(entry.path()),
            Err(e) => errors.push((dir.to_path_buf(), e)),
        }
    }
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // `metadata` follows links; what it cannot tell is an error, not "not a folder".
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => walk(&path, files, errors, seen),
            Ok(_) => {
                if name.ends_with(".json") && !name.ends_with(".schema.json") {
                    files.push(path);
                }
            }
            Err(e) => errors.push((path, e)),
        }
    }
}
