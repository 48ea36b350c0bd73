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
 *   Declares streaming: a chunked request goes through the push parser
 *   (xmlCreatePushParserCtxt with "<a>", each chunk by xmlParseChunk, then "</a>" with
 *   terminate), valid when the document is well-formed without error.
 * Protocol: conformance/adapters/README.md.
 */
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
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
           "{\"encoding\":\"utf-8\",\"op\":\"decode\",\"fields\":[\"result\",\"valid\"],\"streaming\":true}]",
           LIBXML_DOTTED_VERSION);
  return text;
}

/* The bytes as element text: markup characters as character references. */
static void escape_into(struct buf *doc, const unsigned char *data, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (data[i] == '<') buf_str(doc, "&lt;");
    else if (data[i] == '&') buf_str(doc, "&amp;");
    else if (data[i] == '>') buf_str(doc, "&gt;");
    else buf_add(doc, (const char *)data + i, 1);
  }
}

static void validity(struct buf *out, int valid) {
  buf_fmt(out, ",\"valid\":%s,\"result\":\"%s\"", valid ? "true" : "false", valid ? "valid" : "invalid");
}

static int decode(const unsigned char *data, size_t len, struct buf *out) {
  struct buf doc = {NULL, 0, 0};
  buf_str(&doc, "<a>");
  escape_into(&doc, data, len);
  buf_str(&doc, "</a>");
  first_code = 0;
  xmlDocPtr parsed = xmlReadMemory(doc.data, (int)doc.len, NULL, "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  free(doc.data);
  int valid = parsed != NULL && first_code == 0;
  if (parsed) xmlFreeDoc(parsed);
  validity(out, valid);
  return 1;
}

/* The push parser: "<a>", each chunk as xmlParseChunk, then "</a>" ending the input. */
static int decode_chunks(const struct chunk *chunks, size_t n, struct buf *out) {
  first_code = 0;
  xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(NULL, NULL, "<a>", 3, NULL);
  if (!ctxt) return 0;
  xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  xmlSwitchEncoding(ctxt, XML_CHAR_ENCODING_UTF8);
  for (size_t i = 0; i < n; i++) {
    struct buf part = {NULL, 0, 0};
    escape_into(&part, chunks[i].data, chunks[i].len);
    if (part.len) xmlParseChunk(ctxt, part.data, (int)part.len, 0);
    free(part.data);
  }
  xmlParseChunk(ctxt, "</a>", 4, 1);
  int valid = ctxt->wellFormed && first_code == 0;
  if (ctxt->myDoc) xmlFreeDoc(ctxt->myDoc);
  xmlFreeParserCtxt(ctxt);
  validity(out, valid);
  return 1;
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
