"""The plasma engine's layout: the card table's columns, the opcodes, the rule options' order, the state record
(STATE_DTYPE: the board, the sides, the match fields, the counters; TRACED_STATE_DTYPE: and the trace), the decision
kinds and the trace's event codes.

Constants only: every other module of the package reads the match through these names.
"""

from __future__ import annotations

import numpy as np

from workbench.engines import COUNTER_COLUMNS, EVENT_WIDTH, MAX_TRACE_EVENTS
from workbench.play.policies import POLICY_WORDS
from workbench.rulesets.plasma.effects import Opcode

# ---- card table columns -------------------------------------------------------------------------------------------
T_KIND = 0
T_COST = 1
T_POWER = 2
T_RESOLVE = 3
T_CLAUSES = 4
T_TOTAL = 4
"""Column T_TOTAL + opcode (opcodes are 1-8) holds the card's summed amount of that opcode."""
T_CLAUSE0 = 13
"""Clause c of a card is (opcode, amount) in columns T_CLAUSE0 + 2c and T_CLAUSE0 + 2c + 1, in cell order."""
MAX_CLAUSES = 6
"""Clauses simulated per card; more are reported and left out."""
T_PLAY_VALUE = T_CLAUSE0 + 2 * MAX_CLAUSES
"""Greedy's worth of playing the card in the play phase when it depends on the card alone (see
`greedy_play_value`), or PLAY_VALUE_OF_BOARD when it depends on the board."""
ABILITY = T_PLAY_VALUE + 1
"""A creature's activated ability (`activate N: ...`) is a second block of columns laid out as the card's own, from
column ABILITY on: ABILITY + T_COST is its plasma cost, ABILITY + T_CLAUSES its clause count, ABILITY + T_TOTAL + op
its per-opcode totals, ABILITY + T_CLAUSE0 + 2c its clauses; so the kernels that read a card's clauses read an
ability's by adding ABILITY (`blk`)."""
T_HAS_ABILITY = ABILITY + T_KIND
"""1 when the card is a creature with an activated ability."""
T_INSTANT_COST = ABILITY + T_CLAUSE0 + 2 * MAX_CLAUSES
"""An Instant's cost, NO_INSTANT for any other card: whether a hand holds an Instant p can pay for is one load and one
comparison per card (`has_instant_to_play`, asked before every attack's damage and at every end of turn)."""
TABLE_WIDTH = T_INSTANT_COST + 1
PLAY_VALUE_OF_BOARD = -1
MAX_DECK = 80
"""The largest deck the engine plays (a legal deck holds 40); the state's arrays have this fixed size."""

K_CREATURE, K_EQUIPMENT, K_EVENT, K_INSTANT, K_BATTLEFIELD = range(5)

OP_DAMAGE = int(Opcode.DAMAGE)
OP_DAMAGE_PLAYER = int(Opcode.DAMAGE_PLAYER)
OP_HEAL = int(Opcode.HEAL)
OP_DRAW = int(Opcode.DRAW)
OP_POWER = int(Opcode.POWER)
OP_RESOLVE = int(Opcode.RESOLVE)
OP_DESTROY = int(Opcode.DESTROY)
OP_PLASMA = int(Opcode.PLASMA)

# ---- rule options, in the order of the options array ---------------------------------------------------------------
OPTION_ORDER: tuple[str, ...] = (
    "turn_cap",
    "summoning_sickness",
    "untap_every_turn",
    "attack_tapped_creatures",
    "damage_wears_off",
    "lethal_damage",
    "healthshards_cap",
    "battlefield_effects",
    "replace_battlefield",
    "deck_out_loses",
    "instants_before_damage",
    "activations_per_turn",
    "activation_sickness",
    "resolve_bonus_end_destroys",
    "instants_any_time",
    "search_rollouts",
    "search_rollout_policy",
    "search_depth",
)
(
    O_TURN_CAP,
    O_SICKNESS,
    O_UNTAP_EVERY_TURN,
    O_ATTACK_TAPPED,
    O_DAMAGE_WEARS_OFF,
    O_MORE_THAN,
    O_HEAL_CAP,
    O_BATTLEFIELD_EACH_TURN,
    O_REPLACE_BATTLEFIELD,
    O_DECK_OUT_LOSES,
    O_INSTANTS_BEFORE_DAMAGE,
    O_ACTIVATIONS,
    O_ACTIVATION_SICKNESS,
    O_BONUS_END_DESTROYS,
    O_INSTANTS_ANY_TIME,
    O_SEARCH_ROLLOUTS,
    O_SEARCH_ROLLOUT_POLICY,
    O_SEARCH_DEPTH,
) = range(len(OPTION_ORDER))

STARTING_HEALTHSHARDS = 20
OPENING_HAND = 5
MULLIGANS_MAX = 3

# ---- per-creature board fields --------------------------------------------------------------------------------------
(
    B_CARD,
    B_UID,
    B_DAMAGE,
    B_TAPPED,
    B_SICK,
    B_EQ_POWER,
    B_EQ_RESOLVE,
    B_TMP_POWER,
    B_TMP_RESOLVE,
    B_HELD,
    B_POWER,
    B_RESOLVE,
    B_ACTIVATED,
) = range(13)
"""B_POWER and B_RESOLVE cache the effective stats; `refresh_stats` recomputes them wherever a bonus changes.
B_ACTIVATED counts the creature's activations this turn (reset at the start of its owner's turn)."""
BOARD_WIDTH = 13

# ---- per-player fields ----------------------------------------------------------------------------------------------
(
    S_LIFE,
    S_PLASMA,
    S_TURNS,
    S_COIN,
    S_BATTLEFIELD,
    S_HAND,
    S_DECK,
    S_DRAWN,
    S_BOARD,
    S_CHEAPEST,
    S_HAND_INSTANT,
    S_FIELD_ABILITIES,
    S_POLICY,
) = range(13)
"""S_CHEAPEST is the lowest cost of a card or activated ability in p's deck (0 when unknown): with less plasma, p can
play nothing, so the hand need not be read. S_HAND_INSTANT is the lowest cost of an Instant in p's hand (NO_INSTANT:
none), kept by
every change of a hand (`draw_card`, `remove_from_hand`, `count_hand_instants`), so whether p can pay for an Instant
is one comparison (`has_instant_to_play`, asked before every attack's damage, after every card of a play phase and at
every start and end of turn).
S_FIELD_ABILITIES counts p's creatures on the field that have an activated ability (`enter_field`, `remove_creature`):
a play decision reads p's field for abilities only when there is one (the deck's flag that did this read the field
whenever the deck held one).
S_POLICY is the first of the side's policy block, POLICY_WORDS words (`workbench.play.policies`: the code, the parameter
and the policy's own generator; `policy_block`), the row's last."""
SIDE_WIDTH = S_POLICY + POLICY_WORDS
NO_INSTANT = 1 << 40

# ---- match fields ---------------------------------------------------------------------------------------------------
(
    G_TURN,
    G_OVER,
    G_WINNER,
    G_NEXT_UID,
    G_PLAYER,
    G_UNCHECKED,
    G_BONUS,
    G_DECISION,
    G_ACTOR,
    G_ATTACKER,
    G_ASIDE,
    G_ATTACKING,
    G_ATTACKER_UID,
    G_ATTACKER_CARD,
    G_DEFENDER_UID,
    G_WINDOW,
    G_PENDING,
    G_FX_PLAYER,
    G_FX_CARD,
    G_FX_MODE,
    G_FX_OWN,
    G_FX_ENEMY,
    G_FX_CLAUSE,
    G_DEFENDER,
    G_STAGE,
    G_STEPS,
) = range(26)
"""G_PLAYER is the player whose turn it is (the first player's until the first turn ends). G_STAGE is where the
match goes on once no decision is open (STAGE_*: `rules.advance`), G_STEPS how many plays or attackers the phase
under way has taken (bounded by PLAY_STEPS and ATTACK_STEPS).
G_UNCHECKED is 1 when a creature may be on the field already destroyed (it entered with resolve 0 or less) and
no check has run since; the end of turn checks only then or when a bonus ends. G_BONUS is 1 when a "this turn"
bonus was given since the last end of turn, which reads the field for bonuses to end only then. G_DECISION is the
kind of decision open (D_*), G_ACTOR the player who takes it; G_ATTACKER the field slot of the attacker whose target
is open (D_TARGET), G_ASIDE the cards set aside so far in an open mulligan (D_MULLIGAN). An attack under way
(between its target and its damage) keeps its side G_ATTACKING, its attacker's uid and card, its defender's uid (-1:
none, a direct hit) and G_WINDOW, the instant window open or next (WINDOW_*). G_PENDING is a target a card's
effects left open (D_ENEMY_TARGET, D_OWN_TARGET, D_EQUIP_TARGET; D_NONE: none), decided before anything else;
G_FX_* keep what its effects need to go on (player, card, mode, own and enemy uid, the clause waiting). G_DEFENDER is
the defender's field slot when it was declared (a hint: `resolve_attack` trusts it only while that slot still holds
G_DEFENDER_UID)."""
GAME_WIDTH = 26

MAX_PAIRING = 2 * MAX_DECK
"""The most distinct cards a pairing (deck A, deck B) holds: the rows of its own card table, which the kernels play
on (`python_side.pairing`), and of the state's counters."""

MAX_CHOICES = 2 * MAX_DECK + 2
"""As many actions as one decision can have: every hand card, every creature's ability, the coin and stop (or,
attacking: every enemy creature, hold and direct)."""
OWN_WORDS = 2
"""The policies' own words per side in the state (`words`)."""
NO_COUNT = -1
"""st.words[p, 0] before random has drawn how many cards p mulligans (set at each match's setup): an epsilon-greedy
side whose first ask of the mulligan went to greedy draws it at its first random ask."""

STATE_DTYPE = np.dtype(
    [
        ("board", np.int64, (2, MAX_DECK, BOARD_WIDTH)),
        ("hand", np.int64, (2, MAX_DECK)),
        ("library", np.int64, (2, MAX_DECK)),
        ("side", np.int64, (2, SIDE_WIDTH)),
        ("game", np.int64, (GAME_WIDTH,)),
        ("rng", np.int64, (4,)),
        ("options", np.int64, (len(OPTION_ORDER),)),
        ("ecount", np.int64, (1,)),
        ("srng", np.int64, (4,)),
        ("pool", np.int64, (MAX_DECK,)),
        ("choice", np.int64, (MAX_CHOICES,)),
        ("score", np.int64, (3 * MAX_CHOICES,)),
        ("searched", np.int64, (2,)),
        ("actions", np.int64, (MAX_CHOICES,)),
        ("words", np.int64, (2, OWN_WORDS)),
        ("counters", np.int64, (2, MAX_PAIRING, COUNTER_COLUMNS)),
    ]
)
"""One match's whole state as a single record: a kernel call passes one pointer, and every array has a shape
known when compiling. `board[p, i]` is p's creature in field slot i (B_* fields), `hand[p]` and `library[p]` hold
card ids (the library from `side[p, S_DRAWN]` on is still to be drawn), `side[p]` holds S_* fields, `game` the
G_* fields, `rng` the xorshift state, `options` the rule options in OPTION_ORDER, `ecount` the trace length.
The last five belong to the search policy alone (no other policy reads or writes them): `srng` its own xorshift
state (seeded from the match's seed, never drawn by the rules), `pool` the cards it deals anew before a rollout,
`choice` the legal choices of the decision it searches (greedy's first), `score` successive halving's three blocks
for them (SC_POINTS: their points summed over their rollouts, SC_TRIED: the rollouts each was given, SC_ORDER: the
candidates still in, best first), and `searched` the decisions searched and rollouts played since the state was made
(for speed figures). `actions` is the out buffer `legal_actions` lists the open decision's legal actions into, and
`words` the policies' own words per side (the rules never read them: the random policy keeps there how many cards it
mulligans, NO_COUNT until it has drawn it). The side's policy block is in `side` (S_POLICY on, `policy_block`).
`counters[side, card, column]` are the per-card counters (`workbench.engines.COUNTERS`, then its scratch columns) by
the pairing's card ids (`MAX_PAIRING`), summed over every match played on the record: a batch never zeroes them, and
the Python side adds them into the set's counters after it (`python_side.run_batch`). A search's rollouts count into
their own records' counters, which nobody reads.

No trace here: a traced match plays on TRACED_STATE_DTYPE, this record with the trace's rows after it. `trace` in
`rules` is chosen by the record's type when compiling, so an untraced batch's kernels hold no trace call at all."""

TRACED_STATE_DTYPE = np.dtype([("events", np.int64, (MAX_TRACE_EVENTS, EVENT_WIDTH)), *STATE_DTYPE.descr])
"""STATE_DTYPE with the trace: `events` holds `ecount[0]` rows (turn, player, code, card, other, amount), its card ids
the pairing's (`python_side` maps them to the set's before anything reads them). The trace comes first: a record
whose fields begin with another's is a subtype of it to Numba (width subtyping, an experimental feature that warns at
every call it types), so a traced call would weigh the untraced kernels too."""

(
    STAGE_DEAL_FIRST,
    STAGE_DEAL_SECOND,
    STAGE_TURN,
    STAGE_START_WINDOW,
    STAGE_PLAY,
    STAGE_BATTLE,
    STAGE_END,
    STAGE_CLOSE,
    STAGE_OVER,
) = range(9)
"""Where the match goes on once no decision is open (G_STAGE; `rules.advance` plays each stage and sets the next):
the first player's opening hand and mulligan, then the second's; a turn's start (the turn cap, untap, plasma, draw,
battlefield), the opponent's start-of-turn window, the play phase, the battle phase, the opponent's end-of-turn
window, and the turn's close ("this turn" bonuses end; the next player's turn is next). STAGE_OVER: nothing is next
(the match is over and its last close done; a board a rule test builds by hand starts there, so the rules stop once
the test's decision closes)."""
SEARCH_SEED = 0x5EA4C4
"""Mixed into a match's seed for the search policy's own generator (`srng`, seeded at each match's setup), so it
never repeats the match's."""
NO_STAGE = -1
"""`advance`'s `until` when it plays on to the next decision or the match's end, whatever the stage."""
MODE_PLAY, MODE_EQUIP, MODE_TRIGGER, MODE_ACTIVATE = 0, 1, 2, 3
ACTIVATE = MAX_DECK
"""A play-phase choice of ACTIVATE + i activates p's creature in field slot i (choices below it are hand positions)."""
MAX_ACTIVATIONS = 99
"""The largest `activations_per_turn` (options.py)."""
PLAY_STEPS = MAX_DECK * (1 + MAX_ACTIVATIONS) + 1
"""More play-phase choices than a turn can hold: every card of a deck, and every creature's activations. A play
phase ends after PLAY_STEPS + 1 plays (a bound the rules never meet)."""
ATTACK_STEPS = 2 * MAX_DECK + 2
"""More attacker choices than a battle phase can hold: it ends after this many (a bound the rules never meet)."""
WINDOW_ATTACK, WINDOW_DEFEND, WINDOW_DONE, WINDOW_END, WINDOW_START, WINDOW_PLAY = 0, 1, 2, 3, 4, 5
"""An attack's windows (the attacker's, then the defender's) and none left before its damage (WINDOW_DONE); then the
windows outside an attack, each open to the player whose turn it is not until they pass (`is_open_window`): the end
of the turn's, and with `instants_any_time` the start of the turn's (after its draw and battlefield) and the one after
each card or ability of the play phase has gone in effect."""
DIRECT = -1
HOLD = -2
STOP = -1
"""The play decision's action that ends the play phase (the others: a hand position, ACTIVATE + a field slot, COIN)."""
COIN = -3
"""The play decision's action that flips the coin (listed while p holds it)."""
KEEP = -1
"""The mulligan decision's action that keeps the hand (the others: the hand position of the card set aside)."""
NO_BLOCK = -1
"""The block decision's action that takes the hit (the others: the blocker's field slot)."""
PASS = -1
"""The instant decision's action that plays none (the others: the Instant's hand position)."""

# ---- decisions: what `legal_actions` lists and `apply` takes (G_DECISION) ----------------------------------------
D_NONE, D_MULLIGAN, D_PLAY, D_ATTACKER, D_TARGET, D_BLOCK, D_INSTANT, D_ENEMY_TARGET, D_OWN_TARGET, D_EQUIP_TARGET = (
    range(10)
)
"""D_MULLIGAN: set a hand card aside (its hand position) or KEEP. D_PLAY: play a hand card (its hand position),
activate a creature's ability (ACTIVATE + its field slot), flip the COIN, or STOP. D_ATTACKER: the field slot of the
creature that attacks next (none listed: the battle phase is over). D_TARGET: where that attacker goes: HOLD (it sits
this battle phase out), DIRECT, or an enemy creature's field slot. D_BLOCK: the defender's untapped creature that
blocks a direct attack (its field slot) or NO_BLOCK. D_INSTANT: an Instant to play in window G_WINDOW (its hand
position) or PASS. Targets a card's effects leave open (G_PENDING, before the decision under way): D_ENEMY_TARGET
the enemy creature a damage or destroy clause hits, D_OWN_TARGET the own creature a bonus goes to, D_EQUIP_TARGET
the creature an equipment goes under (each a field slot)."""

# ---- trace event codes (row: turn, player, code, card, other, amount) -----------------------------------------------
(
    EV_TURN,
    EV_LIFE,
    EV_DRAW,
    EV_MULLIGAN,
    EV_PLAY,
    EV_EQUIP,
    EV_DAMAGE,
    EV_HIT,
    EV_HEAL,
    EV_POWER,
    EV_RESOLVE,
    EV_DESTROYED,
    EV_PLASMA,
    EV_COIN,
    EV_ATTACK_DIRECT,
    EV_ATTACK_CREATURE,
    EV_BLOCK,
    EV_NO_BLOCK,
    EV_DECK_EMPTY,
    EV_BATTLEFIELD_REPLACED,
    EV_TRIGGER,
    EV_TURN_CAP,
    EV_ATTACK_ENDS,
    EV_ACTIVATE,
) = range(24)

EV_OTHER_IS_CARD = (
    EV_EQUIP,
    EV_DAMAGE,
    EV_POWER,
    EV_RESOLVE,
    EV_DESTROYED,
    EV_ATTACK_CREATURE,
    EV_BLOCK,
    EV_NO_BLOCK,
    EV_BATTLEFIELD_REPLACED,
)
"""The event codes whose `other` column is a card id (or -1); the `card` column is one (or -1) in every event. The
kernels trace the pairing's ids, which `python_side` maps to the set's by these columns."""
