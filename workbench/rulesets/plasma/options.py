"""The plasma rule-options ledger: every reading of an unclear or silent rule, its default and its quote.

The first three entries govern validation; the rest are readings the match
engine needs where the document is silent (untapping, summoning sickness,
how damage and healing last, what a battlefield's effect does, ...).
"""

from workbench.limits import limit
from workbench.rulesets.base import RuleOption, halving_search_options

TURN_CAP_MAX = limit("turn_cap").value
"""The largest turn cap any ruleset takes (workbench.limits): a stalled match ends within it."""

SEARCH_ROLLOUTS = 2
"""The plasma search's default budget: rollouts per candidate on average, the decision's whole budget being this
times its candidates, shared out by successive halving (docs/rulesets/plasma.md, *The search policy*, has the
measurements it was chosen by)."""
SEARCH_DEPTH = 1
"""The plasma search's default cut-off, in turns after the searched one (0: every rollout plays to the end)."""
_WIN_QUOTE = "with the goal of reducing the opponent's Healthshards to 0"
_SEARCHED = (
    "candidate at each decision it searches (every play or stop of its play phase, every attacker's hold, direct "
    "attack or creature to attack)"
)
SEARCH_OPTIONS: tuple[RuleOption, ...] = halving_search_options(
    _SEARCHED,
    _WIN_QUOTE,
    SEARCH_ROLLOUTS,
    SEARCH_DEPTH,
    "Healthshards, the creatures on the field by power and resolve left, cards in hand, a battlefield, whose turn is "
    "next",
)
"""The search policy's settings (`halving_search_options`): its budget as rollouts per candidate on average, the
rollouts' policy, and their cut-off."""

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        key="subtype_rule",
        default=False,
        reading=(
            "The 3-subtype deckbuilding rule is off, as the document asks until persistency exists; with this on a "
            "deck holding cards of more than 3 distinct subtypes (empty subtypes not counted) is an error."
        ),
        quote=(
            "You can only have 3 card subtypes on your deck. Until persistency gets added (or for draft play) this "
            "rule can and should be ignored."
        ),
    ),
    RuleOption(
        key="cost_tolerance",
        default=1.0,
        minimum=0.0,
        maximum=1000.0,
        reading=(
            "The document gives no cost formula, so the workbench fits cost = a*power + b*resolve + c over the set's "
            "creatures by least squares; a creature whose cost is this many plasma or more away from the fitted "
            "value gets a warning."
        ),
        quote=(
            "They have a power (which is how much damage they do), a resolve (which is how much damage they can take "
            "before being destroyed) / Plasma is used to play cards, being spent as you play them."
        ),
    ),
    RuleOption(
        key="min_creatures_to_fit",
        default=4,
        minimum=3,
        maximum=10_000,
        reading=(
            "The fit has three unknowns (a, b, c), so it needs more creatures than that to say anything; with fewer "
            "creatures than this the set gets an info finding instead of a fit, and no creature is judged."
        ),
        quote="There are 5 types of cards in the game: Creature, Equipment, Event, Instant and Battlefield.",
    ),
    RuleOption(
        key="turn_cap",
        default=60,
        minimum=1,
        maximum=TURN_CAP_MAX,
        reading=(
            "The document names no end other than 0 Healthshards; the simulator stops a match after this many turns "
            "(both players' turns counted) and scores it a draw."
        ),
        quote="with the goal of reducing the opponent's Healthshards to 0",
    ),
    RuleOption(
        key="summoning_sickness",
        default=False,
        reading=(
            "The document names no summoning sickness, and none of its words holds a new creature back: a creature "
            "'stays on the field' when played and is used 'for combat', and the only condition on an attacker is "
            "that it is untapped. So a creature may attack in the turn it is played. On (a house rule, the default "
            "up to ruleset version 1.2): a creature cannot attack in the turn it is played, and may still block. "
            "That default was kept because greedy play never blocked without it; that is the policy's weakness, not "
            "the document's rule, and greedy now keeps blockers home when it is losing the race."
        ),
        quote=(
            "Creature cards stay on the field when you play them. ... You can use them for combat and winning the "
            "game! / You can only attack with untapped units."
        ),
    ),
    RuleOption(
        key="untap_every_turn",
        default=False,
        reading=(
            "Untapping is not ruled; the simulator untaps your creatures at the start of your own turn, so a creature "
            "that attacked cannot block on the opponent's turn. On: every creature untaps at the start of every turn."
        ),
        quote="After an attack, every creature gets tapped, both the attacker and the defender.",
    ),
    RuleOption(
        key="attack_tapped_creatures",
        default=True,
        reading=(
            "When attacking a creature the attacker may choose any enemy creature, tapped or not: the document says "
            "'untapped' of the defender's own blockers of a direct attack and of attackers, but for an attack on a "
            "creature it lets the attacker choose among 'the enemy's units' with no such word. Off: only untapped "
            "enemy creatures can be attacked, reading 'becomes the blocker' as bringing the blockers' rule along."
        ),
        quote=(
            "When they block it they choose one of their untapped units and they fight. If the opponent has no "
            "untapped units then they can't block. / You can also make your creatures to attack one of the "
            "opponent's creatures. In that case you choose which of the enemy's units becomes the blocker."
        ),
    ),
    RuleOption(
        key="damage_wears_off",
        default=False,
        reading=(
            "Resolve is read as a total: damage on a creature stays until it is destroyed. On: damage is removed from "
            "every creature at the end of each turn."
        ),
        quote="a resolve (which is how much damage they can take before being destroyed)",
    ),
    RuleOption(
        key="lethal_damage",
        default="more_than",
        reading=(
            "Resolve is 'how much damage they can take before being destroyed': a creature takes that much and "
            "stays, so it is destroyed once the damage on it is more than its resolve (`more_than`; a resolve-2 "
            "creature survives 2 damage, and a resolve-0 creature stays until it takes any). `at_least` destroys it "
            "once the damage reaches its resolve (the default up to ruleset version 1.0)."
        ),
        quote="a resolve (which is how much damage they can take before being destroyed)",
        choices=("more_than", "at_least"),
    ),
    RuleOption(
        key="healthshards_cap",
        default=0,
        minimum=0,
        maximum=10_000,
        reading=(
            "The document gives 20 Healthshards as where both players start and sets no most: healing adds without a "
            "cap (0). Another number caps healing there (a house rule; 20, the starting Healthshards, was the default "
            "up to ruleset version 1.2)."
        ),
        quote=(
            "Both players start with 20 Healthstards (this game's HP), with the goal of reducing the opponent's "
            "Healthshards to 0."
        ),
    ),
    RuleOption(
        key="battlefield_effects",
        default="each_turn",
        reading=(
            "A battlefield's `power`/`resolve` clauses apply to all your creatures while it stays; its other clauses "
            "(damage, heal, draw, plasma, ...) happen at the start of each of your turns (`each_turn`), or only once "
            "when it is played (`on_play`)."
        ),
        quote="Battlefield are cards that stay on the field after being played but are not creatures.",
        choices=("each_turn", "on_play"),
    ),
    RuleOption(
        key="replace_battlefield",
        default=True,
        reading=(
            "Playing a battlefield while you already have one sends the old one to the discard pile; off: you cannot "
            "play a second battlefield while your first stays."
        ),
        quote="Each player can only have one Battlefield card on their field at once.",
    ),
    RuleOption(
        key="deck_out_loses",
        default=False,
        reading=(
            "The only way to lose is 0 Healthshards, so a player whose deck is empty simply draws nothing; on: a "
            "player who must draw from an empty deck loses."
        ),
        quote=(
            "with the goal of reducing the opponent's Healthshards to 0 / At the start of every turn you draw 1 card."
        ),
    ),
    RuleOption(
        key="instants_before_damage",
        default=True,
        reading=(
            "Declaring an attack (or a block) is not activating a card, so both players may play an Instant after the "
            "attack and its blocker are known and before damage (attacker first, then defender). Off: no Instant is "
            "played around an attack (the other windows stay: see `instants_any_time`)."
        ),
        quote=(
            "they can be played on the Play Phase but also the Battle Phase, and even on the opponent's turn! The main "
            "rules of it are that you cannot use an Instant card after the opponent activates a card but before it "
            "goes in effect"
        ),
    ),
    RuleOption(
        key="instants_any_time",
        default=True,
        reading=(
            "Instants 'can be played at any time', 'even on the opponent's turn', the one limit being that none comes "
            "between an opponent's card (or ability) and its effect. So, besides its own play phase, the attack "
            "windows (`instants_before_damage`) and the end of the opponent's turn, a player may play Instants, "
            "with the plasma left from their own turn, at the start of the opponent's turn (once the opponent has "
            "drawn and their battlefield has taken effect) and in the opponent's play phase after each card the "
            "opponent plays and each ability they activate has gone in effect (its targets chosen and its clauses "
            "done), never in between; as many as they can pay for, until they pass. Flipping the coin is not a card "
            "and opens no window. Off (the only reading up to ruleset version 1.3): Instants only in your own play "
            "phase, around an attack (`instants_before_damage`) and at the end of the opponent's turn."
        ),
        quote=(
            "Instant cards are similar to Events however can be played at any time - they can be played on the Play "
            "Phase but also the Battle Phase, and even on the opponent's turn! The main rules of it are that you "
            "cannot use an Instant card after the opponent activates a card but before it goes in effect"
        ),
    ),
    RuleOption(
        key="activations_per_turn",
        default=1,
        minimum=1,
        maximum=99,
        reading=(
            "A creature's activated ability (`activate N: ...` in its effects) may be activated during its owner's "
            "play phase, paying N plasma each time, at most this many times per turn for each creature. The document "
            "lets you 'activate effects' in the play phase and gives no number; once per creature per turn is the "
            "smallest reading under which an ability is repeatable (every turn), and any larger number lets a cheap "
            "ability (or one that costs 0) be spent over and over in a single turn. Activating neither needs nor taps "
            "an untapped creature: only attacking taps. Set a larger number for abilities limited by plasma alone."
        ),
        quote=(
            "During the Play Phase you may play cards, activate effects and etc. ... once you start the Battle Phase "
            "you can no longer play new cards or activate monster effects until the rest of the turn"
        ),
    ),
    RuleOption(
        key="activation_sickness",
        default=False,
        reading=(
            "A creature may activate its ability in the play phase of the turn it was played: `summoning_sickness` "
            "is a reading about attacking (it keeps blocking in the game), and the document ties nothing else to a "
            "creature's first turn. On: a creature cannot activate its ability on the turn it was played."
        ),
        quote="During the Play Phase you may play cards, activate effects and etc.",
    ),
    RuleOption(
        key="resolve_bonus_end_destroys",
        default=False,
        reading=(
            "Resolve is how much damage a creature 'can take before being destroyed': it is destroyed as it takes "
            "damage beyond that. When a 'this turn' resolve bonus (Brace, Last Stand) ends, the creature takes no "
            "damage, so it stays, keeping as much damage as its resolve lets it take; the next damage destroys it. "
            "On: the damage it took under the bonus stays and destroys it as the bonus ends (the default up to "
            "ruleset version 1.2, under which with lasting damage such a bonus only delayed the creature's end to "
            "the end of the turn)."
        ),
        quote="a resolve (which is how much damage they can take before being destroyed)",
    ),
    *SEARCH_OPTIONS,
)
