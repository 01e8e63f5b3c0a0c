//! Pictures of a recorded search ([`gamesearch::trace::Trace`]): the final searched tree as
//! Graphviz DOT or as SVG drawn here (no Graphviz needed), and a self-contained HTML page that
//! steps through the trace (its script and styles inline, no network).
//!
//! Both pictures draw the same final state ([`final_state`]): every node the trace names, laid
//! out as a tidy tree (leaves left to right in the order met, parents centred over their
//! children); MAX nodes are boxes, MIN nodes ellipses; nodes searched are solid, pruned ones
//! (named by a cut-off, never entered) dashed grey, re-searched ones drawn with a double border;
//! labels give the move, the last value returned with its bound (`= 4`, `≥ 5`, `≤ 2`), the last
//! window or TEST, a leaf's `f`, proof/disproof numbers, conspiracy sequences, B*'s interval,
//! MCTS's playouts
//! through a node with their mean reward for MAX and its proven result.

use std::fmt::Write as _;

use gamesearch::trace::{Bound, Step, Trace, Window};
use gamesearch::{Player, Score, INF};

/// What the trace leaves known about one node at its end.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeState {
    /// Entered (depth-first), expanded or evaluated.
    pub searched: bool,
    /// Named by a cut-off.
    pub pruned: bool,
    /// Searched again after a test failed high.
    pub researched: bool,
    /// Times entered.
    pub visits: u32,
    /// `f(p)`, when evaluated as a leaf.
    pub leaf: Option<Score>,
    /// The last value returned, with its bound.
    pub value: Option<(Score, Bound)>,
    /// The last TEST answer.
    pub tested: Option<bool>,
    /// The last window or TEST it was entered with.
    pub window: Option<Window>,
    /// Proof and disproof numbers.
    pub numbers: Option<(u32, u32)>,
    /// Conspiracy: value, ascending and descending sequences.
    pub conspiracy: Option<(Score, Vec<Score>, Vec<Score>)>,
    /// B*: its interval, MAX's view.
    pub interval: Option<(Score, Score)>,
    /// MCTS: playouts through the node, their mean reward for MAX, its proven result.
    pub playouts: Option<(u64, f64, Option<Score>)>,
}

/// Replays `trace` to its end.
pub fn final_state(trace: &Trace) -> Vec<NodeState> {
    let mut s = vec![NodeState::default(); trace.nodes.len()];
    for step in &trace.steps {
        match step {
            Step::Enter { node, window } => {
                let n = &mut s[*node as usize];
                n.searched = true;
                n.visits += 1;
                n.window = Some(*window);
            }
            Step::Leaf { node, value } => {
                let n = &mut s[*node as usize];
                n.searched = true;
                n.leaf = Some(*value);
            }
            Step::Cutoff { pruned, .. } => {
                for &p in pruned {
                    s[p as usize].pruned = true;
                }
            }
            Step::ReSearch { node } => s[*node as usize].researched = true,
            Step::Exit { node, value, bound } => s[*node as usize].value = Some((*value, *bound)),
            Step::Tested { node, holds } => s[*node as usize].tested = Some(*holds),
            Step::TableHit { .. } | Step::Threshold { .. } | Step::Select { .. } => {}
            Step::Expand { node, children } => {
                s[*node as usize].searched = true;
                for &c in children {
                    s[c as usize].searched = true;
                }
            }
            Step::Numbers {
                node,
                proof,
                disproof,
            } => s[*node as usize].numbers = Some((*proof, *disproof)),
            Step::Conspiracy {
                node,
                value,
                asc,
                desc,
            } => s[*node as usize].conspiracy = Some((*value, asc.clone(), desc.clone())),
            Step::Interval { node, lower, upper } => {
                s[*node as usize].interval = Some((*lower, *upper))
            }
            Step::Playout { node, .. } => s[*node as usize].searched = true,
            Step::Visits {
                node,
                visits,
                mean,
                proven,
            } => s[*node as usize].playouts = Some((*visits, *mean, *proven)),
        }
    }
    // A node pruned somewhere but searched on another visit is drawn as searched.
    for n in &mut s {
        n.pruned &= !n.searched;
    }
    s
}

/// Each node's position: `x` in slots (0, 1, …), `y` its ply. A tidy layout (Reingold and
/// Tilford): each subtree is placed as a whole, children in the order met, pushed left against
/// their left siblings as far as the contours of the two allow (one slot apart at every ply), and
/// a parent is centred over its first and last child. The page (viewer.html) lays out the same
/// way, again whenever a subtree is collapsed or expanded.
pub fn layout(trace: &Trace) -> Vec<(f64, f64)> {
    let n = trace.nodes.len();
    if n == 0 {
        return Vec::new();
    }
    let mut children = vec![Vec::new(); n];
    for node in &trace.nodes {
        if let Some(p) = node.parent {
            children[p as usize].push(node.id as usize);
        }
    }
    // Pre-order (iterative: deep trees must not overflow the stack); read backwards, every
    // child comes before its parent.
    let mut order = Vec::with_capacity(n);
    let mut todo = vec![0usize];
    while let Some(v) = todo.pop() {
        order.push(v);
        todo.extend(children[v].iter().rev());
    }
    // Each subtree's left and right contours: per ply below its root, the leftmost and the
    // rightmost slot, relative to the root.
    let mut contour: Vec<Option<(Vec<f64>, Vec<f64>)>> = vec![None; n];
    let mut rel = vec![0.0; n];
    for &v in order.iter().rev() {
        let kids = &children[v];
        if kids.is_empty() {
            contour[v] = Some((vec![0.0], vec![0.0]));
            continue;
        }
        let (mut left, mut right) = contour[kids[0]].take().expect("child laid out");
        let mut at = vec![0.0];
        for &k in &kids[1..] {
            let (l, r) = contour[k].take().expect("child laid out");
            let common = right.len().min(l.len());
            let shift = (0..common)
                .map(|d| right[d] - l[d] + 1.0)
                .fold(f64::NEG_INFINITY, f64::max);
            at.push(shift);
            for d in 0..common {
                right[d] = r[d] + shift;
            }
            for d in common..l.len() {
                left.push(l[d] + shift);
                right.push(r[d] + shift);
            }
        }
        let mid = (at[0] + at[at.len() - 1]) / 2.0;
        for (&k, &x) in kids.iter().zip(&at) {
            rel[k] = x - mid;
        }
        left.iter_mut()
            .chain(right.iter_mut())
            .for_each(|x| *x -= mid);
        left.insert(0, 0.0);
        right.insert(0, 0.0);
        contour[v] = Some((left, right));
    }
    let mut x = vec![0.0; n];
    for &v in &order {
        if let Some(p) = trace.nodes[v].parent {
            x[v] = x[p as usize] + rel[v];
        }
    }
    let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
    let root_ply = trace.nodes[0].ply;
    (0..n)
        .map(|v| (x[v] - lo, f64::from(trace.nodes[v].ply - root_ply)))
        .collect()
}

/// `±∞` for the window ends at ±INF.
pub fn score(v: Score) -> String {
    if v >= INF {
        "∞".into()
    } else if v <= -INF {
        "-∞".into()
    } else {
        v.to_string()
    }
}

/// A window as the slides write it: `(α, β)`, `null (4, 5)`, `TEST > 5`.
pub fn window_text(w: &Window) -> String {
    match *w {
        Window::None => String::new(),
        Window::Range { alpha, beta } if beta == alpha.saturating_add(1) => {
            format!("null ({}, {})", score(alpha), score(beta))
        }
        Window::Range { alpha, beta } => format!("({}, {})", score(alpha), score(beta)),
        Window::Test { v, cond } => {
            use gamesearch::depth_first::scout::Condition::*;
            let op = match cond {
                Gt => ">",
                Ge => "≥",
                Lt => "<",
                Le => "≤",
            };
            format!("TEST {op} {}", score(v))
        }
    }
}

fn number(n: u32) -> String {
    if n == u32::MAX {
        "∞".into()
    } else {
        n.to_string()
    }
}

fn seq(v: &[Score]) -> String {
    v.iter().map(|&x| score(x)).collect::<Vec<_>>().join(" ")
}

/// The lines of a node's label, from the final state.
pub fn label_lines(trace: &Trace, states: &[NodeState], id: usize) -> Vec<String> {
    let st = &states[id];
    let mut lines = vec![trace.nodes[id].label.clone()];
    if let Some(f) = st.leaf {
        lines.push(format!("f = {f}"));
    }
    if let Some((v, b)) = st.value {
        if st.leaf != Some(v) || b != Bound::Exact {
            let op = match b {
                Bound::Exact => "=",
                Bound::Lower => "≥",
                Bound::Upper => "≤",
            };
            lines.push(format!("{op} {v}"));
        }
    }
    if let Some(h) = st.tested {
        lines.push(if h { "TEST true" } else { "TEST false" }.into());
    }
    if let Some(w) = &st.window {
        let t = window_text(w);
        if !t.is_empty() {
            lines.push(t);
        }
    }
    if let Some((p, d)) = st.numbers {
        lines.push(format!("pn {} dn {}", number(p), number(d)));
    }
    if let Some((v, asc, desc)) = &st.conspiracy {
        lines.push(format!("v {v} ↑[{}] ↓[{}]", seq(asc), seq(desc)));
    }
    if let Some((lo, hi)) = st.interval {
        lines.push(format!("[{}, {}]", score(lo), score(hi)));
    }
    if let Some((n, mean, proven)) = st.playouts {
        lines.push(format!("n {n} · {mean:.2}"));
        if let Some(v) = proven {
            lines.push(format!("proven {v:+}"));
        }
    }
    if st.pruned {
        lines.push("pruned".into());
    }
    lines
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The final searched tree as Graphviz DOT (`dot -Tsvg` renders it).
pub fn dot(trace: &Trace) -> String {
    let states = final_state(trace);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "digraph \"{}\" {{\n  node [fontname=\"Helvetica\", fontsize=10];\n  edge [arrowhead=none];",
        trace.algorithm
    );
    for node in &trace.nodes {
        let i = node.id as usize;
        let st = &states[i];
        let label = label_lines(trace, &states, i)
            .iter()
            .map(|l| l.replace('\\', "\\\\").replace('"', "\\\""))
            .collect::<Vec<_>>()
            .join("\\n");
        let shape = match node.to_move {
            Player::Max => "box",
            Player::Min => "ellipse",
        };
        let mut attrs = format!("label=\"{label}\", shape={shape}");
        if st.pruned {
            attrs.push_str(", style=\"dashed\", color=\"gray\", fontcolor=\"gray\"");
        } else if !st.searched {
            attrs.push_str(", style=\"dotted\"");
        } else if st.leaf.is_some() {
            attrs.push_str(", style=\"filled\", fillcolor=\"#fff4c2\"");
        }
        if st.researched {
            attrs.push_str(", peripheries=2");
        }
        let _ = writeln!(out, "  n{} [{attrs}];", node.id);
    }
    for node in &trace.nodes {
        if let Some(p) = node.parent {
            let style = if states[node.id as usize].pruned {
                " [style=\"dashed\", color=\"gray\"]"
            } else {
                ""
            };
            let _ = writeln!(out, "  n{p} -> n{}{style};", node.id);
        }
    }
    out.push_str("}\n");
    out
}

const SLOT: f64 = 96.0;
const LEVEL: f64 = 110.0;
const MARGIN: f64 = 60.0;

/// The final searched tree as SVG, drawn here (no Graphviz needed).
pub fn svg(trace: &Trace) -> String {
    let states = final_state(trace);
    let pos = layout(trace);
    let width = pos.iter().map(|p| p.0).fold(0.0, f64::max) * SLOT + 2.0 * MARGIN;
    let height = pos.iter().map(|p| p.1).fold(0.0, f64::max) * LEVEL + 2.0 * MARGIN + 40.0;
    let at = |i: usize| (MARGIN + pos[i].0 * SLOT, MARGIN + 10.0 + pos[i].1 * LEVEL);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">"
    );
    let title = match trace.value {
        Some(v) => format!("{}: value {v}", trace.algorithm),
        None => format!("{}: no value", trace.algorithm),
    };
    let _ = writeln!(
        out,
        "<text x=\"{MARGIN}\" y=\"22\" font-size=\"14\" font-weight=\"bold\">{}</text>",
        escape(&title)
    );
    for node in &trace.nodes {
        if let Some(p) = node.parent {
            let (x1, y1) = at(p as usize);
            let (x2, y2) = at(node.id as usize);
            let dash = if states[node.id as usize].pruned {
                " stroke-dasharray=\"4 3\" stroke=\"#aaa\""
            } else {
                " stroke=\"#555\""
            };
            let _ = writeln!(
                out,
                "<line x1=\"{x1:.1}\" y1=\"{:.1}\" x2=\"{x2:.1}\" y2=\"{:.1}\"{dash}/>",
                y1 + 14.0,
                y2 - 14.0
            );
        }
    }
    for node in &trace.nodes {
        let i = node.id as usize;
        let st = &states[i];
        let (x, y) = at(i);
        let (stroke, fill, dash) = if st.pruned {
            ("#aaa", "#fafafa", " stroke-dasharray=\"4 3\"")
        } else if st.leaf.is_some() {
            ("#333", "#fff4c2", "")
        } else if st.searched {
            ("#333", "#ffffff", "")
        } else {
            ("#999", "#ffffff", " stroke-dasharray=\"1 2\"")
        };
        let width = if st.researched { 3 } else { 1 };
        let shape = match node.to_move {
            Player::Max => format!(
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"36\" height=\"28\" rx=\"2\"",
                x - 18.0,
                y - 14.0
            ),
            Player::Min => format!("<ellipse cx=\"{x:.1}\" cy=\"{y:.1}\" rx=\"20\" ry=\"14\""),
        };
        let _ = writeln!(
            out,
            "<g class=\"node\" id=\"n{i}\">{shape} fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}/>"
        );
        let lines = label_lines(trace, &states, i);
        let color = if st.pruned { "#999" } else { "#000" };
        let _ = writeln!(
            out,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"{color}\" font-weight=\"bold\">{}</text>",
            y + 4.0,
            escape(&lines[0])
        );
        for (k, l) in lines[1..].iter().enumerate() {
            let _ = writeln!(
                out,
                "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"{color}\" font-size=\"9\" \
             stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">{}</text>",
                y + 27.0 + 11.0 * k as f64,
                escape(l)
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// The step-through page: one panel per trace (side by side, one step control), the tree
/// growing as the steps replay on a canvas that zooms, pans, fits, follows the current node and
/// collapses subtrees, the current step's window or threshold, the counters. `boards`, where
/// given, holds each panel's positions in the `game` notation (one per node, as
/// [`crate::serve::trace_boards`] makes them), drawn as a small board when a node is hovered or
/// selected. Its script and styles are inline; the traces are embedded as JSON.
pub fn html(
    title: &str,
    traces: &[Trace],
    boards: &[Option<Vec<String>>],
) -> Result<String, serde_json::Error> {
    let panels: Vec<serde_json::Value> = traces
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let b = boards.get(i).and_then(Option::as_ref);
            Ok(serde_json::json!({ "trace": serde_json::to_value(t)?, "boards": b }))
        })
        .collect::<Result<_, serde_json::Error>>()?;
    // `</` must not appear inside the script element.
    let data = serde_json::to_string(&panels)?.replace("</", "<\\/");
    Ok(include_str!("viewer.html")
        .replace("{{BOARDS_JS}}", include_str!("boards.js"))
        .replace("{{TITLE}}", &escape(title))
        .replace("{{DATA}}", &data))
}
