"""Talking to systemd without a dependency: readiness, status and watchdog pings over ``$NOTIFY_SOCKET``.

The unit (``deploy/table-companion.service``) is ``Type=notify`` with ``WatchdogSec=``: systemd waits for
``READY=1`` before it calls the companion started, and restarts it if the ``WATCHDOG=1`` pings stop. The
protocol is one unix datagram of ``KEY=value`` lines to the socket named in ``$NOTIFY_SOCKET`` (an abstract
socket when it starts with ``@``); see sd_notify(3). Outside systemd the variable is unset and every call here is
a harmless no-op, so the same code runs in a terminal, in tests and under the service.

A ping only proves something if it depends on the work being done. :class:`Watchdog` pings only while its
``check`` returns: give it ``session.snapshot``, which takes the session's lock, and a deadlocked table stops
pinging, so systemd kills and restarts it (and the log resumes the game)::

    from hw import systemd
    watchdog = systemd.Watchdog(check=companion.session.snapshot).start()
    systemd.notify("READY=1", "STATUS=serving on port 8080")
    ...
    systemd.notify("STOPPING=1"); watchdog.close()
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


def notify(*lines: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``lines`` (``"READY=1"``, ``"WATCHDOG=1"``, ``"STATUS=..."``) to systemd. True if sent.

    Never raises: a notification that cannot be sent is logged; systemd's own timeouts then tell the story.
    """
    env = os.environ if environ is None else environ
    address = env.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall("\n".join(lines).encode())
    except OSError as exc:
        log.warning("sd_notify to %s failed: %s", env.get("NOTIFY_SOCKET"), exc)
        return False
    return True


def watchdog_seconds(environ: Mapping[str, str] | None = None) -> float | None:
    """The watchdog timeout systemd set for *this* process (``WatchdogSec=``), or None when there is none."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        seconds = int(usec) / 1_000_000
    except ValueError:
        return None
    return seconds if seconds > 0 else None


class Watchdog:
    """Pings systemd's watchdog twice per timeout while ``check()`` returns (raises or hangs: no ping).

    :param check: a callable that only returns when the companion is well (its value is ignored).
    :param interval_seconds: seconds between pings; default half of ``$WATCHDOG_USEC``. With no watchdog
        configured and no interval given, :meth:`start` does nothing.
    """

    def __init__(
        self,
        *,
        check: Callable[[], object] = lambda: None,
        interval_seconds: float | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.check = check
        self.environ = os.environ if environ is None else environ
        timeout = watchdog_seconds(self.environ)
        self.interval_seconds = interval_seconds if interval_seconds is not None else (
            timeout / 2 if timeout else None)
        self.pings = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def enabled(self) -> bool:
        return self.interval_seconds is not None

    def start(self) -> Watchdog:
        if self.enabled and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="systemd-watchdog", daemon=True)
            self._thread.start()
            log.info("systemd watchdog: pinging every %.1f s", self.interval_seconds)
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        assert self.interval_seconds is not None
        while True:
            try:
                self.check()
            except Exception as exc:
                log.error("watchdog check failed, not pinging: %s", exc)
            else:
                if notify("WATCHDOG=1", environ=self.environ):
                    self.pings += 1
            if self._stop.wait(self.interval_seconds):
                return
