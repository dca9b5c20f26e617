"""Card sets page: open a bundled set, upload one, or download an empty template."""

from __future__ import annotations

import tempfile
from pathlib import Path

import streamlit as st

from workbench.app import BALANCE, CARD_EDITOR, DECKS, STAT_BUDGET
from workbench.app.widgets import counts_line, page_start
from workbench.app.workspace import (
    bundled_catalogue,
    current_cardset,
    deck_error_lines,
    deck_findings,
    findings_for,
    open_bundled,
    open_cardset,
    set_workspace,
)
from workbench.cards import WorkbenchInputError
from workbench.markup import markdown_text
from workbench.paths import CARDSETS_DIR
from workbench.rulesets import RULESETS, get_ruleset
from workbench.spreadsheets import MAX_FILE_BYTES
from workbench.templates import write_template

UPLOAD_LIMIT_MIB = MAX_FILE_BYTES // 2**20
DETECT = "detect from the file"
UPLOAD_KEY = "cardset_upload"
UPLOAD_RULESET_KEY = "cardset_upload_ruleset"
LAST_UPLOAD_KEY = "cardset_upload_last"
UPLOAD_ERROR_KEY = "cardset_upload_error"


@st.cache_data(show_spinner=False)
def template_bytes(ruleset_id: str) -> bytes:
    """The ruleset's empty, documented card sheet (as `workbench template` writes it)."""
    with tempfile.TemporaryDirectory() as folder:
        path = write_template(get_ruleset(ruleset_id), Path(folder) / f"{ruleset_id}_template.xlsx")
        return path.read_bytes()


def _open_selected_bundled() -> None:
    path = Path(st.session_state["bundled_choice"])
    try:
        set_workspace(open_bundled(path))
        st.session_state["cardsets_notice"] = f"Opened {path.name} with its {path.parent.name} decklists."
    except WorkbenchInputError as error:
        st.session_state["cardsets_notice_error"] = str(error)


def _bundled_label(path_text: str) -> str:
    path = Path(path_text)
    ruleset = RULESETS.get(path.parent.name)
    return f"{path.parent.name} · {path.name}" + (f" ({ruleset.title})" if ruleset else "")


def _handle_upload() -> None:
    uploaded = st.session_state.get(UPLOAD_KEY)
    if uploaded is None:
        return
    choice = st.session_state.get(UPLOAD_RULESET_KEY, DETECT)
    attempt = (uploaded.file_id, choice)
    if st.session_state.get(LAST_UPLOAD_KEY) == attempt:
        return  # already opened (or refused): do not reopen it and lose the edits made since
    st.session_state[LAST_UPLOAD_KEY] = attempt
    try:
        workspace = open_cardset(uploaded.getvalue(), uploaded.name, None if choice == DETECT else choice, "upload")
    except WorkbenchInputError as error:
        st.session_state[UPLOAD_ERROR_KEY] = str(error)
        return
    st.session_state.pop(UPLOAD_ERROR_KEY, None)
    set_workspace(workspace)
    st.session_state["cardsets_notice"] = f"Opened {uploaded.name} as a {workspace.ruleset_id} card set."


workspace = page_start(
    "Card sets",
    "Pick a bundled set or upload your own sheet; then edit cards, check decks and run simulations on the other pages.",
)

if notice := st.session_state.pop("cardsets_notice", None):
    st.success(markdown_text(notice))
if problem := st.session_state.pop("cardsets_notice_error", None):
    st.error(markdown_text(problem))

if workspace is not None:
    cardset = current_cardset(workspace)
    findings = findings_for(workspace, cardset)
    with st.container(border=True):
        st.subheader(f"Open: {markdown_text(workspace.set_name)}")
        ruleset = workspace.ruleset
        st.markdown(
            f"{ruleset.title} (`{ruleset.id}` v{ruleset.version}) · from **{workspace.filename}** "
            f"({'bundled' if workspace.origin == 'bundled' else 'uploaded'}) · "
            f"{len(cardset)} of {cardset.rows_read} card rows read · {len(workspace.decks)} decklists"
        )
        st.markdown(counts_line(findings))
        # A deck an edit broke (a card deleted, a rename onto another card's name) is named here too.
        if deck_errors := deck_error_lines(*deck_findings(workspace, cardset)):
            st.error(
                "**Decks with errors** (the Decks page shows each deck whole):\n\n"
                + "\n".join(f"- {markdown_text(line)}" for line in deck_errors)
            )
        links = st.columns(4)
        links[0].page_link(CARD_EDITOR.path, label="Edit cards", icon=CARD_EDITOR.icon)
        links[1].page_link(STAT_BUDGET.path, label="Stat budget", icon=STAT_BUDGET.icon)
        links[2].page_link(DECKS.path, label="Decks", icon=DECKS.icon)
        links[3].page_link(BALANCE.path, label="Balance", icon=BALANCE.icon)

left, right = st.columns(2, gap="large")
with left:
    st.subheader("Bundled sets")
    catalogue = [str(path) for path in bundled_catalogue()]
    if not catalogue:
        st.info(f"No bundled card sets were found in {CARDSETS_DIR}.")
    else:
        st.selectbox("Bundled set", catalogue, format_func=_bundled_label, key="bundled_choice")
        st.button("Open bundled set", on_click=_open_selected_bundled, type="primary")
        st.caption("A bundled set opens with its game's sample decklists.")

with right:
    st.subheader("Upload a card set")
    st.selectbox(
        "Ruleset",
        [DETECT, *RULESETS],
        key=UPLOAD_RULESET_KEY,
        on_change=_handle_upload,
        help="The ruleset is read from the workbook's Set sheet, else detected from the headers. "
        "Pick one here when the file cannot say.",
    )
    st.file_uploader(
        f"Card sheet (.xlsx or .csv, at most {UPLOAD_LIMIT_MIB} MiB)",
        type=["xlsx", "xlsm", "csv"],
        key=UPLOAD_KEY,
        on_change=_handle_upload,
        max_upload_size=UPLOAD_LIMIT_MIB,
        help="xlsx: the sheet named Cards (else the first sheet), one card per row, headers in row 1. "
        "Columns the ruleset does not know are kept and saved back unchanged.",
    )
    st.caption(
        f"Size cap: {UPLOAD_LIMIT_MIB} MiB per file. Workbooks are checked (zip entries, inflated size, "
        "compression ratio) before they are opened. Uploads stay in your browser session only."
    )
    if upload_problem := st.session_state.get(UPLOAD_ERROR_KEY):
        st.error(f"The upload was not opened: {markdown_text(upload_problem)}")
        if "ruleset" in upload_problem.casefold():
            st.info("Pick the ruleset above and the file is read again.")

st.divider()
st.subheader("Empty template")
template_ruleset = st.selectbox(
    "Template for", list(RULESETS), format_func=lambda rid: f"{rid} · {RULESETS[rid].title}", key="template_ruleset"
)
st.download_button(
    f"Download the {template_ruleset} template (.xlsx)",
    data=template_bytes(template_ruleset),
    file_name=f"{template_ruleset}_template.xlsx",
    mime="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    on_click="ignore",
    icon=":material/download:",
)
st.caption("A Cards sheet with every header, a Columns sheet explaining each one, and a Set sheet naming the ruleset.")
