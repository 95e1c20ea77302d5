"""sd_notify over a unix datagram socket, and the watchdog that pings only while its check answers."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hw import systemd
from hw.factory import HardwareError, factory_name, make_pin_factory

WAIT = 5.0


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, dict[str, str]]]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(WAIT)
    yield sock, {"NOTIFY_SOCKET": str(path)}
    sock.close()


def test_notify_sends_the_lines_as_one_datagram(notify_socket: tuple[socket.socket, dict[str, str]]) -> None:
    sock, env = notify_socket
    assert systemd.notify("READY=1", "STATUS=serving", environ=env)
    assert sock.recv(4096) == b"READY=1\nSTATUS=serving"


def test_notify_outside_systemd_does_nothing() -> None:
    assert systemd.notify("READY=1", environ={}) is False


def test_notify_to_a_dead_socket_is_logged_not_raised(tmp_path: Path) -> None:
    assert systemd.notify("READY=1", environ={"NOTIFY_SOCKET": str(tmp_path / "gone")}) is False


def test_watchdog_seconds_is_for_this_process_only() -> None:
    mine = str(os.getpid())
    assert systemd.watchdog_seconds({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": mine}) == 30.0
    assert systemd.watchdog_seconds({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert systemd.watchdog_seconds({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert systemd.watchdog_seconds({}) is None


def test_the_watchdog_pings_while_the_check_answers(notify_socket: tuple[socket.socket, dict[str, str]]) -> None:
    sock, env = notify_socket
    env = {**env, "WATCHDOG_USEC": "100000"}  # 0.1 s: a ping every 0.05 s
    watchdog = systemd.Watchdog(environ=env).start()
    try:
        assert watchdog.interval_seconds == pytest.approx(0.05)
        assert sock.recv(64) == b"WATCHDOG=1"
        assert sock.recv(64) == b"WATCHDOG=1"
    finally:
        watchdog.close()


def test_the_watchdog_stays_silent_while_the_check_hangs(notify_socket: tuple[socket.socket, dict[str, str]]) -> None:
    sock, env = notify_socket
    release = threading.Event()
    watchdog = systemd.Watchdog(check=lambda: release.wait(WAIT), interval_seconds=0.01, environ=env).start()
    sock.settimeout(0.3)
    with pytest.raises(TimeoutError):
        sock.recv(64)
    release.set()
    sock.settimeout(WAIT)
    assert sock.recv(64) == b"WATCHDOG=1"
    watchdog.close()


def test_the_watchdog_does_not_ping_when_the_check_fails(notify_socket: tuple[socket.socket, dict[str, str]]) -> None:
    sock, env = notify_socket

    def broken() -> None:
        raise RuntimeError("deadlock detected")

    watchdog = systemd.Watchdog(check=broken, interval_seconds=0.01, environ=env).start()
    sock.settimeout(0.2)
    with pytest.raises(TimeoutError):
        sock.recv(64)
    watchdog.close()
    assert watchdog.pings == 0


def test_no_watchdog_configured_starts_no_thread() -> None:
    watchdog = systemd.Watchdog(environ={}).start()
    assert not watchdog.enabled
    watchdog.close()


# -- pin factories by config -----------------------------------------------------------------------------------------


def test_mock_factory_by_name() -> None:
    factory = make_pin_factory("mock")
    assert factory_name(factory) == "mock"
    factory.close()


def test_unknown_factory_names_the_choices() -> None:
    with pytest.raises(HardwareError, match="choose one of auto, mock"):
        make_pin_factory("wiringpi")


def test_auto_off_a_pi_says_what_to_do() -> None:
    try:
        factory = make_pin_factory("auto")
    except HardwareError as exc:
        assert "python3-lgpio" in str(exc) and '"mock"' in str(exc)
    else:  # on a real Pi gpiozero finds a backend
        factory.close()
        pytest.skip("this machine has working GPIO")
