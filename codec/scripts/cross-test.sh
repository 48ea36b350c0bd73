#!/usr/bin/env bash
# The codec's tests, and the fast-path differential checks replayed over the fuzz corpus
# (conformance-checks), cross-compiled and run under qemu user-mode emulation:
#
#   codec/scripts/cross-test.sh aarch64-unknown-linux-gnu   # the NEON paths
#   codec/scripts/cross-test.sh s390x-unknown-linux-gnu     # big-endian: the portable path
#
# (powerpc64-unknown-linux-gnu is big-endian too.) Installs what is missing: the Rust
# target, and Debian's cross gcc, libc and qemu-user (so apt-get needs root). Extra
# arguments go to cargo test before its `--` (e.g. `--release`).
#
# Skipped under emulation (they run natively in `cargo test`): the two exhaustive tests
# of every input of 1 to 3 bytes through the reference decoders
# (`every_input_up_to_3_bytes_*`, agreement with std and streaming: minutes each there;
# the fast paths' own `every_input_of_up_to_3_bytes` runs), and
# `hostile_lengths_stay_cheap`, which asserts a wall-clock bound. CROSS_TEST_ALL=1
# runs them too.
#
# This proves correctness only: timings under emulation say nothing about the hardware.
set -euo pipefail
cd "$(dirname "$0")/../.."

target=${1:?usage: codec/scripts/cross-test.sh TARGET [cargo test arguments]}
shift
case $target in
  aarch64-unknown-linux-gnu) gnu=aarch64-linux-gnu qemu=qemu-aarch64 libc=libc6-dev-arm64-cross ;;
  s390x-unknown-linux-gnu) gnu=s390x-linux-gnu qemu=qemu-s390x libc=libc6-dev-s390x-cross ;;
  powerpc64-unknown-linux-gnu) gnu=powerpc64-linux-gnu qemu=qemu-ppc64 libc=libc6-dev-ppc64-cross ;;
  *) echo "cross-test.sh: no recipe for $target" >&2; exit 2 ;;
esac

grep -qx "$target" <<<"$(rustup target list --installed)" || rustup target add "$target"
if ! command -v "$gnu-gcc" >/dev/null || ! command -v "$qemu" >/dev/null ||
  [ ! -e "/usr/$gnu/lib/libc.so.6" ]; then
  apt-get update && apt-get install -y "gcc-$gnu" "$libc" qemu-user
fi

triple=$(echo "$target" | tr 'a-z-' 'A-Z_')
export "CARGO_TARGET_${triple}_LINKER=$gnu-gcc"
export "CARGO_TARGET_${triple}_RUNNER=$qemu -L /usr/$gnu"
skip=(--skip every_input_up_to_3_bytes_agrees_with_std
  --skip every_input_up_to_3_bytes_streams_like_one_shot
  --skip hostile_lengths_stay_cheap)
[ "${CROSS_TEST_ALL:-0}" = 1 ] && skip=()
cargo test --target "$target" -p corrected-utf8 -p conformance-checks "$@" -- "${skip[@]}"
