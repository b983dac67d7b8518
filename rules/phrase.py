"""A message worded in English from a template and its values, kept apart for translation.

The rules and the device word their refusals in English; the page speaks the players'
language. A :class:`Phrase` is the English text (a ``str``: it prints, compares and logs as
one) that also keeps its ``template`` and ``values``, so ``web`` can translate the template
and fill in the values (``web/messages.py``). ``pybabel extract -k Phrase`` finds the
templates.
"""

from __future__ import annotations


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
