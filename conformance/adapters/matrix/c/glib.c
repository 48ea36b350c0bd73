/* Conformance adapter (protocol 2, with batches) for GLib's UTF-8 functions, utf-8
 * only; three decoders, chosen with --decoder:
 *
 * validate (the default): `valid`, `result` from g_utf8_validate_len(data, len, &end)
 *   (`end` is where the first error starts, but no length is given: no `strict`).
 *   encode: g_ucs4_to_utf8 of the one code point (an error: `error: null`; a value above
 *   32 bits cannot be passed: null).
 * make-valid: `lossy` from g_utf8_make_valid(data, len).
 * converter: GCharsetConverter from UTF-8 to UTF-32LE (g_charset_converter_new, no
 *   fallback), driven by g_converter_convert: `valid`, `result` (G_IO_ERROR_INVALID_DATA
 *   is invalid). Declares streaming: a chunked request feeds the chunks one by one, the
 *   last with G_CONVERTER_INPUT_AT_END; unconsumed bytes of a chunk (a partial
 *   sequence, G_IO_ERROR_PARTIAL_INPUT) are kept and given again with the next.
 * Protocol: conformance/adapters/README.md.
 */
#include <gio/gio.h>
#include <glib.h>

#include "adapter.h"

static const char *mode = "validate";

static const char *hello_fields(void) {
  static char text[640];
  const char *name, *supports;
  if (strcmp(mode, "make-valid") == 0) {
    name = "g_utf8_make_valid";
    supports = "{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"lossy\"]}";
  } else if (strcmp(mode, "converter") == 0) {
    name = "GCharsetConverter UTF-8 -> UTF-32LE";
    supports = "{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"result\",\"valid\"],\"streaming\":true}";
  } else {
    name = "g_utf8_validate_len / g_ucs4_to_utf8";
    supports = "{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"result\",\"valid\"]},"
               "{\"encoding\":\"utf-8\",\"op\":\"encode\",\"fields\":[\"bytes\",\"error\"]}";
  }
  snprintf(text, sizeof text, "\"protocol\":2,\"name\":\"GLib %u.%u.%u %s\",\"supports\":[%s]",
           glib_major_version, glib_minor_version, glib_micro_version, name, supports);
  return text;
}

static void validity(struct buf *out, int valid) {
  buf_fmt(out, ",\"valid\":%s,\"result\":\"%s\"", valid ? "true" : "false", valid ? "valid" : "invalid");
}

/* The converter over the chunks; 1 valid, 0 invalid, -1 an unexpected error. */
static int convert(const struct chunk *chunks, size_t n) {
  GCharsetConverter *conv = g_charset_converter_new("UTF-32LE", "UTF-8", NULL);
  if (!conv) return -1;
  size_t total = 0;
  for (size_t i = 0; i < n; i++) total += chunks[i].len;
  unsigned char *pending = malloc(total + 1);
  size_t cap = 4 * total + 64;
  char *dst = malloc(cap);
  if (!pending || !dst) exit(1);
  size_t kept = 0;
  int status = 1;
  for (size_t i = 0; i < n || (n == 0 && i == 0); i++) {
    int last = i + 1 >= n;
    if (n) memcpy(pending + kept, chunks[i].data, chunks[i].len);
    size_t left = kept + (n ? chunks[i].len : 0), at = 0;
    for (;;) {
      gsize read = 0, written = 0;
      GError *err = NULL;
      GConverterResult r = g_converter_convert(G_CONVERTER(conv), pending + at, left, dst, cap, last ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS, &read, &written, &err);
      at += read;
      left -= read;
      if (r == G_CONVERTER_ERROR) {
        if (g_error_matches(err, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) && !last) {
          g_error_free(err);
          break; /* wait for the next chunk */
        }
        status = g_error_matches(err, G_IO_ERROR, G_IO_ERROR_INVALID_DATA) ||
                 g_error_matches(err, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) ? 0 : -1;
        g_error_free(err);
        goto done;
      }
      if (r == G_CONVERTER_FINISHED || left == 0) break;
    }
    memmove(pending, pending + at, left);
    kept = left;
  }
done:
  free(pending);
  free(dst);
  g_object_unref(conv);
  return status;
}

static int decode(const unsigned char *data, size_t len, struct buf *out) {
  if (strcmp(mode, "make-valid") == 0) {
    gchar *text = g_utf8_make_valid((const gchar *)data, (gssize)len);
    buf_str(out, ",\"lossy\":[");
    int first = 1;
    for (const gchar *p = text; *p; p = g_utf8_next_char(p)) {
      if (!first) buf_str(out, ",");
      first = 0;
      buf_cp(out, g_utf8_get_char(p));
    }
    buf_str(out, "]");
    g_free(text);
    return 1;
  }
  if (strcmp(mode, "converter") == 0) {
    struct chunk one = {(unsigned char *)data, len};
    int status = convert(&one, 1);
    if (status < 0) return 0;
    validity(out, status);
    return 1;
  }
  const gchar *end;
  validity(out, g_utf8_validate_len((const gchar *)data, len, &end));
  return 1;
}

static int decode_chunks(const struct chunk *chunks, size_t n, struct buf *out) {
  if (strcmp(mode, "converter") != 0) return 0;
  int status = convert(chunks, n);
  if (status < 0) return 0;
  validity(out, status);
  return 1;
}

static int encode(unsigned long long cp, int too_wide, struct buf *out) {
  if (strcmp(mode, "validate") != 0) return 0;
  if (too_wide || cp > 0xFFFFFFFFull) {
    buf_str(out, ",\"error\":null");
    return 1;
  }
  gunichar c = (gunichar)cp;
  glong written = 0;
  gchar *s = g_ucs4_to_utf8(&c, 1, NULL, &written, NULL);
  if (!s) {
    buf_str(out, ",\"error\":null");
    return 1;
  }
  buf_str(out, ",\"bytes\":\"");
  for (glong i = 0; i < written; i++) buf_fmt(out, "%02x", (unsigned char)s[i]);
  buf_str(out, "\"");
  g_free(s);
  return 1;
}

int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], "--decoder") == 0) mode = argv[i + 1];
  if (strcmp(mode, "validate") && strcmp(mode, "make-valid") && strcmp(mode, "converter")) {
    fputs("usage: glib-adapter [--decoder validate|make-valid|converter]\n", stderr);
    return 2;
  }
  return adapter_main();
}
