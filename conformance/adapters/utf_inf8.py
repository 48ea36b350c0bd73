"""Independent UTF-∞-8 implementation (Bishop & Cook's draft, as pinned down by
docs/semantics.md §1 and §4).

Written from those sections and the draft's examples alone, not from the Rust code,
so that it can witness the Rust codec and the vectors. Python 3.11, standard library
only; code points are Python ints, so they are unbounded.

    decode(data, limit=65536) -> list of CodePoint / Span events   (§4.2, §4.3)
    encode(cp)                -> bytes, or raises EncodeError(kind)  (§4.1)

The decoder follows §4.2 literally: it reads a code byte by byte and, after every
byte, asks whether the bytes so far are still the start of some well-formed
(shortest-form) code, by reasoning over the forms of §4.1. It keeps only what the
bytes received say (never anything sized by a length field), so memory grows with
the input, not with a claimed length.

Past the limit (§4.3, SPEC §4) the whole over-long code is one `limit-exceeded` span:
it goes on over every byte that still continues a well-formed code (the limit aside),
up to the code's declared end inclusive, or stops just before the first byte that
cannot continue it (decoded afresh), or at the end of input. While it skips, nothing
grows: no digit is kept and a length too big for any input saturates.
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Union

DEFAULT_LIMIT = 65_536  # §4.3: the default code length limit, used by the vectors


class CodePoint(NamedTuple):
    value: int
    offset: int
    length: int


class Span(NamedTuple):
    kind: str
    offset: int
    length: int


Event = Union[CodePoint, Span]


class EncodeError(ValueError):
    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


# --------------------------------------------------------------------------- forms (§4.1)

SURROGATES = (0xD800, 0xDFFF)

# The forms with a length known from the first byte(s): (first lead, last lead, bytes,
# first code point, last code point). Payload: the lead's low 7-n bits, 6 per
# continuation byte.
_FIXED = (
    (0xC0, 0xDF, 2, 0x80, 0x7FF),
    (0xE0, 0xEF, 3, 0x800, 0xFFFF),
    (0xF0, 0xF7, 4, 0x10000, 0x1FFFFF),
    (0xF8, 0xFB, 5, 0x200000, 0x3FFFFFF),
    (0xFC, 0xFD, 6, 0x4000000, 0x7FFFFFFF),
    (0xFE, 0xFE, 7, 0x80000000, 0xFFFFFFFFF),
)

# The 13-byte form: FF, then 80-9F (5 payload bits), then 11 continuation bytes.
FF13_FIRST, FF13_LAST = 0x10_0000_0000, (1 << 71) - 1  # U+1000000000 … U+7F…F (17 F)
FF13_BITS = 5 + 11 * 6

NUD_MIN = 18  # NUD of the first code after the 13-byte form


def _storage_bytes(nud: int) -> int:
    return (nud + 2) // 3 * 2


# A length past every input: a saturated NME stays above it (an input cannot be longer).
_SATURATED = 1 << 64


def _is_continuation(b: int) -> bool:
    return 0x80 <= b <= 0xBF


# --------------------------------------------------------------------------- encode


def encode(cp: int) -> bytes:
    """The shortest (only well-formed) UTF-∞-8 code of `cp`; EncodeError("surrogate")
    for U+D800 … U+DFFF, the only values without one (§4.1)."""
    if not isinstance(cp, int) or cp < 0:
        raise ValueError("a code point is a non-negative integer: %r" % (cp,))
    if SURROGATES[0] <= cp <= SURROGATES[1]:
        raise EncodeError("surrogate")
    if cp <= 0x7F:
        return bytes([cp])
    for lead, _, n, _, last in _FIXED:
        if cp <= last:
            tail = [0x80 | (cp >> (6 * i)) & 0x3F for i in range(n - 2, -1, -1)]
            return bytes([lead | cp >> (6 * (n - 1))] + tail)
    if cp <= FF13_LAST:
        tail = [0x80 | (cp >> (6 * i)) & 0x3F for i in range(10, -1, -1)]
        return bytes([0xFF, 0x80 | cp >> 66] + tail)
    digits = "%X" % cp
    nud = len(digits)
    nme = nud - NUD_MIN
    if nme < 16:
        length = [0xA0 + nme]
    else:
        # k hex digits (no leading zero), preceded by k-1 B4 so that longer lengths sort later.
        nme_digits = "%X" % nme
        length = [0xB4] * (len(nme_digits) - 1) + [0xA0 + int(d, 16) for d in nme_digits]
    digits = "0" * (-nud % 3) + digits  # pad on the left to a multiple of 3 digits
    storage = []
    for g in range(0, len(digits), 3):
        d0, d1, d2 = (int(c, 16) for c in digits[g : g + 3])
        storage += [0x80 | d0 << 2 | d1 >> 2, 0x80 | (d1 & 3) << 4 | d2]
    return bytes([0xFF] + length + storage)


# --------------------------------------------------------------------------- decode


class _Code:
    """What the bytes of one code read so far say, and what they still allow.

    `phase` is one of
      "fixed":   a form of known length and payload width (1-7 and 13 bytes);
      "ff":      FF alone: the 13-byte form or a length follows;
      "b4":      FF and `b4s` ≥ 1 B4, no length digit yet;
      "digits":  FF, `b4s` B4, some of the `b4s + 1` length digits (value `nme`);
      "storage": the length is known (`nud`); storage bytes follow.
    """

    def __init__(self) -> None:
        self.phase = ""
        self.received = 0
        # fixed
        self.total = 0  # code length in bytes, when known
        self.bits = 0  # payload width
        self.known = 0  # payload bits received so far (most significant first)
        self.known_bits = 0
        self.lo = self.hi = 0  # the form's code points
        # length storage
        self.b4s = 0
        self.ndigits = 0
        self.nme = 0
        # USV storage
        self.nud = 0
        self.storage_read = 0
        self.group = 0  # the first padded 3-digit group, as far as received
        self.pending = 0  # first byte of a storage pair (6 bits)
        self.hexdigits: list[str] = []  # grows with bytes received only
        self.nme_mod3 = 0  # NME mod 3 (16 ≡ 1 mod 3: the sum of its digits), for padding
        self.skipping = False  # past the limit: keep nothing that grows (see skip())

    def skip(self) -> None:
        """Past the limit: the code is judged to its end, but its digits are not kept."""
        self.skipping = True
        self.hexdigits = []

    # ---- the forms' constraints: None if some well-formed code starts with the bytes
    #      so far, else the kind that says why not (§4.2's table).

    def _check_fixed(self) -> Optional[str]:
        rest = self.bits - self.known_bits
        least = self.known << rest
        most = least | ((1 << rest) - 1)
        lo, hi = max(least, self.lo), min(most, self.hi)
        if lo > hi:
            # The payload width is exactly the form's range, so only "too small" happens:
            # the value would fit a shorter form.
            return "overlong"
        if SURROGATES[0] <= lo and hi <= SURROGATES[1]:
            return "surrogate"
        return None

    def _check_first_group(self, have_bits: int) -> Optional[str]:
        """The storage's first 3 digits (12 bits, `have_bits` of them received) decide
        everything: the rest of the digits are free. The group must keep the padding
        digits zero (else the digits do not fit the length: invalid-length) and have
        a nonzero first significant digit (else overlong); NUD 18 must also be above
        the 13-byte form, i.e. start with a digit ≥ 8."""
        pad = -(self.nme_mod3 + NUD_MIN) % 3
        g_hi = 16 ** (3 - pad) - 1
        g_lo = 0x800 if self.nud == NUD_MIN else 16 ** (2 - pad)
        rest = 12 - have_bits
        least = self.group << rest
        most = least | ((1 << rest) - 1)
        if least > g_hi:  # padding digits are checked first: they come first
            return "invalid-length"
        if most < g_lo:
            return "overlong"
        return None

    # ---- reading bytes

    @classmethod
    def start(cls, b: int) -> Union["_Code", str]:
        """A code beginning with lead byte `b`, or the kind of a one-byte span."""
        code = cls()
        code.received = 1
        if b <= 0x7F:
            code.phase, code.total = "fixed", 1
            code.bits = code.known_bits = 7
            code.known, code.lo, code.hi = b, 0, 0x7F
            return code
        if _is_continuation(b):
            return "unexpected-continuation"
        if b == 0xFF:
            code.phase = "ff"
            return code
        for first, last, n, lo, hi in _FIXED:
            if first <= b <= last:
                code.phase, code.total = "fixed", n
                code.known_bits = 7 - n
                code.known = b & ((1 << code.known_bits) - 1)
                code.bits = code.known_bits + 6 * (n - 1)
                code.lo, code.hi = lo, hi
                break
        # C0 and C1 already fail here: their largest value is below U+0080.
        return code._check_fixed() or code

    def push(self, b: int) -> Optional[str]:
        """Add continuation byte `b`; None if the bytes are still the start of some
        well-formed code, else the kind (and this code is then finished)."""
        self.received += 1
        if self.phase == "fixed":
            self.known = self.known << 6 | (b & 0x3F)
            self.known_bits += 6
            return self._check_fixed()
        if self.phase == "ff":
            if b <= 0x9F:
                self.phase, self.total = "fixed", 13
                self.bits, self.known, self.known_bits = FF13_BITS, b & 0x1F, 5
                self.lo, self.hi = FF13_FIRST, FF13_LAST
                return self._check_fixed()
            if 0xA0 <= b <= 0xAF:  # one length digit: NME < 16, no B4
                self.nme = b - 0xA0
                self.nme_mod3 = self.nme % 3
                self._length_done()
                return None
            if b == 0xB4:
                self.phase, self.b4s = "b4", 1
                return None
            return "invalid-length"
        if self.phase == "b4":
            if b == 0xB4:
                self.b4s += 1
                return None
            if b == 0xA0:
                # A leading zero digit: NME would fit fewer digits (also "too many B4").
                return "overlong"
            if 0xA1 <= b <= 0xAF:
                # b4s ≥ 1, so at least one more digit follows.
                self.phase, self.ndigits, self.nme = "digits", 1, b - 0xA0
                self.nme_mod3 = self.nme % 3
                return None
            return "invalid-length"
        if self.phase == "digits":
            if not 0xA0 <= b <= 0xAF:
                return "invalid-length"
            self.ndigits += 1
            self.nme = self.nme << 4 | (b - 0xA0)
            self.nme_mod3 = (self.nme_mod3 + b - 0xA0) % 3
            if self.skipping:
                self.nme = min(self.nme, _SATURATED)
            if self.ndigits == self.b4s + 1:
                self._length_done()
            return None
        if self.phase == "storage":
            self.storage_read += 1
            if self.skipping:
                pass
            elif self.storage_read % 2 == 1:
                self.pending = b & 0x3F
            else:
                pair = self.pending << 6 | (b & 0x3F)
                self.hexdigits.append("%03X" % pair)
            if self.storage_read <= 2:
                self.group = self.group << 6 | (b & 0x3F)
                return self._check_first_group(6 * self.storage_read)
            return None
        raise AssertionError(self.phase)

    def _length_done(self) -> None:
        self.phase = "storage"
        self.nud = self.nme + NUD_MIN
        self.total = self.received + _storage_bytes(self.nud)

    # ---- state

    def complete(self) -> bool:
        return self.phase in ("fixed", "storage") and self.received == self.total

    def value(self) -> int:
        if self.phase == "fixed":
            return self.known
        return int("".join(self.hexdigits), 16)

    def shortest_completion(self) -> int:
        """The length of the shortest well-formed code that starts with the bytes so far
        (called only while there is one)."""
        if self.phase in ("fixed", "storage"):
            return self.total
        if self.phase == "ff":
            return 13  # the 13-byte form; every length form is longer
        # A length of b4s + 1 digits: the least NME has the digits so far, then zeros
        # (the first digit at least 1).
        k = self.b4s + 1
        if self.phase == "b4":
            least_nme = 16 ** (k - 1)
            digits_so_far = 0
        else:
            least_nme = self.nme * 16 ** (k - self.ndigits)
            digits_so_far = self.ndigits
        return self.received + (k - digits_so_far) + _storage_bytes(least_nme + NUD_MIN)


def decode(data: bytes, limit: Optional[int] = DEFAULT_LIMIT) -> list[Event]:
    """UTF-∞-8 bytes to events (§1, §4.2, §4.3). `limit` is the code length limit in
    bytes (None: no limit)."""
    events: list[Event] = []
    i, end = 0, len(data)

    def over_limit(code: _Code) -> bool:
        return limit is not None and code.shortest_completion() > limit

    while i < end:
        code = _Code.start(data[i])
        if isinstance(code, str):
            events.append(Span(code, i, 1))
            i += 1
            continue
        j = i + 1  # the next byte to read
        over = over_limit(code)
        if over:
            code.skip()
        while not code.complete():
            if j == end or not _is_continuation(data[j]):
                # Cut short: the span is the bytes so far; decoding resumes at this byte.
                events.append(Span("limit-exceeded" if over else "truncated", i, j - i))
                break
            kind = code.push(data[j])
            if kind is not None:
                # The bytes before this one are the maximal subpart (or, past the limit,
                # the over-long code's span); resume at this byte.
                events.append(Span("limit-exceeded" if over else kind, i, j - i))
                break
            j += 1
            # Well-formedness was decided first (above): it wins at the same byte.
            if not over and over_limit(code):
                over = True
                code.skip()
        else:
            # Complete: a code point, or the over-long code's span to its declared end.
            events.append(Span("limit-exceeded", i, j - i) if over else CodePoint(code.value(), i, j - i))
        i = j
    return events


def lossy(events: list[Event]) -> list[int]:
    return [e.value if isinstance(e, CodePoint) else 0xFFFD for e in events]


def first_error(events: list[Event]) -> Optional[Span]:
    return next((e for e in events if isinstance(e, Span)), None)
