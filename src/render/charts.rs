//! Charts drawn at build time as inline SVG: pure functions from figures to markup, so a page
//! needs no script and no chart library, and the CSP stays as it is. Colours are classes whose
//! fills the stylesheet takes from its CSS variables (a chart follows the light and dark
//! palettes; the CSP allows no style attribute). Each chart is an image with a `<title>` and a
//! `<desc>` that says every figure in words, its text alternative.

use std::fmt::Write;

/// The viewBox's width: the chart scales to its box, and text stays readable on a phone.
const WIDTH: usize = 400;
/// Height of the title line.
const TITLE_H: usize = 26;
/// Height of one row of a bar chart.
const ROW_H: usize = 22;
/// Width of the labels' column of a bar chart.
const LABEL_W: usize = 150;
/// Height of a column chart's plot.
const PLOT_H: usize = 120;
/// Longest label drawn in full.
const LABEL_CHARS: usize = 22;

/// One bar or column: its label, value, the value as written, and a class for its colour
/// (`""` for the accent, `passed`, `notes`, `failed`, or `hl` for the one to pick out).
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: usize,
    pub shown: String,
    pub class: &'static str,
}

impl Bar {
    pub fn new(label: impl Into<String>, value: usize) -> Bar {
        Bar { label: label.into(), value, shown: value.to_string(), class: "" }
    }
}

/// Horizontal bars, one row each: label, bar, value. `id` makes the ids of the title and the
/// description unique on the page.
pub fn bars(id: &str, title: &str, bars: &[Bar]) -> String {
    let height = TITLE_H + bars.len().max(1) * ROW_H + 6;
    let max = bars.iter().map(|b| b.value).max().unwrap_or(0).max(1);
    let plot = WIDTH - LABEL_W - 48;
    let mut svg = open(id, title, &describe(bars), height);
    for (row, bar) in bars.iter().enumerate() {
        let y = TITLE_H + row * ROW_H;
        let w = (bar.value * plot).div_ceil(max).max(usize::from(bar.value > 0));
        let _ = write!(
            svg,
            r#"<text x="0" y="{ty}">{label}</text><rect class="bar {class}" x="{LABEL_W}" y="{by}" width="{w}" height="{bh}" rx="2"/><text class="v" x="{vx}" y="{ty}">{shown}</text>"#,
            ty = y + 15,
            label = super::xml::escape(&short(&bar.label)),
            class = bar.class,
            by = y + 4,
            bh = ROW_H - 8,
            vx = LABEL_W + w + 6,
            shown = super::xml::escape(&bar.shown),
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Vertical columns over labels (a distribution, or a series in time order). Labels are drawn
/// under every `step`-th column so that they never overlap; the description names them all.
pub fn columns(id: &str, title: &str, columns: &[Bar]) -> String {
    let n = columns.len().max(1);
    let height = TITLE_H + 16 + PLOT_H + 22;
    let max = columns.iter().map(|b| b.value).max().unwrap_or(0).max(1);
    let slot = WIDTH / n;
    let gap = (slot / 5).clamp(1, 10);
    let step = n.div_ceil(7);
    let base = TITLE_H + 16 + PLOT_H;
    let mut svg = open(id, title, &describe(columns), height);
    let _ = write!(svg, r#"<line class="axis" x1="0" y1="{base}" x2="{WIDTH}" y2="{base}"/>"#);
    for (i, column) in columns.iter().enumerate() {
        let h = (column.value * PLOT_H).div_ceil(max).max(usize::from(column.value > 0));
        let x = i * slot + gap / 2;
        let mid = i * slot + slot / 2;
        let _ = write!(
            svg,
            r#"<rect class="bar {class}" x="{x}" y="{y}" width="{w}" height="{h}" rx="2"/>"#,
            class = column.class,
            y = base - h,
            w = slot - gap,
        );
        // Values above the columns only while they fit side by side.
        if n <= 12 {
            let _ = write!(
                svg,
                r#"<text class="v" x="{mid}" y="{y}" text-anchor="middle">{shown}</text>"#,
                y = base - h - 4,
                shown = super::xml::escape(&column.shown)
            );
        }
        if i % step == 0 || (i + 1 == n && n <= 12) {
            let _ = write!(
                svg,
                r#"<text class="m" x="{mid}" y="{y}" text-anchor="middle">{label}</text>"#,
                y = base + 16,
                label = super::xml::escape(&short(&column.label))
            );
        }
    }
    svg.push_str("</svg>");
    svg
}

/// The chart's element, its title (drawn, and named as the image's title) and its description.
fn open(id: &str, title: &str, desc: &str, height: usize) -> String {
    let (id, title, desc) = (super::xml::escape(id), super::xml::escape(title), super::xml::escape(desc));
    format!(
        r#"<svg class="chart" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" aria-labelledby="{id}-t {id}-d"><title id="{id}-t">{title}</title><desc id="{id}-d">{desc}</desc><text class="t" x="0" y="16">{title}</text>"#
    )
}

/// Every figure in words: "Passed: 3; Notes: 1."
fn describe(bars: &[Bar]) -> String {
    if bars.is_empty() {
        return "No data.".to_string();
    }
    let parts: Vec<String> = bars.iter().map(|b| format!("{}: {}", b.label, b.shown)).collect();
    format!("{}.", parts.join("; "))
}

fn short(label: &str) -> String {
    if label.chars().count() <= LABEL_CHARS {
        return label.to_string();
    }
    let cut: String = label.chars().take(LABEL_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

/// Token cost bins: each one's upper bound (exclusive) and its label.
pub const TOKEN_BINS: [(usize, &str); 6] =
    [(500, "< 500"), (1_000, "500–1k"), (2_000, "1k–2k"), (5_000, "2k–5k"), (10_000, "5k–10k"), (usize::MAX, "10k +")];

/// The bin of a token cost.
pub fn token_bin(tokens: usize) -> usize {
    TOKEN_BINS.iter().position(|&(upper, _)| tokens < upper).unwrap_or(TOKEN_BINS.len() - 1)
}

/// The token costs of a set of skills: how many fall in each bin, and where one cost ranks.
#[derive(Debug, Clone, Default)]
pub struct TokenScale {
    sorted: Vec<usize>,
    counts: [usize; TOKEN_BINS.len()],
}

impl TokenScale {
    pub fn new(tokens: impl IntoIterator<Item = usize>) -> TokenScale {
        let mut sorted: Vec<usize> = tokens.into_iter().collect();
        sorted.sort_unstable();
        let mut counts = [0; TOKEN_BINS.len()];
        for &t in &sorted {
            counts[token_bin(t)] += 1;
        }
        TokenScale { sorted, counts }
    }

    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    pub fn counts(&self) -> [usize; TOKEN_BINS.len()] {
        self.counts
    }

    /// The share of skills that cost fewer tokens than `tokens`, in whole percent (rounded down).
    pub fn below(&self, tokens: usize) -> usize {
        let n = self.sorted.len().max(1);
        self.sorted.partition_point(|&t| t < tokens) * 100 / n
    }

    /// The share of skills that cost more tokens than `tokens`, in whole percent (rounded down).
    pub fn above(&self, tokens: usize) -> usize {
        let n = self.sorted.len().max(1);
        (self.sorted.len() - self.sorted.partition_point(|&t| t <= tokens)) * 100 / n
    }
}

/// The token cost distribution as columns, with the figures as `shown` gives them and the bin
/// `highlight` picked out.
pub fn token_columns(values: &[usize], highlight: Option<usize>, shown: impl Fn(usize) -> String) -> Vec<Bar> {
    TOKEN_BINS
        .iter()
        .zip(values)
        .enumerate()
        .map(|(i, (&(_, label), &value))| Bar {
            label: label.to_string(),
            value,
            shown: shown(value),
            class: if highlight == Some(i) { "hl" } else { "" },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_the_largest_and_say_every_figure() {
        let svg = bars("v", "Verdicts", &[Bar::new("Passed", 30), Bar { class: "failed", ..Bar::new("Failed", 15) }]);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains(r#"aria-labelledby="v-t v-d""#) && svg.contains(r#"<title id="v-t">Verdicts</title>"#));
        assert!(svg.contains("<desc id=\"v-d\">Passed: 30; Failed: 15.</desc>"), "{svg}");
        let plot = WIDTH - LABEL_W - 48;
        assert!(svg.contains(&format!(r#"class="bar " x="150" y="30" width="{plot}""#)), "{svg}");
        assert!(svg.contains(&format!(r#"class="bar failed" x="150" y="52" width="{}""#, plot / 2)), "{svg}");
    }

    #[test]
    fn text_from_the_data_is_escaped_and_long_labels_cut() {
        let svg = bars("x", "A <b> & \"c\"", &[Bar::new("<script>alert(1)</script> and a very long name", 1)]);
        assert!(!svg.contains("<script") && !svg.contains("<b>"));
        assert!(svg.contains("A &lt;b&gt; &amp; &quot;c&quot;"));
        assert!(svg.contains("&lt;script&gt;alert(1)&lt;/scr…</text>"), "{svg}");
        // The description keeps the whole label.
        assert!(svg.contains("&lt;/script&gt; and a very long name: 1."));
    }

    #[test]
    fn columns_label_every_step_and_mark_the_highlight() {
        let months: Vec<Bar> = (1..=24).map(|m| Bar::new(format!("m{m}"), m)).collect();
        let svg = columns("m", "Months", &months);
        // 24 columns, a label every fourth: m1, m5, ... m21.
        assert_eq!(svg.matches(r#"<text class="m""#).count(), 6, "{svg}");
        assert!(!svg.contains(r#"class="v""#), "values are left out when columns are narrow");
        let tokens = TokenScale::new([100, 600, 700, 20_000]);
        let svg = columns("t", "Tokens", &token_columns(&tokens.counts(), Some(1), |v| v.to_string()));
        assert_eq!(svg.matches("bar hl").count(), 1);
        assert!(svg.contains("&lt; 500: 1; 500–1k: 2; 1k–2k: 0; 2k–5k: 0; 5k–10k: 0; 10k +: 1."), "{svg}");
    }

    #[test]
    fn a_token_cost_ranks_against_the_others() {
        let scale = TokenScale::new([100, 600, 700, 1_500, 20_000]);
        assert_eq!(scale.counts(), [1, 2, 1, 0, 0, 1]);
        assert_eq!(scale.below(100), 0);
        assert_eq!(scale.below(700), 40);
        assert_eq!(scale.below(50_000), 100);
        assert_eq!((token_bin(0), token_bin(499), token_bin(500), token_bin(10_000)), (0, 0, 1, 5));
    }
}
