#!/usr/bin/env bash
# Throughput of `cutf8 check`, `transcode` and `decode` on a generated file of mixed text
# (Latin, CJK, emoji), side by side with `iconv -f UTF-8 -t UTF-32LE` on its UTF-8 twin.
#
#   cli/bench/throughput.sh [MIB] [RUNS]     (default: 256 MiB, best of 3 runs)
#
# Builds `cutf8` in release mode, writes the files in a temporary directory (removed at
# the end) and prints a Markdown table: the best wall time of the runs and the
# throughput over the input's size, the CPU time (user + system) of that run and the
# throughput over it (on a busy machine, closer to what a quiet one does), and its peak
# RSS (GNU time's %M).
set -euo pipefail

mib=${1:-256}
runs=${2:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
cargo build --release -p cutf8 --manifest-path "$root/Cargo.toml" >&2
target=$(cargo metadata --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
cutf8="$target/release/cutf8"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Lines of Latin, CJK and emoji text, mixed, repeated up to the size; deterministic.
python3 - "$dir/mixed.utf8" "$mib" <<'PY'
import random, sys
path, mib = sys.argv[1], int(sys.argv[2])
random.seed(18)
latin = "Größe, naïve café: the quick brown fox jumps over the lazy dog — «déjà vu»."
cjk = "大小中文字符串测试。日本語のテキストです。한국어 텍스트입니다。"
emoji = "🦀🚀✨🎉👍🏽🌍🔥💡"
words = latin.split() + [cjk[i:i + 4] for i in range(0, len(cjk), 4)] + list(emoji)
lines = []
for _ in range(4096):
    n = random.randint(4, 16)
    lines.append(" ".join(random.choice(words) for _ in range(n)) + "\n")
block = "".join(lines).encode()
with open(path, "wb") as f:
    size = mib << 20
    while size >= len(block):
        f.write(block)
        size -= len(block)
    # Whole lines up to the size: the file stays valid text ending with a newline.
    tail = block[:size]
    f.write(tail[: tail.rfind(b"\n") + 1])
PY
"$cutf8" transcode --from utf-8 --to corrected-utf8 --magic "$dir/mixed.utf8" >"$dir/mixed.cutf8"
bytes=$(stat -c %s "$dir/mixed.cutf8")

# best_of NAME INPUT COMMAND…: one table row, the fastest of $runs runs.
best_of() {
    local name=$1 input=$2 best="" cpu="" rss=""
    shift 2
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$@" <"$input" >/dev/null || true
        read -r secs user sys kib <"$dir/time"
        if [ -z "$best" ] || awk "BEGIN { exit !($secs < $best) }"; then
            best=$secs cpu=$(awk "BEGIN { print $user + $sys }") rss=$kib
        fi
    done
    local size
    size=$(stat -c %s "$input")
    awk -v n="$name" -v s="$best" -v c="$cpu" -v b="$size" -v r="$rss" 'BEGIN {
        printf "| %s | %.2f | %.2f | %.2f | %.2f | %.1f |\n", n, s,
            (s > 0 ? b / s / 1e9 : 0), c, (c > 0 ? b / c / 1e9 : 0), r / 1024 }'
}

echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
    "load average $(cut -d' ' -f1-3 /proc/loadavg); input $((bytes >> 20)) MiB"
echo
echo "| command | wall s | GB/s (wall) | CPU s | GB/s (CPU) | peak RSS (MiB) |"
echo "|---|---:|---:|---:|---:|---:|"
best_of "cutf8 check" "$dir/mixed.cutf8" "$cutf8" check
best_of "cutf8 transcode --from corrected-utf8 --to utf-8" "$dir/mixed.cutf8" \
    "$cutf8" transcode --from corrected-utf8 --to utf-8
best_of "cutf8 transcode --from utf-8 --to corrected-utf8 (UTF-8 twin)" "$dir/mixed.utf8" \
    "$cutf8" transcode --from utf-8 --to corrected-utf8
best_of "cutf8 decode (a line per code point, ~9 bytes out per byte in)" "$dir/mixed.cutf8" \
    "$cutf8" decode
best_of "iconv -f UTF-8 -t UTF-32LE (UTF-8 twin)" "$dir/mixed.utf8" iconv -f UTF-8 -t UTF-32LE
