"""The join QR code on the settings page, as Chromium draws it, read back like a phone's camera would."""

from __future__ import annotations

from urllib.parse import urlsplit

import cv2
import numpy as np
from playwright.sync_api import expect

from web.join import lan_address


def test_the_settings_page_qr_code_reads_as_the_tables_address(phone, server):
    page = phone("/settings")
    qr = page.locator("#join-qr")
    expect(qr).to_be_visible()
    page.wait_for_function("document.querySelector('#join-qr').naturalWidth > 0")
    # Opened as 127.0.0.1 on this machine: the code carries its LAN address instead.
    expected = f"http://{lan_address()}:{urlsplit(server.url).port}/"
    expect(page.locator("#join-url")).to_have_text(expected)
    image = cv2.imdecode(np.frombuffer(qr.screenshot(), np.uint8), cv2.IMREAD_GRAYSCALE)
    text, points, _ = cv2.QRCodeDetectorAruco().detectAndDecode(image)
    assert points is not None and text == expected
    expect(page.locator("#health-link")).to_have_attribute("href", "/healthz")
