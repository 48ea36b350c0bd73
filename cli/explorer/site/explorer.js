// The explorer's page (docs/explorer.md). It renders; it computes nothing about bytes.
// Every explanation is the answer of the WebAssembly build of cutf8-explain (the code of
// `cutf8 explain`), asked through three exports: cutf8_request(len) gives room for a
// request, cutf8_respond() answers it and returns the answer's length, cutf8_answer()
// says where the JSON is. The vectors are the set embedded in corrected-utf8-vectors.
//
// The state is the URL's fragment, read on load and on every change:
//   #ENCODING/OP/DATA        ENCODING corrected-utf8, utf-8 or utf-inf-8; OP decode,
//                            encode or document; DATA the bytes in lowercase hex, or for
//                            encode the code points in hex separated by commas
//   #vectors[/PATH[/TCID]]   the vector browser, a file of it, or one case
// window.explorer.ready resolves once the page has rendered its first state;
// window.explorer.settled() once nothing is left to render (the browser tests wait on
// these rather than on time).
"use strict";
(function () {
  const ENCODINGS = ["corrected-utf8", "utf-8", "utf-inf-8"];
  const OPS = ["decode", "encode", "document"];
  // The field and a link's data, in characters: the explorer's own bound (the library
  // takes 512 KiB of UTF-8, which this many UTF-16 units never exceed by more than 3x;
  // the library says so precisely when it is over).
  const MAX_FIELD = 512 * 1024;
  const LIST_LIMIT = 500;
  const SHOWN_CHARS = 2000;
  const DEFAULT_STATE = "#corrected-utf8/decode/ecbda0";
  const META = ["tcId", "comment", "flags"];
  const INPUTS = ["input", "codepoint", "codepoints"];

  const $ = (id) => document.getElementById(id);
  let wasm = null;
  let vectors = null;
  let lastAnswer = null;
  let writtenHash = null;
  let pending = 0;
  let waiters = [];

  // ---- small DOM helpers

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined) continue;
      node.append(c instanceof Node ? c : String(c));
    }
    return node;
  }
  const group = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  const plural = (n, one, many) => group(n) + " " + (n === 1 ? one : many || one + "s");
  const spaced = (hex) => (hex.match(/../g) || []).join(" ").toUpperCase();

  // The field's text for a link's data: spaced pairs, `U+` code points; as it is when
  // it is not clean hex (so the library names the problem).
  function fieldText(op, data) {
    if (op === "encode") return data.split(" ").filter(Boolean).map((c) => (/^[0-9a-f]+$/i.test(c) ? "U+" + c.toUpperCase() : c)).join(" ");
    return data.length <= 8192 && /^([0-9a-f]{2})*$/i.test(data) ? spaced(data) : data;
  }

  function say(text) {
    $("message").textContent = text || "";
  }

  // ---- loading: inflate the module and the vectors, instantiate

  async function inflate(base64) {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  async function loadWasm() {
    const module = await WebAssembly.compile(await inflate(window.EXPLORER_WASM.gzip));
    return { module, instance: await WebAssembly.instantiate(module, {}), resetting: null };
  }

  async function loadVectors() {
    const v = window.EXPLORER_VECTORS;
    const all = await inflate(v.gzip);
    const files = [];
    let at = 0;
    for (const f of v.files) {
      const bytes = all.subarray(at, at + f.bytes);
      at += f.bytes;
      const json = JSON.parse(new TextDecoder().decode(bytes));
      const tests = [];
      for (const g of json.testGroups) for (const t of g.tests) tests.push({ test: t, group: g.comment });
      files.push({ path: f.path, bytes, json, tests });
    }
    return { version: v.version, manifestSha256: v.manifestSha256, files, recomputed: await manifest(files) };
  }

  // The manifest hash (docs/gating.md §5) of the files as embedded here: SHA-256 of
  // sha256sum's lines, sorted by path. null where the browser offers no SubtleCrypto.
  async function manifest(files) {
    if (!(window.crypto && crypto.subtle)) return null;
    const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
    const lines = [];
    for (const f of files) lines.push([f.path, hex(await crypto.subtle.digest("SHA-256", f.bytes))]);
    lines.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const text = lines.map(([p, h]) => h + "  " + p + "\n").join("");
    return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  }

  // ---- asking the WebAssembly build

  function ask(request) {
    const data = new TextEncoder().encode(request);
    const e = wasm.instance.exports;
    try {
      const at = e.cutf8_request(data.length) >>> 0;
      if (at === 0) return { error: "the input is too long for the explorer (at most 512 KiB of text)" };
      new Uint8Array(e.memory.buffer, at, data.length).set(data);
      const n = e.cutf8_respond() >>> 0;
      const answer = new Uint8Array(e.memory.buffer, e.cutf8_answer() >>> 0, n);
      return JSON.parse(new TextDecoder().decode(answer));
    } catch (err) {
      // A trap is a bug of the module: say so, and start a fresh instance.
      wasm.resetting = WebAssembly.instantiate(wasm.module, {}).then((instance) => {
        wasm.instance = instance;
        wasm.resetting = null;
      });
      return { error: "internal error in the WebAssembly build (" + err.message + "): please report this input" };
    }
  }

  // ---- the fragment

  function parseHash(hash) {
    let h = hash.replace(/^#/, "");
    try {
      h = decodeURIComponent(h);
    } catch (e) {
      return { error: "the link's fragment is not valid percent-encoding" };
    }
    if (h === "") return parseHash(DEFAULT_STATE);
    if (h.length > 2 * MAX_FIELD) {
      return { error: "the link holds " + group(h.length) + " characters; the explorer takes at most " + group(MAX_FIELD) + " of input" };
    }
    if (h === "vectors" || h.startsWith("vectors/")) return parseVectorHash(h.slice(8));
    const parts = h.split("/");
    if (parts.length !== 3) {
      return { error: "a link is #ENCODING/OPERATION/INPUT (as #corrected-utf8/decode/ecbda0) or #vectors/FILE/TCID (as #vectors/utf-8/decode.json/61), not #" + h.slice(0, 80) };
    }
    const [encoding, op, data] = parts;
    if (!ENCODINGS.includes(encoding)) {
      return { error: "the link names the encoding '" + encoding.slice(0, 40) + "': it is corrected-utf8, utf-8 or utf-inf-8" };
    }
    if (!OPS.includes(op)) return { error: "the link names the operation '" + op.slice(0, 40) + "': it is decode, encode or document" };
    return { view: "explain", encoding, op, syntax: "hex", input: op === "encode" ? data.split(",").filter(Boolean).join(" ") : data };
  }

  function parseVectorHash(rest) {
    if (rest === "") return { view: "vectors", file: "" };
    const file = vectors.files.find((f) => rest === f.path || rest.startsWith(f.path + "/"));
    if (!file) return { error: "the link names the vector file '" + rest.replace(/\/\d+$/, "").slice(0, 60) + "', which is not one of the " + vectors.files.length + " here" };
    const id = rest.slice(file.path.length + 1);
    if (id === "") return { view: "vectors", file: file.path };
    if (!/^\d+$/.test(id)) return { error: "the link's tcId '" + id.slice(0, 20) + "' is not a number" };
    const found = file.tests.find((t) => t.test.tcId === Number(id));
    if (!found) return { error: file.path + " has no tcId " + id };
    return { view: "case", file, found };
  }

  function writeHash(hash) {
    writtenHash = hash;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  // ---- rendering work, one at a time

  function schedule(work) {
    pending++;
    setTimeout(async () => {
      try {
        if (wasm.resetting) await wasm.resetting;
        work();
        document.body.dataset.shown = location.hash;
      } catch (err) {
        say("the page failed: " + err.message);
      } finally {
        pending--;
        if (pending === 0) {
          const done = waiters;
          waiters = [];
          done.forEach((w) => w());
        }
      }
    }, 0);
  }

  function settled() {
    return pending === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
  }

  function show(view) {
    $("explain-view").hidden = view !== "explain";
    $("vectors-view").hidden = view === "explain";
  }

  function fromHash() {
    const state = parseHash(location.hash);
    if (location.hash === writtenHash) return;
    writtenHash = location.hash;
    if (state.error) {
      say(state.error);
      show("explain");
      $("output").replaceChildren();
      return;
    }
    say("");
    if (state.view === "explain" && state.input.length > MAX_FIELD) {
      show("explain");
      $("output").replaceChildren();
      say("the link's input is " + group(state.input.length) + " characters; the explorer takes at most " + group(MAX_FIELD) + " (512 KiB). Use `cutf8 explain` for more.");
      return;
    }
    if (state.view === "explain") {
      $("encoding").value = state.encoding;
      $("op").value = state.op;
      $("syntax").value = "hex";
      $("input").value = fieldText(state.op, state.input);
      show("explain");
      explainFromForm(false);
    } else {
      show("vectors");
      renderVectors(state);
    }
  }

  // ---- the explain view

  function explainFromForm(writeLink) {
    const encoding = $("encoding").value, op = $("op").value, syntax = $("syntax").value;
    const input = $("input").value;
    if (input.length > MAX_FIELD) {
      lastAnswer = null;
      $("output").replaceChildren();
      say("the input is " + group(input.length) + " characters; the explorer takes at most " + group(MAX_FIELD) + " (512 KiB). Use `cutf8 explain` for more.");
      return;
    }
    const answer = ask(encoding + " " + op + " " + syntax + "\n" + input);
    if (answer.error) {
      lastAnswer = null;
      say(answer.error);
      $("output").replaceChildren();
      return;
    }
    say("");
    lastAnswer = answer;
    if (writeLink) writeHash("#" + encoding + "/" + op + "/" + answer.state);
    $("output").replaceChildren(renderAnswer(answer));
  }

  function renderAnswer(a) {
    if (a.op === "decode") return renderDecode(a, a.encoding + ": decode of " + plural(a.length, "byte"));
    if (a.op === "encode") return renderEncode(a);
    return renderDocument(a);
  }

  function badge(result) {
    return el("span", { class: "badge " + result, "data-result": result, text: result });
  }

  const RESULT_WORDS = {
    valid: "code points only",
    reserved: "no error, but a reserved span: well-formed, of no meaning in this version (not an error)",
    invalid: "at least one error span",
  };

  function segmentCell(s, rows) {
    const cls = s.class === "codepoint" ? "codepoint" : s.class;
    return el("td", { class: "segment " + cls, rowspan: rows > 1 ? rows : null, "data-offset": s.offset, "data-length": s.length },
      s.lines.map((line) => el("div", { text: line })));
  }

  function byteTable(a) {
    const body = el("tbody");
    let next = 0;
    for (const b of a.bytes) {
      const row = el("tr", { "data-offset": b.offset },
        el("td", { class: "n", text: b.offset }), el("td", { class: "hex", text: b.hex }),
        el("td", { class: "bits", text: b.bits }), el("td", { text: b.role }));
      const s = a.segments[next];
      if (s && s.offset === b.offset) {
        row.append(segmentCell(s, Math.min(s.length, a.detailed - s.offset)));
        next++;
      }
      body.append(row);
    }
    return el("table", { class: "bytes" },
      el("thead", {}, el("tr", {}, ["offset", "byte", "bits", "role", "explanation"].map((h) => el("th", { scope: "col", text: h })))),
      body);
  }

  function spanText(e) {
    const where = e.length === 1 ? "byte " + e.offset : "bytes " + e.offset + "-" + (e.offset + e.length - 1);
    return (e.reserved ? "reserved span" : e.error) + " (" + where + ")";
  }

  function renderDecode(a, title) {
    const more = a.events - a.summary.length;
    const errors = a.vector.output.filter((e) => e.error);
    const reserved = a.vector.output.filter((e) => e.reserved);
    const lossyText = a.lossy.map((u) => {
      const cp = parseInt(u.slice(2), 16);
      return u.length <= 8 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : "�";
    }).join("");
    const list = (spans) => spans.length === 0 ? "none" : spans.slice(0, 100).map(spanText).join("; ") + (spans.length > 100 ? "; … " + group(spans.length - 100) + " more" : "");
    return el("section", { class: "answer", "data-op": "decode" },
      el("h3", { text: title }),
      el("p", { class: "result" }, badge(a.result), " ", a.result === "valid" ? "" : a.verdict + ": ", RESULT_WORDS[a.result]),
      el("p", { class: "summary mono", id: "summary" }, "→ " + a.summary.join(" ") + (more > 0 ? " … and " + group(more) + " more" : "")),
      a.length === 0 ? el("p", { class: "note", text: "No bytes: nothing to decode (valid)." }) : byteTable(a),
      a.detailed < a.length ? el("p", { class: "note", text: "Bytes " + group(a.detailed) + " to " + group(a.length - 1) + " are not shown one by one (the explorer details the first " + group(a.detailed) + "); the summary, the spans and the result cover them all." }) : null,
      el("dl", { class: "facts" },
        el("dt", { text: "lossy output" }), el("dd", { class: "mono", id: "lossy" }, a.lossy.join(" ") + (more > 0 ? " …" : "") || "(nothing)"),
        el("dt", { text: "as text" }), el("dd", {}, lossyText ? "«" + lossyText + (more > 0 ? "…" : "") + "»" : "(nothing)"),
        el("dt", { text: "strict decode" }), el("dd", { id: "strict" }, a.strict ? "stops at byte " + a.strict.offset + ": " + (a.strict.reserved ? "a reserved span (not an error, but no code point to give)" : a.strict.error) : "succeeds"),
        el("dt", { text: "error spans" }), el("dd", { id: "errors" }, list(errors)),
        el("dt", { text: "reserved spans" }), el("dd", { id: "reserved" }, list(reserved))));
  }

  function renderEncode(a) {
    const body = el("tbody");
    for (const item of a.items) {
      body.append(el("tr", {}, el("td", { class: "n", text: item.index }), el("td", { class: "mono", text: item.codepoint }),
        el("td", { class: "hex", text: item.hex }), segmentCell(item.segment, 1)));
    }
    if (a.items.length < (a.failure ? a.failure.index : a.codepoints)) {
      body.append(el("tr", {}, el("td", { colspan: 4, class: "note", text: "… the other code points are not shown one by one" })));
    }
    if (a.failure) {
      body.append(el("tr", { class: "error" }, el("td", { class: "n", text: a.failure.index }), el("td", { class: "mono", text: a.failure.codepoint }),
        el("td", { text: "—" }), el("td", { class: "segment error" }, el("div", { text: a.failure.message }))));
    }
    const outcome = a.failure
      ? [a.failure.message + " (code point " + (a.failure.index + 1) + " of " + a.codepoints + "): the encoding fails there, and nothing after it is encoded."]
      : [plural(a.length, "byte") + ": ", el("code", { id: "encoded", text: a.hex || "(none)" })];
    return el("section", { class: "answer", "data-op": "encode" },
      el("h3", { text: a.encoding + ": encode of " + plural(a.codepoints, "code point") }),
      el("p", { class: "result" }, badge(a.result), " ", ...outcome),
      el("table", { class: "codepoints" },
        el("thead", {}, el("tr", {}, ["index", "code point", "bytes", "explanation"].map((h) => el("th", { scope: "col", text: h })))), body));
  }

  function renderDocument(a) {
    const body = el("tbody");
    for (const f of a.findings) {
      body.append(el("tr", { class: f.severity === "error" ? "error" : "reserved" },
        el("td", { text: f.severity }), el("td", { class: "mono", text: f.kind }), el("td", { class: "n", text: f.offset }),
        el("td", { text: f.line + ":" + f.column }), el("td", { text: f.rule })));
    }
    return el("section", { class: "answer", "data-op": "document" },
      el("h3", { text: "corrected-utf8 document of " + plural(a.length, "byte") }),
      el("p", { class: "result" }, badge(a.result), " ", plural(a.errors, "error"), ", ", plural(a.warnings, "warning"),
        a.magic ? "; it starts with the magic number (EF B7 9D ED B2 AE 00 0A), which is not part of the text" : "; no magic number at the start"),
      a.findings.length ? el("table", { class: "findings" },
        el("thead", {}, el("tr", {}, ["severity", "kind", "byte", "line:column", "rule"].map((h) => el("th", { scope: "col", text: h })))), body)
        : el("p", { text: "No findings." }),
      renderDecode(a.decoding, "The file decoded (the magic number's four code points included)"));
  }

  // ---- the vector browser

  function inputOf(test) {
    if (typeof test.input === "string") return test.input;
    if (typeof test.codepoint === "string") return test.codepoint;
    if (Array.isArray(test.codepoints)) return test.codepoints.join(" ");
    if (Array.isArray(test.input)) return test.input.join(" ");
    return "";
  }

  function fillFilters(state) {
    const file = $("filter-file");
    if (!file.options.length) {
      file.append(el("option", { value: "", text: "every file (" + group(vectors.files.reduce((n, f) => n + f.tests.length, 0)) + ")" }));
      for (const f of vectors.files) file.append(el("option", { value: f.path, text: f.path + " (" + f.json.schema + ", " + group(f.tests.length) + ")" }));
    }
    if (state.file !== undefined) file.value = state.file || "";
    const flags = new Set();
    for (const f of selectedFiles()) for (const t of f.tests) for (const x of t.test.flags || []) flags.add(x);
    const flag = $("filter-flag"), keep = flag.value;
    flag.replaceChildren(el("option", { value: "", text: "any flag" }), ...[...flags].sort().map((x) => el("option", { value: x, text: x })));
    flag.value = flags.has(keep) ? keep : "";
  }

  function selectedFiles() {
    const path = $("filter-file").value;
    return vectors.files.filter((f) => !path || f.path === path);
  }

  function renderVectors(state) {
    if (state.view === "case") {
      $("vector-filters").hidden = true;
      $("vector-count").textContent = "";
      $("vector-list").replaceChildren();
      $("vector-case").replaceChildren(renderCase(state.file, state.found));
      return;
    }
    $("vector-filters").hidden = false;
    $("vector-case").replaceChildren();
    fillFilters(state);
    renderList();
  }

  function renderList() {
    const flag = $("filter-flag").value, comment = $("filter-comment").value.toLowerCase();
    const id = $("filter-id").value.trim(), input = $("filter-input").value.toLowerCase().replace(/[\s,]|0x|\\x/g, "");
    const rows = [];
    let count = 0;
    for (const f of selectedFiles()) {
      for (const { test } of f.tests) {
        if (flag && !(test.flags || []).includes(flag)) continue;
        if (comment && !String(test.comment || "").toLowerCase().includes(comment)) continue;
        if (id && String(test.tcId) !== id) continue;
        if (input && !inputOf(test).toLowerCase().replace(/\s/g, "").includes(input)) continue;
        count++;
        if (rows.length >= LIST_LIMIT) continue;
        const shown = inputOf(test);
        rows.push(el("tr", {},
          el("td", {}, el("a", { href: "#vectors/" + f.path + "/" + test.tcId, text: f.path + " #" + test.tcId })),
          el("td", { text: (test.flags || []).join(" ") }), el("td", { text: test.comment || "", title: test.comment || "" }),
          el("td", { class: "mono", text: shown.length > 48 ? shown.slice(0, 48) + "…" : shown || "(empty)" }),
          el("td", {}, test.result ? badge(test.result) : "")));
      }
    }
    $("vector-count").textContent = plural(count, "case") + (count > LIST_LIMIT ? ", the first " + LIST_LIMIT + " shown: refine the filter" : "");
    $("vector-list").replaceChildren(el("table", { class: "list" },
      el("thead", {}, el("tr", {}, ["case", "flags", "comment", "input", "result"].map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, rows)));
  }

  // What the page asks the library for a case, by the fields the case has (any schema:
  // a new one with these inputs is explained, and its other fields compared, as is).
  function liveRequest(file, test) {
    const enc = file.json.encoding;
    if (typeof test.input === "string") {
      const op = file.json.schema === "document" ? "document" : "decode";
      return { request: enc + " " + op + " hex\n" + test.input, link: "#" + enc + "/" + op + "/" + test.input, single: false };
    }
    const list = typeof test.codepoint === "string" ? [test.codepoint] : Array.isArray(test.codepoints) ? test.codepoints : Array.isArray(test.input) ? test.input : null;
    if (!list) return null;
    const link = "#" + enc + "/encode/" + list.map((c) => String(c).replace(/^U\+/i, "").toLowerCase()).join(",");
    return { request: enc + " encode hex\n" + list.join(" "), link, single: typeof test.codepoint === "string" };
  }

  // A field as JSON: a list one element a line (events, findings), anything else on one.
  function json(value) {
    if (value === undefined) return "(absent)";
    if (Array.isArray(value) && value.length > 1) return "[\n " + value.map((v) => JSON.stringify(v)).join(",\n ") + "\n]";
    return JSON.stringify(value);
  }

  function fieldCell(cls, value) {
    const text = json(value);
    const pre = el("pre", { text });
    if (text.length <= SHOWN_CHARS) return el("td", { class: cls }, pre);
    return el("td", { class: cls }, el("details", {}, el("summary", { text: group(text.length) + " characters: " + text.slice(0, 60) + "…" }), pre));
  }

  function sameJson(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function renderCase(file, found) {
    const test = found.test;
    const notes = file.json.notes || {};
    const live = liveRequest(file, test);
    const answer = live ? ask(live.request) : null;
    const got = answer && !answer.error ? Object.assign({}, answer.vector) : null;
    if (got && live.single) delete got.index;
    const expectedFields = Object.keys(test).filter((k) => !META.includes(k) && !INPUTS.includes(k));
    const fields = [...new Set([...expectedFields, ...Object.keys(got || {})])];
    const rows = fields.map((k) => {
      const agree = got !== null && sameJson(test[k], got[k]);
      return el("tr", { "data-field": k, class: got !== null && !agree ? "differs" : null },
        el("th", { scope: "row", text: k }), fieldCell("expected", test[k]), got ? fieldCell("live", got[k]) : el("td", { class: "live", text: "—" }),
        el("td", { class: "agree", text: got === null ? "" : agree ? "✓" : "✗" }));
    });
    const differs = got === null ? [] : fields.filter((k) => !sameJson(test[k], got[k]));
    const verdict = !live ? "This schema (" + file.json.schema + ") has no input this page knows how to explain; its fields are shown as they are."
      : answer.error ? "The explorer could not explain this input: " + answer.error
        : differs.length === 0 ? "The live result agrees with the vector." : "The live result DIFFERS from the vector in: " + differs.join(", ") + ".";
    return el("article", { id: "case", "data-path": file.path, "data-tcid": test.tcId, "data-agrees": got !== null && differs.length === 0 ? "yes" : "no" },
      el("h3", { text: file.path + " #" + test.tcId }),
      el("p", { text: test.comment || "" }),
      el("p", { class: "note" }, "Group: " + found.group + ". Flags: ",
        ...(test.flags || []).map((x, i) => [i ? ", " : "", el("abbr", { title: (notes[x] && notes[x].description) || "", text: x })])),
      el("p", {}, el("a", { href: "#vectors/" + file.path, text: "every case of " + file.path }),
        live ? [" · ", el("a", { href: live.link, text: "open the input in the explainer" })] : null),
      el("table", { class: "fields" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "field" }), el("th", { scope: "col", text: "expected (the vector)" }),
          el("th", { scope: "col", text: "live (this page's WebAssembly build of the reference codec)" }), el("th", { scope: "col", text: "agrees" }))),
        el("tbody", {},
          INPUTS.filter((k) => k in test).map((k) => el("tr", { "data-input": k }, el("th", { scope: "row", text: k }), fieldCell("input", test[k]), el("td", {}), el("td", {}))),
          rows)),
      el("p", { id: "agreement", class: differs.length ? "error" : null, text: verdict }),
      answer && !answer.error ? renderAnswer(answer) : null);
  }

  // ---- wiring

  function versions() {
    const check = vectors.recomputed === null ? ""
      : vectors.recomputed === vectors.manifestSha256 ? " (recomputed here from the " + vectors.files.length + " embedded files: it matches)"
        : " (recomputed here from the embedded files: " + vectors.recomputed + ", which DIFFERS)";
    $("versions").textContent = "Vectors " + vectors.version + ", manifest sha256 " + vectors.manifestSha256 + check;
    $("versions").dataset.manifest = vectors.recomputed === vectors.manifestSha256 ? "verified" : "unverified";
  }

  function convertSyntax(to) {
    // Keep what the field says when its syntax changes, from the last answer.
    const a = lastAnswer;
    if (!a || a.op !== $("op").value) return;
    if (to === "hex") {
      $("input").value = fieldText(a.op, a.op === "encode" ? a.state.split(",").join(" ") : a.state);
      return;
    }
    try {
      if (a.op === "encode") {
        $("input").value = a.state.split(",").filter(Boolean).map((c) => String.fromCodePoint(parseInt(c, 16))).join("");
      } else {
        const bytes = new Uint8Array((a.state.match(/../g) || []).map((h) => parseInt(h, 16)));
        $("input").value = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      }
    } catch (e) {
      $("syntax").value = "hex";
      say("these bytes are not UTF-8 text (or these code points are not Unicode scalar values): the input stays in hex");
    }
  }

  async function main() {
    try {
      [wasm, vectors] = await Promise.all([loadWasm(), loadVectors()]);
    } catch (err) {
      $("status").textContent = "";
      say("the explorer could not start: " + err.message + " (it needs WebAssembly and DecompressionStream: a browser from 2023 or later)");
      throw err;
    }
    $("status").textContent = "";
    versions();
    $("input").addEventListener("input", () => schedule(() => explainFromForm(true)));
    for (const id of ["encoding", "op"]) $(id).addEventListener("change", () => schedule(() => explainFromForm(true)));
    $("syntax").addEventListener("change", () => schedule(() => { convertSyntax($("syntax").value); explainFromForm(true); }));
    $("filter-file").addEventListener("change", () => schedule(() => { writeHash($("filter-file").value ? "#vectors/" + $("filter-file").value : "#vectors"); fillFilters({}); renderList(); }));
    for (const id of ["filter-flag", "filter-comment", "filter-id", "filter-input"]) $(id).addEventListener("input", () => schedule(renderList));
    window.addEventListener("hashchange", () => schedule(fromHash));
    schedule(fromHash);
    await settled();
    document.body.dataset.ready = "yes";
  }

  const ready = main();
  window.explorer = { ready, settled };
})();
