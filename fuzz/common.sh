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
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0}"

fuzz() {
    (cd "$root" && cargo "+$FUZZ_TOOLCHAIN" fuzz "$@")
}

targets() {
    # Without needing a build: the [[bin]] names in fuzz/Cargo.toml.
    sed -n 's/^name = "\(.*\)"$/\1/p' "$root/fuzz/Cargo.toml" | grep -v '^corrected-utf8-fuzz$'
}

ensure_cargo_fuzz() {
    if ! cargo "+$FUZZ_TOOLCHAIN" fuzz --version >/dev/null 2>&1; then
        rustup toolchain install "$FUZZ_TOOLCHAIN" --profile minimal
        cargo install cargo-fuzz --locked
    fi
}
