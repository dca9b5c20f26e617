"""Plays SOURCE matches in plain Python with `choose` (the deciding side's answer, which the play loop asks at every
decision and question the rules stop at) and greedy's answers found without a list (`greedy_*_unlisted`) wrapped, to
show every action a policy chose was one `legal_actions` listed for the decision open at that moment, and that
greedy's answer found without the list is the one it takes over the list.
Run by test_source_policies.py in a subprocess under NUMBA_DISABLE_JIT=1 (the wrappers replace the functions in every
module of the engine package that calls them, `replace_everywhere`, where only the uncompiled engine looks them up at
each call); not collected by pytest.

    NUMBA_DISABLE_JIT=1 .venv/bin/python tests/rulesets/source/legal_replay.py POLICY_A POLICY_B MATCHES DRAW [CARDS]

CARDS is `bundled` (the default: every ordered pair of the bundled decks) or `extended`: the bundled set with
test_source_engine.py's `EXTRA_CARDS`, both players on its `NEW_CLAUSE_DECK` twice over (the `web`, `recall` and
`summon from` clauses no bundled card has, so the D_WEB, D_RECALL and D_EFFECT_SUMMON questions are asked).
Prints JSON: per ordered pair of decks, each match's winner and turns and the counters' sum, how many decisions of
each kind (D_*) the policies answered, and (`by_policy`, greedy then random) how many of each kind each policy
answered through `choose`.
"""

import importlib.util
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import numba
import numpy as np

from workbench.bench import bundled_cardset_and_decks
from workbench.loading import load_cardset
from workbench.rulesets import get_ruleset
from workbench.rulesets.source import engine as E
from workbench.simulate import compile_for

ENGINE_TESTS = Path(__file__).with_name("test_source_engine.py")


def extended_cards() -> Any:
    """test_source_engine.py as a module, for its `EXTRA_CARDS`, `NEW_CLAUSE_DECK` and `write_extended_set`."""
    spec = importlib.util.spec_from_file_location("source_engine_tests", ENGINE_TESTS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play(policy_a: int, policy_b: int, matches: int, draw: str, cards: str = "bundled") -> dict[str, list[Any]]:
    """Every ordered pair of the decks (`cards`: the bundled ones, or `extended`: the one deck of the new clauses),
    `matches` matches each, under `symbol_draw=draw`: per pair, [winners, turns, the counters' sum]."""
    if cards == "extended":
        tests = extended_cards()
        with tempfile.TemporaryDirectory() as directory:
            cardset = load_cardset(tests.write_extended_set(Path(directory)), "source")
        engine, compiled, _ = compile_for(cardset, {"symbol_draw": draw})
        arrays = [np.array([compiled.card_id(name) for name in tests.NEW_CLAUSE_DECK] * 2, dtype=np.int64)]
    else:
        cardset, decks = bundled_cardset_and_decks(get_ruleset("source"))
        engine, compiled, _ = compile_for(cardset, {"symbol_draw": draw})
        arrays = [compiled.deck_array(d) for d in decks]
    results = {}
    seeds = np.arange(1, matches + 1, dtype=np.int64) * 7919
    first = (np.arange(matches) % 2).astype(np.int8)
    for a, deck_a in enumerate(arrays):
        for b, deck_b in enumerate(arrays):
            winners, turns, counters = engine.play_batch(compiled, deck_a, deck_b, seeds, first, policy_a, policy_b)
            results[f"{a},{b}"] = [[int(v) for v in winners], [int(v) for v in turns], int(np.asarray(counters).sum())]
    return results


def main() -> None:
    jit_off = numba.config.DISABLE_JIT  # type: ignore[attr-defined]
    assert jit_off, "run under NUMBA_DISABLE_JIT=1: the compiled engine does not look `choose` up"
    policy_a, policy_b, matches, draw = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    cards = sys.argv[5] if len(sys.argv) > 5 else "bundled"
    chosen = [0] * len(E.D_KINDS)
    # The same per policy (S_POLICY: GREEDY, RANDOM), for the decisions `choose` answered with something listed.
    by_policy = [[0] * len(E.D_KINDS) for _ in range(2)]

    def listed_now(G: Any, state: Any) -> list[int]:
        """`legal_actions` listed afresh for the decision open now."""
        fresh = np.zeros_like(state.actions)
        return [int(a) for a in fresh[: E.legal_actions(G, state, fresh)]]

    choose = E.choose

    def checked_choose(G: Any, state: Any) -> Any:
        """`choose`, checking that a decision is open and that its answer is listed for it (STOP when none is)."""
        kind, p = int(state.game[E.G_DECISION]), int(state.game[E.G_ACTOR])
        assert kind != E.D_NONE, "no decision is open"
        listed = listed_now(G, state)
        action = int(choose(G, state))
        assert action in listed or (not listed and action == E.STOP), (
            f"the policy chose {action}, not listed for decision {E.D_KINDS[kind]}"
        )
        assert int(state.game[E.G_DECISION]) == kind and int(state.game[E.G_ACTOR]) == p, (
            "a policy changed the decision"
        )
        if listed:
            chosen[kind] += 1
            by_policy[int(state.side[p, E.S_POLICY])][kind] += 1
        return action

    greedy_unlisted, greedy_over_list = E.greedy_symbol_unlisted, E.greedy_symbol

    def checked_greedy_symbol(G: Any, state: Any, p: int) -> Any:
        """Greedy's symbol action found without a list: one `legal_actions` lists, and the one greedy takes among
        them (`greedy_symbol` over the list)."""
        assert int(state.game[E.G_DECISION]) == E.D_SYMBOL and int(state.game[E.G_ACTOR]) == p, "no symbol decision"
        listed = listed_now(G, state)
        action = int(greedy_unlisted(G, state, p))
        assert action in listed, f"greedy chose symbol action {action}, not listed"
        fresh = np.array(listed + [0] * (len(state.actions) - len(listed)), dtype=state.actions.dtype)
        by_list = int(greedy_over_list(G, state, p, fresh, len(listed)))
        assert action == by_list, f"greedy chose {action} without the list, {by_list} over it"
        return action

    def checked_unlisted(kind: int, unlisted: Any, over_list: Any) -> Any:
        """Greedy's `unlisted` answer to decision `kind` (main action or channeled card): one `legal_actions` lists
        (STOP is listed last; STOP too when nothing is listed), and the one `over_list` takes among them when more
        than STOP is listed."""

        def checked_greedy(G: Any, state: Any, p: int) -> Any:
            assert int(state.game[E.G_DECISION]) == kind and int(state.game[E.G_ACTOR]) == p, "the decision is not open"
            listed = listed_now(G, state)
            action = int(unlisted(G, state, p))
            # Nothing listed (the main action taken, a channeled card placed or no support space free): STOP.
            assert action in listed or (not listed and action == E.STOP), f"greedy chose {action}, not listed"
            if len(listed) > 1:
                fresh = np.array(listed + [0] * (len(state.actions) - len(listed)), dtype=state.actions.dtype)
                by_list = int(over_list(G, state, p, fresh, len(listed)))
                assert action == by_list, (
                    f"{E.D_KINDS[kind]}: greedy chose {action} without the list, {by_list} over it"
                )
            else:
                assert action == E.STOP, f"{E.D_KINDS[kind]}: greedy chose {action} with only STOP listed"
            return action

        return checked_greedy

    def first_listed(G: Any, state: Any, p: int, out: Any, n: int) -> Any:
        """Greedy's channeled card over the list: the first listed."""
        return out[0]

    E.replace_everywhere("choose", checked_choose)
    E.replace_everywhere("greedy_symbol_unlisted", checked_greedy_symbol)
    E.replace_everywhere("greedy_main_unlisted", checked_unlisted(E.D_MAIN, E.greedy_main_unlisted, E.greedy_main))
    E.replace_everywhere(
        "greedy_channel_card_unlisted", checked_unlisted(E.D_CHANNEL_CARD, E.greedy_channel_card_unlisted, first_listed)
    )
    results = play(policy_a, policy_b, matches, draw, cards)
    print(json.dumps({"results": results, "chosen": chosen, "by_policy": by_policy}))


if __name__ == "__main__":
    main()
