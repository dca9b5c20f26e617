"""Where the bundled sample card sets live, how their folders are laid out, and how a set is named.

cardsets/<ruleset>/<set>.csv|xlsx   the sample set (one or more)
cardsets/<ruleset>/decks/*.txt      legal decklists for it (an xlsx set may hold its decks in a `Decks` sheet instead)
cardsets/<ruleset>/mistakes/        a workbook full of deliberate errors, its decklists and a README listing them

In a checkout the folder is the top-level `cardsets/`; an installed wheel holds the same files as package data,
`workbench/cardsets/` (pyproject.toml maps the one onto the other), found with `importlib.resources`. Every command
takes a bundled set by name, `<ruleset>/<set>` (`souls/ashfall`, `souls/mistakes` for the mistakes workbook).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal

from workbench.cards import WorkbenchInputError

REPO_ROOT = Path(__file__).resolve().parent.parent
"""The checkout's root when the package runs from one (in an installed wheel: the folder holding the package)."""
SHEET_SUFFIXES = (".csv", ".xlsx")
DECK_SUFFIXES = (".txt", ".csv", ".xlsx")
MISTAKES_WORKBOOK = "mistakes.xlsx"
"""The deliberate-mistakes workbook's file name in each ruleset's mistakes/ folder."""


def _bundled_root() -> Path:
    """The bundled sets: the package data of an installed wheel, else the checkout's top-level folder."""
    packaged = resources.files("workbench").joinpath("cardsets")
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return REPO_ROOT / "cardsets"


CARDSETS_DIR = _bundled_root()
REPORTS_DIR = REPO_ROOT / "reports"
"""Where the sample reports of a checkout are kept (reports/README.md says how they are made)."""


def _ruleset_dir(ruleset_id: str) -> Path:
    folder = CARDSETS_DIR / ruleset_id
    if not folder.is_dir():
        raise WorkbenchInputError(
            f"no bundled card sets for '{ruleset_id}' at {folder}.",
            expected="a ruleset with a bundled sample set (workbench sets lists them)",
        )
    return folder


def bundled_sets(ruleset_id: str) -> list[Path]:
    """The sample card sets bundled for a ruleset."""
    return sorted(p for p in _ruleset_dir(ruleset_id).iterdir() if p.suffix in SHEET_SUFFIXES)


def bundled_decks(ruleset_id: str) -> list[Path]:
    """The legal decklists bundled for a ruleset's sample set."""
    folder = _ruleset_dir(ruleset_id) / "decks"
    return sorted(p for p in folder.iterdir() if p.suffix in DECK_SUFFIXES) if folder.is_dir() else []


def mistakes_dir(ruleset_id: str) -> Path:
    """The folder of a ruleset's deliberate-mistakes workbook."""
    return _ruleset_dir(ruleset_id) / "mistakes"


def decks_folder_beside(sheet_path: str | Path) -> Path:
    """The `decks/` folder beside a card sheet, where its decklists live in the bundled layout (it may not exist)."""
    return Path(sheet_path).parent / "decks"


@dataclass(frozen=True)
class BundledSet:
    """One bundled card set, as `workbench sets` lists it and every command finds it by name."""

    name: str
    """`<ruleset>/<set>`: the folder of its ruleset and the sheet's file name without its suffix (`souls/ashfall`)."""
    ruleset_id: str
    """The ruleset the set is written for (its folder's name)."""
    path: Path
    """The card sheet."""
    decks: tuple[Path, ...]
    """The decklist files that go with it: decks/ for a sample set, the mistakes/ folder's for the mistakes workbook."""
    role: Literal["sample", "mistakes"]
    """A sample set to design from, or the workbook of deliberate mistakes that shows what findings look like."""


def bundled_catalogue() -> list[BundledSet]:
    """Every bundled set, ruleset folder by ruleset folder (alphabetical); each sample set, then the mistakes one."""
    catalogue: list[BundledSet] = []
    if not CARDSETS_DIR.is_dir():
        return catalogue
    for folder in sorted(p for p in CARDSETS_DIR.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
        decks = tuple(bundled_decks(folder.name))
        for sheet in bundled_sets(folder.name):
            catalogue.append(BundledSet(f"{folder.name}/{sheet.stem}", folder.name, sheet, decks, "sample"))
        workbook = folder / "mistakes" / MISTAKES_WORKBOOK
        if workbook.is_file():
            mistake_decks = tuple(sorted(p for p in workbook.parent.iterdir() if p.suffix == ".txt"))
            catalogue.append(BundledSet(f"{folder.name}/mistakes", folder.name, workbook, mistake_decks, "mistakes"))
    return catalogue


def find_bundled_set(name: str) -> BundledSet | None:
    """The bundled set called `name` (`souls/ashfall`, any case, a sheet suffix allowed), or None."""
    wanted = name.strip().replace("\\", "/").casefold()
    for suffix in SHEET_SUFFIXES:
        wanted = wanted.removesuffix(suffix)
    return next((entry for entry in bundled_catalogue() if entry.name.casefold() == wanted), None)
