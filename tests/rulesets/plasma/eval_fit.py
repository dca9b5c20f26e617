"""Fit the plasma search's evaluation (engine.py's EVAL_* weights) to who wins from greedy-against-greedy positions.

    PYTHONPATH=<tree> python tests/rulesets/plasma/eval_fit.py 3000

plays `matches` greedy mirror matches of each bundled deck (seeds 400,001 on, first player alternating, default
options) and records every position where a search rollout can be cut off: the end of each turn, before the next
turn starts (the match is stopped there by lowering the turn cap, as a rollout is, then taken up again). Each
position is read from both sides' view (the side's features less the other's, and +1 / -1 for the side whose turn
is next) and labelled with whether that side went on to win (drawn matches left out). A logistic regression (Newton
steps, no penalty) of the label on the features gives the weights; they are printed scaled so that EVAL_HALF (100)
is the advantage a fitted win chance of 3/4 takes (ln 3 in the fit's units), with the fit's log loss beside that of
Healthshards alone and of the weights as the engine has them (rounded).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets import RULESETS
from workbench.rulesets.plasma import engine as E
from workbench.simulate import compile_for

NAMES = ("life", "power", "resolve_left", "creatures", "hand", "battlefield", "tempo", "mover_life", "mover_power")
"""The features, in the order of EVAL_LIFE, EVAL_POWER, EVAL_RESOLVE, EVAL_CREATURE, EVAL_HAND, EVAL_BATTLEFIELD,
EVAL_TEMPO."""


def side_features(st: Any, p: int) -> list[float]:
    """p's features as `search_side_worth` reads them (tempo apart; Healthshards not yet capped)."""
    board = st.board[p, : int(st.side[p, E.S_BOARD])]
    left = np.maximum(board[:, E.B_RESOLVE] - board[:, E.B_DAMAGE], 0)
    return [
        int(st.side[p, E.S_LIFE]),
        int(board[:, E.B_POWER].sum()),
        int(left.sum()),
        len(board),
        int(st.side[p, E.S_HAND]),
        1 if st.side[p, E.S_BATTLEFIELD] >= 0 else 0,
    ]


def positions(matches: int) -> tuple[Any, Any, Any]:
    """(the side's features, the other side's, labels) of every end-of-turn position, both views (tempo the side's
    last feature, 0 the other's), of `matches` greedy mirrors of each deck."""
    cardset = load_cardset(bundled_sets("plasma")[0], RULESETS["plasma"])
    _, compiled, _ = compile_for(cardset, {})
    mine_rows: list[list[float]] = []
    theirs_rows: list[list[float]] = []
    labels: list[int] = []
    cap = int(compiled.options[E.O_TURN_CAP])
    for path in bundled_decks("plasma"):
        deck = compiled.deck_array(read_decklist(path, cardset))
        pair = E.pairing(compiled.table, deck, deck)
        for m in range(matches):
            st = E.new_state(compiled.options.copy())
            first = m % 2
            E.setup_match(pair.table, st, pair.deck_a, pair.deck_b, np.int64(400_001 + m), np.int8(first), 0, 0)
            seen: list[tuple[list[float], list[float], int]] = []
            for turn in range(1, cap + 1):
                # Stop at the end of turn `turn`, as a rollout's cut-off does, then take the match up again.
                st.options[E.O_TURN_CAP] = turn
                E.play_on(pair.table, st, 0)
                if st.game[E.G_WINNER] >= 0 or turn == cap:
                    break
                mover = first if turn % 2 == 0 else 1 - first
                seen.append((side_features(st, 0), side_features(st, 1), mover))
                st.game[E.G_OVER] = 0
                st.game[E.G_STAGE] = E.STAGE_TURN  # the cap ended it before the next turn's start
            winner = int(st.game[E.G_WINNER])
            if winner < 0:
                continue
            for a, b, mover in seen:
                for p, mine, theirs in ((0, a, b), (1, b, a)):
                    mine_rows.append([*mine, 1 if mover == p else -1])
                    theirs_rows.append([*theirs, 0])
                    labels.append(1 if winner == p else 0)
    return np.array(mine_rows, dtype=float), np.array(theirs_rows, dtype=float), np.array(labels, dtype=float)


def fit(x: Any, y: Any) -> Any:
    """Logistic regression weights (no intercept: the views are symmetric) by Newton steps."""
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (y - p)
        hessian = (x * (p * (1 - p))[:, None]).T @ x
        w += np.linalg.solve(hessian + 1e-9 * np.eye(len(w)), gradient)
    return w


def log_loss(x: Any, y: Any, w: Any) -> float:
    p = np.clip(1 / (1 + np.exp(-x @ w)), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(matches: int) -> None:
    mine, theirs, y = positions(matches)
    for life_cap in (10, 15, 20, 25, 30, 1000):
        capped = [np.concatenate([np.minimum(side[:, :1], life_cap), side[:, 1:]], axis=1) for side in (mine, theirs)]
        x = capped[0] - capped[1]
        # The mover's terms: +1 / -1 (tempo) times the sum of both sides' Healthshards, and of their power, so the
        # mover's and the other side's count differently (mover's = the weight plus this, the other's = less it).
        tempo = capped[0][:, 6:7]
        both = capped[0] + capped[1]
        x = np.concatenate([x, tempo * both[:, :1], tempo * both[:, 1:2]], axis=1)
        w = fit(x, y)
        scale = E.EVAL_HALF / np.log(3)
        weights = np.round(w * scale).astype(int)
        life_only = fit(x[:, :1], y)
        print(
            f"life cap {life_cap}: {len(y)} positions; log loss {log_loss(x, y, w):.4f} "
            f"(Healthshards alone {log_loss(x[:, :1], y, life_only):.4f}, rounded weights "
            f"{log_loss(x, y, weights / scale):.4f})"
        )
        print("  " + ", ".join(f"{name} {value}" for name, value in zip(NAMES, weights, strict=True)))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)
