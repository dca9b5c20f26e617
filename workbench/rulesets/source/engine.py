"""The SOURCE match engine: whole matches on a map, on integer arrays, compiled by Numba.

Pure: numpy and numba only. `compile_cards` turns a validated card set into a
card table, an effect-clause table and the joined map (map.py) once; the
kernels below only ever see integer arrays and two records: the batch's rules
(RULES_DTYPE) and the match's state (STATE_DTYPE), each passed as one pointer.
A kernel takes, in this order, those of `table, clauses, rules, state, piles,
counters, events` it reads, then its own arguments. All randomness comes from
the xorshift state seeded per match. Every rule is a small kernel (summon,
move, attack, attack the generator, equip, set a trap, spring it, channel,
push back, end of turn) so scenario tests can set up a board and call exactly
the rule they test.

How a match runs (readings of silent rules are options, see options.py):

1. Setup: shuffle, SourcePoints by `game_length`, draw 7. Each player's token
   deck holds `token_deck_copies` of every token in the set.
2. Start of turn: the opponent may first spend symbols left unused on their
   own turn on channeled effects that may be used on this turn (O, Y/O), and
   may again after each of your actions below (`channel_on_opponent_turn`).
   Then draw 1; your four symbol cards become unused (shuffled face down in
   `symbol_draw=blind`).
3. Once per turn, one of: a conventional summon (requirements met on the map,
   your summoning space not held by your own monster; an enemy on it that has
   not attacked your generator since it came onto that space is pushed back:
   `hit_generator_blocks`), a reactionary summon (your
   generator was attacked on the opponent's last turn: any monster, ignoring
   requirements, the attacker is pushed back), an equipment card, or a trap.
   Independently, up to one channeled effect card onto a free support space.
4. Symbol actions until the four symbols are spent or the player stops: move
   a monster (spaces by the symbol's ST; a monster a `move parallel` clause
   allows may step across to its parallel space: `parallel_move`), attack an
   adjacent enemy monster (or across: `parallel_attacks`) (both use the
   symbol's ST, the lower is destroyed), channel an effect from
   your monster on your Source Flux, or, from the opponent's summoning space,
   attack the generator (the ST comes off their SourcePoints and the turn
   ends at once).
5. End of turn: discard down to 10; every equipment card and expiring token
   counts the turn off; "this turn" changes end.

A match ends when a player's SourcePoints reach 0, or as a draw after
`turn_cap` turns (both players' turns counted).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from workbench.cards import CardSet, Finding, OptionValue, WorkbenchInputError
from workbench.engines import (
    ATTACKED,
    DAMAGE_DEALT,
    DESTROYED,
    EVENT_WIDTH,
    MAX_TRACE_EVENTS,
    BatchRun,
    CompiledCards,
    Engine,
    EngineBool,
    EngineInt,
    IntArray,
    batch_and_trace,
    begin_match_counters,
    count_draw,
    count_play,
    end_match_counters,
    inline_kernel,
    llvm_inline_kernel,
    log_event,
    lowest_set_bit,
    new_counters,
    published_counters,
    rng_below,
    rng_seed,
    rules_kernel,
    shuffle_in_place,
)
from workbench.policies import (
    EPSILON_GREEDY,
    GREEDY,
    P_CODE,
    POLICY_NAMES,
    POLICY_WORDS,
    RANDOM,
    SEARCH,
    plays_random,
    random_played,
    start_policy,
)
from workbench.rulesets.source.cards import MONSTER_TYPE_NAMES
from workbench.rulesets.source.costs import canonical_symbol, parse_brackets
from workbench.rulesets.source.effects import EffectClause, EffectProblem, parse_effects
from workbench.rulesets.source.map import (
    KIND_OTHERWORLDLY,
    KIND_SUMMONING,
    KIND_TERRESTRIAL,
    MAP_WIDTH,
    MAX_HALF_SPACES,
    MP_ADJ0,
    MP_FWD_A0,
    MP_KIND,
    MP_PARALLEL,
    MP_PROGRESS_A,
    NO_SPACE,
    BoardMap,
    load_board,
)
from workbench.search_kernels import (
    DRAW_POINTS,
    WIN_POINTS,
    halving_search,
    position_points,
)

F = TypeVar("F", bound=Callable[..., Any])

ENGINE_VERSION = "7"
"""1: the first engine. 2: a monster that attacked a generator blocks that player's conventional summons only while it
stays on their summoning space (it used to block for the rest of the match); option `hit_generator_blocks`.
3: effect summons (`summon from hand|deck`, option `effect_summon_requirements`); the Done Zone, and `recall`;
`if TYPE` on any clause (effects that read a monster's type); `move parallel` (option `parallel_steps`);
web tiles (`web`, `clear web`, option `web_hinders`).
4: a token or an effect-summoned monster lands only on a free space adjacent to its subject, or is not summoned
(engine 3 took the nearest free space at any distance: option `summon_placement`, `nearest` a house rule); `cannot
move` (Goop's "cannot move", whatever the monster's move changes).
5: a monster a `move parallel` clause allows may step across to its parallel space at any step of a move, the player
choosing (D_FORK), one space of movement ("movement may become possible across parallel spaces as well"); engine 4
stepped across only around an enemy in its way (option `parallel_move`, `when_blocked`). Option `parallel_attacks`
(`none`, the default and engine 4's; `with_move_parallel`: such a monster may also attack across).
6: symbols left unused on your turn may be spent on channeled effects allowed on the opponent's turn at its start and
again after each of the opponent's actions (D_FOE_RESPONSE: "may be drawn on your opponent's turn"); engine 5 allowed
the start only (option `channel_on_opponent_turn`, `turn_start`).
7: the search policy only (issue 33, item 2): its budget, `search_rollouts` per candidate on average, is shared out by
successive halving, its rollouts are cut off after `search_depth` turns and scored by the game's own evaluation
(`search_evaluation`), each sampled world is dealt once for every candidate, and greedy's own summon is not listed
twice; search results change, greedy and random play exactly as before."""


# ---- card table columns -------------------------------------------------------------------------------------------
T_KIND, T_TERR, T_OTHER = 0, 1, 2
T_ST = 3
"""Columns 3-6: alpha, beta, gamma, delta ST."""
T_TURNS, T_ACTIVE, T_USES, T_SYMBOLS, T_NCLAUSE, T_NBRACKET, T_VALUE = 7, 8, 9, 10, 11, 12, 13
T_EQ_ST = 14
"""Columns 14-17: an equipment card's lasting ST change per symbol."""
T_EQ_MOVE, T_EQ_NOATTACK = 18, 19
T_TYPE = 20
"""A monster's or token's type as one bit of the Type Index (`TYPE_CODES`); 0 when it has none."""
T_EQ_TYPES = 21
"""An equipment card's `if TYPE` on its lasting clauses: the types (bits) a monster must have for them; 0: any."""
T_EQ_NCOND = 22
"""1 once an equipment card's first lasting clause has set T_EQ_TYPES (compile time only)."""
T_EQ_PARALLEL = 23
"""1 when an equipment card's `move parallel` lets its monster move across parallel spaces."""
T_EQ_NOMOVE = 24
"""1 when an equipment card's `cannot move` holds its monster in place."""
TABLE_WIDTH = 25

KINDS: tuple[str, ...] = ("monster", "equipment", "trap", "channeled", "token")
K_MONSTER, K_EQUIPMENT, K_TRAP, K_CHANNELED, K_TOKEN = range(5)
ACTIVE_Y, ACTIVE_O = 1, 2
SYMBOL_NAMES: tuple[str, ...] = ("Alpha", "Beta", "Gamma", "Delta")
ALL_SYMBOLS = 4
"""`arg` of an ST clause that changes all four ST."""

# ---- effect clauses (opcode, foe, amount, arg, bracket) -----------------------------------------------------------
(
    OP_ST,
    OP_MOVE,
    OP_DESTROY,
    OP_PUSH,
    OP_NOATTACK,
    OP_EXPIRE,
    OP_TOKEN,
    OP_SP,
    OP_DRAW,
    OP_SUMMON,
    OP_RECALL,
    OP_PARALLEL,
    OP_WEB,
    OP_CLEAR_WEB,
    OP_NOMOVE,
) = range(1, 16)
OPCODES: dict[str, int] = {
    "st": OP_ST,
    "move": OP_MOVE,
    "destroy": OP_DESTROY,
    "push_back": OP_PUSH,
    "cannot_attack": OP_NOATTACK,
    "expire": OP_EXPIRE,
    "summon_token": OP_TOKEN,
    "sourcepoints": OP_SP,
    "draw": OP_DRAW,
    "summon_from": OP_SUMMON,
    "recall": OP_RECALL,
    "move_parallel": OP_PARALLEL,
    "web": OP_WEB,
    "clear_web": OP_CLEAR_WEB,
    "cannot_move": OP_NOMOVE,
}
RECALL_OPPONENT = 16
"""`arg` of a `recall` clause: the card kind it takes (KINDS index + 1; 0 any) plus RECALL_OPPONENT when it takes
from the opponent's Done Zone."""
FROM_HAND, FROM_DECK = 0, 1
"""`arg` of a `summon from hand|deck` clause."""
C_OP, C_FOE, C_AMOUNT, C_ARG, C_BRACKET, C_TYPES = range(6)
"""C_TYPES: the clause's `if TYPE` as bits of the Type Index (0: any monster)."""
C_LOW, C_HIGH = 6, 7
"""Row b of a card's clause table also holds its ST bracket b (lowest and highest ST; OPEN_BRACKET: no top), so the
kernels read a card's clauses and brackets from one array (rows of brackets and of clauses are unrelated)."""
CLAUSE_WIDTH = 8
TYPE_CODES: tuple[str, ...] = tuple(MONSTER_TYPE_NAMES)
"""The Type Index's monster types; a type's bit is 1 << its index here."""
MAX_CLAUSES = 8
MAX_BRACKETS = 8
OPEN_BRACKET = 1 << 40

# ---- rule options, in the order of the options array (the last six come from the map) ------------------------------
OPTION_ORDER: tuple[str, ...] = (
    "turn_cap",
    "game_length",
    "symbol_draw",
    "combat_tie",
    "token_deck_copies",
    "sourcepoints_cap",
    "deck_out_loses",
)
O_TURN_CAP, O_SOURCEPOINTS, O_BLIND, O_TIE, O_TOKEN_COPIES, O_SP_CAP, O_DECK_OUT_LOSES = range(7)
O_SUMMONING, O_FLUX, O_SUPPORT, O_SPACES = 7, 9, 11, 12
"""O_SUMMONING + p and O_FLUX + p: player p's summoning and flux spaces; then support spaces, map spaces."""
O_HIT_GEN_FOR_GOOD = 13
"""1 with `hit_generator_blocks=for_good`: a monster that has attacked a generator keeps blocking that player's
conventional summons whenever it stands on their summoning space (0: only until it leaves the space)."""
O_EFFECT_SUMMON_IGNORES = 14
"""1 with `effect_summon_requirements=ignored`: an effect summon may bring any monster; 0: only one whose
summoning requirements the player's monsters meet."""
O_RECALL_TO_DECK = 15
"""1 with `recall_to=deck`: a card brought back from a Done Zone goes on top of the deck; 0: into the hand."""
O_PARALLEL_STEPS = 16
"""`parallel_steps`: how many steps across to a parallel space one move may take (for a monster allowed them)."""
O_WEB_BLOCKS = 17
"""1 with `web_hinders=block`: an opponent's web tile bars the space to a moving monster; 0 (`stop`): a monster
that enters it ends its move there."""
O_SEARCH_ROLLOUTS = 18
"""`search_rollouts` (not a rule): the search policy's rollouts per candidate and decision on average (its budget,
shared out by successive halving)."""
O_SEARCH_POLICY = 19
"""`search_rollout_policy` (not a rule): GREEDY or RANDOM, the policy both sides play in the search's rollouts."""
O_SUMMON_NEAREST = 20
"""1 with `summon_placement=nearest` (a house rule, engine 3's placement): a token or an effect-summoned monster
goes onto the free non-summoning space nearest its subject at any distance; 0 (`adjacent`): only onto a free
non-summoning space adjacent to the subject ("summon a Gearling token next to it"), else it is not summoned."""
O_PARALLEL_WHEN_BLOCKED = 21
"""1 with `parallel_move=when_blocked` (engine 4's reading): a monster a `move parallel` clause allows steps across to
its parallel space only when an enemy stands in its way, at once; 0 (`any_step`): its parallel space is one more space
it may move to at any step (the player chooses, D_FORK), one space of movement."""
O_PARALLEL_ATTACKS = 22
"""1 with `parallel_attacks=with_move_parallel`: a monster a `move parallel` clause lets move across may also attack
an enemy on its parallel space; 0 (`none`): attacks reach adjacent spaces only."""
O_CHANNEL_AT_START = 23
"""1 with `channel_on_opponent_turn=turn_start` (engine 5's reading): the non-active player may channel with symbols
left over only at the start of the opponent's turn (D_FOE_CHANNEL); 0 (`after_each_action`): then and again after
each of the opponent's actions (D_FOE_RESPONSE, `foe_response_window`)."""
O_SEARCH_DEPTH = 24
"""`search_depth` (not a rule): turns a search rollout plays after the searched turn before its position is scored
(`search_evaluation`); 0 plays it to the match's end."""
OPTIONS_WIDTH = 25
O_DECK_WIDTH = OPTIONS_WIDTH
"""In the rules record's options only (not `CompiledCards.options`): the batch's deck width, the library's columns
that hold cards (a `recall` to the deck finds it full there)."""
RULE_OPTIONS_WIDTH = OPTIONS_WIDTH + 1
SOURCEPOINTS_BY_LENGTH: dict[str, int] = {"short": 75, "medium": 100, "medium-long": 125, "long": 150}
TIES: tuple[str, ...] = ("neither", "both", "attacker", "defender")
TIE_NEITHER, TIE_BOTH, TIE_ATTACKER, TIE_DEFENDER = range(4)

OPENING_HAND = 7
HAND_LIMIT = 10
HAND_WIDTH = 80
SYMBOLS = 4
ALL_UNUSED = 15

# ---- per-monster fields (one row per monster slot; a map holds at most one monster per space) ----------------------
M_CARD, M_OWNER, M_SPACE = 0, 1, 2
M_PERM_ST = 3
"""3-6: lasting ST changes (own clauses, traps, enemy effects)."""
M_TMP_ST = 7
"""7-10: this-turn ST changes (channeled effects)."""
M_PERM_MOVE, M_TMP_MOVE, M_NOATTACK, M_TMP_NOATTACK, M_EXPIRE, M_HIT_GEN = 11, 12, 13, 14, 15, 16
"""M_HIT_GEN is 1 once the monster has attacked the opponent's generator; `leave_space` clears it when the monster
leaves the space it stands on (unless `hit_generator_blocks=for_good`)."""
M_EQY_ST = 17
"""17-20: equipment ST changes on its owner's turns."""
M_EQO_ST = 21
"""21-24: equipment ST changes on the opponent's turns."""
M_EQY_MOVE, M_EQO_MOVE, M_EQY_NOATK, M_EQO_NOATK = 25, 26, 27, 28
M_PARALLEL, M_TMP_PARALLEL, M_EQY_PARALLEL, M_EQO_PARALLEL = 29, 30, 31, 32
"""Above 0 while a `move parallel` clause lets the monster move across parallel spaces: lasting, this turn, and from
equipment on its owner's and on the opponent's turns."""
M_NOMOVE, M_TMP_NOMOVE, M_EQY_NOMOVE, M_EQO_NOMOVE = 33, 34, 35, 36
"""Above 0 while a `cannot move` clause holds the monster in place (lasting, this turn, equipment on its owner's and
on the opponent's turns): no move action, whatever its move changes."""
MON_WIDTH = 37

# ---- map cells, support spaces, players, match
# ------------------------------------------------------------------------
C_OCC, C_TRAP, C_TRAP_OWNER, C_WEB = 0, 1, 2, 3
"""C_WEB: the player whose web tile lies on the space, or -1."""
CELL_WIDTH = 4
SU_CARD, SU_MON, SU_LEFT, SU_PLACED = 0, 1, 2, 3
SUPPORT_WIDTH = 4
MAX_SUPPORT = 8
(
    S_SP,
    S_HAND,
    S_DECK,
    S_DECK_N,
    S_SYMBOLS,
    S_ORDER0,
    S_ORDER1,
    S_ORDER2,
    S_ORDER3,
    S_NEXT,
    S_GEN_ATTACKED,
    S_PREF_KIND,
    S_MAIN_DONE,
    S_CHANNEL_PLACED,
    S_REACTIONARY,
) = range(15)
S_POLICY = 15
"""side[p, S_POLICY:]: p's policy block (`workbench.policies`: code, parameter, the policy's own generator), read
through `policy_of`."""
SIDE_WIDTH = S_POLICY + POLICY_WORDS
G_TURN, G_OVER, G_WINNER, G_FIRST, G_ACTIVE = range(5)
G_MONSTERS = 5
"""game[G_MONSTERS + p]: player p's occupied monster slots as bits (slot m is bit m), so a pass over p's monsters
visits only those (map.MAX_HALF_SPACES keeps every slot below the sign bit)."""
G_DECISION, G_ACTOR = 7, 8
"""The open decision's kind (D_*) and the player who takes it (not always the active player: D_FOE_CHANNEL and
D_FOE_RESPONSE are taken on the opponent's turn)."""
G_ASKED, G_ASKED_TYPES, G_ASKED_KIND = 9, 10, 11
"""What a question asked within a rule is about. G_ASKED: D_FORK the space the moving monster stands on, D_SWAP the
slot of the own monster in its way, D_FOE and D_WEB the effect's subject (a monster slot), D_RECALL whose Done Zone
(a player), D_EFFECT_SUMMON where from (FROM_HAND or FROM_DECK). G_ASKED_TYPES: the clause's `if TYPE` (bits of the
Type Index, 0: any) for D_FOE, D_RECALL and D_EFFECT_SUMMON. G_ASKED_KIND: D_RECALL's card kind (KINDS index + 1,
0: any)."""
G_ACROSS = 12
"""Steps across to a parallel space the move under way has taken (read by D_FORK's list: `parallel_steps` caps them)."""
GAME_WIDTH = 13

# ---- decisions: what `legal_actions` lists and `apply` takes (game[G_DECISION], taken by game[G_ACTOR]) ------------
(
    D_NONE,
    D_MAIN,
    D_CHANNEL_CARD,
    D_SYMBOL,
    D_FOE_CHANNEL,
    D_DISCARD,
    D_FORK,
    D_SWAP,
    D_FOE,
    D_WEB,
    D_RECALL,
    D_EFFECT_SUMMON,
    D_FOE_RESPONSE,
) = range(13)
"""D_MAIN: the turn's one summon, equipment card or trap: `pack_action(kind, hand position, target, -1)` with
kind K_MONSTER (target: SUMMON_CONVENTIONAL or SUMMON_REACTIONARY), K_EQUIPMENT (target: the own monster's slot) or
K_TRAP (target: the map space), or STOP. D_CHANNEL_CARD: a channeled effect card's hand position (placed onto a free
support space), or STOP. D_SYMBOL: the next symbol action of the active player, `pack_action(A_*, monster slot,
target, symbol)` (target: the enemy's slot for A_ATTACK, the support space for A_CHANNEL, else -1; symbol -1 with a
blind draw: it is drawn when the action is taken), or STOP. D_FOE_CHANNEL: at the start of the opponent's turn, a
channeled effect the non-active player uses with a symbol left over, `pack_action(A_CHANNEL, monster, support space,
symbol)`, or STOP. D_FOE_RESPONSE: the same list, after an action of the opponent (`channel_on_opponent_turn=
after_each_action`). D_DISCARD: the hand position of the card discarded at the end of the turn (no STOP).
Questions a rule asks while it resolves (the rule goes on with the answer; `apply` does not take them; none has STOP but
D_SWAP; a question with nothing to list gets STOP from `choose` before any policy picks or draws): D_FORK, where a
moving monster steps next when it has a choice: the space it steps onto (the road's branches at a fork, then, with
`parallel_move=any_step`, its free parallel space when a `move parallel` clause lets it across); D_SWAP, an own monster
in its way: that monster's slot (swap places with it) or STOP (the move ends); D_FOE, a `foe` clause's enemy: the slot
of an enemy monster adjacent to the subject (of the clause's types); D_WEB, where a `web` clause lays its tile: a space
adjacent to the subject; D_RECALL, the card a `recall` clause brings back: a card id, listed once per copy in that Done
Zone; D_EFFECT_SUMMON, the monster a `summon from hand|deck` clause summons: `pack_at(position in the hand or deck,
card)`."""
D_KINDS: tuple[str, ...] = (
    "none",
    "main",
    "channel_card",
    "symbol",
    "foe_channel",
    "discard",
    "fork",
    "swap",
    "foe",
    "web",
    "recall",
    "effect_summon",
    "foe_response",
)
STOP = -1
"""The action that takes nothing (passes the main action, places no channeled card, ends the symbol phase)."""

# ---- the records a kernel takes ------------------------------------------------------------------------------------
MAX_SPACES = 2 * MAX_HALF_SPACES
"""Rows of the map-sized fields: every map fits (map.py holds a half to MAX_HALF_SPACES spaces), so the records have
one shape for every map and a kernel is compiled once. Kernels loop over the map's own spaces (`O_SPACES`); the rows
past them stay empty."""
ALL_SLOTS = (1 << MAX_SPACES) - 1
"""Every monster slot's bit: a map's monsters never fill its slots (one monster a space), so the lowest free slot
is the same as with the map's own slots only."""
PILE_LIBRARY, PILE_TOKENS, PILE_POOL = 0, 1, 2
"""The planes of the piles array (3, 2, width): the draw decks, the token decks and Done Zones (per card: copies in
the token deck, then at column cards + card copies in the Done Zone), and (row 0 only) the search's pool of unseen
cards."""

MAX_PATH = 12
"""Longest move greedy play looks ahead (4 spaces from ST plus any bonuses)."""
PATH_AT, SWAPS_AT = 4, 4 + MAX_PATH + 1
"""Where greedy's look-ahead (`greedy_path_steps`) writes into the scratch array: positions after k steps, allies
swapped back by then."""
ST_AT = 4 + 2 * (MAX_PATH + 1)
"""scratch[ST_AT + s]: the monster being weighed's ST for symbol s, worked out once per choice."""
MOVE_AT = ST_AT + SYMBOLS
"""scratch[MOVE_AT + s]: the spaces a move with symbol s would take it (ST bracket plus bonuses)."""
FOE_ST_AT = MOVE_AT + SYMBOLS
"""scratch[FOE_ST_AT + s]: the ST for symbol s of the enemy it might attack."""
SCRATCH_WIDTH = FOE_ST_AT + SYMBOLS

SR_DECISIONS, SR_ROLLOUTS, SR_N, SR_CHOICE = 4, 5, 6, 7
"""The search's words: its own xorshift generator (0-3), decisions searched and rollouts played (summed over the
batch), the last decision's candidate count and choice; then per candidate its hand position, summon kind, points
and rollouts given, and the survivors' order."""
MAX_CANDIDATES = HAND_WIDTH + 2
SR_CAND = 8
SR_HOW = SR_CAND + MAX_CANDIDATES
SR_POINTS = np.int64(SR_HOW + MAX_CANDIDATES)
"""Points per candidate of the last decision, summed over its rollouts: WIN_POINTS (2,000) a rollout won, DRAW_POINTS
(1,000) drawn, 0 lost, and a cut-off rollout its position's points (`search_evaluation`, `position_points`)."""
SR_TRIED = np.int64(SR_POINTS + MAX_CANDIDATES)
"""Rollouts each candidate of the last decision was given (candidates dropped early were given fewer)."""
SR_ORDER = np.int64(SR_TRIED + MAX_CANDIDATES)
"""The candidates still in, best first once ranked (successive halving's list, `search_kernels.halving_keep`): its
first word is the choice."""
SEARCH_WORDS = int(SR_ORDER + MAX_CANDIDATES)
MAX_ACTIONS = HAND_WIDTH * MAX_SPACES + 1
"""The longest list of legal actions: every hand card an equipment card or trap with a target each on every space,
plus STOP (a symbol decision lists at most 62 monsters x 56; D_RECALL a Done Zone's copies, at most both decks)."""

RULES_DTYPE = np.dtype(
    [
        ("opts", np.int64, (RULE_OPTIONS_WIDTH,)),
        ("mp", np.int64, (MAX_SPACES, MAP_WIDTH)),
        ("dist", np.int64, (MAX_SPACES, MAX_SPACES)),
    ]
)
"""What a batch's rules are, read only, as one record: `opts` the rule options and the map's fixed spaces (O_*, in
OPTION_ORDER then the map's; then O_DECK_WIDTH), `mp` the joined map (map.MP_* columns, one row per space), `dist`
the steps between any two spaces. Rows past the map's `O_SPACES` are unused (map.NO_SPACE and 0)."""

STATE_DTYPE = np.dtype(
    [
        ("mon", np.int64, (MAX_SPACES, MON_WIDTH)),
        ("cells", np.int64, (MAX_SPACES, CELL_WIDTH)),
        ("sup", np.int64, (2, MAX_SUPPORT, SUPPORT_WIDTH)),
        ("side", np.int64, (2, SIDE_WIDTH)),
        ("hand", np.int64, (2, HAND_WIDTH)),
        ("game", np.int64, (GAME_WIDTH,)),
        ("rng", np.int64, (4,)),
        ("ec", np.int64, (1,)),
        ("choice", np.int64, (4,)),
        ("scratch", np.int64, (SCRATCH_WIDTH,)),
        ("search", np.int64, (SEARCH_WORDS,)),
        ("actions", np.int64, (MAX_ACTIONS,)),
    ]
)
"""One match's state whose shape no card set or map changes, as one record: a kernel call passes one pointer for
it, and every field has a shape known when compiling. `mon[m]` is monster slot m (M_* fields), `cells[space]` a map
space (C_*: occupant slot, face-down trap and its owner, web tile), `sup[p, k]` p's support space k (SU_*), `side[p]`
player p's words (S_*: SourcePoints, hand and deck counts, symbols, policy...), `hand[p]` the card ids in p's hand
(the first side[p, S_HAND]), `game` the match's words (G_*), `rng` the match's xorshift generator, `ec` the trace's
length, `choice` the symbol phase's chosen action unpacked (action, monster, target, symbol; a generator attack
waits there while the rest of the turn goes first), `scratch` greedy's look-ahead (PATH_AT, SWAPS_AT, ST_AT,
MOVE_AT, FOE_ST_AT). `search` belongs to the search policy alone (SR_*: its own generator, its figures and the last
decision's candidates); no rule reads it. `actions` is where the match loop has `legal_actions` list the open
decision's actions (game[G_DECISION], for player game[G_ACTOR]).

What a card set's or deck's size shapes stays outside: the piles array (PILE_*: draw decks, token decks and Done
Zones, the search's pool; a batch sizes it for its decks and cards), the card table, the clause table and the
counters. Cloning a state (`clone_state`) copies a record and the piles' deck and token planes."""

# Policies by code: GREEDY, RANDOM, SEARCH and EPSILON_GREEDY (`workbench.policies`, ENGINE.policies). A `search` side
# plays GREEDY in the state: the search drives it from outside.
PERMANENT, THIS_TURN = 0, 1
SUMMON_CONVENTIONAL, SUMMON_REACTIONARY, SUMMON_TOKEN, SUMMON_EFFECT_HAND, SUMMON_EFFECT_DECK = 0, 1, 2, 3, 4

# ---- trace events (row: turn, player, code, card, other, amount) ----------------------------------------------------
(
    EV_TURN,
    EV_SP,
    EV_DRAW,
    EV_DECK_EMPTY,
    EV_SUMMON,
    EV_PUSH,
    EV_SYMBOL,
    EV_MOVE,
    EV_SWAP,
    EV_ATTACK,
    EV_DESTROYED,
    EV_TIE,
    EV_GEN_ATTACK,
    EV_EQUIP,
    EV_EQUIP_END,
    EV_TRAP_SET,
    EV_TRAP_SPRING,
    EV_CHANNEL_PLACE,
    EV_CHANNEL,
    EV_CHANNEL_MISS,
    EV_CHANNEL_DONE,
    EV_ST,
    EV_MOVEMOD,
    EV_NOATTACK,
    EV_SP_CHANGE,
    EV_DISCARD,
    EV_EXPIRE,
    EV_TURN_CAP,
    EV_NO_TOKEN,
    EV_EXPIRE_SET,
    EV_DECK_OUT,
    EV_NO_SUMMON,
    EV_RECALL,
    EV_NO_RECALL,
    EV_PARALLEL_SET,
    EV_SIDESTEP,
    EV_WEB_SET,
    EV_WEB_CLEARED,
    EV_WEBBED,
    EV_NO_WEB,
    EV_NOMOVE,
) = range(41)


# =====================================================================================================================
# Reading the board
# =====================================================================================================================


@inline_kernel
def st_of(table: IntArray, state: Any, m: EngineInt, s: EngineInt, active: EngineInt) -> int:
    """Monster m's ST for symbol s on player `active`'s turn: printed + lasting + this turn + equipment, at least 0."""
    mon = state.mon
    value = table[mon[m, M_CARD], T_ST + s] + mon[m, M_PERM_ST + s] + mon[m, M_TMP_ST + s]
    if active == mon[m, M_OWNER]:
        value += mon[m, M_EQY_ST + s]
    else:
        value += mon[m, M_EQO_ST + s]
    return value if value > 0 else 0


@inline_kernel
def spaces_for_st(value: EngineInt) -> int:
    """The document's movement table: 0 -> 0, 1-25 -> 1, 26-50 -> 2, 51-75 -> 3, 76+ -> 4 spaces."""
    if value <= 0:
        return 0
    if value <= 25:
        return 1
    if value <= 50:
        return 2
    if value <= 75:
        return 3
    return 4


@inline_kernel
def lasting_op(op: EngineInt) -> bool:
    """Whether a clause's opcode is one that lasts on its monster (ST, move, cannot attack, cannot move, expire, move
    parallel)."""
    return op == OP_ST or op == OP_MOVE or op == OP_NOATTACK or op == OP_EXPIRE or op == OP_PARALLEL or op == OP_NOMOVE


@inline_kernel
def may_move_parallel(state: Any, m: EngineInt, active: EngineInt) -> bool:
    """Whether a `move parallel` clause lets monster m move across parallel spaces now."""
    mon = state.mon
    held = mon[m, M_PARALLEL] + mon[m, M_TMP_PARALLEL]
    held += mon[m, M_EQY_PARALLEL] if active == mon[m, M_OWNER] else mon[m, M_EQO_PARALLEL]
    return held > 0


@inline_kernel
def sidestep(rules: Any, state: Any, m: EngineInt, here: EngineInt, taken: EngineInt) -> int:
    """Where monster m on `here` may step across to: the parallel space, when a `move parallel` clause allows it, the
    space is free and this move has taken fewer than `parallel_steps` such steps; else -1. When it may
    (`parallel_move`): at any step (any_step), or only instead of stopping before an enemy (when_blocked)."""
    opts = rules.opts
    mp = rules.mp
    mon = state.mon
    cells = state.cells
    if taken >= opts[O_PARALLEL_STEPS] or not may_move_parallel(state, m, mon[m, M_OWNER]):
        return -1
    across = mp[here, MP_PARALLEL]
    if across < 0 or cells[across, C_OCC] >= 0:
        return -1
    return across


@inline_kernel
def attack_across(rules: Any, state: Any, m: EngineInt, space: EngineInt, active: EngineInt) -> int:
    """The parallel space monster m on `space` may attack across to (`parallel_attacks=with_move_parallel` and a
    `move parallel` clause holding now; a parallel space that is also adjacent counts once, as adjacent); else -1."""
    mp = rules.mp
    if rules.opts[O_PARALLEL_ATTACKS] == 0 or not may_move_parallel(state, m, active):
        return -1
    across = mp[space, MP_PARALLEL]
    if across < 0:
        return -1
    for t in range(4):
        if mp[space, MP_ADJ0 + t] == across:
            return -1
    return across


@inline_kernel
def move_bonus(state: Any, m: EngineInt, active: EngineInt) -> int:
    """Extra spaces per move from lasting, this-turn and equipment changes."""
    mon = state.mon
    bonus = mon[m, M_PERM_MOVE] + mon[m, M_TMP_MOVE]
    bonus += mon[m, M_EQY_MOVE] if active == mon[m, M_OWNER] else mon[m, M_EQO_MOVE]
    return bonus


@inline_kernel
def may_move(state: Any, m: EngineInt, active: EngineInt) -> bool:
    """False while a `cannot move` clause holds (lasting, this turn, or an active equipment card): Goop's "cannot
    move", whatever the monster's move changes add."""
    mon = state.mon
    held = mon[m, M_NOMOVE] + mon[m, M_TMP_NOMOVE]
    held += mon[m, M_EQY_NOMOVE] if active == mon[m, M_OWNER] else mon[m, M_EQO_NOMOVE]
    return held == 0


@inline_kernel
def move_distance(table: IntArray, state: Any, m: EngineInt, s: EngineInt, active: EngineInt) -> int:
    """Spaces monster m must move with symbol s: the ST bracket plus bonuses, never below 0; 0 while it may not
    move."""
    if not may_move(state, m, active):
        return 0
    d = spaces_for_st(st_of(table, state, m, s, active)) + move_bonus(state, m, active)
    return d if d > 0 else 0


@inline_kernel
def may_attack(state: Any, m: EngineInt, active: EngineInt) -> bool:
    """False while a `cannot attack` clause holds (lasting, this turn, or an active equipment card)."""
    mon = state.mon
    if mon[m, M_NOATTACK] > 0 or mon[m, M_TMP_NOATTACK] > 0:
        return False
    held = mon[m, M_EQY_NOATK] if active == mon[m, M_OWNER] else mon[m, M_EQO_NOATK]
    return held == 0


@inline_kernel
def monster_value(table: IntArray, state: Any, m: EngineInt, active: EngineInt) -> int:
    """What greedy play thinks a monster on the map is worth: its ST total."""
    total = 0
    for s in range(SYMBOLS):
        total += st_of(table, state, m, s, active)
    return total + 10


@inline_kernel
def monsters_on_map(rules: Any, state: Any, p: EngineInt) -> tuple[int, int, int]:
    """(monsters, terrestrial spaces, otherworldly spaces) of player p's on the map, in one pass over p's slots."""
    mp = rules.mp
    mon = state.mon
    game = state.game
    monsters = 0
    terrestrial = 0
    otherworldly = 0
    slots = game[G_MONSTERS + p]
    while slots != 0:
        m = lowest_set_bit(slots)
        slots &= slots - 1
        monsters += 1
        kind = mp[mon[m, M_SPACE], MP_KIND]
        if kind == KIND_TERRESTRIAL:
            terrestrial += 1
        elif kind == KIND_OTHERWORLDLY:
            otherworldly += 1
    return monsters, terrestrial, otherworldly


@inline_kernel
def occupied_spaces(rules: Any, state: Any, p: EngineInt) -> tuple[int, int]:
    """(terrestrial, otherworldly) spaces player p's monsters occupy, on either side of the map."""
    _, terrestrial, otherworldly = monsters_on_map(rules, state, p)
    return terrestrial, otherworldly


@rules_kernel
def meets_requirements(table: IntArray, rules: Any, state: Any, p: EngineInt, card: EngineInt) -> bool:
    """Whether player p's monsters occupy enough terrestrial and otherworldly spaces for `card`."""
    terrestrial, otherworldly = occupied_spaces(rules, state, p)
    return requirements_met(table, card, terrestrial, otherworldly)


@inline_kernel
def requirements_met(table: IntArray, card: EngineInt, terrestrial: EngineInt, otherworldly: EngineInt) -> bool:
    """Whether `terrestrial` and `otherworldly` occupied spaces meet `card`'s requirements."""
    return terrestrial >= table[card, T_TERR] and otherworldly >= table[card, T_OTHER]


@inline_kernel
def forward_step(rules: Any, space: EngineInt, p: EngineInt, k: EngineInt) -> int:
    """Player p's k-th (0 or 1) forward road step from `space`, or -1."""
    mp = rules.mp
    return mp[space, MP_FWD_A0 + 2 * p + k]


@inline_kernel
def progress(rules: Any, space: EngineInt, p: EngineInt) -> int:
    """Road steps from player p's summoning space to `space`."""
    mp = rules.mp
    return mp[space, MP_PROGRESS_A + p]


@inline_kernel
def adjacent_enemies(rules: Any, state: Any, m: EngineInt) -> int:
    """How many enemy monsters stand adjacent to monster m: whether a `foe` clause would find one (greedy's weighing
    of a channel asks it; which one is the D_FOE question, `ask`)."""
    mp = rules.mp
    mon = state.mon
    cells = state.cells
    p = mon[m, M_OWNER]
    space = mon[m, M_SPACE]
    count = 0
    for k in range(4):
        nxt = mp[space, MP_ADJ0 + k]
        if nxt < 0:
            continue
        e = cells[nxt, C_OCC]
        if e >= 0 and mon[e, M_OWNER] != p:
            count += 1
    return count


@inline_kernel
def of_type(table: IntArray, state: Any, m: EngineInt, types: EngineInt) -> bool:
    """Whether monster m is of one of the types in the bit set `types` (0: any monster)."""
    mon = state.mon
    return types == 0 or (table[mon[m, M_CARD], T_TYPE] & types) != 0


@rules_kernel
def closest_free_space(rules: Any, state: Any, target: EngineInt, p: EngineInt) -> int:
    """The unoccupied space nearest `target` (ties: nearer player p's own side, then file order), or -1."""
    dist = rules.dist
    cells = state.cells
    best = -1
    for s in range(rules.opts[O_SPACES]):
        if cells[s, C_OCC] >= 0:
            continue
        if (
            best < 0
            or dist[target, s] < dist[target, best]
            or (dist[target, s] == dist[target, best] and progress(rules, s, p) < progress(rules, best, p))
        ):
            best = s
    return best


# =====================================================================================================================
# Changing the board
# =====================================================================================================================


@inline_kernel
def to_done_zone(table: IntArray, piles: IntArray, p: EngineInt, card: EngineInt) -> None:
    """`card` goes to player p's Done Zone: "the discard pile where the player will place any cards that have been
    defeated, used, or have had their effects fulfilled". The Done Zone is kept as copies per card, in the columns
    of `tokens` after the token deck's (tokens[p, cards + card]), so every kernel that sends a card there already
    has it."""
    tokens = piles[PILE_TOKENS]
    tokens[p, table.shape[0] + card] += 1


@rules_kernel
def remove_equipment(
    table: IntArray, state: Any, piles: IntArray, events: IntArray, p: EngineInt, k: EngineInt
) -> None:
    """Send player p's support card k to the Done Zone, taking an equipment card's changes off its monster."""
    mon = state.mon
    sup = state.sup
    game = state.game
    ec = state.ec
    card = sup[p, k, SU_CARD]
    m = sup[p, k, SU_MON]
    if table[card, T_KIND] == K_EQUIPMENT and m >= 0 and mon[m, M_SPACE] >= 0:
        equipment_changes(table, state, card, m, np.int64(-1))
    sup[p, k, SU_CARD] = -1
    sup[p, k, SU_MON] = -1
    to_done_zone(table, piles, p, card)
    log_event(
        events,
        ec,
        game[G_TURN],
        p,
        EV_EQUIP_END if table[card, T_KIND] == K_EQUIPMENT else EV_CHANNEL_DONE,
        card,
        -1,
        0,
    )


@rules_kernel
def equipment_changes(table: IntArray, state: Any, card: EngineInt, m: EngineInt, sign: EngineInt) -> None:
    """Add (sign 1) or take off (sign -1) an equipment card's lasting changes on the turns it is active (none
    when its `if TYPE` asks for a type monster m does not have)."""
    mon = state.mon
    if not of_type(table, state, m, table[card, T_EQ_TYPES]):
        return
    active = table[card, T_ACTIVE]
    for s in range(SYMBOLS):
        if active & ACTIVE_Y:
            mon[m, M_EQY_ST + s] += sign * table[card, T_EQ_ST + s]
        if active & ACTIVE_O:
            mon[m, M_EQO_ST + s] += sign * table[card, T_EQ_ST + s]
    if active & ACTIVE_Y:
        mon[m, M_EQY_MOVE] += sign * table[card, T_EQ_MOVE]
        mon[m, M_EQY_NOATK] += sign * table[card, T_EQ_NOATTACK]
        mon[m, M_EQY_PARALLEL] += sign * table[card, T_EQ_PARALLEL]
        mon[m, M_EQY_NOMOVE] += sign * table[card, T_EQ_NOMOVE]
    if active & ACTIVE_O:
        mon[m, M_EQO_MOVE] += sign * table[card, T_EQ_MOVE]
        mon[m, M_EQO_NOATK] += sign * table[card, T_EQ_NOATTACK]
        mon[m, M_EQO_PARALLEL] += sign * table[card, T_EQ_PARALLEL]
        mon[m, M_EQO_NOMOVE] += sign * table[card, T_EQ_NOMOVE]


@rules_kernel
def destroy_monster(
    table: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    m: EngineInt,
    by_card: EngineInt,
) -> None:
    """Monster m is destroyed: its equipment goes to the Done Zone, a token goes back to its token deck."""
    opts = rules.opts
    mon = state.mon
    cells = state.cells
    sup = state.sup
    game = state.game
    ec = state.ec
    tokens = piles[PILE_TOKENS]
    card = mon[m, M_CARD]
    p = mon[m, M_OWNER]
    cells[mon[m, M_SPACE], C_OCC] = -1
    mon[m, M_SPACE] = -1
    game[G_MONSTERS + p] &= ~(1 << m)
    counters[p, card, DESTROYED] += 1
    log_event(events, ec, game[G_TURN], p, EV_DESTROYED, card, by_card, 0)
    if table[card, T_KIND] == K_TOKEN:
        tokens[p, card] += 1
    else:
        to_done_zone(table, piles, p, card)
    for k in range(opts[O_SUPPORT]):
        if sup[p, k, SU_CARD] >= 0 and sup[p, k, SU_MON] == m:
            remove_equipment(table, state, piles, events, p, k)


@rules_kernel
def place_monster(state: Any, card: EngineInt, p: EngineInt, space: EngineInt) -> int:
    """Put `card` for player p on a free `space` in the lowest free monster slot; returns the slot (-1: none)."""
    mon = state.mon
    cells = state.cells
    game = state.game
    free = ~(game[G_MONSTERS] | game[G_MONSTERS + 1]) & ALL_SLOTS
    if free == 0:
        return -1
    m = lowest_set_bit(free)
    for f in range(MON_WIDTH):
        mon[m, f] = 0
    mon[m, M_CARD] = card
    mon[m, M_OWNER] = p
    mon[m, M_SPACE] = space
    cells[space, C_OCC] = m
    game[G_MONSTERS + p] |= 1 << m
    return m


@inline_kernel
def leave_space(rules: Any, state: Any, m: EngineInt) -> None:
    """Monster m has left the space it stood on (moved, swapped back, pushed back). "has not attacked your SOURCE
    generator with it" is read as this stay on the summoning space: an attack made there no longer blocks a
    conventional summon once the monster has left (`hit_generator_blocks=until_moved`, the default)."""
    opts = rules.opts
    mon = state.mon
    if opts[O_HIT_GEN_FOR_GOOD] == 0:
        mon[m, M_HIT_GEN] = 0


@rules_kernel
def push_back(rules: Any, state: Any, events: IntArray, m: EngineInt, steps: EngineInt, to_closest: EngineInt) -> None:
    """Move monster m up to `steps` spaces back along its road (towards its own generator, never behind its own
    summoning space). With `to_closest` (a summon's push) it goes to the space one back, or, if that is occupied,
    the closest unoccupied space; otherwise (a `push back N` effect) it stops before an occupied space."""
    mon = state.mon
    cells = state.cells
    game = state.game
    ec = state.ec
    p = mon[m, M_OWNER]
    start = mon[m, M_SPACE]
    target = start
    for _ in range(steps):
        # Backwards for p is the opponent's forward direction; at a merge prefer a free space.
        first = forward_step(rules, target, 1 - p, 0)
        second = forward_step(rules, target, 1 - p, 1)
        if first < 0:
            break
        if second >= 0 and cells[first, C_OCC] >= 0 and cells[second, C_OCC] < 0:
            first = second
        if cells[first, C_OCC] >= 0 and to_closest == 0:
            break
        target = first
    if target == start:
        return
    if cells[target, C_OCC] >= 0:
        target = closest_free_space(rules, state, target, p)
        if target < 0:
            return
    cells[start, C_OCC] = -1
    cells[target, C_OCC] = m
    mon[m, M_SPACE] = target
    leave_space(rules, state, m)
    log_event(events, ec, game[G_TURN], p, EV_PUSH, mon[m, M_CARD], start, target)


@rules_kernel
def change_sourcepoints(
    rules: Any, state: Any, events: IntArray, p: EngineInt, amount: EngineInt, card: EngineInt
) -> None:
    """Player p's SourcePoints change by `amount`; at 0 or below p is defeated."""
    opts = rules.opts
    side = state.side
    game = state.game
    ec = state.ec
    value = side[p, S_SP] + amount
    if amount > 0 and opts[O_SP_CAP] == 1 and value > opts[O_SOURCEPOINTS]:
        value = opts[O_SOURCEPOINTS]
    log_event(events, ec, game[G_TURN], p, EV_SP_CHANGE, card, value, value - side[p, S_SP])
    side[p, S_SP] = value
    if value <= 0 and game[G_OVER] == 0:
        game[G_OVER] = 1
        game[G_WINNER] = 1 - p


@inline_kernel
def draw_card(rules: Any, state: Any, piles: IntArray, counters: IntArray, events: IntArray, p: EngineInt) -> None:
    """Player p draws one card (an empty deck draws nothing, or loses with `deck_out_loses`)."""
    opts = rules.opts
    side = state.side
    hand = state.hand
    game = state.game
    ec = state.ec
    library = piles[PILE_LIBRARY]
    if side[p, S_DECK] >= side[p, S_DECK_N]:
        if opts[O_DECK_OUT_LOSES] == 1 and game[G_OVER] == 0:
            log_event(events, ec, game[G_TURN], p, EV_DECK_OUT, -1, -1, 0)
            game[G_OVER] = 1
            game[G_WINNER] = 1 - p
        else:
            log_event(events, ec, game[G_TURN], p, EV_DECK_EMPTY, -1, -1, 0)
        return
    card = library[p, side[p, S_DECK]]
    side[p, S_DECK] += 1
    if side[p, S_HAND] < HAND_WIDTH:
        hand[p, side[p, S_HAND]] = card
        side[p, S_HAND] += 1
    count_draw(counters, p, card)
    log_event(events, ec, game[G_TURN], p, EV_DRAW, card, -1, 0)


@rules_kernel
def remove_from_hand(state: Any, p: EngineInt, h: EngineInt) -> int:
    """Take the card at hand position h out of p's hand (order kept); returns it."""
    side = state.side
    hand = state.hand
    card = hand[p, h]
    for i in range(h, side[p, S_HAND] - 1):
        hand[p, i] = hand[p, i + 1]
    side[p, S_HAND] -= 1
    return card


@inline_kernel
def summon_anchor(rules: Any, state: Any, subject: EngineInt, p: EngineInt) -> EngineInt:
    """The space a token or an effect summon is placed next to: the subject's. A subject no longer on the map leaves
    no "it" to be next to, so nothing is summoned (-1); with `summon_placement=nearest` (engine 3's house rule) player
    p's Source Flux stands in for it."""
    mon = state.mon
    if subject >= 0 and mon[subject, M_SPACE] >= 0:
        return mon[subject, M_SPACE]
    return rules.opts[O_FLUX + p] if rules.opts[O_SUMMON_NEAREST] == 1 else -1


@rules_kernel
def free_space_near(rules: Any, state: Any, near: EngineInt, p: EngineInt) -> int:
    """Where a token or an effect-summoned monster is placed: an unoccupied space adjacent to `near` (the subject's
    space) that is not a summoning space ("summon a Gearling token next to it"; with `summon_placement=nearest`,
    the house rule, the one nearest `near` at any distance). Ties: nearer player p's own side, then file order.
    -1: none (the summon does not happen)."""
    opts = rules.opts
    mp = rules.mp
    dist = rules.dist
    cells = state.cells
    if near < 0:
        return -1
    farthest = opts[O_SPACES] if opts[O_SUMMON_NEAREST] == 1 else 1
    best = -1
    for s in range(opts[O_SPACES]):
        if cells[s, C_OCC] >= 0 or mp[s, MP_KIND] == KIND_SUMMONING or dist[near, s] > farthest:
            continue
        if (
            best < 0
            or dist[near, s] < dist[near, best]
            or (dist[near, s] == dist[near, best] and progress(rules, s, p) < progress(rules, best, p))
        ):
            best = s
    return best


@rules_kernel
def summon_token(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    token: EngineInt,
    near: EngineInt,
) -> int:
    """A token from p's token deck onto the free space closest to `near` (not a summoning space); its own lasting
    clauses (ST, move, cannot attack, expire) take hold. Returns the slot, or -1 when none is left or no space."""
    game = state.game
    ec = state.ec
    tokens = piles[PILE_TOKENS]
    if tokens[p, token] <= 0:
        log_event(events, ec, game[G_TURN], p, EV_NO_TOKEN, token, -1, 0)
        return -1
    best = free_space_near(rules, state, near, p)
    if best < 0:
        log_event(events, ec, game[G_TURN], p, EV_NO_TOKEN, token, -1, 1)
        return -1
    tokens[p, token] -= 1
    m = place_monster(state, token, p, best)
    count_play(counters, p, token, game[G_TURN])
    log_event(events, ec, game[G_TURN], p, EV_SUMMON, token, best, SUMMON_TOKEN)
    for i in range(table[token, T_NCLAUSE]):
        op = clauses[token, i, C_OP]
        if clauses[token, i, C_FOE] == 1:
            continue
        if lasting_op(op):
            change_monster(
                state, events, m, op, clauses[token, i, C_AMOUNT], clauses[token, i, C_ARG], np.int64(PERMANENT)
            )
    return m


@rules_kernel
def change_monster(
    state: Any, events: IntArray, m: EngineInt, op: EngineInt, amount: EngineInt, arg: EngineInt, lasting: EngineInt
) -> None:
    """An ST, move, cannot-attack, cannot-move, move-parallel or expire clause on monster m, lasting or for this turn
    only."""
    mon = state.mon
    game = state.game
    ec = state.ec
    p = mon[m, M_OWNER]
    card = mon[m, M_CARD]
    if op == OP_ST:
        base = M_PERM_ST if lasting == PERMANENT else M_TMP_ST
        for s in range(SYMBOLS):
            if arg == ALL_SYMBOLS or arg == s:
                mon[m, base + s] += amount
        log_event(events, ec, game[G_TURN], p, EV_ST, card, arg + 10 * lasting, amount)
    elif op == OP_MOVE:
        mon[m, M_PERM_MOVE if lasting == PERMANENT else M_TMP_MOVE] += amount
        log_event(events, ec, game[G_TURN], p, EV_MOVEMOD, card, lasting, amount)
    elif op == OP_NOATTACK:
        mon[m, M_NOATTACK if lasting == PERMANENT else M_TMP_NOATTACK] = 1
        log_event(events, ec, game[G_TURN], p, EV_NOATTACK, card, lasting, 0)
    elif op == OP_EXPIRE:
        mon[m, M_EXPIRE] = amount
        log_event(events, ec, game[G_TURN], p, EV_EXPIRE_SET, card, -1, amount)
    elif op == OP_PARALLEL:
        mon[m, M_PARALLEL if lasting == PERMANENT else M_TMP_PARALLEL] = 1
        log_event(events, ec, game[G_TURN], p, EV_PARALLEL_SET, card, lasting, 0)
    elif op == OP_NOMOVE:
        mon[m, M_NOMOVE if lasting == PERMANENT else M_TMP_NOMOVE] = 1
        log_event(events, ec, game[G_TURN], p, EV_NOMOVE, card, lasting, 0)


@rules_kernel
def place_web(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    events: IntArray,
    p: EngineInt,
    subject: EngineInt,
    card: EngineInt,
) -> EngineInt:
    """Player p lays a web tile on a space adjacent to `subject` with no monster, no web and no summoning space
    ("the web token comes in the form of a tile that can easily be placed and removed from relevant map spaces"):
    which one is p's answer to D_WEB (`legal_webs` lists them). Returns the space, or -1."""
    mon = state.mon
    cells = state.cells
    game = state.game
    ec = state.ec
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    best: EngineInt
    best = -1
    if subject >= 0 and mon[subject, M_SPACE] >= 0:
        best = ask(table, clauses, rules, state, piles, np.int64(D_WEB), p, subject, np.int64(0), np.int64(0))
    if best < 0:
        log_event(events, ec, game[G_TURN], p, EV_NO_WEB, card, -1, 0)
        return -1
    cells[best, C_WEB] = p
    log_event(events, ec, game[G_TURN], p, EV_WEB_SET, card, best, 0)
    return best


@rules_kernel
def clear_webs(rules: Any, state: Any, events: IntArray, p: EngineInt, subject: EngineInt, card: EngineInt) -> int:
    """Player p removes the opponent's web tiles from `subject`'s space and the spaces adjacent to it. Returns how
    many."""
    mp = rules.mp
    mon = state.mon
    cells = state.cells
    game = state.game
    ec = state.ec
    if subject < 0 or mon[subject, M_SPACE] < 0:
        return 0
    here = mon[subject, M_SPACE]
    cleared = 0
    for k in range(5):
        s = here if k == 4 else mp[here, MP_ADJ0 + k]
        if s >= 0 and cells[s, C_WEB] >= 0 and cells[s, C_WEB] != p:
            cells[s, C_WEB] = -1
            cleared += 1
            log_event(events, ec, game[G_TURN], p, EV_WEB_CLEARED, card, s, 0)
    return cleared


@rules_kernel
def recall_card(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    events: IntArray,
    p: EngineInt,
    whose: EngineInt,
    kind: EngineInt,
    types: EngineInt,
) -> EngineInt:
    """Player p brings one card back from player `whose`'s Done Zone into p's hand, or with `recall_to=deck` onto
    the top of p's deck ("Some effects will allow the player to bring cards back from their Done Zone and even their
    opponent's Done Zone"): of kind `kind` - 1 (0: any) and of the types in `types` (0: any); which copy is p's
    answer to D_RECALL (`legal_recalls` lists them). Returns the card, or -1 when none is there (or, after the
    answer, no room: a hand of HAND_WIDTH cards, a deck with no column above it)."""
    opts = rules.opts
    side = state.side
    hand = state.hand
    game = state.game
    ec = state.ec
    library = piles[PILE_LIBRARY]
    tokens = piles[PILE_TOKENS]
    cards = table.shape[0]
    pick = ask(table, clauses, rules, state, piles, np.int64(D_RECALL), p, whose, kind, types)
    if pick < 0 or side[p, S_HAND] >= HAND_WIDTH:
        log_event(events, ec, game[G_TURN], p, EV_NO_RECALL, -1, whose, kind)
        return -1
    to_deck = opts[O_RECALL_TO_DECK] == 1
    if to_deck and side[p, S_DECK] == 0 and side[p, S_DECK_N] >= opts[O_DECK_WIDTH]:
        log_event(events, ec, game[G_TURN], p, EV_NO_RECALL, -1, whose, kind)
        return -1  # no room above the deck (only before the opening hand is drawn)
    tokens[whose, cards + pick] -= 1
    if not to_deck:
        hand[p, side[p, S_HAND]] = pick
        side[p, S_HAND] += 1
    elif side[p, S_DECK] > 0:
        side[p, S_DECK] -= 1
        library[p, side[p, S_DECK]] = pick
    else:
        for j in range(side[p, S_DECK_N], 0, -1):
            library[p, j] = library[p, j - 1]
        library[p, 0] = pick
        side[p, S_DECK_N] += 1
    log_event(events, ec, game[G_TURN], p, EV_RECALL, pick, whose, 1 if to_deck else 0)
    return pick


@rules_kernel
def apply_one_clause(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    card: EngineInt,
    i: EngineInt,
    p: EngineInt,
    subject: EngineInt,
    lasting: EngineInt,
    foe: EngineInt,
) -> EngineInt:
    """Clause i of player p's `card` on `subject`, for every opcode but an effect summon (`apply_clauses` runs
    that, so no kernel calls itself through a summoned monster's clauses). `foe` is the enemy chosen at the
    activation's first `foe` clause (-2: none chosen yet); returns it, chosen if this clause chose it. Which enemy
    (D_FOE), where a web goes (D_WEB) and which card comes back (D_RECALL) are questions p's policy answers."""
    mon = state.mon
    op = clauses[card, i, C_OP]
    amount = clauses[card, i, C_AMOUNT]
    arg = clauses[card, i, C_ARG]
    types = clauses[card, i, C_TYPES]
    if types != 0 and (op == OP_SP or op == OP_DRAW or op == OP_TOKEN):
        # `if TYPE` on a clause that acts on no monster asks it of the subject.
        if subject < 0 or mon[subject, M_SPACE] < 0 or not of_type(table, state, subject, types):
            return foe
    if op == OP_SP:
        if amount < 0:
            change_sourcepoints(rules, state, events, 1 - p, amount, card)
        else:
            change_sourcepoints(rules, state, events, p, amount, card)
        return foe
    if op == OP_DRAW:
        for _ in range(amount):
            draw_card(rules, state, piles, counters, events, p)
        return foe
    if op == OP_TOKEN:
        near = summon_anchor(rules, state, subject, p)
        summon_token(table, clauses, rules, state, piles, counters, events, p, arg, near)
        return foe
    if op == OP_SUMMON:
        return foe
    if op == OP_WEB or op == OP_CLEAR_WEB:
        if types != 0 and (subject < 0 or mon[subject, M_SPACE] < 0 or not of_type(table, state, subject, types)):
            return foe
        if op == OP_WEB:
            place_web(table, clauses, rules, state, piles, events, p, subject, card)
        else:
            clear_webs(rules, state, events, p, subject, card)
        return foe
    if op == OP_RECALL:
        whose = 1 - p if arg >= RECALL_OPPONENT else p
        for _ in range(amount):
            recall_card(table, clauses, rules, state, piles, events, p, whose, arg % RECALL_OPPONENT, types)
        return foe
    target = subject
    if clauses[card, i, C_FOE] == 1:
        if foe == -2:
            foe = -1
            if subject >= 0 and mon[subject, M_SPACE] >= 0:
                foe = ask(table, clauses, rules, state, piles, np.int64(D_FOE), p, subject, np.int64(0), np.int64(0))
        target = foe
        if types != 0 and (foe < 0 or not of_type(table, state, foe, types)):
            # The activation's enemy is not of the type asked: this clause asks for its own among those that are.
            target = -1
            if subject >= 0 and mon[subject, M_SPACE] >= 0:
                target = ask(table, clauses, rules, state, piles, np.int64(D_FOE), p, subject, np.int64(0), types)
    if target < 0 or mon[target, M_SPACE] < 0 or not of_type(table, state, target, types):
        return foe
    if op == OP_DESTROY:
        destroy_monster(table, rules, state, piles, counters, events, np.int64(target), card)
    elif op == OP_PUSH:
        push_back(rules, state, events, np.int64(target), amount, np.int64(0))
    else:
        change_monster(state, events, np.int64(target), op, amount, arg, lasting)
    return foe


@rules_kernel
def effect_summon(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    source: EngineInt,
    near: EngineInt,
    by_card: EngineInt,
    types: EngineInt,
) -> int:
    """An effect summon: player p summons one of p's monsters from hand (`FROM_HAND`) or deck (`FROM_DECK`) onto
    the unoccupied, non-summoning space nearest `near`. Its summoning requirements must be met unless
    `effect_summon_requirements=ignored`; which monster is p's answer to D_EFFECT_SUMMON (`legal_effect_summons`
    lists them; the space is the rule's, and with none free the summon fails after the answer). It is not the
    turn's conventional summon. Its own lasting clauses hold and its one-off clauses happen, except an effect
    summon of its own (one summon does not chain into another). Returns the slot, or -1 (no monster, no space)."""
    side = state.side
    game = state.game
    ec = state.ec
    library = piles[PILE_LIBRARY]
    chosen = ask(table, clauses, rules, state, piles, np.int64(D_EFFECT_SUMMON), p, source, np.int64(0), types)
    pick = at_position(chosen) if chosen >= 0 else -1
    space = free_space_near(rules, state, near, p) if pick >= 0 else -1
    if space < 0:
        log_event(events, ec, game[G_TURN], p, EV_NO_SUMMON, by_card, source, 1 if pick >= 0 else 0)
        return -1
    if source == FROM_HAND:
        card = remove_from_hand(state, p, np.int64(pick))
    else:
        card = library[p, pick]
        for j in range(pick, side[p, S_DECK_N] - 1):
            library[p, j] = library[p, j + 1]
        side[p, S_DECK_N] -= 1
    m = place_monster(state, card, p, space)
    if m < 0:
        return -1
    count_play(counters, p, card, game[G_TURN])
    log_event(
        events,
        ec,
        game[G_TURN],
        p,
        EV_SUMMON,
        card,
        space,
        SUMMON_EFFECT_HAND if source == FROM_HAND else SUMMON_EFFECT_DECK,
    )
    for i in range(table[card, T_NCLAUSE]):
        op = clauses[card, i, C_OP]
        if clauses[card, i, C_FOE] == 0 and lasting_op(op):
            change_monster(
                state, events, m, op, clauses[card, i, C_AMOUNT], clauses[card, i, C_ARG], np.int64(PERMANENT)
            )
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    foe: EngineInt
    foe = -2
    for i in range(table[card, T_NCLAUSE]):
        if game[G_OVER] == 1:
            break
        op = clauses[card, i, C_OP]
        if clauses[card, i, C_FOE] == 0 and lasting_op(op):
            continue
        foe = apply_one_clause(
            table, clauses, rules, state, piles, counters, events, card, i, p, m, np.int64(PERMANENT), np.int64(foe)
        )
    return m


@rules_kernel
def apply_clauses(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    card: EngineInt,
    p: EngineInt,
    subject: EngineInt,
    lasting: EngineInt,
    bracket: EngineInt,
    foe_only: EngineInt,
) -> None:
    """Player p's `card` takes effect on `subject` (a monster slot): its clauses under `bracket` (-1: no brackets).

    Without `foe` a clause acts on the subject; with `foe` on one enemy monster adjacent to it (chosen once per
    activation). ST, move and cannot-attack changes last (`PERMANENT`) or end with the turn (`THIS_TURN`).
    `foe_only` = 1 skips the subject's own lasting clauses (a summoned monster already has them).
    """
    game = state.game
    foe: EngineInt  # typed for mypy only: an int at first, then an EngineInt
    foe = -2  # chosen once, at the first `foe` clause
    for i in range(table[card, T_NCLAUSE]):
        if clauses[card, i, C_BRACKET] != bracket:
            continue
        if game[G_OVER] == 1:
            return
        op = clauses[card, i, C_OP]
        if foe_only == 1 and clauses[card, i, C_FOE] == 0 and lasting_op(op):
            continue
        if op == OP_SUMMON:
            near = summon_anchor(rules, state, subject, p)
            effect_summon(
                table,
                clauses,
                rules,
                state,
                piles,
                counters,
                events,
                p,
                clauses[card, i, C_ARG],
                near,
                card,
                clauses[card, i, C_TYPES],
            )
            continue
        foe = apply_one_clause(
            table, clauses, rules, state, piles, counters, events, card, i, p, subject, lasting, np.int64(foe)
        )


# =====================================================================================================================
# The rules: summoning, equipment, traps, channeled effects, movement, combat
# =====================================================================================================================


@inline_kernel
def summoning_space_open(rules: Any, state: Any, p: EngineInt, reactionary: EngineBool) -> EngineBool:
    """Whether p may summon onto its summoning space: not held by p's own monster, and an enemy on it has not
    attacked p's generator during its stay there (with `hit_generator_blocks=for_good`: ever), unless this is a
    reactionary summon."""
    opts = rules.opts
    mon = state.mon
    cells = state.cells
    occupant = cells[opts[O_SUMMONING + p], C_OCC]
    if occupant < 0:
        return True
    if mon[occupant, M_OWNER] == p:
        return False
    return reactionary or mon[occupant, M_HIT_GEN] == 0


@rules_kernel
def summon_monster(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    h: EngineInt,
    how: EngineInt,
) -> int:
    """Summon the monster at p's hand position h onto p's summoning space (checks are the caller's): an enemy
    standing there is pushed one space back; then the monster's clauses take effect. Returns its slot."""
    opts = rules.opts
    cells = state.cells
    side = state.side
    game = state.game
    ec = state.ec
    space = opts[O_SUMMONING + p]
    occupant = cells[space, C_OCC]
    if occupant >= 0:
        push_back(rules, state, events, occupant, np.int64(1), np.int64(1))
        if cells[space, C_OCC] >= 0:
            return -1  # nowhere to push it: the summon cannot happen
    card = remove_from_hand(state, p, h)
    m = place_monster(state, card, p, space)
    count_play(counters, p, card, game[G_TURN])
    log_event(events, ec, game[G_TURN], p, EV_SUMMON, card, space, how)
    side[p, S_MAIN_DONE] = 1
    # Lasting clauses on the monster itself, then foe, one-off and player clauses.
    for i in range(table[card, T_NCLAUSE]):
        op = clauses[card, i, C_OP]
        if clauses[card, i, C_FOE] == 0 and lasting_op(op):
            change_monster(
                state, events, m, op, clauses[card, i, C_AMOUNT], clauses[card, i, C_ARG], np.int64(PERMANENT)
            )
    apply_clauses(
        table,
        clauses,
        rules,
        state,
        piles,
        counters,
        events,
        card,
        p,
        m,
        np.int64(PERMANENT),
        np.int64(-1),
        np.int64(1),
    )
    return m


@inline_kernel
def free_support(rules: Any, state: Any, p: EngineInt) -> int:
    """p's first free support space, or -1."""
    opts = rules.opts
    sup = state.sup
    for k in range(opts[O_SUPPORT]):
        if sup[p, k, SU_CARD] < 0:
            return k
    return -1


@rules_kernel
def equip(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    h: EngineInt,
    m: EngineInt,
) -> None:
    """Play the equipment at hand position h onto a free support space, equipped to p's monster m (checks are the
    caller's): its lasting changes hold on its active turns for `turns` turns; its other clauses happen now."""
    mon = state.mon
    sup = state.sup
    side = state.side
    game = state.game
    ec = state.ec
    k = free_support(rules, state, p)
    card = remove_from_hand(state, p, h)
    sup[p, k, SU_CARD] = card
    sup[p, k, SU_MON] = m
    sup[p, k, SU_LEFT] = table[card, T_TURNS]
    sup[p, k, SU_PLACED] = game[G_TURN]
    equipment_changes(table, state, card, m, np.int64(1))
    count_play(counters, p, card, game[G_TURN])
    side[p, S_MAIN_DONE] = 1
    log_event(events, ec, game[G_TURN], p, EV_EQUIP, card, mon[m, M_CARD], table[card, T_TURNS])
    apply_clauses(
        table,
        clauses,
        rules,
        state,
        piles,
        counters,
        events,
        card,
        p,
        m,
        np.int64(PERMANENT),
        np.int64(-1),
        np.int64(0),
    )


@inline_kernel
def trap_space_ok(rules: Any, state: Any, p: EngineInt, space: EngineInt) -> bool:
    """A trap may go on an unoccupied, trap-free, non-summoning space adjacent to one of p's monsters."""
    mp = rules.mp
    mon = state.mon
    cells = state.cells
    if cells[space, C_OCC] >= 0 or cells[space, C_TRAP] >= 0 or mp[space, MP_KIND] == KIND_SUMMONING:
        return False
    for k in range(4):
        nxt = mp[space, MP_ADJ0 + k]
        if nxt >= 0 and cells[nxt, C_OCC] >= 0 and mon[cells[nxt, C_OCC], M_OWNER] == p:
            return True
    return False


@rules_kernel
def set_trap(state: Any, counters: IntArray, events: IntArray, p: EngineInt, h: EngineInt, space: EngineInt) -> None:
    """Set the trap at hand position h face down on `space` (checks are the caller's)."""
    cells = state.cells
    side = state.side
    game = state.game
    ec = state.ec
    card = remove_from_hand(state, p, h)
    cells[space, C_TRAP] = card
    cells[space, C_TRAP_OWNER] = p
    count_play(counters, p, card, game[G_TURN])
    side[p, S_MAIN_DONE] = 1
    log_event(events, ec, game[G_TURN], p, EV_TRAP_SET, card, space, 0)


@rules_kernel
def spring_trap(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    m: EngineInt,
) -> None:
    """Monster m ended its move on a space: an opponent's trap there springs on it (its own never does)."""
    mon = state.mon
    cells = state.cells
    game = state.game
    ec = state.ec
    space = mon[m, M_SPACE]
    card = cells[space, C_TRAP]
    if card < 0 or cells[space, C_TRAP_OWNER] == mon[m, M_OWNER]:
        return
    owner = cells[space, C_TRAP_OWNER]
    cells[space, C_TRAP] = -1
    cells[space, C_TRAP_OWNER] = -1
    to_done_zone(table, piles, owner, card)
    log_event(events, ec, game[G_TURN], owner, EV_TRAP_SPRING, card, mon[m, M_CARD], space)
    apply_clauses(
        table,
        clauses,
        rules,
        state,
        piles,
        counters,
        events,
        card,
        owner,
        m,
        np.int64(PERMANENT),
        np.int64(-1),
        np.int64(0),
    )


@rules_kernel
def place_channeled(
    table: IntArray, rules: Any, state: Any, counters: IntArray, events: IntArray, p: EngineInt, h: EngineInt
) -> None:
    """Place the channeled effect at hand position h face up on a free support space (checks are the caller's)."""
    sup = state.sup
    side = state.side
    game = state.game
    ec = state.ec
    k = free_support(rules, state, p)
    card = remove_from_hand(state, p, h)
    sup[p, k, SU_CARD] = card
    sup[p, k, SU_MON] = -1
    sup[p, k, SU_LEFT] = table[card, T_USES]
    sup[p, k, SU_PLACED] = game[G_TURN]
    side[p, S_CHANNEL_PLACED] = 1
    count_play(counters, p, card, game[G_TURN])
    log_event(events, ec, game[G_TURN], p, EV_CHANNEL_PLACE, card, -1, table[card, T_USES])


@inline_kernel
def bracket_for(table: IntArray, clauses: IntArray, card: EngineInt, st: EngineInt) -> int:
    """The index of the channeled card's ST bracket holding `st`, or -1 when none does."""
    for b in range(table[card, T_NBRACKET]):
        if clauses[card, b, C_LOW] <= st <= clauses[card, b, C_HIGH]:
            return b
    return -1


@inline_kernel
def channel_usable(table: IntArray, rules: Any, state: Any, p: EngineInt, k: EngineInt, m: EngineInt) -> bool:
    """Whether p's support card k is a channeled effect p's monster m may use now: placed on an earlier turn,
    allowed on this player's turn (Y/O), and m on p's Source Flux (blind draw: any space but a summoning space)."""
    opts = rules.opts
    mp = rules.mp
    mon = state.mon
    sup = state.sup
    game = state.game
    card = sup[p, k, SU_CARD]
    if card < 0 or table[card, T_KIND] != K_CHANNELED or sup[p, k, SU_PLACED] >= game[G_TURN]:
        return False
    need = ACTIVE_Y if game[G_ACTIVE] == p else ACTIVE_O
    if (table[card, T_ACTIVE] & need) == 0:
        return False
    if m < 0 or mon[m, M_SPACE] < 0 or mon[m, M_OWNER] != p:
        return False
    if opts[O_BLIND] == 1:
        return mp[mon[m, M_SPACE], MP_KIND] != KIND_SUMMONING
    return mon[m, M_SPACE] == opts[O_FLUX + p]


@rules_kernel
def channel(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    k: EngineInt,
    m: EngineInt,
    s: EngineInt,
) -> int:
    """Player p draws symbol s to channel support card k through monster m (checks are `channel_usable`'s).

    A symbol the card does not show is spent without activating it. Otherwise m's ST for s picks the bracket,
    whose clauses take effect for this turn, and one use is spent. Returns the bracket, or -1."""
    mon = state.mon
    sup = state.sup
    game = state.game
    ec = state.ec
    card = sup[p, k, SU_CARD]
    st = st_of(table, state, m, s, game[G_ACTIVE])
    log_event(events, ec, game[G_TURN], p, EV_SYMBOL, mon[m, M_CARD], s, st)
    if ((table[card, T_SYMBOLS] >> s) & 1) == 0:
        log_event(events, ec, game[G_TURN], p, EV_CHANNEL_MISS, card, s, 0)
        return -1
    b = bracket_for(table, clauses, card, st)
    if b < 0:
        log_event(events, ec, game[G_TURN], p, EV_CHANNEL_MISS, card, s, 1)
        return -1
    log_event(events, ec, game[G_TURN], p, EV_CHANNEL, card, mon[m, M_CARD], b)
    sup[p, k, SU_LEFT] -= 1
    apply_clauses(
        table, clauses, rules, state, piles, counters, events, card, p, m, np.int64(THIS_TURN), b, np.int64(0)
    )
    if sup[p, k, SU_LEFT] <= 0 and sup[p, k, SU_CARD] == card:
        remove_equipment(table, state, piles, events, p, k)
    return b


@llvm_inline_kernel
def step_ahead(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    p: EngineInt,
    m: EngineInt,
    space: EngineInt,
    across: EngineInt,
) -> EngineInt:
    """Where p's monster m on `space` steps next: the road's next space, or, with a choice, the space p chooses
    (D_FORK): a branch of a fork, or (`parallel_move=any_step`) its parallel space when `sidestep` allows it,
    `across` steps across taken so far this move."""
    first = forward_step(rules, space, p, 0)
    second = forward_step(rules, space, p, 1)
    side = -1
    if rules.opts[O_PARALLEL_WHEN_BLOCKED] == 0:
        side = sidestep(rules, state, m, space, across)
    if side < 0:
        if second < 0:
            return first
    elif first < 0:
        return side  # no road on: the way across is the only space to move to
    state.game[G_ACROSS] = across
    return ask(table, clauses, rules, state, piles, np.int64(D_FORK), p, space, np.int64(0), np.int64(0))


@rules_kernel
def move_monster(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    m: EngineInt,
    s: EngineInt,
) -> int:
    """Move monster m forward with symbol s: the whole distance unless it reaches the opponent's summoning space,
    an enemy is in the way (it stops before it), or an own monster is in the way and it does not swap (a swap
    counts as one space and puts the ally on the mover's space). A monster a `move parallel` clause allows may step
    across to its parallel space (`parallel_move`: at any step, or around an enemy in its way), one space each, up
    to `parallel_steps` a move. An opponent's trap where it stops springs. Returns the spaces moved."""
    opts = rules.opts
    mon = state.mon
    cells = state.cells
    game = state.game
    ec = state.ec
    p = mon[m, M_OWNER]
    active = game[G_ACTIVE]
    log_event(events, ec, game[G_TURN], p, EV_SYMBOL, mon[m, M_CARD], s, st_of(table, state, m, s, active))
    left = move_distance(table, state, m, s, active)
    start = mon[m, M_SPACE]
    here = start
    moved = 0
    goal = opts[O_SUMMONING + 1 - p]
    across = 0
    mp = rules.mp
    while left > 0 and here != goal:
        nxt = step_ahead(table, clauses, rules, state, piles, p, m, here, across)
        if nxt < 0:
            break
        occupant = cells[nxt, C_OCC]
        if (
            nxt == mp[here, MP_PARALLEL]
            and nxt != forward_step(rules, here, p, 0)
            and nxt != forward_step(rules, here, p, 1)
            and occupant < 0
        ):
            # Across by choice (`parallel_move=any_step`: D_FORK listed it): one space of movement.
            across += 1
            log_event(events, ec, game[G_TURN], p, EV_SIDESTEP, mon[m, M_CARD], here, nxt)
        elif occupant >= 0 and mon[occupant, M_OWNER] != p:
            # An enemy in the way: it stops, but with `parallel_move=when_blocked` and `move parallel` it steps
            # across to the parallel space instead (one space).
            if opts[O_PARALLEL_WHEN_BLOCKED] == 0:
                break
            nxt = sidestep(rules, state, m, here, across)
            if nxt < 0:
                break
            across += 1
            log_event(events, ec, game[G_TURN], p, EV_SIDESTEP, mon[m, M_CARD], here, nxt)
            occupant = -1
        web = cells[nxt, C_WEB]
        if web >= 0 and web != p and opts[O_WEB_BLOCKS] == 1:
            break  # `web_hinders=block`: an opponent's web bars the space
        if occupant >= 0:
            if (
                ask(table, clauses, rules, state, piles, np.int64(D_SWAP), p, occupant, np.int64(0), np.int64(0))
                == STOP
            ):
                break
            cells[here, C_OCC] = occupant
            mon[occupant, M_SPACE] = here
            leave_space(rules, state, occupant)
            log_event(events, ec, game[G_TURN], p, EV_SWAP, mon[occupant, M_CARD], nxt, here)
        else:
            cells[here, C_OCC] = -1
        cells[nxt, C_OCC] = m
        mon[m, M_SPACE] = nxt
        here = nxt
        left -= 1
        moved += 1
        if web >= 0 and web != p:
            log_event(events, ec, game[G_TURN], p, EV_WEBBED, mon[m, M_CARD], web, nxt)
            break  # `web_hinders=stop`: caught in an opponent's web, the move ends here
    log_event(events, ec, game[G_TURN], p, EV_MOVE, mon[m, M_CARD], start, here)
    if moved > 0:
        leave_space(rules, state, m)  # once per move, not per step: the loop is the hot path
    if moved > 0 and cells[here, C_TRAP] >= 0:  # checked here too: most moves end on a trap-free space
        spring_trap(table, clauses, rules, state, piles, counters, events, m)
    return moved


@rules_kernel
def attack_monster(
    table: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    m: EngineInt,
    e: EngineInt,
    s: EngineInt,
) -> int:
    """Monster m attacks enemy e (adjacent, or on its parallel space: `attack_across`) with symbol s: the lower ST is
    destroyed; a tie follows `combat_tie`. Returns 1 when the attacker wins, -1 when it loses, 0 for a tie with no
    winner, 2 when both fall."""
    opts = rules.opts
    mon = state.mon
    game = state.game
    ec = state.ec
    p = mon[m, M_OWNER]
    active = game[G_ACTIVE]
    mine = st_of(table, state, m, s, active)
    theirs = st_of(table, state, e, s, active)
    attacker = mon[m, M_CARD]
    defender = mon[e, M_CARD]
    log_event(events, ec, game[G_TURN], p, EV_SYMBOL, attacker, s, mine)
    log_event(events, ec, game[G_TURN], p, EV_ATTACK, attacker, defender, theirs)
    counters[p, attacker, ATTACKED] += 1
    outcome = 0
    if mine > theirs:
        outcome = 1
    elif mine < theirs:
        outcome = -1
    elif opts[O_TIE] == TIE_BOTH:
        outcome = 2
    elif opts[O_TIE] == TIE_ATTACKER:
        outcome = 1
    elif opts[O_TIE] == TIE_DEFENDER:
        outcome = -1
    else:
        log_event(events, ec, game[G_TURN], p, EV_TIE, attacker, defender, mine)
    if outcome == 1 or outcome == 2:
        destroy_monster(table, rules, state, piles, counters, events, e, attacker)
    if outcome == -1 or outcome == 2:
        destroy_monster(table, rules, state, piles, counters, events, m, defender)
    return outcome


@rules_kernel
def attack_generator(
    table: IntArray, state: Any, counters: IntArray, events: IntArray, m: EngineInt, s: EngineInt
) -> int:
    """Monster m, on the opponent's summoning space, attacks their SOURCE generator with symbol s: the ST comes off
    their SourcePoints (the caller ends the turn). Returns the damage."""
    mon = state.mon
    side = state.side
    game = state.game
    ec = state.ec
    p = mon[m, M_OWNER]
    q = 1 - p
    card = mon[m, M_CARD]
    damage = st_of(table, state, m, s, game[G_ACTIVE])
    log_event(events, ec, game[G_TURN], p, EV_SYMBOL, card, s, damage)
    side[q, S_SP] -= damage
    counters[p, card, ATTACKED] += 1
    counters[p, card, DAMAGE_DEALT] += damage
    mon[m, M_HIT_GEN] = 1
    side[q, S_GEN_ATTACKED] = 1
    log_event(events, ec, game[G_TURN], p, EV_GEN_ATTACK, card, side[q, S_SP], damage)
    if side[q, S_SP] <= 0 and game[G_OVER] == 0:
        game[G_OVER] = 1
        game[G_WINNER] = p
    return damage


# =====================================================================================================================
# Symbols
# =====================================================================================================================


@inline_kernel
def symbol_unused(state: Any, p: EngineInt, s: EngineInt) -> bool:
    side = state.side
    return ((side[p, S_SYMBOLS] >> s) & 1) == 1


@inline_kernel
def spend_symbol(state: Any, p: EngineInt, s: EngineInt) -> None:
    side = state.side
    side[p, S_SYMBOLS] &= ~(1 << s)


@rules_kernel
def draw_blind_symbol(state: Any, p: EngineInt) -> int:
    """The next face-down symbol of p's shuffled symbol deck (blind draw), spent; -1 when none is left."""
    side = state.side
    while side[p, S_NEXT] < SYMBOLS:
        s = side[p, S_ORDER0 + side[p, S_NEXT]]
        side[p, S_NEXT] += 1
        if symbol_unused(state, p, s):
            spend_symbol(state, p, s)
            return s
    return -1


@inline_kernel
def unused_count(state: Any, p: EngineInt) -> int:
    count = 0
    for s in range(SYMBOLS):
        if symbol_unused(state, p, s):
            count += 1
    return count


# =====================================================================================================================
# Decisions: the legal actions of each kind, and taking one
#
# A decision is open in the state (game[G_DECISION], taken by player game[G_ACTOR]): `legal_actions` lists its legal
# actions into an out buffer (state.actions in the match loop) in a fixed order, STOP last where stopping is legal,
# and `apply` takes one of them. The lists hold what the rules allow; which of them a player takes is the policy's
# business (`choose`, in the policies' section below): no rule code reads S_POLICY.
# =====================================================================================================================


# ---- action codes for the symbol phase ------------------------------------------------------------------------------
A_NONE, A_MOVE, A_ATTACK, A_CHANNEL, A_GENERATOR = 0, 1, 2, 3, 4


@inline_kernel
def pack_action(code: EngineInt, x: EngineInt, y: EngineInt, s: EngineInt) -> EngineInt:
    """One action as one word: a code (a card kind or A_*), two places (hand position, monster slot, space or
    support space; -1 for none) and a symbol (-1 for none or a blind draw). Packed so that the listed order is the
    order the rules list them in, and STOP (-1) stays apart."""
    return (code << 17) | ((x + 1) << 10) | ((y + 1) << 3) | (s + 1)


@inline_kernel
def action_code(action: EngineInt) -> EngineInt:
    return action >> 17


@inline_kernel
def action_x(action: EngineInt) -> EngineInt:
    return ((action >> 10) & 127) - 1


@inline_kernel
def action_y(action: EngineInt) -> EngineInt:
    return ((action >> 3) & 127) - 1


@inline_kernel
def action_s(action: EngineInt) -> EngineInt:
    return (action & 7) - 1


@inline_kernel
def pack_at(position: EngineInt, card: EngineInt) -> EngineInt:
    """A D_EFFECT_SUMMON answer as one word: the monster at `position` of the hand or deck, and its card id (so a
    policy weighs the card without reading the deck; a hand or deck may hold more than `pack_action`'s 126 places)."""
    return (position << 32) | card


@inline_kernel
def at_position(action: EngineInt) -> EngineInt:
    return action >> 32


@inline_kernel
def at_card(action: EngineInt) -> EngineInt:
    return action & 0xFFFFFFFF


@inline_kernel
def open_decision(state: Any, decision: EngineInt, p: EngineInt) -> None:
    """Open a decision of kind `decision` for player p."""
    state.game[G_DECISION] = decision
    state.game[G_ACTOR] = p


@inline_kernel
def open_question(state: Any, decision: EngineInt, p: EngineInt, asked: EngineInt) -> tuple[EngineInt, EngineInt]:
    """Open a question a rule asks while it resolves (D_FORK, D_SWAP and the effect questions) for player p, about
    `asked` (game[G_ASKED]); returns the decision under way (kind, actor), which `close_question` opens again."""
    game = state.game
    outer = (game[G_DECISION], game[G_ACTOR])
    open_decision(state, decision, p)
    game[G_ASKED] = asked
    return outer


@inline_kernel
def close_question(state: Any, outer: tuple[EngineInt, EngineInt]) -> None:
    """Open again the decision under way that `open_question` returned."""
    state.game[G_DECISION] = outer[0]
    state.game[G_ACTOR] = outer[1]


@rules_kernel
def legal_main(table: IntArray, rules: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """p's main actions (D_MAIN): summons first (hand order; reactionary when p's generator was attacked, else
    conventional for monsters whose requirements p's monsters meet), then, in hand order, each equipment card onto
    each own monster (slot order) and each trap onto each space it may go on; STOP last. 0 when the main action was
    taken or the match is over."""
    side = state.side
    hand = state.hand
    game = state.game
    if side[p, S_MAIN_DONE] == 1 or game[G_OVER] == 1:
        return 0
    conventional_open = summoning_space_open(rules, state, p, False)
    reactionary_open = side[p, S_REACTIONARY] == 1 and summoning_space_open(rules, state, p, True)
    monsters, terrestrial, otherworldly = monsters_on_map(rules, state, p)
    support = free_support(rules, state, p)
    held = side[p, S_HAND]
    n = 0
    if conventional_open or reactionary_open:
        for h in range(held):
            card = hand[p, h]
            if table[card, T_KIND] != K_MONSTER:
                continue
            if reactionary_open:
                out[n] = pack_action(K_MONSTER, h, SUMMON_REACTIONARY, -1)
                n += 1
            elif requirements_met(table, card, terrestrial, otherworldly):
                out[n] = pack_action(K_MONSTER, h, SUMMON_CONVENTIONAL, -1)
                n += 1
    if monsters > 0:
        trap_spaces = -1  # the spaces a trap may go on, as bits: worked out at the first trap card
        for h in range(held):
            card = hand[p, h]
            kind = table[card, T_KIND]
            if kind == K_EQUIPMENT:
                if support < 0 or not requirements_met(table, card, terrestrial, otherworldly):
                    continue
                slots = game[G_MONSTERS + p]
                while slots != 0:
                    m = lowest_set_bit(slots)
                    slots &= slots - 1
                    out[n] = pack_action(K_EQUIPMENT, h, m, -1)
                    n += 1
            elif kind == K_TRAP:
                if not requirements_met(table, card, terrestrial, otherworldly):
                    continue
                if trap_spaces < 0:
                    trap_spaces = 0
                    for space in range(rules.opts[O_SPACES]):
                        if trap_space_ok(rules, state, p, space):
                            trap_spaces |= 1 << space
                spaces = trap_spaces
                while spaces != 0:
                    out[n] = pack_action(K_TRAP, h, lowest_set_bit(spaces), -1)
                    n += 1
                    spaces &= spaces - 1
    out[n] = STOP
    return n + 1


@inline_kernel
def apply_main(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    action: EngineInt,
) -> None:
    """Take a main action `legal_main` listed (STOP: none, and the main action stays open for later in the turn)."""
    if action == STOP:
        return
    kind = action_code(action)
    h = action_x(action)
    target = action_y(action)
    if kind == K_MONSTER:
        summon_monster(table, clauses, rules, state, piles, counters, events, p, h, target)
    elif kind == K_EQUIPMENT:
        equip(table, clauses, rules, state, piles, counters, events, p, h, target)
    else:
        set_trap(state, counters, events, p, h, target)


@inline_kernel
def legal_channel_cards(table: IntArray, rules: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """p's channeled effect cards in hand (hand positions, D_CHANNEL_CARD), then STOP; 0 when p placed one this
    turn or has no free support space."""
    side = state.side
    hand = state.hand
    if side[p, S_CHANNEL_PLACED] == 1 or free_support(rules, state, p) < 0:
        return 0
    n = 0
    for h in range(side[p, S_HAND]):
        if table[hand[p, h], T_KIND] == K_CHANNELED:
            out[n] = h
            n += 1
    out[n] = STOP
    return n + 1


@inline_kernel
def list_with_symbols(
    out: IntArray,
    n: int,
    action: EngineInt,
    m: EngineInt,
    target: EngineInt,
    unused: EngineInt,
    blind: EngineBool,
) -> int:
    """Write one symbol action into `out` from row n, once per unused symbol (once with symbol -1 under a blind draw:
    the symbol is drawn when it is taken); returns the next free row. `legal_symbols` and `legal_foe_channels` list
    through it."""
    if blind:
        out[n] = pack_action(action, m, target, -1)
        return n + 1
    for s in range(SYMBOLS):
        if (unused >> s) & 1:
            out[n] = pack_action(action, m, target, s)
            n += 1
    return n


@rules_kernel
def legal_symbols(table: IntArray, rules: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """p's symbol actions (D_SYMBOL), per own monster (slot order): a move (not from the opponent's summoning space,
    where its road ends, nor while a `cannot move` holds), an attack on each adjacent enemy (if it may attack), then on
    an enemy on its parallel space when `attack_across` allows it, a channel through each usable channeled effect, a
    generator attack (from the opponent's summoning space, if it may attack); each with every unused symbol (one action
    with symbol -1 under a blind draw: the symbol is drawn when it is taken). STOP last. 0 when p has no unused symbol
    or the match is over."""
    opts = rules.opts
    mp = rules.mp
    mon = state.mon
    cells = state.cells
    side = state.side
    game = state.game
    unused = side[p, S_SYMBOLS]
    if unused == 0 or game[G_OVER] == 1:
        return 0
    blind = opts[O_BLIND] == 1
    goal = opts[O_SUMMONING + 1 - p]
    flux = opts[O_FLUX + p]
    active = game[G_ACTIVE]
    n = 0
    slots = game[G_MONSTERS + p]
    while slots != 0:
        m = lowest_set_bit(slots)
        slots &= slots - 1
        space = mon[m, M_SPACE]
        attacker = may_attack(state, m, active)
        for action in range(A_MOVE, A_GENERATOR + 1):
            if action == A_MOVE and (space == goal or not may_move(state, m, active)):
                continue
            if action == A_CHANNEL and not blind and space != flux:
                continue  # `channel_usable` asks for the flux: no need to ask it for each support space
            if (action == A_ATTACK or action == A_GENERATOR) and not attacker:
                continue
            if action == A_GENERATOR and space != goal:
                continue
            targets = 1
            if action == A_ATTACK:
                targets = 5
            elif action == A_CHANNEL:
                targets = opts[O_SUPPORT]
            for t in range(targets):
                target = -1
                if action == A_ATTACK:
                    # The adjacent spaces, then (`parallel_attacks`) the parallel space it may attack across to.
                    nxt = mp[space, MP_ADJ0 + t] if t < 4 else attack_across(rules, state, m, space, active)
                    if nxt < 0 or cells[nxt, C_OCC] < 0 or mon[cells[nxt, C_OCC], M_OWNER] == p:
                        continue
                    target = cells[nxt, C_OCC]
                elif action == A_CHANNEL:
                    if not channel_usable(table, rules, state, p, t, m):
                        continue
                    target = t
                n = list_with_symbols(out, n, action, m, target, unused, blind)
    out[n] = STOP
    return n + 1


@inline_kernel
def legal_foe_channels(table: IntArray, rules: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """At the start of the opponent's turn, p's channels with symbols left unused (D_FOE_CHANNEL): per own monster
    (slot order), each support space whose channeled effect it may use now, with each unused symbol (one action
    with symbol -1 under a blind draw); STOP last. 0 when p has no unused symbol or the match is over."""
    opts = rules.opts
    side = state.side
    game = state.game
    unused = side[p, S_SYMBOLS]
    if unused == 0 or game[G_OVER] == 1:
        return 0
    blind = opts[O_BLIND] == 1
    n = 0
    slots = game[G_MONSTERS + p]
    while slots != 0:
        m = lowest_set_bit(slots)
        slots &= slots - 1
        for k in range(opts[O_SUPPORT]):
            if channel_usable(table, rules, state, p, k, m):
                n = list_with_symbols(out, n, A_CHANNEL, m, k, unused, blind)
    out[n] = STOP
    return n + 1


@inline_kernel
def legal_forks(rules: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """Where p's monster on space game[G_ASKED] may step next (D_FORK): the road's next space or the two branches of
    a fork, then, with `parallel_move=any_step`, its parallel space when `sidestep` allows it (game[G_ACROSS] steps
    across taken this move)."""
    game = state.game
    space = game[G_ASKED]
    n = 0
    for k in range(2):
        nxt = forward_step(rules, space, p, k)
        if nxt >= 0:
            out[n] = nxt
            n += 1
    m = state.cells[space, C_OCC]
    if rules.opts[O_PARALLEL_WHEN_BLOCKED] == 0 and m >= 0:
        across = sidestep(rules, state, m, space, game[G_ACROSS])
        if across >= 0:
            out[n] = across
            n += 1
    return n


@inline_kernel
def legal_swaps(state: Any, out: IntArray) -> int:
    """Swap places with the own monster in the way, slot game[G_ASKED], or STOP: the move ends before it (D_SWAP)."""
    out[0] = state.game[G_ASKED]
    out[1] = STOP
    return 2


@inline_kernel
def legal_discards(state: Any, p: EngineInt, out: IntArray) -> int:
    """Every hand position (D_DISCARD: over the hand limit at the end of the turn, one card must go)."""
    n = state.side[p, S_HAND]
    for h in range(n):
        out[h] = h
    return n


@rules_kernel
def legal_foes(table: IntArray, rules: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """The enemy monsters (not p's) adjacent to the subject, monster game[G_ASKED], of the types in
    game[G_ASKED_TYPES] (0: any), in the map's adjacency order: their slots (D_FOE)."""
    mp = rules.mp
    mon = state.mon
    cells = state.cells
    game = state.game
    space = mon[game[G_ASKED], M_SPACE]
    types = game[G_ASKED_TYPES]
    n = 0
    for k in range(4):
        nxt = mp[space, MP_ADJ0 + k]
        if nxt < 0:
            continue
        e = cells[nxt, C_OCC]
        if e < 0 or mon[e, M_OWNER] == p or not of_type(table, state, e, types):
            continue
        out[n] = e
        n += 1
    return n


@rules_kernel
def legal_webs(rules: Any, state: Any, out: IntArray) -> int:
    """The spaces adjacent to the subject, monster game[G_ASKED], with no monster, no web tile and no summoning
    space, in the map's adjacency order (D_WEB)."""
    mp = rules.mp
    mon = state.mon
    cells = state.cells
    here = mon[state.game[G_ASKED], M_SPACE]
    n = 0
    for k in range(4):
        s = mp[here, MP_ADJ0 + k]
        if s < 0 or cells[s, C_OCC] >= 0 or cells[s, C_WEB] >= 0 or mp[s, MP_KIND] == KIND_SUMMONING:
            continue
        out[n] = s
        n += 1
    return n


@rules_kernel
def legal_recalls(table: IntArray, state: Any, piles: IntArray, out: IntArray) -> int:
    """The cards in player game[G_ASKED]'s Done Zone of the kind game[G_ASKED_KIND] - 1 (0: any) and of the types in
    game[G_ASKED_TYPES] (0: any): each card id once per copy there, in card order, so a card's copies stand together
    (D_RECALL). A Done Zone of more copies than `out` holds (decks of thousands of cards) lists the first."""
    game = state.game
    tokens = piles[PILE_TOKENS]
    cards = table.shape[0]
    whose = game[G_ASKED]
    kind = game[G_ASKED_KIND]
    types = game[G_ASKED_TYPES]
    n = 0
    for c in range(cards):
        copies = tokens[whose, cards + c]
        if copies <= 0 or (kind > 0 and table[c, T_KIND] != kind - 1):
            continue
        if types != 0 and (table[c, T_TYPE] & types) == 0:
            continue
        for _ in range(min(copies, out.shape[0] - n)):
            out[n] = c
            n += 1
    return n


@rules_kernel
def legal_effect_summons(table: IntArray, rules: Any, state: Any, piles: IntArray, p: EngineInt, out: IntArray) -> int:
    """p's monsters in the hand (game[G_ASKED] FROM_HAND) or deck (FROM_DECK), in their order there, of the types in
    game[G_ASKED_TYPES] (0: any) and, unless `effect_summon_requirements=ignored`, whose requirements p's monsters
    meet: `pack_at(position, card)` each (D_EFFECT_SUMMON)."""
    opts = rules.opts
    side = state.side
    hand = state.hand
    game = state.game
    library = piles[PILE_LIBRARY]
    source = game[G_ASKED]
    types = game[G_ASKED_TYPES]
    terrestrial, otherworldly = occupied_spaces(rules, state, p)
    ignore = opts[O_EFFECT_SUMMON_IGNORES] == 1
    first = 0
    last = side[p, S_HAND]
    if source == FROM_DECK:
        first = side[p, S_DECK]
        last = side[p, S_DECK_N]
    n = 0
    for j in range(first, last):
        card = hand[p, j] if source == FROM_HAND else library[p, j]
        if table[card, T_KIND] != K_MONSTER:
            continue
        if not ignore and not requirements_met(table, card, terrestrial, otherworldly):
            continue
        if types != 0 and (table[card, T_TYPE] & types) == 0:
            continue
        out[n] = pack_at(j, card)
        n += 1
    return n


@inline_kernel
def apply_symbol(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    action: EngineInt,
) -> None:
    """Take a symbol action (D_SYMBOL or D_FOE_CHANNEL): spend its symbol (a blind draw draws the next face-down
    one), then move, attack, channel or attack the generator. STOP takes nothing."""
    if action == STOP:
        return
    code = action_code(action)
    m = action_x(action)
    target = action_y(action)
    s = action_s(action)
    if s < 0:
        s = draw_blind_symbol(state, p)
    else:
        spend_symbol(state, p, s)
    if code == A_MOVE:
        move_monster(table, clauses, rules, state, piles, counters, events, m, s)
    elif code == A_ATTACK:
        attack_monster(table, rules, state, piles, counters, events, m, target, s)
    elif code == A_CHANNEL:
        channel(table, clauses, rules, state, piles, counters, events, p, target, m, s)
    else:
        attack_generator(table, state, counters, events, m, s)


@rules_kernel
def discard(table: IntArray, state: Any, piles: IntArray, events: IntArray, p: EngineInt, h: EngineInt) -> None:
    """Discard the card at hand position h to the Done Zone."""
    card = remove_from_hand(state, p, h)
    to_done_zone(table, piles, p, card)
    log_event(events, state.ec, state.game[G_TURN], p, EV_DISCARD, card, -1, 0)


@rules_kernel
def legal_actions(table: IntArray, rules: Any, state: Any, piles: IntArray, out: IntArray) -> EngineInt:
    """The open decision's legal actions into `out`, in a fixed order (see D_*): how many (0: none is open). The
    piles are read for D_RECALL (the Done Zones) and D_EFFECT_SUMMON (the deck)."""
    p = state.game[G_ACTOR]
    decision = state.game[G_DECISION]
    if decision == D_SYMBOL:
        return legal_symbols(table, rules, state, p, out)
    if decision == D_MAIN:
        return legal_main(table, rules, state, p, out)
    if decision == D_CHANNEL_CARD:
        return legal_channel_cards(table, rules, state, p, out)
    if decision == D_FOE_CHANNEL or decision == D_FOE_RESPONSE:
        return legal_foe_channels(table, rules, state, p, out)
    if decision == D_DISCARD:
        return legal_discards(state, p, out)
    if decision == D_FORK:
        return legal_forks(rules, state, p, out)
    if decision == D_SWAP:
        return legal_swaps(state, out)
    if decision == D_FOE:
        return legal_foes(table, rules, state, p, out)
    if decision == D_WEB:
        return legal_webs(rules, state, out)
    if decision == D_RECALL:
        return legal_recalls(table, state, piles, out)
    if decision == D_EFFECT_SUMMON:
        return legal_effect_summons(table, rules, state, piles, p, out)
    return 0


@rules_kernel
def apply(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    action: EngineInt,
) -> None:
    """Take one action `legal_actions` listed for the open decision, and close it."""
    game = state.game
    p = game[G_ACTOR]
    decision = game[G_DECISION]
    game[G_DECISION] = D_NONE
    if decision == D_SYMBOL or decision == D_FOE_CHANNEL or decision == D_FOE_RESPONSE:
        apply_symbol(table, clauses, rules, state, piles, counters, events, p, action)
    elif decision == D_MAIN:
        apply_main(table, clauses, rules, state, piles, counters, events, p, action)
    elif decision == D_CHANNEL_CARD:
        if action != STOP:
            place_channeled(table, rules, state, counters, events, p, action)
    elif decision == D_DISCARD:
        discard(table, state, piles, events, p, action)


# =====================================================================================================================
# Asking: a rule opens a decision, lists nothing itself and takes the deciding player's answer from `choose` (the
# policies' one door, below: no rule reads which policy a side plays)
# =====================================================================================================================


@inline_kernel
def decide(
    table: IntArray, clauses: IntArray, rules: Any, state: Any, piles: IntArray, decision: EngineInt, p: EngineInt
) -> EngineInt:
    """A decision of the turn (D_MAIN, D_CHANNEL_CARD, D_SYMBOL, D_FOE_CHANNEL, D_FOE_RESPONSE, D_DISCARD): open it
    for player p, take p's answer (`choose`: one of the actions `legal_actions` lists, STOP when it lists none) and
    close it; the caller takes the answer (`apply`'s appliers) with no decision open."""
    open_decision(state, decision, p)
    action = choose(table, clauses, rules, state, piles)
    state.game[G_DECISION] = D_NONE
    return action


@inline_kernel
def ask(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    question: EngineInt,
    p: EngineInt,
    asked: EngineInt,
    kind: EngineInt,
    types: EngineInt,
) -> EngineInt:
    """A question a rule asks while it resolves (D_FORK, D_SWAP, D_FOE, D_WEB, D_RECALL, D_EFFECT_SUMMON; what each
    lists: D_*), for player p about `asked` (game[G_ASKED]), of the card kind `kind` (game[G_ASKED_KIND], D_RECALL)
    and the types `types` (game[G_ASKED_TYPES]: D_FOE, D_RECALL, D_EFFECT_SUMMON; 0: any): p's answer (`choose`), or
    STOP (-1) when nothing is listed (no policy picks or draws). The decision under way (if any) is open
    again afterwards."""
    outer = open_question(state, question, p, asked)
    state.game[G_ASKED_KIND] = kind
    state.game[G_ASKED_TYPES] = types
    action = choose(table, clauses, rules, state, piles)
    close_question(state, outer)
    return action


@inline_kernel
def decide_symbol_action(
    table: IntArray, clauses: IntArray, rules: Any, state: Any, piles: IntArray, p: EngineInt
) -> None:
    """p's symbol decision (D_SYMBOL), its answer unpacked into `choice` (action, monster, target, symbol; A_NONE for
    STOP; symbol -1: drawn blind when taken)."""
    choice = state.choice
    action = decide(table, clauses, rules, state, piles, np.int64(D_SYMBOL), p)
    if action == STOP:
        choice[0] = A_NONE
        choice[1] = -1
        choice[2] = -1
        choice[3] = -1
    else:
        choice[0] = action_code(action)
        choice[1] = action_x(action)
        choice[2] = action_y(action)
        choice[3] = action_s(action)


# =====================================================================================================================
# A turn
# =====================================================================================================================


@rules_kernel
def main_action(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
) -> None:
    """p's one summon, equipment card or trap for the turn (D_MAIN), if any is legal and p takes one; then the
    opponent's response window."""
    action = decide(table, clauses, rules, state, piles, np.int64(D_MAIN), p)
    if action != STOP:
        apply_main(table, clauses, rules, state, piles, counters, events, p, action)
        foe_response_window(table, clauses, rules, state, piles, counters, events, p)


@inline_kernel
def maybe_place_channeled(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
) -> None:
    """Up to one channeled effect card per turn onto a free support space (D_CHANNEL_CARD), as p chooses; then the
    opponent's response window."""
    h = decide(table, clauses, rules, state, piles, np.int64(D_CHANNEL_CARD), p)
    if h != STOP:
        place_channeled(table, rules, state, counters, events, p, h)
        foe_response_window(table, clauses, rules, state, piles, counters, events, p)


@inline_kernel
def channeled_waiting(table: IntArray, rules: Any, state: Any, p: EngineInt) -> bool:
    """Whether p has a channeled effect on its support spaces that may be used on the opponent's turn."""
    opts = rules.opts
    sup = state.sup
    for k in range(opts[O_SUPPORT]):
        card = sup[p, k, SU_CARD]
        if card >= 0 and table[card, T_KIND] == K_CHANNELED and (table[card, T_ACTIVE] & ACTIVE_O) != 0:
            return True
    return False


@rules_kernel
def opponent_turn_channels(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    decision: EngineInt,
) -> None:
    """In the opponent's turn, p may spend symbols left unused on p's own turn on channeled effects allowed on the
    opponent's turn, one at a time until p stops or has no symbol left: at its start (`decision` D_FOE_CHANNEL) or
    after one of the opponent's actions (D_FOE_RESPONSE, `foe_response_window`)."""
    if not channeled_waiting(table, rules, state, p):
        return
    while unused_count(state, p) > 0 and state.game[G_OVER] == 0:
        action = decide(table, clauses, rules, state, piles, decision, p)
        if action == STOP:
            return
        apply_symbol(table, clauses, rules, state, piles, counters, events, p, action)


@inline_kernel
def foe_response_window(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
) -> None:
    """After an action of the active player p (not a generator attack: the turn ends at once), with
    `channel_on_opponent_turn=after_each_action`: p's opponent may channel with symbols left unused on their own turn
    (D_FOE_RESPONSE), as at the start of p's turn ("Any symbol cards that are unused on your turn may be drawn on your
    opponent's turn"). Checked here first: most actions find nothing waiting."""
    q = 1 - p
    if rules.opts[O_CHANNEL_AT_START] == 1 or state.game[G_OVER] == 1 or state.side[q, S_SYMBOLS] == 0:
        return
    if channeled_waiting(table, rules, state, q):
        opponent_turn_channels(table, clauses, rules, state, piles, counters, events, q, np.int64(D_FOE_RESPONSE))


@inline_kernel
def start_turn(rules: Any, state: Any, piles: IntArray, counters: IntArray, events: IntArray, p: EngineInt) -> None:
    """p's turn begins: draw 1; the four symbols become unused (shuffled face down for a blind draw)."""
    opts = rules.opts
    side = state.side
    game = state.game
    rng = state.rng
    ec = state.ec
    game[G_ACTIVE] = p
    log_event(events, ec, game[G_TURN], p, EV_TURN, -1, side[1 - p, S_SP], side[p, S_SP])
    side[p, S_MAIN_DONE] = 0
    side[p, S_CHANNEL_PLACED] = 0
    side[p, S_REACTIONARY] = side[p, S_GEN_ATTACKED]
    side[p, S_GEN_ATTACKED] = 0
    draw_card(rules, state, piles, counters, events, p)
    side[p, S_SYMBOLS] = ALL_UNUSED
    for s in range(SYMBOLS):
        side[p, S_ORDER0 + s] = s
    side[p, S_NEXT] = 0
    if opts[O_BLIND] == 1:
        for i in range(SYMBOLS - 1, 0, -1):
            j = rng_below(rng, i + 1)
            tmp = side[p, S_ORDER0 + i]
            side[p, S_ORDER0 + i] = side[p, S_ORDER0 + j]
            side[p, S_ORDER0 + j] = tmp


@inline_kernel
def end_turn(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
) -> None:
    """p's turn ends: discard down to 10 (D_DISCARD, one card at a time); every equipment card and expiring monster
    counts the turn off; this-turn changes end."""
    opts = rules.opts
    mon = state.mon
    sup = state.sup
    side = state.side
    game = state.game
    ec = state.ec
    while side[p, S_HAND] > HAND_LIMIT:
        discard(table, state, piles, events, p, decide(table, clauses, rules, state, piles, np.int64(D_DISCARD), p))
    for q in range(2):
        for k in range(opts[O_SUPPORT]):
            card = sup[q, k, SU_CARD]
            if card >= 0 and table[card, T_KIND] == K_EQUIPMENT:
                sup[q, k, SU_LEFT] -= 1
                if sup[q, k, SU_LEFT] <= 0:
                    remove_equipment(table, state, piles, events, q, k)
    slots = game[G_MONSTERS] | game[G_MONSTERS + 1]  # a copy: the pass over m may destroy m, and no other
    while slots != 0:
        m = lowest_set_bit(slots)
        slots &= slots - 1
        for s in range(SYMBOLS):
            mon[m, M_TMP_ST + s] = 0
        mon[m, M_TMP_MOVE] = 0
        mon[m, M_TMP_NOATTACK] = 0
        mon[m, M_TMP_PARALLEL] = 0
        mon[m, M_TMP_NOMOVE] = 0
        if mon[m, M_EXPIRE] > 0:
            mon[m, M_EXPIRE] -= 1
            if mon[m, M_EXPIRE] == 0:
                log_event(events, ec, game[G_TURN], mon[m, M_OWNER], EV_EXPIRE, mon[m, M_CARD], -1, 0)
                destroy_monster(table, rules, state, piles, counters, events, m, np.int64(-1))


SYMBOLS_AHEAD, SYMBOLS_PAUSED, SYMBOLS_DONE = range(3)
"""Where a turn is in its symbol phase: not begun, paused before a generator attack (the attack waits in
`choice`), or over (what `symbol_phase` returns is one of the last two)."""


@inline_kernel
def symbol_phase(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    resume: EngineBool,
) -> int:
    """p's symbol actions until the symbols are spent, p stops, or p attacks the generator (the turn ends); after
    each other action the opponent's window (`foe_response_window`).

    Everything else comes before the generator attack: while the main action or a channeled card may still be
    taken, the phase stops there (SYMBOLS_PAUSED, the attack kept in `choice`) for `play_turn` to take them, and
    is called again with `resume`; the attack goes ahead if the monster is still on the opponent's summoning
    space. Returns SYMBOLS_DONE when the phase is over."""
    opts = rules.opts
    mon = state.mon
    side = state.side
    game = state.game
    choice = state.choice
    goal = opts[O_SUMMONING + 1 - p]
    while resume or (unused_count(state, p) > 0 and game[G_OVER] == 0):
        if resume:
            resume = False
            if mon[choice[1], M_SPACE] != goal:
                continue
        else:
            decide_symbol_action(table, clauses, rules, state, piles, p)
            if choice[0] == A_NONE:
                return SYMBOLS_DONE
            if choice[0] == A_GENERATOR and (side[p, S_MAIN_DONE] == 0 or side[p, S_CHANNEL_PLACED] == 0):
                return SYMBOLS_PAUSED
        # The action chosen (or, resumed, the generator attack that waited) is taken as `apply` takes a listed one.
        apply_symbol(
            table,
            clauses,
            rules,
            state,
            piles,
            counters,
            events,
            p,
            pack_action(choice[0], choice[1], choice[2], choice[3]),
        )
        if choice[0] == A_GENERATOR:
            return SYMBOLS_DONE
        foe_response_window(table, clauses, rules, state, piles, counters, events, p)
    return SYMBOLS_DONE


@llvm_inline_kernel
def begin_turn(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
) -> None:
    """p's turn begins: the opponent's channeled effects usable on p's turn, then `start_turn` (the draw)."""
    game = state.game
    game[G_ACTIVE] = p
    # Checked here as well: most turns nothing waits, and the call itself costs more than the check.
    if channeled_waiting(table, rules, state, 1 - p):
        opponent_turn_channels(table, clauses, rules, state, piles, counters, events, 1 - p, np.int64(D_FOE_CHANNEL))
    game[G_ACTIVE] = p
    if game[G_OVER] == 0:
        start_turn(rules, state, piles, counters, events, p)


@rules_kernel
def play_turn(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    begun: EngineBool,
) -> None:
    """One whole turn of player p, or with `begun` the rest of it after `begin_turn` (the search policy's way in:
    it decides after the draw). One compiled call that whole matches, the search's turns and its rollouts share
    (inlined into each, the turn was compiled once per caller); its body is here, not copied in from an inline
    kernel, since Numba's IR inliner costs with the square of the body's size (about 2 s of this one's compile)."""
    side = state.side
    game = state.game
    if not begun:
        begin_turn(table, clauses, rules, state, piles, counters, events, p)
    game[G_ACTIVE] = p
    # The main action and a channeled card come before the symbols, before a generator attack and after the
    # symbols, each if not taken yet: one call site each, so the compiler copies each in once.
    stage = SYMBOLS_AHEAD
    while True:
        if game[G_OVER] == 0 and side[p, S_MAIN_DONE] == 0:
            main_action(table, clauses, rules, state, piles, counters, events, p)
        # Before a generator attack the channeled card and the attack follow even a main action that ended the
        # match, as they always have: the figures stay the same.
        if game[G_OVER] == 0 or stage == SYMBOLS_PAUSED:
            maybe_place_channeled(table, clauses, rules, state, piles, counters, events, p)
        if stage == SYMBOLS_DONE or (game[G_OVER] == 1 and stage != SYMBOLS_PAUSED):
            break
        stage = symbol_phase(table, clauses, rules, state, piles, counters, events, p, stage == SYMBOLS_PAUSED)
    if game[G_OVER] == 0:
        end_turn(table, clauses, rules, state, piles, counters, events, p)


@rules_kernel
def setup_match(
    table: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    seed: EngineInt,
    first: EngineInt,
) -> None:
    """A fresh match: empty map, shuffled decks, full token decks, SourcePoints, 7 cards each (the match loop seats
    the policies: `setup_policies`)."""
    opts = rules.opts
    mon = state.mon
    cells = state.cells
    sup = state.sup
    side = state.side
    game = state.game
    rng = state.rng
    library = piles[PILE_LIBRARY]
    tokens = piles[PILE_TOKENS]
    rng_seed(rng, seed)
    mon[:, M_SPACE] = -1
    cells[:, :] = -1
    sup[:, :, :] = -1
    side[:, :] = 0
    game[:] = 0
    game[G_FIRST] = first
    game[G_TURN] = 1
    for p in range(2):
        deck = deck_a if p == 0 else deck_b
        for i in range(deck.shape[0]):
            library[p, i] = deck[i]
        side[p, S_DECK_N] = deck.shape[0]
        shuffle_in_place(library[p], deck.shape[0], rng)
        side[p, S_SP] = opts[O_SOURCEPOINTS]
        # A fork is taken towards the kind of space the deck's requirements ask for more.
        terrestrial = 0
        otherworldly = 0
        for i in range(deck.shape[0]):
            terrestrial += table[deck[i], T_TERR]
            otherworldly += table[deck[i], T_OTHER]
        side[p, S_PREF_KIND] = KIND_OTHERWORLDLY if otherworldly > terrestrial else KIND_TERRESTRIAL
        for c in range(table.shape[0]):
            tokens[p, c] = opts[O_TOKEN_COPIES] if table[c, T_KIND] == K_TOKEN else 0
            tokens[p, table.shape[0] + c] = 0  # an empty Done Zone
    for p in range(2):
        for _ in range(OPENING_HAND):
            draw_card(rules, state, piles, counters, events, p)


@inline_kernel
def setup_policies(state: Any, policy_a: EngineInt, policy_b: EngineInt, seed: EngineInt) -> None:
    """The match loop's word on who plays which side (each side's policy block, from its policy word and the match's
    seed: `start_policy`; code GREEDY, RANDOM or EPSILON_GREEDY), which `choose` alone reads."""
    start_policy(policy_of(state, np.int64(0)), policy_a, seed, np.int64(0))
    start_policy(policy_of(state, np.int64(1)), policy_b, seed, np.int64(1))


@inline_kernel
def play_match(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
) -> None:
    """Turns alternate from player p (the first player, or whoever is next in a search's rollout) until
    SourcePoints run out or the turn cap ends it as a draw."""
    opts = rules.opts
    game = state.game
    ec = state.ec
    while game[G_OVER] == 0:
        if game[G_TURN] > opts[O_TURN_CAP]:
            game[G_TURN] = opts[O_TURN_CAP]
            log_event(events, ec, game[G_TURN], p, EV_TURN_CAP, -1, -1, opts[O_TURN_CAP])
            game[G_OVER] = 1
            game[G_WINNER] = -1
            break
        play_turn(table, clauses, rules, state, piles, counters, events, p, np.bool_(False))
        if game[G_OVER] == 1:
            break
        game[G_TURN] += 1
        p = 1 - p


@rules_kernel
def play_matches(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: EngineInt,
    policy_b: EngineInt,
    winners: Any,
    turns: Any,
) -> None:
    """One match per seed on state arrays every match reuses."""
    game = state.game
    for i in range(seeds.shape[0]):
        begin_match_counters(counters, i)
        setup_match(table, rules, state, piles, counters, events, deck_a, deck_b, seeds[i], first[i])
        setup_policies(state, policy_a, policy_b, seeds[i])
        play_match(table, clauses, rules, state, piles, counters, events, game[G_FIRST])
        end_match_counters(counters, game[G_TURN], np.int64(2))
        winners[i] = game[G_WINNER]
        turns[i] = game[G_TURN]


# =====================================================================================================================
# Policies: greedy (the game's scoring of the listed actions), random, epsilon-greedy (`workbench.policies`), and
# `choose`, the rules' one door to them
#
# Nothing above this section reads which policy a side plays (S_POLICY): a rule opens a decision (`decide`, `ask`) and
# takes the answer `choose` gives, one of the actions `legal_actions` lists. `choose` is the only code that reads
# S_POLICY (the side's block, through `policy_of`, which the match loop also seats). A policy reads the state (the
# search deals what its player cannot see anew before it reads) and writes only its own look-ahead (`scratch`) and
# draws from the match's generator (an epsilon-greedy side's coin and random picks from its own): it changes no rule's
# field. A new policy is a function per decision kind and a branch in `choose`: no rule changes.
# =====================================================================================================================


# ---- what greedy play thinks an action is worth --------------------------------------------------------------------


@inline_kernel
def greedy_fork(rules: Any, state: Any, p: EngineInt, first: EngineInt, second: EngineInt) -> EngineInt:
    """Greedy's branch at a fork: the one with more free road ahead (an enemy right there counts against it), then
    the kind of space its deck needs more of (the first of equals)."""
    mp = rules.mp
    side = state.side
    score_first = 2 * free_road(rules, state, p, first)
    score_second = 2 * free_road(rules, state, p, second)
    if mp[first, MP_KIND] == side[p, S_PREF_KIND]:
        score_first += 1
    if mp[second, MP_KIND] == side[p, S_PREF_KIND]:
        score_second += 1
    return second if score_second > score_first else first


@inline_kernel
def branch_score(rules: Any, state: Any, p: EngineInt, space: EngineInt, nxt: EngineInt) -> int:
    """Greedy's worth of stepping from `space` onto `nxt`, as `greedy_fork` weighs a branch (twice the free road
    ahead, an enemy right there counting against it, one more for the kind of space its deck needs), less one for
    a step across to the parallel space (a space of movement that gains no road)."""
    score = 2 * free_road(rules, state, p, nxt)
    if rules.mp[nxt, MP_KIND] == state.side[p, S_PREF_KIND]:
        score += 1
    if nxt == rules.mp[space, MP_PARALLEL]:
        score -= 1
    return score


@inline_kernel
def greedy_branch(rules: Any, state: Any, p: EngineInt, space: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's pick among the listed next spaces of a move from `space` (D_FORK): the best `branch_score`, the first
    of equals. Across it goes when the road ahead is barred by an enemy, or when the other lane is freer by more
    than the step it costs."""
    pick = out[0]
    best = branch_score(rules, state, p, space, pick)
    for i in range(1, n):
        score = branch_score(rules, state, p, space, out[i])
        if score > best:
            best = score
            pick = out[i]
    return pick


@inline_kernel
def greedy_next_space(rules: Any, state: Any, p: EngineInt, space: EngineInt) -> EngineInt:
    """Where greedy's monster on `space` would step next (its look-ahead, `greedy_path_steps`)."""
    first = forward_step(rules, space, p, 0)
    second = forward_step(rules, space, p, 1)
    if second < 0:
        return first
    return greedy_fork(rules, state, p, first, second)


@inline_kernel
def free_road(rules: Any, state: Any, p: EngineInt, space: EngineInt) -> int:
    """Free spaces in a row from `space` along p's road (up to 4); -1 when an enemy stands on `space` itself."""
    mon = state.mon
    cells = state.cells
    count = 0
    here = space
    while here >= 0 and count < 4:
        occupant = cells[here, C_OCC]
        if occupant >= 0:
            if count == 0 and mon[occupant, M_OWNER] != p:
                return -1
            break
        count += 1
        here = forward_step(rules, here, p, 0)
    return count


@llvm_inline_kernel
def greedy_path_steps(rules: Any, state: Any, m: EngineInt, longest: EngineInt) -> int:
    """Greedy's look-ahead (a policy's, not a rule: it opens no decision and changes nothing but `scratch`): walk
    greedy play's road for monster m, its forks and steps across taken as `greedy_branch` takes them (with
    `parallel_move=when_blocked`, across only around an enemy, as the move does). scratch[PATH_AT + k] is where it
    stands after k steps and scratch[SWAPS_AT + k] how many allies it has swapped back by then. Returns the most
    steps it can take, up to `longest` (a move of d <= longest spaces ends at step min(d, that))."""
    opts = rules.opts
    mon = state.mon
    cells = state.cells
    scratch = state.scratch
    p = mon[m, M_OWNER]
    here = mon[m, M_SPACE]
    goal = opts[O_SUMMONING + 1 - p]
    swaps = 0
    scratch[PATH_AT] = here
    scratch[SWAPS_AT] = 0
    steps = 0
    across = 0
    any_step = opts[O_PARALLEL_WHEN_BLOCKED] == 0
    while steps < longest and here != goal:
        nxt = greedy_next_space(rules, state, p, here)
        side = sidestep(rules, state, m, here, across) if any_step else -1
        if side >= 0 and (
            nxt < 0 or branch_score(rules, state, p, here, side) > branch_score(rules, state, p, here, nxt)
        ):
            nxt = side  # across by choice, as `greedy_branch` takes it over D_FORK's list
        if nxt < 0:
            break
        occupant = cells[nxt, C_OCC]
        if nxt == side:
            across += 1
        elif occupant >= 0 and mon[occupant, M_OWNER] != p:
            if any_step:
                break
            nxt = sidestep(rules, state, m, here, across)  # as `move_monster` does
            if nxt < 0:
                break
            across += 1
            occupant = -1
        web = cells[nxt, C_WEB]
        if web >= 0 and web != p and opts[O_WEB_BLOCKS] == 1:
            break
        if occupant >= 0:
            if mon[occupant, M_SPACE] == goal:
                break
            swaps += 1
        here = nxt
        steps += 1
        scratch[PATH_AT + steps] = here
        scratch[SWAPS_AT + steps] = swaps
        if web >= 0 and web != p:
            break
    return steps


@inline_kernel
def clause_value(clauses: IntArray, card: EngineInt, i: EngineInt, has_foe: EngineBool) -> int:
    """Greedy play's worth of one clause (foe clauses count only when there is an adjacent enemy)."""
    op = clauses[card, i, C_OP]
    amount = clauses[card, i, C_AMOUNT]
    foe = clauses[card, i, C_FOE] == 1
    if foe and not has_foe:
        return 0
    sign = -1 if foe else 1
    if op == OP_ST:
        spread = 4 if clauses[card, i, C_ARG] == ALL_SYMBOLS else 1
        return sign * amount * spread
    if op == OP_MOVE:
        return sign * amount * 10
    if op == OP_DESTROY:
        return 800 if foe else -800
    if op == OP_PUSH:
        return 30 * amount if foe else -30 * amount
    if op == OP_NOATTACK or op == OP_NOMOVE:
        return 60 if foe else -60
    if op == OP_EXPIRE:
        return 50 if foe else 0
    if op == OP_TOKEN:
        return 50
    if op == OP_SP:
        return -15 * amount if amount < 0 else 5 * amount
    if op == OP_DRAW:
        return 40 * amount
    if op == OP_SUMMON:
        return 80
    if op == OP_RECALL:
        return 30 * amount
    if op == OP_PARALLEL:
        return -20 if foe else 20
    if op == OP_WEB:
        return 40
    if op == OP_CLEAR_WEB:
        return 20
    return 0


# Called, not inlined: greedy's and random's symbol and foe-channel choices weigh channels in six places, and a copy
# of the clause weighing in each cost compile time for a call taken only for a monster on the Source Flux.
@rules_kernel
def channel_value(
    table: IntArray, clauses: IntArray, state: Any, card: EngineInt, m: EngineInt, s: EngineInt, has_foe: EngineBool
) -> int:
    """Greedy worth of channeling `card` through monster m with symbol s (0 for a symbol the card lacks)."""
    game = state.game
    if ((table[card, T_SYMBOLS] >> s) & 1) == 0:
        return 0
    b = bracket_for(table, clauses, card, st_of(table, state, m, s, game[G_ACTIVE]))
    if b < 0:
        return 0
    total = 0
    for i in range(table[card, T_NCLAUSE]):
        if clauses[card, i, C_BRACKET] == b:
            total += clause_value(clauses, card, i, has_foe)
    return total


@inline_kernel
def can_step(rules: Any, state: Any, p: EngineInt, space: EngineInt) -> bool:
    """Whether p's monster on `space` could take one step forward (a free space or an ally to swap with)."""
    mon = state.mon
    cells = state.cells
    for k in range(2):
        nxt = forward_step(rules, space, p, k)
        if nxt >= 0 and (cells[nxt, C_OCC] < 0 or mon[cells[nxt, C_OCC], M_OWNER] == p):
            return True
    return False


@inline_kernel
def attack_value(rules: Any, mine: EngineInt, theirs: EngineInt, win: EngineInt, loss: EngineInt) -> EngineInt:
    """Greedy worth of an attack whose ST are `mine` against `theirs`: `win` (worth the enemy) or `loss` (costs the
    attacker), a tie by `combat_tie`."""
    opts = rules.opts
    if mine > theirs:
        return win
    if mine < theirs:
        return loss
    if opts[O_TIE] == TIE_ATTACKER:
        return win
    if opts[O_TIE] == TIE_DEFENDER:
        return loss
    if opts[O_TIE] == TIE_BOTH:
        return win + loss + 500
    return -1


@inline_kernel
def move_value(rules: Any, state: Any, p: EngineInt, steps: EngineInt, reach: EngineInt) -> int:
    """Greedy worth of a move of `steps` spaces along the walked path (`greedy_path_steps`, which reached `reach`):
    ten per road step the side gains (an ally swapped back loses one), much more for reaching the opponent's
    summoning space."""
    opts = rules.opts
    scratch = state.scratch
    if steps <= 0:
        return 0
    if steps > reach:
        steps = reach
    end = scratch[PATH_AT + steps]
    gain = progress(rules, end, p) - progress(rules, scratch[PATH_AT], p) - scratch[SWAPS_AT + steps]
    if gain <= 0:
        return 0
    value = 10 * gain
    if end == opts[O_SUMMONING + 1 - p]:
        value += 300
    return value


@llvm_inline_kernel
def weigh_monster(table: IntArray, state: Any, m: EngineInt, active: EngineInt, bonus: EngineInt) -> int:
    """Monster m's ST per symbol into scratch[ST_AT + s] and its move's spaces into scratch[MOVE_AT + s], once per
    choice; returns what greedy play thinks it is worth (`monster_value`)."""
    # All four ST first, then the stores: a store to scratch would make the compiler read m's row again.
    scratch = state.scratch
    st_alpha = st_of(table, state, m, 0, active)
    st_beta = st_of(table, state, m, 1, active)
    st_gamma = st_of(table, state, m, 2, active)
    st_delta = st_of(table, state, m, 3, active)
    scratch[ST_AT] = st_alpha
    scratch[ST_AT + 1] = st_beta
    scratch[ST_AT + 2] = st_gamma
    scratch[ST_AT + 3] = st_delta
    scratch[MOVE_AT] = spaces_for_st(st_alpha) + bonus
    scratch[MOVE_AT + 1] = spaces_for_st(st_beta) + bonus
    scratch[MOVE_AT + 2] = spaces_for_st(st_gamma) + bonus
    scratch[MOVE_AT + 3] = spaces_for_st(st_delta) + bonus
    return 10 + st_alpha + st_beta + st_gamma + st_delta


# ---- greedy's and random's picks per decision kind ----------------------------------------------------------------


@inline_kernel
def random_among(state: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """The random policy's pick: STOP (listed last) or any other listed action, each as likely (drawn as a
    reservoir, one draw per action, as the engine always drew)."""
    rng = state.rng
    chosen = STOP
    seen = 1
    for i in range(n - 1):
        seen += 1
        if rng_below(rng, seen) == 0:
            chosen = out[i]
    return chosen


@inline_kernel
def equipment_target(rules: Any, state: Any, p: EngineInt) -> int:
    """Greedy's monster for equipment: p's furthest up the road (the first of equals in slot order)."""
    mon = state.mon
    target = -1
    target_progress = -1
    slots = state.game[G_MONSTERS + p]
    while slots != 0:
        m = lowest_set_bit(slots)
        slots &= slots - 1
        here = progress(rules, mon[m, M_SPACE], p)
        if here > target_progress:
            target_progress = here
            target = m
    return target


@inline_kernel
def trap_target(rules: Any, state: Any, p: EngineInt) -> int:
    """Greedy's space for a trap: the free trap space furthest up p's road (the first of equals), or -1."""
    space = -1
    for here in range(rules.opts[O_SPACES]):
        if trap_space_ok(rules, state, p, here) and (space < 0 or progress(rules, here, p) > progress(rules, space, p)):
            space = here
    return space


@inline_kernel
def greedy_main(table: IntArray, rules: Any, state: Any, p: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's main action: a reactionary summon of its strongest monster when listed, else a conventional summon of
    its strongest (any summon beats any other play), else its best equipment onto its most advanced monster, else
    its best trap on the free space furthest up its road (the first of equals each time); STOP when none is
    listed."""
    hand = state.hand
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    best_kind: EngineInt
    best: EngineInt
    best = STOP
    best_value = -1
    best_kind = -1
    equip_onto = -2  # worked out at the first equipment card, and the trap space at the first trap
    trap_space = -2
    for i in range(n - 1):
        action = out[i]
        kind = action_code(action)
        if best_kind == K_MONSTER and kind != K_MONSTER:
            break  # summons are listed first and always preferred
        card = hand[p, action_x(action)]
        target = action_y(action)
        value = -1
        if kind == K_MONSTER:
            value = 100000 + table[card, T_VALUE] + (1000 if target == SUMMON_REACTIONARY else 0)
        elif kind == K_EQUIPMENT:
            if equip_onto == -2:
                equip_onto = equipment_target(rules, state, p)
            if target != equip_onto:
                continue
            value = 10000 + table[card, T_VALUE]
        else:
            if trap_space == -2:
                trap_space = trap_target(rules, state, p)
            if target != trap_space:
                continue
            value = table[card, T_VALUE] * 10 + progress(rules, trap_space, p)
        if value > best_value:
            best_value = value
            best_kind = kind
            best = action
    return best


@llvm_inline_kernel
def greedy_main_unlisted(table: IntArray, rules: Any, state: Any, p: EngineInt) -> EngineInt:
    """Greedy's main action, the one `greedy_main` takes among `legal_main`'s list (STOP when it lists only STOP),
    found without the list: the summons `legal_main` would list, weighed in hand order; if none, each equipment card
    onto `equipment_target` and each trap onto `trap_target` (the only listed targets greedy weighs), in hand order,
    the first of equals kept."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    best: EngineInt
    side = state.side
    hand = state.hand
    game = state.game
    if side[p, S_MAIN_DONE] == 1 or game[G_OVER] == 1:
        return STOP
    conventional_open = summoning_space_open(rules, state, p, False)
    reactionary_open = side[p, S_REACTIONARY] == 1 and summoning_space_open(rules, state, p, True)
    monsters, terrestrial, otherworldly = monsters_on_map(rules, state, p)
    held = side[p, S_HAND]
    best = STOP
    best_value = -1
    if conventional_open or reactionary_open:
        for h in range(held):
            card = hand[p, h]
            if table[card, T_KIND] != K_MONSTER:
                continue
            if reactionary_open:
                value = 101000 + table[card, T_VALUE]
                if value > best_value:
                    best_value = value
                    best = pack_action(K_MONSTER, h, SUMMON_REACTIONARY, -1)
            elif requirements_met(table, card, terrestrial, otherworldly):
                value = 100000 + table[card, T_VALUE]
                if value > best_value:
                    best_value = value
                    best = pack_action(K_MONSTER, h, SUMMON_CONVENTIONAL, -1)
        if best != STOP:
            return best  # any summon beats any other play
    if monsters == 0:
        return STOP
    support = free_support(rules, state, p)
    equip_onto = -2  # worked out at the first equipment card, and the trap space at the first trap
    trap_space = -2
    for h in range(held):
        card = hand[p, h]
        kind = table[card, T_KIND]
        if kind == K_EQUIPMENT:
            if support < 0 or not requirements_met(table, card, terrestrial, otherworldly):
                continue
            if equip_onto == -2:
                equip_onto = equipment_target(rules, state, p)
            value = 10000 + table[card, T_VALUE]
            if value > best_value:
                best_value = value
                best = pack_action(K_EQUIPMENT, h, equip_onto, -1)
        elif kind == K_TRAP:
            if not requirements_met(table, card, terrestrial, otherworldly):
                continue
            if trap_space == -2:
                trap_space = trap_target(rules, state, p)
            if trap_space < 0:
                continue
            value = table[card, T_VALUE] * 10 + progress(rules, trap_space, p)
            if value > best_value:
                best_value = value
                best = pack_action(K_TRAP, h, trap_space, -1)
    return best


@inline_kernel
def greedy_channel_card_unlisted(table: IntArray, rules: Any, state: Any, p: EngineInt) -> EngineInt:
    """Greedy's channeled card, the first `legal_channel_cards` would list (STOP when it lists only STOP), found
    without the list."""
    side = state.side
    hand = state.hand
    if side[p, S_CHANNEL_PLACED] == 1 or free_support(rules, state, p) < 0:
        return STOP
    for h in range(side[p, S_HAND]):
        if table[hand[p, h], T_KIND] == K_CHANNELED:
            return h
    return STOP


@inline_kernel
def generator_attacker(table: IntArray, rules: Any, state: Any, p: EngineInt) -> tuple[int, int, int]:
    """p's monster that may attack the generator (on the opponent's summoning space), the unused symbol that hits
    hardest (the first of equals) and its ST; (-1, -1, -1) when there is none."""
    mon = state.mon
    cells = state.cells
    active = state.game[G_ACTIVE]
    gen_monster = -1
    gen_symbol = -1
    gen_damage = -1
    cell = cells[rules.opts[O_SUMMONING + 1 - p], C_OCC]
    if cell >= 0 and mon[cell, M_OWNER] == p and may_attack(state, cell, active):
        for s in range(SYMBOLS):
            if symbol_unused(state, p, s) and st_of(table, state, cell, s, active) > gen_damage:
                gen_damage = st_of(table, state, cell, s, active)
                gen_monster = cell
                gen_symbol = s
    return gen_monster, gen_symbol, gen_damage


@rules_kernel
def greedy_symbol_intentional(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    p: EngineInt,
    usable: EngineInt,
    out: IntArray,
    n: EngineInt,
) -> EngineInt:
    """Greedy's best-valued listed symbol action with an intentional draw among the symbols in `usable` (the
    first of equals; STOP when none is worth anything): moves by `move_value` along the walked road, attacks by
    `attack_value`, channels by `channel_value`; it never weighs a generator attack here (`greedy_symbol` does).
    The hottest loop of a batch: what a monster's actions share (its ST, its road, the enemy's ST) is worked out at
    its first listed action."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    sup = state.sup
    side = state.side
    game = state.game
    scratch = state.scratch
    current: EngineInt
    current_target: EngineInt
    best: EngineInt
    value: EngineInt
    active = game[G_ACTIVE]
    unused = side[p, S_SYMBOLS]
    best = 0
    pick = STOP
    current = -1
    current_target = -2
    reach = -1
    has_foe = -1
    my_value = 0
    win = 0
    loss = 0
    for i in range(n - 1):
        action = out[i]
        m = action_x(action)
        if m != current:
            current = m
            my_value = weigh_monster(table, state, m, active, move_bonus(state, m, active))
            reach = -1
            has_foe = -1
            current_target = -2
        s = action_s(action)
        if ((usable >> s) & 1) == 0:
            continue
        code = action_code(action)
        if code == A_MOVE:
            if reach < 0:
                longest = 0
                for u in range(SYMBOLS):
                    if (unused >> u) & 1 and scratch[MOVE_AT + u] > longest:
                        longest = scratch[MOVE_AT + u]
                reach = greedy_path_steps(rules, state, m, min(longest, MAX_PATH))
            if reach == 0:
                continue
            value = move_value(rules, state, p, scratch[MOVE_AT + s], reach)
        elif code == A_ATTACK:
            target = action_y(action)
            if target != current_target:
                current_target = target
                foe_value = 10  # monster_value, with the ST kept for the symbols
                for u in range(SYMBOLS):
                    scratch[FOE_ST_AT + u] = st_of(table, state, target, u, active)
                    foe_value += scratch[FOE_ST_AT + u]
                win = 1000 + foe_value
                loss = -500 - my_value
            value = attack_value(rules, scratch[ST_AT + s], scratch[FOE_ST_AT + s], win, loss)
        elif code == A_CHANNEL:
            if has_foe < 0:
                has_foe = 1 if adjacent_enemies(rules, state, m) > 0 else 0
            value = channel_value(table, clauses, state, sup[p, action_y(action), SU_CARD], m, s, has_foe == 1)
        else:
            continue
        if value > best:
            best = value
            pick = action
    return pick


@rules_kernel
def symbol_by_weighing(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    p: EngineInt,
    greedy: EngineBool,
    out: IntArray,
    n: EngineInt,
) -> EngineInt:
    """The symbol action of greedy under a blind draw and of random under either draw.

    Blind: each listed action (its symbol still face down) is worth the total over the unused symbols; greedy
    takes the best total (never a generator attack: `greedy_symbol` falls back to it), random any with a total
    above 0. Random, intentional: any listed action worth something. Random's worth is 1, but 0 for a move that
    cannot step forward or goes no distance with the symbol, and for a channel with a symbol its card lacks
    (intentional draw). Random takes STOP or one of the worthwhile actions, each as likely."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    opts = rules.opts
    mon = state.mon
    sup = state.sup
    side = state.side
    game = state.game
    rng = state.rng
    scratch = state.scratch
    current: EngineInt
    current_target: EngineInt
    best: EngineInt
    total: EngineInt
    value: EngineInt
    blind = opts[O_BLIND] == 1
    active = game[G_ACTIVE]
    unused = side[p, S_SYMBOLS]
    best = 0
    pick = STOP
    seen = 1  # stopping is always a choice for the random policy
    current = -1
    current_target = -2
    reach = -1
    has_foe = -1
    my_value = 0
    win = 0
    loss = 0
    for i in range(n - 1):
        action = out[i]
        code = action_code(action)
        m = action_x(action)
        target = action_y(action)
        if m != current:
            current = m
            if greedy:
                my_value = weigh_monster(table, state, m, active, move_bonus(state, m, active))
            reach = -1
            has_foe = -1
            current_target = -2
        if code == A_GENERATOR and greedy:
            continue
        if code == A_MOVE:
            if greedy:
                if reach < 0:
                    longest = 0
                    for u in range(SYMBOLS):
                        if (unused >> u) & 1 and scratch[MOVE_AT + u] > longest:
                            longest = scratch[MOVE_AT + u]
                    reach = greedy_path_steps(rules, state, m, min(longest, MAX_PATH))
                if reach == 0:
                    continue
            elif not can_step(rules, state, p, mon[m, M_SPACE]):
                continue
        elif code == A_ATTACK and greedy and target != current_target:
            current_target = target
            foe_value = 10  # monster_value, with the ST kept for the symbols
            for u in range(SYMBOLS):
                scratch[FOE_ST_AT + u] = st_of(table, state, target, u, active)
                foe_value += scratch[FOE_ST_AT + u]
            win = 1000 + foe_value
            loss = -500 - my_value
        elif code == A_CHANNEL and greedy and has_foe < 0:
            has_foe = 1 if adjacent_enemies(rules, state, m) > 0 else 0
        total = 0
        for s in range(SYMBOLS):
            if ((unused >> s) & 1) == 0 or (not blind and s != action_s(action)):
                continue
            value = 1
            if code == A_MOVE:
                if greedy:
                    value = move_value(rules, state, p, scratch[MOVE_AT + s], reach)
                elif move_distance(table, state, m, s, active) == 0:
                    value = 0
            elif code == A_ATTACK:
                if greedy:
                    value = attack_value(rules, scratch[ST_AT + s], scratch[FOE_ST_AT + s], win, loss)
            elif code == A_CHANNEL:
                card = sup[p, target, SU_CARD]
                if greedy:
                    value = channel_value(table, clauses, state, card, m, s, has_foe == 1)
                elif not blind and ((table[card, T_SYMBOLS] >> s) & 1) == 0:
                    value = 0
            total += value
        if greedy:
            if total > best:
                best = total
                pick = action
        elif total > 0:
            seen += 1
            if rng_below(rng, seen) == 0:
                pick = action
    return pick


@inline_kernel
def greedy_symbol(
    table: IntArray, clauses: IntArray, rules: Any, state: Any, p: EngineInt, out: IntArray, n: EngineInt
) -> EngineInt:
    """Greedy's symbol action. A generator attack ends the turn, so greedy keeps the symbol that hits hardest for it
    and attacks with the last symbol (at once when the hit wins the match, with an intentional draw); otherwise the
    best-valued other action (`greedy_symbol_intentional`, or `symbol_by_weighing` under a blind draw), and the
    generator attack when none is worth a symbol."""
    blind = rules.opts[O_BLIND] == 1
    gen_monster, gen_symbol, gen_damage = generator_attacker(table, rules, state, p)
    gen_s = -1 if blind else gen_symbol
    if gen_monster >= 0 and ((not blind and gen_damage >= state.side[1 - p, S_SP]) or unused_count(state, p) == 1):
        return pack_action(A_GENERATOR, gen_monster, -1, gen_s)
    if blind:
        pick = symbol_by_weighing(table, clauses, rules, state, p, np.bool_(True), out, n)
    else:
        unused = state.side[p, S_SYMBOLS]
        usable = unused & ~(1 << gen_symbol) if gen_symbol >= 0 else unused
        pick = greedy_symbol_intentional(table, clauses, rules, state, p, usable, out, n)
    if pick == STOP and gen_monster >= 0:
        return pack_action(A_GENERATOR, gen_monster, -1, gen_s)
    return pick


@rules_kernel
def greedy_symbol_unlisted(table: IntArray, clauses: IntArray, rules: Any, state: Any, p: EngineInt) -> EngineInt:
    """Greedy's symbol action, the one `greedy_symbol` takes among `legal_symbols`' list, found without the list.

    Intentional draw: it walks p's monsters and their candidates in the list's order (slot order; move, attacks,
    channels; symbols in order), testing each candidate as `legal_symbols` would and weighing it as
    `greedy_symbol_intentional` does, the first of equals kept. Blind draw: the list is written and weighed
    (`symbol_by_weighing`); the blind draw is rare enough not to pay for a second walk."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    best: EngineInt
    value: EngineInt
    pick: EngineInt
    opts = rules.opts
    mp = rules.mp
    mon = state.mon
    cells = state.cells
    sup = state.sup
    side = state.side
    game = state.game
    scratch = state.scratch
    unused = side[p, S_SYMBOLS]
    if unused == 0 or game[G_OVER] == 1:
        return STOP
    blind = opts[O_BLIND] == 1
    gen_monster, gen_symbol, gen_damage = generator_attacker(table, rules, state, p)
    gen_s = -1 if blind else gen_symbol
    if gen_monster >= 0 and ((not blind and gen_damage >= side[1 - p, S_SP]) or unused_count(state, p) == 1):
        return pack_action(A_GENERATOR, gen_monster, -1, gen_s)
    pick = STOP
    if blind:
        out = state.actions
        n = legal_symbols(table, rules, state, p, out)
        pick = symbol_by_weighing(table, clauses, rules, state, p, np.bool_(True), out, n)
    else:
        usable = unused & ~(1 << gen_symbol) if gen_symbol >= 0 else unused
        goal = opts[O_SUMMONING + 1 - p]
        flux = opts[O_FLUX + p]
        active = game[G_ACTIVE]
        best = 0
        slots = game[G_MONSTERS + p]
        while slots != 0:
            m = lowest_set_bit(slots)
            slots &= slots - 1
            space = mon[m, M_SPACE]
            # What the monster's candidates share, as `greedy_symbol_intentional` works it out at its first one.
            my_value = weigh_monster(table, state, m, active, move_bonus(state, m, active))
            if space != goal and may_move(state, m, active):
                longest = 0
                for u in range(SYMBOLS):
                    if (unused >> u) & 1 and scratch[MOVE_AT + u] > longest:
                        longest = scratch[MOVE_AT + u]
                reach = greedy_path_steps(rules, state, m, min(longest, MAX_PATH))
                if reach > 0:
                    for s in range(SYMBOLS):
                        if (usable >> s) & 1:
                            value = move_value(rules, state, p, scratch[MOVE_AT + s], reach)
                            if value > best:
                                best = value
                                pick = pack_action(A_MOVE, m, -1, s)
            if may_attack(state, m, active):
                for t in range(5):
                    nxt = mp[space, MP_ADJ0 + t] if t < 4 else attack_across(rules, state, m, space, active)
                    if nxt < 0:
                        continue
                    target = cells[nxt, C_OCC]
                    if target < 0 or mon[target, M_OWNER] == p:
                        continue
                    foe_value = 10  # monster_value, with the ST kept for the symbols
                    for u in range(SYMBOLS):
                        scratch[FOE_ST_AT + u] = st_of(table, state, target, u, active)
                        foe_value += scratch[FOE_ST_AT + u]
                    win = 1000 + foe_value
                    loss = -500 - my_value
                    for s in range(SYMBOLS):
                        if (usable >> s) & 1:
                            value = attack_value(rules, scratch[ST_AT + s], scratch[FOE_ST_AT + s], win, loss)
                            if value > best:
                                best = value
                                pick = pack_action(A_ATTACK, m, target, s)
            if space == flux:
                has_foe = -1
                for k in range(opts[O_SUPPORT]):
                    if not channel_usable(table, rules, state, p, k, m):
                        continue
                    if has_foe < 0:
                        has_foe = 1 if adjacent_enemies(rules, state, m) > 0 else 0
                    card = sup[p, k, SU_CARD]
                    for s in range(SYMBOLS):
                        if (usable >> s) & 1:
                            value = channel_value(table, clauses, state, card, m, s, has_foe == 1)
                            if value > best:
                                best = value
                                pick = pack_action(A_CHANNEL, m, k, s)
    if pick == STOP and gen_monster >= 0:
        return pack_action(A_GENERATOR, gen_monster, -1, gen_s)
    return pick


@rules_kernel
def random_foe_channel(
    table: IntArray, clauses: IntArray, rules: Any, state: Any, p: EngineInt, out: IntArray, n: EngineInt
) -> EngineInt:
    """Random's channel on the opponent's turn: the first listed channel worth anything to greedy, positive or
    negative (with a blind draw, the first listed), then a coin toss between it and STOP.

    For each of its monsters in turn, whether or not it may channel, it draws once per adjacent enemy, as random's
    pick of a `foe` clause's enemy among them (`random_pick`) would: the engine has always drawn so (it once asked
    that pick for "has a foe"), and the results stay."""
    sup = state.sup
    game = state.game
    pick = STOP
    i = 0
    slots = game[G_MONSTERS + p]
    while slots != 0:
        m = lowest_set_bit(slots)
        slots &= slots - 1
        enemies = adjacent_enemies(rules, state, m)
        for seen in range(1, enemies + 1):
            rng_below(state.rng, seen)
        has_foe = enemies > 0
        while i < n - 1 and action_x(out[i]) == m:
            action = out[i]
            i += 1
            if pick != STOP:
                continue
            s = action_s(action)
            if s < 0 or channel_value(table, clauses, state, sup[p, action_y(action), SU_CARD], m, s, has_foe) != 0:
                pick = action
    if pick == STOP or rng_below(state.rng, 2) == 0:
        return STOP
    return pick


@rules_kernel
def greedy_foe_channel(
    table: IntArray, clauses: IntArray, rules: Any, state: Any, p: EngineInt, out: IntArray, n: EngineInt
) -> EngineInt:
    """Greedy's channel on the opponent's turn: the listed channel worth most by `channel_value` (under a blind
    draw its total over the unused symbols), the first of equals; STOP when none is worth anything."""
    sup = state.sup
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    current: EngineInt
    best = 0
    pick = STOP
    current = -1
    has_foe = False
    for i in range(n - 1):
        action = out[i]
        m = action_x(action)
        if m != current:
            current = m
            has_foe = adjacent_enemies(rules, state, m) > 0
        card = sup[p, action_y(action), SU_CARD]
        s = action_s(action)
        if s >= 0:
            value = channel_value(table, clauses, state, card, m, s, has_foe)
        else:
            value = 0
            for u in range(SYMBOLS):
                if symbol_unused(state, p, u):
                    value += channel_value(table, clauses, state, card, m, u, has_foe)
        if value > best:
            best = value
            pick = action
    return pick


@inline_kernel
def greedy_discard(table: IntArray, state: Any, p: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy discards its least valuable card (the first of equals)."""
    hand = state.hand
    worst = out[0]
    for i in range(1, n):
        if table[hand[p, out[i]], T_VALUE] < table[hand[p, worst], T_VALUE]:
            worst = out[i]
    return worst


@inline_kernel
def random_pick(state: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """Random's answer to a question without STOP (D_FOE, D_WEB, D_EFFECT_SUMMON): any listed action, each as
    likely, drawn as a reservoir with one draw per action (as the rules drew when they chose the target)."""
    rng = state.rng
    chosen = out[0]
    for i in range(n):
        if rng_below(rng, i + 1) == 0:
            chosen = out[i]
    return chosen


@inline_kernel
def greedy_foe(table: IntArray, state: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's enemy for a `foe` clause: the strongest (`monster_value` on this turn), the first of equals."""
    active = state.game[G_ACTIVE]
    pick = out[0]
    best = monster_value(table, state, pick, active)
    for i in range(1, n):
        value = monster_value(table, state, out[i], active)
        if value > best:
            best = value
            pick = out[i]
    return pick


@inline_kernel
def greedy_web(rules: Any, state: Any, p: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's space for its web tile: the one nearest an opposing monster (the first of equals, so the first
    listed when the opponent has no monster on the map)."""
    dist = rules.dist
    mon = state.mon
    game = state.game
    pick = out[0]
    best = 1 << 30
    for i in range(n):
        s = out[i]
        nearest = 1 << 30
        slots = game[G_MONSTERS + 1 - p]
        while slots != 0:
            e = lowest_set_bit(slots)
            slots &= slots - 1
            if dist[mon[e, M_SPACE], s] < nearest:
                nearest = dist[mon[e, M_SPACE], s]
        if i == 0 or nearest < best:
            best = nearest
            pick = s
    return pick


@inline_kernel
def greedy_recall(table: IntArray, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's card back from a Done Zone: the most valuable (T_VALUE), the first of equals."""
    pick = out[0]
    for i in range(1, n):
        if table[out[i], T_VALUE] > table[pick, T_VALUE]:
            pick = out[i]
    return pick


@inline_kernel
def random_recall(state: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """Random's card back from a Done Zone: any listed copy, each as likely. Drawn as a reservoir with one draw per
    card, not per copy (its copies stand together in the list, and a card with c copies wins a draw with weight c),
    as the rule drew when it chose."""
    rng = state.rng
    chosen = out[0]
    seen = 0
    i = 0
    while i < n:
        card = out[i]
        copies = 1
        while i + copies < n and out[i + copies] == card:
            copies += 1
        seen += copies
        if rng_below(rng, seen) < copies:
            chosen = card
        i += copies
    return chosen


@inline_kernel
def greedy_effect_summon(table: IntArray, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's effect-summoned monster: the strongest (T_VALUE, its ST total), the first of equals."""
    pick = out[0]
    for i in range(1, n):
        if table[at_card(out[i]), T_VALUE] > table[at_card(pick), T_VALUE]:
            pick = out[i]
    return pick


# ---- the one door: the deciding side's policy answers the open decision ---------------------------------------------


@llvm_inline_kernel
def greedy_choice(
    table: IntArray, clauses: IntArray, rules: Any, state: Any, piles: IntArray, p: EngineInt, decision: EngineInt
) -> EngineInt:
    """Greedy's answer to p's open decision of kind `decision`: the action it scores best among those `legal_actions`
    lists, STOP when it lists none. Each kind is listed by its own lister (`legal_forks`, `legal_foes`, ...), not
    through `legal_actions`' dispatch, and where greedy needs no list it writes none: the turn's own three decisions
    are answered from the state (the same action: `greedy_symbol_unlisted`, `greedy_main_unlisted`,
    `greedy_channel_card_unlisted`; listing some 20-40 actions at each of about 80 symbol decisions a match cost
    greedy a fifth of its speed), and so is a swap."""
    game = state.game
    if decision == D_SYMBOL:
        return greedy_symbol_unlisted(table, clauses, rules, state, p)
    if decision == D_FORK:
        out = state.actions
        n = legal_forks(rules, state, p, out)
        if n == 0:
            return STOP
        return greedy_branch(rules, state, p, game[G_ASKED], out, n)
    if decision == D_SWAP:
        # `legal_swaps`' ally, game[G_ASKED]: it swaps unless the ally holds the opponent's summoning space.
        ally = game[G_ASKED]
        return ally if state.mon[ally, M_SPACE] != rules.opts[O_SUMMONING + 1 - p] else STOP
    if decision == D_MAIN:
        return greedy_main_unlisted(table, rules, state, p)
    if decision == D_CHANNEL_CARD:
        return greedy_channel_card_unlisted(table, rules, state, p)
    if decision == D_FOE_CHANNEL or decision == D_FOE_RESPONSE:
        out = state.actions
        n = legal_foe_channels(table, rules, state, p, out)
        if n == 0:
            return STOP
        return greedy_foe_channel(table, clauses, rules, state, p, out, n)
    if decision == D_DISCARD:
        out = state.actions
        n = legal_discards(state, p, out)
        return greedy_discard(table, state, p, out, n) if n > 0 else STOP
    if decision == D_FOE:
        out = state.actions
        n = legal_foes(table, rules, state, p, out)
        return greedy_foe(table, state, out, n) if n > 0 else STOP
    if decision == D_WEB:
        out = state.actions
        n = legal_webs(rules, state, out)
        return greedy_web(rules, state, p, out, n) if n > 0 else STOP
    if decision == D_RECALL:
        out = state.actions
        n = legal_recalls(table, state, piles, out)
        return greedy_recall(table, out, n) if n > 0 else STOP
    if decision == D_EFFECT_SUMMON:
        out = state.actions
        n = legal_effect_summons(table, rules, state, piles, p, out)
        return greedy_effect_summon(table, out, n) if n > 0 else STOP
    return STOP


@llvm_inline_kernel
def random_choice(
    table: IntArray, clauses: IntArray, rules: Any, state: Any, piles: IntArray, p: EngineInt, decision: EngineInt
) -> EngineInt:
    """Random's answer to p's open decision of kind `decision` among those `legal_actions` lists (each kind through
    its own lister), STOP when it lists none: the main action, channeled card and response window any listed action,
    STOP included, each as likely (`random_among`); a symbol action STOP or any worthwhile one
    (`symbol_by_weighing`); the channel at the start of the opponent's turn by `random_foe_channel` (asked even when
    STOP alone is listed: it draws for each of its monsters even then); a discard or a fork's next space any listed,
    each as likely; a swap a coin toss; a Done Zone's card any copy (`random_recall`); a `foe` clause's enemy, a
    web's space or an effect summon any listed (`random_pick`). Each draws from the match's generator as the engine
    always drew."""
    out = state.actions
    if decision == D_SYMBOL:
        n = legal_symbols(table, rules, state, p, out)
        if n == 0:
            return STOP
        return symbol_by_weighing(table, clauses, rules, state, p, np.bool_(False), out, n)
    if decision == D_FORK:
        n = legal_forks(rules, state, p, out)
        return out[rng_below(state.rng, n)] if n > 0 else STOP
    if decision == D_SWAP:
        return state.game[G_ASKED] if rng_below(state.rng, 2) == 0 else STOP
    if decision == D_MAIN:
        n = legal_main(table, rules, state, p, out)
        return random_among(state, out, n)
    if decision == D_CHANNEL_CARD:
        n = legal_channel_cards(table, rules, state, p, out)
        return random_among(state, out, n)
    if decision == D_FOE_CHANNEL or decision == D_FOE_RESPONSE:
        n = legal_foe_channels(table, rules, state, p, out)
        if n == 0:
            return STOP
        if decision == D_FOE_CHANNEL:
            return random_foe_channel(table, clauses, rules, state, p, out, n)
        return random_among(state, out, n)
    if decision == D_DISCARD:
        n = legal_discards(state, p, out)
        return out[rng_below(state.rng, n)] if n > 0 else STOP
    if decision == D_RECALL:
        n = legal_recalls(table, state, piles, out)
        return random_recall(state, out, n) if n > 0 else STOP
    if decision == D_FOE:
        n = legal_foes(table, rules, state, p, out)
    elif decision == D_WEB:
        n = legal_webs(rules, state, out)
    elif decision == D_EFFECT_SUMMON:
        n = legal_effect_summons(table, rules, state, piles, p, out)
    else:
        return STOP
    return random_pick(state, out, n) if n > 0 else STOP


NOT_EXPLORED = np.int64(-3)
"""`epsilon_answer`'s word for "greedy answers this one" (no action is numbered -3)."""


@rules_kernel
def epsilon_answer(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    p: EngineInt,
    decision: EngineInt,
    block: IntArray,
) -> EngineInt:
    """An epsilon-greedy side's answer (its policy block `block`) when it explores (the coin `plays_random`, from the
    side's own generator):
    random's (`random_choice`, drawing from that generator while `random_played` has not traded it back); else
    NOT_EXPLORED, and greedy answers. Compiled once and called from each decision point's copy of `choose`: copied
    in with it, each copy's compile grew (the cold compile of SOURCE measured in docs/rulesets/source.md)."""
    if plays_random(block, state.rng):
        return random_played(block, state.rng, random_choice(table, clauses, rules, state, piles, p, decision))
    return NOT_EXPLORED


@inline_kernel
def policy_of(state: Any, p: EngineInt) -> IntArray:
    """Player p's policy block (side[p, S_POLICY:], `workbench.policies`): what `choose` reads and the match loop
    seats."""
    return state.side[p, S_POLICY : S_POLICY + POLICY_WORDS]


@llvm_inline_kernel
def choose(table: IntArray, clauses: IntArray, rules: Any, state: Any, piles: IntArray) -> EngineInt:
    """The deciding player's (game[G_ACTOR]) answer to the open decision (game[G_DECISION]): one of the actions
        `legal_actions` lists for it, STOP when it lists none. The rules' one door to the policies (`decide` and `ask`
        call it) and the only code that reads which policy a side plays (its block, `policy_of`; a `search` side plays
        GREEDY in the state, the search drives its turn from outside). Random answers by `random_choice`,
        epsilon-greedy by `epsilon_answer` when it explores (called, not copied in), else by `greedy_choice`, as
        greedy and search. Copied into
        each decision point by LLVM (`decide`, `ask`),
    where the kind is known, so each keeps only its own kind's branch (as the per-kind choosers before it did: a call
    here cost greedy some 8% of its speed)."""
    game = state.game
    p = game[G_ACTOR]
    block = policy_of(state, p)
    policy = block[P_CODE]
    if policy == RANDOM:
        return random_choice(table, clauses, rules, state, piles, p, game[G_DECISION])
    if policy == EPSILON_GREEDY:
        explored = epsilon_answer(table, clauses, rules, state, piles, p, game[G_DECISION], block)
        if explored != NOT_EXPLORED:
            return explored
    return greedy_choice(table, clauses, rules, state, piles, p, game[G_DECISION])


# =====================================================================================================================
# The search policy: determinized Monte Carlo over the turn's main action, its rollouts shared out by successive
# halving and cut off with the game's own evaluation
#
# A `search` side plays GREEDY in the state; its turn is driven from here. After the turn begins (the opponent's
# channels, the draw) its candidates are "greedy plays the turn" (candidate 0: kept on a tie), "no main action this
# turn" and a summon of each distinct monster it may summon now, each followed by greedy's rest of the turn. The
# decision's budget, `search_rollouts` rollouts per candidate on average, is spent by successive halving
# (`workbench.search_kernels`): ceil(log2 m) rounds, in each every surviving candidate gets the same number of
# rollouts and the worse half is dropped. A rollout: the sampled world (the state cloned, what the side cannot see
# dealt anew by `determinize`, once per world for every candidate of a round) cloned into a work state, the
# candidate taken, greedy's rest of the turn, then `search_depth` more turns (0: the rest of the match) by
# `search_rollout_policy` for both sides, the position then scored by `search_evaluation`. In a round every candidate
# meets the same sampled worlds with the same later dice (common random numbers).
# =====================================================================================================================

CAND_GREEDY, CAND_PASS = -1, -2
"""Candidates that are not a summon: greedy plays the turn; no main action this turn."""
SEARCH_SEED = 0x5EA7C4
"""Mixed into the match's seed to seed the search's own generator (never the match's: that would foretell the
match's later draws)."""

EVAL_SP = 10
"""What `search_evaluation` counts one SourcePoint as worth (its unit: a tenth of a SourcePoint). The EVAL_* weights
are a logistic fit of who went on to win from the positions of greedy-against-greedy matches of the bundled decks,
scaled so a SourcePoint is EVAL_SP (tests/rulesets/source/search_eval_fit.py; docs/rulesets/source.md, *The search
policy*)."""
EVAL_MONSTER = -189
"""A monster of the side's on the map."""
EVAL_ST = 31
"""Per ten points of a monster's ST, its four values summed (so per 2.5 points of the average)."""
EVAL_STEP = -1
"""Per road step a monster has come from its owner's summoning space towards the opponent's."""
EVAL_ON_GOAL = -30
"""Per ten points of the best ST of the side's monster on the opponent's summoning space (the generator attack it
threatens)."""
EVAL_HAND_MONSTER = 44
"""A monster card in hand."""
EVAL_HAND_OTHER = 47
"""Any other card in hand (equipment, trap, channeled effect)."""
EVAL_SUPPORT = 69
"""A card on one of the side's support spaces (equipment or channeled effect in play)."""
EVAL_TRAP = 59
"""A trap set face down on the map."""
EVAL_HALF = 508
"""The advantage that scores three quarters of a win (`search_kernels.position_points`)."""


@rules_kernel
def clone_state(table: IntArray, rules: Any, state: Any, piles: IntArray, work: Any, wpiles: IntArray) -> None:
    """The match state (board, support spaces, players, hands, decks, token decks and Done Zones, match words, the
    generator and the symbol phase's waiting action) copied into the work record and piles, so the copy plays on as
    the source would; counters, trace and the search's words stay the work's own."""
    # Loops, not slice assignments: the kernels run without Numba's reference counting. Only the map's own rows and
    # the batch's deck and card columns: the rest never changes.
    mon, w_mon = state.mon, work.mon
    cells, w_cells = state.cells, work.cells
    for i in range(rules.opts[O_SPACES]):
        for j in range(MON_WIDTH):
            w_mon[i, j] = mon[i, j]
        for j in range(CELL_WIDTH):
            w_cells[i, j] = cells[i, j]
    sup, w_sup = state.sup, work.sup
    side, w_side = state.side, work.side
    hand, w_hand = state.hand, work.hand
    library, w_library = piles[PILE_LIBRARY], wpiles[PILE_LIBRARY]
    tokens, w_tokens = piles[PILE_TOKENS], wpiles[PILE_TOKENS]
    for q in range(2):
        for k in range(MAX_SUPPORT):
            for j in range(SUPPORT_WIDTH):
                w_sup[q, k, j] = sup[q, k, j]
        for j in range(SIDE_WIDTH):
            w_side[q, j] = side[q, j]
        for j in range(side[q, S_HAND]):
            w_hand[q, j] = hand[q, j]
        for j in range(rules.opts[O_DECK_WIDTH]):
            w_library[q, j] = library[q, j]
        for j in range(2 * table.shape[0]):
            w_tokens[q, j] = tokens[q, j]
    game, w_game = state.game, work.game
    for j in range(GAME_WIDTH):
        w_game[j] = game[j]
    for j in range(4):
        work.rng[j] = state.rng[j]
        work.choice[j] = state.choice[j]


@rules_kernel
def sort_shuffle(values: IntArray, count: EngineInt, rng: IntArray, tally: IntArray, cards: EngineInt) -> None:
    """Sort the first `count` values (card ids below `cards`, counted in `tally`), then shuffle them: the order
    depends on which values they are and on the generator, never on where they lay."""
    for card in range(cards):
        tally[card] = 0
    for i in range(count):
        tally[values[i]] += 1
    at = 0
    for card in range(cards):
        for _ in range(tally[card]):
            values[at] = card
            at += 1
    shuffle_in_place(values, count, rng)


@rules_kernel
def determinize(table: IntArray, rules: Any, state: Any, piles: IntArray, p: EngineInt) -> None:
    """What p cannot see, dealt anew from what it can know with the state's generator (in a work state).

    The opponent's hand, face-down traps and draw deck are one pool of unseen cards (how many of each is seen):
    the pool is sorted, then shuffled; its first trap cards in that order go face down on the opponent's trap
    spaces (only a trap is set), the rest fill the hand, then the deck. p's own draw deck is sorted and shuffled,
    and with `symbol_draw=blind` so are both players' face-down symbols not yet drawn."""
    opts = rules.opts
    cells = state.cells
    side = state.side
    hand = state.hand
    rng = state.rng
    library = piles[PILE_LIBRARY]
    pool = piles[PILE_POOL, 0]
    tally = piles[PILE_POOL, 1]  # free: the pool is row 0 only, and the plane is at least twice the cards wide
    cards = table.shape[0]
    foe = 1 - p
    held = side[foe, S_HAND]
    top = side[foe, S_DECK]
    n = 0
    for i in range(held):
        pool[n] = hand[foe, i]
        n += 1
    traps = 0
    for space in range(opts[O_SPACES]):
        if cells[space, C_TRAP] >= 0 and cells[space, C_TRAP_OWNER] == foe:
            pool[n] = cells[space, C_TRAP]
            n += 1
            traps += 1
    for i in range(top, side[foe, S_DECK_N]):
        pool[n] = library[foe, i]
        n += 1
    sort_shuffle(pool, np.int64(n), rng, tally, cards)
    placed = 0
    rest = 0
    space = 0
    for i in range(n):
        card = pool[i]
        if placed < traps and table[card, T_KIND] == K_TRAP:
            while not (cells[space, C_TRAP] >= 0 and cells[space, C_TRAP_OWNER] == foe):
                space += 1
            cells[space, C_TRAP] = card
            space += 1
            placed += 1
        else:
            pool[rest] = card
            rest += 1
    for i in range(rest):
        if i < held:
            hand[foe, i] = pool[i]
        else:
            library[foe, top + i - held] = pool[i]
    own_top = side[p, S_DECK]
    left = side[p, S_DECK_N] - own_top
    for i in range(left):
        pool[i] = library[p, own_top + i]
    sort_shuffle(pool, left, rng, tally, cards)
    for i in range(left):
        library[p, own_top + i] = pool[i]
    if opts[O_BLIND] == 1:
        for q in range(2):
            nxt = side[q, S_NEXT]
            for i in range(SYMBOLS - nxt):
                pool[i] = side[q, S_ORDER0 + nxt + i]
            sort_shuffle(pool, SYMBOLS - nxt, rng, tally, np.int64(SYMBOLS))
            for i in range(SYMBOLS - nxt):
                side[q, S_ORDER0 + nxt + i] = pool[i]


@rules_kernel
def search_side_worth(table: IntArray, rules: Any, state: Any, p: EngineInt) -> int:
    """Player p's worth in `search_evaluation` (EVAL_* weights, in tenths of a SourcePoint): its SourcePoints; each
    of its monsters on the map, by its ST (the four values summed, on p's turn) and the road steps it has come from
    p's summoning space towards the opponent's, and the one standing on the opponent's summoning space by the
    generator attack it threatens (its best ST); its monster and other cards in hand; its cards on support spaces;
    its traps set."""
    opts = rules.opts
    dist = rules.dist
    mon = state.mon
    side = state.side
    goal = opts[O_SUMMONING + 1 - p]
    start = dist[opts[O_SUMMONING + p], goal]
    worth = EVAL_SP * side[p, S_SP]
    slots = state.game[G_MONSTERS + p]
    while slots != 0:
        m = lowest_set_bit(slots)
        slots &= slots - 1
        total = 0
        best = 0
        for s in range(SYMBOLS):
            value = st_of(table, state, m, s, p)
            total += value
            best = max(best, value)
        space = mon[m, M_SPACE]
        worth += EVAL_MONSTER + EVAL_ST * total // 10 + EVAL_STEP * (start - dist[space, goal])
        if space == goal:
            worth += EVAL_ON_GOAL * best // 10
    for i in range(side[p, S_HAND]):
        worth += EVAL_HAND_MONSTER if table[state.hand[p, i], T_KIND] == K_MONSTER else EVAL_HAND_OTHER
    sup = state.sup
    for k in range(opts[O_SUPPORT]):
        if sup[p, k, SU_CARD] >= 0:
            worth += EVAL_SUPPORT
    cells = state.cells
    for space in range(opts[O_SPACES]):
        if cells[space, C_TRAP] >= 0 and cells[space, C_TRAP_OWNER] == p:
            worth += EVAL_TRAP
    return worth


@rules_kernel
def search_evaluation(table: IntArray, rules: Any, state: Any, p: EngineInt) -> EngineInt:
    """A rollout's points for p: WIN_POINTS, DRAW_POINTS or 0 once the match is over; cut off before, the difference
    of the two players' worth (`search_side_worth`) squashed into (0, WIN_POINTS) by `position_points`."""
    game = state.game
    if game[G_OVER] == 1:
        if game[G_WINNER] == p:
            return WIN_POINTS
        return DRAW_POINTS if game[G_WINNER] == -1 else 0
    advantage = search_side_worth(table, rules, state, p) - search_side_worth(table, rules, state, 1 - p)
    return position_points(advantage, EVAL_HALF)


@rules_kernel
def take_candidate(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    search: IntArray,
    p: EngineInt,
    k: EngineInt,
) -> None:
    """Take candidate k of the decision in `search` (the searching state's words) in `state` (none for greedy's:
    its turn takes it)."""
    candidate = search[SR_CAND + k]
    if candidate == CAND_PASS:
        state.side[p, S_MAIN_DONE] = 1  # no main action at all this turn: the decision is not opened again
    elif candidate >= 0:
        # The main decision's applier, as the match loop takes it (`apply` would compile every kind's applier in).
        open_decision(state, np.int64(D_MAIN), p)
        apply_main(
            table,
            clauses,
            rules,
            state,
            piles,
            counters,
            events,
            p,
            pack_action(np.int64(K_MONSTER), candidate, search[SR_HOW + k], np.int64(-1)),
        )
        state.game[G_DECISION] = D_NONE
        foe_response_window(table, clauses, rules, state, piles, counters, events, p)


@rules_kernel
def search_world(
    table: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    world: Any,
    world_piles: IntArray,
    p: EngineInt,
    seed: EngineInt,
) -> None:
    """One sampled world for a round of rollouts: the state cloned into `world`, what p cannot see dealt anew from
    `seed`. Every candidate's rollout starts from a copy of it."""
    clone_state(table, rules, state, piles, world, world_piles)
    rng_seed(world.rng, seed)
    determinize(table, rules, world, world_piles, p)


@rules_kernel
def search_rollout(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    search: IntArray,
    world: Any,
    world_piles: IntArray,
    work: Any,
    wpiles: IntArray,
    w_counters: IntArray,
    w_events: IntArray,
    p: EngineInt,
    k: EngineInt,
    dice: EngineInt,
) -> EngineInt:
    """One rollout of candidate k (of the decision in `search`) for p in the sampled `world` (`search_world`),
    played in the work record and piles with the later dice from seed `dice`: the candidate, greedy's rest of the
    turn, then `search_depth` more turns (0: to the match's end) by `search_rollout_policy`; its points
    (`search_evaluation`)."""
    opts = rules.opts
    clone_state(table, rules, world, world_piles, work, wpiles)
    rng_seed(work.rng, dice)
    w_side = work.side
    w_game = work.game
    w_side[p, S_POLICY + P_CODE] = GREEDY
    w_side[1 - p, S_POLICY + P_CODE] = opts[O_SEARCH_POLICY]
    take_candidate(table, clauses, rules, work, wpiles, w_counters, w_events, search, p, k)
    play_turn(table, clauses, rules, work, wpiles, w_counters, w_events, p, np.bool_(True))
    w_side[p, S_POLICY + P_CODE] = opts[O_SEARCH_POLICY]
    depth = opts[O_SEARCH_DEPTH]
    q = 1 - p
    turns = 0
    # The match loop's own order (`play_match`): the turn counted on, the cap checked, the turn played.
    while w_game[G_OVER] == 0 and (depth == 0 or turns < depth):
        w_game[G_TURN] += 1
        if w_game[G_TURN] > opts[O_TURN_CAP]:
            w_game[G_TURN] = opts[O_TURN_CAP]
            w_game[G_OVER] = 1
            w_game[G_WINNER] = -1
            break
        play_turn(table, clauses, rules, work, wpiles, w_counters, w_events, q, np.bool_(False))
        q = 1 - q
        turns += 1
    return search_evaluation(table, rules, work, p)


@inline_kernel
def context_world(context: Any, seed: EngineInt) -> None:
    """`halving_search`'s world dealer: `search_world` into the world record and piles."""
    table, _clauses, rules, state, piles, world, world_piles, _work, _wpiles, _counters, _events, p = context
    search_world(table, rules, state, piles, world, world_piles, p, seed)


@inline_kernel
def context_rollout(context: Any, k: EngineInt, _world_seed: EngineInt, dice: EngineInt) -> EngineInt:
    """`halving_search`'s rollout: candidate k from the world `context_world` dealt."""
    table, clauses, rules, state, _piles, world, world_piles, work, wpiles, w_counters, w_events, p = context
    return search_rollout(
        table, clauses, rules, state.search, world, world_piles, work, wpiles, w_counters, w_events, p, k, dice
    )


@inline_kernel
def search_decision(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    world: Any,
    world_piles: IntArray,
    work: Any,
    wpiles: IntArray,
    w_counters: IntArray,
    w_events: IntArray,
    p: EngineInt,
) -> int:
    """The search side p's candidates for its turn (listed in `state.search`) and the best after successive halving
    over `search_rollouts` x candidates rollouts (`world` holds each sampled world, `work` a rollout); returns its
    index (0, greedy's turn, on a tie)."""
    opts = rules.opts
    hand = state.hand
    search = state.search
    out = state.actions
    search[SR_CAND] = CAND_GREEDY
    search[SR_CAND + 1] = CAND_PASS
    m = 2
    # The summons are the main decision's listed summons, one per distinct monster. Its own lister, as the match loop
    # calls it (`legal_actions` would compile every kind's lister into the search).
    open_decision(state, np.int64(D_MAIN), p)
    n = legal_main(table, rules, state, p, out)
    state.game[G_DECISION] = D_NONE
    # Greedy's own main action (it reads the state and draws nothing): a summon it would make is candidate 0 already,
    # so the same summon (the same card, the same way) is not listed again. Its rollouts would give it the very
    # figures of candidate 0, which wins the tie: leaving it out changes no choice and saves its rollouts.
    greedy = greedy_main(table, rules, state, p, out, n)
    # Typed for mypy only (a bare annotation runs no code): ints at first, then what the hand and action words hold.
    greedy_card: EngineInt
    greedy_how: EngineInt
    greedy_card = -1
    greedy_how = -1
    if greedy != STOP and action_code(greedy) == K_MONSTER:
        greedy_card = hand[p, action_x(greedy)]
        greedy_how = action_y(greedy)
    for i in range(n):
        if out[i] == STOP or action_code(out[i]) != K_MONSTER:
            continue
        h = action_x(out[i])
        card = hand[p, h]
        if card == greedy_card and action_y(out[i]) == greedy_how:
            continue
        repeated = False
        for j in range(2, m):
            if hand[p, search[SR_CAND + j]] == card:
                repeated = True
                break
        if not repeated:
            search[SR_CAND + m] = h
            search[SR_HOW + m] = action_y(out[i])
            m += 1
    search[SR_N] = m
    context = (table, clauses, rules, state, piles, world, world_piles, work, wpiles, w_counters, w_events, p)
    budget = opts[O_SEARCH_ROLLOUTS] * m
    search[SR_ROLLOUTS] += halving_search(
        context_world, context_rollout, context, search, SR_ORDER, SR_POINTS, SR_TRIED, np.int64(m), budget, search
    )
    search[SR_DECISIONS] += 1
    best = search[SR_ORDER]
    search[SR_CHOICE] = best
    return best


@inline_kernel
def search_turn(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    world: Any,
    world_piles: IntArray,
    work: Any,
    wpiles: IntArray,
    w_counters: IntArray,
    w_events: IntArray,
    p: EngineInt,
) -> None:
    """The search side p's whole turn: it begins, the search picks the main action, greedy plays the rest."""
    begin_turn(table, clauses, rules, state, piles, counters, events, p)
    if state.game[G_OVER] == 1:
        return
    best = search_decision(
        table, clauses, rules, state, piles, world, world_piles, work, wpiles, w_counters, w_events, p
    )
    take_candidate(table, clauses, rules, state, piles, counters, events, state.search, p, np.int64(best))
    play_turn(table, clauses, rules, state, piles, counters, events, p, np.bool_(True))


@rules_kernel
def play_searched_matches(
    table: IntArray,
    clauses: IntArray,
    rules: Any,
    state: Any,
    piles: IntArray,
    counters: IntArray,
    events: IntArray,
    world: Any,
    world_piles: IntArray,
    work: Any,
    wpiles: IntArray,
    w_counters: IntArray,
    w_events: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: EngineInt,
    policy_b: EngineInt,
    winners: Any,
    turns: Any,
) -> None:
    """`play_matches` when a side plays `search`: its turns go through `search_turn` (the world and work records and
    piles are the rollouts'), the search's generator seeded from each match's seed; in the state it plays greedy."""
    opts = rules.opts
    game = state.game
    for i in range(seeds.shape[0]):
        begin_match_counters(counters, i)
        setup_match(table, rules, state, piles, counters, events, deck_a, deck_b, seeds[i], first[i])
        setup_policies(
            state, GREEDY if policy_a == SEARCH else policy_a, GREEDY if policy_b == SEARCH else policy_b, seeds[i]
        )
        rng_seed(state.search, seeds[i] ^ SEARCH_SEED)
        p = game[G_FIRST]
        while game[G_OVER] == 0:
            if game[G_TURN] > opts[O_TURN_CAP]:
                game[G_TURN] = opts[O_TURN_CAP]
                log_event(events, state.ec, game[G_TURN], p, EV_TURN_CAP, -1, -1, opts[O_TURN_CAP])
                game[G_OVER] = 1
                game[G_WINNER] = -1
                break
            if (policy_a if p == 0 else policy_b) == SEARCH:
                search_turn(
                    table,
                    clauses,
                    rules,
                    state,
                    piles,
                    counters,
                    events,
                    world,
                    world_piles,
                    work,
                    wpiles,
                    w_counters,
                    w_events,
                    p,
                )
            else:
                play_turn(table, clauses, rules, state, piles, counters, events, p, np.bool_(False))
            if game[G_OVER] == 1:
                break
            game[G_TURN] += 1
            p = 1 - p
        end_match_counters(counters, game[G_TURN], np.int64(2))
        winners[i] = game[G_WINNER]
        turns[i] = game[G_TURN]


# =====================================================================================================================
# The Python edge: compiling cards, state, batches, traces
# =====================================================================================================================


def option_array(options: Mapping[str, OptionValue], board: BoardMap) -> IntArray:
    """Rule options and the map's fixed spaces as the kernel's integer array (order: OPTION_ORDER, then the map)."""
    values = np.zeros(OPTIONS_WIDTH, dtype=np.int64)
    values[O_TURN_CAP] = int(options["turn_cap"])
    values[O_SOURCEPOINTS] = SOURCEPOINTS_BY_LENGTH[str(options["game_length"])]
    values[O_BLIND] = 1 if options["symbol_draw"] == "blind" else 0
    values[O_TIE] = TIES.index(str(options["combat_tie"]))
    values[O_TOKEN_COPIES] = int(options["token_deck_copies"])
    values[O_SP_CAP] = int(bool(options["sourcepoints_cap"]))
    values[O_DECK_OUT_LOSES] = int(bool(options["deck_out_loses"]))
    values[O_SUMMONING], values[O_SUMMONING + 1] = board.summoning
    values[O_FLUX], values[O_FLUX + 1] = board.flux
    values[O_SUPPORT] = board.half.support_spaces
    values[O_SPACES] = board.packed.shape[0]
    values[O_HIT_GEN_FOR_GOOD] = 1 if options["hit_generator_blocks"] == "for_good" else 0
    values[O_EFFECT_SUMMON_IGNORES] = 1 if options["effect_summon_requirements"] == "ignored" else 0
    values[O_RECALL_TO_DECK] = 1 if options["recall_to"] == "deck" else 0
    values[O_PARALLEL_STEPS] = int(options["parallel_steps"])
    values[O_WEB_BLOCKS] = 1 if options["web_hinders"] == "block" else 0
    values[O_SEARCH_ROLLOUTS] = int(options["search_rollouts"])
    values[O_SEARCH_POLICY] = RANDOM if options["search_rollout_policy"] == "random" else GREEDY
    values[O_SUMMON_NEAREST] = 1 if options["summon_placement"] == "nearest" else 0
    values[O_PARALLEL_WHEN_BLOCKED] = 1 if options["parallel_move"] == "when_blocked" else 0
    values[O_PARALLEL_ATTACKS] = 1 if options["parallel_attacks"] == "with_move_parallel" else 0
    values[O_CHANNEL_AT_START] = 1 if options["channel_on_opponent_turn"] == "turn_start" else 0
    values[O_SEARCH_DEPTH] = int(options["search_depth"])
    return values


EQUIPMENT_LASTING_VERBS = ("st", "move", "cannot_attack", "cannot_move", "move_parallel")
"""An equipment card's clauses that hold while it is active (kept in the card table), not run once."""


def _not_simulated(cardset: CardSet, entry: Any, message: str, actual: str) -> Finding:
    return cardset.finding(
        "info",
        "source.effect_not_simulated",
        f"{message} The simulator plays the card without it.",
        entry,
        "effects",
        expected="a clause of the SOURCE effects vocabulary the engine plays",
        actual=actual,
    )


def compile_cards(cardset: CardSet, options: Mapping[str, OptionValue]) -> CompiledCards:
    """The card table, the effect-clause and bracket tables, and the joined map."""
    turn_cap = int(options["turn_cap"])
    if turn_cap < 1 or int(options["token_deck_copies"]) < 0:
        raise WorkbenchInputError(
            "turn_cap must be at least 1 and token_deck_copies at least 0.",
            expected="turn_cap >= 1, token_deck_copies >= 0",
        )
    board = load_board(str(options["map"]), str(options["map_alignment"]))
    entries = list(cardset)
    names = [entry.card.name for entry in entries]
    table = np.zeros((len(entries), TABLE_WIDTH), dtype=np.int64)
    clause_table = np.zeros((len(entries), MAX_CLAUSES, CLAUSE_WIDTH), dtype=np.int64)
    bracket_table = np.zeros((len(entries), MAX_BRACKETS, 2), dtype=np.int64)
    findings: list[Finding] = []
    default_active = str(options["channeled_active_default"])
    for index, entry in enumerate(entries):
        card = entry.card
        kind = KINDS.index(card.kind)
        table[index, T_KIND] = kind
        table[index, T_TERR] = card.terrestrial  # type: ignore[attr-defined]
        table[index, T_OTHER] = card.otherworldly  # type: ignore[attr-defined]
        requirement = card.terrestrial + card.otherworldly  # type: ignore[attr-defined]
        if kind in (K_MONSTER, K_TOKEN):
            for s, field_name in enumerate(("alpha", "beta", "gamma", "delta")):
                table[index, T_ST + s] = getattr(card, field_name)
            table[index, T_VALUE] = sum(getattr(card, f) for f in ("alpha", "beta", "gamma", "delta"))
            monster_type = getattr(card, "type", None)
            if monster_type in TYPE_CODES:
                table[index, T_TYPE] = 1 << TYPE_CODES.index(monster_type)
        elif kind == K_EQUIPMENT:
            table[index, T_TURNS] = card.turns  # type: ignore[attr-defined]
            table[index, T_VALUE] = 40 + 25 * requirement
        elif kind == K_TRAP:
            table[index, T_VALUE] = 30 + 25 * requirement
        else:
            table[index, T_VALUE] = 45
        active = getattr(card, "active", None) or (default_active if kind == K_CHANNELED else "Y/O")
        table[index, T_ACTIVE] = {"Y": ACTIVE_Y, "O": ACTIVE_O, "Y/O": ACTIVE_Y | ACTIVE_O}[active]
        labels: list[str] = []
        if kind == K_CHANNELED:
            table[index, T_USES] = card.uses  # type: ignore[attr-defined]
            for symbol in card.symbols:  # type: ignore[attr-defined]
                name = canonical_symbol(symbol)
                if name is not None:
                    table[index, T_SYMBOLS] |= 1 << SYMBOL_NAMES.index(name)
            parsed = parse_brackets(card.brackets) or []  # type: ignore[attr-defined]
            for b, written in enumerate(parsed[:MAX_BRACKETS]):
                bracket_table[index, b] = (written.low, OPEN_BRACKET if written.high is None else written.high)
                labels.append(written.label())
            table[index, T_NBRACKET] = min(len(parsed), MAX_BRACKETS)
        count = 0
        for item in parse_effects(card.effects, card.kind):  # type: ignore[attr-defined]
            if isinstance(item, EffectProblem):
                findings.append(_not_simulated(cardset, entry, item.reason, item.text))
                continue
            assert isinstance(item, EffectClause)
            bracket = -1
            if item.bracket is not None:
                if item.bracket not in labels:
                    findings.append(
                        _not_simulated(
                            cardset,
                            entry,
                            f"the clause `{item.text}` sits under bracket {item.bracket}, which the "
                            "brackets column does not have.",
                            item.text,
                        )
                    )
                    continue
                bracket = labels.index(item.bracket)
            arg = 0
            if item.verb == "st":
                arg = ALL_SYMBOLS if item.symbol is None else ("alpha", "beta", "gamma", "delta").index(item.symbol)
            if item.verb == "summon_token":
                target = cardset.find(item.token or "")
                if target is None or target.card.kind != "token":
                    findings.append(
                        _not_simulated(cardset, entry, f"`{item.text}` names no token of this set.", item.text)
                    )
                    continue
                if kind == K_TOKEN:
                    findings.append(
                        _not_simulated(cardset, entry, "a token summoning a token is not simulated.", item.text)
                    )
                    continue
                arg = names.index(target.card.name)
            if item.verb == "summon_from":
                arg = FROM_DECK if item.source == "deck" else FROM_HAND
            if item.verb == "recall":
                arg = (0 if item.card_kind is None else KINDS.index(item.card_kind) + 1) + (
                    RECALL_OPPONENT if item.source == "opponent" else 0
                )
            if kind == K_TOKEN and (
                item.foe or item.verb not in ("st", "move", "cannot_attack", "expire", "move_parallel")
            ):
                findings.append(
                    _not_simulated(
                        cardset,
                        entry,
                        f"a token's `{item.text}` is not simulated: only its own ST, move, cannot attack, "
                        "expire and move parallel clauses are.",
                        item.text,
                    )
                )
                continue
            types = sum(1 << TYPE_CODES.index(code) for code in item.types)
            lasting_own = not item.foe and item.verb in (
                "st",
                "move",
                "cannot_attack",
                "cannot_move",
                "expire",
                "move_parallel",
            )
            if types and kind in (K_MONSTER, K_TOKEN) and lasting_own:
                # A monster's own lasting clause: its type is known now, so the condition holds always or never.
                if not table[index, T_TYPE] & types:
                    findings.append(
                        _not_simulated(
                            cardset,
                            entry,
                            f"`{item.text}` asks its own monster for a type it does not have, so it never applies.",
                            item.text,
                        )
                    )
                    continue
                types = 0
            if kind == K_EQUIPMENT and not item.foe and item.verb in EQUIPMENT_LASTING_VERBS:
                # Lasting while the equipment is active: kept in the card table, not run as a one-off clause. One
                # `if TYPE` holds for all of a card's lasting clauses, so they apply to one monster all or none.
                if table[index, T_EQ_NCOND] and table[index, T_EQ_TYPES] != types:
                    findings.append(
                        _not_simulated(
                            cardset,
                            entry,
                            f"`{item.text}` asks for other types than the card's other lasting clauses; an "
                            "equipment card's lasting clauses share one `if TYPE`.",
                            item.text,
                        )
                    )
                    continue
                table[index, T_EQ_NCOND] = 1
                table[index, T_EQ_TYPES] = types
                if item.verb == "st":
                    for s in range(SYMBOLS):
                        if arg in (ALL_SYMBOLS, s):
                            table[index, T_EQ_ST + s] += item.amount or 0
                elif item.verb == "move":
                    table[index, T_EQ_MOVE] += item.amount or 0
                elif item.verb == "move_parallel":
                    table[index, T_EQ_PARALLEL] = 1
                elif item.verb == "cannot_move":
                    table[index, T_EQ_NOMOVE] = 1
                else:
                    table[index, T_EQ_NOATTACK] = 1
                continue
            if count == MAX_CLAUSES:
                findings.append(
                    _not_simulated(cardset, entry, f"only the first {MAX_CLAUSES} clauses are simulated.", item.text)
                )
                continue
            clause_table[index, count, :C_LOW] = (
                OPCODES[item.verb],
                int(item.foe),
                item.amount or 0,
                arg,
                bracket,
                types,
            )
            count += 1
        table[index, T_NCLAUSE] = count
        clause_table[index, :, C_LOW:] = bracket_table[index]
    cost = np.array([float(table[i, T_TERR] + table[i, T_OTHER]) for i in range(len(entries))], dtype=np.float64)
    cost[table[:, T_KIND] == K_TOKEN] = np.nan  # tokens live in the token deck, never in a measured main deck
    return CompiledCards(
        names=tuple(names),
        table=table,
        cost=cost,
        slot=table[:, T_KIND].copy(),
        options=option_array(options, board),
        findings=tuple(findings),
        extra={
            # A card's clauses with its brackets in columns C_LOW and C_HIGH: what the kernels read.
            "clauses": clause_table,
            # The brackets alone (the trace's labels read them).
            "brackets": bracket_table,
            "map": board.packed,
            "distance": board.distance,
            "space_names": board.names,
        },
    )


def new_rules(compiled: CompiledCards, deck_size: int) -> Any:
    """The rules record (RULES_DTYPE) of a batch with decks of up to `deck_size` cards."""
    spaces = int(compiled.options[O_SPACES])
    rules = np.zeros(1, dtype=RULES_DTYPE).view(np.recarray)[0]
    rules.opts[:OPTIONS_WIDTH] = compiled.options
    rules.opts[O_DECK_WIDTH] = max(deck_size, 1)
    rules.mp[:, :] = NO_SPACE
    rules.mp[:spaces] = compiled.extra["map"]
    rules.dist[:spaces, :spaces] = compiled.extra["distance"]
    return rules


def new_state(compiled: CompiledCards, deck_size: int) -> tuple[Any, IntArray]:
    """An empty match state (STATE_DTYPE record) and its piles, sized for decks of up to `deck_size` cards."""
    state = np.zeros(1, dtype=STATE_DTYPE).view(np.recarray)[0]
    state.mon[:, :] = -1
    state.cells[:, :] = -1
    state.sup[:, :, :] = -1
    width = max(deck_size, 1)
    # The pool of unseen cards: the opponent's hand, trap spaces and deck at most (and four symbols).
    pool = HAND_WIDTH + MAX_SPACES + width + SYMBOLS
    piles = np.zeros((3, 2, max(width, 2 * len(compiled.names), pool)), dtype=np.int64)
    return state, piles


def _run(
    compiled: CompiledCards,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: int,
    policy_b: int,
    events: IntArray,
) -> tuple[Any, Any, Any, IntArray]:
    n = seeds.shape[0]
    winners = np.zeros(n, dtype=np.int8)
    turns = np.zeros(n, dtype=np.int32)
    deck_size = max(len(deck_a), len(deck_b))
    rules = new_rules(compiled, deck_size)
    state, piles = new_state(compiled, deck_size)
    counters = new_counters(len(compiled.names))
    decks_and_seeds = (
        np.ascontiguousarray(deck_a, dtype=np.int64),
        np.ascontiguousarray(deck_b, dtype=np.int64),
        np.ascontiguousarray(seeds, dtype=np.int64),
        np.ascontiguousarray(first, dtype=np.int8),
    )
    if SEARCH in (policy_a, policy_b):
        world, world_piles = new_state(compiled, deck_size)
        work, wpiles = new_state(compiled, deck_size)
        play_searched_matches(
            compiled.table,
            compiled.extra["clauses"],
            rules,
            state,
            piles,
            counters,
            events,
            world,
            world_piles,
            work,
            wpiles,
            new_counters(len(compiled.names)),
            np.zeros((0, EVENT_WIDTH), dtype=np.int64),
            *decks_and_seeds,
            policy_a,
            policy_b,
            winners,
            turns,
        )
    else:
        play_matches(
            compiled.table,
            compiled.extra["clauses"],
            rules,
            state,
            piles,
            counters,
            events,
            *decks_and_seeds,
            policy_a,
            policy_b,
            winners,
            turns,
        )
    return winners, turns, published_counters(counters), events[: int(state.ec[0])]


def run_batch(
    compiled: CompiledCards,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: int,
    policy_b: int,
    traced: bool,
) -> BatchRun:
    """One batch (`_run`), with the trace's room when `traced`; `batch_and_trace` makes the engine's `play_batch` and
    `play_traced` of it."""
    events = np.zeros((MAX_TRACE_EVENTS if traced else 0, EVENT_WIDTH), dtype=np.int64)
    winners, turns, counters, trace = _run(compiled, deck_a, deck_b, seeds, first, policy_a, policy_b, events)
    return BatchRun(winners, turns, counters, trace)


play_batch, play_traced = batch_and_trace(run_batch)


def describe_event(compiled: CompiledCards, row: Sequence[int]) -> str:
    """One trace row as a line a designer can read."""
    _turn, player, code, card, other, amount = (int(v) for v in row)
    me = "AB"[player] if player in (0, 1) else ""
    spaces: tuple[str, ...] = compiled.extra["space_names"]

    def name(card_id: int) -> str:
        return compiled.names[card_id] if card_id >= 0 else "?"

    def space(index: int) -> str:
        return spaces[index] if 0 <= index < len(spaces) else "?"

    def symbols(which: int) -> str:
        return "each ST" if which == ALL_SYMBOLS else f"{SYMBOL_NAMES[which]} ST"

    how = {
        SUMMON_CONVENTIONAL: "summons",
        SUMMON_REACTIONARY: "makes a reactionary summon of",
        SUMMON_TOKEN: "summons the token",
        SUMMON_EFFECT_HAND: "summons by an effect, from hand,",
        SUMMON_EFFECT_DECK: "summons by an effect, from the deck,",
    }
    lines = {
        EV_TURN: lambda: f"{me}'s turn (SourcePoints: {me} {amount}, {'AB'[1 - player]} {other})",
        EV_DRAW: lambda: f"{me} draws {name(card)}",
        EV_DECK_EMPTY: lambda: f"{me} has no card left to draw",
        EV_DECK_OUT: lambda: f"{me} must draw from an empty deck and loses",
        EV_SUMMON: lambda: f"{me} {how.get(amount, 'summons')} {name(card)} onto {space(other)}",
        EV_PUSH: lambda: f"{name(card)} ({me}) is pushed back from {space(other)} to {space(amount)}",
        EV_SYMBOL: lambda: (
            f"{me} draws the {SYMBOL_NAMES[other]} symbol: {name(card)}'s {SYMBOL_NAMES[other]} ST is {amount}"
        ),
        EV_MOVE: lambda: (
            f"{name(card)} ({me}) moves from {space(other)} to {space(amount)}"
            if other != amount
            else f"{name(card)} ({me}) cannot move from {space(other)}"
        ),
        EV_SWAP: lambda: f"{name(card)} ({me}) swaps back from {space(other)} to {space(amount)}",
        EV_ATTACK: lambda: f"{me} attacks {name(other)} (ST {amount}) with {name(card)}",
        EV_DESTROYED: lambda: f"{name(card)} ({me}) is destroyed" + (f" by {name(other)}" if other >= 0 else ""),
        EV_TIE: lambda: f"{name(card)} and {name(other)} tie at {amount}: neither is destroyed",
        EV_GEN_ATTACK: lambda: (
            f"{name(card)} ({me}) attacks {'AB'[1 - player]}'s SOURCE generator for {amount}: "
            f"{'AB'[1 - player]} has {other} SourcePoints; {me}'s turn ends"
        ),
        EV_EQUIP: lambda: f"{me} equips {name(other)} with {name(card)} ({amount} turns)",
        EV_EQUIP_END: lambda: f"{me}'s {name(card)} goes to the Done Zone",
        EV_TRAP_SET: lambda: f"{me} sets a trap face down on {space(other)} ({name(card)})",
        EV_TRAP_SPRING: lambda: f"{me}'s trap {name(card)} springs on {name(other)} at {space(amount)}",
        EV_CHANNEL_PLACE: lambda: f"{me} places the channeled effect {name(card)} ({amount} uses)",
        EV_CHANNEL: lambda: (
            f"{me} channels {name(card)} through {name(other)} (bracket {_bracket_label(compiled, card, amount)})"
        ),
        EV_CHANNEL_MISS: lambda: (
            f"{me}'s {name(card)} is not activated: "
            + (
                f"the {SYMBOL_NAMES[other]} symbol is not one of its symbols"
                if amount == 0
                else "no bracket holds the ST"
            )
        ),
        EV_CHANNEL_DONE: lambda: f"{me}'s {name(card)} is used up and goes to the Done Zone",
        EV_ST: lambda: (
            f"{name(card)} ({me}): {symbols(other % 10)} {amount:+d}" + (" this turn" if other >= 10 else "")
        ),
        EV_MOVEMOD: lambda: f"{name(card)} ({me}) moves {amount:+d} spaces" + (" this turn" if other == 1 else ""),
        EV_NOATTACK: lambda: f"{name(card)} ({me}) may not attack" + (" this turn" if other == 1 else ""),
        EV_NOMOVE: lambda: f"{name(card)} ({me}) may not move" + (" this turn" if other == 1 else ""),
        EV_EXPIRE_SET: lambda: (
            f"{name(card)} ({me}) will be destroyed at the end of the {_ordinal(amount)} turn, counting this one"
        ),
        EV_SP_CHANGE: lambda: f"{name(card)}: {me}'s SourcePoints {amount:+d} (now {other})",
        EV_DISCARD: lambda: f"{me} discards {name(card)} (hand limit 10)",
        EV_EXPIRE: lambda: f"{name(card)} ({me}) expires",
        EV_TURN_CAP: lambda: f"turn cap of {amount} turns reached: the match is a draw",
        EV_NO_TOKEN: lambda: (
            f"{me} cannot summon {name(card)}: "
            + ("no free space next to the card's subject" if amount == 1 else "no copy left in the token deck")
        ),
        EV_PARALLEL_SET: lambda: (
            f"{name(card)} ({me}) may move across parallel spaces" + (" this turn" if other == 1 else "")
        ),
        EV_SIDESTEP: lambda: f"{name(card)} ({me}) steps across from {space(other)} to the parallel {space(amount)}",
        EV_WEB_SET: lambda: f"{name(card)}: {me} lays a web tile on {space(other)}",
        EV_WEB_CLEARED: lambda: f"{name(card)}: {me} removes the opponent's web tile from {space(other)}",
        EV_WEBBED: lambda: (
            f"{name(card)} ({me}) is caught in {'AB'[other] if other in (0, 1) else '?'}'s web on {space(amount)}: "
            "its move ends"
        ),
        EV_NO_WEB: lambda: f"{name(card)}: {me} finds no space to lay a web tile on",
        EV_RECALL: lambda: (
            f"{me} brings {name(card)} back from "
            + ("their own" if other == player else f"{'AB'[other] if other in (0, 1) else '?'}'s")
            + (" Done Zone onto the top of their deck" if amount == 1 else " Done Zone into their hand")
        ),
        EV_NO_RECALL: lambda: (
            f"{me} brings nothing back: no "
            + (KINDS[amount - 1] + " " if 0 < amount <= len(KINDS) else "")
            + f"card in {'their own' if other == player else 'the opponent' + chr(39) + 's'} Done Zone"
        ),
        EV_NO_SUMMON: lambda: (
            f"{name(card)}: {me} summons nothing from {'the deck' if other == FROM_DECK else 'hand'} "
            + ("(no free space next to the card's subject)" if amount == 1 else "(no monster it may summon there)")
        ),
    }
    describe = lines.get(code)
    return describe() if describe else f"event {code} (player {player}, card {card}, other {other}, amount {amount})"


def _ordinal(n: int) -> str:
    return f"{n}" + ("th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


def _bracket_label(compiled: CompiledCards, card: int, bracket: int) -> str:
    low, high = (int(v) for v in compiled.extra["brackets"][card, bracket])
    return f"{low}+" if high >= OPEN_BRACKET else f"{low}-{high}"


MAP_CAVEAT = (
    "SOURCE's map (its roads, forks and parallel spaces) is the workbench's reconstruction from the rule document's "
    "words, whose pictures are missing: every movement, and so every figure and verdict of this engine, rests on it "
    "(docs/rulesets/source.md, The map)."
)
"""Said with every SOURCE result (issue 32, item 10)."""

ENGINE = Engine(
    version=ENGINE_VERSION,
    policies=POLICY_NAMES,
    cost_axis="occupied spaces required",
    compile_cards=compile_cards,
    play_batch=play_batch,
    play_traced=play_traced,
    describe_event=describe_event,
    caveats=(MAP_CAVEAT,),
)
