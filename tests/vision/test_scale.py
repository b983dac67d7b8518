"""The pip reader reads dice at the scene's scale, whatever the frame's size (issue 23)."""

from __future__ import annotations

import pytest

from vision.scoring import score_photo
from vision.synthetic import render_tray
from vision.tray import DETECT_SIZE, read_tray

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples


@pytest.mark.parametrize(("frame", "die_input"), [
    ((1280, 960), 8),   # the README's camera raised: dice of 27 px in the frame
    ((1920, 1080), 8),  # a wide frame: 40 px dice
    ((4608, 2592), 8),  # a Camera Module 3's full frame: 96 px dice
    ((640, 480), 80),   # a camera close to the tray: 133 px dice
], ids=["1280x960-8px", "1920x1080-8px", "4608x2592-8px", "640x480-80px"])
@pytest.mark.parametrize("seed", [2, 3])
def test_dice_far_from_the_size_the_networks_learned_are_read(frame, die_input, seed):
    # die_input: a die's side in the frame shrunk to DETECT_SIZE, where the detector used to
    # look only (it learned dice of 15-41 px there)
    side = die_input * max(frame) / DETECT_SIZE / 1.2  # render_tray's die_px is the top face's
    image, truth = render_tray(seed, size=frame, count=6, die_px=(side, side), noise=2.0)
    score, _ = score_photo(read_tray(image).dice, truth)
    assert (score.correct, score.phantom) == (len(truth), 0)
