"""The fit behind the Blades search's cut-off evaluation (`engine.EVAL_PLAY_TENTHS`, `project_rp`).

    PYTHONPATH=<tree> python tests/rulesets/blades/search_eval_fit.py 500

plays `matches` greedy-against-greedy mirror tournaments of each bundled deck at 2 and 4 players (seeds 500,001 on,
first player alternating) and, at the start of every turn, scores the position as the cut-off does: a clone scored
as if the tournament ended there (`final_scoring`: Score clauses, the metagame), each seat's singles still to play
counted apart. The worth of a single still to play is the least-squares slope, through the origin, of the RP the
seat went on to gain beyond that score against its singles still to play. Printed: the slope in tenths of an RP,
and how often the seat first by the projected RP was first at the end (ties excluded), with the slope and without.
"""

from __future__ import annotations

import sys

import numpy as np

import workbench.rulesets.blades.engine as E
from workbench.bench import bundled_cardset_and_decks
from workbench.play.policies import GREEDY
from workbench.rulesets.blades import RULESET as BLADES
from workbench.simulate import compile_for


def positions(players: int, matches: int) -> list[tuple[list[int], list[int], list[int]]]:
    """(score if it ended now, singles still to play, final RP) per seat, at the start of every turn."""
    cardset, decks = bundled_cardset_and_decks(BLADES)
    _, comp, _ = compile_for(cardset, {"players": str(players)})
    st, sim = E.new_state(comp.options), E.new_state(comp.options)
    rows = []
    for deck in decks:
        ids = comp.deck_array(deck)
        cards = E.batch_cards(comp, ids, ids)
        g, store = cards.g, cards.store
        for m in range(matches):
            st.store[: len(store)] = store
            E.setup_tournament(
                g, st, cards.deck_a, cards.deck_b, 500_001 + m, m % 2, GREEDY, GREEDY, len(store), cards.meta
            )
            seen = []
            E.open_tournament(g, st)
            while not E.is_over(st):
                # At a turn's first decision: the position scored as if the tournament ended now.
                E.clone(st, sim)
                plays = [
                    int(min(st.side[q, E.S_HAND], st.side[q, E.S_SLOTS] - st.side[q, E.S_USED])) for q in range(players)
                ]
                E.final_scoring(g, sim, int(st.options[E.O_VP_ROUND]))
                seen.append(([int(sim.side[q, E.S_RP]) for q in range(players)], plays))
                E.play_turn_out(g, st)
                E.advance(g, st, False)  # to the next turn's first decision, or the end and the final scoring
            final = [int(st.side[q, E.S_RP]) for q in range(players)]
            rows += [(now, plays, final) for now, plays in seen]
    return rows


def main(matches: int) -> None:
    for players in (2, 4):
        rows = positions(players, matches)
        now = np.array([r[0] for r in rows], dtype=float)
        plays = np.array([r[1] for r in rows], dtype=float)
        final = np.array([r[2] for r in rows], dtype=float)
        slope = float(((final - now) * plays).sum() / (plays * plays).sum())
        winner = final.argmax(axis=1)
        decided = (final == final.max(axis=1, keepdims=True)).sum(axis=1) == 1
        for label, w in (("without", 0.0), ("with", round(slope * 10) / 10)):
            projected = now + np.round(plays * w)
            right = (projected.argmax(axis=1) == winner)[decided].mean()
            print(f"players={players}: {len(rows)} positions, {label} singles to play: first place right {right:.3f}")
        print(f"players={players}: a single still to play is worth {slope:.2f} RP ({round(slope * 10)} tenths)")


if __name__ == "__main__":
    main(int(sys.argv[1]))
