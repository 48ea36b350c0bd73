"""Tests of the cause models and the classifier (causes.py), and of matrix.py's reading
of reports. Run: python3 -m unittest discover -s conformance/adapters/matrix"""

import html as html_lib
import json
import re
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import causes  # noqa: E402
import decoders  # noqa: E402
import matrix  # noqa: E402

FFFD = 0xFFFD


def lossy(hex_text, *on):
    return causes.answers(bytes.fromhex(hex_text), set(on))["lossy"]


def strict(hex_text, *on):
    return causes.answers(bytes.fromhex(hex_text), set(on))["strict"]


class Reference(unittest.TestCase):
    """No deviation: Table 3-7 with maximal subparts."""

    def test_table_3_8_example(self):
        # Unicode Table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64
        self.assertEqual(lossy("61f18080e180c262806380bf64"),
                         [0x61, FFFD, FFFD, FFFD, 0x62, FFFD, 0x63, FFFD, FFFD, 0x64])

    def test_well_formed(self):
        self.assertEqual(lossy("41c3a9e282acf09f9880efbfbf"), [0x41, 0xE9, 0x20AC, 0x1F600, 0xFFFF])
        self.assertIsNone(strict("f48fbfbf"))

    def test_rejections(self):
        for bad in ("c0af", "e080af", "eda080", "f4908080", "f888808080", "fe", "ff"):
            self.assertFalse(causes.answers(bytes.fromhex(bad), set())["valid"], bad)
        self.assertEqual(strict("41e282"), (1, 2))

    def test_encode(self):
        self.assertEqual(causes.encode(0x20AC, set()), ("bytes", "e282ac"))
        self.assertEqual(causes.encode(0xD800, set()), ("error", None))
        self.assertEqual(causes.encode(0x110000, set()), ("error", None))


class Deviations(unittest.TestCase):
    def test_per_byte(self):
        self.assertEqual(lossy("e282", "per-byte"), [FFFD, FFFD])
        self.assertEqual(strict("41e282", "per-byte"), (1, 1))

    def test_per_run(self):
        self.assertEqual(lossy("41c0af80e0", "per-run"), [0x41, FFFD])
        self.assertEqual(lossy("c0af41c0", "per-run"), [FFFD, 0x41, FFFD])

    def test_surrogate_sequence(self):
        self.assertEqual(lossy("eda080", "surrogate-sequence"), [FFFD])
        self.assertEqual(strict("eda080", "surrogate-sequence"), (0, 3))
        self.assertEqual(strict("eda041", "surrogate-sequence"), (0, 2))
        self.assertEqual(lossy("eda041", "surrogate-sequence"), [FFFD, 0x41])
        self.assertEqual(lossy("ed9f41", "surrogate-sequence"), [FFFD, 0x41])  # as Table 3-7

    def test_lead_length(self):
        self.assertEqual(lossy("c0af41", "lead-length"), [FFFD, 0x41])
        self.assertEqual(lossy("f4908080", "lead-length"), [FFFD])
        self.assertEqual(lossy("fe808041", "lead-length"), [FFFD, 0x41])
        self.assertEqual(lossy("e080", "lead-length"), [FFFD])
        self.assertEqual(lossy("e0c080", "lead-length"), [FFFD, FFFD])
        self.assertEqual(lossy("8080", "lead-length"), [FFFD, FFFD])

    def test_continuation_skipped(self):
        # Lua 5.4.4's utf8.codes: a continuation byte after no lead byte is skipped.
        self.assertEqual(lossy("80", "continuation-skipped"), [])
        self.assertTrue(causes.answers(bytes.fromhex("dfa080"), {"continuation-skipped"})["valid"])
        self.assertEqual(lossy("e28241", "continuation-skipped"), [FFFD, 0x41])  # truncated: still an error
        self.assertFalse(causes.answers(bytes.fromhex("c0af"), {"continuation-skipped"})["valid"])

    def test_tcl(self):
        # Tcl 8.6's default profile: bytes as Latin-1, C0 80 as U+0000, CESU-8 pairs.
        self.assertEqual(lossy("41c0af", "bytes-as-latin1"), [0x41, 0xC0, 0xAF])
        self.assertEqual(lossy("e282", "bytes-as-latin1"), [0xE2, 0x82])
        self.assertEqual(lossy("c080", "modified-utf8-nul"), [0])
        self.assertEqual(lossy("e0c080", "bytes-as-latin1", "modified-utf8-nul"), [0xE0, 0])
        self.assertEqual(lossy("eda080edb080", "cesu-8-pairs"), [0x10000])
        self.assertEqual(lossy("edafbfedbfbf", "cesu-8-pairs"), [0x10FFFF])
        self.assertEqual(lossy("eda080eda080", "cesu-8-pairs"), [FFFD] * 6)  # two high halves
        self.assertEqual(causes.encode(0x1F600, {"encode-bmp-only"}), ("bytes", "efbfbd"))
        self.assertEqual(causes.encode(0xFFFF, {"encode-bmp-only"}), ("bytes", "efbfbf"))

    def test_nul_rejected(self):
        # GLib's g_utf8_validate_len and g_utf8_make_valid.
        self.assertEqual(lossy("410042", "nul-rejected"), [0x41, FFFD, 0x42])
        self.assertFalse(causes.answers(bytes.fromhex("00"), {"nul-rejected"})["valid"])
        self.assertEqual(lossy("e28200", "per-byte", "nul-rejected"), [FFFD, FFFD, FFFD])
        self.assertEqual(causes.encode(0, {"nul-rejected"}), ("error", None))  # PostgreSQL's chr(0)
        self.assertEqual(causes.encode(0, {"nul-terminates"}), ("bytes", ""))  # g_ucs4_to_utf8

    def test_xml_chars_only(self):
        # libxml2: XML 1.0's Char production.
        for refused in ("00", "41 01", "1f", "efbfbe", "efbfbf"):
            self.assertFalse(causes.answers(bytes.fromhex(refused), {"xml-chars-only"})["valid"], refused)
        for kept in ("09", "0a0d", "7f", "c280", "efbfbd", "f48fbfbf"):
            self.assertTrue(causes.answers(bytes.fromhex(kept), {"xml-chars-only"})["valid"], kept)

    def test_bom_dropped(self):
        # Qt 6.4's QStringEncoder drops a leading U+FEFF.
        self.assertEqual(lossy("efbbbf41", "bom-dropped"), [0x41])
        self.assertEqual(lossy("41efbbbf", "bom-dropped"), [0x41, 0xFEFF])
        self.assertEqual(causes.encode(0xFEFF, {"bom-dropped"}), ("bytes", ""))

    def test_second_byte_late(self):
        # Mono 6.8's UTF8Encoding.
        self.assertEqual(lossy("e09f80", "second-byte-late"), [FFFD, FFFD])
        self.assertEqual(strict("41eda080", "second-byte-late"), (1, 2))
        self.assertEqual(lossy("f08f8080", "second-byte-late"), [FFFD] * 3)
        self.assertEqual(lossy("f4908080", "second-byte-late"), [FFFD] * 3)  # above U+10FFFF
        self.assertEqual(lossy("e0a080", "second-byte-late"), [0x800])
        self.assertEqual(lossy("e041", "second-byte-late"), [FFFD, 0x41])

    def test_question_mark(self):
        # MariaDB's CONVERT(... USING utf8mb4).
        self.assertEqual(lossy("41c0af", "question-mark"), [0x41, 0x3F, 0x3F])
        self.assertEqual(lossy("e282", "question-mark", "per-byte"), [0x3F, 0x3F])

    def test_noncharacters(self):
        self.assertEqual(lossy("efbfbfbf", "noncharacters-rejected"), [FFFD, FFFD])
        self.assertEqual(causes.encode(0xFDD0, {"noncharacters-rejected"}), ("error", None))
        self.assertEqual(causes.encode(0xFFFD, {"noncharacters-rejected"}), ("bytes", "efbfbd"))

    def test_generalized(self):
        self.assertTrue(causes.answers(bytes.fromhex("eda080"), {"surrogates-accepted"})["valid"])
        self.assertTrue(causes.answers(bytes.fromhex("f7bfbfbf"), {"above-10ffff"})["valid"])
        self.assertFalse(causes.answers(bytes.fromhex("f888808080"), {"above-10ffff"})["valid"])
        for long_form in ("f888808080", "fc8480808080", "fe828080808080", "ff808080808081808080808080"):
            self.assertTrue(causes.answers(bytes.fromhex(long_form), {"long-forms"})["valid"], long_form)
        self.assertFalse(causes.answers(bytes.fromhex("f880808080"), {"long-forms"})["valid"])  # overlong
        self.assertEqual(causes.encode(0xD800, {"surrogates-accepted"}), ("bytes", "eda080"))
        self.assertEqual(causes.encode(0x7FFFFFFF, {"above-10ffff"}), ("bytes", "fdbfbfbfbfbf"))
        self.assertEqual(causes.encode(0xFFFFFFFF, {"above-10ffff"}), ("bytes", "fe83bfbfbfbfbf"))
        self.assertEqual(causes.encode(0x110000, {"encode-replaces"}), ("bytes", "efbfbd"))


def failure(fid, hex_text, field, got, expected=None):
    return fid, {"input": hex_text}, [{"field": field, "got": got, "expected": expected}]


class Classify(unittest.TestCase):
    def test_names_the_cause(self):
        found = causes.classify([
            failure("a#1", "e282", "lossy", ["U+FFFD", "U+FFFD"]),
            failure("a#2", "e0bf41", "strict", {"offset": 0, "length": 1}),
        ])
        self.assertEqual(found, {"a#1": "per-byte", "a#2": "per-byte"})

    def test_encode_failure(self):
        found = causes.classify([("e#20", {"codepoint": "U+D800"}, [{"field": "bytes", "got": "efbfbd"}])])
        self.assertEqual(found, {"e#20": "encode-replaces"})

    def test_pairs_and_unexplained(self):
        found = causes.classify([
            failure("p#1", "efb79deda080", "lossy", ["U+FFFD", "U+FFFD"]),
            failure("p#2", "e0c080", "lossy", ["U+FFFD", "U+FFFD"]),  # lead-length alone
            failure("p#3", "41", "lossy", ["U+0042"]),
        ])
        self.assertEqual(found["p#1"], "lead-length + noncharacters-rejected")
        self.assertEqual(found["p#3"], causes.UNEXPLAINED)

    def test_ties_go_to_the_narrower_cause(self):
        # 00 refused: both nul-rejected and xml-chars-only explain it; GLib's is NUL.
        found = causes.classify([failure("n#1", "00", "lossy", ["U+FFFD"])])
        self.assertEqual(found["n#1"], "nul-rejected")

    def test_stray_swallows(self):
        found = causes.classify([
            failure("s#1", "80e282ac", "lossy", ["U+FFFD"]),  # Perl Encode 3.17
            failure("s#2", "80c3a9bf", "lossy", ["U+FFFD"]),
            failure("s#3", "41e282ac", "lossy", ["U+0041"]),  # no stray byte first
            failure("s#4", "80e282ac", "lossy", ["U+20AC"]),  # only the stray byte dropped
        ])
        # A truncated sequence swallowed (found by fuzzing Perl Encode): the shape matches,
        # though continuation-skipped's model gives the same answer for this input.
        self.assertTrue(causes._stray_swallows(*failure("s#5", "b8ed80", "lossy", ["U+FFFD"])[1:]))
        self.assertFalse(causes._stray_swallows(*failure("s#6", "b8ed80", "lossy", ["U+0041"])[1:]))
        self.assertEqual(found["s#1"], "stray-swallows")
        self.assertEqual(found["s#2"], "stray-swallows")
        self.assertEqual(found["s#3"], causes.UNEXPLAINED)
        self.assertEqual(found["s#4"], "continuation-skipped")


class Fuzzing(unittest.TestCase):
    """matrix.fuzz_cause: a fuzzing disagreement is known when a cause of the decoder's
    expected failures explains it."""

    def test_known_and_new(self):
        case, mismatches = failure("f#1", "e282", "lossy", ["U+FFFD", "U+FFFD"])[1:]
        self.assertEqual(matrix.fuzz_cause(case, mismatches, {"per-byte"}), "per-byte")
        self.assertIsNone(matrix.fuzz_cause(case, mismatches, {"per-run"}))  # another decoder's cause
        self.assertIsNone(matrix.fuzz_cause(case, [], {"per-byte"}))  # a crash: always new
        pair = failure("f#2", "efb79deda080", "lossy", ["U+FFFD", "U+FFFD"])[1:]
        self.assertEqual(matrix.fuzz_cause(*pair, {"lead-length", "noncharacters-rejected"}),
                         "lead-length + noncharacters-rejected")
        self.assertIsNone(matrix.fuzz_cause(*pair, {"lead-length"}))

    def test_stray_swallows_is_known_only_for_its_decoder(self):
        case, mismatches = failure("f#3", "b8ed80", "lossy", ["U+FFFD"])[1:]
        self.assertEqual(matrix.fuzz_cause(case, mismatches, {"lead-length", "stray-swallows"}), "stray-swallows")
        self.assertIsNone(matrix.fuzz_cause(case, mismatches, {"lead-length"}))


class Chunked(unittest.TestCase):
    """matrix.expected_chunked: a failing chunked variant takes the reason of its whole
    case; one whose whole case passes is a streaming bug, counted as unexplained."""

    def test_variants(self):
        import json
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            here = matrix.HERE
            matrix.HERE = Path(tmp)
            try:
                (Path(tmp) / "expected-failures").mkdir()
                matrix.expected_path("d").write_text(json.dumps({"d": {"utf-8/decode.json#25": "per-byte (x)"}}))
                report = {"implementations": [{"name": "d", "results": [
                    {"id": "utf-8/decode.json#25@split=1", "status": "fail"},
                    {"id": "utf-8/decode.json#25", "status": "xfail"},
                    {"id": "utf-8/decode.json#3@bytes", "status": "fail", "message": "m"},
                    {"id": "utf-8/decode.json#4@bytes", "status": "pass"}]}]}
                self.assertEqual(matrix.expected_chunked(report), 1)
                written = json.loads(matrix.chunked_path("d").read_text())["d"]
                self.assertEqual(sorted(written), ["utf-8/decode.json#25@split=1", "utf-8/decode.json#3@bytes"])
                self.assertIn("per-byte (x)", written["utf-8/decode.json#25@split=1"])
                self.assertTrue(written["utf-8/decode.json#3@bytes"].startswith("unexplained"))
            finally:
                matrix.HERE = here


COUNTS = {"pass": 0, "xfail": 0, "fail": 0, "crash": 0, "timeout": 0, "protocol": 0, "xpass": 0, "skip": 0}


def impl(name, failing):
    """A decoder whose answers to the given (id, field, expected, got) fail."""
    results = [{"id": fid, "status": "xfail", "mismatches": [{"field": field, "expected": want, "got": got}]}
               for fid, field, want, got in failing]
    return {"name": name, "declared": {"name": name + " 1.0"}, "results": results,
            "counts": {**COUNTS, "pass": 1399 - len(failing), "xfail": len(failing)}}


class Page(unittest.TestCase):
    """matrix.page: failures first, each cause's shortest input linked to the explorer, the
    full table in the data file."""

    def ranked(self):
        cases = decoders.vectors()
        # Two inputs of one cause (one U+FFFD per byte): a 3-byte and a 2-byte one.
        three = next(fid for fid, c in cases.items() if c.get("input") == "e08080")
        two = next(fid for fid, c in cases.items() if c.get("input") == "e080")
        self.two = two
        per_byte = [(three, "lossy", ["U+FFFD"] * 3, ["U+FFFD"] * 3), (two, "lossy", ["U+FFFD"] * 2, ["U+FFFD"] * 2)]
        one = [(two, "lossy", ["U+FFFD"] * 2, ["U+FFFD"])]
        return {"implementations": [impl("clean", []), impl("few", one), impl("many", per_byte)],
                       "vectorFiles": [{"cases": len(cases)}], "vectors": {"versions": ["2.4.0"]}}

    def test_failures_come_first(self):
        report = self.ranked()
        names = [i["name"] for i in matrix.failures_first(report)]
        self.assertEqual(names, ["many", "few", "clean"])
        text, data = matrix.page(report, {}, "../site/index.html")
        rows = re.findall(r'<tr><td><a href="#([^"]+)">', text)
        self.assertEqual(rows, ["many", "few", "clean"])
        sections = re.findall(r'<section id="([^"]+)">', text)
        self.assertEqual(sections, ["many", "few", "clean"])
        self.assertLess(data.index('"many"'), data.index('"clean"'))

    def test_each_cause_links_its_shortest_input_to_the_explorer(self):
        text, _ = matrix.page(self.ranked(), {}, "https://owner.github.io/REPO/index.html")
        many = text[text.index('<section id="many">'):text.index('<section id="few">')]
        heads = re.findall(r'<h4>.*?</h4>', many)
        self.assertTrue(heads)
        for head in heads:
            link = re.search(r'<a class=explain href="([^"]+)">the shortest input, <code>([^<]*)</code>', head)
            self.assertIsNotNone(link, head)
            self.assertEqual(html_lib.unescape(link[1]),
                             "https://owner.github.io/REPO/index.html#vectors/" + self.two.replace("#", "/"))
            self.assertEqual(link[2], "E0 80")
        # Every example links its own vector.
        self.assertIn('href="https://owner.github.io/REPO/index.html#vectors/utf-8/decode.json/', many)

    def test_the_default_explorer_is_the_project_s_pages(self):
        self.assertRegex(matrix.explorer_url(), r"^https://[a-z0-9-]+\.github\.io/[A-Za-z0-9_.-]+/index\.html$")
        self.assertEqual(matrix.explorer_link("E", "utf-8/encode.json#20"), "E#vectors/utf-8/encode.json/20")


    def test_page(self):
        cases = decoders.vectors()
        if not cases:
            self.skipTest("no vectors/utf-8 in this checkout")
        first = next(iter(cases))
        report = {"vectorFiles": [{"cases": len(cases)}], "vectors": {"versions": ["x"]}, "implementations": [
            {"name": "go-runes", "declared": {"name": "Go"}, "counts": {"pass": 1, "xfail": 1},
             "results": [{"id": "utf-8/decode.json#31", "status": "xfail",
                          "mismatches": [{"field": "lossy", "expected": ["U+FFFD"], "got": ["U+FFFD", "U+FFFD"]}]},
                         {"id": first, "status": "pass", "mismatches": []}]}]}
        html, data = matrix.page(report, {}, "explorer.html")
        self.assertIn("per-byte", html)
        self.assertIn("E0 BF", html)
        self.assertIn('"go-runes"', data)
        grid = data.split('"decoders":')[1]
        self.assertIn("x", grid)


class NotApplicable(unittest.TestCase):
    """A case the runner did not send (a string encode case to an adapter without
    `codepoints`) is listed nowhere and counted under no outcome: the docs say "not
    applicable", never a pass and never a fail."""

    def report(self):
        cases = decoders.vectors()
        strings = [fid for fid in cases if fid.startswith("utf-8/encode-string.json#")]
        if not strings:
            self.skipTest("no vectors/utf-8/encode-string.json in this checkout")
        sent = [fid for fid in cases if fid not in strings]
        zero = dict(COUNTS)
        files = {"utf-8/encode-string.json": zero,
                 "utf-8/rest.json": {**zero, "pass": len(sent) - 1, "fail": 1}}
        results = [{"id": fid, "status": "pass", "mismatches": []} for fid in sent[1:]]
        results.append({"id": sent[0], "status": "fail", "mismatches": []})
        vector_files = [{"file": "utf-8/encode-string.json", "cases": len(strings)},
                        {"file": "utf-8/rest.json", "cases": len(sent)}]
        declared = {"name": "d", "supports": []}
        full = {"name": "full", "declared": declared, "results": results + [
            {"id": fid, "status": "pass", "mismatches": []} for fid in strings],
            "counts": {**COUNTS, "pass": len(cases) - 1, "fail": 1},
            "files": {**files, "utf-8/encode-string.json": {**zero, "pass": len(strings)}}}
        some = {"name": "some", "declared": declared, "results": results,
                "counts": {**COUNTS, "pass": len(sent) - 1, "fail": 1, "skip": 0}, "files": files}
        return {"vectorFiles": vector_files, "vectors": {"versions": ["x"]}, "resultsListed": "all",
                "implementations": [some, full]}, len(strings), len(sent)

    def test_counted_and_said(self):
        report, strings, _ = self.report()
        some, full = report["implementations"]
        self.assertEqual(matrix.not_applicable(report, some), {"utf-8/encode-string.json": strings})
        self.assertEqual(matrix.not_applicable(report, full), {})
        self.assertEqual(matrix.asked_cell(report, some), f"{strings} not applicable (encode-string)")
        self.assertEqual(matrix.asked_cell(report, full), "—")
        self.assertEqual(matrix.not_applicable_sentence(report),
                         f" The {strings} cases of encode-string were sent to 1 of the 2 decoders, full; "
                         "they do not apply to the others (not sent, counted under no outcome).")

    def test_the_full_table_marks_them_n_and_a_failure_F(self):
        report, strings, sent = self.report()
        _, data = matrix.page(report, {}, "explorer.html")
        grid = json.loads(data[data.index("{"):data.rindex("}") + 1])["decoders"]
        self.assertEqual(grid[0][0], "some")
        self.assertEqual(grid[0][1].count("n"), strings)
        self.assertEqual(grid[0][1].count("F"), 1)
        self.assertEqual(grid[1][1].count("n"), 0)


class FuzzSummary(unittest.TestCase):
    """matrix.cases_judged reads the runner's summary line; without one the decoder is
    reported as not fuzzed (and `fuzz` exits 1), never as fuzzed with 0 cases."""

    def test_summary_line(self):
        text = ("conformance fuzz --adapter x: seed 1, 3 s, utf-8 decode\n"
                "fuzz: 100 inputs, 99 cases judged, 33 cases/s, 0 class(es) of disagreement, 1 s left\n"
                "133120 inputs, 132864 cases judged (with minimizing) in 3.0 s: 44284 cases/s; seed 1\n")
        self.assertEqual(matrix.cases_judged(text), 132864)
        self.assertIsNone(matrix.cases_judged("fuzz: 100 inputs, 99 cases judged, 33 cases/s\n"))
        self.assertIsNone(matrix.cases_judged("error: no such adapter\n"))


class Describe(unittest.TestCase):
    def test_words(self):
        what, expected, got = matrix.describe(
            {"input": "eda080"},
            [{"field": "lossy", "expected": ["U+FFFD"] * 3, "got": ["U+FFFD"]},
             {"field": "strict", "expected": {"offset": 0, "length": 1}, "got": {"offset": 0, "length": 3}}])
        self.assertEqual(what, "ED A0 80")
        self.assertEqual(got, "lossy U+FFFD; strict offset 0 length 3")
        self.assertEqual(expected, "lossy U+FFFD U+FFFD U+FFFD; strict offset 0 length 1")


if __name__ == "__main__":
    unittest.main()
