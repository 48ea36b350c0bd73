//! `--html FILE`: one static, self-contained page (no external resources): a summary per
//! implementation, counts per implementation and vector file, and a matrix of cases
//! (rows, grouped by vector file) × every implementation (columns), colour-coded like
//! JSONTestSuite's. The matrix has a row for each case some implementation failed or was
//! expected to fail ([`Listed`]; every case with `--report-all`). Each cell's tooltip
//! (and the panel shown on click) has the expected and got values; a filter box matches
//! ids, comments, flags and inputs, and a menu picks an outcome. The page works without
//! JavaScript except for the filter and the panel.
//!
//! Each listed case links to the explorer (docs/explorer.md): its id to the vector's page
//! (the embedded vectors only, which the explorer carries too), its input to the
//! explanation of its bytes (or code point). The explorer is `--explorer-url` or, by
//! default, [`DEFAULT_EXPLORER`]: this release's explorer unpacked beside the report.

use super::model::{Counts, RunReport};
use super::{cut, detail_lines, Listed};
use crate::case::{Case, Test};
use crate::judge::Status;
use std::fmt::Write as _;
use std::io::{self, Write};

/// `&`, `<`, `>`, `"` and `'` escaped: safe in text and in quoted attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Where the links go without `--explorer-url`: the folder of this release's
/// `corrected-utf8-explorer-X.Y.Z.tar.gz`, unpacked beside the report.
pub const DEFAULT_EXPLORER: &str = concat!(
    "corrected-utf8-explorer-",
    env!("CARGO_PKG_VERSION"),
    "/index.html"
);

/// Inputs of at most this many hex digits (1 KiB of bytes) link to their explanation:
/// the row's tooltip holds as many, and a report listing every case (`--report-all`,
/// every chunked variant a row) must not grow by a long link per row.
const LINKED_INPUT_HEX: usize = 2048;

/// The explorer's pages for a case: its vector (`#vectors/FILE/TCID`, when the vectors
/// are the embedded set, which the explorer carries too) and its input explained
/// (`#ENCODING/OP/DATA`, the input the implementation was sent).
fn explorer_links(
    explorer: &str,
    case: &Case,
    rel: &str,
    embedded: bool,
) -> (Option<String>, Option<String>) {
    let vector = embedded.then(|| format!("{explorer}#vectors/{rel}/{}", case.tc_id));
    let (op, data) = match &*case.test {
        Test::Decode(t) => ("decode", t.input.clone()),
        Test::Document(t) => ("document", t.input.clone()),
        Test::Encode(t) => {
            let digits = t.codepoint.trim_start_matches("U+");
            ("encode", digits.to_ascii_lowercase())
        }
        // The explorer's encode takes a list: the code points separated by commas.
        Test::EncodeString(t) => {
            let digits: Vec<String> = t
                .codepoints
                .iter()
                .map(|c| c.trim_start_matches("U+").to_ascii_lowercase())
                .collect();
            ("encode", digits.join(","))
        }
    };
    let input = (data.len() <= LINKED_INPUT_HEX)
        .then(|| format!("{explorer}#{}/{op}/{data}", case.encoding.name()));
    (vector, input)
}

fn label(s: Status) -> &'static str {
    match s {
        Status::Pass => "pass",
        Status::Fail => "FAIL",
        Status::Crash => "CRASH",
        Status::Timeout => "T/O",
        Status::Protocol => "PROTO",
        Status::Skip => "skip",
        Status::Xfail => "xfail",
        Status::Xpass => "XPASS",
        Status::NotRun => "not run",
    }
}

const STYLE: &str = r#"
:root { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 14px; color: #1a1a1a; }
body { margin: 0 1.2em 8em; }
h1 { font-size: 1.5em; margin: .6em 0 .2em; }
p.sum { margin: 0 0 .8em; color: #444; }
p.sum b { color: #1a1a1a; }
table { border-collapse: collapse; }
table.summary { margin-bottom: 1em; }
table.summary th, table.summary td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }
table.summary th { background: #f3f3f3; text-align: center; }
table.summary td.l { text-align: left; }
table.summary td.cmd { text-align: left; font-family: ui-monospace, monospace; font-size: .85em; color: #555; max-width: 28em; overflow-wrap: anywhere; }
.controls { position: sticky; top: 0; background: #fff; padding: .5em 0; z-index: 2; border-bottom: 1px solid #ddd; display: flex; gap: .8em; align-items: center; flex-wrap: wrap; }
.controls input[type=search] { width: 26em; padding: .3em .5em; font-size: 1em; }
.controls select { padding: .25em; font-size: 1em; }
.legend span { display: inline-block; padding: .1em .45em; margin-right: .2em; border-radius: 3px; font-size: .85em; }
#count { color: #555; }
table.matrix th, table.matrix td { border: 1px solid #d6d6d6; padding: .15em .4em; }
table.matrix thead th { position: sticky; top: 2.9em; background: #eee; z-index: 1; }
table.matrix tr.fh th { background: #dde6f0; text-align: left; font-weight: 600; padding: .35em .5em; }
table.matrix td.id { font-family: ui-monospace, monospace; white-space: nowrap; }
table.matrix td.in { font-family: ui-monospace, monospace; font-size: .85em; color: #333; max-width: 16em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
table.matrix td.cm { max-width: 34em; }
table.matrix td.c { text-align: center; font-size: .8em; font-weight: 600; min-width: 5.5em; cursor: pointer; white-space: nowrap; }
.pass { background: #6cc070; color: #0b2e0c; }
.fail { background: #e0403a; color: #fff; }
.crash { background: #7b1fa2; color: #fff; }
.timeout { background: #f08c00; color: #fff; }
.protocol { background: #c2185b; color: #fff; }
.skip { background: #d9d9d9; color: #555; }
.xfail { background: #f5d96b; color: #5c4500; }
.xpass { background: #1e88e5; color: #fff; }
.not-run { background: #fff; color: #7b1fa2; outline: 2px dashed #7b1fa2; outline-offset: -2px; }
#panel { position: fixed; left: 0; right: 0; bottom: 0; max-height: 40vh; overflow: auto; background: #fafafa; border-top: 2px solid #888; padding: .5em 1em; display: none; z-index: 3; }
#panel pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .85em; }
#panel button { float: right; }
"#;

const SCRIPT: &str = r#"
(function () {
  var q = document.getElementById('q'), o = document.getElementById('o');
  var count = document.getElementById('count');
  var bad = ['fail', 'crash', 'timeout', 'protocol', 'xpass'];
  function keep(r, t, v) {
    if (t && r.getAttribute('data-t').indexOf(t) < 0) return false;
    if (!v) return true;
    var s = r.getAttribute('data-s').split(' ');
    if (v === 'bad') return s.some(function (x) { return bad.indexOf(x) >= 0; });
    if (v === 'disagree') return r.getAttribute('data-d') === '1';
    return s.indexOf(v) >= 0;
  }
  function apply() {
    var t = q.value.trim().toLowerCase(), v = o.value, shown = 0, total = 0;
    var bodies = document.querySelectorAll('tbody.f');
    for (var i = 0; i < bodies.length; i++) {
      var rows = bodies[i].rows, any = 0;
      for (var j = 1; j < rows.length; j++) {
        var ok = keep(rows[j], t, v);
        rows[j].hidden = !ok; total++;
        if (ok) { any++; shown++; }
      }
      rows[0].hidden = any === 0;
    }
    count.textContent = shown + ' of ' + total + ' cases shown';
  }
  // A link may preselect: report.html#outcome=bad&q=surrogate
  var h = new URLSearchParams(location.hash.slice(1));
  if (h.get('q')) q.value = h.get('q');
  if (h.get('outcome')) o.value = h.get('outcome');
  q.addEventListener('input', apply);
  o.addEventListener('change', apply);
  var panel = document.getElementById('panel'), pre = panel.querySelector('pre');
  document.querySelector('table.matrix').addEventListener('click', function (e) {
    var c = e.target.closest('td.c');
    if (!c) return;
    pre.textContent = c.getAttribute('data-h') + '\n' + c.title;
    panel.style.display = 'block';
  });
  panel.querySelector('button').addEventListener('click', function () { panel.style.display = 'none'; });
  apply();
})();
"#;

/// Renders the page (failures listed, linked to [`DEFAULT_EXPLORER`], as `conformance
/// run --html` writes it by default).
pub fn render(report: &RunReport) -> String {
    let mut out = Vec::new();
    // Writing to memory does not fail.
    let _ = write(report, Listed::default(), DEFAULT_EXPLORER, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes the page, with a matrix row for each case `listed` picks for some
/// implementation, linked to the explorer at `explorer`; one vector file's rows are held
/// in memory at a time.
pub fn write(
    report: &RunReport,
    listed: Listed,
    explorer: &str,
    w: &mut dyn Write,
) -> io::Result<()> {
    let mut w = io::BufWriter::new(w);
    let mut h = String::new();
    head(&mut h, report);
    summary(&mut h, report);
    per_file(&mut h, report);
    controls(&mut h, report, listed);
    matrix_head(&mut h, report);
    w.write_all(h.as_bytes())?;
    for (fi, _) in report.suite.files.iter().enumerate() {
        h.clear();
        matrix_file(&mut h, report, fi, listed, explorer);
        w.write_all(h.as_bytes())?;
    }
    h.clear();
    h.push_str("</table>\n");
    h.push_str("<div id=\"panel\"><button type=\"button\">close</button><pre></pre></div>\n");
    let _ = writeln!(h, "<script>{SCRIPT}</script>\n</body>\n</html>");
    w.write_all(h.as_bytes())?;
    w.flush()
}

/// The document head, the title and the run's one-line summary, the gate's problems.
fn head(h: &mut String, report: &RunReport) {
    let suite = &report.suite;
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(
        h,
        "<title>Conformance: {}</title>",
        escape(&report.summary_line())
    );
    let _ = writeln!(h, "<style>{STYLE}</style>\n</head>\n<body>");
    h.push_str("<h1>Conformance report</h1>\n");
    let _ = writeln!(
        h,
        "<p class=\"sum\"><b>{}</b> · {} vector file(s) · {} case(s) × {} implementation(s) · timeout {} s{}</p>",
        escape(&report.summary_line()),
        suite.files.len(),
        suite.cases.len(),
        report.implementations.len(),
        report.timeout.as_secs_f64(),
        if report.expected_failures_files.is_empty() {
            String::new()
        } else {
            format!(
                " · expected failures: {}",
                escape(&report.describe_expected_failures_files())
            )
        }
    );
    let _ = writeln!(
        h,
        "<p class=\"sum\">vectors: {} (version {}, manifest sha256 <code>{}</code>)</p>",
        if suite.embedded {
            "embedded in the runner"
        } else {
            "from --vectors"
        },
        escape(&suite.versions().join(", ")),
        escape(&suite.manifest_sha256)
    );
    if !report.gate.is_empty() {
        let _ = writeln!(h, "<h2>Gate not met ({})</h2>\n<ul>", report.gate.len());
        for p in &report.gate {
            let _ = writeln!(h, "<li>{}</li>", escape(p));
        }
        h.push_str("</ul>\n");
    }
}

/// One row per implementation: command, levels, counts.
fn summary(h: &mut String, report: &RunReport) {
    let suite = &report.suite;
    let t = report.totals();
    let columns = report.columns();
    h.push_str(
        "<table class=\"summary\">\n<tr><th>implementation</th><th>command</th><th>level</th>",
    );
    for &s in &columns {
        let _ = write!(h, "<th>{}</th>", s.as_str());
    }
    h.push_str("</tr>\n");
    for imp in &report.implementations {
        let c = imp.counts(suite, None);
        let levels: Vec<String> = imp
            .coverage(suite)
            .iter()
            .map(|c| format!("{} {}: {}", c.encoding, c.op, c.describe()))
            .collect();
        let _ = write!(
            h,
            "<tr><td class=\"l\"><b>{}</b></td><td class=\"cmd\">{}</td><td class=\"l\">{}</td>",
            escape(&imp.name),
            escape(&imp.describe),
            levels
                .iter()
                .map(|l| escape(l))
                .collect::<Vec<_>>()
                .join("<br>")
        );
        counts_cells(h, &columns, &c);
        h.push_str("</tr>\n");
    }
    let _ = writeln!(
        h,
        "</table>\n<p class=\"sum\">Totals: {} passed, {} failed, {} skipped (xfail counts as skipped, xpass as failed).</p>",
        t.passed(),
        t.failed(),
        t.skipped()
    );
}

/// A cell per status of `columns`, coloured when not zero.
fn counts_cells(h: &mut String, columns: &[Status], c: &Counts) {
    for &s in columns {
        let n = c.get(s);
        let class = if n > 0 { s.as_str() } else { "" };
        let _ = write!(h, "<td class=\"{class}\">{n}</td>");
    }
}

/// Counts per implementation and vector file: what the matrix does not list is here.
fn per_file(h: &mut String, report: &RunReport) {
    let suite = &report.suite;
    let columns = report.columns();
    h.push_str("<table class=\"summary\">\n<tr><th>implementation</th><th>vector file</th>");
    for &s in &columns {
        let _ = write!(h, "<th>{}</th>", s.as_str());
    }
    h.push_str("</tr>\n");
    for imp in &report.implementations {
        for (fi, file) in suite.files.iter().enumerate() {
            let _ = write!(
                h,
                "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td>",
                escape(&imp.name),
                escape(&file.rel)
            );
            counts_cells(h, &columns, &imp.counts(suite, Some(fi)));
            h.push_str("</tr>\n");
        }
    }
    h.push_str("</table>\n");
}

/// The filter box, the outcome menu, the legend; what the matrix lists.
fn controls(h: &mut String, report: &RunReport, listed: Listed) {
    let columns = report.columns();
    if listed == Listed::Failures {
        let rows = (0..report.suite.cases.len())
            .filter(|&ci| row_listed(report, ci, listed))
            .count();
        let _ = writeln!(
            h,
            "<p class=\"sum\">The matrix lists the {rows} case(s) that some implementation \
             failed or was expected to fail; passes and skips are counted above (every case: \
             <code>conformance run --report-all</code>).</p>"
        );
    }
    h.push_str("<div class=\"controls\">\n<input id=\"q\" type=\"search\" placeholder=\"Filter by id, comment, flag or input hex…\" aria-label=\"filter\">\n");
    h.push_str("<select id=\"o\" aria-label=\"outcome\"><option value=\"\">every outcome</option><option value=\"bad\">any failure</option><option value=\"disagree\">implementations disagree</option>");
    for &s in &columns {
        let _ = write!(h, "<option value=\"{0}\">{0}</option>", s.as_str());
    }
    h.push_str("</select>\n<span class=\"legend\">");
    for &s in &columns {
        let _ = write!(h, "<span class=\"{}\">{}</span>", s.as_str(), label(s));
    }
    h.push_str("</span>\n<span id=\"count\"></span>\n</div>\n");
}

/// Whether case `ci` gets a matrix row: `listed` picks it for some implementation.
fn row_listed(report: &RunReport, ci: usize, listed: Listed) -> bool {
    report.implementations.iter().any(|i| {
        let r = &i.results[ci];
        !r.not_applicable && listed.includes(r)
    })
}

/// The matrix's column heads.
fn matrix_head(h: &mut String, report: &RunReport) {
    h.push_str("<table class=\"matrix\">\n<thead><tr><th>case</th><th>input</th><th>comment</th>");
    for imp in &report.implementations {
        let _ = write!(h, "<th>{}</th>", escape(&imp.name));
    }
    h.push_str("</tr></thead>\n");
}

/// One vector file's rows of the matrix.
fn matrix_file(h: &mut String, report: &RunReport, fi: usize, listed: Listed, explorer: &str) {
    let suite = &report.suite;
    let file = &suite.files[fi];
    let ncols = 3 + report.implementations.len();
    let _ = writeln!(
        h,
        "<tbody class=\"f\"><tr class=\"fh\"><th colspan=\"{ncols}\">{} · {} · {} · version {} · {} case(s)</th></tr>",
        escape(&file.rel),
        file.schema.as_str(),
        escape(file.encoding.name()),
        escape(&file.version),
        file.cases
    );
    for (ci, case) in suite.cases.iter().enumerate() {
        if case.file == fi && row_listed(report, ci, listed) {
            matrix_row(h, report, ci, explorer);
        }
    }
    h.push_str("</tbody>\n");
}

/// One case: its id and input (linked to the explorer), its comment, and a cell per
/// implementation.
fn matrix_row(h: &mut String, report: &RunReport, ci: usize, explorer: &str) {
    let imps = &report.implementations;
    let case = &report.suite.cases[ci];
    let mut statuses: Vec<&str> = imps.iter().map(|i| i.results[ci].status.as_str()).collect();
    statuses.sort_unstable();
    statuses.dedup();
    let answered: Vec<bool> = imps
        .iter()
        .map(|i| &i.results[ci])
        .filter(|r| r.raw != Status::Skip)
        .map(|r| r.raw == Status::Pass)
        .collect();
    let disagree = answered.windows(2).any(|w| w[0] != w[1]);
    let input = match &*case.test {
        Test::Encode(t) => t.codepoint.clone(),
        Test::EncodeString(t) => crate::case::codepoints_text(&t.codepoints),
        Test::Decode(t) => t.input.clone(),
        Test::Document(t) => t.input.clone(),
    };
    let search = format!(
        "{} {} {} {}",
        case.id,
        case.comment(),
        case.flags().join(" "),
        cut(&input, 300)
    )
    .to_lowercase();
    let suite = &report.suite;
    let (vector, explained) =
        explorer_links(explorer, case, &suite.files[case.file].rel, suite.embedded);
    let linked = |url: Option<String>, text: String, what: &str| match url {
        Some(url) => format!(
            "<a href=\"{}\" title=\"{what} in the explorer\">{text}</a>",
            escape(&url)
        ),
        None => text,
    };
    let _ = write!(
        h,
        "<tr data-s=\"{}\" data-d=\"{}\" data-t=\"{}\"><td class=\"id\" title=\"{}\">{}</td><td class=\"in\" title=\"{}\">{}</td><td class=\"cm\">{}</td>",
        statuses.join(" "),
        u8::from(disagree),
        escape(&search),
        escape(&case.id),
        linked(vector, format!("#{}", case.tc_id), "the vector"),
        escape(&cut(&input, 2000)),
        linked(explained, escape(&cut(&input, 40)), "the input explained"),
        escape(case.comment())
    );
    for imp in imps {
        let r = &imp.results[ci];
        let tip = if r.status == Status::Pass {
            format!("pass: checked {}", r.checked.join(", "))
        } else {
            detail_lines(case, r).join("\n")
        };
        let _ = write!(
            h,
            "<td class=\"c {}\" data-h=\"{}\" title=\"{}\">{}</td>",
            r.status.as_str(),
            escape(&format!(
                "[{}] {} — {}",
                imp.name,
                case.id,
                r.status.as_str()
            )),
            escape(&tip),
            label(r.status)
        );
    }
    h.push_str("</tr>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors::model::{DecodeTest, EncodeStringTest, EncodeTest, TestResult};
    use corrected_utf8_vectors::Encoding;
    use std::sync::Arc;

    fn case(encoding: Encoding, test: Test) -> Case {
        Case {
            id: "x".into(),
            file: 0,
            tc_id: 61,
            encoding,
            test: Arc::new(test),
            chunking: None,
        }
    }

    fn decode(input: &str) -> Test {
        Test::Decode(DecodeTest {
            tc_id: 61,
            comment: String::new(),
            flags: vec![],
            input: input.into(),
            output: vec![],
            result: TestResult::Invalid,
        })
    }

    #[test]
    fn cases_link_their_vector_and_their_input_explained() {
        let c = case(Encoding::Utf8, decode("edbf80"));
        assert_eq!(
            explorer_links("../site/index.html", &c, "utf-8/decode.json", true),
            (
                Some("../site/index.html#vectors/utf-8/decode.json/61".into()),
                Some("../site/index.html#utf-8/decode/edbf80".into())
            )
        );
        // Vectors from files: the explorer may not carry them; the input still links.
        let (vector, input) = explorer_links(DEFAULT_EXPLORER, &c, "mine/decode.json", false);
        assert_eq!(vector, None);
        assert_eq!(
            input.as_deref(),
            Some(concat!(
                "corrected-utf8-explorer-",
                env!("CARGO_PKG_VERSION"),
                "/index.html#utf-8/decode/edbf80"
            ))
        );
        let encode = Test::Encode(EncodeTest {
            tc_id: 61,
            comment: String::new(),
            flags: vec![],
            codepoint: "U+D800".into(),
            bytes: None,
            error: Some("surrogate".into()),
            result: TestResult::Invalid,
        });
        let (_, input) = explorer_links("E", &case(Encoding::CorrectedUtf8, encode), "f", true);
        assert_eq!(input.as_deref(), Some("E#corrected-utf8/encode/d800"));
        let string = Test::EncodeString(EncodeStringTest {
            tc_id: 61,
            comment: String::new(),
            flags: vec![],
            codepoints: vec!["U+0041".into(), "U+D800".into()],
            bytes: None,
            error: Some("surrogate".into()),
            index: Some(1),
            result: TestResult::Invalid,
        });
        let (_, input) = explorer_links("E", &case(Encoding::Utf8, string), "f", true);
        assert_eq!(input.as_deref(), Some("E#utf-8/encode/0041,d800"));
        // A long input links to its vector only.
        let long = case(
            Encoding::UtfInf8,
            decode(&"80".repeat(LINKED_INPUT_HEX / 2 + 1)),
        );
        assert_eq!(explorer_links("E", &long, "f", true).1, None);
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
    }
}
