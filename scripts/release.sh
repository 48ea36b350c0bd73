#!/usr/bin/env bash
# Builds what a release page carries, into OUTDIR (default target/dist/VERSION):
#
#   conformance-VERSION-x86_64-unknown-linux-musl    static binaries (musl), debug info
#   conformance-VERSION-aarch64-unknown-linux-musl   stripped (symbols kept for backtraces)
#   cutf8-VERSION-x86_64-unknown-linux-musl
#   cutf8-VERSION-aarch64-unknown-linux-musl
#   corrected-utf8-vectors-V.tar.gz                  corrected-utf8-vectors-V/ holding
#                                                    vectors/ (the files, schemas, README,
#                                                    CHANGELOG: `conformance run --vectors`
#                                                    takes it), the licenses, MANIFEST.json
#   corrected-utf8-explorer-VERSION.tar.gz           corrected-utf8-explorer-VERSION/: the
#                                                    explorer, a static site (scripts/site.sh;
#                                                    open its index.html, docs/explorer.md)
#   SHA256SUMS                                       sha256sum of every file above
#
#   scripts/release.sh VERSION [OUTDIR]
#   scripts/release.sh --vectors-only VERSION OUTDIR   # the tarball alone (no builds)
#
# VERSION is the tools' version and must be `version` of [workspace.package] (the tag
# is vVERSION); the tarball is named for the vectors' version, which the vector files
# carry. MANIFEST.json (scripts/vectors_manifest.py) lists each file's path, sha256 and
# size, and each vector file's schema, encoding, version and test count, and
# `manifestSha256`, the hash that names the vectors as a whole:
#
#   SHA-256 of sha256sum's output over the vector files (every *.json but *.schema.json,
#   paths relative to vectors/ with `/`, sorted bytewise), i.e. in vectors/:
#   find . -name '*.json' ! -name '*.schema.json' | sed 's|^\./||' | LC_ALL=C sort |
#     xargs sha256sum | sha256sum
#
# The tarball is reproducible: same vectors, same bytes (sorted entries, owner 0, the
# time of the last commit that changed them, gzip without a timestamp). The aarch64 binaries are built with
# Debian's cross gcc as the linker (as codec/scripts/cross-test.sh uses); a missing Rust
# target or Debian package is installed (apt-get needs root). scripts/check-release.sh
# verifies the result, running each binary (aarch64 under qemu).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

usage() { echo "usage: scripts/release.sh [--vectors-only] VERSION [OUTDIR]" >&2; exit 2; }
vectors_only=0
if [ "${1:-}" = --vectors-only ]; then vectors_only=1; shift; fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
version=$1
out=${2:-$root/target/dist/$version}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] ||
  { echo "release.sh: VERSION must be X.Y.Z (without the v), not '$version'" >&2; exit 2; }
workspace_version=$(python3 scripts/address.py show | cut -d' ' -f2)
if [ "$version" != "$workspace_version" ]; then
  echo "release.sh: VERSION $version is not the workspace's version $workspace_version" \
    "(Cargo.toml [workspace.package]); the binaries would say $workspace_version" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "$(ls -A "$out")" ]; then
  echo "release.sh: $out is not empty (a release is built into an empty folder)" >&2
  exit 2
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# --- the vectors tarball ------------------------------------------------------------
# Every entry is stamped with the time of the last commit that changed what the tarball
# holds, so the same vectors give the same bytes, whichever commit builds them.
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct -- vectors LICENSE-MIT LICENSE-APACHE)}
top=$stage/top
mkdir -p "$top/vectors"
# Only what git tracks: a stray file in vectors/ is not released.
git ls-files -z vectors | while IFS= read -r -d '' f; do
  mkdir -p "$top/$(dirname "$f")"
  cp "$f" "$top/$f"
done
cp LICENSE-MIT LICENSE-APACHE "$top/"
python3 scripts/vectors_manifest.py "$top" >"$stage/MANIFEST.json"
mv "$stage/MANIFEST.json" "$top/MANIFEST.json"
vv=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$top/MANIFEST.json")
name=corrected-utf8-vectors-$vv
mv "$top" "$stage/$name"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner \
  --mtime="@$epoch" --mode='u+rwX,go+rX,go-w' --format=gnu -cf - "$name" |
  gzip -9 -n >"$out/$name.tar.gz"

# --- the static binaries ------------------------------------------------------------
if [ "$vectors_only" = 0 ]; then
  [ "$(uname -m)" = x86_64 ] || { echo "release.sh: builds on x86_64 Linux only" >&2; exit 2; }
  need_apt=()
  command -v musl-gcc >/dev/null || need_apt+=(musl-tools)
  command -v aarch64-linux-gnu-gcc >/dev/null || need_apt+=(gcc-aarch64-linux-gnu)
  if [ ${#need_apt[@]} -gt 0 ]; then
    apt-get update && apt-get install -y "${need_apt[@]}"
  fi
  export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_LINKER=aarch64-linux-gnu-gcc
  for target in x86_64-unknown-linux-musl aarch64-unknown-linux-musl; do
    grep -qx "$target" <<<"$(rustup target list --installed)" || rustup target add "$target"
    # The normal target dir and profile, one package at a time (features unified per
    # package, as `cargo install` builds them): CI's install-paths step builds the same
    # x86_64 runner, so the two share one build.
    cargo build --locked --release --target "$target" -p conformance
    cargo build --locked --release --target "$target" -p cutf8
    case $target in
      x86_64-*) objcopy=objcopy ;;
      aarch64-*) objcopy=aarch64-linux-gnu-objcopy ;;
    esac
    for bin in conformance cutf8; do
      # The release profile keeps line tables (debug = 1) for local backtraces; the
      # released file drops them (about 4x smaller) and keeps the symbols.
      "$objcopy" --strip-debug "target/$target/release/$bin" "$out/$bin-$version-$target"
    done
  done
fi

# --- the explorer ------------------------------------------------------------------
# The site of this commit, its entries stamped with the commit's time (the same
# sources and toolchain give the same bytes: scripts/site.sh remaps this machine's
# paths out of the WebAssembly module).
if [ "$vectors_only" = 0 ]; then
  site=corrected-utf8-explorer-$version
  scripts/site.sh "$stage/explorer/$site"
  site_epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
  tar -C "$stage/explorer" --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime="@$site_epoch" --mode='u+rwX,go+rX,go-w' --format=gnu -cf - "$site" |
    gzip -9 -n >"$out/$site.tar.gz"
fi

# --- the sums -----------------------------------------------------------------------
(
  cd "$out"
  # shellcheck disable=SC2035 # every name here is ours and none starts with '-'
  LC_ALL=C sha256sum -- * >"$stage/SHA256SUMS"
)
mv "$stage/SHA256SUMS" "$out/SHA256SUMS"

printf 'release %s in %s:\n' "$version" "$out"
for f in "$out"/*; do printf '  %10d  %s\n' "$(stat -c %s "$f")" "${f##*/}"; done
tar -xzOf "$out/$name.tar.gz" "$name/MANIFEST.json" | python3 -c '
import json, sys
m = json.load(sys.stdin)
print("vectors %s: %d tests, manifestSha256 %s" % (m["version"], m["numberOfTests"], m["manifestSha256"]))'
