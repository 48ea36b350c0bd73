# Shared by the fuzz scripts (sourced, not run). Sets `root` (the checkout), `fuzz` (a
# function running cargo-fuzz on the nightly toolchain) and `targets` (the libFuzzer
# targets, from fuzz/Cargo.toml).

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# cargo-fuzz needs nightly; FUZZ_TOOLCHAIN picks another (e.g. a dated nightly).
FUZZ_TOOLCHAIN=${FUZZ_TOOLCHAIN:-nightly}

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
