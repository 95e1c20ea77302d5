"""A thread that follows a TableSession's broker: the way hardware hears what the table is doing.

The session publishes every change (an event, a pending roll, a cursor move, a status) with the full snapshot.
The status light, the buzzer and the buttons' "needs attention" all react to those messages, each in its own
thread, so a slow LED or buzzer never holds up the session (the broker drops a slow follower's oldest messages
instead of waiting; every message carries the whole state, so the next one heals it).
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any

from companion.session import TableSession

log = logging.getLogger(__name__)


class SessionFollower:
    """Calls :meth:`follow` with the current snapshot, then with every message the session publishes.

    Subclasses override :meth:`follow`; :meth:`close` stops the thread. Exceptions in :meth:`follow` are logged
    and the thread carries on: a broken LED must not stop the next message.
    """

    thread_name = "session-follower"

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self._queue = session.broker.subscribe()  # before the snapshot, so nothing falls in between
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)

    def start(self) -> SessionFollower:
        self._thread.start()
        return self

    def follow(self, message: dict[str, Any]) -> None:  # pragma: no cover - overridden
        """One message: ``{"kind": ..., "state": snapshot, ...}``; the first has ``kind == "snapshot"``."""

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        self.session.broker.unsubscribe(self._queue)
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass  # the thread checks _closed after every message
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        self._safely({"kind": "snapshot", "state": self.session.snapshot()})
        while not self._closed.is_set():
            message = self._queue.get()
            if message is None or self._closed.is_set():
                return
            self._safely(message)

    def _safely(self, message: dict[str, Any]) -> None:
        try:
            self.follow(message)
        except Exception:
            log.exception("%s failed on a %r message", type(self).__name__, message.get("kind"))
