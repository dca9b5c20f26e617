"""The SOURCE rules: webs, recalls and the effect clauses, summoning, equipment, traps, channeled effects,
movement, combat, the symbols, the decisions (`legal_actions`, `take`, `apply`), the resolution frames (a move or a
card's clauses that ask a question stop there: `resolve_frame`), a turn stage by stage (`advance`), a match's setup,
and the contract's `clone_state` and `determinize`.

Imports only `layout` and `board`: no rule reads which policy a side plays, no module of the policies is imported
here, and no rule asks a policy. The rules stop at every decision, the turn's own and the questions a rule asks while
it resolves (a fork, a swap, an effect's enemy, web, recall or summon), and return (`advance`); the play loop above
them asks the deciding side's policy and hands its answer to `apply`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import (
    ATTACKED,
    DAMAGE_DEALT,
    EngineBool,
    EngineInt,
    IntArray,
    count_play,
    inline_kernel,
    llvm_inline_kernel,
    lowest_set_bit,
    rng_below,
    rng_seed,
    rules_kernel,
    shuffle_in_place,
)
from workbench.rulesets.source.engine.board import (
    attack_across,
    change_monster,
    change_sourcepoints,
    destroy_monster,
    draw_card,
    equipment_changes,
    forward_step,
    free_space_near,
    lasting_op,
    leave_space,
    may_attack,
    may_move,
    monsters_on_map,
    move_distance,
    occupied_spaces,
    of_type,
    place_monster,
    push_back,
    remove_equipment,
    remove_from_hand,
    requirements_met,
    sidestep,
    st_of,
    summon_anchor,
    summon_token,
    to_done_zone,
    trace,
)
from workbench.rulesets.source.engine.layout import (
    ACTIVE_O,
    ACTIVE_Y,
    ALL_UNUSED,
    C_AMOUNT,
    C_ARG,
    C_BRACKET,
    C_FOE,
    C_HIGH,
    C_LOW,
    C_OCC,
    C_OP,
    C_TRAP,
    C_TRAP_OWNER,
    C_TYPES,
    C_WEB,
    CELL_WIDTH,
    D_CHANNEL_CARD,
    D_DISCARD,
    D_EFFECT_SUMMON,
    D_FOE,
    D_FOE_CHANNEL,
    D_FOE_RESPONSE,
    D_FORK,
    D_MAIN,
    D_NONE,
    D_RECALL,
    D_SWAP,
    D_SYMBOL,
    D_WEB,
    EV_ATTACK,
    EV_CHANNEL,
    EV_CHANNEL_MISS,
    EV_CHANNEL_PLACE,
    EV_DISCARD,
    EV_EQUIP,
    EV_EXPIRE,
    EV_GEN_ATTACK,
    EV_MOVE,
    EV_NO_RECALL,
    EV_NO_SUMMON,
    EV_NO_WEB,
    EV_RECALL,
    EV_SIDESTEP,
    EV_SUMMON,
    EV_SWAP,
    EV_SYMBOL,
    EV_TIE,
    EV_TRAP_SET,
    EV_TRAP_SPRING,
    EV_TURN,
    EV_TURN_CAP,
    EV_WEB_CLEARED,
    EV_WEB_SET,
    EV_WEBBED,
    F_ANSWER,
    F_KIND,
    F_PHASE,
    FA_ACROSS,
    FA_BRACKET,
    FA_BY_CARD,
    FA_CARD,
    FA_COUNT,
    FA_FOE,
    FA_FOE_ONLY,
    FA_HERE,
    FA_I,
    FA_LASTING,
    FA_LEFT,
    FA_M,
    FA_MOVED,
    FA_NEAR,
    FA_NEXT,
    FA_OCCUPANT,
    FA_P,
    FA_PLAYER,
    FA_SOURCE,
    FA_START,
    FA_SUBJECT,
    FA_SUMMONED,
    FA_SUPPORT,
    FA_TAIL_CARD,
    FA_THEN,
    FA_TYPES,
    FA_WEB,
    FR_AFTER_MAIN,
    FR_AFTER_SYMBOL,
    FR_CHANNEL_TAIL,
    FR_CLAUSES,
    FR_EFFECT_SUMMON,
    FR_MOVE,
    FRAME_WIDTH,
    FROM_DECK,
    FROM_HAND,
    G_ACROSS,
    G_ACTIVE,
    G_ACTOR,
    G_ASKED,
    G_ASKED_KIND,
    G_ASKED_TYPES,
    G_DECISION,
    G_FIRST,
    G_FRAMES,
    G_MONSTERS,
    G_MOVED,
    G_OVER,
    G_PLAYER,
    G_STAGE,
    G_SYMBOLS_STAGE,
    G_TURN,
    G_WINDOW_KIND,
    G_WINDOW_PLAYER,
    G_WINDOW_RETURN,
    G_WINNER,
    GAME_WIDTH,
    HAND_LIMIT,
    HAND_WIDTH,
    K_CHANNELED,
    K_EQUIPMENT,
    K_MONSTER,
    K_TOKEN,
    K_TRAP,
    M_CARD,
    M_EXPIRE,
    M_HIT_GEN,
    M_OWNER,
    M_SPACE,
    M_TMP_MOVE,
    M_TMP_NOATTACK,
    M_TMP_NOMOVE,
    M_TMP_PARALLEL,
    M_TMP_ST,
    MAX_SUPPORT,
    MON_WIDTH,
    NO_STAGE,
    O_BLIND,
    O_CARDS,
    O_CHANNEL_AT_START,
    O_DECK_WIDTH,
    O_EFFECT_SUMMON_IGNORES,
    O_FLUX,
    O_PARALLEL_WHEN_BLOCKED,
    O_RECALL_TO_DECK,
    O_SOURCEPOINTS,
    O_SPACES,
    O_SUMMONING,
    O_SUPPORT,
    O_TIE,
    O_TOKEN_COPIES,
    O_TURN_CAP,
    O_WEB_BLOCKS,
    OP_CLEAR_WEB,
    OP_DESTROY,
    OP_DRAW,
    OP_PUSH,
    OP_RECALL,
    OP_SP,
    OP_SUMMON,
    OP_TOKEN,
    OP_WEB,
    OPENING_HAND,
    PERMANENT,
    PILE_LIBRARY,
    PILE_POOL,
    PILE_TOKENS,
    Q_EFFECT_SUMMON,
    Q_FOE,
    Q_FOE_OF_TYPE,
    Q_FORK,
    Q_NONE,
    Q_RECALL,
    Q_SWAP,
    Q_WEB,
    RECALL_OPPONENT,
    S_CHANNEL_PLACED,
    S_DECK,
    S_DECK_N,
    S_GEN_ATTACKED,
    S_HAND,
    S_MAIN_DONE,
    S_NEXT,
    S_ORDER0,
    S_PREF_KIND,
    S_REACTIONARY,
    S_SP,
    S_SYMBOLS,
    SIDE_WIDTH,
    STAGE_BEGIN,
    STAGE_CHANNEL,
    STAGE_CHECK,
    STAGE_DISCARD,
    STAGE_DRAW,
    STAGE_MAIN,
    STAGE_NEXT,
    STAGE_OVER,
    STAGE_SYMBOLS,
    STAGE_TURN,
    STAGE_WINDOW,
    STOP,
    SU_CARD,
    SU_LEFT,
    SU_MON,
    SU_PLACED,
    SUMMON_CONVENTIONAL,
    SUMMON_EFFECT_DECK,
    SUMMON_EFFECT_HAND,
    SUMMON_REACTIONARY,
    SUPPORT_WIDTH,
    SYMBOLS,
    SYMBOLS_AHEAD,
    SYMBOLS_DONE,
    SYMBOLS_PAUSED,
    T_ACTIVE,
    T_KIND,
    T_NBRACKET,
    T_NCLAUSE,
    T_OTHER,
    T_SYMBOLS,
    T_TERR,
    T_TURNS,
    T_TYPE,
    T_USES,
    THIS_TURN,
    TIE_ATTACKER,
    TIE_BOTH,
    TIE_DEFENDER,
    Z_CARDS,
    Z_DECK_WIDTH,
    Z_SPACES,
)
from workbench.rulesets.source.map import (
    KIND_OTHERWORLDLY,
    KIND_SUMMONING,
    KIND_TERRESTRIAL,
    MP_ADJ0,
    MP_KIND,
    MP_PARALLEL,
)

# =====================================================================================================================
# Resolution frames: a rule that may ask a player while it resolves (a move, a card's clauses) is kept in the state
# as a frame, so it stops at its question and goes on with the answer (`resolve_frame`, run by `advance` before the
# turn's next stage)
# =====================================================================================================================


@inline_kernel
def push_frame(state: Any, kind: EngineInt) -> int:
    """A new frame of `kind` on top (FR_*), waiting on no question: its index."""
    f = state.game[G_FRAMES]
    state.game[G_FRAMES] = f + 1
    state.frames[f, F_KIND] = kind
    state.frames[f, F_PHASE] = Q_NONE
    return f


@inline_kernel
def ask_question(
    state: Any,
    f: EngineInt,
    question: EngineInt,
    waiting: EngineInt,
    p: EngineInt,
    asked: EngineInt,
    kind: EngineInt,
    types: EngineInt,
) -> None:
    """Frame f stops at a question (D_FORK, D_SWAP, D_FOE, D_WEB, D_RECALL, D_EFFECT_SUMMON; what each lists: D_*)
    for player p, opened as the turn's decisions are: about `asked` (game[G_ASKED]), of the card kind `kind`
    (game[G_ASKED_KIND], D_RECALL) and the types `types` (game[G_ASKED_TYPES]: D_FOE, D_RECALL, D_EFFECT_SUMMON; 0:
    any). The frame waits on `waiting` (Q_*); `take` writes the answer into it (STOP when nothing is listed)."""
    state.frames[f, F_PHASE] = waiting
    game = state.game
    game[G_DECISION] = question
    game[G_ACTOR] = p
    game[G_ASKED] = asked
    game[G_ASKED_KIND] = kind
    game[G_ASKED_TYPES] = types


# =====================================================================================================================
# Changing the board: webs, recalls and the effect clauses (a card's clauses resolve in a frame, FR_CLAUSES: a
# clause that asks its player stops there, `clauses_step`)
# =====================================================================================================================


@rules_kernel
def finish_web(G: Any, state: Any, p: EngineInt, card: EngineInt, space: EngineInt) -> None:
    """Player p lays a web tile on `space` (p's answer to D_WEB: a space adjacent to the subject with no monster, no
    web and no summoning space, "the web token comes in the form of a tile that can easily be placed and removed from
    relevant map spaces"; `legal_webs` lists them), or, with -1, none."""
    game = state.game
    if space < 0:
        trace(state, game[G_TURN], p, EV_NO_WEB, card, -1, 0)
        return
    state.cells[space, C_WEB] = p
    trace(state, game[G_TURN], p, EV_WEB_SET, card, space, 0)


@rules_kernel
def clear_webs(G: Any, state: Any, p: EngineInt, subject: EngineInt, card: EngineInt) -> int:
    """Player p removes the opponent's web tiles from `subject`'s space and the spaces adjacent to it. Returns how
    many."""
    mp = G.mp
    mon = state.mon
    cells = state.cells
    game = state.game
    if subject < 0 or mon[subject, M_SPACE] < 0:
        return 0
    here = mon[subject, M_SPACE]
    cleared = 0
    for k in range(5):
        s = here if k == 4 else mp[here, MP_ADJ0 + k]
        if s >= 0 and cells[s, C_WEB] >= 0 and cells[s, C_WEB] != p:
            cells[s, C_WEB] = -1
            cleared += 1
            trace(state, game[G_TURN], p, EV_WEB_CLEARED, card, s, 0)
    return cleared


@rules_kernel
def finish_recall(
    G: Any,
    state: Any,
    p: EngineInt,
    whose: EngineInt,
    kind: EngineInt,
    pick: EngineInt,
) -> EngineInt:
    """Player p brings one card back from player `whose`'s Done Zone into p's hand, or with `recall_to=deck` onto
    the top of p's deck ("Some effects will allow the player to bring cards back from their Done Zone and even their
    opponent's Done Zone"): `pick`, p's answer to D_RECALL (`legal_recalls` lists the copies of kind `kind` - 1, 0:
    any, and of the clause's types). Returns the card, or -1 when none was there (STOP) or there is no room: a hand of
    HAND_WIDTH cards, a deck with no column above it."""
    opts = G.opts
    side = state.side
    hand = state.hand
    game = state.game
    library = state.piles[PILE_LIBRARY]
    tokens = state.piles[PILE_TOKENS]
    cards = G.opts[O_CARDS]
    if pick < 0 or side[p, S_HAND] >= HAND_WIDTH:
        trace(state, game[G_TURN], p, EV_NO_RECALL, -1, whose, kind)
        return -1
    to_deck = opts[O_RECALL_TO_DECK] == 1
    if to_deck and side[p, S_DECK] == 0 and side[p, S_DECK_N] >= opts[O_DECK_WIDTH]:
        trace(state, game[G_TURN], p, EV_NO_RECALL, -1, whose, kind)
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
    trace(state, game[G_TURN], p, EV_RECALL, pick, whose, 1 if to_deck else 0)
    return pick


@rules_kernel
def clause_step(
    G: Any,
    state: Any,
    f: EngineInt,
    card: EngineInt,
    i: EngineInt,
    p: EngineInt,
    subject: EngineInt,
    lasting: EngineInt,
    foe: EngineInt,
    waiting: EngineInt,
) -> tuple[bool, EngineInt]:
    """Clause i of player p's `card` on `subject` (every opcode but an effect summon, which `clauses_step` starts), in
    frame f: begun (`waiting` Q_NONE) or gone on with the answer to the question it waits on. `foe` is the enemy
    chosen at the activation's first `foe` clause (-2: none chosen yet). Which enemy (D_FOE), where a web goes (D_WEB)
    and which card comes back (D_RECALL, once for each card) are questions p answers. Returns whether it stopped at
    a question, and the activation's enemy (chosen if this clause chose it)."""
    mon = state.mon
    fr = state.frames[f]
    op = G.clauses[card, i, C_OP]
    amount = G.clauses[card, i, C_AMOUNT]
    arg = G.clauses[card, i, C_ARG]
    types = G.clauses[card, i, C_TYPES]
    answer = fr[F_ANSWER]
    subject_on_map = subject >= 0 and mon[subject, M_SPACE] >= 0
    if waiting == Q_WEB:
        finish_web(G, state, p, card, answer)
        return False, foe
    if op == OP_RECALL:
        whose = 1 - p if arg >= RECALL_OPPONENT else p
        kind = arg % RECALL_OPPONENT
        if waiting == Q_RECALL:
            finish_recall(G, state, p, whose, kind, answer)
            left = fr[FA_COUNT] - 1
        else:
            left = amount
        if left > 0:
            fr[FA_COUNT] = left
            ask_question(state, f, np.int64(D_RECALL), np.int64(Q_RECALL), p, whose, kind, types)
            return True, foe
        return False, foe
    target = subject
    if waiting == Q_NONE:
        if types != 0 and (op == OP_SP or op == OP_DRAW or op == OP_TOKEN):
            # `if TYPE` on a clause that acts on no monster asks it of the subject.
            if not subject_on_map or not of_type(G, state, subject, types):
                return False, foe
        if op == OP_SP:
            if amount < 0:
                change_sourcepoints(G, state, 1 - p, amount, card)
            else:
                change_sourcepoints(G, state, p, amount, card)
            return False, foe
        if op == OP_DRAW:
            for _ in range(amount):
                draw_card(G, state, p)
            return False, foe
        if op == OP_TOKEN:
            near = summon_anchor(G, state, subject, p)
            summon_token(G, state, p, arg, near)
            return False, foe
        if op == OP_SUMMON:
            return False, foe
        if op == OP_WEB or op == OP_CLEAR_WEB:
            if types != 0 and (not subject_on_map or not of_type(G, state, subject, types)):
                return False, foe
            if op == OP_CLEAR_WEB:
                clear_webs(G, state, p, subject, card)
            elif subject_on_map:
                ask_question(state, f, np.int64(D_WEB), np.int64(Q_WEB), p, subject, np.int64(0), np.int64(0))
                return True, foe
            else:
                finish_web(G, state, p, card, np.int64(-1))
            return False, foe
        if G.clauses[card, i, C_FOE] == 1 and foe == -2:
            foe = -1
            if subject_on_map:
                ask_question(state, f, np.int64(D_FOE), np.int64(Q_FOE), p, subject, np.int64(0), np.int64(0))
                return True, foe
    elif waiting == Q_FOE:
        foe = answer
    if waiting == Q_FOE_OF_TYPE:
        target = answer
    elif G.clauses[card, i, C_FOE] == 1:
        target = foe
        if types != 0 and (foe < 0 or not of_type(G, state, foe, types)):
            # The activation's enemy is not of the type asked: this clause asks for its own among those that are.
            target = -1
            if subject_on_map:
                ask_question(state, f, np.int64(D_FOE), np.int64(Q_FOE_OF_TYPE), p, subject, np.int64(0), types)
                return True, foe
    if target < 0 or mon[target, M_SPACE] < 0 or not of_type(G, state, target, types):
        return False, foe
    if op == OP_DESTROY:
        destroy_monster(G, state, np.int64(target), card)
    elif op == OP_PUSH:
        push_back(G, state, np.int64(target), amount, np.int64(0))
    else:
        change_monster(state, np.int64(target), op, amount, arg, lasting)
    return False, foe


@rules_kernel
def start_clauses(
    G: Any,
    state: Any,
    card: EngineInt,
    p: EngineInt,
    subject: EngineInt,
    lasting: EngineInt,
    bracket: EngineInt,
    foe_only: EngineInt,
    summoned: EngineInt,
) -> None:
    """A frame for player p's `card`'s clauses on `subject` (FR_CLAUSES; `clauses_step` resolves them): see
    `apply_clauses`; `summoned` 1 for the clauses of a monster an effect summoned (`effect_summon_step`)."""
    f = push_frame(state, np.int64(FR_CLAUSES))
    fr = state.frames[f]
    fr[FA_CARD] = card
    fr[FA_PLAYER] = p
    fr[FA_SUBJECT] = subject
    fr[FA_LASTING] = lasting
    fr[FA_BRACKET] = bracket
    fr[FA_FOE_ONLY] = foe_only
    fr[FA_SUMMONED] = summoned
    fr[FA_I] = 0
    fr[FA_FOE] = -2  # chosen once, at the first `foe` clause


@inline_kernel
def apply_clauses(
    G: Any,
    state: Any,
    card: EngineInt,
    p: EngineInt,
    subject: EngineInt,
    lasting: EngineInt,
    bracket: EngineInt,
    foe_only: EngineInt,
) -> None:
    """Player p's `card` takes effect on `subject` (a monster slot): its clauses under `bracket` (-1: no brackets),
    in a frame of their own (`clauses_step`), resolved once the rule that started them is done.

    Without `foe` a clause acts on the subject; with `foe` on one enemy monster adjacent to it (chosen once per
    activation). ST, move and cannot-attack changes last (`PERMANENT`) or end with the turn (`THIS_TURN`).
    `foe_only` = 1 skips the subject's own lasting clauses (a summoned monster already has them).
    """
    start_clauses(G, state, card, p, subject, lasting, bracket, foe_only, np.int64(0))


@rules_kernel
def clauses_step(G: Any, state: Any, f: EngineInt) -> None:
    """FR_CLAUSES' work in frame f: its card's clauses in turn from the one under way (gone on with the answer to its
    question, if it waits on one), until a clause asks (the frame stops there), a `summon from` clause starts an
    effect summon (its frame goes on top; these clauses go on after it), the match is over, or the clauses are done
    (the frame is taken off). A summoned monster's clauses (FA_SUMMONED) skip its lasting ones, which it holds
    already, and never summon again (one summon does not chain into another)."""
    game = state.game
    fr = state.frames[f]
    card = fr[FA_CARD]
    p = fr[FA_PLAYER]
    subject = fr[FA_SUBJECT]
    lasting = fr[FA_LASTING]
    bracket = fr[FA_BRACKET]
    foe_only = fr[FA_FOE_ONLY]
    summoned = fr[FA_SUMMONED]
    i = fr[FA_I]
    foe = fr[FA_FOE]
    waiting = fr[F_PHASE]
    fr[F_PHASE] = Q_NONE
    n = G.table[card, T_NCLAUSE]
    while True:
        if waiting == Q_NONE:
            if i >= n:
                break
            op = G.clauses[card, i, C_OP]
            if summoned == 0:
                if G.clauses[card, i, C_BRACKET] != bracket:
                    i += 1
                    continue
                if game[G_OVER] == 1:
                    break
                if foe_only == 1 and G.clauses[card, i, C_FOE] == 0 and lasting_op(op):
                    i += 1
                    continue
                if op == OP_SUMMON:
                    fr[FA_I] = i + 1
                    fr[FA_FOE] = foe
                    start_effect_summon(
                        state,
                        p,
                        G.clauses[card, i, C_ARG],
                        summon_anchor(G, state, subject, p),
                        card,
                        G.clauses[card, i, C_TYPES],
                    )
                    return
            else:
                if game[G_OVER] == 1:
                    break
                if G.clauses[card, i, C_FOE] == 0 and lasting_op(op):
                    i += 1
                    continue
        asked, foe = clause_step(G, state, f, card, i, p, subject, lasting, foe, waiting)
        waiting = Q_NONE
        if asked:
            fr[FA_I] = i
            fr[FA_FOE] = foe
            return
        i += 1
    state.game[G_FRAMES] -= 1


@inline_kernel
def start_effect_summon(
    state: Any,
    p: EngineInt,
    source: EngineInt,
    near: EngineInt,
    by_card: EngineInt,
    types: EngineInt,
) -> None:
    """An effect summon's frame (FR_EFFECT_SUMMON), asking player p at once which monster (D_EFFECT_SUMMON, from
    `source`: FROM_HAND or FROM_DECK, of the clause's types); `effect_summon_step` summons it."""
    f = push_frame(state, np.int64(FR_EFFECT_SUMMON))
    fr = state.frames[f]
    fr[FA_P] = p
    fr[FA_SOURCE] = source
    fr[FA_NEAR] = near
    fr[FA_BY_CARD] = by_card
    fr[FA_TYPES] = types
    ask_question(state, f, np.int64(D_EFFECT_SUMMON), np.int64(Q_EFFECT_SUMMON), p, source, np.int64(0), types)


@rules_kernel
def effect_summon_step(G: Any, state: Any, f: EngineInt) -> None:
    """An effect summon, with player p's answer (frame f): p summons one of p's monsters from hand (`FROM_HAND`) or
    deck (`FROM_DECK`) onto the unoccupied, non-summoning space nearest the frame's space. Its summoning requirements
    must be met unless `effect_summon_requirements=ignored`; which monster is p's answer to D_EFFECT_SUMMON
    (`legal_effect_summons` lists them; the space is the rule's, and with none free the summon fails after the
    answer). It is not the turn's conventional summon. Its own lasting clauses hold and its one-off clauses happen
    (a frame of their own on top, FA_SUMMONED), except an effect summon of its own."""
    side = state.side
    game = state.game
    library = state.piles[PILE_LIBRARY]
    fr = state.frames[f]
    p = fr[FA_P]
    source = fr[FA_SOURCE]
    near = fr[FA_NEAR]
    by_card = fr[FA_BY_CARD]
    chosen = fr[F_ANSWER]
    game[G_FRAMES] -= 1
    pick = at_position(chosen) if chosen >= 0 else -1
    space = free_space_near(G, state, near, p) if pick >= 0 else -1
    if space < 0:
        trace(state, game[G_TURN], p, EV_NO_SUMMON, by_card, source, 1 if pick >= 0 else 0)
        return
    if source == FROM_HAND:
        card = remove_from_hand(state, p, np.int64(pick))
    else:
        card = library[p, pick]
        for j in range(pick, side[p, S_DECK_N] - 1):
            library[p, j] = library[p, j + 1]
        side[p, S_DECK_N] -= 1
    m = place_monster(state, card, p, space)
    if m < 0:
        return
    count_play(state.counters, p, card, game[G_TURN])
    trace(
        state,
        game[G_TURN],
        p,
        EV_SUMMON,
        card,
        space,
        SUMMON_EFFECT_HAND if source == FROM_HAND else SUMMON_EFFECT_DECK,
    )
    for i in range(G.table[card, T_NCLAUSE]):
        op = G.clauses[card, i, C_OP]
        if G.clauses[card, i, C_FOE] == 0 and lasting_op(op):
            change_monster(state, m, op, G.clauses[card, i, C_AMOUNT], G.clauses[card, i, C_ARG], np.int64(PERMANENT))
    start_clauses(G, state, card, p, m, np.int64(PERMANENT), np.int64(-1), np.int64(0), np.int64(1))


# =====================================================================================================================
# The rules: summoning, equipment, traps, channeled effects, movement, combat
# =====================================================================================================================


@inline_kernel
def summoning_space_open(G: Any, state: Any, p: EngineInt, reactionary: EngineBool) -> EngineBool:
    """Whether p may summon onto its summoning space: not held by p's own monster, and an enemy on it has not
    attacked p's generator during its stay there (with `hit_generator_blocks=for_good`: ever), unless this is a
    reactionary summon."""
    opts = G.opts
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
    G: Any,
    state: Any,
    p: EngineInt,
    h: EngineInt,
    how: EngineInt,
) -> int:
    """Summon the monster at p's hand position h onto p's summoning space (checks are the caller's): an enemy
    standing there is pushed one space back; then the monster's clauses take effect. Returns its slot."""
    opts = G.opts
    cells = state.cells
    side = state.side
    game = state.game
    space = opts[O_SUMMONING + p]
    occupant = cells[space, C_OCC]
    if occupant >= 0:
        push_back(G, state, occupant, np.int64(1), np.int64(1))
        if cells[space, C_OCC] >= 0:
            return -1  # nowhere to push it: the summon cannot happen
    card = remove_from_hand(state, p, h)
    m = place_monster(state, card, p, space)
    count_play(state.counters, p, card, game[G_TURN])
    trace(state, game[G_TURN], p, EV_SUMMON, card, space, how)
    side[p, S_MAIN_DONE] = 1
    # Lasting clauses on the monster itself, then foe, one-off and player clauses.
    for i in range(G.table[card, T_NCLAUSE]):
        op = G.clauses[card, i, C_OP]
        if G.clauses[card, i, C_FOE] == 0 and lasting_op(op):
            change_monster(state, m, op, G.clauses[card, i, C_AMOUNT], G.clauses[card, i, C_ARG], np.int64(PERMANENT))
    apply_clauses(
        G,
        state,
        card,
        p,
        m,
        np.int64(PERMANENT),
        np.int64(-1),
        np.int64(1),
    )
    return m


@inline_kernel
def free_support(G: Any, state: Any, p: EngineInt) -> int:
    """p's first free support space, or -1."""
    opts = G.opts
    sup = state.sup
    for k in range(opts[O_SUPPORT]):
        if sup[p, k, SU_CARD] < 0:
            return k
    return -1


@rules_kernel
def equip(
    G: Any,
    state: Any,
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
    k = free_support(G, state, p)
    card = remove_from_hand(state, p, h)
    sup[p, k, SU_CARD] = card
    sup[p, k, SU_MON] = m
    sup[p, k, SU_LEFT] = G.table[card, T_TURNS]
    sup[p, k, SU_PLACED] = game[G_TURN]
    equipment_changes(G, state, card, m, np.int64(1))
    count_play(state.counters, p, card, game[G_TURN])
    side[p, S_MAIN_DONE] = 1
    trace(state, game[G_TURN], p, EV_EQUIP, card, mon[m, M_CARD], G.table[card, T_TURNS])
    apply_clauses(
        G,
        state,
        card,
        p,
        m,
        np.int64(PERMANENT),
        np.int64(-1),
        np.int64(0),
    )


@inline_kernel
def trap_space_ok(G: Any, state: Any, p: EngineInt, space: EngineInt) -> bool:
    """A trap may go on an unoccupied, trap-free, non-summoning space adjacent to one of p's monsters."""
    mp = G.mp
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
def set_trap(state: Any, p: EngineInt, h: EngineInt, space: EngineInt) -> None:
    """Set the trap at hand position h face down on `space` (checks are the caller's)."""
    cells = state.cells
    side = state.side
    game = state.game
    card = remove_from_hand(state, p, h)
    cells[space, C_TRAP] = card
    cells[space, C_TRAP_OWNER] = p
    count_play(state.counters, p, card, game[G_TURN])
    side[p, S_MAIN_DONE] = 1
    trace(state, game[G_TURN], p, EV_TRAP_SET, card, space, 0)


@rules_kernel
def spring_trap(
    G: Any,
    state: Any,
    m: EngineInt,
) -> None:
    """Monster m ended its move on a space: an opponent's trap there springs on it (its own never does)."""
    mon = state.mon
    cells = state.cells
    game = state.game
    space = mon[m, M_SPACE]
    card = cells[space, C_TRAP]
    if card < 0 or cells[space, C_TRAP_OWNER] == mon[m, M_OWNER]:
        return
    owner = cells[space, C_TRAP_OWNER]
    cells[space, C_TRAP] = -1
    cells[space, C_TRAP_OWNER] = -1
    to_done_zone(G, state, owner, card)
    trace(state, game[G_TURN], owner, EV_TRAP_SPRING, card, mon[m, M_CARD], space)
    apply_clauses(
        G,
        state,
        card,
        owner,
        m,
        np.int64(PERMANENT),
        np.int64(-1),
        np.int64(0),
    )


@rules_kernel
def place_channeled(G: Any, state: Any, p: EngineInt, h: EngineInt) -> None:
    """Place the channeled effect at hand position h face up on a free support space (checks are the caller's)."""
    sup = state.sup
    side = state.side
    game = state.game
    k = free_support(G, state, p)
    card = remove_from_hand(state, p, h)
    sup[p, k, SU_CARD] = card
    sup[p, k, SU_MON] = -1
    sup[p, k, SU_LEFT] = G.table[card, T_USES]
    sup[p, k, SU_PLACED] = game[G_TURN]
    side[p, S_CHANNEL_PLACED] = 1
    count_play(state.counters, p, card, game[G_TURN])
    trace(state, game[G_TURN], p, EV_CHANNEL_PLACE, card, -1, G.table[card, T_USES])


@inline_kernel
def bracket_for(G: Any, card: EngineInt, st: EngineInt) -> int:
    """The index of the channeled card's ST bracket holding `st`, or -1 when none does."""
    for b in range(G.table[card, T_NBRACKET]):
        if G.clauses[card, b, C_LOW] <= st <= G.clauses[card, b, C_HIGH]:
            return b
    return -1


@inline_kernel
def channel_usable(G: Any, state: Any, p: EngineInt, k: EngineInt, m: EngineInt) -> bool:
    """Whether p's support card k is a channeled effect p's monster m may use now: placed on an earlier turn,
    allowed on this player's turn (Y/O), and m on p's Source Flux (blind draw: any space but a summoning space)."""
    opts = G.opts
    mp = G.mp
    mon = state.mon
    sup = state.sup
    game = state.game
    card = sup[p, k, SU_CARD]
    if card < 0 or G.table[card, T_KIND] != K_CHANNELED or sup[p, k, SU_PLACED] >= game[G_TURN]:
        return False
    need = ACTIVE_Y if game[G_ACTIVE] == p else ACTIVE_O
    if (G.table[card, T_ACTIVE] & need) == 0:
        return False
    if m < 0 or mon[m, M_SPACE] < 0 or mon[m, M_OWNER] != p:
        return False
    if opts[O_BLIND] == 1:
        return mp[mon[m, M_SPACE], MP_KIND] != KIND_SUMMONING
    return mon[m, M_SPACE] == opts[O_FLUX + p]


@rules_kernel
def channel(
    G: Any,
    state: Any,
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
    card = sup[p, k, SU_CARD]
    st = st_of(G, state, m, s, game[G_ACTIVE])
    trace(state, game[G_TURN], p, EV_SYMBOL, mon[m, M_CARD], s, st)
    if ((G.table[card, T_SYMBOLS] >> s) & 1) == 0:
        trace(state, game[G_TURN], p, EV_CHANNEL_MISS, card, s, 0)
        return -1
    b = bracket_for(G, card, st)
    if b < 0:
        trace(state, game[G_TURN], p, EV_CHANNEL_MISS, card, s, 1)
        return -1
    trace(state, game[G_TURN], p, EV_CHANNEL, card, mon[m, M_CARD], b)
    sup[p, k, SU_LEFT] -= 1
    # Once its clauses are done (a frame on top of this one), a card whose uses are spent leaves its space.
    f = push_frame(state, np.int64(FR_CHANNEL_TAIL))
    state.frames[f, FA_P] = p
    state.frames[f, FA_SUPPORT] = k
    state.frames[f, FA_TAIL_CARD] = card
    apply_clauses(G, state, card, p, m, np.int64(THIS_TURN), b, np.int64(0))
    return b


@rules_kernel
def move_monster(
    G: Any,
    state: Any,
    m: EngineInt,
    s: EngineInt,
) -> None:
    """Move monster m forward with symbol s: the whole distance unless it reaches the opponent's summoning space,
    an enemy is in the way (it stops before it), or an own monster is in the way and it does not swap (a swap
    counts as one space and puts the ally on the mover's space). A monster a `move parallel` clause allows may step
    across to its parallel space (`parallel_move`: at any step, or around an enemy in its way), one space each, up
    to `parallel_steps` a move. An opponent's trap where it stops springs.

    The move goes in a frame of its own (FR_MOVE), step by step (`move_step`), stopping at each question (a branch,
    D_FORK; a swap, D_SWAP); game[G_MOVED] holds the spaces moved once it is done."""
    game = state.game
    mon = state.mon
    p = mon[m, M_OWNER]
    active = game[G_ACTIVE]
    trace(state, game[G_TURN], p, EV_SYMBOL, mon[m, M_CARD], s, st_of(G, state, m, s, active))
    f = push_frame(state, np.int64(FR_MOVE))
    fr = state.frames[f]
    fr[FA_M] = m
    fr[FA_LEFT] = move_distance(G, state, m, s, active)
    fr[FA_START] = mon[m, M_SPACE]
    fr[FA_HERE] = mon[m, M_SPACE]
    fr[FA_MOVED] = 0
    fr[FA_ACROSS] = 0


@rules_kernel
def move_step(G: Any, state: Any, f: EngineInt) -> None:
    """FR_MOVE's work in frame f: the move's steps from where it stands (gone on with the answer to its question, if
    it waits on one), until a question (the frame keeps its place) or the move's end (the frame is taken off; the
    move is traced, the mover leaves its space's effects once, and an opponent's trap where it stops springs).

    Where it steps next: the road's next space, or, with a choice, the space p chooses (D_FORK): a branch of a fork,
    or (`parallel_move=any_step`) its parallel space when `sidestep` allows it, `across` steps across taken so far
    this move (game[G_ACROSS], which D_FORK's list reads)."""
    opts = G.opts
    mp = G.mp
    mon = state.mon
    cells = state.cells
    game = state.game
    fr = state.frames[f]
    m = fr[FA_M]
    p = mon[m, M_OWNER]
    left = fr[FA_LEFT]
    here = fr[FA_HERE]
    moved = fr[FA_MOVED]
    across = fr[FA_ACROSS]
    goal = opts[O_SUMMONING + 1 - p]
    waiting = fr[F_PHASE]
    fr[F_PHASE] = Q_NONE
    # Typed for mypy only (a bare annotation runs no code): ints at first, then what the map and frame words hold.
    nxt: EngineInt
    web: EngineInt
    nxt = -1
    web = -1
    while True:
        if waiting == Q_SWAP:
            waiting = Q_NONE
            nxt = fr[FA_NEXT]
            web = fr[FA_WEB]
            occupant = fr[FA_OCCUPANT]
            if fr[F_ANSWER] == STOP:
                break
            cells[here, C_OCC] = occupant
            mon[occupant, M_SPACE] = here
            leave_space(G, state, occupant)
            trace(state, game[G_TURN], p, EV_SWAP, mon[occupant, M_CARD], nxt, here)
        else:
            if waiting == Q_FORK:
                waiting = Q_NONE
                nxt = fr[F_ANSWER]
            else:
                if left <= 0 or here == goal:
                    break
                first = forward_step(G, here, p, 0)
                second = forward_step(G, here, p, 1)
                side = -1
                if opts[O_PARALLEL_WHEN_BLOCKED] == 0:
                    side = sidestep(G, state, m, here, across)
                if side < 0 and second < 0:
                    nxt = first
                elif side >= 0 and first < 0:
                    nxt = side  # no road on: the way across is the only space to move to
                else:
                    game[G_ACROSS] = across
                    fr[FA_LEFT] = left
                    fr[FA_HERE] = here
                    fr[FA_MOVED] = moved
                    fr[FA_ACROSS] = across
                    ask_question(state, f, np.int64(D_FORK), np.int64(Q_FORK), p, here, np.int64(0), np.int64(0))
                    return
            if nxt < 0:
                break
            occupant = cells[nxt, C_OCC]
            if (
                nxt == mp[here, MP_PARALLEL]
                and nxt != forward_step(G, here, p, 0)
                and nxt != forward_step(G, here, p, 1)
                and occupant < 0
            ):
                # Across by choice (`parallel_move=any_step`: D_FORK listed it): one space of movement.
                across += 1
                trace(state, game[G_TURN], p, EV_SIDESTEP, mon[m, M_CARD], here, nxt)
            elif occupant >= 0 and mon[occupant, M_OWNER] != p:
                # An enemy in the way: it stops, but with `parallel_move=when_blocked` and `move parallel` it steps
                # across to the parallel space instead (one space).
                if opts[O_PARALLEL_WHEN_BLOCKED] == 0:
                    break
                nxt = sidestep(G, state, m, here, across)
                if nxt < 0:
                    break
                across += 1
                trace(state, game[G_TURN], p, EV_SIDESTEP, mon[m, M_CARD], here, nxt)
                occupant = -1
            web = cells[nxt, C_WEB]
            if web >= 0 and web != p and opts[O_WEB_BLOCKS] == 1:
                break  # `web_hinders=block`: an opponent's web bars the space
            if occupant >= 0:
                fr[FA_LEFT] = left
                fr[FA_HERE] = here
                fr[FA_MOVED] = moved
                fr[FA_ACROSS] = across
                fr[FA_NEXT] = nxt
                fr[FA_WEB] = web
                fr[FA_OCCUPANT] = occupant
                ask_question(state, f, np.int64(D_SWAP), np.int64(Q_SWAP), p, occupant, np.int64(0), np.int64(0))
                return
            cells[here, C_OCC] = -1
        cells[nxt, C_OCC] = m
        mon[m, M_SPACE] = nxt
        here = nxt
        left -= 1
        moved += 1
        if web >= 0 and web != p:
            trace(state, game[G_TURN], p, EV_WEBBED, mon[m, M_CARD], web, nxt)
            break  # `web_hinders=stop`: caught in an opponent's web, the move ends here
    game[G_FRAMES] -= 1
    game[G_MOVED] = moved
    trace(state, game[G_TURN], p, EV_MOVE, mon[m, M_CARD], fr[FA_START], here)
    if moved > 0:
        leave_space(G, state, m)  # once per move, not per step: the loop is the hot path
    if moved > 0 and cells[here, C_TRAP] >= 0:  # checked here too: most moves end on a trap-free space
        spring_trap(G, state, m)


@rules_kernel
def attack_monster(
    G: Any,
    state: Any,
    m: EngineInt,
    e: EngineInt,
    s: EngineInt,
) -> int:
    """Monster m attacks enemy e (adjacent, or on its parallel space: `attack_across`) with symbol s: the lower ST is
    destroyed; a tie follows `combat_tie`. Returns 1 when the attacker wins, -1 when it loses, 0 for a tie with no
    winner, 2 when both fall."""
    opts = G.opts
    mon = state.mon
    game = state.game
    p = mon[m, M_OWNER]
    active = game[G_ACTIVE]
    mine = st_of(G, state, m, s, active)
    theirs = st_of(G, state, e, s, active)
    attacker = mon[m, M_CARD]
    defender = mon[e, M_CARD]
    trace(state, game[G_TURN], p, EV_SYMBOL, attacker, s, mine)
    trace(state, game[G_TURN], p, EV_ATTACK, attacker, defender, theirs)
    state.counters[p, attacker, ATTACKED] += 1
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
        trace(state, game[G_TURN], p, EV_TIE, attacker, defender, mine)
    if outcome == 1 or outcome == 2:
        destroy_monster(G, state, e, attacker)
    if outcome == -1 or outcome == 2:
        destroy_monster(G, state, m, defender)
    return outcome


@rules_kernel
def attack_generator(G: Any, state: Any, m: EngineInt, s: EngineInt) -> int:
    """Monster m, on the opponent's summoning space, attacks their SOURCE generator with symbol s: the ST comes off
    their SourcePoints (the caller ends the turn). Returns the damage."""
    mon = state.mon
    side = state.side
    game = state.game
    p = mon[m, M_OWNER]
    q = 1 - p
    card = mon[m, M_CARD]
    damage = st_of(G, state, m, s, game[G_ACTIVE])
    trace(state, game[G_TURN], p, EV_SYMBOL, card, s, damage)
    side[q, S_SP] -= damage
    state.counters[p, card, ATTACKED] += 1
    state.counters[p, card, DAMAGE_DEALT] += damage
    mon[m, M_HIT_GEN] = 1
    side[q, S_GEN_ATTACKED] = 1
    trace(state, game[G_TURN], p, EV_GEN_ATTACK, card, side[q, S_SP], damage)
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
# and `take` (or `apply`, which then plays on) takes one of them. The lists hold what the rules allow; which of them a
# player takes is the policy's business (`choose`, in greedy.py, asked by the play loop): no rule code reads S_POLICY.
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


@rules_kernel
def legal_main(G: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """p's main actions (D_MAIN): summons first (hand order; reactionary when p's generator was attacked, else
    conventional for monsters whose requirements p's monsters meet), then, in hand order, each equipment card onto
    each own monster (slot order) and each trap onto each space it may go on; STOP last. 0 when the main action was
    taken or the match is over."""
    side = state.side
    hand = state.hand
    game = state.game
    if side[p, S_MAIN_DONE] == 1 or game[G_OVER] == 1:
        return 0
    conventional_open = summoning_space_open(G, state, p, False)
    reactionary_open = side[p, S_REACTIONARY] == 1 and summoning_space_open(G, state, p, True)
    monsters, terrestrial, otherworldly = monsters_on_map(G, state, p)
    support = free_support(G, state, p)
    held = side[p, S_HAND]
    n = 0
    if conventional_open or reactionary_open:
        for h in range(held):
            card = hand[p, h]
            if G.table[card, T_KIND] != K_MONSTER:
                continue
            if reactionary_open:
                out[n] = pack_action(K_MONSTER, h, SUMMON_REACTIONARY, -1)
                n += 1
            elif requirements_met(G, card, terrestrial, otherworldly):
                out[n] = pack_action(K_MONSTER, h, SUMMON_CONVENTIONAL, -1)
                n += 1
    if monsters > 0:
        trap_spaces = -1  # the spaces a trap may go on, as bits: worked out at the first trap card
        for h in range(held):
            card = hand[p, h]
            kind = G.table[card, T_KIND]
            if kind == K_EQUIPMENT:
                if support < 0 or not requirements_met(G, card, terrestrial, otherworldly):
                    continue
                slots = game[G_MONSTERS + p]
                while slots != 0:
                    m = lowest_set_bit(slots)
                    slots &= slots - 1
                    out[n] = pack_action(K_EQUIPMENT, h, m, -1)
                    n += 1
            elif kind == K_TRAP:
                if not requirements_met(G, card, terrestrial, otherworldly):
                    continue
                if trap_spaces < 0:
                    trap_spaces = 0
                    for space in range(G.opts[O_SPACES]):
                        if trap_space_ok(G, state, p, space):
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
    G: Any,
    state: Any,
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
        summon_monster(G, state, p, h, target)
    elif kind == K_EQUIPMENT:
        equip(G, state, p, h, target)
    else:
        set_trap(state, p, h, target)


@inline_kernel
def legal_channel_cards(G: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """p's channeled effect cards in hand (hand positions, D_CHANNEL_CARD), then STOP; 0 when p placed one this
    turn or has no free support space."""
    side = state.side
    hand = state.hand
    if side[p, S_CHANNEL_PLACED] == 1 or free_support(G, state, p) < 0:
        return 0
    n = 0
    for h in range(side[p, S_HAND]):
        if G.table[hand[p, h], T_KIND] == K_CHANNELED:
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
def legal_symbols(G: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """p's symbol actions (D_SYMBOL), per own monster (slot order): a move (not from the opponent's summoning space,
    where its road ends, nor while a `cannot move` holds), an attack on each adjacent enemy (if it may attack), then on
    an enemy on its parallel space when `attack_across` allows it, a channel through each usable channeled effect, a
    generator attack (from the opponent's summoning space, if it may attack); each with every unused symbol (one action
    with symbol -1 under a blind draw: the symbol is drawn when it is taken). STOP last. 0 when p has no unused symbol
    or the match is over."""
    opts = G.opts
    mp = G.mp
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
                    nxt = mp[space, MP_ADJ0 + t] if t < 4 else attack_across(G, state, m, space, active)
                    if nxt < 0 or cells[nxt, C_OCC] < 0 or mon[cells[nxt, C_OCC], M_OWNER] == p:
                        continue
                    target = cells[nxt, C_OCC]
                elif action == A_CHANNEL:
                    if not channel_usable(G, state, p, t, m):
                        continue
                    target = t
                n = list_with_symbols(out, n, action, m, target, unused, blind)
    out[n] = STOP
    return n + 1


@inline_kernel
def legal_foe_channels(G: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """At the start of the opponent's turn, p's channels with symbols left unused (D_FOE_CHANNEL): per own monster
    (slot order), each support space whose channeled effect it may use now, with each unused symbol (one action
    with symbol -1 under a blind draw); STOP last. 0 when p has no unused symbol or the match is over."""
    opts = G.opts
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
            if channel_usable(G, state, p, k, m):
                n = list_with_symbols(out, n, A_CHANNEL, m, k, unused, blind)
    out[n] = STOP
    return n + 1


@inline_kernel
def legal_forks(G: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """Where p's monster on space game[G_ASKED] may step next (D_FORK): the road's next space or the two branches of
    a fork, then, with `parallel_move=any_step`, its parallel space when `sidestep` allows it (game[G_ACROSS] steps
    across taken this move)."""
    game = state.game
    space = game[G_ASKED]
    n = 0
    for k in range(2):
        nxt = forward_step(G, space, p, k)
        if nxt >= 0:
            out[n] = nxt
            n += 1
    m = state.cells[space, C_OCC]
    if G.opts[O_PARALLEL_WHEN_BLOCKED] == 0 and m >= 0:
        across = sidestep(G, state, m, space, game[G_ACROSS])
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
def legal_foes(G: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """The enemy monsters (not p's) adjacent to the subject, monster game[G_ASKED], of the types in
    game[G_ASKED_TYPES] (0: any), in the map's adjacency order: their slots (D_FOE)."""
    mp = G.mp
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
        if e < 0 or mon[e, M_OWNER] == p or not of_type(G, state, e, types):
            continue
        out[n] = e
        n += 1
    return n


@rules_kernel
def legal_webs(G: Any, state: Any, out: IntArray) -> int:
    """The spaces adjacent to the subject, monster game[G_ASKED], with no monster, no web tile and no summoning
    space, in the map's adjacency order (D_WEB)."""
    mp = G.mp
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
def legal_recalls(G: Any, state: Any, out: IntArray) -> int:
    """The cards in player game[G_ASKED]'s Done Zone of the kind game[G_ASKED_KIND] - 1 (0: any) and of the types in
    game[G_ASKED_TYPES] (0: any): each card id once per copy there, in card order, so a card's copies stand together
    (D_RECALL). A Done Zone of more copies than `out` holds (decks of thousands of cards) lists the first."""
    game = state.game
    tokens = state.piles[PILE_TOKENS]
    cards = G.opts[O_CARDS]
    whose = game[G_ASKED]
    kind = game[G_ASKED_KIND]
    types = game[G_ASKED_TYPES]
    n = 0
    for c in range(cards):
        copies = tokens[whose, cards + c]
        if copies <= 0 or (kind > 0 and G.table[c, T_KIND] != kind - 1):
            continue
        if types != 0 and (G.table[c, T_TYPE] & types) == 0:
            continue
        for _ in range(min(copies, out.shape[0] - n)):
            out[n] = c
            n += 1
    return n


@rules_kernel
def legal_effect_summons(G: Any, state: Any, p: EngineInt, out: IntArray) -> int:
    """p's monsters in the hand (game[G_ASKED] FROM_HAND) or deck (FROM_DECK), in their order there, of the types in
    game[G_ASKED_TYPES] (0: any) and, unless `effect_summon_requirements=ignored`, whose requirements p's monsters
    meet: `pack_at(position, card)` each (D_EFFECT_SUMMON)."""
    opts = G.opts
    side = state.side
    hand = state.hand
    game = state.game
    library = state.piles[PILE_LIBRARY]
    source = game[G_ASKED]
    types = game[G_ASKED_TYPES]
    terrestrial, otherworldly = occupied_spaces(G, state, p)
    ignore = opts[O_EFFECT_SUMMON_IGNORES] == 1
    first = 0
    last = side[p, S_HAND]
    if source == FROM_DECK:
        first = side[p, S_DECK]
        last = side[p, S_DECK_N]
    n = 0
    for j in range(first, last):
        card = hand[p, j] if source == FROM_HAND else library[p, j]
        if G.table[card, T_KIND] != K_MONSTER:
            continue
        if not ignore and not requirements_met(G, card, terrestrial, otherworldly):
            continue
        if types != 0 and (G.table[card, T_TYPE] & types) == 0:
            continue
        out[n] = pack_at(j, card)
        n += 1
    return n


@inline_kernel
def apply_symbol(
    G: Any,
    state: Any,
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
        move_monster(G, state, m, s)
    elif code == A_ATTACK:
        attack_monster(G, state, m, target, s)
    elif code == A_CHANNEL:
        channel(G, state, p, target, m, s)
    else:
        attack_generator(G, state, m, s)


@rules_kernel
def discard(G: Any, state: Any, p: EngineInt, h: EngineInt) -> None:
    """Discard the card at hand position h to the Done Zone."""
    card = remove_from_hand(state, p, h)
    to_done_zone(G, state, p, card)
    trace(state, state.game[G_TURN], p, EV_DISCARD, card, -1, 0)


@rules_kernel
def legal_actions(G: Any, state: Any, out: IntArray) -> EngineInt:
    """The open decision's legal actions into `out`, in a fixed order (see D_*): how many (0: none is open). The
    piles are read for D_RECALL (the Done Zones) and D_EFFECT_SUMMON (the deck)."""
    p = state.game[G_ACTOR]
    decision = state.game[G_DECISION]
    if decision == D_SYMBOL:
        return legal_symbols(G, state, p, out)
    if decision == D_MAIN:
        return legal_main(G, state, p, out)
    if decision == D_CHANNEL_CARD:
        return legal_channel_cards(G, state, p, out)
    if decision == D_FOE_CHANNEL or decision == D_FOE_RESPONSE:
        return legal_foe_channels(G, state, p, out)
    if decision == D_DISCARD:
        return legal_discards(state, p, out)
    if decision == D_FORK:
        return legal_forks(G, state, p, out)
    if decision == D_SWAP:
        return legal_swaps(state, out)
    if decision == D_FOE:
        return legal_foes(G, state, p, out)
    if decision == D_WEB:
        return legal_webs(G, state, out)
    if decision == D_RECALL:
        return legal_recalls(G, state, out)
    if decision == D_EFFECT_SUMMON:
        return legal_effect_summons(G, state, p, out)
    return 0


# =====================================================================================================================
# A turn, stage by stage: the rules play on to the next decision and return (`advance`); `take` and `apply` take the
# open decision's answer
# =====================================================================================================================


@inline_kernel
def channeled_waiting(G: Any, state: Any, p: EngineInt) -> bool:
    """Whether p has a channeled effect on its support spaces that may be used on the opponent's turn."""
    opts = G.opts
    sup = state.sup
    for k in range(opts[O_SUPPORT]):
        card = sup[p, k, SU_CARD]
        if card >= 0 and G.table[card, T_KIND] == K_CHANNELED and (G.table[card, T_ACTIVE] & ACTIVE_O) != 0:
            return True
    return False


@inline_kernel
def open_window(G: Any, state: Any, q: EngineInt, kind: EngineInt, then: EngineInt) -> None:
    """In the opponent's turn, q may spend symbols left unused on q's own turn on channeled effects allowed on the
    opponent's turn, one at a time until q stops or has no symbol left (STAGE_WINDOW; the decision `kind`): at the
    turn's start (D_FOE_CHANNEL) or after one of the opponent's actions (D_FOE_RESPONSE, `response_window`). The
    turn goes on at stage `then` after it, at once when q has no such effect waiting."""
    game = state.game
    if channeled_waiting(G, state, q):
        game[G_WINDOW_PLAYER] = q
        game[G_WINDOW_KIND] = kind
        game[G_WINDOW_RETURN] = then
        game[G_STAGE] = STAGE_WINDOW
    else:
        game[G_STAGE] = then


@inline_kernel
def response_window(G: Any, state: Any, p: EngineInt, then: EngineInt) -> None:
    """After an action of the active player p (not a generator attack: the turn ends at once), with
    `channel_on_opponent_turn=after_each_action`: p's opponent's window (D_FOE_RESPONSE), as at the start of p's
    turn ("Any symbol cards that are unused on your turn may be drawn on your opponent's turn"); then stage `then`.
    Checked here first: most actions find nothing waiting."""
    q = 1 - p
    if G.opts[O_CHANNEL_AT_START] == 1 or state.game[G_OVER] == 1 or state.side[q, S_SYMBOLS] == 0:
        state.game[G_STAGE] = then
    else:
        open_window(G, state, q, np.int64(D_FOE_RESPONSE), then)


@inline_kernel
def start_turn(G: Any, state: Any, p: EngineInt) -> None:
    """p's turn begins: draw 1; the four symbols become unused (shuffled face down for a blind draw)."""
    opts = G.opts
    side = state.side
    game = state.game
    rng = state.rng
    game[G_ACTIVE] = p
    trace(state, game[G_TURN], p, EV_TURN, -1, side[1 - p, S_SP], side[p, S_SP])
    side[p, S_MAIN_DONE] = 0
    side[p, S_CHANNEL_PLACED] = 0
    side[p, S_REACTIONARY] = side[p, S_GEN_ATTACKED]
    side[p, S_GEN_ATTACKED] = 0
    draw_card(G, state, p)
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
def end_of_turn_changes(G: Any, state: Any) -> None:
    """At the end of a turn (after the discards): every equipment card and expiring monster counts the turn off;
    this-turn changes end."""
    opts = G.opts
    mon = state.mon
    sup = state.sup
    game = state.game
    for q in range(2):
        for k in range(opts[O_SUPPORT]):
            card = sup[q, k, SU_CARD]
            if card >= 0 and G.table[card, T_KIND] == K_EQUIPMENT:
                sup[q, k, SU_LEFT] -= 1
                if sup[q, k, SU_LEFT] <= 0:
                    remove_equipment(G, state, q, k)
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
                trace(state, game[G_TURN], mon[m, M_OWNER], EV_EXPIRE, mon[m, M_CARD], -1, 0)
                destroy_monster(G, state, m, np.int64(-1))


@inline_kernel
def symbols_stage(G: Any, state: Any, p: EngineInt) -> None:
    """STAGE_SYMBOLS: p's next symbol action (D_SYMBOL) while p has an unused symbol and the match goes on; or the
    generator attack that waited (SYMBOLS_PAUSED), which goes ahead if the monster is still on the opponent's
    summoning space. The phase over, the turn goes back to STAGE_MAIN (the main action and a channeled card, each if
    not taken yet, come after the symbols too)."""
    game = state.game
    choice = state.choice
    if game[G_SYMBOLS_STAGE] == SYMBOLS_PAUSED:
        game[G_SYMBOLS_STAGE] = SYMBOLS_AHEAD
        if state.mon[choice[1], M_SPACE] == G.opts[O_SUMMONING + 1 - p]:
            apply_symbol(G, state, p, pack_action(choice[0], choice[1], choice[2], choice[3]))
            game[G_SYMBOLS_STAGE] = SYMBOLS_DONE
            game[G_STAGE] = STAGE_MAIN
        return
    if unused_count(state, p) > 0 and game[G_OVER] == 0:
        open_decision(state, np.int64(D_SYMBOL), p)
    else:
        game[G_SYMBOLS_STAGE] = SYMBOLS_DONE
        game[G_STAGE] = STAGE_MAIN


@llvm_inline_kernel
def play_stage(G: Any, state: Any) -> None:
    """`advance`'s step: the work of stage game[G_STAGE] of player game[G_PLAYER]'s turn, which sets the stage next
    and may open a decision (STAGE_*, in a turn's order).

    A turn: the turn cap (a draw once turn O_TURN_CAP is over), the opponent's window at its start, the draw; then
    the main action and a channeled card (each if not taken yet), the symbol phase, and again the main action and a
    channeled card before a generator attack (the phase pauses there) and after the symbols; the discards down to the
    hand limit and the turn's lasting changes counted off; then the next player's turn. Before a generator attack the
    channeled card and the attack follow even a main action that ended the match, as they always have."""
    game = state.game
    side = state.side
    stage = game[G_STAGE]
    p = game[G_PLAYER]
    if stage == STAGE_TURN:
        cap = G.opts[O_TURN_CAP]
        if game[G_TURN] > cap:
            game[G_TURN] = cap
            trace(state, game[G_TURN], p, EV_TURN_CAP, -1, -1, cap)
            game[G_OVER] = 1
            game[G_WINNER] = -1
            game[G_STAGE] = STAGE_OVER
        else:
            game[G_STAGE] = STAGE_BEGIN
    elif stage == STAGE_BEGIN:
        game[G_ACTIVE] = p
        open_window(G, state, 1 - p, np.int64(D_FOE_CHANNEL), np.int64(STAGE_DRAW))
    elif stage == STAGE_DRAW:
        game[G_ACTIVE] = p
        if game[G_OVER] == 0:
            start_turn(G, state, p)
        game[G_SYMBOLS_STAGE] = SYMBOLS_AHEAD
        game[G_STAGE] = STAGE_MAIN
    elif stage == STAGE_MAIN:
        game[G_STAGE] = STAGE_CHANNEL
        if game[G_OVER] == 0 and side[p, S_MAIN_DONE] == 0:
            open_decision(state, np.int64(D_MAIN), p)
    elif stage == STAGE_CHANNEL:
        game[G_STAGE] = STAGE_CHECK
        if game[G_OVER] == 0 or game[G_SYMBOLS_STAGE] == SYMBOLS_PAUSED:
            open_decision(state, np.int64(D_CHANNEL_CARD), p)
    elif stage == STAGE_CHECK:
        symbols = game[G_SYMBOLS_STAGE]
        if symbols == SYMBOLS_DONE or (game[G_OVER] == 1 and symbols != SYMBOLS_PAUSED):
            game[G_STAGE] = STAGE_DISCARD
        else:
            game[G_STAGE] = STAGE_SYMBOLS
    elif stage == STAGE_SYMBOLS:
        symbols_stage(G, state, p)
    elif stage == STAGE_DISCARD:
        if game[G_OVER] == 1:
            game[G_STAGE] = STAGE_NEXT
        elif side[p, S_HAND] > HAND_LIMIT:
            open_decision(state, np.int64(D_DISCARD), p)
        else:
            end_of_turn_changes(G, state)
            game[G_STAGE] = STAGE_NEXT
    elif stage == STAGE_NEXT:
        if game[G_OVER] == 1:
            game[G_STAGE] = STAGE_OVER
        else:
            game[G_TURN] += 1
            game[G_PLAYER] = 1 - p
            game[G_STAGE] = STAGE_TURN
    elif stage == STAGE_WINDOW:
        q = game[G_WINDOW_PLAYER]
        if unused_count(state, q) > 0 and game[G_OVER] == 0:
            open_decision(state, game[G_WINDOW_KIND], q)
        else:
            game[G_STAGE] = game[G_WINDOW_RETURN]


@inline_kernel
def push_after(state: Any, kind: EngineInt, p: EngineInt, then: EngineInt) -> None:
    """A frame for what the turn does once p's action is resolved (FR_AFTER_MAIN: the response window, then stage
    `then`; FR_AFTER_SYMBOL: `after_symbol`), under the frames the action starts."""
    f = push_frame(state, kind)
    state.frames[f, FA_P] = p
    state.frames[f, FA_THEN] = then


@inline_kernel
def after_symbol(G: Any, state: Any, p: EngineInt) -> None:
    """After p's symbol action is resolved: a generator attack ends the phase; any other action is followed by the
    opponent's window, then the next symbol action."""
    if state.choice[0] == A_GENERATOR:
        state.game[G_SYMBOLS_STAGE] = SYMBOLS_DONE
        state.game[G_STAGE] = STAGE_MAIN
    else:
        response_window(G, state, p, np.int64(STAGE_SYMBOLS))


@rules_kernel
def channel_tail_step(G: Any, state: Any, f: EngineInt) -> None:
    """FR_CHANNEL_TAIL (frame f), once the channeled card's clauses are done: a card whose uses are spent leaves its
    support space (if it is still there)."""
    p = state.frames[f, FA_P]
    k = state.frames[f, FA_SUPPORT]
    card = state.frames[f, FA_TAIL_CARD]
    state.game[G_FRAMES] -= 1
    if state.sup[p, k, SU_LEFT] <= 0 and state.sup[p, k, SU_CARD] == card:
        remove_equipment(G, state, p, k)


@rules_kernel
def resolve_frame(G: Any, state: Any) -> None:
    """The top frame's work (FR_*), from where it stands: it goes on until it asks (a question opens and it keeps its
    place), starts a frame on top, or is done (it is taken off)."""
    game = state.game
    f = game[G_FRAMES] - 1
    kind = state.frames[f, F_KIND]
    if kind == FR_MOVE:
        move_step(G, state, f)
    elif kind == FR_CLAUSES:
        clauses_step(G, state, f)
    elif kind == FR_EFFECT_SUMMON:
        effect_summon_step(G, state, f)
    elif kind == FR_CHANNEL_TAIL:
        channel_tail_step(G, state, f)
    else:
        p = state.frames[f, FA_P]
        then = state.frames[f, FA_THEN]
        game[G_FRAMES] -= 1
        if kind == FR_AFTER_MAIN:
            response_window(G, state, p, then)
        else:
            after_symbol(G, state, p)


@rules_kernel
def advance(G: Any, state: Any, until: EngineInt) -> None:
    """Play the rules on from where the match stands (its frames first, then game[G_STAGE]) until a decision is open
    (game[G_DECISION]: the turn's own, or a question a frame asks), the match is over (STAGE_OVER), or the stage
    `until` is next (NO_STAGE: never). The rules stop at each decision and return: the caller (`apply`, and the play
    loops above the rules) asks the deciding side's policy and hands its answer to `apply`, which takes it and comes
    back here."""
    game = state.game
    while game[G_DECISION] == D_NONE:
        if game[G_FRAMES] > 0:
            resolve_frame(G, state)
            continue
        stage = game[G_STAGE]
        if stage == until or stage == STAGE_OVER:
            return
        play_stage(G, state)


@inline_kernel
def take_symbol(G: Any, state: Any, p: EngineInt, action: EngineInt) -> None:
    """p's symbol action (D_SYMBOL), unpacked into `choice` (action, monster, target, symbol; A_NONE for STOP;
    symbol -1: drawn blind when taken) and taken; then (FR_AFTER_SYMBOL, once its move or clauses are done) the
    opponent's window and the next symbol action. STOP ends the phase; a generator attack ends it too, or waits
    (SYMBOLS_PAUSED) while the main action or a channeled card may still go first."""
    game = state.game
    side = state.side
    choice = state.choice
    if action == STOP:
        choice[0] = A_NONE
        choice[1] = -1
        choice[2] = -1
        choice[3] = -1
        game[G_SYMBOLS_STAGE] = SYMBOLS_DONE
        game[G_STAGE] = STAGE_MAIN
        return
    choice[0] = action_code(action)
    choice[1] = action_x(action)
    choice[2] = action_y(action)
    choice[3] = action_s(action)
    if choice[0] == A_GENERATOR and (side[p, S_MAIN_DONE] == 0 or side[p, S_CHANNEL_PLACED] == 0):
        game[G_SYMBOLS_STAGE] = SYMBOLS_PAUSED
        game[G_STAGE] = STAGE_MAIN
        return
    push_after(state, np.int64(FR_AFTER_SYMBOL), p, np.int64(STAGE_SYMBOLS))
    apply_symbol(G, state, p, pack_action(choice[0], choice[1], choice[2], choice[3]))


@rules_kernel
def take(
    G: Any,
    state: Any,
    action: EngineInt,
) -> None:
    """Take one action `legal_actions` listed for the open decision, and close it; the rules go on from the stage and
    the frames it leaves (`advance`). A main action or a channeled card is followed by the opponent's response window
    (after a main action's clauses: FR_AFTER_MAIN); a window's STOP ends it; the answer to a question goes to the
    frame that asked it."""
    game = state.game
    p = game[G_ACTOR]
    decision = game[G_DECISION]
    game[G_DECISION] = D_NONE
    if decision == D_SYMBOL:
        take_symbol(G, state, p, action)
    elif decision == D_MAIN:
        if action != STOP:
            push_after(state, np.int64(FR_AFTER_MAIN), p, np.int64(STAGE_CHANNEL))
            apply_main(G, state, p, action)
    elif decision == D_CHANNEL_CARD:
        if action != STOP:
            place_channeled(G, state, p, action)
            response_window(G, state, p, np.int64(STAGE_CHECK))
    elif decision == D_FOE_CHANNEL or decision == D_FOE_RESPONSE:
        if action == STOP:
            game[G_STAGE] = game[G_WINDOW_RETURN]
        else:
            apply_symbol(G, state, p, action)
    elif decision == D_DISCARD:
        discard(G, state, p, action)
    else:
        # A question a frame waits on (a move's or an effect's): its answer, which `resolve_frame` goes on with.
        state.frames[game[G_FRAMES] - 1, F_ANSWER] = action


@rules_kernel
def apply(
    G: Any,
    state: Any,
    action: EngineInt,
) -> None:
    """The contract's `apply`: take one action `legal_actions` listed for the open decision (`take`), then play the
    rules on to the next decision or the match's end (`advance`)."""
    take(G, state, action)
    advance(G, state, np.int64(NO_STAGE))


@rules_kernel
def setup_match(
    G: Any,
    state: Any,
    deck_a: IntArray,
    deck_b: IntArray,
    seed: EngineInt,
    first: EngineInt,
) -> None:
    """A fresh match: empty map, shuffled decks, full token decks, SourcePoints, 7 cards each; the first player's
    turn is next (STAGE_TURN: `advance` plays on from there). The match loop seats the policies."""
    opts = G.opts
    mon = state.mon
    cells = state.cells
    sup = state.sup
    side = state.side
    game = state.game
    rng = state.rng
    library = state.piles[PILE_LIBRARY]
    tokens = state.piles[PILE_TOKENS]
    rng_seed(rng, seed)
    mon[:, M_SPACE] = -1
    cells[:, :] = -1
    sup[:, :, :] = -1
    side[:, :] = 0
    game[:] = 0
    game[G_FIRST] = first
    game[G_TURN] = 1
    game[G_PLAYER] = first
    game[G_STAGE] = STAGE_TURN
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
            terrestrial += G.table[deck[i], T_TERR]
            otherworldly += G.table[deck[i], T_OTHER]
        side[p, S_PREF_KIND] = KIND_OTHERWORLDLY if otherworldly > terrestrial else KIND_TERRESTRIAL
        for c in range(G.opts[O_CARDS]):
            tokens[p, c] = opts[O_TOKEN_COPIES] if G.table[c, T_KIND] == K_TOKEN else 0
            tokens[p, G.opts[O_CARDS] + c] = 0  # an empty Done Zone
    for p in range(2):
        for _ in range(OPENING_HAND):
            draw_card(G, state, p)


# =====================================================================================================================
# The contract's clone and determinize: a copy of the match that plays on as it, and what a side cannot see
# dealt anew (the search's sampled worlds are made of them)
# =====================================================================================================================


@rules_kernel
def clone_state(state: Any, work: Any) -> None:
    """The match state (board, support spaces, players, hands, decks, token decks and Done Zones, match words, the
    generator and the symbol phase's waiting action) copied into the work record, so the copy plays on as the source
    would; counters, trace and the search's words stay the work's own. The contract's `clone(S, into)`: the sizes in
    use are the state's own (`sizes`, copied too), so it takes no game data."""
    # Loops, not slice assignments: the kernels run without Numba's reference counting. Only the map's own rows and
    # the batch's deck and card columns: the rest never changes.
    sizes = state.sizes
    for j in range(3):
        work.sizes[j] = sizes[j]
    mon, w_mon = state.mon, work.mon
    cells, w_cells = state.cells, work.cells
    for i in range(sizes[Z_SPACES]):
        for j in range(MON_WIDTH):
            w_mon[i, j] = mon[i, j]
        for j in range(CELL_WIDTH):
            w_cells[i, j] = cells[i, j]
    sup, w_sup = state.sup, work.sup
    side, w_side = state.side, work.side
    hand, w_hand = state.hand, work.hand
    library, w_library = state.piles[PILE_LIBRARY], work.piles[PILE_LIBRARY]
    tokens, w_tokens = state.piles[PILE_TOKENS], work.piles[PILE_TOKENS]
    for q in range(2):
        for k in range(MAX_SUPPORT):
            for j in range(SUPPORT_WIDTH):
                w_sup[q, k, j] = sup[q, k, j]
        for j in range(SIDE_WIDTH):
            w_side[q, j] = side[q, j]
        for j in range(side[q, S_HAND]):
            w_hand[q, j] = hand[q, j]
        for j in range(sizes[Z_DECK_WIDTH]):
            w_library[q, j] = library[q, j]
        for j in range(2 * sizes[Z_CARDS]):
            w_tokens[q, j] = tokens[q, j]
    game, w_game = state.game, work.game
    for j in range(GAME_WIDTH):
        w_game[j] = game[j]
    for f in range(game[G_FRAMES]):
        for j in range(FRAME_WIDTH):
            work.frames[f, j] = state.frames[f, j]
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
def determinize(G: Any, state: Any, p: EngineInt, rng: IntArray) -> None:
    """What p cannot see, dealt anew from what it can know with the generator `rng` (in a work state; the search
    passes the work state's own, `state.rng`, seeded for the sampled world).

    The opponent's hand, face-down traps and draw deck are one pool of unseen cards (how many of each is seen):
    the pool is sorted, then shuffled; its first trap cards in that order go face down on the opponent's trap
    spaces (only a trap is set), the rest fill the hand, then the deck. p's own draw deck is sorted and shuffled,
    and with `symbol_draw=blind` so are both players' face-down symbols not yet drawn."""
    opts = G.opts
    cells = state.cells
    side = state.side
    hand = state.hand
    library = state.piles[PILE_LIBRARY]
    pool = state.piles[PILE_POOL, 0]
    tally = state.piles[PILE_POOL, 1]  # free: the pool is row 0 only, and the plane is at least twice the cards wide
    cards = G.opts[O_CARDS]
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
        if placed < traps and G.table[card, T_KIND] == K_TRAP:
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
