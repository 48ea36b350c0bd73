//! Facts the docs state about the tree, derived from it rather than written by hand.
//!
//! * `vectors/README.md`'s table of flags is generated from the `notes` of the vector
//!   files (every flag any file uses, the files that use it, its number of cases and its
//!   description) between the `BEGIN GENERATED` and `END GENERATED` lines. After
//!   `conformance generate` changes a flag, rewrite it with
//!   `CONFORMANCE_BLESS_DOCS=1 cargo test -p conformance --test it docs::facts` and review
//!   the diff.
//! * The number of codec mutants the README and the nightly mutants workflow state is
//!   the total of the table in `docs/mutation.md` (which `conformance/scripts/mutants.py
//!   table --write` regenerates).

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const BLESS: &str = "CONFORMANCE_BLESS_DOCS";
const BEGIN: &str =
    "<!-- BEGIN GENERATED: CONFORMANCE_BLESS_DOCS=1 cargo test -p conformance --test it docs::facts -->";
const END: &str = "<!-- END GENERATED -->";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("conformance/ has a parent")
        .to_path_buf()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What the table says of one flag.
#[derive(Default)]
struct Flag {
    description: String,
    /// File (`corrected-utf8/decode`) → number of its cases with the flag.
    cases: BTreeMap<String, usize>,
}

/// Every vector file, as `encoding/name` and its JSON, in name order.
fn vector_files(root: &Path) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let vectors = root.join("vectors");
    for dir in std::fs::read_dir(&vectors).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() || dir.file_name().unwrap() == "schema" {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "json") {
                let name = format!(
                    "{}/{}",
                    dir.file_name().unwrap().to_string_lossy(),
                    file.file_stem().unwrap().to_string_lossy()
                );
                let json: Value = serde_json::from_str(&read(&file))
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                out.push((name, json));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(
        out.len() >= 8,
        "only {} vector files under {}",
        out.len(),
        vectors.display()
    );
    out
}

/// The flags of every vector file, from their `notes` and their cases.
fn flags(root: &Path) -> BTreeMap<String, Flag> {
    let mut flags: BTreeMap<String, Flag> = BTreeMap::new();
    for (name, json) in vector_files(root) {
        let notes = json["notes"]
            .as_object()
            .unwrap_or_else(|| panic!("{name}: no notes"));
        for (flag, note) in notes {
            let description = note["description"]
                .as_str()
                .unwrap_or_else(|| panic!("{name}: note {flag} has no description"));
            let entry = flags.entry(flag.clone()).or_default();
            assert!(
                entry.description.is_empty() || entry.description == description,
                "{name}: flag {flag} is described differently in another file; the table \
                 has one description a flag"
            );
            entry.description = description.to_string();
            entry.cases.insert(name.clone(), 0);
        }
        for group in json["testGroups"].as_array().unwrap() {
            for test in group["tests"].as_array().unwrap() {
                for flag in test["flags"].as_array().unwrap() {
                    let flag = flag.as_str().unwrap();
                    let entry = flags
                        .get_mut(flag)
                        .and_then(|f| f.cases.get_mut(&name))
                        .unwrap_or_else(|| panic!("{name}: flag {flag} is not in its notes"));
                    *entry += 1;
                }
            }
        }
    }
    flags
}

/// The generated block, markers included.
fn flag_table(root: &Path) -> String {
    let mut out = format!("{BEGIN}\n");
    out.push_str("| flag | cases | files | what it marks |\n|---|--:|---|---|\n");
    for (flag, Flag { description, cases }) in flags(root) {
        let total: usize = cases.values().sum();
        let files: Vec<String> = cases.iter().map(|(f, n)| format!("{f} ({n})")).collect();
        let description = description.replace('|', "\\|").replace('\n', " ");
        out.push_str(&format!(
            "| `{flag}` | {total} | {} | {description} |\n",
            files.join(", ")
        ));
    }
    out.push_str(END);
    out
}

#[test]
fn vectors_readme_flag_table_is_generated_from_the_notes() {
    let root = root();
    let path = root.join("vectors/README.md");
    let readme = read(&path);
    let (Some(begin), Some(end)) = (readme.find(BEGIN), readme.find(END)) else {
        panic!("{}: no `{BEGIN}` … `{END}` block", path.display());
    };
    let current = &readme[begin..end + END.len()];
    let table = flag_table(&root);
    if std::env::var_os(BLESS).is_some() {
        let new = format!("{}{table}{}", &readme[..begin], &readme[end + END.len()..]);
        std::fs::write(&path, new).unwrap();
        return;
    }
    if current != table {
        let first = current
            .lines()
            .zip(table.lines())
            .find(|(a, b)| a != b)
            .map(|(a, b)| format!("\n  README:  {a}\n  vectors: {b}"))
            .unwrap_or_else(|| "\n  (one is longer)".to_string());
        panic!(
            "vectors/README.md's flag table is stale; first difference:{first}\n\
             ({BLESS}=1 cargo test -p conformance --test it docs::facts rewrites it)"
        );
    }
}

/// `docs/mutation.md`'s total of codec mutants.
fn recorded_mutants(root: &Path) -> usize {
    let page = read(&root.join("docs/mutation.md"));
    let row = page
        .lines()
        .find(|l| l.starts_with("| **total** |"))
        .expect("docs/mutation.md's table has a total row");
    row.split('|')
        .nth(2)
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or_else(|| panic!("docs/mutation.md: no mutant count in {row:?}"))
}

/// `1524` → `1,524`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn readme_and_workflow_state_the_recorded_mutant_count() {
    let root = root();
    let total = recorded_mutants(&root);
    assert!(total > 100, "docs/mutation.md records only {total} mutants");
    let readme = read(&root.join("README.md"));
    let said = format!("({} mutants)", thousands(total));
    assert!(
        readme.contains(&said),
        "README.md does not say {said:?}, the total of docs/mutation.md's table"
    );
    let workflow = read(&root.join(".github/workflows/mutants.yml"));
    let shards: usize = workflow
        .split("--shard ${{ matrix.shard }}/")
        .nth(1)
        .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .expect("the workflow runs `--shard ${{ matrix.shard }}/N`");
    let per_shard = (total + shards / 2) / shards;
    let said = format!(
        "About {per_shard} mutants a shard ({} / {shards}, docs/mutation.md)",
        thousands(total)
    );
    assert!(
        workflow.contains(&said),
        ".github/workflows/mutants.yml does not say {said:?}"
    );
}

#[test]
fn thousands_separates_by_three() {
    assert_eq!(thousands(7), "7");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1524), "1,524");
    assert_eq!(thousands(1_000_000), "1,000,000");
}
