"""Two settings of a game's search compared on the same matches: is one weaker against greedy, and how much faster?

    python tests/search_paired.py RULESET N SETTINGS_A SETTINGS_B [SETTINGS_C ...] [offset=S]

Each setting is `key=value` rule options separated by commas (`search_rollouts=16,search_depth=8`), or `default` for
the ruleset's defaults. For each bundled deck's mirror, `search` (side or seat A) plays `greedy` on seeds S .. S+N-1
(S = 1 unless given), the first player alternating, once under each setting; then every setting after the first is
compared with the first match by match.

Why paired: both settings play the same deals with the same search generator, so most matches end the same way and
only the matches whose winner changed (the discordant pairs) carry the difference. How much narrower its interval
is than that of two independent win rates' difference depends on how often the winner changes (measured
2026-12-01): in circles a few matches in 10,000 (a few hundredths of a point at 20,000 a deck), in Millennium Blades
5% to 23% (0.3 to 0.7 points either side at 20,000), in SOURCE about 31% (2 points either side at 3,000, where two
independent rates' difference has about 2.4): so SOURCE needs several seed sets to tell "a point weaker". The
difference's 95% interval and z come from the discordant counts (McNemar's normal form); the pooled line weighs the
decks alike. The CPU rate (matches per CPU second of this process, search against greedy, after a warm-up batch) is
one run each, in turn: on a shared machine compare rates only within one run of this script.

Not a test: a script, as the engines' speed and fit scripts beside it, kept so a search's default can be checked
again when the rules, the search or its evaluation change (docs/simulation.md, *Policies*).
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass

import numpy as np

from workbench.bench import bundled_cardset_and_decks
from workbench.cards import Deck
from workbench.play.policies import policy_word
from workbench.rulesets import get_ruleset
from workbench.simulate import compile_for


@dataclass(frozen=True)
class Played:
    """One setting's matches on one deck's mirror."""

    won: np.ndarray
    """Whether search (side or seat A) won each match."""
    draws: float
    """Share of matches with no winner."""
    rate: float
    """Matches per CPU second of this process."""


def settings_of(text: str) -> dict[str, str]:
    """Rule options from `key=value,key=value` (`default` or nothing: none)."""
    if text.strip() in ("", "default"):
        return {}
    return dict(part.split("=", 1) for part in text.split(",") if part.strip())


def play(ruleset_id: str, deck: Deck, settings: str, seeds: np.ndarray, first: np.ndarray) -> Played:
    """Search against greedy on `deck`'s mirror under `settings`."""
    cardset, _ = bundled_cardset_and_decks(get_ruleset(ruleset_id))
    engine, compiled, _ = compile_for(cardset, settings_of(settings))
    ids = compiled.deck_array(deck)
    search, greedy = policy_word("search", engine.policies), policy_word("greedy", engine.policies)
    engine.play_batch(compiled, ids, ids, seeds[:2], first[:2], search, greedy)  # compile or load the kernels
    start = time.process_time()
    # (winners, turns, counters), with a dict of per-match columns after them in some engines (`Engine.play_batch`).
    played = engine.play_batch(compiled, ids, ids, seeds, first, search, greedy)
    rate = len(seeds) / max(time.process_time() - start, 1e-9)
    winners = np.asarray(played[0])
    return Played(won=winners == 0, draws=float((winners == -1).mean()), rate=rate)


def paired_line(label: str, base: Played, other: Played) -> tuple[str, int, int, int]:
    """The comparison of `other` with `base` on the same matches, and its discordant counts and match count."""
    n = len(base.won)
    only_base = int((base.won & ~other.won).sum())
    only_other = int((~base.won & other.won).sum())
    diff = (only_other - only_base) / n
    spread = math.sqrt(max(only_base + only_other - n * diff * diff, 0.0)) / n
    z = (only_other - only_base) / math.sqrt(max(only_base + only_other, 1))
    text = (
        f"{label}: won {other.won.mean():.2%} (first setting {base.won.mean():.2%}), draws {other.draws:.1%}; "
        f"difference {diff:+.2%} [{diff - 1.96 * spread:+.2%}, {diff + 1.96 * spread:+.2%}], "
        f"won under the first setting only {only_base}, under this one only {only_other}, z {z:+.2f}; "
        f"{other.rate:,.0f} matches per CPU second (first setting {base.rate:,.0f})"
    )
    return text, only_base, only_other, n


def main(argv: list[str]) -> None:
    words = [word for word in argv if not word.startswith("offset=")]
    offsets = [int(word.split("=", 1)[1]) for word in argv if word.startswith("offset=")]
    ruleset_id, matches, settings = words[0], int(words[1]), words[2:]
    if len(settings) < 2:
        sys.exit(__doc__)
    offset = offsets[0] if offsets else 1
    seeds = np.arange(offset, offset + matches, dtype=np.int64)
    first = (np.arange(matches) % 2).astype(np.int8)
    _, decks = bundled_cardset_and_decks(get_ruleset(ruleset_id))
    played = {(deck.name, s): play(ruleset_id, deck, s, seeds, first) for deck in decks for s in settings}
    for other in settings[1:]:
        print(f"{other} against {settings[0]}, {ruleset_id}, {matches:,} matches a deck from seed {offset}:")
        pooled_diff = pooled_disc = 0.0
        for deck in decks:
            text, only_base, only_other, n = paired_line(
                f"  {deck.name}", played[(deck.name, settings[0])], played[(deck.name, other)]
            )
            print(text, flush=True)
            pooled_diff += (only_other - only_base) / n / len(decks)
            pooled_disc += (only_base + only_other) / (n * n * len(decks) ** 2)
        spread = math.sqrt(pooled_disc)
        print(
            f"  pooled over {len(decks)} decks: difference {pooled_diff:+.2%} "
            f"[{pooled_diff - 1.96 * spread:+.2%}, {pooled_diff + 1.96 * spread:+.2%}], "
            f"z {pooled_diff / max(spread, 1e-12):+.2f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
