#!/usr/bin/env bash
# Proves that the packaged crates are all a user needs: installs `conformance` and `cutf8`
# from the `.crate` files of `cargo package` alone, outside this checkout, offline.
#
#   scripts/install-from-packages.sh
#
# 1. The packages: target/package/NAME-VERSION.crate for every published crate
#    (corrected-utf8, conformance-literal, conformance-checks, corrected-utf8-vectors,
#    conformance-testkit, conformance, cutf8). The ones already there are reused when
#    none of the files git tracks is newer (.ci/run's packaging step has just made and
#    verified them); else they are made again (`cargo package --no-verify`: packaging
#    only, the verification build is .ci/run's step).
# 2. A local source made only from them and the vendored dependencies: `cargo vendor`
#    (crates.io's packages, from the lockfile) plus each of our `.crate` files unpacked
#    beside them, with the `.cargo-checksum.json` of a directory source (the package's
#    sha256; no per-file sums).
# 3. An empty folder outside the checkout whose .cargo/config.toml replaces crates.io by
#    that source, offline; there `cargo install --locked conformance cutf8`, with that
#    .cargo as CARGO_HOME (cargo install reads no configuration from the current folder,
#    only CARGO_HOME's; an empty one also proves that no registry cache is used).
# 4. The installed binaries, started from `/`: `conformance run --help` offers
#    `--require`; `conformance run` passes every vector (the total read from vectors/);
#    `conformance fuzz --adapter` mutates the corpus built into it (a nonzero count, with
#    no checkout around); `cutf8 encode U+8421109F` gives FD BF BF BF BF BF.
#
# The build is cargo install's own, in a temporary folder, as a user's is: the checkout's
# target/ is not shared (cargo would rebuild every dependency there anyway, their sources
# being the vendored copies, at another path, and the rest of CI would then rebuild them
# again).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

fail() { echo "install-from-packages: $*" >&2; exit 1; }
step() { printf '== install-from-packages: %s\n' "$*"; }

command -v jq >/dev/null || { apt-get update && apt-get install -y jq; }

# The published crates: every workspace member but the demo and the explorer's two
# (publish = false).
mapfile -t crates < <(cargo metadata --no-deps --format-version 1 --locked |
  jq -r '.packages[] | select(.publish != []) | "\(.name)-\(.version)"' | LC_ALL=C sort)
[ ${#crates[@]} -eq 8 ] || fail "expected 8 published crates, found: ${crates[*]}"

# Whether a file git tracks is newer than $1 (tracked files only: CI's other steps write
# build output inside the checkout).
changed_since() {
  local p
  while IFS= read -r -d '' p; do
    [ "$p" -nt "$1" ] && return 0
  done < <(git ls-files -z)
  return 1
}

step "the packages (target/package/)"
fresh=yes
for c in "${crates[@]}"; do
  f=target/package/$c.crate
  if [ ! -f "$f" ] || changed_since "$f"; then
    fresh=no
  fi
done
if [ $fresh = yes ]; then
  echo "reusing the packages made from this checkout: ${crates[*]}"
else
  cargo package --workspace --exclude testkit-example --exclude cutf8-explorer --exclude cutf8-explorer-wasm \
    --allow-dirty --no-verify --quiet
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source_dir=$work/source
step "a local source: cargo vendor plus our packages ($source_dir)"
cargo vendor --locked --versioned-dirs --quiet "$source_dir" >/dev/null
for c in "${crates[@]}"; do
  f=target/package/$c.crate
  [ ! -e "$source_dir/$c" ] || fail "$c is both vendored and ours"
  tar -xzf "$f" -C "$source_dir"
  [ -f "$source_dir/$c/Cargo.toml" ] || fail "$f does not hold $c/Cargo.toml"
  printf '{"files":{},"package":"%s"}\n' "$(sha256sum "$f" | cut -d' ' -f1)" \
    >"$source_dir/$c/.cargo-checksum.json"
done

home=$work/empty
mkdir -p "$home/.cargo"
cat >"$home/.cargo/config.toml" <<EOF
[source.crates-io]
replace-with = "local"

[source.local]
directory = "$source_dir"

[net]
offline = true
EOF
step "cargo install --locked --offline conformance cutf8, from $home"
(
  cd "$home"
  CARGO_HOME="$home/.cargo" cargo install --locked --offline --quiet conformance cutf8 --root "$work/root"
)
bin=$work/root/bin

step "the installed binaries, started from /"
cd /
help=$("$bin/conformance" run --help)
grep -q -- '--require' <<<"$help" || fail "run --help has no --require"

mapfile -t vector_files < <(find "$root/vectors" -name '*.json' ! -name '*.schema.json')
total=$(jq -s 'map(.numberOfTests) | add' "${vector_files[@]}")
out=$("$bin/conformance" run 2>&1) || fail "conformance run failed:
$out"
grep -qx "$total passed, 0 failed" <<<"$out" || fail "conformance run did not pass all $total vectors:
$out"
echo "conformance run: $total passed, 0 failed"

# The fuzzer's corpus comes from inside the binary: nothing of the checkout is read
# (the adapter is the installed runner's `serve`, the reference codec, so it passes).
out=$("$bin/conformance" fuzz --adapter "serve=$bin/conformance serve" --seconds 1 --seed 1 \
  --out "$work/fuzz" 2>&1) || fail "conformance fuzz failed:
$out"
header=$(grep -m1 '^conformance fuzz --adapter' <<<"$out")
grep -qE '; corpus \(built in\): [1-9][0-9]* inputs, [1-9][0-9]* code points$' <<<"$header" ||
  fail "conformance fuzz found no corpus inside the binary: $header"
echo "${header#*; }"

got=$("$bin/cutf8" encode U+8421109F)
[ "$got" = "FD BF BF BF BF BF" ] || fail "cutf8 encode U+8421109F gave '$got'"
echo "cutf8 encode U+8421109F: $got"
