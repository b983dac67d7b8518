"""GET /join.svg: a QR code of the numeric address phones open; GET /join-wifi.svg: the
table's own Wi-Fi while it is up; the settings page showing them. The codes are read
back by zxing-cpp, the decoder of many phones' camera apps."""

from __future__ import annotations

import html
import io
import re
import socket

import pytest
import segno
import zxingcpp
from PIL import Image

from web.join import lan_address, wifi_payload

#: A hotspot whose address is not this machine's: the table's own Wi-Fi is not up.
HOTSPOT_DOWN = {"ssid": "Dice table", "password": "roll-them-all", "address": "192.0.2.42"}


def decode(png: bytes) -> str:
    (code,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert code.format == zxingcpp.BarcodeFormat.QRCode
    return code.text


def served_code(app, path: str, host: str, text: str, title: str) -> None:
    """``path`` answers the very code segno draws for ``text``, which reads back as ``text``."""
    response = app.test_client().get(path, headers={"Host": host})
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.headers["Cache-Control"] == "no-store" and "Host" in response.vary
    # The very code segno draws for that text, with the options a phone's camera needs...
    expected = io.BytesIO()
    segno.make_qr(text, error="m").save(expected, kind="svg", border=4, light="#fff",
                                         omitsize=True, xmldecl=False, title=title)
    assert response.get_data(as_text=True) == expected.getvalue().decode()
    # ...and that code, drawn in pixels, reads back as the text.
    png = io.BytesIO()
    segno.make_qr(text, error="m").save(png, kind="png", scale=6, border=4)
    assert decode(png.getvalue()) == text


def join_url(app, host: str, **config) -> str:
    app.config.update(config)
    svg = app.test_client().get("/join.svg", headers={"Host": host}).get_data(as_text=True)
    url = re.search(r"<title>(.*?)</title>", svg).group(1)
    served_code(app, "/join.svg", host, url, title=url)
    return url


def own_address() -> str:
    """This machine's LAN address, checked to be one of its own."""
    lan = lan_address()
    assert lan is not None and not lan.startswith("127.")
    with socket.socket() as probe:
        probe.bind((lan, 0))  # only an address of this machine can be bound
    return lan


def test_a_phone_that_opened_an_address_gets_it(app):
    assert join_url(app, "192.168.1.7:8000") == "http://192.168.1.7:8000/"
    assert join_url(app, "[fe80::1]:8000") == "http://[fe80::1]:8000/"


@pytest.mark.parametrize("host", ["dicelens.local:8000", "localhost:8000", "127.0.0.1:8000", "[::1]:8000"])
def test_a_name_or_localhost_gives_the_numeric_address(app, host):
    # Many Android phones cannot resolve .local names: the code carries the address.
    lan = own_address()
    assert join_url(app, host, SERVE_HOST="0.0.0.0") == f"http://{lan}:8000/"
    assert join_url(app, host, SERVE_HOST="192.0.2.77") == "http://192.0.2.77:8000/"
    assert join_url(app, host.replace(":8000", ""), SERVE_HOST="::") == f"http://{lan}/"


def test_with_no_address_known_the_name_stays(app, monkeypatch):
    monkeypatch.setattr("web.join.lan_address", lambda: None)  # no network but loopback
    assert join_url(app, "dicelens.local:8000", SERVE_HOST="0.0.0.0") == "http://dicelens.local:8000/"


def test_served_to_this_machine_only_the_page_says_so(app):
    app.config["SERVE_HOST"] = "127.0.0.1"
    assert join_url(app, "localhost:8000") == "http://localhost:8000/"
    page = app.test_client().get("/settings", headers={"Host": "localhost:8000"}).get_data(as_text=True)
    assert 'id="join-local"' in page and "--host 0.0.0.0" in page


def test_a_configured_address_wins(app):
    assert join_url(app, "localhost:8000", JOIN_URL="http://table.example:8000/") == "http://table.example:8000/"


def test_the_settings_page_shows_the_code_and_the_address(app):
    app.config["SERVE_HOST"] = "0.0.0.0"
    url = f"http://{own_address()}:8000/"
    page = app.test_client().get("/settings", headers={"Host": "dicelens.local:8000"}).get_data(as_text=True)
    assert re.search(rf'<img id="join-qr" src="/join.svg"[^>]*alt="QR code of {url}"', page)
    assert f'<a id="join-url" href="{url}">{url}</a>' in page
    assert 'id="join-local"' not in page and 'id="join-wifi' not in page


def test_on_the_tables_own_wifi_the_codes_join_it_and_open_its_address(app):
    # Its address stands for 10.42.0.1: one of this machine's, as that one is on the Pi.
    address = own_address()
    app.config.update(SERVE_HOST="0.0.0.0", HOTSPOT={"ssid": "Dice table", "password": "roll-them-all",
                                                     "address": address})
    assert join_url(app, "dicelens.local:8000") == f"http://{address}:8000/"
    served_code(app, "/join-wifi.svg", "dicelens.local:8000", "WIFI:T:WPA;S:Dice table;P:roll-them-all;;",
                title="Dice table")
    page = app.test_client().get("/settings", headers={"Host": "dicelens.local:8000"}).get_data(as_text=True)
    assert re.search(r'<img id="join-wifi-qr" src="/join-wifi.svg"[^>]*alt="QR code of the Wi-Fi Dice table"', page)
    assert "the network Dice table with the password roll-them-all" in page


@pytest.mark.parametrize(("lang", "reason"), [
    ("en", "the table's own Wi-Fi is not on"), ("pt-BR", "o Wi-Fi próprio da mesa não está ligado"),
    ("es", "el Wi-Fi propio de la mesa no está encendido")])
def test_while_the_hotspot_is_down_there_is_no_wifi_code(app, lang, reason):
    with socket.socket() as probe, pytest.raises(OSError):
        probe.bind((HOTSPOT_DOWN["address"], 0))  # not an address of this machine
    app.config.update(SERVE_HOST="0.0.0.0", HOTSPOT=HOTSPOT_DOWN)
    response = app.test_client().get("/join-wifi.svg", headers={"Accept-Language": lang})
    assert response.status_code == 404 and reason in html.unescape(response.get_data(as_text=True))
    assert join_url(app, "dicelens.local:8000") == f"http://{own_address()}:8000/"
    page = app.test_client().get("/settings").get_data(as_text=True)
    assert 'id="join-wifi' not in page and "roll-them-all" not in page


@pytest.mark.parametrize(("ssid", "password", "payload"), [
    ("dicelens", "roll-them-all", "WIFI:T:WPA;S:dicelens;P:roll-them-all;;"),
    ('a;b,c:d\\e"f', "p;a,s:s\\w\"d", r'WIFI:T:WPA;S:a\;b\,c\:d\\e\"f;P:p\;a\,s\:s\\w\"d;;'),
    ("Mesa da Ana", "ação-à-vista", "WIFI:T:WPA;S:Mesa da Ana;P:ação-à-vista;;"),
])
def test_the_wifi_payload_escapes_the_specials(ssid, password, payload):
    assert wifi_payload(ssid, password) == payload
    png = io.BytesIO()
    segno.make_qr(payload, error="m").save(png, kind="png", scale=6, border=4)
    assert decode(png.getvalue()) == payload
