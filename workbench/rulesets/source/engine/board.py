"""The SOURCE rules' board: reading it (ST, movement, requirements, roads, neighbours, free spaces) and changing it
(the Done Zone, equipment, destroying, placing and pushing back monsters, SourcePoints, drawing, tokens, a monster's
changes). Imports only `layout`: no kernel here asks a player anything.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engines import (
    DESTROYED,
    EngineInt,
    count_draw,
    count_play,
    inline_kernel,
    lowest_set_bit,
    rules_kernel,
)
from workbench.rulesets.source.engine.layout import (
    ACTIVE_O,
    ACTIVE_Y,
    ALL_SLOTS,
    ALL_SYMBOLS,
    C_AMOUNT,
    C_ARG,
    C_FOE,
    C_OCC,
    C_OP,
    EC_COUNT,
    EC_ROOM,
    EV_CHANNEL_DONE,
    EV_DECK_EMPTY,
    EV_DECK_OUT,
    EV_DESTROYED,
    EV_DRAW,
    EV_EQUIP_END,
    EV_EXPIRE_SET,
    EV_MOVEMOD,
    EV_NO_TOKEN,
    EV_NOATTACK,
    EV_NOMOVE,
    EV_PARALLEL_SET,
    EV_PUSH,
    EV_SP_CHANGE,
    EV_ST,
    EV_SUMMON,
    G_MONSTERS,
    G_OVER,
    G_TURN,
    G_WINNER,
    HAND_WIDTH,
    K_EQUIPMENT,
    K_TOKEN,
    M_CARD,
    M_EQO_MOVE,
    M_EQO_NOATK,
    M_EQO_NOMOVE,
    M_EQO_PARALLEL,
    M_EQO_ST,
    M_EQY_MOVE,
    M_EQY_NOATK,
    M_EQY_NOMOVE,
    M_EQY_PARALLEL,
    M_EQY_ST,
    M_EXPIRE,
    M_HIT_GEN,
    M_NOATTACK,
    M_NOMOVE,
    M_OWNER,
    M_PARALLEL,
    M_PERM_MOVE,
    M_PERM_ST,
    M_SPACE,
    M_TMP_MOVE,
    M_TMP_NOATTACK,
    M_TMP_NOMOVE,
    M_TMP_PARALLEL,
    M_TMP_ST,
    MON_WIDTH,
    O_CARDS,
    O_DECK_OUT_LOSES,
    O_FLUX,
    O_HIT_GEN_FOR_GOOD,
    O_PARALLEL_ATTACKS,
    O_PARALLEL_STEPS,
    O_SOURCEPOINTS,
    O_SP_CAP,
    O_SPACES,
    O_SUMMON_NEAREST,
    O_SUPPORT,
    OP_EXPIRE,
    OP_MOVE,
    OP_NOATTACK,
    OP_NOMOVE,
    OP_PARALLEL,
    OP_ST,
    PERMANENT,
    PILE_LIBRARY,
    PILE_TOKENS,
    S_DECK,
    S_DECK_N,
    S_HAND,
    S_SP,
    SU_CARD,
    SU_MON,
    SUMMON_TOKEN,
    SYMBOLS,
    T_ACTIVE,
    T_EQ_MOVE,
    T_EQ_NOATTACK,
    T_EQ_NOMOVE,
    T_EQ_PARALLEL,
    T_EQ_ST,
    T_EQ_TYPES,
    T_KIND,
    T_NCLAUSE,
    T_OTHER,
    T_ST,
    T_TERR,
    T_TYPE,
)
from workbench.rulesets.source.map import (
    KIND_OTHERWORLDLY,
    KIND_SUMMONING,
    KIND_TERRESTRIAL,
    MP_ADJ0,
    MP_FWD_A0,
    MP_KIND,
    MP_PARALLEL,
    MP_PROGRESS_A,
)

# =====================================================================================================================
# Reading the board
# =====================================================================================================================


@inline_kernel
def trace(
    state: Any,
    turn: EngineInt,
    player: EngineInt,
    code: EngineInt,
    card: EngineInt,
    other: EngineInt,
    amount: EngineInt,
) -> None:
    """Log one event row into the state's trace while it has room (ec[EC_ROOM]: 0 in a batch, so nothing is written):
    `workbench.engines.log_event` on the record's own trace.

    Its own six stores, not a call of `log_event` on `state.events[: ec[EC_ROOM]]`: that call kept every result but
    cost greedy 0.3-1.2% (`tests/rulesets/source/greedy_speed.py 20000`, three rounds in turn, 2026-11-30), the
    slice being made at each of the untraced batch's event sites."""
    ec = state.ec
    n = ec[EC_COUNT]
    if n < ec[EC_ROOM]:
        events = state.events
        events[n, 0] = turn
        events[n, 1] = player
        events[n, 2] = code
        events[n, 3] = card
        events[n, 4] = other
        events[n, 5] = amount
        ec[EC_COUNT] = n + 1


@inline_kernel
def st_of(G: Any, state: Any, m: EngineInt, s: EngineInt, active: EngineInt) -> int:
    """Monster m's ST for symbol s on player `active`'s turn: printed + lasting + this turn + equipment, at least 0."""
    mon = state.mon
    value = G.table[mon[m, M_CARD], T_ST + s] + mon[m, M_PERM_ST + s] + mon[m, M_TMP_ST + s]
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
def sidestep(G: Any, state: Any, m: EngineInt, here: EngineInt, taken: EngineInt) -> int:
    """Where monster m on `here` may step across to: the parallel space, when a `move parallel` clause allows it, the
    space is free and this move has taken fewer than `parallel_steps` such steps; else -1. When it may
    (`parallel_move`): at any step (any_step), or only instead of stopping before an enemy (when_blocked)."""
    opts = G.opts
    mp = G.mp
    mon = state.mon
    cells = state.cells
    if taken >= opts[O_PARALLEL_STEPS] or not may_move_parallel(state, m, mon[m, M_OWNER]):
        return -1
    across = mp[here, MP_PARALLEL]
    if across < 0 or cells[across, C_OCC] >= 0:
        return -1
    return across


@inline_kernel
def attack_across(G: Any, state: Any, m: EngineInt, space: EngineInt, active: EngineInt) -> int:
    """The parallel space monster m on `space` may attack across to (`parallel_attacks=with_move_parallel` and a
    `move parallel` clause holding now; a parallel space that is also adjacent counts once, as adjacent); else -1."""
    mp = G.mp
    if G.opts[O_PARALLEL_ATTACKS] == 0 or not may_move_parallel(state, m, active):
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
def move_distance(G: Any, state: Any, m: EngineInt, s: EngineInt, active: EngineInt) -> int:
    """Spaces monster m must move with symbol s: the ST bracket plus bonuses, never below 0; 0 while it may not
    move."""
    if not may_move(state, m, active):
        return 0
    d = spaces_for_st(st_of(G, state, m, s, active)) + move_bonus(state, m, active)
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
def monster_value(G: Any, state: Any, m: EngineInt, active: EngineInt) -> int:
    """What greedy play thinks a monster on the map is worth: its ST total."""
    total = 0
    for s in range(SYMBOLS):
        total += st_of(G, state, m, s, active)
    return total + 10


@inline_kernel
def monsters_on_map(G: Any, state: Any, p: EngineInt) -> tuple[int, int, int]:
    """(monsters, terrestrial spaces, otherworldly spaces) of player p's on the map, in one pass over p's slots."""
    mp = G.mp
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
def occupied_spaces(G: Any, state: Any, p: EngineInt) -> tuple[int, int]:
    """(terrestrial, otherworldly) spaces player p's monsters occupy, on either side of the map."""
    _, terrestrial, otherworldly = monsters_on_map(G, state, p)
    return terrestrial, otherworldly


@rules_kernel
def meets_requirements(G: Any, state: Any, p: EngineInt, card: EngineInt) -> bool:
    """Whether player p's monsters occupy enough terrestrial and otherworldly spaces for `card`."""
    terrestrial, otherworldly = occupied_spaces(G, state, p)
    return requirements_met(G, card, terrestrial, otherworldly)


@inline_kernel
def requirements_met(G: Any, card: EngineInt, terrestrial: EngineInt, otherworldly: EngineInt) -> bool:
    """Whether `terrestrial` and `otherworldly` occupied spaces meet `card`'s requirements."""
    return terrestrial >= G.table[card, T_TERR] and otherworldly >= G.table[card, T_OTHER]


@inline_kernel
def forward_step(G: Any, space: EngineInt, p: EngineInt, k: EngineInt) -> int:
    """Player p's k-th (0 or 1) forward road step from `space`, or -1."""
    mp = G.mp
    return mp[space, MP_FWD_A0 + 2 * p + k]


@inline_kernel
def progress(G: Any, space: EngineInt, p: EngineInt) -> int:
    """Road steps from player p's summoning space to `space`."""
    mp = G.mp
    return mp[space, MP_PROGRESS_A + p]


@inline_kernel
def adjacent_enemies(G: Any, state: Any, m: EngineInt) -> int:
    """How many enemy monsters stand adjacent to monster m: whether a `foe` clause would find one (greedy's weighing
    of a channel asks it; which one is the D_FOE question a `foe` clause asks, `clause_step`)."""
    mp = G.mp
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
def of_type(G: Any, state: Any, m: EngineInt, types: EngineInt) -> bool:
    """Whether monster m is of one of the types in the bit set `types` (0: any monster)."""
    mon = state.mon
    return types == 0 or (G.table[mon[m, M_CARD], T_TYPE] & types) != 0


@rules_kernel
def closest_free_space(G: Any, state: Any, target: EngineInt, p: EngineInt) -> int:
    """The unoccupied space nearest `target` (ties: nearer player p's own side, then file order), or -1."""
    dist = G.dist
    cells = state.cells
    best = -1
    for s in range(G.opts[O_SPACES]):
        if cells[s, C_OCC] >= 0:
            continue
        if (
            best < 0
            or dist[target, s] < dist[target, best]
            or (dist[target, s] == dist[target, best] and progress(G, s, p) < progress(G, best, p))
        ):
            best = s
    return best


# =====================================================================================================================
# Changing the board
# =====================================================================================================================


@inline_kernel
def to_done_zone(G: Any, state: Any, p: EngineInt, card: EngineInt) -> None:
    """`card` goes to player p's Done Zone: "the discard pile where the player will place any cards that have been
    defeated, used, or have had their effects fulfilled". The Done Zone is kept as copies per card, in the columns
    of `tokens` after the token deck's (tokens[p, cards + card]), so every kernel that sends a card there already
    has it."""
    tokens = state.piles[PILE_TOKENS]
    tokens[p, G.opts[O_CARDS] + card] += 1


@rules_kernel
def remove_equipment(G: Any, state: Any, p: EngineInt, k: EngineInt) -> None:
    """Send player p's support card k to the Done Zone, taking an equipment card's changes off its monster."""
    mon = state.mon
    sup = state.sup
    game = state.game
    card = sup[p, k, SU_CARD]
    m = sup[p, k, SU_MON]
    if G.table[card, T_KIND] == K_EQUIPMENT and m >= 0 and mon[m, M_SPACE] >= 0:
        equipment_changes(G, state, card, m, np.int64(-1))
    sup[p, k, SU_CARD] = -1
    sup[p, k, SU_MON] = -1
    to_done_zone(G, state, p, card)
    trace(
        state,
        game[G_TURN],
        p,
        EV_EQUIP_END if G.table[card, T_KIND] == K_EQUIPMENT else EV_CHANNEL_DONE,
        card,
        -1,
        0,
    )


@rules_kernel
def equipment_changes(G: Any, state: Any, card: EngineInt, m: EngineInt, sign: EngineInt) -> None:
    """Add (sign 1) or take off (sign -1) an equipment card's lasting changes on the turns it is active (none
    when its `if TYPE` asks for a type monster m does not have)."""
    mon = state.mon
    if not of_type(G, state, m, G.table[card, T_EQ_TYPES]):
        return
    active = G.table[card, T_ACTIVE]
    for s in range(SYMBOLS):
        if active & ACTIVE_Y:
            mon[m, M_EQY_ST + s] += sign * G.table[card, T_EQ_ST + s]
        if active & ACTIVE_O:
            mon[m, M_EQO_ST + s] += sign * G.table[card, T_EQ_ST + s]
    if active & ACTIVE_Y:
        mon[m, M_EQY_MOVE] += sign * G.table[card, T_EQ_MOVE]
        mon[m, M_EQY_NOATK] += sign * G.table[card, T_EQ_NOATTACK]
        mon[m, M_EQY_PARALLEL] += sign * G.table[card, T_EQ_PARALLEL]
        mon[m, M_EQY_NOMOVE] += sign * G.table[card, T_EQ_NOMOVE]
    if active & ACTIVE_O:
        mon[m, M_EQO_MOVE] += sign * G.table[card, T_EQ_MOVE]
        mon[m, M_EQO_NOATK] += sign * G.table[card, T_EQ_NOATTACK]
        mon[m, M_EQO_PARALLEL] += sign * G.table[card, T_EQ_PARALLEL]
        mon[m, M_EQO_NOMOVE] += sign * G.table[card, T_EQ_NOMOVE]


@rules_kernel
def destroy_monster(
    G: Any,
    state: Any,
    m: EngineInt,
    by_card: EngineInt,
) -> None:
    """Monster m is destroyed: its equipment goes to the Done Zone, a token goes back to its token deck."""
    opts = G.opts
    mon = state.mon
    cells = state.cells
    sup = state.sup
    game = state.game
    tokens = state.piles[PILE_TOKENS]
    card = mon[m, M_CARD]
    p = mon[m, M_OWNER]
    cells[mon[m, M_SPACE], C_OCC] = -1
    mon[m, M_SPACE] = -1
    game[G_MONSTERS + p] &= ~(1 << m)
    state.counters[p, card, DESTROYED] += 1
    trace(state, game[G_TURN], p, EV_DESTROYED, card, by_card, 0)
    if G.table[card, T_KIND] == K_TOKEN:
        tokens[p, card] += 1
    else:
        to_done_zone(G, state, p, card)
    for k in range(opts[O_SUPPORT]):
        if sup[p, k, SU_CARD] >= 0 and sup[p, k, SU_MON] == m:
            remove_equipment(G, state, p, k)


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
def leave_space(G: Any, state: Any, m: EngineInt) -> None:
    """Monster m has left the space it stood on (moved, swapped back, pushed back). "has not attacked your SOURCE
    generator with it" is read as this stay on the summoning space: an attack made there no longer blocks a
    conventional summon once the monster has left (`hit_generator_blocks=until_moved`, the default)."""
    opts = G.opts
    mon = state.mon
    if opts[O_HIT_GEN_FOR_GOOD] == 0:
        mon[m, M_HIT_GEN] = 0


@rules_kernel
def push_back(G: Any, state: Any, m: EngineInt, steps: EngineInt, to_closest: EngineInt) -> None:
    """Move monster m up to `steps` spaces back along its road (towards its own generator, never behind its own
    summoning space). With `to_closest` (a summon's push) it goes to the space one back, or, if that is occupied,
    the closest unoccupied space; otherwise (a `push back N` effect) it stops before an occupied space."""
    mon = state.mon
    cells = state.cells
    game = state.game
    p = mon[m, M_OWNER]
    start = mon[m, M_SPACE]
    target = start
    for _ in range(steps):
        # Backwards for p is the opponent's forward direction; at a merge prefer a free space.
        first = forward_step(G, target, 1 - p, 0)
        second = forward_step(G, target, 1 - p, 1)
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
        target = closest_free_space(G, state, target, p)
        if target < 0:
            return
    cells[start, C_OCC] = -1
    cells[target, C_OCC] = m
    mon[m, M_SPACE] = target
    leave_space(G, state, m)
    trace(state, game[G_TURN], p, EV_PUSH, mon[m, M_CARD], start, target)


@rules_kernel
def change_sourcepoints(G: Any, state: Any, p: EngineInt, amount: EngineInt, card: EngineInt) -> None:
    """Player p's SourcePoints change by `amount`; at 0 or below p is defeated."""
    opts = G.opts
    side = state.side
    game = state.game
    value = side[p, S_SP] + amount
    if amount > 0 and opts[O_SP_CAP] == 1 and value > opts[O_SOURCEPOINTS]:
        value = opts[O_SOURCEPOINTS]
    trace(state, game[G_TURN], p, EV_SP_CHANGE, card, value, value - side[p, S_SP])
    side[p, S_SP] = value
    if value <= 0 and game[G_OVER] == 0:
        game[G_OVER] = 1
        game[G_WINNER] = 1 - p


@inline_kernel
def draw_card(G: Any, state: Any, p: EngineInt) -> None:
    """Player p draws one card (an empty deck draws nothing, or loses with `deck_out_loses`)."""
    opts = G.opts
    side = state.side
    hand = state.hand
    game = state.game
    library = state.piles[PILE_LIBRARY]
    if side[p, S_DECK] >= side[p, S_DECK_N]:
        if opts[O_DECK_OUT_LOSES] == 1 and game[G_OVER] == 0:
            trace(state, game[G_TURN], p, EV_DECK_OUT, -1, -1, 0)
            game[G_OVER] = 1
            game[G_WINNER] = 1 - p
        else:
            trace(state, game[G_TURN], p, EV_DECK_EMPTY, -1, -1, 0)
        return
    card = library[p, side[p, S_DECK]]
    side[p, S_DECK] += 1
    if side[p, S_HAND] < HAND_WIDTH:
        hand[p, side[p, S_HAND]] = card
        side[p, S_HAND] += 1
    count_draw(state.counters, p, card)
    trace(state, game[G_TURN], p, EV_DRAW, card, -1, 0)


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
def summon_anchor(G: Any, state: Any, subject: EngineInt, p: EngineInt) -> EngineInt:
    """The space a token or an effect summon is placed next to: the subject's. A subject no longer on the map leaves
    no "it" to be next to, so nothing is summoned (-1); with `summon_placement=nearest` (engine 3's house rule) player
    p's Source Flux stands in for it."""
    mon = state.mon
    if subject >= 0 and mon[subject, M_SPACE] >= 0:
        return mon[subject, M_SPACE]
    return G.opts[O_FLUX + p] if G.opts[O_SUMMON_NEAREST] == 1 else -1


@rules_kernel
def free_space_near(G: Any, state: Any, near: EngineInt, p: EngineInt) -> int:
    """Where a token or an effect-summoned monster is placed: an unoccupied space adjacent to `near` (the subject's
    space) that is not a summoning space ("summon a Gearling token next to it"; with `summon_placement=nearest`,
    the house rule, the one nearest `near` at any distance). Ties: nearer player p's own side, then file order.
    -1: none (the summon does not happen)."""
    opts = G.opts
    mp = G.mp
    dist = G.dist
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
            or (dist[near, s] == dist[near, best] and progress(G, s, p) < progress(G, best, p))
        ):
            best = s
    return best


@rules_kernel
def summon_token(
    G: Any,
    state: Any,
    p: EngineInt,
    token: EngineInt,
    near: EngineInt,
) -> int:
    """A token from p's token deck onto the free space closest to `near` (not a summoning space); its own lasting
    clauses (ST, move, cannot attack, expire) take hold. Returns the slot, or -1 when none is left or no space."""
    game = state.game
    tokens = state.piles[PILE_TOKENS]
    if tokens[p, token] <= 0:
        trace(state, game[G_TURN], p, EV_NO_TOKEN, token, -1, 0)
        return -1
    best = free_space_near(G, state, near, p)
    if best < 0:
        trace(state, game[G_TURN], p, EV_NO_TOKEN, token, -1, 1)
        return -1
    tokens[p, token] -= 1
    m = place_monster(state, token, p, best)
    count_play(state.counters, p, token, game[G_TURN])
    trace(state, game[G_TURN], p, EV_SUMMON, token, best, SUMMON_TOKEN)
    for i in range(G.table[token, T_NCLAUSE]):
        op = G.clauses[token, i, C_OP]
        if G.clauses[token, i, C_FOE] == 1:
            continue
        if lasting_op(op):
            change_monster(state, m, op, G.clauses[token, i, C_AMOUNT], G.clauses[token, i, C_ARG], np.int64(PERMANENT))
    return m


@rules_kernel
def change_monster(
    state: Any, m: EngineInt, op: EngineInt, amount: EngineInt, arg: EngineInt, lasting: EngineInt
) -> None:
    """An ST, move, cannot-attack, cannot-move, move-parallel or expire clause on monster m, lasting or for this turn
    only."""
    mon = state.mon
    game = state.game
    p = mon[m, M_OWNER]
    card = mon[m, M_CARD]
    if op == OP_ST:
        base = M_PERM_ST if lasting == PERMANENT else M_TMP_ST
        for s in range(SYMBOLS):
            if arg == ALL_SYMBOLS or arg == s:
                mon[m, base + s] += amount
        trace(state, game[G_TURN], p, EV_ST, card, arg + 10 * lasting, amount)
    elif op == OP_MOVE:
        mon[m, M_PERM_MOVE if lasting == PERMANENT else M_TMP_MOVE] += amount
        trace(state, game[G_TURN], p, EV_MOVEMOD, card, lasting, amount)
    elif op == OP_NOATTACK:
        mon[m, M_NOATTACK if lasting == PERMANENT else M_TMP_NOATTACK] = 1
        trace(state, game[G_TURN], p, EV_NOATTACK, card, lasting, 0)
    elif op == OP_EXPIRE:
        mon[m, M_EXPIRE] = amount
        trace(state, game[G_TURN], p, EV_EXPIRE_SET, card, -1, amount)
    elif op == OP_PARALLEL:
        mon[m, M_PARALLEL if lasting == PERMANENT else M_TMP_PARALLEL] = 1
        trace(state, game[G_TURN], p, EV_PARALLEL_SET, card, lasting, 0)
    elif op == OP_NOMOVE:
        mon[m, M_NOMOVE if lasting == PERMANENT else M_TMP_NOMOVE] = 1
        trace(state, game[G_TURN], p, EV_NOMOVE, card, lasting, 0)
