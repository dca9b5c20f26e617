"""Power curves and matchup matrices built from simulated matches.

How a card's power is measured (documented in docs/simulation.md):

- The reference deck is the first deck given; the gauntlet is every deck given (the reference included).
- With an auto gauntlet (`auto:N`, `workbench.auto_decks`), N decks built at random from the set under its deck rules
  join the gauntlet, and each of them is a reference deck: a card is measured in every auto deck that holds its slot
  (where it is not that deck's filler), against every deck of the gauntlet, and its power is the mean paired
  difference over all those matches. The run's matches per card are split evenly over (reference, opponent) pairs.
- For each slot (e.g. characters; resources have no cost axis and are not measured) the filler is the
  reference deck's card of that slot with the most copies, ties going to the cost nearest the slot's median.
- A card's variant deck is the reference deck with `REPLACED_COPIES` copies of its slot's filler (or as many as
  the deck has) replaced by copies of the card. Deck size and order are unchanged.
- The variant and the unchanged reference deck play the same seeded matches against the gauntlet (common
  random numbers), so a card's power is the mean paired difference in score (win 1, draw 1/2, loss 0), and its
  95% interval is the normal interval of that paired mean.
- A filler is the baseline every other card of its slot is measured against: its variant deck is the reference
  deck itself, so its power is 0 by construction. It gets the flag `baseline` (no verdict, no suggested cost) and
  stays out of the fitted line, the tier means and the over/under counts.
- Play shares: from the engine's per-match counters (`matches_drawn`, `matches_played`, `first_played_turn`), the
  share of its variant's matches in which the measured card's side drew and played at least one copy, and the mean
  turn of its first play, and the share in which it was played with a turn of its side left after that play
  (`played_match_turns`, `matches_played_with_a_round_left`). A card played in fewer than `min_play_share` of its
  matches (default 5%, `POWER_CURVE_DEFAULTS.min_play_share`), or played in time in fewer, is `rarely played`: its
  power is mostly the filler's matches, or matches decided before it could act, so it gets no verdict and no
  suggested cost, stays out of the line and the tier means, and its `reason` says why (never drawn; drawn but not
  affordable before the matches end; passed over by the policy; or played almost only on the last turns).
- The cost curve is the Theil-Sen line of power on cost (median pairwise slope, robust to mispriced cards) over the
  judged cards (not the fillers, not the rarely played), with Sen's 95% interval of the slope. A card's tier band
  is the line between cost - 1/2 and cost + 1/2: a card whose interval lies wholly above it is over-powered,
  wholly below under-powered. The suggested cost is the cost at which the line meets the card's power, rounded and
  kept within the set's costs, given only when the line rises with cost (its slope's interval lies above 0).
- `POWER_CURVE_DEFAULTS` (`workbench.power_defaults`) holds the settings used when a person does not choose (every
  deck of the set as the gauntlet, 2,000 matches per card, seed 0, the greedy policy): the app and the command line
  both read it, so the same set gives the same figures in both.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from workbench.auto_decks import HAND_MADE, GauntletChoice, build_auto_decks, decklist_of
from workbench.cards import CardEntry, CardSet, Deck, Options, WorkbenchInputError, closest_names
from workbench.engines import (
    FIRST_PLAYED_TURN,
    MATCHES_DRAWN,
    MATCHES_PLAYED,
    MATCHES_PLAYED_WITH_A_ROUND_LEFT,
    PLAYED_MATCH_TURNS,
    CompiledCards,
    IntArray,
)
from workbench.judging import (
    NO_COMPARATOR,
    ON_CURVE,
    OVER,
    UNDECIDED,
    UNDER,
    Decision,
    Measured,
    Resampler,
    VerdictRule,
    chance_statement,
    decide_with_stability,
    planning_statement,
    round_up,
    second_look_plan,
    theil_sen,
)
from workbench.limits import limit
from workbench.play.policies import policy_word
from workbench.power_defaults import POWER_CURVE_DEFAULTS, PowerCurveDefaults  # noqa: F401 - read from here too
from workbench.run_settings import RunSettings
from workbench.simulate import (
    CounterRows,
    FirstPlayer,
    Job,
    MatchResults,
    Progress,
    Rate,
    batch_seeds,
    check_pair_run,
    check_run_parameters,
    check_run_size,
    check_sweep,
    compile_for,
    engine_module_of,
    keep_counter_rows,
    provenance,
    run_jobs,
    simulate,
)

if TYPE_CHECKING:
    from workbench.health import LengthOptions
    from workbench.stat_values import StatValues

REPLACED_COPIES = 3
"""Copies of the filler a measured card replaces in the reference deck."""
Z95 = 1.959964
BASELINE = "baseline"
"""The flag of a filler: the card every other card of its slot is measured against (power 0 by construction)."""
RARELY_PLAYED = "rarely played"
"""The flag of a card its side played in fewer than `min_play_share` of its variant's matches: not measured."""
VERDICTS = (OVER, UNDER, ON_CURVE)
"""The flags that are a verdict on a card's cost; `UNDECIDED`, `NO_COMPARATOR`, `BASELINE` and `RARELY_PLAYED` are
not (see `workbench.judging`)."""
NOT_JUDGED = (BASELINE, RARELY_PLAYED)
"""The flags of cards kept out of the fitted line, the tier means and the over/under counts."""
FLAGS = (OVER, UNDER, ON_CURVE, UNDECIDED, NO_COMPARATOR, RARELY_PLAYED, BASELINE)
"""Every flag a card of a power curve can carry, in the order a table sorts them."""


def share_text(share: float) -> str:
    """A share of matches as a person reads it: 40%, 4.9%, 0.1%, 0.04%, 0%."""
    if share <= 0:
        return "0%"
    if share < 0.01:
        return f"{share * 100:.2g}%"
    if share < 0.1:
        # One decimal near the 5% threshold, so a card played in 4.9% never reads "5%".
        return f"{share:.1%}"
    return f"{share:.0%}"


def threshold_text(share: float) -> str:
    """A threshold share as a person reads it, without trailing zeros: 5%, 2.5%, 0%."""
    return f"{share * 100:g}%"


def check_min_play_share(share: float) -> float:
    """The threshold under which a card is `rarely played`, checked: a share from 0 (judge every card) below 1."""
    if not (isinstance(share, (int, float)) and 0 <= share < 1):
        raise WorkbenchInputError(
            f"{share!r} is not a play share threshold.",
            expected="a share of matches from 0 up to (not including) 1, e.g. 0.05 for 5%",
        )
    return float(share)


def _scores(winners: np.ndarray) -> np.ndarray:
    """Deck A's score per match: win 1, draw 1/2, loss 0."""
    return np.where(winners == 0, 1.0, np.where(winners < 0, 0.5, 0.0))


def _outcome_scores(outcomes: Sequence[tuple[Any, ...]]) -> np.ndarray:
    """Deck A's score per match: the engine's own `score` array when every batch has one (see Engine.play_batch),
    else win 1, draw 1/2, loss 0."""
    if outcomes and all(len(o) > 3 and "score" in o[3] for o in outcomes):
        return np.concatenate([np.asarray(o[3]["score"], dtype=np.float64) for o in outcomes])
    return _scores(np.concatenate([o[0] for o in outcomes]))


def choose_fillers(compiled: CompiledCards, reference: IntArray, avoid: frozenset[int] = frozenset()) -> dict[int, int]:
    """Slot -> the filler card id in the reference deck (most copies, then cost nearest the slot's median).

    Cards in `avoid` are not chosen while the slot has another candidate (a sweep must not vary its own baseline).
    """
    ids, copies = np.unique(reference, return_counts=True)
    fillers: dict[int, int] = {}
    for slot in sorted({int(compiled.slot[i]) for i in ids}):
        candidates = [
            (int(i), int(c))
            for i, c in zip(ids, copies, strict=False)
            if compiled.slot[i] == slot and not math.isnan(compiled.cost[i])
        ]
        candidates = [c for c in candidates if c[0] not in avoid] or candidates
        if not candidates:
            continue
        median = float(np.median([compiled.cost[i] for i, _ in candidates]))
        fillers[slot] = min(
            candidates, key=lambda ic: (-ic[1], abs(compiled.cost[ic[0]] - median), compiled.names[ic[0]])
        )[0]
    return fillers


def variant_deck(reference: IntArray, filler: int, card: int, copies: int = REPLACED_COPIES) -> IntArray:
    """The reference deck with up to `copies` copies of `filler` replaced by `card`, order kept."""
    out = reference.copy()
    positions = np.flatnonzero(out == filler)[:copies]
    out[positions] = card
    return out


@dataclass(frozen=True)
class PowerCurve:
    """Per-card simulated power against cost, per-cost tiers, the fitted line and provenance."""

    cards: pd.DataFrame
    """One row per measured card: card, cost, slot, copies, decks, matches, win_rate, power, low, high, se, played,
    drawn, first_played_turn, played_in_time, turns_left, mean_turns, changed, note, flag, comparator,
    comparator_cards, band_low, band_high, excess, excess_low, excess_high, excess_sd, q_value, detectable,
    matches_to_decide, stability, suggested_cost, suggested_check, reason.

    `decks` is the number of reference decks the card was measured in (1 with the hand-made gauntlet), `matches`
    the matches its power rests on, `se` its power's standard error; `copies` its copies in the (first) variant deck.

    `played` and `drawn` are shares of the variant's matches in which the card's side played / drew at least one
    copy; `first_played_turn` the mean turn of its first play in those matches (None when never played);
    `played_in_time` the share in which it was played with a turn of its side left after its first play, and
    `turns_left` the mean number of turns the matches went on after that play (None when not known);
    `mean_turns` the variant's mean match length; `changed` False when every one of its matches ended exactly as
    the reference deck's (the card never changed a match: its power is the filler's 0).

    `flag` is over, under, on curve, undecided or no comparator (`workbench.judging`), `baseline` for a filler and
    `rarely played` for a card played too seldom to be measured with no clear verdict. `comparator` says what the
    card was judged against (`line`, `tier` or `no comparator`) and `comparator_cards` which cards that rests on;
    `band_low` / `band_high` the band, `excess` power minus the band's centre with its 95% interval and standard
    error (card and band together), `q_value` the Benjamini-Hochberg adjusted p-value of "beyond band +
    tolerance", `detectable` the smallest distance beyond the band this run flags four times in five,
    `matches_to_decide` (undecided cards) the matches per card that would decide it, `stability` the share of
    bootstrap resamples giving its flag again. `suggested_cost` is given only to an over / under card whose cost
    was measured again and landed within tolerance (`suggested_check` holds that measurement). `reason` is the
    sentence that explains the flag."""
    tiers: pd.DataFrame
    """One row per cost: cost, cards, mean_power, low, high (fillers and rarely played cards left out)."""
    intercept: float
    """Power of the fitted line at cost 0."""
    slope: float
    """Power the fitted line gains per cost step."""
    baseline: Rate
    """The unchanged reference deck's score against the gauntlet."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Provenance (ruleset and engine versions, options, seed, matches per card, policy, card-set hash)."""
    slope_low: float | None = None
    """Lower end of Sen's 95% interval of the slope (None with fewer than two judged costs)."""
    slope_high: float | None = None
    """Upper end of Sen's 95% interval of the slope (None with fewer than two judged costs)."""
    fingerprints: dict[str, str] = field(default_factory=dict)
    """Card name -> a digest of its variant's match outcomes (winner, turns and score of every match, in order):
    two runs on the same seeds with equal digests played the same matches (see `Sweep`)."""

    def line(self, cost: float) -> float:
        """The fitted power at a cost."""
        return self.intercept + self.slope * cost

    @property
    def rises_with_cost(self) -> bool:
        """True when the fitted line rises with cost: its slope and the whole of its 95% interval are above 0."""
        return self.slope > 0 and self.slope_low is not None and self.slope_low > 0

    @property
    def rarely_played(self) -> list[str]:
        """The cards flagged `rarely played`, cheapest first."""
        return self.cards.loc[self.cards["flag"] == RARELY_PLAYED].sort_values("cost")["card"].tolist()

    def line_statement(self) -> str:
        """What the fitted line says about the game, in words: whether cost buys power, and so whether costs are
        suggested."""
        axis = str(self.meta.get("cost_axis", "cost"))
        if self.slope_low is None or self.slope_high is None:
            return (
                f"The judged cards have fewer than two different {axis} values, so no line of power on {axis} can be "
                "fitted: each card is judged against its own tier's mean, and no cost is suggested."
            )
        interval = f"95% interval {self.slope_low:+.3f} to {self.slope_high:+.3f}"
        if self.rises_with_cost:
            return (
                f"Power rises with {axis}: {self.slope:+.3f} per step ({interval}). Each card is judged against its "
                f"band on the line through the other judged cards (its {axis} ± 1/2); a suggested {axis} is where the "
                "line meets its power, measured again at that cost."
            )
        if self.slope <= 0:
            trend = f"falls by {abs(self.slope):.3f} per step" if self.slope < 0 else "is flat"
            meaning = "cheap cards win as much as dear ones or more"
        else:
            trend = f"rises by {self.slope:.3f} per step, but the interval includes 0"
            meaning = "the measured cards cannot show that dearer cards win more"
        return (
            f"Power does not rise with {axis} here: the fitted line {trend} ({interval}). It means {meaning}: paying "
            f"more {axis} does not buy power in this game under these decks and this policy (often because matches "
            f"end before dear cards come down; see each card's played share). Suggested costs are withheld, "
            "since no line maps power back to a cost; each card is judged against the other judged cards of its own "
            "cost, and a card alone at its cost has no comparator."
        )

    def why_statement(
        self, length_options: LengthOptions | None = None, stat_values: StatValues | None = None
    ) -> str | None:
        """Where the line does not rise: what the run itself measured about why, per cost (the share of matches in
        which cards of that cost were played with a round still left, and the matches' length), so a designer sees
        whether the game caps what cost can buy; None where the line rises or the engine keeps no play counters.

        The matches' length is the rules', not the cards': the statement says so and names the command that measures
        which rule options move it (`workbench health SET --length-options`; it is not run here, since it would double
        a curve's time). Given `length_options` (`workbench.health.length_options`) for this curve's card set, decks
        (its gauntlet but the auto decks), seed, rule options and policy, it names the options that move the length
        with their figures instead; a result for other settings is not used. Likewise, given `stat_values`
        (`workbench.stat_values.stat_values`) measured on this very card set with these rule options and policy, it
        names the attributes that carry no measurable value in play (`worth_statement`) instead of naming the
        command."""
        if self.rises_with_cost or "played_in_time" not in self.cards or "mean_turns" not in self.cards:
            return None
        axis = str(self.meta.get("cost_axis", "cost"))
        known = self.cards[self.cards["played_in_time"].map(lambda v: v is not None and not pd.isna(v))]
        if known.empty or known["cost"].nunique() < 2:
            return None
        by_cost = known.groupby("cost")["played_in_time"].agg(lambda v: float(np.mean([float(x) for x in v])))
        parts = [f"{cost:g}: {share_text(share)}" for cost, share in by_cost.items()]
        turns = float(np.mean([float(t) for t in self.cards["mean_turns"] if t is not None and not pd.isna(t)]))
        dearest = [cost for cost, share in by_cost.items() if share < float(self.meta.get("min_play_share", 0.05))]
        capped = (
            f" Cards of {axis} {', '.join(f'{c:g}' for c in dearest)} are played in time in fewer than "
            f"{threshold_text(float(self.meta.get('min_play_share', POWER_CURVE_DEFAULTS.min_play_share)))} of their "
            "matches: the game ends before they can change it, whatever their stats."
            if dearest
            else ""
        )
        decks = [deck for deck in self.meta.get("gauntlet", []) if deck not in self.meta.get("auto_decks", {})]
        if length_options is not None and length_options.same_run(self.meta, decks):
            per_pair = int(length_options.meta["matches_per_pair"])
            capped += (
                " The matches' length is a property of the rules, not of a card's cost; measured over every ordered "
                "pair of these decks, with this seed and these rule options (workbench health SET --length-options, "
                f"{per_pair:,} matches per pair for each reading): {length_options.moving_text()}."
            )
        else:
            capped += (
                " The matches' length is a property of the rules, not of a card's cost: the command workbench health "
                "SET --length-options measures which rule options move it."
            )
        worth = worth_statement(stat_values) if stat_values is not None and self.same_set(stat_values.meta) else None
        return (
            f"Why, as measured in this run: the measured cards' matches last {turns:.1f} turns on average, and the "
            f"share of matches in which a card was played with a round still left, by {axis}, is "
            f"{'; '.join(parts)}.{capped} "
            + (
                worth
                or "What each stat is worth in play, beside the cost formula, is measured by the command workbench "
                "stat-values (souls, circles, plasma, SOURCE and Millennium Blades)."
            )
        )

    def same_set(self, meta: Mapping[str, Any]) -> bool:
        """Whether another result's provenance (`meta`) is of this curve's very card set, rule options and policy."""
        return (
            meta.get("cardset_hash") == self.meta.get("cardset_hash")
            and meta.get("options") == self.meta.get("options")
            and list(meta.get("policies", []))[:1] == list(self.meta.get("policies", []))[:1]
        )

    def rarely_played_statement(self) -> str | None:
        """How many cards were too seldom played to be judged, and the threshold, or None when none was."""
        names = self.rarely_played
        if not names:
            return None
        threshold = threshold_text(float(self.meta.get("min_play_share", POWER_CURVE_DEFAULTS.min_play_share)))
        shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
        return (
            f"{len(names)} of {len(self.cards)} measured cards were played in fewer than {threshold} of their matches "
            f"({shown}): rarely played, so left out of the line and the tier means, and given a verdict only where "
            "their interval lies clearly beyond their band; each one's reason says why."
        )

    def rule_statement(self) -> str:
        """The decision rule in words: tolerance, false-discovery control, equivalence and stability."""
        rule = self.meta.get("verdict_rule", {})
        resamples = int(rule.get("resamples", 0))
        stability = (
            f"; stability: the share of {resamples} bootstrap resamples of the matches that give the same verdict"
            if resamples
            else ""
        )
        follow_up = float(rule.get("follow_up", 1.0))
        second_look = (
            f"; an undecided card more matches would decide within {follow_up:g} times its matches is measured "
            f"again and decided on all of them at {float(rule.get('second_look_level', 1.0)):g} of each level"
            if follow_up > 1
            else ""
        )
        return (
            f"Verdicts: over / under beyond band ± {rule.get('tolerance', 0):g} of score (the tolerance), with the "
            f"false-discovery rate held at {float(rule.get('false_discovery_rate', 0)):.0%} across the cards "
            "(Benjamini-Hochberg); on curve only when an equivalence test puts the card within it; otherwise "
            f"undecided{second_look}{stability}."
        )

    def follow_up_statement(self) -> str | None:
        """The second look in words: which undecided cards were measured again and with how many more matches
        (None when the run had none to make, or made none because it was turned off)."""
        follow = self.meta.get("follow_up")
        if not follow or not follow.get("cards"):
            return None
        cards = list(follow["cards"])
        shown = ", ".join(cards[:6]) + (f" and {len(cards) - 6} more" if len(cards) > 6 else "")
        return (
            f"Second look: {len(cards)} card{'s' if len(cards) != 1 else ''} left undecided that more matches could "
            f"decide within {float(follow['cap']):g} times theirs ({shown}) "
            f"{'were' if len(cards) != 1 else 'was'} measured again on fresh seeds, "
            f"{int(follow['matches_per_card']):,} more matches each, and every verdict was decided on all the matches."
        )

    def statements(self, stat_values: StatValues | None = None) -> list[str]:
        """The sentences shown at the top of the curve: the line's, the rule's, the chance of a wrong flag, the
        matches that would decide the undecided cards, then the rarely played cards' (if any). `stat_values` of the
        same card set, options and policy, when given, says which attributes carry no value in play
        (`why_statement`)."""
        return [
            self.line_statement(),
            self.rule_statement(),
            *filter(
                None,
                [
                    self.why_statement(stat_values=stat_values),
                    self.meta.get("chance"),
                    self.follow_up_statement(),
                    self.meta.get("planning"),
                    self.rarely_played_statement(),
                ],
            ),
            *self.meta.get("caveats", []),
        ]


def worth_statement(values: StatValues) -> str | None:
    """In words, from a stat-values result: the attributes whose measured worth in play holds 0 in its 95% interval
    (the cost itself aside), and which of them the formula charges for; None when every attribute is worth score."""
    rates = values.rates
    if rates.empty:
        return None
    cost = rates["kind"] == "cost"
    nothing = rates[~cost & (rates["low"] <= 0) & (rates["high"] >= 0)]
    if nothing.empty:
        return None
    charged = [
        str(row.attribute)
        for row in nothing.itertuples()
        if row.formula is not None and not pd.isna(row.formula) and float(row.formula) != 0
    ]
    meta = values.meta
    said = (
        f"What each stat is worth in play, measured on this set (workbench stat-values, seed {meta.get('seed')}, "
        f"{meta.get('design_cards')} synthetic cards): {', '.join(map(str, nothing['attribute']))} carry no "
        "measurable value in play (each 95% interval holds 0)"
    )
    if charged:
        said += f"; the cost formula charges for {', '.join(charged)} all the same"
    return said + "."


def power_curve(
    cardset: CardSet,
    decks: Sequence[Deck],
    matches_per_card: int = POWER_CURVE_DEFAULTS.matches_per_card,
    run: RunSettings = RunSettings(),
    *,
    first_player: FirstPlayer = "alternate",
    only: Sequence[str] | None = None,
    min_play_share: float = POWER_CURVE_DEFAULTS.min_play_share,
    gauntlet: GauntletChoice = HAND_MADE,
    rule: VerdictRule = VerdictRule(),
    check_suggestions: bool = True,
) -> PowerCurve:
    """Every card's simulated power against its cost (see the module docstring for the method).

    `only` limits the measured cards to those names (the line is then fitted over them alone), and none of them is
    chosen as a filler while its slot has another card in the reference deck. A card played in fewer than
    `min_play_share` of its matches is flagged `rarely played` and not judged. `gauntlet` `auto:N` adds N decks
    built at random from the set (`workbench.auto_decks`) and measures each card in every one of them that holds
    its slot, against all the decks.

    `rule.follow_up` is the second look: each card left undecided that more matches would decide within this many times
    its matches (at its current estimate) is measured again on fresh seeds, as many more matches as the neediest of
    them asks for (with a margin, within the cap), and every verdict is then decided once on all the matches. 1 or
    less: no second look.
    """
    min_play_share = check_min_play_share(min_play_share)
    seed, policy = run.seed, run.policy
    check_run_parameters(seed=seed, matches_per_card=matches_per_card, workers=run.workers, executor=run.executor)
    if not decks:
        raise WorkbenchInputError(
            "a power curve needs at least one deck: the first is the reference deck, all of them the gauntlet.",
            expected="one or more --deck files",
        )
    engine, compiled, resolved = compile_for(cardset, run.options)
    policy_id = policy_word(policy, engine.policies, engine.search_settings)
    auto_decks = build_auto_decks(cardset, _legal_first(cardset, decks, resolved), gauntlet.auto, seed, resolved)
    played_decks = [*decks, *auto_decks]
    references = auto_decks or [decks[0]]
    reference_arrays = [compiled.deck_array(deck) for deck in references]
    opponents = [compiled.deck_array(deck) for deck in played_decks]
    wanted = None if only is None else {compiled.card_id(name) for name in only}
    fillers = [choose_fillers(compiled, array, frozenset(wanted or ())) for array in reference_arrays]
    pairs = len(references) * len(opponents)
    per_pair = max(1, math.ceil(matches_per_card / pairs))
    # One seed per (reference deck, opponent): with one reference deck this is one per opponent, as it always was.
    children = iter(np.random.SeedSequence(seed).spawn(pairs))
    seed_plans = [[batch_seeds(next(children), per_pair, first_player) for _ in opponents] for _ in references]

    slots = {slot for chosen in fillers for slot in chosen}
    measured = [
        card
        for card in range(len(compiled.names))
        if not math.isnan(compiled.cost[card])
        and int(compiled.slot[card]) in slots
        and (wanted is None or card in wanted)
    ]
    if not measured:
        which = "the cards asked for" if only is not None else "any card"
        where = f"the reference deck {decks[0].name}" if not auto_decks else "any auto deck"
        raise WorkbenchInputError(
            f"the power curve cannot measure {which}: a card needs a cost and a filler of its slot (its kind of card) "
            f"in {where}.",
            expected="a reference deck holding cards of the measured card's slot",
        )
    homes: dict[int, list[int]] = {}
    for card in measured:
        slot = int(compiled.slot[card])
        holding = [r for r, chosen in enumerate(fillers) if slot in chosen]
        # Where the card is not that deck's filler, unless it is the filler of every one: then it is the baseline.
        homes[card] = [r for r in holding if fillers[r][slot] != card] or holding
    stage = _StagePlan(cardset, compiled, run, policy_id, reference_arrays, opponents, fillers, homes)
    stages = [stage.measure(measured, per_pair, seed_plans)]
    frame, home_diffs, fingerprints = _card_frame(compiled, fillers, stages, min_play_share)
    base_chunks, base_scores = stages[0].base_chunks, stages[0].base_scores
    base = np.concatenate(base_scores)
    measured_cards = _measured(frame)
    resampler = _match_resampler(frame["card"].tolist(), home_diffs, _base_strata(stages))
    decision = decide_with_stability(measured_cards, rule, resampler, seed)
    # The undecided cards a second look, at its own stricter levels, would decide within the cap.
    look = second_look_plan(decision, rule)
    followed = look.cards
    follow_meta: dict[str, Any] = {"cap": rule.follow_up, "cards": [], "matches_per_card": 0}
    if followed:
        # The second look: fresh seeds (children after the first stage's), the reference decks' own matches again on
        # them, so every card measured again stays paired with common random numbers; then one decision on all.
        extra = max(1, math.ceil((look.times - 1.0) * per_pair))
        more = iter(np.random.SeedSequence(seed).spawn(2 * pairs)[pairs:])
        extra_plans = [[batch_seeds(next(more), extra, first_player) for _ in opponents] for _ in references]
        ids = [compiled.card_id(str(frame["card"].iloc[i])) for i in followed]
        stages.append(stage.measure(ids, extra, extra_plans))
        frame, home_diffs, fingerprints = _card_frame(compiled, fillers, stages, min_play_share)
        again = np.zeros(len(frame), dtype=bool)
        again[followed] = True
        measured_cards = replace(_measured(frame), second_look=again)
        resampler = _match_resampler(frame["card"].tolist(), home_diffs, _base_strata(stages))
        decision = decide_with_stability(measured_cards, rule, resampler, seed)
        follow_meta |= {
            "cards": [str(frame["card"].iloc[i]) for i in followed],
            "matches_per_card": extra * len(opponents) * len(references),
        }
    # Each card's count per card setting: a card measured again has more matches than the run's budget gives.
    budgets = float(len(base)) * frame["matches"].to_numpy(dtype=float) / frame["first_stage_matches"].to_numpy(float)
    played_well = pd.concat(
        [_reference_play(c, compiled, a, min_play_share) for c, a in zip(base_chunks, reference_arrays, strict=False)],
        ignore_index=True,
    )
    frame = _with_verdicts(frame, decision, rule, played_well, min_play_share, engine.cost_axis, budgets)
    judged = frame[~frame["baseline"] & ~frame["rarely_played"]]
    if check_suggestions:
        frame = _check_suggestions(
            cardset, decks, frame, decision, rule, matches_per_card, run, gauntlet, min_play_share
        )
    frame = frame.drop(columns=["baseline", "rarely_played", "first_stage_matches"])
    tiers = tier_means(judged)
    line = decision.line
    meta = provenance(cardset, engine, resolved, seed, len(base), (policy, policy))
    meta["engine_findings"] = [finding.to_json() for finding in compiled.findings]
    meta |= {
        "matches_per_card": len(base),
        "matches_per_pair": per_pair,
        "reference_deck": references[0].name if len(references) == 1 else f"each of the {len(references)} auto decks",
        "reference_decks": [deck.name for deck in references],
        "gauntlet": [deck.name for deck in played_decks],
        "gauntlet_choice": gauntlet.label,
        "auto_decks": {deck.name: decklist_of(deck) for deck in auto_decks},
        "fillers": {
            str(slot): ", ".join(sorted({compiled.names[chosen[slot]] for chosen in fillers if slot in chosen}))
            for slot in sorted(slots)
        },
        "replaced_copies": REPLACED_COPIES,
        "cost_axis": engine.cost_axis,
        "score": engine.score_meaning,
        "min_play_share": min_play_share,
        "verdict_rule": {
            "tolerance": rule.tolerance,
            "false_discovery_rate": rule.false_discovery_rate,
            "equivalence_alpha": rule.equivalence_alpha,
            "resamples": decision.resamples,
            "follow_up": rule.follow_up,
            "second_look_level": rule.second_look_level,
        },
        "tested": decision.tested,
        "chance": chance_statement(decision, rule),
        "planning": planning_statement(
            frame["card"].tolist(),
            decision.matches_factor,
            budgets,
            limit("matches").value,
        ),
        "matches_to_decide_all": _matches_to_decide_all(frame),
        "follow_up": follow_meta,
    }
    return PowerCurve(
        frame,
        tiers,
        line.intercept,
        line.slope,
        Rate.of(float(base.sum()), len(base)),
        meta,
        line.slope_low,
        line.slope_high,
        fingerprints,
    )


@dataclass(frozen=True)
class _Stage:
    """One stage's matches: the reference decks' own and those of each card measured in it, on one seed plan."""

    base_chunks: list[list[tuple[Any, ...]]]
    """Per reference deck, its own matches' outcomes."""
    base_scores: list[np.ndarray]
    """Per reference deck, its own matches' scores."""
    cards: dict[int, list[tuple[int, list[tuple[Any, ...]], np.ndarray, int]]]
    """Per measured card: (reference deck, outcomes, scores, copies in the variant) for each deck it was measured in."""
    strata: list[np.ndarray]
    """Per reference deck, each match's stratum (opponent x first seat), in the order of its matches and of every
    card's matches measured in it: the design deals a fixed count of matches to each opponent and seat."""


@dataclass(frozen=True)
class _StagePlan:
    """What every stage of one power curve shares: the decks, fillers and where each card is measured."""

    cardset: CardSet
    """The set measured."""
    compiled: CompiledCards
    """Its compiled card table."""
    run: RunSettings
    """Workers, executor and progress."""
    policy_id: int
    """Both sides' policy."""
    reference_arrays: list[IntArray]
    """The reference decks, compiled."""
    opponents: list[IntArray]
    """The gauntlet, compiled."""
    fillers: list[dict[int, int]]
    """Per reference deck, the filler each slot's cards replace."""
    homes: dict[int, list[int]]
    """Per measured card, the reference decks it is measured in."""

    def measure(self, cards: Sequence[int], per_pair: int, seed_plans: list[list[Any]]) -> _Stage:
        """The reference decks unchanged, then each card in each of its reference decks, against every opponent
        on the seed plan (per reference deck, per opponent)."""
        variants: list[tuple[int | None, int, IntArray]] = [
            (None, r, array) for r, array in enumerate(self.reference_arrays)
        ]
        for card in cards:
            slot = int(self.compiled.slot[card])
            variants += [
                (card, r, variant_deck(self.reference_arrays[r], self.fillers[r][slot], card)) for r in self.homes[card]
            ]
        check_run_size(
            len(variants) * len(self.opponents) * per_pair,
            f"{len(variants):,} decks measured × {len(self.opponents):,} opponents × {per_pair:,} matches",
        )
        jobs = [
            Job(deck, opponent, seeds, first, self.policy_id, self.policy_id)
            for _, r, deck in variants
            for opponent, batches in zip(self.opponents, seed_plans[r], strict=False)
            for seeds, first in batches
        ]
        per_variant = len(jobs) // len(variants)
        # Of each job's per-card counters only the rows read later are kept, as each job comes back: the measured
        # card's (`_play_shares`), or the reference deck's cards for its own matches (`_reference_play`). The whole
        # card table's for every job held 2.4 GB for 2,000 cards at 10 matches per card (7 GB for 20,000).
        kept_rows = [[card] if card is not None else sorted(set(deck.tolist())) for card, _, deck in variants]
        outcomes = run_jobs(
            engine_module_of(self.cardset),
            self.compiled,
            jobs,
            self.run.workers,
            self.run.progress,
            self.run.executor,
            reduce=keep_counter_rows(lambda job: kept_rows[job // per_variant]),
        )
        chunks = [outcomes[i * per_variant : (i + 1) * per_variant] for i in range(len(variants))]
        references = len(self.reference_arrays)
        measured: dict[int, list[tuple[int, list[tuple[Any, ...]], np.ndarray, int]]] = {}
        for (variant_card, r, deck), chunk in zip(variants[references:], chunks[references:], strict=True):
            assert variant_card is not None  # the reference decks' own variants (card None) come first
            copies = int((deck == variant_card).sum())
            measured.setdefault(variant_card, []).append((r, chunk, _outcome_scores(chunk), copies))
        strata = [
            np.concatenate(
                [2 * opponent + first.astype(np.int64) for opponent, batches in enumerate(plan) for _, first in batches]
            )
            for plan in seed_plans[: len(self.reference_arrays)]
        ]
        return _Stage(chunks[:references], [_outcome_scores(chunk) for chunk in chunks[:references]], measured, strata)


def stratified_standard_error(parts: Sequence[np.ndarray], strata: Sequence[np.ndarray]) -> float:
    """Standard error of the mean of a card's paired differences, pooled over `parts` (one per stage and reference
    deck), each labelled by stratum (`_Stage.strata`). The design deals each opponent and each first seat a fixed
    count of matches, so how the card's effect differs between opponents is not noise: the variance is the pooled
    spread within strata (Cochran 1977, Sampling Techniques, 5.3, with the allocation proportional), not around the
    overall mean. Strata of one match add neither spread nor degrees of freedom; with no degree of freedom left,
    the plain standard error."""
    diff = np.concatenate(list(parts))
    total = len(diff)
    if total < 2:
        return 1.0 / Z95
    within, dof = 0.0, 0
    for part, labels in zip(parts, strata, strict=True):
        counts = np.bincount(labels)
        sums = np.bincount(labels, weights=part)
        present = counts > 0
        within += float((part**2).sum() - (sums[present] ** 2 / counts[present]).sum())
        dof += len(part) - int(present.sum())
    if dof <= 0:
        return float(diff.std(ddof=1)) / math.sqrt(total)
    return math.sqrt(max(within, 0.0) / dof / total)


def _card_frame(
    compiled: CompiledCards, fillers: list[dict[int, int]], stages: Sequence[_Stage], min_play_share: float
) -> tuple[pd.DataFrame, dict[str, list[tuple[int, np.ndarray]]], dict[str, str]]:
    """Each card's row from all its matches over the stages (each paired with its reference deck's own matches of
    the same stage), its paired differences per (stage, reference deck) for the stability resamples, and the
    fingerprints of its matches ("": the first stage's reference decks' own)."""
    references = len(stages[0].base_scores)
    first = stages[0]
    fingerprints = {"": _fingerprint([o for c in first.base_chunks for o in c], np.concatenate(first.base_scores))}
    base_prints = [
        [_fingerprint(c, s) for c, s in zip(stage.base_chunks, stage.base_scores, strict=True)] for stage in stages
    ]
    home_diffs: dict[str, list[tuple[int, np.ndarray]]] = {}
    rows = []
    for card, homes in first.cards.items():
        parts = [(k, r, chunk, got) for k, stage in enumerate(stages) for r, chunk, got, _ in stage.cards.get(card, [])]
        paired = [(k * references + r, got - stages[k].base_scores[r]) for k, r, _, got in parts]
        score = np.concatenate([got for _, _, _, got in parts])
        diff = np.concatenate([d for _, d in paired])
        chunk = [outcome for _, _, part, _ in parts for outcome in part]
        name = compiled.names[card]
        home_diffs[name] = paired
        mean = float(diff.mean())
        standard_error = stratified_standard_error(
            [d for _, d in paired], [stages[k].strata[r] for k, r, _, _ in parts]
        )
        half = Z95 * standard_error
        slot = int(compiled.slot[card])
        home_decks = [r for r, _, _, _ in homes]
        card_fillers = sorted({compiled.names[fillers[r][slot]] for r in home_decks})
        is_baseline = all(fillers[r][slot] == card for r in home_decks)
        fingerprints[name] = _fingerprint(chunk, score)
        # False when every match ended as with the filler (same winner, length and score): the card never changed a
        # match, so its power is exactly the filler's 0.
        changed = any(_fingerprint(part, s) != base_prints[k][r] for k, r, part, s in parts)
        rows.append(
            {
                "card": name,
                "cost": float(compiled.cost[card]),
                "slot": slot,
                "copies": homes[0][3],
                "decks": len(homes),
                "matches": len(score),
                "first_stage_matches": sum(len(s) for _, _, s, _ in homes),
                "win_rate": float(score.mean()),
                "power": mean,
                "low": mean - half,
                "high": mean + half,
                "se": standard_error,
                **_play_shares(chunk, card, len(score)),
                "changed": changed,
                "note": "filler: the baseline itself, power 0 by construction"
                if is_baseline
                else f"replaces {', '.join(card_fillers)}" + (f" in {len(homes)} decks" if references > 1 else ""),
                "baseline": is_baseline,
            }
        )
    frame = pd.DataFrame(rows)
    for column in ("played", "drawn", "first_played_turn", "played_in_time", "turns_left"):
        # Object dtype keeps "not known" / "never played" as None (JSON null), not NaN beside the numbers.
        frame[column] = pd.Series([_known(v) for v in frame[column]], index=frame.index, dtype=object)
    # A card whose engine keeps no per-match counters has no played share (None): it is judged as before.
    # A card played, but almost only when its side had no turn left to act with it, is not measured either: its
    # matches were decided before it could change them (circles' literal rules, issue 13).
    frame["rarely_played"] = (
        frame["played"].map(lambda share: share is not None and share < min_play_share)
        | frame["played_in_time"].map(lambda share: share is not None and share < min_play_share)
    ) & ~frame["baseline"]
    return frame, home_diffs, fingerprints


def _measured(frame: pd.DataFrame) -> Measured:
    """What the verdicts are decided from, out of the card frame."""
    rarely = frame["rarely_played"].to_numpy(dtype=bool)
    baseline = frame["baseline"].to_numpy(dtype=bool)
    return Measured(
        names=frame["card"].tolist(),
        cost=frame["cost"].to_numpy(dtype=float),
        power=frame["power"].to_numpy(dtype=float),
        se=frame["se"].to_numpy(dtype=float),
        judged=~baseline,
        in_line=~(baseline | rarely),
        rare=rarely,
        rare_label=RARELY_PLAYED,
    )


def _base_strata(stages: Sequence[_Stage]) -> list[np.ndarray]:
    """The reference decks' match strata, per (stage, reference deck) in the resampler's key order."""
    return [strata for stage in stages for strata in stage.strata]


def _legal_first(cardset: CardSet, decks: Sequence[Deck], options: Options) -> list[Deck]:
    """The decks the ruleset's deck check passes without an error, or all of them when none does: auto decks start
    from these (`workbench.auto_decks`), so they are legal whenever a legal deck was given."""
    legal = [
        deck
        for deck in decks
        if not any(
            f.severity == "error" for f in [*deck.load_findings, *cardset.ruleset.check_deck(cardset, deck, options)]
        )
    ]
    return legal or list(decks)


def _known(value: Any) -> float | None:
    """A number, or None for a missing one (None or NaN)."""
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)


def _fingerprint(chunk: Sequence[tuple[Any, ...]], scores: np.ndarray) -> str:
    """A digest of every match's winner, length and score, in order: equal digests, equal matches."""
    digest = hashlib.sha256()
    for outcome in chunk:
        digest.update(np.ascontiguousarray(outcome[0], dtype=np.int64).tobytes())
        digest.update(np.ascontiguousarray(outcome[1], dtype=np.int64).tobytes())
    digest.update(np.ascontiguousarray(scores, dtype=np.float64).tobytes())
    return digest.hexdigest()


def _play_shares(chunk: Sequence[tuple[Any, ...]], card: int, matches: int) -> dict[str, float | None]:
    """played / drawn (shares of the variant's matches in which the card's side, deck A, played / drew a copy), the
    mean turn of its first play, the variant's mean match length, `played_in_time` (the share of the variant's
    matches in which the card was played with at least one round of turns left after its first play) and
    `turns_left` (the mean number of turns the matches went on after its first play, where it was played)."""
    parts = [outcome[2] for outcome in chunk]
    if parts and all(isinstance(part, CounterRows) for part in parts):
        # Counters cut down to some cards' rows as the run went (keep_counter_rows): the card's own, as row 0.
        counters = np.sum([part.of(card) for part in parts], axis=0)
        card = 0
    else:
        counters = np.sum([np.asarray(part) for part in parts], axis=0)
    mean_turns = float(np.concatenate([np.asarray(outcome[1]) for outcome in chunk]).mean())
    if counters.ndim != 3 or counters.shape[2] <= FIRST_PLAYED_TURN:
        return {
            "played": None,
            "drawn": None,
            "first_played_turn": None,
            "mean_turns": mean_turns,
            "played_in_time": None,
            "turns_left": None,
        }
    played = int(counters[0, card, MATCHES_PLAYED])
    with_time = counters.shape[2] > MATCHES_PLAYED_WITH_A_ROUND_LEFT
    return {
        "played": played / matches,
        "drawn": int(counters[0, card, MATCHES_DRAWN]) / matches,
        "first_played_turn": float(counters[0, card, FIRST_PLAYED_TURN]) / played if played else None,
        "mean_turns": mean_turns,
        "played_in_time": int(counters[0, card, MATCHES_PLAYED_WITH_A_ROUND_LEFT]) / matches if with_time else None,
        "turns_left": float(counters[0, card, PLAYED_MATCH_TURNS] - counters[0, card, FIRST_PLAYED_TURN]) / played
        if with_time and played
        else None,
    }


def _reference_play(
    chunk: Sequence[tuple[Any, ...]], compiled: CompiledCards, reference: IntArray, min_play_share: float
) -> pd.DataFrame:
    """cost and first_played_turn of the reference deck's cards that its side played in at least `min_play_share`
    of the reference matches: what the game lets a deck afford, and by when (the context of a rarely played card's
    reason, known even when one card alone is measured)."""
    matches = sum(len(outcome[0]) for outcome in chunk)
    rows = []
    for card in sorted(set(reference.tolist())):
        shares = _play_shares(chunk, card, matches)
        if (
            not math.isnan(compiled.cost[card])
            and shares["played"] is not None
            and shares["played"] >= max(min_play_share, 1e-12)
        ):
            rows.append({"cost": float(compiled.cost[card]), "first_played_turn": shares["first_played_turn"]})
    return pd.DataFrame(rows, columns=["cost", "first_played_turn"])


def _rarely_played_reason(row: Any, played_well: pd.DataFrame, min_play_share: float) -> str:
    """Why a card was too seldom played to be measured, as far as the engine's counters can tell, against the
    reference deck's cards that are played (`_reference_play`): never drawn, drawn but not played, or played but
    almost only on the turns that end the matches."""
    opening = f"played in {share_text(row.played)} of matches (drawn in {share_text(row.drawn)})"
    length = f"its matches last {row.mean_turns:.1f} turns on average"
    if row.played_in_time is not None and row.played is not None and row.played >= min_play_share:
        if row.low > 0 and row.turns_left is not None and row.turns_left < 1.5:
            # Ember Pup (issue 29): the set's strongest card ends its matches within a turn of landing, so it is
            # seldom played "in time"; its stats do change the match: they end it.
            return (
                f"{opening}, and it ends the match when played: first played {row.turns_left:.1f} turns before the "
                f"end on average (turn {row.first_played_turn:.1f}), with power {row.power:+.3f} above 0; too few "
                f"of its matches go on after it lands to set it against its band without a clear margin ({length})"
            )
        return (
            f"{opening}, but in only {share_text(row.played_in_time)} with a turn of its side left after its first "
            f"play (first on turn {row.first_played_turn:.1f} on average, {row.turns_left:.1f} turns before the "
            f"match's end): it comes when most matches are decided, so its stats seldom change one, and its power "
            f"says more about the game's length than about its price ({length})"
        )
    if not row.drawn:
        return f"{opening}: never drawn, so the deck's draws never reach its copies before the matches end ({length})"
    if row.played / row.drawn >= 0.5:
        return (
            f"{opening}: when drawn it is played ({share_text(row.played / row.drawn)} of those matches), but it is "
            f"seldom drawn: the matches end before the deck's draws reach it ({length})"
        )
    with_turns = played_well.dropna(subset=["first_played_turn"])
    if with_turns.empty:
        return (
            f"{opening}: drawn but seldom played, and no card of the reference deck is "
            f"played often enough to show what the game lets a deck afford ({length})"
        )
    if row.cost > with_turns["cost"].max():
        needed = ""
        if with_turns["cost"].nunique() >= 2:
            turn_intercept, turn_slope = theil_sen(
                with_turns["cost"].to_numpy(dtype=float), with_turns["first_played_turn"].to_numpy(dtype=float)
            )
            if turn_slope > 0:
                needed = (
                    "; cards that are played show it would first be played "
                    f"about turn {turn_intercept + turn_slope * row.cost:.1f}"
                )
        return (
            f"{opening}: drawn but seldom played, and it costs more than any card of the reference deck that is played "
            f"(the dearest costs {with_turns['cost'].max():g}){needed}, while {length}: it cannot be afforded before "
            "the matches end"
        )
    peers = with_turns[with_turns["cost"] >= row.cost]
    when = (
        " (cards costing as much or more are first played on turn "
        f"{peers['first_played_turn'].astype(float).mean():.1f} on average)"
        if len(peers)
        else ""
    )
    return (
        f"{opening}: drawn but seldom played, though its cost is within reach{when}: the policy passes it over, or "
        "what it needs to be played is seldom there"
    )


def _drawn_within(generator: np.random.Generator, groups: Sequence[np.ndarray], length: int) -> np.ndarray:
    """How often each of `length` matches is drawn when each group (stratum) is resampled within itself."""
    picks = np.concatenate([group[generator.integers(0, len(group), len(group))] for group in groups])
    return np.bincount(picks, minlength=length)


def _match_resampler(
    names: Sequence[str], home_diffs: dict[str, list[tuple[int, np.ndarray]]], base_strata: Sequence[np.ndarray]
) -> Resampler:
    """Bootstrap resamples of every card's power, drawn jointly: each resample reweights the matches of each
    reference deck once, and every card measured in that deck is reweighted alike, so the common random numbers
    that pair a card's matches with the reference deck's stay paired across cards (identical cards get identical
    resamples). Matches are drawn within their stratum (opponent x first seat), as the design dealt them: a
    stratified bootstrap (Davison & Hinkley 1997, 3.7), whose spread is the standard error's."""
    columns: dict[int, list[tuple[int, np.ndarray]]] = {}
    for position, name in enumerate(names):
        for reference, diff in home_diffs.get(name, []):
            columns.setdefault(reference, []).append((position, diff))
    totals = np.array([sum(len(d) for _, d in home_diffs.get(name, [])) for name in names], dtype=float)

    def draw(generator: np.random.Generator, count: int) -> np.ndarray:
        sums = np.zeros((count, len(names)))
        for reference, held in sorted(columns.items()):
            labels = base_strata[reference]
            length = len(labels)
            groups = [np.flatnonzero(labels == label) for label in np.unique(labels)]
            matrix = np.column_stack([diff for _, diff in held])
            positions = [position for position, _ in held]
            for start in range(0, count, 25):
                # Reweighting by how often each match is drawn is resampling the matches, without the copy.
                block = min(25, count - start)
                weights = np.stack([_drawn_within(generator, groups, length) for _ in range(block)])
                sums[start : start + block, positions] += weights @ matrix
        return sums / np.where(totals > 0, totals, 1.0)

    return draw


def _band_text(decision: Decision, i: int, axis: str) -> str:
    """The comparator a card was judged against, in words (its cost named as `axis`), with its own standard error."""
    count = int(decision.comparator_count[i])
    if decision.basis[i] == "line":
        return (
            f"its band on the line of power on {axis} through the other {count} judged cards, "
            f"[{decision.band_low[i]:+.3f}, {decision.band_high[i]:+.3f}] (±{decision.comparator_se[i]:.3f})"
        )
    names = decision.comparator_cards[i]
    shown = ", ".join(names[:4]) + (f" and {count - 4} more" if count > 4 else "")
    return (
        f"the mean of the other judged cards of its {axis} ({shown}), {decision.centre[i]:+.3f} "
        f"(±{decision.comparator_se[i]:.3f})"
    )


def verdict_words(
    row: Any, decision: Decision, i: int, rule: VerdictRule, axis: str, unit: str = "matches", budget: float = 0
) -> str:
    """Why a judged card got its verdict: its power against its band, the tolerance and the test behind it
    (`unit`: what a card's measurement is counted in, matches or whole games; `budget`: the run's count per card,
    which the matches that would decide it scale)."""
    flag = decision.flag[i]
    power = f"its power {row.power:+.3f} [{row.low:+.3f}, {row.high:+.3f}]"
    if flag == NO_COMPARATOR:
        return (
            f"{power}, but no other judged card costs {row.cost:g} and power does not rise with {axis}, so nothing "
            "is comparable: no verdict against other costs"
        )
    band = _band_text(decision, i, axis)
    half = (decision.band_high[i] - decision.band_low[i]) / 2
    excess, sd = decision.excess[i], decision.sd[i]
    interval = f"power minus band {excess:+.3f} [{excess - Z95 * sd:+.3f}, {excess + Z95 * sd:+.3f}]"
    if flag in (OVER, UNDER):
        beyond = abs(excess) - half
        side, words = ("above", "stronger") if flag == OVER else ("below", "weaker")
        return (
            f"{power} lies {side} {band} by {beyond:.3f}, more than the tolerance {rule.tolerance:g} ({interval}; "
            f"q = {decision.q_value[i]:.2g} against a false-discovery rate of {rule.false_discovery_rate:.0%}): "
            f"{words} than its {axis} buys"
        )
    if flag == ON_CURVE:
        return (
            f"{power} lies within {band} ± the tolerance {rule.tolerance:g} ({interval}; equivalence test: "
            f"{abs(excess):.3f} + 1.645 × {sd:.3f} ≤ {half + rule.tolerance:.3f})"
        )
    needed = decision.matches_factor[i]
    ceiling = limit("matches").value
    if math.isfinite(needed) and needed * (budget or row.matches) <= ceiling:
        more = f"about {round_up(int(math.ceil(needed * (budget or row.matches)))):,} {unit} per card would decide it"
    else:
        more = (
            f"more {unit} alone would not decide it (within {ceiling:,} per card): it sits on the tolerance's edge, "
            f"or the band's spread between cards (±{decision.comparator_fixed_se[i]:.3f}) is as wide as its margin"
        )
    return (
        f"{power} against {band}: the run cannot tell whether it lies within or beyond the tolerance "
        f"{rule.tolerance:g} ({interval}); {more}"
    )


def played_words(row: Any) -> str:
    """The card's play share and, where it comes late or ends the match, what that means for its figure."""
    if row.played is None:
        return ""
    words = f"; played in {share_text(row.played)} of matches"
    if row.first_played_turn is None:
        return words
    if (
        row.played_in_time is not None
        and row.turns_left is not None
        and row.low > 0
        and row.turns_left < 1.5
        and row.mean_turns > 1.5
        and row.played_in_time < row.played / 2
    ):
        # Measured on circles (issue 29): Ember Pup, +0.136 [+0.120, +0.151], ends its matches within a turn of
        # landing, so it is seldom played "in time" although it is the set's strongest card.
        return (
            f"{words}; it ends the match when played: first played {row.turns_left:.1f} turns before the end on "
            "average, and its side wins more of those matches"
        )
    if row.first_played_turn > row.mean_turns:
        # Measured on circles (issue 13): a 9/8 clone of a 3/3 dealt 2.4 times its damage in as many matches and won
        # 0.1 point more, as its first play came on turn 5.2 of matches lasting 4.6 on average.
        words += (
            f", first on turn {row.first_played_turn:.1f} on average while its matches last {row.mean_turns:.1f} "
            "turns on average: it comes when most matches are decided, so its power says as much about the game's "
            "length as about its price"
        )
    return words


def _with_verdicts(
    frame: pd.DataFrame,
    decision: Decision,
    rule: VerdictRule,
    played_well: pd.DataFrame,
    min_play_share: float,
    axis: str,
    budgets: np.ndarray,
) -> pd.DataFrame:
    """The frame with each card's flag, its comparator, the test's figures, stability and the reason in words.
    `budgets` is each card's matches per card setting: a card's matches grow in proportion to it (with auto decks a
    card measured in fewer decks has fewer; a card measured again by a second look has more), so the matches that
    decide a card are its factor times its budget."""
    frame = frame.copy()
    flags: list[str] = []
    reasons: list[str] = []
    for i, row in enumerate(frame.itertuples()):
        flag = decision.flag[i]
        if row.baseline:
            flags.append(BASELINE)
            reasons.append("the filler the other cards of its slot replace: power 0 by construction, so no verdict")
            continue
        assert flag is not None  # every card but a baseline is judged
        flags.append(flag)
        if flag == RARELY_PLAYED:
            reason = _rarely_played_reason(row, played_well, min_play_share)
        else:
            reason = verdict_words(row, decision, i, rule, axis, budget=float(budgets[i]))
            if row.rarely_played:
                reason += f"; {_rarely_played_reason(row, played_well, min_play_share)} (a clear verdict all the same)"
            else:
                reason += played_words(row)
        if flag != RARELY_PLAYED and len(decision.stability) and not math.isnan(decision.stability[i]):
            kept = round(decision.stability[i] * decision.resamples)
            reason += f"; {flag} in {kept} of {decision.resamples} resamples of the matches"
        if not row.changed:
            reason += "; it never changed a match: every one ended as with the filler it replaces"
        reasons.append(reason)
    frame["flag"] = flags
    known = [b is not None for b in decision.basis]

    def column(values: Any, keep: Sequence[bool] = known) -> pd.Series:
        # Object dtype keeps "not known" as None (JSON null), not NaN beside the numbers.
        return pd.Series(
            [float(v) if k and not math.isnan(v) else None for v, k in zip(values, keep, strict=True)],
            index=frame.index,
            dtype=object,
        )

    frame["comparator"] = pd.Series(
        [b or NO_COMPARATOR if j else None for b, j in zip(decision.basis, ~frame["baseline"], strict=True)],
        index=frame.index,
        dtype=object,
    )
    frame["comparator_cards"] = [
        ", ".join(cards) + (f" and {count - len(cards)} more" if count > len(cards) else "")
        for cards, count in zip(decision.comparator_cards, decision.comparator_count, strict=True)
    ]
    frame["band_low"] = column(decision.band_low)
    frame["band_high"] = column(decision.band_high)
    frame["excess"] = column(decision.excess)
    frame["excess_low"] = column(decision.excess - Z95 * decision.sd)
    frame["excess_high"] = column(decision.excess + Z95 * decision.sd)
    frame["excess_sd"] = column(decision.sd)
    frame["q_value"] = column(decision.q_value)
    frame["detectable"] = column(decision.detectable)
    frame["matches_to_decide"] = pd.Series(
        [
            # Beyond the run limit no run could decide it: no figure, as for a card more matches cannot decide.
            round_up(int(math.ceil(f * budget)))
            if not math.isnan(f) and math.isfinite(f) and f * budget <= limit("matches").value
            else None
            for f, budget in zip(decision.matches_factor, budgets, strict=True)
        ],
        index=frame.index,
        dtype=object,
    )
    stability = decision.stability if len(decision.stability) else np.full(len(frame), math.nan)
    frame["stability"] = column(stability, [True] * len(frame))
    frame["suggested_cost"] = pd.Series([None] * len(frame), index=frame.index, dtype=object)
    frame["suggested_check"] = pd.Series([None] * len(frame), index=frame.index, dtype=object)
    frame["reason"] = reasons
    return frame


def _matches_to_decide_all(frame: pd.DataFrame) -> int | None:
    """The matches per card that would decide every undecided card more matches can decide, within the run
    limit; None when none can."""
    needed = [int(n) for n in frame["matches_to_decide"] if n is not None and n <= limit("matches").value]
    return max(needed) if needed else None


def repriced(cardset: CardSet, card_name: str, cost: float) -> CardSet:
    """A copy of the set in which one card costs `cost`: its cost fields (the ruleset's `cost_fields`, summed into
    the cost axis) change by the difference, the largest field first, none below 0."""
    card = entry_named(cardset, card_name).card
    fields = list(cardset.ruleset.cost_fields)
    values = {name: int(getattr(card, name) or 0) for name in fields}
    change = int(round(cost)) - sum(values.values())
    for name in sorted(fields, key=lambda f: -values[f]):
        if change == 0:
            break
        step = change if change > 0 else max(change, -values[name])
        values[name] += step
        change -= step
    for name, value in values.items():
        if value != int(getattr(card, name) or 0):
            cardset = with_field(cardset, card.name, name, value)
    return cardset


PRICE_CHECKS = 3
"""The most costs a flagged card is measured again at before no cost is suggested."""


def _next_cost(tried: list[tuple[float, float]], original: float, low: float, high: float) -> float | None:
    """The next cost to measure a card at, from the costs tried so far and where each landed against its band
    (excess beyond band + tolerance: positive still over, negative now under, 0 landed): past an overshoot, the
    untried cost between the original and the overshot one nearest the latter; short of the band, one step further
    on, within the set's range. None when no cost is left."""
    cost, excess = tried[-1]
    tried_costs = {c for c, _ in tried}
    direction = 1.0 if cost > original else -1.0
    if (excess > 0) == (direction > 0):
        # Still short of the band (an over card still over at a dearer cost, an under card still under when cheaper).
        step = cost + direction
        candidates = [step] if low <= step <= high else []
    else:
        candidates = [c for c in np.arange(min(original, cost) + 1, max(original, cost)) if c not in tried_costs]
        candidates.sort(key=lambda c: abs(c - cost))
    left = [float(c) for c in candidates if float(c) not in tried_costs]
    return left[0] if left else None


def _check_suggestions(
    cardset: CardSet,
    decks: Sequence[Deck],
    frame: pd.DataFrame,
    decision: Decision,
    rule: VerdictRule,
    matches_per_card: int,
    run: RunSettings,
    gauntlet: GauntletChoice,
    min_play_share: float,
) -> pd.DataFrame:
    """For each card flagged over or under on a rising line, the cost where its own line meets its power (kept within
    the set's costs, and said when capped), measured again at that cost on the same seed, then, while it misses, at
    up to `PRICE_CHECKS` costs in all (past an overshoot, the costs between; short of the band, a step further): a
    cost is suggested only where the new power landed within its new band plus the tolerance."""
    frame = frame.copy()
    if not decision.line.rises:
        return frame
    low_cost, high_cost = float(frame["cost"].min()), float(frame["cost"].max())
    no_resamples = replace(rule, resamples=0, follow_up=1.0)
    for i, row in enumerate(frame.itertuples()):
        if row.flag not in (OVER, UNDER) or decision.basis[i] != "line":
            continue
        intercept, slope = decision.line_intercept[i], decision.line_slope[i]
        wanted = round((row.power - intercept) / slope)
        cost = float(min(max(wanted, low_cost), high_cost))
        capped = cost != wanted
        if not cardset.ruleset.cost_fields:
            frame.at[row.Index, "reason"] = (
                f"{row.reason}; the line meets its power at cost {wanted:g}, but the ruleset names no cost field to "
                "measure it again at that cost, so none is suggested"
            )
            continue
        if cost == row.cost:
            frame.at[row.Index, "reason"] = (
                f"{row.reason}; no cost within the set's range ({low_cost:g}-{high_cost:g}) meets its power "
                f"(the line meets it at {wanted:g}), so no cost is suggested"
            )
            continue
        tried: list[tuple[float, float]] = []
        said: list[str] = []
        check: dict[str, Any] | None = None
        next_cost: float | None = cost
        while next_cost is not None and len(tried) < PRICE_CHECKS:
            try:
                # Each check reports to the run's progress (and so can be cancelled there), one after another.
                measured = power_curve(
                    repriced(cardset, row.card, next_cost),
                    decks,
                    matches_per_card,
                    run,
                    only=[row.card],
                    min_play_share=min_play_share,
                    gauntlet=gauntlet,
                    rule=no_resamples,
                    check_suggestions=False,
                ).cards.iloc[0]
            except WorkbenchInputError as error:
                said.append(f"cost {next_cost:g} could not be checked ({error})")
                break
            excess = float(measured["power"]) - (intercept + slope * next_cost)
            margin = abs(excess) - (slope / 2 + rule.tolerance)
            landed = bool(margin <= 0)
            check = {
                "cost": next_cost,
                "power": float(measured["power"]),
                "low": float(measured["low"]),
                "high": float(measured["high"]),
                "capped": capped and next_cost == cost,
                "landed": landed,
                "costs_tried": [c for c, _ in tried] + [next_cost],
            }
            said.append(
                f"measured again at cost {next_cost:g}{' (capped at the set’s range)' if check['capped'] else ''}: "
                f"power {measured['power']:+.3f} [{measured['low']:+.3f}, {measured['high']:+.3f}] against its band "
                f"[{intercept + slope * (next_cost - 0.5):+.3f}, {intercept + slope * (next_cost + 0.5):+.3f}]"
            )
            if landed:
                break
            tried.append((next_cost, math.copysign(margin, excess)))
            next_cost = _next_cost(tried, float(row.cost), low_cost, high_cost)
        frame.at[row.Index, "suggested_check"] = check
        if check is not None and check["landed"]:
            frame.at[row.Index, "suggested_cost"] = check["cost"]
            frame.at[row.Index, "reason"] = (
                f"{row.reason}; suggested cost {check['cost']:g}, {'; '.join(said)}: within the tolerance"
            )
        else:
            frame.at[row.Index, "reason"] = (
                f"{row.reason}; {'; '.join(said)}: still beyond the tolerance, so no cost is suggested"
            )
    return frame


def tier_means(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean power per cost over the judged cards (fillers and rarely played cards left out), with the interval of
    that mean."""
    rows = []
    for cost, group in frame.groupby("cost"):
        half_widths = (group["high"] - group["low"]) / 2
        mean = float(group["power"].mean())
        half = math.sqrt(float((half_widths**2).sum())) / len(group)
        rows.append(
            {"cost": float(cost), "cards": len(group), "mean_power": mean, "low": mean - half, "high": mean + half}
        )
    return pd.DataFrame(rows, columns=["cost", "cards", "mean_power", "low", "high"])


@dataclass(frozen=True)
class PairResult:
    """One ordered pair of decks played against each other, with the seed its matches came from."""

    deck_a: Deck
    """The deck in seat A (the row deck)."""
    deck_b: Deck
    """The deck in seat B (the column deck)."""
    seed: int
    """The pair's own seed, spawned from the run's seed in pair order."""
    results: MatchResults
    """The pair's matches."""


def play_every_pair(
    cardset: CardSet,
    decks: Sequence[Deck],
    matches: int,
    run: RunSettings,
) -> list[PairResult]:
    """Every ordered pair of `decks` (mirrors included), each on a seed spawned from `run.seed` in pair order.

    The matchup matrix and game health both play through here, so with one seed they rest on the same matches.
    """
    check_pair_run(len(decks), matches, run.seed, run.workers, run.executor)
    progress = run.progress
    pairs = [(a, b) for a in decks for b in decks]
    children = np.random.SeedSequence(run.seed).spawn(len(pairs))
    played: list[PairResult] = []
    for index, ((deck_a, deck_b), child) in enumerate(zip(pairs, children, strict=False)):
        pair_seed = int(child.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))

        def pair_progress(done: int, total: int, index: int = index) -> None:
            if progress:
                progress(index * matches + done, len(pairs) * matches)

        result = simulate(cardset, deck_a, deck_b, matches, replace(run, seed=pair_seed, progress=pair_progress))
        played.append(PairResult(deck_a, deck_b, pair_seed, result))
    return played


def matchup_matrix(
    cardset: CardSet,
    decks: Sequence[Deck],
    matches: int = POWER_CURVE_DEFAULTS.matches_per_pair,
    run: RunSettings = RunSettings(),
) -> pd.DataFrame:
    """Every ordered pair of decks (mirrors included): row deck's win rate against column deck, with intervals."""
    rows = []
    for pair in play_every_pair(cardset, decks, matches, run):
        rate = pair.results.win_rate_a
        rows.append(
            {
                "deck": pair.deck_a.name,
                "opponent": pair.deck_b.name,
                "win_rate": rate.value,
                "low": rate.low,
                "high": rate.high,
                "first_player_win_rate": pair.results.first_player_win_rate.value,
                "matches": matches,
                "seed": pair.seed,
            }
        )
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Sweep:
    """One card's simulated power as one of its fields takes each of several values, against its cost tier's band."""

    points: pd.DataFrame
    """One row per value: value, cost, power, low, high, band_low, band_high, flag, played, drawn, changed, note.

    `played` / `drawn` are shares of the value's matches (see `PowerCurve.cards`); `changed` is False when every
    match (winner, length and score, on the same seeds) is the same as with the card's current value, i.e. the field
    never changed a match; `note` says so in words, or that the card was never played at that value."""
    base: PowerCurve
    """The whole set's power curve, whose line sets each cost tier's band."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Provenance, plus the card, the field, the values swept, the card's current value and `statement`."""

    @property
    def statement(self) -> str | None:
        """One sentence when the sweep cannot say anything about the field: the card was never played at any value,
        or no value changed a match. None when the field did change matches."""
        return self.meta.get("statement")


NEVER_CHANGED = "this field never changed a match"
"""What a sweep point says when its matches are the very matches of the card's current value."""


def parse_sweep_values(text: str) -> list[int | float]:
    """`1..6` (inclusive), `1,3,5` or `0.5, 1.5` -> the values to sweep; anything else is a clear error."""
    cleaned = text.strip()
    try:
        if ".." in cleaned:
            low, high = (int(part) for part in cleaned.split("..", 1))
            if high < low or high - low > 100:
                raise ValueError
            return list(range(low, high + 1))
        numbers = [float(part) for part in cleaned.replace(";", ",").split(",") if part.strip()]
        if not numbers:
            raise ValueError
        return [int(n) if n.is_integer() else n for n in numbers]
    except ValueError:
        raise WorkbenchInputError(
            f"'{text}' is not a list of values to sweep.",
            expected="LOW..HIGH (at most 101 values) or a list like 1,3,5",
        ) from None


def entry_named(cardset: CardSet, card_name: str, purpose: str = "") -> CardEntry:
    """The set's card of that name (case-insensitive), or an error suggesting the closest names (`purpose` says what
    the card was asked for, e.g. ` to lock`)."""
    entry = cardset.find(card_name)
    if entry is None:
        hints = closest_names(card_name, cardset.names)
        raise WorkbenchInputError(
            f"the set has no card '{card_name}'{purpose}." + (f" Did you mean '{hints[0]}'?" if hints else ""),
            path=cardset.path,
            expected="a card name from the set",
        )
    return entry


def with_field(cardset: CardSet, card_name: str, field_name: str, value: Any) -> CardSet:
    """A copy of the set in which one card's field holds `value`, validated by the card's model like a sheet cell."""
    from pydantic import ValidationError

    from workbench.rulesets.base import normalize_header

    entry = entry_named(cardset, card_name)
    ruleset = cardset.ruleset
    resolved_field = ruleset.header_lookup.get(normalize_header(field_name))
    card = entry.card
    if resolved_field is None or resolved_field in ("name", "kind") or resolved_field not in type(card).model_fields:
        usable = [
            c.header for c in ruleset.columns if c.field in type(card).model_fields and c.field not in ("name", "kind")
        ]
        raise WorkbenchInputError(
            f"'{field_name}' is not a field a {card.kind} card has.",
            path=cardset.path,
            expected="one of: " + ", ".join(usable),
        )
    try:
        changed = ruleset.card_adapter.validate_python({**card.model_dump(), resolved_field: value})
    except ValidationError as error:
        raise WorkbenchInputError(
            f"{value!r} is not a valid {field_name} for '{card_name}' ({error.errors()[0]['msg']}).",
            path=cardset.path,
            column=cardset.headers.get(resolved_field, field_name),
            expected="a value the column accepts",
        ) from None
    entries = [CardEntry(changed, e.row) if e is entry else e for e in cardset.entries]
    return replace(cardset, entries=entries)


def _field_value(cardset: CardSet, card_name: str, field_name: str) -> Any:
    """The card's current value of a field (checked by `with_field` before this is called)."""
    from workbench.rulesets.base import normalize_header

    card = entry_named(cardset, card_name).card
    return getattr(card, cardset.ruleset.header_lookup.get(normalize_header(field_name), field_name))


def sweep(
    cardset: CardSet,
    decks: Sequence[Deck],
    card_name: str,
    field_name: str,
    values: Sequence[Any],
    matches_per_card: int = POWER_CURVE_DEFAULTS.matches_per_card,
    run: RunSettings = RunSettings(),
    *,
    min_play_share: float = POWER_CURVE_DEFAULTS.min_play_share,
) -> Sweep:
    """Measure the card at each value with the same seed (common random numbers), against the set's power line.

    Each point says whether its matches differ at all from the card's current value's (`changed`), and the sweep's
    `statement` says when the card was never played or the field never changed a match."""
    check_sweep(values, matches_per_card)
    variants = [with_field(cardset, card_name, field_name, value) for value in values]
    name = entry_named(cardset, card_name).card.name
    current = _field_value(cardset, name, field_name)
    steps = len(values) + 1
    total_per_step = 1_000_000
    progress = run.progress

    def step_progress(step: int) -> Progress:
        def report(done: int, total: int) -> None:
            if progress and total > 0:
                progress(step * total_per_step + done * total_per_step // total, steps * total_per_step)

        return report

    # The sweep reads the set's line and each point's interval, not the set's verdicts: no resamples, no checks, and
    # no second look (every point is measured on the same matches).
    quick = VerdictRule(resamples=0, follow_up=1.0)
    base = power_curve(
        cardset,
        decks,
        matches_per_card,
        run.reporting(step_progress(0)),
        min_play_share=min_play_share,
        rule=quick,
        check_suggestions=False,
    )
    # The matches each point is compared with: the card at its current value, measured as the points are. When the
    # set's own curve used it as its slot's filler, the points replace another filler: measure it that way too.
    current_curve = base
    if base.cards.set_index("card").loc[name, "flag"] == BASELINE:
        current_curve = power_curve(
            cardset,
            decks,
            matches_per_card,
            run.reporting(None),
            only=[name],
            min_play_share=min_play_share,
            rule=quick,
            check_suggestions=False,
        )
    base_row = current_curve.cards.set_index("card").loc[name]
    rows = []
    for step, (value, variant) in enumerate(zip(values, variants, strict=False), start=1):
        curve = power_curve(
            variant,
            decks,
            matches_per_card,
            run.reporting(step_progress(step)),
            only=[name],
            min_play_share=min_play_share,
            rule=quick,
            check_suggestions=False,
        )
        row = curve.cards.iloc[0]
        if row["flag"] == BASELINE:
            # Its slot has no other card in the reference deck, so the card is its own baseline: power 0 at any value.
            raise WorkbenchInputError(
                f"'{name}' cannot be swept: it is the only card of its kind in the reference deck {decks[0].name}, so "
                "it is the baseline the power is measured from (power 0 at every value).",
                expected="a reference deck with another card of the same kind to replace",
            )
        cost = float(row["cost"])
        if base.slope > 0:
            band_low, band_high = base.line(cost - 0.5), base.line(cost + 0.5)
        else:
            band_low = band_high = base.line(cost)
        tolerance = quick.tolerance
        if row["flag"] == RARELY_PLAYED:
            flag = RARELY_PLAYED
        elif row["low"] > band_high + tolerance:
            flag = OVER
        elif row["high"] < band_low - tolerance:
            flag = UNDER
        elif row["low"] >= band_low - tolerance and row["high"] <= band_high + tolerance:
            flag = ON_CURVE
        else:
            flag = UNDECIDED
        # The same seeds, the same decks but for this card's field: equal digests mean the very same matches.
        changed = curve.fingerprints[name] != current_curve.fingerprints[name]
        played, drawn = row["played"], row["drawn"]
        if played is not None and played == 0:
            note = f"never played at this value (drawn in {share_text(float(drawn or 0))} of matches)"
        elif flag == RARELY_PLAYED:
            note = str(row["reason"])
        else:
            note = ""
        if _same_value(value, current):
            note = "; ".join(filter(None, ["the card's current value", note]))
        elif not changed:
            note = "; ".join(filter(None, [NEVER_CHANGED + " (every match the same as at the current value)", note]))
        rows.append(
            {
                "value": value,
                "cost": cost,
                "power": float(row["power"]),
                "low": float(row["low"]),
                "high": float(row["high"]),
                "band_low": band_low,
                "band_high": band_high,
                "flag": flag,
                "played": played,
                "drawn": drawn,
                "changed": changed,
                "note": note,
            }
        )
    points = pd.DataFrame(rows)
    others = points[[not _same_value(v, current) for v in points["value"]]]
    never_changed = bool(len(others)) and not others["changed"].any()
    parts = []
    if never_changed:
        parts.append(
            f"{NEVER_CHANGED.capitalize()}: at every value swept, every one of the {base.meta['matches_per_card']:,} "
            f"matches had the same winner and length as at its current value ({current})."
        )
    if base_row["played"] == 0 and all(played == 0 for played in points["played"]):
        parts.append(
            f"{name} was never played, at its current {field_name} or at any value swept, so no value of "
            f"{field_name} can change its power until it is: {base_row['reason']}."
        )
    statement = " ".join(parts) or None
    meta = dict(base.meta) | {
        "card": name,
        "field": field_name,
        "values": list(values),
        "current_value": current,
        "statement": statement,
    }
    return Sweep(points, base, meta)


def _same_value(a: Any, b: Any) -> bool:
    """True when a swept value is the card's current value (2 and 2.0 alike)."""
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return a == b
