"""Rules page: every ruleset's rule-options ledger (reading, quote, default) and the toggles the other pages use."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from workbench.app.widgets import option_inputs, page_start
from workbench.app.workspace import option_store
from workbench.rulesets import RULESETS


def _reset(ruleset_id: str) -> None:
    option_store().pop(ruleset_id, None)
    for key in [k for k in st.session_state if str(k).startswith(f"option:rules:{ruleset_id}:")]:
        del st.session_state[key]


workspace = page_start(
    "Rules",
    "Where a rule document is unclear, each ruleset chose a reading. Change a reading here and every page "
    "(findings, charts, simulations) uses it for the rest of your session.",
)
ids = list(RULESETS)
if workspace is not None and workspace.ruleset_id in ids:
    ids.remove(workspace.ruleset_id)
    ids.insert(0, workspace.ruleset_id)

tabs = st.tabs(
    [f"{rid}" + (" (open set)" if workspace is not None and rid == workspace.ruleset_id else "") for rid in ids]
)
for tab, ruleset_id in zip(tabs, ids, strict=True):
    ruleset = RULESETS[ruleset_id]
    with tab:
        st.subheader(f"{ruleset.title} · v{ruleset.version}")
        engine_note = (
            "Match engine: not built yet, so this game cannot be simulated."
            if ruleset.engine_module is None
            else f"Match engine: `{ruleset.engine_module}`."
        )
        st.caption(f"Rule document: `{ruleset.document}` · {engine_note}")
        changed = option_store().get(ruleset_id, {})
        st.markdown("**Rule options**" + (f" · {len(changed)} changed from the defaults" if changed else ""))
        option_inputs(ruleset, "rules", columns=2, explained=True)
        if changed:
            st.button("Reset to the defaults", key=f"reset_options:{ruleset_id}", on_click=_reset, args=(ruleset_id,))
        with st.expander("Card sheet columns"):
            st.dataframe(
                pd.DataFrame(
                    [
                        {
                            "column": column.header,
                            "used by": ", ".join(column.kinds),
                            "required for": ", ".join(column.required_for) or "-",
                            "holds": column.type_name,
                            "meaning": column.description,
                        }
                        for column in ruleset.columns
                    ]
                ),
                hide_index=True,
                width="stretch",
            )
