"""The SOURCE engine's layout: the card table's and clause table's columns, the rule options' order, the
per-monster, map-cell, support-space, player and match fields, the decisions' codes, the two records a kernel takes
(GAME_DTYPE, STATE_DTYPE) and the trace's event codes. Constants only: it imports no module of the package.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import (
    Any,
    TypeVar,
)

import numpy as np

from workbench.engines import (
    COUNTER_COLUMNS,
    EVENT_WIDTH,
    MAX_TRACE_EVENTS,
)
from workbench.play.policies import POLICY_WORDS
from workbench.rulesets.source.cards import MONSTER_TYPE_NAMES
from workbench.rulesets.source.map import (
    MAP_WIDTH,
    MAX_HALF_SPACES,
)

F = TypeVar("F", bound=Callable[..., Any])

ENGINE_VERSION = "8"
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
twice; search results change, greedy and random play exactly as before.
8: the search policy's defaults only (issue 33, item 2): 12 rollouts a candidate, each cut off after 12 turns and
scored by `search_evaluation` (engine 7: 16, to the match's end); the kernels are engine 7's, so `search:16:depth=0`
plays engine 7's search exactly; greedy and random play exactly as before."""


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
"""In the game record's options only (not `CompiledCards.options`): the batch's deck width, the library's columns
that hold cards (a `recall` to the deck finds it full there)."""
O_CARDS = OPTIONS_WIDTH + 1
"""In the game record's options only: how many cards the pairing's own table holds (`python_side.pairing`); the
Done Zone's columns of the token plane begin there (tokens[p, cards + card])."""
RULE_OPTIONS_WIDTH = OPTIONS_WIDTH + 2
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
"""side[p, S_POLICY:]: p's policy block (`workbench.play.policies`: code, parameter, the policy's own generator), read
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
G_STAGE, G_PLAYER, G_SYMBOLS_STAGE = 13, 14, 15
"""Where the match goes on once the open decision is taken (`rules.advance`): G_STAGE the stage next (STAGE_*),
G_PLAYER the player whose turn it is or is next, G_SYMBOLS_STAGE where the turn's symbol phase is (SYMBOLS_AHEAD,
SYMBOLS_PAUSED: a generator attack waits in `choice` while the main action and a channeled card may go first,
SYMBOLS_DONE)."""
G_WINDOW_PLAYER, G_WINDOW_KIND, G_WINDOW_RETURN = 16, 17, 18
"""A channel window open on the opponent's turn (STAGE_WINDOW): the player who may channel, the decision it is asked
(D_FOE_CHANNEL at the start of the turn, D_FOE_RESPONSE after an action) and the stage the turn goes on with after
it."""
G_FRAMES, G_MOVED = 19, 20
"""G_FRAMES: the resolution frames in use (`frames[:G_FRAMES]`, the last the one resolving); G_MOVED: the spaces the
last move took (what `move_monster`'s frame leaves when it ends)."""
GAME_WIDTH = 21

# ---- resolution frames: a rule that may ask a player while it resolves (a move, an effect's clauses), kept in the
# state so that it stops at the question and goes on with the answer (`rules.resolve_frame`) ----------------------
MAX_FRAMES = 8
"""The deepest the frames go: the turn's own step after an action, a channeled card's last use, a move, the clauses
of a card, an effect summon and the summoned monster's clauses."""
F_KIND, F_PHASE, F_ANSWER = 0, 1, 2
"""A frame's words: its kind (FR_*), the question it waits on (0: none; the kind's own codes) and the answer taken
(`rules.take` writes it)."""
F_ARGS = 3
"""A frame's first own word (FA_* of its kind)."""
FRAME_WIDTH = F_ARGS + 11
(
    FR_AFTER_MAIN,
    FR_AFTER_SYMBOL,
    FR_MOVE,
    FR_CLAUSES,
    FR_EFFECT_SUMMON,
    FR_CHANNEL_TAIL,
) = range(6)
"""FR_AFTER_MAIN: after the main action, the opponent's response window, then the stage in FA_THEN; FR_AFTER_SYMBOL:
after a symbol action, the window (or the phase's end after a generator attack); FR_MOVE: a monster's move, step by
step (D_FORK, D_SWAP); FR_CLAUSES: a card's clauses in turn (D_FOE, D_WEB, D_RECALL); FR_EFFECT_SUMMON: a `summon
from hand|deck` clause (D_EFFECT_SUMMON), then the summoned monster's clauses; FR_CHANNEL_TAIL: a channeled card
whose uses are spent leaves its support space once its clauses are done."""
FA_P, FA_THEN = F_ARGS, F_ARGS + 1
"""FR_AFTER_MAIN, FR_AFTER_SYMBOL: the player who acted and (FR_AFTER_MAIN) the stage next."""
FA_M, FA_LEFT, FA_START, FA_HERE, FA_MOVED, FA_ACROSS, FA_NEXT, FA_WEB, FA_OCCUPANT = range(F_ARGS, F_ARGS + 9)
"""FR_MOVE: the mover's slot, the spaces it may still go, where it started and stands, the spaces gone, the steps
across taken, and (waiting on D_SWAP) the space ahead, its web and the ally on it."""
FA_CARD, FA_PLAYER, FA_SUBJECT, FA_LASTING, FA_BRACKET, FA_FOE_ONLY, FA_SUMMONED, FA_I, FA_FOE, FA_COUNT = range(
    F_ARGS, F_ARGS + 10
)
"""FR_CLAUSES: the card, its player, the subject (a monster slot), how long its changes last, the channeled card's
bracket (-1: none), whether the subject's own lasting clauses are skipped, whether these are a summoned monster's
clauses (no effect summon, every lasting clause already held), the clause under way, the activation's enemy (-2: none
chosen yet) and the recalls still to make."""
FA_SOURCE, FA_NEAR, FA_BY_CARD, FA_TYPES = range(F_ARGS + 1, F_ARGS + 5)
"""FR_EFFECT_SUMMON (FA_P its player): where from (FROM_HAND or FROM_DECK), the space the summon goes nearest, the
card whose clause summons and the clause's types."""
FA_SUPPORT, FA_TAIL_CARD = F_ARGS + 1, F_ARGS + 2
"""FR_CHANNEL_TAIL (FA_P its player): the support space and the channeled card on it."""
(
    Q_NONE,
    Q_FORK,
    Q_SWAP,
    Q_WEB,
    Q_RECALL,
    Q_FOE,
    Q_FOE_OF_TYPE,
    Q_EFFECT_SUMMON,
) = range(8)
"""The question a frame waits on (F_PHASE): none, a fork's branch, a swap, where a web goes, a recall's card, the
activation's enemy, this clause's own enemy of its types, the effect summon's monster."""

# ---- the stages of a match (game[G_STAGE]; `rules.advance` plays them in this order, a turn at a time) -------------
(
    STAGE_TURN,
    STAGE_BEGIN,
    STAGE_DRAW,
    STAGE_MAIN,
    STAGE_CHANNEL,
    STAGE_CHECK,
    STAGE_SYMBOLS,
    STAGE_DISCARD,
    STAGE_NEXT,
    STAGE_WINDOW,
    STAGE_OVER,
) = range(11)
"""STAGE_TURN: a turn of G_PLAYER is next (the turn cap ends the match as a draw first); STAGE_BEGIN: the opponent's
channel window at its start; STAGE_DRAW: the draw and the fresh symbols (`start_turn`); STAGE_MAIN: the main action,
if not taken yet (D_MAIN), then the opponent's response window; STAGE_CHANNEL: a channeled card (D_CHANNEL_CARD), then
the window; STAGE_CHECK: on to the symbols, or the turn's end when the symbol phase is done; STAGE_SYMBOLS: the symbol
phase (D_SYMBOL, each action followed by the window), back to STAGE_MAIN when it pauses or ends; STAGE_DISCARD: the
end of the turn (D_DISCARD down to the hand limit, then every lasting change counts the turn off); STAGE_NEXT: the
turn is over (the match too, or the next player's turn is next); STAGE_WINDOW: a channel window (G_WINDOW_*);
STAGE_OVER: the match is over."""
SYMBOLS_AHEAD, SYMBOLS_PAUSED, SYMBOLS_DONE = range(3)
"""Where a turn is in its symbol phase (game[G_SYMBOLS_STAGE]): not begun, paused before a generator attack (the
attack waits in `choice`), or over."""
NO_STAGE = -1
"""`advance`'s `until` when it plays on to the next decision or the match's end."""

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
Questions a rule asks while it resolves (its frame waits on the answer, which `take` writes into it; none has STOP but
D_SWAP; a question with nothing to list is answered STOP, which greedy and random give without a draw): D_FORK, where a
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
"""The planes of the state's piles (3, 2, PILE_WIDTH): the draw decks, the token decks and Done Zones (per card:
copies in the token deck, then at column cards + card copies in the Done Zone, cards the pairing's O_CARDS), and
(row 0 only) the search's pool of unseen cards (row 1: its tally of card ids)."""

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
"""The candidates still in, best first once ranked (successive halving's list, `play.search.halving_keep`): its
first word is the choice."""
SR_SIDES = np.int64(SR_ORDER + MAX_CANDIDATES)
"""The sides that play `search` in the batch's match, as bits (side p is bit p): `search.decide_searched` searches
their main decisions."""
SR_TURN = np.int64(SR_SIDES + 1)
"""The turn whose main decision the search decided last (-1: none yet this match): it searches a turn's first main
decision only, and greedy plays the rest of the turn."""
SR_PASS = np.int64(SR_SIDES + 2)
"""1 when the search chose to take no main action in turn SR_TURN: its later main decisions that turn are STOP."""
SEARCH_WORDS = int(SR_SIDES + 3)
MAX_ACTIONS = HAND_WIDTH * MAX_SPACES + 1
"""The longest list of legal actions: every hand card an equipment card or trap with a target each on every space,
plus STOP (a symbol decision lists at most 62 monsters x 56; D_RECALL a Done Zone's copies, at most both decks)."""

MAX_DECK = 120
"""The most cards a deck the kernels play holds (a legal deck holds 40 to 60): the draw deck's columns in the state's
piles."""
MAX_PAIRING = 256
"""The most distinct cards a pairing (deck A, deck B and the tokens their clauses summon) holds: the rows of its own
card and clause tables (GAME_DTYPE), which the kernels play on (`python_side.pairing`), and of the state's counters."""
PILE_WIDTH = max(MAX_DECK, 2 * MAX_PAIRING, HAND_WIDTH + MAX_SPACES + MAX_DECK + SYMBOLS)
"""Columns of the state's piles: a draw deck, a token deck and Done Zone (2 * MAX_PAIRING), or the search's pool of
unseen cards (the opponent's hand, trap spaces and deck, and four symbols) with its tally of card ids."""

GAME_DTYPE = np.dtype(
    [
        ("table", np.int64, (MAX_PAIRING, TABLE_WIDTH)),
        ("clauses", np.int64, (MAX_PAIRING, MAX_CLAUSES, CLAUSE_WIDTH)),
        ("opts", np.int64, (RULE_OPTIONS_WIDTH,)),
        ("mp", np.int64, (MAX_SPACES, MAP_WIDTH)),
        ("dist", np.int64, (MAX_SPACES, MAX_SPACES)),
    ]
)
"""The game data `G` of a batch, read only, as one record: `table` the pairing's card table (T_* columns, one row per
card of the pairing, by its own card ids: `python_side.pairing`), `clauses` its clause and bracket table (C_*; a
`summon_token` clause's C_ARG is the token's pairing id), `opts` the rule options and the map's fixed spaces (O_*, in
OPTION_ORDER then the map's; then O_DECK_WIDTH and O_CARDS), `mp` the joined map (map.MP_* columns, one row per
space), `dist` the steps between any two spaces. Rows past the pairing's O_CARDS and the map's O_SPACES are unused
(zeros, map.NO_SPACE)."""

EC_COUNT, EC_ROOM = 0, 1
"""state.ec[EC_COUNT]: the trace's rows written; state.ec[EC_ROOM]: how many it may hold (0: an untraced match, whose
`trace` calls write nothing)."""
Z_SPACES, Z_DECK_WIDTH, Z_CARDS = 0, 1, 2
"""state.sizes: the map's spaces, the batch's deck width and the pairing's cards (G's O_SPACES, O_DECK_WIDTH,
O_CARDS), copied into the state when it is made so that `clone_state` copies just the rows and columns in use with
the state alone."""

STATE_DTYPE = np.dtype(
    [
        ("mon", np.int64, (MAX_SPACES, MON_WIDTH)),
        ("cells", np.int64, (MAX_SPACES, CELL_WIDTH)),
        ("sup", np.int64, (2, MAX_SUPPORT, SUPPORT_WIDTH)),
        ("side", np.int64, (2, SIDE_WIDTH)),
        ("hand", np.int64, (2, HAND_WIDTH)),
        ("game", np.int64, (GAME_WIDTH,)),
        ("rng", np.int64, (4,)),
        ("ec", np.int64, (2,)),
        ("sizes", np.int64, (3,)),
        ("choice", np.int64, (4,)),
        ("frames", np.int64, (MAX_FRAMES, FRAME_WIDTH)),
        ("scratch", np.int64, (SCRATCH_WIDTH,)),
        ("search", np.int64, (SEARCH_WORDS,)),
        ("actions", np.int64, (MAX_ACTIONS,)),
        ("piles", np.int64, (3, 2, PILE_WIDTH)),
        ("counters", np.int64, (2, MAX_PAIRING, COUNTER_COLUMNS)),
        ("events", np.int64, (MAX_TRACE_EVENTS, EVENT_WIDTH)),
    ]
)
"""One match's whole state `S` as one record: a kernel call passes one pointer for it, and every field has a shape
known when compiling. `mon[m]` is monster slot m (M_* fields), `cells[space]` a map space (C_*: occupant slot,
face-down trap and its owner, web tile), `sup[p, k]` p's support space k (SU_*), `side[p]` player p's words (S_*:
SourcePoints, hand and deck counts, symbols, policy...), `hand[p]` the card ids in p's hand (the first
side[p, S_HAND]), `game` the match's words (G_*), `rng` the match's xorshift generator, `ec` the trace's length and
room (EC_*), `sizes` the map's, deck's and pairing's sizes in use (Z_*), `choice` the symbol phase's chosen action
unpacked (action, monster, target, symbol; a generator attack waits there while the rest of the turn goes first),
`scratch` greedy's look-ahead (PATH_AT, SWAPS_AT, ST_AT, MOVE_AT, FOE_ST_AT). `search` belongs to the search policy
alone (SR_*: its own generator, its figures and the last decision's candidates); no rule reads it. `actions` is where
the match loop has `legal_actions` list the open decision's actions (game[G_DECISION], for player game[G_ACTOR]).
`piles` (PILE_*: draw decks, token decks and Done Zones, the search's pool) and `counters[side, card, column]`
(`workbench.engines.COUNTERS`, then its scratch columns) are by the pairing's card ids (GAME_DTYPE); the counters are
summed over every match played on the record (a batch never zeroes them: `python_side` adds them into the set's
counters after the batch). `events` is the trace (rows: turn, player, code, card, other, amount; card ids the
pairing's, mapped to the set's by `workbench.play.assembly.global_trace`): it holds ec[EC_ROOM] rows at most, 0 in a
batch.

One record type for batches and traces (the room is a word, not a type): SOURCE's kernels compile once for both, as
they did when the trace travelled beside the record. Cloning a state (`clone_state`) copies the rows and columns in
use (`sizes`) of every field but the trace, the counters, the search's words and the scratch."""

# Policies by code: GREEDY, RANDOM, SEARCH and EPSILON_GREEDY (`workbench.play.policies`, ENGINE.policies). A `search`
# side plays GREEDY in the state: the search drives it from outside.
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
EV_OTHER_IS_CARD: tuple[int, ...] = (EV_ATTACK, EV_DESTROYED, EV_TIE, EV_EQUIP, EV_TRAP_SPRING, EV_CHANNEL)
"""The events whose `other` is a card id (or -1: none), mapped with `card` to the set's ids
(`workbench.play.assembly.global_trace`); every event's `card` is a card id or -1."""
