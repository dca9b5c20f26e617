"""`streamlit run streamlit_app.py` for the real-browser tests: on a free loopback port, with the environment a test
asks for, stopped when the test is done."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench.paths import REPO_ROOT


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class RunningServer:
    """A `streamlit run` server started by `streamlit_server`."""

    url: str
    """Its address, e.g. http://127.0.0.1:PORT."""
    pid: int
    """Its process id (its compile children have it as their parent)."""


@contextlib.contextmanager
def streamlit_server(
    log_folder: Path, env: Mapping[str, str] | None = None, drop_env: Sequence[str] = ()
) -> Iterator[RunningServer]:
    """`streamlit run streamlit_app.py` on a free loopback port, `env` added to its environment and `drop_env`
    taken out of it; yields the running server once its health address answers."""
    port = _free_port()
    log = (log_folder / "streamlit.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "streamlit_app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.fileWatcherType",
            "none",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=REPO_ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={key: value for key, value in {**os.environ, **(env or {})}.items() if key not in drop_env},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not start (exit {server.poll()}); see {log.name}")
            time.sleep(0.5)
        yield RunningServer(url, server.pid)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
