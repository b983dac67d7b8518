"""`dicelens hotspot`: the table's own Wi-Fi through nmcli, against a stand-in nmcli that
logs its calls; the dry run prints what would be run, as the installer's does."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from device.config import ConfigError, config_from_dict

REPO = Path(__file__).resolve().parents[2]
ENABLED = '[hotspot]\nenabled = true\nssid = "Dice table"\npassword = "roll-them-all"\n[web]\nport = 8123\n'
HOTSPOT = ["nmcli device wifi hotspot ifname wlan0 con-name dicelens-hotspot ssid 'Dice table' "
           "password roll-them-all",
           "nmcli connection modify dicelens-hotspot ipv4.method shared ipv4.addresses 10.42.0.1/24 "
           "connection.autoconnect no",
           "nmcli connection up dicelens-hotspot"]
STATUS = "nmcli --terse --fields DEVICE,STATE device status"


@pytest.fixture
def nmcli(tmp_path):
    """Runs `dicelens hotspot` with a stand-in nmcli on PATH → (status, stdout, nmcli's calls)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "nmcli.log"
    fake = bin_dir / "nmcli"
    fake.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import os, shlex, sys
        with open({str(log)!r}, "a") as log:
            print(shlex.join(["nmcli", *sys.argv[1:]]), file=log)
        if sys.argv[1:] == ["--terse", "--fields", "DEVICE,STATE", "device", "status"]:
            print("eth0:unavailable\\nwlan0:" + os.environ["FAKE_WLAN0"] + "\\nlo:connected (externally)")
        elif os.environ.get("FAKE_FAIL") and sys.argv[1] == "device":
            sys.exit("Error: Connection activation failed: No suitable device found.")
        """))
    fake.chmod(0o755)

    def hotspot(config_text: str, *options: str, wlan0: str = "disconnected", fail: bool = False):
        config = tmp_path / "config.toml"
        config.write_text(config_text)
        env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", FAKE_WLAN0=wlan0)
        if fail:
            env["FAKE_FAIL"] = "1"
        result = subprocess.run([sys.executable, "-m", "device.cli", "hotspot", "--config", str(config), *options],
                                cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
        calls = log.read_text().splitlines() if log.exists() else []
        log.unlink(missing_ok=True)
        return result.returncode, result.stdout + result.stderr, calls

    return hotspot


@pytest.mark.slow
def test_the_dry_run_prints_the_commands_and_runs_none(nmcli):
    status, output, calls = nmcli(ENABLED, "--dry-run")
    assert status == 0
    assert [line.removeprefix("would run: ") for line in output.splitlines()
            if line.startswith("would run: ")] == HOTSPOT
    assert calls == [STATUS]  # only asked for the state
    assert output.splitlines()[-1] == (
        "dicelens: no known network in reach: the table's own Wi-Fi is 'Dice table', "
        "password 'roll-them-all'; phones open http://10.42.0.1:8123/")


@pytest.mark.slow
def test_with_no_known_network_the_access_point_is_made(nmcli):
    status, output, calls = nmcli(ENABLED)
    assert status == 0, output
    assert calls == [STATUS, *HOTSPOT]
    assert "phones open http://10.42.0.1:8123/" in output


@pytest.mark.slow
def test_a_connected_pi_makes_no_hotspot(nmcli):
    status, output, calls = nmcli(ENABLED, wlan0="connected")
    assert (status, calls) == (0, [STATUS])
    assert output == "dicelens: wlan0 is connected to a known network: no hotspot\n"


@pytest.mark.slow
def test_disabled_by_default(nmcli):
    status, output, calls = nmcli("")
    assert (status, calls) == (0, [])
    assert "hotspot.enabled is false" in output


@pytest.mark.slow
def test_nmcli_failing_is_one_line_and_status_1(nmcli):
    status, output, calls = nmcli(ENABLED, fail=True)
    assert status == 1
    assert output == ("dicelens: nmcli device wifi hotspot failed: "
                      "Error: Connection activation failed: No suitable device found.\n")
    assert calls == [STATUS, HOTSPOT[0]]


@pytest.mark.slow
def test_a_missing_interface_is_named(nmcli):
    status, output, _ = nmcli(ENABLED.replace('[web]', 'interface = "wlan1"\n[web]'))
    assert status == 1 and output == "dicelens: no network interface wlan1 (nmcli device status)\n"


@pytest.mark.parametrize("table, message", [
    ({"enabled": True}, "hotspot.password must have 8 to 63 characters when hotspot.enabled is true"),
    ({"enabled": True, "password": "short"}, "hotspot.password must have 8 to 63"),
    ({"ssid": "x" * 33}, "hotspot.ssid must be a string of 1 to 32 bytes"),
    ({"enabled": "yes"}, "hotspot.enabled"),
    ({"channel": 6}, "hotspot.channel"),
])
def test_bad_hotspot_settings_are_refused(table, message):
    with pytest.raises(ConfigError, match=message):
        config_from_dict({"hotspot": table})
