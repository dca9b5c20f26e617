"""Decks page: decklists pasted, uploaded, built or read from the workbook's Decks sheet; their findings, cost curve
and exact draw odds; a saved workbook reopens with its decks."""

from __future__ import annotations

import pytest
from app.app_helpers import (
    SOULS_DECKS,
    SOULS_SMALL,
    chart_figure,
    first_bundled,
    go,
    new_app,
    open_bundled,
    shown_text,
    upload_cardset,
    workspace,
)
from streamlit.testing.v1 import AppTest

from workbench.app import DECKS
from workbench.draw_odds import odds_by_turn
from workbench.rulesets import RULESETS


def _decks_on_souls_small() -> AppTest:
    return go(upload_cardset(new_app(), SOULS_SMALL), DECKS)


def _paste(at: AppTest, name: str, text: str) -> AppTest:
    at.text_input(key="deck_paste_name").set_value(name)
    at.text_area(key="deck_paste_text").set_value(text)
    at.run()
    at.button(key="deck_add_pasted").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_pasted_decklist_with_an_unknown_name_gets_a_finding_with_suggestions() -> None:
    at = _paste(_decks_on_souls_small(), "typo", "# my deck\n10 Ember Imp\n10 Marsh Lurkr\n10 Gale Archer\n")
    assert "Added the decklist 'typo'." in shown_text(at)
    assert at.selectbox(key="deck_shown").value == "typo"
    findings = at.dataframe[0].value
    unknown = findings[findings["rule"] == "souls.unknown_card"].iloc[0]
    assert (unknown["card"], int(unknown["row"]), unknown["column"]) == ("Marsh Lurkr", 3, "name")
    assert "Marsh Lurker" in unknown["message"] and "Marsh Lurker" in str(unknown["expected"])


def test_a_legal_decklist_has_no_findings_and_shows_its_cost_curve() -> None:
    at = _paste(_decks_on_souls_small(), "aggro", (SOULS_DECKS / "aggro.txt").read_text())
    assert "No findings: the deck keeps every construction rule." in shown_text(at)
    assert "main: 30 cards" in shown_text(at)
    curve = chart_figure(at)["data"][0]
    assert dict(zip(curve["x"], curve["y"], strict=True)) == {0.0: 6, 1.0: 5, 2.0: 10, 3.0: 4}
    assert "Not on the soul cost axis: Healing Rain, Snare Pit." in shown_text(at)


def test_uploading_a_decklist_file_adds_it_and_an_unreadable_one_is_refused() -> None:
    at = _decks_on_souls_small()
    at.radio(key="deck_add_method").set_value("Upload a file")
    at.run()
    at.file_uploader(key="deck_upload").set_value(("wall.txt", (SOULS_DECKS / "wall.txt").read_bytes(), "text/plain"))
    at.run()
    assert workspace(at).decks["wall"].origin == "uploaded"
    assert at.selectbox(key="deck_shown").value == "wall"
    at.file_uploader(key="deck_upload").set_value(("bad.csv", b"card,qty\nEmber Imp,2\n", "text/csv"))
    at.run()
    assert "needs a 'name' column" in shown_text(at) and "bad" not in workspace(at).decks


def test_a_deck_built_from_picks_and_counts() -> None:
    at = _decks_on_souls_small()
    at.radio(key="deck_add_method").set_value("Pick cards and counts")
    at.run()
    at.multiselect(key="deck_pick_cards").set_value(["Ember Imp", "Stone Warden"])
    at.run()
    at.number_input(key="deck_pick_count:Ember Imp").set_value(4)
    at.number_input(key="deck_pick_count:Stone Warden").set_value(2)
    at.text_input(key="deck_pick_name").set_value("tiny")
    at.run()
    at.button(key="deck_add_built").click()
    at.run()
    assert workspace(at).decks["tiny"].text == "4 Ember Imp\n2 Stone Warden\n"
    assert "main: 6 cards" in shown_text(at)
    deck_size = next(f for f in at.dataframe[0].value.itertuples() if f.rule == "souls.deck_size")
    assert "30" in deck_size.expected and deck_size.actual == "6"


def test_draw_odds_are_the_exact_hypergeometric_figures() -> None:
    at = _paste(_decks_on_souls_small(), "aggro", (SOULS_DECKS / "aggro.txt").read_text())
    at.selectbox(key="draw_card").set_value("Gale Archer")
    at.number_input(key="draw_turns").set_value(4)
    at.checkbox(key="draw_first").uncheck()
    at.run()
    table = next(frame.value for frame in at.dataframe if "cards seen" in frame.value.columns)
    expected = odds_by_turn(30, 5, 4, opening_hand=5, draws_per_turn=1, draw_on_first_turn=False)
    assert table["cards seen"].tolist() == [row.seen for row in expected]
    assert table["exact"].tolist() == [str(row.probability) for row in expected]
    at.radio(key="draw_mode").set_value("a card of a chosen cost")
    at.run()
    at.selectbox(key="draw_cost").set_value(2.0)
    at.run()
    table = next(frame.value for frame in at.dataframe if "cards seen" in frame.value.columns)
    assert table["exact"].tolist()[0] == str(odds_by_turn(30, 10, 1, 5, 1, False)[0].probability)


def test_a_draw_odds_count_out_of_range_is_named_and_no_stale_odds_are_shown() -> None:
    at = _paste(_decks_on_souls_small(), "aggro", (SOULS_DECKS / "aggro.txt").read_text())
    at.selectbox(key="draw_card").set_value("Gale Archer")
    at.number_input(key="draw_wanted").set_value(9)  # Gale Archer has 5 copies
    at.run()
    assert not at.exception
    assert any("At least: 9 is outside the limit, 1 to 5" in error.value for error in at.error)
    assert not any("cards seen" in frame.value.columns for frame in at.dataframe)
    at.number_input(key="draw_wanted").set_value(2)
    at.run()
    assert not at.error
    table = next(frame.value for frame in at.dataframe if "cards seen" in frame.value.columns)
    assert table["exact"].tolist() == [str(row.probability) for row in odds_by_turn(30, 5, 8, 5, 1, True, 2)]


def test_editing_and_removing_a_decklist() -> None:
    at = _paste(_decks_on_souls_small(), "aggro", "3 Ember Imp\n")
    key = f"deck_text:{workspace(at).uid}:aggro"
    at.text_area(key=key).set_value("3 Ember Imp\n2 Bog Wraith\n")
    at.run()
    next(b for b in at.button if b.label == "Save decklist changes").click()
    at.run()
    assert "main: 5 cards" in shown_text(at)
    at.button(key="deck_remove").click()
    at.run()
    assert "aggro" not in workspace(at).decks and "No decklists yet" in shown_text(at)


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_each_bundled_decklist_reads_without_errors(ruleset_id: str) -> None:
    path = first_bundled(ruleset_id)
    assert path is not None, f"cardsets/{ruleset_id} has no sample set"
    at = go(open_bundled(new_app(), path), DECKS)
    for name in workspace(at).decks:
        at.selectbox(key="deck_shown").set_value(name)
        at.run()
        assert not at.exception and "✖ 0 errors" in shown_text(at), name


# Decks in the workbook: a Decks sheet opens as the session's decklists, and a save writes them back -------------


def _souls_small_workbook(deck_rows: list[list[object]]) -> bytes:
    """souls_small.csv's cards in a Cards sheet, and a Decks sheet of `deck_rows` (header first)."""
    import csv
    import io

    import openpyxl

    workbook = openpyxl.Workbook()
    cards = workbook.active
    cards.title = "Cards"
    with SOULS_SMALL.open(encoding="utf-8", newline="") as handle:
        for row in csv.reader(handle):
            cards.append(row)
    decks = workbook.create_sheet("Decks")
    for deck_row in deck_rows:
        decks.append(deck_row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _aggro_rows() -> list[list[object]]:
    """The aggro decklist as Decks sheet rows (no header)."""
    rows: list[list[object]] = []
    for line in (SOULS_DECKS / "aggro.txt").read_text(encoding="utf-8").splitlines():
        count, _, name = line.strip().partition(" ")
        if count.isdigit():
            rows.append(["aggro", int(count), name])
    return rows


def test_an_uploaded_workbook_opens_with_the_decks_of_its_decks_sheet() -> None:
    rows: list[list[object]] = [
        ["deck", "count", "name"],
        *_aggro_rows(),
        ["wall", 4, "Stone Wardn"],
        [None, 2, "Ember Imp"],
    ]
    at = upload_cardset(new_app(), data=_souls_small_workbook(rows), name="small.xlsx")
    assert "Opened small.xlsx as a souls card set." in shown_text(at)
    opened = workspace(at)
    assert list(opened.decks) == ["aggro", "wall"]
    assert {source.origin for source in opened.decks.values()} == {"workbook"}
    go(at, DECKS)
    assert at.selectbox(key="deck_shown").value == "aggro"
    assert at.selectbox(key="deck_shown").format_func("aggro") == "aggro (from the workbook's Decks sheet)"
    assert "main: 30 cards" in shown_text(at) and "From the Decks sheet of small.xlsx, rows 2 to" in shown_text(at)
    # The row with no deck name is the sheet's own finding, shown above the decks.
    sheet_findings = at.dataframe[0].value
    (stray,) = sheet_findings.itertuples()
    assert (stray.rule, int(stray.row), stray.column) == ("souls.deck_line", len(rows), "deck")
    assert stray.message == "this row has no deck name, so it belongs to no deck."
    at.selectbox(key="deck_shown").set_value("wall")
    at.run()
    deck_findings = at.dataframe[1].value
    unknown = deck_findings[deck_findings["rule"] == "souls.unknown_card"].iloc[0]
    assert (unknown["card"], int(unknown["row"]), unknown["column"]) == ("Stone Wardn", len(rows) - 1, "name")
    assert "Stone Warden" in unknown["message"] and str(unknown["expected"]).startswith("Stone Warden")


def test_a_workbook_deck_edited_as_text_keeps_its_edit() -> None:
    at = upload_cardset(
        new_app(), data=_souls_small_workbook([["deck", "count", "name"], *_aggro_rows()]), name="s.xlsx"
    )
    go(at, DECKS)
    key = f"deck_text:{workspace(at).uid}:aggro"
    shown = at.text_area(key=key).value
    assert shown is not None and shown.startswith("6 Ember Imp\n")
    at.text_area(key=key).set_value("3 Ember Imp\n2 Bog Wraith\n")
    at.run()
    next(b for b in at.button if b.label == "Save decklist changes").click()
    at.run()
    assert "main: 5 cards" in shown_text(at)
    source = workspace(at).decks["aggro"]
    assert source.sheet_deck is None and source.text == "3 Ember Imp\n2 Bog Wraith\n" and source.origin == "workbook"


def test_a_saved_workbook_reopens_with_the_sessions_decks_and_the_balance_page_has_them() -> None:
    """Open a bundled set, add a deck, save as xlsx (what the editor's Save button downloads), upload the saved file."""
    from workbench.app import BALANCE
    from workbench.app.workspace import workspace_xlsx_bytes

    path = first_bundled("souls")
    assert path is not None
    rush = (path.parent / "decks" / "ember_rush.txt").read_text(encoding="utf-8")
    at = _paste(go(open_bundled(new_app(), path), DECKS), "my rush", rush.replace("4 Cinder Whelp", "3 Cinder Whelp"))
    before = workspace(at)
    names = list(before.decks)
    assert names[-1] == "my rush" and len(names) == 4
    saved = workspace_xlsx_bytes(before)
    at = upload_cardset(at, data=saved, name=f"{path.stem}.xlsx")
    after = workspace(at)
    assert after.uid != before.uid and list(after.decks) == names
    assert len(after.sheet.frame) == len(before.sheet.frame)
    go(at, BALANCE)
    assert "Add decklists with cards on the Decks page first." not in shown_text(at)
    assert at.multiselect(key="balance_decks").options == names
    go(at, DECKS)
    at.selectbox(key="deck_shown").set_value("my rush")
    at.run()
    assert "main: 29 cards" in shown_text(at)
