"""The package as a Python user installs it: a wheel built from the checkout, installed into a fresh venv, run from an
empty folder far from the checkout (issue 15's done-when).

The wheel is built once per test session, from a copy of the checkout (about 10 s; pip fetches the build backend,
setuptools, from PyPI or its cache). Two fresh venvs get it:

- `installed`: the wheel alone (`--no-deps`); its dependencies (pandas, numba, streamlit, ...) come from the venv
  running the tests through a .pth line, which keeps those tests quick. That line adds a folder to sys.path without
  running the .pth files in it, so the checkout's editable install stays out: `workbench` is imported from the
  wheel's copy, which the tests check.
- `installed_with_dependencies`: the wheel as a user installs it, `pip install card_workbench-*.whl`, with the
  dependencies its metadata declares (no extras) resolved by pip at the versions of constraints.txt, the ones CI
  tests with (from PyPI, or pip's cache). Its interpreter is the one running the tests, or
  WORKBENCH_PACKAGING_PYTHON (a path or command: .ci/run runs this test again with python3.13 when it finds one).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from workbench.paths import REPO_ROOT

pytestmark = pytest.mark.packaging

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_package_folder_is_listed_in_pyproject() -> None:
    # The packages are listed, not found (cardsets/ is mapped in from outside workbench/): a new subpackage must be
    # added to the list, or the wheel would go without it.
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(REPO_ROOT).parts) for init in (REPO_ROOT / "workbench").rglob("__init__.py")
    }
    assert on_disk <= listed, f"add to [tool.setuptools] packages in pyproject.toml: {sorted(on_disk - listed)}"
    assert PYPROJECT["tool"]["setuptools"]["package-dir"] == {
        "workbench.cardsets": "cardsets",
        "workbench.docs": "docs",
    }


@dataclass(frozen=True)
class Installed:
    """A fresh venv with the built wheel installed."""

    venv: Path
    wheel: Path
    workbench: Path
    """The venv's `workbench` command."""
    empty: Path
    """An empty folder outside the checkout, the commands' working folder."""
    package: Path
    """The installed package's folder (site-packages/workbench)."""

    def run(self, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.workbench), *argv],
            cwd=self.empty,
            env=_clean_env(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )


def _clean_env() -> dict[str, str]:
    """The environment without anything that points Python at the checkout."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["WORKBENCH_WARMUP"] = "off"  # the app test should not start five engine compiles on a shared machine
    return env


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built once per session from a copy of the checkout."""
    root = tmp_path_factory.mktemp("wheel")
    source, wheels = root / "source", root / "wheel"
    # Built from a copy of the checkout's files (tracked or not, as git sees them): setuptools reuses a build/ folder
    # in the source tree, which could carry a deleted module into the wheel, and the checkout stays untouched.
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for name in listed:
        if (REPO_ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    (wheel,) = wheels.glob("card_workbench-*.whl")
    return wheel


@pytest.fixture(scope="session")
def installed(built_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("packaging")
    wheel, venv, empty = built_wheel, root / "venv", root / "empty"
    empty.mkdir()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=300)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "_test_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    return Installed(venv, wheel, venv / "bin" / "workbench", empty, Path(site) / "workbench")


def test_the_wheel_holds_the_card_sets_the_app_and_the_type_marker(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    tracked = subprocess.run(
        ["git", "ls-files", "cardsets"], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    bundled = {f"workbench/{name}" for name in tracked}
    assert bundled and bundled <= names, sorted(bundled - names)
    pages = {f"workbench/app/{path.name}" for path in (REPO_ROOT / "workbench" / "app").glob("*.py")}
    assert pages <= names and "workbench/app/router.py" in names
    assert {"workbench/py.typed", "workbench/rulesets/source/maps/default.json"} <= names
    templates = {
        f"workbench/html_templates/{path.name}" for path in (REPO_ROOT / "workbench" / "html_templates").glob("*.html")
    }
    assert templates and templates <= names, sorted(templates - names)  # the report, card and print sheet pages
    schemas = {f"workbench/schemas/{path.name}" for path in (REPO_ROOT / "workbench" / "schemas").glob("*.json")}
    assert schemas and schemas <= names, sorted(schemas - names)  # every --format json output's JSON Schema
    docs = {f"workbench/docs/{path.relative_to(REPO_ROOT / 'docs')}" for path in (REPO_ROOT / "docs").rglob("*.md")}
    assert docs and docs <= names, sorted(docs - names)  # the docs `workbench --help` names


def test_the_wheels_metadata_has_one_version_a_licence_and_the_app_as_an_extra(installed: Installed) -> None:
    import workbench

    with zipfile.ZipFile(installed.wheel) as wheel:
        (metadata_name,) = [name for name in wheel.namelist() if name.endswith(".dist-info/METADATA")]
        metadata = wheel.read(metadata_name).decode()
        licences = [name for name in wheel.namelist() if name.endswith("LICENSE") and ".dist-info/" in name]
        assert licences and wheel.read(licences[0]).decode().startswith("MIT License")
    headers = [line.split(": ", 1) for line in metadata.split("\n\n", 1)[0].splitlines() if ": " in line]
    fields: dict[str, list[str]] = {}
    for key, value in headers:
        fields.setdefault(key, []).append(value)
    assert fields["Version"] == [workbench.__version__]  # pyproject reads workbench/__init__.py: one source
    assert installed.wheel.name.startswith(f"card_workbench-{workbench.__version__}-")
    assert fields["License-Expression"] == ["MIT"]
    assert {f"Programming Language :: Python :: 3.{minor}" for minor in (11, 12, 13)} <= set(fields["Classifier"])
    assert fields["Requires-Python"] == [">=3.11"]
    requires = fields["Requires-Dist"]
    streamlit = [line for line in requires if line.startswith("streamlit")]
    assert streamlit and all('extra == "app"' in line for line in streamlit)  # only the app extra needs it
    assert any(line.startswith("jsonschema") and 'extra == "test"' in line for line in requires)


def test_installed_report_and_print_sheet_are_drawn_from_the_wheels_templates(
    installed: Installed, tmp_path: Path
) -> None:
    report = installed.run("report", "souls/mistakes", "--out", str(tmp_path / "report.html"))
    assert report.returncode == 0, report.stderr
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<h2>Findings</h2>" in page and "<h2>Provenance</h2>" in page
    printed = installed.run("print", "souls/ashfall", "--out", str(tmp_path / "print.html"))
    assert printed.returncode == 0, printed.stderr
    sheet = (tmp_path / "print.html").read_text(encoding="utf-8")
    assert "46 cards on 6 page(s)" in printed.stdout + printed.stderr
    assert sheet.count('data-testid="card-preview"') == 46 and sheet.count('class="page"') == 6


def test_installed_commands_work_from_an_empty_folder(installed: Installed) -> None:
    where = subprocess.run(
        [
            str(installed.venv / "bin" / "python"),
            "-c",
            "import workbench, workbench.paths as p; print(workbench.__file__); print(p.CARDSETS_DIR)",
        ],
        cwd=installed.empty,
        env=_clean_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all(line.startswith(str(installed.venv)) for line in where), where  # the wheel's copy, not the checkout

    sets = installed.run("sets")
    assert sets.returncode == 0, sets.stderr
    assert "souls/ashfall" in sets.stdout and "source/mistakes" in sets.stdout

    validate = installed.run("validate", "souls/ashfall", "--deck", "ember_rush")
    assert validate.returncode == 0, validate.stderr
    assert "46 of 46 card rows read as souls" in validate.stderr and "1 deck(s): 0 error(s)" in validate.stderr

    mistakes = installed.run("validate", "souls/mistakes", "--format", "json")
    assert mistakes.returncode == 1 and '"severity": "error"' in mistakes.stdout

    from jsonschema import Draft202012Validator

    listed = installed.run("sets", "--format", "json")
    schema = json.loads((installed.package / "schemas" / "sets.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(json.loads(listed.stdout))) == []  # the wheel's schema

    helped = installed.run("--help")
    assert helped.returncode == 0 and "pip install -e" not in helped.stdout
    docs_line = next(line for line in helped.stdout.splitlines() if line.startswith("Docs: "))
    named = re.findall(r"(/\S+?\.md)", docs_line)
    assert named and all(path.startswith(str(installed.venv)) and Path(path).is_file() for path in named), docs_line

    bench = installed.run("bench", "--only", "validation", "--cards", "300", "--repeat", "1")
    assert bench.returncode == 0, bench.stderr
    assert [line.split()[0] for line in bench.stdout.splitlines()] == ["source", "plasma", "blades", "souls", "circles"]
    assert not any(installed.empty.iterdir())  # nothing written where it ran


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_workbench_app_serves_the_installed_router(installed: Installed) -> None:
    port = _free_port()
    # No STREAMLIT_BROWSER_GATHER_USAGE_STATS here: `workbench app` turns usage statistics off itself.
    env = _clean_env() | {"STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"}
    with subprocess.Popen(
        [str(installed.workbench), "app", "--port", str(port), "--headless"],
        cwd=installed.empty,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as server:
        try:
            deadline, health = time.monotonic() + 90, ""
            while time.monotonic() < deadline and server.poll() is None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                        health = answer.read().decode()
                        break
                except OSError:
                    time.sleep(0.5)
            said = server.stdout.read() if server.stdout is not None and server.poll() is not None else ""
            assert health == "ok", f"no health answer; the server said: {said}"
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
                assert page.status == 200 and b"<html" in page.read().lower()
        finally:
            server.terminate()
            try:
                output, _ = server.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                output, _ = server.communicate()
    assert server.returncode == 0, output
    assert f"starting the app at http://127.0.0.1:{port}" in output  # this machine only, by default
    assert str(installed.venv) in output  # the router inside the installed package


SETTINGS_SCRIPT = """
import json, sys
from streamlit.web import cli as streamlit_cli
from workbench.cli import main
started = []
streamlit_cli.main = lambda args, **_: started.append(list(args))
assert main(["app", "--headless", "-q"]) == 0
print(json.dumps(started[0]))
"""


def test_the_installed_app_passes_its_streamlit_settings(installed: Installed) -> None:
    """The wheel has no .streamlit/config.toml: the installed `workbench app` puts the settings on Streamlit's command
    line (no usage statistics, uploads up to the 50 MiB file limit, this machine only, no magic, no data export)."""
    done = subprocess.run(
        [str(installed.venv / "bin" / "python"), "-c", SETTINGS_SCRIPT],
        cwd=installed.empty,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    args = json.loads(done.stdout.splitlines()[-1])
    assert args[1].startswith(str(installed.venv)) and args[1].endswith("router.py")
    settings = dict(zip(args[2::2], args[3::2], strict=True))
    assert settings["--browser.gatherUsageStats"] == "false" and settings["--server.address"] == "127.0.0.1"
    assert settings["--server.maxUploadSize"] == "50" and settings["--runner.magicEnabled"] == "false"
    assert settings["--client.disableDataExport"] == "true" and settings["--server.showEmailPrompt"] == "false"


APP_SCRIPT = """
import json
from importlib import resources
from streamlit.testing.v1 import AppTest

pages = resources.files("workbench.app")
at = AppTest.from_file(str(pages.joinpath("router.py")), default_timeout=120).run()
home = {"errors": [e.value for e in at.exception], "subheaders": [s.value for s in at.subheader],
        "sets": list(at.selectbox[0].options) if at.selectbox else []}
at.switch_page(str(pages.joinpath("balance.py"))).run()
print(json.dumps({"home": home, "balance": {"errors": [e.value for e in at.exception],
                                            "titles": [t.value for t in at.title]}}))
"""


def test_the_installed_router_runs_its_pages_on_the_bundled_sets(installed: Installed) -> None:
    """What a browser would get: the installed router runs the home page (a bundled set opened) and the Balance page."""
    done = subprocess.run(
        [str(installed.venv / "bin" / "python"), "-c", APP_SCRIPT],
        cwd=installed.empty,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    pages = json.loads(done.stdout.splitlines()[-1])
    assert pages["home"]["errors"] == [] and pages["balance"]["errors"] == []
    assert "Bundled sets" in pages["home"]["subheaders"]
    assert any(option.startswith("souls · ashfall.csv") for option in pages["home"]["sets"])
    assert pages["balance"]["titles"] == ["Balance"]


def _pins(constraints: Path) -> dict[str, str]:
    """constraints.txt as {normalised name: version}."""
    pins: dict[str, str] = {}
    for line in constraints.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version.strip()
    return pins


@pytest.fixture(scope="session")
def installed_with_dependencies(built_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """A fresh venv (WORKBENCH_PACKAGING_PYTHON's interpreter, or this one) with `pip install WHEEL`: the dependencies
    the wheel's metadata declares, no extras, at the versions CI tests with (`-c constraints.txt`)."""
    root = tmp_path_factory.mktemp("with_dependencies")
    venv, empty = root / "venv", root / "empty"
    empty.mkdir()
    interpreter = os.environ.get("WORKBENCH_PACKAGING_PYTHON") or sys.executable
    subprocess.run([interpreter, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=300)
    python = venv / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "-c", str(REPO_ROOT / "constraints.txt"), str(built_wheel)],
        cwd=empty,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return Installed(venv, built_wheel, venv / "bin" / "workbench", empty, Path(site) / "workbench")


WHERE_SCRIPT = """
import json, sys
import workbench, workbench.paths, numba, numpy, pandas, pydantic
print(json.dumps({"python": list(sys.version_info[:2]), "prefix": sys.prefix,
                  "files": [m.__file__ for m in (workbench, numba, numpy, pandas, pydantic)],
                  "cardsets": str(workbench.paths.CARDSETS_DIR)}))
"""


def test_the_wheel_installed_with_its_dependencies_runs_from_an_empty_folder(
    installed_with_dependencies: Installed, tmp_path: Path
) -> None:
    """`pip install card_workbench-*.whl` as a user runs it, dependencies and all (issue 36): nothing borrowed from
    the venv running the tests, every dependency at the version constraints.txt pins, and the command line works from
    an empty folder; on another Python than the suite's, a first simulation compiles an engine with its Numba."""
    installed = installed_with_dependencies
    python = str(installed.venv / "bin" / "python")
    where = subprocess.run(
        [python, "-c", WHERE_SCRIPT], cwd=installed.empty, env=_clean_env(), capture_output=True, text=True
    )
    assert where.returncode == 0, where.stderr
    found = json.loads(where.stdout)
    assert found["prefix"] == str(installed.venv)
    assert all(path.startswith(str(installed.venv)) for path in [*found["files"], found["cardsets"]]), found

    checked = subprocess.run([python, "-m", "pip", "check"], env=_clean_env(), capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr  # every declared requirement met
    listed = subprocess.run(
        [python, "-m", "pip", "list", "--format", "json"], env=_clean_env(), capture_output=True, text=True, check=True
    )
    versions = {re.sub(r"[-_.]+", "-", d["name"]).lower(): d["version"] for d in json.loads(listed.stdout)}
    pins = _pins(REPO_ROOT / "constraints.txt")
    unpinned = set(versions) - set(pins) - {"card-workbench", "pip", "setuptools", "wheel"}
    assert not unpinned, f"installed but not pinned in constraints.txt: {sorted(unpinned)}"
    assert {name: version for name, version in versions.items() if name in pins} == {
        name: pins[name] for name in versions if name in pins
    }
    assert "streamlit" not in versions and {"numba", "numpy", "pandas", "pydantic"} <= set(versions)

    sets = installed.run("sets")
    assert sets.returncode == 0, sets.stderr
    assert "souls/ashfall" in sets.stdout and "plasma/plasma_core" in sets.stdout
    validate = installed.run("validate", "souls/ashfall", "--deck", "ember_rush")
    assert validate.returncode == 0, validate.stderr
    assert "46 of 46 card rows read as souls" in validate.stderr
    mistakes = installed.run("validate", "souls/mistakes", "--format", "json")
    assert mistakes.returncode == 1 and '"severity": "error"' in mistakes.stdout
    app = installed.run("app", "--headless")  # no app extra: exit 2 with the command that installs it
    assert app.returncode == 2 and "card-workbench[app]" in app.stderr, app.stderr

    if found["python"] == list(sys.version_info[:2]):
        assert not any(installed.empty.iterdir())  # nothing written where it ran
        # On this Python, the same Numba and numpy (constraints.txt) compile every engine in the rest of the suite.
        return
    # Another Python (WORKBENCH_PACKAGING_PYTHON): a first simulation compiles the plasma engine (the quickest cold
    # compile, about 20 s on a quiet machine) with the Numba and numpy installed for that Python, in its own cache.
    env = _clean_env() | {"NUMBA_CACHE_DIR": str(tmp_path / "numba"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    simulated = subprocess.run(
        [str(installed.workbench), "simulate", "plasma/plasma_core", "--deck", "bulwark", "--deck", "bulwark"]
        + ["--matches", "10", "--seed", "1", "--workers", "1", "--format", "json"],
        cwd=installed.empty,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert simulated.returncode == 0, simulated.stderr
    from jsonschema import Draft202012Validator

    schema = json.loads((installed.package / "schemas" / "simulate.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(json.loads(simulated.stdout))) == []
    assert not any(installed.empty.iterdir())  # nothing written where it ran
