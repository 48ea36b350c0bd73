#!/usr/bin/env python3
"""Conformance adapter for CPython's built-in "utf-8" codec (utf-8 only).

decode: `lossy` from bytes.decode("utf-8", errors="replace"), `valid` and `strict` from a
strict decode (UnicodeDecodeError.start / .end). The codec does not name error kinds and
does not give the later error spans, so `output` and the strict `error` kind are not sent.
`result` is "valid" or "invalid" from the strict decode: UTF-8 has no reserved spans.

encode: chr(cp).encode("utf-8"). On failure the kind is sent only when the codec's own
error says which it is: chr() refuses values above U+10FFFF ("out-of-range"), and the
encoder refuses lone surrogates ("surrogate"); any other failure is sent as null. A list
of code points (`codepoints`) is one str encoded at once; the UnicodeEncodeError's
`start` is the first failing code point's `index`.

With --spans, decode also sends `spans`: every event, the error spans from the codec's
error handler (called once per span with its start and end, but no kind), so each error
event is {"error": null, "offset", "length"}: the field for APIs that report every error
span without naming it.

Everything else (other encodings, op "document") answers `"unsupported": true`.
Protocol: see README.md in this directory.
"""

from __future__ import annotations

import codecs
import json
import re
import sys

_HEX = re.compile(r"\A(?:[0-9a-fA-F]{2})*\Z")
_CODEPOINT = re.compile(r"\AU\+([0-9a-fA-F]+)\Z")


class Unsupported(Exception):
    pass


# --spans: the spans the codec's error handler is called with, in order, and what it puts
# in their place (a lone surrogate, which no valid UTF-8 decodes to).
_SPANS: list = []
_MARK = "\udfff"


def _record_span(e: UnicodeDecodeError):
    _SPANS.append((e.start, e.end))
    return (_MARK, e.end)


codecs.register_error("conformance-spans", _record_span)


def _spans(data: bytes) -> list:
    """Every event: code points, and each error span with no kind (`"error": null`)."""
    _SPANS.clear()
    text = data.decode("utf-8", errors="conformance-spans")
    spans = iter(_SPANS)
    events = []
    for c in text:
        if c == _MARK:
            start, end = next(spans)
            events.append({"error": None, "offset": start, "length": end - start})
        else:
            events.append({"codepoint": "U+%04X" % ord(c)})
    return events


SPANS = "--spans" in sys.argv[1:]


def _decode(data: bytes) -> dict:
    text = data.decode("utf-8", errors="replace")
    response = {"lossy": ["U+%04X" % ord(c) for c in text]}
    if SPANS:
        response["spans"] = _spans(data)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        response["result"] = "invalid"
        response["valid"] = False
        response["strict"] = {"offset": e.start, "length": e.end - e.start}
    else:
        response["result"] = "valid"
        response["valid"] = True
        response["strict"] = None
    return response


def _encode(cp: int) -> dict:
    try:
        ch = chr(cp)
    except (ValueError, OverflowError):
        # "chr() arg not in range(0x110000)": the code point is above U+10FFFF.
        return {"error": "out-of-range"}
    try:
        return {"bytes": ch.encode("utf-8").hex()}
    except UnicodeEncodeError as e:
        if e.reason == "surrogates not allowed":
            return {"error": "surrogate"}
        return {"error": None}


def _encode_string(codepoints) -> dict:
    """A list of code points: one str encoded by the codec at once, strictly; its
    UnicodeEncodeError's `start` is the first failing code point's index (one str
    character per code point). chr() refuses a value above U+10FFFF before the codec
    sees the string: that code point's index, "out-of-range"."""
    if not isinstance(codepoints, list):
        raise Unsupported
    chars = []
    for index, text in enumerate(codepoints):
        m = _CODEPOINT.match(text) if isinstance(text, str) else None
        if not m:
            raise Unsupported
        try:
            chars.append(chr(int(m.group(1), 16)))
        except (ValueError, OverflowError):
            # Only if no earlier code point fails in the codec.
            return _encode_prefix(chars) or {"error": "out-of-range", "index": index}
    return _encode_prefix(chars) or {"bytes": "".join(chars).encode("utf-8").hex()}


def _encode_prefix(chars) -> dict | None:
    """The codec's failure on `chars`, if it fails: `error` and `index`; else None."""
    try:
        "".join(chars).encode("utf-8")
    except UnicodeEncodeError as e:
        kind = "surrogate" if e.reason == "surrogates not allowed" else None
        return {"error": kind, "index": e.start}
    return None


def _respond(request: dict) -> dict:
    if request.get("encoding") != "utf-8":
        raise Unsupported
    op = request.get("op")
    if op == "decode":
        text = request.get("input")
        if not isinstance(text, str) or not _HEX.match(text):
            raise Unsupported
        return _decode(bytes.fromhex(text))
    if op == "encode" and "codepoints" in request:
        return _encode_string(request.get("codepoints"))
    if op == "encode":
        cp = request.get("codepoint")
        m = _CODEPOINT.match(cp) if isinstance(cp, str) else None
        if not m:
            raise Unsupported
        return _encode(int(m.group(1), 16))
    raise Unsupported


# Protocol 2's handshake: what this adapter answers for every case (README.md, "Protocol 2").
# Encode failures other than surrogates and out-of-range would be sent as `error: null`,
# so no "error-kind" is declared.
HELLO = {
    "protocol": 2,
    "name": "CPython %d.%d utf-8 codec" % sys.version_info[:2],
    "supports": [
        {"encoding": "utf-8", "op": "decode",
         "fields": ["lossy", "result", "valid", "strict"] + (["spans"] if SPANS else [])},
        {"encoding": "utf-8", "op": "encode", "fields": ["bytes", "error", "codepoints"]},
    ],
    # Batch requests of up to this many requests (README.md, "Batches").
    "batch": 4096,
}


def handle_one(request) -> dict:
    """The response to one parsed request (any JSON value) that is not a hello or a batch."""
    if not isinstance(request, dict):
        return {"id": None, "unsupported": True}
    response = {"id": request.get("id")}
    try:
        response.update(_respond(request))
    except Unsupported:
        response["unsupported"] = True
    except Exception as e:  # never die on one request
        print("python_codec: %r" % (e,), file=sys.stderr)
        response["unsupported"] = True
    return response


def handle_line(line: str) -> dict:
    try:
        request = json.loads(line)
    except ValueError:
        return {"id": None, "unsupported": True}
    if not isinstance(request, dict):
        return {"id": None, "unsupported": True}
    if request.get("op") == "hello":
        return dict({"id": request.get("id")}, **HELLO)
    if request.get("op") == "batch":
        requests = request.get("requests")
        if not isinstance(requests, list):
            return {"id": request.get("id"), "unsupported": True}
        # One response per request, in order; a request inside a batch is never a batch.
        return {"id": request.get("id"), "responses": [handle_one(r) for r in requests]}
    return handle_one(request)


def main() -> int:
    stdin, stdout = sys.stdin.buffer, sys.stdout
    try:
        while True:
            raw = stdin.readline()
            if not raw:
                return 0
            response = handle_line(raw.decode("utf-8", errors="replace"))
            stdout.write(json.dumps(response, separators=(",", ":")) + "\n")
            stdout.flush()
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    sys.exit(main())
