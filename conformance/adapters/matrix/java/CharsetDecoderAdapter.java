// Conformance adapter (protocol 2, with batches) for Java's java.nio.charset UTF-8
// CharsetDecoder / CharsetEncoder, utf-8 only.
//
// decode: `lossy` from a CharsetDecoder with CodingErrorAction.REPLACE (U+FFFD);
//         `valid`, `result` and `strict` from one with CodingErrorAction.REPORT: the first
//         malformed CoderResult gives the offset (the input buffer's position) and its
//         length() (no kind).
// encode: a CharsetEncoder with REPORT on the code point's UTF-16 (a lone surrogate is one
//         char); a failure is sent as `error: null`. Character.toChars refuses values
//         above U+10FFFF: `error: null` too.
// Other encodings and op "document": {"unsupported": true}. Runs as `java
// CharsetDecoderAdapter.java` (JDK 11+) or compiled. No libraries: a small JSON reader
// below. Protocol: conformance/adapters/README.md.

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class CharsetDecoderAdapter {
    static final int BATCH = 4096;

    static final CharsetDecoder LOSSY = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    static final CharsetDecoder STRICT = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    static final CharsetEncoder ENCODER = StandardCharsets.UTF_8.newEncoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    /** Thrown for anything that gets `"unsupported": true`. */
    static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported() {
            super(null, null, false, false);
        }
    }

    // ---- a small JSON reader: objects, arrays, strings, numbers (kept as text), literals

    static final class Json {
        final String s;
        int i;
        int depth;

        Json(String s) {
            this.s = s;
        }

        static Object parse(String s) throws Unsupported {
            Json j = new Json(s);
            Object v = j.value();
            j.ws();
            if (j.i != s.length()) throw new Unsupported();
            return v;
        }

        void ws() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
        }

        Object value() throws Unsupported {
            ws();
            if (i >= s.length() || ++depth > 64) throw new Unsupported();
            char c = s.charAt(i);
            Object v;
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                ws();
                if (i < s.length() && s.charAt(i) == '}') {
                    i++;
                } else {
                    while (true) {
                        ws();
                        String k = string();
                        ws();
                        expect(':');
                        m.put(k, value());
                        ws();
                        if (i < s.length() && s.charAt(i) == ',') { i++; continue; }
                        expect('}');
                        break;
                    }
                }
                v = m;
            } else if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                ws();
                if (i < s.length() && s.charAt(i) == ']') {
                    i++;
                } else {
                    while (true) {
                        l.add(value());
                        ws();
                        if (i < s.length() && s.charAt(i) == ',') { i++; continue; }
                        expect(']');
                        break;
                    }
                }
                v = l;
            } else if (c == '"') {
                v = string();
            } else if (s.startsWith("true", i)) {
                i += 4;
                v = Boolean.TRUE;
            } else if (s.startsWith("false", i)) {
                i += 5;
                v = Boolean.FALSE;
            } else if (s.startsWith("null", i)) {
                i += 4;
                v = null;
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                int start = i;
                while (i < s.length() && "+-.eE0123456789".indexOf(s.charAt(i)) >= 0) i++;
                v = new Num(s.substring(start, i));
            } else {
                throw new Unsupported();
            }
            depth--;
            return v;
        }

        void expect(char c) throws Unsupported {
            if (i >= s.length() || s.charAt(i) != c) throw new Unsupported();
            i++;
        }

        String string() throws Unsupported {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (i < s.length()) {
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c < 0x20) throw new Unsupported();
                if (c != '\\') { b.append(c); continue; }
                if (i >= s.length()) break;
                char e = s.charAt(i++);
                switch (e) {
                    case '"': case '\\': case '/': b.append(e); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'n': b.append('\n'); break;
                    case 'r': b.append('\r'); break;
                    case 't': b.append('\t'); break;
                    case 'u':
                        if (i + 4 > s.length()) throw new Unsupported();
                        try {
                            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        } catch (NumberFormatException x) {
                            throw new Unsupported();
                        }
                        i += 4;
                        break;
                    default: throw new Unsupported();
                }
            }
            throw new Unsupported();
        }
    }

    /** A JSON number, kept as its text so that an id is echoed as it came. */
    record Num(String text) {}

    static void writeJson(StringBuilder out, Object v) {
        if (v == null) {
            out.append("null");
        } else if (v instanceof String str) {
            out.append('"');
            for (int k = 0; k < str.length(); k++) {
                char c = str.charAt(k);
                if (c == '"' || c == '\\') out.append('\\').append(c);
                else if (c < 0x20 || Character.isSurrogate(c)) out.append(String.format("\\u%04x", (int) c));
                else out.append(c);
            }
            out.append('"');
        } else if (v instanceof Num n) {
            out.append(n.text());
        } else if (v instanceof Boolean b) {
            out.append(b);
        } else {
            out.append("null"); // not an id the protocol uses
        }
    }

    // ---- the implementation under test

    static String hello() {
        return "\"protocol\":2,\"name\":\"Java " + System.getProperty("java.version") + " ("
                + System.getProperty("java.vendor") + ") CharsetDecoder/CharsetEncoder UTF-8\","
                + "\"supports\":[{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"lossy\",\"result\",\"valid\",\"strict\"]},"
                + "{\"encoding\":\"utf-8\",\"op\":\"encode\",\"fields\":[\"bytes\",\"error\"]}],"
                + "\"batch\":" + BATCH;
    }

    static void decode(byte[] data, StringBuilder out) throws Unsupported {
        CharBuffer text;
        try {
            LOSSY.reset();
            text = LOSSY.decode(ByteBuffer.wrap(data));
        } catch (CharacterCodingException e) {
            throw new Unsupported(); // cannot happen with REPLACE
        }
        out.append(",\"lossy\":[");
        boolean first = true;
        for (int cp : (Iterable<Integer>) text.codePoints()::iterator) {
            if (!first) out.append(',');
            first = false;
            out.append(String.format("\"U+%04X\"", cp));
        }
        out.append(']');

        STRICT.reset();
        ByteBuffer in = ByteBuffer.wrap(data);
        CharBuffer chars = CharBuffer.allocate(data.length + 4);
        CoderResult r = STRICT.decode(in, chars, true);
        if (!r.isError()) r = STRICT.flush(chars);
        if (r.isOverflow()) throw new Unsupported(); // cannot happen: one char per byte at most
        if (r.isError()) {
            out.append(",\"valid\":false,\"result\":\"invalid\",\"strict\":{\"offset\":")
                    .append(in.position()).append(",\"length\":").append(r.length()).append('}');
        } else {
            out.append(",\"valid\":true,\"result\":\"valid\",\"strict\":null");
        }
    }

    static void encode(String hex, StringBuilder out) throws Unsupported {
        char[] chars;
        try {
            long cp = hex.length() > 15 ? Long.MAX_VALUE : Long.parseLong(hex, 16);
            if (cp > Integer.MAX_VALUE) throw new IllegalArgumentException();
            // A lone surrogate is one char: what a Java string holds for it.
            chars = cp >= 0xD800 && cp <= 0xDFFF ? new char[] {(char) cp} : Character.toChars((int) cp);
        } catch (NumberFormatException e) {
            throw new Unsupported();
        } catch (IllegalArgumentException e) {
            out.append(",\"error\":null");
            return;
        }
        ByteBuffer bytes;
        try {
            ENCODER.reset();
            bytes = ENCODER.encode(CharBuffer.wrap(chars));
        } catch (CharacterCodingException e) {
            out.append(",\"error\":null");
            return;
        }
        out.append(",\"bytes\":\"");
        while (bytes.hasRemaining()) out.append(String.format("%02x", bytes.get() & 0xFF));
        out.append('"');
    }

    static byte[] unhex(Object v) throws Unsupported {
        if (!(v instanceof String s) || s.length() % 2 != 0) throw new Unsupported();
        byte[] b = new byte[s.length() / 2];
        for (int k = 0; k < b.length; k++) {
            int hi = Character.digit(s.charAt(2 * k), 16), lo = Character.digit(s.charAt(2 * k + 1), 16);
            if (hi < 0 || lo < 0) throw new Unsupported();
            b[k] = (byte) (hi << 4 | lo);
        }
        return b;
    }

    /** One request object (not a batch). */
    static void respond(Map<?, ?> req, StringBuilder out) {
        out.append("{\"id\":");
        writeJson(out, req.get("id"));
        int mark = out.length();
        try {
            Object op = req.get("op");
            if ("hello".equals(op)) {
                out.append(',').append(hello());
            } else if (!"utf-8".equals(req.get("encoding"))) {
                throw new Unsupported();
            } else if ("decode".equals(op)) {
                decode(unhex(req.get("input")), out);
            } else if ("encode".equals(op) && req.get("codepoint") instanceof String cp
                    && cp.matches("U\\+[0-9A-Fa-f]+")) {
                encode(cp.substring(2).replaceFirst("^0+(?=.)", ""), out);
            } else {
                throw new Unsupported();
            }
        } catch (Unsupported | RuntimeException e) {
            if (e instanceof RuntimeException) e.printStackTrace();
            out.setLength(mark);
            out.append(",\"unsupported\":true");
        }
        out.append('}');
    }

    static String handleLine(String line) {
        StringBuilder out = new StringBuilder();
        Object v;
        try {
            v = Json.parse(line);
        } catch (Unsupported | RuntimeException e) {
            return "{\"id\":null,\"unsupported\":true}";
        }
        if (!(v instanceof Map<?, ?> req)) return "{\"id\":null,\"unsupported\":true}";
        if ("batch".equals(req.get("op"))) {
            out.append("{\"id\":");
            writeJson(out, req.get("id"));
            if (req.get("requests") instanceof List<?> reqs) {
                out.append(",\"responses\":[");
                for (int k = 0; k < reqs.size(); k++) {
                    if (k > 0) out.append(',');
                    if (reqs.get(k) instanceof Map<?, ?> r) respond(r, out);
                    else out.append("{\"id\":null,\"unsupported\":true}");
                }
                out.append("]}");
            } else {
                out.append(",\"unsupported\":true}");
            }
            return out.toString();
        }
        respond(req, out);
        return out.toString();
    }

    /** A line of any length without its end of line, or null at end of input. */
    static byte[] readLine(InputStream in, ByteArrayOutputStream line) throws IOException {
        line.reset();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') line.write(c);
        if (c < 0 && line.size() == 0) return null;
        return line.toByteArray();
    }

    public static void main(String[] args) throws IOException {
        InputStream in = new BufferedInputStream(System.in, 1 << 16);
        OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        byte[] raw;
        while ((raw = readLine(in, buffer)) != null) {
            String answer = handleLine(new String(raw, StandardCharsets.UTF_8).strip());
            out.write(answer.getBytes(StandardCharsets.UTF_8));
            out.write('\n');
            out.flush();
        }
    }
}
