//! The manifest hash: one SHA-256 that names a set of vector files as a whole, so that an
//! importer can say exactly which vectors gated a release (`docs/gating.md` §5; the
//! release's `MANIFEST.json` carries it as `manifestSha256`).
//!
//! It is the SHA-256 of the lines `"<sha256 of the file, lowercase hex>  <path>\n"`, one
//! per vector file (`*.json` but `*.schema.json`), `path` relative to `vectors/` with `/`
//! separators, sorted by path bytewise: exactly what `sha256sum` prints, so from a shell
//! in `vectors/`:
//!
//! ```text
//! find . -name '*.json' ! -name '*.schema.json' | sed 's|^\./||' | LC_ALL=C sort |
//!   xargs sha256sum | sha256sum
//! ```

use sha2::{Digest, Sha256};

/// The manifest hash of `files`, given as (path relative to `vectors/` with `/`, bytes),
/// in any order: lowercase hex, 64 digits.
pub fn sha256<'a, I>(files: I) -> String
where
    I: IntoIterator<Item = (&'a str, &'a [u8])>,
{
    let mut manifest = Manifest::default();
    for (path, bytes) in files {
        manifest.add(path, bytes);
    }
    manifest.sha256()
}

/// A manifest built a file at a time, holding only each file's digest (for files read
/// one after the other).
#[derive(Clone, Debug, Default)]
pub struct Manifest {
    /// (path, SHA-256 of the file in lowercase hex).
    lines: Vec<(String, String)>,
}

impl Manifest {
    /// Adds a vector file: its path relative to `vectors/` (with `/`) and its bytes.
    pub fn add(&mut self, path: &str, bytes: &[u8]) {
        self.lines
            .push((path.to_owned(), hex(&Sha256::digest(bytes))));
    }

    /// How many files were added.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether no file was added.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The manifest hash of the files added: lowercase hex, 64 digits.
    pub fn sha256(&self) -> String {
        let mut lines: Vec<&(String, String)> = self.lines.iter().collect();
        // Bytewise, as `LC_ALL=C sort`: `str`'s order is its UTF-8 bytes' order.
        lines.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut manifest = Sha256::new();
        for (path, digest) in lines {
            manifest.update(digest.as_bytes());
            manifest.update(b"  ");
            manifest.update(path.as_bytes());
            manifest.update(b"\n");
        }
        hex(&manifest.finalize())
    }
}

fn hex(bytes: &[u8]) -> String {
    crate::model::to_hex(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_sha256sum_piped_into_sha256sum() {
        // printf 'b' >b.json; printf 'a' >x/a.json; sha256sum b.json x/a.json | sha256sum
        // gives the same as in sorted order, which puts "b.json" before "x/a.json".
        let files = [("x/a.json", &b"a"[..]), ("b.json", &b"b"[..])];
        let lines = "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d  b.json\n\
                     ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb  x/a.json\n";
        assert_eq!(sha256(files), hex(&Sha256::digest(lines.as_bytes())));
        // The empty set hashes the empty text.
        assert_eq!(
            sha256([]),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn sorts_bytewise_not_by_locale() {
        // Uppercase before lowercase, '-' (0x2D) before '/' (0x2F) before '_' (0x5F).
        let files = [
            ("a_b", &b""[..]),
            ("a/b", &b""[..]),
            ("a-b", &b""[..]),
            ("B", &b""[..]),
        ];
        let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        let lines: String = ["B", "a-b", "a/b", "a_b"]
            .iter()
            .map(|p| format!("{empty}  {p}\n"))
            .collect();
        assert_eq!(sha256(files), hex(&Sha256::digest(lines.as_bytes())));
    }
}
