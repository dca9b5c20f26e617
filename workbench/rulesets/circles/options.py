"""The circles rule-options ledger: every reading of an unclear rule, its default and its quote.

Readings the engine makes without an option (it plays only one of them), such as damage lasting until its owner's
next turn, are listed with their quotes in docs/rulesets/circles.md (Simulation, Engine options).
"""

from workbench.limits import limit
from workbench.rulesets.base import RuleOption, search_options

TURN_CAP_MAX = limit("turn_cap").value
"""The largest turn cap any ruleset takes (workbench.limits): a stalled match ends within it."""

CARD_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        key="points_must_be_spent",
        default=False,
        reading=(
            "The points a character's base resources give are an upper bound: spending fewer is a warning that "
            "names the unspent points (the document's own example leaves one unspent). With this on it is an error."
        ),
        quote=(
            "2 Resources (any colors): 6 points to distribute, between Health and Attack / For Example, you pick "
            "\u201c2 Resources (Red)\u201d and give the card 3 Attack, 2 Health."
        ),
    ),
    RuleOption(
        key="allow_duplicate_abilities",
        default=False,
        reading=(
            "Each ability is listed at most once on a card; a repeat is an error. With this on a repeat is allowed, "
            "pays its circles again, and its number adds up in play (Armor 1 twice ignores 2 damage)."
        ),
        quote="You may choose more than 1 Ability, if you have enough Circles left.",
    ),
)

DECK_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        key="deck_characters",
        default=14,
        minimum=0,
        maximum=10_000,
        reading=(
            "A deck aims at 14 character cards, the per-player figure; the document's total of 24 for two players "
            "(12 each) disagrees with it, while its 32 resources do match 2 x 16. Set 12 for the other reading."
        ),
        quote=(
            "Each player should add roughly 14 character cards, and 16 resource cards to a game deck, for a total "
            "of 24 characters and 32 resources."
        ),
    ),
    RuleOption(
        key="deck_resources",
        default=16,
        minimum=0,
        maximum=10_000,
        reading="A deck aims at 16 resource cards (per player; the document's 32 in total agrees).",
        quote="Each player should add roughly 14 character cards, and 16 resource cards to a game deck",
    ),
    RuleOption(
        key="deck_tolerance",
        default=2,
        minimum=0,
        maximum=10_000,
        reading=(
            "\u201cRoughly\u201d means within this many cards of each target; a deck further off gets a warning "
            "(never an error: the document gives advice, not a rule)."
        ),
        quote="Each player should add roughly 14 character cards, and 16 resource cards",
    ),
)

ENGINE_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        key="resources_per_turn",
        default=2,
        minimum=1,
        maximum=10,
        reading=(
            "A player may play up to 2 resource cards a turn (the later, explicit sentence); set 1 for the reading "
            "of the first sentence, one resource a turn."
        ),
        quote=(
            "After you draw, you may play a Resource Card, of any type. You may play up to 2 Resource Cards per Turn."
        ),
    ),
    RuleOption(
        key="destroy_when",
        default="more_than",
        reading=(
            "A character is destroyed when the damage on it is more than its Health (a 2-Health card survives "
            "2 damage); `at_least` destroys it when the damage reaches its Health. Damage adds up until its "
            "owner's next turn, when it heals (a reading without an option: docs/rulesets/circles.md)."
        ),
        quote="If either (or both) cards take more Damage than they have Health, they are destroyed.",
        choices=("more_than", "at_least"),
    ),
    RuleOption(
        key="out_of_cards",
        default="empty_hand_draws_3",
        reading=(
            "`empty_hand_draws_3`: a player whose hand is empty at the start of their turn draws 3 cards instead of "
            "1, and an empty draw deck simply gives no card. `reshuffle_discard_draws_3`: a player whose draw deck "
            "is empty shuffles their discard pile into a new deck and draws 3."
        ),
        quote=(
            "At the start of your Turn, draw a card. If you ever run completely out of cards, you should draw 3 cards."
        ),
        choices=("empty_hand_draws_3", "reshuffle_discard_draws_3"),
    ),
    RuleOption(
        key="respond_in_opponent_turn",
        default=True,
        reading=(
            "Resources left unspent stay ready through the opponent's turn, so they may pay for abilities there "
            "(Avoid Damage, Disperse, Heal, Sleep, Fireball, Attack Boost 2, Reorder) and Serenity may be used "
            "there; off, every ability is used only in its owner's own turn."
        ),
        quote=(
            "It cannot be Spent again this turn, but will return to normal at the beginning of your next Turn. / "
            "If an Ability requires more Resource to be Activated, you must do so each Turn that you want to use it."
        ),
    ),
    RuleOption(
        key="sleeping_card_opens_lane",
        default=True,
        reading=(
            "A defender put to Sleep does not defend, so the attacker in its lane hits the defending player as if "
            "nothing stood in front of it; off, that attacker deals no damage at all."
        ),
        quote=(
            "Sleep: Spend 1 Green. Flip enemy card, it does not attack or defend this turn / if an Attacking Player "
            "has more cards than the Defender, those attack points directly affect the Defending Player."
        ),
    ),
    RuleOption(
        key="serenity_protects",
        default="everyone",
        reading=(
            "`everyone`: after Serenity no damage is dealt to any card or player for the rest of the turn; "
            "`own_side`: only damage to the Serenity player's cards and Life Points is ignored."
        ),
        quote="Serenity: Discard this card. All damage this turn is ignored.",
        choices=("everyone", "own_side"),
    ),
    RuleOption(
        key="extra_card",
        default="on_entry",
        reading=(
            "`on_entry`: when a card with Extra Card comes into play, its owner brings one more character from "
            "hand into play without paying for it; `each_turn`: while it is in play, its owner does so once "
            "each of their turns."
        ),
        quote="Extra Card: Bring an additional card into play for free",
        choices=("on_entry", "each_turn"),
    ),
    RuleOption(
        key="new_characters_attack",
        default=True,
        reading=(
            "Characters brought into play this turn attack in this turn's combat, since the turn order brings them "
            "in before “Characters begin their attack” and no rule holds them back; off, a character first "
            "attacks in its owner's next turn (it defends at once either way)."
        ),
        quote=(
            "New Characters are placed on the board. [...] Characters begin their attack. Remember to apply any "
            "Special Abilities that are appropriate, first"
        ),
    ),
    RuleOption(
        key="direct_damage",
        default="attack",
        reading=(
            "`attack`: an attacker with no card in front takes its Attack from the defending player's Life Points "
            "(“those attack points”); `one_per_attacker`: it takes 1 Life Point, whatever its Attack "
            "(Long Range always deals its Attack, as its text says)."
        ),
        quote=(
            "if an Attacking Player has more cards than the Defender, those attack points directly affect the "
            "Defending Player. The Defending Player loses the appropriate amount of Life Points."
        ),
        choices=("attack", "one_per_attacker"),
    ),
    RuleOption(
        key="turn_cap",
        default=60,
        minimum=1,
        maximum=TURN_CAP_MAX,
        reading=(
            "The document plays until a player has no Life Points; a simulated match that reaches this many turns "
            "(each player's turn counts one) is a draw, so stalled boards end."
        ),
        quote="Repeat this Process for each Player, until one Player has lost all Life Points.",
    ),
)

SEARCH_OPTIONS: tuple[RuleOption, ...] = (
    *search_options(
        "legal choice at each decision it searches, on average (shared out among the choices by successive halving)",
        "Repeat this Process for each Player, until one Player has lost all Life Points.",
    ),
)
"""The search policy's settings: not readings of the document, but set like them (`--option key=value`)."""

OPTIONS: tuple[RuleOption, ...] = CARD_OPTIONS + DECK_OPTIONS + ENGINE_OPTIONS + SEARCH_OPTIONS
"""Every ledger entry: card checks, deck checks, then the match engine's readings."""
