"""Renames carry through (issue 30): a card renamed in the editor's grid takes the session's decks with it.

The bundled souls set ashfall.csv comes with three decklists that all name Lantern Sprite (ember_rush 3, plague_court
2, stone_bastion 3). Renamed in the grid, every deck names the new name with its count, the Decks page shows
ember_rush at 30 cards with no finding, the change log says which decks followed, and Save as xlsx writes the new
name into the Decks sheet. A rename that cannot be followed (onto another card's name) and a card deleted leave
decks broken: the editor and Card sets pages say so, not only the Decks page.
"""

from __future__ import annotations

import io
from typing import Any

import openpyxl
from app.app_helpers import go, new_app, open_bundled, shown_text, upload_cardset, workspace
from streamlit.testing.v1 import AppTest

from workbench.app import CARD_EDITOR, CARD_SETS, DECKS, VERSIONS
from workbench.app.workspace import workspace_xlsx_bytes
from workbench.paths import REPO_ROOT

ASHFALL = REPO_ROOT / "cardsets" / "souls" / "ashfall.csv"
CINDER_WHELP, LANTERN_SPRITE = 0, 2
"""Grid positions (sheet rows 2 and 4) of two cards ember_rush plays (4 Cinder Whelp, 3 Lantern Sprite)."""
FOLLOW_NOTE = "Lantern Sprite renamed to Glow Wisp; decks ember_rush, plague_court, stone_bastion follow."


def _editor_on_ashfall() -> AppTest:
    return go(open_bundled(new_app(), ASHFALL), CARD_EDITOR)


def _send(at: AppTest, edited: dict[int, dict[str, Any]], deleted: list[int] | None = None) -> AppTest:
    """The grid's whole state, as the browser sends it after an edit, then a page run."""
    key = at.data_editor[0].key
    assert key is not None
    at.session_state[key] = {"edited_rows": edited, "added_rows": [], "deleted_rows": deleted or []}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _deck_errors(at: AppTest) -> str:
    """The 'Decks with errors' box of the page, or '' when there is none."""
    return "\n".join(str(e.value) for e in at.error if "Decks with errors" in str(e.value)).replace("\\", "")


def _deck_text(at: AppTest, name: str) -> str:
    """The Decks page's text box of a deck (picked first)."""
    at.selectbox(key="deck_shown").set_value(name)
    at.run()
    return str(next(area.value for area in at.text_area if str(area.key).startswith("deck_text:")))


def _decks_sheet_rows(data: bytes) -> list[tuple[Any, ...]]:
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    return list(workbook["Decks"].iter_rows(min_row=2, values_only=True))


def test_a_rename_in_the_grid_carries_through_decks_change_log_and_saved_workbook() -> None:
    at = go(open_bundled(new_app(), ASHFALL), DECKS)
    assert "3 Lantern Sprite" in _deck_text(at, "ember_rush")  # the text box is drawn before the rename
    go(at, CARD_EDITOR)
    _send(at, {LANTERN_SPRITE: {"name": "Glow Wisp"}})

    # Every deck line naming Lantern Sprite names Glow Wisp, counts kept; nothing is broken anywhere.
    decks = workspace(at).decks
    assert "3 Glow Wisp" in str(decks["ember_rush"].text) and "Lantern Sprite" not in str(decks["ember_rush"].text)
    assert "2 Glow Wisp" in str(decks["plague_court"].text) and "3 Glow Wisp" in str(decks["stone_bastion"].text)
    assert _deck_errors(at) == ""
    assert FOLLOW_NOTE in shown_text(at)
    go(at, CARD_SETS)
    assert _deck_errors(at) == ""
    go(at, DECKS)
    assert "3 Glow Wisp" in _deck_text(at, "ember_rush")  # a new text box: the old lines are not shown again
    assert "main: 30 cards" in shown_text(at)
    assert "No findings: the deck keeps every construction rule." in shown_text(at)

    # The change log: the Compare versions page pairs the rename for certain and says what the decks did.
    go(at, VERSIONS)
    notes = shown_text(at)
    assert "Renamed: Lantern Sprite -> Glow Wisp." in notes
    assert f"Decks: {FOLLOW_NOTE}" in notes
    assert "Removed: Lantern Sprite" not in notes

    # Save as xlsx writes the new name into the Decks sheet; reopened, the decks read whole.
    saved = workspace_xlsx_bytes(workspace(at))
    rows = _decks_sheet_rows(saved)
    assert ("ember_rush", 3, "Glow Wisp") in rows and ("stone_bastion", 3, "Glow Wisp") in rows
    assert not [row for row in rows if "Lantern Sprite" in row]
    upload_cardset(at, data=saved, name="ashfall.xlsx")
    go(at, DECKS)
    at.selectbox(key="deck_shown").set_value("ember_rush")
    at.run()
    assert "main: 30 cards" in shown_text(at)
    assert "No findings: the deck keeps every construction rule." in shown_text(at)


def test_a_workbook_deck_follows_a_rename_and_keeps_its_rows() -> None:
    at = _editor_on_ashfall()
    upload_cardset(at, data=workspace_xlsx_bytes(workspace(at)), name="ashfall.xlsx")
    go(at, DECKS)
    assert "3 Lantern Sprite" in _deck_text(at, "ember_rush")
    go(at, CARD_EDITOR)
    _send(at, {LANTERN_SPRITE: {"name": "Glow Wisp"}})
    source = workspace(at).decks["ember_rush"]
    assert source.sheet_deck is not None  # still the Decks sheet's rows (so a save writes them back cell by cell)
    names = [row.values[source.sheet_deck.layout.name or 0] for row in source.sheet_deck.rows]
    assert "Glow Wisp" in names and "Lantern Sprite" not in names
    go(at, DECKS)
    assert "3 Glow Wisp" in _deck_text(at, "ember_rush")
    assert "main: 30 cards" in shown_text(at)
    assert ("ember_rush", 3, "Glow Wisp") in _decks_sheet_rows(workspace_xlsx_bytes(workspace(at)))


def test_a_rename_onto_another_cards_name_leaves_the_decks_and_the_error_shows_on_editor_and_card_sets() -> None:
    at = _editor_on_ashfall()
    _send(at, {LANTERN_SPRITE: {"name": "Cinder Whelp"}})
    assert "3 Lantern Sprite" in str(workspace(at).decks["ember_rush"].text)  # not followed: which card is meant?
    errors = _deck_errors(at)
    assert "ember_rush, row 3: 'Lantern Sprite' is not a card in ashfall" in errors
    assert "plague_court" in errors and "stone_bastion" in errors
    assert (
        "Lantern Sprite renamed to Cinder Whelp, but another card is named Cinder Whelp too: decks ember_rush, "
        "plague_court, stone_bastion still name Lantern Sprite." in shown_text(at)
    )
    go(at, CARD_SETS)
    assert "ember_rush, row 3: 'Lantern Sprite' is not a card in ashfall" in _deck_errors(at)

    # Named back in the grid, the card has its name again and the decks read again; Cinder Whelp's lines stay its.
    go(at, CARD_EDITOR)
    _send(at, {LANTERN_SPRITE: {"name": "Lantern Sprite"}})
    assert _deck_errors(at) == ""
    text = str(workspace(at).decks["ember_rush"].text)
    assert "4 Cinder Whelp" in text and "3 Lantern Sprite" in text


def test_two_cards_swapping_names_in_one_edit_swap_their_deck_lines() -> None:
    at = _editor_on_ashfall()
    _send(at, {CINDER_WHELP: {"name": "Lantern Sprite"}, LANTERN_SPRITE: {"name": "Cinder Whelp"}})
    text = str(workspace(at).decks["ember_rush"].text)
    assert "4 Lantern Sprite" in text and "3 Cinder Whelp" in text  # each deck keeps the same cards
    assert _deck_errors(at) == ""
    go(at, DECKS)
    assert "main: 30 cards" in shown_text(at)


def test_a_card_deleted_in_the_grid_shows_its_decks_errors_on_editor_and_card_sets() -> None:
    at = _editor_on_ashfall()
    _send(at, {}, deleted=[LANTERN_SPRITE])
    errors = _deck_errors(at)
    assert "ember_rush, row 3: 'Lantern Sprite' is not a card in ashfall" in errors
    go(at, CARD_SETS)
    assert "stone_bastion, row 4: 'Lantern Sprite' is not a card in ashfall" in _deck_errors(at)
