"""Settings' camera setup view (issue 23): the latest frame with its dice boxed, and whether
they are a size the readers read, in the three languages."""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import expect

ADVICE = {
    "en-US": ("dice are 100 px: the camera is set right",
              "lower the camera or zoom in: dice are 9 px, the readers need 17 px or more",
              "raise the camera or zoom out: dice are 200 px, more than a fifth of the frame"),
    "pt-BR": ("os dados têm 100 px: a câmera está bem ajustada",
              "abaixe a câmera ou aproxime o zoom: os dados têm 9 px, a leitura precisa de 17 px ou mais",
              "levante a câmera ou afaste o zoom: os dados têm 200 px, mais de um quinto da foto"),
    "es": ("los dados miden 100 px: la cámara está bien ajustada",
           "baja la cámara o acerca el zoom: los dados miden 9 px, la lectura necesita 17 px o más",
           "sube la cámara o aleja el zoom: los dados miden 200 px, más de una quinta parte de la foto"),
}


def _frame_of(side: int):
    """A 640×480 frame and a reading of two dice of ``side`` pixels."""
    image = np.full((480, 640, 3), (40, 90, 30), np.uint8)
    dice = [{"value": 3, "sides": 6, "box": [x, 100, x + side, 100 + side], "color": "white",
             "principal": False, "confidence": 1.0, "unreadable": None} for x in (50, 300)]
    return lambda: (image, {"dice": dice, "size": [640, 480], "seconds": 0.0, "principal_note": None})


@pytest.mark.parametrize("locale", list(ADVICE))
def test_settings_shows_the_frame_with_the_dice_boxed_and_says_whether_they_are_readable(phone, controller,
                                                                                         monkeypatch, locale):
    right, small, large = ADVICE[locale]
    page = phone("/settings", locale=locale)
    expect(page.locator("#setup-none")).to_be_visible()    # no frame yet
    expect(page.locator("#setup-box")).to_be_hidden()

    controller.arm("2d6")
    controller.throw_dice([3, 5])                          # dice of 100 px in a 640×480 frame
    page.reload()
    expect(page.locator("#setup-advice")).to_have_text(right)
    frame = page.locator("#setup-frame")
    expect(frame).to_be_visible()
    # the first die's box is drawn on the picture (its left side at x = 40, from y = 120 to 220)
    width, amber = page.evaluate("""() => { const img = document.getElementById('setup-frame');
        const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
        const g = c.getContext('2d'); g.drawImage(img, 0, 0);
        const row = g.getImageData(34, 170, 12, 1).data;
        let amber = 0;
        for (let i = 0; i < row.length; i += 4) amber += row[i] > 180 && row[i + 2] < 100;
        return [c.width, amber]; }""")
    assert width == 640 and amber >= 2  # the box's amber (RGB 255, 220, 0), neither felt nor die

    monkeypatch.setattr(controller, "latest_frame", _frame_of(9))
    page.reload()
    expect(page.locator("#setup-advice")).to_have_text(small)
    monkeypatch.setattr(controller, "latest_frame", _frame_of(200))
    page.reload()
    expect(page.locator("#setup-advice")).to_have_text(large)
