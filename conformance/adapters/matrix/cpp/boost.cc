/* Conformance adapter (protocol 2, with batches) for Boost.Locale's UTF conversion,
 * utf-8 only.
 *
 * decode: `valid`, `result` from boost::locale::conv::utf_to_utf<char32_t>(begin, end,
 *   boost::locale::conv::stop), which throws conversion_error on an invalid sequence
 *   (the exception says neither where nor how long: no `strict`; its other method,
 *   skip, drops invalid bytes instead of replacing them: no `lossy`).
 * encode: utf_to_utf<char>(the one char32_t, stop): the bytes, or conversion_error:
 *   `error: null` (a value above 32 bits cannot be passed: null).
 * Protocol: conformance/adapters/README.md.
 */
#include <boost/locale/encoding_utf.hpp>
#include <boost/version.hpp>
#include <string>

#include "../c/adapter.h"

namespace conv = boost::locale::conv;

static const char *hello_fields(void) {
  static char text[512];
  snprintf(text, sizeof text,
           "\"protocol\":2,\"name\":\"Boost.Locale %d.%d.%d utf_to_utf (stop)\",\"supports\":["
           "{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"result\",\"valid\"]},"
           "{\"encoding\":\"utf-8\",\"op\":\"encode\",\"fields\":[\"bytes\",\"error\"]}]",
           BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100);
  return text;
}

static int decode(const unsigned char *data, size_t len, struct buf *out) {
  bool valid = true;
  try {
    const char *begin = reinterpret_cast<const char *>(data);
    conv::utf_to_utf<char32_t>(begin, begin + len, conv::stop);
  } catch (const conv::conversion_error &) {
    valid = false;
  }
  buf_fmt(out, ",\"valid\":%s,\"result\":\"%s\"", valid ? "true" : "false", valid ? "valid" : "invalid");
  return 1;
}

static int decode_chunks(const struct chunk *, size_t, struct buf *) { return 0; }

static int encode(unsigned long long cp, int too_wide, struct buf *out) {
  if (too_wide || cp > 0xFFFFFFFFull) {
    buf_str(out, ",\"error\":null");
    return 1;
  }
  char32_t c = static_cast<char32_t>(cp);
  std::string bytes;
  try {
    bytes = conv::utf_to_utf<char>(&c, &c + 1, conv::stop);
  } catch (const conv::conversion_error &) {
    buf_str(out, ",\"error\":null");
    return 1;
  }
  buf_str(out, ",\"bytes\":\"");
  for (unsigned char b : bytes) buf_fmt(out, "%02x", b);
  buf_str(out, "\"");
  return 1;
}

int main() { return adapter_main(); }
