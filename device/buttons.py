"""GPIO buttons that pick a preset or read the tray, and the status LED (gpiozero).

Buttons are wired from a BCM pin to ground (the Pi's internal pull-up holds
the pin high; a press pulls it low). The pin factory is always handed in:
gpiozero's own on the Pi, ``gpiozero.pins.mock.MockFactory()`` on a desktop
and in tests.

Debouncing is done here rather than by gpiozero's ``bounce_time``, whose
behaviour depends on the pin driver (a glitch filter, a lock-out, or nothing
at all for mock pins): a press counts when the button goes down after having
been up for at least ``bounce_time``. The contact chatter of one press (edges
a millisecond apart) is therefore one press, and a real second press, which
comes after the button was released for far longer, is never swallowed.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Mapping

from gpiozero import LED, Button

log = logging.getLogger(__name__)

#: What the LED shows for each state: steady, off, or blinking (on seconds, off seconds, times).
LED_PATTERNS: dict[str, str | tuple[float, float, int | None]] = {
    "off": "off",                    # idle: nothing asked
    "armed": "on",                   # a preset is chosen: throw the dice
    "waiting": (0.5, 0.5, None),     # waiting for more dice (an extra die, rerolled tens)
    "done": (0.1, 0.1, 3),           # the roll is resolved: three quick flashes
    "error": (0.1, 0.1, None),       # camera missing or a reading needs a look on the page
}


class _Debounced:
    """Turns a button's raw edges into presses (see the module docstring)."""

    def __init__(self, action: Callable[[], None], bounce_time: float, clock: Callable[[], float],
                 what: str) -> None:
        self._action = action
        self._bounce_time = bounce_time
        self._clock = clock
        self._what = what
        self._lock = threading.Lock()
        self._released_at: float | None = None  # None: never pressed yet

    def pressed(self) -> None:
        now = self._clock()
        with self._lock:
            fresh = self._released_at is None or now - self._released_at >= self._bounce_time
        if fresh:
            try:
                self._action()
            except Exception:  # a failing callback must not kill gpiozero's event thread
                log.exception("%s: the press could not be handled", self._what)

    def released(self) -> None:
        now = self._clock()
        with self._lock:
            self._released_at = now


class RollButtons:
    """Preset buttons, an optional "read now" button and an optional status LED.

    :param presets: BCM pin number → preset name, one button each.
    :param on_preset: called with the preset's name when its button is pressed.
    :param on_read: called when the "read now" button is pressed.
    :param read_pin: BCM pin of the "read now" button; None for none.
    :param led_pin: BCM pin of the status LED; None for none.
    :param pin_factory: gpiozero pin factory (``MockFactory()`` off the Pi).
    :param bounce_time: seconds a button must have been released before a new press counts.
    :param clock: monotonic seconds, for debouncing.
    :raises ValueError: if a pin is used twice or a preset name is empty.
    :raises gpiozero.GPIOZeroError: if a pin does not exist or is busy.

    Callbacks run on gpiozero's threads; keep them short (the controller's
    methods are thread-safe).
    """

    def __init__(self, presets: Mapping[int, str], *, on_preset: Callable[[str], None],
                 on_read: Callable[[], None] | None = None, read_pin: int | None = None,
                 led_pin: int | None = None, pin_factory, bounce_time: float = 0.05,
                 clock: Callable[[], float] = time.monotonic) -> None:
        pins = [*presets, *(p for p in (read_pin, led_pin) if p is not None)]
        if len(set(pins)) != len(pins):
            raise ValueError(f"each button and the LED need their own pin, got pins {pins}")
        if any(not name for name in presets.values()):
            raise ValueError("every preset button needs a preset name")
        if read_pin is not None and on_read is None:
            raise ValueError("a read button needs on_read")
        self._buttons: list[Button] = []
        self._led: LED | None = None
        self._led_state = "off"
        self._handlers: list[_Debounced] = []  # kept alive as long as the buttons
        try:
            for pin, name in presets.items():
                self._add_button(pin, functools.partial(on_preset, name), f"preset button {name!r}",
                                 pin_factory, bounce_time, clock)
            if read_pin is not None and on_read is not None:  # one without the other is refused above
                self._add_button(read_pin, on_read, "read button", pin_factory, bounce_time, clock)
            if led_pin is not None:
                self._led = LED(led_pin, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def _add_button(self, pin: int, action: Callable[[], None], what: str, pin_factory,
                    bounce_time: float, clock: Callable[[], float]) -> None:
        button = Button(pin, pull_up=True, pin_factory=pin_factory)
        self._buttons.append(button)
        handler = _Debounced(action, bounce_time, clock, what)
        self._handlers.append(handler)
        button.when_pressed = handler.pressed
        button.when_released = handler.released

    @property
    def led_state(self) -> str:
        """The state last shown on the LED (a key of :data:`LED_PATTERNS`)."""
        return self._led_state

    def show(self, state: str) -> None:
        """Show a state on the LED (nothing happens without an LED).

        :param state: ``"off"``, ``"armed"``, ``"waiting"``, ``"done"`` or ``"error"``.
        :raises ValueError: for another state.
        """
        pattern = LED_PATTERNS.get(state)
        if pattern is None:
            raise ValueError(f"unknown LED state {state!r}; use one of: {', '.join(LED_PATTERNS)}")
        self._led_state = state
        led = self._led
        if led is None or led.closed:
            return
        if pattern == "on":
            led.on()
        elif isinstance(pattern, str):  # "off"
            led.off()
        else:
            on_time, off_time, n = pattern
            led.blink(on_time=on_time, off_time=off_time, n=n, background=True)

    def close(self) -> None:
        """Release the pins; calling it again does nothing."""
        for device in [*self._buttons, *([self._led] if self._led else [])]:
            device.close()
        self._buttons = []
        self._led = None

    def __enter__(self) -> RollButtons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
