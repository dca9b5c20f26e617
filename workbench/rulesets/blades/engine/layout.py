"""The Millennium Blades tournament engine's layout: its constants (the card and effect tables' columns, the rule
options, the tableau's, seat's and match's fields, the effect queue, the search's words, the decisions, the trace's
event codes) and the match state, one record (`STATE_DTYPE`), with a seat's policy block by name (`policy_of`).

The bottom of the engine package (`workbench/rulesets/blades/engine/__init__.py` says how its modules stand): it
imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from workbench.engines import COUNTER_COLUMNS, EVENT_WIDTH, MAX_TRACE_EVENTS, EngineInt, IntArray, inline_kernel
from workbench.limits import LIMITS
from workbench.play.policies import POLICY_WORDS

F = TypeVar("F", bound=Callable[..., Any])


# ---- card table columns -------------------------------------------------------------------------------------------
T_KIND, T_STARS, T_SYMBOLS, T_CLAUSES, T_FLAGS, T_ONGOING_STARS, T_TOP_STARS, T_TIMINGS, T_REACTIONS = range(9)
TABLE_WIDTH = 9
"""T_TIMINGS and T_REACTIONS say which clauses a card has of each kind, so the rules go straight to them rather than
reading every clause's row of the effect table (a turn's Actions, a clash's reactions, a single's Play clauses: those
reads were about an eighth of a clash deck's search, measured): T_TIMINGS has bit `timing * MAX_CLAUSES + c`
set when clause c has that timing (`clauses_timed`), T_REACTIONS bit `trigger * MAX_CLAUSES + c` when clause c is a
Reaction to that trigger (`reactions_to`)."""
K_SINGLE, K_DECK_BOX, K_ACCESSORY, K_METAGAME = range(4)
KIND_NAMES = ("single", "deck_box", "accessory", "metagame")
F_ONGOING_PROTECT_SELF = 1
F_ONGOING_PROTECT_ADJACENT = 2
F_TOP_PROTECT_SELF = 4
F_TOP_PROTECT_ADJACENT = 8
F_MIMICRY = 16
F_SCURRY = 32
F_HAS_SCORE = 64
F_HAS_NEXT = 128
MAX_CLAUSES = 4
"""Clauses simulated per card; more are reported (info finding) and left out."""
CLAUSE_BITS = (1 << MAX_CLAUSES) - 1
"""One bit per clause: a card's clauses of one timing (`clauses_timed`) or Reactions to one trigger (`reactions_to`)."""
MAX_SYMBOLS = 62
"""Distinct element and type names a set may use and still be counted by `per <symbol>` (one bit each)."""

# ---- effect table: effects[card, clause, field] -------------------------------------------------------------------
E_TIMING, E_TRIGGER, E_CLASH_ALL = range(3)
ACTION_BASE = 3
A_VERB, A_AMOUNT, A_PER, A_ARG, A_WHOSE, A_PICK = range(6)
ACTION_WIDTH = 6
# np.int64, not int: kernels pass the parts, triggers and queue kinds on, and Numba compiles a called kernel once per
# literal int (tests/kernel_overloads.py).
PART_MAIN, PART_WIN, PART_LOSE, PART_TIE = (np.int64(v) for v in range(4))
EFFECT_WIDTH = ACTION_BASE + 4 * ACTION_WIDTH

TIMING_CODES = ("Play", "Next", "Flip", "Ongoing", "Top", "Score", "Reaction", "Action")
TM_PLAY, TM_NEXT, TM_FLIP, TM_ONGOING, TM_TOP, TM_SCORE, TM_REACTION, TM_ACTION = range(8)
TRIGGER_CODES = ("win clash", "lose clash", "flipped", "discarded")
TR_WIN, TR_LOSE, TR_FLIPPED, TR_DISCARDED = (np.int64(v) for v in range(4))
(
    V_NONE,
    V_GAIN,
    V_FLIP,
    V_STAR,
    V_PROTECT,
    V_CLASH,
    V_MIMICRY,
    V_BLAST_OFF,
    V_SCURRY,
    V_ANVIL,
    V_THWOMP,
    V_DISCARD,
    V_SLOT,
    V_ATTACH,
    V_COPY,
) = range(15)
VERB_CODES = {
    "gain": V_GAIN,
    "flip": V_FLIP,
    "star": V_STAR,
    "protect": V_PROTECT,
    "clash": V_CLASH,
    "discard": V_DISCARD,
    "slot": V_SLOT,
    "attach": V_ATTACH,
    "copy": V_COPY,
}
KEYWORD_VERBS = {
    "Mimicry": V_MIMICRY,
    "Blast Off": V_BLAST_OFF,
    "Scurry": V_SCURRY,
    "Anvil Drop": V_ANVIL,
    "Thwomp!": V_THWOMP,
}
(
    PER_NONE,
    PER_CARD,
    PER_CARD_LEFT,
    PER_FACE_DOWN,
    PER_STARS_AT_LEAST,
    PER_STARS_AT_MOST,
    PER_SYMBOL,
    PER_ATTACHED,
) = range(8)
PER_CODES = {
    "card": PER_CARD,
    "card left": PER_CARD_LEFT,
    "face-down": PER_FACE_DOWN,
    "stars at least": PER_STARS_AT_LEAST,
    "stars at most": PER_STARS_AT_MOST,
    "symbol": PER_SYMBOL,
    "attached": PER_ATTACHED,
}
PER_REVEALED = 16
"""Added to a `per` code for `per revealed ...`: the condition counts the singles of the hand, not the tableau."""
WHOSE_YOURS, WHOSE_OPPONENT = range(2)
PICK_HIGHEST, PICK_LOWEST, PICK_CHOICE = range(3)
COPY_LEFT, COPY_RIGHT = range(2)
"""`copy left|right`, kept in the action's pick field."""
BLAST_OFF_TOKENS = 3

# ---- rule options, in the order of the options array ---------------------------------------------------------------
OPTION_ORDER: tuple[str, ...] = (
    "players",
    "tableau_slots",
    "vp_round",
    "match_result",
    "store_kinds",
    "metagame",
    "search_rollouts",
    "search_rollout_policy",
    "search_depth",
)
(
    O_PLAYERS,
    O_SLOTS,
    O_VP_ROUND,
    O_MATCH_RESULT,
    O_STORE_KINDS,
    O_METAGAME,
    O_SEARCH_ROLLOUTS,
    O_SEARCH_POLICY,
    O_SEARCH_DEPTH,
) = range(len(OPTION_ORDER))
VP_ROUNDS = ("prerelease", "round1", "round2", "final")
VP_CHART = np.array([[7, 5, 4, 3, 2], [21, 15, 12, 9, 6], [28, 20, 16, 12, 8], [42, 30, 24, 18, 12]], dtype=np.int64)
"""The Tournament VP Chart, one row per round of VP_ROUNDS, one column per place."""
MATCH_RESULTS = ("head_to_head", "first_place")
MR_HEAD_TO_HEAD, MR_FIRST_PLACE = range(2)
STORE_KINDS = ("boosters", "all")
METAGAME_MODES = ("revealed", "none")
MG_REVEALED, MG_NONE = range(2)
MAX_META_STACKS = 4
"""Meta sets (stacks) the engine reveals a card of; the document has two, Elemental and Type."""
BOOSTER_SET_KINDS = ("core", "expansion", "premium", "master")
"""The set kinds shuffled into the store (document: Set Selection); starters, promos and pro cards are dealt or won."""

MAX_PLAYERS = 5
MAX_SLOTS = 12
HAND_LIMIT = 8
"""Singles a tournament deck may hold; more are removed at random (the Illegal Decks box)."""
MAX_HAND = 64
AFTERMARKET_LIMIT = 12

# ---- per-slot tableau fields, per-area fields -----------------------------------------------------------------------
TB_CARD, TB_UP, TB_TOKENS, TB_NEXT, TB_ATTACHED = range(5)
TAB_WIDTH = 5
AREA_BOX, AREA_ACCESSORY_1, AREA_ACCESSORY_2 = range(3)
AR_CARD, AR_UP = range(2)
W_BOX, W_ACCESSORY_1, W_ACCESSORY_2, W_META = -1, -2, -3, -4
"""`where` codes of effect sources off the tableau (a tableau source is its slot, 0 or more); W_META is a revealed
metagame card, which only scores."""

# ---- per-player fields ----------------------------------------------------------------------------------------------
S_RP, S_HAND, S_USED, S_NEXT_TOKENS, S_POLICY = range(5)
"""S_POLICY .. S_POLICY + POLICY_WORDS - 1: the seat's policy block (`workbench.play.policies`: code, parameter, own
generator; `policy_of`)."""
S_DECKSIDE, S_VP, S_PLACE, S_PLAYED, S_PASSED, S_SLOTS, S_TOP, S_REACTS, S_CARDS = range(
    S_POLICY + POLICY_WORDS, S_POLICY + POLICY_WORDS + 9
)
"""S_TOP: the slot of p's Top card (the right-most face-up one), -1 when there is none; S_REACTS: the T_REACTIONS of
p's face-up cards (tableau, deck box, accessories) or-ed together. Both are kept by the only rules that place a card
or turn one over (`place_single`, `flip_slot`, `flip_source`; `seat_summaries` at setup and for a board built by
hand), so `top_slot` reads one word rather than walking the tableau (which clashes and greedy's estimates did several
times a turn), and `react` passes over a seat with no face-up card reacting to the trigger without looking at each
card (after a clash, every seat taking part is asked)."""
SIDE_WIDTH = S_CARDS + MAX_HAND
"""side[p, S_CARDS:S_CARDS + side[p, S_HAND]] holds p's hand (up to MAX_HAND singles). The hand lives in the
player's record rather than in an array of its own because every kernel that resolves an effect can need it
(discards, reveals, attachments), and one array fewer on each of those calls is what kept the engine's speed
(measured in the commit that made it so)."""

# ---- match fields ---------------------------------------------------------------------------------------------------
(
    G_TURN,
    G_PLAYERS,
    G_CURRENT,
    G_STORE_LEFT,
    G_STORE_TOTAL,
    G_AFTERMARKET,
    G_FIRST,
    G_SLOTS,
    G_QHEAD,
    G_QTAIL,
    G_RIVAL,
    G_META,
) = range(12)
"""G_META .. G_META + MAX_META_STACKS - 1: the metagame card revealed from each stack (-1: none)."""
(
    G_DECISION,
    G_ACTOR,
    G_ACTED,
    G_PLACING,
    G_DX_WHERE,
    G_DX_CARD,
    G_DX_CLAUSE,
    G_DX_ARG,
    G_DX_LIMIT,
    G_DX_BY,
    G_LISTED,
) = range(G_META + MAX_META_STACKS, G_META + MAX_META_STACKS + 11)
"""The open decision (see D_*): its kind G_DECISION and the seat G_ACTOR that takes it. G_ACTED is 1 once the
turn's Action is used, G_PLACING the single being placed (the Scurry decision's card). G_DX_* say what an effect's
decision is about: the effect's source slot (`where`), card and clause, an argument (the flip's pick, the reaction's
trigger, the discard's amount, the given-up single's use), the Anvil Drop limit (-1: none) and the seat whose effect
it is. G_LISTED: how many legal actions the open decision has, listed by the rules as they opened it in the state's
`actions` (`rules.open_decision`)."""
(
    G_STAGE,
    G_SEAT,
    G_PASSES,
    G_CONT_A,
    G_CONT_B,
    G_ITEM,
    G_IT_SEAT,
    G_IT_A,
    G_IT_B,
    G_IT_C,
    G_IT_D,
    G_IT_E,
    G_IT_F,
) = range(G_LISTED + 1, G_LISTED + 14)
"""Where the rules go on once no decision is open (the rules stop at each decision and return; `rules.advance`
plays on from here). G_STAGE (STAGE_*) is the tournament's next step once the effects waiting are resolved: the
seat loop at seat G_SEAT with G_PASSES seats passed in a row, or the rest of seat G_CURRENT's turn (G_CONT_A and
G_CONT_B: the Action's source and whether it came before the single, or the placed single's slot and card).
G_ITEM (IT_*) is an effect whose resolution a decision interrupted, with its own words G_IT_*: a Reaction offer
going round a seat's cards (`react_on`) or a discard of several singles (`discard_on`); it goes on before the next
queued effect, as it did when the rules asked the policy in the middle of it."""
GAME_WIDTH = G_IT_F + 1

STAGE_SEAT, STAGE_ACTION_FLIP, STAGE_ACTION_DONE, STAGE_PLACED, STAGE_TURN_OVER, STAGE_OVER = range(6)
"""G_STAGE: STAGE_SEAT, the seat loop (a seat who can play takes a turn, one who cannot passes; every seat in a row
passed: the end and the final scoring); STAGE_ACTION_FLIP, an Action's card is flipped once its effects are
resolved ("perform the text on the card, then flip"); STAGE_ACTION_DONE, the turn's decision after an Action (the
single after one taken before, when the hand still holds one); STAGE_PLACED, the placed single's Blast Off tokens and
Next mark, then the Action after (unless one was taken before); STAGE_TURN_OVER, the turn ends once the decision open
closes with nothing after it (every turn decision opens with it); STAGE_OVER, the tournament is scored and over."""
IT_NONE, IT_REACT, IT_DISCARD = range(3)
"""G_ITEM: no interrupted effect; a seat's Reaction offers on one trigger (G_IT_SEAT the seat, G_IT_A the trigger,
G_IT_B the next source to look at, G_IT_C how many there are, G_IT_D the source's clauses still to offer, G_IT_E the
source, G_IT_F its card); a discard (G_IT_SEAT the seat discarding, G_IT_A how many, G_IT_B the seat whose effect it
is, G_IT_C the effect's card, G_IT_D singles discarded so far)."""

# ---- the effect queue -----------------------------------------------------------------------------------------------
Q_KIND, Q_PLAYER, Q_WHERE, Q_CARD, Q_CLAUSE, Q_PART, Q_ARG = range(7)
QUEUE_WIDTH = 7
QUEUE_SIZE = 4096
QK_EFFECT, QK_REACT = (np.int64(v) for v in range(2))
NONE = np.int64(-1)
"""-1 passed to a kernel (no slot, card, clause or argument) as an int64, not a literal a kernel would be compiled
for a second time."""
ZERO = np.int64(0)
"""0 passed to a kernel, likewise."""

# ---- the search policy's words (the state's `search` field) ---------------------------------------------------------
SR_RNG, SR_DECISIONS, SR_ROLLOUTS, SR_N, SR_CHOICE, SR_CAND = 0, 4, 5, 6, 7, 8
"""The search's words: its own xorshift generator (4 words), decisions searched and rollouts played (summed over
the batch), the last decision's candidate count and chosen candidate number, then its candidates (a card, or -1 for
greedy's turn), their points, the rollouts each was given, and the survivors' order (best first after the last
round: its first word is the choice)."""
MAX_CANDIDATES = MAX_HAND + 1
SR_POINTS = np.int64(SR_CAND + MAX_CANDIDATES)
"""Points per candidate of the last decision, summed over its rollouts (`rollout_points`)."""
SR_TRIED = np.int64(SR_POINTS + MAX_CANDIDATES)
"""Rollouts each candidate of the last decision was given (successive halving gives the ones dropped early fewer)."""
SR_ORDER = np.int64(SR_TRIED + MAX_CANDIDATES)
"""The candidates still in, best first once ranked (successive halving's list, `play.search.halving_keep`)."""
SR_WANTED = int(SR_ORDER + MAX_CANDIDATES)
"""The single the search chose for its seat's turn (-1: greedy's), played at the seat's single decision."""
SR_TURN = SR_WANTED + 1
"""The turn (game[G_TURN]) whose single the search last chose: it searches at its seat's first decision of a turn
(`decide_searched`), once; -1 before a tournament's first."""
SEARCH_WORDS = SR_TURN + 1
SEARCH_SEED = 0x5EA7C4
"""Mixed into the tournament's seed to seed the search's own generator (never the tournament's: that would
foretell its later store draws)."""
EVAL_RP_HALF = 6
"""The RP lead over the best other seat that `rollout_points` scores three quarters of the way from even to the next
VP: a rollout's VP come first, and its RP lead tells apart rollouts the VP leave even (with a budget of a few
rollouts, most candidates' VP are equal)."""
EVAL_PLAY_TENTHS = 40
"""What a single still to play is worth at a rollout's cut-off, in tenths of an RP (`project_rp`): fitted to the
final RP of greedy-against-greedy tournaments (docs/rulesets/blades.md, *The search policy*)."""

# ---- decisions: what `legal_actions` lists and `apply` takes (G_DECISION) -------------------------------------------
(
    D_NONE,
    D_ACTION_BEFORE,
    D_SINGLE,
    D_SCURRY,
    D_ACTION_AFTER,
    D_REACTION,
    D_FLIP_OWN,
    D_FLIP_OPPONENT,
    D_DISCARDER,
    D_GIVE_UP,
    D_CLASH_OPPONENT,
) = range(11)
DECISION_NAMES = (
    "none",
    "action before",
    "single",
    "scurry",
    "action after",
    "reaction",
    "flip own",
    "flip opponent",
    "discarder",
    "give up",
    "clash opponent",
)
"""A turn: D_ACTION_BEFORE (an Action, `(where + 3) * MAX_CLAUSES + clause`, or NO_ACTION), D_SINGLE (the hand
position of the single to play), D_SCURRY (a Scurry single's slot, 0 .. cards on the tableau; the last is the right
end), D_ACTION_AFTER (as before; only when no Action was taken before). Inside an effect: D_REACTION (USE or DECLINE
one Reaction clause), D_FLIP_OWN (the slot of one's own card a `flip yours` takes), D_FLIP_OPPONENT (`opponent *
MAX_SLOTS + slot` of the card a `flip opponent` or Anvil Drop takes), D_DISCARDER (the opponent a `discard opponent`
makes discard), D_GIVE_UP (the hand position of the single a seat discards or attaches: the seat's own choice, "of
their choice"), D_CLASH_OPPONENT (the opponent a one-on-one clash is with)."""
NO_ACTION = -1
"""The Action decisions' action that takes none."""
DECLINE, USE = 0, 1
"""The reaction decision's actions."""
GIVE_DISCARD, GIVE_ATTACH = range(2)
"""What the given-up single is for (G_DX_ARG of D_GIVE_UP)."""
MAX_ACTIONS = max(MAX_HAND, (MAX_SLOTS + 3) * MAX_CLAUSES + 1, (MAX_PLAYERS - 1) * MAX_SLOTS, MAX_SLOTS + 1)
"""As many actions as one decision can list: a whole hand, every Action clause and NO_ACTION, every opponent's card."""

# ---- the match state: one record ------------------------------------------------------------------------------------
TAB_SLOTS = MAX_SLOTS + 1
"""Tableau rows per seat: MAX_SLOTS and one spare."""
POOL_SIZE = MAX_PLAYERS * MAX_HAND
MAX_STORE = LIMITS["store_cards"].value
"""Store cards a tournament holds at most (the `store_cards` limit, checked by `compile_cards` and the whole game
before any tournament is played): the store is a field of the state record, so its length is fixed whatever the card
set (a record of another length would be another Numba type, a compilation per set). The bundled set's store holds
86 cards; the field costs 32 KiB of a record that holds a 224 KiB effect queue, and a clone copies only the
G_STORE_TOTAL cards in use."""
DECK_ROOM = MAX_HAND + 3
"""The cards of a deck a tournament reads at most: its first MAX_HAND singles, its first deck box and its first two
accessories (`setup_seat`; `python_side.seated_deck` keeps only those, in deck order)."""
META_ROOM = 1024
"""Metagame cards a batch's own table holds at most (every card of the meta stacks, `compile_cards`' `meta`)."""
MAX_LOCAL = MAX_STORE + 2 * DECK_ROOM + META_ROOM
"""The most distinct cards a batch's own table holds (`python_side.batch_cards`): the store's (at most MAX_STORE),
the two decks' (DECK_ROOM each) and the meta stacks' (META_ROOM). The rows of GAME_DTYPE's tables and of the state's
counters, whatever the set's size (up to 200,000 cards)."""
GAME_DTYPE = np.dtype(
    [
        ("table", np.int64, (MAX_LOCAL, TABLE_WIDTH)),
        ("effects", np.int64, (MAX_LOCAL, MAX_CLAUSES, EFFECT_WIDTH)),
    ]
)
"""The game data `G` of the contract, one record: the batch's own card table (`table[card, T_*]`) and effect table
(`effects[card, clause, field]`) by the batch's card ids (`python_side.batch_cards`: the cards the batch can reach,
in ascending set id, so every comparison or tie-break of card ids keeps its order). Read-only to every kernel; the
rule options are in the state record. Rows past the batch's cards are zeros no kernel reads."""

STATE_DTYPE = np.dtype(
    [
        ("tab", np.int64, (MAX_PLAYERS, TAB_SLOTS, TAB_WIDTH)),
        ("area", np.int64, (MAX_PLAYERS, 3, 2)),
        ("side", np.int64, (MAX_PLAYERS, SIDE_WIDTH)),
        ("game", np.int64, (GAME_WIDTH,)),
        ("queue", np.int64, (QUEUE_SIZE, QUEUE_WIDTH)),
        ("rng", np.int64, (4,)),
        ("store", np.int64, (MAX_STORE,)),
        ("options", np.int64, (len(OPTION_ORDER),)),
        ("ecount", np.int64, (1,)),
        ("search", np.int64, (SEARCH_WORDS,)),
        ("pool", np.int64, (POOL_SIZE,)),
        ("actions", np.int64, (MAX_ACTIONS,)),
        ("probe", np.int64, (MAX_ACTIONS,)),
        ("counters", np.int64, (2, MAX_LOCAL, COUNTER_COLUMNS)),
        ("events", np.int64, (MAX_TRACE_EVENTS, EVENT_WIDTH)),
    ]
)
"""One tournament's whole state as a single record (a numpy structured scalar, a Numba Record): a kernel call passes
one pointer for it, and every field has a shape known when compiling. The fields:

- `tab[p, s]`: seat p's tableau slot s (TB_* fields: card, face-up, star tokens, waiting for the next card, singles
  attached); slots 0 .. side[p, S_USED] - 1 hold cards, left to right.
- `area[p, a]`: p's deck box (a = AREA_BOX) and two accessories (AR_CARD, -1 for none, and AR_UP).
- `side[p]`: p's S_* fields, then p's hand from S_CARDS on (side[p, S_HAND] singles).
- `game`: the G_* fields of the tournament (turn, players, the store's counts, the queue's head and tail, the
  revealed metagame cards ...).
- `queue`: the effect queue, a ring of QUEUE_SIZE Q_* rows from game[G_QHEAD] to game[G_QTAIL].
- `rng`: the tournament's xorshift generator (4 words); every chance of the rules draws from it.
- `store`: the store, one card id per store copy, game[G_STORE_TOTAL] of them (the rest unused): undrawn cards
  first (game[G_STORE_LEFT]), then the drawn ones, most recent first (`reveal_from_store`).
- `options`: the rule options in OPTION_ORDER (`option_array`).
- `ecount`: how many trace events `events` holds; an untraced record starts it at MAX_TRACE_EVENTS, a full trace,
  so `log_event` writes nothing (the test it always made on the trace buffer's length).
- `search`: the search policy's words (SR_*: its own generator, its counts, the last decision's candidates and
  points); no other policy reads or writes them.
- `pool`: the search's scratch for the unseen singles it deals anew (`determinize`).
- `actions`: the out buffer the rule code lists the open decision's legal actions into (`legal_actions`) before
  asking the deciding seat's policy (`choose`).
- `probe`: a second out buffer, for a policy that lists another decision's actions to weigh one (greedy asks whether
  a flip or discard would find a target while it weighs an Action).
- `counters[side, card, column]`: the per-card counters (`workbench.engines.COUNTERS`, then its scratch columns) by
  the batch's card ids (MAX_LOCAL rows), summed over every tournament played on the record: a batch never zeroes
  them, and the Python side adds them into the set's counters after it. A search's rollouts count into their own
  records' counters, which nobody reads.
- `events`: the trace, `ecount[0]` rows (turn, player, code, card, other, amount) with the batch's card ids
  (`python_side` maps them to the set's before anything reads them: `workbench.play.assembly.global_trace`, by
  EV_CARD_IS_NOT_CARD and EV_OTHER_IS_CARD).

Every card id in the record is the batch's (`GAME_DTYPE`); the store, counters and trace, whose lengths a card set
or a trace would set, sit in it at fixed lengths (MAX_STORE, MAX_LOCAL, MAX_TRACE_EVENTS), so one record type, one
compilation, serves every set, batch and trace. Untouched, they cost no memory (a zeroed record's pages are not
touched), and `clone` copies none of the counters and trace."""

# Policy codes: `workbench.play.policies` (GREEDY, RANDOM, SEARCH, EPSILON_GREEDY, by index in `ENGINE.policies`). A
# seat's policy block (`policy_of`) is read by the policies alone (`decide`, through `choose`, `choose_turn_action` and
# `choose_single`), never by a rule. A `search` seat's choices are greedy's (clash targets, reactions, Scurry,
# Actions) but for the single of its turn; an `epsilon` seat's are random's with probability epsilon at each decision,
# else greedy's.
SEARCH_ROLLOUT_POLICIES = ("greedy", "random")
"""Option `search_rollout_policy`, by index: the policy code every seat plays in a rollout."""

# ---- trace event codes (row: turn, player, code, card, other, amount) -----------------------------------------------
(
    EV_SEAT,
    EV_TURN,
    EV_PLAY,
    EV_PASS,
    EV_RP,
    EV_FLIP,
    EV_TOKENS,
    EV_ACTION,
    EV_REACTION,
    EV_CLASH,
    EV_REVEAL,
    EV_CLASH_RESULT,
    EV_NO_CLASH,
    EV_NO_TARGET,
    EV_PLACE,
    EV_END,
    EV_TRIMMED,
    EV_STORE_RESHUFFLED,
    EV_AFTERMARKET_CLEARED,
    EV_OPENS,
    EV_META,
    EV_DISCARD,
    EV_ATTACH,
    EV_DETACH,
    EV_SLOT,
    EV_COPY,
) = range(26)

EV_OTHER_IS_CARD = (EV_FLIP, EV_TOKENS, EV_REVEAL, EV_DISCARD, EV_ATTACH, EV_COPY)
"""The event codes whose `other` column is a card id (or -1)."""
EV_CARD_IS_NOT_CARD = (EV_PLACE,)
"""The event codes whose `card` column is not a card id (EV_PLACE's is the seat's RP); in every other code it is one
(or -1). The kernels trace the batch's card ids, which `python_side` maps to the set's by these columns."""


# ---- a seat's policy block, by name ---------------------------------------------------------------------------------
# Here, below both its users: the rules' setup writes the block through it (`setup_seat`, `start_policy`) and only the
# policies read it, so neither imports the other for it.


@inline_kernel
def policy_of(st: Any, p: EngineInt) -> IntArray:
    """Seat p's policy block (`workbench.play.policies`: code, parameter, own generator), a view of its S_POLICY
    words."""
    return st.side[p, S_POLICY : S_POLICY + POLICY_WORDS]
