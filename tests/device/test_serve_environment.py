"""`dicelens serve` with a bad DICE_* environment variable: exit 2, one line naming it."""

from __future__ import annotations

import pytest

from device.cli import main


@pytest.mark.parametrize(("variable", "value", "message"), [
    ("DICE_HEALTH_FRAME_SECONDS", "abc",
     "DICE_HEALTH_FRAME_SECONDS must be a number of seconds from 0.1 to 3600 (got 'abc')"),
    ("DICE_JOIN_URL", "http://dice.home/" + "x" * 5000,
     "DICE_JOIN_URL must be an http:// or https:// address of at most 300 characters"),
    ("DICE_ALLOWED_HOSTS", "not json",
     "DICE_ALLOWED_HOSTS must be a JSON list of host names ([\"dice.home\"]) or names separated by "
     "commas ('not json' is not a host name or address) (got 'not json')"),
    ("DICE_MAX_STREAMS", "0", "DICE_MAX_STREAMS must be a whole number from 1 to 1000 (got '0')"),
    ("DICE_HEALTH_FRAME_SECOND", "5", "DICE_HEALTH_FRAME_SECOND is not a dicelens setting; the settings are: "),
])
def test_a_bad_environment_variable_exits_2_before_anything_starts(tmp_path, capsys, monkeypatch,
                                                                    variable, value, message):
    monkeypatch.setenv(variable, value)
    # a camera that names nothing: were the variable not checked first, this would be the error
    assert main(["serve", "--camera", f"file:{tmp_path / 'none'}", "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dicelens: ") and message in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "data").exists()
