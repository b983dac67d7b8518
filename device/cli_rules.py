"""``dicelens resolve …`` and ``dicelens odds …``: the rules on given dice, as JSON.

Each rules system adds one parser under ``resolve`` and one under ``odds``
(see :data:`RESOLVE_SYSTEMS` and :data:`ODDS_SYSTEMS`). Output is one JSON
object on stdout; bad input raises :class:`device.cli.UsageError` or the rules'
``InvalidRoll`` (a ``ValueError``), which ``dicelens`` turns into exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from device.cli import UsageError, add_choice_of, whole_number
from rules.d6 import KINDS, PRINCIPAL_KIND, D6Spec, counted_value, resolve_d6
from rules.d6_odds import odds_d6
from rules.destiny import resolve_attack
from rules.destiny_odds import attack_odds
from rules.destiny_spec import CHARACTERISTIC_SIDES, WEAPONS, AttackSpec, DestinyOptions, Side, check_characteristic
from rules.errors import InvalidRoll
from rules.initiative import initiative_order
from rules.pool import MISMATCH_DIFFICULTY, PoolOptions, PoolSpec, normalise_natural, resolve_pool
from rules.pool_odds import pool_odds


def natural_values(text: str) -> tuple[int, ...]:
    """Parse ``"6,4,2"`` into natural values; argparse reports a bad one in one line."""
    parts = [part.strip() for part in text.split(",")]
    if parts == [""]:
        raise argparse.ArgumentTypeError("no dice given")
    return tuple(whole_number(part) for part in parts)


def whole_number_in(lowest: int, highest: int | None = None) -> Callable[[str], int]:
    """An argparse type for a whole number in a range, so the error names the option:
    ``argument --penalty: must be 0 or more, not -5``. The rules check again."""
    span = f"{lowest} or more" if highest is None else f"{lowest} to {highest}"

    def parse(text: str) -> int:
        value = whole_number(text)
        if value < lowest or (highest is not None and value > highest):
            raise argparse.ArgumentTypeError(f"must be {span}, not {text.strip()}")  # as typed: "+21", "021"
        return value

    return parse


def faces_of(check: Callable[[int], object], empty_allowed: bool = False) -> Callable[[str], tuple[int, ...]]:
    """An argparse type for ``"6,4,2"`` whose faces ``check`` (a rules function) accepts,
    so a face the die lacks is reported with the option that gave it."""

    def parse(text: str) -> tuple[int, ...]:
        values = natural_values(text) if text.strip() or not empty_allowed else ()
        for value in values:
            try:
                check(value)
            except InvalidRoll as exc:
                raise argparse.ArgumentTypeError(str(exc)) from None
        return values

    return parse


def _d6_face(value: int) -> int:
    return counted_value(value, "D6")


D20 = whole_number_in(1, 20)


def _print_json(obj: dict) -> int:
    print(json.dumps(obj))
    return 0


def _d6_spec(args: argparse.Namespace, count: int) -> D6Spec:
    return D6Spec(
        count=count,
        kind=args.kind,
        modifier=args.modifier,
        random=args.random,
        roller=getattr(args, "roller", None),
        principal_known=not getattr(args, "no_principal", False),
    )


def _add_d6_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kind", type=str.upper, choices=KINDS, default="D6", help="how each die is read (default D6)")
    parser.add_argument("--modifier", type=whole_number, default=0, help="added to the total, e.g. 2 or -1")
    parser.add_argument("--random", action="store_true", help="a random die: modifiers are ignored (RULES D6-6)")


def _resolve_d6(args: argparse.Namespace) -> int:
    count = len(args.dice) if args.count is None else args.count
    spec = _d6_spec(args, count)
    outcome = resolve_d6(spec, args.dice, args.extra, max_links=args.max_links)
    if outcome.needs is not None and outcome.needs.kind == PRINCIPAL_KIND:  # RULES D6-2a: how to say which
        print("dicelens: give the principal die first in --dice, without --no-principal", file=sys.stderr)
    return _print_json(outcome.to_dict())


def add_resolve_d6(systems: argparse._SubParsersAction) -> None:
    """``dicelens resolve d6 --kind D6 --dice P,S,S… [--extra E,E…] …`` (RULES §1)."""
    parser = systems.add_parser("d6", help="a D6 test: principal die, perfect roll chain")
    parser.add_argument(
        "--dice", type=faces_of(_d6_face), required=True, help="natural values, principal die first: 6,4"
    )
    parser.add_argument("--extra", type=faces_of(_d6_face), default=(), help="the extra dice in order: 6,2")
    parser.add_argument("--count", type=whole_number_in(1), help="dice the roll asks for (default: as many as --dice)")
    parser.add_argument("--roller", type=player_name, help="who rolls (recorded only)")
    parser.add_argument("--max-links", type=whole_number_in(1),
                        help="stop a perfect-roll chain after this many extra dice")
    parser.add_argument("--no-principal", action="store_true",
                        help="no die stands out as the principal one: a lone die still is; of several, "
                             "the result asks which (RULES D6-2a)")
    _add_d6_options(parser)
    parser.set_defaults(func=_resolve_d6)


def _odds_d6(args: argparse.Namespace) -> int:
    return _print_json(odds_d6(_d6_spec(args, args.count)))


def add_odds_d6(systems: argparse._SubParsersAction) -> None:
    """``dicelens odds d6 --kind D6 --count N [--modifier M]``: exact distribution of the total."""
    parser = systems.add_parser("d6", help="exact distribution of a D6 test's total")
    parser.add_argument("--count", type=whole_number_in(1), required=True, help="dice in the roll")
    _add_d6_options(parser)
    parser.set_defaults(func=_odds_d6)


def _pool_spec(args: argparse.Namespace, size: int) -> PoolSpec:
    options = PoolOptions(rule_of_ten=args.rule_of_ten, rule_of_one=args.rule_of_one,
                          target_number=args.target_number)
    return PoolSpec(size=size, difficulty=args.difficulty, penalty=args.penalty, bonus=args.bonus,
                    mismatch=args.mismatch, options=options)


def _add_pool_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--difficulty", type=whole_number_in(1), default=1,
                        help="net successes needed (default 1, RULES P-6)")
    parser.add_argument("--penalty", type=whole_number_in(0), default=0,
                        help="dice removed from the pool, e.g. 1 or 4 (RULES P-8)")
    parser.add_argument("--bonus", type=whole_number_in(0), default=0, help="dice added to the pool (RULES P-8, P-10)")
    parser.add_argument("--mismatch", type=lambda text: text.lower().replace("-", "_"),
                        choices=[m for m in MISMATCH_DIFFICULTY if m],
                        help="skill rolled with another attribute: +1 or +2 difficulty (RULES P-9)")
    parser.add_argument("--rule-of-ten", action=argparse.BooleanOptionalAction, default=True,
                        help="each 10 cancels a 1 and is rolled again (default on, RULES P-3)")
    parser.add_argument("--rule-of-one", action=argparse.BooleanOptionalAction, default=True,
                        help="each 1 cancels a success; a 1 left over is a botch (default on, RULES P-4)")
    parser.add_argument("--target-number", type=whole_number_in(2, 10), default=6,
                        help="lowest face that is a success (default 6, RULES P-2)")


# "1,3,5,0" into d10 values; empty text is no dice (an automatic failure).
pool_values = faces_of(normalise_natural, empty_allowed=True)


def _pool_sum(args: argparse.Namespace, size: int) -> str:
    """How the pool was counted, in the options given: ``"--size 2 - --penalty 3"``."""
    text = f"--size {size}"
    if args.penalty:
        text += f" - --penalty {args.penalty}"
    if args.bonus:
        text += f" + --bonus {args.bonus}"
    return text


def _resolve_pool(args: argparse.Namespace) -> int:
    given = len(args.dice)
    if args.size is None and not args.dice:
        raise UsageError("give --dice, or --size and --penalty for a pool with no dice left")
    # Without --size the dice given are the pool after penalty and bonus.
    size = given + args.penalty - args.bonus if args.size is None else args.size
    if size < 0:
        raise UsageError(f"--bonus {args.bonus} adds more dice than the {given} in --dice: "
                         "give every die thrown, or --size for the pool before penalty and bonus")
    spec = _pool_spec(args, size)
    if spec.pool_size <= 0 and args.dice:
        raise UsageError(f"{_pool_sum(args, size)} leaves no dice: an automatic failure with no dice "
                         "rolled (RULES P-8), so leave out --dice")
    if 0 < spec.pool_size < given:
        raise UsageError(f"--dice gives {given} dice, more than the pool of {spec.pool_size} "
                         f"({_pool_sum(args, size)})")
    return _print_json(resolve_pool(spec, args.dice, args.reroll).to_dict())


def add_resolve_pool(systems: argparse._SubParsersAction) -> None:
    """``dicelens resolve pool --dice 1,3,5,10 [--reroll 10] [--difficulty N] [--penalty N] …`` (RULES §2)."""
    parser = systems.add_parser("pool", help="a dice pool of d10s: successes, rule of one and of ten, botch")
    parser.add_argument("--dice", type=pool_values, default=(),
                        help="natural values of the first roll, 0 or 10 for a ten: 1,3,5,10")
    parser.add_argument("--reroll", type=pool_values, default=(),
                        help="the reroll of the 10s, one die per 10: 10")
    parser.add_argument("--size", type=whole_number_in(0),
                        help="dice of the pool before penalty and bonus (default: as many as --dice)")
    _add_pool_options(parser)
    parser.set_defaults(func=_resolve_pool)


def _odds_pool(args: argparse.Namespace) -> int:
    return _print_json(pool_odds(_pool_spec(args, args.dice)).to_dict())


def add_odds_pool(systems: argparse._SubParsersAction) -> None:
    """``dicelens odds pool --dice N [--difficulty D] …``: exact chance of success and botch."""
    parser = systems.add_parser("pool", help="exact odds of a dice pool: success, botch, successes")
    parser.add_argument("--dice", type=whole_number_in(0), required=True,
                        help="dice in the pool before penalty and bonus")
    _add_pool_options(parser)
    parser.set_defaults(func=_odds_pool)


def die_sides(text: str) -> int:
    """Parse a characteristic or defence die as ``"d8"`` or ``"8"`` into its sides, one of
    :data:`rules.destiny_spec.CHARACTERISTIC_SIDES` (RULES §3); a refusal echoes the die as
    typed (``must be a d4, d6, d8, d10 or d12, not d7``), which the rules' own cannot."""
    digits = text.strip().lower().removeprefix("d")
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a die such as d8")
    try:
        return check_characteristic(int(digits), "the die")
    except InvalidRoll:
        *most, last = (f"d{n}" for n in CHARACTERISTIC_SIDES)
        raise argparse.ArgumentTypeError(f"must be a {', '.join(most)} or {last}, not {text.strip()}") from None


def _attack_spec(args: argparse.Namespace) -> AttackSpec:
    return AttackSpec(
        attacker_die=args.attacker_die, defence_die=args.defence_die, ranged=args.ranged, weapon=args.weapon,
        armour=args.armour, shield=args.shield, attack_bonus=args.attack_bonus, defence_bonus=args.defence_bonus,
        damage_bonus=args.damage_bonus, defender=args.defender,
        options=DestinyOptions(ties_favour_defender=args.ties_favour_defender,
                               defensive_fumble_on_hit=args.defensive_fumble_on_hit))


def _add_attack_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--attacker-die", type=die_sides, required=True,
                        help="the attacking characteristic: Body for melee, Mind for ranged, d4-d12")
    parser.add_argument("--defence-die", type=die_sides, required=True,
                        help="a hero's Body die or an enemy's Defence die, d4-d12")
    parser.add_argument("--ranged", action="store_true", help="a ranged weapon: a Destiny 1 misses (RULES DD-7)")
    parser.add_argument("--weapon", type=str.lower, choices=[*WEAPONS, "unarmed"],
                        help="damage +1/+2/+3, or unarmed: die - 1, at least 1 (RULES DD-8)")
    parser.add_argument("--armour", type=whole_number_in(0), default=0, help="added to the defence (RULES DD-4)")
    parser.add_argument("--shield", type=whole_number_in(0), default=0, help="added to the defence (RULES DD-4)")
    parser.add_argument("--attack-bonus", type=whole_number, default=0, help="added to the attack, e.g. help")
    parser.add_argument("--defence-bonus", type=whole_number, default=0, help="added to the defence, e.g. help")
    parser.add_argument("--damage-bonus", type=whole_number_in(0), default=0, help="magic weapons, active skills")
    parser.add_argument("--defender", type=str.lower, choices=["hero", "enemy"], default="enemy",
                        help="who defends (default enemy)")
    parser.add_argument("--ties-favour-defender", action="store_true",
                        help="an attack equal to the defence is blocked (RULES DD-5 option)")
    parser.add_argument("--defensive-fumble-on-hit", action="store_true",
                        help="the defender's Destiny 1 costs 1 damage on a hit too (RULES DD-8 option)")


def _throw(args: argparse.Namespace, die: str, d20: str) -> tuple[int, ...]:
    value, destiny = getattr(args, die), getattr(args, d20)
    if value is None and destiny is not None:
        raise UsageError(f"--{d20.replace('_', '-')} given without --{die}: the die comes first")
    return tuple(v for v in (value, destiny) if v is not None)


def _resolve_attack(args: argparse.Namespace) -> int:
    spec = _attack_spec(args)
    damage = () if args.damage is None else (args.damage,)
    defence = _throw(args, "defence", "defence_d20")
    outcome = resolve_attack(spec, _throw(args, "attack", "attack_d20"), defence, damage)
    unused = _unused_dice(outcome.automatic_miss, defence, damage) if outcome.hit is False else None
    if unused:  # a game result, not bad input: say which dice did not count
        print(f"dicelens: {unused}", file=sys.stderr)
    return _print_json(outcome.to_dict())


def _unused_dice(automatic_miss: bool, defence: tuple[int, ...], damage: tuple[int, ...]) -> str | None:
    """One line naming the dice given that a miss leaves unused, or None."""
    if automatic_miss and (defence or damage):
        given = " and ".join(name for name, dice in (("the defender's throw", defence), ("--damage", damage)) if dice)
        return f"{given} not counted: a Destiny 1 when shooting is an automatic miss (RULES DD-7)"
    if damage:
        return "--damage not counted: the attack missed (RULES DD-8)"
    return None


def add_resolve_attack(systems: argparse._SubParsersAction) -> None:
    """``dicelens resolve attack --attacker-die d8 --attack 7 --attack-d20 12 --defence-die d6 --defence 4
    --defence-d20 9 [--damage 5] …`` (RULES DD-4 … DD-8); missing dice come back as ``needs``."""
    parser = systems.add_parser("attack", help="a Destiny Dice attack: hit, effects, damage")
    _add_attack_options(parser)
    parser.add_argument("--attack", type=whole_number, help="the attacker's characteristic die")
    parser.add_argument("--attack-d20", type=D20, help="the attacker's Destiny d20")
    parser.add_argument("--defence", type=whole_number, help="the defender's die, before armour and shield")
    parser.add_argument("--defence-d20", type=D20, help="the defender's Destiny d20")
    parser.add_argument("--damage", "--damage-roll", type=whole_number, help="on a hit: the attacker's die again")
    parser.set_defaults(func=_resolve_attack)


def player_name(text: str) -> str:
    """A player's name: at most 40 printable characters, as the page takes it (messages name people on one line)."""
    name = text.strip()
    if not name or len(name) > 40 or not name.isprintable():
        raise argparse.ArgumentTypeError(f"{text!r} is not a name: 1 to 40 printable characters")
    return name


def initiative_value(text: str) -> tuple[str, int]:
    """Parse ``"Nara=6"`` into a name and a Mind die result."""
    name, sep, value = text.rpartition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    name, number = player_name(name), whole_number(value)
    if not 1 <= number <= 12:  # a Mind die, d4 to d12 (RULES DD-1), as the combat page takes it
        raise argparse.ArgumentTypeError(f"{name}'s initiative must be 1 to 12 (a Mind die), not {value.strip()}")
    return name, number


def _resolve_initiative(args: argparse.Namespace) -> int:
    entries: list[tuple[str, Side, int | None]] = [(name, "hero", value) for name, value in args.hero] + [
        (name, "enemy", value) for name, value in args.enemy]
    if not entries:
        raise UsageError("give at least one --hero NAME=VALUE or --enemy NAME=VALUE")
    order = initiative_order(entries)
    return _print_json({"order": [entry.name for entry in order], "entries": [entry.to_dict() for entry in order]})


def add_resolve_initiative(systems: argparse._SubParsersAction) -> None:
    """``dicelens resolve initiative --hero Nara=6 --enemy "Rival 1=6" …`` (RULES DD-1)."""
    parser = systems.add_parser("initiative", help="Destiny Dice initiative order, heroes first on ties")
    parser.add_argument("--hero", type=initiative_value, action="append", default=[], help="NAME=VALUE")
    parser.add_argument("--enemy", type=initiative_value, action="append", default=[], help="NAME=VALUE")
    parser.set_defaults(func=_resolve_initiative)


def _odds_attack(args: argparse.Namespace) -> int:
    return _print_json(attack_odds(_attack_spec(args)))


def add_odds_attack(systems: argparse._SubParsersAction) -> None:
    """``dicelens odds attack --attacker-die d8 --defence-die d6 [--armour 1] …``: exact chance of a hit."""
    parser = systems.add_parser("attack", help="exact odds of a Destiny Dice attack")
    _add_attack_options(parser)
    parser.set_defaults(func=_odds_attack)


# One entry per rules system; each adds its parser under `resolve` / `odds`.
RESOLVE_SYSTEMS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (
    add_resolve_d6, add_resolve_pool, add_resolve_attack, add_resolve_initiative)
ODDS_SYSTEMS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (add_odds_d6, add_odds_pool, add_odds_attack)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``resolve`` and ``odds`` with one sub-command per rules system."""
    resolve = subparsers.add_parser("resolve", help="resolve a roll from given dice values, as JSON")
    systems = add_choice_of(resolve, "system")
    for add in RESOLVE_SYSTEMS:
        add(systems)
    odds = subparsers.add_parser("odds", help="exact odds of a roll, as JSON")
    systems = add_choice_of(odds, "system")
    for add in ODDS_SYSTEMS:
        add(systems)
