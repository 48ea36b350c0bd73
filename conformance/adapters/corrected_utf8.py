#!/usr/bin/env python3
"""Independent Corrected UTF-8 (and UTF-8) implementation, and a conformance adapter.

Written from docs/semantics.md alone (sections 1, 2, 3 and 5), not from the Rust code.
Python 3.11, standard library only.

Use as a module (pure functions):

    decode_corrected(data)  -> list of CodePoint / Span / Reserved events (2.4, 2.4a)
    encode_corrected(cp)    -> bytes, or raises EncodeError(kind)   (section 2.3)
    check_document(data)    -> list of Finding                      (section 2.6)
    decode_utf8(data)       -> list of CodePoint / Span events      (section 3)
    encode_utf8(cp)         -> bytes, or raises EncodeError(kind)   (section 3)
    handle(request)         -> response dict of the adapter protocol

UTF-∞-8 (section 4) lives in utf_inf8.py; this module only serves it over the protocol.

or run as a program: it reads one JSON request per line on stdin and writes one JSON
response per line on stdout (see README.md in this directory).

    corrected_utf8.py [--limit N]

--limit N: decode UTF-∞-8 with a code length limit of N bytes (1 to 2^32) instead of the
default 65 536, and say so in the hello (`"limit": N` on utf-inf-8 decode), so that the
harness judges its limit-dependent cases at N.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import traceback
from typing import NamedTuple, Union

import utf_inf8  # the script's own folder is on sys.path, also when run as a program


# --------------------------------------------------------------------------- events


class CodePoint(NamedTuple):
    value: int
    offset: int
    length: int


class Span(NamedTuple):
    """An error span."""

    kind: str
    offset: int
    length: int


class Reserved(NamedTuple):
    """A reserved span (Corrected UTF-8 only, section 2.4a): not an error."""

    offset: int
    length: int


Event = Union[CodePoint, Span, Reserved]


class EncodeError(ValueError):
    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def format_codepoint(value: int) -> str:
    """`U+` then uppercase hex, at least 4 digits."""
    return "U+%04X" % value


def lossy(events: list[Event]) -> list[int]:
    """Every code point, one U+FFFD per span, error or reserved (section 1)."""
    return [e.value if isinstance(e, CodePoint) else 0xFFFD for e in events]


def first_error(events: list[Event]) -> Span | None:
    """The first error span, or None when there is none (reserved spans are no errors)."""
    return next((e for e in events if isinstance(e, Span)), None)


def first_span(events: list[Event]) -> Span | Reserved | None:
    """The first span of either class: where a strict decode stops; None when valid."""
    return next((e for e in events if not isinstance(e, CodePoint)), None)


def validity(events: list[Event]) -> str:
    """Section 1: "invalid" with an error span, else "reserved" with a reserved span,
    else "valid" (code points only)."""
    if any(isinstance(e, Span) for e in events):
        return "invalid"
    if any(isinstance(e, Reserved) for e in events):
        return "reserved"
    return "valid"


# --------------------------------------------------------------------------- Corrected UTF-8

# Section 2.2: (number of bytes, first code point, last code point, offset added to raw).
# The 3-byte form is split at raw value CF60, where U+D7FF jumps to U+E000.
_CORRECTED_ROWS = (
    (1, 0x0000_0000, 0x0000_007F, 0),
    (2, 0x0000_00A0, 0x0000_089F, 160),
    (3, 0x0000_08A0, 0x0000_D7FF, 2_208),
    (3, 0x0000_E000, 0x0001_109F, 4_256),
    (4, 0x0001_10A0, 0x0021_109F, 69_792),
    (5, 0x0021_10A0, 0x0421_109F, 2_166_944),
    (6, 0x0421_10A0, 0x8421_109F, 69_275_808),
)
CORRECTED_MAX = 0x8421_109F


def _corrected_length(b: int) -> int:
    """Section 2.1: sequence length for a lead byte; 0 for a continuation, -1 for FE/FF."""
    if b <= 0x7F:
        return 1
    if b <= 0xBF:
        return 0
    if b <= 0xDF:
        return 2
    if b <= 0xEF:
        return 3
    if b <= 0xF7:
        return 4
    if b <= 0xFB:
        return 5
    if b <= 0xFD:
        return 6
    return -1


def _is_continuation(b: int) -> bool:
    return 0x80 <= b <= 0xBF


def _is_recognized_lead(b: int) -> bool:
    """Section 2.1: 00-7F or C0-FD."""
    return b <= 0x7F or 0xC0 <= b <= 0xFD


def decode_corrected(data: bytes, base: int = 0) -> list[Event]:
    """Decode Corrected UTF-8 into events (section 2.4). Offsets are `base` + index."""
    events: list[Event] = []
    i = 0
    end = len(data)
    while i < end:
        b = data[i]
        n = _corrected_length(b)
        if n == 1:
            events.append(CodePoint(b, base + i, 1))
            i += 1
        elif n == 0:
            events.append(Span("unexpected-continuation", base + i, 1))
            i += 1
        elif n == -1:
            # FE/FF: this byte and everything up to (not including) the next recognized
            # lead byte, or the end of input. FE, FF and continuation bytes all join.
            # A reserved span, not an error (section 2.4a).
            j = i + 1
            while j < end and not _is_recognized_lead(data[j]):
                j += 1
            events.append(Reserved(base + i, j - i))
            i = j
        else:
            j = i + 1
            while j < end and j - i < n and _is_continuation(data[j]):
                j += 1
            if j - i < n:
                # Cut short by a non-continuation byte or the end: resume at that byte.
                events.append(Span("truncated", base + i, j - i))
                i = j
                continue
            raw = b & ((1 << (7 - n)) - 1)
            for k in range(i + 1, j):
                raw = (raw << 6) | (data[k] & 0x3F)
            if n == 3:
                offset = 2_208 if raw < 0xCF60 else 4_256
            else:
                offset = {2: 160, 4: 69_792, 5: 2_166_944, 6: 69_275_808}[n]
            events.append(CodePoint(raw + offset, base + i, n))
            i = j
    return events


def encode_corrected(cp: int) -> bytes:
    """Encode one code point (section 2.2); raise EncodeError for section 2.3's values."""
    if cp < 0:
        raise EncodeError("out-of-range")
    if 0x80 <= cp <= 0x9F:
        raise EncodeError("c1-control")
    if 0xD800 <= cp <= 0xDFFF:
        raise EncodeError("surrogate")
    if cp > CORRECTED_MAX:
        raise EncodeError("out-of-range")
    for n, first, last, offset in _CORRECTED_ROWS:
        if first <= cp <= last:
            break
    else:  # pragma: no cover - the rows cover every value not rejected above
        raise AssertionError(hex(cp))
    if n == 1:
        return bytes([cp])
    raw = cp - offset
    tail = []
    for _ in range(n - 1):
        tail.append(0x80 | (raw & 0x3F))
        raw >>= 6
    lead_marker = (0xFF << (8 - n)) & 0xFF  # n high bits set: C0, E0, F0, F8, FC
    assert raw < (1 << (7 - n))
    return bytes([lead_marker | raw] + tail[::-1])


# --------------------------------------------------------------------------- documents

MAGIC = bytes.fromhex("efb79dedb2ae000a")

ERROR, WARNING = "error", "warning"

_CODEPOINT_FINDINGS = {
    0x0000: ("nul", ERROR),
    0x000D: ("cr", WARNING),
    0x2028: ("line-separator", WARNING),
    0x2029: ("paragraph-separator", WARNING),
}


class Finding(NamedTuple):
    kind: str
    severity: str
    offset: int
    line: int
    column: int

    def to_json(self) -> dict:
        return self._asdict()


# The magic number's four code points (section 2.6).
MAGIC_CODEPOINTS = (0x10E7D, 0xED4E, 0x0000, 0x000A)


def check_document(data: bytes) -> list[Finding]:
    """Findings of a Corrected UTF-8 document (section 2.6), in order."""
    findings: list[Finding] = []
    if data[: len(MAGIC)] == MAGIC:
        start = len(MAGIC)
    else:
        start = 0
        findings.append(Finding("missing-magic", WARNING, 0, 1, 1))
    events = decode_corrected(data[start:], base=start)
    # A complete magic number after the start: four consecutive code point events (each
    # code point has one encoding, so these are its 8 bytes). It is text, but its 00 is
    # not nul; a lone 00 or one in an incomplete magic number is.
    n = len(MAGIC_CODEPOINTS)
    magic_at = {
        k for k in range(len(events) - n + 1)
        if all(isinstance(e, CodePoint) and e.value == cp
               for e, cp in zip(events[k:k + n], MAGIC_CODEPOINTS))
    }
    exempt_nul = {k + 2 for k in magic_at}
    line, column = 1, 1  # position of the next event
    for k, e in enumerate(events):
        if k in magic_at:
            findings.append(Finding("inner-magic", WARNING, e.offset, line, column))
        if isinstance(e, Span):
            findings.append(Finding(e.kind, ERROR, e.offset, line, column))
        elif isinstance(e, Reserved):
            # Well formed, meaning unknown: a warning; the document stays valid.
            findings.append(Finding("reserved", WARNING, e.offset, line, column))
        elif k not in exempt_nul:
            cp = e.value
            if cp in _CODEPOINT_FINDINGS:
                kind, severity = _CODEPOINT_FINDINGS[cp]
                findings.append(Finding(kind, severity, e.offset, line, column))
            elif 0x01 <= cp <= 0x1F and cp != 0x0A:
                findings.append(Finding("c0-control", WARNING, e.offset, line, column))
        if isinstance(e, CodePoint) and e.value == 0x0A:
            line, column = line + 1, 1
        else:
            column += 1
    if events and not (isinstance(events[-1], CodePoint) and events[-1].value == 0x0A):
        findings.append(Finding("missing-final-newline", WARNING, len(data), line, column))
    # Events are in offset order already; missing-magic (offset 0) was put first.
    return findings


# --------------------------------------------------------------------------- UTF-8

# Section 3, Table 3-7: for each lead byte, the allowed ranges of the following bytes.
_CONT = (0x80, 0xBF)
_UTF8_TABLE: dict[int, tuple[tuple[int, int], ...]] = {}
for _b in range(0xC2, 0xE0):
    _UTF8_TABLE[_b] = (_CONT,)
_UTF8_TABLE[0xE0] = ((0xA0, 0xBF), _CONT)
for _b in range(0xE1, 0xED):
    _UTF8_TABLE[_b] = (_CONT, _CONT)
_UTF8_TABLE[0xED] = ((0x80, 0x9F), _CONT)
_UTF8_TABLE[0xEE] = (_CONT, _CONT)
_UTF8_TABLE[0xEF] = (_CONT, _CONT)
_UTF8_TABLE[0xF0] = ((0x90, 0xBF), _CONT, _CONT)
for _b in range(0xF1, 0xF4):
    _UTF8_TABLE[_b] = (_CONT, _CONT, _CONT)
_UTF8_TABLE[0xF4] = ((0x80, 0x8F), _CONT, _CONT)
del _b

# Section 3: kind of a span whose lead is E0/ED/F0/F4 and whose second byte is a
# continuation byte outside the lead's range (the lead alone is the span).
_UTF8_SECOND_BYTE_KIND = {0xE0: "overlong", 0xED: "surrogate", 0xF0: "overlong", 0xF4: "out-of-range"}


def _utf8_single_byte_kind(b: int) -> str | None:
    """Kind of a byte that is always a span of its own, or None for a table lead."""
    if 0x80 <= b <= 0xBF:
        return "unexpected-continuation"
    if b in (0xC0, 0xC1):
        return "overlong"
    if 0xF5 <= b <= 0xFD:
        return "out-of-range"
    if b in (0xFE, 0xFF):
        return "invalid-byte"
    return None


def decode_utf8(data: bytes, base: int = 0) -> list[Event]:
    """Decode standard UTF-8 (Table 3-7) with maximal-subpart error spans (section 3)."""
    events: list[Event] = []
    i = 0
    end = len(data)
    while i < end:
        b = data[i]
        if b <= 0x7F:
            events.append(CodePoint(b, base + i, 1))
            i += 1
            continue
        kind = _utf8_single_byte_kind(b)
        if kind is not None:
            events.append(Span(kind, base + i, 1))
            i += 1
            continue
        ranges = _UTF8_TABLE[b]
        j = i + 1
        for lo, hi in ranges:
            if j < end and lo <= data[j] <= hi:
                j += 1
            else:
                break
        if j - i == len(ranges) + 1:
            n = j - i
            value = b & ((1 << (7 - n)) - 1)
            for k in range(i + 1, j):
                value = (value << 6) | (data[k] & 0x3F)
            events.append(CodePoint(value, base + i, n))
        elif j == i + 1 and j < end and b in _UTF8_SECOND_BYTE_KIND and _is_continuation(data[j]):
            # E0 80..9F, ED A0..BF, F0 80..8F, F4 90..BF: the lead alone.
            events.append(Span(_UTF8_SECOND_BYTE_KIND[b], base + i, 1))
        else:
            # The longest prefix of a well-formed sequence: truncated.
            events.append(Span("truncated", base + i, j - i))
        i = j
    return events


def encode_utf8(cp: int) -> bytes:
    if 0xD800 <= cp <= 0xDFFF:
        raise EncodeError("surrogate")
    if cp < 0 or cp > 0x10FFFF:
        raise EncodeError("out-of-range")
    if cp <= 0x7F:
        return bytes([cp])
    if cp <= 0x7FF:
        return bytes([0xC0 | cp >> 6, 0x80 | cp & 0x3F])
    if cp <= 0xFFFF:
        return bytes([0xE0 | cp >> 12, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F])
    return bytes([0xF0 | cp >> 18, 0x80 | cp >> 12 & 0x3F, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F])


# --------------------------------------------------------------------------- protocol

_HEX = re.compile(r"\A(?:[0-9a-fA-F]{2})*\Z")
_CODEPOINT = re.compile(r"\AU\+([0-9a-fA-F]+)\Z")


class Unsupported(Exception):
    """The request is malformed or asks for something this adapter does not do."""


def parse_hex(text) -> bytes:
    if not isinstance(text, str) or not _HEX.match(text):
        raise Unsupported("bad hex")
    return bytes.fromhex(text)


def parse_codepoint(text) -> int:
    m = _CODEPOINT.match(text) if isinstance(text, str) else None
    if not m:
        raise Unsupported("bad codepoint")
    return int(m.group(1), 16)


def event_to_json(e: Event) -> dict:
    if isinstance(e, CodePoint):
        return {"codepoint": format_codepoint(e.value)}
    if isinstance(e, Reserved):
        return {"reserved": True, "offset": e.offset, "length": e.length}
    return {"error": e.kind, "offset": e.offset, "length": e.length}


def strict_to_json(span: Span | Reserved | None) -> dict | None:
    """`strict`: null when valid, else the first span with its class."""
    if span is None:
        return None
    if isinstance(span, Reserved):
        return {"offset": span.offset, "length": span.length, "reserved": True}
    return {"offset": span.offset, "length": span.length, "error": span.kind}


# The UTF-∞-8 code length limit (--limit; the default is the vectors').
INF8_LIMIT = utf_inf8.DEFAULT_LIMIT

# The limits a hello may declare (README.md, "Protocol 2": 1 byte to 4 GiB).
LIMIT_RANGE = (1, 1 << 32)


def decode_inf8(data: bytes) -> list[Event]:
    """utf_inf8.decode under INF8_LIMIT, as this module's events."""
    return [
        CodePoint(*e) if isinstance(e, utf_inf8.CodePoint) else Span(*e)
        for e in utf_inf8.decode(data, INF8_LIMIT)
    ]


def encode_inf8(cp: int) -> bytes:
    try:
        return utf_inf8.encode(cp)
    except utf_inf8.EncodeError as e:
        raise EncodeError(e.kind) from None


_DECODERS = {"corrected-utf8": decode_corrected, "utf-8": decode_utf8, "utf-inf-8": decode_inf8}
_ENCODERS = {"corrected-utf8": encode_corrected, "utf-8": encode_utf8, "utf-inf-8": encode_inf8}


def _respond(request: dict) -> dict:
    encoding = request.get("encoding")
    op = request.get("op")
    if op == "decode" and encoding in _DECODERS:
        events = _DECODERS[encoding](parse_hex(request.get("input")))
        result = validity(events)
        return {
            "output": [event_to_json(e) for e in events],
            "lossy": [format_codepoint(v) for v in lossy(events)],
            "result": result,
            # `valid`: decodes to code points alone (a reserved input is not valid).
            "valid": result == "valid",
            "strict": strict_to_json(first_span(events)),
        }
    if op == "encode" and encoding in _ENCODERS and "codepoints" in request:
        return encode_string(_ENCODERS[encoding], request.get("codepoints"))
    if op == "encode" and encoding in _ENCODERS:
        cp = parse_codepoint(request.get("codepoint"))
        try:
            return {"bytes": _ENCODERS[encoding](cp).hex()}
        except EncodeError as e:
            return {"error": e.kind}
    if op == "document" and encoding == "corrected-utf8":
        findings = check_document(parse_hex(request.get("input")))
        return {"findings": [f.to_json() for f in findings]}
    raise Unsupported("%s/%s" % (encoding, op))


def encode_string(encode, codepoints) -> dict:
    """A list of code points encoded (SPEC, "Encoding a string"): the concatenation of
    each one's bytes, or the first that has none: its 0-based `index` and its kind."""
    if not isinstance(codepoints, list):
        raise Unsupported("codepoints is not a list")
    out = bytearray()
    for index, text in enumerate(codepoints):
        try:
            out += encode(parse_codepoint(text))
        except EncodeError as e:
            return {"error": e.kind, "index": index}
    return {"bytes": out.hex()}


_DECODE_FIELDS = ["output", "lossy", "result", "valid", "strict"]
# `codepoints`: string encode requests are taken (answered with `bytes`, or `error` and
# `index`).
_ENCODE_FIELDS = ["bytes", "error", "error-kind", "codepoints"]

# Protocol 2's handshake: what this adapter answers for every case (README.md, "Protocol 2").
HELLO = {
    "protocol": 2,
    "name": "independent Python implementation (stdlib only)",
    "supports": [
        {"encoding": e, "op": op, "fields": fields}
        for e in ("corrected-utf8", "utf-8", "utf-inf-8")
        for op, fields in (("decode", _DECODE_FIELDS), ("encode", _ENCODE_FIELDS))
    ]
    + [{"encoding": "corrected-utf8", "op": "document", "fields": ["findings"]}],
    # Batch requests of up to this many requests (README.md, "Batches").
    "batch": 4096,
}


def handle(request) -> dict:
    """One protocol response for one parsed request (any JSON value)."""
    rid = request.get("id") if isinstance(request, dict) else None
    response = {"id": rid}
    if isinstance(request, dict) and request.get("op") == "hello":
        response.update(HELLO)
        return response
    if isinstance(request, dict) and request.get("op") == "batch":
        requests = request.get("requests")
        if not isinstance(requests, list):
            response["unsupported"] = True
            return response
        # One response per request, in order; a request inside a batch is never a batch.
        response["responses"] = [_handle_safely(r, handle_one) for r in requests]
        return response
    return handle_one(request)


def handle_one(request) -> dict:
    """The response to one request that is not a hello or a batch."""
    rid = request.get("id") if isinstance(request, dict) else None
    response = {"id": rid}
    try:
        if not isinstance(request, dict):
            raise Unsupported("request is not an object")
        response.update(_respond(request))
    except Unsupported:
        response["unsupported"] = True
    return response


def _handle_safely(request, handler) -> dict:
    try:
        return handler(request)
    except Exception:  # a bug here must not kill the session: report it, answer, go on
        traceback.print_exc(file=sys.stderr)
        rid = request.get("id") if isinstance(request, dict) else None
        return {"id": rid, "unsupported": True}


def handle_line(line: str) -> dict:
    try:
        request = json.loads(line)
    except ValueError:
        return {"id": None, "unsupported": True}
    return _handle_safely(request, handle)


def serve(stdin, stdout, handler=handle_line) -> None:
    """Answer every line of `stdin` (binary) with one JSON line on `stdout` (text)."""
    while True:
        raw = stdin.readline()
        if not raw:
            return
        line = raw.decode("utf-8", errors="replace")
        response = handler(line)
        stdout.write(json.dumps(response, separators=(",", ":")) + "\n")
        stdout.flush()


def set_limit(limit: int) -> None:
    """Decode UTF-∞-8 with a code length limit of `limit` bytes, and declare it."""
    global INF8_LIMIT, HELLO
    if not LIMIT_RANGE[0] <= limit <= LIMIT_RANGE[1]:
        raise ValueError("a limit is 1 to 2^32 bytes: %r" % (limit,))
    INF8_LIMIT = limit
    supports = [
        dict(s, limit=limit) if (s["encoding"], s["op"]) == ("utf-inf-8", "decode") else s
        for s in HELLO["supports"]
    ]
    HELLO = dict(HELLO, supports=supports)


def limit_argument(text: str) -> int:
    """argparse's type of --limit."""
    try:
        limit = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % text) from None
    if not LIMIT_RANGE[0] <= limit <= LIMIT_RANGE[1]:
        raise argparse.ArgumentTypeError("a limit is 1 to 2^32 bytes: %r" % text)
    return limit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=limit_argument, metavar="N",
                        help="UTF-∞-8 code length limit in bytes (default 65536), declared")
    args = parser.parse_args(argv)
    if args.limit is not None:
        set_limit(args.limit)
    try:
        serve(sys.stdin.buffer, sys.stdout)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
