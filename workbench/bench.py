"""Benchmarks behind `workbench bench`. Speed targets live here, not in timed tests."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl

from workbench.cards import WorkbenchInputError
from workbench.limits import limit, run_refused
from workbench.loading import cardset_from_table
from workbench.paths import bundled_sets
from workbench.play.policies import SEARCH, policy_code, policy_word
from workbench.rulesets.base import Ruleset, normalize_header
from workbench.spreadsheets import read_sheet


def check_bench(cards: int | None = None, repeat: int | None = None, matches: int | None = None) -> None:
    """Refuse a bench figure outside the limits table (`bench_cards`, `bench_repeat`, `matches`, each from 1) before
    anything is generated, written or played: `--cards 1000000000` once wrote into $TMPDIR without end, `--repeat 0`
    printed "best of 0" and `--cards -5` meant an empty sheet."""
    for name, value, what in (
        ("bench_cards", cards, "cards"),
        ("bench_repeat", repeat, "runs"),
        ("matches", matches, "matches"),
    ):
        if value is not None and value < 1:
            raise WorkbenchInputError(
                f"{value:,} {what} is out of range for workbench bench.",
                expected=f"1 to {limit(name).shown()}",
            )
        if value is not None and value > limit(name).value:
            raise run_refused(name, f"the bench asks for {value:,} {what}")


def write_large_sheet(ruleset: Ruleset, cards: int, out_path: Path) -> Path:
    """An xlsx of `cards` rows made by repeating the bundled sample set with numbered names."""
    sample = read_sheet(bundled_sets(ruleset.id)[0])
    name_index = next(
        i for i, h in enumerate(sample.headers) if ruleset.header_lookup.get(normalize_header(h)) == "name"
    )
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet("Cards")
    sheet.append(sample.headers)
    for number in range(cards):
        _, values = sample.rows[number % len(sample.rows)]
        row = list(values)
        row[name_index] = f"{values[name_index]} #{number // len(sample.rows) + 1}"
        sheet.append(row)
    workbook.save(out_path)
    return out_path


def bench_validation(ruleset: Ruleset, cards: int = 10_000, repeat: int = 3) -> dict[str, Any]:
    """Best-of-`repeat` seconds to read, parse and check a generated sheet of `cards` cards, and which xlsx reader
    read it (`calamine`, or `streaming` when WORKBENCH_XLSX_READER=streaming turns the fast reader off)."""
    check_bench(cards=cards, repeat=repeat)
    with tempfile.TemporaryDirectory() as folder:
        path = write_large_sheet(ruleset, cards, Path(folder) / f"{ruleset.id}_{cards}.xlsx")
        best: dict[str, float] | None = None
        for _ in range(repeat):
            start = time.perf_counter()
            table = read_sheet(path)
            read_done = time.perf_counter()
            cardset = cardset_from_table(table, ruleset)
            parse_done = time.perf_counter()
            findings = ruleset.check_cards(cardset, ruleset.resolve_options())
            check_done = time.perf_counter()
            timing = {
                "read_seconds": read_done - start,
                "parse_seconds": parse_done - read_done,
                "check_seconds": check_done - parse_done,
                "total_seconds": check_done - start,
            }
            if best is None or timing["total_seconds"] < best["total_seconds"]:
                best = timing
    assert best is not None
    return {
        "ruleset": ruleset.id,
        "ruleset_version": ruleset.version,
        "cards": len(cardset),
        "findings": len(findings) + len(cardset.load_findings),
        "reader": table.reader,
        "repeat": repeat,
        **{k: round(v, 4) for k, v in best.items()},
    }


def bundled_cardset_and_decks(ruleset: Ruleset) -> tuple[Any, list[Any]]:
    """The ruleset's first bundled card set and its bundled decks, as the engine figures play them (also read by the
    engines' speed and fit scripts in tests/rulesets/)."""
    from workbench.decklists import read_decklist
    from workbench.loading import load_cardset
    from workbench.paths import bundled_decks

    cardset = load_cardset(bundled_sets(ruleset.id)[0], ruleset)
    return cardset, [read_decklist(path, cardset) for path in bundled_decks(ruleset.id)]


BENCH_MATCHES = 200_000
"""Matches an engine figure plays under greedy, random or epsilon-greedy unless `--matches` says otherwise."""


def bench_engine(
    ruleset: Ruleset,
    matches: int = BENCH_MATCHES,
    repeat: int = 3,
    policy: str = "greedy",
    options: Mapping[str, str] | None = None,
    *,
    reference: bool = True,
) -> dict[str, Any]:
    """Matches per second on one core (this process) for the first two bundled decks, best of `repeat`, under the
    rule options given (the ruleset's defaults otherwise); with `reference`, the plain-Python reference engine's
    figure beside it where the ruleset ships one."""
    from workbench.simulate import batch_seeds, compile_for

    check_bench(repeat=repeat, matches=matches)
    cardset, decks = bundled_cardset_and_decks(ruleset)
    engine, compiled, resolved = compile_for(cardset, options)
    deck_a = compiled.deck_array(decks[0])
    deck_b = compiled.deck_array(decks[1] if len(decks) > 1 else decks[0])
    policy_id = policy_word(policy, engine.policies, engine.search_settings)
    # One batch holding every match: the figure is the kernel's speed, not the runner's bookkeeping.
    seeds = np.concatenate([s for s, _ in batch_seeds(0, matches)])
    first = (np.arange(matches) % 2).astype(np.int8)
    start = time.perf_counter()
    engine.play_batch(compiled, deck_a, deck_b, seeds[:10], first[:10], policy_id, policy_id)
    first_call = time.perf_counter() - start
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        engine.play_batch(compiled, deck_a, deck_b, seeds, first, policy_id, policy_id)
        best = min(best, time.perf_counter() - start)
    result = {
        "ruleset": ruleset.id,
        "ruleset_version": ruleset.version,
        "engine_version": engine.version,
        "policy": policy,
        "options": {key: resolved[key] for key in (options or {})},
        "deck_a": decks[0].name,
        "deck_b": (decks[1] if len(decks) > 1 else decks[0]).name,
        "matches": matches,
        "repeat": repeat,
        "first_call_seconds": round(first_call, 3),
        "seconds": round(best, 4),
        "matches_per_second": round(matches / best),
    }
    plain = (
        bench_reference_engine(ruleset, cardset, deck_a, deck_b, seeds, first, policy_id, resolved)
        if reference
        else None
    )
    if plain is not None:
        plain["speedup"] = round(result["matches_per_second"] / max(plain["matches_per_second"], 1), 1)
        result["reference"] = plain
    return result


SEARCH_MATCHES = 200
"""Matches the search figure plays: search is 10 to 1,000 times slower than greedy (issue 33), so 200 matches keep
the slowest engine's figure under a minute while the one-core rate is still steady to a few per cent."""

WHOLE_GAMES = 200
"""Whole games the whole-game figure plays (after one game that loads or compiles the engine). 200, not 20: the
first games of a run also make the market's valuations of each metagame they meet, and at 20 games two runs of one
tree gave 84 and 133 games a second (docs/benchmarks.md, 2026-12-04); a compiled game takes a few milliseconds."""


def bench_matches_for(policy: str, ruleset: Ruleset) -> int:
    """Matches an engine figure plays under `policy` when the person gives no count: BENCH_MATCHES, or under a
    search policy SEARCH_MATCHES, as the search figure (`workbench bench --policy search` once played 200,000
    searched matches per figure: about an hour a repeat in SOURCE)."""
    engine = ruleset.engine
    if engine is None:
        return BENCH_MATCHES
    searched = policy_code(policy_word(policy, engine.policies, engine.search_settings)) == SEARCH
    return SEARCH_MATCHES if searched else BENCH_MATCHES


def bench_search(
    ruleset: Ruleset, matches: int = SEARCH_MATCHES, options: Mapping[str, str] | None = None
) -> dict[str, Any] | None:
    """Search matches per second on one core (both sides searching at the engine's default budget, the first two
    bundled decks), or None for an engine without a search policy. What a power curve under `--policy search`
    waits for."""
    if ruleset.engine is None or "search" not in ruleset.engine.policies:
        return None
    return bench_engine(ruleset, matches=matches, repeat=1, policy="search", options=options, reference=False)


def bench_whole_games(ruleset: Ruleset, games: int = WHOLE_GAMES) -> dict[str, Any] | None:
    """Whole games per second on one core (`--option game=full`, the bundled set), after one game that loads the
    engine: every seat greedy, and (`against_random`) seat A greedy against random seats, as the whole-game power
    curve plays by default; None for a ruleset without whole games. `engine_version` is the version the figures are
    kept under (`workbench.pace.whole_game_version`: the tournament engine's and the market's)."""
    from workbench.full_game import run_full_games
    from workbench.full_game_registry import supports_full_game
    from workbench.pace import whole_game_policy, whole_game_version

    if not supports_full_game(ruleset):
        return None
    check_bench(matches=games)
    cardset, _ = bundled_cardset_and_decks(ruleset)
    start = time.perf_counter()
    run_full_games(cardset, {"game": "full"}, 1, seed=0, workers=1)
    first_call = time.perf_counter() - start
    start = time.perf_counter()
    result = run_full_games(cardset, {"game": "full"}, games, seed=0, workers=1)
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    mixed = run_full_games(cardset, {"game": "full"}, games, seed=0, policy="greedy", policy_b="random", workers=1)
    mixed_seconds = time.perf_counter() - start
    return {
        "games": games,
        "players": int(result.meta["options"].get("players", 0)),
        "policy": result.meta["policies"][0],
        "engine_version": whole_game_version(ruleset),
        "first_call_seconds": round(first_call, 3),
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2),
        "against_random": {
            "policy": whole_game_policy(mixed.meta["policies"][0], mixed.meta["policies"][-1]),
            "seconds": round(mixed_seconds, 3),
            "games_per_second": round(games / mixed_seconds, 2),
        },
    }


REFERENCE_MATCHES = 2_000
"""Matches the plain-Python reference engine plays for its figure (it is slow; that is its point)."""


def bench_reference_engine(
    ruleset: Ruleset,
    cardset: Any,
    deck_a: Any,
    deck_b: Any,
    seeds: Any,
    first: Any,
    policy_id: int,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any] | None:
    """Matches per second of the ruleset's per-object Python engine, if it ships one (`reference_engine.py` beside
    `engine.py`, with `ReferenceEngine(cardset, options).play_batch(...)`), on the same decks, seeds and options."""
    import importlib
    import importlib.util

    if ruleset.engine_module is None:
        return None
    name = ruleset.engine_module.rsplit(".", 1)[0] + ".reference_engine"
    if importlib.util.find_spec(name) is None:
        return None
    engine = importlib.import_module(name).ReferenceEngine(cardset, ruleset.resolve_options(options))
    count = min(REFERENCE_MATCHES, len(seeds))
    start = time.perf_counter()
    engine.play_batch(
        deck_a.tolist(), deck_b.tolist(), seeds[:count].tolist(), first[:count].tolist(), policy_id, policy_id
    )
    seconds = time.perf_counter() - start
    return {
        "module": name,
        "matches": count,
        "seconds": round(seconds, 3),
        "matches_per_second": round(count / seconds),
    }


def bench_power_curve(
    ruleset: Ruleset,
    matches_per_card: int = 2_000,
    workers: int | None = None,
    policy: str = "greedy",
    options: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Seconds for a power curve over the whole bundled set and its bundled decks, on every core."""
    from workbench.analysis import power_curve
    from workbench.run_settings import RunSettings

    cardset, decks = bundled_cardset_and_decks(ruleset)
    start = time.perf_counter()
    curve = power_curve(cardset, decks, matches_per_card, RunSettings(policy=policy, options=options, workers=workers))
    seconds = time.perf_counter() - start
    return {
        "ruleset": ruleset.id,
        "cards_measured": len(curve.cards),
        "matches_per_card": curve.meta["matches_per_card"],
        "matches": curve.meta["matches_per_card"] * (len(curve.cards) + 1),
        "policy": curve.meta["policies"][0],
        "options": curve.meta["options"],
        "seconds": round(seconds, 3),
    }
