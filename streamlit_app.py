"""The card workbench in the browser: `streamlit run streamlit_app.py`.

A router only: `route()` registers the pages of workbench/app/ (see workbench/app/__init__.py) and runs the one
asked for. An installed package starts the same router with `workbench app` (workbench/app/router.py, guarded the
same way).

Streamlit runs this script as `__main__`. The guard keeps a process that only imports it from running the app: a
worker process of a simulation's pool (multiprocessing's spawn re-imports the main script as `__mp_main__`) would
otherwise run the router, start its own background warm-up and compile every engine again beside the server's.
"""

from workbench.app.router import route

if __name__ == "__main__":
    route()
