"""Shared fixtures: build card sets and decks from small tables, as a designer's sheet would hold them."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from workbench.cards import CardSet, Deck
from workbench.decklists import parse_decklist
from workbench.loading import load_cardset
from workbench.rulesets.base import Ruleset

MakeCardSet = Callable[..., CardSet]

# The app's background warm-up compiles every engine (minutes of CPU) in each AppTest process and browser-test server;
# a test that wants it (tests/browser/test_browser_warmup.py) sets WORKBENCH_WARMUP for its own server.
os.environ.setdefault("WORKBENCH_WARMUP", "off")


@pytest.fixture
def make_cardset(tmp_path: Path) -> MakeCardSet:
    """`make_cardset(ruleset, rows)` writes `rows` (dicts, header = union of keys in order) to a csv and loads it.

    The first row dict is spreadsheet row 2, the next row 3, and so on.
    """

    def build(ruleset: Ruleset, rows: Sequence[Mapping[str, Any]], filename: str = "cards.csv") -> CardSet:
        headers: list[str] = []
        for row in rows:
            for key in row:
                if key not in headers:
                    headers.append(key)
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(headers)
        for row in rows:
            writer.writerow(["" if row.get(h) is None else row.get(h) for h in headers])
        path = tmp_path / filename
        path.write_text(buffer.getvalue(), encoding="utf-8")
        return load_cardset(path, ruleset)

    return build


@pytest.fixture
def make_deck() -> Callable[..., Deck]:
    """`make_deck(cardset, "2 Name\\n1 Other", name="deck")` parses decklist text against the set."""

    def build(cardset: CardSet, text: str, name: str = "deck") -> Deck:
        return parse_decklist(text, cardset, name=name, path=f"{name}.txt")

    return build


# Markers (registered in pyproject.toml): `browser` for every test under tests/browser/, `slow` for the tests below,
# each measured at 5 s or more on this project's 2-core machine with a warm Numba cache (`python -m pytest
# --durations=60 FILE ...`; CONTRIBUTING.md has the figures), and for those in tests/slow_tests.txt (0.75 s or more
# in a run of the fast loop, which keeps it under three minutes). `python -m pytest -m "not slow and not browser"` is
# the fast loop; a plain `python -m pytest` still runs everything. A node id without its [parameters] marks every case.
SLOW_TESTS = frozenset(
    {
        "tests/app/test_app_balance.py::test_a_real_engine_runs_a_small_simulation_of_its_bundled_decks",
        "tests/app/test_app_rules.py::test_each_option_can_be_changed_and_reset",
        "tests/hardening/test_hardening_fanout.py::test_a_power_curve_over_2000_cards_keeps_only_the_counters_it_reads",
        "tests/hardening/test_hardening_hostile_files.py::test_a_workbook_of_100000_rows_is_read_within_the_limits",
        "tests/hardening/test_hardening_limits.py::test_saving_copies_a_500000_row_sheet_the_editor_does_not_change_without_loading_it",
        "tests/hardening/test_hardening_limits.py::test_devices_fifos_and_folders_are_refused_by_type_in_every_command",
        "tests/hardening/test_hardening_limits.py::test_a_1024_column_csv_of_199999_one_cell_rows_validates_in_little_memory",
        "tests/hardening/test_hardening_parameters.py::test_cancel_stops_a_run_at_the_largest_turn_cap_within_a_second",
        "tests/hardening/test_hardening_proportion.py::test_two_thousand_unknown_names_against_twenty_thousand_cards_take_seconds",
        "tests/hardening/test_hardening_structure.py::test_a_styles_part_over_the_real_limit_is_exit_2_naming_the_limit",
        "tests/rulesets/blades/test_blades_legality.py::test_the_policies_take_only_actions_the_rules_listed",
        "tests/rulesets/source/test_source_engine.py::test_search_summons_the_monster_that_wins_where_greedy_summons_its_strongest",
        "tests/rulesets/source/test_source_engine.py::test_search_plays_whole_matches_the_same_way_twice_and_reads_its_budget",
        "tests/test_distributed.py::test_an_address_that_accepts_and_never_answers_is_refused_within_the_connect_timeout",
        "tests/test_analysis.py::test_exact_clones_share_a_verdict_and_a_planted_bargain_is_found_in_most_seeds",
        "tests/test_full_game.py::test_a_planted_over_cheap_card_is_flagged_over_and_a_card_nobody_buys_reads_rarely_bought",
        "tests/test_planted_clones.py::test_a_planted_clone_is_flagged_or_said_to_be_rarely_played",
        "tests/test_propose.py::test_the_planted_cards_are_repriced_to_their_known_costs_and_the_proof_confirms_it",
        "tests/test_simulate.py::test_one_and_two_worker_processes_give_identical_matches",
        "tests/test_warm.py::test_two_processes_warming_one_engine_at_once_compile_it_once",
        "tests/test_warm.py::test_warm_compiles_once_records_the_time_then_loads_from_the_cache",
        "tests/test_warm.py::test_a_command_line_run_records_its_compile_too",
        "tests/test_warm.py::test_the_warm_up_child_never_reads_stdin_and_exits_cleanly",
        "tests/test_warm.py::test_warm_on_a_real_engine_says_what_it_did",
    }
)
SLOW_FILES = frozenset(
    {
        "tests/test_packaging.py",  # builds the wheel and a fresh venv (the `packaging` marker)
        "tests/rulesets/source/test_source_policies.py",  # its module fixture replays matches uncompiled: 18 s
    }
)
_TESTS = Path(__file__).resolve().parent
SLOW_TESTS |= {
    line.split("#", 1)[0].strip()
    for line in (_TESTS / "slow_tests.txt").read_text(encoding="utf-8").splitlines()
    if line.split("#", 1)[0].strip()
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        try:
            relative = item.path.resolve().relative_to(_TESTS.parent).as_posix()
        except ValueError:
            continue
        if relative.startswith("tests/browser/"):
            item.add_marker(pytest.mark.browser)
        if relative in SLOW_FILES or f"{relative}::{item.name.split('[', 1)[0]}" in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
