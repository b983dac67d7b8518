"""``dicelens resolve …`` and ``dicelens odds …``: the rules on given dice, as JSON.

Each rules system adds one parser under ``resolve`` and one under ``odds``
(see :data:`RESOLVE_SYSTEMS` and :data:`ODDS_SYSTEMS`). Output is one JSON
object on stdout; bad input raises :class:`device.cli.UsageError` or the rules'
``InvalidRoll`` (a ``ValueError``), which ``dicelens`` turns into exit status 2.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from rules.d6 import KINDS, D6Spec, resolve_d6
from rules.d6_odds import odds_d6


def natural_values(text: str) -> tuple[int, ...]:
    """Parse ``"6,4,2"`` into natural values; argparse reports a bad one in one line."""
    parts = [part.strip() for part in text.split(",")]
    if parts == [""]:
        raise argparse.ArgumentTypeError("no dice given")
    values = []
    for part in parts:
        try:
            values.append(int(part))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r} is not a whole number") from None
    return tuple(values)


def whole_number(text: str) -> int:
    """Parse one integer (a modifier, a count); argparse reports a bad one in one line."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


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
        principal_known=not args.no_principal,
    )


def _add_d6_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kind", choices=KINDS, default="D6", help="how each die is read (default D6)")
    parser.add_argument("--modifier", type=whole_number, default=0, help="added to the total, e.g. 2 or -1")
    parser.add_argument("--random", action="store_true", help="a random die: modifiers are ignored (RULES D6-6)")
    parser.add_argument(
        "--no-principal",
        action="store_true",
        help="no die can be told apart as the principal: all secondary, no perfect roll",
    )


def _resolve_d6(args: argparse.Namespace) -> int:
    count = len(args.dice) if args.count is None else args.count
    spec = _d6_spec(args, count)
    return _print_json(resolve_d6(spec, args.dice, args.extra, max_links=args.max_links).to_dict())


def add_resolve_d6(systems: argparse._SubParsersAction) -> None:
    """``dicelens resolve d6 --kind D6 --dice P,S,S… [--extra E,E…] …`` (RULES §1)."""
    parser = systems.add_parser("d6", help="a D6 test: principal die, perfect roll chain")
    parser.add_argument(
        "--dice", type=natural_values, required=True, help="natural values, principal die first: 6,4"
    )
    parser.add_argument("--extra", type=natural_values, default=(), help="the extra dice in order: 6,2")
    parser.add_argument("--count", type=whole_number, help="dice the roll asks for (default: as many as --dice)")
    parser.add_argument("--roller", help="who rolls (recorded only)")
    parser.add_argument("--max-links", type=whole_number, help="stop a perfect-roll chain after this many extra dice")
    _add_d6_options(parser)
    parser.set_defaults(func=_resolve_d6)


def _odds_d6(args: argparse.Namespace) -> int:
    return _print_json(odds_d6(_d6_spec(args, args.count)))


def add_odds_d6(systems: argparse._SubParsersAction) -> None:
    """``dicelens odds d6 --kind D6 --count N [--modifier M]``: exact distribution of the total."""
    parser = systems.add_parser("d6", help="exact distribution of a D6 test's total")
    parser.add_argument("--count", type=whole_number, required=True, help="dice in the roll")
    _add_d6_options(parser)
    parser.set_defaults(func=_odds_d6)


# One entry per rules system; each adds its parser under `resolve` / `odds`.
RESOLVE_SYSTEMS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (add_resolve_d6,)
ODDS_SYSTEMS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (add_odds_d6,)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``resolve`` and ``odds`` with one sub-command per rules system."""
    resolve = subparsers.add_parser("resolve", help="resolve a roll from given dice values, as JSON")
    systems = resolve.add_subparsers(dest="system", metavar="SYSTEM", required=True)
    for add in RESOLVE_SYSTEMS:
        add(systems)
    odds = subparsers.add_parser("odds", help="exact odds of a roll, as JSON")
    systems = odds.add_subparsers(dest="system", metavar="SYSTEM", required=True)
    for add in ODDS_SYSTEMS:
        add(systems)
