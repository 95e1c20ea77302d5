"""The addresses tablets on the LAN open the dashboard at: printed at start-up and drawn as the kiosk's QR code.

Found without sending anything: "connecting" a UDP socket only makes the kernel choose the source address of the
route to a private address (no packet leaves), and ``ip -j addr`` (or, without iproute2, the host name's own
addresses) adds every other interface. Looked up afresh each time: a Pi often gets its address after it started.
"""

from __future__ import annotations

import ipaddress
import json
import shutil
import socket
import subprocess

ALL_INTERFACES = ("0.0.0.0", "", "::")
"""Listening hosts that mean every interface."""

ROUTE_PROBE = ("10.255.255.255", 9)
"""Any private address will do: only the route to it is looked up."""


def tablet_urls(host: str, port: int) -> list[str]:
    """The dashboard URLs another machine can open for a server listening on ``host``: every LAN address when it
    listens on all interfaces, ``host`` itself when it is one address or a name, none when only loopback."""
    if host in ALL_INTERFACES:
        return [_url(address, port) for address in lan_addresses()]
    try:
        if ipaddress.ip_address(host).is_loopback:
            return []
    except ValueError:
        pass  # a host name: whoever can resolve it can open it
    return [_url(host, port)]


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other machines can reach (no loopback or link-local), the one of the default
    route first: it is the one a tablet on the same Wi-Fi most likely shares a network with."""
    found = [_route_address(), *_interface_addresses()]
    return [address for address in dict.fromkeys(found) if address and _reachable(address)]


def _route_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)  # UDP: sets the peer, sends nothing
            return probe.getsockname()[0]
    except OSError:  # no route at all: not on a network
        return None


def _interface_addresses() -> list[str]:
    ip = shutil.which("ip")
    if ip:
        try:
            listing = subprocess.run([ip, "-j", "-4", "addr", "show", "up"], capture_output=True, text=True,
                                     timeout=2, check=True).stdout
            return [entry["local"] for link in json.loads(listing) for entry in link.get("addr_info", [])
                    if "local" in entry]
        except (OSError, subprocess.SubprocessError, ValueError, TypeError, KeyError):
            pass  # an iproute2 without JSON output: fall back to the host name
    try:
        return [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        return []


def _reachable(address: str) -> bool:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (parsed.is_loopback or parsed.is_link_local or parsed.is_unspecified or parsed.is_multicast)


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"
