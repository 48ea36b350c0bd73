//! Each guarantee holds in every tool that talks to an adapter — `run`, `exhaustive
//! --adapter` and `fuzz --adapter` — because they share one core (the process client, the
//! hello's reader, the judge): wrong answers stay bounded, a hello is read strictly, a
//! case sent is judged, never dropped; and the edges of the command line (a help that
//! cannot be written, vector folders with entries that cannot be read, `serve` fed a line
//! of millions of chunks, `generate` over a symbolic link).
use crate::common::process::{capped, run as finish, scratch, Finished};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The address space a tool gets in the memory tests: 256 MiB.
const CEILING: u64 = 256 << 20;

/// An adapter declaring `utf-8 decode (lossy)` that answers every case (one per line, or
/// in batches of its second argument) with a wrong `lossy` list of `"U+10FFFF"` items, the
/// line just under its first argument in bytes.
const WRONG_LOSSY: &str = r#"import json, sys
CAP, BATCH = int(sys.argv[1]), int(sys.argv[2])
def answer(rid, budget):
    n = max(1, (budget - len(rid) - 24) // 11)
    return '{"id":%s,"lossy":[%s]}' % (rid, ",".join(['"U+10FFFF"'] * n))
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    req = json.loads(line)
    if req.get("op") == "hello":
        hello = {"id": "hello", "protocol": 2, "name": "wrong",
                 "supports": [{"encoding": "utf-8", "op": "decode", "fields": ["lossy"]}]}
        if BATCH:
            hello["batch"] = BATCH
        text = json.dumps(hello)
    elif req.get("op") == "batch":
        share = (CAP - 64) // len(req["requests"]) - 2
        text = '{"id":%s,"responses":[%s]}' % (json.dumps(req["id"]),
            ",".join(answer(json.dumps(r["id"]), share) for r in req["requests"]))
    else:
        text = answer(json.dumps(req["id"]), CAP - 2)
    out.write(text.encode() + b"\n")
    out.flush()
"#;

/// Runs `args` (the adapter's command given as `WRONG`) with every answer wrong and just
/// under `cap`, under [`CEILING`]: the verdict is printed (FAIL, exit 1).
fn wrong_everywhere(name: &str, cap: usize, batch: usize, args: &[&str]) -> Finished {
    let dir = scratch("every_tool", name);
    std::fs::write(dir.join("wrong.py"), WRONG_LOSSY).unwrap();
    let adapter = format!("wrong=ulimit -S -v unlimited; exec python3 wrong.py {cap} {batch}");
    let cap = cap.to_string();
    let mut all: Vec<&str> = args
        .iter()
        .map(|a| if *a == "WRONG" { adapter.as_str() } else { a })
        .collect();
    all.extend(["--max-line-bytes", &cap]);
    finish(&mut capped(&dir, CEILING, &all))
}

/// Every answer wrong and 4 MiB long: `exhaustive --adapter` and `fuzz --adapter` stay
/// under 256 MiB and print their verdict. Before, each collected a round's answers
/// before judging them (256 of them: 1 GB), and at 16 MiB aborted with no verdict.
#[test]
fn exhaustive_and_fuzz_with_every_answer_wrong_stay_under_256_mib() {
    if !crate::common::prereq::python3() {
        return;
    }
    let cap = 4 << 20;
    for batch in [0, 64] {
        let out = wrong_everywhere(
            &format!("exhaustive-{batch}"),
            cap,
            batch,
            &[
                "exhaustive",
                "--adapter",
                "WRONG",
                "--max-len",
                "1",
                "--op",
                "decode",
                "--encoding",
                "utf-8",
                "--max-failures",
                "1000",
                "--out",
                "out",
            ],
        );
        assert_eq!(out.code(), Some(1), "{}\n{}", out.stdout, out.stderr);
        assert!(
            out.stdout.contains("FAIL: 256 disagreement(s)"),
            "{}\n{}",
            out.stdout,
            out.stderr
        );
        let out = wrong_everywhere(
            &format!("fuzz-{batch}"),
            cap,
            batch,
            &[
                "fuzz",
                "--adapter",
                "WRONG",
                "--seconds",
                "2",
                "--seed",
                "1",
                "--op",
                "decode",
                "--out",
                "out",
            ],
        );
        assert_eq!(out.code(), Some(1), "{}\n{}", out.stdout, out.stderr);
        assert!(
            out.stdout.contains("FAIL: ") && out.stdout.contains("class(es) of disagreement"),
            "{}\n{}",
            out.stdout,
            out.stderr
        );
    }
}

/// A hello whose declarations the runner could misread is refused the same way by every
/// tool: `run` fails the adapter (exit 1), `exhaustive` and `fuzz` do not start (exit 2),
/// each naming what is wrong. Before, `run` dropped a second declaration of the same
/// encoding and operation in silence (and passed), and `UTF-8` was ignored by all three
/// while the header printed "declared: UTF-8 decode".
#[test]
fn every_tool_refuses_a_hello_it_could_misread() {
    if !crate::common::prereq::python3() {
        return;
    }
    let honest = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/corrected_utf8.py");
    for (name, supports, says) in [
        (
            "twice",
            r#"[{"encoding": "utf-8", "op": "decode", "fields": ["lossy"]},
                {"encoding": "utf-8", "op": "decode", "fields": ["valid"]}]"#,
            "items 0 and 1 both declare utf-8 decode",
        ),
        (
            "uppercase",
            r#"[{"encoding": "UTF-8", "op": "decode", "fields": ["lossy"]}]"#,
            "declares the encoding \\\"UTF-8\\\"",
        ),
    ] {
        let dir = scratch("every_tool", &format!("hello-{name}"));
        // The honest adapter's answers, under a hello of ours.
        let script = format!(
            "import sys, json\nsys.path.insert(0, {:?})\nimport corrected_utf8 as h\n\
             h.HELLO = dict(h.HELLO, supports=json.loads('''{supports}'''))\nh.main()\n",
            honest.parent().unwrap()
        );
        std::fs::write(dir.join("a.py"), script).unwrap();
        let adapter = "x=python3 a.py";
        let run = finish(
            crate::common::process::conformance()
                .current_dir(&dir)
                .args(["run", "--adapter", adapter, "--encoding", "utf-8"]),
        );
        assert_eq!(run.code(), Some(1), "{}\n{}", run.stdout, run.stderr);
        let says_plain = says.replace("\\\"", "\"");
        assert!(
            run.stdout.contains(&says_plain) || run.stdout.contains(says),
            "{}",
            run.stdout
        );
        for tool in [
            &["exhaustive", "--adapter", adapter, "--max-len", "1"][..],
            &["fuzz", "--adapter", adapter, "--seconds", "1"][..],
        ] {
            let out = finish(
                crate::common::process::conformance()
                    .current_dir(&dir)
                    .args(tool),
            );
            assert_eq!(
                out.code(),
                Some(2),
                "{tool:?}: {}\n{}",
                out.stdout,
                out.stderr
            );
            assert!(out.stderr.contains(&says_plain), "{tool:?}: {}", out.stderr);
        }
    }
}

/// `fuzz --seconds N` judges every case it sent: an adapter that hangs on inputs holding
/// a `C0` byte fails (its case is a timeout, a disagreement), however short the run.
/// Before, at `--seconds 10` the hang was cut short by the deadline, went unjudged, and
/// the run printed PASS (exit 0).
#[test]
fn fuzz_judges_a_case_still_waiting_when_time_runs_out() {
    if !crate::common::prereq::python3() {
        return;
    }
    let dir = scratch("every_tool", "fuzz-hang");
    let honest = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/corrected_utf8.py");
    let script = format!(
        r#"import sys, json, time
sys.path.insert(0, {dir:?})
import corrected_utf8 as h
h.HELLO = dict(h.HELLO, supports=[
    {{"encoding": "corrected-utf8", "op": "decode", "fields": ["output"]}}])
h.HELLO.pop("batch", None)
handle = h.handle_line
def hanging(line):
    req = json.loads(line)
    text = req.get("input") or ""
    if any(text[i:i + 2] == "c0" for i in range(0, len(text), 2)):
        time.sleep(3600)
    return handle(line)
h.serve(sys.stdin.buffer, sys.stdout, hanging)
"#,
        dir = honest.parent().unwrap()
    );
    std::fs::write(dir.join("hang.py"), script).unwrap();
    let out = finish(
        crate::common::process::conformance()
            .current_dir(&dir)
            .args([
                "fuzz",
                "--adapter",
                "hang=exec python3 hang.py",
                "--seconds",
                "2",
                "--timeout",
                "1",
                "--seed",
                "1",
                "--out",
                "out",
            ]),
    );
    assert_eq!(out.code(), Some(1), "{}\n{}", out.stdout, out.stderr);
    assert!(!out.stdout.contains("PASS"), "{}", out.stdout);
    assert!(
        out.stdout.contains(": TIMEOUT") && out.stdout.contains("FAIL: "),
        "{}",
        out.stdout
    );
}

/// `--help` and `--version` that cannot be written (a full disk) are exit 2, as any other
/// output that is lost (before: 0).
#[test]
fn a_help_that_cannot_be_written_is_exit_2() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["run", "--help"],
        &["fuzz", "-h"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = crate::common::process::conformance()
            .args(args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("cannot write to standard output"),
            "{args:?}: {stderr}"
        );
        // Written where it can be, it is exit 0.
        let ok = crate::common::process::conformance()
            .args(args)
            .output()
            .unwrap();
        assert_eq!(ok.status.code(), Some(0), "{args:?}");
        assert!(!ok.stdout.is_empty());
    }
}

/// A vector folder's entry that cannot be read or whose kind cannot be known is an error
/// naming it (exit 2), never a file left out: a dangling `*.json` link, and a valid file
/// 3,000 folders deep (its path too long to stat). Before: "1 vector file(s)", exit 0.
#[test]
fn vector_discovery_names_what_it_cannot_read() {
    let dir = scratch("every_tool", "discovery");
    let vectors = dir.join("vectors");
    std::fs::create_dir_all(&vectors).unwrap();
    let one = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/utf-8/encode.json");
    std::fs::copy(&one, vectors.join("encode.json")).unwrap();
    let run = |dir: &Path| {
        finish(
            crate::common::process::conformance()
                .current_dir(dir)
                .args(["run", "--vectors", "vectors"]),
        )
    };
    let ok = run(&dir);
    assert_eq!(ok.code(), Some(0), "{}\n{}", ok.stdout, ok.stderr);
    std::os::unix::fs::symlink("nowhere.json", vectors.join("gone.json")).unwrap();
    let out = run(&dir);
    assert_eq!(out.code(), Some(2), "{}", out.stdout);
    assert!(
        out.stderr.contains("gone.json") && out.stderr.contains("cannot read"),
        "{}",
        out.stderr
    );
    std::fs::remove_file(vectors.join("gone.json")).unwrap();
    if !crate::common::prereq::python3() {
        return;
    }
    // 3,000 folders deep, made one step at a time (no path to it fits PATH_MAX).
    let deep = Command::new("python3")
        .current_dir(&vectors)
        .args([
            "-c",
            "import os, shutil, sys\nsrc = os.path.abspath(sys.argv[1])\n\
             for _ in range(3000):\n    os.mkdir('d')\n    os.chdir('d')\n\
             shutil.copy(src, 'deep.json')\n",
            one.to_str().unwrap(),
        ])
        .status()
        .unwrap();
    assert!(deep.success());
    let out = run(&dir);
    assert_eq!(out.code(), Some(2), "{}", out.stdout);
    assert!(out.stderr.contains("cannot read"), "{}", out.stderr);
    // Cleaned up the same way (rm would also meet the long path).
    let _ = Command::new("python3")
        .current_dir(&vectors)
        .args(["-c", "import shutil; shutil.rmtree('d')"])
        .status();
}

/// `serve` fed a line of millions of empty chunks keeps its memory near the line's own
/// size (before: 586 MB for a 63 MB line), and the id of a line over its cap is read no
/// further than the cap: a 70 MiB id comes back as null, not whole.
#[test]
fn serve_is_bounded_by_the_line_it_reads() {
    let dir = scratch("every_tool", "serve");
    // 48 MiB: a decode request with 16 million empty chunks.
    let n = 16 << 20;
    let mut line =
        br#"{"id":"big","encoding":"utf-8","op":"decode","input":"41","chunks":["41""#.to_vec();
    line.extend(std::iter::repeat_n(&b",\"\""[..], n).flatten());
    line.extend_from_slice(b"]}\n");
    let len = line.len() as u64;
    // An id of 70 MiB on a line over the default cap of 64 MiB.
    let mut long = br#"{"id":""#.to_vec();
    long.extend(std::iter::repeat_n(b'i', 70 << 20));
    long.extend_from_slice(b"\",\"op\":\"decode\",\"encoding\":\"utf-8\",\"input\":\"41\"}\n");
    let input = dir.join("in");
    let mut all = line;
    all.extend(long);
    std::fs::write(&input, all).unwrap();
    let ceiling = 4 * len + (64 << 20);
    let out = capped(&dir, ceiling, &["serve"])
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 2, "{}", &text[..text.len().min(500)]);
    assert_eq!(answers[0]["id"], "big");
    assert_eq!(answers[0]["output"][0]["codepoint"], "U+0041");
    assert_eq!(answers[0]["result"], "valid");
    assert_eq!(
        answers[1]["id"],
        serde_json::Value::Null,
        "the long id is not echoed"
    );
    assert_eq!(answers[1]["unsupported"], true);
    assert!(text.len() < 1 << 20, "{} bytes of answers", text.len());
}

/// `generate --vectors DIR` replaces a symbolic link at a vector's path by the file; the
/// link's target (here outside DIR) is left as it was. Before, it was written through.
#[test]
fn generate_replaces_a_link_instead_of_writing_through_it() {
    let dir = scratch("every_tool", "generate-link");
    let vectors = dir.join("vectors");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors");
    copy_tree(&source, &vectors);
    // The link's target: the same vectors, with a mark of its own after them.
    let outside = dir.join("outside.json");
    let mut kept = std::fs::read(source.join("utf-8/encode.json")).unwrap();
    kept.extend_from_slice(b"\n");
    std::fs::write(&outside, &kept).unwrap();
    let target = vectors.join("utf-8/encode.json");
    std::fs::remove_file(&target).unwrap();
    std::os::unix::fs::symlink(&outside, &target).unwrap();
    let check = finish(crate::common::process::conformance().args([
        "generate",
        "--check",
        "--vectors",
        vectors.to_str().unwrap(),
    ]));
    assert_ne!(check.code(), Some(0));
    assert!(
        check.stderr.contains("is a symbolic link"),
        "{}",
        check.stderr
    );
    let out = finish(crate::common::process::conformance().args([
        "generate",
        "--vectors",
        vectors.to_str().unwrap(),
    ]));
    assert_eq!(out.code(), Some(0), "{}", out.stderr);
    assert_eq!(
        std::fs::read(&outside).unwrap(),
        kept,
        "the target was written through"
    );
    let meta = std::fs::symlink_metadata(&target).unwrap();
    assert!(meta.file_type().is_file(), "the link was not replaced");
    assert_eq!(
        std::fs::read(&target).unwrap(),
        std::fs::read(source.join("utf-8/encode.json")).unwrap()
    );
}

fn copy_tree(from: &Path, to: &PathBuf) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let dest = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).unwrap();
        }
    }
}
