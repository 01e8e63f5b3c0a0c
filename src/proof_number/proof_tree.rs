//! Proof and disproof trees, extracted from a solved PN tree and checked independently against
//! the game.

use crate::game::{Game, Player, Score};

/// A proof (or disproof) tree: the move that leads here (None at the root) and the subtrees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofTree<M> {
    /// The move from the parent.
    pub mv: Option<M>,
    /// One child at the chooser's nodes, every child at the others, none at leaves.
    pub children: Vec<ProofTree<M>>,
}

impl<M> ProofTree<M> {
    /// Nodes in the tree.
    pub fn size(&self) -> usize {
        1 + self.children.iter().map(ProofTree::size).sum::<usize>()
    }
}

/// Checks that `tree` proves `V(game) >= v` (when `proof`) or disproves it (`V < v`) for the
/// tree cut at `depth`, by replaying it on the game: every leaf is a horizon or game-end node
/// whose `f` is on the right side of `v`; at the chooser's nodes (MAX for a proof, MIN for a
/// disproof) the one child is a legal move; at the other nodes the children are exactly the
/// legal moves, in order.
///
/// ```
/// use gamesearch::proof_number::{check_proof, pn_search_tree, PnConfig};
/// use gamesearch::trees::ExplicitTree;
/// let t = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
/// let (_, tree) = pn_search_tree(&t.root(), 4, &PnConfig::new(2));
/// let proof = tree.proof_tree().unwrap();
/// assert!(check_proof(&t.root(), &proof, 4, 2, true).is_ok());
/// assert!(check_proof(&t.root(), &proof, 5, 2, true).is_err());
/// ```
pub fn check_proof<G: Game>(
    game: &G,
    tree: &ProofTree<G::Move>,
    v: Score,
    depth: u32,
    proof: bool,
) -> Result<(), String> {
    let moves: Vec<G::Move> = if depth == 0 {
        Vec::new()
    } else {
        game.moves().collect()
    };
    if moves.is_empty() {
        let f = game.evaluate();
        if !tree.children.is_empty() {
            return Err(format!("a leaf (f = {f}) has children in the proof"));
        }
        return if (f >= v) == proof {
            Ok(())
        } else {
            Err(format!(
                "leaf f = {f} does not {} v = {v}",
                if proof { "reach" } else { "stay below" }
            ))
        };
    }
    if tree.children.is_empty() {
        return Err("an interior node is left open".into());
    }
    let chooser = (game.to_move() == Player::Max) == proof;
    if chooser {
        if tree.children.len() != 1 {
            return Err(format!(
                "{} children where the chooser picks one",
                tree.children.len()
            ));
        }
        let c = &tree.children[0];
        let m = c.mv.ok_or("a child without a move")?;
        if !moves.contains(&m) {
            return Err(format!("illegal move {m:?}"));
        }
        check_proof(&game.play(m), c, v, depth - 1, proof)
    } else {
        let given: Vec<Option<G::Move>> = tree.children.iter().map(|c| c.mv).collect();
        let all: Vec<Option<G::Move>> = moves.iter().copied().map(Some).collect();
        if given != all {
            return Err("the opponent's moves are not all covered".into());
        }
        for c in &tree.children {
            check_proof(&game.play(c.mv.expect("checked")), c, v, depth - 1, proof)?;
        }
        Ok(())
    }
}
