#!/usr/bin/env python3
"""The project's address and version, written once and derived everywhere else.

The one place: `repository` (and `homepage`) in `[workspace.package]` of the root
Cargo.toml, `https://github.com/OWNER/REPO`; the release version is `version` there.
Every other mention is derived from it:

  * `uses: OWNER/REPO@REF` (docs/gating.md, action.yml, docs/examples/, the README):
    any `uses:` of an action whose owner is not a known third party (THIRD_PARTY) is
    this project's action, so it must name OWNER/REPO, and a version tag `@vX.Y.Z`
    must be the workspace version;
  * `github.com/OWNER/REPO...` URLs (the README's release downloads), and the version in
    `releases/download/vX.Y.Z` and in the release files' names
    (`conformance-X.Y.Z-<target>`, `cutf8-X.Y.Z-<target>`);
  * every crate's Cargo.toml inherits `repository` and `homepage`
    (`repository.workspace = true`), never a literal of its own;
  * the vectors tarball's name, `corrected-utf8-vectors-X.Y.Z`, carries the version of
    the vector files (vectors/*/*.json); the explorer's, `corrected-utf8-explorer-X.Y.Z`,
    the release version;
  * the explorer's GitHub Pages address, `https://owner.github.io/REPO/` (the owner in
    lowercase, as GitHub serves it: docs/matrix.html links there);
  * the old placeholder host `example.invalid` appears nowhere.

    python3 scripts/address.py check   # exit 1 listing every disagreement (file:line)
    python3 scripts/address.py write   # rewrite the derived mentions in place
    python3 scripts/address.py show    # print OWNER/REPO and the version

`check --github-repository OWNER/REPO` also fails unless the address is that one (the
release workflow passes the repository it runs in, so a release is never published
from an address the docs do not name).
"""

import argparse
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Owners of the third-party actions and repositories the project's files may name. Any
# other `uses: X/Y@` or `github.com/X/Y` is taken to be this project, and must match.
THIRD_PARTY = {
    "actions",
    "dtolnay",
    "google",
    "peter-evans",
}

USES = re.compile(r"(\buses:\s*)([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)@([^\s#'\"`)]+)")
GITHUB = re.compile(r"(github\.com/)([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?=[/\s)`'\"#]|\.git\b|$)")
DOWNLOAD = re.compile(r"(releases/download/v)(\d+\.\d+\.\d+[0-9A-Za-z.+-]*?)(?=[/\s)`'\"]|$)")
RELEASE_FILE = re.compile(
    r"\b((?:conformance|cutf8)-)(\d+\.\d+\.\d+)(-(?:x86_64|aarch64)-unknown-linux-musl)"
)
VECTORS_TARBALL = re.compile(r"\b(corrected-utf8-vectors-)(\d+\.\d+\.\d+)\b")
EXPLORER_TARBALL = re.compile(r"\b(corrected-utf8-explorer-)(\d+\.\d+\.\d+)\b")
PAGES = re.compile(r"(https://)([A-Za-z0-9-]+)\.github\.io/([A-Za-z0-9_.-]+)")
TAG = re.compile(r"v\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?")
OLD_PLACEHOLDER = "example.invalid"


def workspace():
    """(OWNER/REPO, version, Cargo.toml's [workspace.package]) of the root manifest."""
    manifest = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    package = manifest["workspace"]["package"]
    repository = package.get("repository", "")
    m = re.fullmatch(r"https://github\.com/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)", repository)
    if not m:
        sys.exit(
            f"Cargo.toml: [workspace.package] repository = {repository!r} is not "
            "https://github.com/OWNER/REPO (the action's `uses:` needs a GitHub address)"
        )
    return f"{m[1]}/{m[2]}", package["version"], package


def vectors_version():
    """The version the vector files carry (they must agree)."""
    import json

    versions = {
        json.loads(p.read_text(encoding="utf-8"))["version"]
        for p in (ROOT / "vectors").glob("*/*.json")
        if not p.name.endswith(".schema.json")
    }
    if len(versions) != 1:
        sys.exit(f"vectors/*/*.json disagree on their version: {sorted(versions)}")
    return versions.pop()


def tracked_files():
    """The files git tracks, less the binary corpus and the generated vectors."""
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True
    ).stdout.decode()
    # (A file in conflict is listed once per stage: once is enough.)
    for name in dict.fromkeys(out.split("\0")):
        if not name or name.startswith(("corpus/", "vectors/")) or name.endswith(".lock"):
            continue
        # Their examples are samples of the patterns, not mentions.
        if name in ("scripts/address.py", "scripts/test_address.py"):
            continue
        path = ROOT / name
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        yield name, text


def derive(text, slug, version, vv):
    """`text` with every derived mention made to agree; also the list of (line, old,
    new) changes."""
    owner, repo = slug.split("/")
    changes = []

    def uses(m):
        if m[2] in THIRD_PARTY:
            return m[0]
        ref = m[4]
        if TAG.fullmatch(ref):
            ref = f"v{version}"
        return f"{m[1]}{owner}/{repo}@{ref}"

    def github(m):
        if m[2] in THIRD_PARTY:
            return m[0]
        return f"{m[1]}{owner}/{repo}"

    def download(m):
        return f"{m[1]}{version}"

    def release_file(m):
        return f"{m[1]}{version}{m[3]}"

    def tarball(m):
        return f"{m[1]}{vv}"

    def explorer(m):
        return f"{m[1]}{version}"

    def pages(m):
        if m[2] in THIRD_PARTY:
            return m[0]
        return f"{m[1]}{owner.lower()}.github.io/{repo}"

    lines = text.split("\n")
    for i, line in enumerate(lines):
        new = line
        for pattern, fix in (
            (USES, uses),
            (GITHUB, github),
            (DOWNLOAD, download),
            (RELEASE_FILE, release_file),
            (VECTORS_TARBALL, tarball),
            (EXPLORER_TARBALL, explorer),
            (PAGES, pages),
        ):
            new = pattern.sub(fix, new)
        if new != line:
            changes.append((i + 1, line.strip(), new.strip()))
            lines[i] = new
    return "\n".join(lines), changes


def crate_manifests():
    """Every member crate's Cargo.toml (the root's `members`)."""
    manifest = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    for member in manifest["workspace"]["members"]:
        yield f"{member}/Cargo.toml"


def check(github_repository=None):
    slug, version, package = workspace()
    vv = vectors_version()
    problems = []
    homepage = package.get("homepage")
    if not homepage or not homepage.startswith("https://"):
        problems.append(f"Cargo.toml: [workspace.package] has no https homepage ({homepage!r})")
    elif homepage.startswith("https://github.com/") and homepage != package["repository"]:
        problems.append(
            f"Cargo.toml: homepage {homepage} is on GitHub but is not the repository "
            f"{package['repository']}"
        )
    if github_repository is not None and github_repository != slug:
        problems.append(
            f"Cargo.toml: repository names {slug}, but this runs in {github_repository}: "
            "set repository (and homepage) to this repository's address, then run "
            "`python3 scripts/address.py write`"
        )
    for name in crate_manifests():
        crate = tomllib.loads((ROOT / name).read_text(encoding="utf-8"))["package"]
        for key in ("repository", "homepage"):
            if crate.get(key) != {"workspace": True}:
                problems.append(
                    f"{name}: {key} = {crate.get(key)!r}; write `{key}.workspace = true` "
                    "(the address lives in the root Cargo.toml only)"
                )
    for name, text in tracked_files():
        _, changes = derive(text, slug, version, vv)
        for line, old, new in changes:
            problems.append(f"{name}:{line}: {old!r} disagrees with Cargo.toml; should be {new!r}")
        for i, line in enumerate(text.split("\n")):
            if OLD_PLACEHOLDER in line and name != "Cargo.toml":
                problems.append(f"{name}:{i + 1}: the old placeholder address {OLD_PLACEHOLDER}")
    if problems:
        print(f"scripts/address.py: {len(problems)} mention(s) disagree with Cargo.toml "
              f"(repository {slug}, version {version}):", file=sys.stderr)
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        print("fix: `python3 scripts/address.py write` rewrites the derived mentions", file=sys.stderr)
        return 1
    print(f"address: every mention names {slug} and version {version}")
    return 0


def write():
    slug, version, _ = workspace()
    vv = vectors_version()
    changed = 0
    for name, text in tracked_files():
        new, changes = derive(text, slug, version, vv)
        if changes:
            (ROOT / name).write_text(new, encoding="utf-8")
            changed += 1
            for line, old, fixed in changes:
                print(f"{name}:{line}: {old!r} -> {fixed!r}")
    print(f"address: {changed} file(s) rewritten for {slug} {version}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="fail when a mention disagrees with Cargo.toml")
    c.add_argument("--github-repository", metavar="OWNER/REPO")
    sub.add_parser("write", help="rewrite the derived mentions")
    sub.add_parser("show", help="print OWNER/REPO and the version")
    args = parser.parse_args()
    if args.command == "check":
        return check(args.github_repository)
    if args.command == "write":
        return write()
    slug, version, _ = workspace()
    print(slug, version)
    return 0


if __name__ == "__main__":
    sys.exit(main())
