"""One conformance suite run over every registered ruleset (the PettingZoo `api_test` habit)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.decklists import read_decklist
from workbench.loading import load_cardset
from workbench.paths import REPO_ROOT, bundled_decks, bundled_sets, mistakes_dir
from workbench.rulesets import RULESETS
from workbench.validate import validate

RULESET_IDS = list(RULESETS)
TABLE_HEADER = ["severity", "rule", "card", "deck", "sheet", "row", "column"]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_ruleset_metadata_is_complete(ruleset_id: str) -> None:
    ruleset = RULESETS[ruleset_id]
    assert ruleset.id == ruleset_id and ruleset.title and re.fullmatch(r"\d+\.\d+", ruleset.version)
    assert re.fullmatch(r"\d{3}_[0-9a-f]{16}\.txt", ruleset.document)
    seeds = REPO_ROOT.parent / "shared" / "seeds"  # beside the checkout in this project's workspace and CI
    if seeds.is_dir():
        assert (seeds / ruleset.document).is_file()
    assert ruleset.deck_sections[0] == "main"
    assert {"name", "kind"} <= {column.field for column in ruleset.columns}
    for model in ruleset.card_models:
        for field_name, info in model.model_fields.items():
            assert info.description, f"{model.__name__}.{field_name} needs a docstring"
    for option in ruleset.options:
        assert option.reading and option.quote, f"ledger entry {option.key} needs a reading and a quote"
    assert ruleset.signature_columns <= {column.field for column in ruleset.columns}


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_header_detection_finds_each_bundled_set(ruleset_id: str) -> None:
    for path in bundled_sets(ruleset_id):
        assert load_cardset(path).ruleset_id == ruleset_id


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_bundled_set_and_decks_have_no_errors(ruleset_id: str) -> None:
    sets = bundled_sets(ruleset_id)
    decks = bundled_decks(ruleset_id)
    assert sets, f"cardsets/{ruleset_id} has no sample set"
    assert len(decks) >= 2, f"cardsets/{ruleset_id}/decks needs two or more legal decklists"
    for path in sets:
        cardset = load_cardset(path, ruleset_id)
        assert len(cardset) == cardset.rows_read
        report = validate(cardset)
        assert not report.has_errors, [f.to_text() for f in report.findings if f.severity == "error"]
        for deck_path in decks:
            deck_report = validate(cardset, [read_decklist(deck_path, cardset)])
            errors = [f.to_text() for f in deck_report.findings if f.severity == "error"]
            assert not errors, errors


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_bundled_set_validates_from_the_command_line(ruleset_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["validate", str(bundled_sets(ruleset_id)[0])]
    for deck in bundled_decks(ruleset_id):
        argv += ["--deck", str(deck)]
    assert main(argv) == 0, capsys.readouterr()


def _readme_table(readme: Path) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    header_seen = False
    for line in readme.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.strip().startswith("|") else None
        if cells is None:
            if header_seen and rows:
                break
            continue
        if cells == TABLE_HEADER:
            assert not header_seen, f"{readme} must hold exactly one findings table"
            header_seen = True
            continue
        if header_seen and not set("".join(cells)) <= set("-: "):
            rows.append(tuple(cells))
    assert header_seen, f"{readme} has no table with header {TABLE_HEADER}"
    return rows


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_mistakes_workbook_gives_exactly_the_findings_its_readme_lists(
    ruleset_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = mistakes_dir(ruleset_id)
    workbook = folder / "mistakes.xlsx"
    decks = sorted(folder.glob("*.txt"))
    argv = ["validate", str(workbook.relative_to(REPO_ROOT)) if workbook.is_relative_to(REPO_ROOT) else str(workbook)]
    for deck in decks:
        argv += ["--deck", str(deck)]
    code = main([*argv, "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1
    actual = Counter(
        tuple("" if finding[key] is None else str(finding[key]) for key in TABLE_HEADER) for finding in data["findings"]
    )
    expected = Counter(_readme_table(folder / "README.md"))
    missing = expected - actual
    unexpected = actual - expected
    assert not missing and not unexpected, {"listed but not found": missing, "found but not listed": unexpected}


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_mistakes_workbook_is_what_its_build_script_writes(ruleset_id: str, tmp_path: Path) -> None:
    import runpy

    import openpyxl

    folder = mistakes_dir(ruleset_id)
    build = runpy.run_path(str(folder / "build_mistakes.py"))["build"]
    rebuilt = build(tmp_path / "mistakes.xlsx")

    def cells(path: Path) -> dict[str, list[tuple[object, ...]]]:
        workbook = openpyxl.load_workbook(path)
        return {sheet.title: list(sheet.iter_rows(values_only=True)) for sheet in workbook.worksheets}

    committed = cells(folder / "mistakes.xlsx")
    assert list(committed) == ["Cards", "Set"]
    assert cells(rebuilt) == committed, f"rebuild {folder / 'mistakes.xlsx'} with its build_mistakes.py"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_rule_id_a_ruleset_emits_is_documented(ruleset_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    doc = (REPO_ROOT / "docs" / "rulesets" / f"{ruleset_id}.md").read_text(encoding="utf-8")
    shared = (REPO_ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    rules = {row[1] for row in _readme_table(mistakes_dir(ruleset_id) / "README.md")}
    for rule in rules:
        generic = "<ruleset>." + rule.split(".", 1)[1]
        assert f"`{rule}`" in doc or f"`{generic}`" in shared, f"{rule} is not documented"
    for option in RULESETS[ruleset_id].options:
        assert option.key in doc, f"option {option.key} missing from docs/rulesets/{ruleset_id}.md"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_bench_validates_a_generated_sheet_of_the_bundled_cards(ruleset_id: str) -> None:
    from workbench.bench import bench_validation

    result = bench_validation(RULESETS[ruleset_id], cards=300, repeat=1)
    assert result["cards"] == 300
    assert result["total_seconds"] == pytest.approx(
        result["read_seconds"] + result["parse_seconds"] + result["check_seconds"], abs=1e-3
    )


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_each_ruleset_page_reads_once_from_top_to_bottom(ruleset_id: str) -> None:
    doc = (REPO_ROOT / "docs" / "rulesets" / f"{ruleset_id}.md").read_text(encoding="utf-8")
    headings = [line for line in doc.splitlines() if line.startswith("#")]
    repeated = sorted({heading for heading in headings if headings.count(heading) > 1 and heading.startswith("## ")})
    assert not repeated, f"docs/rulesets/{ruleset_id}.md repeats {repeated}"
    assert headings.count("## Simulation") == 1, "a page needs its one Simulation section"
    paragraphs = [block.strip() for block in doc.split("\n\n") if len(block.strip()) > 200]
    assert len(paragraphs) == len(set(paragraphs)), "a long paragraph stands twice"
    for table_start in (i for i, line in enumerate(doc.splitlines()) if line.startswith("|---")):
        assert doc.splitlines()[table_start - 1].startswith("| "), f"a table at line {table_start} lost its header"
