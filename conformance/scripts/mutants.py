#!/usr/bin/env python3
"""Mutation testing of the codec with cargo-mutants: two test sets, one table.

    conformance/scripts/mutants.py run vectors [--shard K/N] [--out DIR] [-- CARGO-MUTANTS-ARGS]
    conformance/scripts/mutants.py run all --survivors-of DIR [--out DIR] [-- ...]
    conformance/scripts/mutants.py run codec --survivors-of DIR [--out DIR] [-- ...]
    conformance/scripts/mutants.py table --vectors DIR... --all DIR... [--keep-recorded] [--write | --check]
    conformance/scripts/mutants.py lint

`run vectors` runs cargo-mutants over the codec (.cargo/mutants.toml) with one test:
the conformance test `reference_vectors`, the reference codec against every vector,
whole and at every split point (what an importer of the vectors gets). `run all` runs the
whole workspace's tests, but only on the mutants that the vectors missed in an earlier
`run vectors` (`--survivors-of`): whatever the vectors kill, the whole suite kills too,
since the vectors test is part of it. Each run writes `DIR/mutants.out/` (cargo-mutants'
own output, `outcomes.json` among it) and `DIR/run.json` (commit, date, test set, shard).

`run codec` is the cheap first pass of `run all`: the codec's own tests (unit,
integration, doc; about a minute instead of several), on the survivors of the vectors.
Its kills count as kills by all tests; what it misses stays "not run with all tests" in
the table, for `run all` to settle.

`table` merges the outcomes of any number of runs (shards), reads the equivalents file
(.cargo/mutants-equivalent.txt), prints the per-file table and the survivors, and with
`--write` puts the table into docs/mutation.md between its generated-fence markers.
It exits 1 when a mutant the vectors missed is not listed in the equivalents file (a new
survivor: kill it with a vector or a test, or list it with a reason), 0 otherwise.
`--check` exits 1 as well when docs/mutation.md's table is not what it would write.
`--keep-recorded` makes measuring incremental: files the given runs did not measure keep
the counts and survivors the table records for them.

`lint` (cheap, for CI): the equivalents file parses, names real codec files, has no
duplicate; docs/mutation.md's table is what `table` writes from the counts it records
(the fence holds them as JSON) and the equivalents file; the workflow, this script and
the docs pin the same cargo-mutants.

Standard library only (Python 3.8+).
"""

import argparse
import datetime
import json
import platform
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENTS = ROOT / ".cargo" / "mutants-equivalent.txt"
DOC = ROOT / "docs" / "mutation.md"
BEGIN = "<!-- BEGIN GENERATED: conformance/scripts/mutants.py table --write -->"
END = "<!-- END GENERATED -->"
DATA_BEGIN = "<!-- outcomes: "
DATA_END = " -->"

# The version the workflow installs and the docs name; `run` warns on another.
CARGO_MUTANTS_VERSION = "27.1.0"

# Files of the decode, encode and document paths: the vectors' goal (>= 95 % of their
# behaviour-changing mutants) is over these. Everything under codec/src/ counts for the
# whole suite's goal (>= 99 %).
PATHS = re.compile(
    r"^codec/src/(corrected|corrected/.*|utf8|utf8/.*|utf_inf8|events|stream|document|big)\.rs$"
)
VECTORS_GOAL = 95.0
ALL_GOAL = 99.0

CLASSES = ("equivalent", "api-surface")

# Test time of one mutant, in seconds, before it counts as a timeout (caught): a few
# times what the unmutated tests take on a CI runner (about 20 s for the vectors, a few
# minutes for the workspace).
TIMEOUTS = {"vectors": 300, "codec": 600, "all": 1200}


def key(name):
    """A mutant's name without its line and column: stable across unrelated edits."""
    return re.sub(r"^([^:]+):\d+:\d+: ", r"\1: ", name)


def git(*args):
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


# ---------------------------------------------------------------------------- run


def cargo_mutants_version():
    out = subprocess.run(
        ["cargo", "mutants", "--version"], capture_output=True, text=True, check=True
    ).stdout.split()
    return out[-1] if out else "?"


def rust_escape(text):
    """`text` as a literal in a Rust `regex` (which rejects some of Python's escapes)."""
    return re.sub(r"([\\.+*?()|\[\]{}^$#&\-~])", r"\\\1", text)


# Instruction-set files and what a machine needs to run their code. Elsewhere the code is
# compiled out or never dispatched to, so each of its mutants would survive whatever the
# tests: `run` leaves such a file out (`--exclude`) and says so in run.json.
FAST = "codec/src/corrected/fast/"
NEEDS = {
    FAST + "aarch64.rs": ("aarch64", set()),
    FAST + "x86.rs": ("x86_64", set()),
    FAST + "x86/avx2.rs": ("x86_64", {"avx2"}),
    # `has_avx512` in that file: the /proc/cpuinfo names of what it detects.
    FAST + "x86/avx512.rs": ("x86_64", {"avx512f", "avx512bw", "avx512cd", "avx512vl",
                                        "avx512vbmi", "avx512_vbmi2", "bmi1", "bmi2",
                                        "popcnt"}),
}


def cpu_flags():
    """The CPU's feature flags (Linux /proc/cpuinfo; empty elsewhere: nothing assumed)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("flags", "Features")):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def not_runnable_here():
    """The files of NEEDS whose code this machine cannot run."""
    arch = {"amd64": "x86_64", "arm64": "aarch64"}.get(platform.machine().lower(),
                                                       platform.machine().lower())
    flags = cpu_flags()
    return sorted(f for f, (a, needs) in NEEDS.items() if arch != a or not needs <= flags)


def missed_names(out_dir):
    outcomes = load_outcomes(Path(out_dir))
    return sorted(n for n, s in outcomes.items() if s == "MissedMutant")


def cmd_run(args):
    version = cargo_mutants_version()
    if version != CARGO_MUTANTS_VERSION:
        print(
            f"warning: cargo-mutants {version}, the project pins {CARGO_MUTANTS_VERSION}",
            file=sys.stderr,
        )
    # The tree as it is when the run starts (a run can outlast a commit).
    dirty = git("status", "--porcelain", "--untracked-files=no")
    args.commit = git("rev-parse", "HEAD") + ("+dirty" if dirty else "")
    out = Path(args.out or ROOT / "target" / "mutants" / args.set).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if args.set == "vectors":
        tests = ["--test-package", "conformance", "--cargo-arg=--test=reference_vectors"]
        baseline = ["cargo", "test", "-p", "conformance", "--test", "reference_vectors"]
    elif args.set == "codec":
        tests = ["--test-package", "corrected-utf8"]
        baseline = ["cargo", "test", "-p", "corrected-utf8"]
    else:
        tests = ["--test-workspace=true"]
        baseline = ["cargo", "test", "--workspace"]
    select = []
    if args.shard:
        select += ["--shard", args.shard]
    if args.survivors_of:
        names = missed_names(args.survivors_of)
        if not names:
            print(f"no survivor in {args.survivors_of}: nothing to run")
            write_run_json(out, args, version, ran=False)
            return 0
        for n in names:
            select += ["--re", "^" + rust_escape(n) + "$"]
    # The baseline is run here, once, on the tree as it is: cargo-mutants' own baseline
    # would run the mutated package's tests with the vectors run's `--test` and fail.
    if not args.no_baseline:
        print("+", " ".join(baseline), flush=True)
        if subprocess.run(baseline, cwd=ROOT).returncode != 0:
            print("the unmutated tree fails its tests: no mutant tested", file=sys.stderr)
            return 4
    args.not_runnable = not_runnable_here()
    for f in args.not_runnable:
        print(f"{f}: left out, this machine cannot run its code", flush=True)
        select += ["--exclude", f]
    cmd = [
        "cargo", "mutants", *tests, *select,
        "--baseline=skip", "--timeout", str(args.timeout or TIMEOUTS[args.set]),
        "--output", str(out), "--no-shuffle", *args.extra,
    ]
    print("+", " ".join(cmd), flush=True)
    rc = subprocess.run(cmd, cwd=ROOT).returncode
    write_run_json(out, args, version, ran=True)
    # 0: every mutant caught; 2: some missed; 3: some timed out. Survivors are judged by
    # `table` against the equivalents file, not here.
    return 0 if rc in (0, 2, 3) else rc


def write_run_json(out, args, version, ran):
    info = {
        "set": args.set,
        "shard": args.shard,
        "survivors_of": str(args.survivors_of) if args.survivors_of else None,
        "commit": args.commit,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "cargo_mutants": version,
        "ran": ran,
        # Left out: files whose code this machine cannot run (NEEDS).
        "not_runnable": getattr(args, "not_runnable", []),
        # Mutants per file of the whole configuration, so that `table` needs no Rust.
        "listing": listing_counts(),
    }
    (out / "run.json").write_text(json.dumps(info, indent=2) + "\n")


# -------------------------------------------------------------------------- table


def load_outcomes(out_dir):
    """{mutant name: summary} of one run directory (or its mutants.out)."""
    path = out_dir / "mutants.out" / "outcomes.json"
    data = json.loads(path.read_text())
    result = {}
    for o in data["outcomes"]:
        scenario = o["scenario"]
        if isinstance(scenario, dict) and "Mutant" in scenario:
            result[scenario["Mutant"]["name"]] = o["summary"]
    return result


def load_runs(dirs):
    """Merged outcomes and run infos of several run directories."""
    outcomes, infos = {}, []
    for d in dirs:
        d = Path(d)
        info_path = d / "run.json"
        info = json.loads(info_path.read_text()) if info_path.exists() else {}
        infos.append(info)
        if info.get("ran") is False:
            continue
        if not (d / "mutants.out" / "outcomes.json").exists():
            # A shard that failed before testing anything: its mutants stay unmeasured.
            print(f"warning: no outcomes in {d}", file=sys.stderr)
            continue
        found = load_outcomes(d)
        if info.get("set") == "codec":
            # The codec's own tests are part of the whole suite: what they kill, it kills;
            # what they miss, it may still kill, so a miss stays "not run".
            found = {n: o for n, o in found.items() if o in KILLED}
        outcomes.update(found)
    return outcomes, infos


def load_equivalents(path=EQUIVALENTS):
    """{key: (class, reason)}; raises ValueError with line numbers on a bad line."""
    entries, errors = {}, []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        # The name may hold ` | ` (`replace | with &`); the class and reason may not.
        parts = line.split(" | ")
        if len(parts) < 3:
            errors.append(f"{path.name}:{n}: want `class | mutant | reason`")
            continue
        cls, reason = parts[0].strip(), parts[-1].strip()
        mutant = " | ".join(parts[1:-1]).strip()
        if cls not in CLASSES:
            errors.append(f"{path.name}:{n}: class {cls!r} is not one of {CLASSES}")
        if not reason:
            errors.append(f"{path.name}:{n}: no reason")
        if "`" in mutant:
            # cargo-mutants' names hold no backtick, reasons often do: the reason held
            # ` | ` and part of it was taken for the name.
            errors.append(f"{path.name}:{n}: the reason may not hold ` | ` (write `or`)")
        if re.match(r"^[^:]+:\d+:\d+: ", mutant):
            errors.append(f"{path.name}:{n}: drop the line and column from the name")
        file = mutant.split(":", 1)[0]
        if not file.startswith("codec/src/") or not (ROOT / file).is_file():
            errors.append(f"{path.name}:{n}: {file} is no codec source file")
        if mutant in entries:
            errors.append(f"{path.name}:{n}: listed twice: {mutant}")
        entries[mutant] = (cls, reason)
    if errors:
        raise ValueError("\n".join(errors))
    return entries


def compact(vectors, all_tests, infos, listing):
    """What the table is made of: per-file counts of the vectors run, and each survivor
    of the vectors with its outcome under all tests (None: not run)."""
    files, survivors = {}, {}
    for name, v in vectors.items():
        # cargo-mutants 27.1.0 lets "delete field" mutants of every file through `--re`
        # (with `--no-config`, only `-f` stops them): only the codec is measured.
        if not name.startswith("codec/src/"):
            continue
        row = files.setdefault(name.split(":", 1)[0], {"mutants": 0, "viable": 0, "vectors": 0})
        row["mutants"] += 1
        if v == "Unviable":
            continue
        row["viable"] += 1
        if v in KILLED:
            row["vectors"] += 1
        else:
            survivors[name] = all_tests.get(name)
    runs = sorted({(short(i.get("commit", "?")), i.get("date", "?"), i.get("cargo_mutants", "?"))
                   for i in infos if i})
    return {"files": files, "survivors": survivors, "runs": runs, "listing": listing}


KILLED = ("CaughtMutant", "Timeout")


def short(commit):
    """A commit as `git log --oneline` shows it, `+dirty` kept."""
    return commit[:7] + ("+dirty" if commit.endswith("+dirty") else "")


def pct(num, den):
    return "–" if den == 0 else f"{100.0 * num / den:.1f} %"


def not_run_note(n):
    return f" ({n} not run)" if n else ""


def render(data, equivalents):
    """The Markdown between the fences, the unlisted survivors, the ones not run."""
    rows = {f: dict(r, all=r["vectors"], survivors=0, equivalent=0, api=0, not_run=0)
            for f, r in data["files"].items()}
    unlisted, not_run = [], []
    for name, a in sorted(data["survivors"].items()):
        r = rows[name.split(":", 1)[0]]
        cls = equivalents.get(key(name), (None,))[0]
        if cls == "equivalent":
            # Out of both rates' denominators: no test can kill it.
            r["equivalent"] += 1
            continue
        if cls == "api-surface":
            r["api"] += 1
        else:
            unlisted.append(name)
        if a in KILLED:
            r["all"] += 1
        elif a is None:
            r["not_run"] += 1
            not_run.append(name)
        else:
            r["survivors"] += 1
    runs = data["runs"]
    lines = [
        "Measured on commit " + ", ".join(sorted({c for c, _, _ in runs})) + " on "
        + ", ".join(sorted({d for _, d, _ in runs})) + " with cargo-mutants "
        + ", ".join(sorted({v for _, _, v in runs})) + ".",
        "",
        "| file | mutants | measured | viable | killed by vectors | killed by all tests "
        "| survivors | equivalent | api-surface | vectors (behaviour) | all tests |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    tot = dict.fromkeys(("mutants", "measured", "viable", "vectors", "all", "survivors",
                         "equivalent", "api", "not_run", "vec_den", "path_vectors"), 0)
    listing = data["listing"]
    for file in sorted(set(listing) | set(rows)):
        total = listing.get(file, 0)
        tot["mutants"] += total
        r = rows.get(file)
        if r is None:
            why = ("not measurable on the machines that ran (see below)"
                   if file in data.get("not_runnable", []) else "not measured")
            lines.append(f"| `{file}` | {total} | 0 | | | | | | | {why} | |")
            continue
        vec_den = r["viable"] - r["equivalent"] - r["api"]
        all_den = r["viable"] - r["equivalent"] - r["not_run"]
        surv = str(r["survivors"])
        vec = pct(r["vectors"], vec_den) + ("" if PATHS.match(file) else " (no goal)")
        lines.append(
            f"| `{file}` | {total} | {r['mutants']} | {r['viable']} | {r['vectors']} "
            f"| {r['all']} | {surv} | {r['equivalent']} | {r['api']} | {vec} "
            f"| {pct(r['all'], all_den)}{not_run_note(r['not_run'])} |"
        )
        tot["measured"] += r["mutants"]
        for k in ("viable", "vectors", "all", "survivors", "equivalent", "api", "not_run"):
            tot[k] += r[k]
        if PATHS.match(file):
            tot["path_vectors"] += r["vectors"]
            tot["vec_den"] += vec_den
    surv = str(tot["survivors"])
    lines.append(
        f"| **total** | {tot['mutants']} | {tot['measured']} | {tot['viable']} "
        f"| {tot['vectors']} | {tot['all']} | {surv} | {tot['equivalent']} | {tot['api']} "
        f"| {pct(tot['path_vectors'], tot['vec_den'])} "
        f"| {pct(tot['all'], tot['viable'] - tot['equivalent'] - tot['not_run'])}"
        f"{not_run_note(tot['not_run'])} |"
    )
    lines += [
        "",
        f"Goals: vectors (behaviour) ≥ {VECTORS_GOAL:.0f} % over the decode, encode and "
        f"document paths; all tests ≥ {ALL_GOAL:.0f} %.",
    ]
    if data.get("not_runnable"):
        lines += ["", "Left out because no machine that ran could run their code (an "
                  "instruction set it lacks; each mutant would survive whatever the tests): "
                  + ", ".join(f"`{f}`" for f in data["not_runnable"]) + "."]
    if unlisted:
        lines += ["", "Survivors of the vectors not (yet) in `.cargo/mutants-equivalent.txt`:", ""]
        lines += [f"- `{key(n)}`" for n in unlisted]
    if not_run:
        lines += ["", "Survivors of the vectors not run with all tests:", ""]
        lines += [f"- `{key(n)}`" for n in not_run]
    md = "\n".join(lines)
    # The counts themselves, so that `lint` can redo the table without a run.
    md += "\n\n" + DATA_BEGIN + json.dumps(data, sort_keys=True) + DATA_END
    return md, unlisted


def config_excludes():
    """The `exclude_re` patterns of .cargo/mutants.toml: a run given `--no-config` (to
    name files with `-f`) may have tested mutants the configuration leaves out."""
    text = (ROOT / ".cargo" / "mutants.toml").read_text()
    block = re.search(r"^exclude_re\s*=\s*\[(.*?)^\]", text, re.S | re.M)
    if not block:
        return []
    body = "\n".join(line.split("#", 1)[0] if line.lstrip().startswith("#") else line
                     for line in block.group(1).splitlines())
    return [re.compile(m.encode().decode("unicode_escape"))
            for m in re.findall(r'"((?:[^"\\]|\\.)*)"', body)]


def current_keys():
    """The names (without line and column) of the mutants the code has now."""
    out = subprocess.run(
        ["cargo", "mutants", "--list", "--json"], cwd=ROOT, check=True,
        capture_output=True, text=True,
    ).stdout
    return {key(m["name"]) if "name" in m else key(f'{m["file"]}:0:0: {m["description"]}')
            for m in json.loads(out)}


def listing_counts():
    """Mutants per file that cargo-mutants generates under .cargo/mutants.toml."""
    out = subprocess.run(
        ["cargo", "mutants", "--list", "--json"], cwd=ROOT, check=True,
        capture_output=True, text=True,
    ).stdout
    counts = {}
    for m in json.loads(out):
        counts[m["file"]] = counts.get(m["file"], 0) + 1
    return counts


def fenced(doc_text, body):
    start, end = doc_text.index(BEGIN), doc_text.index(END)
    return doc_text[: start + len(BEGIN)] + "\n" + body + "\n" + doc_text[end:]


def cmd_table(args):
    vectors, vinfos = load_runs(args.vectors)
    all_tests, ainfos = load_runs(args.all or [])
    excludes = config_excludes()
    keep = current_keys() if args.drop_stale else None
    for outcomes in (vectors, all_tests):
        for name in list(outcomes):
            if any(x.search(name) for x in excludes) or (
                keep is not None and key(name) not in keep
            ):
                del outcomes[name]
    equivalents = load_equivalents()
    listing = next((i["listing"] for i in vinfos if i.get("listing")), None)
    if args.drop_stale:
        # Runs of several commits: count against the code as it is now.
        listing = listing_counts()
    data = compact(vectors, all_tests, vinfos + ainfos, listing or listing_counts())
    # Files that every run left out, as code its machine could not run.
    left_out = [set(i.get("not_runnable", [])) for i in vinfos if i.get("ran", True)]
    data["not_runnable"] = sorted(set.intersection(*left_out) - set(data["files"])
                                  if left_out else set())
    if args.keep_recorded:
        keep_recorded(data)
    md, unlisted = render(data, equivalents)
    print(md.rsplit("\n\n", 1)[0])
    measured = {key(n) for n, v in vectors.items() if v != "Unviable"}
    stale = sorted(set(equivalents) & measured - {key(n) for n in data["survivors"]})
    if stale:
        print("\nlisted, but the vectors killed every mutant of that name (drop the line?):")
        for k in stale:
            print("  ", k)
    rc = report_unlisted(unlisted)
    if args.write:
        DOC.write_text(fenced(DOC.read_text(), md))
        print(f"\nwrote {DOC.relative_to(ROOT)}")
    if args.check and fenced(DOC.read_text(), md) != DOC.read_text():
        print(f"{DOC.relative_to(ROOT)} is stale: rerun with --write", file=sys.stderr)
        rc = 1
    return rc


def recorded_data():
    """The counts docs/mutation.md's fence records (what `table --write` last wrote)."""
    text = DOC.read_text()
    body = text[text.index(BEGIN) + len(BEGIN): text.index(END)]
    m = re.search(re.escape(DATA_BEGIN) + r"(.*?)" + re.escape(DATA_END), body, re.S)
    return json.loads(m.group(1)) if m else None


def keep_recorded(data):
    """Measuring is incremental: a file none of the given runs measured keeps the counts
    and survivors docs/mutation.md records for it, and the runs they came from."""
    recorded = recorded_data()
    if not recorded:
        return
    measured = set(data["files"])
    for file, row in recorded["files"].items():
        if file not in measured:
            data["files"][file] = row
    for name, outcome in recorded["survivors"].items():
        if name.split(":", 1)[0] not in measured:
            data["survivors"][name] = outcome
    data["runs"] = sorted({tuple(r) for r in recorded["runs"]} | {tuple(r) for r in data["runs"]})
    data["not_runnable"] = sorted(
        (set(data.get("not_runnable", [])) | set(recorded.get("not_runnable", [])))
        - set(data["files"])
    )


def report_unlisted(unlisted):
    if not unlisted:
        return 0
    print(
        f"\n{len(unlisted)} survivors of the vectors not in {EQUIVALENTS.relative_to(ROOT)}"
        " (kill each with a vector or a test, or list it with its class and a reason):",
        file=sys.stderr,
    )
    for n in unlisted:
        print(f"  api-surface | {key(n)} | ...", file=sys.stderr)
    return 1


def cmd_lint(_args):
    try:
        equivalents = load_equivalents()
    except ValueError as e:
        print(e, file=sys.stderr)
        return 1
    # One pinned version, stated in the workflow, this script and the docs.
    workflow = (ROOT / ".github" / "workflows" / "mutants.yml").read_text()
    pinned = re.search(r"CARGO_MUTANTS_VERSION: (\S+)", workflow)
    text = DOC.read_text()
    if not pinned or pinned.group(1) != CARGO_MUTANTS_VERSION or \
            f"--version {CARGO_MUTANTS_VERSION}" not in text:
        print(f"cargo-mutants {CARGO_MUTANTS_VERSION} is not the version pinned in "
              ".github/workflows/mutants.yml and docs/mutation.md", file=sys.stderr)
        return 1
    body = text[text.index(BEGIN) + len(BEGIN): text.index(END)]
    m = re.search(re.escape(DATA_BEGIN) + r"(.*?)" + re.escape(DATA_END), body, re.S)
    if not m:
        print(f"{DOC.relative_to(ROOT)}: no recorded counts in the fence", file=sys.stderr)
        return 1
    md, _ = render(json.loads(m.group(1)), equivalents)
    if fenced(text, md) != text:
        print(
            f"{DOC.relative_to(ROOT)}: the table is not what its recorded counts and "
            f"{EQUIVALENTS.relative_to(ROOT)} give: rerun `table --write`",
            file=sys.stderr,
        )
        return 1
    print(f"{EQUIVALENTS.relative_to(ROOT)}: {len(equivalents)} entries; "
          f"{DOC.relative_to(ROOT)} is consistent with it")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run cargo-mutants with one test set")
    r.add_argument("set", choices=("vectors", "codec", "all"))
    r.add_argument("--shard", help="K/N: this runner's slice of the mutants")
    r.add_argument("--survivors-of", help="only the mutants this earlier run missed")
    r.add_argument("--out", help="output directory (default target/mutants/SET)")
    r.add_argument("--timeout", type=int, help="test timeout per mutant, seconds")
    r.add_argument("--no-baseline", action="store_true",
                   help="skip the unmutated test run (it already passed)")
    t = sub.add_parser("table", help="the per-file table; exit 1 on an unlisted survivor")
    t.add_argument("--vectors", nargs="+", required=True, help="run dirs of `run vectors`")
    t.add_argument("--all", nargs="*", help="run dirs of `run all` or `run codec`")
    t.add_argument("--write", action="store_true", help="update docs/mutation.md")
    t.add_argument("--check", action="store_true", help="exit 1 if docs/mutation.md is stale")
    t.add_argument("--drop-stale", action="store_true",
                   help="leave out mutants the code no longer has (runs on older commits)")
    t.add_argument("--keep-recorded", action="store_true",
                   help="files these runs did not measure keep docs/mutation.md's counts")
    sub.add_parser("lint", help="the equivalents file parses; docs/mutation.md is consistent")
    # Everything after `--` goes to cargo-mutants as it is.
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = p.parse_args(argv[: len(argv) - len(extra) - (1 if extra or "--" in argv else 0)])
    args.extra = extra
    return {"run": cmd_run, "table": cmd_table, "lint": cmd_lint}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
