"""Decks built at random from a set, each legal under the ruleset's own deck rules: the auto gauntlet.

A power curve measured against two or three hand-made decks tries each card in those decks' company only. The auto
gauntlet (`--gauntlet auto:N`, the app's *auto decks* switch) adds N decks built from the whole set, so every card is
tried in many decks, and each card is measured in every auto deck that holds its slot (see `workbench.analysis`).

How a deck is built (a random walk over legal decks, so no rule of any game needs its own builder):

- It starts from a hand-made deck of the set (auto deck i from hand-made deck i modulo their number), which gives
  the deck's size, its sections and how many cards of each kind it holds.
- Then it takes `STEPS_PER_LINE` random steps per line. A step either swaps a line's card for another card of the same
  kind that the deck does not hold yet, or moves one copy from one line to another line of the same kind and section.
  A step is kept only when the ruleset's own deck check (`Ruleset.check_deck`, the same one `workbench validate`
  runs) finds no more errors than before it: every rule the game states (copy limits, sizes, sub-types, collections)
  holds in every auto deck without being written twice.
- Candidate cards are drawn with weight 1 / (1 + the number of auto decks already holding them), so N decks spread
  over the whole set instead of clustering on the same cards.
- Everything is drawn from `numpy.random.default_rng` seeded by the run's seed: the same seed, the same decks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from workbench.cards import CardEntry, CardSet, Deck, Options, WorkbenchInputError
from workbench.decklists import parse_decklist
from workbench.limits import LIMITS

STEPS_PER_LINE = 6
"""Random steps per decklist line of the starting deck: enough that most lines have been swapped at least once."""
AUTO_DECKS_MAX = LIMITS["gauntlet_decks"].value
"""The most auto decks one run may ask for (each adds its matches to every measured card's): the `gauntlet_decks`
limit of workbench/limits.py."""
AUTO_SEED_SALT = 0x6175746F  # "auto": keeps the deck draws apart from the match seeds drawn from the same root seed
AUTO_PREFIX = "auto"


@dataclass(frozen=True)
class GauntletChoice:
    """Which decks a power curve plays: the hand-made ones only, or with N auto decks added."""

    auto: int = 0
    """How many auto decks to add (0: the hand-made decks only)."""

    @property
    def label(self) -> str:
        """How a person writes it on the command line: `hand` or `auto:N`."""
        return f"auto:{self.auto}" if self.auto else "hand"

    @property
    def title(self) -> str:
        """How a table or chart names it."""
        return f"hand-made + {self.auto} auto decks" if self.auto else "hand-made decks"


@dataclass(frozen=True)
class AutoPick:
    """One line of an auto deck: a card, its copies, and the section block it sits in."""

    name: str
    """The card's name as in the set."""
    count: int
    """How many copies."""
    section: str
    """The deck section (`main`, or the ruleset's extra sections)."""
    group: int
    """The section block, as in `DeckLine.group` (two `Collection:` blocks of one deck stay apart)."""


HAND_MADE = GauntletChoice()
"""The hand-made decks only (the default)."""


def parse_gauntlet(text: str) -> GauntletChoice:
    """`hand` or `auto:N` (1 <= N <= `AUTO_DECKS_MAX`), as typed after `--gauntlet`."""
    value = text.strip().lower()
    if value in ("hand", "hand-made", "handmade"):
        return HAND_MADE
    head, _, count = value.partition(":")
    if head == "auto" and count.isdigit() and 1 <= int(count) <= AUTO_DECKS_MAX:
        return GauntletChoice(int(count))
    raise WorkbenchInputError(
        f"'{text}' is not a gauntlet.",
        expected=f"`hand` (the set's hand-made decks) or `auto:N` with N from 1 to {AUTO_DECKS_MAX} (adds N decks "
        "built at random from the set under its deck rules), e.g. auto:8",
    )


def build_auto_decks(
    cardset: CardSet, templates: Sequence[Deck], count: int, seed: int, options: Options
) -> list[Deck]:
    """`count` decks built at random from the set (see the module docstring), named `auto 1` ... `auto N`."""
    if count <= 0:
        return []
    if not templates:
        raise WorkbenchInputError(
            "auto decks start from a hand-made deck of the set (its size, sections and kinds), and none was given.",
            expected="at least one --deck, or a set with decks (its Decks sheet or a decks/ folder)",
        )
    rng = np.random.default_rng([AUTO_SEED_SALT, seed])
    kinds = _cards_by_kind(cardset)
    held: Counter[str] = Counter()
    decks = []
    for index in range(count):
        template = templates[index % len(templates)]
        picks = _walk(cardset, template, kinds, held, rng, options)
        deck = _deck_of(picks, cardset, f"{AUTO_PREFIX} {index + 1}")
        held.update({pick.name for pick in picks})
        decks.append(deck)
    return decks


def decklist_of(deck: Deck) -> str:
    """A deck as decklist text (how an auto deck is shown in a run's provenance and can be saved and replayed)."""
    return _text(_picks_of(deck))


def _text(picks: Sequence[AutoPick]) -> str:
    """Decklist text: a section header wherever the section block changes, as `parse_decklist` reads it back."""
    lines: list[str] = []
    block: tuple[str, int] | None = None
    for pick in picks:
        if (pick.section, pick.group) != block and (block is not None or pick.group > 0):
            lines.append(f"{pick.section.capitalize()}:")
        block = (pick.section, pick.group)
        lines.append(f"{pick.count} {pick.name}")
    return "\n".join(lines) + "\n"


def _cards_by_kind(cardset: CardSet) -> dict[str, list[str]]:
    kinds: dict[str, list[str]] = {}
    for entry in cardset.entries:
        kinds.setdefault(_kind(entry), []).append(entry.card.name)
    return kinds


def _kind(entry: CardEntry) -> str:
    return str(getattr(entry.card, "kind", ""))


def _picks_of(deck: Deck) -> list[AutoPick]:
    return [
        AutoPick(line.entry.card.name, line.count, line.section, line.group)
        for line in deck.lines
        if line.entry is not None and line.count > 0
    ]


def _deck_of(picks: Sequence[AutoPick], cardset: CardSet, name: str) -> Deck:
    return parse_decklist(_text(picks), cardset, name=name, path=f"<{name}>")


def _errors(picks: Sequence[AutoPick], cardset: CardSet, options: Options) -> int:
    deck = _deck_of(picks, cardset, "auto")
    findings = [*deck.load_findings, *cardset.ruleset.check_deck(cardset, deck, options)]
    return sum(1 for finding in findings if finding.severity == "error")


def _walk(
    cardset: CardSet,
    template: Deck,
    kinds: Mapping[str, list[str]],
    held: Counter[str],
    rng: np.random.Generator,
    options: Options,
) -> list[AutoPick]:
    picks = _picks_of(template)
    if not picks:
        raise WorkbenchInputError(
            f"deck {template.name} holds no card of the set, so no auto deck can start from it.",
            expected="a deck whose lines name cards of the set",
        )
    errors = _errors(picks, cardset, options)
    kind_of = {entry.card.name: _kind(entry) for entry in cardset.entries}
    for _ in range(STEPS_PER_LINE * len(picks)):
        trial = _swap(picks, kinds, kind_of, held, rng) if rng.random() < 0.75 else _move_copy(picks, kind_of, rng)
        if trial is None:
            continue
        trial_errors = _errors(trial, cardset, options)
        if trial_errors <= errors:
            picks, errors = trial, trial_errors
    return picks


def _swap(
    picks: list[AutoPick],
    kinds: Mapping[str, list[str]],
    kind_of: Mapping[str, str],
    held: Counter[str],
    rng: np.random.Generator,
) -> list[AutoPick] | None:
    """The picks with one line's card swapped for another card of its kind not in the deck, or None if none is left."""
    at = int(rng.integers(len(picks)))
    pick = picks[at]
    in_deck = {p.name for p in picks}
    candidates = [name for name in kinds.get(kind_of.get(pick.name, ""), []) if name not in in_deck]
    if not candidates:
        return None
    weights = np.array([1.0 / (1 + held[name]) for name in candidates])
    chosen = candidates[int(rng.choice(len(candidates), p=weights / weights.sum()))]
    return [*picks[:at], AutoPick(chosen, pick.count, pick.section, pick.group), *picks[at + 1 :]]


def _move_copy(picks: list[AutoPick], kind_of: Mapping[str, str], rng: np.random.Generator) -> list[AutoPick] | None:
    """The picks with one copy moved between two lines of the same kind and section, or None if no such pair."""
    source = int(rng.integers(len(picks)))
    giver = picks[source]
    if giver.count < 2:
        return None
    takers = [
        i
        for i, p in enumerate(picks)
        if i != source
        and (p.section, p.group) == (giver.section, giver.group)
        and kind_of.get(p.name) == kind_of.get(giver.name)
    ]
    if not takers:
        return None
    target = takers[int(rng.integers(len(takers)))]
    out = list(picks)
    out[source] = AutoPick(giver.name, giver.count - 1, giver.section, giver.group)
    out[target] = AutoPick(out[target].name, out[target].count + 1, out[target].section, out[target].group)
    return out
