"""The Pi install script, the systemd unit and the kiosk script: checked the way they will be run."""

from __future__ import annotations

import http.server
import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
INSTALL = DEPLOY / "install-pi.sh"
KIOSK = DEPLOY / "kiosk.sh"
UNIT = DEPLOY / "table-companion.service"
VENV_COMPANION = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "companion"


# -- install-pi.sh --------------------------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed (apt-get install shellcheck)")
@pytest.mark.parametrize("script", [INSTALL, KIOSK], ids=lambda p: p.name)
def test_scripts_pass_shellcheck(script: Path) -> None:
    result = subprocess.run(["shellcheck", str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def dry_run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(INSTALL), "--dry-run", *args], capture_output=True, text=True, timeout=60)


def test_dry_run_prints_the_whole_plan_in_order() -> None:
    result = dry_run("--kiosk-user", "nobody")
    assert result.returncode == 0, result.stderr
    plan = result.stdout
    steps = [line[4:] for line in plan.splitlines() if line.startswith("==> ")]
    assert steps == [
        "Check this machine",
        "Install system packages (camera, GPIO, Python venv, browser)",
        "Put the code in /opt/table-companion",
        "Create the venv /opt/table-companion/.venv (sees apt's picamera2 and lgpio) and install the companion",
        "Create the system user table-companion (groups video, gpio)",
        "Write the config /etc/table-companion/config.toml and the data dir /var/lib/table-companion",
        "Check the installation with companion doctor",
        "Install and enable the systemd service table-companion.service",
        "Set up the kiosk screen (Chromium on the dashboard, no screen blanking)",
    ]
    for expected in [
        "python3 -m venv --system-site-packages /opt/table-companion/.venv",
        "pip install --quiet -e '/opt/table-companion[pi]'",
        # the service's user cannot write __pycache__ into root's code: compiled at install, not at each start
        "python -m compileall -q -j 0 /opt/table-companion/.venv/lib /opt/table-companion/companion",
        "companion.doctor --config /etc/table-companion/config.toml",
        "systemctl enable table-companion.service",
        "/etc/systemd/system/table-companion.service",
        "kiosk.sh",
    ]:
        assert expected in plan, f"{expected!r} missing from the plan:\n{plan}"
    assert "(dry run: nothing was changed)" in plan


def test_dry_run_lists_the_apt_packages_it_would_install() -> None:
    plan = dry_run("--no-kiosk").stdout
    needed = {"python3-picamera2", "python3-libcamera", "python3-venv", "python3-lgpio"}
    installed = {p for p in needed if _dpkg_installed(p)}
    apt_lines = [line for line in plan.splitlines() if "apt-get install" in line]
    # A package apt does not know (python3-picamera2 outside Raspberry Pi OS) is named and left out, not fatal.
    unknown = {p for p in needed if f"WARNING: {p} is not in this system's apt archives" in plan}
    assert unknown <= {"python3-picamera2", "python3-libcamera", "python3-lgpio"}, plan
    if needed - installed - unknown:
        assert apt_lines and all(p in apt_lines[0] for p in needed - installed - unknown), plan
    assert not (unknown & {p for line in apt_lines for p in line.split()}), plan
    assert "skipped (--no-kiosk)" in plan


def test_dry_run_changes_nothing(tmp_path: Path) -> None:
    before = {p: p.exists() for p in map(Path, ["/etc/table-companion", "/var/lib/table-companion",
                                                 "/etc/systemd/system/table-companion.service"])}
    assert dry_run("--kiosk-user", "nobody").returncode == 0
    assert {p: p.exists() for p in before} == before


def test_unknown_options_are_refused_with_a_hint() -> None:
    result = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True)
    assert result.returncode == 2 and "--help" in result.stderr


def test_help_describes_the_options() -> None:
    result = subprocess.run(["bash", str(INSTALL), "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "--dry-run" in result.stdout and "--kiosk-user" in result.stdout


def _dpkg_installed(package: str) -> bool:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return "install ok installed" in result.stdout


# -- the systemd unit -----------------------------------------------------------------------------------------------


def unit_for_verify(tmp_path: Path, text: str) -> Path:
    """The unit with ExecStart pointing at this checkout's venv: verify insists the binary exists."""
    path = tmp_path / "table-companion.service"
    path.write_text(text.replace("/opt/table-companion/.venv/bin/companion", str(VENV_COMPANION)))
    return path


needs_verify = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None or not VENV_COMPANION.exists(),
    reason="systemd-analyze is not installed here (or no .venv/bin/companion to stand in for ExecStart)",
)


@needs_verify
def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    result = subprocess.run(["systemd-analyze", "verify", str(unit_for_verify(tmp_path, UNIT.read_text()))],
                            capture_output=True, text=True)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


@needs_verify
def test_verify_would_catch_a_broken_unit(tmp_path: Path) -> None:
    broken = UNIT.read_text().replace("Type=notify", "Type=notifyy")
    result = subprocess.run(["systemd-analyze", "verify", str(unit_for_verify(tmp_path, broken))],
                            capture_output=True, text=True)
    assert result.returncode != 0 or "notifyy" in result.stderr


def test_the_unit_runs_one_supervised_process() -> None:
    lines = {line.split("=", 1)[0]: line.split("=", 1)[1] for line in UNIT.read_text().splitlines()
             if "=" in line and not line.startswith("#")}
    assert lines["Type"] == "notify" and lines["NotifyAccess"] == "main"
    assert int(lines["WatchdogSec"]) >= 10
    assert lines["Restart"] == "on-failure"
    assert lines["User"] == "table-companion" and set(lines["SupplementaryGroups"].split()) == {"video", "gpio"}
    assert lines["ExecStart"].startswith("/opt/table-companion/.venv/bin/companion serve --config ")
    assert lines["StandardOutput"] == lines["StandardError"] == "journal"


# -- kiosk.sh -------------------------------------------------------------------------------------------------------


class _Health(http.server.BaseHTTPRequestHandler):
    healthy_after = 0.0
    started = 0.0
    polls = 0

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        type(self).polls += 1
        ok = time.monotonic() - self.started >= self.healthy_after
        body = json.dumps({"ok": True, "version": "test"} if ok else {"error": "starting"}).encode()
        self.send_response(200 if ok else 503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def health_server() -> Iterator[tuple[int, type[_Health]]]:
    """A companion stand-in whose /healthz answers ok only after ``healthy_after`` seconds."""
    handler = type("Health", (_Health,), {"started": time.monotonic(), "healthy_after": 1.0, "polls": 0})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], handler
    server.shutdown()
    server.server_close()


def fake_browser(tmp_path: Path) -> tuple[str, Path]:
    """A browser stand-in that writes the time it was opened and its arguments."""
    record = tmp_path / "browser.log"
    script = tmp_path / "browser"
    script.write_text(f'#!/bin/sh\npython3 -c "import time; print(time.monotonic())" > {record}\n'
                      f'printf "%s\\n" "$@" >> {record}\n')
    script.chmod(0o755)
    return str(script), record


def run_kiosk(tmp_path: Path, port: int, **env: str) -> subprocess.CompletedProcess[str]:
    browser, _ = fake_browser(tmp_path)
    environment = {**os.environ, "HOME": str(tmp_path), "KIOSK_URL": f"http://127.0.0.1:{port}/",
                   "KIOSK_BROWSER": browser, "KIOSK_RESTART": "0", "KIOSK_POLL_SECONDS": "0.1", **env}
    environment.pop("DISPLAY", None)
    return subprocess.run(["bash", str(KIOSK)], env=environment, capture_output=True, text=True, timeout=30)


def test_the_kiosk_opens_the_browser_only_once_the_companion_is_healthy(
    tmp_path: Path, health_server: tuple[int, type[_Health]]
) -> None:
    port, handler = health_server
    result = run_kiosk(tmp_path, port)
    assert result.returncode == 0, result.stderr
    opened_at, *args = (tmp_path / "browser.log").read_text().split("\n")
    assert float(opened_at) - handler.started >= handler.healthy_after
    assert handler.polls >= 3  # it asked, was told "not yet", and asked again
    assert "--kiosk" in args and f"http://127.0.0.1:{port}/" in args
    assert "waiting for the companion" in result.stderr


def test_the_kiosk_gives_up_after_its_timeout_without_opening(
    tmp_path: Path, health_server: tuple[int, type[_Health]]
) -> None:
    port, handler = health_server
    handler.healthy_after = 3600
    result = run_kiosk(tmp_path, port, KIOSK_TIMEOUT="1")
    assert result.returncode == 1
    assert not (tmp_path / "browser.log").exists()
    assert "did not answer within 1s" in result.stderr


def test_the_kiosk_tells_chromium_the_last_exit_was_clean(
    tmp_path: Path, health_server: tuple[int, type[_Health]]
) -> None:
    port, handler = health_server
    handler.healthy_after = 0
    prefs = tmp_path / ".config" / "chromium" / "Default" / "Preferences"
    prefs.parent.mkdir(parents=True)
    prefs.write_text('{"profile":{"exit_type":"Crashed","exited_cleanly":false}}')
    assert run_kiosk(tmp_path, port).returncode == 0
    assert prefs.read_text() == '{"profile":{"exit_type":"Normal","exited_cleanly":true}}'


def test_the_kiosk_reopens_the_browser_when_a_screen_comes_back(
    tmp_path: Path, health_server: tuple[int, type[_Health]]
) -> None:
    """A monitor switched off and on: its DRM connector goes and comes back, and the browser is started anew."""
    port, handler = health_server
    handler.healthy_after = 0
    screens = tmp_path / "screens"
    screens.write_text("card1-HDMI-A-1\n")
    launches = tmp_path / "launches"
    browser = tmp_path / "browser"
    # A browser that stays open, as Chromium does, and counts its starts.
    browser.write_text(f"#!/bin/sh\necho started >> {launches}\nexec sleep 60\n")
    browser.chmod(0o755)
    environment = {**os.environ, "HOME": str(tmp_path), "KIOSK_URL": f"http://127.0.0.1:{port}/",
                   "KIOSK_BROWSER": str(browser), "KIOSK_POLL_SECONDS": "0.1", "KIOSK_WATCH_SECONDS": "0.2",
                   "KIOSK_PAUSE_SECONDS": "0.1", "KIOSK_SCREENS_CMD": f"cat {screens}"}
    environment.pop("DISPLAY", None)
    kiosk = subprocess.Popen(["bash", str(KIOSK)], env=environment, stderr=subprocess.PIPE, text=True)

    def started() -> int:
        return len(launches.read_text().splitlines()) if launches.exists() else 0

    def wait_for(count: int) -> None:
        deadline = time.monotonic() + 15
        while started() < count and time.monotonic() < deadline:
            time.sleep(0.1)

    try:
        wait_for(1)
        assert started() == 1
        screens.write_text("")  # the monitor is switched off: the browser stays, nothing to show it on
        time.sleep(1.0)
        assert started() == 1
        screens.write_text("card1-HDMI-A-1\n")  # and on again
        wait_for(2)
        assert started() == 2
        time.sleep(1.0)
        assert started() == 2  # once per change, not in a loop
    finally:
        kiosk.terminate()
        _, stderr = kiosk.communicate(timeout=20)
    assert "no screen is connected (card1-HDMI-A-1 went away)" in stderr
    assert "the screens changed (none -> card1-HDMI-A-1); reopening the browser" in stderr
    assert kiosk.returncode == 0  # TERM stops the browser too, and ends cleanly


def _install_dry_run_as(tmp_path: Path, *args: str) -> str:
    """The plan for a desktop user `kiosk` whose home is in tmp_path, with raspi-config and wayfire stand-ins."""
    home = tmp_path / "home"
    (home / ".config" / "labwc").mkdir(parents=True)
    (home / ".config" / "labwc" / "autostart").write_text(
        "swayidle -w timeout 600 'wlopm --off \\*' resume 'wlopm --on \\*' &\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    passwd = f"kiosk:x:1000:1000::{home}:/bin/bash"
    for name, body in [("getent", f'echo "{passwd}"'), ("raspi-config", "exit 0"), ("wayfire", "exit 0"),
                       ("runuser", "exit 0")]:
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    result = subprocess.run(["bash", str(INSTALL), "--dry-run", "--kiosk-user", "kiosk", *args], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split("==> Set up the kiosk screen")[1]


def test_the_kiosk_plan_starts_it_from_labwc_and_turns_blanking_off(tmp_path: Path) -> None:
    plan = _install_dry_run_as(tmp_path)
    home = tmp_path / "home"
    assert f"add to {home}/.config/labwc/autostart: KIOSK_URL=http://127.0.0.1:8080/ " \
           "/opt/table-companion/deploy/kiosk.sh" in plan
    # labwc: raspi-config's own way of turning blanking off, the swayidle line deleted
    assert f"sed -i /swayidle/d {home}/.config/labwc/autostart" in plan
    # wayfire (older Bookworm) keeps its autostart and gets dpms_timeout=-1
    assert "table_companion = KIOSK_URL=http://127.0.0.1:8080/ /opt/table-companion/deploy/kiosk.sh" in plan
    assert "dpms_timeout=-1" in plan
    assert "env SUDO_USER=kiosk raspi-config nonint do_blanking 1" in plan
