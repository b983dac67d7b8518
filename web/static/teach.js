/* dicelens teaching round (teach.html): the round's state from GET /api/teach, asked again
 * every 1.5 s while the page is open (which also keeps the round on: device/teach_round.py);
 * each die of the throw held as a button (its crop, its value), a keypad to fix one,
 * "All right" to confirm the throw, and what each kind has been taught; with a camera that
 * throws by itself (the simulated one), the live page's Throw for the round's next throw. */
import { $, el, translator } from "./dom.js";
import { API, act, api } from "./api.js";
import { keypad } from "./keypad.js";
import { cameraPill, player } from "./page.js";
import { showThrow, throwButton } from "./throw.js";
import { toast } from "./toast.js";

const t = translator(JSON.parse($("#teach-words").textContent));
let state = null;
let shown = "";
let fixing = null;   // the index of the die whose keypad is open

function dieButton(die) {
  const value = die.value === null ? "?" : String(die.value);
  return el("li", {}, el("button", {
    type: "button", class: "teach-die" + (die.fixed ? " fixed" : ""), dataset: { index: String(die.index) },
    "aria-pressed": String(fixing === die.index),
    "aria-label": t("die", { n: die.index + 1, kind: die.name, value }),
    onclick: () => { fixing = fixing === die.index ? null : die.index; render(state, true); },
  }, [el("img", { src: die.crop, alt: "" }), el("span", { class: "teach-value", text: value }),
      el("span", { class: "teach-kind", text: die.name })]));
}

function render(next, force) {
  const json = JSON.stringify(next);
  if (!force && json === shown) return;
  shown = json;
  state = next;
  if (fixing !== null && !state.dice[fixing]) fixing = null;
  $("#teach-start").hidden = state.on;
  $("#teach-start").disabled = !state.on && Boolean(state.why_not);   // the round would never get a throw
  $("#teach-why").hidden = !state.why_not;   // also during a round: no throw comes while the camera is away
  $("#teach-why").textContent = state.why_not || "";
  $("#teach-stop").hidden = !state.on;
  showThrow($("#throw"), state.can_throw, state.on && !state.dice.length);   // a throw held: the round takes no other
  $("#teach-status").textContent = !state.on ? t("off") : state.dice.length ? t("held") : t("on");
  $("#teach-throw").hidden = !state.dice.length;
  $("#teach-dice").replaceChildren(...state.dice.map(dieButton));
  const die = fixing === null ? null : state.dice[fixing];
  $("#teach-keypad").replaceChildren(...(die ? [keypad(die.sides, die.value, (value) => fix(die.index, value),
                                                        t("fix", { n: die.index + 1 }))] : []));
  $("#teach-kinds").replaceChildren(...state.kinds.map((kind) => el("li", { dataset: { kind: kind.kind } }, [
    el("strong", { text: kind.name }), " · ", el("span", { class: "teach-count", text: kind.count_text }),
    el("span", { class: "teach-lacking detail", text: kind.lacking_text })])));
  $("#teach-none").hidden = state.kinds.length > 0;
}

async function post(path, body) {
  const next = await act(api.post(API.teach + path, body));
  if (next) render(next, true);
  return next;
}

function fix(index, value) {
  fixing = null;
  post("/dice/" + index, { value });
}

async function refresh() {
  const next = await api.get(API.teach).catch(() => null);   // a missed poll: the next one will do
  if (next) render(next);
}

$("#teach-start").addEventListener("click", () => post("/start"));
$("#teach-stop").addEventListener("click", async () => {
  if (await post("/stop")) window.location.assign("/settings");
});
$("#teach-skip").addEventListener("click", () => post("/skip"));
throwButton($("#throw"), { done: refresh });
$("#teach-confirm").addEventListener("click", async () => {
  const count = state.dice.length;
  const who = player();
  if (await post("/confirm", who ? { who } : {})) toast(t("confirmed", { n: count }));
});
act(api.get(API.teach)).then((next) => { if (next) render(next); });
setInterval(refresh, 1500);
act(api.get(API.state)).then((s) => { if (s) cameraPill(s.camera); });
