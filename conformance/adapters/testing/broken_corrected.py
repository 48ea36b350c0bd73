#!/usr/bin/env python3
"""A deliberately broken Corrected UTF-8 adapter: the harness's own test subject.

It wraps the honest adapter (../corrected_utf8.py, imported, not copied) and plants one
bug, so that tests can show that `conformance fuzz --adapter` and `conformance
exhaustive --adapter` catch it, and that the vector file they write fails in
`conformance run`:

  --bug table-row [--row N]   row N (1 to 7, as in the table of "Putting it all
                              together"; default 2) uses its offset plus one, in the
                              decoder and the encoder alike (so decode(encode(x)) = x
                              still holds: only the table values show the bug)
  --bug swallow               after a truncated sequence the decoder drops the next byte
                              (decoding resumes one byte too late)
  --bug inner-magic-nul       documents: the 00 of a complete magic number after the start
                              is also reported as `nul` (its exemption is forgotten)
  --bug magic-line            documents: after a leading magic number, lines count from 2
                              (its own 0A is counted as a line end)
  --bug inf-limit-ge          UTF-∞-8: the limit test is `>=`, so a code of exactly the
                              limit is refused (`limit-exceeded`)
  --bug inf-limit-cut         UTF-∞-8: a `limit-exceeded` span ends where the limit is
                              crossed, instead of running to the code's declared end or
                              the first byte that cannot continue it (the rest are stray
                              continuation bytes)
  --bug inf-late-overlong     UTF-∞-8: an overlong 13-byte code (FF 80..9F) is decided
                              only once it is complete: one `overlong` span of 13 bytes
                              (a cut-short one is `truncated`), not the maximal subpart
                              (6 bytes: the byte that makes it overlong is the 7th)
  --limit N                   as the honest adapter's: UTF-∞-8 decodes with a limit of N
                              bytes, declared in the hello

--bug is repeatable: each planted bug is independent of the others.

Everything else (UTF-8, the protocol, the handshake) is the honest adapter's.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import corrected_utf8 as honest  # noqa: E402  (after the path is set)
import utf_inf8  # noqa: E402

_decode = honest.decode_corrected


def _row_bounds(row: int) -> tuple[int, int, int]:
    """(length, first code point, last code point) of a table row, 1-based."""
    n, first, last, _ = honest._CORRECTED_ROWS[row - 1]
    return n, first, last


def plant_table_row(row: int) -> None:
    n, first, last = _row_bounds(row)

    def decode(data: bytes, base: int = 0):
        # The honest value comes from the right offset; the buggy one is one more.
        return [
            honest.CodePoint(e.value + 1, e.offset, e.length)
            if isinstance(e, honest.CodePoint) and e.length == n and first <= e.value <= last
            else e
            for e in _decode(data, base)
        ]

    rows = list(honest._CORRECTED_ROWS)
    length, lo, hi, offset = rows[row - 1]
    # Encoding subtracts the offset: one more there too, and the row's first code point
    # no longer fits (it raises, which the adapter answers `unsupported`).
    rows[row - 1] = (length, lo, hi, offset + 1)
    honest._CORRECTED_ROWS = tuple(rows)
    install(decode)


def plant_swallow() -> None:
    def decode(data: bytes, base: int = 0):
        events = _decode(data, base)
        for k, e in enumerate(events):
            end = e.offset - base + e.length
            if isinstance(e, honest.Span) and e.kind == "truncated" and end < len(data):
                # The byte after the truncated sequence is lost.
                return events[: k + 1] + decode(data[end + 1 :], base + end + 1)
        return events

    install(decode)


def plant_inner_magic_nul() -> None:
    check = honest.check_document

    def check_document(data: bytes):
        findings = []
        for f in check(data):
            findings.append(f)
            if f.kind == "inner-magic":
                # The magic number's third code point, U+0000, two columns on.
                findings.append(
                    honest.Finding("nul", honest.ERROR, f.offset + 6, f.line, f.column + 2))
        return findings

    honest.check_document = check_document


def plant_magic_line() -> None:
    check = honest.check_document

    def check_document(data: bytes):
        findings = check(data)
        if data[: len(honest.MAGIC)] == honest.MAGIC:
            findings = [f._replace(line=f.line + 1) for f in findings]
        return findings

    honest.check_document = check_document


def _shifted(events, by: int):
    """UTF-∞-8 events with their offsets moved on by `by`."""
    return [e._replace(offset=e.offset + by) for e in events]


def plant_inf_limit_ge() -> None:
    shortest = utf_inf8._Code.shortest_completion

    def shortest_plus_one(self) -> int:
        # decode() tests `shortest > limit`: one more makes it `shortest >= limit`.
        return shortest(self) + 1

    utf_inf8._Code.shortest_completion = shortest_plus_one


def _crossing(code: bytes, limit: int) -> int:
    """How many bytes of an over-long code are read when the limit is found crossed."""
    state = utf_inf8._Code.start(code[0])
    if isinstance(state, str) or state.shortest_completion() > limit:
        return 1
    for j in range(1, len(code)):
        if state.push(code[j]) is not None or state.complete():
            return j + 1
        if state.shortest_completion() > limit:
            return j + 1
    return len(code)


def plant_inf_limit_cut() -> None:
    decode = utf_inf8.decode

    def cut(data: bytes, limit=utf_inf8.DEFAULT_LIMIT):
        events = decode(data, limit)
        for k, e in enumerate(events):
            if isinstance(e, utf_inf8.Span) and e.kind == "limit-exceeded" and limit is not None:
                n = _crossing(data[e.offset:e.offset + e.length], limit)
                if n < e.length:
                    # The span stops where the limit was crossed; decoding resumes there.
                    rest = cut(data[e.offset + n:], limit)
                    return (events[:k] + [e._replace(length=n)]
                            + _shifted(rest, e.offset + n))
        return events

    utf_inf8.decode = cut


def plant_inf_late_overlong() -> None:
    decode = utf_inf8.decode

    def late(data: bytes, limit=utf_inf8.DEFAULT_LIMIT):
        events = decode(data, limit)
        for k, e in enumerate(events):
            at = e.offset
            if (isinstance(e, utf_inf8.Span) and e.kind == "overlong" and data[at] == 0xFF
                    and at + 1 < len(data) and 0x80 <= data[at + 1] <= 0x9F):
                # Read on to the form's 13 bytes before deciding anything.
                n = 1
                while n < 13 and at + n < len(data) and 0x80 <= data[at + n] <= 0xBF:
                    n += 1
                span = utf_inf8.Span("overlong" if n == 13 else "truncated", at, n)
                return events[:k] + [span] + _shifted(late(data[at + n:], limit), at + n)
        return events

    utf_inf8.decode = late


def install(decode) -> None:
    honest.decode_corrected = decode  # check_document looks it up at call time
    honest._DECODERS["corrected-utf8"] = decode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    plants = {
        "table-row": None,
        "swallow": plant_swallow,
        "inner-magic-nul": plant_inner_magic_nul,
        "magic-line": plant_magic_line,
        "inf-limit-ge": plant_inf_limit_ge,
        "inf-limit-cut": plant_inf_limit_cut,
        "inf-late-overlong": plant_inf_late_overlong,
    }
    parser.add_argument("--bug", choices=list(plants), action="append", required=True)
    parser.add_argument("--row", type=int, default=2, choices=range(1, 8))
    parser.add_argument("--limit", type=honest.limit_argument, metavar="N")
    args = parser.parse_args()
    for bug in args.bug:
        if bug == "table-row":
            plant_table_row(args.row)
        else:
            plants[bug]()
    if args.limit is not None:
        honest.set_limit(args.limit)
    honest.HELLO = dict(
        honest.HELLO, name="deliberately broken (--bug %s)" % ", --bug ".join(args.bug))
    return honest.main([])


if __name__ == "__main__":
    sys.exit(main())
