"""Saving an edited card sheet back into its uploaded workbook without loading the sheets the editor does not change.

openpyxl loads a whole workbook into cell objects; a designer's workbook may hold a 500,000-row log beside the
cards (364 s and 4.6 GB to save through openpyxl). Here only the sheets the editor writes (the card sheet and the
Decks sheet) go through openpyxl, in a reduced copy of the package where every other sheet is an empty stand-in.
Then the stand-ins in openpyxl's output are replaced, part by part, by the original sheets: the sheet XML, its
relationships and every part they reach (drawings, comments, tables, ...) are copied as bytes, never parsed.

Why the copied sheets still look right: openpyxl keeps the workbook's cell formats (cellXfs) in their original order
and appends new ones, so a copied sheet's style numbers (`s="3"`) still name the same look; and the output's
shared-string table is the original one, byte for byte, with the strings of the sheets openpyxl wrote appended
after it (their cells renumbered), so a copied sheet's string numbers still name the same text.
"""

from __future__ import annotations

import io
import posixpath
import re
import shutil
import zipfile
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import openpyxl
from defusedxml.ElementTree import fromstring, iterparse

from workbench.cards import WorkbenchInputError

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PACKAGE_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
CONTENT_TYPES = "{http://schemas.openxmlformats.org/package/2006/content-types}"
SHARED_STRINGS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
STAND_IN = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>'
)
"""The empty sheet openpyxl loads in place of a sheet that is copied, not edited."""
_SHARED_CELL = re.compile(rb'(<c\b[^>]*\bt="s"[^>]*>)<v>(\d+)</v>')
MACRO_CONTENT_TYPES = frozenset(
    {
        "application/vnd.ms-office.vbaproject",
        "application/vnd.ms-office.vbaprojectsignature",
        "application/vnd.ms-office.vbaprojectsignatureagile",
        "application/vnd.ms-office.vbaprojectsignaturev3",
        "application/vnd.ms-excel.vbadata+xml",
    }
)
"""Content types of the parts that hold a workbook's VBA macros (and their signatures), compared in lower case."""
MACRO_RELATIONSHIP_TYPES = frozenset(
    {"vbaproject", "vbaprojectsignature", "vbaprojectsignatureagile", "vbaprojectsignaturev3", "wordvbadata"}
)
"""The last word of the relationship types that point at macro parts, in lower case."""
_MACRO_PART_NAME = re.compile(r"(?i)(?:^|/)vbaProject[^/]*\.bin$")
"""A part named as Excel names its macro project (`xl/vbaProject.bin`), whatever content type it is given."""


class _Package:
    """One xlsx's parts by name, with its workbook's sheets (name -> part) and content types."""

    def __init__(self, archive: zipfile.ZipFile, display: str) -> None:
        self.archive = archive
        self.display = display
        self.names = {info.filename for info in archive.infolist()}
        self.sheets = self._sheets()
        self.defaults, self.overrides = self._content_types()

    def read(self, name: str) -> bytes:
        return self.archive.read(name)

    def _rels(self, part: str) -> dict[str, tuple[str, str, str]]:
        """Relationship id -> (type, target part path or external address, mode) of a part."""
        rels_name = posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")
        if rels_name not in self.names:
            return {}
        out: dict[str, tuple[str, str, str]] = {}
        for element in fromstring(self.read(rels_name)):
            if element.tag != PACKAGE_REL + "Relationship":
                continue
            target, mode = element.get("Target", ""), element.get("TargetMode", "Internal")
            if mode != "External":
                target = (
                    target.lstrip("/")
                    if target.startswith("/")
                    else posixpath.normpath(posixpath.join(posixpath.dirname(part), target))
                )
            out[element.get("Id", "")] = (element.get("Type", ""), target, mode)
        return out

    def _sheets(self) -> dict[str, str]:
        rels = self._rels("xl/workbook.xml")
        sheets: dict[str, str] = {}
        for _, element in iterparse(io.BytesIO(self.read("xl/workbook.xml"))):
            if element.tag == MAIN + "sheet":
                relation = rels.get(element.get(REL + "id", ""))
                if relation is not None:
                    sheets[element.get("name", "")] = relation[1]
        return sheets

    def _content_types(self) -> tuple[dict[str, str], dict[str, str]]:
        defaults: dict[str, str] = {}
        overrides: dict[str, str] = {}
        for element in fromstring(self.read("[Content_Types].xml")):
            if element.tag == CONTENT_TYPES + "Default":
                defaults[element.get("Extension", "").casefold()] = element.get("ContentType", "")
            elif element.tag == CONTENT_TYPES + "Override":
                overrides[element.get("PartName", "").lstrip("/")] = element.get("ContentType", "")
        return defaults, overrides

    def content_type(self, part: str) -> str:
        return self.overrides.get(part) or self.defaults.get(posixpath.splitext(part)[1].lstrip(".").casefold(), "")

    def is_macro_part(self, part: str) -> bool:
        """Whether the part holds macros (or their signature): by its content type or, whatever type it is given,
        by the name Excel gives the macro project."""
        return self.content_type(part).casefold() in MACRO_CONTENT_TYPES or bool(_MACRO_PART_NAME.search(part))

    def macro_parts(self) -> list[str]:
        """The parts that hold macros, in name order."""
        return sorted(part for part in self.names if self.is_macro_part(part))

    def shared_strings_part(self) -> str | None:
        """The shared-string table's part, when the package has one."""
        named = next((p for p, kind in self.overrides.items() if kind == SHARED_STRINGS_TYPE and p in self.names), None)
        return named or ("xl/sharedStrings.xml" if "xl/sharedStrings.xml" in self.names else None)

    def reachable(self, part: str) -> list[str]:
        """The parts `part`'s relationships reach, recursively (the part itself first), each once."""
        seen: list[str] = []
        todo = [part]
        while todo:
            current = todo.pop()
            if current in seen or current not in self.names or self.is_macro_part(current):
                continue  # macros are never carried into a saved .xlsx (`save_package`)
            seen.append(current)
            todo.extend(target for _type, target, mode in self._rels(current).values() if mode != "External")
        return seen


def _content_types_xml(defaults: dict[str, str], overrides: dict[str, str]) -> bytes:
    lines = [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">',
    ]
    lines += [f"<Default Extension={quoteattr(k)} ContentType={quoteattr(v)}/>" for k, v in defaults.items()]
    lines += [f"<Override PartName={quoteattr('/' + k)} ContentType={quoteattr(v)}/>" for k, v in overrides.items()]
    return ("".join(lines) + "</Types>").encode()


def _rels_name(part: str) -> str:
    return posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")


def _string_items(data: bytes) -> list[str]:
    """The texts of a shared-string table openpyxl wrote (plain `<si><t>` items, rich runs joined)."""
    texts: list[str] = []
    for _, element in iterparse(io.BytesIO(data)):
        if element.tag == MAIN + "si":
            texts.append("".join(t.text or "" for t in element.iter(MAIN + "t")))
            element.clear()
    return texts


def _append_strings(original: bytes, added: list[str]) -> bytes:
    """The original shared-string table with `added` appended as plain items (the count attributes dropped, which
    spreadsheet programs recount)."""
    empty = re.search(rb"<(\w+:)?sst([^>]*)/>\s*$", original)
    if empty is not None:  # an empty table written as one tag
        tag_prefix = empty.group(1) or b""
        opening = b"<" + tag_prefix + b"sst" + empty.group(2) + b">"
        original = original[: empty.start()] + opening + b"</" + tag_prefix + b"sst>"
    end = original.rfind(b"</")
    if end < 0:
        raise ValueError("the shared-string table has no closing tag")
    head = re.sub(rb'\s(?:count|uniqueCount)="\d*"', b"", original[:end], count=2)
    prefix = re.search(rb"</(\w+:)?sst", original[end:])
    tag = (prefix.group(1) or b"") if prefix else b""
    items = "".join(
        f'<{tag.decode()}si><{tag.decode()}t xml:space="preserve">{escape(text)}</{tag.decode()}t></{tag.decode()}si>'
        for text in added
    ).encode()
    return head + items + original[end:]


def macro_parts(source: bytes) -> list[str]:
    """The parts of an xlsx package that hold macros (a `.xlsm` renamed `.xlsx` has `xl/vbaProject.bin`), which a
    save leaves out: an .xlsx cannot carry macros, and the workbench never runs them. [] for a package that has
    none, and for bytes that are no readable package (opening it says why)."""
    try:
        package = _Package(zipfile.ZipFile(io.BytesIO(source)), "")
    except (KeyError, ValueError, zipfile.BadZipFile, SyntaxError):
        return []
    return package.macro_parts()


def macros_left_out_message(parts: list[str]) -> str:
    """What the app says of an upload holding macros: they are left out of a save."""
    shown = ", ".join(parts[:3]) + (f" and {len(parts) - 3} more" if len(parts) > 3 else "")
    return (
        f"This workbook holds macros ({shown}). Save as xlsx leaves them out, since an .xlsx cannot carry macros; "
        "the workbench never runs them."
    )


def save_package(
    source: bytes,
    display: str,
    edited_sheets: set[str],
    edit: Callable[[Any], None],
) -> bytes:
    """Save `source` with the sheets named in `edited_sheets` rewritten by `edit(openpyxl_workbook)`; every other
    sheet is copied part by part. `edit` may add sheets (a Set or Decks sheet) and rename sheets it loaded.

    Macros are left out (`macro_parts`): the output is an .xlsx, which cannot carry them. openpyxl drops the
    workbook's macro project, and a copied sheet's relationships to a macro part are dropped with the part (a
    `.xlsm` renamed `.xlsx` once kept `xl/vbaProject.bin` through a copied sheet). The app says so beside its Save
    button (`macros_left_out_message`)."""
    try:
        original = _Package(zipfile.ZipFile(io.BytesIO(source)), display)
    except (KeyError, ValueError, zipfile.BadZipFile, SyntaxError) as error:
        raise WorkbenchInputError(
            f"the workbook could not be saved: its package structure cannot be read ({type(error).__name__}: {error}).",
            path=display,
            expected="an .xlsx saved by a spreadsheet program",
        ) from None
    copied = {name: part for name, part in original.sheets.items() if name not in edited_sheets}
    copied_parts: set[str] = set()
    for part in copied.values():
        copied_parts.add(part)
        copied_parts.add(_rels_name(part))
    # The reduced package: the edited sheets and everything workbook-wide, stand-ins for the copied sheets, and
    # content types only for parts it holds (a type naming a missing part made openpyxl fail with a KeyError).
    reduced = io.BytesIO()
    with zipfile.ZipFile(reduced, "w", zipfile.ZIP_DEFLATED) as target:
        for name in sorted(original.names):
            if name in copied_parts or name == "[Content_Types].xml" or name == original.shared_strings_part():
                continue
            if original.is_macro_part(name):
                continue
            target.writestr(name, original.read(name))
        for part in copied.values():
            target.writestr(part, STAND_IN)
        strings = original.shared_strings_part()
        if strings is not None:
            used = max(
                (
                    _highest_string(original.read(part))
                    for name, part in original.sheets.items()
                    if name not in copied and part in original.names
                ),
                default=-1,
            )
            target.writestr(strings, _first_items(original.read(strings), used + 1))
        overrides = {name: kind for name, kind in original.overrides.items() if name in original.names}
        target.writestr("[Content_Types].xml", _content_types_xml(original.defaults, overrides))
    try:
        workbook = openpyxl.load_workbook(
            io.BytesIO(reduced.getvalue()), read_only=False, data_only=False, keep_links=False
        )
    except Exception as error:  # openpyxl raises many types for a package it cannot take; each is a message here
        raise WorkbenchInputError(
            f"the workbook could not be saved: openpyxl could not open its edited sheets ({type(error).__name__}: "
            f"{error}).",
            path=display,
            expected="an .xlsx saved by a spreadsheet program",
        ) from None
    edit(workbook)
    written = io.BytesIO()
    workbook.save(written)
    if not copied:
        return written.getvalue()
    return _merge(original, zipfile.ZipFile(io.BytesIO(written.getvalue())), copied, display)


def _merge(original: _Package, output_zip: zipfile.ZipFile, copied: dict[str, str], display: str) -> bytes:
    output = _Package(output_zip, display)
    parts: dict[str, bytes] = {name: output.read(name) for name in output.names}
    streamed: dict[str, str] = {}  # output part -> the original part whose bytes it is (copied in chunks)
    overrides = dict(output.overrides)
    defaults = dict(output.defaults)
    original_strings = original.shared_strings_part()
    output_strings = next((part for part, kind in output.overrides.items() if kind == SHARED_STRINGS_TYPE), None)
    if original_strings is not None:
        # The copied sheets number their strings in the original table: it stays, and the strings of the sheets
        # openpyxl wrote go after it, their cells renumbered.
        table = original.read(original_strings)
        added = _string_items(parts[output_strings]) if output_strings is not None else []
        count = _count_items(table)
        if output_strings is None:
            output_strings = "xl/sharedStrings.xml"
            _add_workbook_relation(parts, "sharedStrings", "sharedStrings.xml")
            overrides[output_strings] = SHARED_STRINGS_TYPE
        parts[output_strings] = _append_strings(table, added)
        for name, part in output.sheets.items():
            if name not in copied and part in parts:
                parts[part] = _SHARED_CELL.sub(
                    lambda m: m.group(1) + b"<v>" + str(int(m.group(2)) + count).encode() + b"</v>", parts[part]
                )
    for name, original_part in copied.items():
        stand_in = output.sheets.get(name)
        if stand_in is None:
            continue  # the edit removed the sheet (a Decks sheet replaced): nothing to copy back
        renamed: dict[str, str] = {}
        for part in original.reachable(original_part):
            if part == original_part:
                new_name = stand_in
            else:
                new_name = part
                number = 2
                while new_name in parts and new_name not in renamed.values():
                    stem, extension = posixpath.splitext(part)
                    new_name, number = f"{stem}_copy{number}{extension}", number + 1
            renamed[part] = new_name
        for part, new_name in renamed.items():
            # Copied as a stream when the package is written: a large sheet is never held whole in memory.
            parts[new_name] = b""
            streamed[new_name] = part
            kind = original.content_type(part)
            extension = posixpath.splitext(new_name)[1].lstrip(".").casefold()
            if kind and defaults.get(extension) != kind:
                overrides[new_name] = kind
            rels = {
                relation: (relation_type, target, mode)
                for relation, (relation_type, target, mode) in original._rels(part).items()
                if not _is_macro_relation(original, relation_type, target, mode)
            }
            rels_name = _rels_name(new_name)
            parts.pop(rels_name, None)
            if rels:
                parts[rels_name] = _rels_xml(rels, new_name, renamed)
    parts["[Content_Types].xml"] = _content_types_xml(defaults, {k: v for k, v in overrides.items() if k in parts})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        target.writestr("[Content_Types].xml", parts.pop("[Content_Types].xml"))
        for name, data in parts.items():
            if name in streamed:
                with original.archive.open(streamed[name]) as source, target.open(name, "w") as copy:
                    shutil.copyfileobj(source, copy, 1 << 20)
            else:
                target.writestr(name, data)
    return out.getvalue()


_STRING_CELL = re.compile(rb'<(?:\w+:)?c\b[^>]*\bt="s"[^>]*>\s*<(?:\w+:)?v>\s*(\d+)\s*<')
_ITEM = re.compile(rb"<(?:\w+:)?si(?=[\s>/])")


def _highest_string(sheet: bytes) -> int:
    """The highest shared-string number a sheet's cells use (-1 for none)."""
    return max((int(m.group(1)) for m in _STRING_CELL.finditer(sheet)), default=-1)


def _first_items(table: bytes, keep: int) -> bytes:
    """The shared-string table cut after its first `keep` items (numbering unchanged): openpyxl then parses only the
    strings the edited sheets use, however many the workbook carries for its other sheets."""
    for number, match in enumerate(_ITEM.finditer(table)):
        if number == keep:
            closing = re.search(rb"</(\w+:)?sst>\s*$", table)
            tail = closing.group(0) if closing else b"</sst>"
            return table[: match.start()] + tail
    return table


def _count_items(table: bytes) -> int:
    """How many string items a shared-string table holds, counted without parsing it."""
    return sum(1 for _ in _ITEM.finditer(table))


def _is_macro_relation(package: _Package, kind: str, target: str, mode: str) -> bool:
    """Whether a relationship points at macros: by its type, or by the part it reaches."""
    if kind.rstrip("/").rsplit("/", 1)[-1].casefold() in MACRO_RELATIONSHIP_TYPES:
        return True
    return mode != "External" and package.is_macro_part(target)


def _rels_xml(rels: dict[str, tuple[str, str, str]], part: str, renamed: dict[str, str]) -> bytes:
    lines = [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">',
    ]
    for relation_id, (kind, target, mode) in rels.items():
        if mode == "External":
            lines.append(
                f"<Relationship Id={quoteattr(relation_id)} Type={quoteattr(kind)} Target={quoteattr(target)} "
                'TargetMode="External"/>'
            )
            continue
        lines.append(
            f"<Relationship Id={quoteattr(relation_id)} Type={quoteattr(kind)} "
            f"Target={quoteattr('/' + renamed.get(target, target))}/>"
        )
    return ("".join(lines) + "</Relationships>").encode()


def _add_workbook_relation(parts: dict[str, bytes], kind: str, target: str) -> None:
    rels = parts.get("xl/_rels/workbook.xml.rels", b"")
    entry = (
        f'<Relationship Id="rIdWorkbenchStrings" '
        f'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{target}"/>'
    ).encode()
    closing = rels.rfind(b"</")
    parts["xl/_rels/workbook.xml.rels"] = rels[:closing] + entry + rels[closing:]
