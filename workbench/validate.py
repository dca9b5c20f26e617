"""Validation: every card against its cost formula, every deck against its construction rules."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from workbench.cards import CardSet, Deck, Finding, OptionValue, count_by_severity, sort_findings


@dataclass
class Report:
    """The findings of one validation run, with the options they were made under."""

    cardset: CardSet
    """The card set that was validated."""
    decks: list[Deck]
    """The decks that were validated."""
    options: dict[str, OptionValue]
    """Every rule option's value (defaults plus overrides)."""
    findings: list[Finding] = field(default_factory=list)
    """Sheet findings first, then deck findings, each in sheet order."""

    @property
    def counts(self) -> dict[str, int]:
        """Errors, warnings and infos."""
        return count_by_severity(self.findings)

    @property
    def has_errors(self) -> bool:
        """True when any finding is an error (exit code 1)."""
        return self.counts["error"] > 0


def validate(
    cardset: CardSet, decks: Iterable[Deck] = (), options: Mapping[str, OptionValue | str] | None = None
) -> Report:
    """Run the ruleset's card checks over the set and its deck checks over each deck."""
    ruleset = cardset.ruleset
    resolved = ruleset.resolve_options(options)
    deck_list = list(decks)
    card_findings = list(cardset.load_findings) + ruleset.check_cards(cardset, resolved)
    deck_findings: list[Finding] = []
    for deck in deck_list:
        deck_findings.extend(deck.load_findings)
        deck_findings.extend(ruleset.check_deck(cardset, deck, resolved))
    return Report(
        cardset=cardset,
        decks=deck_list,
        options=resolved,
        findings=sort_findings(card_findings) + sort_findings(deck_findings),
    )
