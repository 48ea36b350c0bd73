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

--bug is repeatable: each planted bug is independent of the others.

Everything else (UTF-8, UTF-∞-8, the protocol, the handshake) is the honest adapter's.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import corrected_utf8 as honest  # noqa: E402  (after the path is set)

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


def install(decode) -> None:
    honest.decode_corrected = decode  # check_document looks it up at call time
    honest._DECODERS["corrected-utf8"] = decode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    bugs = ["table-row", "swallow", "inner-magic-nul", "magic-line"]
    parser.add_argument("--bug", choices=bugs, action="append", required=True)
    parser.add_argument("--row", type=int, default=2, choices=range(1, 8))
    args = parser.parse_args()
    for bug in args.bug:
        if bug == "table-row":
            plant_table_row(args.row)
        elif bug == "swallow":
            plant_swallow()
        elif bug == "inner-magic-nul":
            plant_inner_magic_nul()
        else:
            plant_magic_line()
    honest.HELLO = dict(
        honest.HELLO, name="deliberately broken (--bug %s)" % ", --bug ".join(args.bug))
    return honest.main()


if __name__ == "__main__":
    sys.exit(main())
