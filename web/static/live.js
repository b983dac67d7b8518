/* dicelens live page: the roll on the table, the recent rolls, the presets to arm, dice
 * entered by hand and corrections; every change comes over /api/events (web/events.py). */
import { $, el, setChildren } from "./dom.js";
import { API, act, api } from "./api.js";
import { number, percent, when } from "./format.js";
import { t } from "./i18n.js";
import { keys } from "./keypad.js";
import { cameraPill, player, rememberPlayer } from "./page.js";
import { announceText, asksPrincipal, correctionText, describeRoll, dieTags, poolSummary, sidesOf } from "./roll.js";
import { eventStream } from "./stream.js";
import { toast } from "./toast.js";

const store = {
  state: null,
  presets: [],
  rolls: new Map(),   // id → roll, the freshest seq wins
  shownId: null,      // a roll the player tapped in the recent list; null = newest
};
let keypadSides = 6;
let keypadValues = [];
let fixing = null;

const playerInput = $("#player");
playerInput.value = player() || "";
playerInput.addEventListener("input", () => {
  rememberPlayer(playerInput.value.trim());
});

function newestId() {
  let best = null;
  for (const id of store.rolls.keys()) if (best === null || id > best) best = id;
  return best;
}

/** Keep a roll unless a copy as new or newer is already here; true when it changed. */
function upsert(roll) {
  if (!roll || roll.id === undefined) return false;
  const known = store.rolls.get(roll.id);
  if (known && known.seq >= roll.seq) return false;
  store.rolls.set(roll.id, roll);
  return known ? "changed" : "new";
}

/** tell: say the change to screen readers: a live event, or this phone's own correction
 *  (its reply and the live event race; whichever comes first is told, the other is a copy). */
function receive(roll, tell) {
  const before = newestId();
  const known = store.rolls.get(roll.id) || {};
  const wasComplete = known.complete;
  const corrections = (known.corrections || []).length;
  const change = upsert(roll);
  if (!change) return;
  let arrived = false;
  if (tell) {
    if (change === "new" && (before === null || roll.id > before)) {
      arrived = true;
      store.shownId = null;
      const card = $("#current");
      card.classList.remove("arrived");
      void card.offsetWidth; // restart the arrival animation
      card.classList.add("arrived");
      announce(t("New roll: {result}", { result: announceText(roll) }));
    } else if (change === "changed") {
      // The extra dice a roll waited for resolve it: that is its result arriving.
      arrived = roll.complete && !wasComplete && roll.id === newestId() && store.shownId === null;
      // "corrected" only when a correction was made; dice entered for it are not one.
      const corrected = (roll.corrections || []).length > corrections;
      announce(t(corrected ? "Roll {id} corrected: {result}" : "Roll {id}: {result}",
        { id: roll.id, result: announceText(roll) }));
    }
  }
  render();
  if (arrived) keepInSight(roll.complete);
}

// --- the result in sight ----------------------------------------------------
// On a phone the presets sit below the result card: after this phone armed,
// threw or sent dice, the result (or the prompt asking for more dice) is
// scrolled into sight when it arrives. A roll from elsewhere is too, unless
// the player is reading the recent rolls. Scrolling by hand stops the following.
let following = false;
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);
const stopFollowing = () => { following = false; };
window.addEventListener("wheel", stopFollowing, { passive: true });
window.addEventListener("touchmove", stopFollowing, { passive: true });
window.addEventListener("keydown", (event) => {
  if (SCROLL_KEYS.has(event.key) && !event.target.closest("input, select, textarea, button, dialog")) stopFollowing();
});

/** Wholly between the sticky header and the action bar. */
function inSight(node) {
  const box = node.getBoundingClientRect();
  return box.top >= $(".top").getBoundingClientRect().bottom &&
    box.bottom <= $(".actions").getBoundingClientRect().top;
}

function keepInSight(done) {
  const reading = $("#recent").getBoundingClientRect().top < $(".actions").getBoundingClientRect().top;
  if (following || !reading) {
    const wanted = [$("#big")].concat($("#prompt").hidden ? [] : [$("#prompt")]);
    if (!wanted.every(inSight)) {
      const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      $("#current").scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
    }
  }
  if (done) following = false;
}

let announcing = null;
function announce(text) {
  // Re-setting the same text would be silent; clear first so readers speak it. Events
  // that come at once (a phone waking with a minute of them) say only the newest.
  const box = $("#announce");
  box.textContent = "";
  clearTimeout(announcing);
  announcing = setTimeout(() => { box.textContent = text; }, 50);
}

function presetOf(name) {
  return store.presets.find((p) => p.name === name) || null;
}

function presetLabel(name, fallback) {
  const preset = presetOf(name);
  return preset ? preset.label_text : fallback || name || "";  // label_text: worded by the server
}

function renderCamera(camera) {
  cameraPill(camera);
  // Why the camera is away, in words, where the table sees it (the pill only names the status).
  const note = $("#camera-note");
  note.hidden = !camera || camera.status === "ok" || !camera.message;
  note.textContent = note.hidden ? "" : camera.message;
  $("#throw").hidden = !(camera && camera.can_throw);
  // With no roll armed there is nothing to throw or enter (the controller would refuse).
  const armed = Boolean(store.state && store.state.preset);
  $("#throw").disabled = !armed;
  $("#hand-open").disabled = !armed;
}

function renderState() {
  const state = store.state;
  if (!state) return;
  renderCamera(state.camera);
  const words = {
    idle: t("Idle"), armed: t("Armed"), waiting: t("Waiting for the dice"), reading: t("Reading the dice"),
    prompting: state.prompt_asks === "dice" ? t("More dice needed") : t("Check the dice"), resolved: t("Resolved"),
  };
  const line = [words[state.state] || state.state];
  if (state.preset) line.push(presetLabel(state.preset));
  if (state.roller) line.push(t("by {name}", { name: state.roller }));
  const past = pastRoll();
  // An earlier roll the player tapped is shown under its own header, without the live prompt.
  $("#machine-state").textContent = past ? pastHeader(past) : line.join(" · ");
  $("#machine-state").dataset.state = past ? "past" : state.state;
  const prompt = $("#prompt");
  // The server words the prompt in this page's language (web/messages.py prompt_text).
  const text = past ? "" : state.prompt_text || "";
  const asks = Boolean(text) && state.prompt_asks !== "throw" && (prompt.hidden || prompt.textContent !== text);
  prompt.hidden = !text;
  prompt.textContent = text;
  prompt.dataset.urgent = String(state.state === "prompting");
  // RULES T-5 accept_leaning: the die whose top face the prompt asks for (state.problem, as data)
  const leaning = !past && state.problem && state.problem.code === "leaning" ? state.problem.die - 1 : null;
  $("#lean-open").hidden = leaning === null;
  $("#lean-open").dataset.index = leaning === null ? "" : String(leaning);
  for (const item of document.querySelectorAll("#presets button")) {
    item.setAttribute("aria-pressed", String(item.dataset.preset === state.preset));
  }
  renderOdds(state.odds, state.preset);
  if (asks) keepInSight(false);
  // A keypad opened before the armed state arrived shows the die it asks for now.
  if ($("#keypad-dialog").open && keypadValues.length === 0) {
    keypadSides = sidesWanted(state);
    renderKeypad();
  }
}

/** The roll the player tapped in the recent list, unless it is the newest. */
function pastRoll() {
  return store.shownId !== null && store.shownId !== newestId() ? store.rolls.get(store.shownId) || null : null;
}

/** "Roll 3 · Resolved · 2D6 · by Nara": an earlier roll's own preset and player. */
function pastHeader(roll) {
  return [t("Roll {id}", { id: roll.id }), roll.complete ? t("Resolved") : t("waiting for dice"),
    presetLabel(roll.preset, roll.label), roll.roller ? t("by {name}", { name: roll.roller }) : ""]
    .filter(Boolean).join(" · ");
}

function renderOdds(odds, preset) {
  const box = $("#odds");
  if (!odds) { box.hidden = true; return; }
  box.hidden = false;
  $("#odds-heading").textContent = t("Odds of {preset}", { preset: presetLabel(preset) });
  const figures = [];
  let bars = [];
  if (odds.system === "pool") {
    figures.push(t("Success {p}", { p: percent(odds.p_success) }));
    figures.push(t("Botch {p}", { p: percent(odds.p_botch) }));
    if (odds.mean_successes !== undefined) figures.push(t("Average {n}", { n: number(odds.mean_successes, 2) }));
    bars = (odds.successes || []).map((p, k) => [String(k), p]);
  } else {
    if (odds.mean !== undefined) figures.push(t("Average {n}", { n: number(odds.mean, 2) }));
    if (odds.p_perfect !== undefined) figures.push(t("Perfect roll {p}", { p: percent(odds.p_perfect) }));
    bars = Object.entries(odds.distribution || {}).filter(([, p]) => p >= 0.001);
  }
  $("#odds-figures").textContent = figures.join(" · ");
  const top = Math.max(...bars.map(([, p]) => p), 0.0001);
  setChildren($("#odds-bars"), bars.slice(0, 24).map(([label, p]) =>
    el("div", { class: "bar", title: label + ": " + percent(p) }, [
      el("span", { class: "fill", style: "height:" + Math.round((p / top) * 100) + "%" }),
      el("span", { class: "tick", text: label }),
    ])));
}

function renderPresets() {
  const list = $("#presets");
  setChildren(list, store.presets.map((preset) => el("li", {}, el("button", {
    type: "button", class: "preset", "aria-pressed": "false", dataset: { preset: preset.name },
    text: preset.label_text,
    onclick: () => arm(preset.name),
  }))));
  renderState();
}

function shownRoll() {
  const id = store.shownId !== null ? store.shownId : newestId();
  return id === null ? null : store.rolls.get(id);
}

function renderRoll() {
  const roll = shownRoll();
  const big = $("#big");
  if (!roll) {
    big.textContent = "–";
    $("#big-unit").textContent = "";
    $("#outcome").textContent = t("No roll yet");
    $("#outcome-detail").textContent = t("Pick a roll below, then throw the dice into the tray.");
    $("#roll-meta").textContent = "";
    $("#summary").textContent = "";
    $("#roll-note").hidden = true;
    setChildren($("#dice"), []);
    setChildren($("#corrections"), []);
    $("#photo-box").hidden = true;
    return;
  }
  const d = describeRoll(roll);
  big.textContent = d.big;
  big.dataset.rollId = roll.id;
  big.dataset.waiting = String(!roll.complete && !roll.finished);
  $("#current").dataset.tone = d.tone || "plain";
  $("#big-unit").textContent = d.unit;
  $("#outcome").textContent = d.outcome;
  $("#outcome-detail").textContent = d.detail;
  const meta = [presetLabel(roll.preset, roll.label)];
  if (roll.roller) meta.push(t("by {name}", { name: roll.roller }));
  meta.push(when(roll.finished || roll.started));
  $("#roll-meta").textContent = meta.filter(Boolean).join(" · ");
  renderDice(roll);
  $("#summary").textContent = roll.system === "pool" ? poolSummary(roll)
    : (roll.dice.some((die) => die.role === "extra" && !die.surplus)
      ? t("extra dice: {n}", { n: roll.dice.filter((die) => die.role === "extra" && !die.surplus).length }) : "");
  const note = $("#roll-note");
  note.hidden = !roll.note;
  note.textContent = roll.note || "";
  setChildren($("#corrections"), (roll.corrections || []).map((c) => el("li", {
    text: [correctionText(c), c.who, when(c.at)].filter(Boolean).join(" · "),
  })));
  const photoBox = $("#photo-box");
  if (roll.photo) {
    const img = $("#photo");
    const src = API.rolls + "/" + roll.id + "/photo?seq=" + roll.seq;
    if (img.getAttribute("src") !== src) img.src = src;
    img.alt = t("Photo of roll {id}", { id: roll.id });
    photoBox.hidden = false;
  } else photoBox.hidden = true;
  // The controller could not tell the principal die (RULES D6-2a, a free roll too): the player points at it.
  const askPrincipal = asksPrincipal(roll);
  const pick = $("#pick-principal");
  pick.hidden = !askPrincipal;
  pick.textContent = askPrincipal ? t("Which die is the principal? Tap it.") : "";
}

/** The dice in the order players read them: the principal die first (RULES D6-2), then the
 *  rest as the tray had them. Each keeps its number (the API's index + 1), which prompts
 *  and corrections name. */
function readingOrder(roll) {
  const isPrincipal = (die) => !die.step && (die.principal || die.role === "principal");
  return roll.dice.map((die, index) => ({ die, index: die.index !== undefined ? die.index : index }))
    .sort((a, b) => Number(isPrincipal(b.die)) - Number(isPrincipal(a.die)) || a.index - b.index);
}

function renderDice(roll) {
  const list = $("#dice");
  setChildren(list, readingOrder(roll).map(({ die, index }) => {
    const tags = dieTags(roll, die, index);
    const unread = die.natural === null || die.natural === undefined;
    const counted = !unread && die.value !== undefined && die.value !== null && die.value !== die.natural
      ? el("span", { class: "counted", text: t("counts {n}", { n: die.value }) }) : null;
    // an unread die's reason (cocked, cut off…) is among its tags
    const label = [t("Die {n}", { n: index + 1 })].concat(unread ? [] : [String(die.natural)])
      .concat(tags.map((tag) => t(tag))).join(", ");
    return el("li", {}, el("button", {
      type: "button", class: "die", "aria-label": label,
      dataset: { index: String(index), role: tags[0] || "", color: die.color || "" },
      onclick: () => openFix(roll, die, index),
    }, [
      el("span", { class: "face", text: unread ? "?" : String(die.natural) }),
      counted,
      el("span", { class: "tags", text: tags.map((tag) => t(tag)).join(" · ") }),
    ]));
  }));
}

function renderRecent() {
  const rolls = [...store.rolls.values()].sort((a, b) => b.id - a.id).slice(0, 12);
  setChildren($("#recent"), rolls.map((roll) => {
    const d = describeRoll(roll);
    return el("li", { dataset: { rollId: String(roll.id) } }, el("button", {
      type: "button", class: "recent-roll", "aria-current": roll.id === (shownRoll() || {}).id ? "true" : null,
      onclick: () => { store.shownId = roll.id === newestId() ? null : roll.id; render(); window.scrollTo({ top: 0 }); },
    }, [
      el("span", { class: "recent-big", text: d.big }),
      el("span", { class: "recent-text" }, [
        el("strong", { text: [presetLabel(roll.preset), d.outcome].filter(Boolean).join(" · ") }),
        el("span", { text: [roll.roller, when(roll.finished || roll.started)].filter(Boolean).join(" · ") }),
      ]),
    ]));
  }));
  const names = new Set([...store.rolls.values()].map((r) => r.roller).filter(Boolean));
  setChildren($("#players"), [...names].map((name) => el("option", { value: name })));
}

function render() {
  renderRoll();
  renderRecent();
  renderState();
}

/** The state an action answered with. While the stream is open it brings the
 *  same state, in order with everything else; an answer that arrives late
 *  must not undo a newer event (a camera that went away meanwhile). */
function answered(state) {
  if (!state || stream.connected) return;
  store.state = state;
  if (state.latest_roll) receive(state.latest_roll, true);
  renderState();
}

async function arm(name) {
  following = true;
  answered(await act(api.post(API.arm, { preset: name, roller: player() })));
}

// --- keypad for dice by hand ---------------------------------------------
// A d10 shows 0 for ten (RULES P-1): its keypad reads 1–9 then 0.
const keypadButtons = (sides, onPick) => keys(sides, onPick, { zeroForTen: true });

function expectedCount() {
  const state = store.state || {};
  if (state.needs) return state.needs.count;
  const preset = presetOf(state.preset);
  return preset && preset.count ? preset.count : null;
}

function renderKeypad() {
  const pad = $("#keypad");
  pad.dataset.sides = keypadSides;
  // Only the kind of die the armed roll takes is offered.
  for (const chip of document.querySelectorAll("#keypad-dialog [data-sides]")) {
    chip.hidden = Number(chip.dataset.sides) !== sidesWanted(store.state || {});
  }
  setChildren(pad, keypadButtons(keypadSides, (value) => { keypadValues.push(value); renderKeypad(); }));
  for (const chip of document.querySelectorAll("#keypad-dialog [data-sides]")) {
    chip.setAttribute("aria-checked", String(Number(chip.dataset.sides) === keypadSides));
  }
  setChildren($("#keypad-values"), keypadValues.map((value, i) => el("li", {}, el("button", {
    type: "button", class: "chip", text: String(value), "aria-label": t("Remove") + " " + value,
    onclick: () => { keypadValues.splice(i, 1); renderKeypad(); },
  }))));
  const count = expectedCount();
  // the roll takes this many dice: a further tap would only be refused
  const full = Boolean(count) && keypadValues.length >= count;
  for (const key of pad.querySelectorAll(".key")) key.disabled = full;
  const hints = [];
  if (count) hints.push(count === 1 ? t("Enter one die") : t("Enter {n} dice", { n: count }));
  if (keypadSides === 10) hints.push(t("0 = 10"));
  $("#keypad-hint").textContent = hints.join(" · ");
  // Send once the roll's dice are all there (any number when it takes any).
  $("#keypad-send").disabled = count ? keypadValues.length !== count : keypadValues.length === 0;
}

function sidesWanted(state) {
  const preset = presetOf(state.preset);
  return (state.needs && state.needs.sides) || (preset && preset.sides) || 6;
}

function openKeypad() {
  keypadSides = sidesWanted(store.state || {});
  keypadValues = [];
  renderKeypad();
  $("#keypad-dialog").showModal();
}

for (const chip of document.querySelectorAll("#keypad-dialog [data-sides]")) {
  chip.addEventListener("click", () => { keypadSides = Number(chip.dataset.sides); keypadValues = []; renderKeypad(); });
}
$("#hand-open").addEventListener("click", openKeypad);
$("#keypad-clear").addEventListener("click", () => { keypadValues = []; renderKeypad(); });
$("#keypad-send").addEventListener("click", async () => {
  following = true;
  const state = await act(api.post(API.dice, { values: keypadValues, roller: player() }));
  if (state) {
    $("#keypad-dialog").close();
    answered(state);
  }
});
$("#throw").addEventListener("click", async () => {
  following = true;
  answered(await act(api.post(API.throw)));
});

// --- corrections -----------------------------------------------------------
function openFix(roll, die, index) {
  const dieIndex = die.index !== undefined ? die.index : index;
  const askPrincipal = !$("#pick-principal").hidden;
  if (askPrincipal) { setPrincipal(roll, dieIndex); return; }
  fixing = { roll, index: dieIndex, more: [] };
  const read = die.natural === null || die.natural === undefined
    ? t(die.unreadable || "cocked") : t("read {n}", { n: die.natural });
  $("#fix-title").textContent = t("Die {n}", { n: index + 1 }) + " · " + read;
  $("#fix-hint").textContent = t("Set the value");
  $("#fix-cocked").hidden = false;
  setChildren($("#fix-keypad"), keypadButtons(sidesOf(roll), (value) => fix({ value })));
  $("#fix-principal").hidden = !["d6", "free"].includes(roll.system) || Boolean(die.step) ||
    die.principal || die.role === "principal" || die.role === "extra";
  $("#fix-dialog").showModal();
}

async function fix(change) {
  const { roll, index, more } = fixing;
  const body = Object.assign({ who: player() }, change, more.length ? { more } : {});
  try {
    const updated = await api.post(API.rolls + "/" + roll.id + "/dice/" + index, body);
    $("#fix-dialog").close();
    receive(updated, true);
  } catch (err) {
    if (err.needs) askMore(change, err.needs);
    else toast(t("Error: {reason}", { reason: err.message }));
  }
}

/** A finished roll the correction leaves waiting for dice (an extra die corrected to 6
 *  asks for the next, RULES D6-4): its next dice are entered here and sent with it. */
function askMore(change, needs) {
  const wanted = fixing.more.length + needs.count;
  $("#fix-title").textContent = needs.text;
  $("#fix-hint").textContent = t("This correction needs more dice: enter them.");
  $("#fix-cocked").hidden = true;
  $("#fix-principal").hidden = true;
  setChildren($("#fix-keypad"), keypadButtons(needs.sides === 10 ? 10 : 6, (value) => {
    fixing.more.push(value);
    if (fixing.more.length >= wanted) fix(change);
  }));
}

async function setPrincipal(roll, index) {
  const updated = await act(api.post(API.rolls + "/" + roll.id + "/principal", { index, who: player() }));
  if (updated) { $("#fix-dialog").close(); receive(updated, true); }
}

$("#photo-open").addEventListener("click", () => {
  const full = $("#photo-full");
  full.src = $("#photo").src;
  full.alt = $("#photo").alt;
  $("#photo-dialog").showModal();
});

$("#fix-cocked").addEventListener("click", () => fix({ cocked: true }));
// RULES T-5 accept_leaning: the keypad for the one die that leans, its top face entered by hand
$("#lean-open").addEventListener("click", () => {
  const roll = shownRoll();
  const index = Number($("#lean-open").dataset.index);
  if (!roll || !roll.dice[index]) return;
  openFix(roll, roll.dice[index], index);
  $("#fix-title").textContent = t("Die {n} leans: enter its top face.", { n: index + 1 });
  $("#fix-hint").textContent = t("Its top face, as the table sees it");
  $("#fix-cocked").hidden = true;
  $("#fix-principal").hidden = true;
});
$("#fix-principal").addEventListener("click", () => setPrincipal(fixing.roll, fixing.index));

// --- live updates ------------------------------------------------------------
function onState(state) {
  store.state = state;
  if (state.latest_roll) receive(state.latest_roll, true);
  else if (store.rolls.size) {  // the history was cleared: its rolls go from every page
    store.rolls.clear();
    store.shownId = null;
    render();
  }
  renderState();
}

const stream = eventStream({
  url: () => API.events + (stream.lastSeq !== null ? "?last_event_id=" + stream.lastSeq : ""),
  poll: { url: API.state, state: onState },
  opened: (reopened) => { if (reopened) loadRecent(); },
  events: {
    roll: (roll) => receive(roll, true),
    // The server's history is not the one this page knew (a new one, after a damaged database).
    reload: (state) => {
      store.rolls.clear();
      store.shownId = null;
      onState(state);
      loadRecent();
    },
    state: onState,
    camera: (camera) => { if (store.state) store.state.camera = camera; renderCamera(camera); },
  },
});

async function loadRecent() {
  const page = await act(api.get(API.rolls + "?limit=12"));
  if (page) { for (const roll of page.rolls) upsert(roll); render(); }
}

async function start() {
  // The server put the state and the presets in the page; the stream and the
  // recent rolls follow. Opening the stream first means nothing falls between.
  const initial = JSON.parse($("#initial").textContent);
  store.presets = initial.presets;
  store.state = initial.state;
  if (initial.state.latest_roll) upsert(initial.state.latest_roll);
  renderPresets();
  render();
  stream.open();
  await loadRecent();
  // A roll opened from the history (/?roll=ID): shown, its dice ready to correct.
  const asked = new URLSearchParams(window.location.search).get("roll");
  if (asked && /^[0-9]+$/.test(asked)) {
    const roll = await act(api.get(API.rolls + "/" + asked));
    if (roll) { upsert(roll); store.shownId = roll.id; render(); }
  }
}
start();
window.dicelens = { store, stream };
