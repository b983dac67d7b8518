/* dicelens: what a roll says, in the page's language and, where players use them, in the
 * seed's own words (Rolagem Perfeita, Falha Crítica). The server says the same for the
 * history page (web/templates/_roll.html). */
import { t } from "./i18n.js";

/** The seed's name of each outcome, one per outcome in every language: the result, the
 *  odds line (live.js) and the history (_roll.html) say the same (RULES D6-3, P-5). */
export const SEED_WORDS = {
  perfect: "Rolagem Perfeita",
  botch: "Falha Crítica",
};

/** Sides of the physical dice of a roll: d10 for a pool, d6 for a D6 test or a free roll. */
export function sidesOf(roll) {
  return roll.system === "pool" ? 10 : 6;
}

/** A number as text; "–" when there is none (never "null"). */
function shown(value) {
  return value === null || value === undefined ? "–" : String(value);
}

/** Whether a roll waits for a tap on its principal die (RULES D6-2a: a D6 or free roll's
 *  first throw of several dice, none of them marked principal). */
export function asksPrincipal(roll) {
  const first = roll.dice.filter((die) => !die.step);
  return ["d6", "free"].includes(roll.system) && !roll.complete && !roll.finished && first.length > 1 &&
    !first.some((die) => die.principal || die.role === "principal");
}

/** {big, unit, outcome, detail} for a roll, in the seed's words where players use them. */
export function describeRoll(roll) {
  const result = roll.result || {};
  if (!roll.complete && roll.finished) {
    // Closed before it was complete (another preset armed, a restart): no result, nothing awaited.
    return { big: "–", unit: "", outcome: t("abandoned"), detail: "", tone: "plain" };
  }
  if (!roll.complete) {
    // A perfect roll is known before its extra dice are: say so while waiting. A first throw
    // with no principal die waits for a tap, not for dice (RULES D6-2a).
    return { big: "…", unit: asksPrincipal(roll) ? t("tap the principal die") : t("waiting for dice"), outcome: roll.perfect ? SEED_WORDS.perfect + "!" : "",
      detail: "", tone: roll.perfect ? "good" : "plain" };
  }
  if (roll.system === "pool") {
    const out = { big: shown(roll.successes), unit: t("{n} successes", { n: roll.successes }), outcome: "", detail: "" };
    const details = [];
    if (result.difficulty) {
      details.push(t("difficulty {n}", { n: result.difficulty }) +
        (result.difficulty_name ? " (" + result.difficulty_name + ")" : ""));
    }
    if (roll.outcome === "botch" || roll.botch) out.outcome = SEED_WORDS.botch;
    else if (roll.outcome === "automatic failure") {
      out.outcome = t("Automatic failure");
      details.push(t("no dice left after penalties"));
    } else if (roll.outcome === "success") {
      const degree = result.degree_name;
      out.outcome = degree ? "Sucesso " + degree : t("Success");
      if (result.margin !== null && result.margin !== undefined) details.push(t("margin {n}", { n: result.margin }));
    } else if (roll.outcome === "failure") out.outcome = t("Failure");
    out.detail = details.join(" · ");
    out.tone = roll.botch ? "bad" : roll.outcome === "success" ? "good" : "plain";
    return out;
  }
  const out = { big: shown(roll.total), unit: t("total"), outcome: "", detail: "", tone: "plain" };
  if (roll.perfect) { out.outcome = SEED_WORDS.perfect + "!"; out.tone = "good"; }
  const details = [];
  if (result.modifier) details.push(t("modifier {n}", { n: (result.modifier > 0 ? "+" : "") + result.modifier }));
  out.detail = details.join(" · ");
  return out;
}

export function announceText(roll) {
  const d = describeRoll(roll);
  return [d.big, d.unit, d.outcome].filter(Boolean).join(" ");
}

/** Why vision could not read a die, in the words the page translates (base.html); a reason
 *  it gave that is none of them is said as plain "unreadable", never in its English. */
const UNREADABLE = ["cocked", "cut off", "blurred", "ambiguous pips", "ambiguous numeral", "unreadable"];
export function unreadableWord(die) {
  const why = die.unreadable || "cocked";
  return UNREADABLE.includes(why) ? why : "unreadable";
}

/** Role words of a die (principal, extra, success, cancelled…), then how it was read. */
export function dieTags(roll, die, index) {
  const tags = [];
  const ruled = ((roll.result || {}).dice || [])[index] || {};
  if (die.surplus) tags.push("not counted");
  else if (die.role) tags.push(die.role);
  else if (die.principal) tags.push("principal");
  if (ruled.reroll) tags.push("reroll");
  if (die.natural === null || die.natural === undefined) tags.push(unreadableWord(die));
  if (die.source === "hand") tags.push("by hand");
  if (die.corrected) tags.push("corrected");
  return tags;
}

/** "Die 2: 4 → 6": a correction of ``roll`` as the record keeps it (what was read, what it
 *  became); "Die 3 added by hand: 5" for a die the correction added (nothing was read there). */
export function correctionText(c, roll) {
  const word = (v) => (v === null || v === undefined ? "?" : typeof v === "string" ? t(v) : String(v));
  const die = (roll.dice || []).find((d) => d.index === c.index);
  if ((c.from === null || c.from === undefined) && die && die.source === "hand") {
    return t("Die {n} added by hand: {to}", { n: c.index + 1, to: word(c.to) });
  }
  return t("Die {n}: {from} → {to}", { n: c.index + 1, from: word(c.from), to: word(c.to) });
}

export function poolSummary(roll) {
  const dice = (roll.result || {}).dice || [];
  if (!dice.length) return "";
  const count = (pred) => dice.filter(pred).length;
  const parts = [
    t("successes: {n}", { n: roll.successes === null ? "–" : roll.successes }),
    t("cancelled: {n}", { n: count((d) => d.role === "cancelled" || d.role === "canceller") }),
    t("tens: {n}", { n: count((d) => d.natural === 10 && !d.reroll) }),
    t("rerolls: {n}", { n: count((d) => d.reroll) }),
  ];
  return parts.join(" · ");
}
