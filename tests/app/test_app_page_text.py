"""No page shows a string the designer was not meant to read, and the labels read as a designer says them.

Streamlit's "magic" writes any bare string or expression of a page script on the page (a developer's note became
text on every Balance page once, issue 30). It is turned off where the app starts (`.streamlit/config.toml`, and
`workbench app` on its command line), and the page scripts are kept free of bare expressions besides, which
`test_no_module_of_the_app_has_a_bare_expression_magic_would_write` checks on the source and
`test_every_page_draws_the_same_with_magic_on_as_off` on the pages as drawn.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path
from typing import Any

import pytest
from app.app_helpers import as_read, go, new_app, shown_text, toy_set_with_decks
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.util import patch_config_options
from toy_engine import TOY

from workbench.app import BALANCE, PAGES
from workbench.app.wording import matches_per_card_text, see_docs
from workbench.paths import REPO_ROOT
from workbench.rulesets import RULESETS

APP_FOLDER = REPO_ROOT / "workbench" / "app"
PAGE_SCRIPTS = {Path(page.path).resolve() for page in PAGES} | {(APP_FOLDER / "router.py").resolve()}
"""The files Streamlit runs as scripts (where magic would act); the rest of workbench/app is imported."""


def _bare_expressions(tree: ast.Module, page_script: bool) -> list[str]:
    """Every statement that is an expression Streamlit's magic would write: not a call, await or yield, and not a
    docstring (the first statement of a module, class or function). In a module that is imported rather than run
    as a page, a string right after an assignment is the project's attribute docstring and is allowed."""
    found: list[str] = []

    def visit(body: list[ast.stmt], docstring_allowed: bool) -> None:
        for index, node in enumerate(body):
            if isinstance(node, ast.Expr):
                value = node.value
                is_string = isinstance(value, ast.Constant) and isinstance(value.value, str)
                after_assignment = index > 0 and isinstance(body[index - 1], ast.Assign | ast.AnnAssign)
                written = not isinstance(value, ast.Call | ast.Await | ast.Yield | ast.YieldFrom)
                docstring = is_string and index == 0 and docstring_allowed
                attribute_docstring = is_string and after_assignment and not page_script
                if written and not docstring and not attribute_docstring:
                    found.append(f"line {node.lineno}: {ast.unparse(node)[:70]}")
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(node.body, True)
                continue
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(node, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    visit(inner, False)
            for handler in getattr(node, "handlers", []):
                visit(handler.body, False)
            for case in getattr(node, "cases", []):
                visit(case.body, False)

    visit(tree.body, True)
    return found


@pytest.mark.parametrize("path", sorted(APP_FOLDER.glob("*.py")), ids=lambda path: path.name)
def test_no_module_of_the_app_has_a_bare_expression_magic_would_write(path: Path) -> None:
    found = _bare_expressions(ast.parse(path.read_text(encoding="utf-8")), path.resolve() in PAGE_SCRIPTS)
    assert not found, f"{path.name} has bare expressions a page would show: {found}"


def test_the_check_catches_a_note_left_as_a_string_in_a_page() -> None:
    page = ast.parse('"""Doc."""\nimport streamlit as st\nopen_box = True\n"""Whether the box is open."""\nx\n')
    assert [line.split(":")[0] for line in _bare_expressions(page, True)] == ["line 4", "line 5"]
    inside = ast.parse("def draw():\n    '''Doc.'''\n    value = 1\n    'a note'\n    value\n")
    assert len(_bare_expressions(inside, True)) == 2  # in a page's function too
    assert len(_bare_expressions(inside, False)) == 1  # an imported module's bare name is still caught
    assert _bare_expressions(ast.parse("NAME = 1\n'''What NAME is.'''\n"), False) == []


def test_magic_is_off_in_the_apps_streamlit_settings() -> None:
    settings = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert settings["runner"]["magicEnabled"] is False


def test_workbench_app_starts_streamlit_with_magic_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """`workbench app` runs from an installed package, where no .streamlit/config.toml is read: the setting goes on
    Streamlit's command line."""
    from streamlit.web import cli as streamlit_cli

    from workbench import cli

    started: list[list[str]] = []
    monkeypatch.setattr(streamlit_cli, "main", lambda args, **_: started.append(list(args)))
    assert cli.main(["app", "--port", "8599", "--headless", "-q"]) == 0
    (args,) = started
    assert "--runner.magicEnabled" in args and args[args.index("--runner.magicEnabled") + 1] == "false"


def _drawn(at: AppTest) -> list[tuple[str, Any]]:
    """Every element of the page in order, by type and what it shows."""
    drawn: list[tuple[str, Any]] = []

    def walk(node: Any) -> None:
        children = getattr(node, "children", None)
        if isinstance(children, dict) and children:
            for child in children.values():
                walk(child)
            return
        value = getattr(node, "value", None) if node.type in {"markdown", "text", "caption", "alert"} else None
        drawn.append((node.type, value))

    walk(at._tree)
    return drawn


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.url_path)
def test_every_page_draws_the_same_with_magic_on_as_off(page: Any) -> None:
    """With magic turned on (as a `streamlit run` from another folder would have it), each page draws exactly the
    elements it draws with magic off: nothing of the page script's own text reaches the page."""
    drawn = {}
    for magic in (False, True):
        with patch_config_options({"runner.magicEnabled": magic}):
            at = go(new_app(), page)
            drawn[magic] = _drawn(at)
    assert drawn[True] == drawn[False]


def test_see_docs_names_the_document_and_its_section_in_words() -> None:
    assert see_docs("simulation.md", "Game health") == "see the workbench docs, simulation.md, section *Game health*"
    assert see_docs("app.md") == "see the workbench docs, app.md"


def test_matches_per_card_says_when_and_why_the_figure_asked_was_rounded_up() -> None:
    meta = {"matches_per_card": 2001, "matches_per_pair": 667, "reference_decks": ["a"], "gauntlet": ["a", "b", "c"]}
    assert matches_per_card_text(meta, 2000) == "2,001 matches per card (2,000 asked, rounded up to 667 per opponent)"
    assert matches_per_card_text({**meta, "matches_per_card": 2000}, 2000) == "2,000 matches per card"
    two_references = {**meta, "reference_decks": ["auto 1", "auto 2"]}
    assert matches_per_card_text(two_references, 2000).endswith(
        "(2,000 asked, rounded up to 667 per pair of reference deck and opponent)"
    )


def test_the_balance_page_names_the_docs_in_words_and_shows_the_matches_per_card_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(RULESETS, "toy", TOY)
    at = toy_set_with_decks(BALANCE)
    assert "see the workbench docs, simulation.md, section *Game health*" in shown_text(at)
    assert "(docs/simulation.md" not in shown_text(at)
    at.number_input(key="balance_matches").set_value(200)
    at.number_input(key="balance_per_card").set_value(61)  # two decks in the gauntlet: 31 per opponent, 62 in all
    at.run()
    at.button(key="balance_run").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    text = shown_text(at)
    assert "62 matches per card (61 asked, rounded up to 31 per opponent)" in text
    assert "docs/simulation.md" not in text
    # Every card's why in full, under the table that wraps it in its cell.
    why = next(e for e in at.expander if e.label == "Every card's why, in full")
    assert "Mid" in as_read(why.markdown[0].value)


def test_a_decks_findings_wrap_in_their_table_and_are_listed_in_full_under_it() -> None:
    from app.app_helpers import SOULS_SMALL, upload_cardset

    from workbench.app import DECKS

    at = go(upload_cardset(new_app(), SOULS_SMALL), DECKS)
    at.text_input(key="deck_paste_name").set_value("typo")
    at.text_area(key="deck_paste_text").set_value("# my deck\n10 Ember Imp\n10 Marsh Lurkr\n10 Gale Archer\n")
    at.run()
    at.button(key="deck_add_pasted").click()
    at.run()
    findings = at.dataframe[0]
    assert findings.proto.row_height > 64  # Streamlit wraps a cell's text only in rows taller than 4rem
    in_full = next(e for e in at.expander if e.label == "Each finding in full")
    listed = as_read(in_full.markdown[0].value)
    for message in findings.value["message"]:
        assert f"**line 3**: {message}" in listed or message in listed
