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
//! * `vectors/README.md`'s table of files states each file's schema and number of tests,
//!   and its "Current version" the vectors' version.
//! * UTF-∞-8 facts of `docs/semantics.md` §4, computed by the spec-literal decoder: the
//!   2-byte leads of well-formed codes (§4.1) and the `invalid-length`-before-`overlong`
//!   tie-break of `FF A1 80 90` (§4.2, whose table lists the kinds in that order); and
//!   statements that no longer hold do not come back (the first-digit rule "not named"
//!   in §4.2, UTF-∞-8 "answered `unsupported`" by the reference).
//! * Every count the docs state of the embedded vectors (cases, files, `encode-string`
//!   cases, the worst-case hours of `docs/gating.md`, the explorer's vectors) and of the
//!   fuzz corpus (the files and megabytes built into the binary, the committed files per
//!   target): what this binary embeds now, never a number written once and left.

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
    // The README has other generated blocks: this one ends at the first END after it.
    let Some(begin) = readme.find(BEGIN) else {
        panic!("{}: no `{BEGIN}` … `{END}` block", path.display());
    };
    let Some(end) = readme[begin..].find(END).map(|e| begin + e) else {
        panic!("{}: no `{END}` after `{BEGIN}`", path.display());
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

/// `vectors/README.md`'s table of files: every vector file, with its schema and
/// `numberOfTests`, and the current version.
#[test]
fn vectors_readme_states_every_files_schema_count_and_the_version() {
    let root = root();
    let readme = read(&root.join("vectors/README.md"));
    for (name, json) in vector_files(&root) {
        let row = format!(
            "| `{name}.json` | {} | {} |",
            json["schema"].as_str().unwrap_or("?"),
            json["numberOfTests"]
        );
        assert!(
            readme.contains(&row),
            "vectors/README.md's table of files has no row starting {row:?}"
        );
    }
    let version = corrected_utf8_vectors::VERSION;
    assert!(
        readme.contains(&format!("Current version: `{version}`")),
        "vectors/README.md does not say \"Current version: `{version}`\""
    );
}

/// The section of `page` from the heading `from` to the next heading of that level.
fn section<'a>(page: &'a str, from: &str) -> &'a str {
    let start = page
        .find(from)
        .unwrap_or_else(|| panic!("no heading {from:?}"));
    let level = from.split(' ').next().unwrap_or("###");
    let rest = &page[start + from.len()..];
    let end = rest
        .find(&format!("\n{level} "))
        .map_or(rest.len(), |e| e + 1);
    &page[start..start + from.len() + end]
}

#[test]
fn semantics_utf_inf8_leads_and_tie_break_are_the_literal_decoders() {
    use conformance_literal::utf_inf8::{decode, Event, DEFAULT_LIMIT};
    let page = read(&root().join("docs/semantics.md"));
    // §4.1: the 2-byte leads that begin some well-formed code.
    let valid_lead = |lead: u8| {
        (0x80..=0xBFu8)
            .any(|c| matches!(decode(&[lead, c], DEFAULT_LIMIT)[..], [Event::CodePoint(_)]))
    };
    let leads: Vec<u8> = (0xC0..=0xDFu8).filter(|&b| valid_lead(b)).collect();
    let (first, last) = (leads[0], leads[leads.len() - 1]);
    assert_eq!(leads.len(), usize::from(last - first) + 1);
    let forms = section(&page, "### 4.1 Forms");
    let row = format!("| U+0080 … U+07FF | `{first:02X}–{last:02X}` + 1 continuation | 11 |");
    assert!(
        forms.contains(&row),
        "docs/semantics.md §4.1 has no row {row:?}"
    );
    // §4.2: FF A1 80 90 breaks the padding rule and the first-digit rule in one byte.
    let events = decode(&[0xFF, 0xA1, 0x80, 0x90], DEFAULT_LIMIT);
    let Event::Error { kind, length, .. } = &events[0] else {
        panic!("{events:?}");
    };
    let spans = section(&page, "### 4.2 Well-formedness and error spans");
    let prose = spans.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        prose.contains("`FF A1 80 90` (NUD 19"),
        "§4.2 does not give the tie-break example"
    );
    let stated = format!("is `{kind}` over `FF A1 80`, then `90` alone");
    assert_eq!(*length, 3);
    assert!(prose.contains(&stated), "§4.2 does not say {stated:?}");
    let row = |k: &str| {
        spans
            .find(&format!("\n| `{k}` |"))
            .unwrap_or_else(|| panic!("§4.2's table has no row {k}"))
    };
    assert!(
        row(kind.as_str()) < row("overlong"),
        "§4.2's table must list {kind} before overlong (the order the rules are decided)"
    );
}

#[test]
fn retired_statements_do_not_come_back() {
    let root = root();
    for (file, stale) in [
        ("vectors/README.md", "does not name this one"),
        (
            "conformance/adapters/README.md",
            "names only \"storage whose first significant",
        ),
        (
            "conformance/README.md",
            "answered `unsupported` until the reference grows it",
        ),
        ("docs/semantics.md", "| U+0080 … U+07FF | `C0–DF`"),
    ] {
        let text = read(&root.join(file));
        assert!(!text.contains(stale), "{file} says again {stale:?}");
    }
    // The surrogate decision is said to be one, and rests on RFC 2279.
    let page = read(&root.join("docs/semantics.md"));
    let decisions = section(&page, "### 4.4 Decisions the draft leaves open");
    let decisions = decisions.split_whitespace().collect::<Vec<_>>().join(" ");
    for needed in [
        "This is a decision",
        "RFC 2279",
        "must be undone",
        "sources.md#rfc2279",
    ] {
        assert!(decisions.contains(needed), "§4.4 does not say {needed:?}");
    }
    assert!(read(&root.join("docs/sources.md")).contains("<a id=\"rfc2279\"></a>"));
}

/// Every vector case the binary embeds: `(files, cases)`.
fn embedded_vector_counts() -> (usize, usize) {
    let mut cases = 0;
    for file in corrected_utf8_vectors::EMBEDDED {
        let json: Value = serde_json::from_str(file.text).unwrap();
        let n: usize = json["testGroups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["tests"].as_array().unwrap().len())
            .sum();
        assert_eq!(json["numberOfTests"], n, "{}", file.path);
        cases += n;
    }
    (corrected_utf8_vectors::EMBEDDED.len(), cases)
}

/// Asserts that `file` (from the repository's root) says `said`, whitespace aside (a
/// sentence may be wrapped anywhere).
fn says(file: &str, said: &str) {
    let text = read(&root().join(file));
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat(&text).contains(&flat(said)),
        "{file} does not say {said:?} (a count of what the binary embeds now)"
    );
}

/// The counts the docs state of the embedded vectors: the numbers this binary embeds.
#[test]
fn stated_vector_counts_are_the_embedded_ones() {
    let (files, cases) = embedded_vector_counts();
    assert!(files >= 8 && cases > 3000, "{files} files, {cases} cases");
    let version = corrected_utf8_vectors::VERSION;
    let all = thousands(cases);
    says(
        "README.md",
        &format!("v{version}, [changelog](vectors/CHANGELOG.md)) | {all} cases in {files} files"),
    );
    says("README.md", &format!("reference {cases}/{cases}"));
    // The independent Python adapter declares every operation, string encoding too
    // (`conformance/adapters/corrected_utf8.py`, "codepoints").
    says(
        "README.md",
        &format!("independent Python {cases}/{cases} (string encoding included)"),
    );
    // The worst case of one adapter that hangs on every case: cases × the default 5 s.
    let hours = (cases * 5 + 1800) / 3600;
    says(
        "docs/gating.md",
        &format!("With the embedded vectors ({all} cases) and the default 5 s, that is about {hours} hours"),
    );
    says(
        "docs/explorer.md",
        &format!("checks for every one of the {all} vectors natively"),
    );
}

/// The counts the docs state of the fuzz corpus: the files built into the binary (and
/// their size), and the committed corpus's files per target.
#[test]
fn stated_corpus_counts_are_the_embedded_ones() {
    let embedded = conformance::seed_corpus::EMBEDDED;
    let bytes: usize = embedded.iter().map(|(_, b)| b.len()).sum();
    let targets: std::collections::BTreeSet<&str> = embedded.iter().map(|(t, _)| *t).collect();
    assert!(embedded.len() > 1000, "{} files", embedded.len());
    let count = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    says(
        "conformance/README.md",
        &format!(
            "the {} targets whose layout is read",
            count.get(targets.len()).copied().unwrap_or("many")
        ),
    );
    says(
        "conformance/README.md",
        &format!(
            "{} files, {:.1} MB of the binary",
            thousands(embedded.len()),
            bytes as f64 / 1e6
        ),
    );
    // The committed corpus, per target (`regressions` holds a few files by hand).
    let mut sizes = Vec::new();
    for dir in std::fs::read_dir(root().join("corpus")).unwrap() {
        let dir = dir.unwrap().path();
        if dir.is_dir() && dir.file_name().unwrap() != "regressions" {
            sizes.push(std::fs::read_dir(&dir).unwrap().count());
        }
    }
    let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
    says(
        "fuzz/README.md",
        &format!("between {min} and {max} files per target (`regressions` aside)"),
    );
}
