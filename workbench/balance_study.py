"""One balance study: a match between two decks, the power curve and the matchup matrix, with one progress feed.

This is the app's balance page without the page: it chains
`workbench.simulate.simulate` and `trace`, `workbench.analysis.power_curve`
and `matchup_matrix` over the same card set, decks, options and seed, and
reports progress as (phase, matches done, matches in the phase). A progress
callback that raises (the app's cancel) stops the study where it is.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from workbench.analysis import PowerCurve, matchup_matrix
from workbench.auto_decks import GauntletChoice
from workbench.cards import CardSet, Deck, OptionValue, WorkbenchInputError, readable
from workbench.judging import VerdictRule
from workbench.power_defaults import POWER_CURVE_DEFAULTS
from workbench.rulesets.base import Ruleset
from workbench.run_settings import RunSettings
from workbench.simulate import MatchResults, engine_for, simulate, trace
from workbench.verdicts import RunKey, VerdictRuns, power_curve_runs

StudyProgress = Callable[[str, int, int], None]
"""progress(phase, matches done, matches in the phase)."""
MATCH_PHASE = "Match"
CURVE_PHASE = "Power curve"
MATCHUP_PHASE = "Matchups"
_WARMED: set[str] = set()


@dataclass(frozen=True)
class StudySettings:
    """What to simulate: the decks (the first is deck A and the power curve's reference), policies, counts, seed."""

    decks: tuple[str, ...]
    """Deck names, in order: deck A, deck B (deck A again for a mirror), then the rest of the gauntlet."""
    policy_a: str
    """Deck A's policy (also the power curve's and the matchups' policy)."""
    policy_b: str
    """Deck B's policy."""
    matches: int
    """Matches of A against B, and per pair of the matchup matrix."""
    matches_per_card: int
    """Matches per measured card on the power curve."""
    seed: int
    """The root seed of every part."""
    with_power_curve: bool = True
    """Measure every card's power."""
    with_matchups: bool = True
    """Play every ordered pair of decks (needs two decks or more)."""
    also_policies: tuple[str, ...] = ()
    """More policies to run the power curve under, beside deck A's: verdicts shown side by side."""
    auto_decks: int = 0
    """Auto decks added to the power curve's gauntlet (0: the chosen decks only); see `workbench.auto_decks`."""
    min_play_share: float = POWER_CURVE_DEFAULTS.min_play_share
    """A card played in fewer than this share of its matches is `rarely played`, not judged."""
    tolerance: float = POWER_CURVE_DEFAULTS.tolerance
    """Mispricing that does not matter, in score: a card is over or under only beyond its band plus this
    (`workbench.judging.VerdictRule`)."""
    follow_up: float = POWER_CURVE_DEFAULTS.follow_up
    """The power curve's second look: an undecided card more matches would decide within this many times its
    matches is measured again (1: none; `workbench.judging.VerdictRule.follow_up`)."""

    @property
    def curve_policies(self) -> list[str]:
        """The power curve's policies: deck A's first, then the others asked for."""
        return list(dict.fromkeys([self.policy_a, *self.also_policies]))

    @classmethod
    def defaults(cls, deck_names: Sequence[str], policies: Sequence[str]) -> StudySettings:
        """The settings the app's Balance page starts from: `POWER_CURVE_DEFAULTS`, as `workbench power-curve` and
        `workbench report` use them (every deck of the set, 8,000 matches per card and 2,000 per pair, a second look,
        seed 0, greedy, or the engine's first policy when it has no greedy one)."""
        policy = POWER_CURVE_DEFAULTS.policy if POWER_CURVE_DEFAULTS.policy in policies else policies[0]
        return cls(
            decks=tuple(POWER_CURVE_DEFAULTS.gauntlet(deck_names)),
            policy_a=policy,
            policy_b=policy,
            matches=POWER_CURVE_DEFAULTS.matches_per_pair,
            matches_per_card=POWER_CURVE_DEFAULTS.matches_per_card,
            seed=POWER_CURVE_DEFAULTS.seed,
        )


@dataclass
class StudyResults:
    """Everything a study produced, with the options and card-set hash it was made under."""

    settings: StudySettings
    """The settings it ran with."""
    options: dict[str, OptionValue]
    """Every rule option's value."""
    cardset_hash: str
    """`CardSet.content_hash()` of the cards simulated."""
    match: MatchResults
    """Deck A against deck B."""
    trace: list[str]
    """Match 0 of the seed, turn by turn."""
    curve: PowerCurve | None = None
    """Per-card power, when asked for: under deck A's policy, with the gauntlet asked for."""
    verdicts: VerdictRuns | None = None
    """Every power curve run (per policy, and hand-made vs auto decks) when there is more than one, to compare."""
    matchups: pd.DataFrame | None = None
    """The matchup matrix, when asked for and there are two decks or more."""
    seconds: dict[str, float] = field(default_factory=dict)
    """Wall time per phase."""


def warm_up_engine(cardset: CardSet, deck: Deck) -> float:
    """Play one match so the engine's compiled kernels are loaded (compiled on first use); returns the seconds spent.

    Done once per engine per process; later calls return 0.
    """
    module = cardset.ruleset.engine_module or ""
    engine_for(cardset)
    if module in _WARMED:
        return 0.0
    started = time.perf_counter()
    simulate(cardset, deck, matches=1, run=RunSettings(seed=0, workers=1))
    _WARMED.add(module)
    return time.perf_counter() - started


def is_warm(cardset: CardSet) -> bool:
    """True when this process has already loaded the card set's engine."""
    return (cardset.ruleset.engine_module or "") in _WARMED


def run_study(
    cardset: CardSet,
    decks: Mapping[str, Deck],
    settings: StudySettings,
    options: Mapping[str, OptionValue | str] | None = None,
    progress: StudyProgress | None = None,
    workers: int | None = None,
) -> StudyResults:
    """Run the parts of a study the settings ask for, reporting progress phase by phase."""
    missing = [name for name in settings.decks if name not in decks]
    if not settings.decks or missing:
        raise WorkbenchInputError(
            "a study needs one deck or more" + (f"; unknown deck(s): {', '.join(missing)}" if missing else "") + ".",
            expected="deck names from the session's decklists",
        )
    chosen: Sequence[Deck] = [decks[name] for name in settings.decks]
    deck_a = chosen[0]
    deck_b = chosen[1] if len(chosen) > 1 else chosen[0]
    resolved = cardset.ruleset.resolve_options(options)
    run = RunSettings(seed=settings.seed, policy=settings.policy_a, options=resolved, workers=workers)
    seconds: dict[str, float] = {}

    def phase_progress(phase: str) -> Callable[[int, int], None]:
        return lambda done, total: progress(phase, done, total) if progress else None

    started = time.perf_counter()
    match = simulate(
        cardset,
        deck_a,
        deck_b,
        settings.matches,
        run.reporting(phase_progress(MATCH_PHASE)),
        policy_b=settings.policy_b,
    )
    lines = list(trace(cardset, deck_a, deck_b, settings.seed, (settings.policy_a, settings.policy_b), resolved))
    seconds[MATCH_PHASE] = time.perf_counter() - started
    results = StudyResults(settings, dict(resolved), cardset.content_hash(), match, lines, seconds=seconds)
    if settings.with_power_curve:
        started = time.perf_counter()
        gauntlet = GauntletChoice(settings.auto_decks)
        runs = power_curve_runs(
            cardset,
            chosen,
            settings.curve_policies,
            gauntlet,
            settings.matches_per_card,
            run.reporting(phase_progress(CURVE_PHASE)),
            min_play_share=settings.min_play_share,
            rule=VerdictRule(tolerance=settings.tolerance, follow_up=settings.follow_up),
        )
        results.curve = runs.curve(runs.label_of(RunKey(settings.policy_a, gauntlet)))
        results.verdicts = runs if len(runs.runs) > 1 else None
        seconds[CURVE_PHASE] = time.perf_counter() - started
    if settings.with_matchups and len(chosen) > 1:
        started = time.perf_counter()
        results.matchups = matchup_matrix(
            cardset,
            chosen,
            settings.matches,
            run.reporting(phase_progress(MATCHUP_PHASE)),
        )
        seconds[MATCHUP_PHASE] = time.perf_counter() - started
    return results


def provenance_line(results: StudyResults) -> str:
    """One line saying where the figures came from."""
    return provenance_text(results.match.meta)


def provenance_text(meta: Mapping[str, Any], matches_label: str | None = None, ruleset: Ruleset | None = None) -> str:
    """One line saying where simulated figures came from, from a result's `meta` (`workbench.simulate.provenance`).

    With `matches_label` (per card, per value, ...) the match count is named. With `ruleset`, the rule options are
    named where they differ from its defaults (a whole ledger would bury the line).
    """
    parts = [
        f"{meta.get('ruleset')} v{meta.get('ruleset_version')}",
        f"engine v{meta.get('engine_version')}",
        f"seed {meta.get('seed')}",
        "policies " + "/".join(str(p) for p in meta.get("policies", ())),
    ]
    if matches_label is not None:
        matches = meta.get("matches_per_card", meta.get("matches"))
        parts.append(f"{matches:,} {matches_label}" if isinstance(matches, int) else f"{matches} {matches_label}")
    parts += [
        f"card set {meta.get('cardset')} (hash {meta.get('cardset_hash')})",
        f"workbench {meta.get('workbench_version')}",
    ]
    if ruleset is not None:
        defaults = ruleset.resolve_options()
        changed = {key: value for key, value in dict(meta.get("options", {})).items() if defaults.get(key) != value}
        parts.append(
            "rule options changed: " + ", ".join(f"{key}={readable(value)}" for key, value in changed.items())
            if changed
            else f"the {ruleset.id} default rule options"
        )
    return " · ".join(parts)
