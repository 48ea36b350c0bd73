#!/usr/bin/env bash
# Builds every libFuzzer target into $OUT with its seed corpus, dictionary and options
# (max_len), for ClusterFuzzLite / OSS-Fuzz (run as $SRC/build.sh inside their image;
# OSS-Fuzz's own build.sh, fuzz/oss-fuzz/build.sh, calls this one) or by hand outside
# Docker:
#
#   OUT=/tmp/out .clusterfuzzlite/build.sh      (from the checkout)
#
# The checkout is the working directory if it has fuzz/Cargo.toml, else the directory
# above this script, else $SRC/corrected-utf8.
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ -f fuzz/Cargo.toml ]]; then
    project=$PWD
elif [[ -f "$here/../fuzz/Cargo.toml" ]]; then
    project=$(cd "$here/.." && pwd)
else
    project=${SRC:?set SRC}/corrected-utf8
fi
cd "$project"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# Inside the OSS-Fuzz image `cargo` is nightly and a wrapper that adds the flags for
# $SANITIZER (coverage builds included): call it plainly there. Elsewhere use the
# nightly toolchain and pass the sanitizer ourselves.
if [[ $(cargo --version) == *nightly* ]]; then
    cargo_fuzz=(cargo fuzz)
else
    cargo_fuzz=(cargo +nightly fuzz)
fi
sanitizer_args=()
if [[ -z "${FUZZING_ENGINE:-}" ]]; then
    sanitizer_args=(-s "${SANITIZER:-address}")
    # As in fuzz/common.sh: libFuzzer itself without ASan (the image brings its own).
    # (Added once: a different CXXFLAGS would rebuild libfuzzer-sys and relink.)
    case " ${CXXFLAGS:-} " in
    *" -fno-sanitize=address "*) ;;
    *) export CXXFLAGS="${CXXFLAGS:+$CXXFLAGS }-fno-sanitize=address" ;;
    esac
fi
"${cargo_fuzz[@]}" build -O --debug-assertions "${sanitizer_args[@]}"

release=fuzz/target/x86_64-unknown-linux-gnu/release
zip_dir() { # zip_dir <dir> <zip>: the files of <dir>, without paths
    rm -f "$2"
    if command -v zip >/dev/null; then
        (cd "$1" && zip -q -j "$2" ./*)
    else
        python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
d, z = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(z, "w") as f:
    for n in sorted(os.listdir(d)):
        f.write(os.path.join(d, n), n)
PY
    fi
}
# shellcheck disable=SC2013 # the names are single words (cargo target names)
for target in $(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^corrected-utf8-fuzz$'); do
    cp "$release/$target" "$OUT/"
    cp fuzz/fuzz.dict "$OUT/$target.dict"
    # [libfuzzer] max_len: the bound every fuzzing script uses (fuzz/README.md).
    cp "fuzz/options/$target.options" "$OUT/$target.options"
    if compgen -G "corpus/$target/*" >/dev/null; then
        zip_dir "$PWD/corpus/$target" "$OUT/${target}_seed_corpus.zip"
    fi
    echo "built $OUT/$target"
done
