"""HTML pages from the jinja2 templates in `workbench/html_templates/`, with every value escaped.

The balance report, the print sheet and the card preview are templates; the modules that own them
(`workbench.report_html`, `workbench.print_sheet`, `workbench.card_preview`) only prepare plain data (text,
numbers, lists of rows) and call `render`. Autoescape is on for every `.html` template, so a value is escaped
unless it is `markupsafe.Markup`: the output of another template (a card on the print sheet) or of plotly (a
chart). Nothing else should be wrapped in Markup.

The templates are package data, found with importlib through `PackageLoader`, so they load from a checkout and
from an installed wheel alike (pyproject.toml lists them; tests/test_packaging.py checks the wheel holds them).
"""

from __future__ import annotations

import html
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, pass_eval_context, select_autoescape
from jinja2.nodes import EvalContext
from markupsafe import Markup

TEMPLATE_FOLDER = "html_templates"
"""The folder of `workbench` that holds the templates (not `templates`: `workbench/templates.py` is the
`workbench template` command's module)."""


@pass_eval_context
def escaped_text(context: EvalContext, value: Any) -> Any:
    """Every value a template prints, escaped as `html.escape` does (`&quot;`, `&#x27;`) before autoescape sees it.

    markupsafe, which autoescape calls, writes the same characters as `&#34;` and `&#39;`; escaping here first keeps
    the spelling these pages have always had (tests and readers search the files for `&quot;`). Markup passes as it
    is; nothing prints as nothing (never the word None); a template without autoescape (not .html) gets the plain
    text."""
    if value is None:
        return ""
    if not context.autoescape or hasattr(value, "__html__"):
        return value
    return Markup(html.escape(str(value), quote=True))


@cache
def environment() -> Environment:
    """The one environment of the workbench's pages: autoescape for .html, a missing value an error (never a
    silently empty spot), block tags alone on their line leaving no blank lines behind."""
    return Environment(
        loader=PackageLoader("workbench", TEMPLATE_FOLDER),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        finalize=escaped_text,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(template: str, **data: Any) -> str:
    """The template (a file name in `workbench/html_templates/`) filled with `data`."""
    return environment().get_template(template).render(**data)
