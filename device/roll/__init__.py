"""The roll controller's parts, one job each; :class:`device.controller.Controller` is made
of them (its bases) and is the one object the web and the buttons get.

* :mod:`~device.roll.core`: the roll being made, its steps, saving it, its state and events
* :mod:`~device.roll.walk`: the throws as the rules see them (pure)
* :mod:`~device.roll.frames`: what the roll asks of a settled tray, and taking its dice
* :mod:`~device.roll.camera`: the camera loop's hooks and status
* :mod:`~device.roll.edits`: corrections of a die, of the principal die, dice added by hand
* :mod:`~device.roll.settings`: presets, colour, PIN, house rules, cocked-die policy
* :mod:`~device.roll.keeping`: the history as the web reads it, health, rolls left waiting
* :mod:`~device.roll.record`: a roll's records (``Roll``, ``Die``, ``Correction``) and notes
"""
