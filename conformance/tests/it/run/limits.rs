//! Memory ceilings, proved under `setrlimit(RLIMIT_AS)`, and the "Limits" table of
//! `docs/gating.md` pinned to the code.
//!
//! * An adapter that answers every case of every vector file wrongly, each answer just
//!   under the line cap, leaves the runner within [`CEILING`] of address space, and the
//!   run completes with every report written: a wrong answer is kept as a bounded excerpt,
//!   and an answer line is read as its text, a list item at a time, never as a tree of
//!   JSON values.
//! * `conformance serve` writes an answer of half a gigabyte within the same ceiling, as
//!   it decodes, and a request over its cap is answered with its id and why.
//!
//! The runner gets the limit (the adapters raise their own soft limit back), and
//! `MALLOC_ARENA_MAX=1`: glibc otherwise reserves 64 MiB of address space per thread's
//! arena, which `RLIMIT_AS` counts though it is never touched.
#![cfg(target_os = "linux")]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The address space the runner and `serve` get: 256 MiB.
const CEILING: u64 = 256 << 20;

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    crate::common::process::scratch("limits", name)
}

/// `conformance ARGS` in `dir` with at most [`CEILING`] of address space.
fn capped(dir: &Path, args: &[&str]) -> Command {
    crate::common::process::capped(dir, CEILING, args)
}

/// An adapter that declares every encoding and operation and answers every case wrongly,
/// each answer line as close under `CAP` (its first argument) as it can: `output` a list
/// of wrong code points, `bytes` a long wrong hex string, `findings` a list of wrong
/// findings. With a second argument N > 0 it declares batches of up to N, whose responses
/// share the cap.
const WRONG: &str = r#"import json, sys
CAP = int(sys.argv[1])
BATCH = int(sys.argv[2])
ITEM = {"decode": ("output", '{"codepoint":"U+0042"}'),
        "document": ("findings", '{"kind":"nul","severity":"error","offset":9,"line":9,"column":9}'),
        "encode": ("bytes", None)}
bodies = {}

def body(op, budget):
    key = (op, budget)
    if key not in bodies:
        field, item = ITEM[op]
        if item is None:
            bodies[key] = '"%s":"%s"' % (field, "ab" * max(1, (budget - 12) // 2))
        else:
            n = max(1, (budget - len(field) - 6) // (len(item) + 1))
            bodies[key] = '"%s":[%s]' % (field, ",".join([item] * n))
    return bodies[key]

def answer(req, budget):
    rid = json.dumps(req["id"])
    return '{"id":%s,%s}' % (rid, body(req["op"], budget - len(rid) - 10))

supports = [{"encoding": e, "op": o, "fields": [ITEM[o][0]]}
            for e in ["corrected-utf8", "utf-8", "utf-inf-8"] for o in ["decode", "encode"]]
supports.append({"encoding": "corrected-utf8", "op": "document", "fields": ["findings"]})
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    req = json.loads(line)
    if req.get("op") == "hello":
        hello = {"id": "hello", "protocol": 2, "name": "wrong", "supports": supports}
        if BATCH:
            hello["batch"] = BATCH
        text = json.dumps(hello)
    elif req.get("op") == "batch":
        share = (CAP - 64) // len(req["requests"]) - 2
        text = '{"id":%s,"responses":[%s]}' % (
            json.dumps(req["id"]), ",".join(answer(r, share) for r in req["requests"]))
    else:
        text = answer(req, CAP - 2)
    out.write(text.encode() + b"\n")
    out.flush()
"#;

/// Runs the wrong adapter with answer lines just under `cap` (and batches of up to
/// `batch`, 0: none) over `vectors` (none: the embedded ones), capped, with every report:
/// the output and the JSON report.
fn run_wrong(
    name: &str,
    cap: usize,
    batch: usize,
    vectors: Option<&str>,
) -> (Output, Value, PathBuf) {
    let dir = scratch(name);
    std::fs::write(dir.join("wrong.py"), WRONG).unwrap();
    if let Some(file) = vectors {
        std::fs::create_dir_all(dir.join("vectors")).unwrap();
        std::fs::write(dir.join("vectors/decode.json"), file).unwrap();
    }
    let adapter = format!("wrong=ulimit -S -v unlimited; exec python3 wrong.py {cap} {batch}");
    let cap = cap.to_string();
    let mut args = vec![
        "run",
        "--adapter",
        &adapter,
        // An answer of almost 16 MiB, made by Python and read by the runner, on a loaded
        // machine: the default 5 s per case is a bound too tight for it (it timed out
        // under load). These tests are about memory; the timeout only bounds a hang.
        "--timeout",
        "300",
        "--max-line-bytes",
        &cap,
        "--json",
        "r.json",
        "--junit",
        "r.xml",
        "--html",
        "r.html",
    ];
    if vectors.is_some() {
        args.extend(["--vectors", "vectors"]);
    }
    let out = capped(&dir, &args).output().unwrap();
    let report = std::fs::read_to_string(dir.join("r.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    (out, report, dir)
}

/// Every result failed on the field answered, and was kept small.
fn check_wrong(out: &Output, report: &Value, dir: &Path, cap: usize) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}\n{stdout}");
    let results = report["implementations"][0]["results"].as_array().unwrap();
    let mut longest = 0;
    for r in results {
        assert_eq!(r["status"], "fail", "{r}");
        let m = &r["mismatches"][0];
        let kept = m.to_string().len();
        assert!(kept <= 8192, "{} keeps {kept} bytes", r["id"]);
        longest = longest.max(m["gotLength"].as_u64().unwrap());
    }
    assert!(
        longest as usize > cap / 2,
        "the answers were not large: {longest}"
    );
    for file in ["r.json", "r.xml", "r.html"] {
        let len = std::fs::metadata(dir.join(file)).unwrap().len();
        assert!(len > 0, "{file} is empty");
    }
    assert!(
        stderr.contains("conformance run: json report written: r.json"),
        "{stderr}"
    );
}

#[test]
fn answers_just_under_the_default_line_cap_leave_the_runner_under_256_mib() {
    if !crate::common::prereq::python3() {
        return;
    }
    // 48 decode cases, each answered with a line of almost 16 MiB: ~45 times that as
    // JSON values, or all of them kept, would be far over the ceiling.
    let tests: Vec<String> = (1..=48)
        .map(|i| format!(r#"{{"tcId": {i}, "comment": "A", "flags": [], "input": "41", "output": [{{"codepoint": "U+0041"}}], "result": "valid"}}"#))
        .collect();
    let file = format!(
        r#"{{"schema": "decode", "encoding": "utf-8", "version": "0.0.1", "numberOfTests": 48,
 "header": ["limits"], "notes": {{}}, "testGroups": [{{"comment": "", "tests": [{}]}}]}}"#,
        tests.join(",\n")
    );
    let cap = conformance::adapter::DEFAULT_MAX_LINE;
    let (out, report, dir) = run_wrong("default-cap", cap, 0, Some(&file));
    check_wrong(&out, &report, &dir, cap);
    assert_eq!(report["counts"]["fail"], 48);
    // In batches: the first case alone, then the other 47 on one line of almost 16 MiB.
    let (out, report, dir) = run_wrong("default-cap-batches", cap, 64, Some(&file));
    check_wrong(&out, &report, &dir, cap);
    assert_eq!(report["counts"]["fail"], 48);
    assert_eq!(report["implementations"][0]["batches"]["sent"], 1);
}

#[test]
fn every_case_of_every_vector_file_answered_wrongly_stays_under_256_mib() {
    if !crate::common::prereq::python3() {
        return;
    }
    // The embedded vectors, each answer as large as the cap lets it be.
    let cap = 256 << 10;
    let (out, report, dir) = run_wrong("every-file", cap, 0, None);
    check_wrong(&out, &report, &dir, cap);
    // The adapter declares no `codepoints`: the string encode files are not sent to it.
    let cases = report["vectorFiles"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            !f["file"]
                .as_str()
                .unwrap_or("")
                .ends_with("encode-string.json")
        })
        .map(|f| f["cases"].as_u64().unwrap())
        .sum::<u64>();
    assert!(cases > 3000, "{cases}");
    assert_eq!(report["counts"]["fail"], cases);
}

#[test]
fn serve_writes_half_a_gigabyte_answer_under_256_mib_as_it_decodes() {
    let dir = scratch("serve");
    let input = 8 << 20;
    let limit = input.to_string();
    let mut serve = capped(&dir, &["serve", "--max-input-bytes", &limit])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = serve.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // 8 MiB of `ff`: an error span per byte.
        let request = |id: &str, bytes: usize| {
            format!(
                r#"{{"id":"{id}","encoding":"utf-8","op":"decode","input":"{}"}}"#,
                "ff".repeat(bytes)
            )
        };
        writeln!(stdin, "{}", request("big", input)).unwrap();
        writeln!(stdin, "{}", request("over", input + 1)).unwrap();
    });
    let mut stdout = BufReader::with_capacity(1 << 20, serve.stdout.take().unwrap());
    // The first answer, read in pieces: its length and its error events.
    let (mut length, mut events, mut tail) = (0usize, 0usize, Vec::new());
    loop {
        let buf = stdout.fill_buf().unwrap();
        assert!(!buf.is_empty(), "serve ended after {length} bytes");
        let (piece, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], true),
            None => (buf, false),
        };
        // Count `{"error":` across piece boundaries: keep the last 9 bytes.
        tail.extend_from_slice(piece);
        events += tail.windows(9).filter(|w| w == br#"{"error":"#).count();
        let keep = tail.len().min(8);
        tail.drain(..tail.len() - keep);
        length += piece.len();
        let n = piece.len() + usize::from(done);
        stdout.consume(n);
        if done {
            break;
        }
    }
    assert_eq!(events, input, "one error event per byte");
    assert!(length > 400 << 20, "{length} bytes");
    let mut second = String::new();
    stdout.read_line(&mut second).unwrap();
    let second: Value = serde_json::from_str(&second).unwrap();
    assert_eq!(
        second,
        serde_json::json!({"id": "over", "unsupported": true,
                           "reason": format!("input over {input} bytes")})
    );
    writer.join().unwrap();
    let status = serve.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(rest.is_empty(), "{rest}");
}

/// The "Limits" table of docs/gating.md: each row's first cell, and the whole row.
fn limits_table() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/gating.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("Limits"))
        .expect("docs/gating.md has a Limits section");
    section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| limit") && !l.starts_with("|---"))
        .map(|l| {
            let first = l.split('|').nth(1).unwrap_or_default().trim().to_string();
            (first, l.to_string())
        })
        .collect()
}

#[test]
fn the_limits_table_is_what_the_code_does() {
    use conformance::judge::verdict;
    use conformance::protocol::hello as handshake;
    use conformance::{adapter, serve};
    let table = limits_table();
    let row = |name: &str| {
        table
            .iter()
            .find(|(first, _)| first == name)
            .map(|(_, row)| row.clone())
            .unwrap_or_else(|| panic!("no row {name:?} in {table:?}"))
    };
    let has = |name: &str, what: String| {
        let r = row(name);
        assert!(r.contains(&what), "row {name:?} lacks {what:?}: {r}");
    };
    has(
        "answer line",
        format!("{} bytes", conformance::adapter::DEFAULT_MAX_LINE),
    );
    has("answer line", "`--max-line-bytes`".into());
    has("runner memory", format!("{} MiB", CEILING >> 20));
    has(
        "wrong answer kept",
        format!("{} bytes", verdict::MAX_EXCERPT),
    );
    has("hello answer", format!("{} bytes", handshake::MAX_HELLO));
    has(
        "`serve` request input",
        format!("{} bytes", serve::DEFAULT_MAX_INPUT),
    );
    has(
        "`serve` request line",
        format!("{} bytes", serve::DEFAULT_MAX_REQUEST_LINE),
    );
    has(
        "flush hint",
        format!("{} s", adapter::FLUSH_HINT_AFTER.as_secs()),
    );
    has(
        "`--deadline`",
        format!("{} s", conformance::run::MAX_DEADLINE_SECS),
    );
    has("per case", "`--timeout`".into());
    // The defaults that --help prints are the table's.
    let help = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains(&format!("[default: {}]", serve::DEFAULT_MAX_INPUT)),
        "{help}"
    );
}
