"""Issue 37: a save never carries macros into an .xlsx.

A `.xlsm` renamed `.xlsx` opens (the workbench never runs macros), and the app saves it as `.xlsx`. openpyxl drops
the workbook's own macro project, but a sheet the save copies part by part (workbench.xlsx_package) once carried
`xl/vbaProject.bin` along with its relationships. Now every macro part (by content type, relationship type or
Excel's name for it) is left out, with its content-type entry and every relationship to it, and the app says so
beside its Save button (tests/app/test_app_macros.py).
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest

from workbench.spreadsheets import read_sheet
from workbench.xlsx_package import macro_parts, macros_left_out_message, save_package

MACRO_MAIN = "application/vnd.ms-excel.sheet.macroEnabled.main+xml"
PLAIN_MAIN = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
VBA_TYPE = "application/vnd.ms-office.vbaProject"
SIGNATURE_TYPE = "application/vnd.ms-office.vbaProjectSignature"
OFFICE_RELS = "http://schemas.microsoft.com/office/2006/relationships"
VBA_BYTES = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"Attribute VB_Name = ThisWorkbook: Shell calc" * 20


def _rels(*entries: tuple[str, str, str]) -> bytes:
    body = "".join(f'<Relationship Id="{i}" Type="{t}" Target="{target}"/>' for i, t, target in entries)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{body}</Relationships>'
    ).encode()


def renamed_xlsm(from_sheet: bool) -> bytes:
    """A macro workbook saved as `.xlsm` and renamed `.xlsx`: a Cards sheet and a Log sheet (which a save copies),
    the workbook typed macro-enabled, `xl/vbaProject.bin` related from the workbook and its signature from the
    Log sheet; with `from_sheet`, the Log sheet relates the macro project too."""
    workbook = openpyxl.Workbook()
    cards = workbook.active
    cards.title = "Cards"
    for row in (["name", "kind", "soul_cost", "atk", "def"], ["Ember Imp", "monster", 1, 2, 3]):
        cards.append(row)
    workbook.create_sheet("Log").append(["played", "=SUM(1,2)"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "[Content_Types].xml":
                types = (
                    f'<Default Extension="bin" ContentType="{VBA_TYPE}"/>'
                    f'<Override PartName="/xl/vbaProjectSignature.bin" ContentType="{SIGNATURE_TYPE}"/></Types>'
                )
                data = data.replace(PLAIN_MAIN.encode(), MACRO_MAIN.encode()).replace(b"</Types>", types.encode())
            elif info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(
                    b"</Relationships>",
                    f'<Relationship Id="rIdVba" Type="{OFFICE_RELS}/vbaProject" Target="vbaProject.bin"/>'
                    "</Relationships>".encode(),
                )
            target.writestr(info.filename, data)
        target.writestr("xl/vbaProject.bin", VBA_BYTES)
        target.writestr("xl/vbaProjectSignature.bin", b"signature")
        log_rels = [("rIdSig", f"{OFFICE_RELS}/vbaProjectSignature", "../vbaProjectSignature.bin")]
        if from_sheet:
            log_rels.append(("rIdVba", f"{OFFICE_RELS}/vbaProject", "../vbaProject.bin"))
        target.writestr("xl/worksheets/_rels/sheet2.xml.rels", _rels(*log_rels))
    return out.getvalue()


def _edit(workbook: openpyxl.Workbook) -> None:
    workbook["Cards"]["C2"] = 4


@pytest.mark.parametrize("from_sheet", [False, True], ids=["from_the_workbook", "from_a_copied_sheet"])
def test_a_save_leaves_the_macros_out_with_their_entries(from_sheet: bool) -> None:
    source = renamed_xlsm(from_sheet)
    assert macro_parts(source) == ["xl/vbaProject.bin", "xl/vbaProjectSignature.bin"]
    saved = save_package(source, "renamed.xlsx", {"Cards"}, _edit)

    archive = zipfile.ZipFile(io.BytesIO(saved))
    names = archive.namelist()
    assert not [name for name in names if "vba" in name.casefold()], names
    assert macro_parts(saved) == []
    content_types = archive.read("[Content_Types].xml").decode()
    assert "vbaProject" not in content_types and "macroEnabled" not in content_types
    assert PLAIN_MAIN in content_types
    for name in names:
        if name.endswith(".rels"):
            relations = archive.read(name).decode()
            assert "vbaProject" not in relations, (name, relations)
            for target in ("vbaProject.bin", "vbaProjectSignature.bin"):
                assert target not in relations, (name, relations)
    assert VBA_BYTES not in b"".join(archive.read(name) for name in names)
    # The rest is kept: the edit, the copied Log sheet with its formula, and the file opens in both readers.
    table = read_sheet("renamed.xlsx", data=saved)
    assert table.sheet_names == ["Cards", "Log"] and table.rows[0][1][2] == 4
    log = openpyxl.load_workbook(io.BytesIO(saved))["Log"]
    assert [log["A1"].value, log["B1"].value] == ["played", "=SUM(1,2)"]


def test_only_macro_parts_are_named() -> None:
    plain = io.BytesIO()
    openpyxl.Workbook().save(plain)
    assert macro_parts(plain.getvalue()) == []
    assert macro_parts(b"name,kind\n") == []  # a csv upload
    message = macros_left_out_message(["xl/vbaProject.bin"])
    assert "xl/vbaProject.bin" in message and "leaves them out" in message


def test_a_renamed_xlsm_opens_and_its_macros_are_never_read(tmp_path: Path) -> None:
    path = tmp_path / "renamed.xlsx"
    path.write_bytes(renamed_xlsm(from_sheet=True))
    table = read_sheet(path)
    assert [row[0] for _, row in table.rows] == ["Ember Imp"]
