"""Issue 37, work in proportion to the input and output that cannot be forged or lost:

- "did you mean" for an unknown card name comes from an index built once per card set (`cards.NameIndex`), not a scan
  of every card per name: 2,000 unknown names against 20,000 cards took about 40 minutes;
- rename pairing in `diff` hashes the cards' other fields and weighs a shortlist, not every pair: two 1,000-card
  versions with every card renamed took 95 s;
- text output escapes line breaks and separators in user text, and a name holding one is a warning on load;
- an output that cannot be written (a folder, a read-only folder, a full disk) is exit 2 naming the path and the
  reason, never exit 3 naming the hidden temporary file.

Inputs are generated here; times are measured in this process, bounded generously for a loaded 2-core machine. Run
with `-s` to see the figures.
"""

from __future__ import annotations

import csv
import difflib
import errno
import os
import random
import string
import time
from pathlib import Path

import pytest

from workbench.cards import CardSet, NameIndex, closest_names, normalize_name, shown, text_lines
from workbench.cli import main
from workbench.decklists import parse_decklist
from workbench.diff import _pair_renames, diff_cardsets
from workbench.loading import load_cardset
from workbench.rulesets import RULESETS

SOULS = RULESETS["souls"]
HEADER = ["name", "kind", "soul_cost", "atk", "def", "abilities"]


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(5, 9))).title()


def _names(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    names: dict[str, None] = {}
    while len(names) < count:
        names[f"{_word(rng)} {_word(rng)}"] = None
    return list(names)


def _write_set(path: Path, names: list[str], seed: int = 5) -> Path:
    rng = random.Random(seed)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        for name in names:
            writer.writerow([name, "monster", rng.randint(0, 3), rng.randint(0, 9), rng.randint(1, 9), "Atk"])
    return path


def _full_scan(name: str, candidates: list[str], limit: int = 3) -> list[str]:
    """Today's suggestion before the index: difflib over every candidate."""
    by_key = {normalize_name(c): c for c in candidates}
    return [by_key[k] for k in difflib.get_close_matches(normalize_name(name), list(by_key), n=limit, cutoff=0.5)]


def _typo(rng: random.Random, name: str) -> str:
    at = rng.randrange(len(name))
    return name[:at] + rng.choice(string.ascii_lowercase) + name[at + 1 :]


@pytest.fixture(scope="module")
def big_set(tmp_path_factory: pytest.TempPathFactory) -> CardSet:
    folder = tmp_path_factory.mktemp("names")
    return load_cardset(_write_set(folder / "big.csv", _names(20_000, seed=1)), SOULS)


def test_two_thousand_unknown_names_against_twenty_thousand_cards_take_seconds(big_set: CardSet) -> None:
    unknown = _names(2_000, seed=2)
    decklist = "\n".join(f"1 {name}" for name in unknown)
    started = time.perf_counter()
    deck = parse_decklist(decklist, big_set)
    seconds = time.perf_counter() - started
    errors = [f for f in deck.load_findings if f.severity == "error"]
    hinted = [f for f in errors if "Did you mean" in f.message]
    print(f"\nNAMES 2,000 unknown names x 20,000 cards: {seconds:.2f} s ({len(hinted)} with suggestions)")
    assert len(errors) >= 2_000 and hinted
    # A scan per name took 1.2 s a line (40 minutes); the index takes a few seconds.
    assert seconds < 60


def test_the_index_suggests_what_a_full_scan_suggests_first(big_set: CardSet) -> None:
    rng = random.Random(3)
    names = big_set.names
    typos = [_typo(rng, name) for name in rng.sample(names, 12)]
    for typo in typos:
        assert closest_names(typo, names)[:1] == _full_scan(typo, names)[:1], typo
    # A small candidate list is scanned whole, as before: the same suggestions in the same order.
    small = names[:200]
    for typo in [_typo(rng, name) for name in small[:40]]:
        assert NameIndex(small).closest(typo) == _full_scan(typo, small)


def _versions(folder: Path, count: int) -> tuple[CardSet, CardSet]:
    names = _names(count, seed=7)
    old = load_cardset(_write_set(folder / "old.csv", names), SOULS)
    new = load_cardset(_write_set(folder / "new.csv", [name + "s" for name in names]), SOULS)
    return old, new


def test_a_thousand_cards_all_renamed_pair_in_seconds(tmp_path: Path) -> None:
    old, new = _versions(tmp_path, 1_000)
    started = time.perf_counter()
    result = diff_cardsets(old, new)
    seconds = time.perf_counter() - started
    print(f"\nRENAMES 1,000 cards, every one renamed: diff in {seconds:.2f} s")
    assert len(result.renamed) == 1_000 and not result.added and not result.removed
    assert all(change.name == change.old_name + "s" for change in result.renamed)
    assert seconds < 30  # 95 s before


def test_six_thousand_cards_all_renamed_pair_in_seconds(tmp_path: Path) -> None:
    old, new = _versions(tmp_path, 6_000)
    started = time.perf_counter()
    pairs = _pair_renames(list(old), list(new))
    seconds = time.perf_counter() - started
    print(f"\nRENAMES 6,000 cards, every one renamed: pairing in {seconds:.2f} s")
    assert len(pairs) == 6_000
    assert all(b.card.name == a.card.name + "s" for a, b in pairs)
    assert seconds < 60  # over 120 s before


def test_identical_cards_but_for_the_name_pair_by_name_likeness(tmp_path: Path) -> None:
    # Every card has the same fields, so all share one hash bucket: the names alone decide, as a full scan would.
    names = _names(400, seed=9)
    for path, suffix in ((tmp_path / "a.csv", ""), (tmp_path / "b.csv", "x")):
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(HEADER)
            writer.writerows([[name + suffix, "monster", 1, 2, 2, "Atk"] for name in names])
    old, new = load_cardset(tmp_path / "a.csv", SOULS), load_cardset(tmp_path / "b.csv", SOULS)
    pairs = _pair_renames(list(old), list(new))
    assert len(pairs) == 400 and all(b.card.name == a.card.name + "x" for a, b in pairs)


def _set_with_first_name(path: Path, name: str) -> Path:
    rows = [
        [name, "monster", 0, 9, 9, "Atk"],  # under its cost: a finding that prints the name
        ["Ember Imp", "monster", 0, 1, 1, "Atk"],
    ]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    return path


@pytest.mark.parametrize("separator", ["\n", "\r", "\u2028", "\u2029", "\x85"])
def test_a_name_with_a_line_break_cannot_forge_a_line_of_validate_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], separator: str
) -> None:
    forged = f"Grave Imp{separator}cards.csv:3:atk: error [souls.cost] card 'Ember Imp' forged"
    path = _set_with_first_name(tmp_path / "cards.csv", forged)
    code = main(["validate", str(path)])
    out = capsys.readouterr().out
    assert code == 0  # warnings only
    lines = out.splitlines()
    assert not [line for line in lines if line.startswith("cards.csv:3:atk")], out
    assert any("name_characters" in line and "line break" in line for line in lines), out
    escaped = shown(separator)
    assert escaped != separator and escaped in out


def test_shown_and_text_lines() -> None:
    assert shown("a\nb\u2028c\x85d") == "a\\nb\\u2028c\\x85d"
    assert shown("Café Imp") == "Café Imp"
    # A decklist line holding U+2028 stays one line (str.splitlines would split it into two).
    assert text_lines("2 Grave\u2028Imp\r\n1 Ember Imp\n") == ["2 Grave\u2028Imp", "1 Ember Imp"]


def test_a_name_with_a_line_separator_keeps_the_decklists_line_numbers(tmp_path: Path) -> None:
    cardset = load_cardset(_set_with_first_name(tmp_path / "cards.csv", "Grave\u2028Imp"), SOULS)
    deck = parse_decklist("2 Grave\u2028Imp\n1 Nope Imp\n", cardset)
    unknown = [f for f in deck.load_findings if f.severity == "error"]
    assert [f.row for f in unknown] == [2]


def test_diff_patch_notes_escape_line_breaks(tmp_path: Path) -> None:
    old = load_cardset(_set_with_first_name(tmp_path / "old.csv", "Grave Imp"), SOULS)
    new = load_cardset(_set_with_first_name(tmp_path / "new.csv", "Grave Imp\nRemoved: Ember Imp."), SOULS)
    notes = diff_cardsets(old, new).patch_notes()
    assert all("\n" not in line for line in notes), notes


@pytest.mark.parametrize("command", ["report", "print"])
def test_out_naming_a_folder_is_exit_2_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    path = _set_with_first_name(tmp_path / "cards.csv", "Grave Imp")
    folder = tmp_path / "out.html"
    folder.mkdir()
    code = main([command, str(path), "--out", str(folder)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert str(folder) in err and "is a folder" in err
    assert ".tmp" not in err and "internal error" not in err


@pytest.mark.parametrize(
    ("failing", "reason"),
    [
        ("mkstemp", errno.EACCES),  # a read-only folder: the temporary file cannot be made
        ("fsync", errno.ENOSPC),  # a full disk
        ("replace", errno.EROFS),  # a read-only file system
    ],
)
def test_an_output_that_cannot_be_written_is_exit_2_with_path_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, failing: str, reason: int
) -> None:
    import tempfile

    path = _set_with_first_name(tmp_path / "cards.csv", "Grave Imp")
    out = tmp_path / "report.html"
    out.write_text("the old report", encoding="utf-8")

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(reason, os.strerror(reason), str(tmp_path / ".report.html.123.abc.tmp"))

    target = {"mkstemp": tempfile, "fsync": os, "replace": os}[failing]
    monkeypatch.setattr(target, failing, fail)
    code = main(["report", str(path), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert str(out) in err and os.strerror(reason) in err
    assert ".tmp" not in err and "internal error" not in err
    assert out.read_text(encoding="utf-8") == "the old report"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
