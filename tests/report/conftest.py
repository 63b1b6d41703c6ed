"""The headless browser the report's page tests share (one Chromium per session).

Needs Debian's chromium and chromium-driver and the selenium package. Where they are
missing the session installs them once (as root, with apt-get, under a file lock);
where it cannot, the tests that use ``browser`` skip and say why.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
LOCK = Path(tempfile.gettempdir()) / "toolchaos-chromium-install.lock"


def _install_chromium() -> str | None:
    """Install chromium and its driver if missing; return why not, or None when ready."""
    if Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists():
        return None
    if shutil.which("apt-get") is None:
        return "chromium is not installed and this machine has no apt-get to install it"
    if os.geteuid() != 0:
        return "chromium is not installed and installing it with apt-get needs root"
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one installer at a time, across workers
        if Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists():
            return None
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in (
            ["apt-get", "update"],
            ["apt-get", "install", "-y", "--no-install-recommends", "chromium", "chromium-driver"],
        ):
            try:
                done = subprocess.run(
                    command, capture_output=True, text=True, timeout=1200, env=env
                )
            except subprocess.TimeoutExpired:
                return f"'{' '.join(command)}' timed out"
            if done.returncode != 0:
                tail = (done.stderr or done.stdout).strip().splitlines()[-1:]
                return f"'{' '.join(command)}' failed: {' '.join(tail)}"
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        return "apt-get ran but chromium or chromedriver is still missing"
    return None


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.service import Service

    reason = _install_chromium()
    if reason is not None:
        pytest.skip(reason)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("chromium-profile")
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1280,1600",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
