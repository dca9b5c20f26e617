"""The `workbench` command line (docs/cli.md). Thin: every command calls workbench functions.

Exit codes: 0 fine, 1 errors found, 2 input unreadable (or the app without its extra), 3 a bug, 64 a usage error (the
command line itself is wrong), 130 interrupted, 141 the reader of stdout went away. JSON goes to stdout, messages to
stderr. Where a command reads a file, `-` reads standard input; where it writes one, `--out -` writes standard output.

Every `--format json` output is one object with `schema_version` (SCHEMA_VERSION) at its top, described by the JSON
Schema `workbench/schemas/<command>.json` installed with the package; an error is `{"schema_version": ...,
"error": {...}}` (schemas/error.json) where the output would have gone.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import tempfile
import textwrap
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NoReturn

from workbench import __version__, find_cardset
from workbench.cards import CardSet, Deck, WorkbenchInputError, readable, shown, sort_findings
from workbench.full_game import FULL_GAME_DEFAULTS
from workbench.play.policies import policy_word
from workbench.power_defaults import POWER_CURVE_DEFAULTS, PROPOSAL_DEFAULTS, STAT_VALUES_DEFAULTS
from workbench.run_settings import COMPILE_NOTICES, RunSettings

if TYPE_CHECKING:
    from workbench.decklists import SetDecks
    from workbench.rulesets.base import Ruleset

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_UNREADABLE = 2
EXIT_BUG = 3
EXIT_USAGE = 64
"""The command line itself is wrong (an unknown option, a missing argument, a value of the wrong kind): EX_USAGE of
sysexits.h. Not 2, argparse's own choice, which this tool keeps for input it cannot read."""
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
"""The reader of stdout went away (`| head`): 128 + SIGPIPE, as a Unix tool ends."""
STDIO = "-"
"""In place of a file: standard input where a file is read, standard output where one is written."""
SCHEMA_VERSION = 1
"""The version of every `--format json` output's shape (docs/cli.md, JSON output). Fields may be added without a new
version; it goes up when a field is removed, renamed or changes its type or meaning."""

EXAMPLES = """\
examples:
  workbench sets                                        the bundled card sets, by name
  workbench validate souls/ashfall                      a bundled set's findings (exit 1 if any is an error)
  workbench validate my_cards.xlsx --deck aggro.txt     your own sheet and decklist
  cat my_cards.csv | workbench validate - --format json findings of a sheet read from standard input
  workbench simulate souls/ashfall --deck ember_rush --deck stone_bastion --matches 10000
  workbench power-curve souls/ashfall -q                each card's power against its cost, no progress bar
  workbench report souls/ashfall --out - > report.html  a balance report written to standard output
  workbench app --port 8502                             the app, from an installed package

exit codes:
  0    done; validate: no errors
  1    validate: errors found in the cards or decks
  2    input unreadable: a missing or broken file, an unknown ruleset, option, deck or policy; app: no Streamlit
  3    a bug in the workbench (WORKBENCH_DEBUG=1 or -v prints the traceback)
  64   usage error: the command line itself is wrong (an unknown option, a missing argument)
  130  interrupted (Ctrl-C)
  141  the reader of the output went away (workbench ... | head)

Every command takes --format text|json, -q/--quiet and -v/--verbose; `workbench COMMAND --help` tells more."""


def _docs_folder() -> Path:
    """The docs: installed with the package (workbench/docs, mapped from the checkout's docs/), else the checkout's."""
    from importlib import resources

    from workbench.paths import REPO_ROOT

    packaged = resources.files("workbench").joinpath("docs")
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return REPO_ROOT / "docs"


def _schemas_folder() -> Path:
    """The JSON Schemas of the `--format json` outputs, installed with the package."""
    return Path(__file__).resolve().parent / "schemas"


def _epilog() -> str:
    """The examples and exit codes, then where the docs and the JSON Schemas are on this machine (an installed
    package holds both)."""
    docs = _docs_folder()
    return (
        f"{EXAMPLES}\n"
        f"Docs: {docs / 'cli.md'}, {docs / 'formats.md'}, {docs / 'simulation.md'} (each game's rules and options in "
        f"{docs / 'rulesets'}).\n"
        f"JSON Schemas of every --format json output: {_schemas_folder()}."
    )


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors ending in EXIT_USAGE instead of argparse's 2 (kept for unreadable input)."""

    last_error: str | None = None
    """The last usage error's message, for the JSON error object under --format json."""

    def error(self, message: str) -> NoReturn:
        _Parser.last_error = f"{self.prog}: {message}"
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _help(text: str) -> str:
    """A help text for argparse, which formats it with %: a literal % is written %%."""
    return text.replace("%", "%%")


COMMON_DEFAULTS: dict[str, Any] = {"format": "text", "quiet": False, "verbose": False}
"""The defaults of the options every command takes (`_common_options`), filled in after parsing, so that they may
stand before the command (`workbench -q validate ...`) or after it."""


class _TopParser(_Parser):
    """The `workbench` parser: the common options may come before or after the command. Both levels leave them unset
    when absent (argparse.SUPPRESS), so a value given before the command is not overwritten by the command's default;
    the defaults are filled in here, once."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, rest = super().parse_known_args(args, namespace)
        for name, value in COMMON_DEFAULTS.items():
            if not hasattr(parsed, name):
                setattr(parsed, name, value)
        if parsed.quiet and parsed.verbose:
            self.error("-q/--quiet and -v/--verbose cannot be used together")
        return parsed, rest


def _common_options() -> _Parser:
    """What every command takes: the output format, and how much it says on stderr (before or after the command;
    `COMMON_DEFAULTS` when absent)."""
    common = _Parser(add_help=False)
    common.add_argument(
        "--format", choices=("text", "json"), default=argparse.SUPPRESS, help="output format (default text)"
    )
    talk = common.add_mutually_exclusive_group()
    talk.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        default=argparse.SUPPRESS,
        help="say nothing on stderr but errors: no notes, progress bars or summaries",
    )
    talk.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=argparse.SUPPRESS,
        help="say more on stderr: which files were read, the time taken, a bug's traceback",
    )
    return common


def _option_options() -> _Parser:
    """`--option`: a rule option of the ruleset, repeated for more."""
    options = _Parser(add_help=False)
    options.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="rule option (the ruleset's doc, rulesets/<id>.md among the docs, lists them); repeat for more",
    )
    return options


def _cardset_options() -> _Parser:
    """The card set a command reads, and its ruleset."""
    cardset = _Parser(add_help=False)
    cardset.add_argument(
        "cardset",
        metavar="CARDSET",
        help="card sheet (.xlsx or .csv), - for standard input, or a bundled set's name (workbench sets)",
    )
    cardset.add_argument("--ruleset", metavar="ID", help="ruleset id (default: the Set sheet, else detected)")
    return cardset


def _simulation_options(option_options: _Parser) -> _Parser:
    """The options every simulating command shares (simulate, power-curve, sweep, report, health, diff)."""
    simulation = _Parser(add_help=False, parents=[option_options])
    simulation.add_argument(
        "--seed",
        type=int,
        default=POWER_CURVE_DEFAULTS.seed,
        metavar="S",
        help=f"random seed (default {POWER_CURVE_DEFAULTS.seed}); same seed, same figures",
    )
    simulation.add_argument(
        "--policy",
        default=POWER_CURVE_DEFAULTS.policy,
        metavar="P",
        help=f"play policy: greedy, random, search or epsilon:E (greedy that plays random at a decision with "
        f"probability E, default 0.1) (default {POWER_CURVE_DEFAULTS.policy}); power-curve and report "
        "also take a list, e.g. greedy,random: one curve per policy, verdicts side by side",
    )
    simulation.add_argument("--workers", type=int, metavar="N", help="worker processes (default: every core)")
    simulation.add_argument(
        "--executor",
        default="local",
        metavar="E",
        help="where matches run: local (default), dask-local, or dask://HOST:PORT (needs the dist extra: pip install "
        "'card-workbench[dist]')",
    )
    return simulation


def _parser() -> argparse.ArgumentParser:
    parser = _TopParser(
        prog="workbench",
        description="Card-design and balance workbench: validate card sheets and decklists against their game's\n"
        "rules, simulate seeded matches, measure each card's power against its cost, and write reports.",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"workbench {__version__}")
    common, option_options, cardset_options = _common_options(), _option_options(), _cardset_options()
    # The common options before the command too (`workbench -q --format json validate ...`).
    for action in common._actions:
        parser._add_action(action)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands", parser_class=_Parser)
    commands.required = True
    simulation_options = _simulation_options(option_options)

    def add(name: str, help_text: str, *parents: _Parser) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=_help(help_text), description=help_text, parents=[common, *parents])

    def add_deck_argument(sub: argparse.ArgumentParser, help_text: str) -> None:
        sub.add_argument("--deck", action="append", default=[], metavar="FILE|NAME", help=_help(help_text))

    def add_out_argument(sub: argparse.ArgumentParser, metavar: str, what: str) -> None:
        sub.add_argument("--out", required=True, metavar=metavar, help=f"where to write {what}; - for standard output")

    add("rulesets", "list ruleset ids, titles and versions")

    add("sets", "list the bundled card sets; every command takes one by name (souls/ashfall)")

    template = add("template", "write an empty, documented card sheet for a ruleset")
    template.add_argument("ruleset", metavar="RULESET", help="ruleset id")
    add_out_argument(template, "FILE.xlsx", "the sheet")

    validate = add(
        "validate",
        "check every card's cost formula and every deck's construction rules",
        cardset_options,
        option_options,
    )
    add_deck_argument(
        validate,
        "decklist file (- for standard input), or the name of a deck of the set; repeat for more (default: "
        "the workbook's Decks sheet)",
    )

    def add_min_play_share(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--min-play-share",
            type=_play_share,
            default=POWER_CURVE_DEFAULTS.min_play_share,
            metavar="SHARE",
            help=_help(
                "a card played in fewer than this share of its matches is 'rarely played', not judged (default "
                f"{POWER_CURVE_DEFAULTS.min_play_share:.0%}; 0.05 or 5%; 0 judges every card)"
            ),
        )

    def add_gauntlet_argument(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--gauntlet",
            default="hand",
            metavar="hand|auto:N",
            help="hand: the decks given (default); auto:N adds N decks built at random from the set under its deck "
            "rules, measures every card in each of them, and compares the verdicts with the hand-made decks'",
        )

    def add_power_curve_arguments(sub: argparse.ArgumentParser, per: str) -> None:
        """The power curve's own settings, the same for power-curve, sweep and report (and as in the app)."""
        games = FULL_GAME_DEFAULTS.games_per_value if per == "value" else FULL_GAME_DEFAULTS.games_per_card
        sub.add_argument(
            "--matches-per-card",
            type=int,
            default=None,
            metavar="N",
            help=f"matches per {per} (default {POWER_CURVE_DEFAULTS.matches_per_card:,}, as in the app); whole games "
            f"per {per} with --option game=full (default {games})",
        )
        add_min_play_share(sub)
        if per == "card":
            sub.add_argument(
                "--tolerance",
                type=_tolerance,
                default=None,
                metavar="SCORE",
                help=_help(
                    "mispricing that does not matter: a card is over or under only beyond its band plus this, on "
                    "curve only when shown within it, else undecided (default "
                    f"{POWER_CURVE_DEFAULTS.tolerance:g} of score, 2 points of win rate; with --option game=full in "
                    f"final VP, default {FULL_GAME_DEFAULTS.tolerance_vp:g})"
                ),
            )
            sub.add_argument(
                "--follow-up",
                type=_follow_up,
                default=POWER_CURVE_DEFAULTS.follow_up,
                metavar="TIMES",
                help=_help(
                    "the second look: an undecided card that more matches would decide within this many times its "
                    "matches is measured again on fresh seeds and decided on all of them (default "
                    f"{POWER_CURVE_DEFAULTS.follow_up:g}; 1: no second look)"
                ),
            )
            sub.add_argument(
                "--min-buy-share",
                type=_buy_share,
                default=None,
                metavar="SHARE",
                help=_help(
                    "with --option game=full: a store card seat A bought in fewer than this share of its games is "
                    f"'rarely bought', not judged (default {FULL_GAME_DEFAULTS.min_buy_share:.0%}; 0.1 or 10%; 0 "
                    "judges every card)"
                ),
            )

    set_decks_default = "(default: the set's decks: its Decks sheet, then the decks/ folder beside CARDSET)"

    simulate = add(
        "simulate",
        "play seeded matches between two decks: win rate with 95% interval",
        cardset_options,
        simulation_options,
    )
    add_deck_argument(
        simulate,
        "deck A, then deck B (default: A), each a decklist file or the name of a deck of the set; three or "
        "more decks give the matchup matrix of every pair",
    )
    simulate.add_argument(
        "--matches",
        type=int,
        default=None,
        metavar="N",
        help="matches to play, per pair of decks (default 10000); whole games with --option game=full (default "
        f"{FULL_GAME_DEFAULTS.games})",
    )
    simulate.add_argument("--policy-b", metavar="P", help="deck B's policy (default: --policy)")
    simulate.add_argument("--first", choices=("alternate", "random"), default="alternate", help="who goes first")
    simulate.add_argument("--trace", action="store_true", help="print match 0 turn by turn instead of the summary")

    power = add(
        "power-curve",
        "each card's simulated power against its cost, with intervals and flags",
        cardset_options,
        simulation_options,
    )
    add_deck_argument(power, f"reference deck first, then the gauntlet {set_decks_default}")
    add_power_curve_arguments(power, "card")
    add_gauntlet_argument(power)
    power.add_argument(
        "--decide",
        action="store_true",
        help="after the run, run again at the matches per card that would decide every undecided card more matches "
        "can decide (as the run's planning line says), and print that run",
    )

    sweep = add(
        "sweep",
        "one card's simulated power as a field takes each value, against its cost tier's band",
        cardset_options,
        simulation_options,
    )
    sweep.add_argument("--card", required=True, metavar="NAME", help="the card to vary")
    sweep.add_argument("--field", required=True, metavar="COLUMN", help="the column to vary, e.g. attack or soul_cost")
    sweep.add_argument("--values", required=True, metavar="V", help="LOW..HIGH (inclusive) or a list like 1,3,5")
    add_deck_argument(sweep, f"reference deck first, then the gauntlet {set_decks_default}")
    add_power_curve_arguments(sweep, "value")

    report = add(
        "report",
        "write a balance report a team can read without the app (HTML or XLSX)",
        cardset_options,
        simulation_options,
    )
    add_deck_argument(
        report,
        f"decks to validate and simulate; the first is the power curve's reference {set_decks_default}",
    )
    report.add_argument(
        "--baseline",
        metavar="OLD_CARDSET",
        help="an earlier version of the set (a file, - or a bundled set's name): adds a changes section",
    )
    add_out_argument(report, "FILE.html|FILE.xlsx", "the report (- writes the HTML report)")
    report.add_argument(
        "--png-dir",
        metavar="DIR",
        help="also write each chart as a PNG there (needs the png extra, pip install 'card-workbench[png]', and "
        "chromium)",
    )
    add_power_curve_arguments(report, "card")
    add_gauntlet_argument(report)
    report.add_argument(
        "--matches",
        type=int,
        default=None,
        metavar="N",
        help=f"matches per deck pair (default {POWER_CURVE_DEFAULTS.matches_per_pair}, as in the app); whole games "
        f"with --option game=full (default {FULL_GAME_DEFAULTS.games})",
    )

    health = add(
        "health",
        "the game's own health: first-player advantage, length, turn-cap hits, draws, dead cards",
        cardset_options,
        simulation_options,
    )
    add_deck_argument(
        health, f"decks to play, every ordered pair of them {set_decks_default}; none with --option game=full"
    )
    health.add_argument(
        "--matches",
        type=int,
        default=None,
        metavar="N",
        help=f"matches per ordered pair of decks (default {POWER_CURVE_DEFAULTS.matches_per_pair}, as the matchups); "
        f"whole games with --option game=full (default {FULL_GAME_DEFAULTS.health_games}); with --length-options, "
        "also per pair for each rule reading",
    )
    health.add_argument(
        "--length-options",
        action="store_true",
        help="also measure which rule options move the match length: the same pairs and seeds under each other "
        "reading of each option, one at a time, each reading's change in length paired by seed "
        "(docs/simulation.md, Game health)",
    )

    stat_values = add(
        "stat-values",
        "what each stat, keyword and step of cost is worth in play, with intervals, beside the document's formula",
        cardset_options,
        simulation_options,
    )
    add_deck_argument(stat_values, f"reference deck first, then the gauntlet {set_decks_default}")
    stat_values.add_argument(
        "--cards",
        type=_in_limit("design_cards"),
        default=STAT_VALUES_DEFAULTS.cards,
        metavar="N",
        help=f"synthetic cards in the designed experiment (default {STAT_VALUES_DEFAULTS.cards})",
    )
    stat_values.add_argument(
        "--matches-per-card",
        type=_in_limit("matches_per_card"),
        default=STAT_VALUES_DEFAULTS.matches_per_card,
        metavar="N",
        help="matches per synthetic card, split over the replicate runs (default "
        f"{STAT_VALUES_DEFAULTS.matches_per_card:,})",
    )
    stat_values.add_argument(
        "--replicates",
        type=int,
        default=STAT_VALUES_DEFAULTS.replicates,
        metavar="N",
        help="independent runs of the design whose spread gives the intervals (default "
        f"{STAT_VALUES_DEFAULTS.replicates})",
    )
    add_min_play_share(stat_values)

    propose = add(
        "propose",
        "patch proposals: the fewest card changes that bring the set within tolerance, each proved on a new seed",
        cardset_options,
        simulation_options,
    )
    add_deck_argument(propose, f"reference deck first, then the gauntlet {set_decks_default}")
    propose.add_argument(
        "--matches-per-card",
        type=_in_limit("matches_per_card"),
        default=PROPOSAL_DEFAULTS.matches_per_card,
        metavar="N",
        help="matches per card in each measurement of the search and of the proof (default "
        f"{PROPOSAL_DEFAULTS.matches_per_card:,})",
    )
    propose.add_argument(
        "--matches-per-pair",
        type=_in_limit("run_matches"),
        default=POWER_CURVE_DEFAULTS.matches_per_pair // 10,
        metavar="N",
        help="matches per ordered pair of decks in each search measurement of the match-ups and the first-player "
        f"edge (default {POWER_CURVE_DEFAULTS.matches_per_pair // 10:,}, a tenth of the health check's)",
    )
    propose.add_argument(
        "--proof-matches-per-pair",
        type=_in_limit("run_matches"),
        default=POWER_CURVE_DEFAULTS.matches_per_pair,
        metavar="N",
        help="matches per ordered pair of decks in the proof run's match-ups and first-player edge (default "
        f"{POWER_CURVE_DEFAULTS.matches_per_pair:,}, as the health check)",
    )
    propose.add_argument(
        "--field",
        action="append",
        default=[],
        metavar="NAME",
        help="what may change: cost (the default), stat fields by header, copies in Blades; repeat for more",
    )
    propose.add_argument(
        "--lock", action="append", default=[], metavar="CARD", help="a card that must not change; repeat for more"
    )
    propose.add_argument(
        "--max-changes",
        type=_in_limit("rows"),
        default=PROPOSAL_DEFAULTS.max_changes,
        metavar="N",
        help=f"the most cards one proposal changes (default {PROPOSAL_DEFAULTS.max_changes})",
    )
    propose.add_argument(
        "--evaluations",
        type=_in_limit("proposal_evaluations"),
        default=PROPOSAL_DEFAULTS.evaluations,
        metavar="N",
        help=f"card sets the search may measure (default {PROPOSAL_DEFAULTS.evaluations}; each is a power curve)",
    )
    propose.add_argument(
        "--tolerance",
        type=_tolerance,
        default=None,
        metavar="SCORE",
        help=f"mispricing that does not matter (default {POWER_CURVE_DEFAULTS.tolerance:g} of score)",
    )
    propose.add_argument(
        "--out",
        default=None,
        metavar="FILE.xlsx",
        help="write the first offered proposal as a new workbook version (with its Decks sheet)",
    )

    print_sheet = add(
        "print", "write a printable proof sheet: every card drawn, nine to a page, with cut marks", cardset_options
    )
    add_out_argument(print_sheet, "FILE.html", "the print sheet")

    diff = add("diff", "what changed between two versions of a card set, as patch notes", simulation_options)
    diff.add_argument("old", metavar="OLD", help="the earlier card sheet (.xlsx or .csv, - or a bundled set's name)")
    diff.add_argument("new", metavar="NEW", help="the later card sheet (.xlsx or .csv, - or a bundled set's name)")
    diff.add_argument("--ruleset", metavar="ID", help="ruleset id (default: the Set sheet, else detected)")
    add_deck_argument(
        diff,
        "with decks (files, or names of NEW's decks; the reference deck first), also simulate the power of "
        "every changed card in both versions",
    )
    diff.add_argument(
        "--matches-per-card",
        type=int,
        default=POWER_CURVE_DEFAULTS.matches_per_card,
        metavar="N",
        help=f"matches per card and version (default {POWER_CURVE_DEFAULTS.matches_per_card:,}, as power-curve)",
    )

    bench = add(
        "bench",
        "measure validation speed, engine matches per second and power-curve time; keeps the one-core figures for the "
        "app's time estimates ($XDG_CACHE_HOME/card-workbench/pace.json)",
        option_options,
    )
    bench.add_argument("--ruleset", metavar="ID", help="one ruleset (default: all)")
    bench.add_argument(
        "--only",
        choices=("validation", "engines", "matches"),
        help="run one part only; matches: the engines' matches per second alone (no power curve, no whole games: "
        "under --policy search the power curve can take an hour)",
    )
    bench.add_argument(
        "--cards", type=_in_limit("bench_cards"), default=10_000, metavar="N", help="cards in the generated sheet"
    )
    bench.add_argument(
        "--matches",
        type=_in_limit("matches"),
        metavar="N",
        help="matches per engine figure (default 200,000; under a search policy 200, as the search figure plays: "
        "a searched match takes 100 to 10,000 times a greedy one's time)",
    )
    bench.add_argument(
        "--repeat",
        type=_in_limit("bench_repeat"),
        default=3,
        metavar="N",
        help="runs per figure; the best is reported",
    )
    bench.add_argument("--policy", default="greedy", metavar="P", help="engine figures' play policy (default greedy)")

    warm = add("warm", "compile the match engines ahead of their first use (a server's start, CI)")
    warm.add_argument(
        "rulesets", nargs="*", metavar="RULESET", help="ruleset ids (default: every ruleset with a match engine)"
    )

    app = add(
        "app",
        "start the app (Streamlit) from the installed package; Ctrl-C stops it (needs the app extra: pip install "
        "'card-workbench[app]')",
    )
    app.add_argument(
        "--port", type=_in_limit("port"), default=8501, metavar="N", help="the port to serve on (default 8501)"
    )
    app.add_argument(
        "--address",
        default=APP_ADDRESS,
        metavar="HOST",
        help=f"the address to listen on (default {APP_ADDRESS}: this machine only; 0.0.0.0 serves every network "
        "interface, so anyone who can reach this machine can open the app and the files it reads)",
    )
    app.add_argument("--headless", action="store_true", help="do not open a browser (a server, a test)")
    return parser


class _Say:
    """How much a command says on stderr: -q only errors, -v also the details (files read, time taken)."""

    quiet = False
    verbose = False

    @classmethod
    def note(cls, text: str) -> None:
        """A note, a summary or a progress message: shown unless -q."""
        if not cls.quiet:
            cls.line(text)

    @classmethod
    def warn(cls, text: str) -> None:
        """A warning about the input the command's work goes on without (rows left out): shown even with -q, as an
        error would be, since the figures printed do not hold those rows."""
        cls.line(text)

    @classmethod
    def detail(cls, text: str) -> None:
        """Shown with -v only."""
        if cls.verbose:
            cls.line(text)

    @staticmethod
    def line(text: str) -> None:
        """One message on stderr; while a progress bar is drawn, above it (tqdm clears the bar and draws it again)."""
        if ProgressBar.drawn:
            from tqdm import tqdm

            tqdm.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr)


def _say_compiling(ruleset_id: str, last: Any) -> None:
    """The notice a first compile gives on stderr (workbench.warm.COMPILE_NOTICES): which engine, what to expect,
    and how to do it ahead."""
    from workbench.warm import expected_text

    _Say.note(
        f"workbench: compiling the {ruleset_id} engine (once per machine and engine version; no match is played until "
        f"it is done). {expected_text(ruleset_id, last)} `workbench warm {ruleset_id}` does it ahead."
    )


class _Stdin:
    """Standard input, read whole by the one argument that asked for it (`-`)."""

    taken_by: str | None = None

    @classmethod
    def read(cls, role: str) -> bytes:
        if cls.taken_by is not None:
            raise WorkbenchInputError(
                f"{role} is - (standard input), but {cls.taken_by} already read standard input.",
                expected="at most one - among a command's inputs",
            )
        cls.taken_by = role
        if sys.stdin is None or sys.stdin.isatty():
            raise WorkbenchInputError(
                f"{role} is - (standard input), but standard input is a terminal, not a file.",
                expected=f"a file piped in (workbench ... - < FILE), or a path for {role}",
            )
        return sys.stdin.buffer.read()


def _wants_json(argv: Sequence[str]) -> bool:
    """`--format json` among the arguments, for a usage error found before the arguments are parsed."""
    words = list(argv)
    return "--format=json" in words or any(
        word == "--format" and following == "json" for word, following in zip(words, words[1:], strict=False)
    )


class _MissingExtra(WorkbenchInputError):
    """A command that needs an optional dependency which is not installed (exit 2, the error kind `missing_extra`)."""


def _error_json(kind: str, code: int, message: str, error: BaseException | None = None) -> dict[str, Any]:
    """The error object of a failed command under --format json (workbench/schemas/error.json)."""
    detail: dict[str, Any] = {"kind": kind, "exit_code": code, "message": message}
    if isinstance(error, WorkbenchInputError):
        detail.update(
            detail=error.detail,
            path=error.path,
            sheet=error.sheet,
            row=error.row,
            column=error.column,
            expected=error.expected,
        )
    elif error is not None:
        detail["exception"] = type(error).__name__
    return {"error": detail}


def _report_error(
    args: argparse.Namespace | None, kind: str, code: int, message: str, error: BaseException | None = None
) -> int:
    """A failed command: its message on stderr; under --format json also the error object, on stdout (on stderr
    when stdout carries the command's file, `--out -`, which then holds the error object alone)."""
    as_json = args is not None and getattr(args, "format", "text") == "json"
    file_to_stdout = args is not None and getattr(args, "out", None) == STDIO
    if not (as_json and file_to_stdout):
        print(f"workbench: {message}", file=sys.stderr)
    if as_json:
        _emit_json(_error_json(kind, code, message, error), sys.stderr if file_to_stdout else sys.stdout)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code (usage errors and --help too, instead of raising SystemExit)."""
    started = time.perf_counter()
    words = sys.argv[1:] if argv is None else list(argv)
    _Parser.last_error = None
    try:
        args = _parser().parse_args(words)
    except SystemExit as done:  # --help, --version, or a usage error (EXIT_USAGE)
        code = done.code if isinstance(done.code, int) else EXIT_USAGE
        if code == EXIT_USAGE and _Parser.last_error is not None and _wants_json(words):
            _emit_json(_error_json("usage", EXIT_USAGE, _Parser.last_error))
        return code
    _Say.quiet, _Say.verbose, _Stdin.taken_by = args.quiet, args.verbose, None
    if args.command != "warm" and _say_compiling not in COMPILE_NOTICES:  # warm says what it compiles itself
        COMPILE_NOTICES.append(_say_compiling)
    try:
        code = _run_command(args)
        sys.stdout.flush()  # a reader that went away shows here, in the handler below, not at interpreter exit
        _Say.detail(f"workbench {args.command}: exit {code} after {time.perf_counter() - started:.2f} s")
        return code
    except _MissingExtra as error:
        return _report_error(args, "missing_extra", EXIT_UNREADABLE, str(error), error)
    except WorkbenchInputError as error:
        return _report_error(args, "unreadable", EXIT_UNREADABLE, str(error), error)
    except KeyboardInterrupt:
        return _report_error(args, "interrupted", EXIT_INTERRUPTED, "interrupted.")
    except BrokenPipeError:
        # The reader went away (`workbench ... | head`): end quietly, as a Unix tool killed by SIGPIPE does. Python
        # would complain again while flushing stdout at exit, so stdout points at nothing first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception:  # a bug, not bad input: say so in one paragraph; the traceback on request
        if os.environ.get("WORKBENCH_DEBUG") or args.verbose:
            traceback.print_exc()
        kind, value = sys.exc_info()[:2]
        return _report_error(
            args,
            "bug",
            EXIT_BUG,
            f"internal error ({kind.__name__ if kind else 'error'}: {value}). "
            "This is a bug in the workbench, not in your file; run again with -v (or WORKBENCH_DEBUG=1) for details.",
            value,
        )


def _run_command(args: argparse.Namespace) -> int:
    """The command itself; a progress bar it leaves drawn (an error, Ctrl-C, a run that stops short of its total) is
    closed before anything else is printed, so an error or `interrupted.` starts a line of its own."""
    try:
        return _COMMANDS[args.command](args)
    finally:
        ProgressBar.close_all()


def _emit_json(data: dict[str, Any], stream: Any = None) -> None:
    """A command's JSON output: one object, `schema_version` first (SCHEMA_VERSION), on stdout unless `stream`."""
    ProgressBar.close_all()  # a run that stopped short of its total leaves its bar drawn: the output starts a line
    out = sys.stdout if stream is None else stream
    json.dump({"schema_version": SCHEMA_VERSION, **data}, out, ensure_ascii=False, indent=2, default=str)
    out.write("\n")


def _emit_summary(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    """A writing command's summary: on stdout, or on stderr when its file went to stdout (`--out -`)."""
    ProgressBar.close_all()  # a report's bar stops short of its total when a stage does not apply
    to_stdout = args.out != STDIO
    if args.format == "json":
        if to_stdout:
            _emit_json(data)
        elif not _Say.quiet:
            print(
                json.dumps({"schema_version": SCHEMA_VERSION, **data}, ensure_ascii=False, default=str), file=sys.stderr
            )
    elif to_stdout:
        print(text)
    else:
        _Say.note(text)


def _write_out(out: str, suffix: str, write: Callable[[Path], Path]) -> Path:
    """Write a command's file with `write(path)`; for `--out -` through a temporary file whose bytes go to stdout."""
    if out != STDIO:
        return write(Path(out))
    try:
        with tempfile.TemporaryDirectory(prefix="workbench-out-") as folder:
            data = write(Path(folder) / f"standard-output{suffix}").read_bytes()
    except OSError as error:  # the temporary folder (OutputError names the hidden file: name the folder instead)
        reason = error.detail if isinstance(error, WorkbenchInputError) else (error.strerror or str(error))
        raise WorkbenchInputError(
            f"the output for standard output could not be prepared in the temporary folder: {reason}",
            path=tempfile.gettempdir(),
            expected="room and write access in the temporary folder (TMPDIR)",
        ) from error
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
    return Path("<standard output>")


def _out_size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def _cardset_input(argument: str) -> tuple[str, bytes | None]:
    """A CARDSET argument as `load_cardset` takes it: a file, `-` (its bytes from stdin), or a bundled set's name
    (`workbench.find_cardset`, as the notebook API reads it)."""
    if argument == STDIO:
        return "stdin", _Stdin.read("CARDSET")
    if Path(argument).exists():
        return argument, None
    bundled = find_cardset(argument)
    _Say.detail(f"{argument}: the bundled set at {bundled}")
    return str(bundled), None


def _open_cardset(argument: str, ruleset: str | Ruleset | None = None, announce: bool = True) -> CardSet:
    """The card set named by a CARDSET argument (a file, `-`, or a bundled set's name). With `announce`, every card
    row that could not be read, and so is left out of the command's work, is named on stderr with its finding
    (`validate` reports them itself)."""
    from workbench.loading import load_cardset

    path, data = _cardset_input(argument)
    cardset = load_cardset(path, ruleset, data=data, filename="stdin" if data is not None else None)
    statement = cardset.left_out_statement() if announce else None
    if statement:
        _Say.warn(f"warning: {statement}")
        for finding in cardset.left_out():
            _Say.warn(f"  {finding.to_text()}")
    return cardset


def _decks_folder(cardset: CardSet) -> Path | None:
    """The decks/ folder beside a card sheet read from a file (a sheet from stdin has none)."""
    from workbench.paths import decks_folder_beside

    return None if cardset.path == "stdin" else decks_folder_beside(cardset.path)


def _resolve_decks(
    deck_args: Sequence[str], cardset: CardSet, folder: Path | None
) -> tuple[list[Deck], SetDecks | None]:
    """`resolve_decks`, with `-` read as a decklist from standard input, in its place among the others."""
    from workbench.decklists import read_decklist, resolve_decks

    named = [argument for argument in deck_args if argument != STDIO]
    resolved, found = resolve_decks(named, cardset, folder) if named else ([], None)
    by_argument = iter(resolved)
    decks = [
        read_decklist("stdin", cardset, data=_Stdin.read("--deck"), filename="stdin")
        if argument == STDIO
        else next(by_argument)
        for argument in deck_args
    ]
    for argument, deck in zip(deck_args, decks, strict=True):
        _Say.detail(f"--deck {argument}: {deck.name} ({deck.path})")
    return decks, found


def _cmd_rulesets(args: argparse.Namespace) -> int:
    from workbench.rulesets import RULESETS

    rows = [
        {"id": r.id, "title": r.title, "version": r.version, "document": r.document, "kinds": list(r.kinds)}
        for r in RULESETS.values()
    ]
    if args.format == "json":
        _emit_json({"rulesets": rows})
    else:
        width = max(len(r["id"]) for r in rows)
        for row in rows:
            print(f"{row['id']:<{width}}  v{row['version']:<5} {row['title']}  (kinds: {', '.join(row['kinds'])})")
    return EXIT_OK


def _cmd_sets(args: argparse.Namespace) -> int:
    from workbench.paths import CARDSETS_DIR, bundled_catalogue

    catalogue = bundled_catalogue()
    if not catalogue:
        raise WorkbenchInputError(
            f"no bundled card sets were found in {CARDSETS_DIR}.",
            expected="the card sets installed with the package (pip install card-workbench, or pip install -e . "
            "in a checkout)",
        )
    if args.format == "json":
        _emit_json(
            {
                "sets": [
                    {
                        "name": entry.name,
                        "ruleset": entry.ruleset_id,
                        "role": entry.role,
                        "path": str(entry.path),
                        "decks": [deck.stem for deck in entry.decks],
                    }
                    for entry in catalogue
                ]
            }
        )
        return EXIT_OK
    width = max(len(entry.name) for entry in catalogue)
    for entry in catalogue:
        what = "deliberate mistakes" if entry.role == "mistakes" else "sample set"
        decks = ", ".join(deck.stem for deck in entry.decks) or "no decklists"
        print(f"{entry.name:<{width}}  {what:<19}  {entry.path.name:<24}  decks: {decks}")
    _Say.note(
        f"{len(catalogue)} bundled sets in {CARDSETS_DIR}; any command takes one by name, e.g. "
        f"workbench validate {catalogue[0].name}"
    )
    return EXIT_OK


def _cmd_template(args: argparse.Namespace) -> int:
    from workbench.rulesets import get_ruleset
    from workbench.templates import write_template

    ruleset = get_ruleset(args.ruleset)
    if args.out != STDIO and not str(args.out).casefold().endswith(".xlsx"):
        raise WorkbenchInputError(f"'{args.out}' does not end in .xlsx.", expected="--out FILE.xlsx or --out -")
    path = _write_out(args.out, ".xlsx", lambda out: write_template(ruleset, out))
    _emit_summary(
        args,
        {"ruleset": ruleset.id, "out": str(path), "columns": [c.header for c in ruleset.columns]},
        f"wrote {path}: {len(ruleset.columns)} columns for {ruleset.title} (see its 'Columns' sheet)",
    )
    return EXIT_OK


def _load(
    args: argparse.Namespace, deck_args: Sequence[str], default: DeckDefault = "none"
) -> tuple[CardSet, list[Deck], dict[str, str]]:
    """The card set, its decks and the option overrides named on the command line (unknown options fail early).

    What the set's decks say about themselves (a note that a decks/ folder file was passed over, a Decks sheet row
    that belongs to no deck, a decklist line left out) goes to stderr.
    """
    cardset, decks, overrides, found = _load_with_set_decks(args, deck_args, default)
    if found is not None:
        for note in found.notes:
            _Say.note(f"note: {note}")
        for finding in found.findings:
            _Say.note(finding.to_text())
    left_out = [finding for deck in decks for finding in deck.load_findings if finding.severity == "error"]
    if left_out:
        _Say.note(f"note: {len(left_out)} decklist line(s) could not be read and are left out:")
        for finding in left_out:
            _Say.note(f"  {finding.to_text()}")
    return cardset, decks, overrides


DeckDefault = Literal["none", "workbook", "set"]
"""Which decks a command takes when no --deck is given: none, the workbook's Decks sheet, or every deck of the set."""


def _load_with_set_decks(
    args: argparse.Namespace, deck_args: Sequence[str], default: DeckDefault = "none"
) -> tuple[CardSet, list[Deck], dict[str, str], SetDecks | None]:
    """`_load`, with the set's own decks when any were looked at (for their findings and notes).

    A --deck that is a file is read as a decklist (`-`: from standard input); any other --deck is the name of one of
    the set's decks: its workbook's Decks sheet first, then the decks/ folder beside the sheet. Without --deck,
    `default` says which.
    """
    from workbench.decklists import set_decks
    from workbench.limits import check_decks
    from workbench.rulesets.base import parse_option_pairs

    overrides = parse_option_pairs(args.option)
    cardset = _open_cardset(args.cardset, args.ruleset, announce=args.command != "validate")
    cardset.ruleset.resolve_options(overrides)
    folder = _decks_folder(cardset)
    found: SetDecks | None = None
    if deck_args:
        # Before any deck is read: 300 --deck would otherwise read every one before the run is refused.
        check_decks(len(deck_args), "the command line")
        decks, found = _resolve_decks(deck_args, cardset, folder)
    elif default == "none":
        decks = []
    else:
        found = set_decks(cardset, folder if default == "set" else None)
        decks = list(found.decks)
        check_decks(len(decks), f"the set '{cardset.name}'")
        for deck in decks:
            _Say.detail(f"deck {deck.name} ({deck.path}), one of the set's decks")
    return cardset, decks, overrides, found


def _no_set_decks(cardset: CardSet) -> WorkbenchInputError:
    """No --deck, and the set has no decks of its own."""
    folder = _decks_folder(cardset)
    return WorkbenchInputError(
        f"no --deck given, and the set has no decks: no deck in a Decks sheet of {cardset.path}"
        + (
            f" and no decklists in {folder}."
            if folder is not None
            else " (read from standard input, so no decks/ folder beside it)."
        ),
        expected="--deck REFERENCE [--deck GAUNTLET ...], a Decks sheet in the workbook (columns deck, count, name) "
        "or a decks/ folder beside the card sheet",
    )


def _cmd_validate(args: argparse.Namespace) -> int:
    from workbench.validate import validate

    cardset, decks, overrides, found = _load_with_set_decks(args, args.deck, "workbook")
    ruleset = cardset.ruleset
    report = validate(cardset, decks, overrides)
    if found is not None:
        # The Decks sheet's own findings (a missing column, a row without a deck name) belong to the file validated.
        report.findings = report.findings + sort_findings(found.findings)
        for note in found.notes:
            _Say.note(f"note: {note}")
    if args.format == "json":
        _emit_json(
            {
                "cardset": cardset.path,
                "ruleset": {"id": ruleset.id, "version": ruleset.version},
                "options": report.options,
                "cards": len(cardset),
                "rows": cardset.rows_read,
                "decks": [deck.path for deck in decks],
                "counts": report.counts,
                "findings": [finding.to_json() for finding in report.findings],
                "workbench_version": __version__,
            }
        )
    else:
        for finding in report.findings:
            print(finding.to_text())
        counts = report.counts
        deck_note = f" and {len(decks)} deck(s)" if decks else ""
        _Say.note(
            f"{cardset.path}: {len(cardset)} of {cardset.rows_read} card rows read as {ruleset.id} "
            f"v{ruleset.version}{deck_note}: {counts['error']} error(s), {counts['warning']} warning(s), "
            f"{counts['info']} info"
        )
    return EXIT_FINDINGS if report.has_errors else EXIT_OK


class ProgressBar:
    """The progress of a run on stderr, drawn with tqdm: the share done, the matches done of all, matches a second and
    the time left (ETA). `unit` is what the run counts ("matches", or "games" for whole games); None where the
    command's run reports a share of weighted steps instead (a report's stages, a sweep's values, stat values'
    replicates, a proposal search and its proof), which shows the share, the time taken and the time left, and no rate
    it cannot know.

    Drawn only for a terminal and not under -q, as the hand-written bar before it: logs, pipes and CI stay clean, and
    so does `--format json` unless stderr is a terminal (the JSON goes to stdout). The run calls it as
    `progress(done, total)` (RunSettings.progress), often more than once with the same count while workers start.

    - The rate and the time left count from the first match reported: the time before it went to loading or compiling
      the engine (which `workbench: compiling ...` announces), so the bar shown until then is replaced, not kept.
    - A count that reaches its total ends the bar, its last line kept; a new total, or a count that goes back, starts
      a new bar (a report's runs, `power-curve --decide`'s second run), and the same end reported again draws nothing.
    - Notes written while a bar is drawn go above it (`_Say`), and every bar still open is closed before the command's
      error or `interrupted.` is printed (`_run_command`).
    """

    drawn: ClassVar[list[ProgressBar]] = []
    """The bars drawn now (at most one a command, in practice)."""

    def __init__(self, label: str, stream: Any = None, unit: str | None = "matches") -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.unit = unit
        self.active = not _Say.quiet and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.bar: Any = None
        self.playing = False
        """A match (or step) has been reported since the bar opened: its rate counts from then."""
        self.ended: int | None = None
        """The total of the last bar that reached its end."""

    def __call__(self, done: int, total: int) -> None:
        if not self.active or total <= 0:
            return
        done = min(max(done, 0), total)
        bar = self.bar
        if bar is not None and (bar.total != total or done < bar.n):
            self.close(keep=self.playing)
            bar = None
        if bar is None:
            if done >= total and self.ended == total:
                return
            bar = self._open(total, done)
        elif done > bar.n and not self.playing and done < total:
            # The first matches: the time until now went to loading the engine, so a fresh bar measures the rate.
            self.close(keep=False)
            bar = self._open(total, done)
        if done > bar.n:
            bar.update(done - bar.n)
        else:
            bar.refresh()  # the same count again (workers still starting): the time taken moves on
        if done >= total:
            self.ended = total
            self.close()

    def _open(self, total: int, done: int) -> Any:
        from tqdm import tqdm

        class Bar(tqdm):
            monitor_interval = 0  # no monitor thread: the bar is redrawn on each report, several a second

        counted = "{n:,}/{total:,} " + self.unit + ", {rate_noinv_fmt}, " if self.unit else ""
        # As wide as the terminal, following it when resized; a terminal that gives no size (a pseudo-terminal never
        # sized, as some CI runners and containers make) would get no bar at all: COLUMNS and LINES, else 80 x 24.
        sized = _terminal_sized(self.stream)
        fallback = shutil.get_terminal_size()
        self.playing = done > 0
        self.bar = Bar(
            total=total,
            initial=done,
            desc=self.label,
            file=self.stream,
            leave=self.playing,  # the bar shown while the engine loads is replaced by the first match's
            dynamic_ncols=sized,
            ncols=None if sized else fallback.columns,
            nrows=None if sized else fallback.lines,
            smoothing=0,  # the rate since the first match: pieces come back in bursts from the workers
            unit=" " + (self.unit or "matches"),
            unit_scale=True,
            bar_format="{desc}: {percentage:3.0f}%|{bar}| " + counted + "{elapsed} elapsed, ETA {remaining}",
        )
        ProgressBar.drawn.append(self)
        return self.bar

    def close(self, keep: bool = True) -> None:
        """End the bar drawn now, if any: its last line kept (`keep`), else cleared."""
        if self.bar is None:
            return
        bar, self.bar = self.bar, None
        if self in ProgressBar.drawn:
            ProgressBar.drawn.remove(self)
        bar.leave = keep
        bar.close()

    @classmethod
    def close_all(cls) -> None:
        """End every bar drawn now, each line kept: before output, an error or `interrupted.`."""
        for progress in list(cls.drawn):
            progress.close()


def _terminal_sized(stream: Any) -> bool:
    """True when `stream` writes to a terminal that gives its size (a pseudo-terminal may give 0 x 0)."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return False
    return size.columns > 0 and size.lines > 0


def _policies(args: argparse.Namespace) -> tuple[str, str]:
    return (args.policy, getattr(args, "policy_b", None) or args.policy)


def _run_settings(
    args: argparse.Namespace,
    overrides: dict[str, str],
    what: str,
    policy: str | None = None,
    unit: str | None = "matches",
) -> RunSettings:
    """The shared simulation options of a command (--seed, --policy, --option, --workers, --executor) as one
    RunSettings, reporting to a progress bar labelled `what` that counts `unit` (None: the run reports a share of
    weighted steps, not matches; see ProgressBar); `policy` stands for --policy where the command reads a list of
    policies from it."""
    return RunSettings(
        seed=args.seed,
        policy=args.policy if policy is None else policy,
        options=overrides,
        workers=args.workers,
        executor=args.executor,
        progress=ProgressBar(what, unit=unit),
    )


def _cmd_simulate(args: argparse.Namespace) -> int:
    from workbench.rulesets.base import parse_option_pairs
    from workbench.simulate import simulate, trace

    if parse_option_pairs(args.option).get("game") == "full":
        return _print_full_game(args)
    if args.matches is None:
        args.matches = 10_000
    if not args.deck:
        raise WorkbenchInputError(
            "simulate needs a deck.", expected="--deck A [--deck B] (B defaults to A: a mirror match)"
        )
    cardset, decks, overrides = _load(args, args.deck)
    if len(decks) > 2:
        if args.trace:
            raise WorkbenchInputError(
                f"--trace plays one match, but {len(decks)} decks were given.",
                expected="--deck A [--deck B] with --trace",
            )
        return _print_matchups(args, cardset, decks, overrides)
    deck_b = decks[1] if len(decks) > 1 else None
    if args.trace:
        _print_trace(args, trace(cardset, decks[0], deck_b, args.seed, _policies(args), overrides))
        return EXIT_OK
    results = simulate(
        cardset,
        decks[0],
        deck_b,
        args.matches,
        _run_settings(args, overrides, "simulate"),
        policy_b=_policies(args)[1],
        first_player=args.first,
    )
    summary = results.summary()
    if args.format == "json":
        _emit_json({**summary, "counters": results.counters.to_dict(orient="records")})
        return EXIT_OK
    print(_provenance_line(summary))
    policy_a, policy_b = summary["policies"]
    print(shown(f"A = {summary['deck_a']} ({policy_a})  vs  B = {summary['deck_b']} ({policy_b})"))
    print(f"A win rate:            {results.win_rate_a}")
    print(f"first-player win rate: {results.first_player_win_rate}")
    q1, median, q3 = summary["turns_quartiles"]
    print(
        f"draws: {results.draw_rate:.1%}; turns: mean {results.mean_turns:.1f}, quartiles {q1:g} / {median:g} / {q3:g}"
    )
    for column, mean in summary.get("per_match_means", {}).items():
        print(f"mean {column}: {mean:.3f}")
    return EXIT_OK


def _print_trace(args: argparse.Namespace, lines: Iterable[str]) -> None:
    """`simulate --trace`: match 0 turn by turn, one line each; under --format json the lines as `trace`."""
    if args.format == "json":
        _emit_json({"trace": list(lines)})
        return
    for line in lines:
        print(line)


def _tournament_counts(args: argparse.Namespace) -> None:
    """Fill the match counts not given with the power curve's defaults (None is left for whole games to fill with
    `FULL_GAME_DEFAULTS`)."""
    if getattr(args, "matches_per_card", 0) is None:
        args.matches_per_card = POWER_CURVE_DEFAULTS.matches_per_card
    if getattr(args, "matches", 0) is None:
        args.matches = POWER_CURVE_DEFAULTS.matches_per_pair


def _print_full_game(args: argparse.Namespace) -> int:
    """`--option game=full` (Millennium Blades): whole games from the card sheet alone, final VP with its parts per
    seat and per round (or game 0's trace), from `workbench.full_game`."""
    from workbench.full_game import full_game_trace, run_full_games

    cardset, _decks, overrides = _load(args, args.deck or [])
    policy_b = getattr(args, "policy_b", None)
    if args.trace:
        _print_trace(args, full_game_trace(cardset, overrides, args.seed, args.policy, policy_b))
        return EXIT_OK
    result = run_full_games(
        cardset,
        overrides,
        args.matches,
        args.seed,
        args.policy,
        policy_b,
        ProgressBar("whole games", unit="games"),
        _whole_game_workers(args),
    )
    if args.format == "json":
        _emit_json(result.json())
        return EXIT_OK
    print(_provenance_line(result.meta, "whole games"))
    for line in result.lines():
        print(line)
    return EXIT_OK


def _whole_game_workers(args: argparse.Namespace) -> int | None:
    """--workers for whole games, which play on this machine's processes only: a Dask --executor is refused by name
    rather than ignored."""
    from workbench.distributed import check_executor

    if check_executor(getattr(args, "executor", None)) != "local":
        raise WorkbenchInputError(
            f"--executor {args.executor}: whole games (--option game=full) play on this machine's processes only.",
            expected="no --executor (or --executor local), and --workers N for the number of processes",
        )
    workers: int | None = getattr(args, "workers", None)
    return workers


def _power_full_game(args: argparse.Namespace) -> int:
    """`power-curve --option game=full`: each store card's change in seat A's final VP, on the buy-cost axis."""
    from workbench.full_game import full_game_power

    cardset, _decks, overrides = _load(args, [])
    from workbench.judging import VerdictRule

    share = FULL_GAME_DEFAULTS.min_buy_share if args.min_buy_share is None else args.min_buy_share
    result = full_game_power(
        cardset,
        overrides,
        args.matches_per_card,
        args.seed,
        args.policy,
        min_buy_share=share,
        rule=VerdictRule(tolerance=FULL_GAME_DEFAULTS.tolerance_vp if args.tolerance is None else args.tolerance),
        progress=ProgressBar("whole-game power curve", unit="games"),
        workers=_whole_game_workers(args),
    )
    if args.format == "json":
        _emit_json(result.json())
        return EXIT_OK
    print(_provenance_line(result.meta, "whole games per card"))
    print(result.statement())
    for line in [*result.statements(), *result.lines()]:
        print(line)
    return EXIT_OK


def _sweep_full_game(args: argparse.Namespace) -> int:
    """`sweep --option game=full --field buy_cost`: the card's set at each buy cost, whole games at each."""
    from workbench.analysis import parse_sweep_values
    from workbench.full_game import full_game_sweep

    if args.field.replace(" ", "_").casefold() != "buy_cost":
        raise WorkbenchInputError(
            f"with --option game=full, sweep varies a set's buy cost, not '{args.field}'.", expected="--field buy_cost"
        )
    cardset, _decks, overrides = _load(args, [])
    values = parse_sweep_values(args.values)
    result = full_game_sweep(
        cardset,
        overrides,
        args.card,
        values,
        args.matches_per_card,
        args.seed,
        args.policy,
        progress=ProgressBar("whole-game sweep", unit="games"),
        workers=_whole_game_workers(args),
    )
    if args.format == "json":
        _emit_json(result.json())
        return EXIT_OK
    print(_provenance_line(result.meta, "whole games per value"))
    for line in result.lines():
        print(line)
    return EXIT_OK


def _print_matchups(args: argparse.Namespace, cardset: CardSet, decks: list[Deck], overrides: dict[str, str]) -> int:
    """Three or more decks: every ordered pair, row deck's win rate against the column deck, with intervals."""
    from workbench.analysis import matchup_matrix
    from workbench.simulate import provenance

    frame = matchup_matrix(cardset, decks, args.matches, _run_settings(args, overrides, "matchups"))
    engine, resolved = cardset.ruleset.engine, cardset.ruleset.resolve_options(overrides)
    assert engine is not None
    meta = provenance(cardset, engine, resolved, args.seed, args.matches, (args.policy, args.policy))
    if args.format == "json":
        _emit_json({**meta, "matches_per_pair": args.matches, "matchups": frame.to_dict(orient="records")})
        return EXIT_OK
    print(_provenance_line(meta) + " (matches per pair)")
    for line in _matchup_lines(frame, [shown(deck.name) for deck in decks], _table_width()):
        print(line)
    return EXIT_OK


def _matchup_lines(frame: Any, names: Sequence[str], width: int | None) -> list[str]:
    """The matchup matrix as text: the row deck's win rate against each column deck, with its interval. Fitted to
    `width` characters (None: no limit): where the intervals do not fit, the win rates alone, and deck names cut to
    the cells with "…"."""
    rates: dict[tuple[str, str], tuple[str, str]] = {}
    for row in frame.itertuples():
        rates[(shown(row.deck), shown(row.opponent))] = (
            f"{row.win_rate:.1%}",
            f"{row.win_rate:.1%} [{row.low:.1%}-{row.high:.1%}]",
        )
    corner = "row deck win rate vs"
    first = max(len(name) for name in [*names, corner])
    cell, whole, note = 22, 1, None
    if width is not None and first + len(names) * (cell + 2) > width:
        first = min(first, max(12, width // (len(names) + 1)))
        cell = max(7, (width - first) // len(names) - 2)
        whole = int(cell >= max(len(rate) for _, rate in rates.values()))
        note = (
            f"cut to fit {width} characters a line: "
            + ("deck names" if whole else "the intervals, and deck names")
            + "; --format json has them whole."
        )

    def fit(text: str, size: int) -> str:
        return text if len(text) <= size else text[: size - 1] + "…"

    lines = [f"{fit(corner, first):<{first}}  " + "  ".join(f"{fit(name, cell):>{cell}}" for name in names)]
    for name in names:
        cells = [fit(rates[(name, opponent)][whole], cell).rjust(cell) for opponent in names]
        lines.append(f"{fit(name, first):<{first}}  " + "  ".join(cells))
    return lines + ([_wrapped(note, width)] if note else [])


def _in_limit(name: str, low: int = 1) -> Callable[[str], int]:
    """An argument type: a whole number from `low` to the limit `name` of the limits table (workbench.limits), else a
    usage error naming the range, before any work starts."""
    from workbench.limits import limit

    bound = limit(name)

    def whole_number(text: str) -> int:
        cleaned = text.strip()
        digits = cleaned[1:] if cleaned[:1] in ("+", "-") else cleaned
        # At most 18 digits: a 5,000-digit number is refused by its length, not converted first.
        value = None
        if digits.isascii() and digits.isdigit():
            value = int(cleaned) if len(digits) <= 18 else low - 1  # too many digits: out of range, never converted
        top = str(bound.value) if name == "port" else f"{bound.value:,}"  # a port reads 65535, as everywhere
        if value is None or not low <= value <= bound.value:
            said = "is out of range" if value is not None else "is not a whole number"
            raise argparse.ArgumentTypeError(
                f"'{text}' {said}: expected a whole number from {low:,} to {top} (limit `{name}`, docs/formats.md)"
            )
        return value

    whole_number.__name__ = name  # argparse names the type in some messages
    return whole_number


def _play_share(text: str) -> float:
    """`--min-play-share`: a share (0.05) or a percentage (5%), from 0 up to (not including) 1."""
    cleaned = text.strip()
    try:
        share = float(cleaned[:-1]) / 100 if cleaned.endswith("%") else float(cleaned)
    except ValueError:
        share = -1.0
    if not 0 <= share < 1:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a play share: expected a share from 0 up to 1 (0.05) or a percentage below 100 (5%)"
        )
    return share


def _report_rule(args: argparse.Namespace) -> Any:
    """The report's decision rule: None (each part's defaults: the tournament's tolerance, whole games' in VP) unless
    a tolerance or a second look was asked for; a second look is the tournament power curve's only."""
    from workbench.judging import VerdictRule
    from workbench.rulesets.base import parse_option_pairs

    whole_games = parse_option_pairs(args.option).get("game") == "full"
    if args.tolerance is None and (whole_games or args.follow_up == POWER_CURVE_DEFAULTS.follow_up):
        return None
    if args.tolerance is None:
        return VerdictRule(follow_up=args.follow_up)
    return VerdictRule(tolerance=args.tolerance, follow_up=args.follow_up)


def _follow_up(text: str) -> float:
    """`--follow-up`: a finite number of times a card's matches, from 1 (no second look) up to 100."""
    try:
        times = float(text.strip())
    except ValueError:
        times = 0.0
    if not (math.isfinite(times) and 1 <= times <= 100):
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a second look's cap: expected a number of times a card's matches from 1 (no second "
            "look) to 100, e.g. 4"
        )
    return times


def _tolerance(text: str) -> float:
    """`--tolerance`: a finite number from 0 up to (not including) 100 (a score for the tournament, VP for the whole
    game)."""
    try:
        tolerance = float(text.strip())
    except ValueError:
        tolerance = -1.0
    if not (math.isfinite(tolerance) and 0 <= tolerance < 100):
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a tolerance: expected a number from 0 up to 100, e.g. 0.02 (2 points of win rate) or, "
            "with --option game=full, 1 (one final VP)"
        )
    return tolerance


def _buy_share(text: str) -> float:
    """`--min-buy-share`: a share (0.1) or a percentage (10%), from 0 up to (not including) 1."""
    try:
        return _play_share(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a bought share: expected a share from 0 up to 1 (0.1) or a percentage below 100 (10%)"
        ) from None


def _provenance_line(meta: dict[str, Any], unit: str = "matches") -> str:
    """The provenance stamp (`meta['matches']` counted in `unit`: whole games where they were played), then one line
    per engine finding (an effect the engine plays without, say)."""
    options = ", ".join(f"{k}={readable(v)}" for k, v in meta["options"].items()) or "none"
    stamp = (
        f"{meta['ruleset']} v{meta['ruleset_version']} (engine {meta['engine_version']}), seed {meta['seed']}, "
        f"{meta['matches']:,} {unit}, policies {'/'.join(meta['policies'])}, card set {meta['cardset']} "
        f"#{meta['cardset_hash']}, workbench {meta['workbench_version']}; options: {options}"
    )
    notes = [
        f"{f['severity']} [{f['rule']}] " + (f"card '{f['card']}' " if f.get("card") else "") + f["message"]
        for f in meta.get("engine_findings", [])
    ]
    return "\n".join([stamp, *notes, *(f"note: {caveat}" for caveat in meta.get("caveats", []))])


def _cmd_power_curve(args: argparse.Namespace) -> int:
    from workbench.auto_decks import parse_gauntlet
    from workbench.judging import VerdictRule
    from workbench.rulesets.base import parse_option_pairs
    from workbench.verdicts import parse_policies, power_curve_runs

    if parse_option_pairs(args.option).get("game") == "full":
        return _power_full_game(args)
    _tournament_counts(args)
    cardset, decks, overrides = _load(args, args.deck, "set")
    if not decks:
        raise _no_set_decks(cardset)
    policies = parse_policies(args.policy, cardset)
    gauntlet = parse_gauntlet(args.gauntlet)
    rule = VerdictRule(
        tolerance=POWER_CURVE_DEFAULTS.tolerance if args.tolerance is None else args.tolerance,
        follow_up=args.follow_up,
    )

    def run_curves(matches_per_card: int) -> Any:
        return power_curve_runs(
            cardset,
            decks,
            policies,
            gauntlet,
            matches_per_card,
            _run_settings(args, overrides, "power curve", policy=policies[0]),
            min_play_share=args.min_play_share,
            rule=rule,
        )

    runs = run_curves(args.matches_per_card)
    if args.decide:
        needed = [curve.meta.get("matches_to_decide_all") for _, curve in runs.runs.values()]
        planned = max((n for n in needed if n is not None), default=None)
        if planned is None:
            _Say.note("--decide: no undecided card can be decided by more matches; printing the run as it is.")
        elif planned <= runs.curve(runs.labels[0]).meta["matches_per_card"]:
            _Say.note("--decide: every card more matches can decide is decided already.")
        else:
            _Say.note(f"--decide: running again at {planned:,} matches per card to decide the undecided cards.")
            runs = run_curves(planned)
    if len(runs.runs) == 1:
        curve = runs.curve(runs.labels[0])
        if args.format == "json":
            _emit_json(_curve_json(curve))
        else:
            _print_curve(curve)
        return EXIT_OK
    comparison = runs.comparison()
    if args.format == "json":
        _emit_json(
            {
                "statement": runs.statement(),
                "sensitive": runs.sensitive_cards(),
                "comparison": comparison.to_dict(orient="records"),
                "runs": [
                    {"label": label, "policy": key.policy, "gauntlet": key.gauntlet.label, **_curve_json(curve)}
                    for label, (key, curve) in runs.runs.items()
                ],
            }
        )
        return EXIT_OK
    print(runs.statement())
    width = _table_width()
    verdicts = _verdict_table(comparison, runs.labels, width)
    print("\n".join(verdicts.lines))
    if verdicts.note:
        print(_wrapped(verdicts.note, width))
    for label, (_, curve) in runs.runs.items():
        print(f"\n== {label}")
        _print_curve(curve, width)
    return EXIT_OK


def _curve_json(curve: Any) -> dict[str, Any]:
    """One power curve as the JSON `power-curve --format json` prints."""
    return {
        **curve.meta,
        "baseline": curve.baseline.to_json(),
        "fit": {
            "intercept": curve.intercept,
            "slope": curve.slope,
            "slope_low": curve.slope_low,
            "slope_high": curve.slope_high,
            "rises_with_cost": curve.rises_with_cost,
        },
        "statements": curve.statements(),
        "rarely_played": curve.rarely_played,
        "cards": curve.cards.to_dict(orient="records"),
        "tiers": curve.tiers.to_dict(orient="records"),
    }


def _print_curve(curve: Any, width: int | None = None) -> None:
    """One power curve as text: provenance, what the line says, the table, and the key to its columns. `width`: the
    characters the table fits (default `_table_width()`)."""
    from workbench.analysis import BASELINE

    width = _table_width() if width is None else width
    print(_provenance_line(curve.meta))
    fitted = (
        f"fitted power = {curve.intercept:+.3f} {curve.slope:+.3f} x {curve.meta['cost_axis']}"
        if curve.slope_low is not None
        else f"no line of power on {curve.meta['cost_axis']} (fewer than two of its values judged)"
    )
    print(
        f"reference deck {curve.meta['reference_deck']} vs gauntlet {', '.join(curve.meta['gauntlet'])}; "
        f"reference deck score {curve.baseline}; {fitted}"
    )
    for name, text in curve.meta.get("auto_decks", {}).items():
        print(shown(f"{name}: ") + "; ".join(shown(line) for line in text.splitlines() if line))
    for statement in curve.statements():
        print(statement)
    table = _power_table(curve.cards, width)
    print("\n".join(table.lines))
    if table.note:
        print(_wrapped(table.note, width))
    fillers = curve.cards.loc[curve.cards["flag"] == BASELINE, "card"].tolist()
    if fillers:
        baseline = (
            f"baseline: {', '.join(fillers)} (the filler each card replaces; power 0 by construction, so no verdict, "
            "and left out of the fitted line and the tier means)"
        )
        print(_wrapped(baseline, width))
    if width is None:
        print(POWER_TABLE_KEY)
        return
    key = [text for column, text in POWER_TABLE_KEY_PARTS if column not in table.left_out]
    print(_wrapped(". ".join(key) + ".", width))


POWER_TABLE_KEY_PARTS: list[tuple[str, str]] = [
    ("played", "played: share of the card's matches in which its side played a copy"),
    ("drawn", "drawn: share of the card's matches in which its side drew a copy"),
    ("first", "first: mean turn of its first play"),
    ("stable", "stable: share of resamples of the matches giving the same flag"),
    ("detects", "detects: the smallest distance beyond its band this run flags four times in five"),
    ("decide at", "decide at: matches per card that would decide an undecided card"),
    ("why", "why: the reason for the flag"),
]
"""The key below a power table fitted to a terminal, a part per column: the columns left out are left out of it."""
POWER_TABLE_KEY = (
    "played / drawn: share of the card's matches in which its side played / drew a copy; first: mean turn of its "
    "first play. stable: share of resamples of the matches giving the same flag. detects: the smallest distance "
    "beyond its band this run flags four times in five. decide at: matches per card that would decide an "
    "undecided card. why: the reason for the flag."
)
"""The key as one line, where the table is not fitted to a terminal (a file, a pipe)."""


MIN_TABLE_WIDTH = 40
"""The narrowest terminal a table is fitted to; a narrower one gets 40 characters a line and wraps them itself."""
TEXT_BESIDE = 40
"""The fewest characters a table's last column (a verdict's reason, free text) keeps beside the other columns, unless
its longest text is shorter; with less room the text goes on lines of its own below its row, indented by
TEXT_INDENT."""
TEXT_INDENT = 4


def _table_width() -> int | None:
    """The characters a text table fits when stdout is a terminal: shutil.get_terminal_size() (COLUMNS when set, else
    the terminal's own width). None when stdout is a file or a pipe: every column and one line per row, as a script
    or grep reads them (`--format json` is the stable form)."""
    if not (hasattr(sys.stdout, "isatty") and sys.stdout.isatty()):
        return None
    return max(MIN_TABLE_WIDTH, shutil.get_terminal_size().columns)


def _wrapped(text: str, width: int | None) -> str:
    """A line of prose, wrapped to `width` characters (None: left whole)."""
    return text if width is None else "\n".join(textwrap.wrap(text, width, break_on_hyphens=False))


@dataclass(frozen=True)
class _Column:
    """A column of a text table. `leave_out` orders what a narrow terminal leaves out: 0 never, 1 first, then 2..."""

    header: str
    left: bool = False
    width: int = 0
    leave_out: int = 0


@dataclass(frozen=True)
class _Table:
    lines: list[str]
    left_out: list[str]
    """The headers of the columns left out to fit."""
    note: str | None
    """One line saying what was left out or cut and that `--format json` has it all; None when nothing was."""


def _fit_table(
    columns: Sequence[_Column], rows: Sequence[Sequence[str]], text_header: str, texts: Sequence[str], width: int | None
) -> _Table:
    """A text table whose last column is free text (`texts`, one a row), fitted to `width` characters a line (None:
    no limit, every column, one line a row). When the columns and TEXT_BESIDE characters of text do not fit, the text
    goes below its row, wrapped and indented, and the columns that still do not fit are left out, least important
    first (`_Column.leave_out`); any left out earlier that fit again come back, the most important first. If the
    columns never left out are still too wide, the first one's cells are cut with "…". Cells are text already shown
    (`shown`)."""
    widths = [max(c.width, len(c.header), *(len(row[i]) for row in rows)) for i, c in enumerate(columns)]
    kept = list(range(len(columns)))

    def span(indexes: Iterable[int]) -> int:  # the columns' characters, separators between them included
        return sum(widths[i] + 2 for i in indexes) - 2

    beside = width is None or span(kept) + 2 + min(TEXT_BESIDE, max(map(len, texts), default=0)) <= width
    cut = None
    if width is not None and not beside:
        optional = sorted((i for i, c in enumerate(columns) if c.leave_out), key=lambda i: columns[i].leave_out)
        for i in optional:
            if span(kept) <= width:
                break
            kept.remove(i)
        for i in reversed(optional):
            if i not in kept and span([*kept, i]) <= width:
                kept = sorted([*kept, i])
        if span(kept) > width:
            cut = max(8, widths[0] - (span(kept) - width))
            widths[0] = cut

    def cell(i: int, value: str) -> str:
        if len(value) > widths[i]:
            value = value[: widths[i] - 1] + "…"
        return f"{value:<{widths[i]}}" if columns[i].left else f"{value:>{widths[i]}}"

    def wrapped(text: str, room: int) -> list[str]:
        return textwrap.wrap(text, room, break_on_hyphens=False) if text else [""]

    head = "  ".join(cell(i, columns[i].header) for i in kept)
    lines: list[str] = []
    if beside:
        indent = " " * (span(kept) + 2)
        lines.append(f"{head}  {text_header}")
        for row, text in zip(rows, texts, strict=True):
            first, *more = [text] if width is None else wrapped(text, width - len(indent))
            lines.append(f"{'  '.join(cell(i, row[i]) for i in kept)}  {first}".rstrip())
            lines += [indent + part for part in more]
    else:
        assert width is not None
        below = " " * TEXT_INDENT
        lines += [head.rstrip(), below + text_header]
        for row, text in zip(rows, texts, strict=True):
            lines.append("  ".join(cell(i, row[i]) for i in kept).rstrip())
            lines += [below + part for part in wrapped(text, width - TEXT_INDENT) if part]
    left_out = [columns[i].header for i in range(len(columns)) if i not in kept]
    said = []
    if left_out:
        said.append(f"left out to fit {width} characters a line: {', '.join(left_out)}")
    if cut is not None:
        said.append(f"{columns[0].header} cut to {cut} characters")
    note = "; ".join(said) + "; --format json has every column whole." if said else None
    return _Table(lines, left_out, note)


def _verdict_table(comparison: Any, labels: Sequence[str], width: int | None = None) -> _Table:
    """Each card's verdict and power per run, side by side, the cards whose verdict differs first."""
    cell = max(len(label) for label in [*labels, "rarely played +0.000"])
    columns = [_Column("card", left=True), _Column("cost", width=5)] + [
        _Column(label, left=True, width=cell) for label in labels
    ]
    rows, texts = [], []
    for row in comparison.to_dict(orient="records"):
        cells = [shown(str(row["card"])), f"{row['cost']:g}"]
        for label in labels:
            flag = row[f"flag · {label}"]
            measured = flag == flag and flag is not None  # NaN: the card was not measured in that run
            cells.append(f"{flag or ''} {row[f'power · {label}']:+.3f}" if measured else "not measured")
        rows.append(cells)
        texts.append(shown(row["why"] or "same verdict"))
    return _fit_table(columns, rows, "why", texts, width)


def _share_cell(share: Any) -> str:
    from workbench.analysis import share_text

    return "—" if share is None or share != share else share_text(float(share))


POWER_COLUMNS = [
    _Column("card", left=True),
    _Column("cost", width=5),
    _Column("power", width=7),
    _Column("95% interval", width=16, leave_out=7),
    _Column("played", width=6, leave_out=8),
    _Column("drawn", width=6, leave_out=3),
    _Column("first", width=5, leave_out=2),
    _Column("in time", width=7, leave_out=6),
    _Column("flag", left=True, width=13),
    _Column("stable", width=6, leave_out=5),
    _Column("detects", width=7, leave_out=1),
    _Column("decide at", width=9, leave_out=4),
    _Column("suggested", width=9, leave_out=9),
]
"""The power-curve table's columns. A narrow terminal leaves out first the figures the reason repeats or that read
the run itself (detects, first, drawn, decide at, stable, in time, the interval the reason quotes), and last the
played share and the suggested cost; card, cost, power, flag and the reason always stay."""


def _power_table(cards: Any, width: int | None = None) -> _Table:
    """The power-curve table as text: one row per card, cheapest first, with play shares, the verdict, its
    stability, the matches that would decide it, and the flag's reason; fitted to `width` characters (`_fit_table`).
    Every user's string is shown escaped (`shown`): a line break in a card name cannot forge a row."""
    rows, texts = [], []
    for row in cards.sort_values(["cost", "power"]).itertuples():
        rows.append(
            [
                shown(str(row.card)),
                f"{row.cost:g}",
                f"{row.power:+.3f}",
                f"[{row.low:+.3f}, {row.high:+.3f}]",
                _share_cell(row.played),
                _share_cell(row.drawn),
                "—" if _missing(row.first_played_turn) else f"{row.first_played_turn:.1f}",
                _share_cell(row.played_in_time),
                str(row.flag),
                "" if _missing(row.stability) else f"{row.stability:.0%}",
                "" if _missing(row.detectable) else f"±{row.detectable:.3f}",
                "" if _missing(row.matches_to_decide) else f"{int(row.matches_to_decide):,}",
                "" if _missing(row.suggested_cost) else f"{row.suggested_cost:g}",
            ]
        )
        texts.append("" if _missing(row.reason) else shown(str(row.reason)))
    return _fit_table(POWER_COLUMNS, rows, "why", texts, width)


def _missing(value: Any) -> bool:
    """True for a cell with nothing in it (None or NaN)."""
    return value is None or value != value


def _cmd_sweep(args: argparse.Namespace) -> int:
    from workbench.analysis import parse_sweep_values, sweep
    from workbench.rulesets.base import parse_option_pairs

    if parse_option_pairs(args.option).get("game") == "full":
        return _sweep_full_game(args)
    _tournament_counts(args)
    values = parse_sweep_values(args.values)
    cardset, decks, overrides = _load(args, args.deck, "set")
    if not decks:
        raise _no_set_decks(cardset)
    result = sweep(
        cardset,
        decks,
        args.card,
        args.field,
        values,
        args.matches_per_card,
        _run_settings(args, overrides, "sweep", unit=None),
        min_play_share=args.min_play_share,
    )
    if args.format == "json":
        _emit_json({**result.meta, "points": result.points.to_dict(orient="records")})
        return EXIT_OK
    print(_provenance_line(result.meta))
    print(
        f"{result.meta['card']}: power as its {args.field} stat varies (now {result.meta['current_value']}), against "
        f"the set's cost line (band = cost ± 1/2, tolerance {POWER_CURVE_DEFAULTS.tolerance:g} either side)"
    )
    if result.statement:
        print(result.statement)
    columns = [
        _Column(args.field, width=8),
        _Column("cost", width=5),
        _Column("power", width=7),
        _Column("95% interval", width=16, leave_out=2),
        _Column("tier band", width=16, leave_out=1),
        _Column("played", width=6, leave_out=3),
        _Column("flag", left=True, width=13),
    ]
    rows = [
        [
            shown(str(row.value)),
            f"{row.cost:g}",
            f"{row.power:+.3f}",
            f"[{row.low:+.3f}, {row.high:+.3f}]",
            f"[{row.band_low:+.3f}, {row.band_high:+.3f}]",
            _share_cell(row.played),
            str(row.flag),
        ]
        for row in result.points.itertuples()
    ]
    notes = ["" if _missing(note) else shown(str(note)) for note in result.points["note"]]
    width = _table_width()
    table = _fit_table(columns, rows, "note", notes, width)
    print("\n".join(table.lines))
    if table.note:
        print(_wrapped(table.note, width))
    return EXIT_OK


def _cmd_report(args: argparse.Namespace) -> int:
    from workbench.reports import build_report, write_report

    suffix = ".html" if args.out == STDIO else Path(args.out).suffix.casefold()
    if suffix not in (".html", ".htm", ".xlsx"):
        raise WorkbenchInputError(
            f"'{args.out}' is neither .html nor .xlsx.", expected="--out FILE.html, --out FILE.xlsx or --out - (HTML)"
        )
    from workbench.spreadsheets import refuse_out_over_input

    refuse_out_over_input(args.out, [args.cardset, args.baseline, *args.deck])
    cardset, decks, overrides = _load(args, args.deck, "set")
    baseline = _open_cardset(args.baseline, cardset.ruleset) if args.baseline else None
    from workbench.auto_decks import parse_gauntlet
    from workbench.verdicts import parse_policies

    policies = parse_policies(args.policy, cardset)
    # With --option game=full the counts are whole games (workbench.full_game.FULL_GAME_DEFAULTS when not given).
    full_games, full_games_per_card = args.matches, args.matches_per_card
    _tournament_counts(args)
    report = build_report(
        cardset,
        decks,
        _run_settings(args, overrides, "report", policy=policies[0], unit=None),
        matches_per_card=args.matches_per_card,
        matches=args.matches,
        full_games=full_games,
        full_games_per_card=full_games_per_card,
        full_min_buy_share=args.min_buy_share,
        baseline=baseline,
        min_play_share=args.min_play_share,
        also_policies=policies[1:],
        gauntlet=parse_gauntlet(args.gauntlet),
        rule=_report_rule(args),
    )
    written: list[int] = []

    def write(out: Path) -> Path:
        path = write_report(report, out)
        written.append(path.stat().st_size)
        return path

    path = _write_out(args.out, suffix, write)
    images: list[Any] = []
    if args.png_dir:
        from workbench.report_html import write_pngs

        images = write_pngs(report, args.png_dir)
    _emit_summary(
        args,
        {
            "out": str(path),
            "bytes": written[0],
            "images": [str(p) for p in images],
            **report.provenance,
            "notes": report.notes,
        },
        f"wrote {path} ({written[0] / 1024:,.0f} KiB)"
        + "".join(f"; {note}" for note in report.notes)
        + "".join(f"\nwrote {image}" for image in images),
    )
    return EXIT_OK


def _cmd_health(args: argparse.Namespace) -> int:
    from workbench.health import full_game_health, game_health, health_lines, length_options, length_options_lines
    from workbench.rulesets.base import parse_option_pairs

    lengths = None
    if parse_option_pairs(args.option).get("game") == "full":
        if args.length_options:
            raise WorkbenchInputError(
                "--length-options measures matches between decks, not whole games (whose length the rules fix).",
                expected="no --option game=full with --length-options",
            )
        if args.deck:
            raise WorkbenchInputError(
                "--deck is not used with --option game=full: whole games build their decks from the store.",
                expected="no --deck with --option game=full (or game=tournament to play the decks)",
            )
        cardset, _decks, overrides = _load(args, [])
        # The whole game's progress reports games, not matches: a share, the time taken and the time left.
        health = full_game_health(cardset, args.matches, _run_settings(args, overrides, "health", unit=None))
    else:
        cardset, decks, overrides = _load(args, args.deck, "set")
        if not decks:
            raise _no_set_decks(cardset)
        matches = POWER_CURVE_DEFAULTS.matches_per_pair if args.matches is None else args.matches
        health = game_health(cardset, decks, matches, _run_settings(args, overrides, "health"))
        if args.length_options:
            lengths = length_options(cardset, decks, matches, _run_settings(args, overrides, "length options"))
    if args.format == "json":
        _emit_json(health.to_json() | ({"length_options": lengths.to_json()} if lengths is not None else {}))
        return EXIT_OK
    meta = health.meta
    if health.whole_game:
        print(_provenance_line(meta, "whole games"))
        print(
            f"whole games from the card sheet alone (no decks: each seat builds its own from the store), "
            f"{meta['players']} seats all playing {meta['policies'][0]}, whole-game rules v{meta['market_version']}; "
            "every share with its 95% Wilson interval, every mean with its 95% normal interval, over the games"
        )
    else:
        print(_provenance_line(meta))
        print(
            f"every ordered pair of the decks {', '.join(meta['decks'])} ({meta['pairs']} in all, mirrors included, "
            f"so each deck sits in both seats; the first player alternates): {meta['matches_per_pair']:,} matches "
            "per pair"
        )
    for line in health_lines(health):
        print(shown(line))
    warnings = health.warnings
    print(f"{len(warnings)} warning(s)" if warnings else "no warnings: every measured figure is in its healthy range")
    if lengths is not None:
        for line in length_options_lines(lengths):
            print(shown(line))
    return EXIT_OK


def _cmd_stat_values(args: argparse.Namespace) -> int:
    from workbench.stat_values import stat_values

    cardset, decks, overrides = _load(args, args.deck, "set")
    if not decks:
        raise _no_set_decks(cardset)
    values = stat_values(
        cardset,
        decks,
        args.cards,
        args.matches_per_card,
        _run_settings(args, overrides, "stat values", unit=None),
        replicates=args.replicates,
        min_play_share=args.min_play_share,
    )
    if args.format == "json":
        _emit_json(values.to_json())
        return EXIT_OK
    for line in values.to_text().splitlines():
        print(shown(line))
    return EXIT_OK


def _cmd_propose(args: argparse.Namespace) -> int:
    from workbench.judging import VerdictRule
    from workbench.propose import COST, propose, save_proposal

    cardset, decks, overrides = _load(args, args.deck, "set")
    if not decks:
        raise _no_set_decks(cardset)
    rule = VerdictRule() if args.tolerance is None else VerdictRule(tolerance=args.tolerance)
    result = propose(
        cardset,
        decks,
        args.matches_per_card,
        _run_settings(args, overrides, "proposals", unit=None),
        fields=tuple(args.field) or (COST,),
        locked_cards=tuple(args.lock),
        max_changes=args.max_changes,
        evaluations=args.evaluations,
        rule=rule,
        matches_per_pair=args.matches_per_pair,
        proof_matches_per_pair=args.proof_matches_per_pair,
    )
    written = None
    if args.out is not None and result.offered:
        written = save_proposal(result.offered[0], cardset, args.out, decks)
    if args.format == "json":
        _emit_json({**result.to_json(), "written": None if written is None else str(written)})
        return EXIT_OK
    ProgressBar.close_all()  # a search that ends before its last step leaves its bar short of the total
    for line in result.to_text().splitlines():
        print(shown(line))
    if args.out is not None:
        _Say.note(
            f"wrote the first offered proposal to {written}"
            if written is not None
            else f"no proposal held up in its proof run, so nothing was written to {args.out}"
        )
    return EXIT_OK


def _cmd_print(args: argparse.Namespace) -> int:
    from workbench.print_sheet import write_print_sheet
    from workbench.spreadsheets import refuse_out_over_input

    refuse_out_over_input(args.out, [args.cardset])
    cardset = _open_cardset(args.cardset, args.ruleset)
    counted: list[int] = []

    def write(out: Path) -> Path:
        path, cards, pages = write_print_sheet(cardset, out)
        counted.extend((cards, pages))
        return path

    path = _write_out(args.out, ".html", write)
    cards, pages = counted
    _emit_summary(
        args,
        {"out": str(path), "cards": cards, "pages": pages},
        f"wrote {path}: {cards} cards on {pages} page(s); print it from the browser (Save as PDF works)",
    )
    return EXIT_OK


def _cmd_diff(args: argparse.Namespace) -> int:
    from workbench.diff import diff_cardsets, with_power_changes
    from workbench.rulesets.base import parse_option_pairs

    overrides = parse_option_pairs(args.option)
    old = _open_cardset(args.old, args.ruleset)
    new = _open_cardset(args.new, args.ruleset or old.ruleset)
    result = diff_cardsets(old, new, overrides)
    if args.deck:
        decks, _found = _resolve_decks(args.deck, new, _decks_folder(new))
        result = with_power_changes(result, decks, args.matches_per_card, _run_settings(args, overrides, "power"))
    if args.format == "json":
        _emit_json(result.to_json())
        return EXIT_OK
    print(f"{old.path} -> {new.path} ({new.ruleset.id} v{new.ruleset.version})")
    print(
        f"{len(result.added)} added, {len(result.removed)} removed, {len(result.renamed)} renamed, "
        f"{len(result.changed) - len(result.renamed)} changed; {len(result.findings_resolved)} finding(s) fixed, "
        f"{len(result.findings_appeared)} new"
    )
    for line in result.patch_notes() or ["No changes."]:
        print(f"- {line}")
    if result.power is not None:
        meta = result.power.meta
        if meta:
            print(
                f"power: {meta['matches_per_card']:,} matches per card and version, seed {meta['seed']}, "
                f"policy {meta['policies'][0]}, ruleset {new.ruleset.id} v{new.ruleset.version}; 95% intervals"
            )
        for note in result.power.notes:
            print(f"note: {note}")
    return EXIT_OK


def _cmd_bench(args: argparse.Namespace) -> int:
    from workbench.bench import (
        bench_engine,
        bench_matches_for,
        bench_power_curve,
        bench_search,
        bench_validation,
        bench_whole_games,
    )
    from workbench.pace import keep_bench_figures, kept_text
    from workbench.rulesets import RULESETS, get_ruleset
    from workbench.rulesets.base import parse_option_pairs

    rulesets = [get_ruleset(args.ruleset)] if args.ruleset else list(RULESETS.values())
    overrides = parse_option_pairs(args.option)
    if overrides and not args.ruleset:
        raise WorkbenchInputError(
            "--option needs --ruleset: rule options belong to one game.",
            expected="workbench bench --ruleset ID --option KEY=VALUE",
        )
    for ruleset in rulesets:
        ruleset.resolve_options(overrides)
        if ruleset.engine is not None and args.only != "validation":
            # An unknown policy fails now, not after the validation figures.
            policy_word(args.policy, ruleset.engine.policies, ruleset.engine.search_settings)
    validation: list[dict[str, Any]] = []
    engines: list[dict[str, Any]] = []
    pace_file: str | None = None
    if args.only in (None, "validation"):
        for ruleset in rulesets:
            result = bench_validation(ruleset, cards=args.cards, repeat=args.repeat)
            validation.append(result)
            if args.format == "text":
                print(
                    f"{ruleset.id:<8} validate {result['cards']:>6} cards: read {result['read_seconds']:.2f} s "
                    f"({result['reader']} reader), parse {result['parse_seconds']:.2f} s, "
                    f"checks {result['check_seconds']:.2f} s, "
                    f"total {result['total_seconds']:.2f} s (best of {result['repeat']})"
                )
    if args.only in (None, "engines", "matches"):
        whole_parts = args.only != "matches"
        for ruleset in rulesets:
            if ruleset.engine_module is None:
                continue
            matches = args.matches or bench_matches_for(args.policy, ruleset)
            result = bench_engine(ruleset, matches=matches, repeat=args.repeat, policy=args.policy, options=overrides)
            if whole_parts:
                result["power_curve"] = bench_power_curve(ruleset, policy=args.policy, options=overrides)
            search = bench_search(ruleset, options=overrides) if args.policy != "search" else None
            if search is not None:
                result["search"] = search
            whole = bench_whole_games(ruleset) if whole_parts and not overrides else None
            if whole is not None:
                result["whole_games"] = whole
            # The one-core figures are kept in the user cache for the app's time estimates (workbench.pace).
            result["pace"] = keep_bench_figures(ruleset, result, options_given=bool(overrides))
            pace_file = pace_file or result["pace"]["file"]
            engines.append(result)
            if args.format == "text":
                print(
                    f"{ruleset.id:<8} engine {result['engine_version']}: {result['matches_per_second']:>10,.0f} "
                    f"matches/s on one core ({result['policy']}, {result['deck_a']} vs {result['deck_b']}, "
                    f"{result['matches']:,} matches, best of {result['repeat']}"
                    f"{''.join(f', {key}={value}' for key, value in overrides.items())}); first call "
                    f"{result['first_call_seconds']:.2f} s (compile or load cache)"
                )
                if "reference" in result:
                    plain = result["reference"]
                    print(
                        f"{ruleset.id:<8} per-object Python engine: {plain['matches_per_second']:>10,.0f} matches/s "
                        f"({plain['matches']:,} matches, same decks and seeds); compiled is {plain['speedup']:g}x "
                        "faster"
                    )
                curve = result.get("power_curve")
                if curve is not None:
                    print(
                        f"{ruleset.id:<8} power curve: {curve['cards_measured']} cards x "
                        f"{curve['matches_per_card']:,} matches ({curve['matches']:,} in all) in "
                        f"{curve['seconds']:.2f} s on every core"
                    )
                if search is not None:
                    print(
                        f"{ruleset.id:<8} search: {search['matches_per_second']:>10,.0f} matches/s on one core (both "
                        f"sides searching at the default budget, {search['matches']:,} matches); first call "
                        f"{search['first_call_seconds']:.2f} s"
                    )
                if whole is not None:
                    print(
                        f"{ruleset.id:<8} whole games: {whole['games_per_second']:>10,.2f} games/s on one core "
                        f"({whole['players']} seats, {whole['policy']}, {whole['games']} games); first game "
                        f"{whole['first_call_seconds']:.2f} s"
                    )
                    mixed = whole.get("against_random")
                    if mixed:
                        print(
                            f"{ruleset.id:<8} whole games: {mixed['games_per_second']:>10,.2f} games/s on one core "
                            f"(seat A greedy, the other seats random, {whole['games']} games)"
                        )
                print(f"{ruleset.id:<8} pace: {kept_text(result['pace'])}")
    if args.format == "json":
        _emit_json(
            {"workbench_version": __version__, "validation": validation, "engines": engines, "pace_file": pace_file}
        )
    return EXIT_OK


def _cmd_warm(args: argparse.Namespace) -> int:
    from workbench.rulesets import RULESETS, get_ruleset
    from workbench.warm import compile_times_path, numba_cache_text, warm_ruleset

    rulesets = [get_ruleset(name) for name in args.rulesets] if args.rulesets else list(RULESETS.values())
    engines: list[dict[str, Any]] = []
    for ruleset in rulesets:
        if ruleset.engine_module is None:
            engines.append({"ruleset": ruleset.id, "how": "no engine"})
            if args.format == "text":
                print(f"{ruleset.id:<8} no match engine to compile")
            continue
        _Say.note(f"{ruleset.id}: loading the engine, or compiling it if this machine has no cached copy…")
        load = warm_ruleset(ruleset)
        assert load is not None
        engines.append(load.to_json())
        if args.format == "text":
            print(f"{ruleset.id:<8} {load.describe()}", flush=True)
    if args.format == "json":
        _emit_json(
            {
                "workbench_version": __version__,
                "numba_cache": numba_cache_text(),
                "compile_times_file": str(compile_times_path()),
                "engines": engines,
            }
        )
    else:
        print(f"Numba cache: {numba_cache_text()}; compile times kept in {compile_times_path()}")
    return EXIT_OK


APP_ADDRESS = "127.0.0.1"
"""Where `workbench app` listens unless --address says otherwise: this machine only."""


def app_settings(address: str = APP_ADDRESS) -> dict[str, str]:
    """The Streamlit settings `workbench app` passes on Streamlit's command line, the same as the checkout's
    .streamlit/config.toml (which an installed package does not have; tests/test_cli.py keeps the two equal), plus
    the address to listen on."""
    from workbench.limits import limit

    return {
        # No "enter your email" prompt: the app starts unattended.
        "server.showEmailPrompt": "false",
        # The workbench reads files of at most the `file_bytes` limit (50 MiB): bigger uploads are refused early.
        "server.maxUploadSize": str(max(1, limit("file_bytes").value // 2**20)),
        "server.address": address,
        # No usage statistics are sent to Streamlit.
        "browser.gatherUsageStats": "false",
        # No "magic": a bare string or expression in a page script is never written on the page.
        "runner.magicEnabled": "false",
        # Streamlit's own table "Download as CSV" writes formula-like cells unchanged: hidden (the app's own
        # download buttons are formula-safe).
        "client.disableDataExport": "true",
    }


def _app_url(address: str, port: int) -> str:
    """The address a person opens: this machine's name when the app listens on every interface."""
    import socket

    host = socket.gethostname() if address in ("0.0.0.0", "::", "") else address
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def _streamlit_cli() -> Any:
    """Streamlit's command line, or a clear exit 2 when the app extra is not installed."""
    import importlib.util

    install = "pip install 'card-workbench[app]' (in a checkout: pip install -e '.[app]')"
    if importlib.util.find_spec("streamlit") is None:
        raise _MissingExtra(
            "workbench app needs Streamlit, which is not installed: the app is an extra of the package. Every other "
            "command works without it.",
            expected=install,
        )
    try:
        from streamlit.web import cli as streamlit_cli
    except ImportError as error:
        raise _MissingExtra(
            f"workbench app needs Streamlit, which could not be imported ({error}).", expected=install
        ) from error
    return streamlit_cli


def _cmd_app(args: argparse.Namespace) -> int:
    """Streamlit's own `streamlit run`, in this process, on the router inside the installed package, with the
    settings of `app_settings` (no config file is read for them)."""
    from importlib import resources

    streamlit_cli = _streamlit_cli()
    router = resources.files("workbench.app").joinpath("router.py")
    url = _app_url(args.address, args.port)
    if args.format == "json":
        print(
            json.dumps(
                {
                    "schema_version": SCHEMA_VERSION,
                    "url": url,
                    "address": args.address,
                    "port": args.port,
                    "router": str(router),
                    "workbench_version": __version__,
                }
            ),
            flush=True,
        )
    _Say.note(f"starting the app at {url} (Ctrl-C stops it); the router is {router}")
    streamlit_args = ["run", str(router), "--server.port", str(args.port)]
    for key, value in app_settings(args.address).items():
        streamlit_args += [f"--{key}", value]
    if args.headless:
        streamlit_args += ["--server.headless", "true"]
    try:
        streamlit_cli.main(streamlit_args, prog_name="streamlit", standalone_mode=False)
    except SystemExit as stopped:  # Streamlit ends its server with sys.exit (a port in use, say)
        return stopped.code if isinstance(stopped.code, int) else EXIT_BUG
    return EXIT_OK


_COMMANDS = {
    "rulesets": _cmd_rulesets,
    "sets": _cmd_sets,
    "template": _cmd_template,
    "validate": _cmd_validate,
    "simulate": _cmd_simulate,
    "power-curve": _cmd_power_curve,
    "sweep": _cmd_sweep,
    "report": _cmd_report,
    "health": _cmd_health,
    "stat-values": _cmd_stat_values,
    "propose": _cmd_propose,
    "print": _cmd_print,
    "diff": _cmd_diff,
    "bench": _cmd_bench,
    "warm": _cmd_warm,
    "app": _cmd_app,
}


if __name__ == "__main__":
    raise SystemExit(main())
