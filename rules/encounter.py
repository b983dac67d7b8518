"""A Destiny Dice fight (RULES.md §3, DD-1 … DD-11): who is in it, whose turn it is, what wears off.

:class:`Encounter` holds the participants, the initiative order, the round and the
turn, and takes one step at a time (roll initiative, next turn, apply an attack,
help, damage, heal, conditions, rests). Every step either happens whole or raises
and changes nothing; the last step can be undone once. The state is plain JSON
(:meth:`Encounter.to_dict`, :meth:`Encounter.from_dict`) so a fight survives a
restart; reading and writing the file is the device's job. Dice are never drawn
here: a value the players throw (a poison die, the short rest's d4) is handed in.

This module holds the steps; the state they change, its JSON and its undo are
:mod:`rules.encounter_state`'s, a fighter and their conditions :mod:`rules.participant`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.destiny import AttackOutcome
from rules.destiny_spec import UNARMED, AttackSpec, check_face, initiative_of
from rules.encounter_state import EncounterState, said, step
from rules.errors import InvalidStep, NotNow
from rules.initiative import initiative_order
from rules.participant import DISARMED, ENERGY, PARALYSED, POISON, PRONE, Condition, Participant, check_count, is_int
from rules.phrase import Phrase

SHORT_REST_DIE = 4  # RULES DD-10: +1d4 PV


class Encounter(EncounterState):
    """A fight: participants, initiative order, round and turn, and its log.

    Steps (each undoable once, see :meth:`undo`): :meth:`add`, :meth:`remove`,
    :meth:`roll_initiative`, :meth:`reorder`, :meth:`next_turn`, :meth:`poison_roll`,
    :meth:`apply_attack`, :meth:`help`, :meth:`use_help`, :meth:`damage`, :meth:`heal`,
    :meth:`add_condition`, :meth:`cure`, :meth:`spend_energy`, :meth:`short_rest`, :meth:`long_rest`,
    :meth:`end_scene`. Errors are :class:`rules.errors.InvalidStep` or
    :class:`rules.errors.InvalidRoll` (both ``ValueError``) with one plain sentence.

    :param participants: the fighters, in the order they were added.
    :param options: house rules for the attacks, :class:`rules.destiny.DestinyOptions`.
    """

    def attack_spec(self, attacker: str, defender: str, *, ranged: bool | None = None,
                    attack_modifier: int = 0, damage_bonus: int = 0) -> AttackSpec:
        """The attack of ``attacker`` on ``defender`` from their sheets (RULES DD-2, DD-4, DD-8).

        The help bonus each carries is added to their roll; it is spent when the
        attack is applied. A Desarmado attacker attacks unarmed, in melee, while it
        lasts (RULES DD-11, DD-8): the weapon lies on the ground.

        :param ranged: override the attacker's weapon (``None``: the weapon decides;
            a Desarmado attacker cannot shoot).
        :param attack_modifier: the narrator's modifier to the attack, e.g. −2 for
            a Ciego attacker who shoots (RULES DD-11).
        :param damage_bonus: magic weapons and active skills (RULES DD-8).
        :raises InvalidStep: for an unknown name, an attack on oneself, a fighter
            out of the fight, or a ranged attack by a Desarmado attacker.
        :raises InvalidRoll: for a weapon the attacking die cannot wield.
        """
        hitter, target = self.get(attacker), self.get(defender)
        if attacker == defender:
            raise InvalidStep(Phrase("{name} cannot attack themselves", name=attacker))
        for participant in (hitter, target):
            _check_in_fight(participant)
        weapon = hitter.weapon
        shoots = hitter.ranged if ranged is None else ranged
        if hitter.condition(DISARMED) is not None:  # RULES DD-11: unarmed (DD-8) while it lasts
            if ranged:
                raise InvalidStep(Phrase("{name} is Desarmado: no weapon to shoot with, only an unarmed attack",
                                         name=attacker))
            weapon, shoots = UNARMED, False
        return AttackSpec(
            attacker_die=hitter.attack_die(shoots), defence_die=target.defence_die, ranged=shoots,
            weapon=weapon, armour=target.armour, shield=target.shield,
            attack_bonus=hitter.help_bonus + attack_modifier, defence_bonus=target.help_bonus,
            damage_bonus=damage_bonus,
            defender=target.side, attacker_name=attacker, defender_name=defender, options=self.options)

    # ------------------------------------------------------------ setting up

    @step
    def add(self, participant: Participant, initiative: int | None = None) -> None:
        """Add a fighter; once the fight is on, with their initiative: they join the
        order after everyone already tied with them (RULES DD-1).

        :raises InvalidStep: for a duplicate name, or no initiative in a fight that is on.
        """
        self._add(participant)
        if self.started:
            if initiative is None:
                raise InvalidStep(Phrase("the fight is on: {name} needs an initiative (their Mind die)",
                                         name=participant.name))
            participant.initiative = check_face(initiative, participant.mind, initiative_of(participant.name))
            self._set_order(self.order + [participant.name])
        self._note("add", said("{name} joins the fight", name=participant.name))

    @step
    def remove(self, name: str) -> None:
        """Take a fighter out of the encounter (not the one whose turn it is)."""
        participant = self.get(name)
        if name == self.current:
            raise NotNow(Phrase("it is {name}'s turn: end it before removing them", name=name))
        self.participants.remove(participant)
        if name in self.order:
            self.order.remove(name)
            del self.groups[name]
        self._note("remove", said("{name} leaves the fight", name=name))

    @step
    def roll_initiative(self, values: Mapping[str, int]) -> None:
        """Start the fight: each participant's Mind die result, highest first,
        heroes before enemies on a tie (RULES DD-1); round 1 begins with the first.

        :param values: name → the Mind die's natural value, for every participant.
        :raises InvalidStep: for a missing or unknown name, a fight already on, or no hero or no enemy.
        :raises InvalidRoll: for a value the Mind die does not show.
        """
        if self.started:
            raise NotNow(Phrase("initiative is already rolled: end the scene to start another fight"))
        names = {p.name for p in self.participants}
        unknown = sorted(set(values) - names)
        if unknown:
            raise InvalidStep(Phrase("no participant called {list}", list=", ".join(unknown)))
        missing = [p.name for p in self.participants if p.name not in values]
        if missing:
            raise InvalidStep(Phrase("initiative missing for {list}: everyone rolls their Mind die",
                                     list=", ".join(missing)))
        if {p.side for p in self.participants} != {"hero", "enemy"}:
            raise InvalidStep(Phrase("a fight needs at least one hero and one enemy"))
        for participant in self.participants:
            participant.initiative = check_face(values[participant.name], participant.mind,
                                                initiative_of(participant.name))
        self._set_order([p.name for p in self.participants])
        self.round = 1
        self._note("initiative", said("initiative: {list}", list=", ".join(
            f"{name} {self.get(name).initiative}" for name in self.order)))
        self._advance(first=True)

    @step
    def reorder(self, names: Sequence[str]) -> None:
        """Reorder participants tied on initiative: the players order tied heroes,
        the narrator tied enemies (RULES DD-1). Nobody may leave their tie group.

        :param names: the whole acting order, as it should be.
        :raises InvalidStep: for another set of names, or a name moved out of its group.
        """
        names = list(names)
        if sorted(names) != sorted(self.order) or len(set(names)) != len(names):
            raise InvalidStep(Phrase("give every participant of the order once, and no one else"))
        for old, new in zip(self.order, names, strict=True):
            if self.groups[old] != self.groups[new]:
                raise InvalidStep(Phrase("{name} is not tied with {who}: only tied participants change places",
                                         name=new, who=old))
        self.order = names
        self._note("reorder", said("order: {list}", list=", ".join(names)))

    def _set_order(self, names: Sequence[str]) -> None:
        entries = [(name, self.get(name).side, self.get(name).initiative) for name in names]
        ordered = initiative_order(entries)
        self.order = [entry.name for entry in ordered]
        self.groups = {entry.name: entry.group for entry in ordered}

    # ------------------------------------------------------------ turns

    @step
    def next_turn(self) -> None:
        """End the current turn and start the next fighter's: temporary conditions
        end, poison deals its X, a paralysed fighter loses the turn (RULES DD-2, DD-11).
        Defeated enemies and heroes out of combat are passed over (RULES DD-9).

        :raises InvalidStep: before initiative, while a poison die is awaited, or when the fight is over.
        """
        if not self.started:
            raise NotNow(Phrase("roll initiative first"))
        if self.needs is not None:  # a poison die is awaited
            raise NotNow(Phrase("{what} first", what=self.needs.reason))
        self._advance(first=False)

    def _advance(self, first: bool) -> None:
        if self.over:
            raise NotNow(Phrase("the fight is over: {why}", why=self._winner()))
        position = -1 if first or self.current is None else self.order.index(self.current)
        for _ in range(len(self.order)):
            position += 1
            if position == len(self.order):
                position = 0
                self.round += 1
            if self.get(self.order[position]).status == "active":
                break
        self.current = self.order[position]
        self._begin_turn(self.get(self.current))

    def _begin_turn(self, fighter: Participant) -> None:
        """RULES DD-11: temporary conditions end at the start of the bearer's turn;
        Derribado and Desarmado say what that turn's main action goes on; Paralizado
        makes that turn lost; Envenenado deals X."""
        effects: list[str] = []
        self.turn_lost = fighter.condition(PARALYSED) is not None
        for condition in [c for c in fighter.conditions if c.duration == "temporary"]:
            fighter.conditions.remove(condition)
            if condition.name == PRONE:
                effects.append(said(PRONE + " ends: standing up costs {name}'s main action this turn",
                                     name=fighter.name))
            elif condition.name == DISARMED:  # RULES DD-11
                effects.append(said(DISARMED + " ends: taking the weapon back costs {name}'s main action this turn",
                                     name=fighter.name))
            else:
                effects.append(said("{condition} ends", condition=condition.label))
        if self.turn_lost:
            effects.append(said(PARALYSED + ": {name} loses this turn (still rolls defence)", name=fighter.name))
        self.turn_effects = effects
        self._note("turn", said("round {n}: {name}'s turn", n=self.round, name=fighter.name))
        for effect in effects:
            self._note("condition", effect)
        poison = fighter.condition(POISON)
        if poison is not None and poison.poison is not None:
            self._poison(fighter, poison.poison)
        elif poison is not None:
            self.pending_poison = {"name": fighter.name, "sides": poison.poison_die}

    @step
    def poison_roll(self, value: int) -> None:
        """The poison die thrown at the start of the bearer's turn (RULES DD-11 Envenenado 1dX).

        :raises InvalidStep: when no poison die is awaited.
        :raises InvalidRoll: for a value the die does not show.
        """
        if self.pending_poison is None:
            raise NotNow(Phrase("no poison die is awaited"))
        fighter = self.get(self.pending_poison["name"])
        value = check_face(value, self.pending_poison["sides"], Phrase("the poison die"))
        self.pending_poison = None
        self._poison(fighter, value)

    def _poison(self, fighter: Participant, amount: int) -> None:
        text = said(POISON + ": {name} takes {n} damage", name=fighter.name, n=amount)
        self.turn_effects.append(text)
        self._note("poison", text)
        self._hurt(fighter, amount)
        if fighter.status != "active":
            self.turn_lost = True

    # ------------------------------------------------------------ actions

    @step
    def apply_attack(self, outcome: AttackOutcome) -> None:
        """Apply a complete attack built by :meth:`attack_spec`: damage (or Fallo
        Defensivo's 1) off the defender's PV, 2 points to the attacker on a hit, and
        the help bonus of each side spent on the roll they made (RULES DD-2, DD-6, DD-8, DD-9).

        :raises InvalidStep: for an incomplete outcome, an unnamed or unknown side,
            or a fighter out of the fight.
        """
        if not isinstance(outcome, AttackOutcome) or not outcome.complete:
            raise InvalidStep(Phrase("only a complete attack can be applied: throw the dice it still needs"))
        spec = outcome.spec
        if spec.attacker_name is None or spec.defender_name is None:
            raise InvalidStep("the attack must name its attacker and defender (use attack_spec)")
        attacker, defender = self.get(spec.attacker_name), self.get(spec.defender_name)
        for participant in (attacker, defender):
            _check_in_fight(participant)
        attacker.help_bonus = 0
        if not outcome.automatic_miss:  # RULES DD-7: the defender did not roll
            defender.help_bonus = 0
        if outcome.hit:
            attacker.points[spec.points_name] += outcome.points
        self._note("attack", f"{attacker.name} attacks {defender.name}: {outcome.summary}",
                   outcome=outcome.to_dict())
        self._hurt(defender, outcome.damage or 0)  # None only while incomplete, refused above

    @step
    def help(self, helper: str, ally: str, bonus: int = 1) -> None:
        """``helper`` helps ``ally``: +1, or +2 for a clever description, to the
        ally's next roll, with no roll by the helper (RULES DD-2). Bonuses add up.

        :raises InvalidStep: for a bonus other than 1 or 2, or helping oneself;
            :class:`NotNow`: a helper or an ally out of the fight (no next roll: RULES DD-9).
        """
        giver, receiver = self.get(helper), self.get(ally)
        if bonus not in (1, 2) or not is_int(bonus):
            raise InvalidStep(f"help gives +1, or +2 for a clever description, not {bonus!r}")
        if helper == ally:
            raise InvalidStep(Phrase("{name} cannot help themselves", name=helper))
        _check_in_fight(giver)
        _check_in_fight(receiver)
        receiver.help_bonus += bonus
        self._note("help", said("{helper} helps {ally}: +{n} to {ally}'s next roll",
                                 helper=helper, ally=ally, n=bonus))

    @step
    def use_help(self, name: str) -> int:
        """Spend the help bonus on a roll made outside an attack (a skill, a spell).

        :returns: the bonus to add to that roll (0 when none is carried).
        """
        participant = self.get(name)
        bonus, participant.help_bonus = participant.help_bonus, 0
        if bonus:
            self._note("help", said("{name} uses +{n} from help", name=name, n=bonus))
        return bonus

    @step
    def damage(self, name: str, amount: int, reason: str | None = None) -> None:
        """Take ``amount`` PV off (not below 0) (RULES DD-9)."""
        participant = self.get(name)
        check_count(amount, "damage")
        self._note("damage", said("{name} takes {n} damage ({reason})", name=name, n=amount, reason=reason) if reason
                   else said("{name} takes {n} damage", name=name, n=amount))
        self._hurt(participant, amount)

    @step
    def heal(self, name: str, amount: int, reason: str | None = None) -> None:
        """Give ``amount`` PV back (not above the maximum). A hero out of combat
        stands at once and acts on their next turn (RULES DD-9)."""
        participant = self.get(name)
        check_count(amount, "healing", 1)
        self._restore(participant, amount, reason or "healed")

    @step
    def add_condition(self, name: str, condition: Condition) -> None:
        """``name`` now bears ``condition``; one of the same name is replaced (RULES DD-11)."""
        participant = self.get(name)
        if not isinstance(condition, Condition):
            raise InvalidStep("a condition must be a Condition")
        participant.conditions = [c for c in participant.conditions if c.name != condition.name] + [condition]
        self._note("condition", said("{name} is {condition} ({duration})", name=name, condition=condition.label,
                                      duration=condition.duration))

    @step
    def cure(self, name: str, condition: str) -> None:
        """End a condition by magic, a specific potion or a rest (RULES DD-11)."""
        participant = self.get(name)
        borne = participant.condition(condition)
        if borne is None:
            raise NotNow(Phrase("{name} is not {condition}", name=name, condition=condition))
        participant.conditions.remove(borne)
        self._note("condition", said("{name} is no longer {condition}", name=name, condition=borne.label))
        if borne.name == DISARMED:  # RULES DD-11
            self._note("condition", said("taking the weapon back costs {name}'s next main action", name=name))

    @step
    def spend_energy(self, name: str, energy: str, amount: int = 1) -> None:
        """Spend EC, EM or EA (energy of Body, Mind, Soul) on a skill or a spell.

        :raises InvalidStep: for an unknown energy or more than is left.
        """
        participant = self.get(name)
        if energy not in ENERGY:
            raise InvalidStep(f"energy is EC, EM or EA, not {energy!r}")
        check_count(amount, "energy spent", 1)
        if amount > participant.energy[energy]:
            raise NotNow(Phrase("{name} has {left} {energy}, not {n}", name=name, left=participant.energy[energy],
                                energy=energy, n=amount))
        participant.energy[energy] -= amount
        self._note("energy", said("{name} spends {n} {energy}: {left} left", name=name, n=amount, energy=energy,
                                   left=participant.energy[energy]))

    # ------------------------------------------------------------ rests and the end of a scene

    @step
    def short_rest(self, name: str, roll: int) -> None:
        """A short rest: +1d4 PV (not above the maximum) and +1 EC, EM and EA (RULES DD-10).

        :param roll: the d4 the player threw.
        :raises InvalidRoll: for a value a d4 does not show.
        """
        participant = self.get(name)
        check_face(roll, SHORT_REST_DIE, Phrase("the short rest's die"))
        for key in ENERGY:
            participant.energy[key] = min(participant.energy[key] + 1, participant.energy_max[key])
        self._restore(participant, roll, d4=roll)

    @step
    def long_rest(self, name: str) -> None:
        """A long rest: all PV and all energy back; conditions end (RULES DD-10, DD-11)."""
        participant = self.get(name)
        participant.pv = participant.pv_max
        participant.energy = dict(participant.energy_max)
        participant.conditions = []
        self._note("rest", said("{name} takes a long rest: {n} PV, full energy, no conditions",
                                 name=name, n=participant.pv))

    @step
    def end_scene(self) -> None:
        """End the fight: heroes out of combat wake with 1 PV (RULES DD-9),
        temporary conditions end, and the next fight rolls initiative anew."""
        for participant in self.participants:
            if participant.side == "hero" and participant.pv == 0:
                participant.pv = 1
                self._note("wake", said("{name} wakes with 1 PV", name=participant.name))
            participant.conditions = [c for c in participant.conditions if c.duration == "persistent"]
            participant.initiative = None
        self.order, self.groups, self.round, self.current = [], {}, 0, None
        self.turn_effects, self.turn_lost, self.pending_poison = [], False, None
        self._note("scene", said("the scene ends"))

    def _hurt(self, participant: Participant, amount: int) -> None:
        if amount <= 0:
            return
        participant.pv = max(participant.pv - amount, 0)
        if participant.pv == 0:
            # RULES DD-9: an enemy at 0 is defeated, a hero is out of combat.
            self._note("down", said("{name} is defeated", name=participant.name) if participant.status == "defeated"
                       else said("{name} is out of combat", name=participant.name))

    def _restore(self, participant: Participant, amount: int, reason: str = "healed", d4: int | None = None) -> None:
        was_down = participant.status != "active"
        participant.pv = min(participant.pv + amount, participant.pv_max)
        name, pv = participant.name, participant.pv
        self._note("heal", said("{name} recovers up to {n} PV (short rest, d4 {d4}): {pv} PV",
                                 name=name, n=amount, d4=d4, pv=pv) if d4 is not None else
                   said("{name} recovers up to {n} PV ({reason}): {pv} PV", name=name, n=amount, reason=reason, pv=pv))
        if was_down and participant.status == "active":
            self._note("stand", said("{name} stands and acts on their next turn", name=name))


def _check_in_fight(participant: Participant) -> None:
    """RULES DD-9: a defeated enemy or a hero out of combat takes no part in an attack or help.

    :raises NotNow: naming which.
    """
    if participant.status == "defeated":
        raise NotNow(Phrase("{name} is defeated", name=participant.name))
    if participant.status != "active":
        raise NotNow(Phrase("{name} is out of combat", name=participant.name))
