"""The settings a power curve runs with when a person does not choose them: one object for the app and the CLI.

`workbench power-curve`, `sweep` and `report`, and the app's Balance page, all read `POWER_CURVE_DEFAULTS`, so the
same set gives the same figures in both: every deck of the set as the gauntlet (the first, in the set's order, is
the reference deck), 8,000 matches per card (and a second look at the cards left undecided), seed 0 and the greedy
policy; a card played in fewer than 5% of its matches is `rarely played`, not judged. This module imports nothing
heavy, so the command line can build its help from it without loading the simulator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class PowerCurveDefaults:
    """The defaults of a power curve and of the figures drawn beside it."""

    matches_per_card: int = 8_000
    """Matches per measured card (split evenly over the gauntlet); also per value of a sweep. Why 8,000: with the
    second look of `follow_up`, 93-100% of the cards of each bundled set keep one verdict over seeds 0-2 (SOURCE's
    93%, issue 29); at 2,000 between 80% and 97% did (circles 81%, SOURCE 80%, plasma 83%), since a card's interval
    was as wide as the tolerance and cards near a verdict's edge flipped. docs/simulation.md gives
    the figures and the commands."""
    matches_per_pair: int = 2_000
    """Matches of deck A against deck B, and per ordered pair of the matchup matrix, beside a power curve."""
    seed: int = 0
    """The root seed."""
    policy: str = "greedy"
    """Both sides' play policy."""
    min_play_share: float = 0.05
    """A measured card played (by its own side) in fewer than this share of its variant's matches is flagged
    `rarely played` instead of over / under / on curve. Why 5%: with 2,000 matches per card (the default until issue
    29), a card played in 5% of them took part in about 100 matches, and a power that rests on fewer is mostly the
    filler's matches (the other 95% play as if it were not there), so its interval says little about the card; and
    a card the policy plays that rarely is first of all a finding about the game (it cannot be afforded, or the
    matches end first), not about its cost. A higher share keeps more cards out of the line; 0 judges every card.
    A rarely played card whose interval lies clearly beyond its band still gets its verdict (`workbench.judging`):
    the share informs a verdict, it does not veto a clear one."""
    tolerance: float = 0.02
    """Mispricing that does not matter, in score (2 points of win rate; for Blades' tournament, 2% of first place's
    VP): a card is over or under only beyond its band plus this, and on curve only when shown within it. Why 0.02:
    on SOURCE's bundled set, the one whose line rises with cost, it is about 0.6 of a cost step (+0.031 to +0.035 a
    step over seeds 0-4, `workbench power-curve source/valley_of_deadlife` at the defaults); plasma's line rose by
    +0.067 a step until its rules were completed (plasma 1.3-1.4, issue 32: no summoning sickness, Instants at any
    time) and is flat now (+0.001, 95% interval -0.003 to +0.005, seed 0), so there 0.02 is measured against the
    cards of the same cost. A designer who cares about less sets it lower and pays in matches (each verdict's
    `matches_to_decide` says how many)."""
    false_discovery_rate: float = 0.05
    """Benjamini-Hochberg level across the cards of one curve: the expected share of wrong over/under flags."""
    resamples: int = 200
    """Bootstrap resamples of the matches behind each card's verdict-stability figure."""
    follow_up: float = 4.0
    """The second look: a card left undecided that more matches would decide within this many times its matches is
    measured again (once, on fresh seeds) and decided on all its matches; 1 turns it off. It is what keeps a card
    that sits near a verdict's edge from flipping between seeds (`workbench.analysis.power_curve`)."""

    def gauntlet(self, deck_names: Sequence[str]) -> list[str]:
        """Every deck of the set, in the set's order: the first is the reference deck, all of them the gauntlet."""
        return list(deck_names)


POWER_CURVE_DEFAULTS = PowerCurveDefaults()
"""The one set of power-curve defaults."""


@dataclass(frozen=True)
class StatValuesDefaults:
    """The defaults of a stat-values experiment (`workbench.stat_values`, `workbench stat-values`)."""

    cards: int = 48
    """Synthetic cards in the designed experiment."""
    matches_per_card: int = 800
    """Matches per synthetic card, split over the replicates (a few minutes at most for souls and circles on two
    cores)."""
    replicates: int = 8
    """Independent runs of the design (each on its own seed, each with its share of the matches): the spread of their
    fits gives the intervals, since within one run the cards' errors are correlated by the common random numbers."""


STAT_VALUES_DEFAULTS = StatValuesDefaults()
"""The one set of stat-values defaults."""


@dataclass(frozen=True)
class ProposalDefaults:
    """The defaults of a patch-proposal search (`workbench.propose`, `workbench propose`)."""

    matches_per_card: int = 1_000
    """Matches per card in each power curve of the search, and of each proof unless set apart."""
    max_changes: int = 3
    """The most cards one proposal changes."""
    evaluations: int = 40
    """Card sets the search measures (each a power curve)."""


PROPOSAL_DEFAULTS = ProposalDefaults()
"""The one set of patch-proposal defaults."""
