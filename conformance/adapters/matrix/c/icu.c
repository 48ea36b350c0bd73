/* Conformance adapter (protocol 2, with batches) for ICU's UTF-8, UTF-8 only; two
 * decoders, chosen with --decoder:
 *
 * ucnv (the converter API, the default):
 *   decode: `lossy` from ucnv_toUChars with the default callback (substitutes U+FFFD);
 *     `valid`, `result` and `strict` from ucnv_toUnicode with UCNV_TO_U_CALLBACK_STOP:
 *     it stops after the bad sequence and ucnv_getInvalidChars gives its bytes, so
 *     offset = bytes consumed - their number, length = their number.
 *   Declares streaming: a chunked request goes through the same converters chunk by
 *   chunk (ucnv_toUnicode, flush only with the last chunk; the converter keeps a partial
 *   sequence), the offset of the first error counted over all chunks.
 *   encode: ucnv_fromUChars of the code point's UTF-16 with UCNV_FROM_U_CALLBACK_STOP;
 *     `error: null` on failure (above U+10FFFF there is no UTF-16 to pass: null too).
 * ustring (u_strFromUTF8WithSub / u_strFromUTF8 in ustring.h, a separate code path):
 *   decode: `lossy` with substitution character U+FFFD; `valid`, `result` from
 *     u_strFromUTF8 (U_INVALID_CHAR_FOUND, no position). No encode.
 * Protocol: conformance/adapters/README.md.
 */
#include <unicode/ucnv.h>
#include <unicode/uclean.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/uversion.h>

#include "adapter.h"

static int use_ustring;
static UConverter *lossy_cnv, *strict_cnv, *encode_cnv;

static const char *hello_fields(void) {
  static char text[512];
  UVersionInfo v;
  char version[U_MAX_VERSION_STRING_LENGTH];
  u_getVersion(v);
  u_versionToString(v, version);
  if (use_ustring)
    snprintf(text, sizeof text,
             "\"protocol\":2,\"name\":\"ICU %s u_strFromUTF8WithSub / u_strFromUTF8\",\"supports\":["
             "{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"lossy\",\"result\",\"valid\"]}]",
             version);
  else
    snprintf(text, sizeof text,
             "\"protocol\":2,\"name\":\"ICU %s ucnv UTF-8 converter\",\"supports\":["
             "{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"lossy\",\"result\",\"valid\",\"strict\"],\"streaming\":true},"
             "{\"encoding\":\"utf-8\",\"op\":\"encode\",\"fields\":[\"bytes\",\"error\"]}]",
             version);
  return text;
}

static void add_lossy(struct buf *out, const UChar *s, int32_t n) {
  buf_str(out, ",\"lossy\":[");
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    U16_NEXT(s, i, n, c);
    if (out->data[out->len - 1] != '[') buf_str(out, ",");
    buf_cp(out, (unsigned long)c);
  }
  buf_str(out, "]");
}

static int decode_ustring(const unsigned char *data, size_t len, struct buf *out) {
  int32_t cap = (int32_t)len + 1, n = 0, subs = 0;
  UChar *dst = malloc(sizeof(UChar) * (size_t)cap);
  if (!dst) exit(1);
  UErrorCode err = U_ZERO_ERROR;
  u_strFromUTF8WithSub(dst, cap, &n, (const char *)data, (int32_t)len, 0xFFFD, &subs, &err);
  if (U_FAILURE(err)) { free(dst); return 0; }
  add_lossy(out, dst, n);
  err = U_ZERO_ERROR;
  u_strFromUTF8(dst, cap, &n, (const char *)data, (int32_t)len, &err);
  int valid = U_SUCCESS(err);
  if (!valid && err != U_INVALID_CHAR_FOUND) { free(dst); return 0; }
  free(dst);
  buf_fmt(out, ",\"valid\":%s,\"result\":\"%s\"", valid ? "true" : "false", valid ? "valid" : "invalid");
  return 1;
}

static int decode(const unsigned char *data, size_t len, struct buf *out) {
  if (len > 0x3FFFFFFF) return 0;
  if (use_ustring) return decode_ustring(data, len, out);
  /* At most one UChar per byte (a 4-byte sequence gives 2), one U+FFFD per bad byte. */
  int32_t cap = (int32_t)len + 1;
  UChar *dst = malloc(sizeof(UChar) * (size_t)cap);
  if (!dst) exit(1);
  UErrorCode err = U_ZERO_ERROR;
  ucnv_reset(lossy_cnv);
  int32_t n = ucnv_toUChars(lossy_cnv, dst, cap, (const char *)data, (int32_t)len, &err);
  if (U_FAILURE(err)) { free(dst); return 0; }
  add_lossy(out, dst, n);

  ucnv_reset(strict_cnv);
  err = U_ZERO_ERROR;
  const char *src = (const char *)data, *start = src;
  UChar *target = dst;
  ucnv_toUnicode(strict_cnv, &target, dst + cap, &src, start + len, NULL, 1, &err);
  free(dst);
  if (U_SUCCESS(err)) {
    buf_str(out, ",\"valid\":true,\"result\":\"valid\",\"strict\":null");
    return 1;
  }
  if (err != U_ILLEGAL_CHAR_FOUND && err != U_INVALID_CHAR_FOUND && err != U_TRUNCATED_CHAR_FOUND)
    return 0;
  char bad[32];
  int8_t bad_len = sizeof bad;
  UErrorCode err2 = U_ZERO_ERROR;
  ucnv_getInvalidChars(strict_cnv, bad, &bad_len, &err2);
  if (U_FAILURE(err2)) return 0;
  buf_fmt(out, ",\"valid\":false,\"result\":\"invalid\",\"strict\":{\"offset\":%ld,\"length\":%d}",
          (long)(src - start) - bad_len, bad_len);
  return 1;
}

static int decode_chunks(const struct chunk *chunks, size_t n, struct buf *out) {
  if (use_ustring) return 0;
  size_t total = 0;
  for (size_t i = 0; i < n; i++) total += chunks[i].len;
  if (total > 0x3FFFFFFF) return 0;
  int32_t cap = (int32_t)total + 8;
  UChar *dst = malloc(sizeof(UChar) * (size_t)cap);
  if (!dst) exit(1);
  static const unsigned char nothing[1];
  struct chunk none = {(unsigned char *)nothing, 0};
  const struct chunk *list = n ? chunks : &none;
  size_t count = n ? n : 1;

  UErrorCode err = U_ZERO_ERROR;
  ucnv_reset(lossy_cnv);
  UChar *target = dst;
  for (size_t i = 0; i < count && U_SUCCESS(err); i++) {
    const char *src = (const char *)list[i].data;
    ucnv_toUnicode(lossy_cnv, &target, dst + cap, &src, src + list[i].len, NULL, i + 1 == count, &err);
  }
  if (U_FAILURE(err)) { free(dst); return 0; }
  add_lossy(out, dst, (int32_t)(target - dst));

  ucnv_reset(strict_cnv);
  target = dst;
  long consumed = 0;
  for (size_t i = 0; i < count && U_SUCCESS(err); i++) {
    const char *src = (const char *)list[i].data, *start = src;
    ucnv_toUnicode(strict_cnv, &target, dst + cap, &src, src + list[i].len, NULL, i + 1 == count, &err);
    consumed += (long)(src - start);
  }
  free(dst);
  if (U_SUCCESS(err)) {
    buf_str(out, ",\"valid\":true,\"result\":\"valid\",\"strict\":null");
    return 1;
  }
  if (err != U_ILLEGAL_CHAR_FOUND && err != U_INVALID_CHAR_FOUND && err != U_TRUNCATED_CHAR_FOUND) return 0;
  char bad[32];
  int8_t bad_len = sizeof bad;
  UErrorCode err2 = U_ZERO_ERROR;
  ucnv_getInvalidChars(strict_cnv, bad, &bad_len, &err2);
  if (U_FAILURE(err2)) return 0;
  /* The bad bytes end where the converter stopped (they may have begun in an earlier chunk). */
  buf_fmt(out, ",\"valid\":false,\"result\":\"invalid\",\"strict\":{\"offset\":%ld,\"length\":%d}",
          consumed - bad_len, bad_len);
  return 1;
}

static int encode(unsigned long long cp, int too_wide, struct buf *out) {
  if (use_ustring) return 0;
  if (too_wide || cp > 0x10FFFF) {
    buf_str(out, ",\"error\":null");
    return 1;
  }
  UChar src[2];
  int32_t n = 0;
  UBool unused = 0;
  U16_APPEND((UChar *)src, n, 2, (UChar32)cp, unused);
  (void)unused;
  if (cp >= 0xD800 && cp <= 0xDFFF) { src[0] = (UChar)cp; n = 1; } /* U16_APPEND refuses lone surrogates */
  char dst[16];
  UErrorCode err = U_ZERO_ERROR;
  ucnv_reset(encode_cnv);
  int32_t len = ucnv_fromUChars(encode_cnv, dst, sizeof dst, src, n, &err);
  if (U_FAILURE(err)) {
    buf_str(out, ",\"error\":null");
    return 1;
  }
  buf_str(out, ",\"bytes\":\"");
  for (int32_t i = 0; i < len; i++) buf_fmt(out, "%02x", (unsigned char)dst[i]);
  buf_str(out, "\"");
  return 1;
}

int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], "--decoder") == 0) {
      if (strcmp(argv[i + 1], "ustring") == 0) use_ustring = 1;
      else if (strcmp(argv[i + 1], "ucnv") != 0) {
        fputs("usage: icu-adapter [--decoder ucnv|ustring]\n", stderr);
        return 2;
      }
    }
  UErrorCode err = U_ZERO_ERROR;
  lossy_cnv = ucnv_open("UTF-8", &err);
  strict_cnv = ucnv_open("UTF-8", &err);
  encode_cnv = ucnv_open("UTF-8", &err);
  if (U_SUCCESS(err)) ucnv_setToUCallBack(strict_cnv, UCNV_TO_U_CALLBACK_STOP, NULL, NULL, NULL, &err);
  if (U_SUCCESS(err)) ucnv_setFromUCallBack(encode_cnv, UCNV_FROM_U_CALLBACK_STOP, NULL, NULL, NULL, &err);
  if (U_FAILURE(err)) {
    fprintf(stderr, "icu-adapter: %s\n", u_errorName(err));
    return 1;
  }
  int rc = adapter_main();
  ucnv_close(lossy_cnv);
  ucnv_close(strict_cnv);
  ucnv_close(encode_cnv);
  return rc;
}
