#!/bin/sh
# Installs what the decoder matrix needs and builds its adapters (docs/matrix.md).
# Idempotent: Debian packages are installed only if missing (needs root or sudo for
# that), and every build is redone (each takes seconds; cargo's is incremental).
# Run from anywhere; builds into conformance/adapters/matrix/build/ and rust/target/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

# command -> Debian package that provides it (or, for headers, a file it installs)
need=""
want() { # $1: test, $2: package
    if ! eval "$1" >/dev/null 2>&1; then need="$need $2"; fi
}
want "command -v cc" gcc
want "command -v c++" g++
want "command -v pkg-config" pkg-config
want "pkg-config --exists icu-uc" libicu-dev
want "command -v javac" openjdk-17-jdk-headless
want "command -v go" golang-go
want "command -v perl && perl -MEncode -MJSON::PP -e1" perl
want "command -v node" nodejs
want "command -v python3" python3
want "command -v ruby" ruby
want "command -v php" php-cli
want "php -r 'exit(extension_loaded(\"mbstring\") ? 0 : 1);'" php-mbstring
want "command -v lua5.4" lua5.4
want "command -v tclsh" tcl
# (tclsh reading its script from a pipe exits 0 after an error: exit 1 by hand.)
want "echo 'if {[catch {package require json}]} {exit 1}' | tclsh" tcllib
want "command -v escript" erlang-base
want "pkg-config --exists gio-2.0" libglib2.0-dev
want "pkg-config --exists libutf8proc" libutf8proc-dev
want "pkg-config --exists libxml-2.0" libxml2-dev
want "test -f /usr/include/boost/locale/encoding_utf.hpp" libboost-locale-dev
want "pkg-config --exists Qt6Core" qt6-base-dev
want "command -v chromium" chromium
want "command -v firefox-esr" firefox-esr
want "command -v mcs && command -v mono" "mono-mcs mono-runtime"
want "test -x /usr/lib/postgresql/15/bin/postgres" postgresql-15
want "/usr/bin/python3 -c 'import psycopg2'" python3-psycopg2
want "command -v mariadbd && command -v mariadb-install-db" mariadb-server
want "/usr/bin/python3 -c 'import pymysql'" python3-pymysql
if [ -n "$need" ]; then
    echo "install.sh: installing:$need"
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    $sudo apt-get install -y -qq --no-install-recommends $need
fi

mkdir -p build/java

echo "install.sh: Rust adapters (std, encoding_rs, bstr, simdutf)"
cargo build --release --locked --quiet --manifest-path rust/Cargo.toml

echo "install.sh: C adapters (glibc iconv, ICU)"
cc -O2 -Wall -Wextra -o build/iconv-adapter c/iconv.c
# shellcheck disable=SC2046
cc -O2 -Wall -Wextra -o build/icu-adapter c/icu.c $(pkg-config --cflags --libs icu-uc)

echo "install.sh: C adapters (GLib, utf8proc, libxml2)"
# shellcheck disable=SC2046
cc -O2 -Wall -Wextra -o build/glib-adapter c/glib.c $(pkg-config --cflags --libs gio-2.0)
# shellcheck disable=SC2046
cc -O2 -Wall -Wextra -o build/utf8proc-adapter c/utf8proc.c $(pkg-config --cflags --libs libutf8proc)
# shellcheck disable=SC2046
cc -O2 -Wall -Wextra -o build/libxml2-adapter c/libxml2.c $(pkg-config --cflags --libs libxml-2.0)

echo "install.sh: C++ adapters (Boost.Locale, Qt 6)"
c++ -O2 -Wall -Wextra -std=c++17 -o build/boost-adapter cpp/boost.cc
# shellcheck disable=SC2046
c++ -O2 -Wall -Wextra -std=c++17 -fPIC -o build/qt-adapter cpp/qt.cc $(pkg-config --cflags --libs Qt6Core)

echo "install.sh: .NET adapter (Mono)"
mcs -warn:4 -warnaserror -optimize -out:build/dotnet-adapter.exe dotnet/Adapter.cs

echo "install.sh: Java adapter"
javac -Xlint:all -Werror -d build/java java/CharsetDecoderAdapter.java

echo "install.sh: Go adapter"
# go needs a cache directory: under $HOME normally, here when there is no HOME.
[ -n "${HOME:-}" ] || export GOCACHE="$here/build/go-cache"
(cd go && go build -o ../build/go-adapter .)

echo "install.sh: done ($(go version | cut -d' ' -f3), $(javac -version 2>&1), $(node --version 2>/dev/null || echo no node), perl $(perl -e 'printf "%vd", $^V'))"
