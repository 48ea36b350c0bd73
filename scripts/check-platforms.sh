#!/usr/bin/env bash
# Type-checks the workspace (the runner, cutf8, the codec, the testkit; every target:
# libraries, binaries, tests, examples, benches) for Windows and macOS, where people run
# these tools in CI too: `cargo clippy --target T -- -D warnings`, which is `cargo check`
# plus the lints, so a warning that only shows on that platform fails as well. No
# linker and no SDK are needed; the Rust targets are added when missing.
#
#   scripts/check-platforms.sh [TARGET...]   # default: both targets below
#
# KNOWN lists the compile units that do not type-check on a target today, each with the
# reason. The step fails when any other unit fails, and also when a listed one starts to
# pass (then delete its line), so the list can only shrink.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-pc-windows-gnu aarch64-apple-darwin)

# TARGET<TAB>cargo's name of the unit ("PACKAGE (KIND)") — why.
KNOWN=$(
  cat <<'EOF'
x86_64-pc-windows-gnu	cutf8 (test "memory")	Unix-only test (pre_exec + setrlimit, wait4/getrusage, sysconf): needs #![cfg(unix)]
EOF
)

status=0
for target in "${targets[@]}"; do
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
  log=$(mktemp)
  printf '== %s: cargo clippy --workspace --all-targets -- -D warnings\n' "$target"
  set +e
  cargo clippy --locked --quiet --keep-going --target "$target" --workspace --all-targets \
    -- -D warnings >"$log" 2>&1
  rc=$?
  set -e
  # shellcheck disable=SC2016 # the backquotes are cargo's, matched literally
  failed=$(sed -n 's/^error: could not compile `\([^`]*\)` (\(.*\)) due to .*/\1 (\2)/p' "$log" |
    LC_ALL=C sort -u)
  known=$(awk -F '\t' -v t="$target" '$1 == t { print $2 }' <<<"$KNOWN" | LC_ALL=C sort -u)
  if [ "$rc" != 0 ] && [ -z "$failed" ]; then
    cat "$log" >&2
    echo "check-platforms: $target: cargo failed (exit $rc) before compiling a unit" >&2
    rm -f "$log"
    status=1
    continue
  fi
  new=$(comm -23 <(printf '%s\n' "$failed") <(printf '%s\n' "$known") | sed '/^$/d')
  fixed=$(comm -13 <(printf '%s\n' "$failed") <(printf '%s\n' "$known") | sed '/^$/d')
  if [ -n "$new" ]; then
    cat "$log" >&2
    echo "check-platforms: $target: these no longer type-check (a regression):" >&2
    printf '  %s\n' "$new" >&2
    status=1
  fi
  if [ -n "$fixed" ]; then
    echo "check-platforms: $target: these type-check now; delete their KNOWN line in $0:" >&2
    printf '  %s\n' "$fixed" >&2
    status=1
  fi
  rm -f "$log"
  if [ -z "$new" ] && [ -z "$fixed" ]; then
    if [ -n "$known" ]; then
      printf '%s: every unit type-checks but the known: %s\n' "$target" "$(tr '\n' ';' <<<"$known")"
    else
      printf '%s: every unit type-checks\n' "$target"
    fi
  fi
done
exit "$status"
