"""Where the bundled sample card sets live, and how their folders are laid out.

cardsets/<ruleset>/<set>.csv|xlsx   the sample set (one or more)
cardsets/<ruleset>/decks/*.txt      legal decklists for it (an xlsx set may hold its decks in a `Decks` sheet instead)
cardsets/<ruleset>/mistakes/        a workbook full of deliberate errors, its decklists and a README listing them
"""

from __future__ import annotations

from pathlib import Path

from workbench.cards import WorkbenchInputError

REPO_ROOT = Path(__file__).resolve().parent.parent
CARDSETS_DIR = REPO_ROOT / "cardsets"
REPORTS_DIR = REPO_ROOT / "reports"
SHEET_SUFFIXES = (".csv", ".xlsx")
DECK_SUFFIXES = (".txt", ".csv", ".xlsx")


def _ruleset_dir(ruleset_id: str) -> Path:
    folder = CARDSETS_DIR / ruleset_id
    if not folder.is_dir():
        raise WorkbenchInputError(
            f"no bundled card sets for '{ruleset_id}' at {folder}.",
            expected="a checkout of the project with its cardsets/ folder (pip install -e .)",
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
