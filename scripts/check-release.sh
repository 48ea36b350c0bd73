#!/usr/bin/env bash
# Verifies a release folder made by scripts/release.sh; with no DIR, builds one into a
# temporary folder first (what .ci/run does):
#
#   scripts/check-release.sh [DIR]
#
# Checks, each failing loudly:
#   1. the folder holds exactly the six files, and SHA256SUMS covers them and matches;
#   2. each binary is for its CPU and statically linked (no ELF interpreter, no needed
#      library), and starts: run from an empty folder, x86_64 natively and aarch64
#      under qemu-user, `--version` names VERSION, `conformance run` passes every
#      embedded vector and names their manifest hash, cutf8 encodes and decodes;
#   3. the tarball is the vectors: one top folder holding exactly the files git tracks
#      in vectors/ (under vectors/) plus the two licenses and MANIFEST.json, each
#      byte-identical to the checkout's; MANIFEST.json's sha256, sizes, versions and test counts recomputed
#      here with coreutils and jq (not with the script that wrote it), and its
#      manifestSha256 equal to the hash of vectors/ (the algorithm in release.sh);
#      the x86_64 runner's `generate --check` finds the tarball's vectors to be what
#      the spec-literal code generates, and `run --vectors` on them passes;
#   4. the explorer tarball: one top folder holding exactly the site's files, within
#      its budget (1 MB), its page the checkout's, naming the vectors' version and
#      manifest hash; opened from file:// in headless Chromium, it starts and shows a
#      few vectors' expected results (cli/explorer/browser/test_site.py, 2 per file);
#   5. the README's install commands work against this folder as the release page;
#   6. the vectors tarball is reproducible: built again, the same bytes; so is the
#      explorer's site: built again, the same files.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "check-release: $*" >&2; exit 1; }
step() { printf '== check-release: %s\n' "$*"; }

version=$(python3 scripts/address.py show | cut -d' ' -f2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -eq 0 ]; then
  dir=$work/dist
  scripts/release.sh "$version" "$dir"
elif [ $# -eq 1 ]; then
  dir=$(cd "$1" && pwd)
else
  echo "usage: scripts/check-release.sh [DIR]" >&2
  exit 2
fi
need_apt=()
command -v jq >/dev/null || need_apt+=(jq)
command -v qemu-aarch64 >/dev/null || need_apt+=(qemu-user)
command -v readelf >/dev/null || need_apt+=(binutils)
# The explorer's smoke test: Debian's chromium unless CHROMIUM names another Chromium.
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || need_apt+=(chromium)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update && apt-get install -y "${need_apt[@]}"
fi

# The vectors' own version and test count, read from vectors/ (not from the release).
mapfile -t vector_files < <(find vectors -name '*.json' ! -name '*.schema.json' | LC_ALL=C sort)
vv=$(jq -rs 'map(.version) | unique | if length == 1 then .[0] else error("versions differ: \(.)") end' \
  "${vector_files[@]}")
total=$(jq -s 'map(.numberOfTests) | add' "${vector_files[@]}")
# The vectors' manifest hash (the algorithm in release.sh), from vectors/ itself.
hash=$(cd vectors && find . -name '*.json' ! -name '*.schema.json' | sed 's|^\./||' | LC_ALL=C sort |
  xargs sha256sum | sha256sum | cut -d' ' -f1)
name=corrected-utf8-vectors-$vv
targets=(x86_64-unknown-linux-musl aarch64-unknown-linux-musl)
site=corrected-utf8-explorer-$version
expected=("$name.tar.gz" "$site.tar.gz" SHA256SUMS)
for t in "${targets[@]}"; do expected+=("conformance-$version-$t" "cutf8-$version-$t"); done

step "the files and SHA256SUMS ($dir)"
actual=$(cd "$dir" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort)
want=$(printf '%s\n' "${expected[@]}" | LC_ALL=C sort)
[ "$actual" = "$want" ] || fail "the release holds$(printf '\n  %s' "$actual")
but should hold exactly$(printf '\n  %s' "$want")"
summed=$(awk '{print $2}' "$dir/SHA256SUMS" | LC_ALL=C sort)
[ "$summed" = "$(grep -vx SHA256SUMS <<<"$want")" ] ||
  fail "SHA256SUMS lists$(printf '\n  %s' "$summed")"
(cd "$dir" && sha256sum --strict --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match"

step "the binaries: static, for their CPU, and they start"
smoke=$work/smoke
mkdir "$smoke"
for t in "${targets[@]}"; do
  case $t in
    x86_64-*) machine='Advanced Micro Devices X86-64' run=() ;;
    aarch64-*) machine=AArch64 run=(qemu-aarch64) ;;
  esac
  for bin in conformance cutf8; do
    f=$dir/$bin-$version-$t
    [ -x "$f" ] || fail "$f is not executable"
    header=$(readelf -hW "$f") || fail "readelf cannot read $f"
    program=$(readelf -lW "$f") || fail "readelf cannot read $f"
    dynamic=$(readelf -dW "$f") || fail "readelf cannot read $f"
    grep -q "Machine: *$machine\$" <<<"$header" || fail "$f is not a $machine binary"
    if grep -q 'INTERP' <<<"$program"; then fail "$f asks for an ELF interpreter (dynamically linked)"; fi
    if grep -q '(NEEDED)' <<<"$dynamic"; then
      fail "$f needs shared libraries: $(grep '(NEEDED)' <<<"$dynamic")"
    fi
    got=$(cd "$smoke" && "${run[@]}" "$f" --version)
    [ "$got" = "$bin $version" ] || fail "$f --version says '$got', not '$bin $version'"
  done
  # From an empty folder: no checkout, the vectors embedded.
  log=$work/run-$t.log
  (cd "$smoke" && "${run[@]}" "$dir/conformance-$version-$t" run >"$log" 2>&1) ||
    { cat "$log" >&2; fail "conformance run ($t) failed"; }
  grep -qx "$total passed, 0 failed" "$log" || { cat "$log" >&2; fail "conformance run ($t): not '$total passed, 0 failed'"; }
  grep -q "version $vv" "$log" || { cat "$log" >&2; fail "conformance run ($t) does not name vectors $vv"; }
  # The runner names the vectors it ran by their manifest hash (docs/gating.md, section 5).
  grep -q "manifest sha256 $hash" "$log" ||
    { cat "$log" >&2; fail "conformance run ($t) does not name vectors/' manifest hash $hash"; }
  cutf8=("${run[@]}" "$dir/cutf8-$version-$t")
  got=$("${cutf8[@]}" encode U+8421109F)
  [ "$got" = "FD BF BF BF BF BF" ] || fail "cutf8 encode U+8421109F ($t) gave '$got'"
  got=$(printf '\300\257' | "${cutf8[@]}" decode -)
  [ "$got" = "0: U+00CF" ] || fail "cutf8 decode of C0 AF ($t) gave '$got'"
  echo "  $t: static, --version $version, $total vectors passed, cutf8 encodes and decodes"
done

step "the vectors tarball against vectors/"
tree=$work/tree
mkdir "$tree"
tar -xzf "$dir/$name.tar.gz" -C "$tree"
[ "$(ls -A "$tree")" = "$name" ] || fail "the tarball's top level is '$(ls -A "$tree")', not $name/"
x=$tree/$name
want_files=$( { git ls-files vectors; printf '%s\n' LICENSE-MIT LICENSE-APACHE MANIFEST.json; } | LC_ALL=C sort)
got_files=$(cd "$x" && find . -type f -printf '%P\n' | LC_ALL=C sort)
[ "$got_files" = "$want_files" ] || fail "the tarball holds$(printf '\n  %s' "$got_files")
but vectors/ has$(printf '\n  %s' "$want_files")"
while IFS= read -r f; do
  [ "$f" = MANIFEST.json ] && continue
  cmp -s "$x/$f" "$f" || fail "$f in the tarball differs from the checkout's"
done <<<"$want_files"

m=$x/MANIFEST.json
[ "$(jq -r .name "$m")" = corrected-utf8-vectors ] || fail "MANIFEST.json: name"
[ "$(jq -r .version "$m")" = "$vv" ] || fail "MANIFEST.json: version is not $vv"
[ "$(jq -r '.files[].path' "$m")" = "$(grep -vx MANIFEST.json <<<"$want_files")" ] ||
  fail "MANIFEST.json does not list every file (sorted by path) but itself"
sum=0
while IFS=$'\t' read -r path sha bytes tests fversion schema encoding; do
  [ "$sha" = "$(sha256sum "$x/$path" | cut -d' ' -f1)" ] || fail "MANIFEST.json: sha256 of $path"
  [ "$bytes" = "$(stat -c %s "$x/$path")" ] || fail "MANIFEST.json: bytes of $path"
  case $path in
    vectors/*.schema.json | *.md | LICENSE-*)
      [ "$tests" = null ] || fail "MANIFEST.json: $path is not a vector file but has numberOfTests"
      ;;
    vectors/*.json)
      counted=$(jq '[.testGroups[].tests | length] | add' "$x/$path")
      [ "$tests" = "$counted" ] || fail "MANIFEST.json: $path has $counted tests, not $tests"
      [ "$tests" = "$(jq .numberOfTests "$x/$path")" ] || fail "$path: numberOfTests is not its count"
      [ "$fversion" = "$vv" ] || fail "MANIFEST.json: version of $path is not $vv"
      [ "$(jq -r .version "$x/$path")" = "$vv" ] || fail "$path: version is not $vv"
      [ "$schema" = "$(jq -r .schema "$x/$path")" ] || fail "MANIFEST.json: schema of $path"
      [ "$encoding" = "$(jq -r .encoding "$x/$path")" ] || fail "MANIFEST.json: encoding of $path"
      sum=$((sum + tests))
      ;;
    *) fail "MANIFEST.json: unexpected file $path" ;;
  esac
done < <(jq -r '.files[] | [.path, .sha256, .bytes, .numberOfTests, .version, .schema, .encoding] | map(tostring) | @tsv' "$m")
[ "$sum" = "$total" ] || fail "MANIFEST.json: its files add to $sum tests, vectors/ has $total"
[ "$(jq .numberOfTests "$m")" = "$total" ] ||
  fail "MANIFEST.json: numberOfTests is $(jq .numberOfTests "$m"), vectors/ has $total"
[ "$(jq -r .manifestSha256 "$m")" = "$hash" ] ||
  fail "MANIFEST.json: manifestSha256 $(jq -r .manifestSha256 "$m") is not vectors/' $hash"
runner=$dir/conformance-$version-x86_64-unknown-linux-musl
"$runner" generate --check --vectors "$x/vectors" >/dev/null ||
  fail "generate --check: the tarball's vectors are not what the spec-literal code generates"
(cd "$smoke" && "$runner" run --vectors "$x/vectors" >"$work/run-tarball.log" 2>&1) ||
  { cat "$work/run-tarball.log" >&2; fail "conformance run --vectors on the tarball's vectors/ failed"; }
grep -qx "$total passed, 0 failed" "$work/run-tarball.log" || fail "conformance run --vectors: not $total passed"
grep -q "manifest sha256 $hash" "$work/run-tarball.log" ||
  fail "conformance run --vectors on the tarball's vectors/ does not name the manifest hash $hash"
echo "  $name.tar.gz: $(jq '.files | length' "$m") files, $total tests, manifestSha256 $hash"

step "the explorer tarball"
explorer=$work/explorer
mkdir "$explorer"
tar -xzf "$dir/$site.tar.gz" -C "$explorer"
[ "$(ls -A "$explorer")" = "$site" ] || fail "the explorer tarball's top level is '$(ls -A "$explorer")', not $site/"
want_site=$(printf '%s\n' index.html explorer.js explain-wasm.js vectors.js LICENSE-MIT LICENSE-APACHE | LC_ALL=C sort)
got_site=$(cd "$explorer/$site" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort)
[ "$got_site" = "$want_site" ] || fail "the explorer holds$(printf '\n  %s' "$got_site")
but should hold exactly$(printf '\n  %s' "$want_site")"
for f in index.html explorer.js; do
  cmp -s "$explorer/$site/$f" "cli/explorer/site/$f" || fail "the explorer's $f is not cli/explorer/site/$f"
done
for f in LICENSE-MIT LICENSE-APACHE; do
  cmp -s "$explorer/$site/$f" "$f" || fail "the explorer's $f is not the checkout's"
done
site_bytes=$(cat "$explorer/$site"/* | wc -c)
[ "$site_bytes" -le 1000000 ] || fail "the explorer is $site_bytes bytes, over its budget of 1 MB"
grep -q "version: \"$vv\"" "$explorer/$site/vectors.js" || fail "the explorer does not embed vectors $vv"
grep -q "manifestSha256: \"$hash\"" "$explorer/$site/vectors.js" ||
  fail "the explorer's vectors are not vectors/ (manifest hash $hash)"
CHROMIUM=$chromium python3 cli/explorer/browser/test_site.py "$explorer/$site" --browsers chromium --per-file 2 \
  --shots "$work/shots" >"$work/explorer.log" 2>&1 || { cat "$work/explorer.log" >&2; fail "the explorer's browser smoke test failed"; }
echo "  $site.tar.gz: $site_bytes bytes, vectors $vv ($hash), $(tail -n1 "$work/explorer.log")"

step "the README's install commands, with this folder as the release page"
# The fenced block after the README's `<!-- install: release binary` marker, with the
# release URL pointed at this folder and /usr/local/bin at a temporary one.
snippet=$(awk '/<!-- install: release binary/ { on = 1; next }
  on && /^ *```sh/ { body = 1; next }
  body && /^ *```/ { exit }
  body { sub(/^   /, ""); print }' README.md)
[ -n "$snippet" ] || fail "README.md has no install block after '<!-- install: release binary'"
page="https://github.com/$(python3 scripts/address.py show | cut -d' ' -f1)/releases/download/v$version"
grep -qF "$page" <<<"$snippet" || fail "README's install block does not download from $page"
mkdir "$work/bin" "$work/readme"
snippet=${snippet//"$page"/"file://$dir"}
usr_bin=/usr/local/bin/
snippet=${snippet//"$usr_bin"/"$work/bin/"}
(cd "$work/readme" && PATH="$work/bin:$PATH" bash -euo pipefail -c "$snippet" >"$work/readme.log" 2>&1) ||
  { cat "$work/readme.log" >&2; fail "the README's install commands failed"; }
grep -qx "$total passed, 0 failed" "$work/readme.log" || fail "the README's install commands: conformance run did not pass"
echo "  README.md's install block: downloaded, checked against SHA256SUMS, installed, ran"

step "the tarballs are reproducible"
scripts/release.sh --vectors-only "$version" "$work/again" >/dev/null
cmp "$dir/$name.tar.gz" "$work/again/$name.tar.gz" || fail "a second build of $name.tar.gz differs"
scripts/site.sh "$work/site-again" >/dev/null
diff -r "$explorer/$site" "$work/site-again" >&2 || fail "a second build of the explorer's site differs"

echo "check-release: release $version verified ($dir)"
