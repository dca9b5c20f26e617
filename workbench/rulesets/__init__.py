"""The explicit ruleset registry: one entry per game, by id.

Adding a game means adding its package and one line to `_ALL` below; nothing
registers itself on import.
"""

from __future__ import annotations

from workbench.cards import WorkbenchInputError, closest_names
from workbench.rulesets.base import Ruleset
from workbench.rulesets.blades import RULESET as BLADES
from workbench.rulesets.circles import RULESET as CIRCLES
from workbench.rulesets.plasma import RULESET as PLASMA
from workbench.rulesets.souls import RULESET as SOULS
from workbench.rulesets.source import RULESET as SOURCE

_ALL: tuple[Ruleset, ...] = (SOURCE, PLASMA, BLADES, SOULS, CIRCLES)

RULESETS: dict[str, Ruleset] = {ruleset.id: ruleset for ruleset in _ALL}
"""Every ruleset, by id, in display order."""


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with this id; an unknown id is an error that lists the valid ones."""
    key = ruleset_id.strip().casefold()
    if key in RULESETS:
        return RULESETS[key]
    hints = closest_names(key, RULESETS)
    did_you_mean = f" Did you mean '{hints[0]}'?" if hints else ""
    raise WorkbenchInputError(
        f"'{ruleset_id}' is not a ruleset.{did_you_mean}", expected="one of: " + ", ".join(RULESETS)
    )


__all__ = ["RULESETS", "Ruleset", "get_ruleset"]
