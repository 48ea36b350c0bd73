//! `conformance run` with adapters that declare `"batch": N`: cases go in batches of at
//! most N, and a batch that fails as a whole (wrong count, a wrong id inside, the wrong
//! batch id, not JSON, a line too long, a crash or a hang in the middle) is replayed one
//! case per line, so that every case still gets its own verdict and a crash or hang is
//! pinned to its case. Adapters here are small Python scripts; `conformance serve` is the
//! compiled one.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    crate::common::process::scratch("batch", name)
}

/// A UTF-8 decode file of `n` cases: odd tcIds `41` (valid), even ones `c0` (invalid).
fn decode_file(n: usize) -> String {
    crate::common::fixtures::decode_file("batch test", n)
}

/// An adapter declaring `"batch": 4` and `valid` for UTF-8 decode, answering right,
/// except as `MODE` (its argument) says. It logs `batch N` or `line` per request to
/// `log`, and exits 9 on a batch larger than it declared.
const ADAPTER: &str = r##"import json, os, sys, time
mode = sys.argv[1]
N = 4

def log(what):
    with open("log", "a") as f:
        f.write(what + "\n")

def answer(req):
    rid = req.get("id")
    tc = int(rid.split("#")[1])
    if tc == 7 and mode == "crash":
        sys.exit(3)
    if tc == 7 and mode == "hang":
        with open("pid", "w") as f:
            f.write(str(os.getpid()))
        time.sleep(60)
    if mode == "crash-all":
        sys.exit(3)
    return {"id": rid, "valid": req["input"] == "41"}

for line in sys.stdin:
    req = json.loads(line)
    if req.get("op") == "hello":
        out = {"id": "hello", "protocol": 2, "name": "t", "batch": N,
               "supports": [{"encoding": "utf-8", "op": "decode", "fields": ["valid"]}]}
    elif req.get("op") == "batch":
        log("batch %d" % len(req["requests"]))
        if len(req["requests"]) > N:
            sys.exit(9)
        responses = [answer(r) for r in req["requests"]]
        if mode == "count":
            responses.pop()
        if mode == "id":
            responses[1]["id"] = "t/decode.json#999"
        out = {"id": "batch-0" if mode == "batch-id" else req["id"], "responses": responses}
        if mode == "too-long":
            out["pad"] = "x" * 100000
        if mode == "not-json":
            print("garbage", flush=True)
            continue
    else:
        log("line")
        out = answer(req)
    print(json.dumps(out), flush=True)
"##;

/// `vectors/t/decode.json` with `n` cases and `adapter.py`.
fn setup(name: &str, n: usize) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("vectors/t")).unwrap();
    std::fs::write(dir.join("vectors/t/decode.json"), decode_file(n)).unwrap();
    std::fs::write(dir.join("adapter.py"), ADAPTER).unwrap();
    dir
}

/// Runs the adapter in `mode` over the vectors with `--json r.json`: exit code, stdout,
/// the report, the adapter's log lines.
fn run(dir: &Path, mode: &str, extra: &[&str]) -> (Option<i32>, String, Value, Vec<String>) {
    let _ = std::fs::remove_file(dir.join("log"));
    let out = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .current_dir(dir)
        .args([
            "run",
            "--vectors",
            "vectors",
            "--json",
            "r.json",
            "--report-all",
            "--adapter",
        ])
        .arg(format!("t=python3 adapter.py {mode}"))
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    let log = std::fs::read_to_string(dir.join("log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    (out.status.code(), stdout, report, log)
}

fn validate(report: &Value) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/report.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    crate::common::schema::validate(&schema, report)
}

/// Each case's status, in order.
fn statuses(report: &Value) -> Vec<String> {
    report["implementations"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn an_honest_batch_adapter_gets_batches_of_at_most_what_it_declared() {
    if !crate::common::prereq::python3() {
        return;
    }
    let dir = setup("honest", 12);
    let (code, stdout, report, log) = run(&dir, "honest", &[]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.ends_with("12 passed, 0 failed\n"), "{stdout}");
    // The first case starts the adapter (its declaration unknown until then); the others
    // go in batches of 4 (the adapter exits 9 on a larger one).
    assert_eq!(log, ["line", "batch 4", "batch 4", "batch 3"], "{log:?}");
    assert!(
        stdout.contains("batches: 3 sent (11 cases), 0 fell back"),
        "{stdout}"
    );
    assert!(stdout.contains("batches of up to 4"), "{stdout}");
    let imp = &report["implementations"][0];
    assert_eq!(imp["declared"]["batch"], 4);
    assert_eq!(imp["batches"]["sent"], 3);
    assert_eq!(imp["batches"]["fellBack"], 0);
    assert_eq!(validate(&report), Vec::<String>::new());

    // --batch-size caps it; 1 sends one case per line.
    let (code, _, _, log) = run(&dir, "honest", &["--batch-size", "2"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        log[1..].iter().filter(|l| *l == "batch 2").count(),
        5,
        "{log:?}"
    );
    let (code, _, report, log) = run(&dir, "honest", &["--batch-size", "1"]);
    assert_eq!(code, Some(0));
    assert!(log.iter().all(|l| l == "line"), "{log:?}");
    assert_eq!(report["implementations"][0]["batches"]["sent"], 0);
}

/// A batch answer malformed as a whole: every batch falls back to one case per line,
/// where the adapter answers right, so every case passes.
#[test]
fn malformed_batch_answers_fall_back_to_one_case_per_line() {
    if !crate::common::prereq::python3() {
        return;
    }
    let dir = setup("malformed", 12);
    for (mode, why) in [
        ("count", "3 responses to 4 requests"),
        (
            "id",
            "response 1 has id \"t/decode.json#999\" for request \"t/decode.json#3\"",
        ),
        ("batch-id", "answered id \"batch-0\" to batch \"batch-1\""),
        ("not-json", "not JSON"),
        ("too-long", "an answer line longer than 65536 bytes"),
    ] {
        let (code, stdout, report, log) = run(&dir, mode, &["--max-line-bytes", "65536"]);
        assert_eq!(code, Some(0), "{mode}: {stdout}");
        assert!(
            stdout.ends_with("12 passed, 0 failed\n"),
            "{mode}: {stdout}"
        );
        let batches = &report["implementations"][0]["batches"];
        assert_eq!(batches["fellBack"], 3, "{mode}: {batches}");
        let first = batches["firstFailure"].as_str().unwrap();
        assert!(
            first.starts_with("batch-1: ") && first.contains(why),
            "{mode}: {first}"
        );
        assert!(
            stdout.contains("3 fell back to one case per line (first: batch-1: "),
            "{mode}: {stdout}"
        );
        // Every case was answered on a line of its own in the end.
        assert_eq!(
            log.iter().filter(|l| *l == "line").count(),
            12,
            "{mode}: {log:?}"
        );
        assert_eq!(validate(&report), Vec::<String>::new());
    }
}

#[test]
fn a_crash_in_the_middle_of_a_batch_is_pinned_to_its_case() {
    if !crate::common::prereq::python3() {
        return;
    }
    let dir = setup("crash", 12);
    let (code, stdout, report, log) = run(&dir, "crash", &[]);
    assert_eq!(code, Some(1), "{stdout}");
    let mut want = vec!["pass"; 12];
    want[6] = "crash";
    assert_eq!(statuses(&report), want, "{stdout}");
    assert!(stdout.contains("t/decode.json#7  CRASH"), "{stdout}");
    assert!(stdout.contains("exited with status 3"), "{stdout}");
    assert_eq!(last_line(&stdout), "11 passed, 1 failed");
    // #1 alone, the batch #2-#5, the batch #6-#9 (crashed), its replay on lines, then
    // the batch #10-#12 (sent again: the one in flight died with the process).
    assert_eq!(
        log,
        ["line", "batch 4", "batch 4", "line", "line", "line", "line", "batch 3"],
        "{log:?}"
    );
    assert_eq!(report["implementations"][0]["batches"]["fellBack"], 1);
}

#[test]
fn a_hang_in_a_batch_times_out_and_is_pinned_to_its_case() {
    if !crate::common::prereq::python3() {
        return;
    }
    let dir = setup("hang", 12);
    let start = Instant::now();
    // The batch's timeout (5 s + 10 ms a case), then the case's own (5 s): bounds for the
    // cases that answer at once, on a loaded machine; the hang never ends.
    let (code, stdout, report, _) = run(&dir, "hang", &["--timeout", "5"]);
    assert!(
        start.elapsed() < Duration::from_secs(40),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(code, Some(1), "{stdout}");
    let mut want = vec!["pass"; 12];
    want[6] = "timeout";
    assert_eq!(statuses(&report), want, "{stdout}");
    assert!(stdout.contains("no answer within 5 s"), "{stdout}");
    let first = report["implementations"][0]["batches"]["firstFailure"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(first.contains("no answer within 5.04 s"), "{first}");
    // The hung process is gone, not a zombie.
    let pid = std::fs::read_to_string(dir.join("pid")).unwrap();
    assert!(
        !Path::new(&format!("/proc/{}", pid.trim())).exists(),
        "process {pid} still exists"
    );
}

#[test]
fn giving_up_stops_a_replay_too() {
    if !crate::common::prereq::python3() {
        return;
    }
    // Crashes on every case: the first case alone, then a batch of 4 that crashes and is
    // replayed: after 3 crashes in a row the runner gives up, in the middle of the
    // replay, exactly as without batches.
    let dir = setup("give-up", 12);
    let (code, stdout, report, log) = run(&dir, "crash-all", &["--give-up-after", "3"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("gave up after case 3 of 12"), "{stdout}");
    assert_eq!(report["implementations"][0]["gaveUpAt"], 3);
    // The rest are not run (never sent), apart from the real crashes.
    let mut expected = vec!["crash"; 3];
    expected.extend(["not-run"; 9]);
    assert_eq!(statuses(&report), expected);
    assert!(
        stdout.contains("9 case(s) not run (gave up after 3 crashes in a row: "),
        "{stdout}"
    );
    // Not started again for the cases not sent.
    assert!(log.len() <= 4, "{log:?}");
    let (code, stdout, _, _) = run(
        &dir,
        "crash-all",
        &["--give-up-after", "3", "--batch-size", "1"],
    );
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("gave up after case 3 of 12"), "{stdout}");
}

#[test]
fn conformance_serve_passes_every_vector_in_batches_and_streaming() {
    let dir = scratch("serve");
    let serve = format!("{} serve", env!("CARGO_BIN_EXE_conformance"));
    let out = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .current_dir(&dir)
        .args(["run", "--json", "r.json", "--adapter"])
        .arg(format!("serve={serve}"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    let imp = &report["implementations"][0];
    assert_eq!(imp["counts"]["pass"], report["summary"]["passed"]);
    assert_eq!(report["summary"]["skipped"], 0, "{stdout}");
    assert!(imp["batches"]["sent"].as_u64().unwrap() > 1);
    assert_eq!(imp["batches"]["fellBack"], 0);
    assert_eq!(imp["declared"]["batch"], 4096);
    // Every decode field and op it declares.
    for c in imp["coverage"].as_array().unwrap() {
        if c["op"] == "decode" {
            assert_eq!(c["level"], "full events", "{c}");
        }
        assert_eq!(c["answered"], c["total"], "{c}");
    }
    // Streaming: chunked variants in batches.
    let out = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args([
            "run",
            "--splits",
            "--encoding",
            "corrected-utf8",
            "--adapter",
        ])
        .arg(format!("serve={serve}"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains(" 0 not applicable"), "{stdout}");
    assert!(stdout.contains(", 0 fell back"), "{stdout}");
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or_default()
}
