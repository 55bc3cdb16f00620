//! Multi-ProbCut (Buro, 1997): a shallow search predicts a deep one.
//!
//! At a node searched `d` plies deep, a search [`shallow_depth`]`(d)` plies
//! deep is run first. Its value `v` and the deep value `V` agree up to an
//! error whose spread ([`sigma`]) depends on the empties and the depth, so
//! when `v` lies `t` spreads above beta (or below alpha) the deep search is
//! almost surely cut there too, and is skipped. `t` is the caller's choice
//! (the [`Limits::selectivity`](super::Limits::selectivity)): the larger,
//! the rarer a wrong cut and the smaller the saving.
//!
//! The spreads were fitted with `examples/probcut_fit.rs` on positions of
//! real games (`examples/real_positions.rs`), searched with the shipped
//! evaluation; the book's chapter on the computer player,
//! `docs/src/computer/design.md`, gives the figures. A new evaluation
//! calls for a new fit: a more accurate one has smaller spreads.

/// The shallowest node at which a cut is tried.
pub const MIN_DEPTH: u32 = 3;

/// The depth of the predicting search for a node `depth` plies deep: about
/// half, and of the same parity (a search to an odd depth ends on the
/// mover's reply, which the evaluation judges differently).
pub const fn shallow_depth(depth: u32) -> u32 {
    depth - 2 * depth.div_ceil(4)
}

/// The threshold the computer player and analysis use, in hundredths of a
/// spread: a cut is wrong about once in fifteen tries where it is tried
/// at all (a normal error beyond 1.5 σ), and most cuts are far beyond it.
pub const SELECTIVITY: u32 = 150;

/// No value lies beyond this (a full board won by 64), in hundredths.
pub const MAX_VALUE: i32 = 64 * super::midgame::EXACT_SCALE;

/// The spread, in hundredths of a disc, of the value of a node `depth`
/// plies deep with `empties` empty squares around the value of the search
/// `shallow_depth(depth)` plies deep: `578 - 8.79 e + 5.52 d`, fitted on
/// 1,720 positions of real games at 14–56 empties and depths 3–10 (at
/// least one disc).
pub fn sigma(empties: u32, depth: u32) -> i32 {
    let fitted = 57_810 - 879 * empties as i32 + 552 * depth as i32;
    (fitted / 100).max(100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shallow_search_is_about_half_as_deep_and_of_the_same_parity() {
        for depth in MIN_DEPTH..=60 {
            let shallow = shallow_depth(depth);
            assert!(shallow >= 1 && shallow < depth, "{depth} -> {shallow}");
            assert_eq!(shallow % 2, depth % 2, "{depth} -> {shallow}");
            assert!(
                shallow * 2 + 3 >= depth && shallow * 2 <= depth + 1,
                "{depth} -> {shallow}"
            );
        }
    }

    #[test]
    fn the_spread_is_a_few_discs_and_never_below_one() {
        assert_eq!(sigma(40, 8), 270);
        for empties in 1..=60 {
            for depth in MIN_DEPTH..=60 {
                assert!((100..=1_000).contains(&sigma(empties, depth)));
            }
        }
    }
}
