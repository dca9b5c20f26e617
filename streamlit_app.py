"""The card workbench in the browser: `streamlit run streamlit_app.py`.

A router only: `route()` registers the pages of workbench/app/ (see workbench/app/__init__.py) and runs the one
asked for. An installed package starts the same router with `workbench app`.
"""

from workbench.app.router import route

route()
