"""Tests of utf_inf8.py (UTF-∞-8) against docs/semantics.md §4 and the draft's examples.

Run from the repository root:

    python3 -m unittest discover -s conformance/adapters -p 'test_*.py'

Besides the examples, a second decoder built only from the encoder and the sort
property (codes sort byte-wise like their code points) checks the spans of the real
decoder on many short inputs: it is a different route to "is this the start of some
well-formed code?".
"""

from __future__ import annotations

import functools
import itertools
import os
import random
import sys
import time
import tracemalloc
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import corrected_utf8 as cu  # noqa: E402
import utf_inf8 as u  # noqa: E402
from utf_inf8 import CodePoint, Span  # noqa: E402


def h(text: str) -> bytes:
    return bytes.fromhex(text.replace(" ", ""))


def x(text: str) -> int:
    return int(text, 16)


def ev(data, limit=u.DEFAULT_LIMIT):
    """Events as code points (ints) and (kind, offset, length) tuples."""
    return [e.value if isinstance(e, CodePoint) else tuple(e) for e in u.decode(data, limit)]


# The draft's 17 examples, byte for byte. Two of its texts are off: the 51-digit code is
# 38 bytes, not "thirty-four" (docs §4.4), and "one hundred A's omitted" leaves 102 A's.
DRAFT = [
    (x("41"), "41"),
    (x("10FFFF"), "F4 8F BF BF"),
    (x("110000"), "F4 90 80 80"),
    (x("7FFFFFFF"), "FD BF BF BF BF BF"),
    (x("80000000"), "FE 82 80 80 80 80 80"),
    (x("FFFFFFFFF"), "FE BF BF BF BF BF BF"),
    (x("1000000000"), "FF 80 80 80 80 80 81 80 80 80 80 80 80"),
    (x("7FFFFFFFFFFFFFFF"), "FF 80 87 BF BF BF BF BF BF BF BF BF BF"),
    (x("8000000000000000"), "FF 80 88 80 80 80 80 80 80 80 80 80 80"),
    (x("7FFFFFFFFFFFFFFFFF"), "FF 9F BF BF BF BF BF BF BF BF BF BF BF"),
    (x("800000000000000000"), "FF A0 A0 80 80 80 80 80 80 80 80 80 80 80"),
    (x("FFFFFFFFFFFFFFFFFF"), "FF A0 BF BF BF BF BF BF BF BF BF BF BF BF"),
    (x("1000000000000000000"), "FF A1 80 81 80 80 80 80 80 80 80 80 80 80 80 80"),
    (x("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"),
     "FF AF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF"),
    (x("1000000000000000000000000000000000"),
     "FF B4 A1 A0 80 81 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80"),
    (x("A" * 51), "FF B4 A2 A1" + " AA" * 34),
    (x("A" * 102), "FF B4 A5 A4" + " AA" * 68),
]


class DraftExamples(unittest.TestCase):
    def test_both_ways(self):
        self.assertEqual(len(DRAFT), 17)
        for cp, seq in DRAFT:
            with self.subTest(cp="U+%X" % cp):
                data = h(seq)
                self.assertEqual(u.encode(cp), data)
                self.assertEqual(u.decode(data), [CodePoint(cp, 0, len(data))])

    def test_stated_lengths(self):
        lengths = [len(h(seq)) for _, seq in DRAFT]
        self.assertEqual(lengths, [1, 4, 4, 6, 7, 7, 13, 13, 13, 13, 14, 14, 16, 24, 28, 38, 72])
        self.assertEqual(len("A" * 102), 102)

    def test_all_in_one_input(self):
        data = b"".join(h(seq) for _, seq in DRAFT)
        self.assertEqual(ev(data), [cp for cp, _ in DRAFT])


# docs §4.1, first and last code point of every fixed-length form, and their length.
FIXED_CLASSES = [
    (1, 0x0, 0x7F),
    (2, 0x80, 0x7FF),
    (3, 0x800, 0xFFFF),
    (4, 0x10000, 0x1FFFFF),
    (5, 0x200000, 0x3FFFFFF),
    (6, 0x4000000, 0x7FFFFFFF),
    (7, 0x80000000, 0xFFFFFFFFF),
    (13, 0x1000000000, x("7" + "F" * 17)),
]


def storage_classes(max_nud):
    """(bytes, first, last) of every code length of NUD 18 … max_nud, from the length
    rules: FF, the length storage (1 byte below NUD 34, then B4s and digits), the
    storage ((NUD + 2) / 3 × 2 bytes). Several NUDs share a length."""
    by_length = {}
    for nud in range(18, max_nud + 1):
        nme = nud - 18
        header = 1 + (1 if nme < 16 else 2 * len("%X" % nme) - 1)
        first = (1 << 71) if nud == 18 else 16 ** (nud - 1)
        n = header + (nud + 2) // 3 * 2
        lo, _ = by_length.get(n, (first, None))
        by_length[n] = (lo, 16 ** nud - 1)
    return [(n, lo, hi) for n, (lo, hi) in sorted(by_length.items())]


class LengthClasses(unittest.TestCase):
    def check_class(self, n, first, last):
        for cp in (first, first + 1, last - 1, last):
            if 0xD800 <= cp <= 0xDFFF:
                continue
            b = u.encode(cp)
            self.assertEqual(len(b), n, "U+%X" % cp)
            self.assertEqual(u.decode(b), [CodePoint(cp, 0, n)], "U+%X" % cp)
        if first > 0:
            self.assertLess(len(u.encode(first - 1)), n, "U+%X belongs to a shorter class" % (first - 1))
        self.assertGreater(len(u.encode(last + 1)), n, "U+%X belongs to a longer class" % (last + 1))

    def test_fixed_forms(self):
        for n, first, last in FIXED_CLASSES:
            with self.subTest(n=n):
                self.check_class(n, first, last)

    def test_storage_forms(self):
        # 14, 16, 18, …, 24 bytes (one length byte), 28, 30, … (B4 + 2 digits), and
        # the first classes with B4 B4 + 3 digits (NUD 274 = 16^2 + 18).
        classes = storage_classes(290)
        lengths = [n for n, _, _ in classes]
        self.assertEqual(lengths[:8], [14, 16, 18, 20, 22, 24, 28, 30], "no 15- or 26-byte codes")
        self.assertEqual(classes[1], (16, 16 ** 18, 16 ** 21 - 1))  # NUD 19-21
        self.assertEqual(classes[6], (28, 16 ** 33, 16 ** 36 - 1))  # NUD 34-36, FF B4 A1 A0
        for n, first, last in classes[:-1]:  # the last one is cut at max_nud
            with self.subTest(n=n, first="U+%X" % first):
                self.check_class(n, first, last)

    def test_headers_at_length_storage_boundaries(self):
        cases = [
            (16 ** 17 * 8, "ff a0"),  # NUD 18, NME 0
            (16 ** 33 - 1, "ff af"),  # NUD 33, NME 15
            (16 ** 33, "ff b4 a1 a0"),  # NUD 34, NME 16
            (16 ** 273 - 1, "ff b4 af af"),  # NUD 273, NME 255
            (16 ** 273, "ff b4 b4 a1 a0 a0"),  # NUD 274, NME 256
        ]
        for cp, header in cases:
            with self.subTest(header=header):
                b = u.encode(cp)
                self.assertTrue(b.startswith(h(header)), b[:8].hex())
                self.assertEqual(u.decode(b), [CodePoint(cp, 0, len(b))])

    def test_no_15_byte_codes(self):
        self.assertEqual(len(u.encode(16 ** 18 - 1)), 14)
        self.assertEqual(len(u.encode(16 ** 18)), 16)


class BigNumbers(unittest.TestCase):
    def test_round_trip_and_sort(self):
        rng = random.Random(7)
        values = set()
        for digits in list(range(1, 40)) + [100, 101, 102, 272, 273, 274, 275, 300, 333, 400]:
            for _ in range(6):
                values.add(rng.randrange(16 ** (digits - 1) if digits > 1 else 0, 16 ** digits))
            values.add(16 ** digits - 1)
            values.add(16 ** (digits - 1))
        values = sorted(v for v in values if not 0xD800 <= v <= 0xDFFF)
        encoded = [u.encode(v) for v in values]
        self.assertEqual(encoded, sorted(encoded), "byte order is code point order")
        for v, b in zip(values, encoded):
            self.assertEqual(u.decode(b), [CodePoint(v, 0, len(b))], "U+%X" % v)
        # And as one stream.
        self.assertEqual(ev(b"".join(encoded)), values)

    def test_adjacent_values_sort(self):
        for v in [0x7F, 0x7FF, 0xD7FF, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFFF, (1 << 71) - 1,
                  16 ** 18 - 1, 16 ** 33 - 1, 16 ** 100, 16 ** 273 - 1]:
            a, b = u.encode(v), u.encode(v + 1 if v != 0xD7FF else 0xE000)
            self.assertLess(a, b, "U+%X" % v)

    def test_prefix_free(self):
        # No code is a proper prefix of another (needed for self-synchronisation).
        codes = [u.encode(v) for v in [0x41, 0x80, 0x1000000000, 16 ** 17 * 8, 16 ** 40, 16 ** 300]]
        for a, b in itertools.permutations(codes, 2):
            self.assertFalse(b.startswith(a))


class Encode(unittest.TestCase):
    def test_surrogates_only_error(self):
        for cp in (0xD800, 0xDABC, 0xDFFF):
            with self.assertRaises(u.EncodeError) as ctx:
                u.encode(cp)
            self.assertEqual(ctx.exception.kind, "surrogate")
        self.assertEqual(u.encode(0xD7FF), h("ed 9f bf"))
        self.assertEqual(u.encode(0xE000), h("ee 80 80"))

    def test_every_value_below_10000_round_trips(self):
        for cp in range(0x10000):
            if 0xD800 <= cp <= 0xDFFF:
                continue
            b = u.encode(cp)
            self.assertEqual(u.decode(b), [CodePoint(cp, 0, len(b))])

    def test_same_bytes_other_encodings(self):
        # F4 90 80 80: U+110000 here, U+1210A0 in Corrected UTF-8, invalid UTF-8.
        data = h("f4 90 80 80")
        self.assertEqual(ev(data), [0x110000])
        self.assertEqual([e.value for e in cu.decode_corrected(data)], [0x1210A0])
        self.assertEqual(cu.decode_utf8(data)[0].kind, "out-of-range")


class DecodeErrors(unittest.TestCase):
    """docs §4.2: the span is the bytes before the first byte that ends the code."""

    def check(self, cases):
        for data, expected in cases:
            with self.subTest(data=data):
                self.assertEqual(ev(h(data)), expected)

    def test_doc_examples(self):
        self.check([
            ("ff 80 80 80 80 80 80", [("overlong", 0, 6), ("unexpected-continuation", 6, 1)]),
            ("ff b0", [("invalid-length", 0, 1), ("unexpected-continuation", 1, 1)]),
            ("ff b4 a0", [("overlong", 0, 2), ("unexpected-continuation", 2, 1)]),
            ("ed a0 80", [("surrogate", 0, 1), ("unexpected-continuation", 1, 1),
                          ("unexpected-continuation", 2, 1)]),
        ])

    def test_unexpected_continuation(self):
        self.check([
            ("80", [("unexpected-continuation", 0, 1)]),
            ("bf 41", [("unexpected-continuation", 0, 1), 0x41]),
            ("41 c2 80 80", [0x41, 0x80, ("unexpected-continuation", 3, 1)]),
        ])

    def test_overlong_fixed_forms(self):
        # The lead alone is the span: C0/C1 always; the others at their second byte.
        cases = [("c0", 1), ("c1 bf", 2), ("e0 80", 2), ("e0 9f", 2), ("f0 80", 2), ("f0 8f", 2),
                 ("f8 80", 2), ("f8 87", 2), ("fc 80", 2), ("fc 83", 2), ("fe 80", 2), ("fe 81", 2)]
        for data, n in cases:
            with self.subTest(data=data):
                self.assertEqual(ev(h(data)),
                                 [("overlong", 0, 1)] + [("unexpected-continuation", 1, 1)] * (n - 1))
        # The first byte above each range is the start of a well-formed code.
        for data in ("c2", "e0 a0", "f0 90", "f8 88", "fc 84", "fe 82"):
            with self.subTest(data=data):
                self.assertEqual(ev(h(data))[0][0], "truncated")

    def test_overlong_13_byte_form(self):
        # Decided at the 7th byte, when the first 35 payload bits are all zero.
        self.check([
            ("ff 80 80 80 80 80 80 80 80 80 80 80 80",
             [("overlong", 0, 6)] + [("unexpected-continuation", i, 1) for i in range(6, 13)]),
            ("ff 80 80 80 80 80 81 80 80 80 80 80 80", [0x1000000000]),
            ("ff 80 80 80 80 80", [("truncated", 0, 6)]),
            ("ff 80 80 80 80 80 41", [("truncated", 0, 6), 0x41]),
        ])

    def test_overlong_length_storage(self):
        # A length digit A0 first (after B4s); also "more B4 than needed".
        self.check([
            ("ff b4 a0 af", [("overlong", 0, 2), ("unexpected-continuation", 2, 1),
                             ("unexpected-continuation", 3, 1)]),
            ("ff b4 b4 a0", [("overlong", 0, 3), ("unexpected-continuation", 3, 1)]),
            ("ff b4 b4 b4 b4 a0", [("overlong", 0, 5), ("unexpected-continuation", 5, 1)]),
        ])
        # A0 as a later digit is fine: FF B4 A1 A0 is NME 16.
        self.assertEqual(ev(h("ff b4 a1 a0")), [("truncated", 0, 4)])

    def test_overlong_storage(self):
        # Storage whose first significant digit is 0, for each padding (NUD mod 3).
        self.check([
            # NUD 21, no padding: first byte 80-83 has d0 = 0.
            ("ff a3 80", [("overlong", 0, 2), ("unexpected-continuation", 2, 1)]),
            ("ff a3 83", [("overlong", 0, 2), ("unexpected-continuation", 2, 1)]),
            # NUD 20, one padding digit: 80 then 80-8F has d1 = 0.
            ("ff a2 80 80", [("overlong", 0, 3), ("unexpected-continuation", 3, 1)]),
            ("ff a2 80 8f", [("overlong", 0, 3), ("unexpected-continuation", 3, 1)]),
            # NUD 19, two padding digits: 80 80 has d2 = 0.
            ("ff a1 80 80", [("overlong", 0, 3), ("unexpected-continuation", 3, 1)]),
            # NUD 34: FF B4 A1 A0, then 80 81 is the first code; 80 80 is overlong.
            ("ff b4 a1 a0 80 80", [("overlong", 0, 5), ("unexpected-continuation", 5, 1)]),
        ])
        for data in ("ff a3 84", "ff a2 80 90", "ff a2 81", "ff a2 83", "ff a1 80 81", "ff a1 80 8f"):
            with self.subTest(data=data):
                self.assertEqual(ev(h(data))[0][0], "truncated")

    def test_overlong_nud_18_below_13_byte_form(self):
        # FF A0 (NUD 18) holds only U+800000000000000000 and up: a first digit 1-7 would
        # fit the 13-byte form (docs §4.1 "above the previous row"; see README).
        self.check([
            ("ff a0 9f bf", [("overlong", 0, 2), ("unexpected-continuation", 2, 1),
                             ("unexpected-continuation", 3, 1)]),
            ("ff a0 84", [("overlong", 0, 2), ("unexpected-continuation", 2, 1)]),
        ])
        self.assertEqual(ev(h("ff a0 a0")), [("truncated", 0, 3)])

    def test_surrogate(self):
        self.check([
            ("ed a0", [("surrogate", 0, 1), ("unexpected-continuation", 1, 1)]),
            ("ed bf bf", [("surrogate", 0, 1), ("unexpected-continuation", 1, 1),
                          ("unexpected-continuation", 2, 1)]),
            ("ed 9f bf", [0xD7FF]),
            ("ee 80 80", [0xE000]),
        ])

    def test_invalid_length(self):
        after_ff = [b for b in range(0x80, 0xC0) if not (b <= 0xAF or b == 0xB4)]
        self.assertEqual(after_ff, [0xB0, 0xB1, 0xB2, 0xB3] + list(range(0xB5, 0xC0)))
        for b in after_ff:
            self.assertEqual(ev(bytes([0xFF, b])), [("invalid-length", 0, 1), ("unexpected-continuation", 1, 1)])
        # After B4s and before any digit: anything but B4 and A0-AF.
        for b in list(range(0x80, 0xA0)) + [0xB0, 0xB3, 0xB5, 0xBF]:
            self.assertEqual(ev(bytes([0xFF, 0xB4, 0xB4, b]))[0], ("invalid-length", 0, 3), hex(b))
        # After a digit: only A0-AF.
        for b in (0x80, 0x9F, 0xB0, 0xB4, 0xBF):
            self.assertEqual(ev(bytes([0xFF, 0xB4, 0xA1, b]))[0], ("invalid-length", 0, 3), hex(b))
        # Nonzero padding digits: the digits do not fit the stored length.
        self.check([
            ("ff a2 84", [("invalid-length", 0, 2), ("unexpected-continuation", 2, 1)]),  # NUD 20, d0
            ("ff a1 81", [("invalid-length", 0, 2), ("unexpected-continuation", 2, 1)]),  # NUD 19, d1
            ("ff a1 bf", [("invalid-length", 0, 2), ("unexpected-continuation", 2, 1)]),
            ("ff a1 80 90", [("invalid-length", 0, 3), ("unexpected-continuation", 3, 1)]),  # d1
            ("ff a1 80 bf", [("invalid-length", 0, 3), ("unexpected-continuation", 3, 1)]),
        ])

    def test_non_continuation_ends_as_truncated(self):
        # A lead or ASCII byte inside a code is "truncated" whatever part it interrupts.
        for prefix in ("ff", "ff b4", "ff b4 a1", "ff a0", "e0", "ff 80"):
            for b in ("41", "c2", "ff"):
                with self.subTest(prefix=prefix, b=b):
                    n = len(h(prefix))
                    self.assertEqual(ev(h(prefix + b))[0], ("truncated", 0, n))

    def test_truncated_inside_every_part(self):
        codes = {
            "2-byte": "c2 80",
            "3-byte": "e0 a0 80",
            "4-byte": "f4 90 80 80",
            "5-byte": "f8 88 80 80 80",
            "6-byte": "fd bf bf bf bf bf",
            "7-byte": "fe 82 80 80 80 80 80",
            "13-byte": dict(DRAFT)[0x1000000000],
            "one length byte": dict(DRAFT)[x("1000000000000000000")],
            "B4 and digits": dict(DRAFT)[x("1" + "0" * 33)],
            "B4 B4 and 3 digits": u.encode(16 ** 273).hex(),
        }
        for name, seq in codes.items():
            data = h(seq)
            self.assertEqual(ev(data), [u.decode(data)[0].value], name)
            for cut in range(1, len(data)):
                with self.subTest(name=name, cut=cut):
                    self.assertEqual(ev(data[:cut]), [("truncated", 0, cut)])
                    self.assertEqual(ev(data[:cut] + b"\x41"), [("truncated", 0, cut), 0x41])

    def test_spans_cover_input_and_lossy(self):
        data = h("41 80 c0 ff b4 a0 ed a0 80 ff a0 a0 80 e0 f4 90 80 80 ff")
        events = u.decode(data)
        pos = 0
        for e in events:
            self.assertEqual(e.offset, pos)
            pos += e.length
        self.assertEqual(pos, len(data))
        self.assertEqual(u.lossy(events)[:3], [0x41, 0xFFFD, 0xFFFD])
        self.assertEqual(u.first_error(events), Span("unexpected-continuation", 1, 1))
        self.assertIsNone(u.first_error(u.decode(h("41 f4 90 80 80"))))


class Limit(unittest.TestCase):
    # SPEC §4: the whole over-long code is one limit-exceeded span, to its declared end
    # or to the first byte that cannot continue it (decoded afresh), or to the end of
    # input; the limit is exceeded at the same byte as before.

    def test_doc_example(self):
        self.assertEqual(ev(h("ff b4 b4 b4 b4 b4")), [("limit-exceeded", 0, 6)])
        # 41 cannot continue the code: the span ends before it.
        self.assertEqual(ev(h("ff b4 b4 b4 b4 b4 41")), [("limit-exceeded", 0, 6), 0x41])
        # A1 still continues it (a length digit), 41 does not.
        self.assertEqual(ev(h("ff b4 b4 b4 b4 b4 a1 41")), [("limit-exceeded", 0, 7), 0x41])
        # Four B4s still allow a code of 1+4+5 + 43704 = 43714 bytes.
        self.assertEqual(ev(h("ff b4 b4 b4 b4")), [("truncated", 0, 5)])

    def test_digit_that_crosses_the_limit(self):
        # FF B4×4 and 5 digits: NME ≥ digits so far then zeros.
        # A1 A7 → NME ≥ 0x17000 → 62828 bytes; A1 A8 → NME ≥ 0x18000 → 65560 bytes.
        self.assertEqual(ev(h("ff b4 b4 b4 b4 a1 a7")), [("truncated", 0, 7)])
        self.assertEqual(ev(h("ff b4 b4 b4 b4 a1 a8")), [("limit-exceeded", 0, 7)])
        self.assertEqual(ev(h("ff b4 b4 b4 b4 a2")), [("limit-exceeded", 0, 6)])

    def test_well_formedness_wins(self):
        # No completion at all is vacuously "every completion too long"; the kind is
        # the well-formedness error.
        self.assertEqual(ev(h("ff b4 b4 b4 b4 a0")), [("overlong", 0, 5), ("unexpected-continuation", 5, 1)])
        self.assertEqual(ev(h("ff a0 80"), limit=14), [("overlong", 0, 2), ("unexpected-continuation", 2, 1)])
        self.assertEqual(ev(h("c0"), limit=1), [("overlong", 0, 1)])

    def test_small_limits(self):
        self.assertEqual(ev(h("ff"), limit=13), [("truncated", 0, 1)])
        # Over at FF (every completion has 13 bytes or more); 80 continues the 13-byte form.
        self.assertEqual(ev(h("ff 80"), limit=12), [("limit-exceeded", 0, 2)])
        self.assertEqual(ev(h("ff a0"), limit=13), [("limit-exceeded", 0, 2)])
        self.assertEqual(ev(h("ff a0"), limit=14), [("truncated", 0, 2)])
        self.assertEqual(ev(h("fe 82 80 80 80 80 80"), limit=7), [0x80000000])
        # To the end of input.
        self.assertEqual(ev(h("fe 82 80"), limit=6), [("limit-exceeded", 0, 3)])
        # To the declared end, inclusive; then decoding goes on.
        self.assertEqual(ev(h("41 c2 80"), limit=1), [0x41, ("limit-exceeded", 1, 2)])
        self.assertEqual(ev(h("fe 82 80 80 80 80 80 41"), limit=6), [("limit-exceeded", 0, 7), 0x41])
        self.assertEqual(ev(h("e0 a0 80 80"), limit=2), [("limit-exceeded", 0, 3), ("unexpected-continuation", 3, 1)])
        # Just before the first byte that cannot continue it: that byte is decoded afresh.
        self.assertEqual(ev(h("c2 41"), limit=1), [("limit-exceeded", 0, 1), 0x41])
        self.assertEqual(ev(h("ff 80 c2 80"), limit=12), [("limit-exceeded", 0, 2), 0x80])
        # A continuation byte that breaks well-formedness cannot continue it either.
        self.assertEqual(ev(h("e0 80"), limit=2), [("limit-exceeded", 0, 1), ("unexpected-continuation", 1, 1)])
        # FF 80 and five 80: 35 zero payload bits, 36 left, below U+1000000000: overlong
        # at the 7th byte, which therefore cannot continue the over-long code either.
        self.assertEqual(ev(h("ff 80 80 80 80 80 80"), limit=14),
                         [("overlong", 0, 6), ("unexpected-continuation", 6, 1)])
        self.assertEqual(ev(h("ff 80 80 80 80 80 80"), limit=12),
                         [("limit-exceeded", 0, 6), ("unexpected-continuation", 6, 1)])

    def test_code_at_the_limit(self):
        # NME ≥ 0x10000 takes FF, B4×4 and 5 digits: 10 bytes before the storage.
        # NUD 98289: 10 + 32763×2 = 65536 bytes, the longest class within the default
        # limit; NUD 98290 (NME 0x17FE0): 65538 bytes, refused at the digit that fixes it.
        cp = 16 ** 98_289 - 1
        b = u.encode(cp)
        self.assertEqual(len(b), 65_536)
        self.assertEqual(ev(b), [cp])
        self.assertEqual(ev(b, limit=65_535), [("limit-exceeded", 0, 65_536)])
        self.assertEqual(ev(b + b, limit=65_535), [("limit-exceeded", 0, 65_536), ("limit-exceeded", 65_536, 65_536)])
        cp = 16 ** 98_290 - 1
        b = u.encode(cp)
        self.assertEqual(len(b), 65_538)
        self.assertEqual(b[:10], h("ff b4 b4 b4 b4 a1 a7 af ae a0"))
        # Exceeded at the 9th byte (the digit AE); the span goes to the declared end.
        self.assertEqual(ev(b), [("limit-exceeded", 0, 65_538)])
        self.assertEqual(ev(b[:-1] + b"A"), [("limit-exceeded", 0, 65_537), 0x41])
        self.assertEqual(ev(b[:16]), [("limit-exceeded", 0, 16)])
        self.assertEqual(ev(b, limit=65_538), [cp])

    def test_memory_does_not_follow_claimed_length(self):
        # A length of 16^40 digits, and no limit: only what was received is kept.
        data = b"\xff" + b"\xb4" * 39 + b"\xa1" + b"\xa0" * 39 + b"\x80\x81" + b"\x80" * 3_998
        tracemalloc.start()
        try:
            start = time.monotonic()
            events = ev(data, limit=None)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        self.assertEqual(events, [("truncated", 0, len(data))])
        self.assertLess(peak, 5_000_000)
        self.assertLess(time.monotonic() - start, 5)
        # With the default limit it is refused at the 5th B4 (NUD ≥ 16^5 + 18), and the
        # whole code (to the end of input here) is the one span.
        self.assertEqual(ev(data), [("limit-exceeded", 0, len(data))])

    def test_skipping_keeps_nothing(self):
        # One span over a megabyte of storage: no digits kept, the length saturated.
        data = b"\xff" + b"\xb4" * 19 + b"\xa1" + b"\xa0" * 19 + b"\x80\x81" + b"\x80" * 1_000_000 + b"A"
        tracemalloc.start()
        try:
            events = ev(data)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        self.assertEqual(events, [("limit-exceeded", 0, len(data) - 1), 0x41])
        self.assertLess(peak, 1_000_000)

    def test_long_b4_run_without_limit(self):
        data = b"\xff" + b"\xb4" * 100_000
        self.assertEqual(ev(data, limit=None), [("truncated", 0, len(data))])


# ---------------------------------------------------------------------------- reference

# A second decoder from the encoder and the sort property alone. Codes with a given
# prefix P form one interval of code points (codes sort like their values and no code
# is a prefix of another), so P starts a code iff the smallest code ≥ P starts with P,
# and that code is also the shortest one starting with P (length grows with value).
# The search covers code points below 16^33 (one length byte), so it answers exactly
# for every prefix except those starting FF B4, which the caller avoids.
REF_BOUND = 16 ** 33


def _ref_encode(cp):
    return u.encode(0xE000 if 0xD800 <= cp <= 0xDFFF else cp)  # keeps the order monotone


@functools.lru_cache(maxsize=None)
def ref_smallest_code_from(prefix: bytes):
    """(cp, code) of the smallest code ≥ prefix, if it starts with prefix; else None."""
    assert not prefix.startswith(b"\xff\xb4"), "outside the reference's range"
    lo, hi = 0, REF_BOUND  # the answer is in [lo, hi]; hi means none below the bound
    while lo < hi:
        mid = (lo + hi) // 2
        if _ref_encode(mid) >= prefix:
            hi = mid
        else:
            lo = mid + 1
    if lo == REF_BOUND:
        return None
    if 0xD800 <= lo <= 0xDFFF:
        lo = 0xE000
    code = u.encode(lo)
    return (lo, code) if code.startswith(prefix) else None


WELL_FORMEDNESS = {"overlong", "surrogate", "invalid-length"}


class OutOfRange(Exception):
    pass


def ref_decode(data: bytes, limit: int):
    """Events as ints and (kind, offset, length); a well-formedness kind is "wf"."""
    out, i, n = [], 0, len(data)

    def starts(prefix):
        if prefix.startswith(b"\xff\xb4"):
            raise OutOfRange
        return ref_smallest_code_from(prefix)

    while i < n:
        found = starts(data[i:i + 1])
        if found is None:
            out.append(("unexpected-continuation" if 0x80 <= data[i] <= 0xBF else "wf", i, 1))
            i += 1
            continue
        j = i + 1
        over = len(found[1]) > limit
        while found[1] != data[i:j]:  # complete when the prefix is itself a code
            if j == n or not 0x80 <= data[j] <= 0xBF:
                out.append(("limit-exceeded" if over else "truncated", i, j - i))
                break
            nxt = starts(data[i:j + 1])
            if nxt is None:
                out.append(("limit-exceeded" if over else "wf", i, j - i))
                break
            found = nxt
            j += 1
            over = over or len(found[1]) > limit
        else:
            out.append(("limit-exceeded", i, j - i) if over else found[0])
        i = j
    return out


def as_ref(events):
    return [("wf",) + e[1:] if isinstance(e, tuple) and e[0] in WELL_FORMEDNESS else e for e in events]


# Bytes that matter to some form; FF B4 is avoided (see REF_BOUND).
ALPHABET = bytes([0x00, 0x41, 0x7F, 0x80, 0x81, 0x82, 0x83, 0x84, 0x87, 0x88, 0x8F, 0x90, 0x9F,
                  0xA0, 0xA1, 0xA2, 0xA3, 0xAF, 0xB0, 0xB4, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
                  0xED, 0xEF, 0xF0, 0xF4, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF])


class AgainstReference(unittest.TestCase):
    def compare(self, data, limit=u.DEFAULT_LIMIT):
        try:
            expected = ref_decode(data, limit)
        except OutOfRange:
            return False
        self.assertEqual(as_ref(ev(data, limit)), expected, "%s limit %s" % (data.hex(), limit))
        return True

    def test_every_two_byte_input_from_a_lead(self):
        for a in range(0xC0, 0x100):
            for b in range(0x80, 0xC0):
                if (a, b) != (0xFF, 0xB4):
                    self.assertTrue(self.compare(bytes([a, b])))

    def test_every_single_byte(self):
        for a in range(256):
            self.compare(bytes([a]))

    def test_random_inputs(self):
        rng = random.Random(2024)
        checked = 0
        for _ in range(3000):
            n = rng.randrange(1, 12)
            data = bytes(rng.choice(ALPHABET) for _ in range(n))
            checked += self.compare(data)
        self.assertGreater(checked, 2000)

    def test_random_codes_mutated(self):
        # Valid codes up to 33 digits with one byte changed, cut or with a byte added.
        rng = random.Random(99)
        checked = 0
        for _ in range(500):  # each long prefix costs a search of its own: keep it short
            digits = rng.randrange(1, 34)
            cp = rng.randrange(16 ** (digits - 1) if digits > 1 else 0, 16 ** digits)
            if 0xD800 <= cp <= 0xDFFF:
                continue
            code = bytearray(u.encode(cp))
            k = rng.randrange(len(code))
            what = rng.randrange(3)
            if what == 0:
                code[k] = rng.choice(ALPHABET)
            elif what == 1:
                del code[k:]
            else:
                code.insert(k, rng.choice(ALPHABET))
            checked += self.compare(bytes(code))
        self.assertGreater(checked, 300)

    def test_small_limits(self):
        rng = random.Random(5)
        for _ in range(1500):
            n = rng.randrange(1, 16)
            data = bytes(rng.choice(ALPHABET) for _ in range(n))
            self.compare(data, limit=rng.choice([1, 2, 3, 4, 6, 7, 12, 13, 14, 15, 16, 20, 24]))
        for cp, seq in DRAFT[:14]:
            for limit in range(1, 26):
                self.compare(h(seq) + h(seq), limit)


class Protocol(unittest.TestCase):
    def test_decode(self):
        r = cu.handle({"id": "f#1", "encoding": "utf-inf-8", "op": "decode", "input": "ffb0" + "41"})
        self.assertEqual(r, {
            "id": "f#1",
            "output": [{"error": "invalid-length", "offset": 0, "length": 1},
                       {"error": "unexpected-continuation", "offset": 1, "length": 1},
                       {"codepoint": "U+0041"}],
            "lossy": ["U+FFFD", "U+FFFD", "U+0041"],
            "result": "invalid",
            "valid": False,
            "strict": {"offset": 0, "length": 1, "error": "invalid-length"},
        })
        big = dict(DRAFT)[x("A" * 102)]
        r = cu.handle({"id": 2, "encoding": "utf-inf-8", "op": "decode", "input": h(big).hex()})
        self.assertEqual(r["output"], [{"codepoint": "U+" + "A" * 102}])
        self.assertEqual((r["result"], r["valid"]), ("valid", True))
        self.assertIsNone(r["strict"])

    def test_encode(self):
        for cp, seq in DRAFT:
            r = cu.handle({"id": 1, "encoding": "utf-inf-8", "op": "encode", "codepoint": "U+%04X" % cp})
            self.assertEqual(r, {"id": 1, "bytes": h(seq).hex()})
        r = cu.handle({"id": 1, "encoding": "utf-inf-8", "op": "encode", "codepoint": "U+DFFF"})
        self.assertEqual(r, {"id": 1, "error": "surrogate"})

    def test_unsupported(self):
        for req in [
            {"id": "x", "encoding": "utf-inf-8", "op": "document", "input": ""},
            {"id": "x", "encoding": "utf-inf-8", "op": "decode", "input": "f"},
            {"id": "x", "encoding": "utf-inf-8", "op": "encode", "codepoint": "U+-1"},
        ]:
            self.assertEqual(cu.handle(req), {"id": "x", "unsupported": True}, req)


if __name__ == "__main__":
    unittest.main()
