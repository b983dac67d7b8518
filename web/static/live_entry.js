/* The live page's dice by hand: the keypad for a roll's dice, and a die's correction
 * (its value, cocked, the principal die, a leaning die's top face, RULES T-1, T-5, D6-2);
 * what they answer goes back to the page through receive/answered. */
import { $, el, setChildren } from "./dom.js";
import { API, act, api } from "./api.js";
import { t } from "./i18n.js";
import { keys } from "./keypad.js";
import { follow } from "./live_follow.js";
import { player } from "./page.js";
import { sidesOf, unreadableWord } from "./roll.js";
import { toast } from "./toast.js";

// A d10 shows 0 for ten (RULES P-1): its keypad reads 1–9 then 0.
const keypadButtons = (sides, onPick) => keys(sides, onPick, { zeroForTen: true });

/** Wire the keypad and the correction dialogs to the page: its store (state, presets),
 *  presetOf(name), receive(roll, tell), answered(state) and shownRoll().
 *  Returns { openFix(roll, die, index), stateChanged(state) }. */
export function diceEntry({ store, presetOf, receive, answered, shownRoll }) {
  let keypadSides = 6;
  let keypadValues = [];
  let fixing = null;

  // --- keypad for dice by hand ---------------------------------------------

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
    follow();
    const state = await act(api.post(API.dice, { values: keypadValues, roller: player() }));
    if (state) {
      $("#keypad-dialog").close();
      answered(state);
    }
  });

  // --- corrections -----------------------------------------------------------
  function openFix(roll, die, index) {
    const dieIndex = die.index !== undefined ? die.index : index;
    const askPrincipal = !$("#pick-principal").hidden;
    if (askPrincipal) { setPrincipal(roll, dieIndex); return; }
    fixing = { roll, index: dieIndex, more: [] };
    $("#fix-title").textContent = t("Die {n}", { n: index + 1 }) + " · " + shownAs(die);
    $("#fix-hint").textContent = t("Set the value");
    // Only the roll under way takes a throw (RULES T-1): a past roll's cocked die would be refused.
    $("#fix-cocked").hidden = roll.id !== (store.state || {}).current_roll;
    setChildren($("#fix-keypad"), keypadButtons(sidesOf(roll), (value) => fix({ value })));
    $("#fix-principal").hidden = !["d6", "free"].includes(roll.system) || Boolean(die.step) ||
      die.principal || die.role === "principal" || die.role === "extra";
    $("#fix-dialog").showModal();
  }

  /** What the die shows and who said so: the camera ("read 4"), a player's correction or the
   *  keypad (a die nobody read is never called read). */
  function shownAs(die) {
    if (die.natural === null || die.natural === undefined) return t(unreadableWord(die));
    if (die.source === "hand") return t("entered by hand: {n}", { n: die.natural });
    if (die.corrected) return t("corrected to {n}", { n: die.natural });
    return t("read {n}", { n: die.natural });
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

  /** A keypad opened before the armed state arrived shows the die it asks for now. */
  function stateChanged(state) {
    if ($("#keypad-dialog").open && keypadValues.length === 0) {
      keypadSides = sidesWanted(state);
      renderKeypad();
    }
  }

  return { openFix, stateChanged };
}
