// Conformance adapter (protocol 2, with batches) for .NET's UTF8Encoding as Mono
// implements it, utf-8 only.
//
// decode: `lossy` from new UTF8Encoding(false, false) (replacement fallback, U+FFFD);
//   `valid`, `result` from new UTF8Encoding(false, true), which throws
//   DecoderFallbackException. No `strict`: Mono's exception Index is the error's offset
//   less its length (-1 for C0 at offset 0; docs/matrix-findings.md), which no protocol
//   offset can carry; its BytesUnknown (the error's bytes) is right.
//   Declares streaming: a chunked request goes through each encoding's Decoder
//   (GetDecoder), chunk by chunk with flush: false, and an empty call with flush: true at
//   the end.
// encode: new UTF8Encoding(false, true).GetBytes of the code point as a string: one char
//   up to U+FFFF (so a lone surrogate reaches the encoder, which throws
//   EncoderFallbackException: `error: null`), char.ConvertFromUtf32 above (it throws
//   above U+10FFFF: `error: null`).
// Protocol: conformance/adapters/README.md. Mono's class libraries only; the small JSON
// reader and writer are below.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;

static class Adapter {
  const int Batch = 4096;
  static readonly UTF8Encoding Replacing = new UTF8Encoding(false, false);
  static readonly UTF8Encoding Throwing = new UTF8Encoding(false, true);

  // ---- JSON: objects are Dictionary<string, object>, arrays List<object>.
  sealed class Reader {
    readonly string s; int p;
    public Reader(string text) { s = text; }
    void Ws() { while (p < s.Length && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r' || s[p] == '\n')) p++; }
    public object Document() { var v = Value(); Ws(); if (p != s.Length) throw new FormatException(); return v; }
    object Value() {
      Ws();
      if (p >= s.Length) throw new FormatException();
      char c = s[p];
      if (c == '{') {
        p++; var o = new Dictionary<string, object>(); Ws();
        if (p < s.Length && s[p] == '}') { p++; return o; }
        while (true) {
          Ws(); if (p >= s.Length || s[p] != '"') throw new FormatException();
          string k = Str(); Ws(); if (p >= s.Length || s[p] != ':') throw new FormatException(); p++;
          o[k] = Value(); Ws();
          if (p < s.Length && s[p] == ',') { p++; continue; }
          if (p < s.Length && s[p] == '}') { p++; return o; }
          throw new FormatException();
        }
      }
      if (c == '[') {
        p++; var a = new List<object>(); Ws();
        if (p < s.Length && s[p] == ']') { p++; return a; }
        while (true) {
          a.Add(Value()); Ws();
          if (p < s.Length && s[p] == ',') { p++; continue; }
          if (p < s.Length && s[p] == ']') { p++; return a; }
          throw new FormatException();
        }
      }
      if (c == '"') return Str();
      if (Lit("true")) return true;
      if (Lit("false")) return false;
      if (Lit("null")) return null;
      int start = p;
      while (p < s.Length && "+-0123456789.eE".IndexOf(s[p]) >= 0) p++;
      if (p == start) throw new FormatException();
      return new Number(s.Substring(start, p - start));
    }
    bool Lit(string w) { if (string.CompareOrdinal(s, p, w, 0, w.Length) == 0) { p += w.Length; return true; } return false; }
    string Str() {
      p++; var b = new StringBuilder();
      while (true) {
        if (p >= s.Length) throw new FormatException();
        char c = s[p++];
        if (c == '"') return b.ToString();
        if (c < 0x20) throw new FormatException();
        if (c != '\\') { b.Append(c); continue; }
        if (p >= s.Length) throw new FormatException();
        char e = s[p++];
        switch (e) {
          case '"': b.Append('"'); break; case '\\': b.Append('\\'); break; case '/': b.Append('/'); break;
          case 'b': b.Append('\b'); break; case 'f': b.Append('\f'); break; case 'n': b.Append('\n'); break;
          case 'r': b.Append('\r'); break; case 't': b.Append('\t'); break;
          case 'u':
            if (p + 4 > s.Length) throw new FormatException();
            b.Append((char)int.Parse(s.Substring(p, 4), NumberStyles.HexNumber)); p += 4; break;
          default: throw new FormatException();
        }
      }
    }
  }

  sealed class Number { public readonly string Text; public Number(string t) { Text = t; } }

  static void Write(StringBuilder b, object v) {
    if (v == null) b.Append("null");
    else if (v is bool) b.Append((bool)v ? "true" : "false");
    else if (v is int) b.Append(((int)v).ToString(CultureInfo.InvariantCulture));
    else if (v is Number) b.Append(((Number)v).Text);
    else if (v is string) {
      b.Append('"');
      foreach (char c in (string)v) {
        if (c == '"' || c == '\\') b.Append('\\').Append(c);
        else if (c < 0x20 || char.IsSurrogate(c)) b.Append("\\u").Append(((int)c).ToString("x4"));
        else b.Append(c);
      }
      b.Append('"');
    } else if (v is List<object>) {
      b.Append('['); bool first = true;
      foreach (var x in (List<object>)v) { if (!first) b.Append(','); first = false; Write(b, x); }
      b.Append(']');
    } else {
      b.Append('{'); bool first = true;
      foreach (var kv in (List<KeyValuePair<string, object>>)v) {
        if (!first) b.Append(','); first = false; Write(b, kv.Key); b.Append(':'); Write(b, kv.Value);
      }
      b.Append('}');
    }
  }

  // ---- the decoders
  static List<KeyValuePair<string, object>> Obj(params object[] kv) {
    var o = new List<KeyValuePair<string, object>>();
    for (int i = 0; i < kv.Length; i += 2) o.Add(new KeyValuePair<string, object>((string)kv[i], kv[i + 1]));
    return o;
  }

  static object Hello() {
    var decode = Obj("encoding", "utf-8", "op", "decode",
                     "fields", new List<object> { "lossy", "result", "valid" }, "streaming", true);
    var encode = Obj("encoding", "utf-8", "op", "encode", "fields", new List<object> { "bytes", "error" });
    string runtime = Type.GetType("Mono.Runtime") != null
        ? "Mono " + Type.GetType("Mono.Runtime").GetMethod("GetDisplayName",
              System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static).Invoke(null, null)
        : ".NET " + Environment.Version;
    return Obj("protocol", 2, "name", runtime + " UTF8Encoding (replacement / throwOnInvalidBytes)",
               "supports", new List<object> { decode, encode }, "batch", Batch);
  }

  static byte[] Unhex(string h) {
    if (h.Length % 2 != 0) return null;
    var b = new byte[h.Length / 2];
    for (int i = 0; i < b.Length; i++) {
      int hi = Uri.IsHexDigit(h[2 * i]) ? Convert.ToInt32(h.Substring(2 * i, 1), 16) : -1;
      int lo = Uri.IsHexDigit(h[2 * i + 1]) ? Convert.ToInt32(h.Substring(2 * i + 1, 1), 16) : -1;
      if (hi < 0 || lo < 0) return null;
      b[i] = (byte)(hi << 4 | lo);
    }
    return b;
  }

  // The chunks through one Decoder of `enc`; the exception's offset made absolute.
  static string Run(UTF8Encoding enc, List<byte[]> chunks, out int[] error) {
    var dec = enc.GetDecoder();
    var text = new StringBuilder();
    error = null;
    int at = 0;
    try {
      foreach (var c in chunks) {
        var chars = new char[dec.GetCharCount(c, 0, c.Length, false) + 4];
        int n = dec.GetChars(c, 0, c.Length, chars, 0, false);
        text.Append(chars, 0, n);
        at += c.Length;
      }
      var end = new char[dec.GetCharCount(new byte[0], 0, 0, true) + 4];
      int m = dec.GetChars(new byte[0], 0, 0, end, 0, true);
      text.Append(end, 0, m);
    } catch (DecoderFallbackException e) {
      error = new[] { at + e.Index, e.BytesUnknown == null ? 0 : e.BytesUnknown.Length };
    }
    return text.ToString();
  }

  static List<object> Codepoints(string s) {
    var list = new List<object>();
    for (int i = 0; i < s.Length; i++) {
      int cp = char.IsHighSurrogate(s[i]) && i + 1 < s.Length && char.IsLowSurrogate(s[i + 1])
          ? char.ConvertToUtf32(s[i], s[++i]) : s[i];
      list.Add("U+" + cp.ToString("X4"));
    }
    return list;
  }

  static List<KeyValuePair<string, object>> Decode(byte[] input, List<byte[]> chunks) {
    string lossy;
    int[] error;
    if (chunks == null) {
      lossy = Replacing.GetString(input);
      error = null;
      try { Throwing.GetString(input); } catch (DecoderFallbackException e) {
        error = new[] { e.Index, e.BytesUnknown == null ? 0 : e.BytesUnknown.Length };
      }
    } else {
      int[] ignored;
      lossy = Run(Replacing, chunks, out ignored);
      Run(Throwing, chunks, out error);
    }
    return Obj("lossy", Codepoints(lossy), "valid", error == null, "result", error == null ? "valid" : "invalid");
  }

  static List<KeyValuePair<string, object>> Encode(string digits) {
    digits = digits.TrimStart('0');
    if (digits.Length > 8) return Obj("error", null);
    long cp = digits.Length == 0 ? 0 : long.Parse(digits, NumberStyles.HexNumber);
    try {
      string s = cp <= 0xFFFF ? ((char)cp).ToString() : char.ConvertFromUtf32((int)Math.Min(cp, int.MaxValue));
      var bytes = Throwing.GetBytes(s);
      var hex = new StringBuilder();
      foreach (byte b in bytes) hex.Append(b.ToString("x2"));
      return Obj("bytes", hex.ToString());
    } catch (ArgumentException) {
      return Obj("error", null);
    }
  }

  static object Get(Dictionary<string, object> o, string k) { object v; return o.TryGetValue(k, out v) ? v : null; }

  static object Respond(Dictionary<string, object> req) {
    var answer = Obj("id", Get(req, "id"));
    var op = Get(req, "op") as string;
    var enc = Get(req, "encoding") as string;
    List<KeyValuePair<string, object>> fields = null;
    if (op == "hello") {
      fields = (List<KeyValuePair<string, object>>)Hello();
    } else if (enc == "utf-8" && op == "decode" && Get(req, "input") is string) {
      var input = Unhex((string)req["input"]);
      var chunkList = Get(req, "chunks") as List<object>;
      List<byte[]> chunks = null;
      bool ok = input != null;
      if (req.ContainsKey("chunks")) {
        ok = ok && chunkList != null;
        if (ok) {
          chunks = new List<byte[]>();
          foreach (var c in chunkList) {
            var b = c is string ? Unhex((string)c) : null;
            if (b == null) { ok = false; break; }
            chunks.Add(b);
          }
        }
      }
      if (ok) fields = Decode(input, chunks);
    } else if (enc == "utf-8" && op == "encode" && Get(req, "codepoint") is string) {
      var cp = (string)req["codepoint"];
      if (cp.Length > 2 && cp.StartsWith("U+", StringComparison.Ordinal)) {
        bool hex = true;
        for (int i = 2; i < cp.Length; i++) hex &= Uri.IsHexDigit(cp[i]);
        if (hex) fields = Encode(cp.Substring(2));
      }
    }
    if (fields == null) fields = Obj("unsupported", true);
    answer.AddRange(fields);
    return answer;
  }

  static object Handle(string line) {
    object doc;
    try { doc = new Reader(line).Document(); } catch (Exception) { return Obj("id", null, "unsupported", true); }
    var req = doc as Dictionary<string, object>;
    if (req == null) return Obj("id", null, "unsupported", true);
    if (!(Get(req, "op") is string) || (string)req["op"] != "batch") return Respond(req);
    var reqs = Get(req, "requests") as List<object>;
    if (reqs == null) return Obj("id", Get(req, "id"), "unsupported", true);
    var responses = new List<object>();
    foreach (var r in reqs) {
      var o = r as Dictionary<string, object>;
      responses.Add(o == null ? Obj("id", null, "unsupported", true) : Respond(o));
    }
    return Obj("id", Get(req, "id"), "responses", responses);
  }

  static int Main() {
    var stdin = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false, false));
    var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false)) { AutoFlush = false };
    string line;
    while ((line = stdin.ReadLine()) != null) {
      object answer;
      try { answer = Handle(line); } catch (Exception e) {
        Console.Error.WriteLine("dotnet adapter: " + e);
        answer = Obj("id", null, "unsupported", true);
      }
      var b = new StringBuilder();
      Write(b, answer);
      stdout.Write(b.Append('\n').ToString());
      stdout.Flush();
    }
    return 0;
  }
}
