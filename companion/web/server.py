"""Serving the app with waitress: a real WSGI server whose request threads answer requests, never hold streams.

The live streams (``/api/stream``) are served by :mod:`companion.web.streams` on waitress's loop thread, so the
``threads`` only bound how many requests run at once.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from waitress.server import create_server

from companion.web.streams import MAX_STREAMS, StreamChannel, StreamHub

log = logging.getLogger(__name__)

LOOP_SECONDS = 0.25
SPARE_CONNECTIONS = 64
"""Connections beyond the streams' limit: requests, and the streams over it that must be answered 503."""
STOP_SECONDS = 10
"""How long a stop waits for the requests still running: below systemd's stop timeout (90 s)."""


class Server:
    """A waitress server that runs in the foreground (``serve_forever``) or in a thread (tests, the demo).

    We drive waitress's event loop in short slices instead of calling its ``run()`` so that :meth:`stop` can end
    it from another thread cleanly: the loop thread itself closes the sockets it polls. After each slice the loop
    thread also hands the live streams their messages (:meth:`StreamHub.pump`).
    """

    def __init__(self, app: Flask, *, host: str, port: int, threads: int = 24) -> None:
        self.answered = threading.Event()
        """Set once the first request has been answered: what can wait (the pins, the camera) starts then, so a
        restarted table's first answer does not share the CPU with their imports."""
        # channel_timeout: a connection with no traffic for this long is closed (streams get keepalives).
        self._server = create_server(self._noting_answers(app), host=host, port=port, threads=threads,
                                     channel_timeout=120,
                                     connection_limit=MAX_STREAMS + SPARE_CONNECTIONS, ident="companion")
        self.streams = StreamHub(app.extensions["table_session"], wake=self._server.pull_trigger)
        self._server.channel_class = functools.partial(StreamChannel, hub=self.streams)
        self.host = host
        self.port = self._server.effective_port
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def _noting_answers(self, app: Flask) -> Callable[..., Iterable[bytes]]:
        def wsgi(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
            try:
                return app(environ, start_response)
            finally:
                self.answered.set()
        return wsgi

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}/"

    def serve_forever(self) -> None:
        self.streams.start()
        try:
            while not self._stopping.is_set():
                self._server.asyncore.loop(timeout=LOOP_SECONDS, map=self._server._map, count=1)
                self.streams.pump()
        finally:
            self.streams.stop()  # first: its thread wakes the loop through the trigger that close() ends
            # Only the connections (open streams too: browsers must see the server go). The map also holds the
            # listening server, whose close() closes the trigger a request still running must wake the loop by.
            for channel in list(self._server._map.values()):
                if isinstance(channel, StreamChannel):
                    channel.close()
            # Requests still running end before the trigger closes: each wakes the loop through it when done (a
            # request slowed by a busy machine outlasted 2 s, and its wake met a closed trigger: EBADF).
            self._server.task_dispatcher.shutdown(timeout=STOP_SECONDS)
            self._server.close()

    def start(self) -> Server:
        self._thread = threading.Thread(target=self.serve_forever, name="waitress", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """End the loop; from a thread started here, wait for it: the requests still running get STOP_SECONDS."""
        self._stopping.set()
        if self._thread:
            self._thread.join(timeout=STOP_SECONDS + 5)
            if self._thread.is_alive():
                log.warning("the server's loop still runs %d s after it was asked to stop", STOP_SECONDS + 5)
