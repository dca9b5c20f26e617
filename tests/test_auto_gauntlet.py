"""The auto gauntlet: decks built at random from a set under its own deck rules, and power curves that measure every
card in each of them; verdicts compared across policies and gauntlets, the cards whose verdict differs first."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from toy_engine import POWER_OTHER, POWER_REFERENCE, POWER_ROWS, POWER_TITAN, TOY, toy_ruleset

from workbench import cli
from workbench.analysis import PowerCurve, power_curve
from workbench.auto_decks import AUTO_DECKS_MAX, GauntletChoice, build_auto_decks, decklist_of, parse_gauntlet
from workbench.cards import CardSet, Deck, Finding, WorkbenchInputError
from workbench.decklists import parse_decklist, set_decks
from workbench.loading import load_cardset
from workbench.run_settings import RunSettings
from workbench.simulate import Rate
from workbench.verdicts import RunKey, VerdictRuns, parse_policies, power_curve_runs

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted(ROOT.glob("cardsets/*/*.csv"))

ROWS = [*POWER_ROWS, POWER_TITAN]
REFERENCE, OTHER = POWER_REFERENCE, POWER_OTHER


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.parent.name)
def test_every_auto_deck_of_a_bundled_set_passes_its_rulesets_deck_check(path: Path) -> None:
    cardset = load_cardset(path)
    templates = set_decks(cardset, path.parent / "decks").decks
    options = cardset.ruleset.resolve_options()
    decks = build_auto_decks(cardset, templates, 8, seed=0, options=options)
    assert [deck.name for deck in decks] == [f"auto {i}" for i in range(1, 9)]
    for deck in decks:
        # Read back from its own decklist text, as a designer who saves it would.
        again = parse_decklist(decklist_of(deck), cardset, name=deck.name)
        errors = [
            f
            for f in [*again.load_findings, *cardset.ruleset.check_deck(cardset, again, options)]
            if f.severity == "error"
        ]
        assert errors == [], f"{deck.name}: {[f.to_text() for f in errors]}"
    # Auto decks spread over the set: most cards of the kinds the hand-made decks hold are in at least one of them.
    kinds = {line.entry.card.kind for deck in templates for line in deck.lines if line.entry}
    eligible = {entry.card.name for entry in cardset.entries if entry.card.kind in kinds}
    held = {line.entry.card.name for deck in decks for line in deck.lines if line.entry}
    assert len(held & eligible) >= 0.85 * len(eligible)


def test_the_same_seed_builds_the_same_decks_and_another_seed_other_decks() -> None:
    path = ROOT / "cardsets/circles/circle_starter.csv"
    cardset = load_cardset(path)
    templates = set_decks(cardset, path.parent / "decks").decks
    options = cardset.ruleset.resolve_options()

    def texts(seed: int) -> list[str]:
        return [decklist_of(deck) for deck in build_auto_decks(cardset, templates, 4, seed, options)]

    assert texts(7) == texts(7)
    assert texts(7) != texts(8)


def test_auto_decks_keep_a_rule_the_ruleset_states_only_in_its_deck_check(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    """A rule no builder knows (here: at most 3 copies of a card, and never Titan) holds in every auto deck,
    because each step is checked by the ruleset's own deck check."""

    def at_most_three_and_no_titan(cardset: CardSet, deck: Deck, options: object) -> list[Finding]:
        counts = Counter[str]()
        for line in deck.lines:
            if line.entry is not None:
                counts[line.entry.card.name] += line.count
        return [
            Finding("error", "toy.copies", f"{name}: {count} copies", card=name, deck=deck.name)
            for name, count in counts.items()
            if count > 3 or name == "Titan"
        ]

    ruleset = toy_ruleset(check_deck=at_most_three_and_no_titan)
    cardset = make_cardset(ruleset, ROWS)
    template = make_deck(cardset, "3 Filler\n3 Cheap\n3 Mid\n3 Big", name="legal")
    decks = build_auto_decks(cardset, [template], 12, seed=3, options={})
    for deck in decks:
        assert at_most_three_and_no_titan(cardset, deck, {}) == []
        assert sum(line.count for line in deck.lines) == 12  # the template's size
    assert any("Bargain" in decklist_of(deck) for deck in decks)  # a card no hand-made deck holds gets in


@pytest.mark.parametrize("text", ["auto:0", f"auto:{AUTO_DECKS_MAX + 1}", "auto", "auto:x", "random"])
def test_a_gauntlet_that_is_not_hand_or_auto_n_is_refused_with_what_is_expected(text: str) -> None:
    with pytest.raises(WorkbenchInputError, match="is not a gauntlet") as caught:
        parse_gauntlet(text)
    assert "auto:N" in str(caught.value)
    assert parse_gauntlet("auto:8") == GauntletChoice(8) and parse_gauntlet("hand").auto == 0


def test_an_auto_gauntlet_measures_every_card_in_each_auto_deck_and_says_which(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    cardset = make_cardset(TOY, ROWS)
    decks = [make_deck(cardset, REFERENCE, name="reference"), make_deck(cardset, OTHER, name="other")]
    curve = power_curve(
        cardset, decks, matches_per_card=1_200, gauntlet=GauntletChoice(4), run=RunSettings(seed=2, workers=1)
    )
    autos = [f"auto {i}" for i in range(1, 5)]
    assert curve.meta["reference_decks"] == autos
    assert curve.meta["gauntlet"] == ["reference", "other", *autos]
    assert curve.meta["gauntlet_choice"] == "auto:4"
    assert set(curve.meta["auto_decks"]) == set(autos)
    rows = curve.cards.set_index("card")
    # Per (reference, opponent) pair: ceil(1200 / (4 * 6)) = 50 matches; a card measured in all four auto decks
    # rests on 4 * 6 * 50 matches.
    measured_everywhere = rows[rows["decks"] == 4]
    assert not measured_everywhere.empty
    assert (measured_everywhere["matches"] == 4 * 6 * 50).all()
    assert curve.meta["matches_per_card"] == 4 * 6 * 50
    # The truth of the toy: Titan cannot be afforded (cost 11 > treasury 10), Bargain is strength 6 at cost 1.
    assert rows.loc["Titan", "flag"] == "rarely played" and rows.loc["Titan", "played"] == 0
    assert rows.loc["Bargain", "flag"] == "over"
    again = power_curve(
        cardset, decks, matches_per_card=1_200, gauntlet=GauntletChoice(4), run=RunSettings(seed=2, workers=1)
    )
    pd.testing.assert_frame_equal(curve.cards, again.cards)


def test_a_policy_that_changes_nothing_changes_no_verdict(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck]
) -> None:
    """The toy engine plays the same whatever the policy: on the same seed every verdict must agree."""
    cardset = make_cardset(TOY, ROWS)
    decks = [make_deck(cardset, REFERENCE, name="reference"), make_deck(cardset, OTHER, name="other")]
    runs = power_curve_runs(
        cardset, decks, ["greedy", "random"], matches_per_card=600, run=RunSettings(seed=4, workers=1)
    )
    assert runs.labels == ["greedy", "random"]
    assert runs.sensitive_cards() == []
    assert runs.statement().startswith("Every card's verdict is the same under each policy")
    table = runs.comparison()
    assert (table["flag · greedy"] == table["flag · random"]).all()


# Where each flag places a card against its band (power minus band), measured to ±0.01: far enough apart that two
# different flags differ beyond the matches' noise.
PLACES = {"over": 0.2, "under": -0.2, "on curve": 0.0, "rarely played": 0.1, "baseline": 0.0, "undecided": 0.03}


def _curve(flags: dict[str, str], places: dict[str, float] | None = None) -> PowerCurve:
    cards = pd.DataFrame(
        [
            {
                "card": name,
                "cost": float(i),
                "power": (places or {}).get(name, PLACES[flag]),
                "low": (places or {}).get(name, PLACES[flag]) - 0.0196,
                "high": (places or {}).get(name, PLACES[flag]) + 0.0196,
                "flag": flag,
            }
            for i, (name, flag) in enumerate(flags.items())
        ]
    )
    return PowerCurve(cards, pd.DataFrame(), 0.0, 0.0, Rate.of(0.0, 1))


def test_the_comparison_lists_cards_whose_verdict_differs_first_and_says_which_way() -> None:
    greedy, random = RunKey("greedy", GauntletChoice()), RunKey("random", GauntletChoice())
    runs = VerdictRuns(
        {
            "greedy": (
                greedy,
                _curve({"Steady": "on curve", "Swingy": "over", "Filler": "baseline", "Late": "rarely played"}),
            ),
            "random": (
                random,
                _curve({"Steady": "on curve", "Swingy": "on curve", "Filler": "on curve", "Late": "under"}),
            ),
        }
    )
    table = runs.comparison()
    assert table["card"].tolist()[:2] == ["Swingy", "Late"]  # sensitive first, then by cost
    why = table.set_index("card")["why"]
    assert why["Swingy"] == "policy-sensitive: over under greedy, on curve under random"
    assert why["Late"] == "policy-sensitive: rarely played under greedy, under under random"
    assert why["Filler"] == ""  # baseline is no verdict: it differs from nothing
    assert runs.sensitive_cards() == ["Swingy", "Late"]


def test_labels_that_differ_within_the_matches_noise_are_not_sensitive() -> None:
    """Issue 29: a card called over in one run and undecided in another while its place against its band moved by
    less than the joint interval is seed noise, not a property of the policy."""
    greedy, random = RunKey("greedy", GauntletChoice()), RunKey("random", GauntletChoice())
    runs = VerdictRuns(
        {
            "greedy": (greedy, _curve({"Edge": "over"}, {"Edge": 0.035})),
            "random": (random, _curve({"Edge": "undecided"}, {"Edge": 0.030})),
        }
    )
    assert runs.sensitive_cards() == []
    assert runs.comparison().loc[0, "why"] == ""


def test_the_same_difference_under_every_policy_is_said_once() -> None:
    keys = {
        "greedy, hand": RunKey("greedy", GauntletChoice()),
        "greedy, auto:4": RunKey("greedy", GauntletChoice(4)),
        "random, hand": RunKey("random", GauntletChoice()),
        "random, auto:4": RunKey("random", GauntletChoice(4)),
    }
    flags = {
        "greedy, hand": "under",
        "greedy, auto:4": "on curve",
        "random, hand": "under",
        "random, auto:4": "on curve",
    }
    runs = VerdictRuns({label: (key, _curve({"Sprite": flags[label]})) for label, key in keys.items()})
    assert runs.comparison().loc[0, "why"] == (
        "gauntlet-sensitive: under with the hand-made decks, "
        "on curve with the hand-made + 4 auto decks (under every policy)"
    )


def test_unknown_policies_are_refused_naming_the_engines_own() -> None:
    cardset = load_cardset(ROOT / "cardsets/souls/ashfall.csv")
    assert parse_policies("greedy, random", cardset) == ["greedy", "random"]
    with pytest.raises(WorkbenchInputError, match=r"'greedy,bold' is not a list of souls policies \(bold unknown\)"):
        parse_policies("greedy,bold", cardset)


def test_power_curve_command_compares_policies_and_gauntlets(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "cardsets/circles/circle_starter.csv"
    code = cli.main(
        [
            "power-curve",
            str(path),
            "--policy",
            "greedy,random",
            "--gauntlet",
            "auto:2",
            "--matches-per-card",
            "120",
            "--workers",
            "1",
            "--format",
            "json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    labels = [run["label"] for run in out["runs"]]
    assert labels == ["greedy, hand", "greedy, auto:2", "random, hand", "random, auto:2"]
    assert [run["gauntlet_choice"] for run in out["runs"]] == ["hand", "auto:2", "hand", "auto:2"]
    assert all(run["seed"] == 0 for run in out["runs"])
    rows = out["comparison"]
    assert len(rows) == len(out["runs"][0]["cards"])
    flags = [row["sensitive"] for row in rows]
    assert flags == sorted(flags, reverse=True)  # sensitive cards first
    assert out["sensitive"] == [row["card"] for row in rows if row["sensitive"]]
    assert set(out["runs"][1]["auto_decks"]) == {"auto 1", "auto 2"}


def test_a_report_compares_the_verdicts_and_lists_the_auto_decks(
    make_cardset: Callable[..., CardSet], make_deck: Callable[..., Deck], tmp_path: Path
) -> None:
    import html

    import openpyxl

    from workbench.report_html import render_html
    from workbench.reports import build_report, write_report

    cardset = make_cardset(TOY, ROWS)
    decks = [make_deck(cardset, REFERENCE, name="reference"), make_deck(cardset, OTHER, name="other")]
    report = build_report(
        cardset,
        decks,
        matches_per_card=240,
        matches=100,
        also_policies=["random"],
        gauntlet=GauntletChoice(2),
        run=RunSettings(seed=6, workers=1),
    )
    assert report.verdicts is not None
    assert report.verdicts.labels == ["greedy, hand", "greedy, auto:2", "random, hand", "random, auto:2"]
    assert report.power is report.verdicts.curve("greedy, auto:2")  # the report's policy, the gauntlet asked for
    page = render_html(report)
    assert "<h2>Verdicts per policy and gauntlet</h2>" in page and html.escape(report.verdicts.statement()) in page
    assert page.count("<details><summary>auto ") == 2
    assert "in each of the 2 auto decks, against the gauntlet" in " ".join(page.split())
    workbook = openpyxl.load_workbook(write_report(report, tmp_path / "report.xlsx"))
    verdicts = list(workbook["Verdicts"].iter_rows(values_only=True))
    assert verdicts[0][:3] == ("card", "cost", "flag · greedy, hand")
    assert [row[0] for row in verdicts[1:]] == report.verdicts.comparison()["card"].tolist()
    lines = [row for row in workbook["Auto decks"].iter_rows(min_row=2, values_only=True)]
    assert {deck for deck, _ in lines} == {"auto 1", "auto 2"}
