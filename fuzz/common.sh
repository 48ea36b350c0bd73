# shellcheck shell=bash
# Shared by the fuzz scripts (sourced, not run). Sets `root` (the checkout), `fuzz` (a
# function running cargo-fuzz on the nightly toolchain) and `targets` (the libFuzzer
# targets, from fuzz/Cargo.toml).

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# cargo-fuzz needs nightly; FUZZ_TOOLCHAIN picks another (e.g. a dated nightly).
FUZZ_TOOLCHAIN=${FUZZ_TOOLCHAIN:-nightly}

# libFuzzer's own C++ is built without AddressSanitizer: cc would otherwise copy
# rustc's -Zsanitizer=address onto it, and the instrumented libFuzzer spent more time
# per input than the checks did. Only the code under test needs the sanitizer.
case " ${CXXFLAGS:-} " in
*" -fno-sanitize=address "*) ;;
*) export CXXFLAGS="${CXXFLAGS:+$CXXFLAGS }-fno-sanitize=address" ;;
esac
# Use-after-return detection (a fake stack for every frame) costs ~20% and cannot
# fire in this code base: safe Rust never returns a pointer into its own frame.
# malloc_context_size=0: no stack trace recorded at each allocation and free (15-25% of
# the time of the UTF-∞-8 targets, which allocate per code point). A report still shows
# the stack of the bad access; the allocation's stack is printed when the crash is
# reproduced with `cargo fuzz run` (default options), as the summaries say to.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0:malloc_context_size=0}"

fuzz() {
    (cd "$root" && cargo "+$FUZZ_TOOLCHAIN" fuzz "$@")
}

targets() {
    # Without needing a build: the [[bin]] names in fuzz/Cargo.toml.
    sed -n 's/^name = "\(.*\)"$/\1/p' "$root/fuzz/Cargo.toml" | grep -v '^corrected-utf8-fuzz$'
}

# The largest input libFuzzer makes for target $1: `max_len` in
# fuzz/options/<target>.options, the file ClusterFuzzLite and OSS-Fuzz read too (see
# fuzz/README.md for why each bound). Fails, naming the file, if it has none.
target_max_len() {
    local file="$root/fuzz/options/$1.options" n
    n=$(sed -nE 's/^max_len *= *([0-9]+) *$/\1/p' "$file" 2>/dev/null || true)
    if [[ -z "$n" ]]; then
        echo "fuzz/options/$1.options: no 'max_len = N' line" >&2
        return 1
    fi
    echo "$n"
}

ensure_cargo_fuzz() {
    if ! cargo "+$FUZZ_TOOLCHAIN" fuzz --version >/dev/null 2>&1; then
        rustup toolchain install "$FUZZ_TOOLCHAIN" --profile minimal
        cargo install cargo-fuzz --locked
    fi
}

# The CPU and the instruction sets the codec's fast paths pick from, for every speed
# or coverage figure: "Intel(R) Xeon(R) ... (x86_64; sse2 avx2 bmi2 avx512f ...)".
machine() {
    local cpu isa
    cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
    isa=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' |
        grep -xE 'sse2|avx2|bmi2|avx512f|avx512bw|avx512cd|avx512vl|avx512vbmi|avx512vbmi2' | tr '\n' ' ')
    echo "${cpu:-unknown CPU} ($(uname -m); ${isa% })"
}
