#!/bin/sh
# The decoder matrix: every adapter of conformance/adapters/matrix through
# `conformance run --encoding utf-8` with the decoders' expected failures; writes
# target/matrix/report.json and docs/matrix.html and regenerates the generated part of
# docs/matrix.md. Exit status: the runner's (0: every failure is an expected one).
# Run install.sh first. Arguments go to matrix.py run (--only NAME,... and runner
# options); CONFORMANCE=path/to/conformance uses a built runner instead of cargo run.
set -eu
cd "$(dirname "$0")/../../.."
exec python3 conformance/adapters/matrix/matrix.py run "$@"
