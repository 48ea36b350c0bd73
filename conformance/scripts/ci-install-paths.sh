#!/usr/bin/env bash
# CI: the install paths of docs/gating.md, each built and smoke-run:
#   1. `cargo install conformance cutf8` from the packaged crates alone, offline, outside
#      the checkout (scripts/install-from-packages.sh: the installed runner passes every
#      vector from `/`, its fuzzer has its corpus built in, `run --help` has `--require`);
#   2. the statically linked Linux binary (x86_64-unknown-linux-musl), copied to an empty
#      folder outside the checkout and run against the Node adapter (embedded vectors,
#      JUnit + HTML reports);
#   3. the container image (conformance/Dockerfile), only where `docker info` works.
# The GitHub Action (action.yml) is the first path inside a composite action.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
musl=x86_64-unknown-linux-musl

step() { printf '\n== install paths: %s\n' "$*"; }

step "cargo install conformance cutf8 from the packages alone (scripts/install-from-packages.sh)"
# Reuses target/package/*.crate when .ci/run's packaging step has just made them.
start=$SECONDS
scripts/install-from-packages.sh
echo "install from the packages: $((SECONDS - start)) s"

step "static binary ($musl)"
grep -qx "$musl" <<<"$(rustup target list --installed)" || rustup target add "$musl"
command -v musl-gcc >/dev/null || { apt-get update && apt-get install -y musl-tools; }
cargo build --locked --release --target "$musl" -p conformance
bin="$root/target/$musl/release/conformance"
# glibc's ldd says "not a dynamic executable" or "statically linked" (static-pie).
if ! grep -qE 'not a dynamic executable|statically linked' <<<"$(ldd "$bin" 2>&1)"; then
  echo "not statically linked:" >&2
  ldd "$bin" >&2 || true
  exit 1
fi

step "the static binary alone gates the Node adapter"
command -v node >/dev/null || { apt-get update && apt-get install -y nodejs; }
smoke=$(mktemp -d)
trap 'rm -rf "$smoke"' EXIT
cp "$bin" "$smoke/conformance"
cp conformance/adapters/node_textdecoder.js conformance/expected-failures.json "$smoke/"
(
  cd "$smoke"
  ./conformance run --adapter node="node node_textdecoder.js" \
    --expected-failures expected-failures.json --junit node.xml --html node.html |
    tail -n 3
  test -s node.xml && test -s node.html
)

step "container image (conformance/Dockerfile)"
if docker info >/dev/null 2>&1; then
  docker build -f conformance/Dockerfile -t corrected-utf8-conformance .
  docker run --rm -v "$smoke:/out" corrected-utf8-conformance run \
    --adapter node="node /opt/conformance/adapters/node_textdecoder.js" \
    --expected-failures /opt/conformance/expected-failures.json \
    --junit /out/image.xml --html /out/image.html | tail -n 3
  test -s "$smoke/image.xml" && test -s "$smoke/image.html"
else
  echo "skipped: docker is not available here (docker info failed)"
fi
