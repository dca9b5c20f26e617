"""A straightforward per-object souls engine in plain Python: the baseline the compiled engine is measured against.

Cards, units, players and the match are ordinary classes; there is no numpy and no numba here. It is built from
the validated card set on its own (it does not read the compiled engine's tables) and plays the same rules with
the same policies, the same xorshift draws and the same tie-breaks as `engine/`, so for one seed both give the
same match, event for event (`tests/rulesets/souls/test_souls_reference_engine.py` checks it). `workbench bench`
reports its matches per second beside the compiled engine's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from workbench.cards import CardSet, OptionValue
from workbench.rulesets.souls.cards import SoulsCard
from workbench.rulesets.souls.costs import attack_range, has_ability
from workbench.rulesets.souls.effects import (
    ELEMENTS,
    OP_APPLY,
    OP_ATK,
    OP_DAMAGE,
    OP_DEF,
    OP_DIRECT,
    OP_DRAW,
    OP_SHIELD,
    T_FOE_ACTIVATES,
    T_FOE_ATTACKS,
    T_FOE_SUMMONS,
    T_PLAIN,
    T_SUMMON,
    T_USE,
    Effect,
    as_played,
    direct_amount,
    parse_effects,
    uncovered_for_kind,
)

SHIELD_POINTS = 8
ROWS = 3
MAX_EFFECTS = 6
MAX_RANDOM_STEPS = 200
BODY_VALUE = 4
SPELL_VALUE = 6
HAND_SACRIFICE_PERCENT = 50
PERMANENT = 1 << 30
GREEDY, RANDOM = 0, 1
FIRE, OIL, MIASMA, CURSE = range(4)
BURNING, EXPLOSION, EVERFLAME, POISON, PLAGUE = range(5)
NO_COMBO = -1

# Event codes, the same numbers as the compiled engine's EV_* (a test checks), so the two traces compare directly.
EVENT_CODES: dict[str, int] = {
    name: code
    for code, name in enumerate(
        (
            "TURN",
            "DRAW",
            "DECK_EMPTY",
            "SUMMON",
            "SACRIFICE",
            "DISCARD",
            "CAST",
            "EQUIP",
            "SET_TRAP",
            "TRAP",
            "ATTACK",
            "DIRECT",
            "EFFECT_DAMAGE",
            "DESTROYED",
            "SUPPORT",
            "MOVE",
            "ELEMENT",
            "COMBO",
            "STATUS_DAMAGE",
            "SHIELD",
            "FIELD_DAMAGE",
            "NO_TARGET",
            "FIZZLE",
            "ACTIVATE",
            "REACT",
        )
    )
}
EV = EVENT_CODES
COUNTER_NAMES = (
    "drawn",
    "played",
    "attacked",
    "destroyed",
    "damage_dealt",
    "matches_drawn",
    "matches_played",
    "first_played_turn",
    "played_match_turns",
    "matches_played_with_a_round_left",
)


class XorShift:
    """The shared xorshift128 generator (Marsaglia 2003), seeded as `workbench.engines.rng_seed` seeds it."""

    MASK = 0xFFFFFFFF

    def __init__(self, seed: int) -> None:
        x = seed & 0x7FFFFFFFFFFFFFFF
        low, high = x & self.MASK, (x >> 32) & self.MASK
        words = []
        for i in range(4):
            h = (low + 0x9E3779B9 * (i + 1) + high * 0x27D4EB2D) & self.MASK
            h = (((h >> 16) ^ h) * 0x45D9F3B) & self.MASK
            h = (((h >> 16) ^ h) * 0x45D9F3B) & self.MASK
            words.append((h >> 16) ^ h)
        if not any(words):
            words[0] = 1
        self.words = words

    def next(self) -> int:
        """The next 32-bit value."""
        w = self.words
        t, s = w[3], w[0]
        w[3], w[2], w[1] = w[2], w[1], s
        t ^= (t << 11) & self.MASK
        t ^= t >> 8
        w[0] = (t ^ s ^ (s >> 19)) & self.MASK
        return w[0]

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        return (self.next() * n) >> 32


@dataclass(frozen=True)
class Card:
    """One card as the engine sees it."""

    id: int
    """Position in the card set (the compiled engine's card id)."""
    name: str
    """The card's name."""
    kind: str
    """monster, magic or trap."""
    cost: int
    """Soul cost: sacrifices to play it."""
    atk: int
    """Printed Atk (0 when empty)."""
    defense: int
    """Printed Def (0 when empty)."""
    can_attack: bool
    """A monster with the Atk ability."""
    range: int
    """Rows its attacks reach (0 for cards that never attack)."""
    support: bool
    """A monster with Support."""
    mobile: bool
    """A monster with Mobile."""
    equip: bool
    """A magic card with Equip."""
    effects: tuple[Effect, ...]
    """The effects it plays, in order (the element column's `apply` first when the effects do not name one)."""
    direct: int = -1
    """What its `direct N` says direct attacks deal (its own, or an Equip card's host's); -1: nothing said."""

    def total(self, opcode: int) -> int:
        return sum(e.argument for e in self.effects if e.opcode == opcode)

    @property
    def applies(self) -> tuple[int, ...]:
        """Every element any of its effects applies, in the order fire, oil, miasma, curse."""
        return tuple(sorted({e.argument for e in self.effects if e.opcode == OP_APPLY}))

    @property
    def attack_applies(self) -> tuple[int, ...]:
        """Elements its attacks (or its host's, or its play) apply: a monster's `use:`/`summon:` apply is not here."""
        return tuple(sorted({e.argument for e in self.effects if e.opcode == OP_APPLY and e.timing == T_PLAIN}))

    def timed_total(self, timing: int, opcode: int) -> int:
        """A monster's or trap's total of one opcode among its effects of `timing` (0 on a magic card)."""
        if self.kind == "magic":
            return 0
        return sum(e.argument for e in self.effects if e.opcode == opcode and e.timing == timing)

    def timed_applies(self, timing: int) -> tuple[int, ...]:
        """Elements an activation of `timing` applies to the opponent (none for T_PLAIN: a monster's ride on
        attacks)."""
        if self.kind == "magic" or timing == T_PLAIN:
            return ()
        return tuple(sorted({e.argument for e in self.effects if e.opcode == OP_APPLY and e.timing == timing}))

    def has_timed(self, timing: int) -> bool:
        """Whether the monster has an effect of `timing` to activate."""
        return self.kind == "monster" and self.has_reaction(timing)

    def has_reaction(self, timing: int) -> bool:
        """Whether the card has an effect bound to `timing` (for a Trigger: a trap's or a monster's)."""
        return (
            self.timed_total(timing, OP_DAMAGE) > 0
            or self.timed_total(timing, OP_DRAW) != 0
            or self.timed_total(timing, OP_SHIELD) != 0
            or bool(self.timed_applies(timing))
        )

    @property
    def bonus(self) -> int:
        return (
            BODY_VALUE
            + 2 * (max(self.range, 1) - 1)
            + 2 * self.support
            + self.mobile
            + 3 * bool(self.applies)
            + 2 * self.total(OP_DRAW)
            + 2 * self.total(OP_DAMAGE)
            + self.total(OP_SHIELD)
            + (2 * (self.direct - 1) if self.kind == "monster" and self.direct >= 0 else 0)
        )

    @property
    def value(self) -> int:
        """The greedy policy's worth of the card in hand."""
        return self.atk + self.defense + self.bonus if self.kind == "monster" else SPELL_VALUE

    @property
    def sacrifice_worth(self) -> int:
        """What sacrificing it from the hand costs the greedy policy."""
        return self.value * HAND_SACRIFICE_PERCENT // 100

    @classmethod
    def from_model(cls, index: int, card: SoulsCard) -> Card:
        equips = has_ability(card.abilities, "equip")
        effects, _unknown = parse_effects(card.effects)
        uncovered = uncovered_for_kind(effects, card.kind, equips)
        kept = [e for e in effects if e not in uncovered]
        if card.element is not None and not any(e.opcode == OP_APPLY for e in kept):
            timing = kept[0].timing if card.kind == "trap" and kept else T_PLAIN
            kept.insert(0, Effect(OP_APPLY, ELEMENTS.index(card.element), f"apply {card.element}", timing))
        kept = [as_played(e, card.kind) for e in kept]
        can_attack = card.kind == "monster" and has_ability(card.abilities, "atk")
        return cls(
            id=index,
            name=card.name,
            kind=card.kind,
            cost=card.soul_cost,
            atk=card.atk or 0,
            defense=card.defense or 0,
            can_attack=can_attack,
            range=attack_range(card.abilities) if can_attack else 0,
            support=card.kind == "monster" and has_ability(card.abilities, "support"),
            mobile=card.kind == "monster" and has_ability(card.abilities, "mobile"),
            equip=card.kind == "magic" and equips,
            effects=tuple(kept[:MAX_EFFECTS]),
            direct=direct_amount([e for e in kept[:MAX_EFFECTS] if e.opcode == OP_DIRECT]),
        )


@dataclass
class Unit:
    """A monster in play."""

    card: Card
    """The monster's card."""
    row: int
    """0 (front) to 2."""
    uid: int
    """Summon number, unique in the match."""
    summoned: int
    """The turn it was summoned."""
    damage: int = 0
    """Damage taken so far."""
    used: bool = False
    """Used this turn."""
    atk_bonus: int = 0
    """Atk from equipment."""
    def_bonus: int = 0
    """Def from equipment."""
    temp_atk: int = 0
    """Atk from Support, this turn only."""
    elements: set[int] = field(default_factory=set)
    """Elements its equipment makes its attacks apply."""
    acted: bool = False
    """Its once-per-turn effect was activated this turn."""
    reacted: bool = False
    """One of its Trigger effects fired this turn."""
    equip_direct: int = -1
    """What its latest equipment's `direct N` says its direct attacks deal; -1: none said."""

    @property
    def direct(self) -> int:
        """What its direct attacks deal: 1, unless its equipment's or its own card's `direct N` says otherwise."""
        if self.equip_direct >= 0:
            return self.equip_direct
        return self.card.direct if self.card.direct >= 0 else 1

    @property
    def atk(self) -> int:
        return max(0, self.card.atk + self.atk_bonus + self.temp_atk)

    @property
    def defense(self) -> int:
        return max(0, self.card.defense + self.def_bonus)

    @property
    def value(self) -> int:
        return self.atk + self.defense - self.damage + self.card.bonus


@dataclass
class Player:
    """One side: shield, statuses, deck, hand, traps and units in play."""

    policy: int
    """GREEDY or RANDOM."""
    deck: list[Card]
    """Cards left to draw, top first."""
    shield: int = SHIELD_POINTS
    """Shield points left."""
    standard: int = -1
    """The standard elemental status (-1: none)."""
    burning: int = 0
    """Turns of Burning left (PERMANENT: for good)."""
    everflame: bool = False
    """Everflame is on."""
    plague: bool = False
    """Plague is on."""
    hand: list[Card] = field(default_factory=list)
    """Cards in hand, in the order drawn."""
    traps: list[Card] = field(default_factory=list)
    """Traps set, oldest first."""
    units: list[Unit] = field(default_factory=list)
    """Monsters in play, in summon order."""
    summons: int = 0
    """Monsters summoned this turn."""

    def in_row(self, row: int) -> int:
        return sum(1 for unit in self.units if unit.row == row)

    def effective_row(self, row: int) -> int:
        return sum(1 for r in range(row) if self.in_row(r) > 0)

    def occupied_rows(self) -> int:
        return sum(1 for r in range(ROWS) if self.in_row(r) > 0)


@dataclass
class Sacrifice:
    """What paying a soul cost takes: units in play and hand cards."""

    units: list[Unit] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    """Hand positions, ascending."""

    def size(self) -> int:
        return len(self.units) + len(self.hand)


class Match:
    """One souls match between two players."""

    def __init__(
        self,
        rules: Mapping[str, OptionValue],
        deck_a: Sequence[Card],
        deck_b: Sequence[Card],
        seed: int,
        first: int,
        policies: tuple[int, int],
        counters: dict[tuple[int, int, str], int],
        events: list[tuple[int, ...]] | None = None,
    ) -> None:
        self.o = rules
        self.rng = XorShift(seed)
        self.players = [Player(policies[0], list(deck_a)), Player(policies[1], list(deck_b))]
        self.turn = 0
        self.over = False
        self.winner = -1
        self.next_uid = 0
        self.counters = counters
        self.seen: set[tuple[int, int, str]] = set()
        """(side, card id, "drawn" or "played") already counted once in this match, for the per-match counters."""
        self.first_plays: dict[tuple[int, int], int] = {}
        """(side, card id): the turn of the card's first play in this match, for the counters at the match's end."""
        self.events = events
        self.first = first

    # bookkeeping ------------------------------------------------------------------------------------------------

    def log(self, player: int, code: str, card: int, other: int, amount: int) -> None:
        if self.events is not None:
            self.events.append((self.turn, player, EV[code], card, other, amount))

    def count(self, side: int, card: Card, counter: str, amount: int = 1) -> None:
        key = (side, card.id, counter)
        self.counters[key] = self.counters.get(key, 0) + amount
        if counter in ("drawn", "played") and key not in self.seen:
            self.seen.add(key)
            once = (side, card.id, "matches_" + counter)
            self.counters[once] = self.counters.get(once, 0) + 1
            if counter == "played":
                first = (side, card.id, "first_played_turn")
                self.counters[first] = self.counters.get(first, 0) + self.turn
                self.first_plays[(side, card.id)] = self.turn

    def end(self, winner: int) -> None:
        if not self.over:
            self.over, self.winner = True, winner

    def opt(self, key: str) -> OptionValue:
        return self.o[key]

    # shields, draws, units --------------------------------------------------------------------------------------

    def change_shield(self, side: int, delta: int, card: int) -> None:
        player = self.players[side]
        player.shield = min(SHIELD_POINTS, player.shield + delta)
        self.log(side, "SHIELD", card, delta, player.shield)
        if player.shield <= 0:
            self.end(1 - side)

    def draw(self, side: int, number: int) -> None:
        player = self.players[side]
        for _ in range(number):
            if not player.deck:
                self.log(side, "DECK_EMPTY", -1, -1, 0)
                if self.opt("empty_deck") == "lose":
                    self.end(1 - side)
                return
            card = player.deck.pop(0)
            player.hand.append(card)
            self.count(side, card, "drawn")
            self.log(side, "DRAW", card.id, -1, len(player.hand))

    def kill_need(self, unit: Unit) -> int:
        return unit.defense - unit.damage + (1 if self.opt("destroy_when") == "exceeds" else 0)

    def damage(self, side: int, unit: Unit, amount: int) -> bool:
        unit.damage += amount
        return self.destroy_if_dead(side, unit)

    def destroy_if_dead(self, side: int, unit: Unit) -> bool:
        if self.kill_need(unit) > 0:
            return False
        self.count(side, unit.card, "destroyed")
        self.log(side, "DESTROYED", unit.card.id, -1, unit.damage)
        self.players[side].units.remove(unit)
        return True

    def damage_everything(self, side: int, amount: int) -> None:
        for unit in list(reversed(self.players[side].units)):
            self.damage(side, unit, amount)

    def can_use(self, unit: Unit) -> bool:
        return not unit.used and not (self.opt("summoning_sickness") and unit.summoned == self.turn)

    def attacker_place(self, side: int, unit: Unit) -> int:
        return self.players[side].effective_row(unit.row) if self.opt("attacker_rows_collapse") else unit.row

    def in_range(self, side: int, unit: Unit, target: Unit) -> bool:
        distance = self.attacker_place(side, unit) + self.players[1 - side].effective_row(target.row) + 1
        return distance <= unit.card.range

    def can_attack_player(self, side: int, unit: Unit) -> bool:
        if not unit.card.can_attack:
            return False
        if self.opt("direct_attack") == "always":
            return True
        return self.attacker_place(side, unit) + self.players[1 - side].occupied_rows() + 1 <= unit.card.range

    # elements ---------------------------------------------------------------------------------------------------

    @staticmethod
    def combo(first: int, second: int) -> int:
        pair = {min(first, second), max(first, second)}
        table = {
            frozenset({FIRE, OIL}): BURNING,
            frozenset({FIRE, MIASMA}): EXPLOSION,
            frozenset({FIRE, CURSE}): EVERFLAME,
            frozenset({OIL, MIASMA}): POISON,
            frozenset({MIASMA, CURSE}): PLAGUE,
        }
        return table.get(frozenset(pair), NO_COMBO)

    def apply_element(self, victim: int, element: int, card: int) -> None:
        player = self.players[victim]
        standard = player.standard
        if standard < 0:
            player.standard = element
            self.log(victim, "ELEMENT", card, element, -1)
            return
        if standard == element:
            self.log(victim, "ELEMENT", card, element, standard)
            return
        combo = self.combo(standard, element)
        if combo == NO_COMBO:
            if self.opt("unlisted_combo") == "replace":
                player.standard = element
                self.log(victim, "ELEMENT", card, element, standard + 4)
            else:
                self.log(victim, "ELEMENT", card, element, standard)
            return
        if self.opt("combo_consumes"):
            player.standard = -1
        self.log(victim, "COMBO", card, combo, standard * 4 + element)
        if combo == BURNING:
            turns = int(self.opt("burning_turns"))
            player.burning = turns if turns > 0 else PERMANENT
        elif combo == EVERFLAME:
            player.everflame = True
        elif combo == PLAGUE:
            player.plague = True
        elif combo == POISON:
            self.change_shield(victim, -2, card)
        else:
            self.change_shield(victim, -1, card)
            if not self.over:
                self.log(victim, "FIELD_DAMAGE", card, EXPLOSION, 1)
                self.damage_everything(victim, 1)

    def tick(self, side: int) -> None:
        player = self.players[side]
        if player.burning > 0 and not self.over:
            if player.burning < PERMANENT:
                player.burning -= 1
            self.log(side, "STATUS_DAMAGE", -1, BURNING, player.burning)
            self.change_shield(side, -1, -1)
        if player.everflame and not self.over:
            self.log(side, "STATUS_DAMAGE", -1, EVERFLAME, PERMANENT)
            self.change_shield(side, -1, -1)
        if player.plague and not self.over:
            self.log(side, "STATUS_DAMAGE", -1, PLAGUE, PERMANENT)
            self.change_shield(side, -1, -1)
            if not self.over:
                self.log(side, "FIELD_DAMAGE", -1, PLAGUE, 1)
                self.damage_everything(side, 1)

    # sacrifices -------------------------------------------------------------------------------------------------

    def plan(self, side: int, cost: int, skip_hand: int) -> Sacrifice | None:
        """The `cost` weakest allowed sacrifices (units first on ties, then the leftmost hand card); None: too few."""
        if cost <= 0:
            return Sacrifice()
        player = self.players[side]
        mode = self.opt("sacrifice_from")
        candidates: list[tuple[int, int, int]] = []  # (worth, 0 = unit / 1 = hand, index)
        if mode != "hand":
            candidates += [(unit.value, 0, i) for i, unit in enumerate(player.units)]
        if mode != "field":
            candidates += [(card.sacrifice_worth, 1, h) for h, card in enumerate(player.hand) if h != skip_hand]
        if len(candidates) < cost:
            return None
        chosen = sorted(candidates, key=lambda c: (c[0], c[1], c[2]))[:cost]
        return Sacrifice(
            units=[player.units[i] for worth, where, i in sorted(chosen, key=lambda c: c[2]) if where == 0],
            hand=sorted(i for worth, where, i in chosen if where == 1),
        )

    def room_in_row(self, side: int, row: int, plan: Sacrifice) -> bool:
        freed = sum(1 for unit in plan.units if unit.row == row)
        return self.players[side].in_row(row) - freed < int(self.opt("row_slots"))

    def take_and_pay(self, side: int, hand_index: int) -> tuple[Card, int]:
        player = self.players[side]
        card = player.hand.pop(hand_index)
        plan = self.plan(side, card.cost, -1)
        assert plan is not None, "the policy checked the cost could be paid"
        for unit in reversed(plan.units):
            self.log(side, "SACRIFICE", unit.card.id, -1, unit.row)
            player.units.remove(unit)
        for position in reversed(plan.hand):
            discarded = player.hand.pop(position)
            self.log(side, "DISCARD", discarded.id, -1, 0)
        return card, plan.size()

    # playing cards ----------------------------------------------------------------------------------------------

    def resolve(self, side: int, card: Card, target: Unit | None, timing: int = T_PLAIN) -> None:
        foe = 1 - side
        plain_magic = card.kind == "magic" and not card.equip
        monster = card.kind == "monster"
        for effect in card.effects:
            if self.over:
                return
            if monster and effect.timing != timing:
                continue
            if effect.opcode == OP_DAMAGE:
                if target is None or target not in self.players[foe].units:
                    self.log(side, "NO_TARGET", card.id, -1, effect.argument)
                    continue
                self.log(side, "EFFECT_DAMAGE", card.id, target.card.id, effect.argument)
                self.count(side, card, "damage_dealt", effect.argument)
                self.damage(foe, target, effect.argument)
            elif effect.opcode == OP_DRAW:
                self.draw(side, effect.argument)
            elif effect.opcode == OP_SHIELD:
                self.change_shield(side, effect.argument, card.id)
            elif effect.opcode == OP_APPLY and (plain_magic or (monster and timing != T_PLAIN)):
                self.apply_element(foe, effect.argument, card.id)

    def effect_damage_target(self, foe: int, amount: int, policy: int) -> Unit | None:
        """Any opposing card (the document names no row): greedy the best kill, else the best card; random any."""
        units = self.players[foe].units
        if amount <= 0 or not units:
            return None
        if policy == RANDOM:
            return units[self.rng.below(len(units))]
        best, best_score = None, None
        for unit in units:
            score = unit.value + (1000 if self.kill_need(unit) <= amount else 0)
            if best_score is None or score > best_score:
                best, best_score = unit, score
        return best

    def summon(self, side: int, hand_index: int, row: int, policy: int) -> Unit:
        player = self.players[side]
        card, paid = self.take_and_pay(side, hand_index)
        unit = Unit(card, row, self.next_uid, self.turn)
        self.next_uid += 1
        player.units.append(unit)
        player.summons += 1
        self.count(side, card, "played")
        self.log(side, "SUMMON", card.id, paid, row)
        if card.has_timed(T_SUMMON):
            target = self.effect_damage_target(1 - side, card.timed_total(T_SUMMON, OP_DAMAGE), policy)
            self.resolve(side, card, target, T_SUMMON)
        if not self.over and unit in player.units:
            self.react(1 - side, T_FOE_SUMMONS, unit, card)
        return unit

    def can_activate(self, unit: Unit, timing: int) -> bool:
        if not unit.card.has_timed(timing):
            return False
        return not unit.acted if timing == T_PLAIN else self.can_use(unit)

    def activate(self, side: int, unit: Unit, timing: int, target: Unit | None) -> None:
        if timing == T_USE:
            unit.used = True
        else:
            unit.acted = True
        self.log(side, "ACTIVATE", unit.card.id, timing, 0)
        self.react(1 - side, T_FOE_ACTIVATES, unit, unit.card)
        if self.over or unit not in self.players[side].units:
            return
        self.resolve(side, unit.card, target, timing)

    def cast(self, side: int, hand_index: int, target: Unit | None) -> None:
        card, _paid = self.take_and_pay(side, hand_index)
        self.count(side, card, "played")
        self.log(side, "CAST", card.id, -1, 0)
        self.react(1 - side, T_FOE_ACTIVATES, None, card)
        if self.over:
            return
        self.resolve(side, card, target)

    def equip(self, side: int, hand_index: int, host_side: int, host: Unit, target: Unit | None) -> None:
        card, _paid = self.take_and_pay(side, hand_index)
        self.count(side, card, "played")
        if host not in self.players[host_side].units:
            self.log(side, "FIZZLE", card.id, -1, 0)
            return
        self.log(side, "EQUIP", card.id, host.card.id, host_side)
        host.atk_bonus += card.total(OP_ATK)
        host.def_bonus += card.total(OP_DEF)
        host.elements |= set(card.applies)
        if card.direct >= 0:
            host.equip_direct = card.direct
        if card.total(OP_DEF) < 0:
            self.destroy_if_dead(host_side, host)
        self.resolve(side, card, target)

    def set_trap(self, side: int, hand_index: int) -> None:
        card, _paid = self.take_and_pay(side, hand_index)
        self.players[side].traps.append(card)
        self.count(side, card, "played")
        self.log(side, "SET_TRAP", card.id, -1, len(self.players[side].traps))

    def resolve_reaction(self, owner: int, card: Card, timing: int, trigger: Unit | None) -> None:
        trigger_side = 1 - owner
        for effect in card.effects:
            if self.over:
                return
            if effect.timing != timing:
                continue
            if effect.opcode == OP_DAMAGE:
                if trigger is None:
                    self.log(owner, "NO_TARGET", card.id, -1, effect.argument)
                elif trigger in self.players[trigger_side].units:
                    self.log(owner, "EFFECT_DAMAGE", card.id, trigger.card.id, effect.argument)
                    self.count(owner, card, "damage_dealt", effect.argument)
                    self.damage(trigger_side, trigger, effect.argument)
            elif effect.opcode == OP_APPLY:
                self.apply_element(trigger_side, effect.argument, card.id)
            elif effect.opcode == OP_DRAW:
                self.draw(owner, effect.argument)
            elif effect.opcode == OP_SHIELD:
                self.change_shield(owner, effect.argument, card.id)

    def react(self, owner: int, timing: int, trigger: Unit | None, trigger_card: Card) -> None:
        """The oldest trap bound to the Trigger springs, then each monster bound to it fires (once a turn each)."""
        player = self.players[owner]
        for trap in player.traps:
            if trap.has_reaction(timing):
                player.traps.remove(trap)
                self.log(owner, "TRAP", trap.id, trigger_card.id, timing)
                self.resolve_reaction(owner, trap, timing, trigger)
                break
        for unit in list(player.units):
            if self.over:
                return
            if unit.reacted or not unit.card.has_reaction(timing):
                continue
            unit.reacted = True
            self.log(owner, "REACT", unit.card.id, trigger_card.id, timing)
            self.resolve_reaction(owner, unit.card, timing, trigger)

    def attack(self, side: int, unit: Unit, target: Unit | None) -> None:
        foe = 1 - side
        unit.used = True
        self.count(side, unit.card, "attacked")
        self.react(foe, T_FOE_ATTACKS, unit, unit.card)
        if self.over or unit not in self.players[side].units:
            return
        elements = sorted(set(unit.card.attack_applies) | unit.elements)
        if target is None:
            amount = unit.direct
            self.log(side, "DIRECT", unit.card.id, -1, amount)
            self.count(side, unit.card, "damage_dealt", amount)
            if amount > 0:
                self.change_shield(foe, -amount, unit.card.id)
        else:
            if target not in self.players[foe].units:
                return
            self.log(side, "ATTACK", unit.card.id, target.card.id, unit.atk)
            self.count(side, unit.card, "damage_dealt", unit.atk)
            self.damage(foe, target, unit.atk)
        for element in elements:
            if self.over:
                break
            self.apply_element(foe, element, unit.card.id)

    def support(self, side: int, unit: Unit, target: Unit) -> None:
        unit.used = True
        target.temp_atk += 1
        self.log(side, "SUPPORT", unit.card.id, target.card.id, 1)

    def move(self, side: int, unit: Unit, row: int) -> None:
        unit.used = True
        unit.row = row
        self.log(side, "MOVE", unit.card.id, -1, row)

    # turns ------------------------------------------------------------------------------------------------------

    def start_turn(self, side: int) -> None:
        first_turn = self.turn == 0
        self.turn += 1
        player = self.players[side]
        player.summons = 0
        for unit in player.units:
            unit.used = False
            unit.acted = False
        for each in self.players:
            for unit in each.units:
                unit.reacted = False
        deck_left = len(player.deck)
        self.log(side, "TURN", self.players[0].shield, self.players[1].shield, len(player.hand) * 1000 + deck_left)
        self.tick(side)
        if self.opt("status_ticks") == "every_turn":
            self.tick(1 - side)
        if self.over:
            return
        if not first_turn or self.opt("first_player_draws"):
            self.draw(side, int(self.opt("draw_per_turn")))

    def end_turn(self, side: int) -> None:
        for unit in self.players[side].units:
            unit.temp_atk = 0
        if not self.opt("damage_persists"):
            for player in self.players:
                for unit in player.units:
                    unit.damage = 0

    def play(self) -> None:
        self.play_turns()
        # Every card played: the match's last turn, and whether a round (two turns) followed its first play.
        for (side, card), first_turn in self.first_plays.items():
            turns = (side, card, "played_match_turns")
            self.counters[turns] = self.counters.get(turns, 0) + self.turn
            if self.turn - first_turn >= 2:
                left = (side, card, "matches_played_with_a_round_left")
                self.counters[left] = self.counters.get(left, 0) + 1

    def play_turns(self) -> None:
        for player in self.players:
            deck = player.deck
            for i in range(len(deck) - 1, 0, -1):
                j = self.rng.below(i + 1)
                deck[i], deck[j] = deck[j], deck[i]
        for side in range(2):
            self.draw(side, int(self.opt("hand_size")))
        side = self.first
        while not self.over:
            if self.turn >= int(self.opt("turn_cap")):
                self.end(-1)
                return
            self.start_turn(side)
            if not self.over:
                if self.players[side].policy == GREEDY:
                    Greedy(self, side).turn()
                else:
                    self.random_turn(side)
                self.end_turn(side)
            side = 1 - side

    # the random-legal policy ------------------------------------------------------------------------------------

    def legal_actions(self, side: int) -> list[tuple[str, int, object, object]]:
        player, foe = self.players[side], self.players[1 - side]
        actions: list[tuple[str, int, object, object]] = []
        limit = int(self.opt("summons_per_turn"))
        summons_left = limit == 0 or player.summons < limit
        for h, card in enumerate(player.hand):
            if card.kind == "monster" and not summons_left:
                continue
            if card.kind == "trap" and len(player.traps) >= int(self.opt("trap_slots")):
                continue
            plan = self.plan(side, card.cost, h)
            if plan is None:
                continue
            if card.kind == "monster":
                actions += [("summon", h, row, None) for row in range(ROWS) if self.room_in_row(side, row, plan)]
            elif card.kind == "trap":
                actions.append(("trap", h, None, None))
            elif card.equip:
                for host_side in range(2):
                    for unit in self.players[host_side].units:
                        if not (host_side == side and unit in plan.units):
                            actions.append(("equip", h, host_side, unit))
            elif card.total(OP_DAMAGE) > 0 and foe.units:
                actions += [("cast", h, unit, None) for unit in foe.units]
            else:
                actions.append(("cast", h, None, None))
        for unit in player.units:
            for timing in (T_PLAIN, T_USE):
                if self.can_activate(unit, timing):
                    if unit.card.timed_total(timing, OP_DAMAGE) > 0 and foe.units:
                        actions += [("activate", timing, unit, target) for target in foe.units]
                    else:
                        actions.append(("activate", timing, unit, None))
            if not self.can_use(unit):
                continue
            if unit.card.can_attack:
                if self.can_attack_player(side, unit):
                    actions.append(("attack", 0, unit, None))
                actions += [("attack", 0, unit, target) for target in foe.units if self.in_range(side, unit, target)]
            if unit.card.support:
                actions += [("support", 0, unit, ally) for ally in player.units if ally is not unit]
            if unit.card.mobile:
                for row in (unit.row - 1, unit.row + 1):
                    if 0 <= row < ROWS and player.in_row(row) < int(self.opt("row_slots")):
                        actions.append(("move", 0, unit, row))
        return actions

    def random_turn(self, side: int) -> None:
        foe = self.players[1 - side]
        for _ in range(MAX_RANDOM_STEPS):
            if self.over:
                return
            actions = self.legal_actions(side)
            pick = self.rng.below(len(actions) + 1)
            if pick == len(actions):
                return
            kind, h, b, c = actions[pick]
            if kind == "summon":
                self.summon(side, h, cast(int, b), RANDOM)
            elif kind == "trap":
                self.set_trap(side, h)
            elif kind == "cast":
                self.cast(side, h, cast("Unit | None", b))
            elif kind == "equip":
                target = None
                if self.players[side].hand[h].total(OP_DAMAGE) > 0 and foe.units:
                    target = foe.units[self.rng.below(len(foe.units))]
                self.equip(side, h, cast(int, b), cast(Unit, c), target)
            elif kind == "attack":
                self.attack(side, cast(Unit, b), cast("Unit | None", c))
            elif kind == "support":
                self.support(side, cast(Unit, b), cast(Unit, c))
            elif kind == "activate":
                self.activate(side, cast(Unit, b), h, cast("Unit | None", c))
            else:
                self.move(side, cast(Unit, b), cast(int, c))


class Greedy:
    """The greedy policy for one turn: the same steps and tie-breaks as the compiled engine's."""

    def __init__(self, match: Match, side: int) -> None:
        self.m = match
        self.side = side
        self.me = match.players[side]
        self.foe = match.players[1 - side]

    def turn(self) -> None:
        self.plays()
        self.summons()
        self.equips()
        self.activations()
        if not self.m.over:
            self.supports_and_moves()
        self.attacks()
        self.finishers()

    def plays(self) -> None:
        m, me = self.m, self.me
        i = 0
        while i < len(me.hand) and not m.over:
            card = me.hand[i]
            play = False
            if card.kind == "trap":
                play = len(me.traps) < int(m.opt("trap_slots"))
            elif card.kind == "magic" and not card.equip and card.total(OP_DAMAGE) == 0:
                shield = card.total(OP_SHIELD)
                play = card.total(OP_DRAW) > 0 or (shield > 0 and me.shield + shield <= SHIELD_POINTS)
                for element in card.applies:
                    standard = self.foe.standard
                    if standard < 0 or (standard != element and m.combo(standard, element) != NO_COMBO):
                        play = True
            if play and m.plan(self.side, card.cost, i) is not None:
                if card.kind == "trap":
                    m.set_trap(self.side, i)
                else:
                    m.cast(self.side, i, None)
                i = 0
                continue
            i += 1

    def summons(self) -> None:
        m, me = self.m, self.me
        limit = int(m.opt("summons_per_turn"))
        while not m.over and (limit == 0 or me.summons < limit):
            excluded: set[int] = set()
            summoned = False
            for _ in range(len(me.hand)):
                best, best_key = -1, None
                for h, card in enumerate(me.hand):
                    if h in excluded or card.kind != "monster" or (best_key is not None and card.value < best_key[0]):
                        continue
                    plan = m.plan(self.side, card.cost, h)
                    if plan is None:
                        continue
                    gain = card.value - self.worth(plan)
                    if card.cost > 0 and gain <= 0:
                        continue
                    key = (gain, -card.cost)  # equal gains go to the cheaper card
                    if best_key is None or key > best_key:
                        best, best_key = h, key
                if best < 0:
                    break
                card = me.hand[best]
                plan = m.plan(self.side, card.cost, best)
                assert plan is not None
                row = self.row_with_room(self.preferred_row(card), plan)
                if row >= 0:
                    m.summon(self.side, best, row, GREEDY)
                    summoned = True
                    break
                excluded.add(best)
            if not summoned:
                return

    def worth(self, plan: Sacrifice) -> int:
        return sum(unit.value for unit in plan.units) + sum(self.me.hand[h].sacrifice_worth for h in plan.hand)

    @staticmethod
    def preferred_row(card: Card) -> int:
        if not card.can_attack:
            return ROWS - 1
        return min(card.range - 1, ROWS - 1)

    def row_with_room(self, wanted: int, plan: Sacrifice) -> int:
        for step in range(ROWS):
            for row in (wanted,) if step == 0 else (wanted - step, wanted + step):
                if 0 <= row < ROWS and self.m.room_in_row(self.side, row, plan):
                    return row
        return -1

    def kill_target(self, unit: Unit, extra_atk: int) -> Unit | None:
        best, best_value = None, -1
        for target in self.foe.units:
            if self.m.kill_need(target) <= unit.atk + extra_atk and self.m.in_range(self.side, unit, target):
                if target.value > best_value:
                    best, best_value = target, target.value
        return best

    def support_makes_a_kill(self, unit: Unit) -> bool:
        found = False
        for target in self.foe.units:
            need = self.m.kill_need(target)
            if need <= unit.atk + 1 and self.m.in_range(self.side, unit, target):
                if need <= unit.atk:
                    return False
                found = True
        return found

    def spell_target(self, amount: int, any_target: bool) -> Unit | None:
        best, best_score = None, -1
        for target in self.foe.units:
            kills = self.m.kill_need(target) <= amount
            if not kills and not any_target:
                continue
            score = target.value + (1000 if kills else 0)
            if score > best_score:
                best, best_score = target, score
        return best

    def equips(self) -> None:
        m, me = self.m, self.me
        i = 0
        while i < len(me.hand) and not m.over:
            card = me.hand[i]
            if card.kind != "magic" or not card.equip:
                i += 1
                continue
            bonus_direct = card.direct - 1 if card.direct >= 0 else 0
            helpful = card.total(OP_ATK) + card.total(OP_DEF) + bonus_direct >= 0
            host_side = self.side if helpful else 1 - self.side
            for_attackers = helpful and (card.total(OP_ATK) > 0 or bool(card.applies) or bonus_direct > 0)
            host, best_score = None, -1
            for unit in m.players[host_side].units:
                if for_attackers and not unit.card.can_attack:
                    continue
                score = unit.value if helpful and not for_attackers else unit.atk * 4 + unit.value
                if score > best_score:
                    host, best_score = unit, score
            plan = m.plan(self.side, card.cost, i) if host is not None else None
            if host is not None and plan is not None and not (host_side == self.side and host in plan.units):
                target = self.spell_target(card.total(OP_DAMAGE), True) if card.total(OP_DAMAGE) > 0 else None
                m.equip(self.side, i, host_side, host, target)
                i = 0
                continue
            i += 1

    def activation_worth(self, card: Card, timing: int, target: Unit | None) -> int:
        worth = 2 * card.timed_total(timing, OP_DRAW)
        if target is not None:
            worth += 2 * card.timed_total(timing, OP_DAMAGE)
        shield = card.timed_total(timing, OP_SHIELD)
        if shield < 0 or self.me.shield + shield <= SHIELD_POINTS:
            worth += shield
        standard = self.foe.standard
        for element in card.timed_applies(timing):
            if standard < 0 or (standard != element and self.m.combo(standard, element) != NO_COMBO):
                worth += 3
        return worth

    def activations(self) -> None:
        m = self.m
        for unit in list(self.me.units):
            for timing in (T_PLAIN, T_USE):
                if m.over or unit not in self.me.units or not m.can_activate(unit, timing):
                    continue
                amount = unit.card.timed_total(timing, OP_DAMAGE)
                target = self.spell_target(amount, True) if amount > 0 else None
                if timing == T_USE and unit.card.can_attack:
                    if target is None or m.kill_need(target) > amount:
                        continue
                if self.activation_worth(unit.card, timing, target) > 0:
                    m.activate(self.side, unit, timing, target)

    def supports_and_moves(self) -> None:
        m, me = self.m, self.me
        for unit in list(me.units):
            if not unit.card.support or not m.can_use(unit):
                continue
            if unit.card.can_attack and self.kill_target(unit, 0) is not None:
                continue
            chosen, fallback, fallback_atk = None, None, -1
            for ally in me.units:
                if ally is unit or not ally.card.can_attack or not m.can_use(ally):
                    continue
                if self.support_makes_a_kill(ally):
                    chosen = ally
                    break
                if ally.atk > fallback_atk:
                    fallback, fallback_atk = ally, ally.atk
            if chosen is None and not unit.card.can_attack:
                chosen = fallback
            if chosen is not None:
                m.support(self.side, unit, chosen)
        for unit in list(me.units):
            if not unit.card.mobile or not unit.card.can_attack or not m.can_use(unit):
                continue
            if unit.row == 0 or me.in_row(unit.row - 1) >= int(m.opt("row_slots")):
                continue
            if m.can_attack_player(self.side, unit):
                continue
            if not any(m.in_range(self.side, unit, target) for target in self.foe.units):
                m.move(self.side, unit, unit.row - 1)

    def attacks(self) -> None:
        m, me = self.m, self.me
        ready = sum(unit.direct for unit in me.units if m.can_use(unit) and m.can_attack_player(self.side, unit))
        lethal = ready >= self.foe.shield and not any(trap.has_reaction(T_FOE_ATTACKS) for trap in self.foe.traps)
        while not m.over:
            attacker, best_atk = None, -1
            for unit in me.units:
                if unit.card.can_attack and m.can_use(unit) and unit.atk > best_atk:
                    attacker, best_atk = unit, unit.atk
            if attacker is None:
                return
            direct = m.can_attack_player(self.side, attacker)
            kill = None if lethal and direct else self.kill_target(attacker, 0)
            if kill is not None:
                m.attack(self.side, attacker, kill)
                continue
            if direct:
                m.attack(self.side, attacker, None)
                continue
            target, best_value = None, -1
            for unit in self.foe.units:
                if m.in_range(self.side, attacker, unit) and unit.value > best_value:
                    target, best_value = unit, unit.value
            if target is None:
                attacker.used = True
                continue
            m.attack(self.side, attacker, target)

    def finishers(self) -> None:
        m, me = self.m, self.me
        i = 0
        while i < len(me.hand) and not m.over:
            card = me.hand[i]
            if card.kind == "magic" and not card.equip and card.total(OP_DAMAGE) > 0:
                target = self.spell_target(card.total(OP_DAMAGE), len(me.hand) >= 7)
                if target is not None and m.plan(self.side, card.cost, i) is not None:
                    m.cast(self.side, i, target)
                    i = 0
                    continue
            i += 1


class ReferenceEngine:
    """The per-object engine for one card set and one set of rule options."""

    def __init__(self, cardset: CardSet, options: Mapping[str, OptionValue]) -> None:
        self.cards = [Card.from_model(i, cast(SoulsCard, entry.card)) for i, entry in enumerate(cardset)]
        self.options = dict(options)

    def play(
        self,
        deck_a: Sequence[int],
        deck_b: Sequence[int],
        seed: int,
        first: int,
        policy_a: int,
        policy_b: int,
        counters: dict[tuple[int, int, str], int] | None = None,
        events: list[tuple[int, ...]] | None = None,
    ) -> Match:
        """One match; decks are card ids (positions in the card set)."""
        match = Match(
            self.options,
            [self.cards[i] for i in deck_a],
            [self.cards[i] for i in deck_b],
            seed,
            first,
            (policy_a, policy_b),
            {} if counters is None else counters,
            events,
        )
        match.play()
        return match

    def play_batch(
        self,
        deck_a: Sequence[int],
        deck_b: Sequence[int],
        seeds: Sequence[int],
        first: Sequence[int],
        policy_a: int,
        policy_b: int,
    ) -> tuple[list[int], list[int], dict[tuple[int, int, str], int]]:
        """(winners, turns, counters keyed (side, card id, counter name)) for one match per seed."""
        counters: dict[tuple[int, int, str], int] = {}
        winners, turns = [], []
        for seed, who in zip(seeds, first, strict=False):
            match = self.play(deck_a, deck_b, int(seed), int(who), policy_a, policy_b, counters)
            winners.append(match.winner)
            turns.append(match.turn)
        return winners, turns, counters
