"""Issue 37, command-line numbers and a large power curve: every number of the limits table checked before the work
(bench's and the app's included), and a power curve whose memory grows with what it keeps, not with every match.

Each command runs in its own process (hostile_inputs.run_measured: exit code, wall time and that process's peak
resident memory). Run with `-s` to see each case's figures.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import numpy as np
import pytest
from hardening import hostile_inputs as h

from workbench import analysis
from workbench.bench import bench_engine, bench_validation
from workbench.cards import WorkbenchInputError
from workbench.decklists import read_decklist
from workbench.limits import LIMITS
from workbench.loading import load_cardset
from workbench.paths import bundled_decks, bundled_sets
from workbench.rulesets import RULESETS
from workbench.run_settings import RunSettings
from workbench.simulate import CounterRows, keep_counter_rows

REPO = h.REPO


def _said(run: h.Run, label: str) -> None:
    print(f"\nFANOUT {label}: exit {run.code} in {run.seconds:.2f} s, peak {run.peak_mib:.0f} MiB: {run.stderr[-300:]}")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["bench", "--cards", "1000000000"], ["--cards", "from 1 to 200,000", "bench_cards"]),
        (["bench", "--cards", "-5"], ["--cards", "from 1 to 200,000"]),
        (["bench", "--cards", "9" * 5000], ["--cards", "out of range"]),
        (["bench", "--repeat", "0"], ["--repeat", "from 1 to 100", "bench_repeat"]),
        (["bench", "--repeat", "1000"], ["--repeat", "from 1 to 100"]),
        (["bench", "--matches", "0"], ["--matches", "from 1 to 10,000,000"]),
        (["app", "--port", "70000"], ["--port", "from 1 to 65535"]),
        (["app", "--port", "-1"], ["--port", "from 1 to 65535"]),
        (["app", "--port", "0"], ["--port", "from 1 to 65535"]),
        (["app", "--port", "x"], ["--port", "not a whole number"]),
        (["app", "--port", "+-5"], ["--port", "not a whole number"]),
    ],
)
def test_a_command_line_number_out_of_its_range_is_a_usage_error_before_any_work(
    args: list[str], words: list[str], tmp_path: Path
) -> None:
    """Before: `bench --cards 1000000000` wrote into $TMPDIR without end, `--repeat 0` printed "best of 0",
    `--cards -5` meant 0, `app --port 70000` ended with exit 3 (OverflowError). Now each is exit 64 at once, and
    nothing is written to the temporary folder."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    run = h.run_measured(["env", f"TMPDIR={tmp}", "python", "-m", "workbench", *args], cap_bytes=2 * 2**30, timeout=60)
    _said(run, " ".join(arg[:20] for arg in args))
    assert run.code == 64, (run.code, run.stderr[-2000:])
    assert "Traceback" not in run.stderr
    for word in words:
        assert word in run.stderr, run.stderr
    assert run.seconds < 30 and run.peak_mib < 400
    assert not any(tmp.iterdir())


def test_the_bench_functions_check_their_numbers_too() -> None:
    ruleset = RULESETS["circles"]
    for call in (
        lambda: bench_validation(ruleset, cards=-5),
        lambda: bench_validation(ruleset, cards=1_000_000_000),
        lambda: bench_validation(ruleset, cards=10, repeat=0),
        lambda: bench_engine(ruleset, matches=10, repeat=0),
        lambda: bench_engine(ruleset, matches=0),
    ):
        with pytest.raises(WorkbenchInputError):
            call()


def test_the_bounds_are_in_the_limits_table() -> None:
    assert LIMITS["bench_cards"].value == LIMITS["rows"].value
    assert LIMITS["bench_repeat"].value == 100 and LIMITS["port"].value == 65_535
    page = (REPO / "docs/formats.md").read_text(encoding="utf-8")
    for name in ("bench_cards", "bench_repeat", "port"):
        assert f"| `{name}` |" in page


# A large power curve ----------------------------------------------------------------------------------------


def _circles_set(folder: Path, cards: int) -> Path:
    """circles' starter set, its rows repeated under new names up to `cards` cards, with the bundled decks."""
    source = REPO / "cardsets/circles/circle_starter.csv"
    with source.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "big.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
        for number in range(cards - len(rows)):
            row = dict(rows[number % len(rows)])
            row["name"], row["text"] = f"{row['name']} {number}", ""
            writer.writerow(row)
    shutil.copytree(REPO / "cardsets/circles/decks", folder / "decks")
    return path


def test_a_power_curve_over_2000_cards_keeps_only_the_counters_it_reads(tmp_path: Path) -> None:
    """Before: 2,000 cards at 10 matches per card peaked at 2.4 GB (every job kept the whole card table's
    counters; 20,000 cards reached 7.1 GB and a broken pool). After: about 0.3 GB on the 2-core machine."""
    path = _circles_set(tmp_path / "big", 2_000)
    run = h.workbench(
        "power-curve", str(path), "--matches-per-card", "10", "--format", "json", "-q", cap_bytes=6 * 2**30, timeout=600
    )
    _said(run, "power-curve 2,000 cards x 10 matches")
    assert run.code == 0, run.stderr[-2000:]
    assert run.stdout.rstrip().endswith("}")  # the runner keeps the output's last 20,000 characters only
    assert run.peak_mib < 1_024
    assert run.seconds < 400


def test_keeping_counter_rows_changes_no_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same power curve with the whole counters kept for every job (the old way) and with only the rows read:
    every power, flag, share and fingerprint equal."""
    cardset = load_cardset(bundled_sets("souls")[0], RULESETS["souls"])
    decks = [read_decklist(deck, cardset) for deck in bundled_decks("souls")]
    run = RunSettings(seed=3, workers=1)
    kept = analysis.power_curve(cardset, decks, 60, run, check_suggestions=False)
    monkeypatch.setattr(analysis, "keep_counter_rows", lambda rows_of_job: lambda index, outcome: outcome)
    whole = analysis.power_curve(cardset, decks, 60, run, check_suggestions=False)
    assert kept.cards.equals(whole.cards)
    assert kept.meta == whole.meta
    assert kept.fingerprints == whole.fingerprints and len(kept.fingerprints) == len(kept.cards) + 1
    assert kept.tiers.equals(whole.tiers) and (kept.intercept, kept.slope) == (whole.intercept, whole.slope)


def test_counter_rows_add_up_as_the_whole_counters_do() -> None:
    rng = np.random.default_rng(0)
    parts = [rng.integers(0, 50, size=(2, 30, 10)) for _ in range(3)]
    reduce = keep_counter_rows(lambda job: [4, 17, 2])
    reduced = [reduce(0, (np.zeros(1), np.zeros(1), part))[2] for part in parts]
    total = reduced[0].copy()
    for part in reduced[1:]:
        total += part
    assert isinstance(total, CounterRows)
    whole = np.sum(parts, axis=0)
    for card in (4, 17, 2):
        assert np.array_equal(total.of(card), whole[:, card : card + 1])
    untouched = (np.zeros(1), np.zeros(1), np.zeros((2, 30)))
    assert reduce(0, untouched) is untouched
