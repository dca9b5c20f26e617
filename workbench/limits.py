"""Every limit the workbench sets on what it reads and runs, in one table.

Each limit is checked before the work it bounds, so a small input cannot
expand into gigabytes or hours: a file is refused by its size and type before
it is read, a sheet by its row and cell counts while it is streamed, a card
field by its magnitude before any engine sees it. A refusal is the usual
one-paragraph `WorkbenchInputError` (what, where, the limit, how to split the
work), built by `over_limit`.

`docs/formats.md` carries this table as `limits_markdown()` renders it; a test
compares the two, so the page and the code cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.cards import WorkbenchInputError


@dataclass(frozen=True)
class Limit:
    """One bound on an input or a parameter."""

    name: str
    """The key code looks the limit up by (`LIMITS[name]`)."""
    value: int
    """The largest amount allowed (inclusive); for a numeric card field, the largest magnitude."""
    unit: str
    """What `value` counts, in words (`bytes`, `rows`, `copies`)."""
    bounds: str
    """What the limit applies to, as a person would say it."""
    split: str
    """How to split the work when an input is over the limit."""

    def shown(self) -> str:
        """The limit as a person reads it: `50 MiB`, `200,000 rows`."""
        if self.unit == "bytes" and self.value % 2**20 == 0:
            return f"{self.value // 2**20:,} MiB"
        return f"{self.value:,} {self.unit}".rstrip()


_TABLE: tuple[Limit, ...] = (
    Limit(
        "file_bytes",
        50 * 2**20,
        "bytes",
        "size of one card sheet or decklist file (read or uploaded)",
        "split the set into several files, or remove pictures and unused sheets",
    ),
    Limit(
        "zip_entries",
        2_000,
        "parts",
        "parts (zip entries) inside one .xlsx workbook",
        "save the workbook again from a spreadsheet program, keeping only the Cards, Set and Decks sheets",
    ),
    Limit(
        "inflated_bytes",
        500 * 2**20,
        "bytes",
        "total size the parts of one .xlsx inflate to",
        "remove unused sheets and pictures, or split the set into several workbooks",
    ),
    Limit(
        "compression_ratio",
        200,
        "times",
        "how much one part of an .xlsx may inflate (a zip bomb inflates thousands of times)",
        "save the workbook again from a spreadsheet program",
    ),
    Limit(
        "sheets",
        100,
        "sheets",
        "sheets in one workbook",
        "move the sheets other than Cards, Set and Decks to another workbook",
    ),
    Limit(
        "rows",
        200_000,
        "rows",
        "rows under the header read from one sheet, so cards in one set (a row the file writes counts even when "
        "it is empty; rows it skips cost nothing)",
        "split the set into several files, or delete the empty rows below the cards",
    ),
    Limit(
        "columns",
        1_024,
        "columns",
        "header columns of one sheet",
        "remove columns the ruleset does not use, or move them to another sheet",
    ),
    Limit(
        "cells",
        2_000_000,
        "cells",
        "non-empty cells read from one sheet (empty cells cost nothing)",
        "split the set into several files, or remove columns the ruleset does not use",
    ),
    Limit(
        "styles",
        200_000,
        "elements",
        "elements of an .xlsx workbook's styles part: cell formats, fonts, fills, borders, number formats (a "
        "spreadsheet program keeps at most 64,000 cell formats)",
        "save the workbook again from a spreadsheet program, or copy the cards into a new workbook (it drops "
        "unused formats)",
    ),
    Limit(
        "xml_depth",
        64,
        "levels",
        "how deeply the elements of one part of an .xlsx nest (a sheet a spreadsheet program writes nests about 7 "
        "deep)",
        "save the workbook again from a spreadsheet program",
    ),
    Limit(
        "shared_strings",
        1_000_000,
        "strings",
        "entries in an .xlsx workbook's shared-string table",
        "save the workbook again from a spreadsheet program (it drops unused strings), or remove unused sheets",
    ),
    Limit(
        "text_cell_chars",
        32_767,
        "characters",
        "characters in one cell (a spreadsheet program's own limit)",
        "shorten the text, or split it over several cells",
    ),
    Limit(
        "editor_cells",
        5_000_000,
        "cells",
        "rows × header columns of a sheet opened in the app's card editor (it holds every cell, empty or not)",
        "remove columns the ruleset does not use, or split the set into several files; `workbench validate` reads "
        "larger sheets",
    ),
    Limit(
        "card_number",
        1_000_000,
        "",
        "magnitude of every numeric card field (cost, attack, health, stars, ...), so engines count in 64 bits",
        "use smaller numbers; no game needs a stat of more than a million",
    ),
    Limit(
        "number_digits",
        18,
        "digits",
        "digits of a whole number written as text in a card field, a count or a SOURCE map file",
        "write the number without leading zeros, at most 18 digits",
    ),
    Limit(
        "copies_per_card",
        999,
        "copies",
        "copies of one card a set holds (a `copies` field) or a decklist line names",
        "write the copies as several lines, or lower the count",
    ),
    Limit(
        "store_cards",
        4_096,
        "cards",
        "cards in a Millennium Blades store: every copy of the set's store cards (`store_kinds`), and in the whole "
        "game the store and its discard with the cards sold into it (the bundled set's store holds 86)",
        "give the store cards fewer copies, or split the set's store sets into several sets",
    ),
    Limit(
        "deck_cards",
        10_000,
        "cards",
        "cards in one deck, all lines of all sections added up",
        "split the deck into several decklists",
    ),
    Limit(
        "decklist_lines",
        10_000,
        "lines",
        "lines (cards and section headings) of one decklist",
        "merge lines naming the same card, or split the decklist into several files",
    ),
    Limit(
        "map_bytes",
        2**20,
        "bytes",
        "size of one SOURCE map file (`--option map=PATH`; the bundled map is under 3 KiB)",
        "keep one half of the map per file, as `workbench/rulesets/source/maps/default.json` does",
    ),
)

# Parameters: how much one command or app run may simulate, and the values it is given. These are checked at the
# entry of simulate, power_curve, sweep, matchup_matrix and health (workbench.simulate.check_run_parameters and
# friends), before any card is compiled or any job submitted.
_PARAMETER_TABLE: tuple[Limit, ...] = (
    Limit(
        "matches",
        10_000_000,
        "matches",
        "matches of one simulation, per pair of decks in matchups and game health, and per engine figure of "
        "`workbench bench` (`--matches`, from 1)",
        "run fewer matches: 10,000 already gives an interval of about ±1 percentage point",
    ),
    Limit(
        "matches_per_card",
        1_000_000,
        "matches",
        "matches per measured card of a power curve, sweep or report (`--matches-per-card`)",
        "run fewer matches per card, or measure some cards at a time",
    ),
    Limit(
        "run_matches",
        20_000_000,
        "matches",
        "matches one run plays in all: a power curve's (cards measured + 1) × matches per card, a sweep's "
        "curves added up, matchups' pairs × matches",
        "run fewer matches per card or per pair, fewer decks, or fewer sweep values",
    ),
    Limit(
        "decks",
        100,
        "decks",
        "decks one run reads and plays: the `--deck` decks, or the set's own decks, and an auto gauntlet's",
        "name the decks to play with `--deck`, or keep fewer decks in the set's Decks sheet or decks/ folder",
    ),
    Limit(
        "deck_pairs",
        1_024,
        "pairs",
        "ordered pairs of decks that matchups and game health play (every pair, mirrors included: 32 decks make "
        "1,024 pairs)",
        "play fewer decks against each other (`--deck` names them), or split them into groups",
    ),
    Limit(
        "gauntlet_decks",
        64,
        "decks",
        "decks an auto gauntlet builds (`--gauntlet auto:N`, N from 1)",
        "use a smaller N: 8 auto decks already vary the opposition",
    ),
    Limit(
        "sweep_values",
        101,
        "values",
        "values one sweep measures (`--values`)",
        "sweep a narrower range, or split it into several sweeps",
    ),
    Limit(
        "design_cards",
        2_000,
        "cards",
        "synthetic cards in one stat-values experiment (`workbench stat-values --cards`, from 1; each is measured by "
        "the power curve's replacement test in every replicate)",
        "measure fewer design cards: 48 (the default) already fits every stat with replicate intervals",
    ),
    Limit(
        "proposal_evaluations",
        1_000,
        "card sets",
        "card sets one patch-proposal search measures (`workbench propose --evaluations`, from 1; each is a power "
        "curve)",
        "search fewer sets, or lock cards and fields so that fewer changes are open",
    ),
    Limit(
        "seed",
        2**64 - 1,
        "",
        "a run's seed: any whole number from 0 to 2⁶⁴ − 1 (`--seed`)",
        "use a smaller seed (any whole number from 0 gives independent matches)",
    ),
    Limit(
        "workers",
        256,
        "processes",
        "worker processes of one run on this machine (`--workers`)",
        "use at most one worker per core, or a Dask cluster (`--executor`) for more",
    ),
    Limit(
        "bench_cards",
        200_000,
        "cards",
        "cards in the sheet `workbench bench` generates for its validation figure (`--cards`, from 1; the sheet is "
        "written to a temporary folder, so the rows limit bounds it)",
        "bench fewer cards: 10,000 (the default) already times every reader and check",
    ),
    Limit(
        "bench_repeat",
        100,
        "runs",
        "runs of each `workbench bench` figure, of which the best is reported (`--repeat`, from 1)",
        "repeat fewer times: the best of 3 (the default) is already steady",
    ),
    Limit(
        "port",
        65_535,
        "",
        "the port `workbench app` serves on (`--port`, from 1 to 65535, the range of a TCP port)",
        "use a port from 1 to 65535 (the default is 8501)",
    ),
    Limit(
        "turn_cap",
        10_000,
        "turns",
        "largest `turn_cap` rule option of any ruleset (each rule option's own range is in its ledger)",
        "a match that needs more turns than this is a stalled board: lower the cap and read the turn-cap share",
    ),
)

LIMITS: dict[str, Limit] = {limit.name: limit for limit in _TABLE + _PARAMETER_TABLE}
"""Every limit by name, in the order of the table in docs/formats.md."""


def limit(name: str) -> Limit:
    """The limit called `name` (a KeyError is a bug in the caller: every name is in `LIMITS`)."""
    return LIMITS[name]


def add_limit(new: Limit) -> None:
    """Register a further limit (a parameter's bound) in the same table; a name is registered once."""
    if new.name in LIMITS and LIMITS[new.name] != new:
        raise ValueError(f"limit {new.name} is already registered with another value")
    LIMITS[new.name] = new


def over_limit(
    name: str,
    found: str,
    *,
    path: str | None = None,
    sheet: str | None = None,
    row: int | None = None,
    column: str | None = None,
) -> WorkbenchInputError:
    """The refusal for an input over limit `name`: `found` says what was seen (e.g. `the sheet has 250,000 rows`)."""
    bound = LIMITS[name]
    return WorkbenchInputError(
        f"{found}, more than the limit of {bound.shown()} for {bound.bounds}; nothing was read past it.",
        path=path,
        sheet=sheet,
        row=row,
        column=column,
        expected=f"at most {bound.shown()}; to stay under it, {bound.split}",
    )


def run_refused(name: str, found: str) -> WorkbenchInputError:
    """The refusal of a run parameter over limit `name` (`found`: what was asked, in words), raised before anything
    is compiled or played."""
    bound = LIMITS[name]
    return WorkbenchInputError(
        f"{found}, more than the limit of {bound.shown()} for {bound.bounds}; nothing was run.",
        expected=f"at most {bound.shown()}; to stay under it, {bound.split}",
    )


def check_decks(count: int, what: str = "the run") -> None:
    """Refuse a run of more than the `decks` limit of decks (`what` names the run), before any deck is played."""
    if count > LIMITS["decks"].value:
        raise run_refused("decks", f"{what} names {count:,} decks")


def check_deck_pairs(decks: int) -> None:
    """Refuse matchups or game health over `decks` decks when every ordered pair of them would be more than the
    `deck_pairs` limit (checked before the first pair is played, whatever the matches per pair)."""
    check_decks(decks)
    if decks * decks > LIMITS["deck_pairs"].value:
        raise run_refused("deck_pairs", f"{decks:,} decks make {decks * decks:,} ordered pairs")


def limits_markdown() -> str:
    """The limits table as Markdown, exactly as docs/formats.md carries it."""
    lines = ["| Limit | Value | What it bounds | When over it |", "|---|---|---|---|"]
    for bound in LIMITS.values():
        lines.append(f"| `{bound.name}` | {bound.shown()} | {bound.bounds} | {bound.split} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(limits_markdown(), end="")
