/* Conformance adapter (protocol 2, with batches) for utf8proc, utf-8 only.
 *
 * decode: `valid`, `result` from walking the input with utf8proc_iterate (a negative
 *   return, UTF8PROC_ERROR_INVALIDUTF8, is invalid; it gives no error length, and
 *   utf8proc has no replacement mode of its own: no `strict`, no `lossy`).
 * encode: utf8proc_encode_char (0 bytes written: `error: null`), which its header says
 *   does not check that the value is a valid code point.
 * Protocol: conformance/adapters/README.md.
 */
#include <utf8proc.h>

#include "adapter.h"

static const char *hello_fields(void) {
  static char text[512];
  snprintf(text, sizeof text,
           "\"protocol\":2,\"name\":\"utf8proc %s utf8proc_iterate / utf8proc_encode_char\",\"supports\":["
           "{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"result\",\"valid\"]},"
           "{\"encoding\":\"utf-8\",\"op\":\"encode\",\"fields\":[\"bytes\",\"error\"]}]",
           utf8proc_version());
  return text;
}

static int decode(const unsigned char *data, size_t len, struct buf *out) {
  int valid = 1;
  for (size_t i = 0; i < len;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t n = utf8proc_iterate(data + i, (utf8proc_ssize_t)(len - i), &cp);
    if (n <= 0) {
      valid = 0;
      break;
    }
    i += (size_t)n;
  }
  buf_fmt(out, ",\"valid\":%s,\"result\":\"%s\"", valid ? "true" : "false", valid ? "valid" : "invalid");
  return 1;
}

static int decode_chunks(const struct chunk *chunks, size_t n, struct buf *out) {
  (void)chunks, (void)n, (void)out;
  return 0;
}

static int encode(unsigned long long cp, int too_wide, struct buf *out) {
  utf8proc_uint8_t dst[8];
  utf8proc_ssize_t n = too_wide || cp > 0x7FFFFFFFull ? 0 : utf8proc_encode_char((utf8proc_int32_t)cp, dst);
  if (n <= 0) {
    buf_str(out, ",\"error\":null");
    return 1;
  }
  buf_str(out, ",\"bytes\":\"");
  for (utf8proc_ssize_t i = 0; i < n; i++) buf_fmt(out, "%02x", dst[i]);
  buf_str(out, "\"");
  return 1;
}

int main(void) { return adapter_main(); }
