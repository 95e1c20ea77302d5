"""Live streams over real waitress: many open screens never starve a player's action, and cost no memory per message.

Streams come from distinct loopback addresses (127.0.0.x) where a test needs more than one address's share.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.web import create_app, streams
from companion.web.server import Server
from tests.conftest import PIN, PLAYERS
from tests.foundation.test_api import read_sse_message

ROLL = {"type": "roll", "dice": ["6"]}


class Stream:
    """One screen's EventSource, as raw HTTP: the hello is read on opening."""

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
        self.connection.request("GET", "/api/stream?lang=en")
        self.response = self.connection.getresponse()
        self.hello = read_sse_message(self.response) if self.response.status == 200 else None

    def next(self) -> dict[str, str]:
        return read_sse_message(self.response)

    def ended(self) -> bool:
        """True once the server has closed the stream (whatever it sent before is read and dropped)."""
        while self.response.fp.read1(65536):
            pass
        return True

    def close(self) -> None:
        self.response.close()  # the socket stays open while the response holds it
        self.connection.close()


def wait_for(condition: Callable[[], Any], seconds: float = 10.0) -> Any:
    ends = time.monotonic() + seconds
    while not (result := condition()):
        assert time.monotonic() < ends, "timed out"
        time.sleep(0.02)
    return result


def act(live: Any) -> tuple[int, Any]:
    return live.client().post("/api/action", ROLL, headers={"X-Table-Pin": PIN})


def retained_bytes(channel: Any) -> int:
    """Bytes a waitress connection keeps in its output buffers, sent or not (a BytesIO keeps what it sent)."""
    total = 0
    for outbuf in channel.outbufs:
        if outbuf.buf is None:
            total += len(outbuf.strbuf)
        else:
            file = outbuf.buf.file
            total += len(file.getvalue()) if hasattr(file, "getvalue") else file.seek(0, 2)
    return total


def test_an_action_is_answered_and_reaches_every_screen_with_100_streams_open(live):
    screens = [Stream(live.port, f"127.0.0.{2 + i}") for i in range(100)]
    assert all(s.response.status == 200 and s.hello["event"] == "hello" for s in screens)
    assert live.server.streams.count == 100

    status, body = act(live)

    assert status == 200 and body["seq"] == 1
    for screen in screens:
        message = screen.next()
        assert message["event"] == "event" and message["id"] == "1"
        assert json.loads(message["data"])["state"]["view"]["players"][0]["position"] == 6
        screen.close()


def test_a_spectators_streams_from_one_address_do_not_block_an_action(live):
    screens = [Stream(live.port) for _ in range(30)]  # more than the server's 8 request threads

    assert act(live)[0] == 200
    assert screens[-1].next()["id"] == "1"
    for screen in screens:
        screen.close()


def test_one_stream_too_many_from_an_address_closes_its_oldest(live):
    screens = [Stream(live.port, "127.0.0.7") for _ in range(streams.STREAMS_PER_ADDRESS + 1)]
    other = Stream(live.port, "127.0.0.8")

    assert screens[0].ended()
    assert live.server.streams.count == streams.STREAMS_PER_ADDRESS + 1
    assert act(live)[0] == 200
    assert screens[1].next()["id"] == screens[-1].next()["id"] == other.next()["id"] == "1"
    for screen in [*screens, other]:
        screen.close()


def test_streams_beyond_the_overall_limit_are_refused_with_retry_after(live, monkeypatch):
    monkeypatch.setattr(streams, "MAX_STREAMS", 3)
    screens = [Stream(live.port, f"127.0.0.{2 + i}") for i in range(3)]

    refused = Stream(live.port, "127.0.0.9")

    assert refused.response.status == 503 and refused.response.getheader("Retry-After")
    assert "at most 3" in json.loads(refused.response.read())["error"]
    screens[0].close()
    wait_for(lambda: live.server.streams.count == 2)
    assert Stream(live.port, "127.0.0.9").hello["event"] == "hello"


def test_closing_the_broker_ends_every_stream(live):
    screens = [Stream(live.port) for _ in range(5)]

    live.session.broker.close()

    assert all(screen.ended() for screen in screens)
    assert Stream(live.port).response.status == 503


def test_a_screen_that_stops_reading_is_closed_instead_of_buffered(live):
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(("127.0.0.1", int(live.port)))
    stuck.sendall(b"GET /api/stream HTTP/1.1\r\nHost: table\r\n\r\n")
    wait_for(lambda: live.server.streams.count == 1)
    channel = live.server.streams.channels()[0]
    big = {"kind": "status", "state": {"seq": 0, "padding": "x" * 200_000}}

    def dropped() -> bool:
        live.session.broker.publish(big)
        time.sleep(0.01)
        return live.server.streams.count == 0

    wait_for(dropped)
    assert not channel.connected and channel.total_outbufs_len == 0
    stuck.close()


def test_messages_sent_to_30_screens_leave_nothing_in_the_output_buffers(live):
    screens = [Stream(live.port, f"127.0.0.{2 + i}") for i in range(30)]
    count, burst, size = 200, 10, 3500  # bursts: several messages meet in one buffer, as in a busy turn
    seen = [0] * len(screens)

    def read(i: int) -> None:
        while json.loads(screens[i].next()["data"])["state"]["n"] != count - 1:
            seen[i] += 1
        seen[i] += 1

    readers = [threading.Thread(target=read, args=(i,)) for i in range(len(screens))]
    for reader in readers:
        reader.start()
    for n in range(count):
        live.session.broker.publish({"kind": "status", "state": {"seq": 0, "n": n, "padding": "x" * size}})
        if n % burst == burst - 1:  # every screen has its burst before the next: one delivery, however slow the loop
            wait_for(lambda n=n: min(seen) > n, seconds=20)
    for reader in readers:
        reader.join(timeout=20)

    assert seen == [count] * len(screens)
    channels = wait_for(lambda: [c for c in live.server.streams.channels() if c.total_outbufs_len == 0])
    assert len(channels) == len(screens)
    # What was sent is gone: at most the last delivery is kept (one burst), not all 200 messages (700 KB).
    assert all(len(c.outbufs) == 1 and retained_bytes(c) < (burst + 1) * size for c in channels)
    for screen in screens:
        screen.close()


def test_camera_views_beyond_the_limit_are_refused_and_actions_still_answered(empty_table):
    from companion.web.pages import MJPEG_MAX_VIEWERS

    def view() -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", empty_table.port, timeout=10)
        connection.request("GET", "/camera.mjpg")
        return connection.getresponse()

    viewers = [view() for _ in range(MJPEG_MAX_VIEWERS)]
    assert all(v.status == 200 and v.readline() == b"--frame\r\n" for v in viewers)
    refused = view()
    assert refused.status == 503 and refused.getheader("Retry-After")
    assert empty_table.client().get("/api/state")[0] == 200

    viewers[0].close()  # the server notices at its next frame (at most MJPEG_REPEAT_SECONDS) and frees the place
    assert wait_for(lambda: view().status == 200)
    for viewer in viewers[1:]:
        viewer.close()


def test_a_stopped_server_is_never_woken_however_long_its_hub_is_busy(session, monkeypatch):
    """`companion demo` stopped by SIGTERM under qemu logged `OSError: [Errno 9] Bad file descriptor` from the
    streams thread: its backlog outlasted the server's wait for it, and its next broadcast pulled the trigger the
    server had closed (a descriptor another file may have taken by then). Here one message takes 0.5 s to
    serialise and the server waits 0.05 s."""
    failures: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))
    monkeypatch.setattr(streams, "STOP_SECONDS", 0.05)
    busy = threading.Event()

    def slow(_session: Any, message: dict[str, Any]) -> dict[str, Any]:
        busy.set()
        time.sleep(0.5)
        return message

    monkeypatch.setattr(streams, "with_log_lines", slow)
    session.new_game("dice-race", PLAYERS, seed=3)
    server = Server(create_app(session, control_pin=PIN, default_game="dice-race"), host="127.0.0.1", port=0,
                    threads=2).start()
    screen = Stream(server.port)
    for _ in range(3):  # a backlog: three messages of half a second each
        session.set_status(buttons={"enabled": False})
    assert busy.wait(5)
    server.stop()
    hub = server.streams._thread
    hub.join(timeout=5)

    assert not hub.is_alive(), "the hub's thread went on through the backlog after the stop"
    assert failures == []
    assert screen.ended()
    screen.close()
    session.store.close()


def test_the_trigger_outlives_every_request_thread_when_the_server_stops(session, monkeypatch):
    """A SIGTERM'd demo once logged `OSError: [Errno 9] Bad file descriptor` from a request thread: the stop closed
    the listening server along with the connections, which closes the trigger a finishing request wakes the loop
    by. Here a state request takes 0.5 s and the stop comes while it runs."""
    session.new_game("dice-race", PLAYERS, seed=3)
    server = Server(create_app(session, control_pin=PIN, default_game="dice-race"), host="127.0.0.1", port=0,
                    threads=2).start()
    running = threading.Event()
    snapshot = session.snapshot

    def slow() -> dict[str, Any]:
        running.set()
        time.sleep(0.5)
        return snapshot()

    monkeypatch.setattr(session, "snapshot", slow)
    trigger, threads_left = server._server.trigger, []
    close = trigger.close

    def noting_threads_left() -> None:
        threads_left.append(len(server._server.task_dispatcher.threads))
        close()

    monkeypatch.setattr(trigger, "close", noting_threads_left)
    client = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    threading.Thread(target=lambda: client.request("GET", "/api/state"), daemon=True).start()
    assert running.wait(5)
    server.stop()

    assert threads_left[0] == 0
    client.close()
    session.store.close()
