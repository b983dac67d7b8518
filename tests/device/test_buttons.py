"""Preset and read buttons and the LED, driven through gpiozero's MockFactory pins."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from device.buttons import RollButtons

PRESET_PINS = {17: "2D6", 27: "1D6"}
READ_PIN, LED_PIN = 22, 23


class FakeClock:
    def __init__(self) -> None:
        self.t = 50.0

    def __call__(self) -> float:
        return self.t


class Presses:
    """Collects presses; gpiozero may call back on its own threads."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.lock = threading.Lock()
        self.event = threading.Event()

    def on_preset(self, name: str) -> None:
        with self.lock:
            self.names.append(name)
        self.event.set()

    def on_read(self) -> None:
        self.on_preset("read")

    def wait_for(self, n: int) -> list[str]:
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.names) >= n:
                    break
            self.event.wait(0.01)
            self.event.clear()
        with self.lock:
            return list(self.names)


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def presses():
    return Presses()


@pytest.fixture
def buttons(factory, clock, presses):
    with RollButtons(PRESET_PINS, on_preset=presses.on_preset, on_read=presses.on_read,
                     read_pin=READ_PIN, led_pin=LED_PIN, pin_factory=factory,
                     bounce_time=0.05, clock=clock) as buttons:
        yield buttons


def press(factory, clock, pin: int, hold: float = 0.15) -> None:
    factory.pin(pin).drive_low()
    clock.t += hold
    factory.pin(pin).drive_high()


def chatter(factory, clock, pin: int, edges: int, end_low: bool) -> None:
    """A noisy contact: the pin flips ``edges`` times, 1 ms apart."""
    level_low = not factory.pin(pin).state  # pull-up: low is pressed
    for _ in range(edges):
        level_low = not level_low
        if level_low:
            factory.pin(pin).drive_low()
        else:
            factory.pin(pin).drive_high()
        clock.t += 0.001
    assert level_low == end_low


@pytest.mark.slow
def test_each_button_gives_its_preset(buttons, factory, clock, presses):
    press(factory, clock, 17)
    clock.t += 1
    press(factory, clock, 27)
    clock.t += 1
    press(factory, clock, READ_PIN)
    assert presses.wait_for(3) == ["2D6", "1D6", "read"]


@pytest.mark.slow
def test_a_noisy_press_and_release_are_one_press(buttons, factory, clock, presses):
    chatter(factory, clock, 17, edges=9, end_low=True)  # contact bounces as it closes
    clock.t += 0.2  # held
    chatter(factory, clock, 17, edges=7, end_low=False)  # and as it opens
    clock.t += 0.02
    chatter(factory, clock, 17, edges=2, end_low=False)  # a last spike after release
    clock.t += 1
    press(factory, clock, 27)  # a later press elsewhere: every earlier edge has been handled
    assert presses.wait_for(2) == ["2D6", "1D6"]


def test_two_quick_real_presses_are_two(buttons, factory, clock, presses):
    chatter(factory, clock, 17, edges=5, end_low=True)
    clock.t += 0.08
    chatter(factory, clock, 17, edges=3, end_low=False)
    clock.t += 0.1  # released for 0.1 s: a finger pressing again, not contact chatter
    chatter(factory, clock, 17, edges=5, end_low=True)
    clock.t += 0.08
    factory.pin(17).drive_high()
    assert presses.wait_for(2) == ["2D6", "2D6"]


def test_a_hold_is_one_press_and_its_release_none(buttons, factory, clock, presses):
    factory.pin(27).drive_low()
    clock.t += 3.0
    time.sleep(0.05)  # gpiozero's hold thread gets a chance to run
    factory.pin(27).drive_high()
    clock.t += 1
    press(factory, clock, 17)
    assert presses.wait_for(2) == ["1D6", "2D6"]


@pytest.mark.slow
def test_presses_on_two_buttons_at_once_both_count(buttons, factory, clock, presses):
    factory.pin(17).drive_low()
    factory.pin(27).drive_low()
    clock.t += 0.1
    factory.pin(17).drive_high()
    factory.pin(27).drive_high()
    assert sorted(presses.wait_for(2)) == ["1D6", "2D6"]


def test_a_failing_callback_leaves_the_button_working(factory, clock, caplog):
    calls = []

    def broken(name):
        calls.append(name)
        raise KeyError(name)

    with RollButtons({5: "Free roll"}, on_preset=broken, pin_factory=factory, clock=clock):
        press(factory, clock, 5)
        clock.t += 1
        press(factory, clock, 5)
    assert calls == ["Free roll", "Free roll"]
    assert "preset button 'Free roll': the press could not be handled" in caplog.text


def wait_for_states(pin, n: int) -> list[bool]:
    """The LED pin's levels once it has changed at least ``n`` times (2 s at most)."""
    deadline = time.monotonic() + 2
    while len(pin.states) <= n and time.monotonic() < deadline:
        time.sleep(0.01)
    return [s.state for s in pin.states]


@pytest.mark.slow
def test_the_led_shows_each_state(buttons, factory):
    led = factory.pin(LED_PIN)
    assert buttons.led_state == "off" and not led.state
    buttons.show("armed")
    assert led.state and buttons.led_state == "armed"
    buttons.show("off")
    assert not led.state
    led.clear_states()
    buttons.show("error")  # fast blinking until told otherwise
    states = wait_for_states(led, 4)
    assert states[1:5] == [True, False, True, False]
    buttons.show("off")
    led.clear_states()
    buttons.show("done")  # three flashes, then off
    deadline = time.monotonic() + 2
    while (len(led.states) < 7 or led.state) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [s.state for s in led.states][-6:] == [True, False] * 3
    buttons.show("waiting")  # slow blinking starts with the LED on
    assert led.state and buttons.led_state == "waiting"
    with pytest.raises(ValueError, match="unknown LED state 'blue'"):
        buttons.show("blue")


def test_without_an_led_states_are_remembered(factory, clock, presses):
    with RollButtons({5: "1D3"}, on_preset=presses.on_preset, pin_factory=factory) as buttons:
        buttons.show("waiting")
        assert buttons.led_state == "waiting"


def test_close_releases_the_pins_and_can_be_repeated(factory, clock, presses):
    buttons = RollButtons(PRESET_PINS, on_preset=presses.on_preset, led_pin=LED_PIN,
                          pin_factory=factory, clock=clock)
    buttons.close()
    buttons.close()
    buttons.show("armed")  # after close: remembered, no pin touched
    again = RollButtons(PRESET_PINS, on_preset=presses.on_preset, led_pin=LED_PIN,
                        pin_factory=factory, clock=clock)  # the pins are free again
    press(factory, clock, 17)
    assert presses.wait_for(1) == ["2D6"]
    again.close()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"presets": {17: "2D6", 27: "1D6"}, "read_pin": 17}, "own pin"),
    ({"presets": {17: "2D6"}, "led_pin": 17}, "own pin"),
    ({"presets": {17: ""}}, "preset name"),
    ({"presets": {17: "2D6"}, "read_pin": 22, "on_read": None}, "on_read"),
])
def test_bad_wiring_is_refused(factory, presses, kwargs, message):
    kwargs = {"on_preset": presses.on_preset, "pin_factory": factory, **kwargs}
    with pytest.raises(ValueError, match=message):
        RollButtons(**kwargs)


def test_a_pin_that_does_not_exist_is_refused_and_nothing_stays_claimed(factory, presses):
    from gpiozero import GPIOZeroError

    with pytest.raises(GPIOZeroError):
        RollButtons({17: "2D6", 99: "1D6"}, on_preset=presses.on_preset, pin_factory=factory)
    RollButtons({17: "2D6"}, on_preset=presses.on_preset, pin_factory=factory).close()
