"""`dicelens hotspot`: the table's own Wi-Fi through nmcli, against a stand-in nmcli that
logs its calls; the dry run prints what would be run, as the installer's does, with no
nmcli at all; the QR codes it prints read back as the Wi-Fi and the page's address."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import zxingcpp

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

    def hotspot(config_text: str, *options: str, wlan0: str = "disconnected", fail: bool = False,
                with_nmcli: bool = True):
        config = tmp_path / "config.toml"
        config.write_text(config_text)
        # Without it, a PATH of an empty folder: no nmcli, nor any other program, to be found.
        path = f"{bin_dir}{os.pathsep}{os.environ['PATH']}" if with_nmcli else str(tmp_path)
        env = dict(os.environ, PATH=path, FAKE_WLAN0=wlan0)
        if fail:
            env["FAKE_FAIL"] = "1"
        result = subprocess.run([sys.executable, "-m", "device.cli", "hotspot", "--config", str(config), *options],
                                cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
        calls = log.read_text().splitlines() if log.exists() else []
        log.unlink(missing_ok=True)
        return result.returncode, result.stdout + result.stderr, calls

    return hotspot


def qr_codes(output: str) -> list[str]:
    """The texts of the QR codes printed in ``output`` (segno's half blocks: a full
    block is two light modules, a space two dark ones), read as a phone would."""
    top = {" ": 1, "\u2580": 0, "\u2584": 1, "\u2588": 0}
    bottom = {" ": 1, "\u2580": 1, "\u2584": 0, "\u2588": 0}
    texts, rows = [], []
    for line in [*output.splitlines(), ""]:
        if line and set(line) <= set(top):
            rows += [[top[c] for c in line], [bottom[c] for c in line]]
            continue
        if rows:
            modules = np.array(rows, np.uint8)
            image = np.kron(255 * (1 - modules), np.ones((6, 6), np.uint8))  # 6 px a module
            texts += [code.text for code in zxingcpp.read_barcodes(image)]
            rows = []
    return texts


@pytest.mark.slow
def test_the_dry_run_needs_no_nmcli_and_prints_the_commands(nmcli):
    status, output, calls = nmcli(ENABLED, "--dry-run", with_nmcli=False)
    assert status == 0, output
    assert calls == []
    lines = output.splitlines()
    assert [line.removeprefix("would run: ") for line in lines if line.startswith("would run: ")] == [STATUS, *HOTSPOT]
    assert lines[:2] == [f"would run: {STATUS}", "and when wlan0 is not connected:"]
    assert lines[5:7] == ["then print:", ("dicelens: no known network in reach: the table's own Wi-Fi is "
                                          "'Dice table', password 'roll-them-all'; phones open http://10.42.0.1:8123/")]
    assert qr_codes(output) == ["WIFI:T:WPA;S:Dice table;P:roll-them-all;;", "http://10.42.0.1:8123/"]


@pytest.mark.slow
def test_the_wifi_code_escapes_the_name_and_password(nmcli):
    config = ENABLED.replace('"Dice table"', '"Bob\'s;table"').replace('"roll-them-all"', r'"a,b:c\\d\"e"')
    status, output, _ = nmcli(config, "--dry-run", with_nmcli=False)
    assert status == 0, output
    assert qr_codes(output)[0] == r"WIFI:T:WPA;S:Bob's\;table;P:a\,b\:c\\d\"e;;"


@pytest.mark.slow
def test_with_no_known_network_the_access_point_is_made(nmcli):
    status, output, calls = nmcli(ENABLED)
    assert status == 0, output
    assert calls == [STATUS, *HOTSPOT]
    assert "phones open http://10.42.0.1:8123/" in output
    assert qr_codes(output) == ["WIFI:T:WPA;S:Dice table;P:roll-them-all;;", "http://10.42.0.1:8123/"]


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
