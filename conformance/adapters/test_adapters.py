"""Tests of the conformance adapters.

Run from the repository root:

    python3 -m unittest discover -s conformance/adapters -p 'test_*.py'

* unit tests of corrected_utf8.py against the examples of docs/semantics.md;
* a smoke test that runs each adapter as a subprocess over the line protocol;
* when vector files exist under vectors/, every adapter against every vector it
  supports (skipped when the files are absent).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VECTORS = os.environ.get("ADAPTER_VECTORS_DIR") or os.path.join(ROOT, "vectors")
sys.path.insert(0, HERE)

import corrected_utf8 as cu  # noqa: E402
from corrected_utf8 import CodePoint, Reserved, Span  # noqa: E402

NODE = shutil.which("node")

ADAPTERS = {
    "corrected_utf8": [sys.executable, os.path.join(HERE, "corrected_utf8.py")],
    "python_codec": [sys.executable, os.path.join(HERE, "python_codec.py")],
    "node_textdecoder": [NODE or "node", os.path.join(HERE, "node_textdecoder.js")],
}


def h(text: str) -> bytes:
    return bytes.fromhex(text.replace(" ", ""))


def cps(events):
    """Code points as ints, error spans as (kind, offset, length), reserved spans as
    ("reserved", offset, length) (a reserved span has no kind: the word is a label)."""
    return [e.value if isinstance(e, CodePoint)
            else ("reserved", e.offset, e.length) if isinstance(e, Reserved)
            else (e.kind, e.offset, e.length) for e in events]


# ============================================================================ Corrected UTF-8

# docs/semantics.md §2.2: first and last sequence of every row, and their code points.
TABLE = [
    ("00", 0x0000, "7f", 0x007F),
    ("c0 80", 0x00A0, "df bf", 0x089F),
    ("e0 80 80", 0x08A0, "ec bd 9f", 0xD7FF),
    ("ec bd a0", 0xE000, "ef bf bf", 0x1109F),
    ("f0 80 80 80", 0x110A0, "f7 bf bf bf", 0x21109F),
    ("f8 80 80 80 80", 0x2110A0, "fb bf bf bf bf", 0x421109F),
    ("fc 80 80 80 80 80", 0x42110A0, "fd bf bf bf bf bf", 0x8421109F),
]


class CorrectedTable(unittest.TestCase):
    def test_rows_both_ways(self):
        for first, first_cp, last, last_cp in TABLE:
            for seq, cp in ((first, first_cp), (last, last_cp)):
                with self.subTest(seq=seq):
                    data = h(seq)
                    self.assertEqual(cu.decode_corrected(data), [CodePoint(cp, 0, len(data))])
                    self.assertEqual(cu.encode_corrected(cp), data)

    def test_c0_af(self):
        self.assertEqual(cps(cu.decode_corrected(h("c0 af"))), [0x00CF])
        self.assertEqual(cu.encode_corrected(0xCF), h("c0 af"))

    def test_magic_number_code_points(self):
        self.assertEqual(cps(cu.decode_corrected(cu.MAGIC)), [0x10E7D, 0xED4E, 0x0000, 0x000A])

    def test_surrogate_gap_is_contiguous_in_bytes(self):
        # raw CF5F and CF60 are adjacent sequences: U+D7FF then U+E000.
        self.assertEqual(cu.encode_corrected(0xD7FF), h("ec bd 9f"))
        self.assertEqual(cu.encode_corrected(0xE000), h("ec bd a0"))

    def test_row_boundaries_round_trip_and_sort(self):
        values = []
        for n, first, last, _ in cu._CORRECTED_ROWS:
            values += [first, first + 1, last - 1, last]
        values = sorted(v for v in set(values) if not 0x80 <= v <= 0x9F)
        encoded = [cu.encode_corrected(v) for v in values]
        self.assertEqual(encoded, sorted(encoded), "encodings sort byte-wise in code point order")
        for v, b in zip(values, encoded):
            self.assertEqual(cu.decode_corrected(b), [CodePoint(v, 0, len(b))])

    def test_every_short_sequence_is_valid_and_unique(self):
        # Every structurally complete 1-, 2- and 3-byte sequence decodes to a code point
        # whose encoding is that sequence (no overlong/surrogate/out-of-range forms).
        seen = set()
        seqs = [bytes([a]) for a in range(0x80)]
        seqs += [bytes([a, b]) for a in range(0xC0, 0xE0) for b in range(0x80, 0xC0)]
        seqs += [bytes([a, b, c]) for a in range(0xE0, 0xF0) for b in range(0x80, 0xC0) for c in range(0x80, 0xC0)]
        for s in seqs:
            (e,) = cu.decode_corrected(s)
            self.assertIsInstance(e, CodePoint)
            self.assertEqual(cu.encode_corrected(e.value), s)
            seen.add(e.value)
        self.assertEqual(len(seen), len(seqs))
        self.assertEqual(seen, set(range(0x1109F + 1)) - set(range(0x80, 0xA0)) - set(range(0xD800, 0xE000)))

    def test_encode_errors(self):
        for cp, kind in [
            (0x80, "c1-control"), (0x9F, "c1-control"),
            (0xD800, "surrogate"), (0xDFFF, "surrogate"),
            (0x8421_10A0, "out-of-range"), (0xFFFF_FFFF, "out-of-range"),
        ]:
            with self.subTest(cp=hex(cp)):
                with self.assertRaises(cu.EncodeError) as ctx:
                    cu.encode_corrected(cp)
                self.assertEqual(ctx.exception.kind, kind)
        for cp in (0x7F, 0xA0, 0xD7FF, 0xE000, 0x10FFFF, 0x110000, 0x8421109F):
            cu.encode_corrected(cp)  # nothing else fails


    def test_encode_string_stops_at_the_first_failure(self):
        enc = cu.encode_corrected
        self.assertEqual(cu.encode_string(enc, []), {"bytes": ""})
        self.assertEqual(cu.encode_string(enc, ["U+0041", "U+00A0"]), {"bytes": "41c080"})
        self.assertEqual(
            cu.encode_string(enc, ["U+0041", "U+0080", "U+D800"]),
            {"error": "c1-control", "index": 1})
        self.assertEqual(
            cu.encode_string(enc, ["U+D800", "U+0080"]), {"error": "surrogate", "index": 0})

    def test_python_codec_encodes_a_string_at_once(self):
        import python_codec as pc
        self.assertEqual(pc._encode_string(["U+0041", "U+00E9"]), {"bytes": "41c3a9"})
        self.assertEqual(pc._encode_string([]), {"bytes": ""})
        self.assertEqual(
            pc._encode_string(["U+0041", "U+DC00", "U+110000"]),
            {"error": "surrogate", "index": 1})
        self.assertEqual(
            pc._encode_string(["U+0041", "U+110000", "U+D800"]),
            {"error": "out-of-range", "index": 1})


class CorrectedDecodeErrors(unittest.TestCase):
    def test_reserved_run(self):
        self.assertEqual(cps(cu.decode_corrected(h("fe fe 80 41"))), [("reserved", 0, 3), 0x41])

    def test_reserved_stops_at_every_recognized_lead(self):
        for lead in list(range(0x00, 0x80)) + list(range(0xC0, 0xFE)):
            data = bytes([0xFF, 0x80, 0xFE, 0xBF, lead])
            ev = cu.decode_corrected(data)
            self.assertEqual(ev[0], Reserved(0, 4), hex(lead))

    def test_reserved_to_end_and_alone(self):
        self.assertEqual(cps(cu.decode_corrected(h("ff"))), [("reserved", 0, 1)])
        self.assertEqual(cps(cu.decode_corrected(h("41 ff 80 80 fe"))), [0x41, ("reserved", 1, 4)])

    def test_unexpected_continuation(self):
        self.assertEqual(
            cps(cu.decode_corrected(h("80 bf 41"))),
            [("unexpected-continuation", 0, 1), ("unexpected-continuation", 1, 1), 0x41],
        )

    def test_truncated(self):
        cases = [
            ("c0", [("truncated", 0, 1)]),
            ("c0 41", [("truncated", 0, 1), 0x41]),
            ("e0 80", [("truncated", 0, 2)]),
            ("e0 80 41", [("truncated", 0, 2), 0x41]),
            ("f0 80 80 e0 80 80", [("truncated", 0, 3), 0x08A0]),
            ("fc 80 80 80 80", [("truncated", 0, 5)]),
            ("fc 80 80 80 80 fe 80", [("truncated", 0, 5), ("reserved", 5, 2)]),
            ("fd fd bf", [("truncated", 0, 1), ("truncated", 1, 2)]),
        ]
        for data, expected in cases:
            with self.subTest(data=data):
                self.assertEqual(cps(cu.decode_corrected(h(data))), expected)

    def test_spans_cover_input(self):
        data = h("41 80 c0 fe ff 80 c2 a0 e0 fc 80 80 80 80 80 f0 80")
        ev = cu.decode_corrected(data)
        pos = 0
        for e in ev:
            self.assertEqual(e.offset, pos)
            pos += e.length
        self.assertEqual(pos, len(data))

    def test_lossy_valid_strict(self):
        ev = cu.decode_corrected(h("41 fe 80 c0"))
        self.assertEqual(cu.lossy(ev), [0x41, 0xFFFD, 0xFFFD])
        # SPEC §1: a strict decode stops at the first span of either class.
        self.assertEqual(cu.first_span(ev), Reserved(1, 2))
        self.assertEqual(cu.first_error(ev), Span("truncated", 3, 1))
        self.assertIsNone(cu.first_span(cu.decode_corrected(h("41 c0 80"))))

    def test_reserved_is_not_an_error(self):
        # SPEC §1, §2.4a: three outcomes; a reserved span is its own class of event.
        for data, result in [
            ("41 c0 80", "valid"),
            ("", "valid"),
            ("fe", "reserved"),
            ("41 fe fe 80 41", "reserved"),
            ("fe 80 c0", "invalid"),  # both classes: invalid
            ("80 fe", "invalid"),
        ]:
            with self.subTest(data=data):
                ev = cu.decode_corrected(h(data))
                self.assertEqual(cu.validity(ev), result)
        ev = cu.decode_corrected(h("fe 80 41"))
        self.assertEqual(ev, [Reserved(0, 2), CodePoint(0x41, 2, 1)])
        self.assertIsNone(cu.first_error(ev))

    def test_future_eight_byte_form_is_cut(self):
        # SPEC §2.4a: the source's sketched 8-byte form FF 110xxxxx … is cut at the C0-DF
        # byte, a recognized lead: a reserved span of 1, then the 2-byte sequence.
        self.assertEqual(cps(cu.decode_corrected(h("ff c0 80"))), [("reserved", 0, 1), 0xA0])


def F(kind, offset, line, column):
    severity = "error" if kind in ("nul", "truncated", "unexpected-continuation") else "warning"
    return cu.Finding(kind, severity, offset, line, column)


class Documents(unittest.TestCase):
    M = "efb79dedb2ae000a"

    def doc(self, text):
        return cu.check_document(h(text))

    def test_empty_file(self):
        self.assertEqual(self.doc(""), [F("missing-magic", 0, 1, 1)])

    def test_magic_only(self):
        self.assertEqual(self.doc(self.M), [])

    def test_magic_and_line(self):
        self.assertEqual(self.doc(self.M + "41 0a"), [])

    def test_magic_prefix_is_text(self):
        # EF B7 9D ED B2 AE 00: a proper prefix: text with a nul and no final newline.
        self.assertEqual(
            self.doc("efb79dedb2ae00"),
            [F("missing-magic", 0, 1, 1), F("nul", 6, 1, 3), F("missing-final-newline", 7, 1, 4)],
        )

    def test_magic_elsewhere_is_text(self):
        # SPEC §2.6: a complete magic number after the start is text with the warning
        # inner-magic at its first byte; its 00 is not nul; its 0A ends a line.
        self.assertEqual(self.doc(self.M + self.M), [F("inner-magic", 8, 1, 1)])
        self.assertEqual(
            self.doc("0a" + self.M),
            [F("missing-magic", 0, 1, 1), F("inner-magic", 1, 2, 1)],
        )
        self.assertEqual(
            self.doc(self.M + "41 0a 42" + self.M + "43 0a"),
            [F("inner-magic", 11, 2, 2)],
        )
        # Line 3 starts after the inner magic number's 0A.
        self.assertEqual(
            self.doc(self.M + "42" + self.M + "0d 0a"),
            [F("inner-magic", 9, 1, 2), F("cr", 17, 2, 1)],
        )
        # Two in a row, without a leading one.
        self.assertEqual(
            self.doc("41 42" + self.M + self.M),
            [F("missing-magic", 0, 1, 1), F("inner-magic", 2, 1, 3), F("inner-magic", 10, 2, 1)],
        )

    def test_nul_in_an_incomplete_magic_number(self):
        # SPEC §2.6: a lone 00 or a 00 in an incomplete magic number is nul.
        incomplete = [
            "efb79dedb2ae00 41 0a",  # the 0A is missing
            "b79dedb2ae000a",  # EF is missing: a stray continuation
            "edb2ae000a",  # U+10E7D is missing
            "efb79d 41 edb2ae000a",  # not consecutive
        ]
        for text in incomplete:
            with self.subTest(text=text):
                found = self.doc(self.M + text)
                nul = 8 + h(text).index(0)
                self.assertIn(F("nul", nul, 1, sum(1 for _ in cu.decode_corrected(h(text)[: nul - 8])) + 1),
                              found)
                self.assertNotIn("inner-magic", [f.kind for f in found])
        self.assertEqual(self.doc(self.M + "00 0a"), [F("nul", 8, 1, 1)])

    def test_reserved_is_a_warning(self):
        # SPEC §2.6: a reserved span is a warning at its offset (one column); the
        # document stays valid; an error span next to it is still an error.
        found = self.doc(self.M + "fe 80 41 0a")
        self.assertEqual(found, [F("reserved", 8, 1, 1)])
        self.assertEqual(found[0].severity, "warning")
        self.assertEqual(
            self.doc(self.M + "ff 41 c0 0a"),
            [F("reserved", 8, 1, 1), F("truncated", 10, 1, 3)],
        )

    def test_tab_and_controls(self):
        self.assertEqual(
            self.doc(self.M + "09 41 01 1f 7f 0a"),
            [F("c0-control", 8, 1, 1), F("c0-control", 10, 1, 3), F("c0-control", 11, 1, 4)],
        )

    def test_cr_separators(self):
        # U+2028 and U+2029 in Corrected UTF-8: raw = cp - 2208.
        ls, ps = cu.encode_corrected(0x2028).hex(), cu.encode_corrected(0x2029).hex()
        self.assertEqual(len(ls) // 2, 3)
        self.assertEqual(
            self.doc(self.M + "41 0d 0a" + ls + ps + "0a"),
            [F("cr", 9, 1, 2), F("line-separator", 11, 2, 1), F("paragraph-separator", 14, 2, 2)],
        )

    def test_columns_count_events(self):
        # Line 2: A, (C0 AF) = one code point, FE FE 80 = one span, B, NUL.
        self.assertEqual(
            self.doc(self.M + "0a 41 c0af fefe80 42 00 0a"),
            [F("reserved", 12, 2, 3), F("nul", 16, 2, 5)],
        )

    def test_nul_at_offset_zero_without_magic(self):
        self.assertEqual(self.doc("00 0a"), [F("missing-magic", 0, 1, 1), F("nul", 0, 1, 1)])

    def test_missing_final_newline(self):
        self.assertEqual(self.doc(self.M + "41 0a 42 43"), [F("missing-final-newline", 12, 2, 3)])
        # A text ending in an error span has no final newline.
        self.assertEqual(
            self.doc(self.M + "41 0a c0"),
            [F("truncated", 10, 2, 1), F("missing-final-newline", 11, 2, 2)],
        )
        self.assertEqual(
            self.doc(self.M + "0a fe"),
            [F("reserved", 9, 2, 1), F("missing-final-newline", 10, 2, 2)],
        )
        # Not for an empty text, whether or not the magic number is there.
        self.assertEqual(self.doc(""), [F("missing-magic", 0, 1, 1)])
        self.assertEqual(self.doc("41"), [F("missing-magic", 0, 1, 1), F("missing-final-newline", 1, 1, 2)])

    def test_error_kinds_and_lines(self):
        self.assertEqual(
            self.doc(self.M + "80 0a e0 80 41 0a"),
            [F("unexpected-continuation", 8, 1, 1), F("truncated", 10, 2, 1)],
        )

    def test_order(self):
        found = self.doc("0d 00 80 09 fe 41")
        self.assertEqual([f.offset for f in found], [0, 0, 1, 2, 3, 4, 6])
        self.assertEqual(found[0].kind, "missing-magic")


# ============================================================================ UTF-8

class Utf8(unittest.TestCase):
    def test_table_3_8(self):
        ev = cu.decode_utf8(h("61 F1 80 80 E1 80 C2 62 80 63 80 BF 64"))
        self.assertEqual(cu.lossy(ev), [0x61, 0xFFFD, 0xFFFD, 0xFFFD, 0x62, 0xFFFD, 0x63, 0xFFFD, 0xFFFD, 0x64])
        self.assertEqual(
            cps(ev),
            [0x61, ("truncated", 1, 3), ("truncated", 4, 2), ("truncated", 6, 1), 0x62,
             ("unexpected-continuation", 8, 1), 0x63,
             ("unexpected-continuation", 10, 1), ("unexpected-continuation", 11, 1), 0x64],
        )

    def test_kinds(self):
        cases = [
            ("c0 af", [("overlong", 0, 1), ("unexpected-continuation", 1, 1)]),
            ("c1 41", [("overlong", 0, 1), 0x41]),
            ("e0 80 80", [("overlong", 0, 1), ("unexpected-continuation", 1, 1), ("unexpected-continuation", 2, 1)]),
            ("e0 a0", [("truncated", 0, 2)]),
            ("e0 41", [("truncated", 0, 1), 0x41]),
            ("ed a0 80", [("surrogate", 0, 1), ("unexpected-continuation", 1, 1), ("unexpected-continuation", 2, 1)]),
            ("ed 9f bf", [0xD7FF]),
            ("f0 8f bf bf", [("overlong", 0, 1)] + [("unexpected-continuation", i, 1) for i in (1, 2, 3)]),
            ("f0 90 80", [("truncated", 0, 3)]),
            ("f4 90 80 80", [("out-of-range", 0, 1)] + [("unexpected-continuation", i, 1) for i in (1, 2, 3)]),
            ("f4 8f bf bf", [0x10FFFF]),
            ("f5 80", [("out-of-range", 0, 1), ("unexpected-continuation", 1, 1)]),
            ("fd", [("out-of-range", 0, 1)]),
            ("fe ff", [("invalid-byte", 0, 1), ("invalid-byte", 1, 1)]),
            ("c2", [("truncated", 0, 1)]),
            ("ef bf", [("truncated", 0, 2)]),
            ("f1 80 80 41", [("truncated", 0, 3), 0x41]),
        ]
        for data, expected in cases:
            with self.subTest(data=data):
                self.assertEqual(cps(cu.decode_utf8(h(data))), expected)

    def test_encode(self):
        self.assertEqual(cu.encode_utf8(0x7F), h("7f"))
        self.assertEqual(cu.encode_utf8(0x80), h("c2 80"))
        self.assertEqual(cu.encode_utf8(0x10FFFF), h("f4 8f bf bf"))
        for cp, kind in [(0xD800, "surrogate"), (0xDFFF, "surrogate"), (0x110000, "out-of-range")]:
            with self.assertRaises(cu.EncodeError) as ctx:
                cu.encode_utf8(cp)
            self.assertEqual(ctx.exception.kind, kind)

    def test_agrees_with_cpython_on_short_inputs(self):
        # Every input of up to 2 bytes, and 3-byte inputs over interesting bytes.
        import itertools
        pick = [0x00, 0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1,
                0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFE, 0xFF]
        inputs = [bytes(t) for n in (0, 1, 2) for t in itertools.product(range(256), repeat=n)]
        inputs += [bytes(t) for n in (3, 4) for t in itertools.product(pick, repeat=n)]
        for data in inputs:
            ev = cu.decode_utf8(data)
            self.assertEqual(cu.lossy(ev), [ord(c) for c in data.decode("utf-8", "replace")], data.hex())


    def test_python_codec_spans_are_the_independent_decoders_spans(self):
        # `python_codec.py --spans`: CPython's error handler gives every span, no kind; they
        # are this module's spans, kinds left out, on short inputs.
        import itertools
        import python_codec as pc
        pick = [0x41, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
        inputs = [bytes(t) for n in (0, 1, 2) for t in itertools.product(range(256), repeat=n)]
        inputs += [bytes(t) for n in (3, 4) for t in itertools.product(pick, repeat=n)]
        for data in inputs:
            expected = [cu.event_to_json(e) for e in cu.decode_utf8(data)]
            for e in expected:
                if "error" in e:
                    e["error"] = None
            self.assertEqual(pc._spans(data), expected, data.hex())


# ============================================================================ protocol

class Protocol(unittest.TestCase):
    def test_handle(self):
        r = cu.handle({"id": "f#1", "encoding": "corrected-utf8", "op": "decode", "input": "fefe8041"})
        self.assertEqual(r, {
            "id": "f#1",
            "output": [{"reserved": True, "offset": 0, "length": 3}, {"codepoint": "U+0041"}],
            "lossy": ["U+FFFD", "U+0041"],
            "result": "reserved",
            "valid": False,
            "strict": {"offset": 0, "length": 3, "reserved": True},
        })
        r = cu.handle({"id": "f#2", "encoding": "corrected-utf8", "op": "decode", "input": "fe41c0"})
        self.assertEqual((r["result"], r["valid"]), ("invalid", False))
        self.assertEqual(r["strict"], {"offset": 0, "length": 1, "reserved": True})
        r = cu.handle({"id": "f#3", "encoding": "corrected-utf8", "op": "decode", "input": "c0af"})
        self.assertEqual((r["result"], r["valid"], r["strict"]), ("valid", True, None))
        self.assertEqual(cu.handle({"id": 1, "encoding": "corrected-utf8", "op": "encode", "codepoint": "U+00CF"}),
                         {"id": 1, "bytes": "c0af"})
        self.assertEqual(cu.handle({"id": 1, "encoding": "corrected-utf8", "op": "encode", "codepoint": "U+0085"}),
                         {"id": 1, "error": "c1-control"})
        self.assertEqual(cu.handle({"id": 2, "encoding": "utf-8", "op": "decode", "input": ""}),
                         {"id": 2, "output": [], "lossy": [], "result": "valid", "valid": True, "strict": None})
        self.assertEqual(cu.handle({"id": 3, "encoding": "corrected-utf8", "op": "document", "input": ""}),
                         {"id": 3, "findings": [{"kind": "missing-magic", "severity": "warning",
                                                 "offset": 0, "line": 1, "column": 1}]})

    def test_unsupported_and_malformed(self):
        for req in [
            {"id": "x", "encoding": "utf-inf-8", "op": "document", "input": "00"},
            {"id": "x", "encoding": "utf-inf-8", "op": "encode", "codepoint": "U+"},
            {"id": "x", "encoding": "utf-8", "op": "document", "input": "00"},
            {"id": "x", "encoding": "utf-8", "op": "decode", "input": "0"},
            {"id": "x", "encoding": "utf-8", "op": "decode", "input": "zz"},
            {"id": "x", "encoding": "utf-8", "op": "decode"},
            {"id": "x", "encoding": "utf-8", "op": "encode", "codepoint": "0041"},
            {"id": "x", "encoding": "utf-8", "op": "frobnicate"},
        ]:
            self.assertEqual(cu.handle(req), {"id": "x", "unsupported": True}, req)
        self.assertEqual(cu.handle_line("not json"), {"id": None, "unsupported": True})
        self.assertEqual(cu.handle_line("[1, 2]"), {"id": None, "unsupported": True})
        self.assertEqual(cu.handle_line(""), {"id": None, "unsupported": True})


def run_adapter(name, requests, timeout=30):
    """Send lines to an adapter subprocess; return its response lines parsed."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    proc = subprocess.run(
        ADAPTERS[name], input="".join(l + "\n" for l in lines).encode(),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, check=False,
    )
    if proc.returncode != 0:
        raise AssertionError("%s exited %d: %s" % (name, proc.returncode, proc.stderr.decode()))
    out = proc.stdout.decode().splitlines()
    if len(out) != len(lines):
        raise AssertionError("%s: %d requests, %d responses" % (name, len(lines), len(out)))
    return [json.loads(l) for l in out]


SMOKE = [
    {"id": "s#1", "encoding": "utf-8", "op": "decode", "input": "61f18080e180c262806380bf64"},
    "this is not json",
    {"id": "s#2", "encoding": "utf-8", "op": "decode", "input": "efbbbf41"},
    {"id": "s#3", "encoding": "utf-8", "op": "encode", "codepoint": "U+10FFFF"},
    {"id": "s#4", "encoding": "utf-8", "op": "encode", "codepoint": "U+110000"},
    {"id": "s#5", "encoding": "utf-8", "op": "decode", "input": "xyz"},
    {"id": "s#6", "encoding": "utf-inf-8", "op": "document", "input": "00"},
    '{"id": "s#7", "encoding": "utf-8"',
    {"id": "s#8", "encoding": "utf-8", "op": "decode", "input": "41"},
]
TABLE_3_8_LOSSY = ["U+0061", "U+FFFD", "U+FFFD", "U+FFFD", "U+0062", "U+FFFD", "U+0063", "U+FFFD", "U+FFFD", "U+0064"]


class Smoke(unittest.TestCase):
    def test_python_codec_declares_and_sends_spans_with_its_flag(self):
        argv = ADAPTERS["python_codec"] + ["--spans"]
        lines = [json.dumps({"id": "hello", "op": "hello", "protocol": 2}), json.dumps(SMOKE[0])]
        proc = subprocess.run(argv, input="".join(l + "\n" for l in lines).encode(),
                              stdout=subprocess.PIPE, timeout=30, check=True)
        hello, answer = [json.loads(l) for l in proc.stdout.decode().splitlines()]
        self.assertIn("spans", hello["supports"][0]["fields"])
        self.assertEqual(answer["spans"][:3], [
            {"codepoint": "U+0061"},
            {"error": None, "offset": 1, "length": 3},
            {"error": None, "offset": 4, "length": 2},
        ])
        # Without the flag: neither declared nor sent.
        r = run_adapter("python_codec", [{"id": "hello", "op": "hello", "protocol": 2}, SMOKE[0]])
        self.assertNotIn("spans", r[0]["supports"][0]["fields"])
        self.assertNotIn("spans", r[1])

    def check_common(self, name):
        r = run_adapter(name, SMOKE)
        self.assertEqual([x["id"] for x in r], ["s#1", None, "s#2", "s#3", "s#4", "s#5", "s#6", None, "s#8"])
        self.assertEqual(r[0]["lossy"], TABLE_3_8_LOSSY)
        self.assertIs(r[0]["valid"], False)
        self.assertEqual(r[0]["result"], "invalid")
        self.assertEqual(r[8]["result"], "valid")
        self.assertEqual(r[1], {"id": None, "unsupported": True})
        self.assertEqual(r[2]["lossy"], ["U+FEFF", "U+0041"], "a leading BOM is kept")
        self.assertEqual(r[3]["bytes"], "f48fbfbf")
        self.assertIn("error", r[4])
        self.assertNotIn("bytes", r[4])
        self.assertEqual(r[5], {"id": "s#5", "unsupported": True})
        self.assertEqual(r[6], {"id": "s#6", "unsupported": True})
        self.assertEqual(r[7], {"id": None, "unsupported": True})
        self.assertEqual(r[8]["lossy"], ["U+0041"])
        return r

    def test_corrected_utf8(self):
        r = self.check_common("corrected_utf8")
        self.assertEqual(r[0]["strict"], {"offset": 1, "length": 3, "error": "truncated"})
        self.assertEqual(r[4]["error"], "out-of-range")
        more = run_adapter("corrected_utf8", [
            {"id": "c#1", "encoding": "corrected-utf8", "op": "decode", "input": "c0affefe8041"},
            {"id": "c#2", "encoding": "corrected-utf8", "op": "encode", "codepoint": "U+D800"},
            {"id": "c#3", "encoding": "corrected-utf8", "op": "document", "input": "efb79dedb2ae000a"},
        ])
        self.assertEqual(more[0]["lossy"], ["U+00CF", "U+FFFD", "U+0041"])
        self.assertEqual(more[0]["output"][1], {"reserved": True, "offset": 2, "length": 3})
        self.assertEqual((more[0]["result"], more[0]["valid"]), ("reserved", False))
        self.assertEqual(more[0]["strict"], {"offset": 2, "length": 3, "reserved": True})
        self.assertEqual(more[1], {"id": "c#2", "error": "surrogate"})
        self.assertEqual(more[2], {"id": "c#3", "findings": []})
        inf8 = run_adapter("corrected_utf8", [
            {"id": "i#1", "encoding": "utf-inf-8", "op": "decode", "input": "ffb4a041"},
            {"id": "i#2", "encoding": "utf-inf-8", "op": "encode", "codepoint": "U+" + "A" * 51},
            {"id": "i#3", "encoding": "utf-inf-8", "op": "encode", "codepoint": "U+D800"},
        ])
        self.assertEqual(inf8[0]["output"], [{"error": "overlong", "offset": 0, "length": 2},
                                             {"error": "unexpected-continuation", "offset": 2, "length": 1},
                                             {"codepoint": "U+0041"}])
        self.assertEqual(inf8[1], {"id": "i#2", "bytes": "ffb4a2a1" + "aa" * 34})
        self.assertEqual(inf8[2], {"id": "i#3", "error": "surrogate"})

    def test_python_codec(self):
        r = self.check_common("python_codec")
        self.assertEqual(r[0]["strict"], {"offset": 1, "length": 3})
        self.assertEqual(r[4]["error"], "out-of-range")
        more = run_adapter("python_codec", [
            {"id": "p#1", "encoding": "utf-8", "op": "encode", "codepoint": "U+DFFF"},
            {"id": "p#2", "encoding": "corrected-utf8", "op": "decode", "input": "41"},
            {"id": "p#3", "encoding": "utf-8", "op": "decode", "input": "e180"},
        ])
        self.assertEqual(more[0], {"id": "p#1", "error": "surrogate"})
        self.assertEqual(more[1], {"id": "p#2", "unsupported": True})
        self.assertEqual(more[2]["strict"], {"offset": 0, "length": 2})

    @unittest.skipUnless(NODE, "node is not installed")
    def test_node_textdecoder(self):
        r = self.check_common("node_textdecoder")
        self.assertNotIn("strict", r[0])
        self.assertIsNone(r[4]["error"])
        more = run_adapter("node_textdecoder", [
            {"id": "n#1", "encoding": "utf-8", "op": "encode", "codepoint": "U+D800"},
            {"id": "n#2", "encoding": "corrected-utf8", "op": "document", "input": ""},
        ])
        self.assertEqual(more[0], {"id": "n#1", "bytes": "efbfbd"}, "TextEncoder replaces a lone surrogate")
        self.assertEqual(more[1], {"id": "n#2", "unsupported": True})

    def test_hello_declares_protocol_2(self):
        # The handshake (README.md, "Protocol 2"): what each adapter answers on every case.
        want = {
            "corrected_utf8": {("corrected-utf8", "document"), ("utf-8", "decode"), ("utf-inf-8", "encode")},
            "python_codec": {("utf-8", "decode"), ("utf-8", "encode")},
            "node_textdecoder": {("utf-8", "decode"), ("utf-8", "encode")},
        }
        for name in ADAPTERS:
            if name == "node_textdecoder" and not NODE:
                continue
            with self.subTest(adapter=name):
                r = run_adapter(name, [{"id": "hello", "op": "hello", "protocol": 2}])[0]
                self.assertEqual((r["id"], r["protocol"]), ("hello", 2))
                declared = {(s["encoding"], s["op"]): s["fields"] for s in r["supports"]}
                self.assertLessEqual(want[name], set(declared))
                self.assertTrue(all(declared.values()))

    def test_a_declared_limit(self):
        # --limit N decodes UTF-∞-8 at N bytes and declares it on utf-inf-8 decode only.
        code16 = "ffa18081" + "80" * 12  # U+1 and 18 zeros (NUD 19): 16 bytes
        requests = [{"id": "hello", "op": "hello", "protocol": 2},
                    {"id": 1, "encoding": "utf-inf-8", "op": "decode", "input": code16}]
        for limit, kind in ((None, None), ("16", None), ("15", "limit-exceeded")):
            with self.subTest(limit=limit):
                args = ADAPTERS["corrected_utf8"] + (["--limit", limit] if limit else [])
                proc = subprocess.run(args, input="".join(json.dumps(r) + "\n" for r in requests).encode(),
                                      stdout=subprocess.PIPE, timeout=30, check=True)
                hello, answer = [json.loads(l) for l in proc.stdout.decode().splitlines()]
                limits = {(s["encoding"], s["op"]): s.get("limit") for s in hello["supports"]}
                self.assertEqual(limits[("utf-inf-8", "decode")], int(limit) if limit else None)
                self.assertEqual({v for k, v in limits.items() if k != ("utf-inf-8", "decode")}, {None})
                self.assertEqual(answer["output"][0].get("error"), kind)
        for bad in ("0", "4294967297", "x"):
            with self.subTest(bad=bad):
                proc = subprocess.run(ADAPTERS["corrected_utf8"] + ["--limit", bad], input=b"",
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
                self.assertEqual(proc.returncode, 2, proc.stderr)

    def test_batches_answer_like_single_requests(self):
        # README.md, "Batches": one response per request, in order, each exactly what the
        # request alone gets (malformed requests included); a bad batch is unsupported.
        requests = [r for r in SMOKE if isinstance(r, dict)] + [7, {"op": "decode"}, []]
        for name in ADAPTERS:
            if name == "node_textdecoder" and not NODE:
                continue
            with self.subTest(adapter=name):
                hello = run_adapter(name, [{"id": "hello", "op": "hello", "protocol": 2}])[0]
                self.assertEqual(hello["batch"], 4096)
                alone = run_adapter(name, requests)
                r = run_adapter(name, [
                    {"id": "b#1", "op": "batch", "requests": requests},
                    {"id": "b#2", "op": "batch", "requests": []},
                    {"id": "b#3", "op": "batch", "requests": {"id": "x"}},
                    {"id": "b#4", "op": "batch"},
                    requests[0],
                ])
                self.assertEqual(r[0], {"id": "b#1", "responses": alone})
                self.assertEqual(r[1], {"id": "b#2", "responses": []})
                self.assertEqual(r[2], {"id": "b#3", "unsupported": True})
                self.assertEqual(r[3], {"id": "b#4", "unsupported": True})
                self.assertEqual(r[4], alone[0], "line mode still works after batches")

    def test_responses_are_flushed_one_by_one(self):
        # The runner waits for each response before it sends the next request.
        for name in ADAPTERS:
            if name == "node_textdecoder" and not NODE:
                continue
            with self.subTest(adapter=name):
                proc = subprocess.Popen(ADAPTERS[name], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
                try:
                    for i in range(3):
                        req = {"id": "i#%d" % i, "encoding": "utf-8", "op": "decode", "input": "41" * i}
                        proc.stdin.write((json.dumps(req) + "\n").encode())
                        proc.stdin.flush()
                        self.assertEqual(json.loads(proc.stdout.readline())["id"], "i#%d" % i)
                finally:
                    proc.stdin.close()
                    proc.wait(timeout=10)
                    proc.stdout.close()


# ============================================================================ vectors

def load_vectors():
    """[(file, encoding, op, test)] for every vector file present.

    Every vectors/<encoding>/*.json file; its top-level "schema" (decode, encode,
    document) and "encoding" say what its tests are, else the file's name and folder.
    """
    import glob
    cases = []
    for path in sorted(glob.glob(os.path.join(VECTORS, "*", "*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if not isinstance(doc, dict) or "testGroups" not in doc:
            continue
        encoding = doc.get("encoding") or os.path.basename(os.path.dirname(path))
        op = doc.get("schema") or os.path.splitext(os.path.basename(path))[0]
        if op not in ("decode", "encode", "document"):
            continue
        rel = os.path.relpath(path, ROOT)
        for group in doc["testGroups"]:
            for test in group.get("tests", []):
                cases.append((rel, encoding, op, test))
    return cases


def request_for(file, encoding, op, test):
    req = {"id": "%s#%s" % (file, test.get("tcId")), "encoding": encoding, "op": op}
    if op == "encode":
        req["codepoint"] = test["codepoint"]
    else:
        req["input"] = test["input"]
    return req


def norm_cp(s):
    return "U+%04X" % int(s[2:], 16) if isinstance(s, str) and s[:2].upper() == "U+" else s


def norm_events(events):
    out = []
    for e in events:
        e = dict(e)
        if "codepoint" in e:
            e["codepoint"] = norm_cp(e["codepoint"])
        out.append(e)
    return out


def compare(op, test, resp):
    """Mismatches between a vector and an adapter response: [str]; None if unsupported."""
    if resp.get("unsupported"):
        return None
    problems = []

    def differ(field, expected, got):
        if expected != got:
            problems.append("%s: expected %s, got %s" % (field, json.dumps(expected), json.dumps(got)))

    if op == "decode":
        expected_events = norm_events(test["output"]) if "output" in test else None
        if "output" in resp and expected_events is not None:
            differ("output", expected_events, norm_events(resp["output"]))
        if expected_events is not None:
            exp_lossy = [e["codepoint"] if "codepoint" in e else "U+FFFD" for e in expected_events]
            first = next((e for e in expected_events if "codepoint" not in e), None)
        else:
            exp_lossy, first = None, None
        if "lossy" in test:
            exp_lossy = [norm_cp(c) for c in test["lossy"]]
        if "lossy" in resp and exp_lossy is not None:
            differ("lossy", exp_lossy, [norm_cp(c) for c in resp["lossy"]])
        # `valid`: decodes to code points alone, i.e. result == "valid".
        exp_valid = None
        if "result" in test:
            exp_valid = test["result"] == "valid"
        elif expected_events is not None:
            exp_valid = first is None
        if "valid" in resp and exp_valid is not None:
            differ("valid", exp_valid, resp["valid"])
        if "result" in resp and "result" in test:
            differ("result", test["result"], resp["result"])
        if "strict" in resp and expected_events is not None:
            exp_strict = None if first is None else {"offset": first["offset"], "length": first["length"]}
            got = resp["strict"]
            if exp_strict is not None and "reserved" in first:
                exp_strict["reserved"] = True
            elif got is not None and exp_strict is not None and "error" in got:
                exp_strict["error"] = first["error"]
            differ("strict", exp_strict, got)
    elif op == "encode":
        if "bytes" in test and test["bytes"] is not None:
            if "bytes" in resp:
                differ("bytes", test["bytes"].lower(), resp["bytes"])
            else:
                problems.append("expected bytes %s, got error %s" % (test["bytes"], json.dumps(resp.get("error"))))
        elif "error" in test:
            if "bytes" in resp:
                problems.append("expected error %s, got bytes %s" % (test["error"], resp["bytes"]))
            elif resp.get("error") is not None:
                differ("error", test["error"], resp["error"])
    elif op == "document":
        if "findings" in resp and "findings" in test:
            differ("findings", test["findings"], resp["findings"])
    return problems


# Known, explained differences of peer implementations (adapter, op, predicate on vector).
KNOWN_DIFFERENCES = {
    # WHATWG TextEncoder takes a JS string; String.fromCodePoint(0xD800) is a lone
    # surrogate, which TextEncoder replaces with U+FFFD (EF BF BD) instead of failing.
    "node_textdecoder": lambda op, t: op == "encode" and t.get("error") == "surrogate",
}


def run_vectors(name, cases, in_process=False):
    """{request id: (op, test, [problem])} for every mismatching case; also counts."""
    reqs = [request_for(*c) for c in cases]
    if in_process:
        resps = [cu.handle(r) for r in reqs]
    else:
        resps = run_adapter(name, reqs, timeout=600)
    failures, checked, unsupported = {}, 0, 0
    for (file, encoding, op, test), req, resp in zip(cases, reqs, resps):
        assert resp.get("id") == req["id"], (req, resp)
        problems = compare(op, test, resp)
        if problems is None:
            unsupported += 1
            continue
        checked += 1
        if problems:
            failures[req["id"]] = (op, test, problems)
    return failures, checked, unsupported


CASES = load_vectors()


@unittest.skipUnless(CASES, "no vector files under vectors/")
class Vectors(unittest.TestCase):
    def check(self, name, in_process=False):
        failures, checked, unsupported = run_vectors(name, CASES, in_process)
        known = KNOWN_DIFFERENCES.get(name, lambda op, t: False)
        unexplained = {}
        for rid, (op, test, problems) in failures.items():
            if not known(op, test):
                unexplained[rid] = problems
        if os.environ.get("ADAPTER_VECTORS_VERBOSE"):
            print("\n%s: %d checked, %d unsupported, %d differ (%d explained)"
                  % (name, checked, unsupported, len(failures), len(failures) - len(unexplained)),
                  file=sys.stderr)
        self.assertGreater(checked, 0)
        msg = "\n".join("%s: %s" % (rid, "; ".join(p)) for rid, p in sorted(unexplained.items())[:50])
        if unexplained:
            self.fail("%s: %d unexplained differences:\n%s" % (name, len(unexplained), msg))

    def test_corrected_utf8_in_process(self):
        self.check("corrected_utf8", in_process=True)

    def test_corrected_utf8(self):
        self.check("corrected_utf8")

    def test_python_codec(self):
        self.check("python_codec")

    @unittest.skipUnless(NODE, "node is not installed")
    def test_node_textdecoder(self):
        self.check("node_textdecoder")


if __name__ == "__main__":
    unittest.main()
