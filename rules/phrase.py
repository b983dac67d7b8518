"""A message worded in English from a template and its values, kept apart for translation.

The rules and the device word their refusals in English; the page speaks the players'
language. A :class:`Phrase` is the English text (a ``str``: it prints, compares and logs as
one) that also keeps its ``template`` and ``values``, so ``web`` can translate the template
and fill in the values (``web/messages.py``). ``pybabel extract -k Phrase`` finds the
templates; a phrase whose words follow a count is made by :meth:`Phrase.ngettext`, which
pybabel's default ``ngettext`` keyword extracts as a plural entry.
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
    #: the plural form of ``template`` and the number that picks between them (its count,
    #: :meth:`ngettext`; not ``count``, which is ``str.count``); None for a phrase without one.
    plural: str | None = None
    number: int | None = None

    def __new__(cls, template: str, **values: object) -> Phrase:
        text = super().__new__(cls, template.format(**values))
        text.template, text.values = template, values
        return text

    @classmethod
    def ngettext(cls, singular: str, plural: str, count: int, /, **values: object) -> Phrase:
        """A phrase whose words follow ``count`` (a number of ``values`` too): in English
        ``singular`` for 1, else ``plural``; the page picks its language's form by ``count``
        (``ngettext``, whose plural forms a language may have more of).

        >>> Phrase.ngettext("{n} die still missing", "{n} dice still missing", 2, n=2)
        '2 dice still missing'
        """
        text = super().__new__(cls, (singular if count == 1 else plural).format(**values))
        text.template, text.values, text.plural, text.number = singular, values, plural, count
        return text

    def __reduce__(self) -> tuple[object, tuple[dict[str, Any]]]:
        # copy and pickle rebuild it from its template, not from its text (which may hold braces)
        return Phrase.from_dict, (self.to_dict(),)

    def to_dict(self) -> dict[str, Any]:
        """``{"template", "values"}`` (and ``"plural"``, ``"count"`` of :meth:`ngettext`),
        each value that is a :class:`Phrase` as its dict too: what a store keeps to word the
        phrase again in another language (JSON-ready when the values are)."""
        plural = {} if self.plural is None else {"plural": self.plural, "count": self.number}
        return {"template": self.template, **plural,
                "values": {key: value.to_dict() if isinstance(value, Phrase) else value
                           for key, value in self.values.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Phrase:
        """The phrase of a :meth:`to_dict`. :raises KeyError, TypeError: not such a dict."""
        values = {key: cls.from_dict(value) if _is_phrase_dict(value) else value
                  for key, value in dict(data["values"]).items()}
        if "plural" in data:
            return cls.ngettext(str(data["template"]), str(data["plural"]), int(data["count"]), **values)
        return cls(str(data["template"]), **values)


def _is_phrase_dict(value: object) -> bool:
    return isinstance(value, dict) and set(value) in ({"template", "values"},
                                                      {"template", "plural", "count", "values"})
