"""The souls rule-options ledger: every reading of an unclear rule, its default and its quote.

The first three entries steer validation; the rest steer the match engine
(`engine/`) and, for `deck_size` and `sacrifice_from`, the deck checks; the
last three are the search policy's settings (`SEARCH_OPTIONS`). The engine
reads them through `ENGINE_OPTION_ORDER`.
"""

from workbench.limits import limit
from workbench.rulesets.base import RuleOption, halving_search_options

TURN_CAP_MAX = limit("turn_cap").value
"""The largest turn cap any ruleset takes (workbench.limits): a stalled match ends within it."""

SEARCH_ROLLOUTS = 2
"""The souls search's default budget: rollouts per candidate on average, the decision's whole budget being this times
its candidates, shared out by successive halving (docs/rulesets/souls.md, *The search policy*, has the measurements
it was chosen by)."""
SEARCH_DEPTH = 1
"""The souls search's default cut-off, in turns after the searched one (0: every rollout plays to the end)."""
_WIN_QUOTE = "Winning the Game / How to Win: See Attacking Opponent - 2."
SEARCH_OPTIONS: tuple[RuleOption, ...] = halving_search_options(
    "candidate at each step of its turn it searches",
    _WIN_QUOTE,
    SEARCH_ROLLOUTS,
    SEARCH_DEPTH,
    "shields, the worth of cards in play and in hand, statuses",
)
"""The search policy's settings (`rulesets.base.halving_search_options`): the budget and rollout policy every ruleset
has, with souls' default budget, and the rollouts' cut-off."""

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        key="strict_costs",
        default=False,
        reading="A soul cost that differs from the table is a warning; with this on it is an error.",
        quote="Rules of Thumb / Souls cost (# sacrifices req.)",
    ),
    RuleOption(
        key="element_counts_as_powerful",
        default=True,
        reading=(
            "A card with an element counts as having a powerful effect (+1 soul cost) even when its effect_weight "
            "cell is empty; a 'detrimental' mark still takes its -1, so element + detrimental nets 0."
        ),
        quote="Increases by 1 if it has a powerful effect like elemental application",
    ),
    RuleOption(
        key="check_spell_costs",
        default=False,
        reading=(
            "The table prices Atk + Def, so it is checked on monsters; magic and trap cards are checked only "
            "with this on (and only when both Atk and Def are filled in)."
        ),
        quote="(Soul Cost) Atk / Def ... Soul Cost == required number of sacrifices to summon",
    ),
    RuleOption(
        key="deck_size",
        default=30,
        minimum=0,
        maximum=10_000,
        reading=(
            "The document gives no deck size; 30 cards is the reading. A deck of another size gets a warning "
            "(0 turns the warning off); the simulator plays any decklist as given."
        ),
        quote="(no deck size is given anywhere in the document)",
    ),
    RuleOption(
        key="hand_size",
        default=5,
        minimum=0,
        maximum=60,
        reading=(
            "Each player shuffles and draws this many cards before the first turn (the document gives no hand size)."
        ),
        quote="(no starting hand is given anywhere in the document)",
    ),
    RuleOption(
        key="draw_per_turn",
        default=1,
        minimum=0,
        maximum=10,
        reading="A player draws this many cards at the start of each of their turns (the document gives no draw rule).",
        quote="(no draw rule is given anywhere in the document)",
    ),
    RuleOption(
        key="first_player_draws",
        default=False,
        reading="The player who goes first skips the draw of their first turn (a common equaliser); true: they draw.",
        quote="(no draw rule is given anywhere in the document)",
    ),
    RuleOption(
        key="empty_deck",
        default="skip",
        choices=("skip", "lose"),
        reading="Drawing from an empty deck draws nothing ('skip'); 'lose': the player who cannot draw loses.",
        quote="(the document does not say what happens when a deck runs out)",
    ),
    RuleOption(
        key="turn_cap",
        default=50,
        minimum=1,
        maximum=TURN_CAP_MAX,
        reading="A match still undecided after this many turns (each player's turn counts one) is a draw.",
        quote="Winning the Game / How to Win: See Attacking Opponent - 2.",
    ),
    RuleOption(
        key="row_slots",
        default=3,
        minimum=1,
        maximum=5,
        reading="Each of a player's 3 rows holds up to this many cards (1-5); the document gives no row size.",
        quote="Cards may be played in one of 3 rows on your field.",
    ),
    RuleOption(
        key="summons_per_turn",
        default=0,
        minimum=0,
        maximum=99,
        reading=(
            "0 (the default): no limit. The document's only price on a summon is its sacrifices, and its "
            "once-per-turn limit is on using a card you control, which a card in your hand is not (you control the "
            "cards you summon); it names a section 'Playing Cards / Summoning' it does not contain, so no other "
            "limit is written. N: a player may summon N monsters a turn (magic and trap cards are not limited), a "
            "house rule: 1 was the default up to ruleset 1.5, because with no limit the player who goes second (and "
            "draws on their first turn) wins clearly more often and matches are about three turns shorter "
            "(docs/rulesets/souls.md, Readings measured)."
        ),
        quote=(
            "Soul Cost == required number of sacrifices to summon ... You control the cards you summon. ... "
            "Each card can be used once per turn. You can only use a card that you control. ... Cards are placed in "
            "rows (see Playing Cards / Summoning)"
        ),
    ),
    RuleOption(
        key="sacrifice_from",
        default="field",
        choices=("either", "field", "hand"),
        reading=(
            "A sacrifice is a card you control: 'field' (the default) takes only monsters you have in play, since "
            "the document's cards are controlled once summoned and used only while controlled, and zero-cost cards "
            "summon with no sacrifice, so they bootstrap the field. 'either': monsters you control or cards in your "
            "hand; 'hand': only cards from your hand."
        ),
        quote=(
            "Soul Cost == required number of sacrifices to summon ... You control the cards you summon. You can use "
            "the cards you control."
        ),
    ),
    RuleOption(
        key="direct_attack",
        default="always",
        choices=("always", "reach"),
        reading=(
            "'always': any attacker may attack the opponent directly, as the text sets no condition; 'reach': the "
            "opponent stands one row behind their last occupied row, so the attack needs the range to get there."
        ),
        quote="You can attack the opponent directly, dealing damage to their shield",
    ),
    RuleOption(
        key="attacker_rows_collapse",
        default=True,
        reading=(
            "The empty-row rule applies to both sides: an attacker behind an empty row of its own also counts as "
            "one row further forward. Off: only the defender's empty rows are ignored."
        ),
        quote=(
            "if your first row is empty, then Monsters in the first row of your opponent's field can attack cards in "
            "your second row as if it was your first row -- likewise, if the opponent has any Monsters in the "
            "second row, they may attack cards in your first row (even with a Range of 1)"
        ),
    ),
    RuleOption(
        key="destroy_when",
        default="reaches",
        choices=("reaches", "exceeds"),
        reading="A card is destroyed when the damage on it reaches its Def ('reaches'); 'exceeds': only above its Def.",
        quote="the target is dealt damage equal to the attacking card's Attack value",
    ),
    RuleOption(
        key="damage_persists",
        default=True,
        reading=(
            "Damage stays on a card until it is destroyed (Def is what it can take in all), so Plague and "
            "Explosion wear cards down; off: damage is removed at the end of every turn."
        ),
        quote="1 damage to all cards on your field",
    ),
    RuleOption(
        key="summoning_sickness",
        default=False,
        reading=(
            "A monster can attack on the turn it is summoned: the document only stops a card equipped this turn "
            "from being used. On: a monster waits a turn."
        ),
        quote="you cannot equip a card and then use it in the same turn",
    ),
    RuleOption(
        key="burning_turns",
        default=0,
        minimum=0,
        maximum=99,
        reading=(
            "0 (the default): Burning deals its 1 damage a turn for the rest of the match, like Everflame and Plague. "
            "The document gives Burning no end, only 'per turn'; 'harder to remove' speaks of removing a status, "
            "which takes a card that removes it, and no card of the effects vocabulary does. N: Burning ends "
            "after striking N times (a timed reading of 'easier to remove')."
        ),
        quote=(
            "Burning (fire + oil): 1 direct damage / turn ... Everflame (fire + curse): 1 direct damage / turn (much "
            "harder to remove than Burning status)"
        ),
    ),
    RuleOption(
        key="combo_consumes",
        default=False,
        reading=(
            "Off (the default): the first standard status stays and every later application of a different "
            "element makes a combo with it, as 'any subsequent ... applications' says. On: a combo uses up the "
            "standard status that made it, so the next element starts afresh."
        ),
        quote=(
            "If a player already has a standard elemental status e.g. fire applied, then any subsequent elemental "
            "status applications of any other element incur a combo status."
        ),
    ),
    RuleOption(
        key="unlisted_combo",
        default="replace",
        choices=("replace", "keep"),
        reading=(
            "Oil + curse is the one pair without a combo: the newer element replaces the standard status "
            "('replace'); 'keep': the first one stays."
        ),
        quote="Combo statuses / effects: burning, explosion, everflame, poison, plague",
    ),
    RuleOption(
        key="status_ticks",
        default="every_turn",
        choices=("own_turn", "every_turn"),
        reading=(
            "'every_turn' (the default): Burning, Everflame and Plague strike at the start of every turn, both "
            "players', since the document's 'turn' is one player's turn ('You can only use a card on your turn') "
            "and Plague strikes 'at the beginning of each turn'. 'own_turn': only at the start of the afflicted "
            "player's own turns."
        ),
        quote=(
            "Plague (miasma + curse): at the beginning of each turn, take 1 direct damage ... Burning (fire + oil): "
            "1 direct damage / turn"
        ),
    ),
    RuleOption(
        key="trap_slots",
        default=3,
        minimum=1,
        maximum=5,
        reading="A player may have up to this many traps set face down at once (1-5); the document gives no limit.",
        quote="Most Trap cards' effects are activated by Trigger conditions",
    ),
    *SEARCH_OPTIONS,
)
