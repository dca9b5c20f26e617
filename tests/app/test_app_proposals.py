"""Balance page, *Patch proposals* tab: settings, Run with progress, the proposals that held up in the proof run (patch
notes, verdicts before and after with intervals, the workbook download) and the ones that did not with their reason;
*Apply as a new version* changes the open set and keeps the set as it stood for the Compare versions page.

The toy game (tests/toy_engine.py) on tests/app/data/toy_planted.csv: honest cards cost half their strength, and
three are planted out of balance (Planted over, Dud and Dim under), as in tests/test_propose.py."""

from __future__ import annotations

import io

import openpyxl
import pytest
from app.app_helpers import DATA, go, new_app, shown_text, upload_cardset, workspace
from streamlit.testing.v1 import AppTest
from toy_engine import TOY

from workbench.app import BALANCE, DECKS, VERSIONS
from workbench.app.workspace import RESULTS_KEY, current_cardset
from workbench.propose import Proposals, proposal_workbook
from workbench.rulesets import RULESETS

REFERENCE = "6 Filler\n2 Spark\n2 Knight\n2 Giant"
OTHER = "4 Filler\n4 Ember\n4 Titan"


def _proposals_tab(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setitem(RULESETS, "toy", TOY)
    at = upload_cardset(new_app(), DATA / "toy_planted.csv", ruleset="toy")
    go(at, DECKS)
    for name, text in (("reference", REFERENCE), ("other", OTHER)):
        at.text_input(key="deck_paste_name").set_value(name)
        at.text_area(key="deck_paste_text").set_value(text)
        at.run()
        at.button(key="deck_add_pasted").click()
        at.run()
    at = go(at, BALANCE)
    at.session_state["balance_section"] = "Patch proposals"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.number_input(key="proposals_matches").set_value(200)
    at.number_input(key="proposals_evaluations").set_value(8)
    at.number_input(key="proposals_seed").set_value(1)
    at.run()
    return at


def _run(at: AppTest) -> Proposals:
    at.button(key="proposals_run").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    kept = [v for v in at.session_state[RESULTS_KEY].values() if isinstance(v, Proposals)]
    assert kept
    return kept[-1]


def test_a_run_shows_the_offered_proposals_with_their_proof_and_the_refused_with_their_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    at = _proposals_tab(monkeypatch)
    assert "Press Run proposals." in shown_text(at)
    result = _run(at)
    text = shown_text(at)
    assert "Done in" in text
    assert result.offered and result.refused, "the tiny budget on the planted set gives both kinds"
    assert f"Offered ({len(result.offered)})" in text and f"Not offered ({len(result.refused)})" in text
    for proposal in result.offered:
        for note in proposal.patch_notes:
            assert note in text
    for proposal in result.refused:
        assert proposal.statement in text
    # Each offered proposal's verdicts before and after, with their intervals.
    tables = [frame.value for frame in at.dataframe if "power after" in frame.value.columns]
    assert len(tables) == len(result.offered)
    first = tables[0]
    assert {"low before", "high before", "low after", "high after"} <= set(first.columns)
    assert list(first["card"]) == list(result.offered[0].verdicts["card"])
    assert len([b for b in at.button if b.label == "Apply as a new version"]) == len(result.offered)
    # Kept for the session: a rerun shows the result again without running.
    at.run()
    assert "Done in" not in shown_text(at) and f"Offered ({len(result.offered)})" in shown_text(at)


def test_locked_cards_are_never_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _proposals_tab(monkeypatch)
    at.multiselect(key="proposals_locked").set_value(["Dud"])
    at.run()
    result = _run(at)
    assert result.meta["locked_cards"] == ["Dud"]
    changed = {change.card for p in [*result.offered, *result.refused] for change in p.changes}
    assert changed and "Dud" not in changed


def test_apply_makes_a_new_version_that_compare_versions_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _proposals_tab(monkeypatch)
    result = _run(at)
    proposal = result.offered[0]
    before = current_cardset(workspace(at))
    # The download is the proposal's workbook, written from the open set's own file.
    data = proposal_workbook(proposal, before, None, source=workspace(at).source)
    rows = list(openpyxl.load_workbook(io.BytesIO(data))["Cards"].iter_rows(values_only=True))
    costs = {row[0]: row[rows[0].index("cost")] for row in rows[1:]}
    for change in proposal.changes:
        assert float(costs[change.card]) == change.new
    next(b for b in at.button if b.key == "proposal_apply:1").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Proposal 1 was applied as a new version of the set" in shown_text(at)
    now = current_cardset(workspace(at))
    for change in proposal.changes:
        entry = now.find(change.card)
        assert (
            entry is not None and entry.card.model_dump()["cost"] == change.new
        )  # the toy's cost field is its cost axis
    assert len(workspace(at).kept_versions) == 1
    at = go(at, VERSIONS)
    assert at.radio(key="versions_against").value == "kept:0"
    text = shown_text(at)
    assert "before proposal 1 was applied" in text
    for note in proposal.patch_notes:
        assert note in text


def test_the_balance_reports_take_the_proposals_run_for_the_same_cards_along(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a report downloaded from the Balance page holds the session's latest patch proposals for the very
    cards and rule options it simulated, and says so; the stat values of the Stat budget page likewise."""
    at = _proposals_tab(monkeypatch)
    result = _run(at)
    at.session_state["balance_section"] = "Simulation"
    at.run()
    at.number_input(key="balance_matches").set_value(50)
    at.number_input(key="balance_per_card").set_value(50)
    at.run()
    at.button(key="balance_run").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    text = shown_text(at)
    assert "They also hold the patch proposals of the Patch proposals tab" in text
    assert "the stat values measured on the Stat budget page" not in text
    kept = [v for v in at.session_state[RESULTS_KEY].values() if isinstance(v, Proposals)]
    assert kept == [result]
