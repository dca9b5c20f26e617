"""Rules page: every ruleset's ledger with a toggle per option; the other pages use what is set here."""

from __future__ import annotations

import pytest
from app.app_helpers import SOULS_SMALL, go, grid_key, new_app, shown_text, upload_cardset
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Widget

from workbench.app import CARD_EDITOR, RULES
from workbench.cards import OptionValue
from workbench.rulesets import RULESETS
from workbench.rulesets.base import RuleOption


def _key(ruleset_id: str, option: RuleOption) -> str:
    return f"option:rules:{ruleset_id}:{option.key}"


def test_every_ruleset_has_a_tab_with_every_ledger_entry() -> None:
    at = go(new_app(), RULES)
    assert len(at.tabs) == len(RULESETS)
    text = shown_text(at)
    for ruleset_id, ruleset in RULESETS.items():
        assert f"{ruleset.title} · v{ruleset.version}" in text
        for option in ruleset.options:
            assert option.reading in text, (ruleset_id, option.key)
            assert f"The document: “{option.quote}”" in text


def _other_value(option: RuleOption) -> OptionValue:
    if isinstance(option.default, bool):
        return not option.default
    if isinstance(option.default, int):
        return option.default + 1
    if isinstance(option.default, float):
        return option.default + 0.5
    if option.choices:
        return next(choice for choice in option.choices if choice != option.default)
    return f"{option.default} and more"


def _set(at: AppTest, key: str, value: OptionValue) -> None:
    for group in (at.toggle, at.number_input, at.selectbox, at.text_input):
        # As the base class, whose set_value takes any value: the option's type picked the widget.
        matches: list[Widget] = [widget for widget in group if widget.key == key]
        if matches:
            matches[0].set_value(value)
            at.run()
            return
    raise AssertionError(f"no widget with key {key}")


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_each_option_can_be_changed_and_reset(ruleset_id: str) -> None:
    ruleset = RULESETS[ruleset_id]
    if not ruleset.options:
        pytest.skip(f"{ruleset_id} has no rule options")
    at = go(new_app(), RULES)
    # An option naming a file (SOURCE's map) is chosen from the bundled files or an upload: tested on its own.
    typed = [option for option in ruleset.options if not option.bundled_files]
    for option in typed:
        _set(at, _key(ruleset_id, option), _other_value(option))
    stored = at.session_state["rule_options"][ruleset_id]
    assert stored == {option.key: _other_value(option) for option in typed}
    assert ruleset.resolve_options(stored)  # every stored value is one the ruleset accepts
    at.button(key=f"reset_options:{ruleset_id}").click()
    at.run()
    assert ruleset_id not in at.session_state["rule_options"]
    first = ruleset.options[0]
    assert [
        w.value
        for group in (at.toggle, at.number_input, at.selectbox, at.text_input)
        for w in group
        if w.key == _key(ruleset_id, first)
    ] == [first.default]


def test_a_reading_changed_here_changes_the_editors_findings() -> None:
    at = go(upload_cardset(new_app(), SOULS_SMALL), CARD_EDITOR)
    at.session_state[grid_key(at)] = {"edited_rows": {0: {"atk": "9"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert "⚠ 1 warning" in shown_text(at)
    go(at, RULES)
    strict = next(option for option in RULESETS["souls"].options if option.key == "strict_costs")
    _set(at, _key("souls", strict), True)
    go(at, CARD_EDITOR)
    assert "✖ 1 error" in shown_text(at) and "⚠ 0 warnings" in shown_text(at)
    assert "`strict_costs=true`" in shown_text(at)
