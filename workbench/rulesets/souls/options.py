"""The souls rule-options ledger: every reading of an unclear rule, its default and its quote."""

from workbench.rulesets.base import RuleOption

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        key="strict_costs",
        default=False,
        reading="A soul cost that differs from the table is a warning; with this on it is an error.",
        quote="Rules of Thumb / Souls cost (# sacrifices req.)",
    ),
    RuleOption(
        key="element_counts_as_powerful",
        default=True,
        reading=(
            "A card that applies an element counts as having a powerful effect (+1 soul cost) even when its "
            "effect_weight cell is empty; an explicit 'detrimental' still applies its -1."
        ),
        quote="Increases by 1 if it has a powerful effect like elemental application",
    ),
    RuleOption(
        key="check_spell_costs",
        default=False,
        reading=(
            "The table prices Atk + Def, so it is checked on monsters; magic and trap cards are checked only "
            "with this on (and only when both Atk and Def are filled in)."
        ),
        quote="(Soul Cost) Atk / Def ... Soul Cost == required number of sacrifices to summon",
    ),
)
