"""Power curves run several ways at once, and the cards whose verdict depends on the way.

A verdict (over, under, on curve, rarely played) is only worth acting on when it does not hinge on how the matches
were played. `power_curve_runs` runs the same set, decks and seed under each asked policy (greedy, random, and any
policy an engine adds later, without a change here or in a page) and, with an auto gauntlet, with the hand-made
decks alone and with the auto decks added. `VerdictRuns.comparison` puts each card's verdicts side by side, the cards
whose verdict differs first, each with a sentence such as "policy-sensitive: over under greedy, on curve under
random".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from workbench.analysis import BASELINE, POWER_CURVE_DEFAULTS, PowerCurve, power_curve
from workbench.auto_decks import HAND_MADE, GauntletChoice
from workbench.cards import CardSet, Deck, WorkbenchInputError
from workbench.judging import Z95, VerdictRule
from workbench.play.policies import is_policy
from workbench.run_settings import RunSettings
from workbench.simulate import engine_for

POLICIES_MAX = 4
"""The most policies one run may compare (each one is a whole power curve)."""


@dataclass(frozen=True)
class RunKey:
    """What one power curve of a comparison was played with."""

    policy: str
    """Both sides' play policy."""
    gauntlet: GauntletChoice
    """The hand-made decks alone, or with auto decks added."""


@dataclass(frozen=True)
class VerdictRuns:
    """Several power curves of one set, decks and seed, and the comparison of their verdicts."""

    runs: dict[str, tuple[RunKey, PowerCurve]]
    """Label (as a table shows it) -> what the run was played with, and its power curve; in run order."""

    @property
    def labels(self) -> list[str]:
        """The run labels, in run order."""
        return list(self.runs)

    def curve(self, label: str) -> PowerCurve:
        """The power curve of one run."""
        return self.runs[label][1]

    def label_of(self, key: RunKey) -> str:
        """The label of the run played with `key`."""
        return next(label for label, (run_key, _) in self.runs.items() if run_key == key)

    def comparison(self) -> pd.DataFrame:
        """One row per card: its cost, then per run `flag · LABEL`, `power · LABEL`, `position · LABEL` (power minus
        its band, or its power where it has no band) and `position sd · LABEL`, then `sensitive` (True when the
        verdicts differ beyond the matches' noise) and `why` (which way they differ, in words). Sensitive cards
        first, then by cost."""
        frames = []
        for label, (_, curve) in self.runs.items():
            cards = curve.cards.set_index("card")
            excess = cards["excess"] if "excess" in cards else pd.Series([None] * len(cards), index=cards.index)
            excess_sd = cards.get("excess_sd", excess)
            own_se = cards["se"] if "se" in cards else (cards["high"] - cards["low"]) / (2 * Z95)
            # Where a verdict is placed: power minus its band with that figure's standard error, or the power and
            # its own where the card has no band (a baseline, no comparator).
            position = pd.DataFrame(
                {
                    f"position · {label}": [
                        e if e is not None and e == e else p for e, p in zip(excess, cards["power"], strict=True)
                    ],
                    f"position sd · {label}": [
                        sd if sd is not None and sd == sd else card_se
                        for sd, card_se in zip(excess_sd, own_se, strict=True)
                    ],
                },
                index=cards.index,
            )
            frames.append(
                cards[["flag", "power"]].rename(columns={"flag": f"flag · {label}", "power": f"power · {label}"})
            )
            frames.append(position)
        costs = next(iter(self.runs.values()))[1].cards.set_index("card")["cost"]
        table = pd.concat([costs, *frames], axis=1).reset_index(names="card")
        whys = [self._why(row) for row in table.to_dict(orient="records")]
        table["sensitive"] = [bool(why) for why in whys]
        table["why"] = whys
        return table.sort_values(["sensitive", "cost", "card"], ascending=[False, True, True]).reset_index(drop=True)

    def sensitive_cards(self) -> list[str]:
        """The cards whose verdict differs between runs, in the comparison's order."""
        table = self.comparison()
        return table.loc[table["sensitive"], "card"].tolist()

    def statement(self) -> str:
        """One sentence on how many verdicts hinge on the policy or the gauntlet."""
        sensitive = self.sensitive_cards()
        ways = " and ".join(self._axes()) or "run"
        if not sensitive:
            return f"Every card's verdict is the same under each {ways}: {', '.join(self.labels)}."
        shown = ", ".join(sensitive[:8]) + (f" and {len(sensitive) - 8} more" if len(sensitive) > 8 else "")
        return (
            f"{len(sensitive)} of {len(self.comparison())} cards get a different verdict under another {ways} "
            f"({shown}): "
            "treat their verdicts as a property of how the game is played, not of their cost alone."
        )

    def _differs_beyond_noise(self, row: Mapping[Any, object]) -> bool:
        """True when two runs place the card against its band further apart than their joint 95% interval."""
        places = []
        for label in self.runs:
            value, sd = row.get(f"position · {label}"), row.get(f"position sd · {label}")
            if isinstance(value, (int, float)) and isinstance(sd, (int, float)) and value == value and sd == sd:
                places.append((float(value), float(sd)))
        return any(
            abs(a - b) > Z95 * math.sqrt(sa**2 + sb**2) for k, (a, sa) in enumerate(places) for b, sb in places[k + 1 :]
        )

    def _axes(self) -> list[str]:
        keys = [key for key, _ in self.runs.values()]
        axes = []
        if len({key.policy for key in keys}) > 1:
            axes.append("policy")
        if len({key.gauntlet for key in keys}) > 1:
            axes.append("gauntlet")
        return axes

    def _why(self, row: Mapping[Any, object]) -> str:
        """Which way a card's verdict differs: per policy (same gauntlet), per gauntlet (same policy); empty if not.
        `baseline` is no verdict (it only says which card was the filler in that run), so it differs from nothing.
        Labels that differ are not enough: the card's place against its band (power minus band) must differ between
        two of the runs beyond their joint 95% interval, else the difference is the matches' noise."""
        if not self._differs_beyond_noise(row):
            return ""
        flags = {label: row.get(f"flag · {label}") for label in self.runs}
        keys = {label: key for label, (key, _) in self.runs.items()}
        axes = (
            ("policy", lambda k: k.gauntlet, lambda k: f"under {k.policy}", lambda k: f"with the {k.gauntlet.title}"),
            ("gauntlet", lambda k: k.policy, lambda k: f"with the {k.gauntlet.title}", lambda k: f"under {k.policy}"),
        )
        parts = []
        for axis, same, words, context in axes:
            groups: dict[object, list[str]] = {}
            for label, key in keys.items():
                groups.setdefault(same(key), []).append(label)
            said: list[tuple[str, str]] = []
            for labels in groups.values():
                judged = [label for label in labels if isinstance(flags[label], str) and flags[label] != BASELINE]
                if len({flags[label] for label in judged}) > 1:
                    said.append(
                        (
                            ", ".join(f"{flags[label]} {words(keys[label])}" for label in judged),
                            context(keys[labels[0]]),
                        )
                    )
            if not said:
                continue
            if len(groups) == 1:
                parts.append(f"{axis}-sensitive: {said[0][0]}")
            elif len(said) == len(groups) and len({text for text, _ in said}) == 1:
                # The same difference whatever the other axis is: say it once.
                every = "under every policy" if axis == "gauntlet" else "with every gauntlet"
                parts.append(f"{axis}-sensitive: {said[0][0]} ({every})")
            else:
                parts.append(f"{axis}-sensitive: " + "; ".join(f"{text} ({where})" for text, where in said))
        return "; ".join(parts)


def parse_policies(text: str, cardset: CardSet) -> list[str]:
    """A comma-separated list of policies (`greedy,random`), each checked against the set's engine."""
    policies = list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    engine = engine_for(cardset)
    known = list(engine.policies)
    unknown = [policy for policy in policies if not is_policy(policy, known, engine.search_settings)]
    if not policies or unknown or len(policies) > POLICIES_MAX:
        raise WorkbenchInputError(
            f"'{text}' is not a list of {cardset.ruleset_id} policies"
            + (f" ({', '.join(unknown)} unknown)" if unknown else "")
            + ".",
            expected=f"one to {POLICIES_MAX} of {', '.join(known)}, separated by commas, e.g. {','.join(known[:2])}",
        )
    return policies


def power_curve_runs(
    cardset: CardSet,
    decks: Sequence[Deck],
    policies: Sequence[str],
    gauntlet: GauntletChoice = HAND_MADE,
    matches_per_card: int = POWER_CURVE_DEFAULTS.matches_per_card,
    run: RunSettings = RunSettings(),
    *,
    min_play_share: float = POWER_CURVE_DEFAULTS.min_play_share,
    rule: VerdictRule = VerdictRule(),
) -> VerdictRuns:
    """One power curve per policy, on the same decks and seed; with an auto gauntlet, each policy also with the
    hand-made decks alone, so the verdicts of the two gauntlets can be compared. `run.policy` is not read: each run
    plays its own policy of `policies`. Every run decides its verdicts with the same `rule` (tolerance,
    false-discovery rate, resamples; `workbench.judging`)."""
    progress = run.progress
    gauntlets = [HAND_MADE, gauntlet] if gauntlet.auto else [HAND_MADE]
    keys = [RunKey(policy, choice) for policy in policies for choice in gauntlets]
    runs: dict[str, tuple[RunKey, PowerCurve]] = {}
    for index, key in enumerate(keys):

        def run_progress(done: int, total: int, index: int = index) -> None:
            if progress:
                progress(index * total + done, len(keys) * total)

        curve = power_curve(
            cardset,
            decks,
            matches_per_card,
            replace(run, policy=key.policy, progress=run_progress),
            min_play_share=min_play_share,
            gauntlet=key.gauntlet,
            rule=rule,
        )
        runs[_label(key, len(policies) > 1, len(gauntlets) > 1)] = (key, curve)
    return VerdictRuns(runs)


def _label(key: RunKey, by_policy: bool, by_gauntlet: bool) -> str:
    if by_policy and by_gauntlet:
        return f"{key.policy}, {key.gauntlet.label}"
    if by_gauntlet:
        return key.gauntlet.label
    return key.policy
