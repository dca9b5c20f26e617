"""How the SOURCE search's evaluation weights (engine.py, EVAL_*) were fitted: a logistic fit of who went on to win
from the positions of greedy-against-greedy matches.

    python tests/rulesets/source/search_eval_fit.py 400

plays N greedy-against-greedy matches of each pairing of the bundled decks (ember_rush and tidal_fortress mirrors
and ember_rush against tidal_fortress; seeds 400,001 on, first player alternating), one turn at a time through the
engine's own `play_turn`, and records at the start of every turn, from both players' view, the difference of the
two players' features (`features`) and whether that player went on to win (a draw counts half). It then fits a
logistic model without intercept (the features are differences, so the fit is symmetric) by Newton's method and
prints each feature's weight, the weights scaled to the engine's integer units, and the log loss of the fit, of the
SourcePoints alone, and of the engine's own evaluation (`search_side_worth`) on held-out matches. Not a test: a
script, kept so the fit can be run again when the rules or the evaluation change (docs/rulesets/source.md, *The
search policy*).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from workbench.bench import bundled_cardset_and_decks
from workbench.rulesets import get_ruleset
from workbench.rulesets.source import engine as E
from workbench.simulate import compile_for

NAMES = (
    "sourcepoints",
    "monsters",
    "st",
    "steps",
    "on_goal_st",
    "hand_monsters",
    "hand_other",
    "support",
    "traps",
)
"""The features, per player, of `features` (their differences are fitted)."""


def side_features(compiled: Any, rules: Any, state: Any, p: int) -> list[float]:
    """Player p's features: SourcePoints; monsters on the map, their ST (the four values summed, in tens), road steps
    they have come towards the opponent's summoning space (from p's own); the ST (its best symbol, in tens) of p's
    monster standing on the opponent's summoning space, ready to attack the generator; monster and other cards in
    hand; cards on support spaces; traps set. `rules` is the game record (GAME_DTYPE), on the pairing's card ids."""
    table = rules.table
    goal = int(rules.opts[E.O_SUMMONING + 1 - p])
    home = int(rules.opts[E.O_SUMMONING + p])
    start = int(rules.dist[home, goal])
    monsters = st = steps = on_goal = 0.0
    for m in range(int(rules.opts[E.O_SPACES])):
        space = int(state.mon[m, E.M_SPACE])
        if space < 0 or int(state.mon[m, E.M_OWNER]) != p:
            continue
        # `st_of` on p's turn, as numpy reads it (a compiled call per value from Python costs more than the match).
        row = state.mon[m]
        st4 = table[int(row[E.M_CARD]), E.T_ST : E.T_ST + 4] + row[E.M_PERM_ST : E.M_PERM_ST + 4]
        st4 = st4 + row[E.M_TMP_ST : E.M_TMP_ST + 4] + row[E.M_EQY_ST : E.M_EQY_ST + 4]
        values = [max(int(v), 0) for v in st4]
        monsters += 1
        st += sum(values) / 10
        steps += start - int(rules.dist[space, goal])
        if space == goal:
            on_goal = max(values) / 10
    hand_monsters = hand_other = 0.0
    for i in range(int(state.side[p, E.S_HAND])):
        kind = int(table[int(state.hand[p, i]), E.T_KIND])
        if kind == E.K_MONSTER:
            hand_monsters += 1
        else:
            hand_other += 1
    support = float(sum(1 for k in range(E.MAX_SUPPORT) if int(state.sup[p, k, E.SU_CARD]) >= 0))
    traps = float(sum(1 for c in range(int(rules.opts[E.O_SPACES])) if int(state.cells[c, E.C_TRAP_OWNER]) == p))
    sp = float(state.side[p, E.S_SP])
    return [sp, monsters, st, steps, on_goal, hand_monsters, hand_other, support, traps]


def engine_advantage(compiled: Any, rules: Any, state: Any, p: int) -> int:
    """The engine's own evaluation: p's worth less the opponent's (`search_side_worth`)."""
    if not hasattr(E, "search_side_worth"):  # the first fit, before the engine had one
        return 0
    return int(E.search_side_worth(rules, state, np.int64(p))) - int(E.search_side_worth(rules, state, np.int64(1 - p)))


def positions(n: int, seed0: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (rows: a position from one player's view), results (1 won, 0.5 drawn, 0 lost) and the engine's own
    advantage, from n greedy-against-greedy matches of each pairing of the bundled decks."""
    cardset, decks = bundled_cardset_and_decks(get_ruleset("source"))
    _, compiled, _ = compile_for(cardset, {})
    arrays = [compiled.deck_array(d) for d in decks[:2]]
    rows: list[list[float]] = []
    results: list[float] = []
    own: list[int] = []
    for a, b in ((0, 0), (1, 1), (0, 1)):
        deck_a, deck_b = np.ascontiguousarray(arrays[a]), np.ascontiguousarray(arrays[b])
        size = max(len(deck_a), len(deck_b))
        pair = E.pairing(compiled, deck_a, deck_b)
        rules = E.new_game(compiled, pair.ids, size)
        state = E.new_state(rules)
        for i in range(n):
            E.setup_match(rules, state, pair.deck_a, pair.deck_b, np.int64(seed0 + i), i % 2)
            state.side[0, E.S_POLICY] = E.GREEDY
            state.side[1, E.S_POLICY] = E.GREEDY
            p = i % 2
            seen: list[tuple[list[float], int, int]] = []
            while state.game[E.G_OVER] == 0:
                if state.game[E.G_TURN] > rules.opts[E.O_TURN_CAP]:
                    state.game[E.G_OVER] = 1
                    state.game[E.G_WINNER] = -1
                    break
                for q in (0, 1):
                    mine = side_features(compiled, rules, state, q)
                    theirs = side_features(compiled, rules, state, 1 - q)
                    difference = [x - y for x, y in zip(mine, theirs, strict=True)]
                    seen.append((difference, q, engine_advantage(compiled, rules, state, q)))
                E.play_turn(rules, state, np.int64(p), np.bool_(False))
                if state.game[E.G_OVER] == 1:
                    break
                state.game[E.G_TURN] += 1
                p = 1 - p
            winner = int(state.game[E.G_WINNER])
            for x, q, adv in seen:
                rows.append(x)
                results.append(0.5 if winner == -1 else float(winner == q))
                own.append(adv)
    return np.array(rows), np.array(results), np.array(own, dtype=np.float64)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-6) -> np.ndarray:
    """Logistic regression without intercept by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(z: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-z)), 1e-12, 1 - 1e-12)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def main(n: int) -> None:
    x, y, _ = positions(n, 400_001)
    w = fit(x, y)
    print(f"{len(y)} positions from {3 * n} matches")
    for name, value in zip(NAMES, w, strict=True):
        print(f"  {name:14s} {value:+.5f}  ({value / w[0]:+.3f} SourcePoints)")
    print(f"log loss: fit {log_loss(x @ w, y):.4f}, SourcePoints alone {log_loss(x[:, :1] @ fit(x[:, :1], y), y):.4f}")
    hx, hy, adv = positions(max(n // 3, 1), 900_001)
    scale = fit(adv[:, None], hy)[0]
    print(f"held out ({len(hy)} positions): fit {log_loss(hx @ w, hy):.4f}, ", end="")
    print(f"engine's evaluation {log_loss(adv * scale, hy):.4f}")
    print(f"engine's evaluation: an advantage of {np.log(3) / scale:.1f} wins three times in four")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
