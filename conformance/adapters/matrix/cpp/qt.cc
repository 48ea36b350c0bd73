/* Conformance adapter (protocol 2, with batches) for Qt 6's QStringDecoder /
 * QStringEncoder, utf-8 only.
 *
 * Every decoder and encoder has Flag::ConvertInitialBom: without it Qt drops a leading
 *   U+FEFF, which is BOM handling, not UTF-8 (as the Node adapter's ignoreBOM).
 * decode: QStringDecoder(QStringDecoder::Utf8, Flag::Stateless) over the whole input:
 *   `lossy` from the QString it returns (Qt writes U+FFFD for invalid input), `valid`,
 *   `result` from hasError(). It does not declare streaming: Qt 6.4's stateful decoder
 *   (QStringDecoder::Utf8, default flags) loses bytes at chunk boundaries: fed C2 then
 *   7F it gives U+FFFD alone, 7F lost (docs/matrix-findings.md). A chunked request
 *   (sent by hand; the runner sends none to an adapter that does not declare streaming)
 *   still goes through that stateful decoder chunk by chunk, to show it: it has no call
 *   that ends the input, so after the last chunk the adapter looks at the decoder's own
 *   state (a subclass reaches QStringConverter::state), and bytes still pending there
 *   (remainingChars) are an incomplete sequence at the end: one U+FFFD, invalid.
 * encode: QStringEncoder(Utf8) of QString::fromUcs4 of the one code point (a QString is
 *   UTF-16: a value above U+10FFFF cannot be held, `error: null`); hasError() gives
 *   `error: null`.
 * Protocol: conformance/adapters/README.md.
 */
#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringDecoder>
#include <QtCore/QStringEncoder>
#include <QtCore/qglobal.h>

#include "../c/adapter.h"

namespace {
struct Decoder : QStringDecoder {
  explicit Decoder(Flags flags) : QStringDecoder(QStringDecoder::Utf8, flags) {}
  qsizetype pending() const { return state.remainingChars; }
};

void answer(struct buf *out, const QString &text, bool error) {
  buf_str(out, ",\"lossy\":[");
  bool first = true;
  for (uint cp : text.toUcs4()) {
    if (!first) buf_str(out, ",");
    first = false;
    buf_cp(out, cp);
  }
  buf_fmt(out, "],\"valid\":%s,\"result\":\"%s\"", error ? "false" : "true", error ? "invalid" : "valid");
}
}  // namespace

static const char *hello_fields(void) {
  static char text[512];
  snprintf(text, sizeof text,
           "\"protocol\":2,\"name\":\"Qt %s QStringDecoder / QStringEncoder Utf8\",\"supports\":["
           "{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"lossy\",\"result\",\"valid\"]},"
           "{\"encoding\":\"utf-8\",\"op\":\"encode\",\"fields\":[\"bytes\",\"error\"]}]",
           qVersion());
  return text;
}

static int decode(const unsigned char *data, size_t len, struct buf *out) {
  QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless | QStringDecoder::Flag::ConvertInitialBom);
  QString text = decoder.decode(QByteArrayView(data, static_cast<qsizetype>(len)));
  answer(out, text, decoder.hasError());
  return 1;
}

static int decode_chunks(const struct chunk *chunks, size_t n, struct buf *out) {
  Decoder decoder(QStringDecoder::Flag::ConvertInitialBom);
  QString text;
  for (size_t i = 0; i < n; i++)
    text += decoder.decode(QByteArrayView(chunks[i].data, static_cast<qsizetype>(chunks[i].len)));
  /* The end of input: a sequence still pending is incomplete (one U+FFFD). */
  bool cut = decoder.pending() > 0;
  if (cut) text += QChar(QChar::ReplacementCharacter);
  answer(out, text, decoder.hasError() || cut);
  return 1;
}

static int encode(unsigned long long cp, int too_wide, struct buf *out) {
  if (too_wide || cp > 0x10FFFF) {
    buf_str(out, ",\"error\":null");
    return 1;
  }
  char32_t c = static_cast<char32_t>(cp);
  QString text = QString::fromUcs4(&c, 1);
  QStringEncoder encoder(QStringEncoder::Utf8, QStringEncoder::Flag::Stateless | QStringEncoder::Flag::ConvertInitialBom);
  QByteArray bytes = encoder.encode(text);
  if (encoder.hasError()) {
    buf_str(out, ",\"error\":null");
    return 1;
  }
  buf_str(out, ",\"bytes\":\"");
  for (char b : bytes) buf_fmt(out, "%02x", static_cast<unsigned char>(b));
  buf_str(out, "\"");
  return 1;
}

int main() { return adapter_main(); }
