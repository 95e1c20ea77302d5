"""Serving the app with waitress: a real WSGI server, multithreaded because every dashboard holds a live stream."""

from __future__ import annotations

import logging
import threading

from flask import Flask
from waitress.server import create_server

log = logging.getLogger(__name__)

LOOP_SECONDS = 0.25


class Server:
    """A waitress server that runs in the foreground (``serve_forever``) or in a thread (tests, the demo).

    We drive waitress's event loop in short slices instead of calling its ``run()`` so that :meth:`stop` can end
    it from another thread cleanly: the loop thread itself closes the sockets it polls.
    """

    def __init__(self, app: Flask, *, host: str, port: int, threads: int = 24) -> None:
        # channel_timeout: an SSE client that vanished is noticed at the next keepalive write.
        self._server = create_server(app, host=host, port=port, threads=threads, channel_timeout=120, ident="companion")
        self.host = host
        self.port = self._server.effective_port
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}/"

    def serve_forever(self) -> None:
        try:
            while not self._stopping.is_set():
                self._server.asyncore.loop(timeout=LOOP_SECONDS, map=self._server._map, count=1)
        finally:
            for channel in list(self._server._map.values()):  # open streams too: browsers must see the server go
                channel.close()
            self._server.close()
            self._server.task_dispatcher.shutdown(timeout=2)
            self._stopped.set()

    def start(self) -> Server:
        self._thread = threading.Thread(target=self.serve_forever, name="waitress", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread:
            self._thread.join(timeout=5)
