//! The files a command names (the script, the binary), each with the SHA-256 of its
//! content: what a checkpoint of an adapter binds to besides the command's text.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest file of the command hashed whole for a checkpoint's identity; a larger one
/// is named with its size and modification time.
const MAX_HASHED_FILE: u64 = 1 << 30;

/// The words of a command that name an existing regular file (relative to the current
/// folder, or, for the first word without a `/`, found on `PATH`), each with the SHA-256
/// of its content: what a checkpoint of an adapter binds to besides the command's text.
/// Words are split as `sh` would split plain words (quotes removed); a file larger than
/// 1 GiB is named by its size and modification time instead.
pub fn command_files(command: &str) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for (i, word) in shell_words(command).into_iter().enumerate() {
        let path = PathBuf::from(&word);
        let found = if path.is_file() {
            Some(path)
        } else if i == 0 && !word.contains('/') {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join(&word))
                    .find(|p| p.is_file())
            })
        } else {
            None
        };
        if let Some(path) = found {
            files.insert(word, file_digest(&path));
        }
    }
    files
}

/// `sha256:HEX` of a regular file, or why it could not be read.
fn file_digest(path: &Path) -> String {
    let describe = |e: std::io::Error| format!("unreadable: {}", e.kind());
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return describe(e),
    };
    if meta.len() > MAX_HASHED_FILE {
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        return format!("size {} modified {mtime}", meta.len());
    }
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return describe(e),
    };
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return describe(e),
        }
    }
    let hex: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// The words of a command line as `sh` splits plain words: whitespace separates, single
/// and double quotes group (a backslash escapes the next character outside single
/// quotes). Expansions are left as they are (such a word names no file).
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_is_split_into_words_as_sh_splits_them() {
        assert_eq!(shell_words("python3 a.py"), ["python3", "a.py"]);
        assert_eq!(
            shell_words(r#"sh -c 'exec ./x' "a b" c\ d"#),
            ["sh", "-c", "exec ./x", "a b", "c d"]
        );
        assert_eq!(shell_words("  "), Vec::<String>::new());
        assert_eq!(shell_words("''"), [""]);
    }

    #[test]
    fn the_files_a_command_names_are_hashed() {
        let dir = std::env::temp_dir().join(format!("conformance-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("a.py");
        std::fs::write(&script, "print(1)\n").unwrap();
        let command = format!("sh {} --flag", script.display());
        let files = command_files(&command);
        let key = script.display().to_string();
        assert!(files[&key].starts_with("sha256:"), "{files:?}");
        // `sh` is found on PATH; `--flag` names nothing.
        assert!(
            files.contains_key("sh") && !files.contains_key("--flag"),
            "{files:?}"
        );
        let before = files[&key].clone();
        std::fs::write(&script, "print(2)\n").unwrap();
        assert_ne!(command_files(&command)[&key], before);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
