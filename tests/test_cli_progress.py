"""The command line's progress bar (issue 36): tqdm on stderr with the share done, matches a second and the time left;
drawn only for a terminal and not under -q; a note goes above it; Ctrl-C still exits 130 with no partial file."""

from __future__ import annotations

import io
import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import tqdm.std

from workbench.cli import EXIT_INTERRUPTED, ProgressBar, _Say, main
from workbench.paths import REPO_ROOT
from workbench.rulesets import RULESETS


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class Clock:
    """tqdm's clock, moved by hand: the rate and the time left come out exact."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = 1000.0
        monkeypatch.setattr(tqdm.std, "time", lambda: self.now)


@pytest.fixture(autouse=True)
def _said_plainly() -> None:
    _Say.quiet = _Say.verbose = False
    ProgressBar.close_all()


def _lines(stream: Terminal) -> list[str]:
    """What a terminal shows at the end: each line as its last carriage return left it."""
    return [line.rsplit("\r", 1)[-1] for line in stream.getvalue().split("\n")]


def test_the_bar_shows_matches_a_second_and_the_time_left_counted_from_the_first_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock, stream = Clock(monkeypatch), Terminal()
    progress = ProgressBar("simulate", stream)
    progress(0, 1000)
    assert "simulate:   0%" in stream.getvalue() and "0/1,000 matches" in stream.getvalue()
    clock.now += 90  # the engine compiles: no match is played, and this time is not in the rate
    progress(0, 1000)
    progress(100, 1000)
    clock.now += 2
    progress(300, 1000)
    drawn = stream.getvalue().rsplit("\r", 1)[-1]
    assert "30%" in drawn and "300/1,000 matches" in drawn
    assert "100 matches/s" in drawn and "ETA 00:07" in drawn  # 200 matches in 2 s; 700 left
    clock.now += 7
    progress(1000, 1000)
    shown = _lines(stream)
    assert shown[-1] == ""  # the finished bar ends its line
    assert [line for line in shown if line.strip()] == [shown[-2]]  # the bar of the loading time was cleared
    assert "100%" in shown[-2] and "1,000/1,000 matches" in shown[-2] and "ETA 00:00" in shown[-2]
    assert "elapsed" in shown[-2]
    before = stream.getvalue()
    progress(1000, 1000)  # the same end reported again draws nothing
    assert stream.getvalue() == before
    assert not ProgressBar.drawn


def test_a_run_that_reports_a_share_shows_the_time_left_and_no_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    clock, stream = Clock(monkeypatch), Terminal()
    progress = ProgressBar("proposals", stream, unit=None)  # steps scaled to 1,000,000 each: not matches
    progress(0, 3_000_000)
    progress(1_000_000, 3_000_000)
    clock.now += 10
    progress(2_000_000, 3_000_000)
    drawn = stream.getvalue().rsplit("\r", 1)[-1]
    assert "proposals:  67%" in drawn and "ETA 00:10" in drawn
    assert "matches" not in stream.getvalue() and "2,000,000" not in stream.getvalue()


def test_a_new_total_or_a_count_that_goes_back_starts_a_new_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    clock, stream = Clock(monkeypatch), Terminal()
    progress = ProgressBar("power curve", stream)
    for total in (400, 400, 900):  # power-curve --decide runs again; a second run of the same size starts at 0
        progress(0, total)
        for done in range(100, total + 1, 100):
            clock.now += 1
            progress(done, total)
    bars = [line for line in _lines(stream) if line.strip()]
    assert len(bars) == 3
    assert "400/400 matches" in bars[0] and "400/400 matches" in bars[1] and "900/900 matches" in bars[2]
    assert all("100 matches/s" in bar for bar in bars)


def test_no_bar_under_quiet_or_when_stderr_is_not_a_terminal() -> None:
    _Say.quiet = True
    stream = Terminal()
    ProgressBar("simulate", stream)(5, 10)
    assert stream.getvalue() == ""
    _Say.quiet = False
    plain = io.StringIO()  # a log, a pipe, CI
    ProgressBar("simulate", plain)(5, 10)
    assert plain.getvalue() == ""


def test_a_note_while_a_bar_is_drawn_goes_on_a_line_above_it(monkeypatch: pytest.MonkeyPatch) -> None:
    Clock(monkeypatch)
    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    progress = ProgressBar("simulate")
    progress(0, 100)
    _Say.note("workbench: compiling the toy engine")
    progress(50, 100)
    shown = _lines(stream)
    assert "workbench: compiling the toy engine" in shown
    assert shown[-1].startswith("simulate:  50%")  # the bar drawn again, below the note
    ProgressBar.close_all()
    assert _lines(stream)[-1] == "" and not ProgressBar.drawn


def _toy_set(tmp_path: Path) -> Path:
    from toy_engine import write_toy_set_with_decks

    return write_toy_set_with_decks(tmp_path)


def test_every_running_command_draws_its_bar_on_a_terminal_and_none_under_quiet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each command that plays matches, with --format json on a terminal's stderr (as before tqdm: the JSON is on
    stdout, whole). Matches a second where the run counts matches; the share and the time left where it reports
    weighted steps (a sweep's values, a report's stages)."""
    from toy_engine import TOY, TOY_CARDS

    monkeypatch.setitem(RULESETS, "toy", TOY)
    sheet = str(_toy_set(tmp_path))
    changed = tmp_path / "toy_v2.csv"
    changed.write_text(TOY_CARDS.replace("Mid,unit,2,4", "Mid,unit,2,5"), encoding="utf-8")
    toy = ["--ruleset", "toy"]
    decks = ["--deck", "a_reference", "--deck", "b_other"]
    small = ["--matches-per-card", "40"]
    commands: dict[str, list[str]] = {
        "simulate": ["simulate", sheet, *toy, *decks, "--matches", "300"],
        "matchups": ["simulate", sheet, *toy, *decks, "--deck", "a_reference", "--matches", "50"],
        "power curve": ["power-curve", sheet, *toy, "--matches-per-card", "100"],
        "health": ["health", sheet, *toy, "--matches", "100"],
        "power": ["diff", sheet, str(changed), *toy, "--deck", "a_reference", *small],
        "sweep": ["sweep", sheet, *toy, "--card", "Mid", "--field", "strength", "--values", "3,5", *small],
        "report": ["report", sheet, *toy, *small, "--matches", "60", "--out", str(tmp_path / "r.html")],
    }
    _each_draws_its_bar(commands, {"simulate", "matchups", "power curve", "health", "power"}, monkeypatch, capsys)


def test_whole_games_draw_a_bar_counting_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    small = ["--option", "game=full", "--option", "players=2", "--option", "market_actions=2"]
    small += ["--option", "two_player_rules=normal"]
    for label, argv in {
        "whole games": ["simulate", "blades/blades_sample", *small, "--matches", "3"],
        "whole-game power curve": ["power-curve", "blades/blades_sample", *small, "--matches-per-card", "1"],
        "whole-game sweep": [
            "sweep",
            "blades/blades_sample",
            *small,
            "--card",
            "Cathedral Engine",
            "--field",
            "buy_cost",
            "--values",
            "2,5",
            "--matches-per-card",
            "1",
        ],
    }.items():
        stream = Terminal()
        monkeypatch.setattr(sys, "stderr", stream)
        assert main([*argv, "--workers", "1", "--format", "json"]) == 0, label
        capsys.readouterr()
        bars = [line for line in _lines(stream) if line.startswith(f"{label}:")]
        assert bars and "100%" in bars[-1] and "games/s" in bars[-1] and "ETA" in bars[-1], (label, bars)
        assert "matches" not in bars[-1], bars[-1]


def test_stat_values_and_propose_draw_a_bar_of_their_steps(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On circles (the toy game has no stat design). Their runs report steps scaled to 1,000,000 each, not matches:
    the share done and the time left, no rate."""
    commands = {
        "stat values": ["stat-values", "circles/circle_starter", "--cards", "12", "--matches-per-card", "40"],
        "proposals": ["propose", "circles/circle_starter", "--matches-per-card", "20", "--evaluations", "3"],
    }
    commands["stat values"] += ["--replicates", "2"]
    _each_draws_its_bar(commands, set(), monkeypatch, capsys)


def _each_draws_its_bar(
    commands: dict[str, list[str]],
    counting_matches: set[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for label, argv in commands.items():
        stream = Terminal()
        monkeypatch.setattr(sys, "stderr", stream)
        assert main([*argv, "--workers", "1", "--format", "json"]) == 0, label
        assert json.loads(capsys.readouterr().out)["schema_version"] == 1, label
        bars = [line for line in _lines(stream) if line.startswith(f"{label}:")]
        assert bars and "%|" in bars[-1] and "ETA" in bars[-1], (label, stream.getvalue()[-300:])
        assert ("matches/s" in bars[-1]) == (label in counting_matches), (label, bars[-1])
        assert "100%" in bars[-1] or label in ("report", "proposals"), bars[-1]  # these may end short of the total
        assert _lines(stream)[-1] == "" and not ProgressBar.drawn, label  # the bar ended its line
        quiet = Terminal()
        monkeypatch.setattr(sys, "stderr", quiet)
        assert main([*argv, "--workers", "1", "--format", "json", "-q"]) == 0, label
        capsys.readouterr()
        assert quiet.getvalue() == "", label


def test_ctrl_c_exits_130_with_no_partial_file_and_the_bar_ended_on_its_own_line(tmp_path: Path) -> None:
    """A report on a terminal, interrupted while its bar moves: exit 130, no report file, nothing left in the folder,
    and `workbench: interrupted.` on a line of its own under the bar's last state."""
    sheet = _toy_set(tmp_path)
    out = tmp_path / "report.html"
    launcher = (
        "import sys; sys.path.insert(0, sys.argv[1]); from toy_engine import TOY; "
        "from workbench.rulesets import RULESETS; RULESETS['toy'] = TOY; from workbench.cli import main; "
        "raise SystemExit(main(sys.argv[2:]))"
    )
    command = [
        sys.executable,
        "-c",
        launcher,
        str(REPO_ROOT / "tests"),
        "report",
        str(sheet),
        "--ruleset",
        "toy",
        "--matches-per-card",
        "1000000",
        "--workers",
        "1",
        "--out",
        str(out),
    ]
    main_fd, terminal_fd = pty.openpty()
    env = {**os.environ, "COLUMNS": "100"}
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=terminal_fd, env=env)
    os.close(terminal_fd)
    shown = b""
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and shown.count(b"elapsed, ETA") < 3:  # the bar has moved
            shown += os.read(main_fd, 4096)
        assert b"report:" in shown and process.poll() is None, shown[-500:]
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
        while True:
            try:
                chunk = os.read(main_fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main_fd)
    assert process.returncode == EXIT_INTERRUPTED
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["decks", "toy.csv"]
    text = shown.decode(errors="replace").replace("\r\n", "\n")
    last_lines = [line.rsplit("\r", 1)[-1] for line in text.split("\n") if line.rsplit("\r", 1)[-1]]
    assert last_lines[-1] == "workbench: interrupted."
    assert last_lines[-2].startswith("report:") and "%|" in last_lines[-2]
