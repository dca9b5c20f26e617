"""Renames carry through (issue 30): which edits are renames, how decklists follow them, and the change log.

`workbench.editing.sheet_renames` tells renames by row identity; `workbench.decklists.rename_in_text` and
`rename_in_sheet_deck` change the deck lines; `workbench.app.workspace.replace_sheet` applies an edit to the
session's decks (text, uploaded files, a workbook's Decks sheet) and keeps the change log; `workbench.diff` pairs
a known rename and carries the decks' notes into the patch notes.
"""

from __future__ import annotations

import io
from dataclasses import replace

import openpyxl
import pytest

from workbench.app.workspace import (
    DeckSource,
    Workspace,
    add_deck,
    deck_error_lines,
    deck_findings,
    open_bundled,
    open_cardset,
    parse_deck,
    rename_notes,
    replace_sheet,
    workspace_xlsx_bytes,
)
from workbench.cards import CardSet, normalize_name
from workbench.decklists import (
    DeckRow,
    DecksLayout,
    SheetDeck,
    parse_decklist,
    rename_in_sheet_deck,
    rename_in_text,
    sheet_decklist_text,
)
from workbench.diff import diff_cardsets
from workbench.editing import CardRename, EditableSheet, composed_renames, sheet_renames, to_table
from workbench.loading import cardset_from_table
from workbench.paths import REPO_ROOT
from workbench.rulesets import get_ruleset

ASHFALL = REPO_ROOT / "cardsets" / "souls" / "ashfall.csv"
SOULS = get_ruleset("souls")
CINDER_WHELP, LANTERN_SPRITE, HOLLOW_ACOLYTE = 0, 2, 3
"""Positions of three ashfall cards (ember_rush: 4 Cinder Whelp, 3 Lantern Sprite, 2 Hollow Acolyte)."""

pytestmark = pytest.mark.filterwarnings("ignore")


def _ashfall() -> Workspace:
    return open_bundled(ASHFALL)


def _renamed(sheet: EditableSheet, names: dict[int, str | None]) -> EditableSheet:
    frame = sheet.frame.copy()
    for position, name in names.items():
        frame.iat[position, frame.columns.get_loc("name")] = name
    return replace(sheet, frame=frame)


def _cards(workspace: Workspace) -> CardSet:
    return cardset_from_table(to_table(workspace.sheet), workspace.ruleset)


def _deck_counts(workspace: Workspace, deck: str) -> dict[str, int]:
    parsed = parse_deck(workspace.decks[deck], _cards(workspace))
    assert not parsed.load_findings, parsed.load_findings
    return {name: count for name, (_entry, count, _line) in parsed.counts().items()}


# Which edits are renames -------------------------------------------------------------------------------------------


def test_a_name_cell_changed_is_a_clear_rename_on_its_row() -> None:
    sheet = _ashfall().sheet
    (rename,) = sheet_renames(sheet, _renamed(sheet, {LANTERN_SPRITE: "Glow Wisp"}), SOULS)
    assert (rename.old, rename.new, rename.row, rename.followed) == ("Lantern Sprite", "Glow Wisp", 4, True)
    assert sheet_renames(sheet, sheet, SOULS) == []


def test_rows_added_deleted_or_emptied_are_no_renames() -> None:
    sheet = _ashfall().sheet
    emptied = _renamed(sheet, {LANTERN_SPRITE: None})
    deleted = replace(sheet, frame=sheet.frame.drop(sheet.frame.index[LANTERN_SPRITE]))
    assert sheet_renames(sheet, emptied, SOULS) == []
    assert sheet_renames(sheet, deleted, SOULS) == []


def test_a_rename_onto_another_cards_name_or_from_a_shared_name_is_not_clear() -> None:
    sheet = _ashfall().sheet
    (clash,) = sheet_renames(sheet, _renamed(sheet, {LANTERN_SPRITE: "cinder  whelp"}), SOULS)
    assert clash.problem == "another card is named cinder  whelp too"  # the name as typed
    shared = _renamed(sheet, {LANTERN_SPRITE: "Cinder Whelp"})
    (back,) = sheet_renames(shared, _renamed(shared, {LANTERN_SPRITE: "Lantern Sprite"}), SOULS)
    assert back.problem is not None and "another card was named Cinder Whelp too" in back.problem


def test_two_names_swapped_in_one_edit_are_two_clear_renames_and_a_case_change_is_a_rename() -> None:
    sheet = _ashfall().sheet
    swapped = _renamed(sheet, {CINDER_WHELP: "Lantern Sprite", LANTERN_SPRITE: "Cinder Whelp"})
    assert [(r.old, r.new, r.followed) for r in sheet_renames(sheet, swapped, SOULS)] == [
        ("Cinder Whelp", "Lantern Sprite", True),
        ("Lantern Sprite", "Cinder Whelp", True),
    ]
    (case,) = sheet_renames(sheet, _renamed(sheet, {LANTERN_SPRITE: "Lantern sprite"}), SOULS)
    assert case.followed


def test_the_change_log_line_and_composed_renames() -> None:
    followed = CardRename(4, 4, "Lantern Sprite", "Glow Wisp", decks=("ember_rush", "plague_court"))
    assert followed.note() == "Lantern Sprite renamed to Glow Wisp; decks ember_rush, plague_court follow."
    assert (
        replace(followed, decks=("ember_rush",)).note()
        == "Lantern Sprite renamed to Glow Wisp; deck ember_rush follows."
    )
    assert replace(followed, decks=()).note() == "Lantern Sprite renamed to Glow Wisp; no deck names it."
    clash = replace(followed, new="Cinder Whelp", problem="another card is named Cinder Whelp too")
    assert clash.note() == (
        "Lantern Sprite renamed to Cinder Whelp, but another card is named Cinder Whelp too: decks ember_rush, "
        "plague_court still name Lantern Sprite."
    )
    chain = [
        followed,
        CardRename(4, 4, "Glow Wisp", "Dawn Wisp"),
        CardRename(9, 9, "A", "B"),
        CardRename(9, 9, "B", "a"),
    ]
    assert composed_renames(chain) == {"Lantern Sprite": "Dawn Wisp"}  # A -> B -> a is no rename at all


# How deck lines follow ---------------------------------------------------------------------------------------------


def test_rename_in_text_changes_only_the_name_of_each_line_that_names_the_card() -> None:
    text = (
        "# Lantern Sprite stays in a comment\r\n"
        "3 Lantern Sprite\r\n"
        "  2x lantern  sprite  \r\n"
        "Lantern Sprite x2\n"
        "Lantern Sprite\n"
        "Tokens:\n"
        "1 Lantern Sprites\n"
        "0 Lantern Sprite\n"
    )
    renamed, found = rename_in_text(text, {"lantern sprite": "Glow Wisp"})
    assert found == {"lantern sprite"}
    assert renamed == (
        "# Lantern Sprite stays in a comment\r\n"
        "3 Glow Wisp\r\n"
        "  2x Glow Wisp  \r\n"
        "Glow Wisp x2\n"
        "Glow Wisp\n"
        "Tokens:\n"
        "1 Lantern Sprites\n"
        "0 Glow Wisp\n"  # still a bad count (reported), but naming the card as it is now
    )
    assert rename_in_text(text, {"ember imp": "Imp"}) == (text, set())


def test_rename_in_text_reads_a_whole_card_name_first_and_writes_a_name_that_reads_back() -> None:
    # "3 Wishes" is a card of its own: renaming Wishes leaves it alone, renaming "3 Wishes" renames the whole line.
    known = {"wishes", "3 wishes"}
    assert rename_in_text("3 Wishes\n2 Wishes\n", {"wishes": "Hopes"}, known)[0] == "3 Wishes\n2 Hopes\n"
    assert rename_in_text("3 Wishes\n", {"3 wishes": "Dreams"}, known)[0] == "Dreams\n"
    # A bare line whose new name would read as a comment or a section heading gets its count written.
    assert rename_in_text("Imp\n2 Imp\n", {"imp": "#1 Fan"})[0] == "1 #1 Fan\n2 #1 Fan\n"
    assert rename_in_text("Imp\n", {"imp": "Tokens:"})[0] == "1 Tokens:\n"


def test_names_swapped_in_one_edit_swap_their_lines_at_once() -> None:
    text = "4 Cinder Whelp\n3 Lantern Sprite\n"
    swap = {"cinder whelp": "Lantern Sprite", "lantern sprite": "Cinder Whelp"}
    assert rename_in_text(text, swap)[0] == "4 Lantern Sprite\n3 Cinder Whelp\n"


def test_renamed_text_parses_to_the_same_counts_against_the_renamed_cards() -> None:
    workspace = _ashfall()
    before = parse_decklist(str(workspace.decks["ember_rush"].text), _cards(workspace)).counts()
    replace_sheet(workspace, _renamed(workspace.sheet, {LANTERN_SPRITE: "3 Wishes"}))
    after = _deck_counts(workspace, "ember_rush")
    assert after["3 Wishes"] == before["Lantern Sprite"][1] == 3
    assert sum(after.values()) == 30


def test_rename_in_sheet_deck_keeps_every_other_cell_and_leaves_formulas() -> None:
    layout = DecksLayout("set.xlsx", "Decks", ("deck", "count", "name", "note"), 0, 1, 2, None)
    rows = (
        DeckRow(2, ("aggro", 3, "Lantern Sprite", "keep me")),
        DeckRow(3, ("aggro", 2, "=A1", None), ((2, "=A1"),)),
        DeckRow(4, ("aggro", 1, "Ember Imp", None)),
    )
    deck = SheetDeck("aggro", rows, layout)
    renamed, found = rename_in_sheet_deck(deck, {"lantern sprite": "Glow Wisp", "=a1": "X"})
    assert found == {"lantern sprite"}
    assert [row.values for row in renamed.rows] == [
        ("aggro", 3, "Glow Wisp", "keep me"),
        ("aggro", 2, "=A1", None),
        ("aggro", 1, "Ember Imp", None),
    ]
    assert rename_in_sheet_deck(deck, {"nothing": "else"}) == (deck, set())


def test_a_sheet_decklist_as_text_keeps_every_row() -> None:
    data = b"name,count,section\nLantern Sprite,3,\nCinder Whelp,2,main\nBad Count,lots,\n"
    assert sheet_decklist_text(data, "deck.csv", SOULS.deck_sections) == (
        "3 Lantern Sprite\n2 Cinder Whelp\nlots Bad Count\n"
    )


# The session's decks -----------------------------------------------------------------------------------------------


def test_every_kind_of_session_deck_follows_a_rename_and_the_save_writes_the_new_name() -> None:
    workspace = _ashfall()
    add_deck(workspace, DeckSource("as csv", "uploaded", data=b"name,count\nLantern Sprite,3\n", filename="as.csv"))
    add_deck(workspace, DeckSource("as txt", "uploaded", data=b"3 Lantern Sprite\n", filename="as.txt"))
    add_deck(workspace, DeckSource("other", "pasted", text="2 Cinder Whelp\n"))
    renames = replace_sheet(workspace, _renamed(workspace.sheet, {LANTERN_SPRITE: "Glow Wisp"}))
    assert [r.decks for r in renames] == [("ember_rush", "plague_court", "stone_bastion", "as csv", "as txt")]
    assert rename_notes(workspace) == [
        "Lantern Sprite renamed to Glow Wisp; decks ember_rush, plague_court, stone_bastion, as csv, as txt follow."
    ]
    for name in ("as csv", "as txt"):
        assert workspace.decks[name].data is None and workspace.decks[name].text == "3 Glow Wisp\n"
        assert workspace.decks[name].revision == 1
    assert workspace.decks["other"].revision == 0
    assert _deck_counts(workspace, "ember_rush")["Glow Wisp"] == 3
    assert deck_error_lines(*deck_findings(workspace, _cards(workspace))) == []  # (the small decks have warnings)

    saved = workspace_xlsx_bytes(workspace)
    rows = list(openpyxl.load_workbook(io.BytesIO(saved))["Decks"].iter_rows(min_row=2, values_only=True))
    assert ("ember_rush", 3, "Glow Wisp") in rows and ("as csv", 3, "Glow Wisp") in rows
    assert not [row for row in rows if "Lantern Sprite" in row]

    # Reopened, the decks are the workbook's Decks sheet rows: a second rename follows there, other cells kept.
    reopened = open_cardset(saved, "ashfall.xlsx")
    replace_sheet(reopened, _renamed(reopened.sheet, {LANTERN_SPRITE: "Dawn Wisp"}))
    source = reopened.decks["ember_rush"]
    assert source.sheet_deck is not None and source.revision == 1
    assert _deck_counts(reopened, "ember_rush")["Dawn Wisp"] == 3
    rows = list(openpyxl.load_workbook(io.BytesIO(workspace_xlsx_bytes(reopened)))["Decks"].iter_rows(values_only=True))
    assert ("ember_rush", 3, "Dawn Wisp") in rows


def test_a_rename_that_is_not_clear_changes_no_deck_and_the_decks_show_errors() -> None:
    workspace = _ashfall()
    ember_rush = workspace.decks["ember_rush"].text
    (rename,) = replace_sheet(workspace, _renamed(workspace.sheet, {LANTERN_SPRITE: "Hollow Acolyte"}))
    assert not rename.followed and rename.decks == ("ember_rush", "plague_court", "stone_bastion")
    assert workspace.decks["ember_rush"].text == ember_rush and workspace.decks["ember_rush"].revision == 0
    findings, unreadable = deck_findings(workspace, _cards(workspace))
    lines = deck_error_lines(findings, unreadable)
    assert lines[0].startswith("ember_rush, row 3: 'Lantern Sprite' is not a card in ashfall.")
    assert {f.deck for f in findings if f.rule == "souls.unknown_card"} == {
        "ember_rush",
        "plague_court",
        "stone_bastion",
    }


def test_swapping_two_names_in_one_edit_keeps_every_deck_the_same_cards() -> None:
    workspace = _ashfall()
    replace_sheet(
        workspace, _renamed(workspace.sheet, {CINDER_WHELP: "Lantern Sprite", LANTERN_SPRITE: "Cinder Whelp"})
    )
    counts = _deck_counts(workspace, "ember_rush")
    assert (counts["Lantern Sprite"], counts["Cinder Whelp"]) == (4, 3)


def test_a_deleted_card_and_an_unreadable_deck_are_deck_errors() -> None:
    workspace = _ashfall()
    replace_sheet(workspace, replace(workspace.sheet, frame=workspace.sheet.frame.drop(workspace.sheet.frame.index[2])))
    add_deck(workspace, DeckSource("broken", "uploaded", data=b"card,qty\nX,1\n", filename="broken.csv"))
    lines = deck_error_lines(*deck_findings(workspace, _cards(workspace)), limit=2)
    assert lines[0].startswith("broken: ") and lines[0].endswith("(the decklist cannot be read)")
    assert lines[1].startswith("ember_rush, row 3: 'Lantern Sprite' is not a card")
    assert lines[2] == "... and 2 more (see the Decks page)"


# The patch notes ---------------------------------------------------------------------------------------------------


def test_a_known_rename_pairs_the_cards_whatever_their_names_and_the_deck_notes_join_the_patch_notes() -> None:
    workspace = _ashfall()
    old = _cards(workspace)
    replace_sheet(workspace, _renamed(workspace.sheet, {LANTERN_SPRITE: "Glow Wisp"}))
    new = _cards(workspace)
    guessed = diff_cardsets(old, new)
    assert [e.card.name for e in guessed.removed] == ["Lantern Sprite"]  # the names are too far apart to guess
    known = diff_cardsets(old, new, renamed=composed_renames(workspace.renames))
    known.deck_notes = rename_notes(workspace)
    assert not known.removed and not known.added
    assert known.patch_notes() == [
        "Renamed: Lantern Sprite -> Glow Wisp.",
        "Decks: Lantern Sprite renamed to Glow Wisp; decks ember_rush, plague_court, stone_bastion follow.",
    ]
    assert known.to_json()["patch_notes"] == known.patch_notes()
    assert normalize_name("Glow Wisp") in {normalize_name(c.name) for c in known.changed}
