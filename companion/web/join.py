"""``/join.svg``: a QR code of the address tablets open, shown on the kiosk so a player points a tablet's camera at
the Pi's screen instead of typing an address. Drawn here by segno: nothing comes from the network.

The address is the server's (``LISTEN_ON``: host and port, set where the server is bound) on this machine's LAN,
looked up at each request: a Pi often joins the Wi-Fi after the companion started.
"""

from __future__ import annotations

import io
from typing import Any

from flask import Blueprint, Response, abort, current_app

from companion.lan import tablet_urls

join = Blueprint("join", __name__)


def join_url() -> str | None:
    """The first address a tablet can open (the default route's), or None: listening on loopback only, not on a
    network yet, or an app that serves no socket (tests)."""
    listen_on = current_app.config.get("LISTEN_ON")
    urls = tablet_urls(*listen_on) if listen_on else []
    return urls[0] if urls else None


@join.app_context_processor
def join_context() -> dict[str, Any]:
    """Templates call ``join_url()`` only where they show it (the kiosk): the look-up runs ``ip``."""
    return {"join_url": join_url}


@join.get("/join.svg")
def join_svg() -> Response:
    url = join_url()
    if url is None:
        abort(404, description="no address on the LAN: the server listens on this machine only, or no network")
    return Response(qr_svg(url), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


def qr_svg(url: str) -> bytes:
    """Dark on white with the standard 4-module quiet zone: tablets' cameras read it off a dark kiosk page."""
    import segno  # here, not at start: a restarted table answers its screens before it draws a QR code

    drawing = io.BytesIO()
    segno.make(url, error="m").save(drawing, kind="svg", border=4, dark="#000", light="#fff", omitsize=True,
                                     xmldecl=False, title=url)
    return drawing.getvalue()
