#!/usr/bin/env bash
# Type-checks the workspace (the runner, cutf8, the codec, the testkit; every target:
# libraries, binaries, tests, examples, benches) for Windows and macOS, where people run
# these tools in CI too, in two passes per target:
#   check   `cargo check --all-targets`: type errors;
#   clippy  `cargo clippy --all-targets -- -D warnings`: also the lints, so that a
#           warning that only shows on that platform fails as well.
# Two passes so that a lint failing a library does not hide its tests' type errors
# (cargo does not build what depends on a unit that failed). No linker and no SDK are
# needed; the Rust targets are added when missing.
#
#   scripts/check-platforms.sh [TARGET...]   # default: both targets below
#
# KNOWN lists the compile units that fail on a target today, per pass, each with the
# reason. The step fails when any other unit fails, and also when a listed one starts to
# pass (then delete its line), so the list can only shrink.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-pc-windows-gnu aarch64-apple-darwin)

# TARGET<TAB>PASS<TAB>cargo's name of the unit ("PACKAGE (KIND)")<TAB>why.
KNOWN=$(
  cat <<'EOF'
EOF
)

status=0
for target in "${targets[@]}"; do
  grep -qx "$target" <<<"$(rustup target list --installed)" || rustup target add "$target"
  for pass in check clippy; do
    log=$(mktemp)
    case $pass in
      check) cmd=(cargo check --locked --quiet --keep-going --target "$target" --workspace --all-targets) ;;
      clippy) cmd=(cargo clippy --locked --quiet --keep-going --target "$target" --workspace --all-targets -- -D warnings) ;;
    esac
    printf '== %s, %s: %s\n' "$target" "$pass" "${cmd[*]}"
    set +e
    "${cmd[@]}" >"$log" 2>&1
    rc=$?
    set -e
    # shellcheck disable=SC2016 # the backquotes are cargo's, matched literally
    failed=$(sed -n 's/^error: could not compile `\([^`]*\)` (\(.*\)) due to .*/\1 (\2)/p' "$log" |
      LC_ALL=C sort -u)
    known=$(awk -F '\t' -v t="$target" -v p="$pass" '$1 == t && $2 == p { print $3 }' <<<"$KNOWN" |
      LC_ALL=C sort -u)
    if [ "$rc" != 0 ] && [ -z "$failed" ]; then
      cat "$log" >&2
      echo "check-platforms: $target, $pass: cargo failed (exit $rc) before compiling a unit" >&2
      rm -f "$log"
      status=1
      continue
    fi
    new=$(comm -23 <(printf '%s\n' "$failed") <(printf '%s\n' "$known") | sed '/^$/d')
    fixed=$(comm -13 <(printf '%s\n' "$failed") <(printf '%s\n' "$known") | sed '/^$/d')
    if [ -n "$new" ]; then
      cat "$log" >&2
      echo "check-platforms: $target, $pass: these no longer build (a regression):" >&2
      while IFS= read -r unit; do printf '  %s\n' "$unit"; done <<<"$new" >&2
      status=1
    fi
    if [ -n "$fixed" ]; then
      echo "check-platforms: $target, $pass: these build now; delete their KNOWN line in $0:" >&2
      while IFS= read -r unit; do printf '  %s\n' "$unit"; done <<<"$fixed" >&2
      status=1
    fi
    rm -f "$log"
    if [ -z "$new" ] && [ -z "$fixed" ]; then
      if [ -n "$known" ]; then
        printf '%s, %s: every unit passes but the known: %s\n' "$target" "$pass" "$(paste -sd ';' <<<"$known")"
      else
        printf '%s, %s: every unit passes\n' "$target" "$pass"
      fi
    fi
  done
done
exit "$status"
