/* The protocol loop shared by the C adapters (iconv.c, icu.c): reads request lines of
 * any length, parses them with a small JSON reader (any valid JSON; the requests are
 * objects with string fields and, for batches, an array of such objects), answers
 * hello, batch and single requests, and flushes after every line. A line it cannot
 * read gets {"id": null, "unsupported": true}; it never exits before end of input.
 * Compiles as C and as C++ (the Boost and Qt adapters). Protocol: conformance/adapters/README.md.
 *
 * The including program defines:
 *   static const char *hello_fields(void);  the hello's members after "id", as JSON text
 *   static int decode(const unsigned char *data, size_t len, struct buf *out);
 *   static int encode(unsigned long long cp, int too_wide, struct buf *out);
 *   static int decode_chunks(const struct chunk *chunks, size_t n, struct buf *out);
 * decode/encode append ",\"field\":value" members to out and return 1, or return 0 for
 * unsupported. too_wide: the code point has more than 64 bits (cp is then meaningless).
 * decode_chunks answers a chunked request (`--splits`, for a program that declares
 * "streaming": true): the chunks fed one by one to the streaming decoder; n may be 0.
 */
#ifndef MATRIX_ADAPTER_H
#define MATRIX_ADAPTER_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_MAX 4096

struct buf {
  char *data;
  size_t len, cap;
};

static void buf_reserve(struct buf *b, size_t more) {
  if (b->len + more + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + more + 1) cap *= 2;
  char *p = (char *)realloc(b->data, cap);
  if (!p) {
    fputs("adapter: out of memory\n", stderr);
    exit(1);
  }
  b->data = p;
  b->cap = cap;
}

static void buf_add(struct buf *b, const char *s, size_t n) {
  buf_reserve(b, n);
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

static void buf_str(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

static void buf_fmt(struct buf *b, const char *fmt, ...) {
  char tmp[128];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n > 0) buf_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* A code point as the protocol writes it. */
static inline void buf_cp(struct buf *b, unsigned long cp) { buf_fmt(b, "\"U+%04lX\"", cp); }

/* ---- JSON values ---- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
  enum jtype type;
  char *str;           /* J_STR: the decoded string (NUL-terminated); J_NUM, J_BOOL: text */
  size_t str_len;
  struct jval **items; /* J_ARR: elements; J_OBJ: values */
  char **keys;         /* J_OBJ */
  size_t n;
};

static void jfree(struct jval *v) {
  if (!v) return;
  for (size_t i = 0; i < v->n; i++) {
    jfree(v->items[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->str);
  free(v);
}

struct jparser {
  const char *p, *end;
  int depth;
};

static void jskip(struct jparser *ps) {
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void put_utf8(struct buf *b, unsigned long c) {
  char t[4];
  size_t n;
  if (c < 0x80) { t[0] = (char)c; n = 1; }
  else if (c < 0x800) { t[0] = (char)(0xC0 | c >> 6); t[1] = (char)(0x80 | (c & 0x3F)); n = 2; }
  else if (c < 0x10000) { t[0] = (char)(0xE0 | c >> 12); t[1] = (char)(0x80 | (c >> 6 & 0x3F)); t[2] = (char)(0x80 | (c & 0x3F)); n = 3; }
  else { t[0] = (char)(0xF0 | c >> 18); t[1] = (char)(0x80 | (c >> 12 & 0x3F)); t[2] = (char)(0x80 | (c >> 6 & 0x3F)); t[3] = (char)(0x80 | (c & 0x3F)); n = 4; }
  buf_add(b, t, n);
}

static struct jval *jparse_value(struct jparser *ps);

static int jparse_string(struct jparser *ps, struct buf *out) {
  if (ps->p >= ps->end || *ps->p != '"') return 0;
  ps->p++;
  buf_reserve(out, 0);
  while (ps->p < ps->end) {
    unsigned char c = (unsigned char)*ps->p++;
    if (c == '"') return 1;
    if (c < 0x20) return 0;
    if (c != '\\') { buf_add(out, (const char *)&c, 1); continue; }
    if (ps->p >= ps->end) return 0;
    c = (unsigned char)*ps->p++;
    switch (c) {
      case '"': case '\\': case '/': buf_add(out, (const char *)&c, 1); break;
      case 'b': buf_add(out, "\b", 1); break;
      case 'f': buf_add(out, "\f", 1); break;
      case 'n': buf_add(out, "\n", 1); break;
      case 'r': buf_add(out, "\r", 1); break;
      case 't': buf_add(out, "\t", 1); break;
      case 'u': {
        if (ps->end - ps->p < 4) return 0;
        unsigned long u = 0;
        for (int i = 0; i < 4; i++) {
          int h = hexval(ps->p[i]);
          if (h < 0) return 0;
          u = u << 4 | (unsigned long)h;
        }
        ps->p += 4;
        /* A surrogate pair becomes one code point; a lone surrogate is kept as is
         * (ids are echoed back, nothing else depends on it). */
        if (u >= 0xD800 && u < 0xDC00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u') {
          unsigned long lo = 0;
          int ok = 1;
          for (int i = 0; i < 4; i++) {
            int h = hexval(ps->p[2 + i]);
            if (h < 0) { ok = 0; break; }
            lo = lo << 4 | (unsigned long)h;
          }
          if (ok && lo >= 0xDC00 && lo < 0xE000) {
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            ps->p += 6;
          }
        }
        put_utf8(out, u);
        break;
      }
      default: return 0;
    }
  }
  return 0;
}

static struct jval *jnew(enum jtype t) {
  struct jval *v = (struct jval *)calloc(1, sizeof *v);
  if (!v) exit(1);
  v->type = t;
  return v;
}

static int jpush(struct jval *v, char *key, struct jval *item) {
  if ((v->n & (v->n - 1)) == 0) { /* grow at powers of two */
    size_t cap = v->n ? v->n * 2 : 4;
    struct jval **items = (struct jval **)realloc(v->items, cap * sizeof *items);
    if (!items) exit(1);
    v->items = items;
    if (v->type == J_OBJ) {
      char **keys = (char **)realloc(v->keys, cap * sizeof *keys);
      if (!keys) exit(1);
      v->keys = keys;
    }
  }
  v->items[v->n] = item;
  if (v->type == J_OBJ) v->keys[v->n] = key;
  v->n++;
  return 1;
}

static int jlit(struct jparser *ps, const char *lit) {
  size_t n = strlen(lit);
  if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, lit, n) != 0) return 0;
  ps->p += n;
  return 1;
}

static struct jval *jparse_value(struct jparser *ps) {
  jskip(ps);
  if (ps->p >= ps->end || ++ps->depth > 64) return NULL;
  struct jval *v = NULL;
  char c = *ps->p;
  if (c == '"') {
    struct buf s = {NULL, 0, 0};
    if (!jparse_string(ps, &s)) { free(s.data); return NULL; }
    v = jnew(J_STR);
    v->str = s.data;
    v->str_len = s.len;
  } else if (c == '{' || c == '[') {
    int obj = c == '{';
    v = jnew(obj ? J_OBJ : J_ARR);
    ps->p++;
    jskip(ps);
    if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) { ps->p++; ps->depth--; return v; }
    for (;;) {
      char *key = NULL;
      if (obj) {
        jskip(ps);
        struct buf k = {NULL, 0, 0};
        if (!jparse_string(ps, &k)) { free(k.data); jfree(v); return NULL; }
        key = k.data;
        jskip(ps);
        if (ps->p >= ps->end || *ps->p != ':') { free(key); jfree(v); return NULL; }
        ps->p++;
      }
      struct jval *item = jparse_value(ps);
      if (!item) { free(key); jfree(v); return NULL; }
      jpush(v, key, item);
      jskip(ps);
      if (ps->p < ps->end && *ps->p == ',') { ps->p++; continue; }
      if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) { ps->p++; break; }
      jfree(v);
      return NULL;
    }
  } else if (jlit(ps, "true") || jlit(ps, "false")) {
    v = jnew(J_BOOL);
    v->str = strdup(ps->p[-1] == 'e' && ps->p[-2] == 'u' ? "true" : "false");
  } else if (jlit(ps, "null")) {
    v = jnew(J_NULL);
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    const char *start = ps->p;
    while (ps->p < ps->end && *ps->p && strchr("+-.eE0123456789", *ps->p)) ps->p++;
    v = jnew(J_NUM);
    v->str = strndup(start, (size_t)(ps->p - start));
  } else {
    return NULL;
  }
  ps->depth--;
  return v;
}

static struct jval *jget(const struct jval *obj, const char *key) {
  if (!obj || obj->type != J_OBJ) return NULL;
  for (size_t i = 0; i < obj->n; i++)
    if (strcmp(obj->keys[i], key) == 0) return obj->items[i];
  return NULL;
}

static const char *jget_str(const struct jval *obj, const char *key) {
  struct jval *v = jget(obj, key);
  return v && v->type == J_STR ? v->str : NULL;
}

/* Writes a JSON value back (used to echo ids as they came). */
static void jwrite(struct buf *b, const struct jval *v) {
  if (!v) { buf_str(b, "null"); return; }
  switch (v->type) {
    case J_NULL: buf_str(b, "null"); break;
    case J_BOOL: case J_NUM: buf_str(b, v->str); break;
    case J_STR:
      buf_add(b, "\"", 1);
      for (size_t i = 0; i < v->str_len; i++) {
        unsigned char c = (unsigned char)v->str[i];
        if (c == '"' || c == '\\') { buf_add(b, "\\", 1); buf_add(b, (const char *)&c, 1); }
        else if (c < 0x20) buf_fmt(b, "\\u%04x", c);
        else buf_add(b, (const char *)&c, 1);
      }
      buf_add(b, "\"", 1);
      break;
    case J_ARR: case J_OBJ:
      buf_str(b, "null"); /* not an id the protocol uses */
      break;
  }
}

/* ---- requests ---- */

static int unhex(const char *s, size_t n, unsigned char **out, size_t *out_len) {
  if (n % 2) return 0;
  unsigned char *d = (unsigned char *)malloc(n / 2 + 1);
  if (!d) exit(1);
  for (size_t i = 0; i < n; i += 2) {
    int hi = hexval(s[i]), lo = hexval(s[i + 1]);
    if (hi < 0 || lo < 0) { free(d); return 0; }
    d[i / 2] = (unsigned char)(hi << 4 | lo);
  }
  *out = d;
  *out_len = n / 2;
  return 1;
}

struct chunk {
  unsigned char *data;
  size_t len;
};

static const char *hello_fields(void);
static int decode(const unsigned char *data, size_t len, struct buf *out);
static int decode_chunks(const struct chunk *chunks, size_t n, struct buf *out);
static int encode(unsigned long long cp, int too_wide, struct buf *out);

/* One request object (not a batch). */
static void respond(const struct jval *req, struct buf *out) {
  buf_str(out, "{\"id\":");
  jwrite(out, jget(req, "id"));
  const char *op = jget_str(req, "op"), *enc = jget_str(req, "encoding");
  int ok = 0;
  if (req && req->type == J_OBJ && op && strcmp(op, "hello") == 0) {
    buf_str(out, ",");
    buf_str(out, hello_fields());
    buf_fmt(out, ",\"batch\":%d", BATCH_MAX);
    ok = 1;
  } else if (op && enc && strcmp(enc, "utf-8") == 0 && strcmp(op, "decode") == 0 && jget(req, "chunks")) {
    struct jval *list = jget(req, "chunks");
    size_t n = list->type == J_ARR ? list->n : 0, got = 0;
    struct chunk *chunks = (struct chunk *)calloc(n + 1, sizeof *chunks);
    if (!chunks) exit(1);
    if (list->type == J_ARR)
      while (got < n && list->items[got]->type == J_STR &&
             unhex(list->items[got]->str, list->items[got]->str_len, &chunks[got].data, &chunks[got].len))
        got++;
    if (list->type == J_ARR && got == n) {
      size_t mark = out->len;
      ok = decode_chunks(chunks, n, out);
      if (!ok) { out->len = mark; out->data[mark] = 0; }
    }
    for (size_t i = 0; i < got; i++) free(chunks[i].data);
    free(chunks);
  } else if (op && enc && strcmp(enc, "utf-8") == 0 && strcmp(op, "decode") == 0) {
    struct jval *in = jget(req, "input");
    unsigned char *data;
    size_t len;
    if (in && in->type == J_STR && unhex(in->str, in->str_len, &data, &len)) {
      size_t mark = out->len;
      ok = decode(data, len, out);
      if (!ok) { out->len = mark; out->data[mark] = 0; }
      free(data);
    }
  } else if (op && enc && strcmp(enc, "utf-8") == 0 && strcmp(op, "encode") == 0) {
    const char *cp = jget_str(req, "codepoint");
    if (cp && cp[0] == 'U' && cp[1] == '+' && cp[2]) {
      unsigned long long v = 0;
      int too_wide = 0, good = 1;
      for (const char *p = cp + 2; *p; p++) {
        int h = hexval(*p);
        if (h < 0) { good = 0; break; }
        if (v >> 60) too_wide = 1;
        v = v << 4 | (unsigned)h;
      }
      if (good) {
        size_t mark = out->len;
        ok = encode(v, too_wide, out);
        if (!ok) { out->len = mark; out->data[mark] = 0; }
      }
    }
  }
  if (!ok) buf_str(out, ",\"unsupported\":true");
  buf_str(out, "}");
}

static void handle_line(const char *line, size_t n, struct buf *out) {
  struct jparser ps = {line, line + n, 0};
  struct jval *req = jparse_value(&ps);
  jskip(&ps);
  if (!req || ps.p != ps.end || req->type != J_OBJ) {
    buf_str(out, "{\"id\":null,\"unsupported\":true}");
  } else {
    const char *op = jget_str(req, "op");
    if (op && strcmp(op, "batch") == 0) {
      struct jval *reqs = jget(req, "requests");
      buf_str(out, "{\"id\":");
      jwrite(out, jget(req, "id"));
      if (reqs && reqs->type == J_ARR) {
        buf_str(out, ",\"responses\":[");
        for (size_t i = 0; i < reqs->n; i++) {
          if (i) buf_str(out, ",");
          if (reqs->items[i]->type == J_OBJ) respond(reqs->items[i], out);
          else buf_str(out, "{\"id\":null,\"unsupported\":true}");
        }
        buf_str(out, "]}");
      } else {
        buf_str(out, ",\"unsupported\":true}");
      }
    } else {
      respond(req, out);
    }
  }
  jfree(req);
}

static int adapter_main(void) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  struct buf out = {NULL, 0, 0};
  while ((n = getline(&line, &cap, stdin)) >= 0) {
    size_t len = (size_t)n;
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) len--;
    out.len = 0;
    handle_line(line, len, &out);
    buf_add(&out, "\n", 1);
    if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0) break;
  }
  free(line);
  free(out.data);
  return 0;
}

#endif
