#!/usr/bin/env python3
"""Writes MANIFEST.json for a folder laid out as the vectors tarball.

    python3 scripts/vectors_manifest.py DIR > DIR/MANIFEST.json

DIR holds `vectors/` (a copy of the repository's: the vector files
`<encoding>/<name>.json`, `schema/*.schema.json`, README.md, CHANGELOG.md) and the
LICENSE files. The manifest lists every file (path relative to DIR with `/`, sha256,
bytes), and for each vector file (a `*.json` under `vectors/` that is not a
`*.schema.json`, as the runner discovers them) its schema, encoding, version and
numberOfTests, the count of its tests (which must equal the file's own `numberOfTests`).

`manifestSha256` names the vectors as a whole. It is computed over the vector files
only, the ones a runner loads, with paths relative to `vectors/` (the names the runner
embeds them under), so a runner can compute it from what it embeds:

    SHA-256 of the lines "<sha256 hex, lowercase>  <path>\\n", one per vector file,
    path relative to vectors/, sorted by path (bytewise, UTF-8),

which is exactly `sha256sum`'s output, so from a shell in `vectors/`:

    find . -name '*.json' ! -name '*.schema.json' | sed 's|^\\./||' | LC_ALL=C sort |
      xargs sha256sum | sha256sum

Refuses (exit 1, naming the file) a vector file that does not parse, whose tests do
not add up to its numberOfTests, or whose version differs from the others'.
"""

import hashlib
import json
import sys
from pathlib import Path

ALGORITHM = (
    "sha256 of sha256sum's lines '<sha256>  <path>\\n' over the vector files "
    "(*.json but *.schema.json, paths relative to vectors/), sorted by path bytewise"
)


def is_vector_file(path):
    return (
        path.startswith("vectors/")
        and path.endswith(".json")
        and not path.endswith(".schema.json")
    )


def manifest_sha256(digests):
    """`digests`: {path: sha256 hex} of the vector files."""
    lines = "".join(f"{digests[p]}  {p}\n" for p in sorted(digests, key=lambda p: p.encode()))
    return hashlib.sha256(lines.encode()).hexdigest()


def build(root):
    files = []
    digests = {}
    versions = set()
    total = 0
    for path in sorted(root.rglob("*"), key=lambda p: p.relative_to(root).as_posix().encode()):
        if not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        if rel == "MANIFEST.json":
            continue
        data = path.read_bytes()
        entry = {"path": rel, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
        if is_vector_file(rel):
            try:
                doc = json.loads(data)
                counted = sum(len(group["tests"]) for group in doc["testGroups"])
                declared = doc["numberOfTests"]
                version = doc["version"]
                entry.update(schema=doc["schema"], encoding=doc["encoding"], version=version)
            except (ValueError, KeyError, TypeError) as e:
                sys.exit(f"{rel}: not a vector file ({type(e).__name__}: {e})")
            if counted != declared:
                sys.exit(f"{rel}: numberOfTests is {declared} but its testGroups hold {counted} tests")
            entry["numberOfTests"] = counted
            digests[rel.removeprefix("vectors/")] = entry["sha256"]
            versions.add(version)
            total += counted
        files.append(entry)
    if not digests:
        sys.exit(f"{root}: no vector files under vectors/")
    if len(versions) != 1:
        sys.exit(f"{root}: the vector files disagree on their version: {sorted(versions)}")
    return {
        "name": "corrected-utf8-vectors",
        "version": versions.pop(),
        "numberOfTests": total,
        "manifestSha256": manifest_sha256(digests),
        "manifestAlgorithm": ALGORITHM,
        "files": files,
    }


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/vectors_manifest.py DIR")
    root = Path(sys.argv[1])
    if not root.is_dir():
        sys.exit(f"{root}: not a folder")
    json.dump(build(root), sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
