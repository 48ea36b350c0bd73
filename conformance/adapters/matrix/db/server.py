"""What the database adapters share: a throwaway server in a temporary directory
(started by the adapter, stopped and removed at the end; Unix socket only, no TCP), and
the protocol loop (hello, malformed lines, batches) around a function that answers a
list of requests with one query per batch."""

from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile

HEX = re.compile(r"(?:[0-9a-fA-F]{2})*\Z")
CODEPOINT = re.compile(r"U\+([0-9A-Fa-f]+)\Z")
BATCH = 4096


def as_server_user(argv: list, user: str) -> list:
    """Database servers refuse to run as root: as root, run them as `user`."""
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", user, "--"] + argv


def workdir(prefix: str, user: str) -> str:
    path = tempfile.mkdtemp(prefix=prefix)
    if os.geteuid() == 0:
        entry = pwd.getpwnam(user)
        os.chown(path, entry.pw_uid, entry.pw_gid)
    return path


def run_quiet(argv: list, what: str):
    proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{what} failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")


def parse(req):
    """("decode", bytes) | ("encode", int) | None for one request object."""
    if not isinstance(req, dict) or req.get("encoding") != "utf-8":
        return None
    if req.get("op") == "decode" and isinstance(req.get("input"), str) and HEX.match(req["input"]):
        return ("decode", bytes.fromhex(req["input"]))
    if req.get("op") == "encode" and isinstance(req.get("codepoint"), str):
        m = CODEPOINT.match(req["codepoint"])
        if m:
            return ("encode", int(m.group(1), 16))
    return None


def serve(start, hello: dict):
    """The protocol loop. start() returns the server: .answer(works) -> list of field
    dicts (or None: unsupported), .close(). Started at the first line, closed at the end."""
    server = None

    def answer_all(reqs: list) -> list:
        works = [parse(r) if isinstance(r, dict) and r.get("op") != "hello" else None for r in reqs]
        todo = [w for w in works if w is not None]
        results = iter(server.answer(todo) if todo else [])
        out = []
        for r, w in zip(reqs, works):
            if not isinstance(r, dict):
                out.append({"id": None, "unsupported": True})
            elif r.get("op") == "hello":
                out.append({"id": r.get("id"), **hello, "name": server.name})
            else:
                fields = next(results) if w is not None else None
                out.append({"id": r.get("id"), **(fields or {"unsupported": True})})
        return out

    try:
        for line in sys.stdin.buffer:
            try:
                req = json.loads(line)
            except ValueError:
                req = None
            if server is None:
                server = start()
            if isinstance(req, dict) and req.get("op") == "batch":
                reqs = req.get("requests")
                answer = ({"id": req.get("id"), "responses": answer_all(reqs)} if isinstance(reqs, list)
                          else {"id": req.get("id"), "unsupported": True})
            else:
                answer = answer_all([req])[0]
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
    finally:
        if server is not None:
            server.close()


def remove(path: str):
    shutil.rmtree(path, ignore_errors=True)
