"""A thread that follows a table's broker: the way hardware hears what the table is doing.

The table (a ``companion.session.TableSession``) publishes every change (an event, a pending roll, a cursor move,
a status) with the full snapshot. The status light and the buzzer react to those messages, each in its own thread,
so a slow LED or buzzer never holds up the table (the broker drops a slow follower's oldest messages instead of
waiting; every message carries the whole state, so the next one heals it).

hw knows the table only by the shape of :class:`Followed` (a broker to subscribe to, a snapshot), never by import:
the companion depends on hw, not the other way round.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any, Protocol

log = logging.getLogger(__name__)

Message = dict[str, Any]
"""One published change: ``{"kind": ..., "state": snapshot, ...}``."""


class Broker(Protocol):
    """Fan-out of a table's messages; a subscriber gets its own queue, ``None`` in it when the table goes away."""

    def subscribe(self) -> queue.Queue[Message | None]: ...

    def unsubscribe(self, q: queue.Queue[Message | None]) -> None: ...


class Followed(Protocol):
    """What hardware follows: a table that publishes every change and can say its whole state now."""

    @property
    def broker(self) -> Broker: ...

    def snapshot(self) -> dict[str, Any]: ...


class SessionFollower:
    """Calls :meth:`follow` with the current snapshot, then with every message the table publishes.

    Subclasses override :meth:`follow`; :meth:`close` stops the thread. Exceptions in :meth:`follow` are logged
    and the thread carries on: a broken LED must not stop the next message.
    """

    thread_name = "session-follower"

    def __init__(self, table: Followed) -> None:
        self.table = table
        self._queue = table.broker.subscribe()  # before the snapshot, so nothing falls in between
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)

    def start(self) -> SessionFollower:
        self._thread.start()
        return self

    def follow(self, message: Message) -> None:  # pragma: no cover - overridden
        """One message: ``{"kind": ..., "state": snapshot, ...}``; the first has ``kind == "snapshot"``."""

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        self.table.broker.unsubscribe(self._queue)
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass  # the thread checks _closed after every message
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        self._safely({"kind": "snapshot", "state": self.table.snapshot()})
        while not self._closed.is_set():
            message = self._queue.get()
            if message is None or self._closed.is_set():
                return
            self._safely(message)

    def _safely(self, message: Message) -> None:
        try:
            self.follow(message)
        except Exception:
            log.exception("%s failed on a %r message", type(self).__name__, message.get("kind"))
