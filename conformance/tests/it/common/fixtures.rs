//! Small vector files the runner's integration tests share (their scratch folders come
//! from [`super::process::scratch`]).

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
