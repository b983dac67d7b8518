/* What a Destiny Dice attack says on the combat page (RULES.md §3, DD-4 … DD-8), in the
 * page's language: the prompt of its current throw, a throw's total and what makes it, and
 * an outcome's lines. Pure: the attack outcome (rules.destiny AttackOutcome.to_dict) and
 * ``shown`` (a fighter's name → as the page shows it) in, text out. */
import { t } from "./i18n.js";

/** The prompt of the attack's current throw, from its needs and what was thrown. */
export function attackPrompt(attack, shown = (name) => name) {
  const spec = attack.spec;
  const defenceName = spec.defender === "hero" ? t("Body") : t("Defence");
  if (attack.attack.natural === null) {
    return t("Attacker ({name}): roll {characteristic} d{n} and the Destiny d20",
      { name: shown(spec.attacker_name), characteristic: t(attack.attack.characteristic), n: spec.attacker_die });
  }
  if (attack.defence.natural === null) {
    return t("Defender ({name}): roll {characteristic} d{n} and the Destiny d20",
      { name: shown(spec.defender_name), characteristic: defenceName, n: spec.defence_die });
  }
  return t("Hit! Attacker ({name}): roll {characteristic} d{n} again for damage",
    { name: shown(spec.attacker_name), characteristic: t(attack.attack.characteristic), n: spec.attacker_die });
}

export const attackName = (outcome) => t(outcome.attack.characteristic);
export const defenceName = (outcome) => (outcome.spec.defender === "hero" ? t("Body") : t("Defence"));

/** "Defence 5 = d6 4 + armour 1": a throw's total and what makes it (RULES DD-4: armour and
 *  shield add to the defence; help and modifiers to either). */
export function throwTotal(name, side) {
  let text = name + " " + side.total;
  const extras = [["armour {n}", side.armour], ["shield {n}", side.shield], ["modifier {n}", side.bonus]]
    .filter(([, n]) => n);
  if (extras.length) {
    text += " = d" + side.die + " " + side.natural +
      extras.map(([words, n]) => (n > 0 ? " + " : " − ") + t(words, { n: Math.abs(n) })).join("");
  }
  return text;
}

export function attackText(outcome, shown = (name) => name) {
  const spec = outcome.spec;
  const lines = [];
  if (outcome.effects.includes("automatic miss")) {
    lines.push(t("Automatic miss: a Destiny 1 when shooting; the weapon may be out of ammunition or jammed"));
  } else if (outcome.hit) {
    lines.push(t("Hit, {a} against {d}: {name} takes {n} damage", { a: outcome.attack.total, d: outcome.defence.total, name: shown(spec.defender_name), n: outcome.damage }));
    const parts = outcome.damage_parts;
    const sum = parts.unarmed ? `${parts.die} − 1` : parts.weapon_bonus ? `${parts.die} + ${parts.weapon_bonus}` : `${parts.die}`;
    lines.push(t("damage {parts}", { parts: sum + (parts.minimum_applied ? " → 1" : "") + (parts.extra ? ` + ${parts.extra}` : "") }));
    lines.push(t("{name} earns {n} {points}", { name: shown(spec.attacker_name), n: outcome.points, points: outcome.points_name }));
  } else {
    lines.push(t("Miss, {a} against {d}", { a: outcome.attack.total, d: outcome.defence.total }));
  }
  if (outcome.attack.total !== null && outcome.defence.total !== null) {
    lines.push(throwTotal(attackName(outcome), outcome.attack) + " · " + throwTotal(defenceName(outcome), outcome.defence));
  }
  if (outcome.effects.includes("Defensa Perfecta")) lines.push(t("Defensa Perfecta: {name} may counter-attack at once or move to another zone", { name: shown(spec.defender_name) }));
  if (outcome.effects.includes("Fallo Defensivo")) lines.push(t("Fallo Defensivo: {name} still takes 1 damage", { name: shown(spec.defender_name) }));
  return lines;
}
