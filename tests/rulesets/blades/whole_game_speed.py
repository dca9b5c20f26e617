"""Whole Millennium Blades games per CPU second in one process (no worker processes):

    PYTHONPATH=<tree> python tests/rulesets/blades/whole_game_speed.py GAMES POLICY_A POLICY_B

plays `game_rngs(1, GAMES)` of the bundled set under the default options through `market_runs.play_one`, seat A
playing POLICY_A and the other seats POLICY_B, after three warm-up games (the tournament engine compiled or loaded),
and prints games per CPU second and per wall second and the mean final VP a seat (which must not move when only
speed changed).
"""

from __future__ import annotations

import sys
import time

from workbench.bench import bundled_cardset_and_decks
from workbench.rulesets.blades import RULESET
from workbench.rulesets.blades import market as M
from workbench.rulesets.blades.market_runs import game_rngs, play_one


def main(games: int, policy_a: str, policy_b: str) -> None:
    cardset, _ = bundled_cardset_and_decks(RULESET)
    options = RULESET.resolve_options({})
    cards = M.compile_market(cardset, options)
    players = int(options["players"])
    policies = [policy_a] + [policy_b] * (players - 1)
    for rng in game_rngs(99, 3):
        play_one(cards, rng, policies)
    cpu, wall = time.process_time(), time.perf_counter()
    vp = 0
    for rng in game_rngs(1, games):
        result, _ = play_one(cards, rng, policies)
        vp += sum(result.total)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"{policy_a}/{policy_b}: {games} games, {games / cpu:.1f} per CPU second, {games / wall:.1f} per wall second, "
        f"mean final VP a seat {vp / games / players:.1f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3])
