//! Explicit game trees written as text, with named nodes, so the literature's worked examples are tests.
//!
//! # The text form
//! ```text
//! tree  := node | leaf
//! node  := '(' [NAME] ('max' | 'min') [':'] ['=' INT] item* ')'
//! leaf  := [NAME '='] INT
//! ```
//! Commas and whitespace separate items; `#` starts a comment to the end of the line. Nodes nest
//! at most [`MAX_DEPTH`] levels deep (deeper text is refused with an error, so that neither the
//! parser nor a search recursing down such a tree can run out of stack). An interior
//! node's optional `=INT` is its static value `f(p)`, used when a horizon cuts the tree there
//! (default 0). Any node may be `max` or `min` whatever its parent is, so turns need not
//! alternate. Cater's conspiracy example, `A(max): B(min: D=7, E=4), C(min: F=2, G=3)`, reads
//! `(A max (B min D=7 E=4) (C min F=2 G=3))`.
//!
//! The tree records the leaves each search evaluates ([`ExplicitTree::evaluated`]), so a test
//! can say which leaves an algorithm looked at.

use std::ops::Range;
use std::sync::Mutex;

use crate::engine::Heuristic;
use crate::error::Error;
use crate::game::{Game, Player, PositionKey, Score, INF};
use crate::solver::SolverKnowledge;

/// The deepest nesting of nodes the text form accepts: 1,000 levels, far beyond any worked
/// example (the literature's are under 10) and well within the stack every search needs per
/// level.
pub const MAX_DEPTH: usize = 1000;

/// The largest tree file read: 64 MiB (millions of nodes; larger trees are better generated).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// One node of an explicit tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplicitNode {
    /// The name, if the text gave one.
    pub name: Option<String>,
    /// Who moves here (leaves are `Max`; it does not matter).
    pub to_move: Player,
    /// `f(p)`: the leaf value, or the interior node's static value.
    pub value: Score,
    /// Children, as indices into the arena.
    pub children: Vec<u32>,
}

/// An explicit tree: an arena of nodes, root at index 0.
///
/// ```
/// use gamesearch::{depth_first::DepthFirst, trees::ExplicitTree, Limits};
/// let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
/// let r = gamesearch::depth_first::search(&tree.root(), DepthFirst::AlphaBeta, tree.height(), &Limits::none());
/// assert_eq!(r.value, Some(4));
/// assert_eq!(tree.evaluated(), ["D", "E", "F"]); // G is cut off
/// ```
#[derive(Debug)]
pub struct ExplicitTree {
    nodes: Vec<ExplicitNode>,
    log: Mutex<Vec<u32>>,
}

/// A position in an [`ExplicitTree`]: a node index.
#[derive(Clone, Copy, Debug)]
pub struct ExplicitPosition<'a> {
    tree: &'a ExplicitTree,
    node: u32,
}

impl ExplicitTree {
    /// Parses the text form (see the module doc).
    pub fn parse(text: &str) -> Result<ExplicitTree, Error> {
        let mut p = Parser {
            text,
            pos: 0,
            nodes: Vec::new(),
            depth: 0,
        };
        p.item()?;
        p.skip();
        if p.pos < text.len() {
            return Err(p.error("unexpected text after the tree"));
        }
        Ok(ExplicitTree {
            nodes: p.nodes,
            log: Mutex::new(Vec::new()),
        })
    }

    /// Reads and parses a file: a regular file of at most [`MAX_FILE_BYTES`] (a device such as
    /// `/dev/zero` or a huge file is an error, not an endless read).
    pub fn from_file(path: &str) -> Result<ExplicitTree, Error> {
        let refuse = |message: String| Error::TreeFile {
            path: path.to_string(),
            message,
        };
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => return Err(refuse("not a regular file".into())),
            Ok(m) if m.len() > MAX_FILE_BYTES => {
                return Err(refuse(format!(
                    "{} is larger than the {} a tree file may have",
                    crate::error::human_bytes(usize::try_from(m.len()).unwrap_or(usize::MAX)),
                    crate::error::human_bytes(MAX_FILE_BYTES as usize)
                )))
            }
            _ => {}
        }
        let text = std::fs::read_to_string(path).map_err(|e| Error::TreeFile {
            path: path.to_string(),
            message: match e.kind() {
                std::io::ErrorKind::NotFound => "no such file".to_string(),
                _ => e.to_string(),
            },
        })?;
        Self::parse(&text)
    }

    /// The root position.
    pub fn root(&self) -> ExplicitPosition<'_> {
        ExplicitPosition {
            tree: self,
            node: 0,
        }
    }

    /// All nodes (root first).
    pub fn nodes(&self) -> &[ExplicitNode] {
        &self.nodes
    }

    /// The length of the longest root-to-leaf path: the depth that searches the whole tree.
    pub fn height(&self) -> u32 {
        fn h(t: &ExplicitTree, n: u32) -> u32 {
            let c = &t.nodes[n as usize].children;
            c.iter().map(|&k| 1 + h(t, k)).max().unwrap_or(0)
        }
        h(self, 0)
    }

    /// The names (or `#index` for unnamed nodes) of the nodes evaluated since the last
    /// [`clear_log`](Self::clear_log), in order.
    pub fn evaluated(&self) -> Vec<String> {
        self.log().iter().map(|&n| self.label(n)).collect()
    }

    /// The evaluation log (a mutex, so that trees can be searched from several threads).
    fn log(&self) -> std::sync::MutexGuard<'_, Vec<u32>> {
        self.log.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets the evaluation log.
    pub fn clear_log(&self) {
        self.log().clear();
    }

    fn label(&self, n: u32) -> String {
        match &self.nodes[n as usize].name {
            Some(s) => s.clone(),
            None => format!("#{n}"),
        }
    }
}

impl<'a> ExplicitPosition<'a> {
    /// The node this position is.
    pub fn node(&self) -> &'a ExplicitNode {
        &self.tree.nodes[self.node as usize]
    }
}

impl Game for ExplicitPosition<'_> {
    /// The index of the child among its siblings (0-based).
    type Move = u32;
    type Moves = Range<u32>;

    fn to_move(&self) -> Player {
        self.node().to_move
    }

    fn moves(&self) -> Range<u32> {
        0..self.node().children.len() as u32
    }

    fn play(&self, m: u32) -> Self {
        ExplicitPosition {
            tree: self.tree,
            node: self.node().children[m as usize],
        }
    }

    fn evaluate(&self) -> Score {
        self.tree.log().push(self.node);
        self.node().value
    }

    fn move_name(&self, m: u32) -> String {
        let child = self.node().children[m as usize];
        match &self.tree.nodes[child as usize].name {
            Some(s) => s.clone(),
            None => (m + 1).to_string(),
        }
    }
}

impl PositionKey for ExplicitPosition<'_> {
    fn key(&self) -> u64 {
        // A node is its own position (a tree has no transpositions).
        u64::from(self.node).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5851_F42D_4C95_7F2D
    }
}

/// No knowledge beyond the tree: the solver's defaults.
impl SolverKnowledge for ExplicitPosition<'_> {}

/// The engine scores the horizon with `f(p)` itself.
impl Heuristic for ExplicitPosition<'_> {}

struct Parser<'t> {
    text: &'t str,
    pos: usize,
    nodes: Vec<ExplicitNode>,
    /// Nodes open at `pos` (at most [`MAX_DEPTH`]).
    depth: usize,
}

impl<'t> Parser<'t> {
    fn error(&self, message: &str) -> Error {
        Error::TreeParse {
            column: self.text[..self.pos].chars().count() + 1,
            message: message.to_string(),
        }
    }

    fn rest(&self) -> &'t str {
        &self.text[self.pos..]
    }

    /// Skips whitespace, commas and comments.
    fn skip(&mut self) {
        loop {
            let r = self.rest();
            let trimmed = r.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
            self.pos += r.len() - trimmed.len();
            if trimmed.starts_with('#') {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return;
            }
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip();
        self.rest().chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// A word: a name, keyword or number.
    fn word(&mut self) -> Option<&'t str> {
        self.skip();
        let r = self.rest();
        let len = r
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '\'' || c == '+'))
            .unwrap_or(r.len());
        if len == 0 {
            return None;
        }
        self.pos += len;
        Some(&self.text[self.pos - len..self.pos])
    }

    fn number(&mut self) -> Result<Score, Error> {
        let start = self.pos;
        let Some(w) = self.word() else {
            return Err(self.error("expected a number"));
        };
        match w.parse::<i64>() {
            Ok(v) if v.unsigned_abs() < INF as u64 => Ok(v as Score),
            Ok(_) => {
                self.pos = start;
                Err(self.error(&format!("value {w} out of range (|v| < {INF})")))
            }
            Err(_) => {
                self.pos = start;
                Err(self.error(&format!("expected a number, found `{w}`")))
            }
        }
    }

    fn push(&mut self, name: Option<String>, to_move: Player, value: Score) -> u32 {
        self.nodes.push(ExplicitNode {
            name,
            to_move,
            value,
            children: Vec::new(),
        });
        self.nodes.len() as u32 - 1
    }

    /// Parses a node or a leaf; returns its index.
    fn item(&mut self) -> Result<u32, Error> {
        match self.peek() {
            None => Err(self.error("expected a node `(…)` or a leaf value, found the end")),
            Some('(') => {
                self.pos += 1;
                self.interior()
            }
            Some(_) => {
                let start = self.pos;
                let Some(w) = self.word() else {
                    return Err(self.error("expected a node `(…)` or a leaf value"));
                };
                let w = w.to_string();
                if self.eat('=') {
                    let v = self.number()?;
                    Ok(self.push(Some(w), Player::Max, v))
                } else {
                    self.pos = start;
                    let v = self.number()?;
                    Ok(self.push(None, Player::Max, v))
                }
            }
        }
    }

    fn interior(&mut self) -> Result<u32, Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(&format!(
                "the tree nests deeper than {MAX_DEPTH} levels (the most the text form accepts)"
            )));
        }
        let r = self.interior_node();
        self.depth -= 1;
        r
    }

    fn interior_node(&mut self) -> Result<u32, Error> {
        let start = self.pos;
        let Some(mut first) = self.word() else {
            return Err(self.error("expected a name or `max`/`min` after `(`"));
        };
        let mut name = None;
        if first != "max" && first != "min" {
            name = Some(first.to_string());
            let Some(w) = self.word() else {
                return Err(self.error("expected `max` or `min`"));
            };
            first = w;
        }
        let to_move = match first {
            "max" => Player::Max,
            "min" => Player::Min,
            other => {
                self.pos = start;
                return Err(self.error(&format!("expected `max` or `min`, found `{other}`")));
            }
        };
        self.eat(':');
        let value = if self.eat('=') { self.number()? } else { 0 };
        let me = self.push(name, to_move, value);
        let mut children = Vec::new();
        loop {
            match self.peek() {
                Some(')') => {
                    self.pos += 1;
                    break;
                }
                None => return Err(self.error("missing `)`")),
                Some(_) => children.push(self.item()?),
            }
        }
        if children.is_empty() {
            return Err(self.error("an interior node needs at least one child"));
        }
        self.nodes[me as usize].children = children;
        Ok(me)
    }
}
