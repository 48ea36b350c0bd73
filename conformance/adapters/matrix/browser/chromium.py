#!/usr/bin/env python3
"""Conformance adapter (protocol 2, with batches) for a real browser's TextDecoder and
TextEncoder, utf-8 only: Chromium (Debian's /usr/bin/chromium), headless, driven over
the Chrome DevTools Protocol.

One browser process per run: started at the first line with a fresh --user-data-dir
(removed at the end), the flags below (no network, no GPU, no first-run or background
work), and --remote-debugging-pipe, so CDP's JSON messages travel on file descriptors 3
and 4 (NUL-terminated), no port and no WebSocket. The adapter attaches to the page
(about:blank), evaluates browser/page.js there once, and then sends every batch as one
Runtime.evaluate of __matrix([...]) in the page: the decoding is done by the browser's
own TextDecoder (fatal and replacement, `stream: true` for chunked requests: streaming
is declared) and TextEncoder. Fields: decode `lossy`, `result`, `valid`; encode `bytes`,
`error` (page.js says how). The protocol (hello, malformed lines, batches) is handled
here. Protocol: conformance/adapters/README.md. Standard library only.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BATCH = 4096
HEX = re.compile(r"(?:[0-9a-fA-F]{2})*\Z")
CODEPOINT = re.compile(r"U\+([0-9A-Fa-f]+)\Z")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-dev-shm-usage", "--remote-debugging-pipe"]


def remove_profile(path: str):
    """Removes a browser profile; again for up to a second while the browser's child
    processes, which outlive it briefly, write into it."""
    for _ in range(10):
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.exists(path):
            return
        time.sleep(0.1)


class Chromium:
    """A headless Chromium and a CDP session on its page."""

    def __init__(self, binary: str):
        self.profile = tempfile.mkdtemp(prefix="matrix-chromium-")
        self.proc = None
        try:
            self.start(binary)
        except BaseException:
            self.abandon()
            raise

    def abandon(self):
        """After a failed start: the process killed, the profile removed."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        remove_profile(self.profile)

    def start(self, binary: str):
        to_child, self.out = os.pipe()   # we write CDP at self.out; the browser reads fd 3
        self.inp, from_child = os.pipe()  # the browser writes fd 4; we read self.inp

        def fds():
            # Move the two ends to 3 and 4 (via high numbers: they may be 3 or 4 already).
            a, b = os.dup(to_child), os.dup(from_child)
            a2, b2 = os.dup2(a, 100), os.dup2(b, 101)
            os.dup2(a2, 3)
            os.dup2(b2, 4)
            for fd in (a, b, a2, b2):
                os.close(fd)

        self.proc = subprocess.Popen([binary, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=fds, pass_fds=(3, 4))
        os.close(to_child)
        os.close(from_child)
        self.reader = os.fdopen(self.inp, "rb", buffering=0)
        self.pending = b""
        self.next_id = 0
        self.session = None
        version = self.call("Browser.getVersion")["product"].split("/")[-1]
        self.name = f"Chromium {version} TextDecoder / TextEncoder (headless, in a page, CDP)"
        page = None
        for _ in range(100):
            targets = self.call("Target.getTargets")["targetInfos"]
            page = next((t for t in targets if t["type"] == "page"), None)
            if page:
                break
        if page is None:
            page = {"targetId": self.call("Target.createTarget", url="about:blank")["targetId"]}
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.evaluate((Path(__file__).parent / "page.js").read_text())

    def run(self, todo: list) -> list:
        """page.js's __matrix over the requests, in the page."""
        return self.evaluate(f"__matrix({json.dumps(todo)})")

    def call(self, method: str, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith(("Browser.", "Target.")):
            message["sessionId"] = self.session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self.out, data):]
        while True:
            while b"\0" not in self.pending:
                chunk = self.reader.read(1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed its pipe")
                self.pending += chunk
            line, self.pending = self.pending.split(b"\0", 1)
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"in the page: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def close(self):
        # The runner allows an adapter 2 s after the end of its input before it kills the
        # process group: the browser is killed (its profile is thrown away) and the
        # profile removed at once.
        self.proc.kill()
        self.proc.wait()
        os.close(self.out)
        self.reader.close()
        remove_profile(self.profile)


def hello(browser) -> dict:
    return {"protocol": 2, "name": browser.name,
            "supports": [{"encoding": "utf-8", "op": "decode", "fields": ["lossy", "result", "valid"],
                          "streaming": True},
                         {"encoding": "utf-8", "op": "encode", "fields": ["bytes", "error"]}],
            "batch": BATCH}


def work_of(req):
    """The page's request for one protocol request, or None (unsupported)."""
    if not isinstance(req, dict) or req.get("encoding") != "utf-8":
        return None
    if req.get("op") == "decode" and isinstance(req.get("input"), str) and HEX.match(req["input"]):
        chunks = req.get("chunks")
        if chunks is None:
            return {"op": "decode", "input": req["input"], "chunks": None}
        if isinstance(chunks, list) and all(isinstance(c, str) and HEX.match(c) for c in chunks):
            return {"op": "decode", "input": req["input"], "chunks": chunks}
        return None
    if req.get("op") == "encode" and isinstance(req.get("codepoint"), str):
        m = CODEPOINT.match(req["codepoint"])
        if m:
            cp = int(m.group(1), 16)
            if cp > 0x7FFFFFFF:  # above what String.fromCodePoint is asked: it throws too
                return {"op": "encode", "cp": 0x110000}
            return {"op": "encode", "cp": cp}
    return None


def answer_all(browser, reqs: list) -> list:
    """Answers to protocol requests (objects or not), the work done in one evaluate."""
    works = [work_of(r) if isinstance(r, dict) and r.get("op") != "hello" else None for r in reqs]
    todo = [w for w in works if w is not None]
    results = iter(browser.run(todo) if todo else [])
    answers = []
    for r, w in zip(reqs, works):
        if not isinstance(r, dict):
            answers.append({"id": None, "unsupported": True})
        elif r.get("op") == "hello":
            answers.append({"id": r.get("id"), **hello(browser)})
        elif w is None:
            answers.append({"id": r.get("id"), "unsupported": True})
        else:
            answers.append({"id": r.get("id"), **next(results)})
    return answers


def main(start=None) -> int:
    """The protocol loop; start() starts the browser (at the first line)."""
    if start is None:
        start = lambda: Chromium(os.environ.get("CHROMIUM", "/usr/bin/chromium"))  # noqa: E731
    browser = None
    try:
        for line in sys.stdin.buffer:
            try:
                req = json.loads(line)
            except ValueError:
                req = None
            if browser is None:
                browser = start()
            if isinstance(req, dict) and req.get("op") == "batch":
                reqs = req.get("requests")
                if isinstance(reqs, list):
                    answer = {"id": req.get("id"), "responses": answer_all(browser, reqs)}
                else:
                    answer = {"id": req.get("id"), "unsupported": True}
            else:
                answer = answer_all(browser, [req])[0]
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
    finally:
        if browser is not None:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
