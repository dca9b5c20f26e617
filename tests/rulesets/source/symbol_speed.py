"""What greedy's symbol action costs, and which of its parts the cost is in: nanoseconds a call of
`greedy_symbol_unlisted` on saved decisions, beside copies of it with one part taken out (ablations).

    PYTHONPATH=<tree> python tests/rulesets/source/symbol_speed.py 30 500 [ROUNDS]

plays MATCHES greedy matches of the first bundled deck against the last (seeds 1.., first player alternating),
stepped decision by decision, and keeps the state at every symbol decision (D_SYMBOL). It then calls
`greedy_symbol_unlisted` REPS times on each kept state in one compiled loop, and does the same with each ablated
copy (the kernel's own source with one part replaced: the road look-ahead, the attacks, the channels, the
monster's weighing, the generator attack), all compiled in this process. ROUNDS (default 3) rounds call every
variant in turn, and the best of each is printed as nanoseconds a call, so the machine's drift between rounds falls
on every variant alike. An ablated copy chooses other actions: its figure is only the cost without that part, and
the differences from the engine's own are what each part costs. The script stops with the line it could not find
when the kernel's source no longer holds it. A census line says how many monsters the decisions weigh, and how
many of them may move or have an enemy beside them.
"""

from __future__ import annotations

import inspect
import sys
import time
from typing import Any

import numpy as np
from numba import njit

from workbench.bench import bundled_cardset_and_decks
from workbench.engines import no_nrt_options
from workbench.play.policies import GREEDY
from workbench.rulesets.source import RULESET as SOURCE
from workbench.rulesets.source import engine as E
from workbench.rulesets.source.engine import greedy as greedy_module
from workbench.simulate import compile_for

ABLATIONS: dict[str, list[tuple[str, str]]] = {
    "the engine's own": [],
    "without the road look-ahead": [
        ("reach = greedy_path_steps(G, state, m, min(longest, MAX_PATH))", "reach = 4"),
    ],
    "without the attacks": [("if may_attack(state, m, active):", "if False:")],
    "without the channels": [("if space == flux:", "if False:")],
    "without the weighing": [
        ("my_value = weigh_monster(G, state, m, active, move_bonus(state, m, active))", "my_value = 10"),
    ],
    "without the generator": [
        (
            "gen_monster, gen_symbol, gen_damage = generator_attacker(G, state, p)",
            "gen_monster, gen_symbol, gen_damage = -1, -1, -1",
        ),
    ],
}
"""Each variant's replacements in the kernel's source (none: the kernel itself, compiled here as the others are)."""


def symbol_decisions(matches: int) -> tuple[Any, list[tuple[Any, int]]]:
    """The game data and, for every symbol decision of `matches` greedy matches, a copy of the state and the
    deciding player."""
    cardset, decklists = bundled_cardset_and_decks(SOURCE)
    _, compiled, _ = compile_for(cardset, None)
    decks = [compiled.deck_array(deck) for deck in decklists]
    pair = E.pairing(compiled, decks[0], decks[-1])
    game = E.new_game(compiled, pair.ids, max(len(decks[0]), len(decks[-1])))
    saved = []
    for seed in range(1, matches + 1):
        state = E.new_state(game)
        E.setup_match(game, state, pair.deck_a, pair.deck_b, np.int64(seed), np.int8(seed % 2))
        E.setup_policies(state, np.int64(GREEDY), np.int64(GREEDY), np.int64(seed))
        E.advance(game, state, np.int64(E.NO_STAGE))
        while state.game[E.G_DECISION] != E.D_NONE:
            if state.game[E.G_DECISION] == E.D_SYMBOL:
                snapshot = np.zeros(1, dtype=E.STATE_DTYPE).view(np.recarray)
                snapshot[0] = state
                saved.append((snapshot[0], int(state.game[E.G_ACTOR])))
            E.apply(game, state, np.int64(E.choose(game, state)))
    return game, saved


def census(game: Any, saved: list[tuple[Any, int]]) -> str:
    """How many monsters the kept decisions weigh, and how many of them may move and have an enemy beside them."""
    monsters = may_move = enemy_beside = 0
    for state, p in saved:
        active = int(state.game[E.G_ACTIVE])
        goal = int(game.opts[E.O_SUMMONING + 1 - p])
        slots = int(state.game[E.G_MONSTERS + p])
        while slots:
            m = (slots & -slots).bit_length() - 1
            slots &= slots - 1
            monsters += 1
            space = int(state.mon[m, E.M_SPACE])
            may_move += space != goal and bool(E.may_move(state, np.int64(m), np.int64(active)))
            neighbours = [int(game.mp[space, E.MP_ADJ0 + t]) for t in range(4)]
            occupants = [int(state.cells[n, E.C_OCC]) for n in neighbours if n >= 0]
            enemy_beside += any(o >= 0 and int(state.mon[o, E.M_OWNER]) != p for o in occupants)
    return (
        f"{monsters} monsters weighed ({monsters / len(saved):.2f} a call), {may_move / monsters:.0%} of them may "
        f"move, {enemy_beside / monsters:.0%} have an enemy beside them"
    )


def variant_loop(replacements: list[tuple[str, str]]) -> Any:
    """A compiled loop calling a copy of `greedy_symbol_unlisted` with `replacements` made in its source."""
    kernel_of_engine: Any = greedy_module.greedy_symbol_unlisted  # a Numba dispatcher: its Python body is `py_func`
    source = inspect.getsource(kernel_of_engine.py_func)
    source = source[source.index("def ") :]
    for old, new in replacements:
        if old not in source:
            sys.exit(f"greedy_symbol_unlisted no longer holds: {old}")
        source = source.replace(old, new)
    namespace = dict(vars(greedy_module))
    exec(compile(source, "<ablation>", "exec"), namespace)
    kernel = njit(cache=False, nogil=True, **no_nrt_options())(namespace["greedy_symbol_unlisted"])

    @njit(cache=False)
    def calls(G: Any, state: Any, p: int, reps: int) -> int:
        total = 0
        for _ in range(reps):
            total += kernel(G, state, p)
        return total

    return calls


def main(matches: int, reps: int, rounds: int) -> None:
    game, saved = symbol_decisions(matches)
    loops = {name: variant_loop(replacements) for name, replacements in ABLATIONS.items()}
    for calls in loops.values():
        calls(game, saved[0][0], np.int64(saved[0][1]), 1)  # compiles
    best = dict.fromkeys(loops, float("inf"))
    for _ in range(rounds):
        for name, calls in loops.items():
            start = time.process_time()
            for state, p in saved:
                calls(game, state, np.int64(p), reps)
            best[name] = min(best[name], time.process_time() - start)
    print(f"{len(saved)} symbol decisions of {matches} matches, {reps} calls each, best of {rounds} rounds:")
    print(f"  {census(game, saved)}")
    own = best["the engine's own"]
    for name, seconds in best.items():
        each = seconds / (len(saved) * reps) * 1e9
        print(f"  {name:28s} {each:6.1f} ns a call ({(own - seconds) / (len(saved) * reps) * 1e9:+5.1f})")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 3)
