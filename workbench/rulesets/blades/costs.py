"""Star ratings and set composition: the checks Millennium Blades has in place of a cost formula.

The aftermarket prices a card by its star rating (buying from it and selling
to it both cost the star rating in Millennium Dollars) and the store by its
set's buy cost (`prices.py`), so there is no stat budget to check; what the
document does fix is the star range and how many copies of each card a set
holds:

- Star Ratings range from 1-10, but usually just 1-8.
- The highest star card in a set has one copy, the lowest three, every other
  two; in promo sets one copy of every card; the core set is an exception.
- Components: expansion, premium and master sets of 12 cards, promo sets of 6,
  starter decks of 9, pro player card sets of 5, meta card sets of 6.
- Metagame cards sit in meta sets (the two stacks on the Aftermarket Board),
  have no star rating to check, and only score.

It also names six elements and six types (without saying what they are), and
the `effects` column is checked against the simulator's vocabulary.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from workbench.cards import CardEntry, CardSet, Finding, Options, Severity, closest_names, normalize_name
from workbench.rulesets.blades.cards import card_of
from workbench.rulesets.blades.effects import parse_effects
from workbench.rulesets.blades.prices import check_buy_costs

LOWEST_STARS = 1
"""The lowest star rating a card can have."""
HIGHEST_STARS = 10
"""The highest star rating a card can have."""
USUAL_HIGHEST_STARS = 8
"""Above this the rating is legal but unusual ("usually just 1-8")."""

DOCUMENT_SET_SIZES: dict[str, int] = {
    "expansion": 12,
    "premium": 12,
    "master": 12,
    "promo": 6,
    "starter": 9,
    "pro": 5,
    "meta": 6,
}
"""Cards per set by kind, from the document's Components list; the core set (118 cards) is exempt."""
STAR_RULE_SET_KINDS = frozenset({"expansion", "premium", "master"})
"""Set kinds whose copies follow the star rule (highest 1, lowest 3, others 2)."""
HIGHEST_COPIES, MIDDLE_COPIES, LOWEST_COPIES = 1, 2, 3
"""Copies of a set's highest-star card, of any other card, and of its lowest-star card."""
PROMO_COPIES = 1
"""Copies of every card in a promo set."""
META_COPIES = 1
"""Copies of every card in a meta set: a stack of different metagame cards, one revealed per round."""
STARTER_COPIES = 1
"""Copies of every card in a starter deck (a tournament deck as it comes; option `starter_one_copy`)."""


@dataclass
class CardSetGroup:
    """The rows of one set (cards whose `set` names match ignoring case and spaces), in sheet order."""

    name: str
    """The set's name as its first row writes it."""
    kind: str
    """The set's kind, from its first row."""
    entries: list[CardEntry] = field(default_factory=list)
    """Every card of the set, in sheet order."""

    @property
    def first(self) -> CardEntry:
        """The set's first row: where set-level findings point."""
        return self.entries[0]


def sets_of(entries: Iterable[CardEntry]) -> list[CardSetGroup]:
    """The sets of a card sheet, in order of first appearance."""
    groups: dict[str, CardSetGroup] = {}
    for entry in entries:
        key = normalize_name(card_of(entry).set)
        if key not in groups:
            groups[key] = CardSetGroup(name=card_of(entry).set, kind=card_of(entry).set_kind)
        groups[key].entries.append(entry)
    return list(groups.values())


def star_rating_in_range(stars: int) -> bool:
    """True for the document's 1-10."""
    return LOWEST_STARS <= stars <= HIGHEST_STARS


def expected_copies(stars: int, lowest: int, highest: int) -> int:
    """Copies the star rule gives a card of `stars` in a set whose ratings run `lowest`..`highest`.

    A set whose cards all share one rating follows the highest-star rule (1 copy).
    """
    if stars == highest:
        return HIGHEST_COPIES
    if stars == lowest:
        return LOWEST_COPIES
    return MIDDLE_COPIES


def set_total(group: CardSetGroup, counts: str) -> int:
    """A set's card count: the sum of its copies (`copies`) or its different cards (`rows`)."""
    if counts == "rows":
        return len(group.entries)
    return sum(card_of(entry).copies for entry in group.entries)


def check_cards(cardset: CardSet, options: Options) -> list[Finding]:
    """Star ratings, set composition, the number of symbols, and the effects vocabulary."""
    findings: list[Finding] = []
    for entry in cardset:
        findings.extend(_check_stars(cardset, entry))
    for group in sets_of(cardset):
        findings.extend(_check_set(cardset, group, options))
        findings.extend(check_buy_costs(cardset, group))
    findings.extend(_check_symbol_count(cardset, int(options["max_symbols"])))
    findings.extend(check_effects(cardset))
    return findings


def _check_stars(cardset: CardSet, entry: CardEntry) -> list[Finding]:
    if card_of(entry).kind == "metagame":
        return []  # never dueled, sold or collected: a metagame card needs no star rating
    stars = card_of(entry).stars
    if not star_rating_in_range(stars):
        return [
            cardset.finding(
                "error",
                "blades.star_rating",
                f"a star rating of {stars} is outside the document's range of {LOWEST_STARS}-{HIGHEST_STARS}.",
                entry,
                "stars",
                expected=f"{LOWEST_STARS}-{HIGHEST_STARS}",
                actual=stars,
            )
        ]
    if stars > USUAL_HIGHEST_STARS:
        return [
            cardset.finding(
                "warning",
                "blades.star_rating",
                f"a star rating of {stars} is legal but unusual: ratings are 'usually just 1-8'.",
                entry,
                "stars",
                expected=f"{LOWEST_STARS}-{USUAL_HIGHEST_STARS}",
                actual=stars,
            )
        ]
    return []


def _check_set(cardset: CardSet, group: CardSetGroup, options: Options) -> list[Finding]:
    findings: list[Finding] = []
    for entry in group.entries[1:]:
        if card_of(entry).set_kind != group.kind:
            findings.append(
                cardset.finding(
                    "error",
                    "blades.set_kind_mismatch",
                    f"set '{group.name}' is of kind {group.kind} on its first row ({group.first.row}), but this "
                    f"row says {card_of(entry).set_kind}; a set has one kind.",
                    entry,
                    "set_kind",
                    expected=group.kind,
                    actual=card_of(entry).set_kind,
                )
            )
    if group.kind in STAR_RULE_SET_KINDS:
        findings.extend(_check_star_rule_copies(cardset, group, bool(options["warn_tied_extremes"])))
    elif group.kind == "promo":
        findings.extend(_check_fixed_copies(cardset, group, PROMO_COPIES, "error", "blades.set_copies", "promo"))
    elif group.kind == "starter" and options["starter_one_copy"]:
        findings.extend(
            _check_fixed_copies(cardset, group, STARTER_COPIES, "warning", "blades.starter_copies", "starter")
        )
    elif group.kind == "meta":
        findings.extend(_check_fixed_copies(cardset, group, META_COPIES, "error", "blades.set_copies", "meta"))
    findings.extend(_check_meta_kinds(cardset, group))
    findings.extend(_check_set_size(cardset, group, str(options["set_total_counts"])))
    return findings


def _check_meta_kinds(cardset: CardSet, group: CardSetGroup) -> list[Finding]:
    """A meta set holds metagame cards only, and a metagame card sits in a meta set (its stack)."""
    findings: list[Finding] = []
    for entry in group.entries:
        card = card_of(entry)
        in_meta_set = card.set_kind == "meta"
        if (card.kind == "metagame") == in_meta_set:
            continue
        findings.append(
            cardset.finding(
                "error",
                "blades.meta_set",
                f"a {card.kind} card in {card.set_kind} set '{group.name}': metagame cards, and only they, make up the "
                "meta sets (the two Metagame stacks of the Aftermarket Board).",
                entry,
                "kind" if in_meta_set else "set_kind",
                expected="metagame" if in_meta_set else "meta",
                actual=card.kind if in_meta_set else card.set_kind,
            )
        )
    return findings


def _check_star_rule_copies(cardset: CardSet, group: CardSetGroup, warn_ties: bool) -> list[Finding]:
    # A card with an impossible rating already has its own error; it must not move the set's extremes.
    rated = [e for e in group.entries if star_rating_in_range(card_of(e).stars)]
    if not rated:
        return []
    ratings = [card_of(e).stars for e in rated]
    lowest, highest = min(ratings), max(ratings)
    findings: list[Finding] = []
    for entry in rated:
        card = card_of(entry)
        wanted = expected_copies(card.stars, lowest, highest)
        if card.copies == wanted:
            continue
        role = {HIGHEST_COPIES: "highest", LOWEST_COPIES: "lowest"}.get(wanted)
        if role:
            why = f"the set's {role}-star card ({card.stars} stars)"
        else:
            why = f"neither highest nor lowest ({card.stars} stars)"
        findings.append(
            cardset.finding(
                "error",
                "blades.set_copies",
                f"in {group.kind} set '{group.name}' this card is {why}, so it has {wanted} "
                f"{'copy' if wanted == 1 else 'copies'}, not {card.copies}.",
                entry,
                "copies",
                expected=wanted,
                actual=card.copies,
            )
        )
    if warn_ties:
        findings.extend(_check_tied_extremes(cardset, group, rated, lowest, highest))
    return findings


def _check_tied_extremes(
    cardset: CardSet, group: CardSetGroup, rated: list[CardEntry], lowest: int, highest: int
) -> list[Finding]:
    findings: list[Finding] = []
    for label, rating in (("highest", highest), ("lowest", lowest)):
        tied = [e for e in rated if card_of(e).stars == rating]
        if len(tied) < 2:
            continue
        names = ", ".join(card_of(e).name for e in tied)
        findings.append(
            cardset.finding(
                "warning",
                "blades.tied_extremes",
                f"set '{group.name}' has {len(tied)} cards at its {label} rating ({rating} stars: {names}); the "
                f"document speaks of one {label}-star card.",
                tied[1],
                "stars",
                expected=f"one card at the {label} rating",
                actual=len(tied),
            )
        )
        if highest == lowest:
            break
    return findings


def _check_fixed_copies(
    cardset: CardSet, group: CardSetGroup, wanted: int, severity: Severity, rule: str, label: str
) -> list[Finding]:
    return [
        cardset.finding(
            severity,
            rule,
            f"{label} set '{group.name}' holds one copy of every card, not {card_of(entry).copies}.",
            entry,
            "copies",
            expected=wanted,
            actual=card_of(entry).copies,
        )
        for entry in group.entries
        if card_of(entry).copies != wanted
    ]


def _check_set_size(cardset: CardSet, group: CardSetGroup, counts: str) -> list[Finding]:
    wanted = DOCUMENT_SET_SIZES.get(group.kind)
    if wanted is None:
        return []
    total = set_total(group, counts)
    if total == wanted:
        return []
    noun = ("card" if total == 1 else "cards") + (" counting copies" if counts == "copies" else "")
    if counts == "rows":
        noun = "different " + noun
    return [
        cardset.finding(
            "warning",
            "blades.set_size",
            f"{group.kind} set '{group.name}' has {total} {noun}; the document's {group.kind} sets have {wanted}.",
            group.first,
            "set",
            expected=wanted,
            actual=total,
        )
    ]


def _check_symbol_count(cardset: CardSet, limit: int) -> list[Finding]:
    if limit <= 0:
        return []
    findings: list[Finding] = []
    seen: dict[str, dict[str, str]] = {"elements": {}, "types": {}}
    for entry in cardset:
        card = card_of(entry)
        for column in ("elements", "types"):
            # Pro player cards bring a type of their own on top of the six.
            if column == "types" and card.set_kind == "pro":
                continue
            known = seen[column]
            for name in getattr(card, column):
                key = name.casefold()
                if key in known:
                    continue
                known[key] = name
                if len(known) <= limit:
                    continue
                earlier = [n for k, n in known.items() if k != key]
                hints = closest_names(name, earlier, limit=1)
                hint = f" Did you mean '{hints[0]}'?" if hints else ""
                findings.append(
                    cardset.finding(
                        "warning",
                        "blades.symbol_count",
                        f"'{name}' is the set's {_ordinal(len(known))} different {column[:-1]}; the document has "
                        f"{limit}.{hint}",
                        entry,
                        column,
                        expected=f"at most {limit} different {column}",
                        actual=sorted(known.values(), key=str.casefold),
                    )
                )
    return findings


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def check_effects(cardset: CardSet) -> list[Finding]:
    """Info findings on the cards' effect text (clauses the simulator leaves out, with why), from validation and from
    the engine's card compilation alike."""
    symbols: dict[str, str] = {}
    for entry in cardset:
        for name in (*card_of(entry).elements, *card_of(entry).types):
            symbols.setdefault(name.casefold(), name)
    findings: list[Finding] = []
    for entry in cardset:
        text = card_of(entry).effects
        if not text:
            continue
        parsed = parse_effects(text)
        if card_of(entry).kind == "metagame":
            for clause in parsed.clauses:
                if clause.timing == "Score":
                    continue
                findings.append(
                    cardset.finding(
                        "info",
                        "blades.effects",
                        f"'{clause.text}': a metagame card is not in anyone's tableau, so only its Score effects "
                        "act (every player activates them for themselves); the simulator leaves this clause out.",
                        entry,
                        "effects",
                        expected="Score clauses",
                        actual=clause.text,
                    )
                )
        for problem in parsed.problems:
            findings.append(
                cardset.finding(
                    "info",
                    "blades.effects",
                    f"{problem.message} The simulator will play this card without that clause.",
                    entry,
                    "effects",
                    expected="a clause of the effects vocabulary (docs/rulesets/blades.md)",
                    actual=problem.clause,
                )
            )
        for symbol in parsed.symbols:
            if symbol.casefold() in symbols:
                continue
            hints = closest_names(symbol, symbols.values(), limit=1)
            hint = f" Did you mean '{hints[0]}'?" if hints else ""
            findings.append(
                cardset.finding(
                    "info",
                    "blades.effects",
                    f"'per {symbol}' names no element or type of any card in the set, so it counts nothing.{hint}",
                    entry,
                    "effects",
                    expected="an element or type used in the set",
                    actual=symbol,
                )
            )
    return findings
