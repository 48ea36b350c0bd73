#!/usr/bin/env bash
# Seeds corpus/<target>/ from the test vectors and minimizes it.
#
#   fuzz/seed-corpus.sh [target...]
#
# `conformance seed-corpus` writes every vector's input in each target's layout; the
# inputs already in corpus/<target>/ are kept alongside; `cargo fuzz cmin` then keeps
# the smallest set with the same coverage, which replaces corpus/<target>/.
set -euo pipefail
source "$(dirname "$0")/common.sh"
ensure_cargo_fuzz

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
(cd "$root" && cargo run -q -p conformance -- seed-corpus --out "$stage/seeds")

if (($#)); then list=("$@"); else mapfile -t list < <(targets); fi
for t in "${list[@]}"; do
    mkdir -p "$stage/seeds/$t" "$root/corpus/$t"
    cp -r "$root/corpus/$t/." "$stage/seeds/$t/"
    if ! compgen -G "$stage/seeds/$t/*" >/dev/null; then
        echo "$t: no seeds (not in conformance_checks::TARGETS?)" >&2
        continue
    fi
    if ! fuzz cmin "$t" "$stage/seeds/$t" >"$stage/cmin.log" 2>&1; then
        cat "$stage/cmin.log" >&2
        exit 1
    fi
    rm -rf "$root/corpus/$t"
    mv "$stage/seeds/$t" "$root/corpus/$t"
    echo "$t: $(find "$root/corpus/$t" -type f | wc -l) files in corpus/$t"
done
