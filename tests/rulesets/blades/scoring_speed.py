"""What a search rollout's cut-off scoring costs: nanoseconds a call of `project_rp` and `final_scoring` (the
search's `finish_rollout` scores a cut-off position so) on saved mid-tournament positions.

    PYTHONPATH=<tree> python tests/rulesets/blades/scoring_speed.py 2000

plays greedy tournaments of every ordered pair of the bundled decks under the default options (4 seats), seeds 1-5,
and keeps the position after 4, 8, 12 and 16 turns (those not over), then scores each kept position REPS times in
one compiled loop (each seat's RP put back before every call) and prints the best of three passes as nanoseconds a
call, with a digest of seat A's VP and RP (the same digest in two trees says they scored the same). Times the
number of cut-off rollouts a tournament plays (a searched decision's budget, `search_speed.py`), it says what share
of a searched tournament the scoring is.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
from numba import njit

import workbench.rulesets.blades.engine as E
from workbench.bench import bundled_cardset_and_decks
from workbench.play.policies import GREEDY
from workbench.rulesets.blades import RULESET as BLADES
from workbench.simulate import compile_for

CUT_AFTER = (4, 8, 12, 16)
"""The turns after which a position is kept."""


def positions() -> list[tuple[Any, Any]]:
    """(game data, state record) of every kept position."""
    cardset, decklists = bundled_cardset_and_decks(BLADES)
    _, compiled, _ = compile_for(cardset, None)
    decks = [compiled.deck_array(deck) for deck in decklists]
    kept = []
    for deck_a in decks:
        for deck_b in decks:
            cards = E.batch_cards(compiled, deck_a, deck_b)
            for seed in range(1, 6):
                for turns in CUT_AFTER:
                    st = E.new_state(compiled.options)
                    st.store[: len(cards.store)] = cards.store
                    E.setup_tournament(
                        cards.g, st, cards.deck_a, cards.deck_b, seed, seed % 2, GREEDY, GREEDY, len(cards.store),
                        cards.meta,
                    )  # fmt: skip
                    E.open_tournament(cards.g, st)
                    for _ in range(turns):
                        if E.is_over(st):
                            break
                        E.play_turn_out(cards.g, st)
                        E.advance(cards.g, st, False)
                    if not E.is_over(st):
                        kept.append((cards.g, st))
    return kept


@njit(cache=False)
def score_many(g: Any, st: Any, reps: int, vp_round: Any) -> int:
    """Score the position `reps` times, each seat's RP put back before each; seat A's VP and RP of the last."""
    players = st.game[E.G_PLAYERS]
    rp = np.empty(players, dtype=np.int64)
    for q in range(players):
        rp[q] = st.side[q, E.S_RP]
    for _ in range(reps):
        for q in range(players):
            st.side[q, E.S_RP] = rp[q]
        E.project_rp(st)
        E.final_scoring(g, st, vp_round)
    result = st.side[0, E.S_VP] * 1000 + st.side[0, E.S_RP]
    for q in range(players):
        st.side[q, E.S_RP] = rp[q]
    return result


def main(reps: int) -> None:
    kept = positions()
    g, st = kept[0]
    score_many(g, st, 1, np.int64(st.options[E.O_VP_ROUND]))  # compiles
    best = float("inf")
    digest = 0
    for _ in range(3):
        digest = 0
        start = time.process_time()
        for g, st in kept:
            digest = (digest * 31 + int(score_many(g, st, reps, np.int64(st.options[E.O_VP_ROUND])))) % (1 << 61)
        best = min(best, time.process_time() - start)
    print(f"{len(kept)} positions, {best / (len(kept) * reps) * 1e9:.1f} ns a call, digest {digest}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
