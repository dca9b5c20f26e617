"""The `workbench` command line (DESIGN.md section 3). Thin: every command calls workbench functions.

Exit codes: 0 fine, 1 errors found, 2 input unreadable. JSON goes to stdout,
messages to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from workbench import __version__
from workbench.cards import CardSet, Deck, WorkbenchInputError, readable, sort_findings
from workbench.power_defaults import POWER_CURVE_DEFAULTS

if TYPE_CHECKING:
    from workbench.decklists import SetDecks

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_UNREADABLE = 2
EXIT_BUG = 3
EXIT_BROKEN_PIPE = 141
"""The reader of stdout went away (`| head`): 128 + SIGPIPE, as a Unix tool ends."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench",
        description="Card-design and balance workbench: validate card sets and decklists.",
    )
    parser.add_argument("--version", action="version", version=f"workbench {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
        return sub

    def add_option_argument(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--option", action="append", default=[], metavar="KEY=VALUE", help="rule option; repeat for more"
        )

    add("rulesets", "list ruleset ids, titles and versions")

    template = add("template", "write an empty, documented card sheet for a ruleset")
    template.add_argument("ruleset", metavar="RULESET", help="ruleset id")
    template.add_argument("--out", required=True, metavar="FILE.xlsx", help="where to write the sheet")

    validate = add("validate", "check every card's cost formula and every deck's construction rules")
    validate.add_argument("cardset", metavar="CARDSET", help="card sheet (.xlsx or .csv)")
    validate.add_argument("--ruleset", metavar="ID", help="ruleset id (default: the Set sheet, else detected)")
    validate.add_argument(
        "--deck", action="append", default=[], metavar="FILE|NAME",
        help="decklist file, or the name of a deck of the set; repeat for more (default: the workbook's Decks sheet)",
    )
    add_option_argument(validate)

    def add_simulation_arguments(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("cardset", metavar="CARDSET", help="card sheet (.xlsx or .csv)")
        sub.add_argument("--ruleset", metavar="ID", help="ruleset id (default: the Set sheet, else detected)")
        sub.add_argument(
            "--seed", type=int, default=POWER_CURVE_DEFAULTS.seed, metavar="S",
            help=f"random seed (default {POWER_CURVE_DEFAULTS.seed}); same seed, same figures",
        )
        sub.add_argument(
            "--policy", default=POWER_CURVE_DEFAULTS.policy, metavar="P",
            help=f"play policy, e.g. greedy or random (default {POWER_CURVE_DEFAULTS.policy})",
        )
        add_option_argument(sub)
        sub.add_argument("--workers", type=int, metavar="N", help="worker processes (default: every core)")
        sub.add_argument(
            "--executor", default="local", metavar="E",
            help="where matches run: local (default), dask-local, or dask://HOST:PORT (needs pip install -e '.[dist]')",
        )

    def add_min_play_share(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--min-play-share", type=_play_share, default=POWER_CURVE_DEFAULTS.min_play_share, metavar="SHARE",
            help="a card played in fewer than this share of its matches is 'rarely played', not judged (default "
            + f"{POWER_CURVE_DEFAULTS.min_play_share:.0%}".replace("%", "%%") + "; 0.05 or 5%%; 0 judges every card)",
        )

    def add_power_curve_arguments(sub: argparse.ArgumentParser, per: str) -> None:
        """The power curve's own settings, the same for power-curve, sweep and report (and as in the app)."""
        sub.add_argument(
            "--matches-per-card", type=int, default=POWER_CURVE_DEFAULTS.matches_per_card, metavar="N",
            help=f"matches per {per} (default {POWER_CURVE_DEFAULTS.matches_per_card:,}, as in the app)",
        )
        add_min_play_share(sub)

    simulate = add("simulate", "play seeded matches between two decks: win rate with 95%% interval")
    add_simulation_arguments(simulate)
    simulate.add_argument(
        "--deck", action="append", default=[], metavar="FILE|NAME",
        help="deck A, then deck B (default: A), each a decklist file or the name of a deck of the set; three or more "
        "decks give the matchup matrix of every pair",
    )
    simulate.add_argument(
        "--matches", type=int, default=10_000, metavar="N", help="matches to play, per pair of decks (default 10000)"
    )
    simulate.add_argument("--policy-b", metavar="P", help="deck B's policy (default: --policy)")
    simulate.add_argument("--first", choices=("alternate", "random"), default="alternate", help="who goes first")
    simulate.add_argument("--trace", action="store_true", help="print match 0 turn by turn instead of the summary")

    power = add("power-curve", "each card's simulated power against its cost, with intervals and flags")
    add_simulation_arguments(power)
    power.add_argument(
        "--deck", action="append", default=[], metavar="FILE|NAME",
        help="reference deck first, then the gauntlet (default: the set's decks: its Decks sheet, then the decks/ "
        "folder beside CARDSET)",
    )
    add_power_curve_arguments(power, "card")

    sweep = add("sweep", "one card's simulated power as a field takes each value, against its cost tier's band")
    add_simulation_arguments(sweep)
    sweep.add_argument("--card", required=True, metavar="NAME", help="the card to vary")
    sweep.add_argument("--field", required=True, metavar="COLUMN", help="the column to vary, e.g. attack or soul_cost")
    sweep.add_argument("--values", required=True, metavar="V", help="LOW..HIGH (inclusive) or a list like 1,3,5")
    sweep.add_argument(
        "--deck", action="append", default=[], metavar="FILE|NAME",
        help="reference deck first, then the gauntlet (default: the set's decks: its Decks sheet, then the decks/ "
        "folder beside CARDSET)",
    )
    add_power_curve_arguments(sweep, "value")

    report = add("report", "write a balance report a team can read without the app (HTML or XLSX)")
    add_simulation_arguments(report)
    report.add_argument(
        "--deck", action="append", default=[], metavar="FILE|NAME",
        help="decks to validate and simulate; the first is the power curve's reference (default: the set's decks: "
        "its Decks sheet, then the decks/ folder)",
    )
    report.add_argument("--baseline", metavar="OLD_CARDSET", help="an earlier version of the set: adds a changes section")
    report.add_argument("--out", required=True, metavar="FILE.html|FILE.xlsx", help="where to write the report")
    report.add_argument(
        "--png-dir", metavar="DIR", help="also write each chart as a PNG there (needs pip install -e '.[png]' and chromium)"
    )
    add_power_curve_arguments(report, "card")
    report.add_argument(
        "--matches", type=int, default=POWER_CURVE_DEFAULTS.matches_per_pair, metavar="N",
        help=f"matches per deck pair (default {POWER_CURVE_DEFAULTS.matches_per_pair}, as in the app)",
    )

    health = add("health", "the game's own health: first-player advantage, length, turn-cap hits, draws, dead cards")
    add_simulation_arguments(health)
    health.add_argument(
        "--deck", action="append", default=[], metavar="FILE|NAME",
        help="decks to play, every ordered pair of them (default: the set's decks: its Decks sheet, then the decks/ "
        "folder beside CARDSET)",
    )
    health.add_argument(
        "--matches", type=int, default=POWER_CURVE_DEFAULTS.matches_per_pair, metavar="N",
        help=f"matches per ordered pair of decks (default {POWER_CURVE_DEFAULTS.matches_per_pair}, as the matchups)",
    )

    print_sheet = add("print", "write a printable proof sheet: every card drawn, nine to a page, with cut marks")
    print_sheet.add_argument("cardset", metavar="CARDSET", help="card sheet (.xlsx or .csv)")
    print_sheet.add_argument("--ruleset", metavar="ID", help="ruleset id (default: the Set sheet, else detected)")
    print_sheet.add_argument("--out", required=True, metavar="FILE.html", help="where to write the print sheet")

    diff = add("diff", "what changed between two versions of a card set, as patch notes")
    diff.add_argument("old", metavar="OLD", help="the earlier card sheet (.xlsx or .csv)")
    diff.add_argument("new", metavar="NEW", help="the later card sheet (.xlsx or .csv)")
    diff.add_argument("--ruleset", metavar="ID", help="ruleset id (default: the Set sheet, else detected)")
    add_option_argument(diff)
    diff.add_argument(
        "--deck", action="append", default=[], metavar="FILE|NAME",
        help="with decks (files, or names of NEW's decks; the reference deck first), also simulate the power of every changed card in both versions",
    )
    diff.add_argument(
        "--matches-per-card", type=int, default=POWER_CURVE_DEFAULTS.matches_per_card, metavar="N",
        help=f"matches per card and version (default {POWER_CURVE_DEFAULTS.matches_per_card:,}, as power-curve)",
    )
    diff.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0); same seed, same figures")
    diff.add_argument("--policy", default="greedy", metavar="P", help="play policy, e.g. greedy or random")
    diff.add_argument("--workers", type=int, metavar="N", help="worker processes (default: every core)")

    bench = add("bench", "measure validation speed, engine matches per second and power-curve time")
    bench.add_argument("--ruleset", metavar="ID", help="one ruleset (default: all)")
    bench.add_argument("--only", choices=("validation", "engines"), help="run one part only")
    bench.add_argument("--cards", type=int, default=10_000, metavar="N", help="cards in the generated sheet")
    bench.add_argument("--matches", type=int, default=200_000, metavar="N", help="matches per engine figure")
    bench.add_argument("--repeat", type=int, default=3, metavar="N", help="runs per figure; the best is reported")
    bench.add_argument("--policy", default="greedy", metavar="P", help="engine figures' play policy (default greedy)")
    add_option_argument(bench)

    warm = add("warm", "compile the match engines ahead of their first use (a server's start, CI)")
    warm.add_argument(
        "rulesets", nargs="*", metavar="RULESET", help="ruleset ids (default: every ruleset with a match engine)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        code = _COMMANDS[args.command](args)
        sys.stdout.flush()  # a reader that went away shows here, in the handler below, not at interpreter exit
        return code
    except WorkbenchInputError as error:
        print(f"workbench: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        print("workbench: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`workbench ... | head`): end quietly, as a Unix tool killed by SIGPIPE does. Python
        # would complain again while flushing stdout at exit, so stdout points at nothing first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception:  # a bug, not bad input: say so in one paragraph; the traceback on request
        if os.environ.get("WORKBENCH_DEBUG"):
            traceback.print_exc()
        kind, value = sys.exc_info()[:2]
        print(
            f"workbench: internal error ({kind.__name__ if kind else 'error'}: {value}). "
            "This is a bug in the workbench, not in your file; run again with WORKBENCH_DEBUG=1 for details.",
            file=sys.stderr,
        )
        return EXIT_BUG


def _emit_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2, default=str)
    sys.stdout.write("\n")


def _cmd_rulesets(args: argparse.Namespace) -> int:
    from workbench.rulesets import RULESETS

    rows = [
        {"id": r.id, "title": r.title, "version": r.version, "document": r.document, "kinds": list(r.kinds)}
        for r in RULESETS.values()
    ]
    if args.format == "json":
        _emit_json(rows)
    else:
        width = max(len(r["id"]) for r in rows)
        for row in rows:
            print(f"{row['id']:<{width}}  v{row['version']:<5} {row['title']}  (kinds: {', '.join(row['kinds'])})")
    return EXIT_OK


def _cmd_template(args: argparse.Namespace) -> int:
    from workbench.rulesets import get_ruleset
    from workbench.templates import write_template

    ruleset = get_ruleset(args.ruleset)
    if not str(args.out).casefold().endswith(".xlsx"):
        raise WorkbenchInputError(f"'{args.out}' does not end in .xlsx.", expected="--out FILE.xlsx")
    path = write_template(ruleset, args.out)
    if args.format == "json":
        _emit_json({"ruleset": ruleset.id, "out": str(path), "columns": [c.header for c in ruleset.columns]})
    else:
        print(f"wrote {path}: {len(ruleset.columns)} columns for {ruleset.title} (see its 'Columns' sheet)")
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
            print(f"note: {note}", file=sys.stderr)
        for finding in found.findings:
            print(finding.to_text(), file=sys.stderr)
    left_out = [finding for deck in decks for finding in deck.load_findings if finding.severity == "error"]
    if left_out:
        print(f"note: {len(left_out)} decklist line(s) could not be read and are left out:", file=sys.stderr)
        for finding in left_out:
            print(f"  {finding.to_text()}", file=sys.stderr)
    return cardset, decks, overrides


DeckDefault = Literal["none", "workbook", "set"]
"""Which decks a command takes when no --deck is given: none, the workbook's Decks sheet, or every deck of the set."""


def _load_with_set_decks(
    args: argparse.Namespace, deck_args: Sequence[str], default: DeckDefault = "none"
) -> tuple[CardSet, list[Deck], dict[str, str], SetDecks | None]:
    """`_load`, with the set's own decks when any were looked at (for their findings and notes).

    A --deck that is a file is read as a decklist; any other --deck is the name of one of the set's decks: its
    workbook's Decks sheet first, then the decks/ folder beside the sheet. Without --deck, `default` says which.
    """
    from workbench.decklists import resolve_decks, set_decks
    from workbench.loading import load_cardset
    from workbench.paths import decks_folder_beside
    from workbench.rulesets.base import parse_option_pairs

    overrides = parse_option_pairs(args.option)
    cardset = load_cardset(args.cardset, args.ruleset)
    cardset.ruleset.resolve_options(overrides)
    folder = decks_folder_beside(args.cardset)
    found: SetDecks | None = None
    if deck_args:
        decks, found = resolve_decks(deck_args, cardset, folder)
    elif default == "none":
        decks = []
    else:
        found = set_decks(cardset, folder if default == "set" else None)
        decks = list(found.decks)
    return cardset, decks, overrides, found


def _no_set_decks(args: argparse.Namespace) -> WorkbenchInputError:
    """No --deck, and the set has no decks of its own."""
    from workbench.paths import decks_folder_beside

    folder = decks_folder_beside(args.cardset)
    return WorkbenchInputError(
        f"no --deck given, and the set has no decks: no deck in a Decks sheet of {args.cardset} and no decklists "
        f"in {folder}.",
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
            print(f"note: {note}", file=sys.stderr)
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
        print(
            f"{cardset.path}: {len(cardset)} of {cardset.rows_read} card rows read as {ruleset.id} "
            f"v{ruleset.version}{deck_note}: {counts['error']} error(s), {counts['warning']} warning(s), "
            f"{counts['info']} info",
            file=sys.stderr,
        )
    return EXIT_FINDINGS if report.has_errors else EXIT_OK


class ProgressBar:
    """A one-line progress bar on stderr, drawn only for a terminal (logs and pipes stay clean)."""

    def __init__(self, label: str, stream: Any = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.active = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.last_percent = -1

    def __call__(self, done: int, total: int) -> None:
        if not self.active or total <= 0:
            return
        percent = done * 100 // total
        if percent == self.last_percent:
            return
        self.last_percent = percent
        filled = percent * 30 // 100
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {percent:3d}% {done:,}/{total:,} matches")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def _policies(args: argparse.Namespace) -> tuple[str, str]:
    return (args.policy, getattr(args, "policy_b", None) or args.policy)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from workbench.simulate import simulate, trace

    if not args.deck:
        raise WorkbenchInputError("simulate needs a deck.", expected="--deck A [--deck B] (B defaults to A: a mirror match)")
    cardset, decks, overrides = _load(args, args.deck)
    if len(decks) > 2:
        if args.trace:
            raise WorkbenchInputError(f"--trace plays one match, but {len(decks)} decks were given.", expected="--deck A [--deck B] with --trace")
        return _print_matchups(args, cardset, decks, overrides)
    deck_b = decks[1] if len(decks) > 1 else None
    if args.trace:
        for line in trace(cardset, decks[0], deck_b, args.seed, _policies(args), overrides):
            print(line)
        return EXIT_OK
    results = simulate(
        cardset, decks[0], deck_b, args.matches, args.seed, _policies(args), overrides,
        first_player=args.first, executor=args.executor, workers=args.workers, progress=ProgressBar("simulate"),
    )
    summary = results.summary()
    if args.format == "json":
        _emit_json({**summary, "counters": results.counters.to_dict(orient="records")})
        return EXIT_OK
    print(_provenance_line(summary))
    print(f"A = {summary['deck_a']} ({summary['policies'][0]})  vs  B = {summary['deck_b']} ({summary['policies'][1]})")
    print(f"A win rate:            {results.win_rate_a}")
    print(f"first-player win rate: {results.first_player_win_rate}")
    q1, median, q3 = summary["turns_quartiles"]
    print(f"draws: {results.draw_rate:.1%}; turns: mean {results.mean_turns:.1f}, quartiles {q1:g} / {median:g} / {q3:g}")
    for column, mean in summary.get("per_match_means", {}).items():
        print(f"mean {column}: {mean:.3f}")
    return EXIT_OK


def _print_matchups(args: argparse.Namespace, cardset: CardSet, decks: list[Deck], overrides: dict[str, str]) -> int:
    """Three or more decks: every ordered pair, row deck's win rate against the column deck, with intervals."""
    from workbench.analysis import matchup_matrix
    from workbench.simulate import provenance

    frame = matchup_matrix(
        cardset, decks, args.matches, args.seed, args.policy, overrides,
        executor=args.executor, workers=args.workers, progress=ProgressBar("matchups"),
    )
    engine, resolved = cardset.ruleset.engine, cardset.ruleset.resolve_options(overrides)
    assert engine is not None
    meta = provenance(cardset, engine, resolved, args.seed, args.matches, (args.policy, args.policy))
    if args.format == "json":
        _emit_json({**meta, "matches_per_pair": args.matches, "matchups": frame.to_dict(orient="records")})
        return EXIT_OK
    print(_provenance_line(meta) + " (matches per pair)")
    names = [deck.name for deck in decks]
    width = max(len(name) for name in names)
    cell = 22
    print(f"{'row deck win rate vs':<{width}}  " + "  ".join(f"{name[:cell]:>{cell}}" for name in names))
    for name in names:
        cells = []
        for opponent in names:
            row = frame[(frame["deck"] == name) & (frame["opponent"] == opponent)].iloc[0]
            cells.append(f"{row.win_rate:.1%} [{row.low:.1%}-{row.high:.1%}]".rjust(cell))
        print(f"{name:<{width}}  " + "  ".join(cells))
    return EXIT_OK


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


def _provenance_line(meta: dict[str, Any]) -> str:
    """The provenance stamp, then one line per engine finding (an effect the engine plays without, say)."""
    options = ", ".join(f"{k}={readable(v)}" for k, v in meta["options"].items()) or "none"
    stamp = (
        f"{meta['ruleset']} v{meta['ruleset_version']} (engine {meta['engine_version']}), seed {meta['seed']}, "
        f"{meta['matches']:,} matches, policies {'/'.join(meta['policies'])}, card set {meta['cardset']} "
        f"#{meta['cardset_hash']}, workbench {meta['workbench_version']}; options: {options}"
    )
    notes = [
        f"{f['severity']} [{f['rule']}] " + (f"card '{f['card']}' " if f.get("card") else "") + f["message"]
        for f in meta.get("engine_findings", [])
    ]
    return "\n".join([stamp, *notes])


def _cmd_power_curve(args: argparse.Namespace) -> int:
    from workbench.analysis import BASELINE, power_curve

    cardset, decks, overrides = _load(args, args.deck, "set")
    if not decks:
        raise _no_set_decks(args)
    curve = power_curve(
        cardset, decks, args.matches_per_card, args.seed, args.policy, overrides,
        executor=args.executor, workers=args.workers, progress=ProgressBar("power curve"),
        min_play_share=args.min_play_share,
    )
    if args.format == "json":
        _emit_json(
            {
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
        )
        return EXIT_OK
    print(_provenance_line(curve.meta))
    print(
        f"reference deck {curve.meta['reference_deck']} vs gauntlet {', '.join(curve.meta['gauntlet'])}; "
        f"reference deck score {curve.baseline}; fitted power = {curve.intercept:+.3f} {curve.slope:+.3f} x {curve.meta['cost_axis']}"
    )
    for statement in curve.statements():
        print(statement)
    print(_power_table(curve.cards))
    fillers = curve.cards.loc[curve.cards["flag"] == BASELINE, "card"].tolist()
    if fillers:
        print(
            f"baseline: {', '.join(fillers)} (the filler each card replaces; power 0 by construction, so no verdict, "
            "and left out of the fitted line and the tier means)"
        )
    print(
        "played / drawn: share of the card's matches in which its side played / drew a copy; first: mean turn of its "
        "first play. why: the reason for the flag."
    )
    return EXIT_OK


def _share_cell(share: Any) -> str:
    from workbench.analysis import share_text

    return "—" if share is None or share != share else share_text(float(share))


def _power_table(cards: Any) -> str:
    """The power-curve table as text: one row per card, cheapest first, with play shares and the flag's reason."""
    width = max([len(name) for name in cards["card"]] + [4])
    lines = [
        f"{'card':<{width}}  {'cost':>5}  {'power':>7}  {'95% interval':>17}  {'played':>6}  {'drawn':>6}  {'first':>5}  "
        f"{'flag':<13}  {'suggested':>9}  why"
    ]
    for row in cards.sort_values(["cost", "power"]).itertuples():
        suggested = "" if row.suggested_cost is None or row.suggested_cost != row.suggested_cost else f"{row.suggested_cost:g}"
        first = "—" if row.first_played_turn is None or row.first_played_turn != row.first_played_turn else f"{row.first_played_turn:.1f}"
        lines.append(
            f"{row.card:<{width}}  {row.cost:>5g}  {row.power:>+7.3f}  [{row.low:+.3f}, {row.high:+.3f}]  "
            f"{_share_cell(row.played):>6}  {_share_cell(row.drawn):>6}  {first:>5}  {row.flag:<13}  {suggested:>9}  {row.reason}"
        )
    return "\n".join(lines)


def _cmd_sweep(args: argparse.Namespace) -> int:
    from workbench.analysis import parse_sweep_values, sweep

    values = parse_sweep_values(args.values)
    cardset, decks, overrides = _load(args, args.deck, "set")
    if not decks:
        raise _no_set_decks(args)
    result = sweep(
        cardset, decks, args.card, args.field, values, args.matches_per_card, args.seed, args.policy, overrides,
        executor=args.executor, workers=args.workers, progress=ProgressBar("sweep"),
        min_play_share=args.min_play_share,
    )
    if args.format == "json":
        _emit_json({**result.meta, "points": result.points.to_dict(orient="records")})
        return EXIT_OK
    print(_provenance_line(result.meta))
    print(
        f"{result.meta['card']}: power as {args.field} varies (now {result.meta['current_value']}), against the set's "
        "cost line (band = cost ± 1/2)"
    )
    if result.statement:
        print(result.statement)
    print(f"{args.field:>8}  {'cost':>5}  {'power':>7}  {'95% interval':>17}  {'tier band':>17}  {'played':>6}  {'flag':<13}  note")
    for row in result.points.itertuples():
        print(
            f"{row.value!s:>8}  {row.cost:>5g}  {row.power:>+7.3f}  [{row.low:+.3f}, {row.high:+.3f}]  "
            f"[{row.band_low:+.3f}, {row.band_high:+.3f}]  {_share_cell(row.played):>6}  {row.flag:<13}  {row.note}".rstrip()
        )
    return EXIT_OK


def _cmd_report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from workbench.loading import load_cardset
    from workbench.reports import build_report, write_report

    if Path(args.out).suffix.casefold() not in (".html", ".htm", ".xlsx"):
        raise WorkbenchInputError(f"'{args.out}' is neither .html nor .xlsx.", expected="--out FILE.html or --out FILE.xlsx")
    cardset, decks, overrides = _load(args, args.deck, "set")
    baseline = load_cardset(args.baseline, cardset.ruleset) if args.baseline else None
    report = build_report(
        cardset, decks, overrides, args.matches_per_card, args.matches, args.seed, args.policy, baseline,
        executor=args.executor, workers=args.workers, progress=ProgressBar("report"), min_play_share=args.min_play_share,
    )
    path = write_report(report, args.out)
    images: list[Any] = []
    if args.png_dir:
        from workbench.report_html import write_pngs

        images = write_pngs(report, args.png_dir)
    if args.format == "json":
        _emit_json(
            {"out": str(path), "bytes": path.stat().st_size, "images": [str(p) for p in images], **report.provenance, "notes": report.notes}
        )
    else:
        print(f"wrote {path} ({path.stat().st_size / 1024:,.0f} KiB)" + "".join(f"; {note}" for note in report.notes))
        for image in images:
            print(f"wrote {image}")
    return EXIT_OK


def _cmd_health(args: argparse.Namespace) -> int:
    from workbench.health import game_health, health_lines

    cardset, decks, overrides = _load(args, args.deck, "set")
    if not decks:
        raise _no_set_decks(args)
    health = game_health(
        cardset, decks, args.matches, args.seed, args.policy, overrides,
        executor=args.executor, workers=args.workers, progress=ProgressBar("health"),
    )
    if args.format == "json":
        _emit_json(health.to_json())
        return EXIT_OK
    meta = health.meta
    print(_provenance_line(meta))
    print(
        f"every ordered pair of the decks {', '.join(meta['decks'])} ({meta['pairs']} in all, mirrors included, so "
        f"each deck sits in both seats; the first player alternates): {meta['matches_per_pair']:,} matches per pair"
    )
    for line in health_lines(health):
        print(line)
    warnings = health.warnings
    print(f"{len(warnings)} warning(s)" if warnings else "no warnings: every measured figure is in its healthy range")
    return EXIT_OK


def _cmd_print(args: argparse.Namespace) -> int:
    from workbench.loading import load_cardset
    from workbench.print_sheet import write_print_sheet

    cardset = load_cardset(args.cardset, args.ruleset)
    path, cards, pages = write_print_sheet(cardset, args.out)
    if args.format == "json":
        _emit_json({"out": str(path), "cards": cards, "pages": pages})
    else:
        print(f"wrote {path}: {cards} cards on {pages} page(s); print it from the browser (Save as PDF works)")
    return EXIT_OK


def _cmd_diff(args: argparse.Namespace) -> int:
    from workbench.decklists import resolve_decks
    from workbench.diff import diff_cardsets, with_power_changes
    from workbench.loading import load_cardset
    from workbench.rulesets.base import parse_option_pairs

    overrides = parse_option_pairs(args.option)
    old = load_cardset(args.old, args.ruleset)
    new = load_cardset(args.new, args.ruleset or old.ruleset)
    result = diff_cardsets(old, new, overrides)
    if args.deck:
        from workbench.paths import decks_folder_beside

        decks, _found = resolve_decks(args.deck, new, decks_folder_beside(args.new))
        result = with_power_changes(
            result, decks, args.matches_per_card, args.seed, args.policy, overrides,
            workers=args.workers, progress=ProgressBar("power"),
        )
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
    from workbench.bench import bench_engine, bench_power_curve, bench_validation
    from workbench.rulesets import RULESETS, get_ruleset
    from workbench.rulesets.base import parse_option_pairs

    rulesets = [get_ruleset(args.ruleset)] if args.ruleset else list(RULESETS.values())
    overrides = parse_option_pairs(args.option)
    if overrides and not args.ruleset:
        raise WorkbenchInputError("--option needs --ruleset: rule options belong to one game.",
                                  expected="workbench bench --ruleset ID --option KEY=VALUE")
    for ruleset in rulesets:
        ruleset.resolve_options(overrides)
        if ruleset.engine is not None and args.only != "validation":
            ruleset.engine.policy_index(args.policy)  # an unknown policy fails now, not after the validation figures
    validation: list[dict[str, Any]] = []
    engines: list[dict[str, Any]] = []
    if args.only in (None, "validation"):
        for ruleset in rulesets:
            result = bench_validation(ruleset, cards=args.cards, repeat=args.repeat)
            validation.append(result)
            if args.format == "text":
                print(
                    f"{ruleset.id:<8} validate {result['cards']:>6} cards: read {result['read_seconds']:.2f} s, "
                    f"parse {result['parse_seconds']:.2f} s, checks {result['check_seconds']:.2f} s, "
                    f"total {result['total_seconds']:.2f} s (best of {result['repeat']})"
                )
    if args.only in (None, "engines"):
        for ruleset in rulesets:
            if ruleset.engine_module is None:
                continue
            result = bench_engine(ruleset, matches=args.matches, repeat=args.repeat, policy=args.policy,
                                  options=overrides)
            result["power_curve"] = bench_power_curve(ruleset, policy=args.policy, options=overrides)
            engines.append(result)
            if args.format == "text":
                print(
                    f"{ruleset.id:<8} engine {result['engine_version']}: {result['matches_per_second']:>10,.0f} matches/s "
                    f"on one core ({result['policy']}, {result['deck_a']} vs {result['deck_b']}, "
                    f"{result['matches']:,} matches, best of {result['repeat']}"
                    f"{''.join(f', {key}={value}' for key, value in overrides.items())}); first call "
                    f"{result['first_call_seconds']:.2f} s (compile or load cache)"
                )
                if "reference" in result:
                    plain = result["reference"]
                    print(
                        f"{ruleset.id:<8} per-object Python engine: {plain['matches_per_second']:>10,.0f} matches/s "
                        f"({plain['matches']:,} matches, same decks and seeds); compiled is {plain['speedup']:g}x faster"
                    )
                curve = result["power_curve"]
                print(
                    f"{ruleset.id:<8} power curve: {curve['cards_measured']} cards x {curve['matches_per_card']:,} "
                    f"matches ({curve['matches']:,} in all) in {curve['seconds']:.2f} s on every core"
                )
    if args.format == "json":
        _emit_json({"workbench_version": __version__, "validation": validation, "engines": engines})
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
        print(f"{ruleset.id}: loading the engine, or compiling it if this machine has no cached copy…", file=sys.stderr)
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


_COMMANDS = {
    "rulesets": _cmd_rulesets,
    "template": _cmd_template,
    "validate": _cmd_validate,
    "simulate": _cmd_simulate,
    "power-curve": _cmd_power_curve,
    "sweep": _cmd_sweep,
    "report": _cmd_report,
    "health": _cmd_health,
    "print": _cmd_print,
    "diff": _cmd_diff,
    "bench": _cmd_bench,
    "warm": _cmd_warm,
}


if __name__ == "__main__":
    raise SystemExit(main())
