"""Card-design and balance workbench.

Load card spreadsheets for five card games, validate every card against its game's cost formula and every decklist
against its construction rules, simulate seeded matches, and measure each card's power against its cost.

From Python (a notebook, a script), the functions below take a card set by the name every command takes
(`"souls/ashfall"`, `workbench sets` lists them), by a path to an .xlsx or .csv sheet, or as a loaded `CardSet`:

    import workbench
    cards = workbench.open_set("souls/ashfall")
    workbench.validate_set(cards).findings            # what `workbench validate` prints
    results = workbench.simulate_matches(cards, "ember_rush", "stone_bastion", matches=2_000)
    results.win_rate_a                                # win rate with its 95% interval
    curve = workbench.power_curve(cards, matches_per_card=500)
    curve.cards                                       # a DataFrame: each card's power, interval and verdict
    workbench.power_curve_figure(curve)               # the Balance page's chart, a plotly figure
    workbench.game_health(cards, matches=500).warnings

Importing the package is light: each function imports what it needs (pandas, numba, plotly) when first called.
"""

from __future__ import annotations

TYPE_CHECKING = False
"""`typing.TYPE_CHECKING` without importing typing (a few milliseconds): the names below are for annotations only."""
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from os import PathLike
    from pathlib import Path
    from typing import Any

    from plotly.graph_objects import Figure

    from workbench.analysis import PowerCurve
    from workbench.cards import CardSet, Deck
    from workbench.health import GameHealth
    from workbench.paths import BundledSet
    from workbench.rulesets.base import Ruleset
    from workbench.simulate import MatchResults
    from workbench.validate import Report

__version__ = "0.1.0"
"""The one place the version is written: pyproject.toml reads it at build time ([tool.setuptools.dynamic])."""

__all__ = [
    "__version__",
    "bundled_sets",
    "find_cardset",
    "game_health",
    "open_deck",
    "open_set",
    "power_curve",
    "power_curve_figure",
    "simulate_matches",
    "validate_set",
]

# The functions are not named after the modules that hold the work (`workbench.validate`, `workbench.simulate`,
# `workbench.health`): importing a submodule binds its name on the package, which would replace a function of the
# same name here.


def bundled_sets() -> list[BundledSet]:
    """The card sets that come with the package (`workbench sets`): each with its `name`, `ruleset_id`, `path` and
    `decks` (decklist files)."""
    from workbench.paths import bundled_catalogue

    return bundled_catalogue()


def find_cardset(name_or_path: str | PathLike[str]) -> Path:
    """The card sheet a command's CARDSET argument names: an existing file, else a bundled set's name
    (`souls/ashfall`, any case). Raises `WorkbenchInputError` (naming the bundled sets) for anything else."""
    from pathlib import Path

    from workbench.cards import WorkbenchInputError
    from workbench.paths import bundled_catalogue, find_bundled_set

    path = Path(name_or_path)
    if path.exists():
        return path
    bundled = find_bundled_set(str(name_or_path))
    if bundled is not None:
        return bundled.path
    names = [entry.name for entry in bundled_catalogue()]
    raise WorkbenchInputError(
        "the file does not exist, and no bundled set has that name.",
        path=str(name_or_path),
        expected="an .xlsx or .csv card sheet, - for standard input, or a bundled set's name"
        + (f" ({', '.join(names)}; workbench sets lists them)" if names else ""),
    )


def open_set(name_or_path: CardSet | str | PathLike[str], ruleset: str | Ruleset | None = None) -> CardSet:
    """A card set: a bundled set's name (`"souls/ashfall"`) or a path to a sheet; the ruleset from `ruleset`, else the
    workbook's Set sheet, else detected from the headers (as every command reads CARDSET and `--ruleset`)."""
    from workbench.cards import CardSet
    from workbench.loading import load_cardset

    if isinstance(name_or_path, CardSet):
        return name_or_path
    return load_cardset(find_cardset(name_or_path), ruleset)


def open_deck(cardset: CardSet | str | PathLike[str], deck: Deck | str | PathLike[str]) -> Deck:
    """One deck of a card set: a decklist file, or the name of one of the set's decks (its Decks sheet, then the
    decks/ folder beside the sheet), as `--deck` reads it."""
    return _decks(open_set(cardset), [deck])[0]


def _decks(cardset: CardSet, decks: Sequence[Deck | str | PathLike[str]] | None, default: str = "set") -> list[Deck]:
    """Decks as the commands take them: Deck objects as they are, files and names resolved; None: the set's own
    decks (`default` "set": Decks sheet, then decks/ folder; "workbook": the Decks sheet only)."""
    from workbench.cards import Deck
    from workbench.decklists import resolve_decks, set_decks
    from workbench.paths import decks_folder_beside

    folder = None if cardset.path == "stdin" else decks_folder_beside(cardset.path)
    if decks is None:
        return list(set_decks(cardset, folder if default == "set" else None).decks)
    named = [str(deck) for deck in decks if not isinstance(deck, Deck)]
    resolved = iter(resolve_decks(named, cardset, folder)[0] if named else [])
    return [deck if isinstance(deck, Deck) else next(resolved) for deck in decks]


def _run(seed: int | None, policy: str | None, options: Mapping[str, Any] | None, workers: int | None) -> Any:
    from workbench.run_settings import RunSettings

    defaults = RunSettings()
    return RunSettings(
        seed=defaults.seed if seed is None else seed,
        policy=defaults.policy if policy is None else policy,
        options=dict(options) if options else None,
        workers=workers,
    )


def validate_set(
    cardset: CardSet | str | PathLike[str],
    decks: Sequence[Deck | str | PathLike[str]] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Report:
    """`workbench validate`: every card against its cost formula, every deck against its construction rules.
    `decks` None validates the workbook's Decks sheet (if any); `options` are rule options (`{"strict_costs": True}`).
    The report's `findings` follow the finding contract; `has_errors` is what makes the command exit 1."""
    from workbench.validate import validate

    loaded = open_set(cardset)
    return validate(loaded, _decks(loaded, decks, default="workbook"), options)


def simulate_matches(
    cardset: CardSet | str | PathLike[str],
    deck_a: Deck | str | PathLike[str],
    deck_b: Deck | str | PathLike[str] | None = None,
    matches: int = 10_000,
    *,
    seed: int | None = None,
    policy: str | None = None,
    policy_b: str | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int | None = None,
) -> MatchResults:
    """`workbench simulate`: seeded matches of deck A against deck B (a mirror match without B). The results hold
    `win_rate_a` and `first_player_win_rate` with 95% intervals, `matches` (one row per match) and `summary()`."""
    from workbench.simulate import simulate

    loaded = open_set(cardset)
    wanted = [deck_a] if deck_b is None else [deck_a, deck_b]
    decks = _decks(loaded, wanted)
    return simulate(
        loaded,
        decks[0],
        decks[1] if len(decks) > 1 else None,
        matches,
        _run(seed, policy, options, workers),
        policy_b=policy_b,
    )


def power_curve(
    cardset: CardSet | str | PathLike[str],
    decks: Sequence[Deck | str | PathLike[str]] | None = None,
    matches_per_card: int | None = None,
    *,
    seed: int | None = None,
    policy: str | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int | None = None,
) -> PowerCurve:
    """`workbench power-curve`: each card's simulated power against its cost. `decks`: the reference deck first, then
    the gauntlet (None: the set's own decks). `curve.cards` is a DataFrame (power, 95% interval, flag, reason, ...);
    `power_curve_figure(curve)` draws it."""
    from workbench.analysis import power_curve as measure
    from workbench.cards import WorkbenchInputError
    from workbench.power_defaults import POWER_CURVE_DEFAULTS

    loaded = open_set(cardset)
    chosen = _decks(loaded, decks)
    if not chosen:
        raise WorkbenchInputError(
            "a power curve needs decks, and the set has none of its own.",
            expected="decks=[reference, gauntlet, ...]: decklist files or Deck objects",
        )
    per_card = POWER_CURVE_DEFAULTS.matches_per_card if matches_per_card is None else matches_per_card
    return measure(loaded, chosen, per_card, _run(seed, policy, options, workers))


def game_health(
    cardset: CardSet | str | PathLike[str],
    decks: Sequence[Deck | str | PathLike[str]] | None = None,
    matches: int | None = None,
    *,
    seed: int | None = None,
    policy: str | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int | None = None,
) -> GameHealth:
    """`workbench health`: every ordered pair of the decks (None: the set's own decks), `matches` per pair; the
    result's `figures`, `warnings` and `to_json()` are what the command prints."""
    from workbench.health import game_health as measure
    from workbench.power_defaults import POWER_CURVE_DEFAULTS

    loaded = open_set(cardset)
    per_pair = POWER_CURVE_DEFAULTS.matches_per_pair if matches is None else matches
    return measure(loaded, _decks(loaded, decks), per_pair, _run(seed, policy, options, workers))


def power_curve_figure(curve: PowerCurve) -> Figure:
    """The power curve as the app's Balance page draws it: each card's power with its interval against its cost,
    the fitted line and each cost tier's band (a plotly figure: `.show()`, or `.write_html(path)`)."""
    from workbench.charts import power_curve_figure as draw

    return draw(curve, curve.meta.get("cost_axis", "cost"))
