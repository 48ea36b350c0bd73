//! Fixtures the runner's integration tests share: scratch folders and small vector files.
#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};

/// A fresh folder `group/name` under the target directory.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A UTF-8 decode file of `n` cases: odd tcIds `41` (valid), even ones `c0` (invalid).
pub fn decode_file(header: &str, n: usize) -> String {
    let tests: Vec<String> = (1..=n)
        .map(|i| {
            if i % 2 == 1 {
                format!(r#"{{"tcId": {i}, "comment": "A", "flags": [], "input": "41", "output": [{{"codepoint": "U+0041"}}], "result": "valid"}}"#)
            } else {
                format!(r#"{{"tcId": {i}, "comment": "C0", "flags": [], "input": "c0", "output": [{{"error": "overlong", "offset": 0, "length": 1}}], "result": "invalid"}}"#)
            }
        })
        .collect();
    format!(
        r#"{{"schema": "decode", "encoding": "utf-8", "version": "0.0.1", "numberOfTests": {n},
 "header": ["{header}"], "notes": {{}},
 "testGroups": [{{"comment": "", "tests": [
{}
]}}]}}
"#,
        tests.join(",\n")
    )
}
