#!/usr/bin/env python3
"""The composite action (action.yml) run without GitHub: its `run:` steps with bash,
as a runner would run them, against the reference.

    python3 scripts/test_action.py   # (unittest; -v for each test's name)

A runner pastes each `${{ inputs.X }}` into the step's script and environment, runs
`bash --noprofile --norc -eo pipefail SCRIPT` with GITHUB_ACTION_PATH (the action's
checkout: here this one), RUNNER_TEMP, GITHUB_PATH and GITHUB_OUTPUT set, and adds the
lines written to GITHUB_PATH to PATH for the next steps; this does the same (a `uses:`
step, the reports' upload, is checked but not run). The runner binary is built with
`cargo install` as the action does, into a temporary root, sharing target/ with the rest
of CI. Cases:

  * the usage examples (docs/examples/*.yml, and every `uses: OWNER/REPO@` snippet of
    docs/gating.md and the README) pass only declared inputs and every required one,
    and name the address in Cargo.toml;
  * the docs' example inputs (its `require` floor and `name`) with the reference's own
    adapter (`conformance serve`): exit 0, the three reports written where the
    `reports` output says, the JSON report naming the implementation, every vector
    passed and the gate met;
  * Node's TextDecoder adapter without its expected failures fails the step (exit 1),
    and with `expected-failures` and `args` passes.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import tomllib
import unittest
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
INPUTS = ACTION["inputs"]
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def address():
    package = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))["workspace"]["package"]
    return package["repository"].removeprefix("https://github.com/")


def vector_count():
    """The number of tests in vectors/, from the files' own counts."""
    return sum(
        json.loads(p.read_text(encoding="utf-8"))["numberOfTests"]
        for p in (ROOT / "vectors").glob("*/*.json")
        if not p.name.endswith(".schema.json")
    )


def evaluate(text, inputs):
    """`text` with each `${{ inputs.X }}` replaced; any other expression is an error
    (this test would not know its value)."""

    def value(m):
        expr = m[1]
        name = re.fullmatch(r"inputs\.([A-Za-z0-9_-]+)", expr)
        if not name:
            raise AssertionError(f"action.yml: expression {expr!r} is not inputs.X; teach the test")
        return inputs[name[1]]

    return EXPR.sub(value, text)


def usage_examples():
    """(where, `with:` mapping) of every use of this project's action in the docs."""
    slug = address()
    found = []
    for path in sorted((ROOT / "docs/examples").glob("*.y*ml")):
        workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
        for job in workflow["jobs"].values():
            for step in job.get("steps", []):
                uses = step.get("uses", "")
                if uses.split("@")[0] == slug or uses.startswith("OWNER/"):
                    found.append((f"{path.relative_to(ROOT)}", uses, step.get("with") or {}))
    for name in ("docs/gating.md", "README.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        for block in re.findall(r"```ya?ml\n(.*?)```", text, re.S):
            doc = yaml.safe_load(block)
            steps = doc if isinstance(doc, list) else [doc]
            for step in steps:
                if isinstance(step, dict) and "@" in str(step.get("uses", "")):
                    uses = step["uses"]
                    if uses.split("/")[0] not in ("actions", "dtolnay"):
                        found.append((name, uses, step.get("with") or {}))
    return found


class Runner:
    """Runs the action's steps in a fresh workspace, as a GitHub runner would."""

    def __init__(self, tmp):
        self.tmp = Path(tmp)
        self.workspace = self.tmp / "workspace"
        self.workspace.mkdir()
        self.runner_temp = self.tmp / "runner-temp"
        self.runner_temp.mkdir()
        self.github_path = self.tmp / "github_path"
        self.github_path.write_text("")
        self.github_output = self.tmp / "github_output"
        self.github_output.write_text("")

    def run(self, given):
        unknown = set(given) - set(INPUTS)
        assert not unknown, f"inputs not declared by action.yml: {unknown}"
        inputs = {}
        for name, spec in INPUTS.items():
            if spec.get("required") and name not in given:
                raise AssertionError(f"required input {name} not given")
            inputs[name] = str(given.get(name, spec.get("default", "")))
        for step in ACTION["runs"]["steps"]:
            if "uses" in step:
                continue
            assert step["shell"] == "bash", step
            env = dict(os.environ)
            env.update(
                GITHUB_ACTION_PATH=str(ROOT),
                GITHUB_WORKSPACE=str(self.workspace),
                RUNNER_TEMP=str(self.runner_temp),
                GITHUB_PATH=str(self.github_path),
                GITHUB_OUTPUT=str(self.github_output),
                # Where cargo builds (not part of the action): the rest of CI's target/.
                CARGO_TARGET_DIR=str(ROOT / "target"),
            )
            added = [line for line in self.github_path.read_text().splitlines() if line]
            env["PATH"] = os.pathsep.join([*reversed(added), env["PATH"]])
            for key, val in (step.get("env") or {}).items():
                env[key] = evaluate(str(val), inputs)
            script = self.tmp / "step.sh"
            script.write_text(evaluate(step["run"], inputs))
            done = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                cwd=self.workspace, env=env, capture_output=True, text=True,
            )
            if done.returncode != 0:
                return done.returncode, done.stdout + done.stderr, inputs
        return 0, "", inputs

    def output(self, name, inputs):
        return evaluate(ACTION["outputs"][name]["value"], inputs)


class CompositeAction(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.runner = Runner(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def test_usage_examples_match_the_inputs_and_the_address(self):
        examples = usage_examples()
        self.assertTrue(examples, "no usage example of the action found in the docs")
        required = {n for n, s in INPUTS.items() if s.get("required")}
        for where, uses, given in examples:
            with self.subTest(where=where):
                self.assertEqual(uses.split("@")[0], address(), f"{where}: {uses}")
                self.assertLessEqual(set(given), set(INPUTS), f"{where}: undeclared inputs")
                self.assertLessEqual(required, set(given), f"{where}: a required input is missing")

    def test_the_docs_example_passes_against_the_reference(self):
        (_, _, example) = next(e for e in usage_examples() if e[0].startswith("docs/examples"))
        given = dict(example, adapter="conformance serve")
        code, log, inputs = self.runner.run(given)
        self.assertEqual(code, 0, log)
        reports = self.runner.workspace / self.runner.output("reports", inputs)
        for name in ("conformance.xml", "conformance.html", "conformance.json"):
            self.assertTrue((reports / name).stat().st_size > 0, name)
        report = json.loads((reports / "conformance.json").read_text())
        self.assertEqual([i["name"] for i in report["implementations"]], [given["name"]])
        self.assertEqual(report["summary"]["passed"], vector_count())
        self.assertEqual(report["summary"]["failed"], 0)
        self.assertTrue(report["gate"]["met"], report["gate"])
        # The upload step takes exactly that folder, always.
        upload = next(s for s in ACTION["runs"]["steps"] if "uses" in s)
        self.assertTrue(upload["uses"].startswith("actions/upload-artifact@"))
        self.assertEqual(upload.get("if"), "always()")
        self.assertEqual(evaluate(upload["with"]["path"], inputs), self.runner.output("reports", inputs))

    def test_a_failing_adapter_fails_the_step(self):
        shutil.copy(ROOT / "conformance/adapters/node_textdecoder.js", self.runner.workspace)
        code, log, _ = self.runner.run({"adapter": "node node_textdecoder.js", "name": "node"})
        self.assertEqual(code, 1, log)
        # Node's TextEncoder answers U+FFFD for lone surrogates: its known failures, as
        # conformance/expected-failures.json lists them (6 with vectors 2.5).
        known = json.loads((ROOT / "conformance/expected-failures.json").read_text())["node"]
        self.assertGreater(len(known), 0)
        self.assertRegex(log, r"(?m)^\d+ passed, %d failed, \d+ skipped$" % len(known))

    def test_expected_failures_and_args_reach_the_runner(self):
        shutil.copy(ROOT / "conformance/adapters/node_textdecoder.js", self.runner.workspace)
        shutil.copy(ROOT / "conformance/expected-failures.json", self.runner.workspace / "known.json")
        code, log, inputs = self.runner.run({
            "adapter": "node node_textdecoder.js",
            "name": "node",
            "expected-failures": "known.json",
            "args": "--timeout 10 --startup-timeout 30",
            "reports": "out/node",
        })
        self.assertEqual(code, 0, log)
        self.assertTrue((self.runner.workspace / "out/node/conformance.json").exists())


if __name__ == "__main__":
    unittest.main()
