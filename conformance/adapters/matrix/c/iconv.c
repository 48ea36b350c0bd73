/* Conformance adapter (protocol 2, with batches) for glibc's iconv, UTF-8 only.
 *
 * decode: iconv(3) from "UTF-8" to "UTF-32LE". A failure (EILSEQ: an invalid sequence;
 *   EINVAL: an incomplete one at the end) gives `valid` and `result`. iconv stops at the
 *   first bad byte but never says how long the bad sequence is, and glibc has no
 *   replacement mode (//IGNORE drops bytes), so no `strict` and no `lossy`.
 *   Declares streaming: a chunked request goes through iconv chunk by chunk, the bytes of
 *   an incomplete sequence at a chunk's end (EINVAL) carried over to the next, as iconv(3)
 *   asks of its caller.
 * encode: iconv from "UCS-4LE" (any 31-bit value) to "UTF-8": `bytes`, or `error: null`
 *   when iconv refuses the value; a value above 32 bits cannot be passed at all (null).
 * Protocol: conformance/adapters/README.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <gnu/libc-version.h>
#include <iconv.h>

#include "adapter.h"

static iconv_t to_utf32, from_ucs4;

static const char *hello_fields(void) {
  static char text[512];
  snprintf(text, sizeof text,
           "\"protocol\":2,\"name\":\"glibc %s iconv UTF-8\",\"supports\":["
           "{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"result\",\"valid\"],\"streaming\":true},"
           "{\"encoding\":\"utf-8\",\"op\":\"encode\",\"fields\":[\"bytes\",\"error\"]}]",
           gnu_get_libc_version());
  return text;
}

static int decode(const unsigned char *data, size_t len, struct buf *out) {
  char *in = (char *)data;
  size_t in_left = len;
  size_t cap = 4 * len + 8;
  char *dst = malloc(cap);
  if (!dst) exit(1);
  char *o = dst;
  size_t o_left = cap;
  iconv(to_utf32, NULL, NULL, NULL, NULL); /* reset the state */
  size_t r = iconv(to_utf32, &in, &in_left, &o, &o_left);
  int valid = r != (size_t)-1;
  if (valid) valid = iconv(to_utf32, NULL, NULL, &o, &o_left) != (size_t)-1;
  free(dst);
  if (!valid && errno != EILSEQ && errno != EINVAL) return 0; /* E2BIG cannot happen */
  buf_fmt(out, ",\"valid\":%s,\"result\":\"%s\"", valid ? "true" : "false", valid ? "valid" : "invalid");
  return 1;
}

static int decode_chunks(const struct chunk *chunks, size_t n, struct buf *out) {
  size_t total = 0;
  for (size_t i = 0; i < n; i++) total += chunks[i].len;
  unsigned char *pending = malloc(total + 1); /* carried-over bytes, then the next chunk */
  char *dst = malloc(4 * total + 8);
  if (!pending || !dst) exit(1);
  size_t kept = 0;
  int valid = 1;
  iconv(to_utf32, NULL, NULL, NULL, NULL);
  for (size_t i = 0; i < n && valid; i++) {
    memcpy(pending + kept, chunks[i].data, chunks[i].len);
    char *in = (char *)pending, *o = dst;
    size_t in_left = kept + chunks[i].len, o_left = 4 * total + 8;
    if (iconv(to_utf32, &in, &in_left, &o, &o_left) == (size_t)-1) {
      if (errno == EINVAL && i + 1 < n) {
        memmove(pending, in, in_left); /* an incomplete sequence: wait for more */
        kept = in_left;
        continue;
      }
      valid = 0;
      if (errno != EILSEQ && errno != EINVAL) { free(pending); free(dst); return 0; }
    }
    kept = 0;
  }
  if (valid) {
    char *o = dst;
    size_t o_left = 4 * total + 8;
    valid = kept == 0 && iconv(to_utf32, NULL, NULL, &o, &o_left) != (size_t)-1;
  }
  free(pending);
  free(dst);
  buf_fmt(out, ",\"valid\":%s,\"result\":\"%s\"", valid ? "true" : "false", valid ? "valid" : "invalid");
  return 1;
}

static int encode(unsigned long long cp, int too_wide, struct buf *out) {
  if (too_wide || cp > 0xFFFFFFFFull) {
    buf_str(out, ",\"error\":null");
    return 1;
  }
  unsigned char ucs4[4] = {(unsigned char)cp, (unsigned char)(cp >> 8), (unsigned char)(cp >> 16),
                           (unsigned char)(cp >> 24)};
  char *in = (char *)ucs4;
  size_t in_left = 4;
  unsigned char dst[16];
  char *o = (char *)dst;
  size_t o_left = sizeof dst;
  iconv(from_ucs4, NULL, NULL, NULL, NULL);
  if (iconv(from_ucs4, &in, &in_left, &o, &o_left) == (size_t)-1) {
    buf_str(out, ",\"error\":null");
    return 1;
  }
  buf_str(out, ",\"bytes\":\"");
  for (unsigned char *p = dst; p < (unsigned char *)o; p++) buf_fmt(out, "%02x", *p);
  buf_str(out, "\"");
  return 1;
}

int main(void) {
  to_utf32 = iconv_open("UTF-32LE", "UTF-8");
  from_ucs4 = iconv_open("UTF-8", "UCS-4LE");
  if (to_utf32 == (iconv_t)-1 || from_ucs4 == (iconv_t)-1) {
    perror("iconv_open");
    return 1;
  }
  return adapter_main();
}
