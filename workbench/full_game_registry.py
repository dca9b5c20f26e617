"""Which rulesets play whole games (`--option game=full`), and whether a set of rule options asks for them.

Below both the simulator and `workbench.full_game`: `workbench.simulate.simulate` refuses `game=full` (whole games
are not matches between two decks) by asking here, not the whole-game layer above it. `workbench.full_game`
re-exports every name, where callers have always found them. Imports nothing heavy (the command line reads it
through `workbench.full_game` to build its help).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.rulesets.base import Ruleset

FULL_GAME_RUNNERS: dict[str, str] = {"blades": "workbench.rulesets.blades.market_runs"}
"""Ruleset id -> the module that plays its whole games (`play_full_games`, `store_power`, `buy_cost_sweep`, ...)."""

FULL_GAME_MODULES: dict[str, str] = {"blades": "workbench.rulesets.blades.market"}
"""Ruleset id -> the module of the whole game's rules, whose `MARKET_VERSION` every result carries."""


def supports_full_game(ruleset: Ruleset) -> bool:
    """True when the ruleset plays whole games: a runner module and a rule option `game` offering `full`."""
    option = next((o for o in ruleset.options if o.key == "game"), None)
    return ruleset.id in FULL_GAME_RUNNERS and option is not None and "full" in (option.choices or ())


def is_full_game(ruleset: Ruleset, options: Mapping[str, Any] | None) -> bool:
    """True when these rule options ask the ruleset for whole games (`game=full`)."""
    return supports_full_game(ruleset) and options is not None and str(options.get("game", "")) == "full"
