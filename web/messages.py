"""What the device and the rules say, in the request's language: their refusals, and the
roll's prompt the page shows (:func:`prompt_text`, from the state's data, not its English).

``device/`` and ``rules/`` word their refusals in English (they do not import ``web``); the
ones a player can meet are :class:`rules.phrase.Phrase` objects, whose templates ``pybabel
extract -k Phrase`` puts in the catalogues. :func:`reason` translates the template and fills
in the values; any other refusal is passed on in English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask import current_app
from flask_babel import force_locale, get_locale, get_translations, gettext, ngettext

import rules
from rules.d6 import D6Spec
from rules.phrase import Phrase
from rules.pool import PoolSpec


def N_(message: str) -> str:
    """Marks a msgid of a table for ``pybabel extract`` (one of its default keywords); it is
    translated where it is used, with :func:`gettext`."""
    return message


#: A phrase's values that name a fighter (rules/encounter.py, rules/destiny_spec.py), and
#: those that list fighters ("initiative missing for Saqueador, Saqueador 2")
_FIGHTER_KEYS = ("name", "who")
_FIGHTER_LIST_KEYS = ("list",)


def translated(message: object, names: Mapping[str, str] | None = None) -> str:
    """``message`` in the request's language when it is a :class:`Phrase` (its values too,
    where they are phrases; a fighter it names as ``names`` words it, :func:`fighter_names`),
    else ``str(message)``."""
    if not isinstance(message, Phrase):
        return str(message)
    names = names or {}

    def value_text(key: str, value: object) -> object:
        if isinstance(value, Phrase):
            return translated(value, names)
        if key == "why":
            return cause_text(value)
        if isinstance(value, str) and key in _FIGHTER_LIST_KEYS:
            return _listed(value, names)
        return names.get(value, value) if key in _FIGHTER_KEYS and isinstance(value, str) else value

    return template_text(message).format(**{key: value_text(key, value) for key, value in message.values.items()})


def template_text(phrase: Phrase) -> str:
    """The template of ``phrase`` in the request's language, unfilled: its plural form for
    its count when it has one (:meth:`Phrase.ngettext`)."""
    if phrase.plural is None or phrase.number is None:
        return get_translations().ugettext(phrase.template)
    return get_translations().ungettext(phrase.template, phrase.plural, phrase.number)


#: The causes the system words in English (the disk's ``strerror``, SQLite's messages) that a
#: phrase's ``why`` may hold → the page's words; the English stays in the logs and the CLI.
_CAUSES = {
    "No space left on device": N_("the disk is full"), "database or disk is full": N_("the disk is full"),
    "Disk quota exceeded": N_("the disk is full"),
    "Read-only file system": N_("the data folder cannot be written"),
    "Permission denied": N_("the data folder cannot be written"),
    "attempt to write a readonly database": N_("the data folder cannot be written"),
    "unable to open database file": N_("the history file cannot be opened"),
    "database is locked": N_("the history is busy"),
    "disk I/O error": N_("the disk failed to read or write"),
    "Input/output error": N_("the disk failed to read or write"),
}


def cause_text(why: object) -> object:
    """A system's cause (``why``: a disk's or SQLite's English, :data:`_CAUSES`) in the request's
    language; anything else as it is."""
    return gettext(_CAUSES[why]) if isinstance(why, str) and why in _CAUSES else why


def reason(error: BaseException, names: Mapping[str, str] | None = None) -> str:
    """What a refusal says, in the request's language: its first argument (a KeyError's
    ``str()`` would be the repr of its key), translated when it is a :class:`Phrase`, the
    fighters it names worded by ``names`` (:func:`fighter_names`)."""
    return translated(error.args[0], names) if error.args else type(error).__name__


# --- the roll's prompt, as the page words it ------------------------------------------
# device/ words its prompts in English for the CLI and the logs, and carries them as data
# (state["problem"]: device.tray.problems.Problem.to_dict(), state["needs"]); the page's
# sentences are made here from that data, once per phone, in its language.

#: A frame the roll refused (it stays as it was), said before what the roll still asks for.
_REFUSALS = {"no dice": N_("No dice seen."), "not moved": N_("No die has moved since the last reading."),
             "no reading": N_("Could not read the tray (the reader failed: the log says why)."),
             "new throw": N_("A new throw was read.")}  # it replaced the dice the page asked about
#: The parts of a label the rules write ("pool 5 · difficulty 2 · no rule of ten").
_LABEL_WORDS = {"pool": N_("pool {n}"), "difficulty": N_("difficulty {n}"), "target": N_("target {n}"),
                "random": N_("random {n}")}
_FREE_LABEL = "Free roll"  # device.presets' label of the built-in free roll
_LABEL_PARTS = (N_("no rule of ten"), N_("no rule of one"), N_("Free roll"))
#: The words of device/tray/problems.py a sentence holds: KIND_NAMES' values and
#: UNREADABLE_PHRASES' (tests/web/test_messages.py keeps them in step).
DEVICE_WORDS = (N_("pip d6"), N_("numbered d6"), N_("percentile d10"),
                N_("it is cocked"), N_("it is cut off by the edge of the photo"), N_("it is blurred"),
                N_("its pips are ambiguous"), N_("its numeral is ambiguous"), N_("it cannot be read"))

#: Templates of the notes rolls kept before their counts had plural forms (Phrase.ngettext),
#: so a kept roll's note ("it still waits for dice: 1 die still missing") is worded still.
KEPT_TEMPLATES = (N_("1 die still missing"), N_("{n} dice still missing"), N_("reroll your 10s: 1 more die"),
                  N_("reroll your 10s: {n} more dice"), N_("first roll incomplete: throw 1 more die"),
                  N_("first roll incomplete: throw {n} more dice"),
                  N_("chain stopped after 1 extra die: the last 6 counts 3 and asks for no more"),
                  N_("chain stopped after {n} extra dice: the last 6 counts 3 and asks for no more"))


def label_text(label: str | None) -> str:
    """A preset label the rules made ("pool 5 · difficulty 2", "random 2D6", "Free roll") in
    the request's language, part by part; a label a table wrote itself stays as it is. The
    templates use it too (``label_text`` in Jinja)."""
    parts = []
    for part in (label or "").split(" · "):
        word, _, value = part.partition(" ")
        if part in _LABEL_PARTS:
            part = gettext(part)
        elif word in _LABEL_WORDS and " " not in value and (value.isdigit() or word == "random" and value):
            part = gettext(_LABEL_WORDS[word]).format(n=value)
        parts.append(part)
    return " · ".join(parts)


#: A preset's system → its rules spec, whose label (``rules.describe``) a preset may carry.
_SPECS: dict[str, type[D6Spec] | type[PoolSpec]] = {"d6": D6Spec, "pool": PoolSpec}


def _made_label(preset: dict) -> str | None:
    """The label the rules make of the preset's spec (``rules.describe``); None for a free
    roll (no spec) or a spec that cannot be read."""
    spec = _SPECS.get(preset.get("system", ""))
    try:
        return None if spec is None else rules.describe(spec.from_dict(preset["spec"]))
    except (KeyError, TypeError, ValueError):
        return None


def preset_labels(presets: list[dict]) -> dict[str, dict]:
    """What the settings page shows of each preset's label: name → ``{"text": the label in
    the request's language (:func:`label_text`), "made": whether it is the label the rules
    make of the preset's spec}``. A label the rules made is made anew when its spec is
    edited (the page clears it, the device makes it); one a table wrote stays."""
    return {preset["name"]: {"text": label_text(preset.get("label")),
                             "made": preset.get("label") is not None and preset.get("label") == _made_label(preset)}
            for preset in presets}


def shown_presets(presets: list[dict]) -> list[dict]:
    """The controller's presets, each with ``label_text`` (:func:`label_text` of its label,
    else its name) for the page."""
    return [{**preset, "label_text": label_text(preset.get("label") or preset["name"])} for preset in presets]


def needs_text(needs: dict) -> str:
    """What more dice the rules ask for (``needs``: ``{"count", "sides", "kind", "reason"}``,
    RULES D6-4, P-3), in the request's language."""
    if needs.get("kind") == "D3":  # rules.d6.EXTRA_KIND: the principal die thrown again (RULES D6-4)
        return gettext("Roll the principal die again (counts as D3).")
    if needs.get("kind") == "d10":
        return ngettext("Reroll your 10: one more die.", "Reroll your 10s: %(num)d more dice.", needs["count"])
    return ngettext("Throw one more die.", "Throw %(num)d more dice.", needs["count"])


def problem_text(problem: dict) -> str | None:
    """A roll's problem (``Problem.to_dict()``) as the page says it, in the request's
    language; None for a problem of a fight step (the combat page words those:
    :func:`tray_text`). A refused frame (no dice, nothing moved, no reading, a new throw)
    says why, then the problem the roll still asks to fix (``then``), if any."""
    code = problem["code"]
    if code in _REFUSALS:
        head = gettext(_REFUSALS[code])
        then = problem.get("then")
        inner = problem_text(then) if then else None
        return head if inner is None else f"{head} {inner}"
    if code in ("too many", "too few", "moved"):
        return _count_text(problem)
    if code == "no principal":
        return gettext("No principal die found: tap the principal die.")
    if code == "not saved":
        return gettext("The roll could not be saved ({why}): nothing was changed. "
                       "Fix it, then throw again.").format(why=_save_cause(problem["why"]))
    if code == "unreadable" and problem.get("die") is not None:
        return gettext("Die {n}: {why} — throw it again, or tap it to correct it.").format(
            n=problem["die"], why=unreadable_text(problem["phrase"]))
    # RULES T-5: a cocked die voids its throw (rethrow_set), or leans (accept_leaning)
    if code == "void" and problem.get("die") is not None:
        return gettext("Die {n}: {why} — throw all the dice of this throw again ({count}).").format(
            n=problem["die"], why=unreadable_text(problem["phrase"]), count=problem["seen"])
    if code == "unmoved" and problem.get("die") is None and not problem["dice"]:
        unmoved = ngettext("%(num)d of the voided throw's dice did not move",  # two counts: each its own plural
                           "%(num)d of the voided throw's dice did not move", problem["seen"])
        return ngettext("{unmoved}: throw it again.", "{unmoved}: throw all %(num)d again.",
                        problem["wanted"]).format(unmoved=unmoved)
    if code == "leaning" and problem.get("die") is not None:
        return gettext("Die {n} leans: enter its top face.").format(n=problem["die"])
    if code == "refused":  # the rules' refusal of the dice (RULES T-3); one not a Phrase in its English
        why = Phrase.from_dict(problem["reason"]) if problem.get("reason") else problem["why"]
        return translated(Phrase("{why}: throw again, or correct it on the page", why=why))
    if code == "wrong dice" and problem.get("kind"):
        dice = ", ".join(_counted(d["name"], d["count"]) for d in problem["dice"])
        return gettext("Dice of another kind in the tray: {dice}. Throw only {kind} dice.").format(
            dice=dice, kind=problem["kind"])
    return None


#: A kind's name (device/tray/problems.py KIND_NAMES) after its count, agreeing with it in
#: number (pt-BR "2 d6 numerados"); a die named by its sides ("2 d8") has no word to agree.
_KINDS_COUNTED: dict[str, Callable[[int], str]] = {
    "pip d6": lambda n: ngettext("%(num)d pip d6", "%(num)d pip d6", n),
    "numbered d6": lambda n: ngettext("%(num)d numbered d6", "%(num)d numbered d6", n),
    "percentile d10": lambda n: ngettext("%(num)d percentile d10", "%(num)d percentile d10", n),
}


def _counted(name: str, count: int) -> str:
    """ "2 numbered d6": ``count`` dice of the kind ``name``, in the request's language."""
    return _KINDS_COUNTED[name](count) if name in _KINDS_COUNTED else f"{count} {gettext(name)}"


def unreadable_text(phrase: str | None) -> str:
    """Why a die has no value (``Problem.to_dict()["phrase"]``, one of
    ``device.tray.problems.UNREADABLE_PHRASES``) in the request's language; a reason vision
    gave that is none of them ("it cannot be read (glare)") as the plain "it cannot be read"."""
    return gettext(phrase if phrase in DEVICE_WORDS else "it cannot be read")


def _save_cause(why: str | None) -> str:
    """Why a save failed (a disk's or SQLite's English) in the page's words: :func:`cause_text`,
    else that the log says why."""
    worded = cause_text(why)
    return gettext("the log says why") if why is None or worded == why else str(worded)


def _count_text(problem: dict) -> str:
    """Too many or too few dice for the roll, or (a later throw) not as many moved as it
    takes (RULES T-2, T-3), with each count's plural."""
    seen, wanted = problem["seen"], problem["wanted"]
    seen_text = ngettext("%(num)d die seen", "%(num)d dice seen", seen)
    if problem["code"] == "moved":  # two counts: each its own plural
        moved = ngettext("%(num)d of them moved", "%(num)d of them moved", problem["moved"])
        return ngettext("{seen}, {moved}; %(num)d die needed: throw only that die (or clear the tray first).",
                        "{seen}, {moved}; %(num)d dice needed: throw only those dice (or clear the tray first).",
                        wanted).format(seen=seen_text, moved=moved)
    label = label_text(problem.get("label"))
    if problem["code"] == "too many":
        return ngettext("{seen}, {label} takes {wanted}: take %(num)d die out and throw again.",
                        "{seen}, {label} takes {wanted}: take %(num)d dice out and throw again.",
                        seen - wanted).format(seen=seen_text, label=label, wanted=wanted)
    return ngettext("{seen}, {label} takes %(num)d: throw it again.",
                    "{seen}, {label} takes %(num)d: throw all %(num)d again.", wanted).format(
        seen=seen_text, label=label)


def prompt_text(state: dict) -> str:
    """What the roll asks of the players (the controller's ``state()``), as the page shows
    it in the request's language; "" when it asks nothing. A problem the page has no words
    for is shown in the device's English, as it comes, rather than hidden. While the
    teaching round is on (``teaching``), it says so: the throws are the round's."""
    if state.get("teaching"):  # the round takes every throw: the roll waits (device/teach_round.py)
        return gettext("Teaching round on: every throw goes to Settings → Teach dicelens your dice; "
                       "Done teaching to roll again.")
    if not (state.get("prompt") or state.get("needs") or state.get("state") == "armed"):
        return ""
    problem = state.get("problem")
    if problem and problem["code"] in _REFUSALS:
        head = gettext(_REFUSALS[problem["code"]])
        return f"{head} {_asked(state, problem.get('then'))}"
    return _asked(state, problem)


def prompt_asks(state: dict) -> str | None:
    """What the prompt asks: ``"throw"`` (only the armed roll's throw), ``"dice"`` (more dice
    the rules want, RULES D6-4, P-3), ``"fix"`` (a problem to fix, or a refused frame),
    ``"teach"`` (the teaching round is on: throws go to it), or None (no prompt)."""
    if state.get("teaching"):
        return "teach"
    if not (state.get("prompt") or state.get("needs") or state.get("state") == "armed"):
        return None
    problem = state.get("problem")
    inner = problem.get("then") if problem and problem["code"] in _REFUSALS else problem
    if inner is None and state.get("needs"):
        return "dice"
    if problem is None and state.get("state") in ("armed", "waiting"):
        return "throw"
    return "fix"


def shown_state(state: dict) -> dict:
    """The controller's state with the page's words added: ``prompt_text``
    (:func:`prompt_text`) and ``prompt_asks`` (:func:`prompt_asks`), its problem's ``text``
    as :func:`problem_text` where the page has words for it, and its latest roll as
    :func:`shown_roll`."""
    latest = state.get("latest_roll")
    problem: dict | None = state.get("problem")
    worded = problem_text(problem) if problem else None
    if problem and problem["code"] in _REFUSALS:  # with what the roll still asks, as the prompt says it
        worded = prompt_text(state) or worded
    if problem and worded is not None:  # the problem's text in the phone's language too
        state = {**state, "problem": {**problem, "text": worded}}
    return {**state, "prompt_text": prompt_text(state), "prompt_asks": prompt_asks(state),
            "label_text": label_text(state["label"]) if state.get("label") else None,
            **({"latest_roll": shown_roll(latest)} if latest else {}),
            **({"camera": shown_camera(state["camera"])} if state.get("camera") else {})}


# --- the camera's status, as the page words it ---------------------------------------------
def shown_camera(camera: dict) -> dict:
    """The camera's status (``{"status", "message", "reason"?}``: the state's ``camera``, the
    ``camera`` event) with ``text``, why it is away in the request's language: its ``reason``
    (a ``Phrase.to_dict()``, ``device.roll.camera.camera_status``) translated, else the
    device's English message as it comes; None while it is ok."""
    reason = camera.get("reason")
    text = translated(Phrase.from_dict(reason)) if reason else camera.get("message")
    return {**camera, "text": None if camera.get("status") == "ok" else text}


# --- a roll's note, as the page words it ------------------------------------------------
def note_text(note: str | None) -> str | None:
    """A roll's note in the request's language: a :class:`Phrase` the device or the rules
    made ("abandoned: …", "it still waits for dice: …", RULES T-3, T-4, P-3) translated, its
    phrase values too and a preset's ``label`` as :func:`label_text`; a plain note (a row
    kept before notes were phrases) as it is."""
    if not isinstance(note, Phrase):
        return note
    values = {key: note_text(value) if isinstance(value, Phrase) else label_text(str(value)) if key == "label"
              else value for key, value in note.values.items()}
    return template_text(note).format(**values)


def shown_roll(roll: dict) -> dict:
    """A roll as the page gets it (the API, the event stream, the history page): its ``note``
    in the request's language (:func:`note_text`), ``label``, the label it was rolled under
    (:func:`roll_label`: an old roll kept with none is named as the exports name it), and
    ``label_text``, that label in the request's language, whatever its preset is labelled now."""
    label = roll_label(roll)
    shown = {**roll, "label": label, "label_text": label_text(label)}
    return {**shown, "note": note_text(roll["note"])} if roll.get("note") else shown


def roll_label(roll: dict) -> str:
    """The label a roll was made under: its preset's label then (``label``, kept with the roll:
    "Free roll", "2D6", one the config gave the preset), whatever the preset is labelled now.
    A roll kept before labels were has none: "Free roll" for a free roll (its result's "3D6"
    is only the spec the rules built from the dice seen), else its result's (``rules.describe``
    of the spec it was rolled with), else the one the rules make of its saved spec, else its
    preset's name."""
    if roll.get("label"):
        return roll["label"]
    if roll.get("system") == "free":
        return _FREE_LABEL
    return (roll.get("result") or {}).get("label") or _made_label(roll) or roll.get("preset") or ""


def _asked(state: dict, problem: dict | None) -> str:
    if problem is not None:
        text = problem_text(problem)
        return problem["text"] if text is None else text
    if state.get("needs"):
        return needs_text(state["needs"])
    if state.get("state") in ("armed", "waiting"):
        label = label_text(state.get("label") or state.get("preset"))
        return (gettext("{label}: enter the dice by hand.") if (state.get("camera") or {}).get("by_hand")
                else gettext("{label}: throw the dice.")).format(label=label)
    return translated(state.get("prompt") or "")


# --- the fight's tray, as the combat page words it ----------------------------------------
_THROWS = {"attack": N_("this attack needs {dice}"), "defence": N_("the defence needs {dice}"),
           "damage": N_("the damage needs {dice}")}


def tray_text(tray: dict, names: dict[str, str] | None = None) -> str:
    """What a fight step waits for from the tray (``CombatSession.state()["tray"]``), or why
    the last throw read was not used (its ``problem``, a ``Problem.to_dict()``), in the
    request's language; "" when no step waits. ``names``: as for :func:`log_text`."""
    waiting = tray.get("waiting")
    if not waiting:
        return ""
    needs = _tray_needs(waiting, names or {})
    problem = tray.get("problem")
    if not problem:
        return _capital(gettext("Throw into the tray: {needs}.").format(needs=needs))
    one = sum(d["count"] for d in problem["dice"]) == 1
    dice = _dice_text(problem["dice"]) if problem["dice"] else ""  # none: a failed reader, an empty tray
    code = problem["code"]
    if code == "no dice":
        text = gettext("No dice seen: {needs}.").format(needs=needs)
    elif code == "wrong dice":
        text = (gettext("{dice} is in the tray: {needs}.") if one else
                gettext("{dice} are in the tray: {needs}.")).format(dice=dice, needs=needs)
    elif code == "missing":
        text = (gettext("{dice} is missing: {needs}.") if one else
                gettext("{dice} are missing: {needs}.")).format(dice=dice, needs=needs)
    elif code == "unreadable":
        text = gettext("The {die}: {why} — throw it again.").format(
            die=gettext(problem["dice"][0]["name"]), why=unreadable_text(problem["phrase"]))
    elif code == "void":  # RULES T-5, the settings page's policy
        text = gettext("The {die}: {why} — throw all the dice of this step again.").format(
            die=gettext(problem["dice"][0]["name"]), why=unreadable_text(problem["phrase"]))
    elif code == "unmoved":
        text = ngettext("%(num)d of the voided throw's dice did not move: throw all the dice of this step again.",
                        "%(num)d of the voided throw's dice did not move: throw all the dice of this step again.",
                        problem["dice"][0]["count"])
    elif code == "leaning":
        text = gettext("The {die} leans: enter its top face.").format(die=gettext(problem["dice"][0]["name"]))
    elif code == "no reading":  # the reader's error is in the log, in English
        text = gettext("Could not read the tray (the reader failed: the log says why): throw again.")
    else:
        text = problem["text"]
    return _capital(text)


def shown_fight(state: dict) -> dict:
    """The fight's state with the page's words added: ``tray["text"]`` (:func:`tray_text`),
    each log entry's ``shown`` and the encounter's ``turn_effects_shown`` (:func:`log_text`),
    ``names_shown`` (fighter name → :func:`fighter_text`, for the fighters made from a sheet
    of the bestiary) and each bestiary sheet's ``name_shown`` (:func:`sheet_text`)."""
    names = fighter_names(state.get("from_sheets", {}))
    encounter = state["encounter"]
    log = [{**entry, "shown": log_text(entry, names)} for entry in encounter["log"]]
    worded = {entry["text"]: entry for entry in log}  # a turn effect is logged as it happens
    effects = [worded[text]["shown"] if text in worded else text for text in encounter["turn_effects"]]
    return {**state, "tray": {**state["tray"], "text": tray_text(state["tray"], names)},
            "encounter": {**encounter, "log": log, "turn_effects_shown": effects}, "names_shown": names,
            "bestiary": [{**sheet, "name_shown": sheet_text(sheet["name"])} for sheet in state["bestiary"]]}


# --- the bestiary's names, as the combat page words them ------------------------------------
#: The seed's enemy sheets (device.combat.roster.DEFAULT_BESTIARY: seed 002's Spanish words,
#: RULES §3) → the page's word; a sheet the table wrote in its config is named as written.
SHEET_NAMES = {"Saqueador": N_("Raider"), "Rival": N_("Rival"), "Androide": N_("Android"), "Mutante": N_("Mutant")}


def sheet_text(sheet: str) -> str:
    """A bestiary sheet's name in the request's language (:data:`SHEET_NAMES`), else as it is."""
    return gettext(SHEET_NAMES[sheet]) if sheet in SHEET_NAMES else sheet


def fighter_names(from_sheets: Mapping[str, str]) -> dict[str, str]:
    """The fighters made from a bestiary sheet (fighter name → sheet, the fight's
    ``from_sheets``) → their names in the request's language (:func:`fighter_text`)."""
    return {name: fighter_text(name, sheet) for name, sheet in from_sheets.items()}


def fighter_text(name: str, sheet: str | None) -> str:
    """A fighter's name in the request's language: one made from the bestiary's ``sheet``
    ("Saqueador 2", ``device.combat.roster.free_name``) with the sheet's name worded
    (:func:`sheet_text`: "Raider 2"); any other (a name players typed) as it is."""
    if sheet is None or not (name == sheet or name.startswith(sheet + " ")):
        return name
    return sheet_text(sheet) + name[len(sheet):]


# --- the fight's log, as the combat page words it -------------------------------------------
#: rules/encounter.py's log templates (their English) → the page's sentence, with the same
#: values; a template not here is shown in the log's English.
LOG_SENTENCES = {
    "round {n}: {name}'s turn": N_("Round {n}: {name}'s turn"),
    "{name} joins the fight": N_("{name} joins the fight"),
    "{name} leaves the fight": N_("{name} leaves the fight"),
    "initiative: {list}": N_("Initiative: {list}"),
    "order: {list}": N_("Order: {list}"),
    "Derribado ends: standing up costs {name}'s main action this turn":
        N_("Derribado ends: standing up costs {name}'s main action this turn"),
    "Desarmado ends: taking the weapon back costs {name}'s main action this turn":
        N_("Desarmado ends: taking the weapon back costs {name}'s main action this turn"),
    "taking the weapon back costs {name}'s next main action":
        N_("Taking the weapon back costs {name}'s next main action"),
    "Paralizado: {name} loses this turn (still rolls defence)":
        N_("Paralizado: {name} loses this turn (still rolls defence)"),
    "Envenenado: {name} takes {n} damage": N_("Envenenado: {name} takes {n} damage"),
    "{helper} helps {ally}: +{n} to {ally}'s next roll": N_("{helper} helps {ally}: +{n} to the next roll"),
    "{name} uses +{n} from help": N_("{name} uses +{n} from help"),
    "{name} takes {n} damage ({reason})": N_("{name} takes {n} damage ({reason})"),
    "{name} takes {n} damage": N_("{name} takes {n} damage"),
    "{name} is {condition} ({duration})": N_("{name} is {condition} ({duration})"),
    "{name} is no longer {condition}": N_("{name} is no longer {condition}"),
    "{name} is defeated": N_("{name} is defeated"),
    "{name} is out of combat": N_("{name} is out of combat"),
    "{name} takes a long rest: {n} PV, full energy, no conditions":
        N_("{name} takes a long rest: {n} PV, full energy, no conditions"),
    "{name} recovers up to {n} PV (short rest, d4 {d4}): {pv} PV":
        N_("{name} recovers up to {n} PV (short rest, d4 {d4}): {pv} PV"),
    "{name} recovers up to {n} PV ({reason}): {pv} PV": N_("{name} recovers up to {n} PV ({reason}): {pv} PV"),
    "{name} stands and acts on their next turn": N_("{name} stands and acts on their next turn"),
    "{name} wakes with 1 PV": N_("{name} wakes with 1 PV"),
    "the scene ends": N_("The scene ends"),
    "{condition} ends": N_("{condition} ends"),
}
#: rules/encounter.py's log templates whose words follow a count → their sentence, by the count.
LOG_COUNTED: dict[str, Callable[[dict], str]] = {
    "{name} spends {n} {energy}: {left} left": lambda values: ngettext(
        "{name} spends {n} {energy}: %(num)d left", "{name} spends {n} {energy}: %(num)d left", values["left"]),
}
#: Values a log sentence holds that are words of the catalogue too (a rest's reason, "temporary").
_WORDED_VALUES = ("reason", "duration")
#: rules/encounter.py's own such words (a condition's duration is the page's too).
LOG_WORDS = (N_("healed"),)


#: Values of a log sentence that name one fighter, and those that list fighters ("Nara 6, Rival 2 3").
_NAME_VALUES = ("name", "helper", "ally")
_LIST_VALUES = ("list",)


def log_text(entry: dict, names: dict[str, str] | None = None) -> str:
    """A fight log entry (``Encounter.log``: ``text``, and ``template`` and ``values`` for a
    sentence of the rules) in the request's language; ``names``: fighter name → as the page
    shows it (:func:`shown_fight`'s ``names_shown``)."""
    template = entry.get("template") or ""
    if template not in LOG_SENTENCES and template not in LOG_COUNTED:
        return str(entry["text"])
    names = names or {}
    values = {key: gettext(value) if key in _WORDED_VALUES and isinstance(value, str)
              else names.get(value, value) if key in _NAME_VALUES and isinstance(value, str)
              else _listed(value, names) if key in _LIST_VALUES and isinstance(value, str) else value
              for key, value in (entry.get("values") or {}).items()}
    if template in LOG_COUNTED:
        return LOG_COUNTED[template](values).format(**values)
    return gettext(LOG_SENTENCES[template]).format(**values)


def _listed(listed: str, names: Mapping[str, str]) -> str:
    """A log's list of fighters ("Saqueador 2 3, Nara 6": names, each maybe with its
    initiative) with each name as the page shows it."""
    items = []
    for item in listed.split(", "):
        name, _, value = item.rpartition(" ")
        items.append(names[item] if item in names else f"{names[name]} {value}" if name in names else item)
    return ", ".join(items)


def _tray_needs(waiting: dict, names: dict[str, str]) -> str:
    counts: dict[str, int] = {}
    for sides in waiting["dice"]:
        counts[f"d{sides}"] = counts.get(f"d{sides}", 0) + 1
    dice = _dice_text([{"name": name, "count": count} for name, count in counts.items()])
    if waiting["step"] == "initiative":
        return gettext("{name}'s initiative needs {dice}").format(name=names.get(waiting["name"], waiting["name"]),
                                                                   dice=dice)
    return gettext(_THROWS[waiting["throw"]]).format(dice=dice)


def _dice_text(dice: list[dict]) -> str:
    """ "a d8 and a d20" (or "2 numbered d6") from ``[{"name", "count"}]``."""
    items = [_counted(d["name"], d["count"]) if d["count"] > 1 and d["name"] in _KINDS_COUNTED
             else ngettext("a {die}", "%(num)d {die}s", d["count"]).format(die=gettext(d["name"])) for d in dice]
    return items[0] if len(items) < 2 else ", ".join(items[:-1]) + gettext(" and ") + items[-1]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def in_request_language(shown: Callable[[dict], dict]) -> Callable[[dict], dict]:
    """``shown`` bound to this request's app and language, to call after the request has
    returned: in an event stream's generator, which sends every state in the phone's
    language (each call takes the app's context and forces the locale)."""
    app, locale = current_app._get_current_object(), str(get_locale())  # type: ignore[attr-defined]

    def bound(state: dict) -> dict:
        with app.app_context(), force_locale(locale):
            return shown(state)

    return bound
