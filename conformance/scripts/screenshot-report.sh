#!/usr/bin/env bash
# Renders a `conformance run --html` report in headless Chromium and saves a PNG, to check
# that the page renders (used by hand and in reviews; see conformance/README.md).
#
#   conformance/scripts/screenshot-report.sh [REPORT.html [OUT.png]]
#
# Without REPORT.html it first writes one: the vectors against the reference codec and the
# three adapters of conformance/adapters/ (those whose interpreter is installed), with
# conformance/expected-failures.json. Installs Debian's `chromium` if it is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

report=${1:-}
out=${2:-target/conformance-report.png}
mkdir -p "$(dirname "$out")"

if [ -z "$report" ]; then
  report=target/conformance-report.html
  adapters=(--reference)
  command -v python3 >/dev/null && adapters+=(
    --adapter "corrected-py=python3 conformance/adapters/corrected_utf8.py"
    --adapter "python-codec=python3 conformance/adapters/python_codec.py")
  command -v node >/dev/null && adapters+=(
    --adapter "node=node conformance/adapters/node_textdecoder.js")
  # Exit 1 (failures) still writes the report; 2 means nothing was run.
  status=0
  cargo run --quiet --release -p conformance -- run "${adapters[@]}" \
    --expected-failures conformance/expected-failures.json --html "$report" >/dev/null || status=$?
  [ "$status" -le 1 ] || exit "$status"
fi
[ -f "$report" ] || { echo "no such report: $report" >&2; exit 2; }

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  apt-get update && apt-get install -y chromium
  browser=$(command -v chromium)
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
abs_report=$(cd "$(dirname "$report")" && pwd)/$(basename "$report")
abs_out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
rm -f "$abs_out"
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --screenshot="$abs_out" --window-size=1400,1000 \
  "file://$abs_report" 2>/dev/null || true
[ -s "$abs_out" ] || { echo "chromium wrote no screenshot" >&2; exit 1; }
echo "screenshot: $out"
