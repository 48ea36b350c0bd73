"""The causes of the matrix's failures, each as a model: UTF-8 per Unicode Table 3-7 with
one documented deviation switched on.

A failure is explained by a set of deviations when the model with exactly those switched
on gives, for every mismatching field, what the decoder answered. classify() picks, per
decoder, the fewest deviations that explain each of its failures (the ones explaining the
most failures first), so one behaviour gets one name across all its vectors; a failure
that no combination of up to two explains is "unexplained" and must be looked at by hand.
"""

from __future__ import annotations

import itertools

# id -> (title, one sentence). The sentences are what docs/matrix.md and the reasons in
# the expected-failures files say.
CAUSES = {
    "per-byte": (
        "one U+FFFD per byte",
        "Every byte of an ill-formed sequence is its own error (one U+FFFD each, strict "
        "length 1), instead of one error per maximal subpart (Unicode §3.9, 'U+FFFD "
        "substitution of maximal subparts', which the WHATWG Encoding Standard requires).",
    ),
    "per-run": (
        "one U+FFFD per run",
        "A run of consecutive ill-formed bytes becomes one U+FFFD, however many maximal "
        "subparts it has.",
    ),
    "surrogate-sequence": (
        "an encoded surrogate is one error",
        "An encoded surrogate ED A0..BF 80..BF is one ill-formed sequence of 3 bytes (ED "
        "A0..BF without its third byte one of 2), instead of a maximal subpart of 1 byte "
        "(ED) followed by lone continuation bytes.",
    ),
    "lead-length": (
        "errors as long as the lead byte says",
        "An ill-formed sequence is the lead byte with all the continuation bytes that "
        "follow, up to the length the lead byte announces (C0/C1 and E0 80..9F overlongs, "
        "ED A0..BF surrogates, F4 90..BF and F5..F7 above U+10FFFF, F8..FF long forms), and "
        "becomes one U+FFFD, instead of one per maximal subpart.",
    ),
    "noncharacters-rejected": (
        "noncharacters rejected",
        "The 66 noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF) are errors when decoding "
        "and encoding, although they are scalar values that UTF-8 encodes (Unicode "
        "Corrigendum #9).",
    ),
    "surrogates-accepted": (
        "surrogates accepted",
        "Encoded surrogates ED A0..BF 80..BF decode to U+D800..U+DFFF and lone surrogates "
        "encode to them (generalized UTF-8, as CESU-8 and WTF-8 allow).",
    ),
    "above-10ffff": (
        "values above U+10FFFF accepted",
        "4-byte forms above U+10FFFF (F4 90..BF, F5..F7) decode, and values above U+10FFFF "
        "encode (with 5- and 6-byte forms past U+1FFFFF), as in the original UTF-8 of RFC "
        "2279.",
    ),
    "long-forms": (
        "5-byte and longer forms accepted",
        "The 5- and 6-byte forms (F8..FD) of the original UTF-8 and Perl's 7- and 13-byte "
        "extensions (FE, FF) decode to values above U+10FFFF.",
    ),
    "stray-swallows": (
        "a character after a stray continuation byte swallowed",
        "After an unexpected continuation byte the error runs on over the well-formed "
        "character (or truncated sequence) that follows, which is lost (no model: "
        "recognized by its shape, a lossy answer that is the expected one without some of "
        "the characters after the stray byte's U+FFFD).",
    ),
    "continuation-skipped": (
        "stray continuation bytes skipped",
        "A continuation byte 80..BF that follows no lead byte (a maximal subpart of its "
        "own) is skipped silently: no error, no U+FFFD, instead of an ill-formed sequence.",
    ),
    "bytes-as-latin1": (
        "ill-formed bytes read as Latin-1",
        "Each byte of an ill-formed sequence decodes to the code point of its value "
        "(U+0080..U+00FF), as if the text were ISO-8859-1 there, instead of one U+FFFD "
        "per maximal subpart: the decoder never fails and nothing marks the error.",
    ),
    "modified-utf8-nul": (
        "C0 80 is U+0000",
        "The overlong C0 80 decodes to U+0000, as in Java's and Tcl's \"modified UTF-8\", "
        "instead of two errors (C0 and 80 are ill-formed).",
    ),
    "cesu-8-pairs": (
        "CESU-8 surrogate pairs joined",
        "Two encoded surrogates that form a pair (ED A0..AF xx ED B0..BF xx, CESU-8) decode "
        "to the supplementary character they stand for, instead of six errors.",
    ),
    "nul-rejected": (
        "NUL rejected",
        "The byte 00 (U+0000, a scalar value UTF-8 encodes as itself) is an error, as for "
        "a C string: the validator fails, the replacement mode writes U+FFFD for it, and "
        "the encoder refuses U+0000.",
    ),
    "nul-terminates": (
        "the encoder stops at U+0000",
        "The encoder reads its input as a NUL-terminated string even when given a length, "
        "so U+0000 encodes to nothing instead of 00.",
    ),
    "xml-chars-only": (
        "only XML characters",
        "The decoder feeds an XML parser, whose Char production (XML 1.0 §2.2) refuses the "
        "C0 controls other than tab, LF and CR (00..08, 0B, 0C, 0E..1F) and U+FFFE, U+FFFF: "
        "a document holding them is refused although the bytes are well-formed UTF-8.",
    ),
    "bom-dropped": (
        "a leading U+FEFF dropped",
        "U+FEFF at the start of the text is taken for a byte order mark and dropped: EF BB "
        "BF first decodes to nothing, and encoding U+FEFF alone writes nothing.",
    ),
    "second-byte-late": (
        "an out-of-range second byte joins the error",
        "After E0, ED, F0 or F4, a continuation byte outside the lead's range (E0 80..9F "
        "overlong, ED A0..BF surrogate, F0 80..8F overlong, F4 90..BF above U+10FFFF) is "
        "taken into the error, one error of 2 bytes, instead of the lead alone (a maximal "
        "subpart of 1) followed by a lone continuation byte.",
    ),
    "question-mark": (
        "'?' for U+FFFD",
        "The replacement is '?' (U+003F), a character the text may hold anyway, instead of "
        "U+FFFD.",
    ),
    "encode-replaces": (
        "encoder writes U+FFFD",
        "The encoder writes U+FFFD (EF BF BD) for a value that has no UTF-8 encoding (a "
        "lone surrogate, or a value above U+10FFFF) instead of failing.",
    ),
    "encode-bmp-only": (
        "values above U+FFFF encode as U+FFFD",
        "The string type holds only the Basic Multilingual Plane: a value above U+FFFF "
        "(a supplementary character, or beyond U+10FFFF) becomes U+FFFD before encoding, "
        "so it encodes to EF BF BD instead of its 4 bytes (or an error).",
    ),
}

# The input (hex) docs/matrix.md shows for a cause when a decoder fails it; else the
# shortest failing input.
EXAMPLES = {
    "per-byte": "e282", "per-run": "c0af", "surrogate-sequence": "eda080", "lead-length": "c0af",
    "noncharacters-rejected": "efbfbf", "surrogates-accepted": "eda080", "above-10ffff": "f4908080",
    "long-forms": "f888808080", "stray-swallows": "80e282ac", "continuation-skipped": "80",
    "bytes-as-latin1": "c0af", "modified-utf8-nul": "c080",
    "cesu-8-pairs": "eda080edb080", "nul-rejected": "00",
    "xml-chars-only": "efbfbe", "bom-dropped": "efbbbf", "question-mark": "c0af", "second-byte-late": "e09f80",
}

UNEXPLAINED = "unexplained"

# Decode deviations, in the order they are tried.
DECODE = ["per-byte", "per-run", "surrogate-sequence", "lead-length", "noncharacters-rejected",
          "surrogates-accepted", "above-10ffff", "long-forms", "continuation-skipped", "bytes-as-latin1", "modified-utf8-nul",
          "cesu-8-pairs", "nul-rejected", "xml-chars-only", "bom-dropped",
          "second-byte-late", "question-mark"]
ENCODE = ["encode-replaces", "surrogates-accepted", "above-10ffff", "noncharacters-rejected", "encode-bmp-only",
          "nul-rejected", "nul-terminates", "bom-dropped"]


def is_noncharacter(cp: int) -> bool:
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE and cp <= 0x10FFFF


def _lead(b: int, on: set) -> tuple[int, int, int] | None:
    """(length, low, high) of the second byte's range for a lead byte, or None."""
    if 0xC2 <= b <= 0xDF:
        return 2, 0x80, 0xBF
    if b == 0xE0:
        return 3, 0xA0, 0xBF
    if b == 0xED:
        return 3, 0x80, 0xBF if "surrogates-accepted" in on else 0x9F
    if 0xE1 <= b <= 0xEF:
        return 3, 0x80, 0xBF
    if b == 0xF0:
        return 4, 0x90, 0xBF
    if 0xF1 <= b <= 0xF3:
        return 4, 0x80, 0xBF
    if b == 0xF4:
        return 4, 0x80, 0xBF if "above-10ffff" in on else 0x8F
    if 0xF5 <= b <= 0xF7 and "above-10ffff" in on:
        return 4, 0x80, 0xBF
    if "long-forms" in on:
        if b == 0xF8:
            return 5, 0x88, 0xBF
        if 0xF9 <= b <= 0xFB:
            return 5, 0x80, 0xBF
        if b == 0xFC:
            return 6, 0x84, 0xBF
        if b == 0xFD:
            return 6, 0x80, 0xBF
        if b == 0xFE:
            return 7, 0x82, 0xBF
        if b == 0xFF:
            return 13, 0x80, 0xBF
    return None


def _value(seq: bytes) -> int:
    n = len(seq)
    v = seq[0] & (0x7F >> n) if n < 7 else 0
    for c in seq[1:]:
        v = v << 6 | (c & 0x3F)
    return v


def _declared(b: int) -> int:
    """The length a lead byte announces, for 'lead-length'."""
    for top, n in ((0xDF, 2), (0xEF, 3), (0xF7, 4), (0xFB, 5), (0xFD, 6), (0xFE, 7)):
        if b <= top:
            return n
    return 13


def decode(data: bytes, on: set) -> list:
    """Events: ("cp", value) or ("err", offset, length)."""
    events = []
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if "xml-chars-only" in on and (b < 0x20 and b not in (0x09, 0x0A, 0x0D)
                                       or data[i:i + 3] in (b"\xef\xbf\xbe", b"\xef\xbf\xbf")):
            length = 1 if b < 0x80 else 3
            events.append(("err", i, length))
            i += length
            continue
        if b == 0 and "nul-rejected" in on:
            events.append(("err", i, 1))
            i += 1
            continue
        if b < 0x80:
            events.append(("cp", b))
            i += 1
            continue
        pair = data[i:i + 6]
        if ("cesu-8-pairs" in on and len(pair) == 6 and pair[0] == pair[3] == 0xED
                and 0xA0 <= pair[1] <= 0xAF and 0xB0 <= pair[4] <= 0xBF
                and all(0x80 <= c <= 0xBF for c in (pair[2], pair[5]))):
            high, low = _value(pair[:3]), _value(pair[3:])
            events.append(("cp", 0x10000 + (high - 0xD800) * 0x400 + (low - 0xDC00)))
            i += 6
            continue
        if "modified-utf8-nul" in on and b == 0xC0 and data[i + 1:i + 2] == b"\x80":
            events.append(("cp", 0))
            i += 2
            continue
        if "lead-length" in on and b >= 0xC0:
            want = _declared(b)
            j = i + 1
            while j < n and j < i + want and 0x80 <= data[j] <= 0xBF:
                j += 1
            seq = data[i:j]
            ok = False
            if j - i == want:
                # Decodes only if it is well-formed under the other deviations.
                sub = decode(seq, on - {"lead-length"})
                ok = len(sub) == 1 and sub[0][0] == "cp"
            events.append(("cp", decode(seq, on - {"lead-length"})[0][1]) if ok else ("err", i, j - i))
            i = j
            continue
        lead = _lead(b, on)
        if lead is None:
            events.append(("err", i, 1))
            i += 1
            continue
        length, lo, hi = lead
        if ("second-byte-late" in on and b in (0xE0, 0xED, 0xF0, 0xF4) and i + 1 < n
                and 0x80 <= data[i + 1] <= 0xBF and not lo <= data[i + 1] <= hi):
            events.append(("err", i, 2))
            i += 2
            continue
        j = i + 1
        while j < n and j < i + length and (lo if j == i + 1 else 0x80) <= data[j] <= (hi if j == i + 1 else 0xBF):
            j += 1
        if j - i == length:
            v = _value(data[i:j])
            if length == 13 and v < 1 << 36:  # Perl's 13-byte form: shortest only
                events.append(("err", i, 1))
                i += 1
                continue
            if "noncharacters-rejected" in on and is_noncharacter(v):
                events.append(("err", i, length))
            else:
                events.append(("cp", v))
            i = j
            continue
        events.append(("err", i, j - i))
        i = j
    if "bom-dropped" in on and data[:3] == b"\xef\xbb\xbf" and events[:1] == [("cp", 0xFEFF)]:
        events = events[1:]
    if "continuation-skipped" in on:
        events = [e for e in events if not (e[0] == "err" and e[2] == 1 and 0x80 <= data[e[1]] <= 0xBF)]
    if "surrogate-sequence" in on:
        # ED A0..BF 80..BF is one span even though Table 3-7 stops at ED's second byte.
        events = _merge_surrogates(data, events)
    if "per-byte" in on:
        events = [e2 for e in events for e2 in (
            [("err", e[1] + k, 1) for k in range(e[2])] if e[0] == "err" else [e])]
    return events


def _merge_surrogates(data: bytes, events: list) -> list:
    out, k = [], 0
    while k < len(events):
        e = events[k]
        if (e[0] == "err" and e[2] == 1 and data[e[1]] == 0xED and e[1] + 1 < len(data)
                and 0xA0 <= data[e[1] + 1] <= 0xBF):
            # ED A0..BF starts a (surrogate) sequence: one span with its third byte if
            # that is a continuation byte, else a truncated span of 2.
            start = e[1]
            end = start + 3 if start + 2 < len(data) and 0x80 <= data[start + 2] <= 0xBF else start + 2
            out.append(("err", start, end - start))
            k += 1
            while k < len(events) and events[k][0] == "err" and events[k][1] < end:
                k += 1
            continue
        out.append(e)
        k += 1
    return out


def answers(data: bytes, on: set) -> dict:
    """The protocol's decode fields for the model."""
    events = decode(data, on)
    lossy, previous_err = [], False
    for e in events:
        if e[0] == "cp":
            lossy.append(e[1])
            previous_err = False
        elif "bytes-as-latin1" in on:
            lossy.extend(data[e[1]:e[1] + e[2]])
        elif not ("per-run" in on and previous_err):
            lossy.append(0x3F if "question-mark" in on else 0xFFFD)
            previous_err = True
    errors = [e for e in events if e[0] == "err"]
    return {
        "lossy": lossy,
        "valid": not errors,
        "result": "invalid" if errors else "valid",
        "strict": None if not errors else (errors[0][1], errors[0][2]),
    }


def encode(cp: int, on: set) -> tuple[str, str | None]:
    """("bytes", hex) or ("error", None) for the model."""
    surrogate = 0xD800 <= cp <= 0xDFFF
    if "noncharacters-rejected" in on and is_noncharacter(cp):
        return "error", None
    if "nul-rejected" in on and cp == 0:
        return "error", None
    if ("nul-terminates" in on and cp == 0) or ("bom-dropped" in on and cp == 0xFEFF):
        return "bytes", ""
    if "encode-bmp-only" in on and cp > 0xFFFF:
        return "bytes", "efbfbd"
    if (surrogate or cp > 0x10FFFF) and "encode-replaces" in on:
        return "bytes", "efbfbd"
    if surrogate and "surrogates-accepted" not in on:
        return "error", None
    if cp > 0x10FFFF and "above-10ffff" not in on:
        return "error", None
    if cp < 0x80:
        return "bytes", "%02x" % cp
    for n, limit in ((2, 0x7FF), (3, 0xFFFF), (4, 0x1FFFFF), (5, 0x3FFFFFF), (6, 0x7FFFFFFF), (7, 2**36 - 1)):
        if cp <= limit:
            break
    else:
        n = 13
    tail = [0x80 | (cp >> (6 * k) & 0x3F) for k in range(n - 1)][::-1]
    head = 0xFE if n == 7 else 0xFF if n == 13 else (0xFF00 >> n & 0xFF) | cp >> (6 * (n - 1))
    return "bytes", bytes([head] + tail).hex()


def cp_value(case: dict) -> int:
    """An encode case's code point (0 if unreadable)."""
    return _cp(case.get("codepoint", "")) or 0


def _cp(text) -> int | None:
    try:
        return int(str(text).upper().removeprefix("U+"), 16)
    except ValueError:
        return None


def _matches(case: dict, mismatches: list, on: set) -> bool:
    """Whether the model with deviations `on` gives every mismatching field's answer."""
    if "codepoint" in case:
        field, value = encode(_cp(case["codepoint"]), on)
        for m in mismatches:
            if m["field"] == "bytes" and not (field == "bytes" and str(m["got"]).lower() == value):
                return False
            if m["field"] == "error" and field != "error":
                return False
        return bool(mismatches)
    model = answers(bytes.fromhex(case["input"]), on)
    for m in mismatches:
        got, f = m["got"], m["field"]
        if f == "lossy":
            if not isinstance(got, list) or [_cp(x) for x in got] != model["lossy"]:
                return False
        elif f == "strict":
            want = model["strict"]
            if (got is None) != (want is None):
                return False
            if got is not None and (got.get("offset"), got.get("length")) != want:
                return False
        elif f in ("valid", "result"):
            if got != model[f]:
                return False
        else:
            return False
    return bool(mismatches)


def _stray_swallows(case: dict, mismatches: list) -> bool:
    """A decode failure whose only difference is a lossy answer missing some of the
    expected characters after the first, in an input starting with a byte 80..BF (a stray
    continuation byte) whose U+FFFD is kept: the shape of the "stray-swallows" bug, which
    no model reproduces. What is lost is the sequence after the stray byte: a character
    (80 E2 82 AC) or the U+FFFD of a truncated sequence (B8 ED 80)."""
    if "input" not in case or [m["field"] for m in mismatches] != ["lossy"]:
        return False
    data = bytes.fromhex(case["input"])
    expected = answers(data, set())["lossy"]
    got = mismatches[0]["got"]
    if not isinstance(got, list):
        return False
    got = [_cp(x) for x in got]
    if len(got) >= len(expected) or not (data and 0x80 <= data[0] <= 0xBF) or got[:1] != [0xFFFD]:
        return False
    rest = iter(expected[1:])
    for cp in got[1:]:
        for e in rest:
            if e == cp:
                break
        else:
            return False
    return True


def explanations(case: dict, mismatches: list) -> list:
    """Every set of one or two deviations whose model gives the decoder's answer."""
    pool = ENCODE if "codepoint" in case else DECODE
    sets = [frozenset([d]) for d in pool] + [frozenset(p) for p in itertools.combinations(pool, 2)]
    return [s for s in sets if _matches(case, mismatches, set(s))]


def name(causes: frozenset) -> str:
    """The cause string of a set of deviations, in CAUSES order."""
    return " + ".join(d for d in CAUSES if d in causes)


def classify(failures: list) -> dict:
    """failures: [(id, case, mismatches)] of one decoder -> {id: cause string}.

    A cause string is one deviation id, several joined with " + ", or UNEXPLAINED."""
    explains = {fid: explanations(case, mismatches) for fid, case, mismatches in failures}
    # Greedy: singles before pairs; then pairs of deviations already named for this
    # decoder; then the explanation covering the most failures.
    result, left, named = {}, set(explains), set()
    while left:
        counts = {}
        for fid in left:
            for s in explains[fid]:
                counts[s] = counts.get(s, 0) + 1
        if not counts:
            cases = {fid: (case, mismatches) for fid, case, mismatches in failures}
            for fid in left:
                result[fid] = "stray-swallows" if _stray_swallows(*cases[fid]) else UNEXPLAINED
            break
        # Ties go to the deviation declared first in CAUSES (the narrower one: NUL
        # rejected before "only XML characters", which also rejects NUL).
        order = list(CAUSES)
        best = max(counts, key=lambda s: (-len(s), len(s & named), counts[s],
                                          sorted((-order.index(d) for d in s), reverse=True)))
        named |= best
        for fid in [f for f in left if best in explains[f]]:
            result[fid] = name(best)
            left.discard(fid)
    return result
