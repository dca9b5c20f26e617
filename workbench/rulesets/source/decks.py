"""SOURCE deck construction: the document's ten rules, plus the separate token deck.

Copy limits are per name. Each card gets the one limit that binds it (its
kind's limit, or for monsters the limit of its requirement tier), so a card over
several limits is reported once, by the tightest rule.
"""

from __future__ import annotations

from collections.abc import Iterable

from workbench.cards import CardEntry, CardSet, Deck, DeckLine, Finding, Options, normalize_name
from workbench.rulesets.source.effects import summoned_tokens

DECK_SIZE_MIN = 40
"""A deck may have a minimum of 40 cards ..."""
DECK_SIZE_MAX = 60
"""... and a maximum of 60 cards."""
FOUR_SPACE_MONSTERS_MAX = 1
"""Monsters requiring 4 occupied spaces per deck."""
THREE_SPACE_MONSTERS_MAX = 5
"""Monsters requiring 3 occupied spaces per deck."""
MONSTER_COPIES_MAX = 1
"""Copies of a monster requiring more than 0 spaces, unless the starter deck holds more."""
ZERO_SPACE_COPIES_MAX = 4
"""Copies of any card requiring 0 occupied spaces."""
TRAP_COPIES_MAX = 2
"""Copies of a trap card."""
GOOP_COPIES_MAX = 1
"""Copies of Goop ("due to its effectiveness")."""
EQUIPMENT_COPIES_MAX = 2
"""Copies of an equipment card."""
CHANNELED_COPIES_MAX = 1
"""Copies of a channeled effect card."""
CHANNELED_TOTAL_MAX = 10
"""Channeled effect cards in all."""
TOKEN_COPIES_MAX = ZERO_SPACE_COPIES_MAX
"""Copies of a token in the token deck, when the `limit_token_copies` option applies the 0-space limit there."""


def goop_names(options: Options) -> set[str]:
    """The normalized card names the option `goop_names` marks as Goop."""
    return {normalize_name(part) for part in str(options["goop_names"]).replace(",", ";").split(";") if part.strip()}


def copy_limit(card: object, goop: set[str]) -> tuple[int, str, str]:
    """(limit, rule id, reason) for one main-deck card: the single limit that binds it."""
    kind = card.kind  # type: ignore[attr-defined]
    if normalize_name(card.name) in goop:  # type: ignore[attr-defined]
        return GOOP_COPIES_MAX, "source.goop_copies", "Goop is limited to 1 per deck"
    if kind == "trap":
        return TRAP_COPIES_MAX, "source.trap_copies", f"a trap is limited to {TRAP_COPIES_MAX} copies"
    if kind == "equipment":
        return (
            EQUIPMENT_COPIES_MAX,
            "source.equipment_copies",
            f"an equipment is limited to {EQUIPMENT_COPIES_MAX} copies",
        )
    if kind == "channeled":
        return CHANNELED_COPIES_MAX, "source.channeled_copies", "a channeled effect is limited to 1 copy"
    if card.requirement == 0:  # type: ignore[attr-defined]
        return (
            ZERO_SPACE_COPIES_MAX,
            "source.zero_space_copies",
            "a card requiring 0 occupied spaces is limited to 4 copies",
        )
    starter = card.starter_copies or MONSTER_COPIES_MAX  # type: ignore[attr-defined]
    if starter > MONSTER_COPIES_MAX:
        return starter, "source.monster_copies", f"the starter deck holds {starter}, so {starter} copies are allowed"
    return MONSTER_COPIES_MAX, "source.monster_copies", "a monster requiring occupied spaces is limited to 1 copy"


def check_deck(cardset: CardSet, deck: Deck, options: Options) -> list[Finding]:
    """Deck size, requirement-tier caps, copy limits, channeled total, tokens in their own section and present there."""
    findings: list[Finding] = []
    findings.extend(_check_sections(deck))
    findings.extend(_check_size(deck, options))
    main = deck.counts("main")
    findings.extend(_check_tier_caps(deck, main.values()))
    findings.extend(_check_copy_limits(deck, main.values(), options))
    findings.extend(_check_channeled_total(deck, main.values()))
    if options["limit_token_copies"]:
        findings.extend(_check_token_copies(deck, deck.counts("tokens").values()))
    findings.extend(_check_token_deck(cardset, deck, main.values()))
    return findings


def _line(deck: Deck, number: int) -> DeckLine:
    return next(line for line in deck.lines if line.line == number)


def _check_sections(deck: Deck) -> list[Finding]:
    findings: list[Finding] = []
    for line in deck.lines:
        if line.entry is None:
            continue
        kind = line.entry.card.kind
        if line.section == "main" and kind == "token":
            findings.append(
                deck.finding(
                    "error",
                    "source.token_in_main",
                    "a monster token belongs in the token deck: list it after a `Tokens:` line.",
                    line,
                    expected="Tokens: section",
                    actual="main",
                )
            )
        elif line.section == "tokens" and kind != "token":
            findings.append(
                deck.finding(
                    "error",
                    "source.card_in_tokens",
                    f"a {kind} card belongs in the main deck, not the token deck.",
                    line,
                    expected="main section",
                    actual="tokens",
                )
            )
    return findings


def _check_size(deck: Deck, options: Options) -> list[Finding]:
    size = sum(line.count for line in deck.section("main") if line.entry and line.entry.card.kind != "token")
    counted = "main-deck cards"
    if options["tokens_count_toward_deck_size"]:
        size += sum(line.count for line in deck.section("tokens") if line.entry and line.entry.card.kind == "token")
        counted = "cards (main deck and tokens)"
    if DECK_SIZE_MIN <= size <= DECK_SIZE_MAX:
        return []
    return [
        deck.finding(
            "error",
            "source.deck_size",
            f"the deck has {size} {counted}; a deck holds {DECK_SIZE_MIN} to {DECK_SIZE_MAX}.",
            expected=f"{DECK_SIZE_MIN}-{DECK_SIZE_MAX}",
            actual=size,
        )
    ]


def _check_tier_caps(deck: Deck, counts: Iterable[tuple[CardEntry, int, int]]) -> list[Finding]:
    tiers: dict[int, list[tuple[CardEntry, int, int]]] = {3: [], 4: []}
    for entry, copies, first in counts:
        card = entry.card
        if card.kind != "monster":
            continue
        # A requirement above 4 is already a card error; in a deck it is held to the top tier's cap.
        tier = min(card.requirement, 4)  # type: ignore[attr-defined]
        if tier in tiers:
            tiers[tier].append((entry, copies, first))
    findings: list[Finding] = []
    caps = (
        (4, FOUR_SPACE_MONSTERS_MAX, "source.four_space_monsters"),
        (3, THREE_SPACE_MONSTERS_MAX, "source.three_space_monsters"),
    )
    for tier, cap, rule in caps:
        members = tiers[tier]
        total = sum(copies for _, copies, _ in members)
        if total <= cap:
            continue
        findings.append(
            deck.finding(
                "error",
                rule,
                f"the deck holds {total} monsters requiring {tier} occupied spaces "
                f"({', '.join(f'{c}x {e.card.name}' for e, c, _ in members)}); at most {cap} allowed.",
                _line(deck, _line_past_cap(members, cap)),
                expected=cap,
                actual=total,
            )
        )
    return findings


def _check_copy_limits(deck: Deck, counts: Iterable[tuple[CardEntry, int, int]], options: Options) -> list[Finding]:
    goop = goop_names(options)
    findings: list[Finding] = []
    for entry, copies, first in counts:
        if entry.card.kind == "token":
            continue
        limit, rule, reason = copy_limit(entry.card, goop)
        if copies > limit:
            findings.append(
                deck.finding(
                    "error",
                    rule,
                    f"{copies} copies, but {reason}.",
                    _line(deck, first),
                    expected=limit,
                    actual=copies,
                )
            )
    return findings


def _line_past_cap(members: list[tuple[CardEntry, int, int]], cap: int) -> int:
    """The first line at which the running count passes `cap`, so the designer sees which card to cut."""
    running = 0
    for _, copies, first in sorted(members, key=lambda m: m[2]):
        running += copies
        if running > cap:
            return first
    return max(first for _, _, first in members)


def _check_channeled_total(deck: Deck, counts: Iterable[tuple[CardEntry, int, int]]) -> list[Finding]:
    channeled = [member for member in counts if member[0].card.kind == "channeled"]
    total = sum(copies for _, copies, _ in channeled)
    if total <= CHANNELED_TOTAL_MAX:
        return []
    return [
        deck.finding(
            "error",
            "source.channeled_total",
            f"the deck holds {total} channeled effect cards; at most {CHANNELED_TOTAL_MAX} allowed.",
            _line(deck, _line_past_cap(channeled, CHANNELED_TOTAL_MAX)),
            expected=CHANNELED_TOTAL_MAX,
            actual=total,
        )
    ]


def _check_token_copies(deck: Deck, counts: Iterable[tuple[CardEntry, int, int]]) -> list[Finding]:
    findings: list[Finding] = []
    for entry, copies, first in counts:
        if entry.card.kind == "token" and copies > TOKEN_COPIES_MAX:
            findings.append(
                deck.finding(
                    "error",
                    "source.token_copies",
                    f"{copies} copies of a token; with limit_token_copies on, a card requiring 0 occupied spaces "
                    f"is limited to {TOKEN_COPIES_MAX} copies in the token deck too.",
                    _line(deck, first),
                    expected=TOKEN_COPIES_MAX,
                    actual=copies,
                )
            )
    return findings


def _check_token_deck(cardset: CardSet, deck: Deck, counts: Iterable[tuple[CardEntry, int, int]]) -> list[Finding]:
    # Tokens come only from the token deck, so a card that summons one the deck lacks cannot do what it says.
    listed = {normalize_name(name) for name in deck.counts("tokens")}
    findings: list[Finding] = []
    for entry, _, first in sorted(counts, key=lambda c: c[2]):
        card = entry.card
        for token_key in dict.fromkeys(summoned_tokens(card.effects, card.kind)):  # type: ignore[attr-defined]
            token = cardset.find(token_key)
            if token is None or token.card.kind != "token" or token_key in listed:
                continue  # a name that is no token is reported once, on the card (source.effect_token)
            findings.append(
                deck.finding(
                    "warning",
                    "source.token_deck_missing",
                    f"{card.name} summons the token {token.card.name}, but the deck's `Tokens:` section does not "
                    "list it.",
                    _line(deck, first),
                    expected=f"{token.card.name} under Tokens:",
                    actual="not listed",
                )
            )
    return findings
