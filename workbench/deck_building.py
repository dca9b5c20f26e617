"""Decks built by picking cards and counts, and what a deck looks like on its game's cost axis.

A picked deck is written as ordinary decklist text (`N Name` lines under
section headers), so it goes through `workbench.decklists.parse_decklist`
like a pasted or uploaded one: the same findings, the same rows.

A deck's cost curve uses the ruleset's own cost axis: the cost each card has
on the stat budget chart (`Ruleset.stat_budget`). Cards without a place on
that axis (spells with no cost rule, resources, ...) are counted apart rather
than guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pandas as pd

from workbench.cards import Deck
from workbench.rulesets.base import StatBudget


@dataclass(frozen=True)
class Pick:
    """One row of a deck built in the app: a card, how many copies, and which section."""

    name: str
    """The card's name as in the set."""
    count: int
    """How many copies."""
    section: str = "main"
    """The deck section (`main` unless the game has others)."""


def decklist_text(picks: Iterable[Pick], sections: Sequence[str] = ("main",)) -> str:
    """Decklist text for the picks: main-section lines first, then each other section under its header."""
    by_section: dict[str, list[Pick]] = {section: [] for section in sections}
    for pick in picks:
        if pick.name and pick.count > 0:
            by_section.setdefault(pick.section or sections[0], []).append(pick)
    lines: list[str] = []
    for index, (section, section_picks) in enumerate(by_section.items()):
        if not section_picks:
            continue
        if index > 0 or section != sections[0]:
            lines.append(f"{section.capitalize()}:")
        lines.extend(f"{pick.count} {pick.name}" for pick in section_picks)
    return "\n".join(lines) + ("\n" if lines else "")


def costs_by_card(budget: StatBudget | None) -> dict[str, float]:
    """Card name -> its cost on the ruleset's cost axis, from the stat budget's points."""
    if budget is None:
        return {}
    return {point.card: point.cost for point in budget.points}


def deck_table(deck: Deck, costs: dict[str, float], section: str = "main") -> pd.DataFrame:
    """One row per card in a section: card, copies, cost (None when the card has no place on the cost axis)."""
    rows = [
        {"card": name, "copies": copies, "cost": costs.get(name), "line": line}
        for name, (_entry, copies, line) in deck.counts(section).items()
    ]
    return pd.DataFrame(rows, columns=["card", "copies", "cost", "line"])


def cost_curve(deck: Deck, costs: dict[str, float], section: str = "main") -> pd.DataFrame:
    """Copies per cost in a section (the deck's mana-curve bar chart); uncosted cards are left out."""
    table = deck_table(deck, costs, section)
    costed = table.dropna(subset=["cost"])
    if costed.empty:
        return pd.DataFrame(columns=["cost", "copies", "cards"])
    grouped = costed.groupby("cost").agg(copies=("copies", "sum"), cards=("card", lambda names: ", ".join(names)))
    return grouped.reset_index().sort_values("cost").reset_index(drop=True)


def copies_at_cost(deck: Deck, costs: dict[str, float], cost: float, section: str = "main") -> int:
    """How many cards of the section sit at exactly this cost."""
    table = deck_table(deck, costs, section)
    return int(table.loc[table["cost"] == cost, "copies"].sum())
