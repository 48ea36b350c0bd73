"""The checks of the decoder matrix's own parts.

`matrix.py check`: a protocol self-test of each adapter of the decoder matrix (hello,
malformed lines and batches, every utf-8 decode and encode vector request in line mode
and in batches of 1, 7 and the declared size, which must give the same answers, chunked
requests against whole ones for a streaming adapter), with the throughput of both. The
string encode cases (`codepoints`) are not asked: they go only to an adapter that declares
that field (the run says which).

`matrix.py screenshot`: docs/matrix.html in headless Chromium, which must render every
decoder's row of the full table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decoders import HTML, REPORT, select, vectors  # noqa: E402


class Adapter:
    def __init__(self, command: str):
        self.proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)

    def ask(self, line: str) -> str:
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError("the adapter ended")
        return answer.decode()

    def close(self) -> int:
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def requests() -> list:
    out = []
    for fid, case in vectors().items():
        if "input" in case:
            out.append({"id": fid, "encoding": "utf-8", "op": "decode", "input": case["input"]})
        elif "codepoint" in case:
            out.append({"id": fid, "encoding": "utf-8", "op": "encode", "codepoint": case["codepoint"]})
    return out


MALFORMED = [
    ("", None), ("xx", None), ("[1, 2]", None), ('"hello"', None), ("{", None),
    ('{"id": "m1"}', "m1"),
    ('{"id": "m2", "encoding": "utf-8", "op": "decode", "input": "4"}', "m2"),
    ('{"id": "m3", "encoding": "utf-8", "op": "decode", "input": "zz"}', "m3"),
    ('{"id": "m4", "encoding": "utf-8", "op": "encode", "codepoint": "D800"}', "m4"),
    ('{"id": "m5", "encoding": "utf-8", "op": "decode"}', "m5"),
    ('{"id": "m6", "encoding": "utf-9", "op": "decode", "input": "41"}', "m6"),
    ('{"id": "m7", "op": "batch"}', "m7"),
]


def check_one(name: str, command: str, reqs: list) -> list:
    problems = []
    adapter = Adapter(command)
    try:
        hello = json.loads(adapter.ask(json.dumps({"id": "hello", "op": "hello", "protocol": 2})))
        if hello.get("protocol") != 2:
            problems.append("hello: not protocol 2")
        batch = hello.get("batch")
        for line, want_id in MALFORMED:
            answer = json.loads(adapter.ask(line))
            if answer.get("id") != want_id or answer.get("unsupported") is not True:
                problems.append(f"malformed line {line!r}: answered {answer}")
        bad_items = {"id": "b-bad", "op": "batch", "requests": [7, {"id": "x1", "encoding": "utf-8", "op": "decode",
                                                                   "input": "41"}, {"id": "x2"}]}
        if batch:
            answer = json.loads(adapter.ask(json.dumps(bad_items)))
            got = answer.get("responses")
            if (answer.get("id") != "b-bad" or not isinstance(got, list) or len(got) != 3
                    or got[0] != {"id": None, "unsupported": True} or got[1].get("id") != "x1"
                    or got[2] != {"id": "x2", "unsupported": True}):
                problems.append(f"batch with malformed items: answered {answer}")
        streaming = any(s.get("streaming") is True for s in hello.get("supports", []))
        start = time.perf_counter()
        single = [json.loads(adapter.ask(json.dumps(r))) for r in reqs]
        line_rate = len(reqs) / (time.perf_counter() - start)
        rates = f"line mode {line_rate:,.0f} cases/s"
        if streaming:
            # Every decode input in two chunks at its middle, and byte by byte: the same answers.
            for r, whole in zip(reqs, single):
                if r["op"] != "decode":
                    continue
                data = r["input"]
                half = len(data) // 4 * 2
                for chunks in ([data[:half], data[half:]], [data[k:k + 2] for k in range(0, len(data), 2)]):
                    answer = json.loads(adapter.ask(json.dumps(dict(r, chunks=chunks))))
                    if answer != whole:
                        problems.append(f"chunks {chunks}: {answer} differs from {whole}")
                        break
            rates += ", chunked requests agree"
        if isinstance(batch, int) and not isinstance(batch, bool) and 1 <= batch <= 65536:
            # Odd sizes too: the answers must not depend on how the cases are grouped.
            for size in (1, 7, batch):
                start = time.perf_counter()
                batched = []
                for k in range(0, len(reqs), size):
                    chunk = reqs[k:k + size]
                    answer = json.loads(adapter.ask(json.dumps({"id": f"batch-{k}", "op": "batch",
                                                                "requests": chunk})))
                    if answer.get("id") != f"batch-{k}" or len(answer.get("responses", [])) != len(chunk):
                        problems.append(f"batch of {size} at {k}: wrong id or count")
                        break
                    batched.extend(answer["responses"])
                elapsed = time.perf_counter() - start
                if batched != single:
                    diff = [(a, b) for a, b in zip(batched, single) if a != b][:1] or "count"
                    problems.append(f"batches of {size}: answers differ from line mode: {diff}")
            rates += f", batches of {batch}: {len(reqs) / elapsed:,.0f} cases/s"
        else:
            rates += ", no batch declared"
        print(f"  {name}: {rates}")
    except (RuntimeError, ValueError, OSError) as e:
        problems.append(f"{type(e).__name__}: {e}")
    finally:
        try:
            status = adapter.close()
            if status != 0:
                problems.append(f"exit status {status} at end of input")
        except (subprocess.TimeoutExpired, OSError) as e:
            problems.append(f"did not end at end of input: {e}")
            adapter.proc.kill()
    return problems


def cmd_check(args: list) -> int:
    only = args[1] if args[:1] == ["--only"] and len(args) > 1 else None
    reqs = requests()
    failed = 0
    for name, _, _, command in select(only):
        problems = check_one(name, command, reqs)
        for p in problems:
            print(f"  {name}: PROBLEM {p}")
        failed += bool(problems)
    print(f"check: {len(select(only)) - failed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_screenshot(args: list) -> int:
    """docs/matrix.html in headless Chromium: the page with its full table loaded must
    render every decoder's row (read back from the DOM), and a screenshot is written to
    target/matrix/matrix.png."""
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    url = HTML.resolve().as_uri() + "#full"
    out = REPORT.parent / "matrix.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    import tempfile
    with tempfile.TemporaryDirectory(prefix="matrix-shot-") as profile:
        flags = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={profile}", "--allow-file-access-from-files", "--virtual-time-budget=5000"]
        dom = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
        # The top of the page (the summary table and the first failures); the full table
        # is checked through the DOM above.
        if out.exists():
            out.unlink()
        subprocess.run(flags + [f"--screenshot={out.resolve()}", "--window-size=1400,1800", HTML.resolve().as_uri()],
                       capture_output=True, timeout=120)
    report = json.loads(REPORT.read_text()) if REPORT.exists() else {"implementations": []}
    want = f'data-loaded="{len(report["implementations"])} x {len(vectors())}"'
    # A blank page compresses to a few kB; the summary table's text does not.
    drawn = out.exists() and out.stat().st_size > 50_000
    ok = want in dom and drawn
    print(f"matrix: {HTML} in headless Chromium: full table {'rendered' if want in dom else 'NOT rendered'} "
          f"({want}); screenshot {out}{'' if drawn else ' blank or NOT written'}")
    return 0 if ok else 1
