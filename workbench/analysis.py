"""Power curves and matchup matrices built from simulated matches.

How a card's power is measured (documented in docs/simulation.md):

- The reference deck is the first deck given; the gauntlet is every deck given (the reference included).
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
- The cost curve is the Theil-Sen line of power on cost (median pairwise slope, robust to mispriced cards) over the
  measured cards other than the fillers. A card's tier band is the line between cost - 1/2 and cost + 1/2: a card
  whose interval lies wholly above it is over-powered, wholly below under-powered. The suggested cost is the cost
  at which the line meets the card's power, rounded and kept within the set's costs.
- `POWER_CURVE_DEFAULTS` (`workbench.power_defaults`) holds the settings used when a person does not choose (every
  deck of the set as the gauntlet, 2,000 matches per card, seed 0, the greedy policy): the app and the command line
  both read it, so the same set gives the same figures in both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from workbench.cards import CardEntry, CardSet, Deck, OptionValue, WorkbenchInputError, closest_names
from workbench.engines import CompiledCards, IntArray
from workbench.power_defaults import POWER_CURVE_DEFAULTS, PowerCurveDefaults  # noqa: F401 - read from here too
from workbench.simulate import (
    FirstPlayer,
    Job,
    Progress,
    Rate,
    batch_seeds,
    compile_for,
    engine_module_of,
    provenance,
    run_jobs,
    simulate,
)

REPLACED_COPIES = 3
"""Copies of the filler a measured card replaces in the reference deck."""
Z95 = 1.959964
BASELINE = "baseline"
"""The flag of a filler: the card every other card of its slot is measured against (power 0 by construction)."""
VERDICTS = ("over", "under", "on curve")
"""The flags that are a verdict on a card's cost; `BASELINE` is not one."""


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
        candidates = [(int(i), int(c)) for i, c in zip(ids, copies) if compiled.slot[i] == slot and not math.isnan(compiled.cost[i])]
        candidates = [c for c in candidates if c[0] not in avoid] or candidates
        if not candidates:
            continue
        median = float(np.median([compiled.cost[i] for i, _ in candidates]))
        fillers[slot] = min(candidates, key=lambda ic: (-ic[1], abs(compiled.cost[ic[0]] - median), compiled.names[ic[0]]))[0]
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
    """One row per measured card: card, cost, slot, copies, win_rate, power, low, high, flag, suggested_cost, note.

    `flag` is over, under or on curve; a filler's is `baseline` (see `BASELINE`), with no suggested cost."""
    tiers: pd.DataFrame
    """One row per cost: cost, cards, mean_power, low, high (fillers left out)."""
    intercept: float
    """Power of the fitted line at cost 0."""
    slope: float
    """Power the fitted line gains per cost step."""
    baseline: Rate
    """The unchanged reference deck's score against the gauntlet."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Provenance (ruleset and engine versions, options, seed, matches per card, policy, card-set hash)."""

    def line(self, cost: float) -> float:
        """The fitted power at a cost."""
        return self.intercept + self.slope * cost


def power_curve(
    cardset: CardSet,
    decks: Sequence[Deck],
    matches_per_card: int = POWER_CURVE_DEFAULTS.matches_per_card,
    seed: int = POWER_CURVE_DEFAULTS.seed,
    policy: str = POWER_CURVE_DEFAULTS.policy,
    options: Mapping[str, OptionValue | str] | None = None,
    first_player: FirstPlayer = "alternate",
    workers: int | None = None,
    progress: Progress | None = None,
    executor: str | None = None,
    only: Sequence[str] | None = None,
) -> PowerCurve:
    """Every card's simulated power against its cost (see the module docstring for the method).

    `only` limits the measured cards to those names (the line is then fitted over them alone), and none of them is
    chosen as a filler while its slot has another card in the reference deck.
    """
    if not decks:
        raise WorkbenchInputError(
            "a power curve needs at least one deck: the first is the reference deck, all of them the gauntlet.",
            expected="one or more --deck files",
        )
    engine, compiled, resolved = compile_for(cardset, options)
    policy_id = engine.policy_index(policy)
    reference = compiled.deck_array(decks[0])
    gauntlet = [compiled.deck_array(deck) for deck in decks]
    wanted = None if only is None else {compiled.card_id(name) for name in only}
    fillers = choose_fillers(compiled, reference, frozenset(wanted or ()))
    per_opponent = max(1, math.ceil(matches_per_card / len(gauntlet)))
    children = np.random.SeedSequence(seed).spawn(len(gauntlet))
    seed_plan = [batch_seeds(child, per_opponent, first_player) for child in children]

    measured = [
        card
        for card in range(len(compiled.names))
        if not math.isnan(compiled.cost[card]) and int(compiled.slot[card]) in fillers and (wanted is None or card in wanted)
    ]
    if not measured:
        which = "the cards asked for" if only is not None else "any card"
        raise WorkbenchInputError(
            f"the power curve cannot measure {which}: a card needs a cost and a filler of its slot (its kind of card) "
            f"in the reference deck {decks[0].name}.",
            expected="a reference deck holding cards of the measured card's slot",
        )
    variants: list[tuple[int | None, IntArray]] = [(None, reference)]
    variants += [(card, variant_deck(reference, fillers[int(compiled.slot[card])], card)) for card in measured]
    jobs = [
        Job(deck, opponent, seeds, first, policy_id, policy_id)
        for _, deck in variants
        for opponent, batches in zip(gauntlet, seed_plan)
        for seeds, first in batches
    ]
    outcomes = run_jobs(engine_module_of(cardset), compiled, jobs, workers, progress, executor)
    jobs_per_variant = len(jobs) // len(variants)
    scores = [
        _outcome_scores(outcomes[i * jobs_per_variant : (i + 1) * jobs_per_variant]) for i in range(len(variants))
    ]
    base = scores[0]
    rows = []
    for (card, deck), score in zip(variants[1:], scores[1:]):
        assert card is not None
        diff = score - base
        mean = float(diff.mean())
        half = Z95 * float(diff.std(ddof=1)) / math.sqrt(len(diff)) if len(diff) > 1 else 1.0
        filler = fillers[int(compiled.slot[card])]
        rows.append(
            {
                "card": compiled.names[card],
                "cost": float(compiled.cost[card]),
                "slot": int(compiled.slot[card]),
                "copies": int((deck == card).sum()),
                "win_rate": float(score.mean()),
                "power": mean,
                "low": mean - half,
                "high": mean + half,
                "note": "filler: the baseline itself, power 0 by construction" if card == filler else f"replaces {compiled.names[filler]}",
                "baseline": card == filler,
            }
        )
    frame = pd.DataFrame(rows)
    judged = frame[~frame["baseline"]]
    intercept, slope = _fit_line(judged)
    flags, suggested = zip(
        *((BASELINE, None) if row.baseline else _judge(row, intercept, slope, judged) for row in frame.itertuples())
    )
    frame["flag"] = list(flags)
    # Object dtype keeps "no suggested cost" as None (JSON null), not NaN beside the numbers.
    frame["suggested_cost"] = pd.Series(suggested, index=frame.index, dtype=object)
    frame = frame.drop(columns="baseline")
    tiers = _tiers(judged)
    meta = provenance(cardset, engine, resolved, seed, len(base), (policy, policy))
    meta["engine_findings"] = [finding.to_json() for finding in compiled.findings]
    meta |= {
        "matches_per_card": len(base),
        "reference_deck": decks[0].name,
        "gauntlet": [deck.name for deck in decks],
        "fillers": {str(slot): compiled.names[card] for slot, card in fillers.items()},
        "replaced_copies": REPLACED_COPIES,
        "cost_axis": engine.cost_axis,
        "score": engine.score_meaning,
    }
    return PowerCurve(frame, tiers, intercept, slope, Rate.of(float(base.sum()), len(base)), meta)


def _fit_line(frame: pd.DataFrame) -> tuple[float, float]:
    """Theil-Sen line of power on cost: the median pairwise slope, so a few mispriced cards cannot tilt it.

    `frame` holds the judged cards only: a filler's power is 0 by construction, not a measurement of its cost."""
    if frame.empty or frame["cost"].nunique() < 2:
        return (float(frame["power"].median()) if not frame.empty else 0.0, 0.0)
    cost = frame["cost"].to_numpy()
    power = frame["power"].to_numpy()
    i, j = np.triu_indices(len(cost), k=1)
    distinct = cost[i] != cost[j]
    slope = float(np.median((power[j] - power[i])[distinct] / (cost[j] - cost[i])[distinct]))
    return float(np.median(power - slope * cost)), slope


def _judge(row: Any, intercept: float, slope: float, frame: pd.DataFrame) -> tuple[str, float | None]:
    """(over / under / on curve, suggested cost) for one card, against the judged cards (fillers left out)."""
    if slope > 0:
        band_low = intercept + slope * (row.cost - 0.5)
        band_high = intercept + slope * (row.cost + 0.5)
    else:
        # The simulation does not reward cost here, so judge a card against its own tier only.
        tier = frame[frame["cost"] == row.cost]["power"]
        band_low = band_high = float(tier.mean())
    if row.low > band_high:
        flag = "over"
    elif row.high < band_low:
        flag = "under"
    else:
        flag = "on curve"
    if slope <= 0:
        return flag, None
    suggested = round((row.power - intercept) / slope)
    return flag, float(min(max(suggested, frame["cost"].min()), frame["cost"].max()))


def _tiers(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean power per cost over the judged cards (fillers left out), with the interval of that mean."""
    rows = []
    for cost, group in frame.groupby("cost"):
        half_widths = (group["high"] - group["low"]) / 2
        mean = float(group["power"].mean())
        half = math.sqrt(float((half_widths**2).sum())) / len(group)
        rows.append({"cost": float(cost), "cards": len(group), "mean_power": mean, "low": mean - half, "high": mean + half})
    return pd.DataFrame(rows, columns=["cost", "cards", "mean_power", "low", "high"])


def matchup_matrix(
    cardset: CardSet,
    decks: Sequence[Deck],
    matches: int = POWER_CURVE_DEFAULTS.matches_per_pair,
    seed: int = POWER_CURVE_DEFAULTS.seed,
    policy: str = POWER_CURVE_DEFAULTS.policy,
    options: Mapping[str, OptionValue | str] | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    executor: str | None = None,
) -> pd.DataFrame:
    """Every ordered pair of decks (mirrors included): row deck's win rate against column deck, with intervals."""
    pairs = [(a, b) for a in decks for b in decks]
    children = np.random.SeedSequence(seed).spawn(len(pairs))
    rows = []
    for index, ((deck_a, deck_b), child) in enumerate(zip(pairs, children)):
        pair_seed = int(child.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))

        def pair_progress(done: int, total: int, index: int = index) -> None:
            if progress:
                progress(index * matches + done, len(pairs) * matches)

        result = simulate(
            cardset, deck_a, deck_b, matches, pair_seed, policy, options,
            workers=workers, progress=pair_progress, executor=executor,
        )
        rate = result.win_rate_a
        rows.append(
            {
                "deck": deck_a.name,
                "opponent": deck_b.name,
                "win_rate": rate.value,
                "low": rate.low,
                "high": rate.high,
                "first_player_win_rate": result.first_player_win_rate.value,
                "matches": matches,
                "seed": pair_seed,
            }
        )
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Sweep:
    """One card's simulated power as one of its fields takes each of several values, against its cost tier's band."""

    points: pd.DataFrame
    """One row per value: value, cost, power, low, high, band_low, band_high, flag."""
    base: PowerCurve
    """The whole set's power curve, whose line sets each cost tier's band."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Provenance, plus the card, the field and the values swept."""


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
            f"'{text}' is not a list of values to sweep.", expected="LOW..HIGH (at most 101 values) or a list like 1,3,5"
        ) from None


def with_field(cardset: CardSet, card_name: str, field_name: str, value: Any) -> CardSet:
    """A copy of the set in which one card's field holds `value`, validated by the card's model like a sheet cell."""
    from pydantic import ValidationError

    from workbench.rulesets.base import normalize_header

    entry = cardset.find(card_name)
    if entry is None:
        hints = closest_names(card_name, cardset.names)
        raise WorkbenchInputError(
            f"the set has no card '{card_name}'." + (f" Did you mean '{hints[0]}'?" if hints else ""),
            path=cardset.path,
            expected="a card name from the set",
        )
    ruleset = cardset.ruleset
    resolved_field = ruleset.header_lookup.get(normalize_header(field_name))
    card = entry.card
    if resolved_field is None or resolved_field in ("name", "kind") or resolved_field not in type(card).model_fields:
        usable = [c.header for c in ruleset.columns if c.field in type(card).model_fields and c.field not in ("name", "kind")]
        raise WorkbenchInputError(
            f"'{field_name}' is not a field a {card.kind} card has.",  # type: ignore[attr-defined]
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


def sweep(
    cardset: CardSet,
    decks: Sequence[Deck],
    card_name: str,
    field_name: str,
    values: Sequence[Any],
    matches_per_card: int = POWER_CURVE_DEFAULTS.matches_per_card,
    seed: int = POWER_CURVE_DEFAULTS.seed,
    policy: str = POWER_CURVE_DEFAULTS.policy,
    options: Mapping[str, OptionValue | str] | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    executor: str | None = None,
) -> Sweep:
    """Measure the card at each value with the same seed (common random numbers), against the set's power line."""
    variants = [with_field(cardset, card_name, field_name, value) for value in values]
    name = cardset.find(card_name).card.name  # type: ignore[union-attr]
    steps = len(values) + 1
    total_per_step = 1_000_000

    def step_progress(step: int) -> Progress:
        def report(done: int, total: int) -> None:
            if progress and total > 0:
                progress(step * total_per_step + done * total_per_step // total, steps * total_per_step)

        return report

    base = power_curve(
        cardset, decks, matches_per_card, seed, policy, options,
        workers=workers, progress=step_progress(0), executor=executor,
    )
    rows = []
    for step, (value, variant) in enumerate(zip(values, variants), start=1):
        curve = power_curve(
            variant, decks, matches_per_card, seed, policy, options,
            workers=workers, progress=step_progress(step), executor=executor, only=[name],
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
        flag = "over" if row["low"] > band_high else ("under" if row["high"] < band_low else "on curve")
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
            }
        )
    meta = dict(base.meta) | {"card": name, "field": field_name, "values": list(values)}
    return Sweep(pd.DataFrame(rows), base, meta)
