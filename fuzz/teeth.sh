#!/usr/bin/env bash
# Teeth: shows that each fuzz target catches a bug. For each mutation below, a scratch
# copy of the checkout gets one line of the codec changed, the target is built, the
# committed corpus is replayed on the mutant (`-runs=0`, what `cargo test` does), and
# then the target fuzzes the mutant from an **empty** corpus (with fuzz/fuzz.dict and its
# max_len, as the nightly job) for at most TEETH_SECONDS. Both must crash.
#
#   fuzz/teeth.sh [mutation...]        (default: all; names in the table below)
#   fuzz/teeth.sh --check              (only check that every row still applies and that
#                                       every target has one; builds nothing; CI runs it)
#
# Environment: TEETH_SECONDS (default 60), TEETH_SEED (default 1), TEETH_DICT (default
# 1; 0 for no dictionary), TEETH_DIR (scratch copy, default /tmp/corrected-utf8-teeth),
# FUZZ_TOOLCHAIN (default nightly).
#
# Every mutation is a sed expression that must change exactly one line of its file.
# Before anything is built, each selected one is tried: if one no longer applies (the
# code it targets was rewritten) or changes more than one line, the script stops with
# exit status 2 and names the row, so that a refactor cannot silently leave a target
# without teeth.
#
# Prints a markdown table: mutation, target, what it breaks, corpus replay, time to
# crash from an empty corpus. Exits 1 if a mutation survives either.
set -euo pipefail
source "$(dirname "$0")/common.sh"

seconds=${TEETH_SECONDS:-60}
# TEETH_DICT=0 fuzzes without fuzz/fuzz.dict (the mutator must find the bytes itself).
dict=(-dict="$root/fuzz/fuzz.dict")
[[ "${TEETH_DICT:-1}" == 0 ]] && dict=()
seed=${TEETH_SEED:-1}
scratch=${TEETH_DIR:-/tmp/corrected-utf8-teeth}

check_only=0
if [[ "${1:-}" == --check ]]; then
    check_only=1
    shift
fi
if (($#)); then wanted=("$@"); else wanted=(); fi
selected() {
    ((${#wanted[@]} == 0)) && return 0
    local w
    for w in "${wanted[@]}"; do [[ "$w" == "$1" ]] && return 0; done
    return 1
}

# The table: name, target, file, sed expression, what the mutant gets wrong.
names=() targets_of=() files=() exprs=() whats=()
mutation() {
    names+=("$1") targets_of+=("$2") files+=("$3") exprs+=("$4") whats+=("$5")
}

mutation validate-skips-continuations decode codec/src/corrected.rs \
    's/position(|&b| b >= 0x80)/position(|\&b| b >= 0xC0)/' \
    "corrected::validate's ASCII skip also skips 80-BF, so it misses stray continuation bytes"
mutation c1-gap-one-short roundtrip codec/src/corrected.rs \
    's/0x80..=0x9F => Err(ErrorKind::C1Control)/0x80..=0x9E => Err(ErrorKind::C1Control)/' \
    "U+009F is no longer a c1-control encode error (it falls through to out-of-range)"
mutation four-byte-offset-off-by-one differential_literal codec/src/corrected/table.rs \
    's/raw_last: 0x1F_FFFF,   offset: 69_792 }/raw_last: 0x1F_FFFF,   offset: 69_793 }/' \
    "the 4-byte row's offset is 1 too high: decode and encode stay each other's inverse; only an independent oracle sees it"
mutation lossy-string-uses-question-mark differential_std codec/src/utf8.rs \
    '/pub fn decode_lossy_to_string/,/^}/s/\.lossy()/.lossy().map(|cp| if cp == 0xFFFD { 0x3F } else { cp })/' \
    "utf8::decode_lossy_to_string writes ? instead of U+FFFD"
mutation f4-accepts-above-10ffff differential_std codec/src/utf8/table.rs \
    's/0xF4        => seq(4, 0x80, 0x8F, OutOfRange)/0xF4        => seq(4, 0x80, 0x90, OutOfRange)/' \
    "UTF-8 accepts F4 90 xx xx, i.e. U+110000 and up"
mutation stream-ignores-narrow-ranges streaming codec/src/utf8.rs \
    's/^            Lead::Seq { lo, hi, .. } => (lo, hi),$/            Lead::Seq { .. } => (0x80, 0xBF),/' \
    "the UTF-8 stream decoder ignores Table 3-7's second-byte ranges (E0 80 80 decodes)"
mutation reserved-span-ends-only-at-ascii streaming codec/src/corrected.rs \
    's/^        is_recognized_lead(byte)$/        byte < 0x80/' \
    "in a stream, a reserved span runs on over C0-FD lead bytes"
mutation magic-prefix-dropped-across-chunks document codec/src/document.rs \
    's/self.no_magic(matched, &mut sink)/self.no_magic(0, \&mut sink)/' \
    "a magic-number prefix held back across chunks is dropped when the next chunk does not match"
mutation paragraph-separator-not-reported document codec/src/document.rs \
    's/0x2029 => Some(FindingKind::ParagraphSeparator)/0x2029 => None/' \
    "U+2029 (Corrected UTF-8 E1 9E 89) raises no paragraph-separator warning"

# The fast paths: one mutation per instruction set this x86_64 machine runs, in code
# only that instruction set executes (the targets force each one with the `*_with`
# functions). A validator's false error is hidden by design (the reference re-checks
# from the last sequence boundary), so each validator mutation makes it accept too much.
# SIMD code has no branches per byte, so the coverage-minimized corpus keeps no input
# for a particular lane value: a mutation that only an unusual byte pattern shows (a
# lead EF followed by one continuation too many, say) is caught from an empty corpus in
# seconds but not by the replay; these rows break what common inputs exercise.
mutation fast-validate-portable-accepts-reserved fast_validate codec/src/corrected/fast/portable.rs \
    's/(covered ^ (cur.hi & !cur.m1)) | cur.r$/(covered ^ (cur.hi \& !cur.m1))/' \
    "portable validator: FE/FF are no longer flagged (a reserved span passes as valid)"
mutation fast-validate-simd-two-byte-lead-covers-nothing fast_validate codec/src/corrected/fast/simd.rs \
    's/V::back::<1>(p, prev, cur).above(0xBF),/V::back::<1>(p, prev, cur).above(0xDF),/' \
    "shared SIMD validator (SSE2, AVX2, AVX-512, NEON): a 2-byte lead (C0-DF) expects no continuation byte, so a truncated 2-byte sequence passes"
mutation fast-validate-sse2-avx2-below-is-at-most fast_validate codec/src/corrected/fast/x86.rs \
    's/self.above(t - 1).zero()/self.above(t).zero()/' \
    "SSE2 and AVX2 byte vectors: \"below t\" holds for t too, so FE (reserved) passes and the quick check misses F8"
mutation fast-validate-avx512-below-is-at-most fast_validate codec/src/corrected/fast/x86/avx512/vector.rs \
    's/unsafe { _mm512_cmplt_epu8_mask(self.0, _mm512_set1_epi8(t as i8)) }/unsafe { _mm512_cmple_epu8_mask(self.0, _mm512_set1_epi8(t as i8)) }/' \
    "AVX-512 byte vector: \"below t\" holds for t too, so FE (reserved) passes and the quick check misses F8"
mutation fast-decode-portable-drops-a-continuation-bit fast_decode codec/src/corrected/fast/portable.rs \
    's/^    (w >> (8 \* j)) as u32 \& 0x3F$/    (w >> (8 * j)) as u32 \& 0x1F/' \
    "portable one-pass decoder (portable, SSE2, and what every SIMD decoder leaves): bit 5 of each continuation byte is lost"
mutation fast-decode-avx2-short-offset fast_decode codec/src/corrected/fast/x86/avx2/decode.rs \
    's/^        set(160),$/        set(161),/' \
    "AVX2 decoder, 16 bytes of 1- and 2-byte sequences: 2-byte code points come out 1 too high"
mutation fast-decode-avx2-ascii-block-shifted fast_decode codec/src/corrected/fast/x86/avx2/decode.rs \
    's/let eight = _mm_loadl_epi64(p.add(8 \* k).cast());/let eight = _mm_loadl_epi64(p.add(8 * k + 1).cast());/' \
    "AVX2 decoder, the one-pass ASCII blocks: each 8 bytes widened from one byte too far on"
mutation fast-decode-avx2-run-ascii-offset fast_decode codec/src/corrected/fast/x86/avx2/decode.rs \
    's/^                    row.offset\[j\] = 0;$/                    row.offset[j] = 2_208;/' \
    "AVX2 decoder, a run of 3-byte sequences with an ASCII byte among them: the ASCII byte gets the 3-byte offset"
mutation fast-decode-avx2-emoji-half-ascii-offset fast_decode codec/src/corrected/fast/x86/avx2/decode.rs \
    's/^                row.offset\[ascii\] = 0;$/                row.offset[ascii] = 69_792;/' \
    "AVX2 decoder, a run of 4-byte sequences with a space among them: the space gets the 4-byte offset"
mutation fast-decode-avx512-ascii-block-shifted fast_decode codec/src/corrected/fast/x86/avx512/decode.rs \
    's/let sixteen = _mm_loadu_si128(p.add(16 \* k) as \*const __m128i);/let sixteen = _mm_loadu_si128(p.add(16 * k + 1) as *const __m128i);/' \
    "AVX-512 decoder, an ASCII block after an ASCII block: each 16 bytes widened from one byte too far on"
mutation fast-encode-portable-cjk-run-surrogate-skip fast_decode codec/src/corrected/fast/portable/encode.rs \
    's/- (past_surrogates << 11);/- (past_surrogates << 10);/' \
    "portable encoder, runs of 3-byte code points (two to a word): past the surrogates the offset is 1,024 more, not 2,048"
mutation fast-decode-avx512-short-offset fast_decode codec/src/corrected/fast/x86/avx512/decode.rs \
    's/set(0x4001)), set(160))/set(0x4001)), set(161))/' \
    "AVX-512 decoder, a block of 1- and 2-byte sequences: 2-byte code points come out 1 too high"

mutation fast-transcode-portable-drops-a-bit fast_transcode codec/src/corrected/fast/portable/transcode.rs \
    's/(0xC0 | cp >> 6 | cont(0) << 8, 2)/(0xC0 | cp >> 6 | (cont(0) \& 0xDF) << 8, 2)/' \
    "scalar Corrected UTF-8 -> UTF-8 transcoder (portable, and the AVX-512 one's tail): the trail byte of a 2-byte UTF-8 sequence loses bit 5"
mutation fast-transcode-portable-accepts-overlong fast_transcode codec/src/corrected/fast/portable/transcode.rs \
    's/    (cp >= 0x800) \& (cp.wrapping_sub(0xD800) >= 0x800)/    (cp >= 0x400) \& (cp.wrapping_sub(0xD800) >= 0x800)/' \
    "portable UTF-8 -> Corrected UTF-8 transcoder (one pass): overlong 3-byte forms of U+0400 to U+07FF (E0 90-9F xx) pass as valid"
mutation fast-transcode-avx512-short-offset fast_transcode codec/src/corrected/fast/x86/avx512/transcode.rs \
    's/_mm512_maskz_mov_epi32(two, set(160))/_mm512_maskz_mov_epi32(two, set(161))/' \
    "AVX-512 UTF-8 -> Corrected UTF-8 transcoder: 2-byte code points come out 1 too low"
mutation fast-transcode-avx2-latin-carry fast_transcode codec/src/corrected/fast/x86/avx2/transcode.rs \
    's/let carry = |n: __m256i| gt(n, set(0x9F));/let carry = |n: __m256i| gt(n, set(0xA0));/' \
    "AVX2 Corrected UTF-8 -> UTF-8 transcoder, 1- to 3-byte runs in place: a continuation A0 no longer carries into the byte before"
mutation fast-transcode-avx2-in-place-cjk-offset fast_transcode codec/src/corrected/fast/x86/avx2/transcode.rs \
    's/let step = |x: __m256i| _mm256_add_epi8(set(34), and(at_least(x, 0xEE), set(0xE0)));/let step = |x: __m256i| _mm256_add_epi8(set(35), and(at_least(x, 0xEE), set(0xE0)));/' \
    "AVX2 UTF-8 -> Corrected UTF-8 transcoder, 1- to 3-byte runs in place: below U+E000 a 3-byte code point's middle byte takes 35, not 34"
mutation fast-transcode-avx512-in-place-cjk-offset fast_transcode codec/src/corrected/fast/x86/avx512/transcode.rs \
    's/let step = |high: u64| _mm512_mask_mov_epi8(byte(34), high, byte(2));/let step = |high: u64| _mm512_mask_mov_epi8(byte(34), high, byte(3));/' \
    "AVX-512 transcoders, 1- to 3-byte blocks in place: from U+E000 (the surrogates skipped) a 3-byte code point's middle byte moves by 3, not 2"
mutation fast-transcode-avx2-cjk-second-half fast_transcode codec/src/corrected/fast/x86/avx2/transcode.rs \
    's/                \&\& unsafe { three8::<TO_UTF8>(p.add(24), dst.add(24)) };/                \&\& unsafe { three8::<TO_UTF8>(p.add(24), dst.add(23)) };/' \
    "AVX2 transcoders, 16 three-byte sequences in one step: the second 8 are written one byte early, over the first 8's last byte"
mutation fast-encode-avx2-latin-lane-order fast_decode codec/src/corrected/fast/x86/avx2/encode.rs \
    's/let rows = (even | even >> 7) \& 0x00FF_00FF;/let rows = (even | even >> 6) \& 0x00FF_00FF;/' \
    "AVX2 encoder, 1- and 2-byte code points 16 at a time: the packing table's row is read with lanes 4-7 of each 8 one bit off"
mutation fast-encode-avx2-cjk-quarter-length fast_decode codec/src/corrected/fast/x86/avx2/encode.rs \
    's/written += 12 - x.count_ones() as usize;/written += 12 - (x \& 0x55).count_ones() as usize;/' \
    "AVX2 encoder, 1- to 3-byte code points 16 at a time: a quarter's length counts only its 1-byte lanes, so a 2-byte code point among 3-byte ones takes 3 bytes of room"
mutation fast-encode-avx2-cjk-run-above-ffff fast_decode codec/src/corrected/fast/x86/avx2/encode.rs \
    's/if _mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi32(!0xFFFF)) == 0 {/if _mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi32(!0x1FFFF)) == 0 {/' \
    "AVX2 encoder, 16 code points at a time below U+10000 (the general step and the loop over CJK text): a code point from U+10000 to U+1FFFF (an emoji) stays in 16-bit lanes, packed to U+FFFF"
mutation fast-encode-avx2-latin-run-above-7ff fast_decode codec/src/corrected/fast/x86/avx2/encode.rs \
    's/if _mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi32(!0x7FF)) != 1 {/if _mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi32(!0xFFF)) != 1 {/' \
    "AVX2 encoder, the loop over Latin text 16 code points at a time: a code point from U+8A0 to U+FFF (3 bytes) stays in it, encoded in 2"
mutation fast-encode-portable-mixed-ascii-length fast_decode codec/src/corrected/fast/portable/encode.rs \
    's/core::hint::select_unpredictable(ascii, 1, len),/core::hint::select_unpredictable(ascii, 2, len),/' \
    "portable encoder, text of mixed lengths (no run): an ASCII character is written with the zero byte after it"
mutation fast-encode-portable-ascii-in-cjk-emoji fast_decode codec/src/corrected/fast/portable/encode.rs \
    's/    (wa | wb << (8 \* na), na + nb)/    (wa | wb << (8 * nb), na + nb)/' \
    "portable encoder, CJK and emoji runs with ASCII among them: the second of a pair is placed by its own length instead of the first's"
mutation fast-encode-portable-latin-fours fast_decode codec/src/corrected/fast/portable/encode.rs \
    's/            | u64::from(wd) << (8 \* (na + nb + nc));/            | u64::from(wd) << (8 * (na + nb + nb));/' \
    "portable encoder, 1- and 2-byte code points four at a time: the fourth is placed by the second's length instead of the third's"
mutation fast-transcode-avx2-cjk-offset fast_transcode codec/src/corrected/fast/x86/avx2/transcode.rs \
    's/_mm256_add_epi32(raw, set(2_208)),/_mm256_add_epi32(raw, set(2_209)),/' \
    "AVX2 Corrected UTF-8 -> UTF-8 transcoder, 8 three-byte sequences: code points come out 1 too high"

# UTF-∞-8.
mutation utf-inf-8-long-form-below-2-71 utf_inf8_roundtrip codec/src/utf_inf8/encode.rs \
    's/Some(v) if v < 1 << 71 => {/Some(v) if v < 1 << 70 => {/' \
    "the encoder writes 18-digit code points from 2^70 in the long form, which is overlong for them"
mutation utf-inf-8-18-digits-below-2-71-accepted utf_inf8_differential_literal codec/src/utf_inf8.rs \
    's/min_first: if nud == 18 { 8 } else { 1 },/min_first: 1,/' \
    "the decoder accepts 18-digit long-form codes below 2^71 (overlong: FF 80-9F holds them); the bug the Python implementation found, put back"
mutation utf-inf-8-stream-holds-skipped-code utf_inf8_streaming codec/src/utf_inf8.rs \
    's/self.seq.as_ref().filter(|s| !s.over).map_or(0, |s| s.have)/self.seq.as_ref().map_or(0, |s| s.have)/' \
    "StreamDecoder::pending_len counts a code over the limit that is only being skipped (it says it holds more than the limit)"

# The run-time handles.
mutation handle-utf8-events-are-corrected-ones encoding codec/src/encoding.rs \
    's/Encoding::Utf8 => Inner::Bounded(utf8::events(bytes)),/Encoding::Utf8 => Inner::Bounded(corrected::events(bytes)),/' \
    "Encoding::Utf8.events_located decodes as Corrected UTF-8 (a copy-and-paste slip in the dispatch)"

# Every selected mutation must still change exactly one line: checked for all of them
# before the first build, so a stale row fails at once.
stale=0
chosen=()
for i in "${!names[@]}"; do
    selected "${names[$i]}" || continue
    chosen+=("$i")
    changed=$(sed "${exprs[$i]}" "$root/${files[$i]}" | diff "$root/${files[$i]}" - | grep -c '^>' || true)
    if [[ "$changed" != 1 ]]; then
        echo "teeth.sh: row '${names[$i]}' (${targets_of[$i]}): its mutation changes $changed lines of ${files[$i]}, not 1; the code it targets has changed: update the row in fuzz/teeth.sh" >&2
        stale=1
    fi
done
((${#chosen[@]} > 0)) || { echo "teeth.sh: no mutation named ${wanted[*]}" >&2; exit 2; }
# Every target has at least one row.
while read -r t; do
    if [[ " ${targets_of[*]} " != *" $t "* ]]; then
        echo "teeth.sh: target $t has no mutation: add a row to fuzz/teeth.sh" >&2
        stale=1
    fi
done < <(targets)
((stale == 0)) || exit 2
if ((check_only)); then
    echo "teeth.sh --check: ${#chosen[@]} mutations, each changes one line; every target has one"
    exit 0
fi

ensure_cargo_fuzz
# The scratch copy: the working tree without build output or .git; its build cache is
# kept between runs so only the mutated crate and its dependents rebuild. Everything
# else of an earlier copy goes first: a file since moved or deleted would still be
# there (a module found twice, and the row reported as a mutant that does not build).
mkdir -p "$scratch"
find "$scratch" -mindepth 1 -maxdepth 1 ! -name target ! -name fuzz -exec rm -rf {} +
if [[ -d "$scratch/fuzz" ]]; then
    find "$scratch/fuzz" -mindepth 1 -maxdepth 1 ! -name target ! -name afl -exec rm -rf {} +
fi
if [[ -d "$scratch/fuzz/afl" ]]; then
    find "$scratch/fuzz/afl" -mindepth 1 -maxdepth 1 ! -name target -exec rm -rf {} +
fi
(cd "$root" && tar --exclude=./target --exclude=./fuzz/target --exclude=./fuzz/afl/target \
    --exclude=./.git --exclude=./fuzz/nightly-out --exclude=./fuzz/artifacts \
    --exclude=./fuzz/coverage -cf - .) |
    (cd "$scratch" && tar -xf -)
sfuzz() { (cd "$scratch" && cargo "+$FUZZ_TOOLCHAIN" fuzz "$@"); }

rows=()
survived=0
for i in "${chosen[@]}"; do
    name=${names[$i]} target=${targets_of[$i]} file=${files[$i]}
    max_len=$(target_max_len "$target")
    cp "$root/$file" "$scratch/$file"
    sed -i "${exprs[$i]}" "$scratch/$file"
    echo "== $name ($target): ${whats[$i]}"
    diff -u "$root/$file" "$scratch/$file" | sed -n '/^[-+][^-+]/p' || true
    if ! sfuzz build -s none "$target" >"$scratch/build-$name.log" 2>&1; then
        cat "$scratch/build-$name.log" >&2
        cp "$root/$file" "$scratch/$file"
        echo "teeth.sh: row '$name': the mutant does not build" >&2
        exit 2
    fi
    bin="$scratch/fuzz/target/x86_64-unknown-linux-gnu/release/$target"

    # The committed corpus, whole (no -max_len: every file at its full length).
    replay="passes"
    if ! "$bin" -runs=0 "$root/corpus/$target" >"$scratch/replay-$name.log" 2>&1; then
        replay="**fails**"
    else
        survived=1
    fi

    empty="$scratch/empty-corpus/$name"
    rm -rf "$empty" "$scratch/artifacts/$name"
    mkdir -p "$empty" "$scratch/artifacts/$name"
    start=$(date +%s.%N)
    if "$bin" "$empty" -seed="$seed" -max_total_time="$seconds" -max_len="$max_len" "${dict[@]}" \
        -artifact_prefix="$scratch/artifacts/$name/" >"$scratch/fuzz-$name.log" 2>&1; then
        caught="**survived ${seconds} s**"
        survived=1
    else
        end=$(date +%s.%N)
        caught=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f s", e - s }')
        execs=$(grep -oE '^#[0-9]+' "$scratch/fuzz-$name.log" | tail -1 | tr -d '#' || true)
        [[ -n "$execs" ]] && caught+=" (~$execs execs)"
        grep -m1 -A1 "check \`" "$scratch/fuzz-$name.log" | sed 's/^/   /' || true
    fi
    cp "$root/$file" "$scratch/$file"
    rows+=("| $name | $target | ${whats[$i]} | $replay | $caught |")
    echo "   corpus replay: $replay; from an empty corpus: $caught"
done

echo
echo "| mutation | target | what the mutant gets wrong | replay of corpus/ | fuzzing from an empty corpus (seed $seed, dictionary ${TEETH_DICT:-1}, the target's max_len) |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
exit "$survived"
