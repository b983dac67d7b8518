"""Languages of the page and the API: Flask-Babel with a locale picked per request.

The locale is, in order: an explicit ``?lang=`` (which is also remembered in the
``lang`` cookie for a year), the ``lang`` cookie, then the best match of the
browser's ``Accept-Language`` among :data:`LOCALES`, else English. Unknown codes are
ignored. ``pt-BR`` and ``pt_BR`` are both accepted; a region without a catalogue of
its own takes its language's (``pt-PT`` → ``pt_BR``, ``es-MX`` → ``es``).

Catalogues live in ``web/translations/<locale>/LC_MESSAGES/messages.po`` (and the
compiled ``.mo``, committed so no build step is needed). From the repo root::

    .venv/bin/pybabel extract -F babel.cfg -k lazy_gettext -k Phrase -o web/translations/messages.pot .
    .venv/bin/pybabel init -i web/translations/messages.pot -d web/translations -l es   # once per locale
    .venv/bin/pybabel update -i web/translations/messages.pot -d web/translations
    .venv/bin/pybabel compile -d web/translations

Templates get ``_``/``gettext``/``ngettext`` from Flask-Babel, plus ``current_locale``
(e.g. ``"pt_BR"``), ``html_lang`` (``"pt-BR"``, for ``<html lang>``) and ``locales``
(a list of ``(code, native name)`` for the language switch, which links to ``?lang=code``).
"""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel, get_locale

# The languages of the table, each with the name a speaker of it recognises.
LOCALES: dict[str, str] = {
    "pt_BR": "Português (Brasil)",
    "es": "Español",
    "en": "English",
}
DEFAULT_LOCALE = "en"
LANG_COOKIE = "lang"
_COOKIE_SECONDS = 365 * 24 * 3600


def normalize(code: str | None) -> str | None:
    """The supported locale a language code names (``"pt-br"`` → ``"pt_BR"``), or None."""
    if not code or len(code) > 16:
        return None
    wanted = code.strip().replace("-", "_").lower()
    for locale in LOCALES:
        if locale.lower() == wanted:
            return locale
    # A bare language ("pt"), or a region we have no catalogue of ("pt-PT", "es-MX"), picks
    # the one locale of that language we have.
    language = wanted.split("_")[0]
    matches = [locale for locale in LOCALES if locale.split("_")[0].lower() == language]
    return matches[0] if len(matches) == 1 else None


def select_locale() -> str:
    """The locale of the current request (see the module docstring for the order)."""
    for candidate in (request.args.get("lang"), request.cookies.get(LANG_COOKIE)):
        locale = normalize(candidate)
        if locale:
            return locale
    for language, _quality in request.accept_languages:  # the most wanted first
        locale = normalize(language)
        if locale:
            return locale
    return DEFAULT_LOCALE


def _remember_lang(response):
    # Pages and API errors differ by language: a cache must not mix them up.
    response.vary.update(("Accept-Language", "Cookie"))
    locale = normalize(request.args.get("lang"))
    if locale and request.cookies.get(LANG_COOKIE) != locale:
        response.set_cookie(LANG_COOKIE, locale, max_age=_COOKIE_SECONDS, samesite="Lax")
    return response


def _template_context() -> dict:
    locale = str(get_locale() or DEFAULT_LOCALE)
    return {
        "current_locale": locale,
        "html_lang": locale.replace("_", "-"),
        "locales": list(LOCALES.items()),
    }


def init_i18n(app: Flask) -> Babel:
    """Set Flask-Babel up on ``app`` with :func:`select_locale`; returns the extension."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LOCALE)
    babel = Babel(app, locale_selector=select_locale)
    app.after_request(_remember_lang)
    app.context_processor(_template_context)
    return babel
