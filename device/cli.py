"""The ``dicelens`` command line: one sub-command per part of the product.

Each sub-command lives in its own module, which exposes
``register(subparsers)`` and sets ``func`` (``args -> exit status``) on its
parser. Bad input ends with exit status 2 and one plain line on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import re
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from device.errors import DeviceError

# The modules that add sub-commands, in the order `dicelens --help` lists them.
_COMMAND_MODULES = (
    "device.cli_rules",
    "device.cli_read",
    "device.cli_teach",
    "device.serve",
    "device.hotspot",
)


class UsageError(ValueError):
    """Bad input on the command line; the message is the one line shown.

    A ``ValueError``, so it is caught however this module was imported
    (``python -m device.cli`` runs it as ``__main__`` beside ``device.cli``).
    """


def output_folder(path: Path, option: str) -> Path:
    """Make sure ``path`` is a folder files can be written into, creating it if missing.

    :param option: the option that named it (``"--annotate"``), for the message.
    :raises UsageError: naming the option, when ``path`` is a file, cannot be
        created (a file on its way, no permission) or cannot be written into.
    """
    if path.exists() and not path.is_dir():
        raise UsageError(f"{option}: {path} is not a folder")
    if not path.exists():
        existing = next(parent for parent in path.parents if parent.exists())
        if not existing.is_dir():
            raise UsageError(f"{option}: cannot create {path}: {existing} is not a folder")
        try:
            path.mkdir(parents=True)
        except OSError as exc:
            raise UsageError(f"{option}: cannot create {path}: {exc.strerror}") from None
    try:  # the only sure test of writing (as root, access() says yes to read-only mounts)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise UsageError(f"{option}: cannot write into {path}: {exc.strerror}") from None
    return path


def summary(doc: str) -> str:
    """A command module's docstring's first line as ``--help`` shows it: plain text, without
    the reST marks of literals (````dicelens read```` → ``dicelens read``)."""
    return doc.splitlines()[0].replace("``", "")


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def whole_number(text: str) -> int:
    """Parse one whole number of ASCII digits, with an optional sign.

    Python's ``int()`` also takes ``1_0`` (as 10) and other scripts' digits (``٣`` as 3),
    which no user means as a die's value or a count.

    :raises argparse.ArgumentTypeError: naming the text, for anything else.
    """
    if not _WHOLE_NUMBER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return int(text)


def number(text: str) -> float:
    """Parse a number of ASCII digits (``2``, ``0.5``), as :func:`whole_number` does a whole one.

    :raises argparse.ArgumentTypeError: naming the text, for anything else.
    """
    if not _NUMBER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    return float(text)


class _GivenOnce(argparse.Action):
    """Mixed into every single-valued action: an option given twice with different values
    (``--rule-of-ten --no-rule-of-ten``, ``--dice 1 --dice 2``) is refused with the
    reason, where argparse lets the last one win. The same value twice is no conflict."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = vars(namespace).setdefault("_options_given", {})
        super().__call__(parser, namespace, values, option_string)
        value = getattr(namespace, self.dest)
        if self.dest in given and given[self.dest][1] != value:
            raise UsageError(f"argument {option_string}: conflicts with {given[self.dest][0]} "
                             "given before it: give one")
        given[self.dest] = (option_string, value)


_GIVEN_ONCE: dict[type, type] = {}
# Actions meant to be given many times, or that end the parse.
_REPEATABLE = (argparse._AppendAction, argparse._AppendConstAction, argparse._CountAction,
               argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse would print the whole usage
        raise UsageError(message)

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        vars(namespace).pop("_options_given", None)  # _GivenOnce's notes, not an option
        return namespace, extras

    def add_argument(self, *args, **kwargs) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        if action.option_strings and not isinstance(action, _REPEATABLE):
            kind = type(action)
            if kind not in _GIVEN_ONCE:
                _GIVEN_ONCE[kind] = type(f"GivenOnce{kind.__name__}", (_GivenOnce, kind), {})
            action.__class__ = _GIVEN_ONCE[kind]
        return action


def add_choice_of(parser: argparse.ArgumentParser, what: str, **options) -> argparse._SubParsersAction:
    """``parser.add_subparsers`` whose absence is one line listing the choices
    ("resolve needs a system: d6, pool, attack or initiative"); argparse alone
    says only "the following arguments are required: SYSTEM"."""
    choices = parser.add_subparsers(dest=what, metavar=what.upper(), **options)

    def missing(args: argparse.Namespace) -> int:
        names = list(choices.choices)
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        command = parser.prog.removeprefix("dicelens").strip()
        raise UsageError(f"{command} needs a {what}: {listed}" if command else f"give a {what}: {listed}")

    parser.set_defaults(func=missing)  # a chosen sub-command's own func overrides it
    return choices


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dicelens", description=summary(__doc__))
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {importlib.metadata.version('dicelens')}")
    subparsers = add_choice_of(parser, "command", parser_class=_Parser)
    for name in _COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``dicelens``; returns the exit status (0 ok, 2 bad input)."""
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except (UsageError, ValueError, DeviceError) as exc:  # device's errors say why in one line
        print(f"dicelens: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`dicelens read … | head`): end quietly, as the
        # Python docs advise, so the interpreter's final flush does not fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
