"""The join QR codes on the settings page, as Chromium draws them, read back like a phone's
camera would (zxing-cpp): the page's numeric address and, on the table's own Wi-Fi, the
code that joins it, with its name and password in words in each language."""

from __future__ import annotations

import io
from urllib.parse import urlsplit

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from web.join import lan_address


def read_code(locator) -> str:
    """The text of the QR code image ``locator`` shows, once it has loaded."""
    expect(locator).to_be_visible()
    locator.page.wait_for_function("image => image.complete && image.naturalWidth > 0", arg=locator.element_handle())
    (code,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(locator.screenshot())))
    return code.text


def test_the_settings_page_qr_code_reads_as_the_tables_address(phone, server):
    page = phone("/settings")
    # Opened as 127.0.0.1 on this machine: the code carries its LAN address instead.
    expected = f"http://{lan_address()}:{urlsplit(server.url).port}/"
    expect(page.locator("#join-url")).to_have_text(expected)
    assert read_code(page.locator("#join-qr")) == expected
    expect(page.locator("#join-wifi-qr")).to_have_count(0)
    expect(page.locator("#health-link")).to_have_attribute("href", "/healthz")


@pytest.mark.parametrize(("locale", "words"), [
    ("en-US", ("First join the table's own Wi-Fi: point a phone's camera at this code, "
               "or choose the network Dice table with the password roll-them-all.")),
    ("pt-BR", ("Primeiro entre no Wi-Fi da própria mesa: aponte a câmera de um celular para este código, "
               "ou escolha a rede Dice table com a senha roll-them-all.")),
    ("es", ("Primero conéctate al Wi-Fi propio de la mesa: apunta la cámara de un móvil a este código, "
            "o elige la red Dice table con la contraseña roll-them-all.")),
])
def test_on_the_tables_own_wifi_both_codes_and_the_numeric_address_show(phone, server, locale, words):
    # Opened by name (Android phones often cannot resolve .local): the code carries the number.
    # The hotspot's address is this machine's LAN one, standing for the Pi's 10.42.0.1.
    address = lan_address()
    server.app.config.update(HOTSPOT={"ssid": "Dice table", "password": "roll-them-all", "address": address})
    port = urlsplit(server.url).port
    page = phone("/settings", locale=locale, base_url=f"http://localhost:{port}")
    expect(page.locator("#join-wifi")).to_have_text(words)
    assert read_code(page.locator("#join-wifi-qr")) == "WIFI:T:WPA;S:Dice table;P:roll-them-all;;"
    expected = f"http://{address}:{port}/"
    expect(page.locator("#join-url")).to_have_text(expected)
    assert read_code(page.locator("#join-qr")) == expected
