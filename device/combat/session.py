"""The table's Destiny Dice fight (RULES.md §3), kept on disk and shared by every phone.

:class:`CombatSession` wraps :class:`rules.encounter.Encounter` with what the
appliance adds: a lock (page requests come on many threads), a file in the data
folder written after every step (temp file + ``os.replace``: a crash or a power
cut loses no step, a fight resumes after a restart), the attack being resolved
step by step (``rules.destiny.resolve_attack``), the saved heroes and the
bestiary to set a fight up quickly, and change events for the page's stream.

Dice are thrown by the players and tapped in on the page, or read from the tray:
a step asked to (:meth:`CombatSession.read_tray`) takes the next throw that settles
after the asking (RULES T-2), read by the numbered reader, when it shows exactly the
dice the step needs (``device/tray/match.py``); otherwise it says what is wrong and
waits for another throw. Dice by hand stay available, and a die read can be corrected
(:meth:`CombatSession.correct_attack`).

This module holds the session's actions; what is kept of the fight, its undo and its
file are :mod:`device.combat.record`'s, the sheets :mod:`device.combat.roster`'s, the
attack's record :mod:`device.combat.attack`'s and the tray's wait :mod:`device.combat.tray`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import cast

from device.combat import attack
from device.combat.record import FightRecord, step
from device.combat.roster import checked_sheet, fighter_name, find_sheet, free_name, participant_from_template
from device.tray.dispatch import Taken
from device.tray.match import Wanted
from rules.destiny import AttackOutcome
from rules.encounter import Encounter
from rules.errors import InvalidStep, NotNow
from rules.participant import Condition
from rules.phrase import Phrase

MAX_PARTICIPANTS = 40   # a table's fight; keeps every phone's page small
MAX_SAVED_HEROES = 40


class CombatSession(FightRecord):
    """The fight of the table, thread-safe; every method returns :meth:`state`.

    :param folder: the data folder; the fight is kept in ``combat.json`` there and
        taken up again from it. A file that cannot be read is kept aside as
        ``combat.json.broken-<time>`` and a new fight starts.
    :param roster: saved heroes, bestiary and house rules (:func:`roster_from_config`).
    :param queue_size: events kept per open page before its oldest are dropped.
    :param numbered_reader: ``(image BGR H×W×3 uint8, principal_color) -> TrayReading``
        of the tray's dice with their ``sides`` (and ``kind``); default ``vision.read_dice`` of every kind
        (``device.tray.readers``).
    :param clock: the clock of the ``t`` of settled frames, seconds.
    :param cocked_dice: ``cocked_dice()`` is the cocked-die policy now (RULES T-5,
        ``rules.cocked.POLICIES``): the roll controller's setting.
    :raises InvalidStep: (ValueError) from a step that cannot be taken, in one sentence;
        nothing changes then.
    :raises KeyError: for an unknown sheet name.
    """

    # ------------------------------------------------------------ setting up

    @step
    def add_hero(self, sheet: str, initiative: int | None = None) -> None:
        """Add the saved hero called ``sheet`` at full PV (once the fight is on, with initiative).

        :raises KeyError: for no saved hero of that name.
        """
        template = find_sheet(self.heroes(), sheet, lambda name: Phrase("no saved hero called {name}", name=name))
        participant = participant_from_template(template, "hero")
        self._encounter.add(participant, initiative)
        self._from_sheets.pop(participant.name, None)  # a hero's name is the players'
        self._check_size()

    @step
    def add_enemy(self, sheet: str, count: int = 1, initiatives: Sequence[int] | None = None) -> None:
        """Add ``count`` enemies of the bestiary's ``sheet``, numbered when the name is
        taken ("Saqueador 2"); once the fight is on, with one initiative each.

        :raises KeyError: for no such sheet in the bestiary.
        """
        template = find_sheet(self.roster.bestiary, sheet,
                              lambda name: Phrase("no bestiary sheet called {name}", name=name))
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 10:
            raise InvalidStep(f"add 1 to 10 enemies at once, not {count!r}")
        if initiatives is not None and len(initiatives) != count:
            raise InvalidStep(f"give one initiative for each of the {count} enemies")
        for number in range(count):
            name = free_name(template["name"], {p.name for p in self._encounter.participants})
            initiative = None if initiatives is None else initiatives[number]
            self._encounter.add(participant_from_template(template, "enemy", name), initiative)
            self._from_sheets[name] = template["name"]
        self._check_size()

    @step
    def add_participant(self, sheet: Mapping, side: str, initiative: int | None = None,
                        save: bool = False) -> None:
        """Add a fighter from a sheet typed on the page; ``save`` keeps a hero's sheet
        in the saved heroes for the next fights."""
        if side not in ("hero", "enemy"):
            raise InvalidStep(f"a fighter is a hero or an enemy, not {side!r}")
        participant = participant_from_template(sheet, side)
        self._encounter.add(participant, initiative)
        self._from_sheets.pop(participant.name, None)  # a typed name is the players': never worded anew
        self._check_size()
        if save:
            if side != "hero":
                raise InvalidStep(Phrase("only heroes are saved; enemies come from the bestiary"))
            self._save_hero(sheet)

    @step
    def save_hero(self, sheet: Mapping) -> None:
        """Keep a hero's sheet for the next fights (one of the same name is replaced)."""
        self._save_hero(sheet)

    @step
    def remove(self, name: str) -> None:
        """Take a fighter out of the fight (not during an attack, not the one whose turn it is)."""
        self._no_attack(Phrase("removing a fighter"))
        self._encounter.remove(name)

    @step
    def roll_initiative(self, values: Mapping[str, int]) -> None:
        """Start the fight: name → each fighter's Mind die (RULES DD-1)."""
        self._encounter.roll_initiative(values)

    @step
    def reorder(self, names: Sequence[str]) -> None:
        """Reorder fighters tied on initiative (RULES DD-1): the whole order as it should be."""
        self._encounter.reorder(names)

    # ------------------------------------------------------------ turns

    @step
    def next_turn(self) -> None:
        """End the turn and start the next fighter's (RULES DD-2, DD-11)."""
        self._no_attack(Phrase("the next turn"))
        self._encounter.next_turn()

    @step
    def poison_roll(self, value: int) -> None:
        """The poison die thrown at the start of a poisoned fighter's turn (RULES DD-11)."""
        self._encounter.poison_roll(value)

    @step
    def end_scene(self) -> None:
        """End the fight: heroes out of combat wake with 1 PV, defeated enemies leave,
        initiative is rolled anew for the next one (RULES DD-9)."""
        self._no_attack(Phrase("ending the scene"))
        self._encounter.end_scene()
        for participant in list(self._encounter.participants):
            if participant.status == "defeated":
                self._encounter.remove(participant.name)
        self._last_attack = None

    @step
    def new_fight(self) -> None:
        """Forget the fight and its log (the saved heroes and the house rules stay)."""
        self._encounter = Encounter(options=self._encounter.options)
        self._attack = self._last_attack = None
        self._from_sheets = {}

    @step
    def set_options(self, **changes: bool) -> None:
        """Change the fight's house rules (RULES DD-5 ``ties_favour_defender``, DD-8
        ``defensive_fumble_on_hit``); the config's are the defaults of a new file.

        :raises InvalidStep: while an attack is under way.
        :raises InvalidRoll: for a value that is not true or false (TypeError: an unknown option).
        """
        self._no_attack(Phrase("changing the house rules"))
        self._encounter.options = replace(self._encounter.options, **changes)

    # ------------------------------------------------------------ attacks, step by step

    @step
    def start_attack(self, attacker: str, defender: str, *, ranged: bool | None = None,
                     attack_modifier: int = 0, damage_bonus: int = 0) -> None:
        """Begin ``attacker``'s attack on ``defender``; :meth:`attack_dice` then takes each
        throw the outcome's ``needs`` asks for (RULES DD-4 … DD-8)."""
        self._no_attack(Phrase("another attack"))
        if not self._encounter.started:
            raise NotNow(Phrase("roll initiative first"))
        if self._encounter.over:
            raise NotNow(Phrase("the fight is over"))
        spec = self._encounter.attack_spec(attacker, defender, ranged=ranged,
                                           attack_modifier=attack_modifier, damage_bonus=damage_bonus)
        current = self._encounter.current
        # RULES DD-1, DD-2: a fighter attacks in their own turn, in the initiative's order
        if attacker != current and not self._counter_attack(attacker, defender):
            raise NotNow(Phrase("it is {name}'s turn: {who} attacks on their own turn", name=current, who=attacker))
        self._attack = attack.new(spec)

    def _counter_attack(self, attacker: str, defender: str) -> bool:
        """RULES DD-6: after a Defensa Perfecta, in the same turn, its defender may strike back
        at its attacker at once, out of turn."""
        last = self._last_attack
        return (last is not None and "counter-attack" in last["offers"] and last.get("turn") == self._turn()
                and last["spec"]["attacker_name"] == defender and last["spec"]["defender_name"] == attacker)

    def _turn(self) -> list:
        """``[round, whose turn]``: this turn, as a saved fight keeps it (JSON)."""
        return [self._encounter.round, self._encounter.current]

    @step
    def attack_dice(self, values: Sequence[int]) -> None:
        """The dice of the throw the attack asks for now, in the order of ``needs.dice``
        (``[8-sided value, d20]``…). The complete attack is applied to the fight at once.

        :raises InvalidStep: when no attack is being resolved.
        :raises InvalidRoll: (ValueError) for a face a die does not have, or the wrong number of dice.
        """
        self._throw(values, "hand")

    @step
    def correct_attack(self, throw: str, index: int, value: int) -> None:
        """Correct one die (a misread one, RULES T-1) of the attack being resolved, or of
        the last attack while only its last throw and corrections of it (or an undo of one)
        came after it, and resolve it again: a miss that becomes a hit asks for damage, a
        hit that becomes a miss takes its damage back. Undo takes the correction back: the
        fight is again as it was just before it (the attack, its damage and its dice).

        :param throw: ``"attack"``, ``"defence"`` or ``"damage"``.
        :param index: 0 the characteristic (or defence, damage) die, 1 the Destiny d20.
        :raises InvalidStep: no such die thrown, the die already shows ``value`` (nothing to
            correct), or an attack older than the last step.
        :raises InvalidRoll: (ValueError) for a face the die does not have.
        """
        if throw not in attack.THROWS:
            raise InvalidStep(f"a throw is attack, defence or damage, not {throw!r}")
        if self._attack is None:
            done, base = self._last_attack, self._attack_base
            if done is None or base is None or not self._last_attack_correctable():
                raise NotNow(Phrase("only the attack being resolved, or the last attack before any other "
                                    "step, can be corrected: change PV by hand for an older one"))
            self._load(base)  # the fight before the attack's last throw: its damage not applied
            self._attack = attack.reopened(done)
        else:
            base = self._document(with_undo=False, with_base=False)
        self._attack = attack.corrected(self._attack, throw, index, value)
        outcome = attack.outcome(self._attack)  # raises InvalidRoll for a face the die does not have
        if outcome.needs is None:
            self._finish(outcome)
        self._attack_base = base if self._attack is None else None

    def _throw(self, values: Sequence[int], source: str) -> None:
        if self._attack is None:
            raise NotNow(Phrase("no attack is being resolved: start one first"))
        base = self._document(with_undo=False, with_base=False)
        self._attack = attack.thrown(self._attack, values, source)
        outcome = attack.outcome(self._attack)  # raises InvalidRoll for a face the die does not have
        if outcome.complete:
            self._finish(outcome)
        self._attack_base = base if self._attack is None else None

    def _finish(self, outcome: AttackOutcome) -> None:
        """Apply a complete attack to the fight."""
        self._encounter.apply_attack(outcome)
        self._last_attack = attack.done(cast(dict, self._attack), outcome)  # only while an attack is under way
        self._last_attack["turn"] = self._turn()  # a counter-attack comes in the same turn (RULES DD-6)
        self._attack = None

    # ------------------------------------------------------------ dice from the tray

    def read_tray(self, step: str, name: str | None = None) -> dict:
        """Take the dice of this step from the next throw that settles from now on (RULES T-2):
        ``"attack"`` (each throw of the attack being resolved, until it is complete or
        cancelled) or ``"initiative"`` of fighter ``name`` (their Mind die, before the
        fight starts). Asking again replaces the wait; dice by hand stay possible.

        :raises InvalidStep: no attack being resolved, the fight already started, a bad step.
        :raises KeyError: no fighter called ``name``.
        """
        return self._tray.ask(step, name)

    def tap_initiative(self, name: str, value: int | None) -> dict:
        """Fighter ``name``'s Mind die tapped on a phone before the fight starts, kept in the
        state every phone gets (``tray.tapped``), so each phone can tap its own fighter (RULES
        DD-1: everyone rolls their Mind die); None takes it back. A later read from the tray
        replaces it, and it replaces a read; the fight starts with the values the
        players send (:meth:`roll_initiative`). Not a step of the fight (no undo).

        :raises InvalidStep: the fight has started. :raises KeyError: no fighter called ``name``.
        :raises InvalidRoll: a value the fighter's Mind die does not show (a d10's 0 is 10).
        """
        return self._tray.tap(name, value)

    def cancel_tray(self) -> dict:
        """Stop waiting for dice from the tray (nothing else changes)."""
        return self._tray.cancel()

    def enter_top_face(self, value: int) -> dict:
        """RULES T-5 accept_leaning: the top face of the die the last throw read showed leaning
        (the readers read none, T-1), entered by hand; once no die of the throw leans, it
        fills its step as a throw read does (an attack's throw then counts as corrected).

        :raises InvalidStep: no die leans, or a face the die does not have.
        """
        return self._tray.enter_top_face(value)

    def on_settled(self, frame, t: float) -> bool:
        """A frame (H×W×3 uint8 BGR) of a tray that settled at ``t`` (seconds on ``clock``),
        through a :class:`~device.tray.dispatch.TrayDispatcher` of this fight alone (tests).

        :returns: True when the frame was taken (a step waited for it).
        """
        return self._tray.dispatcher.on_settled(frame, t)

    def wanted(self, t: float) -> Wanted | None:
        """The dice a waiting step asks of a frame settled at ``t`` (the tray dispatcher's
        question): None when no step waits, or the frame settled before the step asked
        (RULES T-2). Read with the numbered reader, they fill the step when they are
        exactly the dice asked for (:func:`device.tray.match.match`), under the cocked-die
        policy now (RULES T-5)."""
        return self._tray.wanted(t)

    def take(self, taken: Taken) -> bool:
        """The frame :meth:`wanted` asked for: its dice fill the step, else the problem is shown."""
        return self._tray.take(taken)

    @step
    def _tray_throw(self, values: Sequence[int], source: str = "camera") -> None:
        """The attack's throw read from the tray: a step like dice tapped, undoable."""
        self._throw(values, source)

    @step
    def cancel_attack(self) -> None:
        """Drop the attack being resolved (nothing is applied)."""
        if self._attack is None:
            raise NotNow(Phrase("no attack is being resolved"))
        self._attack = None

    # ------------------------------------------------------------ other actions

    @step
    def help(self, helper: str, ally: str, bonus: int = 1) -> None:
        """+1 (or +2) to the ally's next roll (RULES DD-2)."""
        self._encounter.help(helper, ally, bonus)

    @step
    def damage(self, name: str, amount: int, reason: str | None = None) -> None:
        """PV off a fighter (a spell, a fall…) (RULES DD-9)."""
        self._encounter.damage(name, amount, reason)

    @step
    def heal(self, name: str, amount: int, reason: str | None = None) -> None:
        """PV back, not above the maximum; a hero out of combat stands (RULES DD-9)."""
        self._encounter.heal(name, amount, reason)

    @step
    def add_condition(self, name: str, condition: Mapping) -> None:
        """``name`` bears ``condition`` ``{"name", "duration"?, "poison"?, "poison_die"?, "source"?}`` (RULES DD-11)."""
        self._encounter.add_condition(name, Condition.from_dict(condition))

    @step
    def cure(self, name: str, condition: str) -> None:
        """End a condition (magic, a potion) (RULES DD-11)."""
        self._encounter.cure(name, condition)

    @step
    def spend_energy(self, name: str, energy: str, amount: int = 1) -> None:
        """Spend EC, EM or EA on a skill or a spell (RULES DD-10)."""
        self._encounter.spend_energy(name, energy, amount)

    @step
    def short_rest(self, name: str, roll: int) -> None:
        """+1d4 PV (the d4 thrown) and +1 of each energy (RULES DD-10)."""
        self._encounter.short_rest(name, roll)

    @step
    def long_rest(self, name: str) -> None:
        """All PV and energy back, conditions end (RULES DD-10)."""
        self._encounter.long_rest(name)

    # ------------------------------------------------------------ inside

    def _no_attack(self, what: Phrase) -> None:
        if self._attack is not None:
            raise NotNow(Phrase("finish or cancel the attack before {what}", what=what))

    def _check_size(self) -> None:
        if len(self._encounter.participants) > MAX_PARTICIPANTS:
            raise InvalidStep(Phrase.ngettext("a fight has at most {count} fighter",
                                              "a fight has at most {count} fighters",
                                              MAX_PARTICIPANTS, count=MAX_PARTICIPANTS))

    def _save_hero(self, sheet: Mapping) -> None:
        checked = checked_sheet(sheet, "hero")
        checked["name"] = fighter_name(checked["name"])
        others = [s for s in self._saved_heroes if s["name"] != checked["name"]]
        if len(others) >= MAX_SAVED_HEROES:
            raise InvalidStep(Phrase.ngettext("at most {count} saved hero", "at most {count} saved heroes",
                                              MAX_SAVED_HEROES, count=MAX_SAVED_HEROES))
        self._saved_heroes = others + [checked]
