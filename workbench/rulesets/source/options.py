"""The SOURCE rule-options ledger: every reading of an unclear rule, its default and its quote."""

from pathlib import Path

from workbench.limits import limit
from workbench.rulesets.base import RuleOption, halving_search_options

SEARCH_ROLLOUTS = 12
"""The SOURCE search's default budget: rollouts per candidate on average, the decision's whole budget being this times
its candidates, shared out by successive halving (docs/rulesets/source.md, *The search policy*, has the measurements
it was chosen by: with rollouts cut off after SEARCH_DEPTH turns, 12 a candidate play as strongly as engine 7's 16 to
the end, in about half the time; 8 play a little weaker)."""
SEARCH_DEPTH = 12
"""The SOURCE search's default cut-off, in turns after the searched one: a rollout plays 12 more turns (six of each
player), then the game's evaluation scores the position. Cut off after 12 or 16 turns the search is as strong as with
every rollout played to the match's end (engine 7's default), and faster; the shorter cut-offs measured before (1
to 8 turns at 2 to 4 rollouts a candidate) played weaker."""
_WIN_QUOTE = "The match is ended and a player is defeated if the player's **SourcePoints** reaches 0."
SEARCH_OPTIONS: tuple[RuleOption, ...] = halving_search_options(
    "candidate main action at each of its turns",
    _WIN_QUOTE,
    SEARCH_ROLLOUTS,
    SEARCH_DEPTH,
    "SourcePoints, the monsters on the map by ST and how far they have come, cards in hand and in play",
)
"""The search policy's settings (`rulesets.base.halving_search_options`): the budget and rollout policy every ruleset
has, with SOURCE's default budget, and the rollouts' cut-off."""

TURN_CAP_MAX = limit("turn_cap").value
"""The largest turn cap any ruleset takes (workbench.limits): a stalled match ends within it."""

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
    # ---- engine readings (workbench/rulesets/source/engine/) ----
    RuleOption(
        key="map",
        default="default",
        reading=(
            "The map's pictures are missing, so the map is a file built from the document's words: `default` is "
            "workbench/rulesets/source/maps/default.json (summoning space, Source Flux one step on, then a "
            "terrestrial and an otherworldly lane of 3 spaces per half, 4 support spaces); any other value is the "
            "path of a map file of the same shape."
        ),
        quote=(
            "The Summoning Space is the space where you will place the monster ... It also is adjacent to your "
            "SOURCE Generator / The Source Flux space ... is only 1 space adjacent to the summoning space."
        ),
        bundled_files=str(Path(__file__).parent / "maps"),
        file_reader="workbench.rulesets.source.map:read_half_map",
    ),
    RuleOption(
        key="map_alignment",
        default="1",
        reading=(
            "Which faces of the two map halves meet: 1 terrestrial meets terrestrial (the document's default), "
            "2 otherworldly meets otherworldly (the mirror of 1), 3 your terrestrial lane meets the opponent's "
            "otherworldly lane, 4 the mirror of 3."
        ),
        quote="Option 1: Recommended Default for Novice and First-Time Players. Terrestrial spaces are aligned with "
        "other terrestrial spaces",
        choices=("1", "2", "3", "4"),
    ),
    RuleOption(
        key="symbol_draw",
        default="intentional",
        reading=(
            "intentional: the player chooses which unused symbol each action uses; blind: the four symbols are "
            "shuffled face down before each turn and each action draws the next one (and a channeling monster may "
            "then stand on any space but a summoning space)."
        ),
        quote="Intentional Draw (Default Play Style) ... A Blind Draw ... Before each player's turn, the player's "
        "own symbol cards are reshuffled and then placed face down.",
        choices=("intentional", "blind"),
    ),
    RuleOption(
        key="game_length",
        default="medium",
        reading="Starting SourcePoints: short 75, medium 100, medium-long 125, long 150.",
        quote="In a short game, each player has 75 SourcePoints ... In a long game, each player has 150 SourcePoints.",
        choices=("short", "medium", "medium-long", "long"),
    ),
    RuleOption(
        key="combat_tie",
        default="neither",
        reading=(
            "When both monsters' ST for the drawn symbol are equal: neither is destroyed (no monster has the "
            "strongest ST); `both` destroys both, `attacker` lets the attacker win, `defender` the defender."
        ),
        quote="The monster with the strongest ST corresponding to the symbol will win the fight, while the other "
        "monster is destroyed.",
        choices=("neither", "both", "attacker", "defender"),
    ),
    RuleOption(
        key="hit_generator_blocks",
        default="until_moved",
        reading=(
            "An enemy monster on your summoning space that has attacked your generator from it cannot be pushed "
            "back, so it blocks your conventional summon (a reactionary summon still pushes it back). "
            "`until_moved`: only while it stays there; once it leaves the space (pushed back, moved, swapped) and "
            "comes back without attacking again, your summon pushes it back. `for_good`: a monster that has ever "
            "attacked your generator blocks whenever it stands on your summoning space."
        ),
        quote=(
            "If your opponent has their own monster on your summoning space and has not attacked your SOURCE "
            "generator with it, you move your opponent's monster one space back when you summon yours."
        ),
        choices=("until_moved", "for_good"),
    ),
    RuleOption(
        key="effect_summon_requirements",
        default="met",
        reading=(
            "An effect summon (`summon from hand|deck`) brings only a monster whose terrestrial and otherworldly "
            "requirements your monsters meet: the document waives requirements for reactionary summons by name, and "
            "calls them what 'normal monsters must obey'. `ignored`: any monster, as a reactionary summon."
        ),
        quote=(
            "Effect Summon: The player may summon a monster from the player's hand or deck based on the effect of "
            "another card ... / Reactionary Summon: ... ignoring summoning requirements / they will likely not have "
            "to rely on conventional summoning requirements that normal monsters must obey"
        ),
        choices=("met", "ignored"),
    ),
    RuleOption(
        key="summon_placement",
        default="adjacent",
        reading=(
            "Where a monster token (`summon token`) or an effect-summoned monster (`summon from hand|deck`) is put: "
            "`adjacent`, onto an unoccupied space adjacent to the card's subject (a road neighbour, as for attacks "
            "and traps; a parallel space is not adjacent, the document keeps the two apart), never a summoning "
            "space; the one nearer your own side first, then the map file's order. When no such space is free, or "
            "the subject is no longer on the map, the monster is not summoned (a token stays in the token deck, a "
            "monster where it was). `nearest` is a house rule, not the document's: the free non-summoning space "
            "nearest the subject at any distance (your Source Flux standing in for a subject that has left the "
            "map), as engine 3 played it."
        ),
        quote=(
            "Rustbolt Drone: When summoned, summon a Gearling token next to it. / Helpful Reference for "
            "Attacking/Movement 1 (Adjacent Spaces) ... 2 (Parallel Spaces): Some effects may reference parallel "
            "spaces. / Effect Summon: ... These monsters do not necessarily have to be placed on the summoning space."
        ),
        choices=("adjacent", "nearest"),
    ),
    RuleOption(
        key="recall_to",
        default="hand",
        reading=(
            "A card a `recall` clause brings back from a Done Zone (yours or the opponent's) goes into your hand, "
            "to be played as your own; `deck`: onto the top of your deck, drawn next. Either way, when it is "
            "defeated or used again it goes to your Done Zone (the one of the player who played it)."
        ),
        quote=(
            "Note: Some effects will allow the player to bring cards back from their Done Zone and even their "
            "opponent's Done Zone."
        ),
        choices=("hand", "deck"),
    ),
    RuleOption(
        key="parallel_move",
        default="any_step",
        reading=(
            "When a monster that a `move parallel` clause lets move across parallel spaces does so. `any_step`: "
            'its parallel space is one more space it may move to, "as well" as the road\'s next space: at any '
            "step of a move the player may step across to it (if unoccupied), which counts as one space of "
            "movement (as every change of space does, a swap included), and the move goes on along that lane. A "
            "road space with an enemy on it, chosen instead, ends the move there, as at a fork. `when_blocked` is "
            "engine 4's narrower reading, kept as the named alternative: it steps across only when an enemy "
            "stands in its way, at once and without a choice. Either way at most `parallel_steps` steps across a "
            "move, and a monster without the clause never moves across."
        ),
        quote=(
            "Movement for a monster can only occur from one adjacent space to another. / Note: Due to some card "
            "effects, movement may become possible across parallel spaces as well. / If the player's own monster "
            "is in the way ... Swap the places of both monsters ... This still counts as 1 space of movement."
        ),
        choices=("any_step", "when_blocked"),
    ),
    RuleOption(
        key="parallel_steps",
        default=1,
        minimum=0,
        maximum=4,
        reading=(
            "At most this many steps across to a parallel space in one move of a monster a `move parallel` "
            "clause allows them (0: none; `parallel_move` says when it may take them). The document gives no "
            "number; 1 keeps a monster from zig-zagging between the lanes within one move."
        ),
        quote="Note: Due to some card effects, movement may become possible across parallel spaces as well.",
    ),
    RuleOption(
        key="parallel_attacks",
        default="none",
        reading=(
            "Whether a monster may attack an enemy on its parallel space. `none`: no, a monster attacks only an "
            "enemy on an adjacent space; parallel spaces are for effects to reference, and the document gives no "
            "card whose effect lets a monster attack across, so the vocabulary has no such clause and `move "
            'parallel` opens movement only (its words: "movement may become possible across parallel spaces"). '
            "`with_move_parallel`: a monster a `move parallel` clause lets move across may also attack across, "
            'reading the one reference for "Attacking/Movement 2 (Parallel Spaces)" as opening both, as the '
            "adjacent-space reference does."
        ),
        quote=(
            "The player may use their monster to attack an opponent's monster that is on an adjacent space. / "
            "Helpful Reference for Attacking/Movement 2 (Parallel Spaces): Some effects may reference parallel "
            "spaces."
        ),
        choices=("none", "with_move_parallel"),
    ),
    RuleOption(
        key="web_hinders",
        default="stop",
        reading=(
            "How a web tile hinders the web-layer's enemies: `stop`, an opposing monster moving onto a webbed space "
            "ends its move there (the rest of its movement is lost; the web stays until a `clear web` removes it); "
            "`block`, it may not enter the space at all, as if a monster stood there. The web-layer's own monsters "
            "pass freely; a push back is not movement and ignores webs."
        ),
        quote=(
            "the WEBWEAVER monster has the ability to place a token on the map in order to hinder enemies with its "
            "effects. Unlike a monster token, the web token comes in the form of a tile that can easily be placed "
            "and removed from relevant map spaces."
        ),
        choices=("stop", "block"),
    ),
    RuleOption(
        key="turn_cap",
        default=80,
        minimum=1,
        maximum=TURN_CAP_MAX,
        reading="A match still running after this many turns (both players' turns counted) is a draw.",
        quote="The match is ended and a player is defeated if the player's SourcePoints reaches 0.",
    ),
    RuleOption(
        key="token_deck_copies",
        default=4,
        minimum=0,
        maximum=99,
        reading=(
            "Each player's token deck holds this many copies of every token of the set (the simulator is given "
            "the main decks only, not a decklist's `Tokens:` section); a destroyed token goes back to it."
        ),
        quote="monster tokens are kept in their own distinct deck ... When destroyed, instead of being sent to the "
        "done zone, monster tokens are returned to the token deck.",
    ),
    RuleOption(
        key="sourcepoints_cap",
        default=True,
        reading="`sourcepoints +N` (you regain N) never lifts SourcePoints above the starting amount; off: no cap.",
        quote="Both players are provided with a limited amount of SourcePoints at the beginning of the game.",
    ),
    RuleOption(
        key="deck_out_loses",
        default=False,
        reading="A player who must draw from an empty deck draws nothing; on: that player loses.",
        quote="Draw one card at the beginning of each turn.",
    ),
    RuleOption(
        key="channeled_active_default",
        default="Y/O",
        reading="A channeled effect whose `active` cell is empty may be used on either player's turn.",
        quote="This refers to which player's turn that this card may be activated.",
        choices=("Y", "O", "Y/O"),
    ),
    RuleOption(
        key="channel_on_opponent_turn",
        default="after_each_action",
        reading=(
            "When, in the opponent's turn, you may spend symbols left unused on your own turn on your channeled "
            "effects allowed on the opponent's turn (O, Y/O; your monster on your Source Flux). The document says "
            '"on your opponent\'s turn" and names no moment of it, so `after_each_action`: at its start (before '
            "the draw) and again after each of the opponent's actions (its summon, equipment card or trap, its "
            "channeled card placed, each move, attack and channel of theirs), one channel after another until you "
            "stop or have no symbol left; never in the middle of an action (the document gives no interrupt: an "
            'action once begun, its symbol drawn, resolves whole), and not after a generator attack ("The '
            "player's turn will end immediately after attacking the opponent's SOURCE generator\"). `turn_start` "
            "is engine 5's narrower reading, kept as the named alternative: only at the start of the opponent's "
            "turn."
        ),
        quote=(
            "Any symbol cards that are unused on your turn may be drawn on your opponent's turn in order to "
            "activate a channeled effect (given that the channeled effect may be activated on your opponent's "
            "turn). A relevant monster should still occupy the flux space on your side of the map. / To use a "
            "channeled effect on an opponent's turn, you must have a remaining unused symbol card from your "
            "previous turn and the monster you will be referencing for its effects must be on your flux space."
        ),
        choices=("after_each_action", "turn_start"),
    ),
    *SEARCH_OPTIONS,
)
