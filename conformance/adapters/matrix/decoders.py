"""The decoders of the decoder matrix, how a run picks them, the vectors they answer, and
where the matrix's files are: what `matrix.py` and its checks (`check.py`) both read.

Paths are relative to the repository root, where every command runs."""

from __future__ import annotations

import glob
import json
import sys
from pathlib import Path

HERE = Path("conformance/adapters/matrix")
BUILD = HERE / "build"
RUST = HERE / "rust/target/release/matrix-rust"
REPORT = Path("target/matrix/report.json")
SPLITS_REPORT = Path("target/matrix/report-splits.json")
DOCS = Path("docs/matrix.md")
HTML = Path("docs/matrix.html")
DATA = Path("docs/matrix-data.js")
FUZZ = Path("target/matrix/fuzz")

# name, ecosystem, API, command line (from the repository root).
DECODERS = [
    ("rust-std", "Rust", "String::from_utf8_lossy, str::from_utf8, char::encode_utf8",
     f"{RUST} --decoder std"),
    ("rust-encoding_rs", "Rust", "encoding_rs UTF_8 decoder (with / without replacement)",
     f"{RUST} --decoder encoding_rs"),
    ("rust-bstr", "Rust", "bstr ByteSlice::to_str_lossy, ByteSlice::to_str", f"{RUST} --decoder bstr"),
    ("rust-simdutf", "Rust / C++", "simdutf validate_utf8", f"{RUST} --decoder simdutf"),
    ("cpython", "Python", "bytes.decode('utf-8', errors=...), str.encode",
     "python3 conformance/adapters/python_codec.py"),
    ("node", "JavaScript", "TextDecoder (fatal / replacement), TextEncoder",
     "node conformance/adapters/node_textdecoder.js"),
    ("java", "Java", "CharsetDecoder / CharsetEncoder (REPLACE / REPORT)",
     f"java -cp {BUILD}/java CharsetDecoderAdapter"),
    ("perl-encode", "Perl", "Encode::decode / encode 'UTF-8' (FB_DEFAULT / FB_CROAK)",
     f"perl {HERE}/perl/adapter.pl"),
    ("perl-utf8", "Perl", "utf8::decode / utf8::encode", f"perl {HERE}/perl/adapter.pl --decoder utf8"),
    ("glibc-iconv", "C (glibc)", "iconv UTF-8 <-> UTF-32LE / UCS-4LE", f"{BUILD}/iconv-adapter"),
    ("icu-ucnv", "C (ICU)", "ucnv_toUChars / ucnv_toUnicode (STOP) / ucnv_fromUChars",
     f"{BUILD}/icu-adapter --decoder ucnv"),
    ("icu-ustring", "C (ICU)", "u_strFromUTF8WithSub / u_strFromUTF8", f"{BUILD}/icu-adapter --decoder ustring"),
    ("go-runes", "Go", "[]rune(string), utf8.Valid, utf8.DecodeRune, utf8.AppendRune",
     f"{BUILD}/go-adapter -decoder runes"),
    ("go-tovalid", "Go", "strings.ToValidUTF8, utf8.ValidString", f"{BUILD}/go-adapter -decoder tovalid"),
    ("ruby-scrub", "Ruby", "String#scrub, String#valid_encoding?, Integer#chr",
     f"ruby {HERE}/ruby/adapter.rb --decoder scrub"),
    ("ruby-converter", "Ruby", "Encoding::Converter#primitive_convert (streaming, primitive_errinfo)",
     f"ruby {HERE}/ruby/adapter.rb --decoder converter"),
    ("ruby-encode", "Ruby", "String#encode (invalid: :replace / raise)", f"ruby {HERE}/ruby/adapter.rb --decoder encode"),
    ("ruby-unpack", "Ruby", "String#unpack('U*'), Array#pack('U')", f"ruby {HERE}/ruby/adapter.rb --decoder unpack"),
    ("php-mbstring", "PHP", "mb_scrub, mb_check_encoding, mb_chr", f"php {HERE}/php/adapter.php --decoder mbstring"),
    ("php-convert", "PHP", "mb_convert_encoding (UTF-8 <-> UTF-32BE)", f"php {HERE}/php/adapter.php --decoder convert"),
    ("php-iconv", "PHP", "iconv (UTF-8 <-> UTF-32BE)", f"php {HERE}/php/adapter.php --decoder iconv"),
    ("php-preg", "PHP", "preg_match('//u') (PCRE2's UTF check)", f"php {HERE}/php/adapter.php --decoder preg"),
    ("lua-utf8", "Lua", "utf8.len, utf8.codes", f"lua5.4 {HERE}/lua/adapter.lua --decoder strict"),
    ("lua-utf8-lax", "Lua", "utf8.len, utf8.codes (lax = true), utf8.char", f"lua5.4 {HERE}/lua/adapter.lua --decoder lax"),
    ("tcl", "Tcl", "encoding convertfrom / convertto utf-8 (default profile)", f"tclsh {HERE}/tcl/adapter.tcl"),
    ("erlang", "Erlang/OTP", "unicode:characters_to_list, unicode:characters_to_binary",
     f"escript {HERE}/erlang/adapter.escript"),
    ("glib-validate", "C (GLib)", "g_utf8_validate_len, g_ucs4_to_utf8", f"{BUILD}/glib-adapter --decoder validate"),
    ("glib-make-valid", "C (GLib)", "g_utf8_make_valid", f"{BUILD}/glib-adapter --decoder make-valid"),
    ("glib-converter", "C (GLib)", "GCharsetConverter UTF-8 -> UTF-32LE (streaming)",
     f"{BUILD}/glib-adapter --decoder converter"),
    ("utf8proc", "C (utf8proc)", "utf8proc_iterate, utf8proc_encode_char", f"{BUILD}/utf8proc-adapter"),
    ("libxml2", "C (libxml2)", "xmlReadMemory of <a>BYTES</a> (encoding UTF-8)", f"{BUILD}/libxml2-adapter"),
    ("boost-locale", "C++ (Boost)", "boost::locale::conv::utf_to_utf (stop)", f"{BUILD}/boost-adapter"),
    ("mono", ".NET (Mono)", "UTF8Encoding(false, true) / (false, false), GetString and Decoder (streaming)",
     f"mono {BUILD}/dotnet-adapter.exe"),
    ("postgresql", "Database (PostgreSQL)", "convert_from(bytea, 'UTF8'), convert_to(chr(n), 'UTF8') on a real server",
     f"/usr/bin/python3 {HERE}/db/postgresql.py"),
    ("mariadb", "Database (MariaDB)", "CONVERT(... USING utf8mb4) and SHOW WARNINGS on a real server",
     f"/usr/bin/python3 {HERE}/db/mariadb.py"),
    ("chromium", "Browser (Chromium)", "TextDecoder (fatal / replacement, stream: true), TextEncoder in a headless page (CDP)",
     f"python3 {HERE}/browser/chromium.py"),
    ("firefox", "Browser (Firefox)", "TextDecoder (fatal / replacement, stream: true), TextEncoder in a headless page (Marionette)",
     f"python3 {HERE}/browser/firefox.py"),
    ("qt", "C++ (Qt)", "QStringDecoder / QStringEncoder Utf8 (stateless, and stateful streaming)", f"{BUILD}/qt-adapter"),
]


def select(only: str | None) -> list:
    """The decoders `--only NAME,...` names, in the table's order; all of them without it.
    An unknown name ends the command (exit 1) instead of running fewer decoders."""
    if not only:
        return DECODERS
    names = only.split(",")
    unknown = set(names) - {d[0] for d in DECODERS}
    if unknown:
        sys.exit("matrix: unknown decoder(s): %s" % ", ".join(sorted(unknown)))
    return [d for d in DECODERS if d[0] in names]


def vectors() -> dict:
    """Every case of the utf-8 vectors by its id, `utf-8/FILE#TCID`, in file and file order."""
    cases = {}
    for path in sorted(glob.glob("vectors/utf-8/*.json")):
        data = json.loads(Path(path).read_text())
        for group in data["testGroups"]:
            for test in group["tests"]:
                cases[f"utf-8/{Path(path).name}#{test['tcId']}"] = test
    return cases
