//! File names that hold control characters reach the terminal as text: in the human and
//! short formats, a tree's summary lines and the messages on stderr, each C0 (ESC, BEL),
//! DEL and C1 (CSI, OSC) character of a name is written as its escape `\u{1b}`; the JSON
//! format escapes them as JSON does (`\u001b`, DEL and C1 included) and keeps the exact
//! name.

use crate::common::{run_in, scratch};

/// A name that would set the terminal's title (OSC … BEL), clear the screen (ESC [ 2J),
/// and start an 8-bit CSI and OSC (U+009B, U+009D), with a DEL and a tab.
const NAME: &str = "evil\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{9d}x\u{7f}\t.txt";

/// [`NAME`] as the human and short formats show it.
const SHOWN: &str = r"evil\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{9d}x\u{7f}\u{9}.txt";

/// Whether `text` has a control character other than a newline.
fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect()
}

#[test]
fn control_characters_in_file_names_are_escaped_in_every_format() {
    let dir = scratch("names");
    std::fs::create_dir(dir.join("tree")).unwrap();
    // A NUL byte: an error finding, so that the name is printed with it.
    std::fs::write(dir.join("tree").join(NAME), b"a\0b\n").unwrap();
    let file = format!("tree/{NAME}");

    for format in ["human", "short"] {
        for target in [file.as_str(), "tree"] {
            let out = run_in(&dir, &["check", "--format", format, target], b"");
            let stdout = String::from_utf8(out.stdout).unwrap();
            assert_eq!(out.status.code(), Some(1), "{format} {target}: {stdout:?}");
            assert_eq!(
                raw_controls(&stdout),
                Vec::<char>::new(),
                "{format} {target}: {stdout:?}"
            );
            assert!(
                stdout.contains(&format!("tree/{SHOWN}")),
                "{format} {target}: {stdout:?}"
            );
        }
    }
    // The tree's summary line for the file.
    let out = run_in(&dir, &["check", "--format", "short", "tree"], b"");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains(&format!("tree/{SHOWN}: 1 error, 1 warning\n")),
        "{stdout:?}"
    );

    // JSON: escaped by JSON, the exact name when read back.
    for target in [file.as_str(), "tree"] {
        let out = run_in(&dir, &["check", "--format", "json", target], b"");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            raw_controls(&stdout),
            Vec::<char>::new(),
            "json {target}: {stdout:?}"
        );
        let names: Vec<String> = stdout
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter_map(|v| v["file"].as_str().map(str::to_string))
            .collect();
        assert!(!names.is_empty(), "{stdout}");
        assert!(names.iter().all(|n| *n == file), "{names:?}");
    }

    // Messages on stderr: a file that cannot be opened, in each command that reads one.
    let missing = format!("{file}.missing");
    for args in [
        vec!["check", missing.as_str()],
        vec!["decode", missing.as_str()],
        vec!["encode", "--from-utf8", missing.as_str()],
        vec![
            "transcode",
            "--from",
            "utf-8",
            "--to",
            "corrected-utf8",
            missing.as_str(),
        ],
    ] {
        let out = run_in(&dir, &args, b"");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr:?}");
        assert_eq!(
            raw_controls(&stderr),
            Vec::<char>::new(),
            "{args:?}: {stderr:?}"
        );
        assert!(
            stderr.contains(&format!("tree/{SHOWN}.missing")),
            "{args:?}: {stderr:?}"
        );
    }
}
