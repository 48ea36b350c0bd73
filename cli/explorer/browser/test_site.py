#!/usr/bin/env python3
"""The explorer in real browsers: headless Chromium, and Firefox ESR where it is installed
(docs/explorer.md, "Browser tests"). Run from the repository root on a built site:

  scripts/site.sh target/site
  python3 cli/explorer/browser/test_site.py target/site [--browsers chromium,firefox]
      [--per-file N] [--shots DIR] [--report target/reports/adapters.html]
  python3 cli/explorer/browser/test_site.py target/site --readme-screenshot docs/explorer.png

What is checked, in each browser, on the page opened from file://:
  * it starts: the WebAssembly build and the vectors load, the vectors' version and
    manifest hash shown are those of vectors/ (computed here), and the page recomputed
    the same hash from the files it embeds; no uncaught exception, ever;
  * the issue's examples: #corrected-utf8/decode/ecbda0 shows U+E000 with its row and
    offset, #utf-8/decode/edbf80 the surrogate error with its span;
  * vectors: from every vector file, N cases (default 50, all of a smaller file; evenly
    spread, the longest input included), each opened at #vectors/PATH/TCID: the live
    result the page shows, field by field, is the vector's expected result as read
    here from vectors/ (not from the page, not from the codec), with no field more or
    less; a fifth are fresh loads, the rest fragment changes (both paths of the page);
  * the vector list and its filters;
  * typing into the field (the browser's own input events: CDP Input.insertText and
    key events, WebDriver ElementSendKeys) updates the output and the link; every
    control is reached with Tab;
  * bad input gives a clear message and the tab stays responsive: odd hex digits, 1 MiB
    of input (in the field and in a link), a code point above the encoding's range, an
    unknown encoding or operation in a link;
  * the live column is the WebAssembly build's, not the vector's: in a copy of the site
    whose embedded vectors are altered (one expected result changed), the page says
    that case DIFFERS, still shows the true result live, and that the recomputed
    manifest hash differs;
  * with --report FILE, an HTML report of `conformance run` made with --explorer-url
    naming this site: every listed case links its vector and its input to the
    explorer, and the links (8 of each) open pages that show them;
  * a screenshot per encoding, checked not blank (decoded here: enough pixels unlike
    the background, and several colours), kept in --shots (default
    target/site-screenshots).
Exit 0 when every check passed in every browser run; Chromium must run, Firefox runs
when it is installed (said in the output either way). The browsers are Debian's
/usr/bin/chromium and /usr/bin/firefox-esr, or those CHROMIUM and FIREFOX name.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import os
import re
import shutil
import struct
import sys
import tempfile
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browsers  # noqa: E402

VECTORS = Path("vectors")
META = ("tcId", "comment", "flags")
INPUTS = ("input", "codepoint", "codepoints")
EXAMPLE = "41c0afefb79dfe80e080"


class Failures:
    def __init__(self):
        self.items = []
        self.checks = 0

    def check(self, ok: bool, what: str):
        self.checks += 1
        if not ok:
            self.items.append(what)
            print("  FAIL:", what, flush=True)
        return ok


def vector_files() -> list:
    files = []
    for path in sorted(VECTORS.glob("*/*.json")):
        if path.name.endswith(".schema.json"):
            continue
        data = json.loads(path.read_text())
        tests = [t for g in data["testGroups"] for t in g["tests"]]
        files.append((path.relative_to(VECTORS).as_posix(), data, tests))
    return files


def manifest_sha256() -> str:
    """docs/gating.md §5, computed here from vectors/."""
    lines = []
    for path in sorted(p for p in VECTORS.rglob("*.json") if not p.name.endswith(".schema.json")):
        rel = path.relative_to(VECTORS).as_posix()
        lines.append((rel.encode(), hashlib.sha256(path.read_bytes()).hexdigest()))
    lines.sort()
    return hashlib.sha256(b"".join(h.encode() + b"  " + p + b"\n" for p, h in lines)).hexdigest()


def sample(tests: list, n: int) -> list:
    if len(tests) <= n:
        return list(range(len(tests)))
    picked = {round(i * (len(tests) - 1) / (n - 1)) for i in range(n)}
    picked.add(max(range(len(tests)), key=lambda i: len(json.dumps(tests[i]))))
    return sorted(picked)


# ---- the page, read

READY = "explorer.ready.then(() => explorer.settled())"


def after(action: str, hash_: str) -> str:
    """JS: runs `action` (which changes the fragment to `hash_`: setting it, clicking a
    link) and waits for the page to have rendered that fragment."""
    return ("new Promise((resolve, reject) => {"
            f" const want = {json.dumps(hash_)};"
            " const timer = setTimeout(() => reject(new Error('the page did not render ' + want)), 30000);"
            " const observer = new MutationObserver(() => { if (document.body.dataset.shown === want) {"
            "   observer.disconnect(); clearTimeout(timer); resolve(); } });"
            " observer.observe(document.body, {attributes: true, attributeFilter: ['data-shown']});"
            f" {action}; }}).then(() => explorer.settled())")


def after_hash(hash_: str) -> str:
    return after(f"location.hash = {json.dumps(hash_)}", hash_)


READ_CASE = """(() => {
  const c = document.getElementById("case");
  if (!c) return {message: document.getElementById("message").textContent};
  const fields = {};
  for (const tr of c.querySelectorAll("tr[data-field]")) {
    const pre = tr.querySelector("td.live pre");
    fields[tr.dataset.field] = {live: pre ? pre.textContent : null, agree: tr.querySelector("td.agree").textContent};
  }
  return {path: c.dataset.path, tcid: Number(c.dataset.tcid), agrees: c.dataset.agrees,
          agreement: document.getElementById("agreement").textContent, fields,
          segments: c.querySelectorAll("td.segment").length, message: document.getElementById("message").textContent};
})()"""

READ_OUTPUT = """(() => ({
  message: document.getElementById("message").textContent,
  segments: Array.from(document.querySelectorAll("#output td.segment"), (td) => td.textContent),
  summary: (document.getElementById("summary") || {}).textContent || "",
  errors: (document.getElementById("errors") || {}).textContent || "",
  result: Array.from(document.querySelectorAll("#output .result"), (p) => p.textContent).join(" | "),
  hash: location.hash,
  field: document.getElementById("input").value.length,
}))()"""


def read_output(b) -> dict:
    return b.eval(f"{READY}.then(() => {READ_OUTPUT})")


def url(site: Path, hash_: str) -> str:
    return site.resolve().joinpath("index.html").as_uri() + hash_


# ---- the checks

def check_start(b, site: Path, f: Failures):
    b.open(url(site, "#corrected-utf8/decode/ecbda0"))
    info = b.eval(f"{READY}.then(() => ({{versions: document.getElementById('versions').textContent,"
                  " manifest: document.getElementById('versions').dataset.manifest,"
                  " ready: document.body.dataset.ready}))")
    version = json.loads((VECTORS / "utf-8/decode.json").read_text())["version"]
    f.check(info["ready"] == "yes", f"the page never said it was ready: {info}")
    f.check(f"Vectors {version}, manifest sha256 {manifest_sha256()}" in info["versions"],
            f"the page names other vectors than vectors/ ({version}, {manifest_sha256()}): {info['versions']!r}")
    f.check(info["manifest"] == "verified", f"the page did not verify the manifest hash: {info['versions']!r}")


def check_examples(b, site: Path, f: Failures):
    b.open(url(site, "#corrected-utf8/decode/ecbda0"))
    out = read_output(b)
    cell = out["segments"][0] if out["segments"] else ""
    f.check("U+E000 = raw 0xCF60 + 4 256" in cell and "3-byte row (raw ≥ CF60), offset 4 256" in cell,
            f"#corrected-utf8/decode/ecbda0 does not show U+E000 with its row and offset: {out}")
    f.check(out["summary"] == "→ U+E000", f"#corrected-utf8/decode/ecbda0: summary {out['summary']!r}")
    b.open(url(site, "#utf-8/decode/edbf80"))
    out = read_output(b)
    cell = out["segments"][0] if out["segments"] else ""
    f.check("error: surrogate (byte 0)" in cell and "ED BF begins a surrogate" in cell,
            f"#utf-8/decode/edbf80 does not show the surrogate error: {out}")
    f.check(out["errors"].startswith("surrogate (byte 0); unexpected-continuation (byte 1)"),
            f"#utf-8/decode/edbf80: spans {out['errors']!r}")


def compare_case(got: dict, path: str, test: dict, f: Failures) -> bool:
    want = {k: v for k, v in test.items() if k not in META and k not in INPUTS}
    where = f"{path} tcId {test['tcId']}"
    if not f.check("fields" in got, f"{where}: no case shown ({got.get('message')!r})"):
        return False
    ok = f.check((got["path"], got["tcid"]) == (path, test["tcId"]), f"{where}: the page shows {got['path']} {got['tcid']}")
    ok &= f.check(set(got["fields"]) == set(want), f"{where}: the page's fields {sorted(got['fields'])}, the vector's {sorted(want)}")
    for k, v in want.items():
        shown = got["fields"].get(k, {}).get("live")
        try:
            live = json.loads(shown) if shown is not None else None
        except ValueError:
            live = shown
        ok &= f.check(live == v, f"{where}: field {k}: the page shows {str(shown)[:200]!r}, the vector has {json.dumps(v)[:200]}")
        ok &= f.check(got["fields"].get(k, {}).get("agree") == "✓", f"{where}: field {k} not marked as agreeing")
    ok &= f.check(got["agrees"] == "yes" and "agrees with the vector" in got["agreement"],
                  f"{where}: the page says {got['agreement']!r}")
    if "input" in test and test["input"]:
        ok &= f.check(got["segments"] > 0, f"{where}: no explanation of the input")
    return ok


def check_vectors(b, site: Path, per_file: int, f: Failures):
    for path, data, tests in vector_files():
        picked = sample(tests, per_file)
        fresh = set(picked[::5])
        start, passed = time.monotonic(), 0
        for i in picked:
            test = tests[i]
            hash_ = f"#vectors/{path}/{test['tcId']}"
            if i in fresh:
                b.open(url(site, hash_))
                got = b.eval(f"{READY}.then(() => {READ_CASE})")
            else:
                got = b.eval(f"{after_hash(hash_)}.then(() => {READ_CASE})")
            passed += compare_case(got, path, test, f)
        print(f"  {path}: {passed} of {len(picked)} sampled cases ({len(tests)} in the file) show the vector's"
              f" expected result ({time.monotonic() - start:.1f} s)", flush=True)


def check_list(b, site: Path, f: Failures):
    files = vector_files()
    total = sum(len(t) for _, _, t in files)
    b.open(url(site, "#vectors"))
    count = b.eval(f"{READY}.then(() => document.getElementById('vector-count').textContent)")
    f.check(count.startswith(f"{total:,} cases".replace(",", " ")), f"#vectors counts {count!r}, not {total}")
    path, _, tests = files[-1]
    b.open(url(site, f"#vectors/{path}"))
    count = b.eval(f"{READY}.then(() => document.getElementById('vector-count').textContent)")
    f.check(count.startswith(f"{len(tests):,} case".replace(",", " ")), f"#vectors/{path} counts {count!r}, not {len(tests)}")
    tc = tests[len(tests) // 2]["tcId"]
    b.focus("#filter-id")
    b.type(str(tc))
    links = b.eval(f"{READY}.then(() => Array.from(document.querySelectorAll('#vector-list a'), (a) => a.getAttribute('href')))")
    f.check(links == [f"#vectors/{path}/{tc}"], f"filtering {path} by tcId {tc} lists {links}")
    click = after("document.querySelector('#vector-list a').click()", f"#vectors/{path}/{tc}")
    got = b.eval(f"{click}.then(() => {READ_CASE})")
    compare_case(got, path, tests[len(tests) // 2], f)


def check_typing(b, site: Path, f: Failures):
    b.open(url(site, "#utf-8/decode/"))
    read_output(b)
    b.focus("#input")
    b.type("ED BF 80")
    out = read_output(b)
    f.check(out["hash"] == "#utf-8/decode/edbf80", f"typing ED BF 80: the link is {out['hash']!r}")
    f.check(bool(out["segments"]) and "error: surrogate (byte 0)" in out["segments"][0], f"typing ED BF 80 shows {out}")
    b.press("Backspace")
    b.press("Backspace")
    b.press("Backspace")
    out = read_output(b)
    f.check(out["hash"] == "#utf-8/decode/edbf", f"three backspaces: the link is {out['hash']!r}")
    # The encoding's control, by keyboard: utf-8 is second; up is corrected-utf8.
    b.focus("#encoding")
    b.press("ArrowUp")
    out = read_output(b)
    f.check(out["hash"] == "#corrected-utf8/decode/edbf", f"ArrowUp on the encoding: the link is {out['hash']!r}")
    f.check(bool(out["segments"]) and "U+F07F" not in out["result"] and "valid" in out["result"],
            f"ED BF in corrected-utf8: {out}")
    # Text: the field's UTF-8 bytes.
    b.eval("(() => { const t = document.getElementById('input'); t.value = ''; t.dispatchEvent(new Event('input')); })()")
    read_output(b)
    b.eval("(() => { const s = document.getElementById('syntax'); s.value = 'text'; s.dispatchEvent(new Event('change')); })()")
    read_output(b)
    b.focus("#input")
    b.type("é€")
    out = read_output(b)
    f.check(out["hash"] == "#corrected-utf8/decode/c3a9e282ac", f"typing é€ as text: the link is {out['hash']!r}")
    # Every control is reached with Tab from the start of the page.
    b.eval("(() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); })()")
    seen = []
    for _ in range(12):
        b.press("Tab")
        seen.append(b.eval("document.activeElement.id || document.activeElement.tagName"))
    missing = {"encoding", "op", "syntax", "input"} - set(seen)
    f.check(not missing, f"Tab does not reach {sorted(missing)} (focus went {seen})")


def check_bad_input(b, site: Path, f: Failures):
    def responsive(what: str):
        start = time.monotonic()
        f.check(b.eval("1 + 1", timeout=10) == 2, f"{what}: the tab does not answer")
        f.check(time.monotonic() - start < 10, f"{what}: the tab took {time.monotonic() - start:.1f} s to answer")

    cases = [
        ("#utf-8/decode/c0a", "'c0a' has an odd number of hex digits"),
        ("#utf-8/decode/zz", "'zz' has 'z', not a hex digit"),
        ("#utf-9/decode/41", "the link names the encoding 'utf-9'"),
        ("#utf-8/transcode/41", "the link names the operation 'transcode'"),
        ("#utf-8/document/41", "the document check is for corrected-utf8 documents, not utf-8"),
        ("#vectors/utf-8/nothing.json/1", "the link names the vector file 'utf-8/nothing.json'"),
        # Over the bound, under Firefox's longest URL (1 MiB).
        ("#utf-8/decode/" + "41" * 300_000, "the link's input is 600 000 characters; the explorer takes at most 524 288"),
    ]
    for hash_, message in cases:
        b.open(url(site, hash_))
        out = read_output(b)
        f.check(message in out["message"], f"{hash_[:40]}: the message is {out['message']!r}, not {message!r}")
        responsive(hash_[:40])
    for hash_, result in [("#utf-8/encode/41,110000", "U+110000 has no utf-8 encoding: out-of-range"),
                          ("#corrected-utf8/encode/842110a0", "U+842110A0 has no corrected-utf8 encoding: out-of-range"),
                          ("#corrected-utf8/encode/85", "U+0085 has no corrected-utf8 encoding: c1-control"),
                          ("#utf-inf-8/encode/d800", "U+D800 has no utf-inf-8 encoding: surrogate")]:
        b.open(url(site, hash_))
        out = read_output(b)
        f.check(result in out["result"] and "invalid" in out["result"], f"{hash_}: {out['result']!r}")
    # Typed (the field set by script, as a paste): odd digits, then 1 MiB, then good input.
    b.open(url(site, "#utf-8/decode/41"))
    read_output(b)
    b.focus("#input")
    b.type("A")
    out = read_output(b)
    f.check("'41A' has an odd number of hex digits" in out["message"], f"typing an odd digit: {out['message']!r}")
    b.eval("(() => { const t = document.getElementById('input'); t.value = '41'.repeat(1 << 19);"
           " t.dispatchEvent(new Event('input')); })()")
    out = read_output(b)
    f.check("the input is 1 048 576 characters; the explorer takes at most 524 288" in out["message"],
            f"1 MiB in the field: {out['message']!r}")
    responsive("1 MiB in the field")
    b.eval("(() => { const t = document.getElementById('input'); t.value = '80'.repeat(131072);"
           " t.dispatchEvent(new Event('input')); })()")
    out = read_output(b)
    f.check(out["message"] == "" and "131072 errors" in out["result"], f"128 KiB, the bound: {out['result'][:200]!r} {out['message']!r}")
    responsive("128 KiB in the field")
    b.eval("(() => { const t = document.getElementById('input'); t.value = '80'.repeat(131073);"
           " t.dispatchEvent(new Event('input')); })()")
    out = read_output(b)
    f.check("the input is 131 073 bytes; the explorer explains at most 128 KiB" in out["message"],
            f"one byte over the bound: {out['message']!r}")


def tampered_site(site: Path, into: Path) -> tuple:
    """A copy of the site whose embedded utf-8/decode.json has its first case's expected
    result changed from valid to invalid; returns (path, tcId)."""
    shutil.copytree(site, into)
    script = (into / "vectors.js").read_text()
    blob = re.search(r'gzip: "([^"]*)"', script).group(1)
    data = gzip.decompress(base64.b64decode(blob))
    index = [(m.group(1), int(m.group(2))) for m in re.finditer(r'\{path: "([^"]+)", bytes: (\d+)\}', script)]
    parts, at = {}, 0
    for path, size in index:
        parts[path], at = data[at:at + size], at + size
    text = parts["utf-8/decode.json"].decode()
    first = re.search(r'"tcId": 1,.*?"result": "valid"', text, re.S)
    text = text[:first.end() - 7] + '"invalid"' + text[first.end():]
    parts["utf-8/decode.json"] = text.encode()
    for path, _ in index:
        script = script.replace(f'{{path: "{path}", bytes: ', f'{{path: "{path}", bytes: @{len(parts[path])}@')
    script = re.sub(r"bytes: @(\d+)@\d+", r"bytes: \1", script)
    packed = base64.b64encode(gzip.compress(b"".join(parts[p] for p, _ in index))).decode()
    (into / "vectors.js").write_text(script.replace(blob, packed))
    return "utf-8/decode.json", 1


def check_tampered(b, site: Path, f: Failures):
    with tempfile.TemporaryDirectory(prefix="explorer-tampered-") as tmp:
        path, tc = tampered_site(site, Path(tmp) / "site")
        b.open(url(Path(tmp) / "site", f"#vectors/{path}/{tc}"))
        got = b.eval(f"{READY}.then(() => {READ_CASE})")
        manifest = b.eval("document.getElementById('versions').dataset.manifest")
    result = got.get("fields", {}).get("result", {})
    f.check(got.get("agrees") == "no" and "DIFFERS from the vector in: result" in got.get("agreement", ""),
            f"an altered vector: the page says {got.get('agreement')!r}")
    f.check(result.get("live") == '"valid"' and result.get("agree") == "✗",
            f"an altered vector: the live result is {result} (it must be the WebAssembly build's, valid)")
    f.check(manifest == "unverified", f"an altered vector: the manifest is {manifest!r}, not unverified")


def check_report(b, report: Path, f: Failures):
    """An HTML report of `conformance run` (made with --explorer-url pointing at this
    site): every listed case links to the explorer, and each link opens its page."""
    b.open(report.resolve().as_uri())
    links = b.eval("(() => { const rows = Array.from(document.querySelectorAll('table.matrix tr[data-s]'));"
                   " return {rows: rows.length, vectors: rows.map((r) => { const a = r.querySelector('td.id a');"
                   " return a ? a.href : null; }), inputs: rows.map((r) => { const a = r.querySelector('td.in a');"
                   " return a ? a.href : null; })}; })()")
    f.check(links["rows"] > 0, f"{report}: no failing case is listed (it should have some: the expected failures)")
    f.check(all(links["vectors"]) and all(links["inputs"]),
            f"{report}: a listed case without its explorer links: {links}")
    for href in [h for h in links["vectors"] if h][:8]:
        b.open(href)
        got = b.eval(f"{READY}.then(() => {READ_CASE})")
        f.check(got.get("agrees") == "yes", f"{href}: {got.get('agreement') or got.get('message')!r}")
    for href in [h for h in links["inputs"] if h][:8]:
        b.open(href)
        out = read_output(b)
        f.check(out["message"] == "" and out["result"] != "", f"{href}: {out['message']!r} {out['result']!r}")
    print(f"  report {report}: {links['rows']} listed cases, each linked to the explorer;"
          f" {min(8, len(links['vectors']))} vector and {min(8, len(links['inputs']))} input links followed")


def png_stats(data: bytes) -> tuple:
    """(width, height, fraction of pixels unlike the commonest colour, colours seen):
    the PNG decoded here (8-bit RGB or RGBA, the browsers' screenshots)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at, idat, width = 8, b"", 0
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError(f"PNG depth {depth} colour type {colour}")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    counts = {}
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif kind == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 3 == 0:
            for x in range(0, stride, bpp * 3):
                pixel = bytes(line[x:x + 3])
                counts[pixel] = counts.get(pixel, 0) + 1
        prev = line
    total = sum(counts.values())
    return width, height, 1 - max(counts.values()) / total, len(counts)


def check_screenshots(b, site: Path, shots: Path, f: Failures):
    shots.mkdir(parents=True, exist_ok=True)
    for encoding in ("corrected-utf8", "utf-8", "utf-inf-8"):
        b.open(url(site, f"#{encoding}/decode/{EXAMPLE}"))
        read_output(b)
        png = b.screenshot()
        out = shots / f"{b.name}-{encoding}.png"
        out.write_bytes(png)
        width, height, drawn, colours = png_stats(png)
        f.check(drawn > 0.02 and colours >= 8,
                f"{out}: {width}x{height}, {drawn:.1%} of pixels drawn, {colours} colours: blank")
        print(f"  screenshot {out}: {width}x{height}, {drawn:.1%} of pixels unlike the background, {colours} colours")


def binary(name: str) -> str:
    """Debian's browsers, or the ones CHROMIUM and FIREFOX name."""
    if name == "chromium":
        return os.environ.get("CHROMIUM", "/usr/bin/chromium")
    return os.environ.get("FIREFOX", "/usr/bin/firefox-esr")


def run(name: str, site: Path, args, f: Failures) -> None:
    start = time.monotonic()
    b = browsers.Chromium(binary(name)) if name == "chromium" else browsers.Firefox(binary(name))
    try:
        print(f"{name}: {b.version}", flush=True)
        for check in (check_start, check_examples, check_list, check_typing, check_bad_input, check_tampered):
            before = len(f.items)
            check(b, site, f)
            print(f"  {check.__name__[6:]}: {'ok' if len(f.items) == before else 'FAILED'}", flush=True)
        check_screenshots(b, site, Path(args.shots), f)
        if args.report:
            check_report(b, args.report, f)
        check_vectors(b, site, args.per_file, f)
        f.check(not b.exceptions, f"{name}: uncaught exceptions in the page: {b.exceptions[:5]}")
    finally:
        b.close()
    print(f"{name}: done in {time.monotonic() - start:.1f} s", flush=True)


def readme_screenshot(site: Path, out: Path) -> int:
    b = browsers.Chromium(binary("chromium"))
    try:
        b.open(url(site, "#corrected-utf8/decode/f2809fa2edbf80c181"))
        read_output(b)
        png = b.screenshot()
    finally:
        b.close()
    _, _, drawn, colours = png_stats(png)
    if drawn < 0.02 or colours < 8:
        print(f"the screenshot is blank ({drawn:.1%} drawn, {colours} colours)", file=sys.stderr)
        return 1
    out.write_bytes(png)
    print(f"wrote {out} ({len(png)} bytes)")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("site", type=Path)
    p.add_argument("--browsers", default="chromium,firefox")
    p.add_argument("--per-file", type=int, default=50)
    p.add_argument("--shots", default="target/site-screenshots")
    p.add_argument("--readme-screenshot", type=Path)
    p.add_argument("--report", type=Path, help="an HTML report of conformance run whose links to follow")
    args = p.parse_args()
    if not (args.site / "index.html").exists():
        print(f"{args.site}/index.html does not exist: build the site first (scripts/site.sh {args.site})", file=sys.stderr)
        return 2
    if args.readme_screenshot:
        return readme_screenshot(args.site, args.readme_screenshot)
    f = Failures()
    ran = []
    for name in args.browsers.split(","):
        path = binary(name)
        if not Path(path).exists():
            if name == "chromium":
                f.check(False, f"chromium is not installed ({path}): the browser tests need it")
            else:
                print(f"{name}: not installed ({path}): not run")
            continue
        run(name, args.site, args, f)
        ran.append(name)
    print(f"explorer browser tests: {f.checks} checks in {', '.join(ran) or 'no browser'},"
          f" {len(f.items)} failed")
    return 1 if f.items or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
