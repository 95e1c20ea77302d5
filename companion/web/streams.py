"""The live stream every screen reads (``GET /api/stream``, Server-Sent Events), served without holding a thread.

A stream lives for hours, so it must not be an ordinary WSGI response: waitress would give each open dashboard
one of its request threads for good, and thirty tablets would leave no thread to answer a player's action.
Instead a :class:`StreamChannel` (waitress's connection object) answers a stream request itself, hands the
connection to the :class:`StreamHub` and frees its thread at once. The hub listens to the table's broker with one
queue and one thread, turns each message into SSE bytes once, and hands those bytes to every open stream.

Every write to a stream's socket happens on waitress's loop thread (:meth:`StreamHub.pump`, called by the server
loop), because waitress flushes a connection without a lock once no request runs on it. Each delivery goes into a
fresh output buffer: waitress's buffers keep every byte they ever held until they are dropped, which made a
dashboard cost 3.4 KB per message for as long as it stayed open.

Limits, so that spectators can never crowd out the table: at most :data:`STREAMS_PER_ADDRESS` streams per client
address (one more closes that address's oldest: a reloaded tablet leaves a dead stream behind) and
:data:`MAX_STREAMS` in all (beyond it a 503 with ``Retry-After``). A client that falls
:data:`MAX_BACKLOG_BYTES` behind is closed; its browser reconnects and the ``hello`` message brings it up to date.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from waitress.buffers import OverflowableBuffer
from waitress.channel import HTTPChannel

from companion.controls import with_option_labels
from companion.session import TableSession
from companion.web import logtext

log = logging.getLogger(__name__)

STREAM_PATH = "/api/stream"
MAX_STREAMS = 256
"""Open streams in all; one more is answered 503. Each costs a socket and a little memory, never a thread."""
STREAMS_PER_ADDRESS = 16
"""Open streams per client address; one more closes that address's oldest stream (newest wins)."""
MAX_BACKLOG_BYTES = 256 * 1024
"""Bytes a stream may have waiting to be sent (about 75 full-state messages) before it is closed as too slow."""
KEEPALIVE_SECONDS = 15.0
"""A comment line this often when nothing happens: proxies keep the stream open and dead clients are found."""
RETRY_AFTER_SECONDS = 10
STOP_SECONDS = 5.0
"""How long a stopping server waits for the hub's thread (at most one message's serialising, then it ends)."""

HEAD = (
    b"HTTP/1.1 200 OK\r\n"
    b"Content-Type: text/event-stream; charset=utf-8\r\n"
    b"Cache-Control: no-cache\r\n"
    b"X-Accel-Buffering: no\r\n"
    b"Connection: close\r\n"  # the body runs until the connection ends: no length, no chunks
    b"\r\n"
)


def sse(message: dict[str, Any]) -> bytes:
    """One message as an SSE event: ``id`` is the state's seq, the event name its kind, the data compact JSON."""
    seq = message.get("state", {}).get("seq", 0)
    data = json.dumps(message, separators=(",", ":"), allow_nan=False)  # a browser's JSON.parse takes no NaN
    return f"id: {seq}\nevent: {message['kind']}\ndata: {data}\n\n".encode()


def labelled(message: dict[str, Any]) -> dict[str, Any]:
    """A message whose table state names its options in every language (``controls.with_option_labels``)."""
    if not message.get("state"):
        return message
    return {**message, "state": with_option_labels(message["state"])}


def with_log_lines(session: TableSession, message: dict[str, Any]) -> dict[str, Any]:
    """An event message with its own log entry in every language (``"log": {lang: entry}``), so a screen adds the
    new lines as they come instead of asking for the log again. Each entry is told by its own event (an undo looks
    up what it took back), so this costs one entry per language, however long the game."""
    state, event = message.get("state") or {}, message.get("event")
    game = state.get("game")
    if message.get("kind") != "event" or not event or not game:
        return message

    def earlier(seq: int) -> dict[str, Any] | None:
        found = session.store.event(game["number"], seq)
        return found.to_json() if found else None

    entries = {}
    for lang in logtext.LANGUAGES:
        names = logtext.names_for(game["id"], state.get("view"), lang)
        entries[lang] = logtext.log_entries([event], lang=lang, names=names, game=game["id"], earlier=earlier)[0]
    return {**message, "log": entries}


def refusal(status: str, error: str) -> bytes:
    body = json.dumps({"error": error}).encode()
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        f"Retry-After: {RETRY_AFTER_SECONDS}\r\nConnection: close\r\n\r\n"
    ).encode() + body


class StreamChannel(HTTPChannel):
    """A waitress connection that turns into a live stream when it asks for ``GET /api/stream``.

    Once streaming, the channel takes no more requests (what the client sends is read and dropped, so a closed
    connection is still noticed) and only the hub writes to it.
    """

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None, *, hub: StreamHub) -> None:
        self.hub = hub
        self.streaming = False
        self.pending: list[bytes] = []
        """Bytes for the client, queued by the hub under its lock and moved into the output buffers by pump()."""
        self.ending: str | None = None
        """How the stream ends, once the hub lets it go: "finish" once the pending bytes are sent, "drop" at once."""
        super().__init__(server, sock, addr, adj, map)

    def service(self) -> None:
        request = self.requests[0]
        if request.error or request.command != "GET" or request.path != STREAM_PATH:
            super().service()
            return
        self.streaming = True  # before requests is emptied: from then on received() drops what comes in
        self.hub.open(self)
        with self.requests_lock:
            for queued in self.requests:
                queued.close()
            self.requests = []
        self.last_activity = time.time()
        self.hub.wake()

    def received(self, data: bytes) -> bool:
        if self.streaming:
            return True
        return super().received(data)

    def del_channel(self, map: Any = None) -> None:
        if self.streaming:
            self.hub.forget(self)
        super().del_channel(map)

    def deliver(self, data: bytes) -> None:
        """Queue ``data`` for sending, on the loop thread, in a buffer of its own that is dropped once sent."""
        buffer = OverflowableBuffer(self.adj.outbuf_overflow)
        buffer.append(data)
        if self.total_outbufs_len == 0 and len(self.outbufs) == 1:
            self.outbufs[0].close()
            self.outbufs = [buffer]
        else:
            self.outbufs.append(buffer)
        self.total_outbufs_len += len(data)


class StreamHub:
    """The table's broker fanned out to every open stream: one queue, one thread, each message serialised once."""

    def __init__(self, session: TableSession, wake: Callable[[], None]) -> None:
        self.session = session
        self._wake = wake
        """Wakes waitress's loop thread (its trigger), which then calls :meth:`pump`."""
        self._lock = threading.Lock()
        self._streams: dict[StreamChannel, None] = {}  # oldest first
        self._dirty: set[StreamChannel] = set()
        self._closed = False
        self._stopping = threading.Event()
        """Set by :meth:`stop`: the hub's thread ends at its next message instead of serialising the backlog."""
        self._stopped = False
        """Set by :meth:`stop` under the lock: from then on nothing wakes the loop, whose trigger is closed next."""
        self._queue: queue.Queue[dict[str, Any] | None] | None = None
        self._thread: threading.Thread | None = None

    @property
    def count(self) -> int:
        with self._lock:
            return len(self._streams)

    def channels(self) -> list[StreamChannel]:
        with self._lock:
            return list(self._streams)

    def start(self) -> None:
        self._queue = self.session.broker.subscribe()
        self._thread = threading.Thread(target=self._run, args=(self._queue,), name="streams", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the hub's thread (the server is stopping); the server itself closes the connections.

        Once this returns the hub never wakes the loop again, even if its thread is still busy: the server closes
        the trigger next, and a wake after that raised ``OSError: [Errno 9] Bad file descriptor`` in the thread
        (seen on a slow machine whose backlog of messages outlasted the join), or wrote into whatever file had
        reused the trigger's descriptor."""
        self._stopping.set()
        if self._queue is not None:
            self.session.broker.unsubscribe(self._queue)
            while True:
                try:
                    self._queue.put_nowait(None)
                    break
                except queue.Full:
                    self._queue.get_nowait()
        if self._thread:
            self._thread.join(timeout=STOP_SECONDS)
        with self._lock:
            self._stopped = True

    def wake(self) -> None:
        """Wake waitress's loop thread so it calls :meth:`pump`; nothing once the hub has stopped."""
        with self._lock:  # the lock :meth:`stop` takes to say so: no wake can slip in after it returns
            if not self._stopped:
                self._wake()

    # -- on a request thread ----------------------------------------------------------------------------------------

    def open(self, channel: StreamChannel) -> None:
        """Admit a new stream with the full state as its first message, or queue a 503 for it."""
        address = _address(channel)
        with self._lock:
            self._dirty.add(channel)
            if self._closed:
                self._refuse(channel, "the table is shutting down")
                return
            same = [other for other in self._streams if _address(other) == address]
            if len(same) >= STREAMS_PER_ADDRESS:
                self._end(same[0], "drop")
                log.info("stream limit for %s: closed its oldest stream", address)
            elif len(self._streams) >= MAX_STREAMS:
                self._refuse(channel, f"too many live screens (at most {MAX_STREAMS}); try again soon")
                return
            try:
                # Under the lock: every message the hub hands out from now on reaches this stream after its hello.
                hello = sse({"kind": "hello", "state": with_option_labels(self.session.snapshot())})
            except Exception:
                log.exception("could not open a stream")
                self._refuse(channel, "internal error", status="500 Internal Server Error")
                return
            self._streams[channel] = None
            channel.pending.append(HEAD + hello)

    def _refuse(self, channel: StreamChannel, error: str, status: str = "503 Service Unavailable") -> None:
        channel.pending.append(refusal(status, error))
        channel.ending = "finish"

    # -- on the hub's thread ----------------------------------------------------------------------------------------

    def _run(self, messages: queue.Queue[dict[str, Any] | None]) -> None:
        while True:
            try:
                message = messages.get(timeout=KEEPALIVE_SECONDS)
            except queue.Empty:
                self._broadcast(f": keepalive {time.time():.0f}\n\n".encode())
                continue
            # The table is going away: every stream ends once its data is out; a backlog left is not serialised.
            if message is None or self._stopping.is_set():
                with self._lock:
                    self._closed = True
                    for channel in list(self._streams):
                        self._end(channel, "finish")
                self.wake()
                return
            try:
                data = sse(with_log_lines(self.session, labelled(message)))
            except (TypeError, ValueError):  # one bad message must not silence every screen for good
                log.exception("a %s message is not JSON; not sent", message.get("kind"))
                continue
            self._broadcast(data)

    def _broadcast(self, data: bytes) -> None:
        with self._lock:
            for channel in self._streams:
                channel.pending.append(data)
            self._dirty.update(self._streams)
        self.wake()

    def _end(self, channel: StreamChannel, how: str) -> None:
        """With the lock held: the channel leaves the hub and is closed by the next pump."""
        self._streams.pop(channel, None)
        if channel.ending != "drop":
            channel.ending = how
        self._dirty.add(channel)

    # -- on waitress's loop thread ----------------------------------------------------------------------------------

    def pump(self) -> None:
        """Move queued bytes into the streams' output buffers; close the streams that ended or fell too far behind.

        Called by the server after each turn of waitress's loop, the one thread that writes to sockets.
        """
        with self._lock:
            dirty, self._dirty = self._dirty, set()
            work = [(channel, channel.pending, channel.ending) for channel in dirty]
            for channel in dirty:
                channel.pending = []
        for channel, pending, ending in work:
            if not channel.connected:  # it closed before it became a stream, so it never told the hub
                self.forget(channel)
                continue
            data = b"".join(pending)
            if ending == "drop" or channel.will_close:  # will_close: waitress's idle timeout gave up on it
                channel.handle_close()
            elif channel.total_outbufs_len + len(data) > MAX_BACKLOG_BYTES:
                log.info("closed a stream to %s: it fell %d bytes behind", _address(channel),
                         channel.total_outbufs_len + len(data))
                channel.handle_close()
            else:
                if data:
                    channel.deliver(data)
                if ending == "finish":
                    channel.close_when_flushed = True

    def forget(self, channel: StreamChannel) -> None:
        """The connection closed (either side): it leaves the hub."""
        with self._lock:
            self._streams.pop(channel, None)
            self._dirty.discard(channel)


def _address(channel: HTTPChannel) -> Any:
    return channel.addr[0] if isinstance(channel.addr, tuple) else channel.addr
