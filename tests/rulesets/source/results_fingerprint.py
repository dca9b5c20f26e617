"""Digest of the SOURCE policies' results, to show a change leaves them bit-identical.

    PYTHONPATH=<tree> python tests/rulesets/source/results_fingerprint.py 500 10

prints one sha256 per run kind over every bundled deck pair: winners, turns and per-card counters of `matches`
matches each for greedy-greedy, greedy-random, random-greedy and random-random, under both symbol draws
(`intentional`, `blind`) and under `combat_tie=both` (attack values' tie branch), then `searched` matches of search
against greedy (seed 11, one worker); last, `extended`: the same four pairings on test_source_engine.py's deck of
the new clauses (`EXTRA_CARDS`, whose `web`, `recall` and `summon from` no bundled card has), under the default
options and the other reading of each of theirs, `matches` / 10 matches each. Run it on two trees and compare.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import tempfile
from pathlib import Path

import numpy as np

from workbench.bench import bundled_cardset_and_decks
from workbench.loading import load_cardset
from workbench.rulesets.source import RULESET as SOURCE
from workbench.rulesets.source import engine as E
from workbench.run_settings import RunSettings
from workbench.simulate import simulate

RUNS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("greedy", "greedy", {}),
    ("greedy", "random", {}),
    ("random", "greedy", {}),
    ("random", "random", {}),
    ("greedy", "greedy", {"symbol_draw": "blind"}),
    ("greedy", "random", {"symbol_draw": "blind"}),
    ("random", "random", {"symbol_draw": "blind"}),
    ("greedy", "greedy", {"combat_tie": "both"}),
)


def main(matches: int, searched: int) -> None:
    """Print the digest of each run kind's results over every bundled deck pair."""
    cardset, decks = bundled_cardset_and_decks(SOURCE)
    runs = [(a, b, options, matches) for a, b, options in RUNS] + [("search", "greedy", {}, searched)]
    for policy, policy_b, options, count in runs:
        digest = hashlib.sha256()
        for deck_a in decks:
            for deck_b in decks:
                run = RunSettings(seed=11, policy=policy, options=options, workers=1)
                result = simulate(cardset, deck_a, deck_b, matches=count, run=run, policy_b=policy_b)
                digest.update(result.matches.to_csv(index=False).encode())
                digest.update(result.counters.to_csv(index=False).encode())
        label = "-".join([policy, policy_b] + [f"{k}={v}" for k, v in options.items()])
        print(label, digest.hexdigest(), flush=True)
    print("extended", extended_digest(max(matches // 10, 1)), flush=True)


EXTENDED_OPTIONS: tuple[dict[str, str], ...] = (
    {},
    {"effect_summon_requirements": "ignored", "recall_to": "deck", "web_hinders": "block", "symbol_draw": "blind"},
)


def extended_digest(matches: int) -> str:
    """The digest of `matches` matches of the new clauses' deck against itself per policy pairing and option set."""
    spec = importlib.util.spec_from_file_location(
        "source_engine_tests", Path(__file__).with_name("test_source_engine.py")
    )
    assert spec is not None and spec.loader is not None
    tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tests)
    with tempfile.TemporaryDirectory() as directory:
        cardset = load_cardset(tests.write_extended_set(Path(directory)), "source")
    digest = hashlib.sha256()
    seeds = np.arange(1, matches + 1, dtype=np.int64) * 104729
    first = (np.arange(matches) % 2).astype(np.int8)
    for options in EXTENDED_OPTIONS:
        compiled = E.compile_cards(cardset, SOURCE.resolve_options(options))
        deck = np.array([compiled.card_id(name) for name in tests.NEW_CLAUSE_DECK] * 2, dtype=np.int64)
        for policies in ((E.GREEDY, E.GREEDY), (E.GREEDY, E.RANDOM), (E.RANDOM, E.GREEDY), (E.RANDOM, E.RANDOM)):
            winners, turns, counters = E.play_batch(compiled, deck, deck, seeds, first, *policies)
            for values in (winners, turns, counters):
                digest.update(np.ascontiguousarray(values, dtype=np.int64).tobytes())
    return digest.hexdigest()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500, int(sys.argv[2]) if len(sys.argv) > 2 else 10)
