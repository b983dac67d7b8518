"""A message worded in English from a template and its values, kept apart for translation.

The rules and the device word their refusals in English; the page speaks the players'
language. A :class:`Phrase` is the English text (a ``str``: it prints, compares and logs as
one) that also keeps its ``template`` and ``values``, so ``web`` can translate the template
and fill in the values (``web/messages.py``). ``pybabel extract -k Phrase`` finds the
templates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Phrase(str):
    """``template.format(**values)``, keeping ``template`` and ``values``.

    >>> Phrase("die {n} is already the principal die: nothing to change", n=2)
    'die 2 is already the principal die: nothing to change'

    A value may be a :class:`Phrase` too (translated in its turn).
    """

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, **values: object) -> Phrase:
        text = super().__new__(cls, template.format(**values))
        text.template, text.values = template, values
        return text

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, object]]:
        # copy and pickle rebuild it from its template, not from its text (which may hold braces)
        return (self.template,), dict(self.values)

    def to_dict(self) -> dict[str, Any]:
        """``{"template", "values"}``, each value that is a :class:`Phrase` as its dict too:
        what a store keeps to word the phrase again in another language (JSON-ready when
        the values are)."""
        return {"template": self.template,
                "values": {key: value.to_dict() if isinstance(value, Phrase) else value
                           for key, value in self.values.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Phrase:
        """The phrase of a :meth:`to_dict`. :raises KeyError, TypeError: not such a dict."""
        values = {key: cls.from_dict(value) if _is_phrase_dict(value) else value
                  for key, value in dict(data["values"]).items()}
        return cls(str(data["template"]), **values)


def _is_phrase_dict(value: object) -> bool:
    return isinstance(value, dict) and set(value) == {"template", "values"}
