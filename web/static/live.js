/* dicelens live page: the roll on the table, the recent rolls, the presets to arm, dice
 * entered by hand and corrections; every change comes over /api/events (web/events.py). */
import { $, el, setChildren } from "./dom.js";
import { API, act, api } from "./api.js";
import { number, percent, when } from "./format.js";
import { t } from "./i18n.js";
import { tapToAdd } from "./live_add.js";
import { diceEntry } from "./live_entry.js";
import { announce, follow, keepInSight } from "./live_follow.js";
import { cameraPill, player, rememberPlayer } from "./page.js";
import { SEED_WORDS, announceText, asksPrincipal, correctionText, describeRoll, dieTags, poolSummary } from "./roll.js";
import { eventStream } from "./stream.js";
import { showThrow, throwButton } from "./throw.js";

const store = {
  state: null,
  presets: [],
  rolls: new Map(),   // id → roll, the freshest seq wins
  shownId: null,      // a roll the player tapped in the recent list; null = newest
};

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

function presetOf(name) {
  return store.presets.find((p) => p.name === name) || null;
}

/** The armed preset's label as it is now (label_text: worded by the server). */
function presetLabel(name) {
  const preset = presetOf(name);
  return preset ? preset.label_text : name || "";
}

/** The label a roll was made under, whatever its preset is labelled now (worded by the server). */
function rollLabel(roll) {
  return roll.label_text || roll.preset || "";
}

/** What to do before the first roll: throw into the tray, or with no camera reading it, enter the dice by hand. */
function idleDetail() {
  const camera = store.state && store.state.camera;
  return camera && camera.status !== "ok"
    ? t("No camera is reading the tray: pick a roll below, then enter its dice by hand.")
    : t("Pick a roll below, then throw the dice into the tray.");
}

function renderCamera(camera) {
  cameraPill(camera);
  if (!shownRoll()) $("#outcome-detail").textContent = idleDetail();
  // Why the camera is away, in words, where the table sees it (the pill only names the status).
  const note = $("#camera-note");
  // worded by the server in the page's language (web/messages.py shown_camera)
  note.hidden = !camera || camera.status === "ok" || !camera.text;
  note.textContent = note.hidden ? "" : camera.text;
  // With no roll armed there is nothing to throw or enter (the controller would refuse).
  const armed = Boolean(store.state && store.state.preset);
  showThrow($("#throw"), Boolean(camera && camera.can_throw), armed);
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
  // The teaching round takes every throw (the roll waits): the line says so, the prompt how to go on.
  const line = [state.teaching ? t("Teaching round") : words[state.state] || state.state];
  if (state.preset) line.push(state.label_text || presetLabel(state.preset));   // never its internal name
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
  entry.stateChanged(state);
}

/** The roll the player tapped in the recent list, unless it is the newest. */
function pastRoll() {
  return store.shownId !== null && store.shownId !== newestId() ? store.rolls.get(store.shownId) || null : null;
}

/** "Roll 3 · Resolved · 2D6 · by Nara": an earlier roll's own preset and player. */
function pastHeader(roll) {
  return [t("Roll {id}", { id: roll.id }), roll.complete ? t("Resolved") : t("waiting for dice"),
    rollLabel(roll), roll.roller ? t("by {name}", { name: roll.roller }) : ""]
    .filter(Boolean).join(" · ");
}

/** Bar labels the odds chart names at most: two-digit totals fit side by side at 320 px. */
const TICKS = 12;

function renderOdds(odds, preset) {
  const box = $("#odds");
  if (!odds) { box.hidden = true; return; }
  box.hidden = false;
  $("#odds-heading").textContent = t("Odds of {preset}", { preset: presetLabel(preset) });
  const figures = [];
  let bars = [];
  if (odds.system === "pool") {
    if (odds.automatic_failure) figures.push(t("no dice left after penalties"));  // RULES P-8
    figures.push(t("Success {p}", { p: percent(odds.p_success) }));
    figures.push(t("{outcome} {p}", { outcome: SEED_WORDS.botch, p: percent(odds.p_botch) }));
    if (odds.mean_successes !== undefined) figures.push(t("Average {n}", { n: number(odds.mean_successes, 2) }));
    bars = (odds.successes || []).map((p, k) => [String(k), p]);
  } else {
    if (odds.mean !== undefined) figures.push(t("Average {n}", { n: number(odds.mean, 2) }));
    if (odds.p_perfect !== undefined) figures.push(t("{outcome} {p}", { outcome: SEED_WORDS.perfect, p: percent(odds.p_perfect) }));
    bars = Object.entries(odds.distribution || {}).filter(([, p]) => p >= 0.001);
  }
  $("#odds-figures").textContent = figures.join(" · ");
  const top = Math.max(...bars.map(([, p]) => p), 0.0001);
  // Every total is drawn, each bar a share of the width; past TICKS bars only every step-th is
  // named (the first one included), as a chart's axis does, so no label is cut or overlaps.
  const step = Math.ceil(bars.length / TICKS);
  $("#odds-bars").dataset.many = String(bars.length > TICKS * 2);
  setChildren($("#odds-bars"), bars.map(([label, p], i) =>
    el("div", { class: "bar", title: label + ": " + percent(p) }, [
      el("span", { class: "fill", style: "height:" + Math.round((p / top) * 100) + "%" }),
      el("span", { class: "tick", text: i % step === 0 ? label : "" }),
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
    $("#outcome-detail").textContent = idleDetail();
    $("#roll-meta").textContent = "";
    $("#summary").textContent = "";
    $("#roll-note").hidden = true;
    setChildren($("#dice"), []);
    setChildren($("#corrections"), []);
    $("#photo-box").hidden = true;
    adder.show(null);
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
  const meta = [rollLabel(roll)];
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
    text: [correctionText(c, roll), c.who, when(c.at)].filter(Boolean).join(" · "),
  })));
  const photoBox = $("#photo-box");
  if (roll.photo) {
    const img = $("#photo");
    const src = API.rolls + "/" + roll.id + "/photo?seq=" + roll.seq;
    if (img.getAttribute("src") !== src) img.src = src;
    img.alt = t("Photo of roll {id}", { id: roll.id });
    photoBox.hidden = false;
  } else photoBox.hidden = true;
  adder.show(roll);
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
      onclick: () => entry.openFix(roll, die, index),
    }, [
      // its number in sight: the one a prompt or a correction names (the list puts the principal first)
      el("span", { class: "num", text: t("Die {n}", { n: index + 1 }) }),
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
        el("strong", { text: [rollLabel(roll), d.outcome].filter(Boolean).join(" · ") }),
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

const entry = diceEntry({ store, presetOf, receive, answered, shownRoll });
const adder = tapToAdd({ receive });

async function arm(name) {
  follow();
  answered(await act(api.post(API.arm, { preset: name, roller: player() })));
}

// --- the throw and the photo ------------------------------------------------
throwButton($("#throw"), { before: follow, done: answered });

$("#photo-open").addEventListener("click", () => {
  const full = $("#photo-full");
  full.src = $("#photo").src;
  full.alt = $("#photo").alt;
  $("#photo-dialog").showModal();
});

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
