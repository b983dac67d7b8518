"""The roll's settings: the presets, the principal die's colour (a name, or measured on the
table's die: RULES D6-2a), the PIN, the house rules (RULES P-5b) and the cocked-die policy
(RULES T-5), kept in the history database.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, cast

import rules
from device.errors import DeviceError, SaveFailed, said
from device.presets import Preset, PresetError, preset_from_table
from device.roll.core import TAKING, RollCore
from device.roll.record import Void
from rules import cocked as cocked_policy
from rules.errors import InvalidRoll
from rules.phrase import Phrase
from rules.pool import PoolOptions, PoolSpec
from vision.principal import MeasuredColor

log = logging.getLogger("device.controller")


class SettingLocked(DeviceError, RuntimeError):
    """A setting the config file decides (the PIN) was changed from the page."""


class NotOneDie(DeviceError, RuntimeError):
    """The principal colour was to be measured on the tray's die, and not one die is in sight."""


class RollSettings(RollCore):
    """The settings page's side of the controller."""

    _pin: str | None
    _config_pin: str | None
    _pin_from_page: bool

    def presets(self) -> list[dict]:
        with self._lock:
            return [preset.to_dict() for preset in self._presets]


    def settings(self) -> dict:
        """``{"principal_color", "principal_measured", "presets", "pin", "pin_from_page",
        "pin_in_config", "house_rules", "cocked_dice"}`` (principal_measured: ``{"name", "lab":
        [L*, a*, b*]}`` when the principal colour was measured on the table's die,
        :meth:`principal_from_tray`, else None; pin: the stored hash, or None; pin_from_page:
        whether :meth:`update_settings` takes a PIN (the config's ``pin_from_page`` and no
        ``pin``); pin_in_config: whether the config sets the PIN; house_rules: ``{"rule_of_ten",
        "rule_of_one", "target_number"}``, RULES P-5b; cocked_dice: one of
        :data:`rules.cocked.POLICIES`, RULES T-5)."""
        with self._lock:
            measured = self._principal_measured
            return {"principal_color": self._principal_color,
                    "principal_measured": None if measured is None else measured.to_dict(),
                    "presets": self.presets(),
                    "pin": self._pin, "pin_from_page": self._pin_from_page,
                    "pin_in_config": self._config_pin is not None, "house_rules": self._house_rules.to_dict(),
                    "cocked_dice": self._cocked_dice}

    def update_settings(self, **changes) -> dict:
        """Change and keep (in the history database) ``principal_color``, ``presets``, ``pin``,
        ``house_rules`` or ``cocked_dice`` (RULES T-5: from the next throw read on).

        ``presets`` is the whole list, each as :meth:`presets` gives them or as a
        config ``[[presets]]`` table; ``None`` goes back to the config's presets. Every
        change is checked and saved in one transaction before any takes effect: a refusal
        or a failed save changes nothing. ``house_rules`` is ``{"rule_of_ten"?, "rule_of_one"?,
        "target_number"?}`` (the keys left out keep their value); every pool preset follows it (RULES P-5b).
        A ``principal_color`` chosen by name drops a measured one (:meth:`principal_from_tray`).

        :raises ValueError: for an unknown setting or a bad value (naming it).
        :raises SettingLocked: for a PIN when the config decides it (``pin`` set, or
            ``pin_from_page`` off).
        :raises SaveFailed: when the history database cannot save them.
        """
        unknown = sorted(set(changes) - {"principal_color", "presets", "pin", "house_rules", "cocked_dice"})
        if unknown:
            raise ValueError(f"unknown setting {', '.join(unknown)}; "
                             "settings: principal_color, presets, pin, house_rules, cocked_dice")
        with self._lock:
            if "cocked_dice" in changes:
                cocked_policy.check_policy(changes["cocked_dice"])
            if "house_rules" in changes:
                wanted = changes["house_rules"]
                if not isinstance(wanted, dict) or set(wanted) - set(PoolOptions().to_dict()):
                    raise ValueError("house_rules takes rule_of_ten, rule_of_one and target_number")
                try:
                    house_rules = PoolOptions(**{**self._house_rules.to_dict(), **wanted})
                except InvalidRoll as exc:
                    raise ValueError(str(exc)) from None
                self._house_rules = house_rules
                self._history.set_setting("house_rules", house_rules.to_dict())
                self._config_presets = [_with_house_rules(p, house_rules) for p in self._config_presets]
                self._presets = [_with_house_rules(p, house_rules) for p in self._presets]
                if self._preset is not None:
                    self._preset = self._find_preset(self._preset.name)
                self._odds.clear()
            if "principal_color" in changes:
                from vision.colors import PALETTE
                color = changes["principal_color"]
                if color is not None and color not in PALETTE:
                    raise ValueError(Phrase("principal_color must be one of {colours} or null",
                                            colours=", ".join(PALETTE)))
            if "presets" in changes and changes["presets"] is not None:
                presets = self._presets_from(changes["presets"])
            if "pin" in changes:
                if not self._pin_from_page:
                    raise SettingLocked(Phrase("the PIN is set in the config file: change it there")
                                        if self._config_pin else
                                        Phrase("the PIN cannot be set from the page: set pin in the config "
                                               "file (or pin_from_page = true)"))
                if changes["pin"] is not None and not isinstance(changes["pin"], str):
                    raise ValueError("pin must be the stored PIN hash or null")
            stored = {**changes, "principal_measured": None} if "principal_color" in changes else changes
            try:
                self._history.set_settings(stored)  # first: a failed save changes nothing
            except SaveFailed as exc:
                self._save_error = said(exc)
                raise
            self._save_error = None
            if "principal_color" in changes:
                self._principal_color, self._principal_measured = changes["principal_color"], None
            if "presets" in changes:
                if changes["presets"] is None:
                    self._presets = list(self._config_presets)
                else:
                    self._presets = presets
                self._odds.clear()
                self._disarm_if_gone()
            if "pin" in changes:
                self._pin = changes["pin"]
            if "cocked_dice" in changes:
                self._cocked_dice = changes["cocked_dice"]
                self._void = self._voided_now()
                if self._roll is not None and self._state in TAKING:  # the prompt of a cocked die follows
                    problem = self._request_problem()
                    self._set_state(self._state, prompt=self._request(),
                                    problem=None if problem is None else problem.to_dict())
            self._publish_state()
            return self.settings()

    def principal_from_tray(self) -> dict:
        """Make the colour of the one die on the latest frame the principal die's (RULES D6-2a),
        measured (:func:`vision.principal.measure_die`: light-independent) and kept with its
        name; from the next throw read on, the die nearest it is the principal die. The settings.

        :raises NotOneDie: no frame yet, no die or several dice in sight (a Phrase).
        :raises SaveFailed: when the history database cannot save it (nothing changes).
        """
        with self._lock:
            image, reading = self._tray.latest_frame()
            measured = principal_from_frame(image, reading)
            try:
                self._history.set_settings({"principal_color": measured.name,
                                            "principal_measured": measured.to_dict()})
            except SaveFailed as exc:
                self._save_error = said(exc)
                raise
            self._save_error = None
            self._principal_color, self._principal_measured = measured.name, measured
            self._publish_state()
            return self.settings()

    def _voided_now(self) -> Void | None:
        """Under rethrow_set (RULES T-5), the throw of the current roll a cocked die voids (the
        step to throw again), else None; for a policy set while that throw waits: the tray
        before it is known for the first throw only (a later one is compared with none)."""
        roll = self._roll
        if self._cocked_dice != "rethrow_set" or roll is None or not roll.dice:
            return None
        if self._void is not None:
            return self._void
        walk = self._walk(roll)
        dice = [die for die in roll.dice if die.step == walk.step]
        if walk.problem is None or not any(die.unreadable == "cocked" for die in dice):
            return None
        step = cast(int, walk.step)  # a problem names its throw
        return Void(step, self._armed_before if step == 0 else None, tuple(die.reading() for die in dice))


    def _disarm_if_gone(self) -> None:
        """The armed preset, removed or replaced by a change of the presets, is armed no more
        (no button or tap could arm it again): a roll of it under way is closed as abandoned,
        with a note, as arming another preset mid-roll does; a finished one keeps its result."""
        armed = self._preset
        if armed is None or armed in self._presets:
            return
        self._abandon(Phrase("{label} was removed from the rolls before this roll was complete", label=armed.label))
        self._generation += 1
        self._preset, self._roller, self._roll, self._void = None, None, None, None
        self._set_state("idle")

    def _find_preset(self, name: str) -> Preset:
        for preset in self._presets:
            if preset.name == name:
                return preset
        raise KeyError(f"no preset {name!r}; presets: {', '.join(p.name for p in self._presets)}")

    def _presets_from(self, tables: list) -> list[Preset]:
        if not isinstance(tables, list) or not tables:
            raise ValueError(Phrase("presets must be a non-empty list"))
        presets, names = [], set()
        for number, table in enumerate(tables):
            row = Phrase("Roll {n}", n=number + 1)  # the settings page's row, as a player counts
            if not isinstance(table, dict):
                raise ValueError(Phrase("{where} must be an object", where=row))
            table = _flatten_preset(table)
            preset = preset_from_table(table, self._house_rules, where=row)
            if preset.name in names:
                raise PresetError(Phrase("{where}: name {name} is used twice", where=row, name=repr(preset.name)))
            names.add(preset.name)
            presets.append(preset)
        return presets


def _with_house_rules(preset: Preset, options: PoolOptions) -> Preset:
    """A pool preset under other house rules (RULES P-5b); its label follows when the rules
    wrote it. Other presets as they are."""
    if not isinstance(preset.spec, PoolSpec) or preset.spec.options == options:
        return preset
    spec = replace(preset.spec, options=options)
    label = rules.describe(spec) if preset.label == rules.describe(preset.spec) else preset.label
    return replace(preset, spec=spec, label=label)


def _flatten_preset(table: dict) -> dict:
    """A preset as :meth:`Controller.presets` gives it → a config-style table."""
    if "spec" not in table:
        return table
    flat = {key: table[key] for key in ("name", "label", "system") if key in table}
    spec = dict(table["spec"])
    spec.pop("system", None)
    spec.pop("options", None)
    if flat.get("system") == "d6":
        spec.pop("principal_known", None)
    flat.update(spec)
    return flat


def principal_from_frame(image: Any, reading: dict[str, Any] | None) -> MeasuredColor:
    """The measured colour of the one die of ``reading`` (a :class:`vision.reading.TrayReading`
    dict) on ``image`` (H×W×3 uint8 BGR, or None: no frame yet).

    :raises NotOneDie: no frame, no die or several dice in sight (a Phrase the page words).
    """
    from vision.principal import measure_die

    if image is None or reading is None:
        raise NotOneDie(Phrase("no photo from the camera yet: put the principal die alone in the tray"))
    dice = reading["dice"]
    if not dice:
        raise NotOneDie(Phrase("no die in sight: put the principal die alone in the tray"))
    if len(dice) > 1:
        raise NotOneDie(Phrase.ngettext("{n} die in sight: leave the principal die alone in the tray",
                                                "{n} dice in sight: leave the principal die alone in the tray",
                                                len(dice), n=len(dice)))
    return measure_die(image, dice[0]["box"], dice[0]["color"])


def stored_measure(value: object) -> MeasuredColor | None:
    """The measured principal colour the history keeps (:meth:`RollSettings.principal_from_tray`),
    or None: none kept, or one this version cannot read (then the name's rule applies)."""
    if value is None:
        return None
    try:
        return MeasuredColor.from_dict(cast(dict, value))
    except ValueError as exc:
        log.warning("the stored principal colour is ignored: %s", exc)
        return None
