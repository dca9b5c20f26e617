"""Exact clash odds: how often a Top card of one star rating beats a Top card of another.

A clash (document: Clashing) adds to each participant's Top-card stars the star
rating of one card revealed from the top of the store; the highest total wins,
a tie for the highest wins for nobody. For two participants and a freshly
shuffled store, the two revealed cards are two draws without replacement from
the store's star distribution, so the odds follow exactly from counting pairs:

    P(X = x, Y = y) = c_x * (c_y - [x = y]) / (n * (n - 1))

where c_v is how many store cards have v stars and n is the store's size. With
`with_replacement=True` (a very large store, or a store reshuffled between
reveals) it is c_x * c_y / n^2. Results are exact fractions, not samples.

The store is built as the engine builds it (`store_star_counts`): `copies` of
every core, expansion, premium and master card (option `store_kinds`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from workbench.cards import CardSet, WorkbenchInputError
from workbench.rulesets.blades.cards import card_of
from workbench.rulesets.blades.engine import BOOSTER_SET_KINDS

RATINGS: tuple[int, ...] = tuple(range(1, 11))
"""Star ratings the document allows (1-10)."""


@dataclass(frozen=True)
class ClashOdds:
    """The chances of one clash between two Top cards, from the first card's side."""

    win: Fraction
    """The first card's total is higher."""
    tie: Fraction
    """Equal totals: nobody wins or loses."""
    lose: Fraction
    """The second card's total is higher."""


def store_star_counts(cardset: CardSet, store_kinds: str = "boosters") -> dict[int, int]:
    """Star rating -> number of store cards with it, as the engine builds the store (a set with no booster cards
    falls back to every card, like the engine)."""
    if store_kinds not in ("boosters", "all"):
        raise WorkbenchInputError(f"store_kinds '{store_kinds}' is not known.", expected="boosters or all")
    counts: Counter[int] = Counter()
    for entry in cardset:
        card = card_of(entry)
        if store_kinds == "all" or card.set_kind in BOOSTER_SET_KINDS:
            counts[card.stars] += card.copies
    if not counts:
        for entry in cardset:
            counts[card_of(entry).stars] += card_of(entry).copies
    return dict(sorted(counts.items()))


def _checked(store: Mapping[int, int], with_replacement: bool) -> int:
    size = 0
    for stars, count in store.items():
        if count < 0 or stars < 0:
            raise WorkbenchInputError(
                f"the store cannot hold {count} cards of {stars} stars.",
                expected="star ratings and counts of 0 or more",
            )
        size += count
    if size < (1 if with_replacement else 2):
        raise WorkbenchInputError(
            f"a clash between two players reveals two store cards, but the store holds {size}.",
            expected="a store of at least two cards",
        )
    return size


def clash_odds(top: int, other: int, store: Mapping[int, int], with_replacement: bool = False) -> ClashOdds:
    """Exact odds of a Top card with `top` stars clashing with one of `other` stars, each adding one store card."""
    size = _checked(store, with_replacement)
    pairs = size * size if with_replacement else size * (size - 1)
    win = tie = 0
    for x, cx in store.items():
        for y, cy in store.items():
            ways = cx * (cy if with_replacement or x != y else cy - 1)
            if ways <= 0:
                continue
            if top + x > other + y:
                win += ways
            elif top + x == other + y:
                tie += ways
    return ClashOdds(Fraction(win, pairs), Fraction(tie, pairs), Fraction(pairs - win - tie, pairs))


def clash_odds_table(
    store: Mapping[int, int], ratings: Iterable[int] = RATINGS, with_replacement: bool = False
) -> dict[tuple[int, int], ClashOdds]:
    """(top rating, other rating) -> exact odds, for every pair of the given ratings (1-10 by default)."""
    wanted = list(ratings)
    return {(a, b): clash_odds(a, b, store, with_replacement) for a in wanted for b in wanted}


def win_chance_rows(
    store: Mapping[int, int], ratings: Iterable[int] = RATINGS, with_replacement: bool = False
) -> list[dict[str, float | int]]:
    """One row per (top, other) pair with win, tie and lose as floats: the table a page or report draws."""
    table = clash_odds_table(store, ratings, with_replacement)
    return [
        {"top": a, "other": b, "win": float(o.win), "tie": float(o.tie), "lose": float(o.lose)}
        for (a, b), o in table.items()
    ]
