"""What ``--help`` and the example config say agrees with the README (trial fault 16): a
replay's default data folder is ``dicelens-replay/<name>``, and the PIN guards every control
(arming, throwing, corrections…), not only the settings and clearing the history."""

from __future__ import annotations

import device.config
from device.cli import build_parser


def _option_help(command: str, option: str) -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    return next(a for a in sub._actions if option in a.option_strings).help


def test_serve_help_names_a_replays_own_data_folder():
    assert "dicelens-replay/<name of PATH> for file:PATH" in _option_help("serve", "--data")


def test_the_example_config_says_what_the_pin_guards():
    lines = device.config.__doc__.splitlines()
    start = next(n for n, line in enumerate(lines) if line.strip().startswith('pin = ""'))
    comment = " ".join(line.partition("#")[2].strip() for line in lines[start:start + 2])
    for action in ("arm", "throw", "dice by hand", "correct", "settings", "clear history"):
        assert action in comment
