"""The setup view of Settings: the camera's latest frame with its dice measured (issue 23).

The page says whether the camera is set right for the readers; the measure and the picture
are :mod:`vision.setup`'s, the advice a :class:`rules.phrase.Phrase` the page translates.
"""

from __future__ import annotations

from rules.phrase import Phrase
from vision import setup


def advice(measured: dict) -> Phrase:
    """What the page tells a table about the dice's size (``measured`` from :func:`vision.setup.measure`)."""
    px = measured["die_px"]
    if measured["fit"] == "none":
        return Phrase("no die found on the latest frame: throw some dice on the tray")
    if measured["fit"] == "small":
        return Phrase("lower the camera or zoom in: dice are {px} px, the readers need {least} px or more",
                      px=px, least=setup.SMALLEST)
    if measured["fit"] == "large":
        return Phrase("raise the camera or zoom out: dice are {px} px, more than a fifth of the frame", px=px)
    return Phrase("dice are {px} px: the camera is set right", px=px)


def setup_view(controller) -> dict | None:
    """The latest frame the controller read, measured: ``{"jpeg": bytes (boxes drawn), "width",
    "height" (the frame's pixels), "die_px", "fit", "advice": Phrase}`` (see
    :func:`vision.setup.measure`); None when no frame was read yet.

    :raises ValueError: the picture could not be encoded.
    """
    image, reading = controller.latest_frame()
    if image is None:
        return None
    height, width = image.shape[:2]
    measured = setup.measure(reading, width, height)
    return {"jpeg": setup.picture(image, reading, measured), "width": width, "height": height,
            "die_px": measured["die_px"], "fit": measured["fit"], "advice": advice(measured)}
