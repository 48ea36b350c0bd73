// Evaluated in a real browser page by chromium.py (and any other browser driver): the
// WHATWG Encoding Standard's TextDecoder and TextEncoder over a batch of requests.
// __matrix(requests) takes [{op: "decode", input: "hex", chunks: ["hex", ...] | null} |
// {op: "encode", cp: number}] and returns one answer object per request:
// decode: lossy from new TextDecoder("utf-8", {ignoreBOM: true}) (replacement), valid
//   and result from the same with fatal: true (it throws a TypeError); with chunks, both
//   decoders are fed the chunks with {stream: true}, then decode() ends the input.
// encode: new TextEncoder().encode(String.fromCodePoint(cp)) (RangeError above
//   U+10FFFF: error null); a lone surrogate is a USVString's U+FFFD, as in Node.
globalThis.__matrix = (requests) => {
  const bytes = (hex) => {
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  };
  const name = (cp) => "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
  const run = (fatal, parts) => {
    const decoder = new TextDecoder("utf-8", { fatal, ignoreBOM: true });
    let text = "";
    for (const part of parts) text += decoder.decode(part, { stream: true });
    return text + decoder.decode();
  };
  return requests.map((r) => {
    if (r.op === "encode") {
      let s;
      try {
        s = String.fromCodePoint(r.cp);
      } catch (e) {
        return { error: null };
      }
      const out = new TextEncoder().encode(s);
      return { bytes: Array.from(out, (b) => b.toString(16).padStart(2, "0")).join("") };
    }
    const parts = r.chunks ? r.chunks.map(bytes) : [bytes(r.input)];
    const lossy = Array.from(run(false, parts), (c) => name(c.codePointAt(0)));
    let valid = true;
    try {
      run(true, parts);
    } catch (e) {
      valid = false;
    }
    return { lossy, valid, result: valid ? "valid" : "invalid" };
  });
};
