#!/usr/bin/env node
// Conformance adapter for Node.js's WHATWG TextDecoder / TextEncoder (utf-8 only).
//
// decode: `lossy` from new TextDecoder("utf-8", {ignoreBOM: true}) (replacement mode),
//         `valid` from new TextDecoder("utf-8", {fatal: true, ignoreBOM: true}).
//         ignoreBOM keeps a leading EF BB BF as U+FEFF instead of silently dropping it.
//         TextDecoder names no error kinds and gives no offsets: no `output`, no `strict`.
//         `result` is "valid" or "invalid" from the same: UTF-8 has no reserved spans.
// encode: new TextEncoder().encode(String.fromCodePoint(cp)), reported as produced.
//         A lone surrogate becomes EF BF BD (U+FFFD), which is *not* the vectors'
//         `surrogate` error: that mismatch is a real difference of this implementation.
//         String.fromCodePoint throws RangeError above U+10FFFF: sent as error null.
// Other encodings and op "document": {"unsupported": true}.
// Protocol: see README.md in this directory. No npm packages.
"use strict";

const readline = require("readline");

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const CODEPOINT = /^U\+([0-9a-fA-F]+)$/;

const lossyDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
const fatalDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

function formatCodepoint(cp) {
  return "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
}

function decode(bytes) {
  const text = lossyDecoder.decode(bytes);
  const lossy = [];
  for (const ch of text) lossy.push(formatCodepoint(ch.codePointAt(0)));
  let valid = true;
  try {
    fatalDecoder.decode(bytes);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    valid = false;
  }
  return { lossy, result: valid ? "valid" : "invalid", valid };
}

function encode(cp) {
  let s;
  try {
    s = String.fromCodePoint(cp);
  } catch (e) {
    if (e instanceof RangeError) return { error: null };
    throw e;
  }
  return { bytes: Buffer.from(encoder.encode(s)).toString("hex") };
}

function respond(request) {
  if (request.encoding !== "utf-8") return null;
  if (request.op === "decode") {
    if (typeof request.input !== "string" || !HEX.test(request.input)) return null;
    return decode(new Uint8Array(Buffer.from(request.input, "hex")));
  }
  if (request.op === "encode") {
    const m = typeof request.codepoint === "string" ? CODEPOINT.exec(request.codepoint) : null;
    if (!m) return null;
    // parseInt is exact up to 2^53; anything larger is out of range anyway.
    return encode(parseInt(m[1], 16));
  }
  return null;
}

// Protocol 2's handshake: what this adapter answers for every case (README.md,
// "Protocol 2"). Encode failures are sent as `error: null`: no "error-kind".
const HELLO = {
  protocol: 2,
  name: "Node.js " + process.version + " TextDecoder / TextEncoder",
  supports: [
    { encoding: "utf-8", op: "decode", fields: ["lossy", "result", "valid"] },
    { encoding: "utf-8", op: "encode", fields: ["bytes", "error"] },
  ],
  // Batch requests of up to this many requests (README.md, "Batches").
  batch: 4096,
};

function isObject(request) {
  return request !== null && typeof request === "object" && !Array.isArray(request);
}

function handleLine(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    return { id: null, unsupported: true };
  }
  if (!isObject(request)) return { id: null, unsupported: true };
  const id = request.id === undefined ? null : request.id;
  if (request.op === "hello") return Object.assign({ id }, HELLO);
  if (request.op === "batch") {
    if (!Array.isArray(request.requests)) return { id, unsupported: true };
    // One response per request, in order; a request inside a batch is never a batch.
    return { id, responses: request.requests.map(handleOne) };
  }
  return handleOne(request);
}

// The response to one parsed request that is not a hello or a batch.
function handleOne(request) {
  if (!isObject(request)) return { id: null, unsupported: true };
  const response = { id: request.id === undefined ? null : request.id };
  let result = null;
  try {
    result = respond(request);
  } catch (e) {
    process.stderr.write("node_textdecoder: " + (e && e.stack ? e.stack : e) + "\n");
  }
  if (result === null) response.unsupported = true;
  else Object.assign(response, result);
  return response;
}

process.stdout.on("error", (e) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
rl.on("line", (line) => {
  process.stdout.write(JSON.stringify(handleLine(line)) + "\n");
});
