//! A small SVG line plot (log-scale y), enough for "leaves vs depth" figures without a plotting
//! dependency.

use std::fmt::Write;

/// One line of a plot.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// (x, y) points, y > 0.
    pub points: Vec<(f64, f64)>,
    /// CSS colour.
    pub color: &'static str,
    /// Dashed line (e.g. published figures).
    pub dashed: bool,
}

/// Renders `series` as an SVG document with a log10 y axis.
///
/// ```
/// use gamesearch_cli::experiments::svg::{line_plot, Series};
/// let s = Series { name: "a".into(), points: vec![(2.0, 10.0), (3.0, 100.0)], color: "red", dashed: false };
/// let svg = line_plot("t", "depth", "leaves", &[s]);
/// assert!(svg.starts_with("<svg") && svg.contains("polyline"));
/// ```
pub fn line_plot(title: &str, x_label: &str, y_label: &str, series: &[Series]) -> String {
    let (w, h) = (720.0, 460.0);
    let (left, right, top, bottom) = (70.0, 200.0, 40.0, 50.0);
    let pts = series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y.max(1e-9));
        y1 = y1.max(y);
    }
    if x0 >= x1 {
        x1 = x0 + 1.0;
    }
    let (ly0, ly1) = (
        y0.log10().floor(),
        y1.log10().ceil().max(y0.log10().floor() + 1.0),
    );
    let px = |x: f64| left + (x - x0) / (x1 - x0) * (w - left - right);
    let py = |y: f64| top + (ly1 - y.max(1e-9).log10()) / (ly1 - ly0) * (h - top - bottom);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" font-size="15" text-anchor="middle">{}</text>"#,
        (w - right + left) / 2.0,
        esc(title)
    );
    // Axes, grid and ticks.
    let _ = writeln!(
        s,
        r#"<path d="M{left},{top} V{} H{}" stroke="black" fill="none"/>"#,
        h - bottom,
        w - right
    );
    let mut e = ly0;
    while e <= ly1 {
        let y = py(10f64.powf(e));
        let _ = writeln!(
            s,
            r##"<line x1="{left}" x2="{}" y1="{y}" y2="{y}" stroke="#ddd"/>"##,
            w - right
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">1e{}</text>"#,
            left - 6.0,
            y + 4.0,
            e as i32
        );
        e += 1.0;
    }
    let mut x = x0.ceil();
    while x <= x1 {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{x}</text>"#,
            px(x),
            h - bottom + 18.0
        );
        x += 1.0;
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        px((x0 + x1) / 2.0),
        h - 12.0,
        esc(x_label)
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate(18,{}) rotate(-90)" text-anchor="middle">{}</text>"#,
        (top + h - bottom) / 2.0,
        esc(y_label)
    );
    for (i, ser) in series.iter().enumerate() {
        let dash = if ser.dashed {
            r#" stroke-dasharray="6,4""#
        } else {
            ""
        };
        let line: Vec<String> = ser
            .points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"{dash}/>"#,
            line.join(" "),
            ser.color
        );
        for &(x, y) in &ser.points {
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{}"/>"#,
                px(x),
                py(y),
                ser.color
            );
        }
        let ly = top + 10.0 + 20.0 * i as f64;
        let lx = w - right + 15.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" x2="{}" y1="{ly}" y2="{ly}" stroke="{}" stroke-width="2"{dash}/><text x="{}" y="{}">{}</text>"#,
            lx + 25.0,
            ser.color,
            lx + 30.0,
            ly + 4.0,
            esc(&ser.name)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn esc(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
