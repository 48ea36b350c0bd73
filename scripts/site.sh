#!/usr/bin/env bash
# Builds the explorer into DIR (docs/explorer.md): one static page over the WebAssembly
# build of the explanation library, with the embedded vectors; it works from file://.
#
#   scripts/site.sh DIR
#
# Builds cli/explorer/wasm for wasm32-unknown-unknown (the target is added if missing;
# profile `wasm`: small over fast), then runs the site builder (cli/explorer), which
# writes DIR (created if missing; it may hold only the site's own files) and fails when
# the site is over 1 MB or the .wasm over 300 KB. Paths of this machine are remapped out
# of the module, so the same sources and toolchain give the same bytes anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 1 ]; then
  echo "usage: scripts/site.sh DIR" >&2
  exit 2
fi
dir=$1
target=wasm32-unknown-unknown
grep -qx "$target" <<<"$(rustup target list --installed)" || rustup target add "$target"
cargo_home=${CARGO_HOME:-$HOME/.cargo}
target_dir=${CARGO_TARGET_DIR:-$PWD/target}
# The target directory first: it may be inside the checkout.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--remap-path-prefix=$target_dir=target --remap-path-prefix=$PWD=. --remap-path-prefix=$cargo_home=cargo" \
  cargo build --locked --quiet --profile wasm --target "$target" -p cutf8-explorer-wasm
cargo run --locked --quiet --release -p cutf8-explorer -- "$dir" --wasm "$target_dir/$target/wasm/cutf8_explorer_wasm.wasm"
