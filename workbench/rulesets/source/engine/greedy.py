"""The SOURCE policies: greedy (the game's scoring of the listed actions), random, epsilon-greedy
(`workbench.play.policies`), and `choose`, the rules' one door to them. Imports `layout`, `board` and `rules`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import (
    EngineBool,
    EngineInt,
    IntArray,
    begin_match_counters,
    end_match_counters,
    inline_kernel,
    llvm_inline_kernel,
    lowest_set_bit,
    rng_below,
    rules_kernel,
)
from workbench.play.loop import (
    BATCH_POLICY_A,
    BATCH_POLICY_B,
    NO_CONTEXT,
    batch_loop,
    batch_match,
    play_out,
    play_until,
    record_result,
)
from workbench.play.policies import POLICY_WORDS, plays_random, random_played, start_policy
from workbench.rulesets.source.engine.board import (
    adjacent_enemies,
    attack_across,
    forward_step,
    may_attack,
    may_move,
    monster_value,
    monsters_on_map,
    move_bonus,
    move_distance,
    progress,
    requirements_met,
    sidestep,
    spaces_for_st,
    st_of,
)
from workbench.rulesets.source.engine.layout import (
    ALL_SYMBOLS,
    C_AMOUNT,
    C_ARG,
    C_BRACKET,
    C_FOE,
    C_OCC,
    C_OP,
    C_WEB,
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
    FOE_ST_AT,
    G_ACTIVE,
    G_ACTOR,
    G_ASKED,
    G_DECISION,
    G_FRAMES,
    G_MONSTERS,
    G_OVER,
    G_PLAYER,
    G_STAGE,
    G_SYMBOLS_STAGE,
    G_TURN,
    G_WINNER,
    K_CHANNELED,
    K_EQUIPMENT,
    K_MONSTER,
    K_TRAP,
    M_OWNER,
    M_SPACE,
    MAX_PATH,
    MOVE_AT,
    NO_STAGE,
    O_BLIND,
    O_FLUX,
    O_PARALLEL_WHEN_BLOCKED,
    O_SPACES,
    O_SUMMONING,
    O_SUPPORT,
    O_TIE,
    O_WEB_BLOCKS,
    OP_CLEAR_WEB,
    OP_DESTROY,
    OP_DRAW,
    OP_EXPIRE,
    OP_MOVE,
    OP_NOATTACK,
    OP_NOMOVE,
    OP_PARALLEL,
    OP_PUSH,
    OP_RECALL,
    OP_SP,
    OP_ST,
    OP_SUMMON,
    OP_TOKEN,
    OP_WEB,
    PATH_AT,
    S_CHANNEL_PLACED,
    S_HAND,
    S_MAIN_DONE,
    S_POLICY,
    S_PREF_KIND,
    S_REACTIONARY,
    S_SP,
    S_SYMBOLS,
    ST_AT,
    STAGE_BEGIN,
    STAGE_CHANNEL,
    STAGE_DISCARD,
    STAGE_MAIN,
    STAGE_NEXT,
    STOP,
    SU_CARD,
    SUMMON_CONVENTIONAL,
    SUMMON_REACTIONARY,
    SWAPS_AT,
    SYMBOLS,
    SYMBOLS_AHEAD,
    T_KIND,
    T_NCLAUSE,
    T_SYMBOLS,
    T_VALUE,
    TIE_ATTACKER,
    TIE_BOTH,
    TIE_DEFENDER,
)
from workbench.rulesets.source.engine.rules import (
    A_ATTACK,
    A_CHANNEL,
    A_GENERATOR,
    A_MOVE,
    action_code,
    action_s,
    action_x,
    action_y,
    advance,
    apply,
    at_card,
    bracket_for,
    channel_usable,
    free_support,
    legal_channel_cards,
    legal_discards,
    legal_effect_summons,
    legal_foe_channels,
    legal_foes,
    legal_forks,
    legal_main,
    legal_recalls,
    legal_symbols,
    legal_webs,
    open_window,
    pack_action,
    resolve_frame,
    response_window,
    setup_match,
    summoning_space_open,
    symbol_unused,
    take,
    trap_space_ok,
    unused_count,
)
from workbench.rulesets.source.map import (
    MP_ADJ0,
    MP_KIND,
    MP_PARALLEL,
)

# =====================================================================================================================
# Policies: greedy (the game's scoring of the listed actions), random, epsilon-greedy (`workbench.play.policies`), and
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
def greedy_fork(G: Any, state: Any, p: EngineInt, first: EngineInt, second: EngineInt) -> EngineInt:
    """Greedy's branch at a fork: the one with more free road ahead (an enemy right there counts against it), then
    the kind of space its deck needs more of (the first of equals)."""
    mp = G.mp
    side = state.side
    score_first = 2 * free_road(G, state, p, first)
    score_second = 2 * free_road(G, state, p, second)
    if mp[first, MP_KIND] == side[p, S_PREF_KIND]:
        score_first += 1
    if mp[second, MP_KIND] == side[p, S_PREF_KIND]:
        score_second += 1
    return second if score_second > score_first else first


@inline_kernel
def branch_score(G: Any, state: Any, p: EngineInt, space: EngineInt, nxt: EngineInt) -> int:
    """Greedy's worth of stepping from `space` onto `nxt`, as `greedy_fork` weighs a branch (twice the free road
    ahead, an enemy right there counting against it, one more for the kind of space its deck needs), less one for
    a step across to the parallel space (a space of movement that gains no road)."""
    score = 2 * free_road(G, state, p, nxt)
    if G.mp[nxt, MP_KIND] == state.side[p, S_PREF_KIND]:
        score += 1
    if nxt == G.mp[space, MP_PARALLEL]:
        score -= 1
    return score


@inline_kernel
def greedy_branch(G: Any, state: Any, p: EngineInt, space: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's pick among the listed next spaces of a move from `space` (D_FORK): the best `branch_score`, the first
    of equals. Across it goes when the road ahead is barred by an enemy, or when the other lane is freer by more
    than the step it costs."""
    pick = out[0]
    best = branch_score(G, state, p, space, pick)
    for i in range(1, n):
        score = branch_score(G, state, p, space, out[i])
        if score > best:
            best = score
            pick = out[i]
    return pick


@inline_kernel
def greedy_next_space(G: Any, state: Any, p: EngineInt, space: EngineInt) -> EngineInt:
    """Where greedy's monster on `space` would step next (its look-ahead, `greedy_path_steps`)."""
    first = forward_step(G, space, p, 0)
    second = forward_step(G, space, p, 1)
    if second < 0:
        return first
    return greedy_fork(G, state, p, first, second)


@inline_kernel
def free_road(G: Any, state: Any, p: EngineInt, space: EngineInt) -> int:
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
        here = forward_step(G, here, p, 0)
    return count


@llvm_inline_kernel
def greedy_path_steps(G: Any, state: Any, m: EngineInt, longest: EngineInt) -> int:
    """Greedy's look-ahead (a policy's, not a rule: it opens no decision and changes nothing but `scratch`): walk
    greedy play's road for monster m, its forks and steps across taken as `greedy_branch` takes them (with
    `parallel_move=when_blocked`, across only around an enemy, as the move does). scratch[PATH_AT + k] is where it
    stands after k steps and scratch[SWAPS_AT + k] how many allies it has swapped back by then. Returns the most
    steps it can take, up to `longest` (a move of d <= longest spaces ends at step min(d, that))."""
    opts = G.opts
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
        nxt = greedy_next_space(G, state, p, here)
        side = sidestep(G, state, m, here, across) if any_step else -1
        if side >= 0 and (nxt < 0 or branch_score(G, state, p, here, side) > branch_score(G, state, p, here, nxt)):
            nxt = side  # across by choice, as `greedy_branch` takes it over D_FORK's list
        if nxt < 0:
            break
        occupant = cells[nxt, C_OCC]
        if nxt == side:
            across += 1
        elif occupant >= 0 and mon[occupant, M_OWNER] != p:
            if any_step:
                break
            nxt = sidestep(G, state, m, here, across)  # as `move_monster` does
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
def clause_value(G: Any, card: EngineInt, i: EngineInt, has_foe: EngineBool) -> int:
    """Greedy play's worth of one clause (foe clauses count only when there is an adjacent enemy)."""
    op = G.clauses[card, i, C_OP]
    amount = G.clauses[card, i, C_AMOUNT]
    foe = G.clauses[card, i, C_FOE] == 1
    if foe and not has_foe:
        return 0
    sign = -1 if foe else 1
    if op == OP_ST:
        spread = 4 if G.clauses[card, i, C_ARG] == ALL_SYMBOLS else 1
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
def channel_value(G: Any, state: Any, card: EngineInt, m: EngineInt, s: EngineInt, has_foe: EngineBool) -> int:
    """Greedy worth of channeling `card` through monster m with symbol s (0 for a symbol the card lacks)."""
    game = state.game
    if ((G.table[card, T_SYMBOLS] >> s) & 1) == 0:
        return 0
    b = bracket_for(G, card, st_of(G, state, m, s, game[G_ACTIVE]))
    if b < 0:
        return 0
    total = 0
    for i in range(G.table[card, T_NCLAUSE]):
        if G.clauses[card, i, C_BRACKET] == b:
            total += clause_value(G, card, i, has_foe)
    return total


@inline_kernel
def can_step(G: Any, state: Any, p: EngineInt, space: EngineInt) -> bool:
    """Whether p's monster on `space` could take one step forward (a free space or an ally to swap with)."""
    mon = state.mon
    cells = state.cells
    for k in range(2):
        nxt = forward_step(G, space, p, k)
        if nxt >= 0 and (cells[nxt, C_OCC] < 0 or mon[cells[nxt, C_OCC], M_OWNER] == p):
            return True
    return False


@inline_kernel
def attack_value(G: Any, mine: EngineInt, theirs: EngineInt, win: EngineInt, loss: EngineInt) -> EngineInt:
    """Greedy worth of an attack whose ST are `mine` against `theirs`: `win` (worth the enemy) or `loss` (costs the
    attacker), a tie by `combat_tie`."""
    opts = G.opts
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
def move_value(G: Any, state: Any, p: EngineInt, steps: EngineInt, reach: EngineInt) -> int:
    """Greedy worth of a move of `steps` spaces along the walked path (`greedy_path_steps`, which reached `reach`):
    ten per road step the side gains (an ally swapped back loses one), much more for reaching the opponent's
    summoning space."""
    opts = G.opts
    scratch = state.scratch
    if steps <= 0:
        return 0
    if steps > reach:
        steps = reach
    end = scratch[PATH_AT + steps]
    gain = progress(G, end, p) - progress(G, scratch[PATH_AT], p) - scratch[SWAPS_AT + steps]
    if gain <= 0:
        return 0
    value = 10 * gain
    if end == opts[O_SUMMONING + 1 - p]:
        value += 300
    return value


@llvm_inline_kernel
def weigh_monster(G: Any, state: Any, m: EngineInt, active: EngineInt, bonus: EngineInt) -> int:
    """Monster m's ST per symbol into scratch[ST_AT + s] and its move's spaces into scratch[MOVE_AT + s], once per
    choice; returns what greedy play thinks it is worth (`monster_value`)."""
    # All four ST first, then the stores: a store to scratch would make the compiler read m's row again.
    scratch = state.scratch
    st_alpha = st_of(G, state, m, 0, active)
    st_beta = st_of(G, state, m, 1, active)
    st_gamma = st_of(G, state, m, 2, active)
    st_delta = st_of(G, state, m, 3, active)
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
def equipment_target(G: Any, state: Any, p: EngineInt) -> int:
    """Greedy's monster for equipment: p's furthest up the road (the first of equals in slot order)."""
    mon = state.mon
    target = -1
    target_progress = -1
    slots = state.game[G_MONSTERS + p]
    while slots != 0:
        m = lowest_set_bit(slots)
        slots &= slots - 1
        here = progress(G, mon[m, M_SPACE], p)
        if here > target_progress:
            target_progress = here
            target = m
    return target


@inline_kernel
def trap_target(G: Any, state: Any, p: EngineInt) -> int:
    """Greedy's space for a trap: the free trap space furthest up p's road (the first of equals), or -1."""
    space = -1
    for here in range(G.opts[O_SPACES]):
        if trap_space_ok(G, state, p, here) and (space < 0 or progress(G, here, p) > progress(G, space, p)):
            space = here
    return space


@inline_kernel
def greedy_main(G: Any, state: Any, p: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
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
            value = 100000 + G.table[card, T_VALUE] + (1000 if target == SUMMON_REACTIONARY else 0)
        elif kind == K_EQUIPMENT:
            if equip_onto == -2:
                equip_onto = equipment_target(G, state, p)
            if target != equip_onto:
                continue
            value = 10000 + G.table[card, T_VALUE]
        else:
            if trap_space == -2:
                trap_space = trap_target(G, state, p)
            if target != trap_space:
                continue
            value = G.table[card, T_VALUE] * 10 + progress(G, trap_space, p)
        if value > best_value:
            best_value = value
            best_kind = kind
            best = action
    return best


@llvm_inline_kernel
def greedy_main_unlisted(G: Any, state: Any, p: EngineInt) -> EngineInt:
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
    conventional_open = summoning_space_open(G, state, p, False)
    reactionary_open = side[p, S_REACTIONARY] == 1 and summoning_space_open(G, state, p, True)
    monsters, terrestrial, otherworldly = monsters_on_map(G, state, p)
    held = side[p, S_HAND]
    best = STOP
    best_value = -1
    if conventional_open or reactionary_open:
        for h in range(held):
            card = hand[p, h]
            if G.table[card, T_KIND] != K_MONSTER:
                continue
            if reactionary_open:
                value = 101000 + G.table[card, T_VALUE]
                if value > best_value:
                    best_value = value
                    best = pack_action(K_MONSTER, h, SUMMON_REACTIONARY, -1)
            elif requirements_met(G, card, terrestrial, otherworldly):
                value = 100000 + G.table[card, T_VALUE]
                if value > best_value:
                    best_value = value
                    best = pack_action(K_MONSTER, h, SUMMON_CONVENTIONAL, -1)
        if best != STOP:
            return best  # any summon beats any other play
    if monsters == 0:
        return STOP
    support = free_support(G, state, p)
    equip_onto = -2  # worked out at the first equipment card, and the trap space at the first trap
    trap_space = -2
    for h in range(held):
        card = hand[p, h]
        kind = G.table[card, T_KIND]
        if kind == K_EQUIPMENT:
            if support < 0 or not requirements_met(G, card, terrestrial, otherworldly):
                continue
            if equip_onto == -2:
                equip_onto = equipment_target(G, state, p)
            value = 10000 + G.table[card, T_VALUE]
            if value > best_value:
                best_value = value
                best = pack_action(K_EQUIPMENT, h, equip_onto, -1)
        elif kind == K_TRAP:
            if not requirements_met(G, card, terrestrial, otherworldly):
                continue
            if trap_space == -2:
                trap_space = trap_target(G, state, p)
            if trap_space < 0:
                continue
            value = G.table[card, T_VALUE] * 10 + progress(G, trap_space, p)
            if value > best_value:
                best_value = value
                best = pack_action(K_TRAP, h, trap_space, -1)
    return best


@inline_kernel
def greedy_channel_card_unlisted(G: Any, state: Any, p: EngineInt) -> EngineInt:
    """Greedy's channeled card, the first `legal_channel_cards` would list (STOP when it lists only STOP), found
    without the list."""
    side = state.side
    hand = state.hand
    if side[p, S_CHANNEL_PLACED] == 1 or free_support(G, state, p) < 0:
        return STOP
    for h in range(side[p, S_HAND]):
        if G.table[hand[p, h], T_KIND] == K_CHANNELED:
            return h
    return STOP


@inline_kernel
def generator_attacker(G: Any, state: Any, p: EngineInt) -> tuple[int, int, int]:
    """p's monster that may attack the generator (on the opponent's summoning space), the unused symbol that hits
    hardest (the first of equals) and its ST; (-1, -1, -1) when there is none."""
    mon = state.mon
    cells = state.cells
    active = state.game[G_ACTIVE]
    gen_monster = -1
    gen_symbol = -1
    gen_damage = -1
    cell = cells[G.opts[O_SUMMONING + 1 - p], C_OCC]
    if cell >= 0 and mon[cell, M_OWNER] == p and may_attack(state, cell, active):
        for s in range(SYMBOLS):
            if symbol_unused(state, p, s) and st_of(G, state, cell, s, active) > gen_damage:
                gen_damage = st_of(G, state, cell, s, active)
                gen_monster = cell
                gen_symbol = s
    return gen_monster, gen_symbol, gen_damage


@rules_kernel
def greedy_symbol_intentional(
    G: Any,
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
            my_value = weigh_monster(G, state, m, active, move_bonus(state, m, active))
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
                reach = greedy_path_steps(G, state, m, min(longest, MAX_PATH))
            if reach == 0:
                continue
            value = move_value(G, state, p, scratch[MOVE_AT + s], reach)
        elif code == A_ATTACK:
            target = action_y(action)
            if target != current_target:
                current_target = target
                foe_value = 10  # monster_value, with the ST kept for the symbols
                for u in range(SYMBOLS):
                    scratch[FOE_ST_AT + u] = st_of(G, state, target, u, active)
                    foe_value += scratch[FOE_ST_AT + u]
                win = 1000 + foe_value
                loss = -500 - my_value
            value = attack_value(G, scratch[ST_AT + s], scratch[FOE_ST_AT + s], win, loss)
        elif code == A_CHANNEL:
            if has_foe < 0:
                has_foe = 1 if adjacent_enemies(G, state, m) > 0 else 0
            value = channel_value(G, state, sup[p, action_y(action), SU_CARD], m, s, has_foe == 1)
        else:
            continue
        if value > best:
            best = value
            pick = action
    return pick


@rules_kernel
def symbol_by_weighing(
    G: Any,
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
    opts = G.opts
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
                my_value = weigh_monster(G, state, m, active, move_bonus(state, m, active))
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
                    reach = greedy_path_steps(G, state, m, min(longest, MAX_PATH))
                if reach == 0:
                    continue
            elif not can_step(G, state, p, mon[m, M_SPACE]):
                continue
        elif code == A_ATTACK and greedy and target != current_target:
            current_target = target
            foe_value = 10  # monster_value, with the ST kept for the symbols
            for u in range(SYMBOLS):
                scratch[FOE_ST_AT + u] = st_of(G, state, target, u, active)
                foe_value += scratch[FOE_ST_AT + u]
            win = 1000 + foe_value
            loss = -500 - my_value
        elif code == A_CHANNEL and greedy and has_foe < 0:
            has_foe = 1 if adjacent_enemies(G, state, m) > 0 else 0
        total = 0
        for s in range(SYMBOLS):
            if ((unused >> s) & 1) == 0 or (not blind and s != action_s(action)):
                continue
            value = 1
            if code == A_MOVE:
                if greedy:
                    value = move_value(G, state, p, scratch[MOVE_AT + s], reach)
                elif move_distance(G, state, m, s, active) == 0:
                    value = 0
            elif code == A_ATTACK:
                if greedy:
                    value = attack_value(G, scratch[ST_AT + s], scratch[FOE_ST_AT + s], win, loss)
            elif code == A_CHANNEL:
                card = sup[p, target, SU_CARD]
                if greedy:
                    value = channel_value(G, state, card, m, s, has_foe == 1)
                elif not blind and ((G.table[card, T_SYMBOLS] >> s) & 1) == 0:
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
def greedy_symbol(G: Any, state: Any, p: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's symbol action. A generator attack ends the turn, so greedy keeps the symbol that hits hardest for it
    and attacks with the last symbol (at once when the hit wins the match, with an intentional draw); otherwise the
    best-valued other action (`greedy_symbol_intentional`, or `symbol_by_weighing` under a blind draw), and the
    generator attack when none is worth a symbol."""
    blind = G.opts[O_BLIND] == 1
    gen_monster, gen_symbol, gen_damage = generator_attacker(G, state, p)
    gen_s = -1 if blind else gen_symbol
    if gen_monster >= 0 and ((not blind and gen_damage >= state.side[1 - p, S_SP]) or unused_count(state, p) == 1):
        return pack_action(A_GENERATOR, gen_monster, -1, gen_s)
    if blind:
        pick = symbol_by_weighing(G, state, p, np.bool_(True), out, n)
    else:
        unused = state.side[p, S_SYMBOLS]
        usable = unused & ~(1 << gen_symbol) if gen_symbol >= 0 else unused
        pick = greedy_symbol_intentional(G, state, p, usable, out, n)
    if pick == STOP and gen_monster >= 0:
        return pack_action(A_GENERATOR, gen_monster, -1, gen_s)
    return pick


@rules_kernel
def greedy_symbol_unlisted(G: Any, state: Any, p: EngineInt) -> EngineInt:
    """Greedy's symbol action, the one `greedy_symbol` takes among `legal_symbols`' list, found without the list.

    Intentional draw: it walks p's monsters and their candidates in the list's order (slot order; move, attacks,
    channels; symbols in order), testing each candidate as `legal_symbols` would and weighing it as
    `greedy_symbol_intentional` does, the first of equals kept. Blind draw: the list is written and weighed
    (`symbol_by_weighing`); the blind draw is rare enough not to pay for a second walk."""
    # Typed for mypy only (a bare annotation runs no code): an int at first, then an EngineInt.
    best: EngineInt
    value: EngineInt
    pick: EngineInt
    opts = G.opts
    mp = G.mp
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
    gen_monster, gen_symbol, gen_damage = generator_attacker(G, state, p)
    gen_s = -1 if blind else gen_symbol
    if gen_monster >= 0 and ((not blind and gen_damage >= side[1 - p, S_SP]) or unused_count(state, p) == 1):
        return pack_action(A_GENERATOR, gen_monster, -1, gen_s)
    pick = STOP
    if blind:
        out = state.actions
        n = legal_symbols(G, state, p, out)
        pick = symbol_by_weighing(G, state, p, np.bool_(True), out, n)
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
            my_value = weigh_monster(G, state, m, active, move_bonus(state, m, active))
            if space != goal and may_move(state, m, active):
                longest = 0
                for u in range(SYMBOLS):
                    if (unused >> u) & 1 and scratch[MOVE_AT + u] > longest:
                        longest = scratch[MOVE_AT + u]
                reach = greedy_path_steps(G, state, m, min(longest, MAX_PATH))
                if reach > 0:
                    for s in range(SYMBOLS):
                        if (usable >> s) & 1:
                            value = move_value(G, state, p, scratch[MOVE_AT + s], reach)
                            if value > best:
                                best = value
                                pick = pack_action(A_MOVE, m, -1, s)
            if may_attack(state, m, active):
                for t in range(5):
                    nxt = mp[space, MP_ADJ0 + t] if t < 4 else attack_across(G, state, m, space, active)
                    if nxt < 0:
                        continue
                    target = cells[nxt, C_OCC]
                    if target < 0 or mon[target, M_OWNER] == p:
                        continue
                    foe_value = 10  # monster_value, with the ST kept for the symbols
                    for u in range(SYMBOLS):
                        scratch[FOE_ST_AT + u] = st_of(G, state, target, u, active)
                        foe_value += scratch[FOE_ST_AT + u]
                    win = 1000 + foe_value
                    loss = -500 - my_value
                    for s in range(SYMBOLS):
                        if (usable >> s) & 1:
                            value = attack_value(G, scratch[ST_AT + s], scratch[FOE_ST_AT + s], win, loss)
                            if value > best:
                                best = value
                                pick = pack_action(A_ATTACK, m, target, s)
            if space == flux:
                has_foe = -1
                for k in range(opts[O_SUPPORT]):
                    if not channel_usable(G, state, p, k, m):
                        continue
                    if has_foe < 0:
                        has_foe = 1 if adjacent_enemies(G, state, m) > 0 else 0
                    card = sup[p, k, SU_CARD]
                    for s in range(SYMBOLS):
                        if (usable >> s) & 1:
                            value = channel_value(G, state, card, m, s, has_foe == 1)
                            if value > best:
                                best = value
                                pick = pack_action(A_CHANNEL, m, k, s)
    if pick == STOP and gen_monster >= 0:
        return pack_action(A_GENERATOR, gen_monster, -1, gen_s)
    return pick


@rules_kernel
def random_foe_channel(G: Any, state: Any, p: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
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
        enemies = adjacent_enemies(G, state, m)
        for seen in range(1, enemies + 1):
            rng_below(state.rng, seen)
        has_foe = enemies > 0
        while i < n - 1 and action_x(out[i]) == m:
            action = out[i]
            i += 1
            if pick != STOP:
                continue
            s = action_s(action)
            if s < 0 or channel_value(G, state, sup[p, action_y(action), SU_CARD], m, s, has_foe) != 0:
                pick = action
    if pick == STOP or rng_below(state.rng, 2) == 0:
        return STOP
    return pick


@rules_kernel
def greedy_foe_channel(G: Any, state: Any, p: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
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
            has_foe = adjacent_enemies(G, state, m) > 0
        card = sup[p, action_y(action), SU_CARD]
        s = action_s(action)
        if s >= 0:
            value = channel_value(G, state, card, m, s, has_foe)
        else:
            value = 0
            for u in range(SYMBOLS):
                if symbol_unused(state, p, u):
                    value += channel_value(G, state, card, m, u, has_foe)
        if value > best:
            best = value
            pick = action
    return pick


@inline_kernel
def greedy_discard(G: Any, state: Any, p: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy discards its least valuable card (the first of equals)."""
    hand = state.hand
    worst = out[0]
    for i in range(1, n):
        if G.table[hand[p, out[i]], T_VALUE] < G.table[hand[p, worst], T_VALUE]:
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
def greedy_foe(G: Any, state: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's enemy for a `foe` clause: the strongest (`monster_value` on this turn), the first of equals."""
    active = state.game[G_ACTIVE]
    pick = out[0]
    best = monster_value(G, state, pick, active)
    for i in range(1, n):
        value = monster_value(G, state, out[i], active)
        if value > best:
            best = value
            pick = out[i]
    return pick


@inline_kernel
def greedy_web(G: Any, state: Any, p: EngineInt, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's space for its web tile: the one nearest an opposing monster (the first of equals, so the first
    listed when the opponent has no monster on the map)."""
    dist = G.dist
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
def greedy_recall(G: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's card back from a Done Zone: the most valuable (T_VALUE), the first of equals."""
    pick = out[0]
    for i in range(1, n):
        if G.table[out[i], T_VALUE] > G.table[pick, T_VALUE]:
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
def greedy_effect_summon(G: Any, out: IntArray, n: EngineInt) -> EngineInt:
    """Greedy's effect-summoned monster: the strongest (T_VALUE, its ST total), the first of equals."""
    pick = out[0]
    for i in range(1, n):
        if G.table[at_card(out[i]), T_VALUE] > G.table[at_card(pick), T_VALUE]:
            pick = out[i]
    return pick


# ---- the one door: the deciding side's policy answers the open decision ---------------------------------------------


@llvm_inline_kernel
def greedy_choice(G: Any, state: Any, p: EngineInt, decision: EngineInt) -> EngineInt:
    """Greedy's answer to p's open decision of kind `decision`: the action it scores best among those `legal_actions`
    lists, STOP when it lists none. Each kind is listed by its own lister (`legal_forks`, `legal_foes`, ...), not
    through `legal_actions`' dispatch, and where greedy needs no list it writes none: the turn's own three decisions
    are answered from the state (the same action: `greedy_symbol_unlisted`, `greedy_main_unlisted`,
    `greedy_channel_card_unlisted`; listing some 20-40 actions at each of about 80 symbol decisions a match cost
    greedy a fifth of its speed), and so is a swap."""
    game = state.game
    if decision == D_SYMBOL:
        return greedy_symbol_unlisted(G, state, p)
    if decision == D_FORK:
        out = state.actions
        n = legal_forks(G, state, p, out)
        if n == 0:
            return STOP
        return greedy_branch(G, state, p, game[G_ASKED], out, n)
    if decision == D_SWAP:
        # `legal_swaps`' ally, game[G_ASKED]: it swaps unless the ally holds the opponent's summoning space.
        ally = game[G_ASKED]
        return ally if state.mon[ally, M_SPACE] != G.opts[O_SUMMONING + 1 - p] else STOP
    if decision == D_MAIN:
        return greedy_main_unlisted(G, state, p)
    if decision == D_CHANNEL_CARD:
        return greedy_channel_card_unlisted(G, state, p)
    if decision == D_FOE_CHANNEL or decision == D_FOE_RESPONSE:
        out = state.actions
        n = legal_foe_channels(G, state, p, out)
        if n == 0:
            return STOP
        return greedy_foe_channel(G, state, p, out, n)
    if decision == D_DISCARD:
        out = state.actions
        n = legal_discards(state, p, out)
        return greedy_discard(G, state, p, out, n) if n > 0 else STOP
    if decision == D_FOE:
        out = state.actions
        n = legal_foes(G, state, p, out)
        return greedy_foe(G, state, out, n) if n > 0 else STOP
    if decision == D_WEB:
        out = state.actions
        n = legal_webs(G, state, out)
        return greedy_web(G, state, p, out, n) if n > 0 else STOP
    if decision == D_RECALL:
        out = state.actions
        n = legal_recalls(G, state, out)
        return greedy_recall(G, out, n) if n > 0 else STOP
    if decision == D_EFFECT_SUMMON:
        out = state.actions
        n = legal_effect_summons(G, state, p, out)
        return greedy_effect_summon(G, out, n) if n > 0 else STOP
    return STOP


@llvm_inline_kernel
def random_choice(G: Any, state: Any, p: EngineInt, decision: EngineInt) -> EngineInt:
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
        n = legal_symbols(G, state, p, out)
        if n == 0:
            return STOP
        return symbol_by_weighing(G, state, p, np.bool_(False), out, n)
    if decision == D_FORK:
        n = legal_forks(G, state, p, out)
        return out[rng_below(state.rng, n)] if n > 0 else STOP
    if decision == D_SWAP:
        return state.game[G_ASKED] if rng_below(state.rng, 2) == 0 else STOP
    if decision == D_MAIN:
        n = legal_main(G, state, p, out)
        return random_among(state, out, n)
    if decision == D_CHANNEL_CARD:
        n = legal_channel_cards(G, state, p, out)
        return random_among(state, out, n)
    if decision == D_FOE_CHANNEL or decision == D_FOE_RESPONSE:
        n = legal_foe_channels(G, state, p, out)
        if n == 0:
            return STOP
        if decision == D_FOE_CHANNEL:
            return random_foe_channel(G, state, p, out, n)
        return random_among(state, out, n)
    if decision == D_DISCARD:
        n = legal_discards(state, p, out)
        return out[rng_below(state.rng, n)] if n > 0 else STOP
    if decision == D_RECALL:
        n = legal_recalls(G, state, out)
        return random_recall(state, out, n) if n > 0 else STOP
    if decision == D_FOE:
        n = legal_foes(G, state, p, out)
    elif decision == D_WEB:
        n = legal_webs(G, state, out)
    elif decision == D_EFFECT_SUMMON:
        n = legal_effect_summons(G, state, p, out)
    else:
        return STOP
    return random_pick(state, out, n) if n > 0 else STOP


@inline_kernel
def policy_of(state: Any, p: EngineInt) -> IntArray:
    """Player p's policy block (side[p, S_POLICY:], `workbench.play.policies`): what `choose` reads and the match loop
    seats."""
    return state.side[p, S_POLICY : S_POLICY + POLICY_WORDS]


@llvm_inline_kernel
def choose(G: Any, state: Any) -> EngineInt:
    """The deciding player's (game[G_ACTOR]) answer to the open decision (game[G_DECISION]): one of the actions
    `legal_actions` lists for it, STOP when it lists none. The rules' one door to the policies (`decide` and `ask`
    call it) and the only code that reads which policy a side plays (its block, `policy_of`; a `search` side plays
    GREEDY in the state, the search drives its turn from outside). Random answers by `random_choice`, and so does
    epsilon-greedy when it explores (`plays_random`, drawn from the side's own generator, which `random_played`
    trades back); greedy, search and epsilon-greedy otherwise by `greedy_choice`. Copied into each decision point by
    LLVM (`decide`, `ask`), where the kind is known, so each keeps only its own kind's branch of each (as the per-kind
    choosers before it did: a call here cost greedy some 8% of its speed).

    Random's answer is one copy per decision point for random and exploring epsilon sides alike: a kernel of its own
    for epsilon (`epsilon_answer`, called with the kind unknown) held random's whole dispatch, every lister and
    weighing, and was linked into each of the turn's kernels; with the kind read after that call, greedy's whole
    dispatch was kept at every decision point too. Both made SOURCE's cold compile some 35 s of CPU longer
    (`workbench warm source`)."""
    game = state.game
    p = game[G_ACTOR]
    # Read once, before any policy runs: LLVM then sees the kind `decide` or `ask` has just written at each decision
    # point and keeps only that kind's branches (no policy writes it, so a second read gives the same).
    decision = game[G_DECISION]
    block = policy_of(state, p)
    if plays_random(block, state.rng):
        return random_played(block, state.rng, random_choice(G, state, p, decision))
    return greedy_choice(G, state, p, decision)


# =====================================================================================================================
# The match loop: the rules stop at each of the turn's decisions (`rules.advance`), the deciding side's policy answers
# (`decide`) and `apply` takes it (`workbench.play.loop.play_out`)
# =====================================================================================================================


@llvm_inline_kernel
def decide(G: Any, state: Any, _context: Any) -> EngineInt:
    """The open decision's answer by the deciding side's policy (`choose`), as `play_out` asks it. A `search` side
    plays greedy here (`search.decide_searched` weighs its main decisions)."""
    return choose(G, state)


@llvm_inline_kernel
def is_over(state: Any) -> bool:
    """Whether a play loop is done: no decision is open (the rules played on to the match's end, or to the stage a
    loop stopped them at). Not the match's over word: before a generator attack the turn still asks for a channeled
    card after a main action that ended the match, as it always has."""
    return state.game[G_DECISION] == D_NONE


@inline_kernel
def setup_policies(state: Any, policy_a: EngineInt, policy_b: EngineInt, seed: EngineInt) -> None:
    """Who plays which side (each side's policy block, from its policy word and the match's seed: `start_policy`;
    code GREEDY, RANDOM or EPSILON_GREEDY), which `choose` alone reads."""
    start_policy(policy_of(state, np.int64(0)), policy_a, seed, np.int64(0))
    start_policy(policy_of(state, np.int64(1)), policy_b, seed, np.int64(1))


@rules_kernel
def play_on(G: Any, state: Any, _context: Any) -> None:
    """The match played on from where it stands to its end, each decision by its side's policy (`decide`): a greedy,
    random or epsilon batch's match (one compiled copy of the whole match, called). Takes the context it does not
    read, as `play.loop.batch_loop` passes one."""
    advance(G, state, np.int64(NO_STAGE))
    play_out(G, state, NO_CONTEXT, decide, apply, is_over)


@inline_kernel
def deal_batch_match(G: Any, state: Any, batch: Any, m: EngineInt, policy_a: EngineInt, policy_b: EngineInt) -> None:
    """Match m of a batch (`play.loop.batch_loop`) set up on the state every match reuses: its counters begun, its
    deal (`setup_match`) and the sides' policy words `policy_a` and `policy_b` (`setup_policies`)."""
    deck_a, deck_b, seed, first, _, _ = batch_match(batch, m)
    begin_match_counters(state.counters, m)
    setup_match(G, state, deck_a, deck_b, seed, first)
    setup_policies(state, policy_a, policy_b, seed)


@inline_kernel
def start_batch_match(G: Any, state: Any, batch: Any, m: EngineInt) -> None:
    """Match m of a batch dealt with the batch's policy words (`deal_batch_match`)."""
    deal_batch_match(G, state, batch, m, batch[BATCH_POLICY_A], batch[BATCH_POLICY_B])


@inline_kernel
def finish_batch_match(_G: Any, state: Any, batch: Any, m: EngineInt) -> None:
    """Match m of a batch is over: its counters closed, its winner and turn count written (`record_result`)."""
    game = state.game
    end_match_counters(state.counters, game[G_TURN], np.int64(2))
    record_result(batch, m, game[G_WINNER], game[G_TURN])


@rules_kernel
def play_matches(G: Any, state: Any, batch: Any) -> None:
    """A batch (`play.loop.new_batch`) of greedy, random and epsilon-greedy sides (`play.loop.batch_loop`, each match
    played by `play_on`; a search side's batch: `search.play_searched_matches`)."""
    batch_loop(G, state, batch, NO_CONTEXT, start_batch_match, play_on, finish_batch_match)


# ---- parts of a turn, each played by the sides' policies: as the rule tests and the evaluation's fit play them -----


@rules_kernel
def play_stages(G: Any, state: Any, p: EngineInt, stage: EngineInt, until: EngineInt) -> None:
    """Player p's turn taken up at `stage` (STAGE_*, no decision open), each decision by its side's policy, until the
    stage `until` is next."""
    game = state.game
    game[G_PLAYER] = p
    game[G_STAGE] = stage
    game[G_DECISION] = D_NONE
    play_until(G, state, NO_CONTEXT, decide, take, advance, is_over, until)


@rules_kernel
def play_turn(G: Any, state: Any, p: EngineInt, begun: EngineBool) -> None:
    """One whole turn of player p (the opponent's window at its start, the draw, ... the discards), or with `begun`
    the rest of it after the draw, by the sides' policies."""
    if begun:
        state.game[G_ACTIVE] = p
        state.game[G_SYMBOLS_STAGE] = SYMBOLS_AHEAD
        play_stages(G, state, p, np.int64(STAGE_MAIN), np.int64(STAGE_NEXT))
    else:
        play_stages(G, state, p, np.int64(STAGE_BEGIN), np.int64(STAGE_NEXT))


@rules_kernel
def main_action(G: Any, state: Any, p: EngineInt) -> None:
    """p's main action (D_MAIN) if it is still to take, and the opponent's response window after it."""
    play_stages(G, state, p, np.int64(STAGE_MAIN), np.int64(STAGE_CHANNEL))


@rules_kernel
def end_turn(G: Any, state: Any, p: EngineInt) -> None:
    """The end of p's turn: the discards down to the hand limit (D_DISCARD), then the turn's lasting changes counted
    off."""
    play_stages(G, state, p, np.int64(STAGE_DISCARD), np.int64(STAGE_NEXT))


@rules_kernel
def opponent_turn_channels(G: Any, state: Any, q: EngineInt, kind: EngineInt) -> None:
    """Player q's channel window on the opponent's turn (`kind`: D_FOE_CHANNEL or D_FOE_RESPONSE), by q's policy."""
    open_window(G, state, q, kind, np.int64(STAGE_NEXT))
    play_stages(G, state, state.game[G_PLAYER], state.game[G_STAGE], np.int64(STAGE_NEXT))


@rules_kernel
def foe_response_window(G: Any, state: Any, p: EngineInt) -> None:
    """The response window after an action of the active player p (`response_window`), by the opponent's policy."""
    response_window(G, state, p, np.int64(STAGE_NEXT))
    play_stages(G, state, state.game[G_PLAYER], state.game[G_STAGE], np.int64(STAGE_NEXT))


@rules_kernel
def settle(G: Any, state: Any) -> None:
    """The frames a rule left open (a move, a card's clauses: `rules.resolve_frame`) resolved to their end, each
    question they ask by its side's policy: a rule played alone, as the rule tests play one."""
    game = state.game
    while game[G_FRAMES] > 0:
        if game[G_DECISION] != D_NONE:
            take(G, state, choose(G, state))
        else:
            resolve_frame(G, state)
