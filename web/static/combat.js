/* dicelens combat page: a Destiny Dice fight (RULES.md §3) run from every phone.
 *
 * The server keeps the fight (GET /api/combat, POST /api/combat/...); every step
 * comes back to every open page over /api/combat/events as the whole state, and
 * this file only renders it and sends what the players tap. Strings come
 * translated from the page (<script id="combat-i18n">).
 */
import { $, el, setChildren } from "./dom.js";
import { API as PAGE_API, act, api } from "./api.js";
import { attackName, attackPrompt, attackText, defenceName, throwTotal } from "./attack.js";
import { catalogue, t } from "./i18n.js";
import { keypad } from "./keypad.js";
import { cameraPill } from "./page.js";
import { eventStream } from "./stream.js";
import { toast } from "./toast.js";

const INITIAL = JSON.parse(document.getElementById("combat-initial").textContent);
const API = INITIAL.api;

/** POST a step; the answer is the new state. Errors become a toast and null. */
async function step(path, body) {
  const data = await act(api.post(API.base + path, body));
  if (data) receive(data);
  return data;
}

// --- state ----------------------------------------------------------------------
let state = INITIAL.state;
let throwValues = [];         // the dice tapped for the attack's current throw
let openFighter = null;       // the fighter whose dialog is open
let correcting = null;        // {throw, index} of the die whose correction keypad is open

/** A newer state replaces the shown one; ``fresh`` (a stream's first state) always
 *  does, so a companion whose fight file was started anew is followed too. */
function receive(next, fresh) {
  if (!next || (!fresh && state && next.seq < state.seq)) return;  // an older answer never wins
  state = next;
  render();
}

/* The log's entries and the turn's effects come worded in the page's language by the
 * server (entry.shown, encounter.turn_effects_shown: web/messages.py log_text). */
/* A fighter made from a sheet of the bestiary is named in the page's language too
 * (state.names_shown, web/messages.py fighter_text); its name stays the data the API takes. */
const shown = (name) => (state.names_shown || {})[name] || name;
const fighters = () => state.encounter.participants;
const fighter = (name) => fighters().find((p) => p.name === name);
const active = (p) => p.status === "active";

// --- rendering ------------------------------------------------------------------
function render() {
  renderTurn();
  renderAttack();
  renderLastAttack();
  renderInitiative();
  renderFighters();
  renderSetup();
  renderLog();
  $("#undo").disabled = !state.can_undo;
  // RULES DD-5, DD-8: the fight's house rules, off unless the table says so
  $("#ties-favour-defender").checked = state.options.ties_favour_defender;
  $("#defensive-fumble-on-hit").checked = state.options.defensive_fumble_on_hit;
  const enc = state.encounter;
  $("#next-turn").disabled = !enc.round || enc.over || !!enc.needs || !!state.attack;
  if (openFighter) renderFighterDialog();
}

function renderTurn() {
  const enc = state.encounter;
  const started = enc.round > 0;
  $("#round").textContent = started ? t("Round {n}", { n: enc.round }) : "";
  $("#turn-heading").textContent = enc.over ? t("The fight is over.")
    : started ? t("{name}'s turn", { name: shown(enc.current) })
    : t("Set up the fight: add heroes and enemies, then roll initiative.");
  const effects = $("#turn-effects");
  setChildren(effects, (enc.over ? fightSummary() : started ? enc.turn_effects_shown : []).map((text) => el("li", { text })));
  const prompt = $("#turn-prompt");
  const pad = $("#poison-keypad");
  if (enc.pending_poison) {
    const { name, sides } = enc.pending_poison;
    prompt.textContent = t("{name} is Envenenado (1d{n}): roll the d{n} for the poison damage", { name: shown(name), n: sides });
    prompt.hidden = false;
    pad.replaceWith(Object.assign(keypad(sides, null, (v) => step("/poison", { value: v })), { id: "poison-keypad" }));
  } else if (started && enc.turn_lost && !enc.over) {
    prompt.textContent = t("{name} loses this turn (Paralizado)", { name: shown(enc.current) });
    prompt.hidden = false;
    pad.hidden = true;
  } else {
    prompt.hidden = true;
    pad.hidden = true;
  }
  const canAttack = started && !enc.over && !state.attack && !enc.pending_poison;
  $("#attack-start").hidden = !canAttack;
  if (canAttack) renderAttackChoice();
}

/** RULES DD-8, DD-9: who won (the side still standing) and the points each hero earned. */
function fightSummary() {
  const heroesStand = fighters().some((p) => p.side === "hero" && active(p));
  return [heroesStand ? t("The heroes win: every enemy is defeated.") : t("The enemies win: every hero is out of combat."),
    ...fighters().filter((p) => p.side === "hero").map((p) => t("{name} earned {pc} PC and {pm} PM",
      { name: shown(p.name), pc: p.points.PC, pm: p.points.PM }))];
}

/** A fighter's points earned by hits, in the rules' names (RULES DD-8: PC Body, PM Mind). */
const pointsText = (p) => `PC ${p.points.PC} · PM ${p.points.PM}`;

/** The select's options: each name its value, ``label(name)`` its text. */
function fill(select, names, keep, label = shown) {
  const previous = keep ? select.value : null;
  setChildren(select, names.map((n) => el("option", { value: n, text: label(n) })));
  if (previous && names.includes(previous)) select.value = previous;
}

function renderAttackChoice() {
  const attacker = $("#attacker");
  const actors = fighters().filter(active).map((p) => p.name);
  const keep = attacker.dataset.turn === state.encounter.current + ":" + state.encounter.round;
  fill(attacker, actors, keep);
  if (!keep) {
    attacker.value = state.encounter.current;
    attacker.dataset.turn = state.encounter.current + ":" + state.encounter.round;
  }
  updateTargets();
}

function updateTargets() {
  const who = fighter($("#attacker").value);
  if (!who) return;
  const targets = fighters().filter((p) => active(p) && p.side !== who.side).map((p) => p.name);
  fill($("#defender"), targets, true);
  $("#attack").disabled = targets.length === 0;
  $("#attack").title = targets.length ? "" : t("No one to attack");
  const ranged = $("#ranged");
  // RULES DD-11: a Desarmado fighter's weapon is on the ground: no shooting, an unarmed attack
  const disarmed = who.conditions.some((c) => c.name === "Desarmado");
  const key = who.name + (disarmed ? "/Desarmado" : "");
  if (ranged.dataset.for !== key) { ranged.checked = who.ranged && !disarmed; ranged.dataset.for = key; }
}

// --- dice read from the tray: the server words the wait and the problem (web/messages.py tray_text) ---
/** RULES T-5 accept_leaning: the keypad of the die the tray shows leaning, or null. */
function leaningSides(waiting) {
  const problem = waiting && state.tray.problem;
  return problem && problem.code === "leaning" ? problem.sides[problem.values.indexOf(null)] : null;
}

function showTray(status, waiting) {
  status.hidden = !waiting;
  status.dataset.problem = String(!!(waiting && state.tray.problem));
  status.textContent = waiting ? state.tray.text : "";
}

/** The mark on a value the camera read, in sight on a phone (a title is not): the camera
 *  icon and its word, the whole phrase for a screen reader. */
function cameraMark() {
  return el("span", { class: "read-mark" }, [
    el("span", { "aria-hidden": "true", text: t("camera") }),
    el("span", { class: "sr", text: t("read by the camera") }),
  ]);
}

/** The dice thrown in an attack so far, each a chip; tapped, a keypad corrects it. */
function thrownDice(outcome) {
  const throws = outcome.throws || {
    attack: [outcome.attack.natural, outcome.attack.destiny].filter((v) => v !== null),
    defence: [outcome.defence.natural, outcome.defence.destiny].filter((v) => v !== null), damage: [] };
  const sides = { attack: [outcome.attack.die, 20], defence: [outcome.defence.die, 20], damage: [outcome.attack.die] };
  const sources = outcome.sources || {};
  const chips = [];
  let pad = null;
  for (const which of ["attack", "defence", "damage"]) {
    (throws[which] || []).forEach((value, index) => {
      const n = sides[which][index];
      const open = !!correcting && correcting.throw === which && correcting.index === index;
      const camera = sources[which] === "camera";
      const label = t("Correct the d{n} showing {value}", { n, value });
      chips.push(el("button", { type: "button", class: "chip die-chip", dataset: { throw: which, index: String(index), source: sources[which] || "hand" },
        "aria-pressed": String(open), "aria-label": camera ? label + ", " + t("read by the camera") : label,
        onclick: () => { correcting = open ? null : { throw: which, index }; render(); } },
      [el("span", { class: "die-value", text: "d" + n + " " + value }), camera ? cameraMark() : null]));
      if (open) {
        pad = keypad(n, value, (v) => { correcting = null; step("/attack/correct", { throw: which, index, value: v }); },
          t("Correct the d{n} showing {value}", { n, value }));
      }
    });
  }
  if (!chips.length) return null;
  return el("div", { class: "thrown" }, [el("p", { class: "detail", text: t("Tap a die to correct it") }), el("div", { class: "chips" }, chips), pad]);
}

function renderAttack() {
  const card = $("#attack-card");
  const attack = state.attack;
  card.hidden = !attack;
  const waiting = state.tray.waiting && state.tray.waiting.step === "attack" ? state.tray.waiting : null;
  showTray($("#attack-tray-status"), waiting);
  const leaning = leaningSides(waiting);
  setChildren($("#attack-tray-lean"), leaning ? [keypad(leaning, null, (v) => step("/tray/top", { value: v }),
    t("Top face of the d{n}", { n: leaning }))] : []);
  $("#attack-tray-read").hidden = !!waiting;
  $("#attack-tray-stop").hidden = !waiting;
  if (!attack) { throwValues = []; card.dataset.step = ""; return; }
  setChildren($("#attack-dice"), thrownDice(attack));
  const stepKey = [attack.attack.natural, attack.defence.natural].join("/");
  if (card.dataset.step !== stepKey) { throwValues = []; card.dataset.step = stepKey; }
  $("#attack-heading").textContent = t("{attacker} attacks {defender}", { attacker: shown(attack.spec.attacker_name), defender: shown(attack.spec.defender_name) });
  $("#attack-prompt").textContent = attackPrompt(attack, shown);
  const soFar = [];
  if (attack.attack.total !== null) soFar.push(throwTotal(attackName(attack), attack.attack) + " · d20 " + attack.attack.destiny);
  if (attack.defence.total !== null) soFar.push(throwTotal(defenceName(attack), attack.defence) + " · d20 " + attack.defence.destiny);
  $("#attack-so-far").textContent = soFar.join(" — ");
  const dice = attack.needs.dice;
  const pads = dice.map((sides, i) => {
    const box = el("div", { class: "pad-box" }, [el("p", { class: "pad-label", text: "d" + sides + (throwValues[i] ? " = " + throwValues[i] : "") })]);
    box.append(keypad(sides, throwValues[i], (v) => { throwValues[i] = v; renderAttack(); }, "d" + sides));
    return box;
  });
  setChildren($("#attack-pads"), pads);
  $("#attack-send").disabled = dice.some((_, i) => !throwValues[i]);
}

function renderLastAttack() {
  const box = $("#last-attack");
  const outcome = state.last_attack;
  box.hidden = !outcome || !!state.attack;
  if (!outcome) return;
  box.dataset.hit = String(outcome.hit);
  const [first, ...rest] = attackText(outcome, shown);
  const { attacker_name: attacker, defender_name: defender } = outcome.spec;
  // RULES DD-6: after Defensa Perfecta the defender may strike back at once, out of turn.
  const counter = outcome.offers.includes("counter-attack") && state.encounter.round > 0 && !state.encounter.over
    && [attacker, defender].every((name) => fighter(name) && active(fighter(name)))
    ? el("button", { type: "button", id: "counter-attack", class: "primary wide", text: t("Counter-attack"),
      onclick: () => startAttack({ attacker: defender, defender: attacker }) })
    : null;
  setChildren(box, [
    el("h2", { text: t("{attacker} attacks {defender}", { attacker: shown(attacker), defender: shown(defender) }) }),
    el("p", { class: "verdict", text: first }),
    ...rest.map((text) => el("p", { class: "detail", text })),
    state.last_attack_correctable ? thrownDice(outcome) : null,
    counter]);
}

/** name → Mind die, read or tapped on any phone, before the fight starts. */
function initiativeValues() {
  return { ...(state.tray.tapped || {}), ...state.tray.initiative };
}

function renderInitiative() {
  const enc = state.encounter;
  const card = $("#initiative");
  const sides = new Set(fighters().map((p) => p.side));
  card.hidden = enc.round > 0 || sides.size < 2;
  if (card.hidden) return;
  // every phone's Mind dice, read from the tray or tapped (the server's: each phone taps its own fighter)
  const initiative = initiativeValues();
  const waiting = state.tray.waiting && state.tray.waiting.step === "initiative" ? state.tray.waiting : null;
  const list = $("#initiative-list");
  setChildren(list, fighters().map((p) => {
    const read = state.tray.initiative[p.name] !== undefined;
    const status = el("p", { class: "tray-status", role: "status" });
    const mine = !!waiting && waiting.name === p.name;
    showTray(status, mine ? waiting : null);
    return el("li", { class: "init-row", dataset: { name: p.name } }, [
      el("div", { class: "init-head" }, [
        el("p", { class: "init-name", dataset: { read: String(read && !!initiative[p.name]) },
          text: shown(p.name) + " · " + t("Mind d{n}", { n: p.mind }) + (initiative[p.name] ? " = " + initiative[p.name] : "") },
        read && initiative[p.name] ? cameraMark() : null),
        el("button", { type: "button", class: "chip tray-read", "aria-label": t("Read {name}'s Mind die from the tray", { name: shown(p.name) }),
          title: t("Read {name}'s Mind die from the tray", { name: shown(p.name) }), "aria-pressed": String(mine),
          onclick: () => (mine ? step("/tray/cancel") : step("/tray", { step: "initiative", name: p.name })) }),
      ]),
      status,
      // a Mind die that leans (RULES T-5): its top face goes to the wait, as a die read
      keypad(p.mind, initiative[p.name], (v) => (mine && leaningSides(waiting) ? step("/tray/top", { value: v })
        : step("/initiative/tap", { name: p.name, value: v })), t("Initiative of {name} (Mind d{n})", { name: shown(p.name), n: p.mind })),
    ]);
  }));
  $("#initiative-start").disabled = fighters().some((p) => !initiative[p.name]);
}

function pvBar(p) {
  const share = p.pv_max ? p.pv / p.pv_max : 0;
  const tone = share > 0.5 ? "good" : share > 0.25 ? "warn" : "bad";
  return el("div", { class: "pv", role: "meter", "aria-valuemin": "0", "aria-valuemax": String(p.pv_max), "aria-valuenow": String(p.pv), "aria-label": "PV" }, [
    el("span", { class: "pv-fill", dataset: { tone }, style: `width: ${Math.round(share * 100)}%` }),
    el("span", { class: "pv-text", text: `${p.pv} / ${p.pv_max} PV` }),
  ]);
}

/** What a condition does; Envenenado's with its own X (RULES DD-11): "takes 2 damage…", "takes 1d4 damage…". */
function conditionEffect(c) {
  if (c.name === "Envenenado") {
    return c.poison !== null ? t("poisoned: takes {n} damage at the start of each own turn", { n: c.poison })
      : t("poisoned: takes 1d{n} damage at the start of each own turn", { n: c.poison_die });
  }
  return (catalogue.conditions || {})[c.name];
}

function conditionItem(c) {
  const effect = conditionEffect(c);
  return el("li", { class: "condition", dataset: { duration: c.duration }, title: effect || "" }, [
    el("strong", { text: c.label }), el("span", { text: " · " + t(c.duration) + (effect ? " — " + effect : "") }),
  ]);
}

function renderFighters() {
  const enc = state.encounter;
  const order = enc.order.length ? enc.order.concat(fighters().map((p) => p.name).filter((n) => !enc.order.includes(n))) : fighters().map((p) => p.name);
  const groups = state.groups;
  const groupOf = (name) => groups.find((g) => g.includes(name)) || [name];
  const list = $("#fighters");
  setChildren(list, order.map((name) => {
    const p = fighter(name);
    const group = groupOf(name);
    const at = group.indexOf(name);
    const badges = [el("span", { class: "side", dataset: { side: p.side }, text: t(p.side) })];
    if (p.initiative !== null) badges.push(el("span", { class: "badge", text: t("initiative {n}", { n: p.initiative }) }));
    if (p.help_bonus) badges.push(el("span", { class: "badge", text: t("help +{n}", { n: p.help_bonus }) }));
    if (!active(p)) badges.push(el("span", { class: "badge down", text: t(p.status) }));
    const energy = p.energy_max.EC + p.energy_max.EM + p.energy_max.EA ? `EC ${p.energy.EC} · EM ${p.energy.EM} · EA ${p.energy.EA}` : "";
    const moves = group.length > 1 && enc.round > 0 ? el("span", { class: "moves" }, [
      el("button", { type: "button", class: "chip", "aria-label": "↑ " + shown(name), disabled: at === 0, text: "↑", onclick: (e) => { e.stopPropagation(); move(name, -1); } }),
      el("button", { type: "button", class: "chip", "aria-label": "↓ " + shown(name), disabled: at === group.length - 1, text: "↓", onclick: (e) => { e.stopPropagation(); move(name, 1); } }),
    ]) : null;
    return el("li", { class: "fighter", dataset: { name, side: p.side, status: p.status, current: String(enc.current === name) } }, [
      el("div", { class: "fighter-head" }, [
        el("button", { type: "button", class: "fighter-open", onclick: () => openDialog(name) }, [
          el("span", { class: "fighter-name", text: shown(name) }), ...badges,
        ]),
        moves,
      ]),
      pvBar(p),
      energy ? el("p", { class: "energy", text: energy }) : null,
      p.side === "hero" || p.points.PC + p.points.PM ? el("p", { class: "points", text: pointsText(p) }) : null,
      p.conditions.length ? el("ul", { class: "conditions" }, p.conditions.map(conditionItem)) : null,
    ]);
  }));
}

function move(name, by) {
  const order = state.encounter.order.slice();
  const i = order.indexOf(name);
  [order[i], order[i + by]] = [order[i + by], order[i]];
  step("/reorder", { order });
}

function renderSetup() {
  fill($("#hero-sheet"), state.heroes.map((h) => h.name), true, (name) => name);  // the players' names
  const sheets = Object.fromEntries(state.bestiary.map((s) => [s.name, s.name_shown || s.name]));
  fill($("#enemy-sheet"), Object.keys(sheets), true, (name) => sheets[name]);
  $("#join-initiative").hidden = !(state.encounter.round > 0);
}

function renderLog() {
  const entries = state.encounter.log.slice().reverse();
  setChildren($("#log"), entries.map((entry) => el("li", { dataset: { kind: entry.kind } },
    entry.outcome ? [el("strong", { text: t("{attacker} attacks {defender}", { attacker: shown(entry.outcome.spec.attacker_name), defender: shown(entry.outcome.spec.defender_name) }) + ": " }), attackText(entry.outcome, shown).join("; ")] : entry.shown)));
}

// --- the fighter's dialog: damage, healing, conditions, help, rests --------------
function openDialog(name) {
  openFighter = name;
  renderFighterDialog();
  const dialog = $("#fighter-dialog");
  if (!dialog.open) dialog.showModal();
}

function renderFighterDialog() {
  const p = fighter(openFighter);
  if (!p) { $("#fighter-dialog").close(); return; }
  $("#fighter-title").textContent = shown(p.name);
  const sheet = [t("Body") + " d" + p.body, t("Mind") + " d" + p.mind, t("Soul") + " d" + p.soul];
  if (p.defence) sheet.push(t("Defence") + " d" + p.defence);
  if (p.armour) sheet.push(t("armour {n}", { n: p.armour }));
  if (p.shield) sheet.push(t("shield {n}", { n: p.shield }));
  $("#fighter-detail").textContent = sheet.join(" · ") + " — " + p.pv + " / " + p.pv_max + " PV · " + pointsText(p);
  const names = state.conditions.map((c) => c.name);
  const select = $("#condition-name");
  if (select.options.length !== names.length) fill(select, names, true, (name) => name);
  $("#poison-x").hidden = select.value !== "Envenenado";
  setChildren($("#fighter-conditions"), p.conditions.map((c) => el("li", { class: "condition cure" }, [
    conditionItem(c).firstChild, el("button", { type: "button", class: "chip", text: "×", "aria-label": "× " + c.name, onclick: () => step("/cure", { name: p.name, condition: c.name }) }),
  ])));
  $("#energy-row").hidden = !(p.energy_max.EC + p.energy_max.EM + p.energy_max.EA);
  for (const button of document.querySelectorAll("#energy-row .spend")) button.disabled = !p.energy[button.dataset.energy];
  // RULES DD-2, DD-9: a fighter still in the fight helps an ally still in it (one down has no next roll)
  const allies = active(p) ? fighters().filter((o) => o.name !== p.name && o.side === p.side && active(o)).map((o) => o.name) : [];
  fill($("#help-ally"), allies, true);
  $("#help-row").hidden = !allies.length;
  $("#rest-keypad").replaceWith(Object.assign(keypad(4, null, (v) => step("/rest", { name: p.name, kind: "short", roll: v }), "d4"), { id: "rest-keypad" }));
}

function amount() {
  return Number($("#amount").value);
}

// --- wiring ------------------------------------------------------------------------
function joinInitiative() {
  const value = $("#join-value").value;
  return state.encounter.round > 0 && value ? Number(value) : undefined;
}

// A phone that read an attack from the tray reads the next one it starts from the tray too,
// until "Stop reading the tray" is tapped there.
const TRAY_KEY = "dicelens.combat.tray";
function remember(on) {
  try { if (on) localStorage.setItem(TRAY_KEY, "1"); else localStorage.removeItem(TRAY_KEY); } catch (err) { /* private mode: not remembered */ }
}
function remembered() {
  try { return localStorage.getItem(TRAY_KEY) === "1"; } catch (err) { return false; }
}

async function startAttack(body) {
  const done = await step("/attack", body);
  if (done && remembered()) await step("/tray", { step: "attack" });
  return done;
}

$("#attacker").addEventListener("change", updateTargets);
$("#attack").addEventListener("click", async () => {
  const done = await startAttack({
    attacker: $("#attacker").value, defender: $("#defender").value, ranged: $("#ranged").checked,
    attack_modifier: Number($("#attack-modifier").value) || 0, damage_bonus: Number($("#damage-bonus").value) || 0 });
  if (done) { $("#attack-modifier").value = 0; $("#damage-bonus").value = 0; }  // for this attack only
});
$("#attack-send").addEventListener("click", () => step("/attack/dice", { values: throwValues.slice() }));
$("#attack-cancel").addEventListener("click", () => step("/attack/cancel"));
$("#attack-tray-read").addEventListener("click", () => { remember(true); step("/tray", { step: "attack" }); });
$("#attack-tray-stop").addEventListener("click", () => { remember(false); step("/tray/cancel"); });
$("#initiative-start").addEventListener("click", () => step("/initiative", { values: initiativeValues() }));
$("#next-turn").addEventListener("click", () => step("/next-turn"));
$("#undo").addEventListener("click", async () => { if (await step("/undo")) toast(t("Undone")); });
$("#add-hero").addEventListener("click", () => {
  const body = { sheet: $("#hero-sheet").value };
  const value = joinInitiative();
  if (value !== undefined) body.initiative = value;
  step("/heroes", body);
});
$("#add-enemy").addEventListener("click", () => {
  const count = Number($("#enemy-count").value) || 1;
  const body = { sheet: $("#enemy-sheet").value, count };
  const value = joinInitiative();
  if (value !== undefined) body.initiatives = Array(count).fill(value);
  step("/enemies", body);
});
$("#hero-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const sheet = { name: form.get("name"), pv: Number(form.get("pv")), weapon: form.get("weapon") || null,
    ranged: form.get("ranged") === "on", armour: Number(form.get("armour")), shield: Number(form.get("shield")) };
  for (const key of ["body", "mind", "soul"]) sheet[key] = Number(form.get(key));
  const body = { sheet, side: "hero", save: true };
  const value = joinInitiative();
  if (value !== undefined) body.initiative = value;
  step("/participants", body).then((ok) => { if (ok) event.target.reset(); });
});
$("#end-scene").addEventListener("click", () => step("/end-scene"));
for (const [id, option] of [["#ties-favour-defender", "ties_favour_defender"], ["#defensive-fumble-on-hit", "defensive_fumble_on_hit"]]) {
  $(id).addEventListener("change", async (event) => {
    if (!(await step("/options", { [option]: event.target.checked }))) render();  // refused: as it was
  });
}
$("#new-fight").addEventListener("click", () => { if (window.confirm(t("Forget this fight and its log?"))) step("/new-fight"); });

$("#do-damage").addEventListener("click", () => step("/damage", { name: openFighter, amount: amount() }));
$("#do-heal").addEventListener("click", () => step("/heal", { name: openFighter, amount: amount() }));
$("#condition-name").addEventListener("change", () => { $("#poison-x").hidden = $("#condition-name").value !== "Envenenado"; });
$("#do-condition").addEventListener("click", () => {
  const condition = { name: $("#condition-name").value };
  if (condition.name === "Envenenado") {
    const x = $("#poison-value").value;
    if (x.startsWith("d")) condition.poison_die = Number(x.slice(1)); else condition.poison = Number(x);
  }
  step("/conditions", { name: openFighter, condition });
});
$("#do-help").addEventListener("click", () => step("/help", { helper: openFighter, ally: $("#help-ally").value, bonus: 1 }));
$("#do-help2").addEventListener("click", () => step("/help", { helper: openFighter, ally: $("#help-ally").value, bonus: 2 }));
for (const button of document.querySelectorAll("#energy-row .spend")) {
  button.addEventListener("click", () => step("/energy", { name: openFighter, energy: button.dataset.energy }));
}
$("#do-long-rest").addEventListener("click", () => step("/rest", { name: openFighter, kind: "long" }));
$("#do-remove").addEventListener("click", () => {
  if (window.confirm(t("Remove {name} from the fight?", { name: shown(openFighter) }))) step("/remove", { name: openFighter });
});
$("#fighter-dialog").addEventListener("close", () => { openFighter = null; });

render();
// --- the event stream: the whole state after every step ---------------------------
eventStream({ url: () => API.events, events: { combat: (data, first) => receive(data, first) } }).open();
act(api.get(PAGE_API.state)).then((found) => { if (found) cameraPill(found.camera); });  // the header's camera pill
window.dicelensCombat = { get state() { return state; } };
