"""The Millennium Blades tournament engine: whole tournaments on integer arrays, compiled by Numba.

Pure: numpy and numba only. `compile_cards` turns a validated card set into a
card table, an effect-opcode table (from the `effects` vocabulary in
`effects.py`) and the store deck once; the kernels below only ever see those
integer arrays and one state record per tournament (STATE_DTYPE: tableaus,
seats, the queue, the store, the generator ... as named fields), taking
`(table, effects, st, counters, events, ...)`, and all randomness comes
from the xorshift state seeded per match. Every step is a small kernel (setup,
play a single, use an action, flip, clash, resolve the effect queue, final
scoring) so scenario tests can build a tableau and call exactly the rule they
test.

A "match" of the shared runner is one tournament phase (document: Tournament
Phase) of `players` players (2-5, option): seat A plays deck A, seats B, C, ...
all play deck B. Seats sit in order A, B, C, ... ("clockwise"). The runner's
first player (0 = A, 1 = B, alternating) says whether A sits in the first or
the second half of the turn order (`opening_seat`): with two players, whether A
opens; with more, every position of A is equally likely over the alternation.

1. Setup: RP 0; each seat takes its deck's singles into hand (more than 8:
   random ones go back to the binder, as the Illegal Decks box says), and sets
   out its first deck box and first two accessories face-up. The store deck
   holds `copies` of every card of the set kinds in `store_kinds`. One metagame
   card of each meta set (stack) is revealed (option `metagame`; none in the
   pre-release; the whole game hands over its round's own, `market.py`).
2. Turns go round from the first player. A player who can play a single (one
   in hand and an open tableau slot) plays it into the left-most open slot
   (Scurry: anywhere) and may take one Action, before or after (an Action
   before that empties the player's own hand ends the turn); a player who
   cannot passes. The tournament ends when every player is unable to play.
3. Playing a single: its Play clauses, then the Next clauses of your earlier
   face-up cards waiting for "the next card you play" (and Blast Off tokens),
   in the document's priority order Top > Ongoing > Play > Next > Score (Top
   and Ongoing are continuous, so they are always already in force).
4. Effects resolve through a first-in first-out queue: a flip fires the flipped
   card's Flip clauses and, when an opponent's effect did it, its owner's
   `Reaction (flipped)`; a clash fires the initiator's outcome and the
   participants' `win clash` / `lose clash` reactions, the player whose turn it
   is first, then clockwise. A Reaction or Action flips its own card. Discards
   leave the hand for the binder, reveals count the hand, `slot +N` widens the
   player's tableau at the right, attached singles sit under their host until
   it flips, and a copy performs its neighbour's clauses of its own timing.
5. End: Score clauses of face-up cards (tableau left to right, deck box,
   accessories), then every player scores the revealed metagame cards for
   themselves; placement by RP, VP by the chart of `vp_round`; tied players
   share the VP of the places they cover, rounded down.

Rules and policies are apart: wherever the rules leave something to a player (the turn's Action before, single,
Scurry slot and Action after; a Reaction, a flip's target, the opponent a discard or a clash takes, the single given
up), they open a decision in the state (G_DECISION, G_ACTOR, D_*), list its legal actions (`legal_actions`, or the
kind's own lister), ask the deciding seat's policy (`choose`: greedy, random, search or epsilon-greedy, section
Policies) and apply the answer (`apply`, or the kind's own applier). No rule reads a seat's policy.

The per-match result for the two-sided runner is option `match_result`
(winner code 0 = A, 1 = deck B's side, -1 = even): by default A against one
rival seat drawn per match, else A's first place; A's VP, placement and RP are
in `play_batch_detailed`.
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
    log_event,
    new_counters,
    published_counters,
    rng_below,
    rng_seed,
    rules_kernel,
    shuffle_in_place,
)
from workbench.limits import LIMITS, over_limit
from workbench.policies import (
    GREEDY,
    P_CODE,
    POLICY_NAMES,
    POLICY_WORDS,
    SEARCH,
    plays_random,
    random_played,
    start_policy,
)
from workbench.rulesets.blades.cards import BladesCard
from workbench.rulesets.blades.costs import check_effects as effect_findings
from workbench.rulesets.blades.effects import EffectAction, parse_effects
from workbench.rulesets.blades.options import SEARCH_DEPTH, SEARCH_ROLLOUTS
from workbench.search_kernels import (
    WIN_POINTS,
    halving_search,
    position_points,
)

F = TypeVar("F", bound=Callable[..., Any])


# ---- card table columns -------------------------------------------------------------------------------------------
T_KIND, T_STARS, T_SYMBOLS, T_CLAUSES, T_FLAGS, T_ONGOING_STARS, T_TOP_STARS = range(7)
TABLE_WIDTH = 7
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
MAX_SYMBOLS = 62
"""Distinct element and type names a set may use and still be counted by `per <symbol>` (one bit each)."""

# ---- effect table: effects[card, clause, field] -------------------------------------------------------------------
E_TIMING, E_TRIGGER, E_CLASH_ALL = range(3)
ACTION_BASE = 3
A_VERB, A_AMOUNT, A_PER, A_ARG, A_WHOSE, A_PICK = range(6)
ACTION_WIDTH = 6
PART_MAIN, PART_WIN, PART_LOSE, PART_TIE = range(4)
EFFECT_WIDTH = ACTION_BASE + 4 * ACTION_WIDTH

TIMING_CODES = ("Play", "Next", "Flip", "Ongoing", "Top", "Score", "Reaction", "Action")
TM_PLAY, TM_NEXT, TM_FLIP, TM_ONGOING, TM_TOP, TM_SCORE, TM_REACTION, TM_ACTION = range(8)
TRIGGER_CODES = ("win clash", "lose clash", "flipped", "discarded")
TR_WIN, TR_LOSE, TR_FLIPPED, TR_DISCARDED = range(4)
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
"""S_POLICY .. S_POLICY + POLICY_WORDS - 1: the seat's policy block (`workbench.policies`: code, parameter, own
generator; `policy_of`)."""
S_DECKSIDE, S_VP, S_PLACE, S_PLAYED, S_PASSED, S_SLOTS, S_CARDS = range(
    S_POLICY + POLICY_WORDS, S_POLICY + POLICY_WORDS + 7
)
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
) = range(G_META + MAX_META_STACKS, G_META + MAX_META_STACKS + 10)
"""The open decision (see D_*): its kind G_DECISION and the seat G_ACTOR that takes it. G_ACTED is 1 once the
turn's Action is used, G_PLACING the single being placed (the Scurry decision's card). G_DX_* say what an effect's
decision is about: the effect's source slot (`where`), card and clause, an argument (the flip's pick, the reaction's
trigger, the discard's amount, the given-up single's use), the Anvil Drop limit (-1: none) and the seat whose effect
it is."""
GAME_WIDTH = G_DX_BY + 1

# ---- the effect queue -----------------------------------------------------------------------------------------------
Q_KIND, Q_PLAYER, Q_WHERE, Q_CARD, Q_CLAUSE, Q_PART, Q_ARG = range(7)
QUEUE_WIDTH = 7
QUEUE_SIZE = 4096
QK_EFFECT, QK_REACT = range(2)

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
"""The candidates still in, best first once ranked (successive halving's list, `search_kernels.halving_keep`)."""
SR_WANTED = int(SR_ORDER + MAX_CANDIDATES)
"""The single the search chose for its seat's turn (-1: greedy's), played at the seat's single decision."""
SEARCH_WORDS = SR_WANTED + 1
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
- `ecount`: how many trace events `events` holds.
- `search`: the search policy's words (SR_*: its own generator, its counts, the last decision's candidates and
  points); no other policy reads or writes them.
- `pool`: the search's scratch for the unseen singles it deals anew (`determinize`).
- `actions`: the out buffer the rule code lists the open decision's legal actions into (`legal_actions`) before
  asking the deciding seat's policy (`choose`).
- `probe`: a second out buffer, for a policy that lists another decision's actions to weigh one (greedy asks whether
  a flip or discard would find a target while it weighs an Action).

What is not in the record has a shape that depends on the card set or on tracing, so it stays an argument of its
own: the card table and effect table (read-only rules), the counters (one row per card) and the trace buffer (0 rows
in a batch, MAX_TRACE_EVENTS in a trace). A record type with those inside would be a new Numba type, so a new
compilation, for every card set; the store, whose length is the set's too, sits in the record at a fixed length
(MAX_STORE)."""

# Policy codes: `workbench.policies` (GREEDY, RANDOM, SEARCH, EPSILON_GREEDY, by index in `ENGINE.policies`). A seat's
# policy block (`policy_of`) is read by the policy doors alone (`choose`, `choose_turn_action`, `choose_single`), never
# by a rule. A `search` seat's choices are greedy's (clash targets, reactions, Scurry, Actions) but for the single of
# its turn; an `epsilon` seat's are random's with probability epsilon at each decision, else greedy's.
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


# =====================================================================================================================
# Reading the tableau
#
# The small helpers here and below are ordinary kernels, not inline ones: Numba types an inline kernel's body anew at
# every call site, which cost cold compile time (figures in docs/rulesets/blades.md, Simulation) and bought no speed.
# =====================================================================================================================


@rules_kernel
def top_slot(st: Any, p: EngineInt) -> int:
    """The slot of p's Top card: the right-most face-up card, or -1 when every card is face-down (or none)."""
    for s in range(st.side[p, S_USED] - 1, -1, -1):
        if st.tab[p, s, TB_UP] == 1:
            return s
    return -1


@rules_kernel
def stars_of(table: IntArray, st: Any, p: EngineInt, s: EngineInt) -> int:
    """Star rating of p's card in slot s: printed + tokens + Ongoing bonus (+ Top bonus when it is the Top card).
    A face-down card has no star rating: -1."""
    if st.tab[p, s, TB_UP] == 0:
        return -1
    card = st.tab[p, s, TB_CARD]
    value = table[card, T_STARS] + st.tab[p, s, TB_TOKENS] + table[card, T_ONGOING_STARS]
    if table[card, T_TOP_STARS] != 0 and top_slot(st, p) == s:
        value += table[card, T_TOP_STARS]
    return value


@rules_kernel
def symbols_of(table: IntArray, st: Any, p: EngineInt, s: EngineInt) -> int:
    """Symbol bits of a face-up card; Mimicry takes the printed symbols of the face-up card to its immediate left
    (copy effects are never copied), and its own when there is none."""
    if st.tab[p, s, TB_UP] == 0:
        return 0
    card = st.tab[p, s, TB_CARD]
    if table[card, T_FLAGS] & F_MIMICRY and s > 0 and st.tab[p, s - 1, TB_UP] == 1:
        return table[st.tab[p, s - 1, TB_CARD], T_SYMBOLS]
    return table[card, T_SYMBOLS]


@rules_kernel
def is_protected(table: IntArray, st: Any, p: EngineInt, s: EngineInt) -> bool:
    """Whether opponents' effects cannot flip p's card in slot s (protect self / adjacent, Ongoing or Top)."""
    top = top_slot(st, p)
    card = st.tab[p, s, TB_CARD]
    flags = table[card, T_FLAGS]
    if flags & F_ONGOING_PROTECT_SELF or (flags & F_TOP_PROTECT_SELF and top == s):
        return True
    for n in (s - 1, s + 1):
        if 0 <= n < st.side[p, S_USED] and st.tab[p, n, TB_UP] == 1:
            nflags = table[st.tab[p, n, TB_CARD], T_FLAGS]
            if nflags & F_ONGOING_PROTECT_ADJACENT or (nflags & F_TOP_PROTECT_ADJACENT and top == n):
                return True
    return False


@rules_kernel
def count_per(table: IntArray, st: Any, p: EngineInt, where: EngineInt, per: EngineInt, arg: EngineInt) -> EngineInt:
    """How many cards of p's tableau meet a `per` condition (face-up cards unless the condition says otherwise);
    `per revealed ...` counts the singles of p's hand by their printed stars and symbols instead (revealing them
    returns them to the hand, so every matching one is revealed), and `attached` the singles under this card."""
    if per == PER_NONE:
        return 1
    if per == PER_CARD_LEFT:
        return where if where > 0 else 0
    if per == PER_ATTACHED:
        if where >= 0 and st.tab[p, where, TB_UP] == 1:
            return st.tab[p, where, TB_ATTACHED]
        return 0
    n = 0
    if per >= PER_REVEALED:
        base = per - PER_REVEALED
        for h in range(st.side[p, S_HAND]):
            card = st.side[p, S_CARDS + h]
            if (
                base == PER_CARD
                or (base == PER_STARS_AT_LEAST and table[card, T_STARS] >= arg)
                or (base == PER_STARS_AT_MOST and table[card, T_STARS] <= arg)
                or (base == PER_SYMBOL and table[card, T_SYMBOLS] & arg)
            ):
                n += 1
        return n
    for s in range(st.side[p, S_USED]):
        up = st.tab[p, s, TB_UP] == 1
        if per == PER_CARD:
            n += 1
        elif per == PER_FACE_DOWN:
            if not up:
                n += 1
        elif up:
            if per == PER_STARS_AT_LEAST:
                if stars_of(table, st, p, s) >= arg:
                    n += 1
            elif per == PER_STARS_AT_MOST:
                if stars_of(table, st, p, s) <= arg:
                    n += 1
            elif per == PER_SYMBOL:
                if symbols_of(table, st, p, s) & arg:
                    n += 1
    return n


@rules_kernel
def source_card(st: Any, p: EngineInt, where: EngineInt) -> int:
    if where >= 0:
        return st.tab[p, where, TB_CARD]
    return st.area[p, -where - 1, AR_CARD]


@rules_kernel
def source_up(st: Any, p: EngineInt, where: EngineInt) -> bool:
    if where >= 0:
        return st.tab[p, where, TB_UP] == 1
    return st.area[p, -where - 1, AR_UP] == 1 and st.area[p, -where - 1, AR_CARD] >= 0


@rules_kernel
def source_stars(table: IntArray, st: Any, p: EngineInt, where: EngineInt) -> int:
    if where >= 0:
        return stars_of(table, st, p, where)
    return table[st.area[p, -where - 1, AR_CARD], T_STARS]


# =====================================================================================================================
# Ranking points, the queue, flips
# =====================================================================================================================


@rules_kernel
def gain_rp(st: Any, counters: IntArray, events: IntArray, p: EngineInt, card: EngineInt, amount: EngineInt) -> None:
    """Add RP (or lose it, never below 0: the FAQ's 'lose as much as you can and stop at zero')."""
    before = st.side[p, S_RP]
    after = before + amount
    if after < 0:
        after = 0
    st.side[p, S_RP] = after
    if amount > 0 and card >= 0:
        counters[st.side[p, S_DECKSIDE], card, DAMAGE_DEALT] += amount
    log_event(events, st.ecount, st.game[G_TURN], p, EV_RP, card, after, after - before)


@rules_kernel
def enqueue(
    st: Any,
    kind: EngineInt,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    clause: EngineInt,
    part: EngineInt,
    arg: EngineInt,
) -> None:
    t = st.game[G_QTAIL]
    if t - st.game[G_QHEAD] >= QUEUE_SIZE:
        # Cannot happen with at most 5 x (12 + 3) cards each firing at most MAX_CLAUSES effects once.
        raise RuntimeError("blades engine: effect queue overflow")
    i = t % QUEUE_SIZE
    st.queue[i, Q_KIND] = kind
    st.queue[i, Q_PLAYER] = p
    st.queue[i, Q_WHERE] = where
    st.queue[i, Q_CARD] = card
    st.queue[i, Q_CLAUSE] = clause
    st.queue[i, Q_PART] = part
    st.queue[i, Q_ARG] = arg
    st.game[G_QTAIL] = t + 1


@rules_kernel
def enqueue_timing(
    table: IntArray,
    effects: IntArray,
    st: Any,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    timing: EngineInt,
    arg: EngineInt,
) -> None:
    """Queue every clause of `card` with this timing, in the order the cell lists them."""
    for c in range(table[card, T_CLAUSES]):
        if effects[card, c, E_TIMING] == timing:
            enqueue(st, QK_EFFECT, p, where, card, c, PART_MAIN, arg)


@rules_kernel
def flip_slot(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    q: EngineInt,
    s: EngineInt,
    by: EngineInt,
    by_card: EngineInt,
) -> None:
    """Flip q's tableau card in slot s face-down (it loses its star tokens); its Flip clauses fire, and when an
    opponent's effect (player `by`) did it, q may react."""
    card = st.tab[q, s, TB_CARD]
    st.tab[q, s, TB_UP] = 0
    st.tab[q, s, TB_TOKENS] = 0
    st.tab[q, s, TB_NEXT] = 0
    counters[st.side[q, S_DECKSIDE], card, DESTROYED] += 1
    log_event(events, st.ecount, st.game[G_TURN], q, EV_FLIP, card, by_card, by)
    if st.tab[q, s, TB_ATTACHED] > 0:
        # FAQ: "If a card that has an attachment becomes flipped, the attached card is put back in your binder."
        log_event(events, st.ecount, st.game[G_TURN], q, EV_DETACH, card, -1, st.tab[q, s, TB_ATTACHED])
        st.tab[q, s, TB_ATTACHED] = 0
    enqueue_timing(table, effects, st, q, s, card, np.int64(TM_FLIP), np.int64(-1))
    if by != q:
        enqueue(st, QK_REACT, q, 0, -1, -1, 0, TR_FLIPPED)


@rules_kernel
def flip_source(
    table: IntArray, effects: IntArray, st: Any, counters: IntArray, events: IntArray, p: EngineInt, where: EngineInt
) -> None:
    """Flip the card that used its own Action or Reaction (a tableau card, the deck box or an accessory)."""
    if where >= 0:
        if st.tab[p, where, TB_UP] == 1:
            flip_slot(table, effects, st, counters, events, p, where, p, np.int64(-1))
        return
    a = -where - 1
    if st.area[p, a, AR_UP] == 1:
        st.area[p, a, AR_UP] = 0
        card = st.area[p, a, AR_CARD]
        counters[st.side[p, S_DECKSIDE], card, DESTROYED] += 1
        log_event(events, st.ecount, st.game[G_TURN], p, EV_FLIP, card, -1, p)
        enqueue_timing(table, effects, st, p, where, card, np.int64(TM_FLIP), np.int64(-1))


# =====================================================================================================================
# Choosing targets
# =====================================================================================================================


@inline_kernel
def open_decision(st: Any, decision: EngineInt, p: EngineInt) -> None:
    """Open a decision of kind `decision` (D_*) for seat p."""
    st.game[G_DECISION] = decision
    st.game[G_ACTOR] = p


@rules_kernel
def list_flip_targets(
    table: IntArray,
    st: Any,
    q: EngineInt,
    pick: EngineInt,
    guarded: EngineBool,
    below: EngineInt,
    base: EngineInt,
    out: IntArray,
    n: EngineInt,
) -> EngineInt:
    """Append to out[n:] (as base + slot) the cards of q a flip may take, left to right; the new count.

    highest/lowest: the cards at the extreme star rating among ALL of q's face-up cards; if every card at that
    rating is protected there is no legal target (the document's Orella example). choice: any face-up card that is
    not protected. `guarded`: the flip is an opponent's effect, so protection counts. `below` >= 0 (Anvil Drop):
    any unprotected face-up card with fewer stars."""
    used = st.side[q, S_USED]
    if below >= 0:
        for t in range(used):
            if st.tab[q, t, TB_UP] == 1 and not is_protected(table, st, q, t) and stars_of(table, st, q, t) < below:
                out[n] = base + t
                n += 1
        return n
    extreme = -1
    if pick != PICK_CHOICE:
        for s in range(used):
            if st.tab[q, s, TB_UP] == 1:
                v = stars_of(table, st, q, s)
                if extreme < 0 or (pick == PICK_HIGHEST and v > extreme) or (pick == PICK_LOWEST and v < extreme):
                    extreme = v
        if extreme < 0:
            return n
    for s in range(used):
        if st.tab[q, s, TB_UP] == 0:
            continue
        if pick != PICK_CHOICE and stars_of(table, st, q, s) != extreme:
            continue
        if guarded and is_protected(table, st, q, s):
            continue
        out[n] = base + s
        n += 1
    return n


@rules_kernel
def legal_own_flips(table: IntArray, st: Any, p: EngineInt, pick: EngineInt, out: IntArray) -> EngineInt:
    """D_FLIP_OWN's legal actions: the slots of p's cards a `flip yours` may take (protection does not count)."""
    return list_flip_targets(table, st, p, pick, np.bool_(False), np.int64(-1), np.int64(0), out, np.int64(0))


@rules_kernel
def legal_opponent_flips(
    table: IntArray, st: Any, p: EngineInt, pick: EngineInt, below: EngineInt, out: IntArray
) -> EngineInt:
    """D_FLIP_OPPONENT's legal actions: `q * MAX_SLOTS + slot` of every opponent's card an opponent-flip may take,
    opponents in turn order from p's left, each's cards left to right. `below` >= 0 limits them to cards with fewer
    stars (Anvil Drop)."""
    players = st.game[G_PLAYERS]
    # Typed for mypy only (a bare annotation runs no code); an int64 from the start, so one compiled copy.
    n: EngineInt
    n = np.int64(0)
    for k in range(1, players):
        q = (p + k) % players
        n = list_flip_targets(table, st, q, pick, np.bool_(True), below, q * MAX_SLOTS, out, n)
    return n


@inline_kernel
def apply_flip(
    table: IntArray, effects: IntArray, st: Any, counters: IntArray, events: IntArray, action: EngineInt
) -> None:
    """D_FLIP_OWN / D_FLIP_OPPONENT's action: the card it names is flipped by the deciding seat's effect."""
    p = st.game[G_ACTOR]
    if st.game[G_DECISION] == D_FLIP_OWN:
        st.game[G_DECISION] = D_NONE
        flip_slot(table, effects, st, counters, events, p, action, p, st.game[G_DX_CARD])
    else:
        st.game[G_DECISION] = D_NONE
        flip_slot(table, effects, st, counters, events, action // MAX_SLOTS, action % MAX_SLOTS, p, st.game[G_DX_CARD])


# =====================================================================================================================
# The store and clashes
# =====================================================================================================================


@rules_kernel
def reverse_range(store: IntArray, lo: EngineInt, hi: EngineInt) -> None:
    hi -= 1
    while lo < hi:
        tmp = store[lo]
        store[lo] = store[hi]
        store[hi] = tmp
        lo += 1
        hi -= 1


@rules_kernel
def reveal_from_store(st: Any, events: IntArray, pending: EngineInt) -> int:
    """The top card of the store (a uniform draw from the undrawn part, which is the same as a shuffled deck), or
    -1 if no card is left anywhere. st.store[:left] is undrawn; drawn cards sit after it, most recent first: the
    `pending` cards revealed in this clash, then the aftermarket, then the store discard. An empty store is
    refilled by shuffling the store discard (FAQ)."""
    if st.game[G_STORE_LEFT] == 0:
        total = st.game[G_STORE_TOTAL]
        keep = st.game[G_AFTERMARKET] + pending
        if keep >= total:
            return -1
        # Rotate left by `keep`: the kept cards move to the end, the discard becomes the undrawn store.
        reverse_range(st.store, np.int64(0), keep)
        reverse_range(st.store, keep, total)
        reverse_range(st.store, np.int64(0), total)
        st.game[G_STORE_LEFT] = total - keep
        log_event(events, st.ecount, st.game[G_TURN], -1, EV_STORE_RESHUFFLED, -1, -1, total - keep)
    left = st.game[G_STORE_LEFT]
    j = rng_below(st.rng, left)
    store = st.store
    card = store[j]
    store[j] = store[left - 1]
    store[left - 1] = card
    st.game[G_STORE_LEFT] = left - 1
    return card


@rules_kernel
def legal_clash_opponents(st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """D_CLASH_OPPONENT's legal actions: the opponents with a Top card, in turn order from p's left."""
    players = st.game[G_PLAYERS]
    n = 0
    for k in range(1, players):
        q = (p + k) % players
        if top_slot(st, q) >= 0:
            out[n] = q
            n += 1
    return n


@rules_kernel
def clash(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    clause: EngineInt,
    with_all: EngineInt,
) -> int:
    """p clashes with one opponent (or all players) with a Top card. Returns the winner, -1 for a tie, -2 when the
    clash does not occur (fewer than two participants). The one opponent is p's choice (D_CLASH_OPPONENT)."""
    players = st.game[G_PLAYERS]
    if top_slot(st, p) < 0:
        log_event(events, st.ecount, st.game[G_TURN], p, EV_NO_CLASH, card, -1, 0)
        return -2
    if with_all == 0:
        n = legal_clash_opponents(st, p, st.actions)
        if n == 0:
            log_event(events, st.ecount, st.game[G_TURN], p, EV_NO_CLASH, card, -1, 0)
            return -2
        open_decision(st, np.int64(D_CLASH_OPPONENT), p)
        st.game[G_DX_WHERE] = where
        st.game[G_DX_CARD] = card
        st.game[G_DX_CLAUSE] = clause
        return apply_clash_opponent(table, effects, st, counters, events, choose(table, effects, st, st.actions, n))
    n = 0
    for q in range(players):
        if top_slot(st, q) >= 0:
            n += 1
    if n < 2:
        log_event(events, st.ecount, st.game[G_TURN], p, EV_NO_CLASH, card, -1, 1)
        return -2
    return clash_between(table, effects, st, counters, events, p, where, card, clause, with_all, np.int64(-1))


@inline_kernel
def apply_clash_opponent(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    action: EngineInt,
) -> int:
    """D_CLASH_OPPONENT's action: the deciding seat's clash with opponent `action`; the winner (-1: a tie)."""
    st.game[G_DECISION] = D_NONE
    return clash_between(
        table,
        effects,
        st,
        counters,
        events,
        st.game[G_ACTOR],
        st.game[G_DX_WHERE],
        st.game[G_DX_CARD],
        st.game[G_DX_CLAUSE],
        np.int64(0),
        action,
    )


@rules_kernel
def clash_between(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    clause: EngineInt,
    with_all: EngineInt,
    opponent: EngineInt,
) -> int:
    """The clash itself, p against `opponent` (or all players with a Top card): each reveals a store card, the
    highest total wins. Returns the winner, -1 for a tie. Queues p's outcome and the participants' reactions."""
    players = st.game[G_PLAYERS]
    log_event(events, st.ecount, st.game[G_TURN], p, EV_CLASH, card, opponent, with_all)
    best = -1
    best_total = -1
    tied = False
    # An int64 from the start: typed first as the constant 0, the call below would compile a second copy.
    revealed = np.int64(0)
    # Reveal in turn order from the initiator ("starting with whoever initiated the clash and moving clockwise").
    for k in range(players):
        q = (p + k) % players
        if with_all == 0 and q != p and q != opponent:
            continue
        t = top_slot(st, q)
        if t < 0:
            continue
        revealed_card = reveal_from_store(st, events, revealed)
        if revealed_card >= 0:
            revealed += 1
            extra = table[revealed_card, T_STARS]
        else:
            extra = 0
        total = stars_of(table, st, q, t) + extra
        counters[st.side[q, S_DECKSIDE], st.tab[q, t, TB_CARD], ATTACKED] += 1
        log_event(events, st.ecount, st.game[G_TURN], q, EV_REVEAL, st.tab[q, t, TB_CARD], revealed_card, total)
        if total > best_total:
            best_total = total
            best = q
            tied = False
        elif total == best_total:
            tied = True
    # The revealed cards go to the aftermarket; over 12, the aftermarket is first discarded to the store discard.
    if revealed > 0:
        if st.game[G_AFTERMARKET] + revealed > AFTERMARKET_LIMIT:
            log_event(events, st.ecount, st.game[G_TURN], -1, EV_AFTERMARKET_CLEARED, -1, -1, st.game[G_AFTERMARKET])
            st.game[G_AFTERMARKET] = revealed
        else:
            st.game[G_AFTERMARKET] += revealed
    winner = -1 if tied else best
    log_event(events, st.ecount, st.game[G_TURN], winner, EV_CLASH_RESULT, card, p, best_total)
    if winner == p:
        part = PART_WIN
    elif winner < 0:
        part = PART_TIE
    else:
        part = PART_LOSE
    if effects[card, clause, ACTION_BASE + part * ACTION_WIDTH + A_VERB] != V_NONE:
        enqueue(st, QK_EFFECT, p, where, card, clause, part, -1)
    if winner >= 0:
        current = st.game[G_CURRENT]
        for k in range(players):
            q = (current + k) % players
            if with_all == 0 and q != p and q != opponent:
                continue
            if top_slot(st, q) < 0:
                continue
            enqueue(st, QK_REACT, q, 0, -1, -1, 0, TR_WIN if q == winner else TR_LOSE)
    return winner


# =====================================================================================================================
# Resolving effects
# =====================================================================================================================


@rules_kernel
def put_tokens(
    table: IntArray, st: Any, events: IntArray, p: EngineInt, s: EngineInt, amount: EngineInt, source: EngineInt
) -> None:
    """+1 star tokens on a face-up card (face-down cards cannot hold them)."""
    if s < 0 or st.tab[p, s, TB_UP] == 0:
        log_event(events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, source, -1, 0)
        return
    st.tab[p, s, TB_TOKENS] += amount
    log_event(events, st.ecount, st.game[G_TURN], p, EV_TOKENS, st.tab[p, s, TB_CARD], source, amount)


@rules_kernel
def legal_give_up(st: Any, q: EngineInt, out: IntArray) -> EngineInt:
    """D_GIVE_UP's legal actions: the hand positions of q's singles (q gives up one "of their choice")."""
    n = st.side[q, S_HAND]
    for h in range(n):
        out[h] = h
    return n


@rules_kernel
def apply_give_up(st: Any, events: IntArray, h: EngineInt) -> None:
    """D_GIVE_UP's action: the deciding seat's single at hand position h leaves the hand, to the binder (a discard
    by seat G_DX_BY's effect, card G_DX_CARD) or under the card in slot G_DX_WHERE (an attachment)."""
    st.game[G_DECISION] = D_NONE
    q = st.game[G_ACTOR]
    card = st.side[q, S_CARDS + h]
    st.side[q, S_HAND] -= 1
    st.side[q, S_CARDS + h] = st.side[q, S_CARDS + st.side[q, S_HAND]]
    if st.game[G_DX_ARG] == GIVE_DISCARD:
        log_event(events, st.ecount, st.game[G_TURN], q, EV_DISCARD, card, st.game[G_DX_CARD], st.game[G_DX_BY])
    else:
        where = st.game[G_DX_WHERE]
        st.tab[q, where, TB_ATTACHED] += 1
        log_event(
            events, st.ecount, st.game[G_TURN], q, EV_ATTACH, card, st.game[G_DX_CARD], st.tab[q, where, TB_ATTACHED]
        )


@inline_kernel
def give_up(
    table: IntArray,
    effects: IntArray,
    st: Any,
    events: IntArray,
    q: EngineInt,
    use: EngineInt,
    where: EngineInt,
    by: EngineInt,
    by_card: EngineInt,
) -> None:
    """q gives up a single of their choice (D_GIVE_UP; q's hand is not empty): to the binder or attached."""
    n = legal_give_up(st, q, st.actions)
    open_decision(st, np.int64(D_GIVE_UP), q)
    st.game[G_DX_ARG] = use
    st.game[G_DX_WHERE] = where
    st.game[G_DX_BY] = by
    st.game[G_DX_CARD] = by_card
    apply_give_up(st, events, choose(table, effects, st, st.actions, n))


@rules_kernel
def discard_from(
    table: IntArray,
    effects: IntArray,
    st: Any,
    events: IntArray,
    q: EngineInt,
    amount: EngineInt,
    by: EngineInt,
    by_card: EngineInt,
) -> None:
    """q discards `amount` singles of their choice from hand to the binder, unavailable for the rest of the
    tournament (as many as q has); when an opponent's effect made q discard, q may react (`discarded`)."""
    done = 0
    while done < amount and st.side[q, S_HAND] > 0:
        give_up(table, effects, st, events, q, np.int64(GIVE_DISCARD), np.int64(-1), by, by_card)
        done += 1
    if done == 0:
        log_event(events, st.ecount, st.game[G_TURN], q, EV_NO_TARGET, by_card, -1, 0)
    elif by != q:
        enqueue(st, QK_REACT, q, 0, -1, -1, 0, TR_DISCARDED)


@rules_kernel
def legal_discarders(st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """D_DISCARDER's legal actions: the opponents holding a single, in turn order from p's left."""
    players = st.game[G_PLAYERS]
    n = 0
    for k in range(1, players):
        q = (p + k) % players
        if st.side[q, S_HAND] > 0:
            out[n] = q
            n += 1
    return n


@inline_kernel
def apply_discarder(table: IntArray, effects: IntArray, st: Any, events: IntArray, q: EngineInt) -> None:
    """D_DISCARDER's action: opponent q discards G_DX_ARG singles by the deciding seat's effect (card G_DX_CARD)."""
    st.game[G_DECISION] = D_NONE
    discard_from(table, effects, st, events, q, st.game[G_DX_ARG], st.game[G_ACTOR], st.game[G_DX_CARD])


@rules_kernel
def copy_target(st: Any, p: EngineInt, where: EngineInt, direction: EngineInt) -> EngineInt:
    """The slot a `copy left|right` on p's slot `where` copies, or -1 (off the tableau, no card there, or the card
    is face-down)."""
    if where < 0:
        return -1
    t = where - 1 if direction == COPY_LEFT else where + 1
    if t < 0 or t >= st.side[p, S_USED] or st.tab[p, t, TB_UP] == 0:
        return -1
    return t


@rules_kernel
def perform(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    clause: EngineInt,
    part: EngineInt,
    arg: EngineInt,
) -> None:
    """Do one action of a clause (its main action, or a clash outcome) for player p. A copied clause is performed
    with `card` the copied card and `where` the copying card's slot."""
    timing = effects[card, clause, E_TIMING]
    if (timing == TM_PLAY or timing == TM_NEXT) and part == PART_MAIN and not source_up(st, p, where):
        return  # flipped before its turn came: a face-down card has no text
    base = ACTION_BASE + part * ACTION_WIDTH
    verb = effects[card, clause, base + A_VERB]
    amount = effects[card, clause, base + A_AMOUNT]
    if verb == V_GAIN:
        n = count_per(table, st, p, where, effects[card, clause, base + A_PER], effects[card, clause, base + A_ARG])
        gain_rp(st, counters, events, p, card, amount * n)
    elif verb == V_DISCARD:
        if effects[card, clause, base + A_WHOSE] == WHOSE_YOURS:
            discard_from(table, effects, st, events, p, amount, p, card)
        else:
            n = legal_discarders(st, p, st.actions)
            if n == 0:
                log_event(events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
            else:
                open_decision(st, np.int64(D_DISCARDER), p)
                st.game[G_DX_ARG] = amount
                st.game[G_DX_CARD] = card
                apply_discarder(table, effects, st, events, choose(table, effects, st, st.actions, n))
    elif verb == V_SLOT:
        slots = st.side[p, S_SLOTS] + amount
        st.side[p, S_SLOTS] = slots if slots < MAX_SLOTS else MAX_SLOTS
        log_event(events, st.ecount, st.game[G_TURN], p, EV_SLOT, card, st.side[p, S_SLOTS], amount)
    elif verb == V_ATTACH:
        if where < 0 or st.tab[p, where, TB_UP] == 0 or st.side[p, S_HAND] == 0:
            log_event(events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
        else:
            give_up(table, effects, st, events, p, np.int64(GIVE_ATTACH), where, p, card)
    elif verb == V_COPY:
        target = copy_target(st, p, where, effects[card, clause, base + A_PICK])
        if target < 0:
            # FAQ: "A copy effect that would target a face-down card does nothing".
            log_event(events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
        else:
            copied = st.tab[p, target, TB_CARD]
            log_event(events, st.ecount, st.game[G_TURN], p, EV_COPY, card, copied, target)
            trigger = effects[card, clause, E_TRIGGER]
            for c in range(table[copied, T_CLAUSES]):
                if effects[copied, c, E_TIMING] != timing or effects[copied, c, ACTION_BASE + A_VERB] == V_COPY:
                    continue  # FAQ: "Copy effects can never be copied."
                if timing == TM_REACTION and effects[copied, c, E_TRIGGER] != trigger:
                    continue
                # Performed as this card's own effect: from this card's slot, with its tokens and neighbours.
                enqueue(st, QK_EFFECT, p, where, copied, c, PART_MAIN, arg)
    elif verb == V_FLIP:
        pick = effects[card, clause, base + A_PICK]
        if effects[card, clause, base + A_WHOSE] == WHOSE_YOURS:
            n = legal_own_flips(table, st, p, pick, st.actions)
            decision = D_FLIP_OWN
        else:
            n = legal_opponent_flips(table, st, p, pick, np.int64(-1), st.actions)
            decision = D_FLIP_OPPONENT
        if n == 0:
            log_event(events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
        else:
            open_decision(st, np.int64(decision), p)
            st.game[G_DX_CARD] = card
            st.game[G_DX_ARG] = pick
            st.game[G_DX_LIMIT] = -1
            apply_flip(table, effects, st, counters, events, choose(table, effects, st, st.actions, n))
    elif verb == V_STAR:
        if timing == TM_PLAY and part == PART_MAIN and where >= 0:
            put_tokens(table, st, events, p, where, amount, card)
        elif timing == TM_NEXT and part == PART_MAIN:
            put_tokens(table, st, events, p, arg, amount, card)
        else:
            put_tokens(table, st, events, p, top_slot(st, p), amount, card)
    elif verb == V_CLASH:
        clash(table, effects, st, counters, events, p, where, card, clause, effects[card, clause, E_CLASH_ALL])
    elif verb == V_BLAST_OFF:
        st.side[p, S_NEXT_TOKENS] += BLAST_OFF_TOKENS
        log_event(events, st.ecount, st.game[G_TURN], p, EV_TOKENS, -1, card, BLAST_OFF_TOKENS)
    elif verb == V_ANVIL:
        mine = source_stars(table, st, p, where)
        n = legal_opponent_flips(table, st, p, np.int64(PICK_CHOICE), mine, st.actions)
        if n == 0:
            log_event(events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
        else:
            open_decision(st, np.int64(D_FLIP_OPPONENT), p)
            st.game[G_DX_CARD] = card
            st.game[G_DX_ARG] = PICK_CHOICE
            st.game[G_DX_LIMIT] = mine
            apply_flip(table, effects, st, counters, events, choose(table, effects, st, st.actions, n))
    elif verb == V_THWOMP:
        if (
            where >= 1
            and st.tab[p, where - 1, TB_UP] == 1
            and stars_of(table, st, p, where - 1) < stars_of(table, st, p, where)
        ):
            flip_slot(table, effects, st, counters, events, p, where - 1, p, card)
            gain_rp(st, counters, events, p, card, amount)
        else:
            log_event(events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
    # V_PROTECT and V_MIMICRY are lasting (read from the card table); V_SCURRY acts when the card is placed.


@inline_kernel
def legal_reaction(out: IntArray) -> EngineInt:
    """D_REACTION's legal actions: Reactions are optional, so USE and DECLINE."""
    out[0] = USE
    out[1] = DECLINE
    return 2


@inline_kernel
def apply_reaction(
    table: IntArray, effects: IntArray, st: Any, counters: IntArray, events: IntArray, action: EngineInt
) -> None:
    """D_REACTION's action: USE flips the reacting card face-down and queues its clause (G_DX_* name them)."""
    st.game[G_DECISION] = D_NONE
    if action != USE:
        return
    q = st.game[G_ACTOR]
    w = st.game[G_DX_WHERE]
    card = st.game[G_DX_CARD]
    log_event(events, st.ecount, st.game[G_TURN], q, EV_REACTION, card, st.game[G_DX_ARG], 0)
    if w < 0:  # a deck box's or accessory's reaction is its play; a single was played when placed
        count_play(counters, st.side[q, S_DECKSIDE], card, st.game[G_TURN])
    flip_source(table, effects, st, counters, events, q, w)
    enqueue(st, QK_EFFECT, q, w, card, st.game[G_DX_CLAUSE], PART_MAIN, -1)


@rules_kernel
def react(
    table: IntArray, effects: IntArray, st: Any, counters: IntArray, events: IntArray, q: EngineInt, trigger: EngineInt
) -> None:
    """q's face-up cards (tableau, deck box, accessories) with a Reaction on this trigger, each offered to q
    (D_REACTION): each used one is flipped face-down and its action queued."""
    for where in range(st.side[q, S_USED] + 3):
        w = where if where < st.side[q, S_USED] else W_BOX - (where - st.side[q, S_USED])
        if not source_up(st, q, w):
            continue
        card = source_card(st, q, w)
        for c in range(table[card, T_CLAUSES]):
            if effects[card, c, E_TIMING] != TM_REACTION or effects[card, c, E_TRIGGER] != trigger:
                continue
            if not source_up(st, q, w):
                continue
            n = legal_reaction(st.actions)
            open_decision(st, np.int64(D_REACTION), q)
            st.game[G_DX_WHERE] = w
            st.game[G_DX_CARD] = card
            st.game[G_DX_CLAUSE] = c
            st.game[G_DX_ARG] = trigger
            apply_reaction(table, effects, st, counters, events, choose(table, effects, st, st.actions, n))


@rules_kernel
def resolve_queue(table: IntArray, effects: IntArray, st: Any, counters: IntArray, events: IntArray) -> None:
    """Resolve queued effects first in, first out, until none is left."""
    while st.game[G_QHEAD] < st.game[G_QTAIL]:
        i = st.game[G_QHEAD] % QUEUE_SIZE
        st.game[G_QHEAD] += 1
        if st.queue[i, Q_KIND] == QK_REACT:
            react(table, effects, st, counters, events, st.queue[i, Q_PLAYER], st.queue[i, Q_ARG])
        else:
            perform(
                table,
                effects,
                st,
                counters,
                events,
                st.queue[i, Q_PLAYER],
                st.queue[i, Q_WHERE],
                st.queue[i, Q_CARD],
                st.queue[i, Q_CLAUSE],
                st.queue[i, Q_PART],
                st.queue[i, Q_ARG],
            )


# =====================================================================================================================
# A turn: play a single, use an action
# =====================================================================================================================


@rules_kernel
def place_single(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    card: EngineInt,
    insert_at: EngineInt,
) -> int:
    """Put a single into p's left-most open slot (or, with Scurry, at `insert_at`, shifting cards right), then
    resolve its Play clauses and the Next effects waiting for it. Returns the slot it ended in."""
    used = st.side[p, S_USED]
    s = used
    if table[card, T_FLAGS] & F_SCURRY and 0 <= insert_at < used:
        s = insert_at
        for t in range(used, s, -1):
            for f in range(TAB_WIDTH):
                st.tab[p, t, f] = st.tab[p, t - 1, f]
    st.tab[p, s, TB_CARD] = card
    st.tab[p, s, TB_UP] = 1
    st.tab[p, s, TB_TOKENS] = 0
    st.tab[p, s, TB_NEXT] = 0
    st.tab[p, s, TB_ATTACHED] = 0
    st.side[p, S_USED] = used + 1
    st.side[p, S_PLAYED] += 1
    count_play(counters, st.side[p, S_DECKSIDE], card, st.game[G_TURN])
    log_event(events, st.ecount, st.game[G_TURN], p, EV_PLAY, card, s, table[card, T_STARS])
    # Priority Top > Ongoing > Play > Next: Top and Ongoing are lasting, so Play resolves before Next.
    enqueue_timing(table, effects, st, p, s, card, np.int64(TM_PLAY), np.int64(-1))
    for t in range(used + 1):
        if t != s and st.tab[p, t, TB_NEXT] == 1:
            st.tab[p, t, TB_NEXT] = 0
            if st.tab[p, t, TB_UP] == 1:
                enqueue_timing(table, effects, st, p, t, st.tab[p, t, TB_CARD], np.int64(TM_NEXT), s)
    resolve_queue(table, effects, st, counters, events)
    if st.side[p, S_NEXT_TOKENS] > 0:
        put_tokens(table, st, events, p, s, st.side[p, S_NEXT_TOKENS], np.int64(-1))
        st.side[p, S_NEXT_TOKENS] = 0
    if table[card, T_FLAGS] & F_HAS_NEXT and st.tab[p, s, TB_UP] == 1:
        st.tab[p, s, TB_NEXT] = 1
    return s


@rules_kernel
def use_action(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    where: EngineInt,
    clause: EngineInt,
) -> None:
    """Perform an Action clause, then flip its card face-down ("perform the text on the card, then flip")."""
    card = source_card(st, p, where)
    log_event(events, st.ecount, st.game[G_TURN], p, EV_ACTION, card, where, 0)
    if where < 0:
        count_play(counters, st.side[p, S_DECKSIDE], card, st.game[G_TURN])
    enqueue(st, QK_EFFECT, p, where, card, clause, PART_MAIN, -1)
    resolve_queue(table, effects, st, counters, events)
    flip_source(table, effects, st, counters, events, p, where)
    resolve_queue(table, effects, st, counters, events)


@inline_kernel
def legal_turn_actions(table: IntArray, effects: IntArray, st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """D_ACTION_BEFORE / D_ACTION_AFTER's legal actions: `(where + 3) * MAX_CLAUSES + clause` of each Action clause
    of p's face-up cards (the accessories, then the deck box, then the tableau left to right), then NO_ACTION."""
    n = 0
    for k in range(st.side[p, S_USED] + 3):
        where = k - 3  # -3 (accessory 2), -2 (accessory 1), -1 (deck box), then tableau slots 0, 1, ...
        if not source_up(st, p, where):
            continue
        card = source_card(st, p, where)
        for c in range(table[card, T_CLAUSES]):
            if effects[card, c, E_TIMING] == TM_ACTION:
                out[n] = k * MAX_CLAUSES + c
                n += 1
    out[n] = NO_ACTION
    return n + 1


@inline_kernel
def apply_turn_action(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    action: EngineInt,
) -> None:
    """D_ACTION_BEFORE / D_ACTION_AFTER's action: the Action used (or none), then the turn's next decision: the
    single after D_ACTION_BEFORE (none when the Action emptied p's own hand: no single to play), none after
    D_ACTION_AFTER."""
    p = st.game[G_ACTOR]
    before = st.game[G_DECISION] == D_ACTION_BEFORE
    if action != NO_ACTION:
        st.game[G_ACTED] = 1
        use_action(table, effects, st, counters, events, p, action // MAX_CLAUSES - 3, action % MAX_CLAUSES)
    open_decision(st, np.int64(D_SINGLE if before and st.side[p, S_HAND] > 0 else D_NONE), p)


@inline_kernel
def legal_singles(st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """D_SINGLE's legal actions: the hand positions of p's singles (the turn's caller saw an open tableau slot)."""
    n = st.side[p, S_HAND]
    for h in range(n):
        out[h] = h
    return n


@inline_kernel
def after_placing(st: Any, p: EngineInt) -> None:
    """The turn's decision after its single is placed: the Action after, unless one was taken before."""
    open_decision(st, np.int64(D_NONE if st.game[G_ACTED] == 1 else D_ACTION_AFTER), p)


@inline_kernel
def apply_single(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    h: EngineInt,
) -> None:
    """D_SINGLE's action: the single at hand position h leaves the hand and is placed (a Scurry single's slot is
    the next decision, D_SCURRY), then the Action after is the next decision unless one was taken before."""
    p = st.game[G_ACTOR]
    card = st.side[p, S_CARDS + h]
    st.side[p, S_HAND] -= 1
    st.side[p, S_CARDS + h] = st.side[p, S_CARDS + st.side[p, S_HAND]]
    if table[card, T_FLAGS] & F_SCURRY:
        st.game[G_PLACING] = card
        open_decision(st, np.int64(D_SCURRY), p)
        return
    place_single(table, effects, st, counters, events, p, card, np.int64(-1))
    after_placing(st, p)


@rules_kernel
def legal_scurry(st: Any, p: EngineInt, out: IntArray) -> EngineInt:
    """D_SCURRY's legal actions: the slots a Scurry single may go to ("anywhere"): before any card of p's tableau,
    or the right end (the last)."""
    n = st.side[p, S_USED] + 1
    for s in range(n):
        out[s] = s
    return n


@inline_kernel
def apply_scurry(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    s: EngineInt,
) -> None:
    """D_SCURRY's action: the single G_PLACING goes to slot s (cards from s on move right), then the Action after."""
    p = st.game[G_ACTOR]
    place_single(table, effects, st, counters, events, p, st.game[G_PLACING], s)
    after_placing(st, p)


@rules_kernel
def take_turn(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
) -> None:
    """One turn of a player who can play: an optional Action before, the single, an optional Action after; each
    decision listed (`legal_*`), asked of p's policy (`choose`) and applied (`apply_*`, which opens the next)."""
    st.game[G_CURRENT] = p
    log_event(events, st.ecount, st.game[G_TURN], p, EV_TURN, -1, st.side[p, S_RP], st.side[p, S_HAND])
    st.game[G_ACTED] = 0
    # The decision opened in place (as `open_decision` does), and no applier called for NO_ACTION but its work done
    # in place: these run every turn, and a call passes every array anew.
    st.game[G_DECISION] = D_ACTION_BEFORE
    st.game[G_ACTOR] = p
    n = legal_turn_actions(table, effects, st, p, st.actions)
    action = choose_turn_action(table, effects, st, st.actions, n)
    if action != NO_ACTION:
        apply_turn_action(table, effects, st, counters, events, action)
    else:
        st.game[G_DECISION] = D_SINGLE
    if st.game[G_DECISION] == D_SINGLE:
        n = legal_singles(st, p, st.actions)
        apply_single(table, effects, st, counters, events, choose_single(table, effects, st, st.actions, n))
    if st.game[G_DECISION] == D_SCURRY:
        n = legal_scurry(st, p, st.actions)
        apply_scurry(table, effects, st, counters, events, choose(table, effects, st, st.actions, n))
    if st.game[G_DECISION] == D_ACTION_AFTER:
        n = legal_turn_actions(table, effects, st, p, st.actions)
        action = choose_turn_action(table, effects, st, st.actions, n)
        if action != NO_ACTION:
            apply_turn_action(table, effects, st, counters, events, action)
        else:
            st.game[G_DECISION] = D_NONE


# =====================================================================================================================
# Setup, the end of the tournament, whole tournaments
# =====================================================================================================================


@rules_kernel
def setup_seat(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    deck: IntArray,
    policy: EngineInt,
    deckside: EngineInt,
    seed: EngineInt,
) -> None:
    """RP 0, the seat's policy block started from its policy word and the tournament's seed (`start_policy`), the
    deck's singles in hand (over 8: random ones go back to the binder), the first deck box and the first two
    accessories set out face-up (counted as drawn, and as played on turn 1: they start in play)."""
    st.side[p, S_RP] = 0
    st.side[p, S_HAND] = 0
    st.side[p, S_USED] = 0
    st.side[p, S_NEXT_TOKENS] = 0
    start_policy(policy_of(st, p), policy, seed, p)
    st.side[p, S_DECKSIDE] = deckside
    st.side[p, S_VP] = 0
    st.side[p, S_PLACE] = 0
    st.side[p, S_PLAYED] = 0
    st.side[p, S_PASSED] = 0
    st.side[p, S_SLOTS] = st.game[G_SLOTS]
    for a in range(3):
        st.area[p, a, AR_CARD] = -1
        st.area[p, a, AR_UP] = 0
    accessories = 0
    for k in range(deck.shape[0]):
        card = deck[k]
        kind = table[card, T_KIND]
        if kind == K_SINGLE:
            if st.side[p, S_HAND] < MAX_HAND:
                st.side[p, S_CARDS + st.side[p, S_HAND]] = card
                st.side[p, S_HAND] += 1
        elif kind == K_DECK_BOX:
            if st.area[p, AREA_BOX, AR_CARD] < 0:
                st.area[p, AREA_BOX, AR_CARD] = card
                st.area[p, AREA_BOX, AR_UP] = 1
        elif kind == K_ACCESSORY and accessories < 2:
            st.area[p, AREA_ACCESSORY_1 + accessories, AR_CARD] = card
            st.area[p, AREA_ACCESSORY_1 + accessories, AR_UP] = 1
            accessories += 1
    while st.side[p, S_HAND] > HAND_LIMIT:
        h = rng_below(st.rng, st.side[p, S_HAND])
        log_event(events, st.ecount, st.game[G_TURN], p, EV_TRIMMED, st.side[p, S_CARDS + h], -1, 0)
        st.side[p, S_HAND] -= 1
        st.side[p, S_CARDS + h] = st.side[p, S_CARDS + st.side[p, S_HAND]]
    for h in range(st.side[p, S_HAND]):
        count_draw(counters, deckside, st.side[p, S_CARDS + h])
    for a in range(3):
        if st.area[p, a, AR_CARD] >= 0:
            # The deck box and the accessories set out start in play: drawn, and played on the tournament's first
            # turn (turn 1, as the turns are numbered), as a single is played when placed. Counters only: no
            # decision, no draw from the generator and no event follows from it.
            count_draw(counters, deckside, st.area[p, a, AR_CARD])
            count_play(counters, deckside, st.area[p, a, AR_CARD], np.int64(1))


@rules_kernel
def score_clause(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    where: EngineInt,
    card: EngineInt,
    c: EngineInt,
) -> None:
    """One `gain N RP [per ...]` Score clause of `card`, counted for p from `where`."""
    n = count_per(table, st, p, where, effects[card, c, ACTION_BASE + A_PER], effects[card, c, ACTION_BASE + A_ARG])
    gain_rp(st, counters, events, p, card, effects[card, c, ACTION_BASE + A_AMOUNT] * n)


@rules_kernel
def final_scoring(
    table: IntArray, effects: IntArray, st: Any, counters: IntArray, events: IntArray, vp_round: EngineInt
) -> None:
    """Score clauses of face-up cards (tableau left to right, deck box, accessories), then of the revealed
    metagame cards, which every player activates for themselves; then placement by RP and VP by the round's chart;
    tied players split the VP of every place they cover, rounded down."""
    players = st.game[G_PLAYERS]
    for p in range(players):
        for k in range(st.side[p, S_USED] + 3):
            where = k if k < st.side[p, S_USED] else W_BOX - (k - st.side[p, S_USED])
            if not source_up(st, p, where):
                continue
            card = source_card(st, p, where)
            for c in range(table[card, T_CLAUSES]):
                if effects[card, c, E_TIMING] != TM_SCORE:
                    continue
                if effects[card, c, ACTION_BASE + A_VERB] != V_COPY:
                    score_clause(table, effects, st, counters, events, p, where, card, c)
                    continue
                target = copy_target(st, p, where, effects[card, c, ACTION_BASE + A_PICK])
                if target < 0:
                    log_event(events, st.ecount, st.game[G_TURN], p, EV_NO_TARGET, card, -1, 0)
                    continue
                copied = st.tab[p, target, TB_CARD]
                log_event(events, st.ecount, st.game[G_TURN], p, EV_COPY, card, copied, target)
                for c2 in range(table[copied, T_CLAUSES]):
                    # Copy effects can never be copied; the copied Score clauses count from this card's slot.
                    if (
                        effects[copied, c2, E_TIMING] == TM_SCORE
                        and effects[copied, c2, ACTION_BASE + A_VERB] == V_GAIN
                    ):
                        score_clause(table, effects, st, counters, events, p, where, copied, c2)
        # "... then Accessories, and finally the Metagame Cards. Every Player activates the Metagame Score effects
        # for themselves."
        for m in range(MAX_META_STACKS):
            card = st.game[G_META + m]
            if card < 0:
                continue
            for c in range(table[card, T_CLAUSES]):
                if effects[card, c, E_TIMING] == TM_SCORE and effects[card, c, ACTION_BASE + A_VERB] == V_GAIN:
                    score_clause(table, effects, st, counters, events, p, np.int64(W_META), card, c)
    for p in range(players):
        above = 0
        same = 0
        for q in range(players):
            if st.side[q, S_RP] > st.side[p, S_RP]:
                above += 1
            elif st.side[q, S_RP] == st.side[p, S_RP]:
                same += 1
        total = 0
        for place in range(above, above + same):
            total += VP_CHART[vp_round, place]
        st.side[p, S_PLACE] = above + 1
        st.side[p, S_VP] = total // same
    for p in range(players):
        log_event(
            events, st.ecount, st.game[G_TURN], p, EV_PLACE, st.side[p, S_RP], st.side[p, S_PLACE], st.side[p, S_VP]
        )


@rules_kernel
def match_winner(st: Any, mode: EngineInt) -> int:
    """The two-sided result (see option `match_result`): 0 = seat A, 1 = deck B's side, -1 = even.

    head_to_head: A against the rival seat drawn for the match (more RP wins; equal RP, a shared place, is a draw),
    so a mirror is exactly even at any player count. first_place: A alone in first place wins, A sharing first
    place draws, anything else loses."""
    players = st.game[G_PLAYERS]
    if mode == MR_FIRST_PLACE:
        if st.side[0, S_PLACE] != 1:
            return 1
        for q in range(1, players):
            if st.side[q, S_PLACE] == 1:
                return -1
        return 0
    rival = st.game[G_RIVAL]
    if st.side[0, S_RP] > st.side[rival, S_RP]:
        return 0
    if st.side[0, S_RP] < st.side[rival, S_RP]:
        return 1
    return -1


@rules_kernel
def opening_seat(st: Any, players: EngineInt, first: EngineInt) -> EngineInt:
    """The seat that takes the first turn. The runner's `first` (0 = A, 1 = B, alternating) says which half of the
    turn order seat A sits in: A's position is (first * players + a uniform draw below players) // 2, so over the
    alternation every position is equally likely (an even mirror at any player count) and with two players A
    simply goes first when `first` is 0."""
    position = (first * players + rng_below(st.rng, players)) // 2
    return (players - position) % players


@rules_kernel
def setup_tournament(
    table: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    seed: EngineInt,
    first: EngineInt,
    policy_a: EngineInt,
    policy_b: EngineInt,
    store_total: EngineInt,
    meta: IntArray,
) -> None:
    """Seed the generator, reset the store (every card back in it), seat the players and reveal the metagame: one
    card drawn from each meta stack (`meta[m, 0]` cards in `meta[m, 1:]`), none in the pre-release round."""
    rng_seed(st.rng, seed)
    players = st.options[O_PLAYERS]
    opening = opening_seat(st, players, first)
    st.game[G_RIVAL] = 1 + rng_below(st.rng, players - 1)
    st.game[G_TURN] = 0
    st.game[G_PLAYERS] = players
    st.game[G_CURRENT] = opening
    st.game[G_STORE_LEFT] = store_total
    st.game[G_STORE_TOTAL] = store_total
    st.game[G_AFTERMARKET] = 0
    st.game[G_FIRST] = opening
    st.game[G_SLOTS] = st.options[O_SLOTS]
    st.game[G_QHEAD] = 0
    st.game[G_QTAIL] = 0
    for p in range(players):
        log_event(events, st.ecount, 0, p, EV_SEAT, -1, -1, 0 if p == 0 else 1)
        if p == 0:
            setup_seat(table, st, counters, events, p, deck_a, policy_a, np.int64(0), seed)
        else:
            setup_seat(table, st, counters, events, p, deck_b, policy_b, np.int64(1), seed)
    reveal_metagame(st, events, meta)
    log_event(events, st.ecount, 0, opening, EV_OPENS, -1, st.game[G_RIVAL], (players - opening) % players + 1)


@rules_kernel
def reveal_metagame(st: Any, events: IntArray, meta: IntArray) -> None:
    """Reveal one card of each metagame stack for the tournament ("Every Player activates the Metagame Score effects
    for themselves"), or none (-1) in the pre-release or with `metagame=none`: a card drawn at random, the top card
    of a freshly shuffled stack, since a tournament played alone has no earlier rounds. The whole game (`market.py`)
    does not call it: it shuffles each stack once a game, reveals its cards during deckbuilding as the document
    says and sets G_META itself."""
    reveal = st.options[O_METAGAME] == MG_REVEALED and st.options[O_VP_ROUND] != 0
    for m in range(MAX_META_STACKS):
        st.game[G_META + m] = -1
        # "No Metagame is revealed during this tournament" (the pre-release, vp_round 0).
        if reveal and m < meta.shape[0] and meta[m, 0] > 0:
            st.game[G_META + m] = meta[m, 1 + rng_below(st.rng, meta[m, 0])]
            log_event(events, st.ecount, 0, -1, EV_META, st.game[G_META + m], m, 0)


@rules_kernel
def play_tournament(table: IntArray, effects: IntArray, st: Any, counters: IntArray, events: IntArray) -> None:
    """Turns go round from the first player; a player who cannot play passes; it ends when nobody can play."""
    players = st.game[G_PLAYERS]
    p = st.game[G_FIRST]
    passes = 0
    while passes < players:
        if st.side[p, S_HAND] > 0 and st.side[p, S_USED] < st.side[p, S_SLOTS]:
            st.game[G_TURN] += 1
            take_turn(table, effects, st, counters, events, p)
            passes = 0
        else:
            passes += 1
            if st.side[p, S_PASSED] == 0:
                # Said once: the hand only shrinks, and only a slot gained in another turn makes a player able again.
                st.side[p, S_PASSED] = 1
                log_event(events, st.ecount, st.game[G_TURN], p, EV_PASS, -1, -1, st.side[p, S_HAND])
        p = (p + 1) % players
    st.game[G_TURN] += 1
    log_event(events, st.ecount, st.game[G_TURN], -1, EV_END, -1, -1, 0)
    final_scoring(table, effects, st, counters, events, st.options[O_VP_ROUND])


@rules_kernel
def record_tournament(
    st: Any,
    counters: IntArray,
    m: EngineInt,
    winners: Any,
    turns: Any,
    vp_a: IntArray,
    place_a: IntArray,
    rp_a: IntArray,
) -> None:
    """Tournament m of a batch is over: its counters closed and seat A's result written into the batch's columns."""
    # Every card played takes part in the clash that scores the tournament, however late it came: a round of 0 turns
    # counts every play as in time. The last turn played is game[G_TURN] - 1 (as `turns` counts it).
    end_match_counters(counters, st.game[G_TURN] - 1, np.int64(0))
    winners[m] = match_winner(st, st.options[O_MATCH_RESULT])
    turns[m] = st.game[G_TURN] - 1
    vp_a[m] = st.side[0, S_VP]
    place_a[m] = st.side[0, S_PLACE]
    rp_a[m] = st.side[0, S_RP]


@rules_kernel
def play_matches(
    table: IntArray,
    effects: IntArray,
    st: Any,
    store: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: EngineInt,
    policy_b: EngineInt,
    winners: Any,
    turns: Any,
    vp_a: IntArray,
    place_a: IntArray,
    rp_a: IntArray,
    counters: IntArray,
    events: IntArray,
    meta: IntArray,
) -> None:
    """One tournament per seed on the given state record (see `new_state`), which every tournament reuses, its store
    dealt from `store` (at most MAX_STORE cards)."""
    store_total = store.shape[0]
    for m in range(seeds.shape[0]):
        # Every tournament starts from the same store order, so a tournament depends on its seed alone.
        for k in range(store_total):
            st.store[k] = store[k]
        begin_match_counters(counters, m)
        setup_tournament(
            table, st, counters, events, deck_a, deck_b, seeds[m], first[m], policy_a, policy_b, store_total, meta
        )
        play_tournament(table, effects, st, counters, events)
        record_tournament(st, counters, m, winners, turns, vp_a, place_a, rp_a)


# =====================================================================================================================
# Decisions: any open decision listed and applied
#
# A decision is open in the state (G_DECISION, taken by seat G_ACTOR, about what G_PLACING and G_DX_* say): the rule
# code lists its legal actions into st.actions with the kind's own lister (`legal_turn_actions`, `legal_singles`,
# ...), asks the deciding seat's policy (`choose`) and applies the answer with the kind's own applier (`apply_*`).
# The two kernels here dispatch on G_DECISION for a caller that does not know the kind (tests, a new policy that
# looks ahead). The turn's decisions are applied in turn order and each applier opens the next; an effect's
# decision (a reaction, a target, a discard) is asked and applied where the effect resolves, the rest of the
# effect queue resolving after it.
#
# Simultaneous choices: the document has none inside a tournament turn. Turns are sequential ("Players will take
# turns in clockwise order around the table, each making a single turn"), a clash's participants react in queue
# order ("the player whose turn it is first, then clockwise"), and a discard's victim chooses its singles when the
# effect resolves; each is one seat's decision in that order.
# =====================================================================================================================


@rules_kernel
def legal_actions(table: IntArray, effects: IntArray, st: Any, out: IntArray) -> EngineInt:
    """The open decision's legal actions into `out` (see D_*), in a fixed order: how many (0: none is open)."""
    decision = st.game[G_DECISION]
    p = st.game[G_ACTOR]
    if decision == D_ACTION_BEFORE or decision == D_ACTION_AFTER:
        return legal_turn_actions(table, effects, st, p, out)
    if decision == D_SINGLE:
        return legal_singles(st, p, out)
    if decision == D_SCURRY:
        return legal_scurry(st, p, out)
    if decision == D_REACTION:
        return legal_reaction(out)
    if decision == D_FLIP_OWN:
        return legal_own_flips(table, st, p, st.game[G_DX_ARG], out)
    if decision == D_FLIP_OPPONENT:
        return legal_opponent_flips(table, st, p, st.game[G_DX_ARG], st.game[G_DX_LIMIT], out)
    if decision == D_DISCARDER:
        return legal_discarders(st, p, out)
    if decision == D_GIVE_UP:
        return legal_give_up(st, p, out)
    if decision == D_CLASH_OPPONENT:
        return legal_clash_opponents(st, p, out)
    return 0


@rules_kernel
def apply(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    action: EngineInt,
) -> None:
    """Take one action `legal_actions` listed for the open decision. A turn's decision opens the turn's next one (none
    after the last); an effect's decision does what the effect does with it and closes (its effect queue, if any,
    resolves in the caller)."""
    decision = st.game[G_DECISION]
    if decision == D_ACTION_BEFORE or decision == D_ACTION_AFTER:
        apply_turn_action(table, effects, st, counters, events, action)
    elif decision == D_SINGLE:
        apply_single(table, effects, st, counters, events, action)
    elif decision == D_SCURRY:
        apply_scurry(table, effects, st, counters, events, action)
    elif decision == D_REACTION:
        apply_reaction(table, effects, st, counters, events, action)
    elif decision == D_FLIP_OWN or decision == D_FLIP_OPPONENT:
        apply_flip(table, effects, st, counters, events, action)
    elif decision == D_DISCARDER:
        apply_discarder(table, effects, st, events, action)
    elif decision == D_GIVE_UP:
        apply_give_up(st, events, action)
    elif decision == D_CLASH_OPPONENT:
        apply_clash_opponent(table, effects, st, counters, events, action)


# =====================================================================================================================
# Policies: each chooses one of the actions the rules listed (out[0:n]); none changes a rule
#
# `choose` hands the open decision to the deciding seat's policy (its block, `policy_of`: read here alone). A policy
# may read the whole state and keep its own words (the search: st.search; epsilon-greedy: its block's generator); it
# returns one of the listed actions. A new policy is a policy code (`workbench.policies`; its name in
# `ENGINE.policies`), a function per decision kind it plays differently, and a branch in `choose`: no rule changes.
# Random's branch in each door is entered through `plays_random` and its choice handed to `random_played`: an
# exploring `epsilon` seat's random choice draws from its own generator, never the tournament's, and nothing but
# that choice is drawn in between.
# =====================================================================================================================


@inline_kernel
def policy_of(st: Any, p: EngineInt) -> IntArray:
    """Seat p's policy block (`workbench.policies`: code, parameter, own generator), a view of its S_POLICY words."""
    return st.side[p, S_POLICY : S_POLICY + POLICY_WORDS]


@rules_kernel
def opponents_lowest_top(table: IntArray, st: Any, p: EngineInt) -> int:
    """The lowest Top-card star rating among opponents with a Top card, or -1 when none has one."""
    best = -1
    for k in range(1, st.game[G_PLAYERS]):
        q = (p + k) % st.game[G_PLAYERS]
        t = top_slot(st, q)
        if t >= 0:
            v = stars_of(table, st, q, t)
            if best < 0 or v < best:
                best = v
    return best


@rules_kernel
def action_value(
    table: IntArray, effects: IntArray, st: Any, p: EngineInt, where: EngineInt, card: EngineInt, clause: EngineInt
) -> int:
    """Greedy's estimate of an Action's worth now (0 or less: not worth flipping the card for); a copy is worth the
    best Action of the card it copies."""
    if table[card, T_FLAGS] & F_HAS_SCORE:
        return 0  # flipping it would lose its Score clause
    if effects[card, clause, ACTION_BASE + A_VERB] != V_COPY:
        return plain_action_value(table, effects, st, p, where, card, clause)
    target = copy_target(st, p, where, effects[card, clause, ACTION_BASE + A_PICK])
    if target < 0:
        return 0
    copied = st.tab[p, target, TB_CARD]
    best = 0
    for c in range(table[copied, T_CLAUSES]):
        if effects[copied, c, E_TIMING] == TM_ACTION and effects[copied, c, ACTION_BASE + A_VERB] != V_COPY:
            v = plain_action_value(table, effects, st, p, where, copied, c)
            if v > best:
                best = v
    return best


@rules_kernel
def plain_action_value(
    table: IntArray, effects: IntArray, st: Any, p: EngineInt, where: EngineInt, card: EngineInt, clause: EngineInt
) -> int:
    """Greedy's estimate of one Action clause performed from `where` (not a copy)."""
    verb = effects[card, clause, ACTION_BASE + A_VERB]
    amount = effects[card, clause, ACTION_BASE + A_AMOUNT]
    if verb == V_GAIN:
        n = count_per(
            table, st, p, where, effects[card, clause, ACTION_BASE + A_PER], effects[card, clause, ACTION_BASE + A_ARG]
        )
        return amount * n
    if verb == V_CLASH:
        mine = top_slot(st, p)
        theirs = opponents_lowest_top(table, st, p)
        if mine < 0 or theirs < 0:
            return 0
        # With my Top card at least the opponent's, the clash is at least even.
        return 2 if stars_of(table, st, p, mine) >= theirs else 0
    if verb == V_FLIP:
        if effects[card, clause, ACTION_BASE + A_WHOSE] == WHOSE_YOURS:
            return 0
        pick = effects[card, clause, ACTION_BASE + A_PICK]
        return 3 if legal_opponent_flips(table, st, p, pick, np.int64(-1), st.probe) > 0 else 0
    if verb == V_ANVIL:
        mine = source_stars(table, st, p, where)
        return 3 if legal_opponent_flips(table, st, p, np.int64(PICK_CHOICE), mine, st.probe) > 0 else 0
    if verb == V_STAR:
        return amount if top_slot(st, p) >= 0 else 0
    if verb == V_BLAST_OFF:
        return BLAST_OFF_TOKENS
    if verb == V_DISCARD:
        if effects[card, clause, ACTION_BASE + A_WHOSE] == WHOSE_YOURS:
            return 0
        return 2 if legal_discarders(st, p, st.probe) > 0 else 0
    if verb == V_SLOT:
        # Worth it while the hand holds more singles than the open slots can take.
        room = st.side[p, S_SLOTS] - st.side[p, S_USED]
        return 3 if st.side[p, S_HAND] > room and st.side[p, S_SLOTS] < MAX_SLOTS else 0
    return 0


@rules_kernel
def play_value(table: IntArray, effects: IntArray, st: Any, p: EngineInt, card: EngineInt) -> int:
    """Greedy's estimate of the RP a single's Play clauses bring if played now (as the new right-most card)."""
    value = 0
    used = st.side[p, S_USED]
    for c in range(table[card, T_CLAUSES]):
        if effects[card, c, E_TIMING] != TM_PLAY:
            continue
        verb = effects[card, c, ACTION_BASE + A_VERB]
        amount = effects[card, c, ACTION_BASE + A_AMOUNT]
        if verb == V_GAIN:
            per = effects[card, c, ACTION_BASE + A_PER]
            arg = effects[card, c, ACTION_BASE + A_ARG]
            n = count_per(table, st, p, used, per, arg)
            stars = table[card, T_STARS] + table[card, T_ONGOING_STARS] + table[card, T_TOP_STARS]
            if (
                per == PER_CARD
                or (per == PER_SYMBOL and table[card, T_SYMBOLS] & arg)
                or (per == PER_STARS_AT_LEAST and stars >= arg)
                or (per == PER_STARS_AT_MOST and stars <= arg)
            ):
                n += 1
            value += amount * n
        elif verb == V_CLASH:
            theirs = opponents_lowest_top(table, st, p)
            mine = table[card, T_STARS] + table[card, T_ONGOING_STARS] + table[card, T_TOP_STARS]
            if theirs >= 0 and mine >= theirs:
                value += effects[card, c, ACTION_BASE + ACTION_WIDTH + A_AMOUNT]
        elif verb == V_FLIP and effects[card, c, ACTION_BASE + A_WHOSE] == WHOSE_OPPONENT:
            value += 3
        elif verb == V_DISCARD and effects[card, c, ACTION_BASE + A_WHOSE] == WHOSE_OPPONENT:
            value += 2
        elif verb == V_COPY and effects[card, c, ACTION_BASE + A_PICK] == COPY_LEFT:
            # The card will land at slot `used`: a copy left takes the Play gains of the card now on the right end.
            if used >= 1 and st.tab[p, used - 1, TB_UP] == 1:
                left = st.tab[p, used - 1, TB_CARD]
                for c2 in range(table[left, T_CLAUSES]):
                    if effects[left, c2, E_TIMING] == TM_PLAY and effects[left, c2, ACTION_BASE + A_VERB] == V_GAIN:
                        value += effects[left, c2, ACTION_BASE + A_AMOUNT] * count_per(
                            table,
                            st,
                            p,
                            used,
                            effects[left, c2, ACTION_BASE + A_PER],
                            effects[left, c2, ACTION_BASE + A_ARG],
                        )
        elif verb == V_THWOMP:
            if (
                used >= 1
                and st.tab[p, used - 1, TB_UP] == 1
                and stars_of(table, st, p, used - 1) < table[card, T_STARS]
            ):
                value += amount
    return value


@rules_kernel
def greedy_turn_action(table: IntArray, effects: IntArray, st: Any, p: EngineInt, out: IntArray, n: EngineInt) -> int:
    """Greedy's Action: Blast Off before playing (it boosts the card about to be played), anything else after, the
    most valuable listed one with a positive estimate (`action_value`; the first of equals), else NO_ACTION."""
    before = st.game[G_DECISION] == D_ACTION_BEFORE
    best = NO_ACTION
    best_value = 0
    for k in range(n - 1):
        where = out[k] // MAX_CLAUSES - 3
        c = out[k] % MAX_CLAUSES
        card = source_card(st, p, where)
        if (effects[card, c, ACTION_BASE + A_VERB] == V_BLAST_OFF) != before:
            continue
        v = action_value(table, effects, st, p, where, card, c)
        if v > best_value:
            best_value = v
            best = out[k]
    return best


@rules_kernel
def greedy_single(table: IntArray, effects: IntArray, st: Any, p: EngineInt, out: IntArray, n: EngineInt) -> int:
    """Greedy's single: the most immediate RP from Play clauses (`play_value`), then the fewest stars (high-star
    cards are kept to be the Top card late, for clashes); the first of equals."""
    best = out[0]
    best_value = -(1 << 40)
    best_stars = 1 << 40
    for k in range(n):
        card = st.side[p, S_CARDS + out[k]]
        v = play_value(table, effects, st, p, card)
        stars = table[card, T_STARS]
        if v > best_value or (v == best_value and stars < best_stars):
            best = out[k]
            best_value = v
            best_stars = stars
    return best


@rules_kernel
def greedy_flip_own(table: IntArray, st: Any, p: EngineInt, out: IntArray, n: EngineInt) -> int:
    """Greedy's own card to flip: the left-most listed, or with a free choice the left-most of the fewest stars."""
    best = out[0]
    if st.game[G_DX_ARG] != PICK_CHOICE:
        return best
    best_value = stars_of(table, st, p, best)
    for k in range(1, n):
        v = stars_of(table, st, p, out[k])
        if v < best_value:
            best = out[k]
            best_value = v
    return best


@rules_kernel
def greedy_flip_opponent(table: IntArray, st: Any, out: IntArray, n: EngineInt) -> int:
    """Greedy's opponent card to flip: the RP leader's (the first in turn order among equals), and of its listed
    cards the right-most, or with a free choice (or Anvil Drop) the right-most of the most stars."""
    by_stars = st.game[G_DX_ARG] == PICK_CHOICE or st.game[G_DX_LIMIT] >= 0
    best = -1
    best_rp = -1
    k = 0
    while k < n:
        q = out[k] // MAX_SLOTS
        s = -1
        best_v = -1
        while k < n and out[k] // MAX_SLOTS == q:
            t = out[k] % MAX_SLOTS
            if not by_stars:
                s = t
            else:
                v = stars_of(table, st, q, t)
                if s < 0 or v >= best_v:
                    s = t
                    best_v = v
            k += 1
        if st.side[q, S_RP] > best_rp:
            best_rp = st.side[q, S_RP]
            best = q * MAX_SLOTS + s
    return best


@rules_kernel
def greedy_rp_leader(st: Any, out: IntArray, n: EngineInt) -> int:
    """Greedy's opponent to make discard: the RP leader (the first in turn order among equals)."""
    best = out[0]
    for k in range(1, n):
        if st.side[out[k], S_RP] > st.side[best, S_RP]:
            best = out[k]
    return best


@rules_kernel
def greedy_give_up(table: IntArray, st: Any, q: EngineInt, out: IntArray, n: EngineInt) -> int:
    """Greedy's single to give up: the fewest stars (the high-star cards are its future Top cards), the first of
    equals."""
    best = out[0]
    for k in range(1, n):
        if table[st.side[q, S_CARDS + out[k]], T_STARS] < table[st.side[q, S_CARDS + best], T_STARS]:
            best = out[k]
    return best


@rules_kernel
def greedy_clash_opponent(table: IntArray, st: Any, out: IntArray, n: EngineInt) -> int:
    """Greedy's clash opponent: the lowest Top card, the most RP among equals (the first in turn order)."""
    opponent = -1
    best_stars = 0
    for k in range(n):
        q = out[k]
        v = stars_of(table, st, q, top_slot(st, q))
        if opponent < 0 or v < best_stars or (v == best_stars and st.side[q, S_RP] > st.side[opponent, S_RP]):
            opponent = q
            best_stars = v
    return opponent


@inline_kernel
def greedy_choice(table: IntArray, effects: IntArray, st: Any, out: IntArray, n: EngineInt) -> int:
    """Greedy's action for the open decision (see each kind's greedy_*)."""
    decision = st.game[G_DECISION]
    p = st.game[G_ACTOR]
    if decision == D_ACTION_BEFORE or decision == D_ACTION_AFTER:
        return greedy_turn_action(table, effects, st, p, out, n)
    if decision == D_SINGLE:
        return greedy_single(table, effects, st, p, out, n)
    if decision == D_SCURRY:
        # The far left when the current Top card has at least as many stars (so it stays Top), else the right end.
        t = top_slot(st, p)
        if t >= 0 and stars_of(table, st, p, t) >= table[st.game[G_PLACING], T_STARS]:
            return out[0]
        return out[n - 1]
    if decision == D_REACTION:
        # Each Reaction is used unless flipping the card would lose a Score clause.
        return DECLINE if table[st.game[G_DX_CARD], T_FLAGS] & F_HAS_SCORE else USE
    if decision == D_FLIP_OWN:
        return greedy_flip_own(table, st, p, out, n)
    if decision == D_FLIP_OPPONENT:
        return greedy_flip_opponent(table, st, out, n)
    if decision == D_DISCARDER:
        return greedy_rp_leader(st, out, n)
    if decision == D_GIVE_UP:
        return greedy_give_up(table, st, p, out, n)
    return greedy_clash_opponent(table, st, out, n)


@rules_kernel
def random_choice(st: Any, out: IntArray, n: EngineInt) -> int:
    """Random's action for the open decision, drawn from the state's generator: any listed action equally likely,
    but for an Action decision (a random listed Action, then none half the time) and an opponent's card to flip
    (each opponent with a target equally likely, then each of its cards). One pass over the list, each candidate
    kept with chance 1 / (candidates so far)."""
    decision = st.game[G_DECISION]
    if decision == D_ACTION_BEFORE or decision == D_ACTION_AFTER:
        best = NO_ACTION
        for k in range(n - 1):
            if rng_below(st.rng, k + 1) == 0:
                best = out[k]
        if best != NO_ACTION and rng_below(st.rng, 2) == 0:
            return NO_ACTION
        return best
    if decision == D_FLIP_OPPONENT:
        best = -1
        seen = 0
        k = 0
        while k < n:
            q = out[k] // MAX_SLOTS
            pick = -1
            count = 0
            while k < n and out[k] // MAX_SLOTS == q:
                count += 1
                if rng_below(st.rng, count) == 0:
                    pick = out[k]
                k += 1
            seen += 1
            if rng_below(st.rng, seen) == 0:
                best = pick
        return best
    if decision == D_FLIP_OWN or decision == D_DISCARDER or decision == D_CLASH_OPPONENT:
        best = -1
        for k in range(n):
            if rng_below(st.rng, k + 1) == 0:
                best = out[k]
        return best
    return out[rng_below(st.rng, n)]


@rules_kernel
def search_single(table: IntArray, effects: IntArray, st: Any, p: EngineInt, out: IntArray, n: EngineInt) -> int:
    """The search's single: the card `search_decision` chose for this turn (st.search[SR_WANTED], used once) if it is
    still in hand, else greedy's."""
    wanted = st.search[SR_WANTED]
    st.search[SR_WANTED] = -1
    if wanted >= 0:
        for k in range(n):
            if st.side[p, S_CARDS + out[k]] == wanted:
                return out[k]
    return greedy_single(table, effects, st, p, out, n)


@inline_kernel
def choose_turn_action(table: IntArray, effects: IntArray, st: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """`choose` for an Action decision (D_ACTION_BEFORE, D_ACTION_AFTER): the turn loop asks it directly, twice a
    turn, without `choose`'s dispatch on the kind."""
    if n == 1:
        return NO_ACTION  # nothing listed but NO_ACTION: what greedy and random answer, without a call
    p = st.game[G_ACTOR]
    block = policy_of(st, p)
    if block[P_CODE] != GREEDY and plays_random(block, st.rng):  # greedy's and search's Actions: greedy's
        return random_played(block, st.rng, random_choice(st, out, n))
    return greedy_turn_action(table, effects, st, p, out, n)


@inline_kernel
def choose_single(table: IntArray, effects: IntArray, st: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """`choose` for the single decision (D_SINGLE), asked directly by the turn loop."""
    p = st.game[G_ACTOR]
    block = policy_of(st, p)
    policy = block[P_CODE]
    if policy == SEARCH:
        return search_single(table, effects, st, p, out, n)
    if policy != GREEDY and plays_random(block, st.rng):
        return random_played(block, st.rng, out[rng_below(st.rng, n)])
    return greedy_single(table, effects, st, p, out, n)


@rules_kernel
def choose(table: IntArray, effects: IntArray, st: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """The deciding seat's policy's choice among the open decision's n listed actions (n >= 1)."""
    p = st.game[G_ACTOR]
    block = policy_of(st, p)
    policy = block[P_CODE]
    if policy == SEARCH and st.game[G_DECISION] == D_SINGLE:
        return search_single(table, effects, st, p, out, n)
    if policy != GREEDY and plays_random(block, st.rng):  # a search seat's other decisions: greedy's
        return random_played(block, st.rng, random_choice(st, out, n))
    return greedy_choice(table, effects, st, out, n)


# =====================================================================================================================
# The search policy: determinized Monte Carlo over the single a `search` seat plays on its turn, its rollouts shared
# out by successive halving
#
# On its own turn a `search` seat's candidates are greedy's whole turn (number 0: it keeps a tie) and each other
# distinct single in its hand (greedy's own single would repeat greedy's turn), played with greedy's Actions, Scurry
# position, targets and reactions. The decision's budget, `search_rollouts` times its candidates, is spent by
# successive halving (`workbench.search_kernels`): ceil(log2 m) rounds, in each every surviving candidate gets the
# same number of rollouts and the worse half is dropped. A sampled world: the state record cloned into the world
# record, what the seat cannot see dealt anew there (`determinize`, once per world for every candidate of a round). A
# rollout: the world cloned into the rollout's work record, the candidate's turn played, then the rest of the
# tournament by `search_rollout_policy` for every seat, scored by the seat's VP by the round's chart and its RP lead
# (`rollout_points`). In a round all candidates meet the same sampled worlds with the same later dice (common random
# numbers); the best survivor is played. Turns are sequential ("The Tournament Phase is a turn-based phase. Players
# will take turns in clockwise order around the table, each making a single turn."), so each decision is one seat's,
# on its own turn alone; its Reactions in another seat's turn are greedy's.
# =====================================================================================================================


@rules_kernel
def sort_words(values: IntArray, base: EngineInt, number: EngineInt) -> None:
    """Sort `number` words of `values` from `base` ascending (insertion sort: hands are short, and the store is
    mostly in order already after the first rollout's sort)."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    j: EngineInt
    for i in range(1, number):
        value = values[base + i]
        j = i
        while j > 0 and values[base + j - 1] > value:
            values[base + j] = values[base + j - 1]
            j -= 1
        values[base + j] = value


@rules_kernel
def deal_pool(st: Any, p: EngineInt) -> None:
    """Deal `st.pool` back to the seats other than p, each its count of singles in turn order: `determinize`'s
    deal."""
    n = np.int64(0)
    for q in range(st.game[G_PLAYERS]):
        if q != p:
            for h in range(st.side[q, S_HAND]):
                st.side[q, S_CARDS + h] = st.pool[n]
                n += 1


@rules_kernel
def determinize(table: IntArray, effects: IntArray, st: Any, p: EngineInt, rng: IntArray) -> None:
    """What seat p cannot see, dealt anew from what it can know, drawing from the xorshift generator `rng` (4 words;
    the search passes its world record's own, seeded per world). The contract's `determinize(G, S, seat, rng)`: the
    game data (`table`, `effects`) is taken as `legal_actions` takes it, though no deal reads it.

    The other seats' hands are one pool of unseen singles (how many each holds is seen): the pool (`st.pool`) is
    sorted, then shuffled and dealt back, each seat its count. The undrawn store (`st.store[:left]`) is sorted and
    shuffled too. Sorting first means the deal depends on which cards are unseen and on the generator, never on where
    they lie. Deck boxes, accessories, tableaus, the aftermarket and the metagame are face-up and stay; so does the
    state's own generator."""
    players = st.game[G_PLAYERS]
    n = np.int64(0)  # not the constant 0, which would compile the calls below twice
    for q in range(players):
        if q != p:
            for h in range(st.side[q, S_HAND]):
                st.pool[n] = st.side[q, S_CARDS + h]
                n += 1
    sort_words(st.pool, np.int64(0), n)
    shuffle_in_place(st.pool, n, rng)
    deal_pool(st, p)
    left = st.game[G_STORE_LEFT]
    sort_words(st.store, np.int64(0), left)
    shuffle_in_place(st.store, left, rng)


@rules_kernel
def clone(st: Any, into: Any) -> None:
    """The contract's clone: the match of record `st` into record `into`, which then plays on exactly as `st` would:
    tableaus, areas, seats, match fields, the effect queue's waiting rows, the generator, the store's cards in use
    (game[G_STORE_TOTAL]) and the rule options. Left as `into`'s own, since no rule reads them: the trace's length
    (`ecount`: the trace is the caller's), the search's words, `determinize`'s scratch (`pool`) and the two action
    lists (each listing writes its list before anything reads it)."""
    # Element loops: the kernels run without Numba's reference-counted runtime, which slice assignment needs.
    for p in range(MAX_PLAYERS):
        for s in range(TAB_SLOTS):
            for f in range(TAB_WIDTH):
                into.tab[p, s, f] = st.tab[p, s, f]
        for a in range(3):
            for f in range(2):
                into.area[p, a, f] = st.area[p, a, f]
        for f in range(SIDE_WIDTH):
            into.side[p, f] = st.side[p, f]
    for k in range(GAME_WIDTH):
        into.game[k] = st.game[k]
    # The queue's waiting rows only, head to tail round the ring: between turns (a rollout's clone) there are none.
    for r in range(st.game[G_QHEAD], st.game[G_QTAIL]):
        i = r % QUEUE_SIZE
        for f in range(QUEUE_WIDTH):
            into.queue[i, f] = st.queue[i, f]
    for k in range(4):
        into.rng[k] = st.rng[k]
    for k in range(st.game[G_STORE_TOTAL]):
        into.store[k] = st.store[k]
    for k in range(len(OPTION_ORDER)):
        into.options[k] = st.options[k]


@rules_kernel
def project_rp(st: Any) -> None:
    """The cut-off's evaluation, before the final scoring scores the position: each seat's RP raised by what its
    singles still to play are worth, EVAL_PLAY_TENTHS tenths of an RP for each (as many as its hand holds and its
    open slots take), rounded."""
    for q in range(st.game[G_PLAYERS]):
        plays = min(st.side[q, S_HAND], st.side[q, S_SLOTS] - st.side[q, S_USED])
        if plays > 0:
            st.side[q, S_RP] += (plays * EVAL_PLAY_TENTHS + 5) // 10


@rules_kernel
def finish_rollout(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    p: EngineInt,
    depth: EngineInt,
) -> None:
    """A rollout's rest of the tournament from seat p's turn (no seat has passed since the last turn):
    `play_tournament`'s loop, every seat by its own policy (`search` plays as greedy), then final scoring; with
    `depth` > 0 cut off once `depth` turns are played, the position then scored as if the tournament ended
    (`project_rp`, then the final scoring: Score clauses, the metagame, placement and VP)."""
    players = st.game[G_PLAYERS]
    passes = 0
    turns = 0
    while passes < players:
        if depth > 0 and turns >= depth:
            project_rp(st)
            break
        if st.side[p, S_HAND] > 0 and st.side[p, S_USED] < st.side[p, S_SLOTS]:
            st.game[G_TURN] += 1
            take_turn(table, effects, st, counters, events, p)
            passes = 0
            turns += 1
        else:
            passes += 1
            st.side[p, S_PASSED] = 1
        p = (p + 1) % players
    st.game[G_TURN] += 1
    final_scoring(table, effects, st, counters, events, st.options[O_VP_ROUND])


@rules_kernel
def rollout_points(st: Any, p: EngineInt) -> EngineInt:
    """A finished rollout's points for seat p: its VP times `WIN_POINTS`, plus its RP lead over the best other seat
    (negative when behind) squashed into (0, WIN_POINTS) by `position_points` (EVAL_RP_HALF). VP decide; the lead
    tells apart rollouts whose VP are even, so few rollouts still rank candidates (a VP is worth more than any
    lead)."""
    best = -(1 << 40)
    for q in range(st.game[G_PLAYERS]):
        if q != p and st.side[q, S_RP] > best:
            best = st.side[q, S_RP]
    return st.side[p, S_VP] * WIN_POINTS + position_points(st.side[p, S_RP] - best, np.int64(EVAL_RP_HALF))


@rules_kernel
def rollout_world(table: IntArray, effects: IntArray, st: Any, world: Any, p: EngineInt, seed: EngineInt) -> None:
    """One sampled world for a round of rollouts: the state cloned into the work record `world`, what seat p cannot
    see dealt anew there from `seed` (`determinize`, drawing from the world's own generator, seeded so). Each
    candidate's rollout of the round starts from a clone of it, so the world is dealt once a round."""
    clone(st, world)
    rng_seed(world.rng, seed)
    determinize(table, effects, world, p, world.rng)


@rules_kernel
def rollout(
    table: IntArray,
    effects: IntArray,
    world: Any,
    sim: Any,
    sim_counters: IntArray,
    events: IntArray,
    p: EngineInt,
    wanted: EngineInt,
    dice: EngineInt,
) -> EngineInt:
    """One rollout of seat p playing `wanted` (-1: greedy's turn) from the state of its turn in the sampled world
    `world` (`rollout_world`), on the work record `sim` (a clone of the world) with its own counters, the later dice
    from seed `dice`. Its points (`rollout_points`)."""
    clone(world, sim)
    rng_seed(sim.rng, dice)
    # The trace counted as full: a rollout logs nothing (log_event writes only below the buffer's length).
    sim.ecount[0] = events.shape[0]
    players = sim.game[G_PLAYERS]
    policy = sim.options[O_SEARCH_POLICY]
    for q in range(players):
        sim.side[q, S_POLICY] = policy
    # The candidate's own turn is greedy's but for the single (greedy's turn itself when wanted is -1): the search
    # policy's, told the single.
    sim.side[p, S_POLICY] = SEARCH
    sim.search[SR_WANTED] = wanted
    sim.game[G_TURN] += 1
    take_turn(table, effects, sim, sim_counters, events, p)
    sim.side[p, S_POLICY] = policy
    finish_rollout(table, effects, sim, sim_counters, events, (p + 1) % players, sim.options[O_SEARCH_DEPTH])
    return rollout_points(sim, p)


@rules_kernel
def search_candidates(table: IntArray, effects: IntArray, st: Any, p: EngineInt) -> int:
    """List seat p's candidates in its search words and return how many: greedy's turn (-1) first, then each distinct
    single of its hand in hand order but greedy's own single (`greedy_single`, whose play greedy's turn already is)."""
    search = st.search
    n = legal_singles(st, p, st.actions)
    greedy = st.side[p, S_CARDS + greedy_single(table, effects, st, p, st.actions, n)]
    search[SR_CAND] = -1
    m = 1
    for k in range(n):
        card = st.side[p, S_CARDS + st.actions[k]]
        repeated = card == greedy
        for j in range(1, m):
            if search[SR_CAND + j] == card:
                repeated = True
                break
        if not repeated:
            search[SR_CAND + m] = card
            m += 1
    return m


@inline_kernel
def context_world(context: Any, seed: EngineInt) -> None:
    """`halving_search`'s world dealer: `rollout_world` into the world record."""
    table, effects, st, world, _sim, _counters, _events, p = context
    rollout_world(table, effects, st, world, p, seed)


@inline_kernel
def context_rollout(context: Any, k: EngineInt, world: EngineInt, dice: EngineInt) -> EngineInt:
    """`halving_search`'s rollout: candidate k (its single, SR_CAND + k) in the world of seed `world`, which
    `context_world` has just dealt into the world record."""
    table, effects, st, world_record, sim, sim_counters, events, p = context
    wanted = st.search[SR_CAND + k]
    return rollout(table, effects, world_record, sim, sim_counters, events, p, wanted, dice)


@rules_kernel
def search_decision(
    table: IntArray,
    effects: IntArray,
    st: Any,
    sim: Any,
    world: Any,
    sim_counters: IntArray,
    events: IntArray,
    p: EngineInt,
) -> int:
    """Seat p's single for this turn (-1: greedy's turn): the best candidate (`search_candidates`) after successive
    halving over `search_rollouts` x candidates rollouts, greedy's on a tie. With one distinct single in hand there
    is nothing to choose: no rollout. The search's words are `st.search` (SR_*); its work records are `world` (a
    round's sampled world) and `sim` (a rollout's play)."""
    search = st.search
    m = search_candidates(table, effects, st, p)
    search[SR_N] = m
    search[SR_CHOICE] = 0
    if m <= 1:
        return -1
    context = (table, effects, st, world, sim, sim_counters, events, p)
    budget = st.options[O_SEARCH_ROLLOUTS] * m
    search[SR_ROLLOUTS] += halving_search(
        context_world, context_rollout, context, search, SR_ORDER, SR_POINTS, SR_TRIED, np.int64(m), budget, search
    )
    search[SR_DECISIONS] += 1
    best = search[SR_ORDER]
    search[SR_CHOICE] = best
    return search[SR_CAND + best]


@rules_kernel
def play_searched_tournament(
    table: IntArray,
    effects: IntArray,
    st: Any,
    counters: IntArray,
    events: IntArray,
    sim: Any,
    world: Any,
    sim_counters: IntArray,
) -> None:
    """`play_tournament` where a `search` seat's single is chosen by `search_decision` on its turn."""
    players = st.game[G_PLAYERS]
    p = st.game[G_FIRST]
    passes = 0
    while passes < players:
        if st.side[p, S_HAND] > 0 and st.side[p, S_USED] < st.side[p, S_SLOTS]:
            if st.side[p, S_POLICY] == SEARCH:
                st.search[SR_WANTED] = search_decision(table, effects, st, sim, world, sim_counters, events, p)
            st.game[G_TURN] += 1
            take_turn(table, effects, st, counters, events, p)
            passes = 0
        else:
            passes += 1
            if st.side[p, S_PASSED] == 0:
                st.side[p, S_PASSED] = 1
                log_event(events, st.ecount, st.game[G_TURN], p, EV_PASS, -1, -1, st.side[p, S_HAND])
        p = (p + 1) % players
    st.game[G_TURN] += 1
    log_event(events, st.ecount, st.game[G_TURN], -1, EV_END, -1, -1, 0)
    final_scoring(table, effects, st, counters, events, st.options[O_VP_ROUND])


@rules_kernel
def play_searched_matches(
    table: IntArray,
    effects: IntArray,
    st: Any,
    store: IntArray,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: EngineInt,
    policy_b: EngineInt,
    winners: Any,
    turns: Any,
    vp_a: IntArray,
    place_a: IntArray,
    rp_a: IntArray,
    counters: IntArray,
    events: IntArray,
    meta: IntArray,
    sim: Any,
    world: Any,
    sim_counters: IntArray,
) -> None:
    """`play_matches` when a seat plays `search`: the search's generator seeded from each tournament's seed."""
    store_total = store.shape[0]
    for m in range(seeds.shape[0]):
        for k in range(store_total):
            st.store[k] = store[k]
        begin_match_counters(counters, m)
        setup_tournament(
            table, st, counters, events, deck_a, deck_b, seeds[m], first[m], policy_a, policy_b, store_total, meta
        )
        rng_seed(st.search, seeds[m] ^ SEARCH_SEED)
        play_searched_tournament(table, effects, st, counters, events, sim, world, sim_counters)
        record_tournament(st, counters, m, winners, turns, vp_a, place_a, rp_a)


# =====================================================================================================================
# The Python edge: compiling cards, batches, traces
# =====================================================================================================================


def option_array(options: Mapping[str, OptionValue]) -> IntArray:
    """The engine's rule options as integers, in OPTION_ORDER (a player count or slot count out of range is a clear
    error)."""
    players, slots = int(options["players"]), int(options["tableau_slots"])
    if not 2 <= players <= MAX_PLAYERS:
        raise WorkbenchInputError(f"option players={players} is out of range.", expected=f"2 to {MAX_PLAYERS} players")
    if not 1 <= slots <= MAX_SLOTS:
        raise WorkbenchInputError(f"option tableau_slots={slots} is out of range.", expected=f"1 to {MAX_SLOTS} slots")
    return np.array(
        [
            int(options["players"]),
            int(options["tableau_slots"]),
            VP_ROUNDS.index(str(options["vp_round"])),
            MATCH_RESULTS.index(str(options["match_result"])),
            STORE_KINDS.index(str(options["store_kinds"])),
            METAGAME_MODES.index(str(options["metagame"])),
            # The search policy's budget; .get because the whole game's option set compiles this table too.
            int(options.get("search_rollouts", SEARCH_ROLLOUTS)),
            SEARCH_ROLLOUT_POLICIES.index(str(options.get("search_rollout_policy", "greedy"))),
            int(options.get("search_depth", SEARCH_DEPTH)),
        ],
        dtype=np.int64,
    )


def _encode_action(action: EffectAction, symbol_bits: Mapping[str, int]) -> list[int]:
    """One action as ACTION_WIDTH integers (verb, amount, per, per argument, whose, pick or copy direction)."""
    row = [V_NONE, 0, PER_NONE, 0, 0, 0]
    if action.verb == "keyword":
        assert action.keyword is not None
        row[A_VERB] = KEYWORD_VERBS[action.keyword]
        row[A_AMOUNT] = action.amount
        return row
    row[A_VERB] = VERB_CODES[action.verb]
    row[A_AMOUNT] = action.amount
    if action.per is not None:
        row[A_PER] = PER_CODES[action.per.kind] + (PER_REVEALED if action.per.revealed else 0)
        if action.per.kind == "symbol":
            row[A_ARG] = symbol_bits.get((action.per.symbol or "").casefold(), 0)
        elif action.per.stars is not None:
            row[A_ARG] = action.per.stars
    if action.whose is not None:
        row[A_WHOSE] = WHOSE_YOURS if action.whose == "yours" else WHOSE_OPPONENT
    if action.pick is not None:
        row[A_PICK] = ("highest", "lowest", "choice").index(action.pick)
    if action.direction is not None:
        row[A_PICK] = COPY_LEFT if action.direction == "left" else COPY_RIGHT
    return row


def compile_cards(cardset: CardSet, options: Mapping[str, OptionValue]) -> CompiledCards:
    """The card table, the effect opcode table and the store deck (card ids, one per physical copy)."""
    entries = list(cardset)
    cards: list[BladesCard] = [entry.card for entry in entries]  # type: ignore[misc]
    # Clauses outside the vocabulary (and `per` names no card has) are simulated without, as the checks report.
    findings: list[Finding] = list(effect_findings(cardset))
    symbol_bits: dict[str, int] = {}
    for card in cards:
        for name in (*card.elements, *card.types):
            key = name.casefold()
            if key not in symbol_bits and len(symbol_bits) < MAX_SYMBOLS:
                symbol_bits[key] = 1 << len(symbol_bits)
    table = np.zeros((len(cards), TABLE_WIDTH), dtype=np.int64)
    effects = np.zeros((len(cards), MAX_CLAUSES, EFFECT_WIDTH), dtype=np.int64)
    for index, (entry, card) in enumerate(zip(entries, cards, strict=False)):
        table[index, T_KIND] = KIND_NAMES.index(card.kind)
        table[index, T_STARS] = card.stars
        bits = 0
        for name in (*card.elements, *card.types):
            bits |= symbol_bits.get(name.casefold(), 0)
            if name.casefold() not in symbol_bits:
                findings.append(
                    cardset.finding(
                        "info",
                        "blades.engine_symbols",
                        f"the simulator counts at most {MAX_SYMBOLS} different elements and types; '{name}' is past "
                        "that, so `per` conditions do not see it on this card.",
                        entry,
                        "elements" if name in card.elements else "types",
                        expected=f"at most {MAX_SYMBOLS} different symbols",
                        actual=name,
                    )
                )
        table[index, T_SYMBOLS] = bits
        clauses = parse_effects(card.effects).clauses
        if len(clauses) > MAX_CLAUSES:
            findings.append(
                cardset.finding(
                    "info",
                    "blades.engine_clauses",
                    f"the simulator plays the first {MAX_CLAUSES} effect clauses of a card; the other "
                    f"{len(clauses) - MAX_CLAUSES} are left out.",
                    entry,
                    "effects",
                    expected=f"at most {MAX_CLAUSES} clauses",
                    actual=len(clauses),
                )
            )
            clauses = clauses[:MAX_CLAUSES]
        table[index, T_CLAUSES] = len(clauses)
        flags = 0
        for c, clause in enumerate(clauses):
            timing = TIMING_CODES.index(clause.timing)
            effects[index, c, E_TIMING] = timing
            effects[index, c, E_TRIGGER] = TRIGGER_CODES.index(clause.trigger) if clause.trigger else -1
            action = clause.action
            effects[index, c, E_CLASH_ALL] = 1 if action.clash_with == "all" else 0
            effects[index, c, ACTION_BASE : ACTION_BASE + ACTION_WIDTH] = _encode_action(action, symbol_bits)
            for outcome, outcome_action in action.outcomes:
                part = {"win": PART_WIN, "lose": PART_LOSE, "tie": PART_TIE}[outcome]
                start = ACTION_BASE + part * ACTION_WIDTH
                effects[index, c, start : start + ACTION_WIDTH] = _encode_action(outcome_action, symbol_bits)
            if action.verb == "star" and timing == TM_ONGOING:
                table[index, T_ONGOING_STARS] += action.amount
            elif action.verb == "star" and timing == TM_TOP:
                table[index, T_TOP_STARS] += action.amount
            elif action.verb == "protect":
                if timing == TM_ONGOING:
                    flags |= F_ONGOING_PROTECT_SELF if action.guards == "self" else F_ONGOING_PROTECT_ADJACENT
                else:
                    flags |= F_TOP_PROTECT_SELF if action.guards == "self" else F_TOP_PROTECT_ADJACENT
            elif action.keyword == "Mimicry":
                flags |= F_MIMICRY
            elif action.keyword == "Scurry":
                flags |= F_SCURRY
            if timing == TM_SCORE:
                flags |= F_HAS_SCORE
            if timing == TM_NEXT:
                flags |= F_HAS_NEXT
        table[index, T_FLAGS] = flags
    resolved = option_array(options)
    store_ids: list[int] = []
    # Metagame cards sit on the Aftermarket Board, never in the store, whatever `store_kinds` says.
    for index, card in enumerate(cards):
        if card.kind == "metagame":
            continue
        if resolved[O_STORE_KINDS] == STORE_KINDS.index("all") or card.set_kind in BOOSTER_SET_KINDS:
            store_ids.extend([index] * card.copies)
    if not store_ids:
        # A set without booster cards (only starters, promos, pro cards): clash against the whole set instead.
        for index, card in enumerate(cards):
            if card.kind != "metagame":
                store_ids.extend([index] * card.copies)
        findings.append(
            Finding(
                severity="info",
                rule="blades.engine_store",
                message="the set has no core, expansion, premium or master cards, so the simulated store holds every "
                "card of the set (each `copies` times).",
                sheet=cardset.sheet,
                expected="booster cards for the store",
                actual="none",
            )
        )
    # Refused before any tournament is played: the state record's store holds MAX_STORE cards.
    check_store(np.asarray(store_ids, dtype=np.int64))
    meta, meta_findings = _meta_stacks(cardset, entries, cards)
    findings.extend(meta_findings)
    return CompiledCards(
        names=tuple(card.name for card in cards),
        table=table,
        # Metagame cards are nobody's to play and have no star rating: no cost axis, so no power is measured.
        cost=np.where(table[:, T_KIND] == K_METAGAME, np.nan, table[:, T_STARS].astype(np.float64)),
        slot=table[:, T_KIND].copy(),
        options=resolved,
        findings=tuple(findings),
        extra={"effects": effects, "store": np.asarray(store_ids, dtype=np.int64), "meta": meta},
    )


def _meta_stacks(
    cardset: CardSet, entries: Sequence[Any], cards: Sequence[BladesCard]
) -> tuple[IntArray, list[Finding]]:
    """The metagame stacks: one per meta set, in order of first appearance, as rows (count, card ids ...); a set
    with more than MAX_META_STACKS meta sets has the later ones left out (info finding)."""
    stacks: dict[str, list[int]] = {}
    findings: list[Finding] = []
    for index, (entry, card) in enumerate(zip(entries, cards, strict=True)):
        if card.kind != "metagame":
            continue
        key = " ".join(card.set.casefold().split())
        if key not in stacks and len(stacks) == MAX_META_STACKS:
            findings.append(
                cardset.finding(
                    "info",
                    "blades.engine_metagame",
                    f"the simulator reveals a card from at most {MAX_META_STACKS} meta sets (the document has two "
                    f"stacks); meta set '{card.set}' is left out.",
                    entry,
                    "set",
                    expected=f"at most {MAX_META_STACKS} meta sets",
                    actual=card.set,
                )
            )
            continue
        stacks.setdefault(key, []).append(index)
    width = 1 + max((len(ids) for ids in stacks.values()), default=0)
    meta = np.zeros((len(stacks), width), dtype=np.int64)
    for m, ids in enumerate(stacks.values()):
        meta[m, 0] = len(ids)
        meta[m, 1 : 1 + len(ids)] = ids
    return meta, findings


def check_store(store: IntArray) -> IntArray:
    """`store` (card ids) if a tournament's state record holds it (at most MAX_STORE cards, the `store_cards`
    limit), else the limit's refusal."""
    if store.shape[0] > MAX_STORE:
        raise over_limit("store_cards", f"the store holds {store.shape[0]:,} cards")
    return store


def new_state(options: IntArray | None = None) -> Any:
    """A fresh tournament state record (see STATE_DTYPE) for up to MAX_PLAYERS seats, holding these rule options
    (`option_array`; none given: zeros, for scenario tests that fill the fields a kernel reads). No deck box,
    accessory or metagame card (-1) until setup deals them."""
    state = np.zeros(1, dtype=STATE_DTYPE).view(np.recarray)[0]
    state.area[:, :, AR_CARD] = -1
    state.game[G_META : G_META + MAX_META_STACKS] = -1
    state.search[SR_WANTED] = -1
    if options is not None:
        state.options[:] = options
    return state


def search_state(compiled: CompiledCards) -> dict[str, Any]:
    """The search policy's work: two state records of its own (`world`: a round's sampled world; `sim`: a rollout
    plays on a clone of it) and its counters (nothing of a rollout is counted in the batch's)."""
    return {
        "sim": new_state(compiled.options),
        "world": new_state(compiled.options),
        "counters": new_counters(len(compiled.names)),
    }


def _run(
    compiled: CompiledCards,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: int,
    policy_b: int,
    events: IntArray,
    search_words: IntArray | None = None,
) -> tuple[Any, Any, Any, IntArray, IntArray, IntArray, IntArray]:
    """Play the batch; with a `search` seat through `play_searched_matches`, adding its decision and rollout counts
    into `search_words` (SR_DECISIONS, SR_ROLLOUTS) when given."""
    n = seeds.shape[0]
    winners = np.zeros(n, dtype=np.int8)
    turns = np.zeros(n, dtype=np.int32)
    vp_a = np.zeros(n, dtype=np.int64)
    place_a = np.zeros(n, dtype=np.int64)
    rp_a = np.zeros(n, dtype=np.int64)
    state = new_state(compiled.options)
    counters = new_counters(len(compiled.names))
    args = (
        compiled.table,
        compiled.extra["effects"],
        state,
        check_store(compiled.extra["store"]),
        np.ascontiguousarray(deck_a, dtype=np.int64),
        np.ascontiguousarray(deck_b, dtype=np.int64),
        np.ascontiguousarray(seeds, dtype=np.int64),
        np.ascontiguousarray(first, dtype=np.int8),
        policy_a,
        policy_b,
        winners,
        turns,
        vp_a,
        place_a,
        rp_a,
        counters,
        events,
        compiled.extra["meta"],
    )
    if SEARCH in (policy_a, policy_b):
        work = search_state(compiled)
        play_searched_matches(*args, work["sim"], work["world"], work["counters"])
        if search_words is not None:
            search_words[SR_DECISIONS] += state.search[SR_DECISIONS]
            search_words[SR_ROLLOUTS] += state.search[SR_ROLLOUTS]
    else:
        play_matches(*args)
    return winners, turns, published_counters(counters), vp_a, place_a, rp_a, events[: int(state.ecount[0])]


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
    """One batch of tournaments (`_run`), with the trace's room when `traced`; `batch_and_trace` makes the engine's
    `play_batch` and `play_traced` of it. The per-match extras are seat A's `vp`, `place` and `rp`, and `score` = A's
    VP as a share of the first-place VP of the round (what power curves compare: a card's power is its change in
    average VP, in units of a first prize)."""
    events = np.zeros((MAX_TRACE_EVENTS if traced else 0, EVENT_WIDTH), dtype=np.int64)
    winners, turns, counters, vp_a, place_a, rp_a, trace = _run(
        compiled, deck_a, deck_b, seeds, first, policy_a, policy_b, events
    )
    first_prize = float(VP_CHART[int(compiled.options[O_VP_ROUND]), 0])
    extras = {"vp": vp_a, "place": place_a, "rp": rp_a, "score": vp_a / first_prize}
    return BatchRun(winners, turns, counters, trace, extras)


play_batch, play_traced = batch_and_trace(run_batch)


def play_batch_detailed(
    compiled: CompiledCards,
    deck_a: IntArray,
    deck_b: IntArray,
    seeds: IntArray,
    first: Any,
    policy_a: int,
    policy_b: int,
) -> dict[str, Any]:
    """Like `play_batch`, plus seat A's VP, placement (1 = first; tied seats share the best place) and RP, and the
    search policy's decisions searched and rollouts played over the batch (0 without a `search` seat)."""
    words = np.zeros(SEARCH_WORDS, dtype=np.int64)
    winners, turns, counters, vp_a, place_a, rp_a, _ = _run(
        compiled, deck_a, deck_b, seeds, first, policy_a, policy_b, np.zeros((0, EVENT_WIDTH), dtype=np.int64), words
    )
    return {
        "winner": winners,
        "turns": turns,
        "counters": counters,
        "vp_a": vp_a,
        "place_a": place_a,
        "rp_a": rp_a,
        "search_decisions": int(words[SR_DECISIONS]),
        "search_rollouts": int(words[SR_ROLLOUTS]),
    }


SEATS = "ABCDE"


def describe_event(compiled: CompiledCards, row: Sequence[int]) -> str:
    """One trace row as a line a designer can read."""
    _turn, player, code, card, other, amount = (int(v) for v in row)
    who = SEATS[player] if 0 <= player < len(SEATS) else ""

    def name(card_id: int) -> str:
        return compiled.names[card_id] if card_id >= 0 else "?"

    def stars(card_id: int) -> int:
        return int(compiled.table[card_id, T_STARS])

    trigger = TRIGGER_CODES[other] if 0 <= other < len(TRIGGER_CODES) else "?"
    where = {W_BOX: "deck box", W_ACCESSORY_1: "accessory", W_ACCESSORY_2: "accessory"}.get(other, "tableau")
    lines: dict[int, Callable[[], str]] = {
        EV_SEAT: lambda: f"seat {who} plays deck {'A' if amount == 0 else 'B'}",
        EV_TURN: lambda: f"{who}'s turn ({amount} singles in hand, {other} RP)",
        EV_PLAY: lambda: f"{who} plays {name(card)} ({amount} stars) into slot {other + 1}",
        EV_PASS: lambda: (
            f"{who} cannot play a single ({'tableau full' if amount > 0 else 'no singles left'}) and passes from now on"
        ),
        EV_RP: lambda: (
            f"{name(card)}: {who} {'gains' if amount >= 0 else 'loses'} {abs(amount)} RP ({other} RP)"
            if card >= 0
            else f"{who} {'gains' if amount >= 0 else 'loses'} {abs(amount)} RP ({other} RP)"
        ),
        EV_FLIP: lambda: (
            f"{who}'s {name(card)} is flipped face-down"
            + (f" by {name(other)}" if other >= 0 else "")
            + (f" ({SEATS[amount]}'s effect)" if amount != player and 0 <= amount < len(SEATS) else "")
        ),
        EV_TOKENS: lambda: (
            f"{name(other)}: {who} will put {amount} +1 star tokens on the next single played"
            if card < 0
            else f"{who}'s {name(card)} gets {amount} +1 star token(s)"
            + (f" from {name(other)}" if other >= 0 else " (Blast Off)")
        ),
        EV_ACTION: lambda: f"{who} uses the Action of {name(card)} ({where})",
        EV_REACTION: lambda: f"{who} reacts ({trigger}) with {name(card)}",
        EV_CLASH: lambda: (
            f"{name(card)}: {who} clashes with all players"
            if amount == 1
            else f"{name(card)}: {who} clashes with {SEATS[other] if other >= 0 else '?'}"
        ),
        EV_REVEAL: lambda: (
            f"  {who}: Top card {name(card)} + store card {name(other)} ({stars(other)}) = {amount}"
            if other >= 0
            else f"  {who}: Top card {name(card)} + no card left in the store = {amount}"
        ),
        EV_CLASH_RESULT: lambda: (
            f"  the clash is a tie at {amount}" if player < 0 else f"  {who} wins the clash with {amount}"
        ),
        EV_NO_CLASH: lambda: f"{name(card)}: no clash ({who} or every opponent lacks a Top card)",
        EV_NO_TARGET: lambda: f"{name(card)}: no legal target, nothing happens",
        EV_PLACE: lambda: f"{who} places {other} with {card} RP: {amount} VP",
        EV_END: lambda: "nobody can play a single: the tournament ends; Score effects",
        EV_TRIMMED: lambda: f"{who} has more than {HAND_LIMIT} singles: {name(card)} goes back to the binder",
        EV_STORE_RESHUFFLED: lambda: f"the store is empty: the store discard ({amount} cards) is shuffled into it",
        EV_AFTERMARKET_CLEARED: lambda: f"the aftermarket is full: its {amount} cards go to the store discard",
        EV_OPENS: lambda: (
            f"{who} takes the first turn (A is number {amount} in turn order); A's head-to-head rival is {SEATS[other]}"
        ),
        EV_META: lambda: f"metagame: {name(card)} is revealed from meta stack {other + 1}",
        EV_DISCARD: lambda: (
            f"{who} discards {name(card)} from hand to the binder"
            + (f" ({name(other)}, {SEATS[amount]}'s effect)" if 0 <= amount < len(SEATS) and other >= 0 else "")
        ),
        EV_ATTACH: lambda: f"{who} attaches {name(card)} from hand to {name(other)} ({amount} attached)",
        EV_DETACH: lambda: f"{who}'s {name(card)} was flipped: its {amount} attached card(s) go back to the binder",
        EV_SLOT: lambda: f"{name(card)}: {who} gains {amount} tableau slot(s) ({other} in all)",
        EV_COPY: lambda: f"{who}'s {name(card)} copies the effects of {name(other)} (slot {amount + 1})",
    }
    describe = lines.get(code)
    return describe() if describe else f"event {code} (player {player}, card {card}, other {other}, amount {amount})"


ENGINE = Engine(
    # 4: the search's rollouts shared out by successive halving (its results change; greedy and random do not).
    version="4",
    policies=POLICY_NAMES,
    cost_axis="star rating",
    compile_cards=compile_cards,
    play_batch=play_batch,
    play_traced=play_traced,
    describe_event=describe_event,
    score_meaning="seat A's VP as a share of the round's first-place VP (power: change in average VP / first prize)",
)
