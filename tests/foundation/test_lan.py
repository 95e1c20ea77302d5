"""The addresses tablets are told to open: this machine's real interfaces, never loopback, the server's port."""

import ipaddress
import socket
import urllib.request

import pytest

from companion import lan
from companion.lan import lan_addresses, tablet_urls


def test_lan_addresses_are_this_machine_s_reachable_ipv4_addresses_without_loopback():
    addresses = lan_addresses()
    assert addresses, "this machine has a network interface"
    for address in addresses:
        parsed = ipaddress.ip_address(address)
        assert parsed.version == 4 and not parsed.is_loopback and not parsed.is_link_local
        with socket.socket() as probe:
            probe.bind((address, 0))  # an address of this machine: it can be bound


def test_the_default_route_s_address_comes_first():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.168.255.255", 9))
        route = probe.getsockname()[0]
    assert lan_addresses()[0] == route


def test_without_iproute2_the_host_name_s_addresses_still_leave_out_loopback(monkeypatch):
    monkeypatch.setenv("PATH", "")  # no `ip`: the host name's addresses, which are often 127.0.1.1
    assert lan.shutil.which("ip") is None
    assert all(not ipaddress.ip_address(a).is_loopback for a in lan_addresses())


def test_listening_on_all_interfaces_gives_one_url_per_lan_address_with_the_port():
    assert tablet_urls("0.0.0.0", 8090) == [f"http://{address}:8090/" for address in lan_addresses()]


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.1.1", "::1"])
def test_listening_on_loopback_gives_tablets_no_url(host):
    assert tablet_urls(host, 8080) == []


@pytest.mark.parametrize(("host", "url"), [("192.168.1.20", "http://192.168.1.20:8080/"),
                                           ("table.local", "http://table.local:8080/"),
                                           ("fd00::5", "http://[fd00::5]:8080/")])
def test_listening_on_one_address_or_name_gives_that_one(host, url):
    assert tablet_urls(host, 8080) == [url]


def test_a_server_on_all_interfaces_answers_at_every_url_given(live_on_all_interfaces):
    urls = tablet_urls("0.0.0.0", live_on_all_interfaces)
    assert urls
    for url in urls:
        assert urllib.request.urlopen(url + "healthz", timeout=5).status == 200


@pytest.fixture
def live_on_all_interfaces(session):
    from companion.web import create_app
    from companion.web.server import Server

    server = Server(create_app(session, control_pin="2468"), host="0.0.0.0", port=0, threads=2).start()
    yield server.port
    session.broker.close()
    server.stop()
