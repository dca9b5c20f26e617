"""The soul-cost game (shared/seeds/003_f567fae1ae457321.txt).

Rules summary: cards have Atk/Def and a soul cost, the number of your cards
sacrificed to summon them. The document's rule of thumb fixes the soul cost by
Atk + Def (<=5 -> 0, <=10 -> 1, <=14 -> 2, <=17 -> 3, <=20 -> 4, <=22 -> 5,
>22 -> 6+), +1 for a powerful effect, -1 for a detrimental one. Abilities:
Atk, Effect, Support, Ranged X, Mobile, Equip.

Options: see `options.py` (strict_costs, element_counts_as_powerful,
check_spell_costs).

Version history:
- 1.0: cost table, ability names.
"""

from workbench.rulesets.base import Ruleset
from workbench.rulesets.souls.cards import CARD_MODELS
from workbench.rulesets.souls.costs import check_cards, stat_budget
from workbench.rulesets.souls.decks import check_deck
from workbench.rulesets.souls.options import OPTIONS

RULESET = Ruleset(
    id="souls",
    title="Soul-cost game",
    version="1.0",
    document="003_f567fae1ae457321.txt",
    card_models=CARD_MODELS,
    check_cards=check_cards,
    check_deck=check_deck,
    stat_budget=stat_budget,
    options=OPTIONS,
    header_aliases={"def": "defense", "defence": "defense", "attack": "atk", "soul": "soul_cost", "cost": "soul_cost"},
    column_headers={"defense": "def"},
    signature_columns=frozenset({"soul_cost", "atk", "defense"}),
)
