"""User text made safe for the two markups the workbench renders it in: Markdown and plotly's mini-HTML.

Set names, file names, deck names and card names are a designer's text, never markup. Streamlit renders labels,
captions and messages as Markdown, so `![x](https://host/pixel.png)` in a set name would fetch a remote image;
plotly renders trace text, hover labels, titles and tick labels as its own small HTML (`<a href>`, `<b>`,
`<br>`), so a `<a href>` in a card name would become a live link in the HTML report. Everything a page or a
chart shows of such text passes through one of these two functions.
"""

from __future__ import annotations

MARKDOWN_SPECIALS = frozenset("\\`*_{}[]<>#|$~")
"""The characters that start Markdown syntax inside a line (emphasis, code, links and images, HTML, tables,
Streamlit's `:red[...]` colours and `$math$`). CommonMark lets a backslash stand before any ASCII punctuation to
mean the character itself. Punctuation that is syntax only at a line's start (`-`, `+`, `>`, `1.`) is escaped
there; ordinary sentences keep their full stops and brackets as they are."""
LINE_START_SPECIALS = frozenset("-+>=")


def markdown_text(text: object) -> str:
    """`text` as literal Markdown: special characters backslash-escaped, line breaks as spaces (a line break could
    start a heading, a list or a table), and `://` and `www.` broken so no address becomes a link by itself."""
    flat = " ".join(str(text).replace("\r", "\n").split("\n"))
    escaped = "".join("\\" + char if char in MARKDOWN_SPECIALS else char for char in flat)
    if escaped[:1] in LINE_START_SPECIALS or escaped[:1].isdigit():
        escaped = _escape_line_start(escaped)
    return escaped.replace("://", ":\\/\\/").replace("www.", "www\\.")


def _escape_line_start(text: str) -> str:
    """A leading `-`, `+`, `>` or `=` (a list, a quote, a heading underline) or `1.` / `1)` (a numbered list)."""
    if text[0] in LINE_START_SPECIALS:
        return "\\" + text
    digits = len(text) - len(text.lstrip("0123456789"))
    if text[digits : digits + 1] in (".", ")"):
        return text[:digits] + "\\" + text[digits:]
    return text


def plotly_text(text: object) -> str:
    """`text` as literal plotly label text: `&`, `<` and `>` as entities (plotly shows them as the characters, and
    reads no tag in them), and `%` as an entity so a name put into a hover template is never read as `%{...}`."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("%", "&#37;")
