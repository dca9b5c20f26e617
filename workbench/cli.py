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
from typing import Any

from workbench import __version__
from workbench.cards import WorkbenchInputError

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_UNREADABLE = 2
EXIT_BUG = 3


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

    add("rulesets", "list ruleset ids, titles and versions")

    template = add("template", "write an empty, documented card sheet for a ruleset")
    template.add_argument("ruleset", metavar="RULESET", help="ruleset id")
    template.add_argument("--out", required=True, metavar="FILE.xlsx", help="where to write the sheet")

    validate = add("validate", "check every card's cost formula and every deck's construction rules")
    validate.add_argument("cardset", metavar="CARDSET", help="card sheet (.xlsx or .csv)")
    validate.add_argument("--ruleset", metavar="ID", help="ruleset id (default: the Set sheet, else detected)")
    validate.add_argument("--deck", action="append", default=[], metavar="FILE", help="decklist; repeat for more")
    validate.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="rule option; repeat for more"
    )

    bench = add("bench", "measure validation speed on a generated large sheet")
    bench.add_argument("--ruleset", metavar="ID", help="one ruleset (default: all)")
    bench.add_argument("--cards", type=int, default=10_000, metavar="N", help="cards in the generated sheet")
    bench.add_argument("--repeat", type=int, default=3, metavar="N", help="runs per figure; the best is reported")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        return _COMMANDS[args.command](args)
    except WorkbenchInputError as error:
        print(f"workbench: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        print("workbench: interrupted.", file=sys.stderr)
        return 130
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


def _cmd_validate(args: argparse.Namespace) -> int:
    from workbench.decklists import read_decklist
    from workbench.loading import load_cardset
    from workbench.rulesets.base import parse_option_pairs
    from workbench.validate import validate

    overrides = parse_option_pairs(args.option)
    cardset = load_cardset(args.cardset, args.ruleset)
    ruleset = cardset.ruleset
    ruleset.resolve_options(overrides)  # an unknown option is a usage error before any work
    decks = [read_decklist(path, cardset) for path in args.deck]
    report = validate(cardset, decks, overrides)
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


def _cmd_bench(args: argparse.Namespace) -> int:
    from workbench.bench import bench_validation
    from workbench.rulesets import RULESETS, get_ruleset

    rulesets = [get_ruleset(args.ruleset)] if args.ruleset else list(RULESETS.values())
    results = []
    for ruleset in rulesets:
        result = bench_validation(ruleset, cards=args.cards, repeat=args.repeat)
        results.append(result)
        if args.format == "text":
            print(
                f"{ruleset.id:<8} validate {result['cards']:>6} cards: read {result['read_seconds']:.2f} s, "
                f"parse {result['parse_seconds']:.2f} s, checks {result['check_seconds']:.2f} s, "
                f"total {result['total_seconds']:.2f} s (best of {result['repeat']})"
            )
    if args.format == "json":
        _emit_json({"workbench_version": __version__, "validation": results})
    return EXIT_OK


_COMMANDS = {
    "rulesets": _cmd_rulesets,
    "template": _cmd_template,
    "validate": _cmd_validate,
    "bench": _cmd_bench,
}


if __name__ == "__main__":
    raise SystemExit(main())
