"""Patch proposals: the fewest card changes that bring a set's over- and under-powered cards within the tolerance and
its deck match-ups into their healthy band, found by a search over measured candidate sets and each proved by a fresh
simulation on a new seed (issue 35).

What is searched (docs/simulation.md, "Patch proposals"):

- A *change* moves one field of one card: its cost (`COST`, the ruleset's cost axis, moved through
  `workbench.analysis.repriced`) or one of its stats (a card-model field named in `fields`, e.g. plasma's `power`).
  A stat stays within the card model's own bounds and within the range the set's cards of the same kind already use
  (the documents give no other limit a card model states); a cost stays within the set's measured costs. A card's
  field moves towards balance only: an over-powered card's cost up or its stats down, an under-powered card's the
  other way, up to `max_step` steps from its current value, and first to where the power curve's line meets its
  power when the line rises with cost. In Millennium Blades a change may also move a card's number of copies
  (`COPIES`, the sheet's `copies`: how many of it the store holds), a step at a time like a stat (an over-powered
  card's copies down, an under-powered card's up), within the range the set's cards of its kind use and only where
  the document leaves the count free: a count that would give the card an error finding of the ruleset's own checks
  it did not have (an expansion, premium, master, promo or meta card's copies are fixed by its star rank,
  `blades.set_copies`; the core set is exempt) is never a candidate.
- Which cards are opened: every card flagged over or under in a candidate's measurement, and the cards its lopsided
  match-ups open (`_Search.levers`, "Match-ups and the first-player edge" below). A match-up of deck A against deck
  B whose interval lies wholly above the healthy band (A wins too often) opens the cards A holds more copies of than
  B (every section of the decklists counted) to be weakened, as an over-powered card is (cost up, stats and copies
  down), and the cards B holds more of to be strengthened, as an under-powered card is; wholly below, the other way.
  Their changes keep the flagged cards' bounds (`max_step` steps, stats within the model's and the set's range, cost
  within the set's measured costs, copies only where the document leaves them free) but have no line's meeting point
  to aim at. Never opened by a match-up: a locked card (nor a locked field), a card flagged in the measurement (its
  flag opens it and decides its direction), the baseline filler (every card's power is measured against it) and a card
  that one lopsided match-up would weaken and another strengthen (its change would trade one for the other). At most
  `MATCHUP_CARDS` (4) cards are opened by the match-ups of one measurement, those with the most leverage first: the
  copy difference times the card's play share in the measurement's power curve (`played`, the share of its matches its
  side played it in), summed over the match-ups that open it, so a card the favoured deck holds four of and plays
  comes before one it holds one more of or rarely plays, and the budget is not spread thin over every card of every
  deck. The first-player edge opens no card: it is a property of the game's rules (who goes first and what that gives),
  not of any card, so it is measured, ranks and screens the changes, and is reported, not searched.
- A *candidate* is a set of changes (at most one per card and field, at most `max_changes` cards), never touching a
  locked card or field. Each candidate set is measured by a whole power curve (every card's verdict, since one
  card's change can move another's) on the search's seed, so every candidate plays the same seeded matches (common
  random numbers); measured sets are cached by the set's content hash, so no set is measured twice.

The objectives, all minimised: the number of cards changed, the total change (cost steps plus stat points), the
remaining mispricing (over the judged cards, the sum of |excess| beyond half the band plus the tolerance, the
point figure of how far cards lie outside), the number of cards flagged over or under, and the health distance
(below). A card flagged in the set as given that a candidate's run gives no verdict (priced out of play, `rarely
played`, or moved to a cost where nothing compares with it, `no comparator`) keeps its earlier flag and mispricing in
these counts: a card moved out of judgement is not fixed. A changed card that had a verdict in the set as given
(on curve or undecided: a card a match-up opened, or one flagged only in a candidate's run) and has none in the
candidate's run counts as one more in the over/under count (`Score.unjudged`): a change that prices a card out of
play is no fix, and the proof refuses it. The result is the Pareto front of every measured candidate, not one answer.

Match-ups and the first-player edge (issue 35's "deck match-ups and first-player edge into their healthy ranges"):
each candidate set also plays every ordered pair of the decks (`workbench.analysis.play_every_pair`, the pairs and
seeds of the matchup matrix and the health check) at `matches_per_pair` (`SEARCH_MATCHES_PER_PAIR`, 200, a tenth of
the health check's 2,000: the search only ranks on them, the proof decides) on the search's seed, so every candidate
plays the same pairs on the same seeds (common random numbers). From them: the first-player edge (the health check's
figure: the first player's wins plus half the draws over every match, mirrors included) and, where the set has two or
more decks, each match-up of two different decks (the first deck's wins plus half the draws, its two ordered pairs
pooled, so each deck sits in seat A once and the first player alternates within each pair; a mirror is even by
symmetry and left out). Each is a win rate with its 95% Wilson interval, judged against the health check's
first-player band (`HealthThresholds.first_player_low` to `first_player_high`, 45% to 55%: the health module has no
separate band for a match-up, and "within 5 points of even" is the one band of even it documents). A figure's distance
is how far its interval lies wholly outside the band (0 when they meet: the health check warns on the same test, as a
verdict is made beyond its interval), so noise alone is never a distance. The figures are folded into one objective,
the health distance (their distances summed, in win-rate points), not one objective each: a set of k decks has
k(k-1)/2 match-ups, and a front over 4 + 1 + k(k-1)/2 objectives would keep nearly every candidate (few dominate on
that many counts), while one sum in one unit keeps the front a trade a designer can read. The greedy phase's order
counts each figure wholly outside its band as one more problem beside the over/under cards, then mispricing, then the
health distance, so a change that brings a match-up inside its band ranks as one problem fewer. With one deck the
first-player edge is measured on mirror matches and the result says in words that match-ups were not an objective;
whole games (`game=full`) play no decks, so neither is measured there. A match-up wholly outside its band also opens
changes of its own, for the cards that tell its two decks apart (above, "Which cards are opened"), so a set with no
flagged card but a lopsided match-up is searched; a first-player edge outside its band opens none (it is the game's,
not a card's) and is reported in words.

The search, within a budget of `evaluations` measured sets:

1. Singles: each opened card alone at each of its candidate values (the flagged cards first, the line's meeting point
   first, then the cards the lopsided match-ups open).
2. Greedy, with re-measurement: from the best single, add the best change of each card still opened in the current
   measurement (still flagged, or still opened by a match-up still outside its band; one step further for a changed
   card), keep the one that helps most, then drop any change whose removal does not hurt; stop when nothing helps, at
   `max_changes` or when the budget is spent.
3. Evolution (in the spirit of de Mesentier Silva et al., "Evolving the Hearthstone Meta", IEEE CoG 2019, whose
   multi-objective search kept the changes to existing cards few): the rest of the budget mutates parents chosen
   by binary tournament on Pareto dominance (add a change for a card opened in the parent's measurement, remove
   one, or move one a step), drawn from a generator seeded by the run's seed.

Every front member with at least one change (up to `max_proofs`, fewest changes first) is then proved: the proposed
set and the unchanged set are measured afresh on a new seed (`proof_seed`, never the search's) with the designer's
verdict rule, and their match-ups and first-player edge are played afresh at `proof_matches_per_pair` (the health
check's 2,000 per ordered pair) and shown before and after with intervals. A proposal holds up when, in that run,
none of its changed cards is over or under or without a verdict, no card newly reads over or under that was on curve
before or whose own power moved beyond both runs' intervals (an undecided card that reads over or under after on an
unmoved power was never shown on curve: the change refitted the line it is judged on, often one the mispriced cards
had bent, so it is reported in the statement, not held against the proposal),
no match-up or first-player edge is worse beyond its interval (the two runs' intervals do not meet, the figure moved
away from its band, and after the change its interval lies wholly outside the band: a fix of the cards that makes a
deck crush another trades one imbalance for another a designer did not ask for), and the over/under count (or, at an
equal count, the mispricing, or at no more mispricing the health distance) falls. One that does not hold up is not
offered, and the result says why in words.
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench.analysis import (
    BASELINE,
    POWER_CURVE_DEFAULTS,
    RARELY_PLAYED,
    PairResult,
    PowerCurve,
    entry_named,
    play_every_pair,
    power_curve,
    repriced,
    with_field,
)
from workbench.auto_decks import HAND_MADE, GauntletChoice
from workbench.cards import CardSet, Deck, WorkbenchInputError
from workbench.diff import diff_cardsets, show_value
from workbench.full_game import is_full_game
from workbench.health import HEALTH_THRESHOLDS, HealthThresholds
from workbench.judging import NO_COMPARATOR, ON_CURVE, OVER, UNDER, VerdictRule
from workbench.power_defaults import PROPOSAL_DEFAULTS
from workbench.run_settings import RunSettings
from workbench.simulate import Progress, Rate, check_pair_run, check_seed

COST = "cost"
"""The field name of a change of a card's cost: its place on the ruleset's cost axis (the ruleset's cost fields,
summed), moved by `workbench.analysis.repriced`."""
COPIES = "copies"
"""The field name of a change of a card's number of copies in its set (Millennium Blades' `copies`, the store's
count of the card): searched like a stat, and only where the document leaves the count free (`_Search.admissible`)."""
FLAGGED = (OVER, UNDER)
"""The verdicts a proposal brings within the tolerance."""
NO_VERDICT = (RARELY_PLAYED, BASELINE, NO_COMPARATOR)
"""What a card reads when a run gives it no verdict on its cost."""
HEALTH_SHARE = 0.2
"""The share of one measured set's progress given to its match-ups (the rest is its power curve's)."""
PROOF_SALT = 35
"""Mixed with the search's seed (`numpy.random.SeedSequence([seed, PROOF_SALT])`) to draw the proof's seed."""
MUTATION_TRIES = 200
"""Mutations in a row that give only candidates already measured (or not allowed) before the evolution stops."""
SEARCH_MATCHES_PER_PAIR = POWER_CURVE_DEFAULTS.matches_per_pair // 10
"""Matches per ordered pair of decks in each search measurement of the match-ups and the first-player edge: a
match-up pools its two ordered pairs (400 matches, a 95% interval of about +-5 points at 50%), and with the search's
seed every candidate plays the same pairs on the same seeds. A tenth of the health check's default
(`POWER_CURVE_DEFAULTS.matches_per_pair`), which each proof plays instead: the search only ranks candidates on these
figures, the proof decides."""
FIRST_PLAYER_FIGURE = "first_player"
"""The key of the first-player edge among a score's health figures."""
MATCHUP_FIGURE = "matchup"
"""The key of a deck match-up among a score's health figures."""
MATCHUP_CARDS = 4
"""At most this many cards a measurement's lopsided match-ups open changes for, together (beside its flagged cards,
which are always opened), those with the most leverage first (`_Search.levers`): few enough that the singles phase
spends a small share of the default 40 evaluations on them (with `max_step` 2 a card opens about two cost values and
two of each stat), so the budget is not spread thin over every card of every deck."""


@dataclass(frozen=True, order=True)
class Change:
    """One field of one card moved from its value in the set to a proposed value."""

    card: str
    """The card's name."""
    field: str
    """`COST` for the card's cost (the cost axis), else the card-model field (a stat)."""
    old: float
    """The value in the set as given (the cost axis for `COST`)."""
    new: float
    """The proposed value."""

    @property
    def size(self) -> float:
        """How far the value moves: cost steps, or stat points."""
        return abs(self.new - self.old)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"card": self.card, "field": self.field, "old": _number(self.old), "new": _number(self.new)}


@dataclass(frozen=True)
class HealthRate:
    """One health figure of a measured set (the first-player edge, or one deck match-up), a win rate with its 95%
    interval, against its healthy band."""

    key: str
    """`FIRST_PLAYER_FIGURE` or `MATCHUP_FIGURE`."""
    label: str
    """What it is, for a person: `first player`, or `deck v opponent` (the rate is the first deck's)."""
    value: float
    """The win rate (draws count half)."""
    low: float
    """Lower end of its 95% Wilson interval."""
    high: float
    """Upper end of its 95% Wilson interval."""
    matches: int
    """The matches it rests on."""
    band_low: float
    """The healthy band's lower end (`HealthThresholds.first_player_low`)."""
    band_high: float
    """The healthy band's upper end (`HealthThresholds.first_player_high`)."""

    @property
    def distance(self) -> float:
        """How far the interval lies wholly outside the healthy band, in win rate (0 when the two meet): the health
        check's own test (`workbench.health`: a figure warns only when its interval lies wholly outside), so noise
        alone is never a distance."""
        return max(0.0, self.low - self.band_high) + max(0.0, self.band_low - self.high)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "key": self.key,
            "label": self.label,
            "value": self.value,
            "low": self.low,
            "high": self.high,
            "matches": self.matches,
            "band_low": self.band_low,
            "band_high": self.band_high,
            "distance": self.distance,
        }

    def text(self) -> str:
        """`62.1% [58.8%, 65.3%]`."""
        return f"{self.value:.1%} [{self.low:.1%}, {self.high:.1%}]"


@dataclass(frozen=True)
class SetHealth:
    """A measured set's match-ups and first-player edge (see the module docstring, "Match-ups and the first-player
    edge")."""

    figures: tuple[HealthRate, ...]
    """The first-player edge first, then each match-up of two different decks (none with fewer than two decks)."""
    matches_per_pair: int
    """Matches per ordered pair of decks."""
    matchups: bool
    """Whether match-ups were measured (two or more decks)."""

    @property
    def distance(self) -> float:
        """The health distance: the sum of every figure's `HealthRate.distance` (one objective)."""
        return float(sum(figure.distance for figure in self.figures))

    @property
    def outside(self) -> int:
        """How many figures lie wholly outside their healthy band."""
        return sum(figure.distance > 0 for figure in self.figures)

    def figure(self, key: str, label: str) -> HealthRate | None:
        """The figure of that key and label, if measured."""
        return next((f for f in self.figures if (f.key, f.label) == (key, label)), None)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "distance": self.distance,
            "outside": self.outside,
            "matches_per_pair": self.matches_per_pair,
            "matchups_measured": self.matchups,
            "figures": [figure.to_json() for figure in self.figures],
        }


@dataclass(frozen=True)
class Lever:
    """A card a lopsided match-up opens changes for (`_Search.levers`): one that tells the two decks apart."""

    card: str
    """The card's name."""
    direction: float
    """+1 to weaken it (cost up, stats and copies down: it is in the favoured deck more than in the other), -1 to
    strengthen it (the other way)."""
    leverage: float
    """Its pull on the match-ups that open it: the copy difference between the two decks times its play share in the
    measurement's power curve, summed over those match-ups."""
    matchups: tuple[str, ...]
    """The labels of the match-ups that open it (`deck v opponent`)."""

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "card": self.card,
            "direction": "weaken" if self.direction > 0 else "strengthen",
            "leverage": self.leverage,
            "matchups": list(self.matchups),
        }


@dataclass(frozen=True)
class Score:
    """A measured set's balance figures, the objectives a proposal lowers."""

    flagged: int
    """Cards flagged over or under (a changed card priced out of play keeps its earlier flag), plus, in the search's
    run, the `unjudged` changed cards."""
    mispricing: float
    """Over the judged cards, the sum of |excess| beyond half the band plus the tolerance, in score."""
    over: tuple[str, ...]
    """The cards flagged over."""
    under: tuple[str, ...]
    """The cards flagged under."""
    health: SetHealth | None = None
    """Its match-ups and first-player edge, or None when they were not measured (whole games)."""
    unjudged: tuple[str, ...] = ()
    """In the search's run, the changed cards that had a verdict in the set as given and have none here (rarely
    played, or nothing to compare with): each counts in `flagged`, as a change that prices a card out of play is no
    fix (the proof refuses it). Empty in the proof's scores."""

    @property
    def health_distance(self) -> float:
        """The health objective: how far the match-ups and the first-player edge lie outside their healthy band,
        beyond their intervals, summed (0 when not measured)."""
        return 0.0 if self.health is None else self.health.distance

    @property
    def health_outside(self) -> int:
        """How many match-ups and first-player figures lie wholly outside their healthy band."""
        return 0 if self.health is None else self.health.outside

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "flagged": self.flagged,
            "mispricing": self.mispricing,
            "over": list(self.over),
            "under": list(self.under),
            "unjudged": list(self.unjudged),
            "health_distance": self.health_distance,
            "health": None if self.health is None else self.health.to_json(),
        }


@dataclass(frozen=True)
class Candidate:
    """A set of changes the search measured, with its objectives on the search's seed."""

    changes: tuple[Change, ...]
    """The changes, in card order (empty: the set as given)."""
    score: Score
    """Its balance figures in the search's run."""
    cardset_hash: str
    """The content hash of the changed set (what the measurement cache is keyed by)."""

    @property
    def cards_changed(self) -> int:
        """How many different cards the candidate changes."""
        return len({c.card for c in self.changes})

    @property
    def total_change(self) -> float:
        """The sum of the changes' sizes (cost steps plus stat points)."""
        return float(sum(c.size for c in self.changes))

    def objectives(self) -> tuple[float, float, float, float, float]:
        """(cards changed, total change, over/under count, mispricing, health distance), each minimised."""
        return (
            float(self.cards_changed),
            self.total_change,
            float(self.score.flagged),
            self.score.mispricing,
            round(self.score.health_distance, 9),
        )


@dataclass(frozen=True)
class Proposal:
    """One member of the front, with its patch notes, the changed set and its proof on a fresh seed."""

    changes: tuple[Change, ...]
    """The changes proposed."""
    cardset: CardSet
    """The set with the changes made (save it with `proposal_workbook` / `save_proposal`)."""
    patch_notes: list[str]
    """The changes in the workbench's diff format (`workbench.diff.SetDiff.patch_notes`): `Storm Rider: cost 3 ->
    2.`, then any finding the change makes appear or go away (e.g. the document's cost formula)."""
    search: Score
    """Its figures in the search's run (the search's seed)."""
    before: Score
    """The unchanged set's figures in the proof run (the new seed)."""
    after: Score
    """The proposed set's figures in the proof run."""
    verdicts: pd.DataFrame
    """The proof run's verdicts, before and after, for every changed card and every card flagged or whose flag
    moved: card, changed, then before_/after_ flag, power, low, high (95% interval), band_low, band_high."""
    held: bool
    """True when the proof run confirms it (see the module docstring); only these are offered."""
    statement: str
    """Why it holds up or does not, in words."""

    @property
    def cards_changed(self) -> int:
        """How many different cards it changes."""
        return len({c.card for c in self.changes})

    def to_json(self) -> dict[str, Any]:
        """Plain data (the changed set itself is not included: save it with `save_proposal`)."""
        return {
            "changes": [c.to_json() for c in self.changes],
            "cards_changed": self.cards_changed,
            "patch_notes": list(self.patch_notes),
            "cardset_hash": self.cardset.content_hash(),
            "search": self.search.to_json(),
            "proof_before": self.before.to_json(),
            "proof_after": self.after.to_json(),
            "verdicts": _records(self.verdicts),
            "held": self.held,
            "statement": self.statement,
        }


@dataclass(frozen=True)
class Proposals:
    """The result of `propose`: the front, the proposals that held up in the proof run, and those that did not."""

    offered: list[Proposal]
    """The proposals that held up in the proof run, fewest changes first: what a designer may apply."""
    refused: list[Proposal]
    """The front members that did not hold up in the proof run, each with its statement: not offered."""
    front: pd.DataFrame
    """The Pareto front of every measured candidate: changes (patch-note style text), cards_changed, total_change,
    flagged, mispricing (search run), then proved (whether it had a proof run) and held (None when not proved)."""
    base: Score
    """The set as given, in the search's run."""
    base_verdicts: pd.DataFrame
    """The set as given, in the search's run: card, cost, flag, power, low, high, band_low, band_high, excess."""
    evaluated: int
    """How many candidate sets the search measured (the set as given included)."""
    seconds: float
    """Wall-clock time of the whole call, search and proofs."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Provenance: the search run's (ruleset and engine versions, options, seed, matches per card, policy, card-set
    hash, workbench version) under `search`, the proof run's under `proof`, and the search's settings (fields,
    locks, budgets, verdict rule)."""
    statements: list[str] = field(default_factory=list)
    """What a designer should read first: what was found, what was not offered and why."""

    def to_json(self) -> dict[str, Any]:
        """Plain data for `--format json`."""
        return {
            "offered": [p.to_json() for p in self.offered],
            "refused": [p.to_json() for p in self.refused],
            "front": _records(self.front),
            "base": self.base.to_json(),
            "base_verdicts": _records(self.base_verdicts),
            "evaluated": self.evaluated,
            "seconds": self.seconds,
            "meta": self.meta,
            "statements": list(self.statements),
        }

    def to_text(self) -> str:
        """The result as a person reads it: statements, the front, then each proved proposal with its notes and its
        verdicts before and after, with intervals and provenance."""
        search, proof = self.meta.get("search", {}), self.meta.get("proof", {})
        lines = [
            f"Patch proposals for {search.get('cardset', '')} ({search.get('ruleset', '')} "
            f"{search.get('ruleset_version', '')}, card-set hash {search.get('cardset_hash', '')})",
            f"Search: seed {search.get('seed')}, {search.get('matches_per_card', 0):,} matches per card, policy "
            f"{search.get('policy')}, {self.evaluated} sets measured, tolerance {self.meta.get('tolerance')}.",
            (
                f"Proof: new seed {proof.get('seed')}, {proof.get('matches_per_card', 0):,} matches per card; "
                "intervals are 95%."
                if proof.get("run")
                else f"Proof: not run (no proposal to prove); its seed would be {proof.get('seed')}."
            )
            + f" Took {self.seconds:.0f} s.",
            "",
            *self.statements,
            "",
            "Front (search run): cards changed, total change, over/under left, mispricing left, health distance",
        ]
        for row in self.front.itertuples():
            held = "" if row.held is None else ("  held up" if row.held else "  did not hold up")
            lines.append(
                f"  {row.cards_changed} | {row.total_change:g} | {row.flagged} | {row.mispricing:.3f} | "
                f"{row.health_distance:.3f} | {row.changes}{held}"
            )
        for title, proposals in (("Offered", self.offered), ("Not offered", self.refused)):
            for number, proposal in enumerate(proposals, start=1):
                # A refused proposal's statement says "Not offered: ..." itself (the app and JSON show it alone).
                statement = proposal.statement.removeprefix(f"{title}: ")
                lines += ["", f"{title} {number}: {statement}"]
                lines += [f"  {note}" for note in proposal.patch_notes]
                lines.append(
                    f"  proof run: over/under {proposal.before.flagged} -> {proposal.after.flagged}, mispricing "
                    f"{proposal.before.mispricing:.3f} -> {proposal.after.mispricing:.3f}"
                )
                lines += [f"  {_verdict_line(row)}" for row in proposal.verdicts.itertuples()]
                lines += [f"  {line}" for line in _health_lines(proposal.before.health, proposal.after.health)]
        return "\n".join(lines)


def propose(
    cardset: CardSet,
    decks: Sequence[Deck],
    matches_per_card: int = PROPOSAL_DEFAULTS.matches_per_card,
    run: RunSettings = RunSettings(),
    *,
    fields: Sequence[str] = (COST,),
    locked_cards: Collection[str] = (),
    locked_fields: Collection[str] = (),
    max_changes: int = PROPOSAL_DEFAULTS.max_changes,
    max_step: int = 2,
    evaluations: int = PROPOSAL_DEFAULTS.evaluations,
    proof_matches_per_card: int | None = None,
    proof_seed: int | None = None,
    max_proofs: int = 6,
    rule: VerdictRule = VerdictRule(),
    min_play_share: float = POWER_CURVE_DEFAULTS.min_play_share,
    gauntlet: GauntletChoice = HAND_MADE,
    matches_per_pair: int = SEARCH_MATCHES_PER_PAIR,
    proof_matches_per_pair: int = POWER_CURVE_DEFAULTS.matches_per_pair,
    thresholds: HealthThresholds = HEALTH_THRESHOLDS,
) -> Proposals:
    """The Pareto front of card changes that bring the set's over/under cards within `rule.tolerance` and its deck
    match-ups into their healthy band, each front member with a change proved on a new seed (see the module
    docstring for the method: which cards are opened, the objectives, the search and the proof).

    `decks` are the power curve's (the first the reference deck, all of them the gauntlet); `matches_per_card` is
    each search measurement's, `proof_matches_per_card` (default the same) each proof's. `fields` are what may
    change: `COST` and/or stat fields of the card model (names as the sheet's headers or the model's fields).
    `locked_cards` never change; `locked_fields` never change on any card (`COST` or a cost field locks the cost).
    `max_changes` caps the cards one proposal changes; `max_step` how far one field moves (beyond that only to the
    line's meeting point); `evaluations` the candidate sets the search measures; `max_proofs` the front members
    proved. `run` gives the search's seed, policy, options, workers, executor and progress; the proof seed is drawn
    from the search's seed unless given, and must differ from it. `matches_per_pair` is each search measurement's
    matches per ordered pair of decks for the match-ups and the first-player edge (`SEARCH_MATCHES_PER_PAIR`),
    `proof_matches_per_pair` each proof's (the health check's default); `thresholds` give their healthy band.
    """
    started = time.perf_counter()
    problems = _check_settings(max_changes, max_step, evaluations, max_proofs)
    if problems:
        raise WorkbenchInputError(f"propose: {problems}", expected="whole numbers of 1 or more")
    proof_matches = matches_per_card if proof_matches_per_card is None else proof_matches_per_card
    proof = _proof_seed(run.seed) if proof_seed is None else check_seed(proof_seed)
    if proof == run.seed:
        raise WorkbenchInputError(
            f"the proof seed {proof} is the search's seed: a proposal is proved on matches the search never saw.",
            expected="a proof seed different from --seed",
        )
    stats = _resolve_fields(cardset, fields)
    cards_locked = {_card_name(cardset, name) for name in locked_cards}
    fields_locked = _resolve_locked_fields(cardset, locked_fields)
    search = _Search(
        cardset=cardset,
        decks=decks,
        matches_per_card=matches_per_card,
        run=run,
        stats=stats,
        cost_allowed=COST in stats and COST not in fields_locked,
        locked_cards=cards_locked,
        locked_fields=fields_locked,
        max_changes=max_changes,
        max_step=max_step,
        budget=evaluations,
        rule=rule,
        min_play_share=min_play_share,
        gauntlet=gauntlet,
        steps=evaluations + max_proofs + 1,
        matches_per_pair=matches_per_pair,
        thresholds=thresholds,
    )
    if search.health_measured:
        deck_count = len({deck.name for deck in decks})
        for count in (matches_per_pair, proof_matches_per_pair):
            check_pair_run(deck_count, count, run.seed, run.workers, run.executor)
    base = search.evaluate(())
    assert base is not None  # the set as given is always measured
    search.run_search()
    front = _pareto_front(list(search.archive.values()))
    chosen = _to_prove(front)[:max_proofs]

    proof_run = replace(run, seed=proof)
    proof_rule = rule
    proof_meta: dict[str, Any] = {
        "seed": proof,
        "matches_per_card": proof_matches,
        "matches_per_pair": proof_matches_per_pair if search.health_measured else None,
        "run": False,
    }
    if chosen:
        before_curve = search.measure(cardset, proof_run, proof_matches, proof_rule, step=search.budget)
        before_health = search.measure_health(cardset, proof_run, proof_matches_per_pair, step=search.budget)
        before = replace(_score(before_curve, rule.tolerance, None), health=before_health)
        proof_meta = _run_meta(before_curve) | {
            "run": True,
            "matches_per_pair": proof_matches_per_pair if search.health_measured else None,
        }
    offered: list[Proposal] = []
    refused: list[Proposal] = []
    held_by_key: dict[tuple[Change, ...], bool] = {}
    for index, candidate in enumerate(chosen, start=1):
        changed_set = search.apply(candidate.changes)
        assert changed_set is not None
        after_curve = search.measure(changed_set, proof_run, proof_matches, proof_rule, step=search.budget + index)
        after_health = search.measure_health(changed_set, proof_run, proof_matches_per_pair, step=search.budget + index)
        changed_cards = tuple(sorted({c.card for c in candidate.changes}))
        after = replace(_score(after_curve, rule.tolerance, before_curve), health=after_health)
        verdicts = _verdicts_before_after(before_curve, after_curve, changed_cards)
        held, statement = _judge_proof(candidate, before, after, verdicts)
        proposal = Proposal(
            changes=candidate.changes,
            cardset=changed_set,
            patch_notes=diff_cardsets(cardset, changed_set, run.options).patch_notes(),
            search=candidate.score,
            before=before,
            after=after,
            verdicts=verdicts,
            held=held,
            statement=statement,
        )
        (offered if held else refused).append(proposal)
        held_by_key[candidate.changes] = held
    front_frame = _front_frame(front, held_by_key)
    statements = _statements(base.score, front, chosen, offered, refused, search, max_proofs)
    meta = {
        "search": search.base_meta,
        "proof": proof_meta,
        "tolerance": rule.tolerance,
        "false_discovery_rate": rule.false_discovery_rate,
        "fields": list(stats),
        "locked_cards": sorted(cards_locked),
        "locked_fields": sorted(fields_locked),
        "max_changes": max_changes,
        "max_step": max_step,
        "evaluations": evaluations,
        "max_proofs": max_proofs,
        "gauntlet": gauntlet.label,
        "min_play_share": min_play_share,
        "health": {
            "measured": search.health_measured,
            "matchups_measured": search.health_measured and len({deck.name for deck in decks}) >= 2,
            "matches_per_pair": matches_per_pair if search.health_measured else None,
            "proof_matches_per_pair": proof_matches_per_pair if search.health_measured else None,
            "healthy_low": thresholds.first_player_low,
            "healthy_high": thresholds.first_player_high,
            "matchup_cards": MATCHUP_CARDS,
            "levers": [lever.to_json() for lever in search.levers(base)],
        },
    }
    return Proposals(
        offered=offered,
        refused=refused,
        front=front_frame,
        base=base.score,
        base_verdicts=_base_verdicts(search.base_curve),
        evaluated=search.spent,
        seconds=time.perf_counter() - started,
        meta=meta,
        statements=statements,
    )


def proposal_workbook(
    proposal: Proposal, original: CardSet, decks: Sequence[Deck] | None = None, *, source: bytes | None = None
) -> bytes:
    """The proposal as a new version of the original workbook (xlsx bytes), through the card editor's own save
    (`workbench.editing.to_xlsx_bytes`): every sheet and column of the original kept, only the changed cells
    rewritten; with `decks`, the `Decks` sheet written from them (else an xlsx original's own Decks sheet is kept).
    `source` is the original file's bytes when its path is not a file to read (the app's upload: the set's path is
    then only the file's name)."""
    from workbench.decklists import deck_sheet_lines, decks_sheet_content, read_decks_sheet
    from workbench.editing import cell_text, sheet_from_table, to_xlsx_bytes
    from workbench.spreadsheets import SheetTable, read_input_file

    table = original.table
    if not isinstance(table, SheetTable):
        raise WorkbenchInputError(
            "the set was not read from a sheet, so there is no workbook to write a new version of.",
            path=original.path,
            expected="a card set loaded from an .xlsx or .csv file",
        )
    sheet = sheet_from_table(table)
    frame = sheet.frame.copy()
    for change in proposal.changes:
        before = original.find(change.card)
        after = proposal.cardset.find(change.card)
        assert before is not None and after is not None
        for name in type(after.card).model_fields:
            old_value, new_value = getattr(before.card, name), getattr(after.card, name)
            if old_value == new_value:
                continue
            header = original.headers.get(name)
            if header is None or header not in sheet.headers:
                raise WorkbenchInputError(
                    f"the sheet has no column for {name} of '{change.card}', so the proposal cannot be written.",
                    path=original.path,
                    expected=f"a {name} column",
                )
            frame.iat[frame.index.get_loc(before.row), sheet.headers.index(header)] = cell_text(new_value)
    sheet = replace(sheet, frame=frame)
    if source is None and original.path:
        source = read_input_file(original.path, original.path, "the card set's file")
    content = None
    if decks is not None:
        upload = read_decks_sheet(table, original.ruleset)
        lines = [line for deck in decks for line in deck_sheet_lines(deck, original.ruleset)]
        content = decks_sheet_content(lines, original.ruleset, upload)
    return to_xlsx_bytes(sheet, original.ruleset_id, source, original.name, decks=content)


def save_proposal(
    proposal: Proposal, original: CardSet, out_path: str | Path, decks: Sequence[Deck] | None = None
) -> Path:
    """Write `proposal_workbook` to `out_path` (.xlsx) through a temporary file; refuses to write over the original."""
    from workbench.spreadsheets import refuse_out_over_input, write_atomically

    refuse_out_over_input(out_path, [original.path])
    data = proposal_workbook(proposal, original, decks)
    return write_atomically(out_path, lambda temp: Path(temp).write_bytes(data))


# The search ----------------------------------------------------------------------------------------------------


@dataclass
class _Search:
    """The search's state: the cache of measured sets, the archive of candidates and the budget."""

    cardset: CardSet
    decks: Sequence[Deck]
    matches_per_card: int
    run: RunSettings
    stats: tuple[str, ...]
    cost_allowed: bool
    locked_cards: set[str]
    locked_fields: set[str]
    max_changes: int
    max_step: int
    budget: int
    rule: VerdictRule
    min_play_share: float
    gauntlet: GauntletChoice
    steps: int
    spent: int = 0
    archive: dict[tuple[Change, ...], Candidate] = field(default_factory=dict)
    matches_per_pair: int = SEARCH_MATCHES_PER_PAIR
    thresholds: HealthThresholds = HEALTH_THRESHOLDS
    curves: dict[str, PowerCurve] = field(default_factory=dict)
    healths: dict[str, SetHealth | None] = field(default_factory=dict)
    refused: set[tuple[Change, ...]] = field(default_factory=set)
    base_curve: Any = None
    base_meta: dict[str, Any] = field(default_factory=dict)
    original: dict[str, dict[str, Any]] = field(init=False)
    stat_bounds: dict[tuple[str, str], tuple[float, float]] = field(init=False)
    search_rule: VerdictRule = field(init=False)
    cost_range: tuple[float, float] = (0.0, 0.0)
    admitted: dict[tuple[str, float], bool] = field(default_factory=dict)
    base_errors: set[tuple[str, str | None]] | None = None
    deck_copies: dict[str, dict[str, int]] = field(init=False)
    matchup_decks: dict[str, tuple[str, str]] = field(init=False)

    def __post_init__(self) -> None:
        self.original = {
            entry.card.name: {name: getattr(entry.card, name) for name in type(entry.card).model_fields}
            for entry in self.cardset
        }
        # The decks as `measure_health` plays them (one per name), and each match-up's label (as `_set_health`
        # writes it) -> its two decks, the first deck's win rate being the figure.
        decks = list({deck.name: deck for deck in self.decks}.values())
        self.deck_copies = {deck.name: _copies(deck) for deck in decks}
        names = [deck.name for deck in decks]
        self.matchup_decks = {
            f"{deck} v {opponent}": (deck, opponent)
            for index, deck in enumerate(names)
            for opponent in names[index + 1 :]
        }
        self.stat_bounds = _stat_bounds(self.cardset, [s for s in self.stats if s != COST])
        self.search_rule = replace(self.rule, resamples=0)

    # Measuring ---------------------------------------------------------------------------------------------------

    def progress_for(self, step: int, start: float = 0.0, end: float = 1.0) -> Progress | None:
        """Progress within one step (one measured set), from `start` to `end` of the step."""
        progress = self.run.progress
        if progress is None:
            return None
        total = 1_000_000

        def report(done: int, of: int) -> None:
            if of > 0:
                within = int((start + (end - start) * done / of) * total)
                progress(min(step, self.steps) * total + within, (self.steps + 1) * total)

        return report

    def measure(self, cardset: CardSet, run: RunSettings, matches: int, rule: VerdictRule, step: int) -> PowerCurve:
        """One whole power curve of `cardset` (no suggested-cost checks: the search makes its own)."""
        share = HEALTH_SHARE if self.health_measured else 0.0
        return power_curve(
            cardset,
            self.decks,
            matches,
            run.reporting(self.progress_for(step, 0.0, 1.0 - share)),
            min_play_share=self.min_play_share,
            gauntlet=self.gauntlet,
            # Candidates are compared on the same matches: no second look, whose matches depend on what it saw.
            rule=replace(rule, follow_up=1.0),
            check_suggestions=False,
        )

    @property
    def health_measured(self) -> bool:
        """Whether match-ups and the first-player edge are measured (not in whole games, which have no decks)."""
        return not is_full_game(self.cardset.ruleset, self.run.options)

    def measure_health(self, cardset: CardSet, run: RunSettings, matches_per_pair: int, step: int) -> SetHealth | None:
        """The set's match-ups and first-player edge on `run`'s seed (every ordered pair of the decks, as
        `workbench.analysis.play_every_pair` plays them, so with one seed every candidate plays the same pairs on the
        same seeds), or None in whole games."""
        if not self.health_measured:
            return None
        decks = list({deck.name: deck for deck in self.decks}.values())
        pairs = play_every_pair(
            cardset, decks, matches_per_pair, run.reporting(self.progress_for(step, 1.0 - HEALTH_SHARE, 1.0))
        )
        return _set_health(pairs, [deck.name for deck in decks], matches_per_pair, self.thresholds)

    def admissible(self, change: Change) -> bool:
        """Whether the document allows the change. Only a change of `COPIES` is checked here (a cost or a stat is
        bounded by the card model and the set's range, `_stat_bounds`): the card's copies set to the new count alone
        must give no error finding of the ruleset's card checks (`validate`) on that card that the set as given does
        not already have. In Millennium Blades that leaves an expansion, premium, master, promo or meta card's
        copies fixed by its star rank (`blades.set_copies`: 1 for the set's highest star, 3 for its lowest, 2 for
        every other, 1 in promo and meta sets) and a core-set card's free (the document exempts the core set)."""
        if change.field != COPIES:
            return True
        key = (change.card, change.new)
        if key not in self.admitted:
            self.admitted[key] = self._no_new_error(change)
        return self.admitted[key]

    def _no_new_error(self, change: Change) -> bool:
        from workbench.validate import validate

        if self.base_errors is None:
            self.base_errors = _errors(validate(self.cardset, options=self.run.options).findings)
        try:
            changed = with_field(self.cardset, change.card, change.field, int(change.new))
        except WorkbenchInputError:
            return False
        new = _errors(validate(changed, options=self.run.options).findings) - self.base_errors
        return not any(card == change.card for _, card in new)

    def apply(self, changes: Iterable[Change]) -> CardSet | None:
        """The set with the changes made, or None when a card model refuses a value or the document does not allow
        it (`admissible`)."""
        out = self.cardset
        changes = list(changes)
        if not all(self.admissible(change) for change in changes):
            return None
        try:
            for change in changes:
                if change.field == COST:
                    out = repriced(out, change.card, change.new)
                else:
                    out = with_field(out, change.card, change.field, int(change.new))
        except WorkbenchInputError:
            return None
        return out

    def evaluate(self, changes: Iterable[Change]) -> Candidate | None:
        """The candidate's figures on the search's seed: from the archive, or measured (one of the budget), or None
        when it is not allowed, refused by a card model, or the budget is spent."""
        key = tuple(sorted(changes))
        if key in self.archive:
            return self.archive[key]
        if key in self.refused or not self.allowed(key) or self.spent >= self.budget + 1:
            return None
        changed = self.apply(key)
        if changed is None:
            self.refused.add(key)
            return None
        digest = changed.content_hash()
        curve = self.curves.get(digest)
        if curve is None:
            curve = self.measure(changed, self.run, self.matches_per_card, self.search_rule, step=self.spent)
            self.curves[digest] = curve
            self.healths[digest] = self.measure_health(changed, self.run, self.matches_per_pair, step=self.spent)
            self.spent += 1
        if not key:
            self.base_curve = curve
            self.base_meta = _run_meta(curve)
            costs = [float(c) for c in curve.cards["cost"] if c is not None and not math.isnan(float(c))]
            self.cost_range = (max(min(costs), 0.0), max(costs)) if costs else (0.0, 0.0)
        changed_cards = {c.card for c in key}
        score = replace(_score(curve, self.rule.tolerance, self.base_curve, changed_cards), health=self.healths[digest])
        candidate = Candidate(key, score, digest)
        self.archive[key] = candidate
        return candidate

    def allowed(self, changes: tuple[Change, ...]) -> bool:
        """No locked card or field, one change per card and field, at most `max_changes` cards."""
        pairs = [(c.card, c.field) for c in changes]
        return (
            len(pairs) == len(set(pairs))
            and len({c.card for c in changes}) <= self.max_changes
            and not any(c.card in self.locked_cards or c.field in self.locked_fields for c in changes)
            and all(c.new != c.old for c in changes)
        )

    @property
    def left(self) -> int:
        """Measurements left in the budget (the set as given is not counted against it)."""
        return self.budget + 1 - self.spent

    # Moves -------------------------------------------------------------------------------------------------------

    def levers(self, candidate: Candidate) -> list[Lever]:
        """The cards the candidate's lopsided match-ups open changes for, most leverage first, at most
        `MATCHUP_CARDS`. A match-up whose interval lies wholly above its band favours its first deck, wholly below
        its second. A card the favoured deck holds more copies of than the other (every section of the decklist
        counted) is weakened, one the other deck holds more of strengthened, each a step at a time as a flagged card
        is. Left out: a locked card, a card flagged over or under in the measurement (its flag already opens it, and
        decides its direction), the baseline filler (every card's power is measured against it) and a card not in
        the measurement's curve; and a card one lopsided match-up would weaken and another strengthen (a change would
        trade one match-up for the other). Leverage: the copy difference times the card's play share in the curve
        (`played`, the share of its matches its side played it in; 0 when not measured), summed over the match-ups
        that open it. The first-player edge opens nothing: it is a property of the game's rules, not of a card."""
        health = candidate.score.health
        if health is None or not health.matchups:
            return []
        rows = self.curves[candidate.cardset_hash].cards.set_index("card")
        pulls: dict[str, list[tuple[float, float, str]]] = {}
        for figure in health.figures:
            if figure.key != MATCHUP_FIGURE or figure.distance <= 0 or figure.label not in self.matchup_decks:
                continue
            deck, opponent = self.matchup_decks[figure.label]
            favoured, other = (deck, opponent) if figure.low > figure.band_high else (opponent, deck)
            mine, theirs = self.deck_copies[favoured], self.deck_copies[other]
            for card in sorted(set(mine) | set(theirs)):
                difference = mine.get(card, 0) - theirs.get(card, 0)
                if difference == 0 or card in self.locked_cards or card not in rows.index:
                    continue
                if rows.loc[card, "flag"] in (*FLAGGED, BASELINE):
                    continue
                share = _plain(rows.loc[card, "played"])
                leverage = abs(difference) * (float(share) if share is not None else 0.0)
                pulls.setdefault(card, []).append((1.0 if difference > 0 else -1.0, leverage, figure.label))
        levers = [
            Lever(card, pull[0][0], float(sum(p[1] for p in pull)), tuple(p[2] for p in pull))
            for card, pull in pulls.items()
            if len({p[0] for p in pull}) == 1
        ]
        return sorted(levers, key=lambda lever: (-lever.leverage, lever.card))[:MATCHUP_CARDS]

    def moves(self, candidate: Candidate) -> dict[str, list[Change]]:
        """For each card flagged over or under in the candidate's measurement (not locked), then each card its
        lopsided match-ups open (`levers`), the changes that move it towards balance from where the candidate has
        it, best guess first; each replaces the candidate's own change of that card and field, if any. A flagged
        card moves against its flag (first to the line's meeting point, when the line rises with cost), a lever in
        its direction, within the same bounds."""
        curve = self.curves[candidate.cardset_hash]
        current = {(c.card, c.field): c for c in candidate.changes}
        rows = curve.cards.set_index("card")
        low_cost, high_cost = self.cost_range
        directions: dict[str, float] = {
            str(card): 1.0 if rows.loc[card, "flag"] == OVER else -1.0
            for card in rows.index
            if rows.loc[card, "flag"] in FLAGGED and card not in self.locked_cards
        }
        for lever in self.levers(candidate):
            directions.setdefault(lever.card, lever.direction)
        out: dict[str, list[Change]] = {}
        for card, direction in directions.items():
            row = rows.loc[card]
            options: list[Change] = []
            if self.cost_allowed and _plain(row["cost"]) is not None:
                cost = float(row["cost"])
                original = current.get((card, COST))
                old = original.old if original else cost
                wanted: list[float] = []
                if row["flag"] in FLAGGED and curve.rises_with_cost and row["excess"] is not None:
                    wanted.append(float(round(cost + float(row["excess"]) / curve.slope)))
                wanted += [cost + direction * k for k in range(1, self.max_step + 1)]
                for value in _unique(wanted):
                    value = min(max(value, low_cost, 0.0), high_cost)
                    if (value - cost) * direction > 0:
                        options.append(Change(card, COST, old, value))
            for stat in self.stats:
                if stat == COST or stat in self.locked_fields:
                    continue
                value = self.original.get(card, {}).get(stat)
                if value is None or (stat, self._kind(card)) not in self.stat_bounds:
                    continue
                low, high = self.stat_bounds[(stat, self._kind(card))]
                earlier = current.get((card, stat))
                now = earlier.new if earlier else float(value)
                for k in range(1, self.max_step + 1):
                    moved = Change(card, stat, float(value), now - direction * k)
                    if low <= moved.new <= high and self.admissible(moved):
                        options.append(moved)
            options = _unique(_unique_changes(options))
            if options:
                out[str(card)] = options
        return out

    def _kind(self, card: str) -> str:
        return str(self.original.get(card, {}).get("kind", ""))

    def with_change(self, candidate: Candidate, change: Change) -> tuple[Change, ...]:
        """The candidate's changes with `change` in place of its own change of that card and field."""
        kept = [c for c in candidate.changes if (c.card, c.field) != (change.card, change.field)]
        return tuple(sorted([*kept, change]))

    # The three phases --------------------------------------------------------------------------------------------

    def run_search(self) -> None:
        base = self.archive[()]
        moves = self.moves(base)
        best_single: dict[str, Candidate] = {}
        # 1. Singles: each flagged card alone at each candidate value.
        for card, options in moves.items():
            for change in options:
                if self.left <= 0:
                    break
                candidate = self.evaluate((change,))
                if candidate is None:
                    continue
                mine = _card_beyond(self.curves[candidate.cardset_hash], card, self.rule.tolerance)
                best = best_single.get(card)
                if best is None or (mine, _rank(candidate)) < (
                    _card_beyond(self.curves[best.cardset_hash], card, self.rule.tolerance),
                    _rank(best),
                ):
                    best_single[card] = candidate
        # 2. Greedy: add the change that helps most, re-measured; drop changes whose removal does not hurt.
        current = base
        while self.left > 0 and best_single:
            tries: list[tuple[Change, ...]] = []
            for card, options in self.moves(current).items():
                changed = {c.card for c in current.changes}
                if card not in changed and current.cards_changed >= self.max_changes:
                    continue
                if card in best_single and card not in changed:
                    tries.append(self.with_change(current, best_single[card].changes[0]))
                else:
                    tries.append(self.with_change(current, options[0]))
            measured = [c for c in (self.evaluate(t) for t in tries) if c is not None]
            better = [c for c in measured if _rank(c) < _rank(current)]
            if not better:
                break
            current = min(better, key=_rank)
            for change in list(current.changes):
                if len(current.changes) < 2:
                    break
                without = self.evaluate(tuple(c for c in current.changes if c != change))
                if without is not None and _rank(without) <= _rank(current):
                    current = without
        # 3. Evolution: mutate random front members with what is left of the budget.
        generator = np.random.default_rng([int(self.run.seed), PROOF_SALT, 3])
        idle = 0
        while self.left > 0 and idle < MUTATION_TRIES:
            parent = _tournament(list(self.archive.values()), generator)
            child = self.mutate(parent, generator)
            if child is None or child in self.archive or child in self.refused or not self.allowed(child):
                idle += 1
                continue
            idle = 0
            self.evaluate(child)

    def mutate(self, parent: Candidate, generator: np.random.Generator) -> tuple[Change, ...] | None:
        """One random change to a candidate: add a change for a card flagged in its measurement or opened by its
        lopsided match-ups (`moves`), remove one of its changes, or move one of them a step."""
        kind = int(generator.integers(3))
        if kind == 0 or not parent.changes:
            moves = self.moves(parent)
            if not moves:
                return None
            card = sorted(moves)[int(generator.integers(len(moves)))]
            options = moves[card]
            return self.with_change(parent, options[int(generator.integers(len(options)))])
        change = parent.changes[int(generator.integers(len(parent.changes)))]
        if kind == 1:
            return tuple(c for c in parent.changes if c != change)
        step = 1.0 if generator.integers(2) else -1.0
        moved = Change(change.card, change.field, change.old, change.new + step)
        if change.field != COST:
            low, high = self.stat_bounds.get((change.field, self._kind(change.card)), (0.0, 0.0))
            if not low <= moved.new <= high or not self.admissible(moved):
                return None
        elif not self.cost_range[0] <= moved.new <= self.cost_range[1]:
            return None
        return self.with_change(parent, moved)


# Objectives ----------------------------------------------------------------------------------------------------


def _set_health(
    pairs: Sequence[PairResult], names: Sequence[str], matches_per_pair: int, thresholds: HealthThresholds
) -> SetHealth:
    """The first-player edge over every match of every ordered pair (mirrors included, draws half: the health
    check's AdvantageP1), then each match-up of two different decks, its two ordered pairs pooled (each deck in
    seat A once, the first player alternating within a pair): the first deck's wins plus half the draws. Every figure
    is judged against the health check's first-player band (`first_player_low` to `first_player_high`)."""
    band = (thresholds.first_player_low, thresholds.first_player_high)
    everything = pd.concat([pair.results.matches for pair in pairs], ignore_index=True)
    drawn = everything["winner"] == "draw"
    first = Rate.of(
        float((everything["winner"] == everything["first_player"]).sum()) + 0.5 * float(drawn.sum()),
        len(everything),
    )
    figures = [HealthRate(FIRST_PLAYER_FIGURE, "first player", first.value, first.low, first.high, first.trials, *band)]
    played = {(pair.deck_a.name, pair.deck_b.name): pair.results.matches for pair in pairs}
    for index, deck in enumerate(names):
        for opponent in names[index + 1 :]:
            there, back = played[(deck, opponent)], played[(opponent, deck)]
            score = (
                float((there["winner"] == "A").sum())
                + float((back["winner"] == "B").sum())
                + 0.5 * float((there["winner"] == "draw").sum() + (back["winner"] == "draw").sum())
            )
            rate = Rate.of(score, len(there) + len(back))
            figures.append(
                HealthRate(MATCHUP_FIGURE, f"{deck} v {opponent}", rate.value, rate.low, rate.high, rate.trials, *band)
            )
    return SetHealth(tuple(figures), matches_per_pair, len(names) >= 2)


def _worse_health(before: SetHealth | None, after: SetHealth | None) -> list[str]:
    """The figures the change makes worse beyond their intervals, in words: the two runs' intervals do not meet, the
    figure moved away from its healthy band, and after the change its interval lies wholly outside the band."""
    if before is None or after is None:
        return []
    out = []
    for figure in after.figures:
        earlier = before.figure(figure.key, figure.label)
        if earlier is None or figure.distance <= 0:
            continue
        up = figure.low > earlier.high and figure.low > figure.band_high
        down = figure.high < earlier.low and figure.high < figure.band_low
        if up or down:
            what = "the first-player edge" if figure.key == FIRST_PLAYER_FIGURE else f"the match-up {figure.label}"
            out.append(
                f"{what} moves from {earlier.text()} to {figure.text()}, beyond both intervals and further outside "
                f"the healthy {figure.band_low:.0%} to {figure.band_high:.0%}"
            )
    return out


def _copies(deck: Deck) -> dict[str, int]:
    """Card name -> its copies in the deck, every section of the decklist counted (tokens, a collection)."""
    out: dict[str, int] = {}
    for line in deck.lines:
        if line.entry is not None:
            out[line.entry.card.name] = out.get(line.entry.card.name, 0) + line.count
    return out


def _errors(findings: Iterable[Any]) -> set[tuple[str, str | None]]:
    """(rule, card) of each error finding."""
    return {(f.rule, f.card) for f in findings if f.severity == "error"}


def _beyond(row: Any, tolerance: float) -> float:
    """How far a judged card's excess lies beyond half its band plus the tolerance (0 when within)."""
    excess, low, high = row["excess"], row["band_low"], row["band_high"]
    if excess is None or low is None or high is None:
        return 0.0
    return max(0.0, abs(float(excess)) - (float(high) - float(low)) / 2 - tolerance)


def _card_beyond(curve: PowerCurve, card: str, tolerance: float) -> float:
    """One card's distance beyond band and tolerance in a curve (infinite when it is no longer judged)."""
    rows = curve.cards.set_index("card")
    if card not in rows.index or rows.loc[card, "flag"] in (RARELY_PLAYED, BASELINE):
        return math.inf
    return _beyond(rows.loc[card], tolerance)


def _score(curve: PowerCurve, tolerance: float, earlier: PowerCurve | None, changed: Collection[str] = ()) -> Score:
    """A curve's objectives. A card flagged over or under in `earlier` (the set as given, in the same run) that this
    curve gives no verdict (`NO_VERDICT`: priced out of play, or left with nothing to compare it with) keeps that
    flag and its mispricing: a card moved out of judgement is not fixed. A `changed` card (the search's candidates
    pass theirs; the proof passes none, its rule names such a card itself) that had a verdict in `earlier` and has
    none here is `unjudged` and counts as one more problem: a change that prices a card out of play is no fix, and
    the proof would refuse it."""
    over: list[str] = []
    under: list[str] = []
    unjudged: list[str] = []
    mispricing = 0.0
    earlier_rows = earlier.cards.set_index("card") if earlier is not None else None
    for _, row in curve.cards.iterrows():
        card = str(row["card"])
        source = row
        if (
            row["flag"] in NO_VERDICT
            and earlier_rows is not None
            and card in earlier_rows.index
            and earlier_rows.loc[card, "flag"] in FLAGGED
        ):
            source = earlier_rows.loc[card]
        if source["flag"] == OVER:
            over.append(card)
        elif source["flag"] == UNDER:
            under.append(card)
        elif (
            card in changed
            and row["flag"] in NO_VERDICT
            and earlier_rows is not None
            and card in earlier_rows.index
            and earlier_rows.loc[card, "flag"] not in NO_VERDICT
        ):
            unjudged.append(card)
        if source["flag"] not in (RARELY_PLAYED, BASELINE):
            mispricing += _beyond(source, tolerance)
    return Score(
        len(over) + len(under) + len(unjudged),
        float(mispricing),
        tuple(sorted(over)),
        tuple(sorted(under)),
        unjudged=tuple(sorted(unjudged)),
    )


def _rank(candidate: Candidate) -> tuple[float, float, float, float, float]:
    """The greedy phase's order: fewer problems (over/under cards plus match-ups and first-player edge wholly outside
    their band), then less mispricing, then a smaller health distance, then fewer and smaller changes."""
    return (
        float(candidate.score.flagged + candidate.score.health_outside),
        round(candidate.score.mispricing, 9),
        round(candidate.score.health_distance, 9),
        float(candidate.cards_changed),
        candidate.total_change,
    )


def _to_prove(front: Sequence[Candidate]) -> list[Candidate]:
    """The front members with changes in the order they are proved: for each number of cards changed (fewest
    first) its best balanced member (fewest over/under, then least mispricing), then the others, best balanced
    first. So the smallest complete fix is proved whatever the front's size."""
    changed = [c for c in front if c.changes]
    best: dict[int, Candidate] = {}
    for candidate in changed:
        kept = best.get(candidate.cards_changed)
        if kept is None or _balance(candidate) < _balance(kept):
            best[candidate.cards_changed] = candidate
    first = [best[k] for k in sorted(best)]
    return first + sorted((c for c in changed if c not in first), key=_balance)


def _balance(candidate: Candidate) -> tuple[float, float, float, float, float]:
    return (
        float(candidate.score.flagged + candidate.score.health_outside),
        candidate.score.mispricing,
        candidate.score.health_distance,
        float(candidate.cards_changed),
        candidate.total_change,
    )


def _tournament(candidates: Sequence[Candidate], generator: np.random.Generator) -> Candidate:
    """Binary tournament (as NSGA-II's): of two candidates drawn at random, the one fewer others dominate (ties:
    better balanced). Members off the front can be parents too, so the search steps past a change that made
    another card's verdict worse on its way to fixing both."""
    first, second = (candidates[int(i)] for i in generator.integers(len(candidates), size=2))

    def dominated_by(candidate: Candidate) -> int:
        return sum(_dominates(other, candidate) for other in candidates)

    return min((first, second), key=lambda c: (dominated_by(c), _balance(c)))


def _dominates(a: Candidate, b: Candidate) -> bool:
    oa, ob = a.objectives(), b.objectives()
    return all(x <= y for x, y in zip(oa, ob, strict=True)) and oa != ob


def _pareto_front(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The candidates no other candidate dominates, fewest changes first (ties: less mispricing)."""
    front = [c for c in candidates if not any(_dominates(o, c) for o in candidates)]
    return sorted(
        front,
        key=lambda c: (c.cards_changed, c.total_change, c.score.flagged, c.score.mispricing, c.score.health_distance),
    )


# Proof ---------------------------------------------------------------------------------------------------------


def _verdicts_before_after(before: PowerCurve, after: PowerCurve, changed: Sequence[str]) -> pd.DataFrame:
    """Every changed card and every card flagged (or whose flag moved) in either run, before and after."""
    columns = ("flag", "power", "low", "high", "band_low", "band_high")
    b = before.cards.set_index("card")
    a = after.cards.set_index("card")
    rows = []
    for card in a.index:
        if card not in b.index:
            continue
        moved = b.loc[card, "flag"] != a.loc[card, "flag"]
        flagged = b.loc[card, "flag"] in FLAGGED or a.loc[card, "flag"] in FLAGGED
        if card in changed or moved or flagged:
            row: dict[str, Any] = {"card": card, "changed": card in changed}
            for column in columns:
                row[f"before_{column}"] = _plain(b.loc[card, column])
                row[f"after_{column}"] = _plain(a.loc[card, column])
            rows.append(row)
    frame = pd.DataFrame(rows, columns=["card", "changed", *[f"{s}_{c}" for c in columns for s in ("before", "after")]])
    return frame.sort_values(["changed", "card"], ascending=[False, True]).reset_index(drop=True)


def _judge_proof(candidate: Candidate, before: Score, after: Score, verdicts: pd.DataFrame) -> tuple[bool, str]:
    """Whether the proof run confirms a proposal, and why, in words."""
    rows = verdicts.set_index("card")
    changed = sorted({c.card for c in candidate.changes})
    changed = [c for c in changed if c in rows.index]
    still = [c for c in changed if rows.loc[c, "after_flag"] in FLAGGED]
    priced_out = [c for c in changed if rows.loc[c, "after_flag"] in NO_VERDICT]
    newly = [
        str(card)
        for card, row in rows.iterrows()
        if row["after_flag"] in FLAGGED
        and row["before_flag"] not in FLAGGED
        and card not in changed
        and _newly_flagged(row)
    ]
    # An undecided card (or one without a verdict) that reads over or under after the change, its own power not
    # moved beyond both runs' intervals, was not shown on curve before: the change only refitted the line it is
    # judged on (often one the planted cards had bent), so it is reported, not held against the proposal.
    unmasked = [
        str(card)
        for card, row in rows.iterrows()
        if row["after_flag"] in FLAGGED
        and row["before_flag"] not in FLAGGED
        and card not in changed
        and not _newly_flagged(row)
    ]
    better = (
        after.flagged < before.flagged
        or (after.flagged == before.flagged and after.mispricing < before.mispricing)
        or (
            after.flagged == before.flagged
            and after.mispricing <= before.mispricing
            and after.health_distance < before.health_distance
        )
    )
    worse_health = _worse_health(before.health, after.health)
    problems = []
    if still:
        problems.append(f"{_names(still)} still {'read' if len(still) > 1 else 'reads'} over or under after the change")
    if priced_out:
        problems.append(
            f"{_names(priced_out)} would get no verdict (rarely played, or nothing to compare with), so is not shown "
            "fixed"
        )
    if newly:
        problems.append(f"{_names(newly)} {'become' if len(newly) > 1 else 'becomes'} over or under")
    if worse_health:
        # A fix of the cards that unbalances the decks' games is no fix: the designer would trade one flag for another.
        problems.append("; ".join(worse_health))
    if not better:
        problems.append(
            f"the set is not better balanced (over/under {before.flagged} -> {after.flagged}, mispricing "
            f"{before.mispricing:.3f} -> {after.mispricing:.3f}, health distance {before.health_distance:.3f} -> "
            f"{after.health_distance:.3f})"
        )
    change_words = "; ".join(_change_text(c) for c in candidate.changes)
    reads = ", ".join(f"{c} {rows.loc[c, 'after_flag']}" for c in changed)
    if problems:
        return False, (
            f"Not offered: {change_words} did not hold up in the proof run on a new seed: " + "; ".join(problems) + "."
        )
    health_words = ""
    if after.health is not None:
        what = "match-ups and first-player edge" if after.health.matchups else "first-player edge"
        health_words = (
            f"; {what}: health distance {before.health_distance:.3f} -> {after.health_distance:.3f}, none worse "
            "beyond its interval"
        )
    unmasked_words = (
        f"; {_names(unmasked)} {'were' if len(unmasked) > 1 else 'was'} undecided (or without a verdict) before and "
        f"{'read' if len(unmasked) > 1 else 'reads'} over or under after on an unmoved power: the change refits the "
        "line, it does not make them so"
        if unmasked
        else ""
    )
    return True, (
        f"{change_words}: held up in the proof run on a new seed: over/under {before.flagged} -> {after.flagged}, "
        f"mispricing {before.mispricing:.3f} -> {after.mispricing:.3f}{health_words}; the changed cards now read "
        f"{reads}; no card on curve before newly flagged{unmasked_words}."
    )


def _newly_flagged(row: Any) -> bool:
    """Whether an unchanged card that reads over or under after the change, and not before, counts against the
    proposal: it was on curve before (the equivalence test put it within the tolerance), or its own power moved
    beyond both runs' 95% intervals towards its new flag (the change reached it in play, through its reference deck
    or gauntlet). The proof's two runs share their seed, so a power that did not move played the same matches."""
    if row["before_flag"] == ON_CURVE:
        return True
    before_low, before_high = float(row["before_low"]), float(row["before_high"])
    after_low, after_high = float(row["after_low"]), float(row["after_high"])
    if row["after_flag"] == OVER:
        return after_low > before_high
    return after_high < before_low


# Words and frames ----------------------------------------------------------------------------------------------


def _statements(
    base: Score,
    front: Sequence[Candidate],
    chosen: Sequence[Candidate],
    offered: Sequence[Proposal],
    refused: Sequence[Proposal],
    search: _Search,
    max_proofs: int,
) -> list[str]:
    out = [_health_statement(base.health, search)]
    levers = search.levers(search.archive[()])
    lopsided = [f for f in (base.health.figures if base.health else ()) if f.key == MATCHUP_FIGURE and f.distance > 0]
    if base.flagged:
        out.append(
            f"{base.flagged} cards are flagged in the search's run (over: {_names(base.over) or 'none'}; under: "
            f"{_names(base.under) or 'none'}), mispricing {base.mispricing:.3f} beyond band and tolerance."
        )
    elif levers:
        out.append(
            "No card is flagged over or under in the search's run, so no card's verdict is to be brought within the "
            "tolerance; the lopsided match-ups below are searched."
        )
    else:
        out.append(
            "No card is flagged over or under in the search's run, so there is nothing to bring within the tolerance"
            + ("" if lopsided else " and no match-up lies wholly outside its band")
            + ": no change is proposed."
        )
    if levers:
        out.append(_levers_statement(levers, lopsided))
    elif lopsided:
        out.append(
            f"No card is opened for {_names(f.label for f in lopsided)}, outside the band: every card that tells "
            f"those decks apart is locked, flagged (its flag opens it), the baseline filler, or pulled both ways by "
            f"two lopsided match-ups."
        )
    first = base.health.figure(FIRST_PLAYER_FIGURE, "first player") if base.health else None
    if first is not None and first.distance > 0:
        out.append(
            "The first-player edge lies outside its band, and no card change is searched for it: it is a property of "
            "the game's rules (who goes first and what that gives), not of any card. It is reported, it ranks the "
            "changes searched for other reasons, and a proposal that makes it worse beyond its interval is refused."
        )
    if base.flagged or lopsided:
        if search.locked_cards:
            out.append(f"Locked, never changed: {_names(sorted(search.locked_cards))}.")
        if search.locked_fields:
            out.append(f"Locked fields, never changed on any card: {', '.join(sorted(search.locked_fields))}.")
    if (base.flagged or levers) and not any(c.changes for c in front):
        out.append(
            "No measured change improved on the set as given within the locks, limits and budget: nothing to propose."
        )
    unproved = len([c for c in front if c.changes]) - len(chosen)
    if unproved > 0:
        out.append(
            f"{unproved} more front members were not proved (at most {max_proofs} are), so they are not offered."
        )
    if chosen:
        out.append(f"{len(offered)} of {len(chosen)} proposals held up in the proof run on a new seed.")
    for proposal in refused:
        out.append(proposal.statement)
    return out


def _levers_statement(levers: Sequence[Lever], lopsided: Sequence[HealthRate]) -> str:
    """Which cards the set's lopsided match-ups open, in words."""
    weakened = [lever.card for lever in levers if lever.direction > 0]
    strengthened = [lever.card for lever in levers if lever.direction < 0]
    ways = "; ".join(
        part
        for part in (
            f"weakened (cost up, stats or copies down): {_names(weakened)}" if weakened else "",
            f"strengthened (cost down, stats or copies up): {_names(strengthened)}" if strengthened else "",
        )
        if part
    )
    return (
        f"Outside their band, {_names(f'{f.label} {f.text()}' for f in lopsided)}: the search also opens changes for "
        f"the cards that tell those decks apart, the favoured deck's weakened and the other's strengthened, at most "
        f"{MATCHUP_CARDS} (those with the most copies more and the highest play share first; never a locked card, "
        f"a flagged one, which its flag opens, or the baseline filler), a step at a time within the bounds a "
        f"flagged card's changes keep: {ways}. Each candidate's own measurement decides again which are opened."
    )


def _health_statement(health: SetHealth | None, search: _Search) -> str:
    """What the health objective holds for this set, in words."""
    if health is None:
        return (
            "Match-ups and the first-player edge were not objectives: whole games (game=full) play no decks against "
            "each other."
        )
    band = f"{search.thresholds.first_player_low:.0%} to {search.thresholds.first_player_high:.0%}"
    outside = [f for f in health.figures if f.distance > 0]
    where = (
        "; ".join(f"{_figure_name(f)} {f.text()}" for f in outside) if outside else "none lies wholly outside its band"
    )
    if not health.matchups:
        return (
            f"Match-ups were not an objective: the set has one deck, so there is no match-up to measure. The "
            f"first-player edge was (healthy {band}, {health.matches_per_pair:,} mirror matches in the search): "
            f"{where}."
        )
    return (
        f"Match-ups and the first-player edge were objectives (health distance, healthy {band}, "
        f"{health.matches_per_pair:,} matches per ordered pair of decks in the search): {where}."
    )


def _figure_name(figure: HealthRate) -> str:
    return "first player" if figure.key == FIRST_PLAYER_FIGURE else figure.label


def _front_frame(front: Sequence[Candidate], held: dict[tuple[Change, ...], bool]) -> pd.DataFrame:
    rows = [
        {
            "changes": "; ".join(_change_text(c) for c in candidate.changes) or "(the set as given)",
            "cards_changed": candidate.cards_changed,
            "total_change": candidate.total_change,
            "flagged": candidate.score.flagged,
            "mispricing": candidate.score.mispricing,
            "health_distance": candidate.score.health_distance,
            "health_outside": candidate.score.health_outside,
            "proved": candidate.changes in held,
            "held": held.get(candidate.changes),
        }
        for candidate in front
    ]
    return pd.DataFrame(
        rows,
        columns=[
            "changes",
            "cards_changed",
            "total_change",
            "flagged",
            "mispricing",
            "health_distance",
            "health_outside",
            "proved",
            "held",
        ],
    )


def _base_verdicts(curve: PowerCurve) -> pd.DataFrame:
    columns = ["card", "cost", "flag", "power", "low", "high", "band_low", "band_high", "excess"]
    return curve.cards[columns].copy().reset_index(drop=True)


def _run_meta(curve: PowerCurve) -> dict[str, Any]:
    """A power curve's provenance, with its policy named."""
    meta = {
        key: curve.meta.get(key)
        for key in (
            "ruleset",
            "ruleset_version",
            "engine_version",
            "options",
            "seed",
            "matches_per_card",
            "policies",
            "cardset",
            "cardset_hash",
            "workbench_version",
            "reference_deck",
            "gauntlet",
            "verdict_rule",
        )
    }
    policies = meta.get("policies") or []
    meta["policy"] = policies[0] if policies else None
    return meta


def _verdict_line(row: Any) -> str:
    def side(prefix: str) -> str:
        flag = getattr(row, f"{prefix}_flag")
        power, low, high = (getattr(row, f"{prefix}_{k}") for k in ("power", "low", "high"))
        band_low, band_high = getattr(row, f"{prefix}_band_low"), getattr(row, f"{prefix}_band_high")
        unknown = band_low is None or band_high is None or math.isnan(band_low) or math.isnan(band_high)
        band = "" if unknown else f" (band [{band_low:+.3f}, {band_high:+.3f}])"
        return f"{flag} {power:+.3f} [{low:+.3f}, {high:+.3f}]{band}"

    mark = "*" if row.changed else " "
    return f"{mark} {row.card}: {side('before')} -> {side('after')}"


def _health_lines(before: SetHealth | None, after: SetHealth | None) -> list[str]:
    """The proof run's match-ups and first-player edge, before -> after, with 95% intervals and the healthy band."""
    if before is None or after is None:
        return []
    band = f"{after.figures[0].band_low:.0%} to {after.figures[0].band_high:.0%}"
    what = "match-ups and first-player edge" if after.matchups else "first-player edge (one deck: no match-ups)"
    lines = [
        f"proof run {what} ({after.matches_per_pair:,} matches per ordered pair, healthy {band}): health distance "
        f"{before.distance:.3f} -> {after.distance:.3f}"
    ]
    for figure in after.figures:
        earlier = before.figure(figure.key, figure.label)
        if earlier is None:
            continue
        mark = "!" if _worse_health(before, SetHealth((figure,), after.matches_per_pair, after.matchups)) else " "
        outside = "  outside" if figure.distance > 0 else ""
        lines.append(f"{mark} {_figure_name(figure)}: {earlier.text()} -> {figure.text()}{outside}")
    return lines


def _change_text(change: Change) -> str:
    return f"{change.card}: {change.field} {show_value(_number(change.old))} -> {show_value(_number(change.new))}"


def _names(names: Iterable[str]) -> str:
    return ", ".join(names)


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else float(value)


def _plain(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, (np.floating, float)):
        return None if math.isnan(float(value)) else float(value)
    if isinstance(value, np.integer):
        return int(value)
    return value


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [{key: _plain(value) for key, value in row.items()} for row in frame.to_dict("records")]


def _unique(values: Iterable[Any]) -> list[Any]:
    seen: list[Any] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def _unique_changes(changes: Iterable[Change]) -> list[Change]:
    return [c for c in _unique(changes) if c.new != c.old]


# Settings ------------------------------------------------------------------------------------------------------


def _check_settings(max_changes: int, max_step: int, evaluations: int, max_proofs: int) -> str:
    bad = [
        f"{name} {value!r}"
        for name, value in (
            ("max_changes", max_changes),
            ("max_step", max_step),
            ("evaluations", evaluations),
            ("max_proofs", max_proofs),
        )
        if not isinstance(value, int) or isinstance(value, bool) or value < 1
    ]
    return ", ".join(bad) + (" must be whole numbers of 1 or more" if bad else "")


def _proof_seed(seed: int) -> int:
    """A seed for the proof run, drawn from the search's (never equal to it)."""
    sequence = np.random.SeedSequence([int(seed), PROOF_SALT])
    drawn = int(sequence.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))
    return drawn if drawn != seed else drawn + 1


def _card_name(cardset: CardSet, name: str) -> str:
    return entry_named(cardset, name, " to lock").card.name


def _field_of(cardset: CardSet, name: str) -> str:
    """`COST`, or the card-model field a header or field name means; an error listing the valid ones."""
    from workbench.rulesets.base import normalize_header

    ruleset = cardset.ruleset
    key = normalize_header(name)
    if key == normalize_header(COST):
        return COST
    resolved = ruleset.header_lookup.get(key)
    if resolved in ruleset.cost_fields:
        return COST
    numeric = _numeric_fields(cardset)
    copies = _has_copies(cardset)
    if resolved == COPIES and copies:
        return COPIES
    if resolved is None or resolved not in numeric:
        raise WorkbenchInputError(
            f"'{name}' is not a field a proposal can change in {ruleset.id}.",
            path=cardset.path,
            expected="cost, or one of: " + ", ".join(sorted(numeric | ({COPIES} if copies else set()))),
        )
    return resolved


def _has_copies(cardset: CardSet) -> bool:
    """Whether the ruleset's cards carry a number of copies a proposal may change (Millennium Blades' `copies`)."""
    return any(
        model.model_fields.get(COPIES) is not None and model.model_fields[COPIES].annotation is int
        for model in cardset.ruleset.card_models
    )


def _numeric_fields(cardset: CardSet) -> set[str]:
    """The whole-number card-model fields the set's cards hold, cost fields and copies left out (copies is
    `COPIES`, searched within the document's own limits, see `_Search.admissible`)."""
    out: set[str] = set()
    for model in cardset.ruleset.card_models:
        for name, info in model.model_fields.items():
            if info.annotation in (int, int | None) and name not in cardset.ruleset.cost_fields and name != "copies":
                out.add(name)
    return out


def _resolve_fields(cardset: CardSet, fields: Sequence[str]) -> tuple[str, ...]:
    if isinstance(fields, str) or not fields:
        raise WorkbenchInputError(
            "a proposal needs at least one field it may change.", expected="cost and/or stat field names"
        )
    return tuple(_unique(_field_of(cardset, name) for name in fields))


def _resolve_locked_fields(cardset: CardSet, fields: Collection[str]) -> set[str]:
    return {_field_of(cardset, name) for name in fields}


def _stat_bounds(cardset: CardSet, stats: Sequence[str]) -> dict[tuple[str, str], tuple[float, float]]:
    """(stat, kind) -> the lowest and highest value the set's cards of that kind hold (and the model allows)."""
    bounds: dict[tuple[str, str], tuple[float, float]] = {}
    for stat in stats:
        by_kind: dict[str, list[float]] = {}
        for entry in cardset:
            value = getattr(entry.card, stat, None)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                by_kind.setdefault(entry.card.kind, []).append(float(value))
        for kind, values in by_kind.items():
            bounds[(stat, kind)] = (max(min(values), 0.0), max(values))
    return bounds
