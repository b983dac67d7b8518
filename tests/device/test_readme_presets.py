"""The README names the built-in presets as the page and the API do (their labels)."""

from __future__ import annotations

from pathlib import Path

from device.presets import build_presets

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_names_the_built_in_presets_by_their_labels():
    text = README.read_text(encoding="utf-8")
    armed = text[text.index("A **preset** is armed"):text.index("\n2. ")]
    words = " ".join(armed.split())  # the paragraph's lines joined
    # The pool's label ("pool 5 · difficulty 1") is written out in words there ("a d10 pool of 5").
    for preset in build_presets():
        if preset.system != "pool":
            assert preset.label in words, preset.label
