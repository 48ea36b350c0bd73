/* Conformance adapter (protocol 2, with batches) for libxml2's UTF-8 input decoding,
 * utf-8 only.
 *
 * decode: the bytes as the text of an element, "<a>" BYTES "</a>" ('<', '&' and '>'
 *   written as the references &lt; &amp; &gt;: the same text), parsed with
 *   xmlReadMemory(..., "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR |
 *   XML_PARSE_NOWARNING): a document without error is `valid`, a refused one invalid.
 *   XML 1.0 refuses more than UTF-8 does (the Char production: C0 controls other than
 *   tab, LF and CR, U+FFFE, U+FFFF); those refusals are expected failures with their own
 *   cause (xml-chars-only). libxml2's UTF-8 reader decodes ED A0 80 and F4 90 80 80 to
 *   U+D800 and U+110000, which the Char check then refuses, so those are refused too.
 *   The error's position is a line and column of the document, not a byte offset and
 *   length: no `strict`. No encode.
 * Protocol: conformance/adapters/README.md.
 */
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlversion.h>

#include "adapter.h"

static int first_code;

static void on_error(void *ctx, xmlErrorPtr err) {
  (void)ctx;
  if (first_code == 0 && err) first_code = err->code ? err->code : -1;
}

static const char *hello_fields(void) {
  static char text[512];
  snprintf(text, sizeof text,
           "\"protocol\":2,\"name\":\"libxml2 %s xmlReadMemory (UTF-8 text node)\",\"supports\":["
           "{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"result\",\"valid\"]}]",
           LIBXML_DOTTED_VERSION);
  return text;
}

static int decode(const unsigned char *data, size_t len, struct buf *out) {
  struct buf doc = {0};
  buf_str(&doc, "<a>");
  for (size_t i = 0; i < len; i++) {
    /* Markup characters as character references: the same text, not markup. */
    if (data[i] == '<') buf_str(&doc, "&lt;");
    else if (data[i] == '&') buf_str(&doc, "&amp;");
    else if (data[i] == '>') buf_str(&doc, "&gt;");
    else buf_add(&doc, (const char *)data + i, 1);
  }
  buf_str(&doc, "</a>");
  first_code = 0;
  xmlDocPtr parsed = xmlReadMemory(doc.data, (int)doc.len, NULL, "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  free(doc.data);
  int valid = parsed != NULL && first_code == 0;
  if (parsed) xmlFreeDoc(parsed);
  buf_fmt(out, ",\"valid\":%s,\"result\":\"%s\"", valid ? "true" : "false", valid ? "valid" : "invalid");
  return 1;
}

static int decode_chunks(const struct chunk *chunks, size_t n, struct buf *out) {
  (void)chunks, (void)n, (void)out;
  return 0;
}

static int encode(unsigned long long cp, int too_wide, struct buf *out) {
  (void)cp, (void)too_wide, (void)out;
  return 0;
}

int main(void) {
  LIBXML_TEST_VERSION
  xmlSetStructuredErrorFunc(NULL, on_error);
  int status = adapter_main();
  xmlCleanupParser();
  return status;
}
