"""The resource-circle game (its columns, rule ids, readings and simulation: docs/rulesets/circles.md).

Rules summary: two kinds of card. Resource cards are red, blue or green and
are spent (flipped) to pay for characters and activated abilities; they
ready again at the start of their owner's turn. A character card has up to
5 cost circles: 1, 2 or 3 base resources (any colours) give 3, 6 or 9
points split between Attack and Health (each at least 1), and each special
ability from the document's closed list of 24 fills its own circles in its
own colour (`abilities.py`). Players start with 2 Life Points and 5 cards,
bring characters into play left to right, and fight lane by lane; an
attacker with nothing in front hits the player. A deck holds roughly 14
characters and 16 resources.

Checks: `circles.unknown_ability`, `circles.duplicate_ability`,
`circles.minimum_stats`, `circles.too_many_circles`, `circles.ability_colour`,
`circles.base_resources`, `circles.over_budget`, `circles.unspent_points`,
`circles.resource_colour`, `circles.resource_fields`, `circles.deck_balance`,
`circles.unpayable`; the engine's `circles.not_simulated` (see
docs/rulesets/circles.md).

Options: see `options.py`. Card checks: points_must_be_spent,
allow_duplicate_abilities. Deck checks: deck_characters, deck_resources,
deck_tolerance. Match engine (`engine/`): resources_per_turn, destroy_when,
out_of_cards, respond_in_opponent_turn, sleeping_card_opens_lane,
serenity_protects, extra_card, new_characters_attack, direct_damage, turn_cap;
the search policy's search_rollouts and search_rollout_policy.

Version history:
- 1.0: circle budget, ability list, resource colour, deck balance; the match
  engine (engine version 1) with all 24 abilities.
- 1.0, engine 2 (checks and options unchanged, so the ruleset version
  stays): the greedy policy judges each lane by the mode chosen for its
  attacker (Long Range, Self Destruct, Target), where engine 1 judged every
  lane as a plain fight; and it keeps Serenity for an attack that would take
  its last Life Points, which engine 1 could miss by comparing the lanes'
  total worth (negative when the attacker loses cards elsewhere) with the
  lethal bonus. Both found while porting the engine to C. The docs now say
  what the engine always did: damage lasts until its owner's next turn.
- 1.0, engine 2, with a third policy: `search` (determinized Monte Carlo over the decisions of its own turn) and its
  two settings `search_rollouts` and `search_rollout_policy`. Greedy and random play exactly as before (the golden
  trace and both digests of tests/rulesets/circles/results_fingerprint.py unchanged), so no result of engine 2
  changes and the version stays.
- 1.0, engine 2, rules and policies apart: the rules open a decision where they leave something to the player,
  `legal_actions` lists its answers and `apply` takes the one a policy chose; greedy, random and search choose among
  the listed rows and no rule reads a side's policy. The search now weighs every decision of its turn (Reorder's
  pair, Restore's card, Disperse's spread and Change the Future's order too). Greedy and random play exactly as
  before (golden trace and both digests of results_fingerprint.py unchanged), so the version stays.
- 1.0, engine 2: greedy answers the hand decisions (resources, characters) without listing their rows, with the
  card its rule of thumb takes from the listed rows (`greedy_hand`; legal_replay.py checks each against a fresh list).
  Same results (golden trace, both digests), so the version stays.
- 1.0, engine 2: the turn after the draw and the search's match loop are written in their kernels, combat and the
  resource plays copied in by LLVM (`llvm_inline_kernel`): the search line's cold compile an eighth shorter (with
  the run's own warm-up), greedy's 4%; the same results and speed, so the version stays.
- 1.0, engine 3: the search spends a decision's budget (`search_rollouts` per candidate) by successive halving
  (`workbench/play/search.py`): rounds in which every candidate still in gets the same rollouts in the same
  sampled worlds and the better half goes on, a tie keeping greedy's row. Search results change, so the engine
  version does; greedy and random play exactly as before (golden trace and both digests unchanged).
"""

from workbench.rulesets.base import Ruleset
from workbench.rulesets.circles.cards import CARD_MODELS
from workbench.rulesets.circles.costs import check_cards, stat_budget
from workbench.rulesets.circles.decks import check_deck
from workbench.rulesets.circles.options import OPTIONS

RULESET = Ruleset(
    id="circles",
    title="Resource-circle game",
    version="1.0",
    document="004_b8b5d3e79d7316c5.txt",
    card_models=CARD_MODELS,
    check_cards=check_cards,
    check_deck=check_deck,
    stat_budget=stat_budget,
    options=OPTIONS,
    header_aliases={
        "colour": "color",
        "atk": "attack",
        "hp": "health",
        "ability": "abilities",
        "special abilities": "abilities",
    },
    signature_columns=frozenset({"red", "blue", "green", "health"}),
    cost_fields=("red", "blue", "green"),
    engine_module="workbench.rulesets.circles.engine",
)
