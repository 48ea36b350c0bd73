#!/bin/bash -eu
# OSS-Fuzz's build script for corrected-utf8 ($SRC/build.sh in its image): the
# project's own ClusterFuzzLite build, which puts every target, its seed corpus,
# dictionary and options (max_len) in $OUT. From a checkout (CI runs it outside Docker,
# with OUT set) it calls the checkout's copy.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ -x "$here/../../.clusterfuzzlite/build.sh" ]]; then
    exec "$here/../../.clusterfuzzlite/build.sh"
fi
exec "$SRC/corrected-utf8/.clusterfuzzlite/build.sh"
