"""The SOURCE rule-options ledger: every reading of an unclear rule, its default and its quote."""

from workbench.rulesets.base import RuleOption

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        key="goop_names",
        default="Goop",
        reading=(
            "Goop is one named trap card, not a family of cards: a card whose name is in this `;`-separated list "
            "(case-insensitive) is limited to 1 copy per deck; empty turns the rule off."
        ),
        quote="Due to its effectiveness, there may only be 1 Goop [Trap Card] in a deck",
    ),
    RuleOption(
        key="limit_token_copies",
        default=False,
        reading=(
            "Monster tokens live in their own token deck, which the ten deck rules do not govern, so any number of "
            "copies of a token may be listed under `Tokens:`; with this on, the 0-space limit of 4 copies applies "
            "to tokens too."
        ),
        quote=(
            "monster tokens are kept in their own distinct deck separate from the standard deck / The limit for any "
            "card requiring 0 occupied spaces to be summoned is 4."
        ),
    ),
    RuleOption(
        key="tokens_count_toward_deck_size",
        default=False,
        reading=(
            "The 40-60 card size is the standard deck's; tokens under `Tokens:` are not counted. With this on they "
            "count toward the 40-60."
        ),
        quote=(
            "A deck may have a minimum of 40 cards and a maximum of 60 cards. / monster tokens are kept in their "
            "own distinct deck separate from the standard deck"
        ),
    ),
    RuleOption(
        key="strict_token_totals",
        default=False,
        reading=(
            "A token whose ST total is 50 or more is a warning, because the document only says token totals are "
            "likely lower; with this on it is an error."
        ),
        quote=(
            "their ST total will likely differ from normal monsters. In this particular case, the ST total is less "
            "than that of a normal monster with no summoning requirements."
        ),
    ),
    RuleOption(
        key="cap_requirements_of_all_kinds",
        default=True,
        reading=(
            "Every card's requirement (equipment, traps, and any filled in on channeled effects or tokens) shares "
            "the monsters' 0-4 range, so a total above 4 is an error; with this off only monsters are held to it."
        ),
        quote=(
            "Equipment cards and trap cards have the same terrestrial and otherworldly summoning requirements as "
            "monster cards. / monsters requiring at least: 0 ... 4 occupied spaces have a 150 ST total"
        ),
    ),
    RuleOption(
        key="check_bracket_gaps",
        default=True,
        reading=(
            "A channeled effect's brackets should cover every ST from 0 up: an uncovered range (a gap between "
            "brackets, or a first bracket above 0) is a warning; with this off gaps are allowed silently."
        ),
        quote=(
            "ST brackets of a channeled effect let you know how high a monster's ST has to be in order to use a "
            "particular effect. / Attempts to do so at lower levels may result in mediocre output or even "
            "significant backlash"
        ),
    ),
)
