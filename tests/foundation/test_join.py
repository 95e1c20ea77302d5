"""The kiosk's QR code: a tablet's camera reads from it an address that reaches this table, drawn without a network."""

import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

import cv2
import numpy as np
import pytest

from companion import runtime
from companion.config import demo_config
from companion.lan import lan_addresses
from companion.web.join import qr_svg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def demo_table(tmp_path, request):
    """A whole companion as `companion demo` builds it, served by waitress on ``request.param`` (a host)."""
    companion = runtime.build(demo_config(tmp_path / "data", host=request.param, port=0, pin="2468"))
    companion.server.start()
    yield companion
    companion.stop()


def read_qr(svg: bytes) -> str:
    """Draw the SVG's QR modules (segno's path: one ``h`` run per row segment) and read them with OpenCV's decoder.

    The ArUco-based detector: the classic ``QRCodeDetector`` fails on about one valid code in 250 (it read none of
    ``http://192.0.2.2:38325/`` at 8 px a module, which a phone reads), and the port is the OS's pick.
    """
    root = ET.fromstring(svg)
    size = int(root.get("viewBox").split()[2])
    modules = np.full((size, size), 255, np.uint8)
    x = y = 0.0
    path = next(p for p in root.iter(f"{SVG}path") if p.get("class") == "qrline")
    for command, a, b in re.findall(r"([MmHh])(-?[\d.]+)(?:\s+(-?[\d.]+))?", path.get("d")):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            modules[int(y), int(x):int(x + float(a))] = 0
            x += float(a)
    picture = cv2.resize(modules, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    text, _, _ = cv2.QRCodeDetectorAruco().detectAndDecode(picture)
    return text


@pytest.mark.parametrize("demo_table", ["0.0.0.0"], indirect=True)
def test_the_qr_code_holds_the_lan_url_of_this_table_and_that_url_answers(demo_table):
    answer = urllib.request.urlopen(demo_table.url + "join.svg", timeout=10)
    assert answer.headers["Content-Type"].startswith("image/svg+xml")
    assert answer.headers["Cache-Control"] == "no-store"  # the Pi's address may change: never a stale code
    url = read_qr(answer.read())
    assert url == f"http://{lan_addresses()[0]}:{demo_table.server.port}/"
    assert urllib.request.urlopen(url + "healthz", timeout=10).status == 200


@pytest.mark.parametrize("port", [38325, 33389, 80])
def test_a_code_opencv_s_classic_decoder_misread_still_reads_as_its_url(port):
    url = f"http://192.0.2.2:{port}/"  # 38325 and 33389: the classic QRCodeDetector read nothing from these
    assert read_qr(qr_svg(url)) == url


@pytest.mark.parametrize("demo_table", ["0.0.0.0"], indirect=True)
def test_the_kiosk_page_shows_the_qr_code_with_its_caption_and_a_tablet_s_page_does_not(demo_table):
    kiosk = urllib.request.urlopen(demo_table.url + "?kiosk=1", timeout=10).read().decode()
    url = f"http://{lan_addresses()[0]}:{demo_table.server.port}/"
    assert '<img src="/join.svg"' in kiosk and f"<code>{url}</code>" in kiosk
    assert re.search(r'data-i18n="scan_to_join">[^<]+<', kiosk)
    tablet = urllib.request.urlopen(demo_table.url + "?kiosk=0", timeout=10).read().decode()
    assert "/join.svg" not in tablet


@pytest.mark.parametrize("demo_table", ["127.0.0.1"], indirect=True)
def test_a_table_listening_on_loopback_only_offers_no_qr_code(demo_table):
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(demo_table.url + "join.svg", timeout=10)
    assert answer.value.code == 404
    kiosk = urllib.request.urlopen(demo_table.url + "?kiosk=1", timeout=10).read().decode()
    assert "/join.svg" not in kiosk
