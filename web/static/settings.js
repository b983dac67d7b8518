/* dicelens settings page: the principal colour, the rolls (presets), the house rules,
 * the PIN and the history, each saved through POST /api/settings (README). */
import { $, el, setChildren } from "./dom.js";
import { API, act, api } from "./api.js";
import { t } from "./i18n.js";
import { cameraPill } from "./page.js";
import { showExamples } from "./settings_examples.js";
import { showSetup } from "./setup.js";
import { toast } from "./toast.js";

// Whether the camera had sent a frame when the page was made: before it, no picture is asked for.
const HAS_FRAME = JSON.parse($("#settings-initial").textContent).has_frame;
let reading = null;
let frameSize = null;
let principalColor = null;  // as the settings last said: the photo's die buttons show it pressed

function showSettings(settings) {
  const named = settings.principal_color ? t(settings.principal_color) : "–";
  $("#principal-color").textContent = settings.principal_measured
    ? t("Principal colour: {color}, measured on your die", { color: named }) : t("Principal colour: {color}", { color: named });
  principalColor = settings.principal_color;
  for (const button of document.querySelectorAll("#frame-dice button")) {
    button.setAttribute("aria-pressed", String(button.dataset.color === principalColor));
  }
  $("#pin-state").textContent = settings.pin_set ? t("PIN set") : t("No PIN");
  $("#pin-clear").disabled = !settings.pin_set;
  // The config decides the PIN: the device would refuse the form (web/templates/settings.html).
  $("#pin-form").hidden = $("#pin-clear").hidden = !settings.pin_from_page;
  $("#pin-in-config").hidden = settings.pin_from_page || !settings.pin_in_config;
  $("#pin-not-from-page").hidden = settings.pin_from_page || settings.pin_in_config;
  const list = $("#preset-editor");
  setChildren(list, (settings.presets || []).map((preset) => presetRow(preset, (settings.preset_labels || {})[preset.name])));
  $("#preset-add").disabled = $("#preset-save").disabled = false;   // the rolls are here to edit
  for (const choice of document.querySelectorAll("#cocked-form input[name=cocked]")) {  // RULES T-5
    choice.checked = choice.value === settings.cocked_dice;
  }
  const house = settings.house_rules;  // RULES P-5b
  $("#house-ten").checked = house.rule_of_ten;
  $("#house-one").checked = house.rule_of_one;
  $("#house-target").value = String(house.target_number);
}

$("#cocked-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const chosen = $("#cocked-form input[name=cocked]:checked");
  const settings = await act(api.post(API.settings, { cocked_dice: chosen ? chosen.value : null }));
  if (settings) { showSettings(settings); toast(t("Saved")); }
});

$("#house-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const house_rules = { rule_of_ten: $("#house-ten").checked, rule_of_one: $("#house-one").checked,
    target_number: Number($("#house-target").value) };
  const settings = await act(api.post(API.settings, { house_rules }));
  if (settings) { showSettings(settings); toast(t("Saved")); }
});

/** shown: the label as the server words it, {text, made} (web/messages.py preset_labels). */
function presetRow(preset, shown = { text: preset.label || "", made: false }) {
  const row = $("#preset-row").content.firstElementChild.cloneNode(true);
  const rest = Object.assign({}, preset);
  delete rest.name;
  delete rest.label;
  $(".p-name", row).value = preset.name || "";
  // A label the rules made ("pool 5 · difficulty 1") in the page's language, as the live page
  // shows it; kept as it is stored unless it is edited.
  row.dataset.label = preset.label || "";
  row.dataset.labelText = shown.text;
  row.dataset.made = String(shown.made);
  $(".p-label", row).value = shown.text;
  $(".p-spec", row).value = JSON.stringify(rest);
  $(".p-spec", row).addEventListener("change", () => remakeLabel(row));
  $(".p-remove", row).addEventListener("click", () => row.remove());
  if (preset.system === "pool") poolSteppers(row, preset);
  return row;
}

/** A rule edited (its JSON, a stepper): a label the rules made of it and not edited is
 *  dropped, so that the server makes the new one ("pool 5 · difficulty 2" → "pool 6 · …"). */
function remakeLabel(row) {
  if (row.dataset.made === "true" && $(".p-label", row).value === row.dataset.labelText) $(".p-label", row).value = "";
}

/** The pool's dice, difficulty, penalty and bonus as steppers; each change is written into
 *  the row's JSON. */
function poolSteppers(row, preset) {
  const box = $(".p-pool", row);
  box.hidden = false;
  const spec = () => { try { return JSON.parse($(".p-spec", row).value || "{}"); } catch (err) { return null; } };
  for (const stepper of box.querySelectorAll(".stepper")) {
    const key = stepper.dataset.key;
    const low = Number(stepper.dataset.min);
    const input = $(".p-number", stepper);
    input.value = ((spec() || {}).spec || {})[key] ?? low;
    const write = (value) => {
      const rest = spec();
      if (!rest) { toast(t("The rule settings are not valid JSON: fix them first.")); $(".p-spec", row).focus(); return; }
      input.value = Math.min(100, Math.max(low, value));
      rest.spec = Object.assign({}, rest.spec, { [key]: Number(input.value) });
      $(".p-spec", row).value = JSON.stringify(rest);
      remakeLabel(row);
    };
    input.addEventListener("change", () => write(/^[0-9]+$/.test(input.value) ? Number(input.value) : low));
    for (const button of stepper.querySelectorAll(".step")) {
      button.addEventListener("click", () => write(Number(input.value) + Number(button.dataset.by)));
    }
  }
}

async function loadFrame() {
  const frame = await api.get(API.frame).catch(() => null);
  reading = frame && frame.reading;
  const has = Boolean(frame && reading);
  $("#frame-box").hidden = !has;
  $("#frame-none").hidden = has;
  if (has) { frameSize = { width: frame.width, height: frame.height }; $("#frame").src = frame.image; }
  const dice = has ? reading.dice.filter((d) => d.color) : [];
  $("#frame-dice").hidden = !dice.length;
  setChildren($("#frame-dice"), dice.map((die, i) => el("li", {}, el("button", {
    type: "button", class: "chip", dataset: { color: die.color }, text: t("Die {n}", { n: i + 1 }) + " · " + t(die.color),
    "aria-pressed": String(die.color === principalColor), onclick: () => choosePrincipal(die.color),
  }))));
}

async function choosePrincipal(color) {
  const settings = await act(api.post(API.settings, { principal_color: color }));
  if (settings) { showSettings(settings); toast(t("Saved")); }
}

// RULES D6-2a: the one die in the tray measured (409 with the reason when not one die is in sight).
$("#principal-measure").addEventListener("click", async () => {
  const settings = await act(api.post(API.principal_from_tray, {}));
  if (settings) { showSettings(settings); toast(t("Saved")); }
});

$("#frame").addEventListener("click", async (event) => {
  const img = event.currentTarget;
  const [width, height] = [frameSize.width, frameSize.height];
  const x = (event.offsetX / img.clientWidth) * width;
  const y = (event.offsetY / img.clientHeight) * height;
  const die = reading.dice.find((d) => x >= d.box[0] && x <= d.box[2] && y >= d.box[1] && y <= d.box[3]);
  if (!die) { toast(t("No die there: tap inside a die.")); return; }
  await choosePrincipal(die.color);
});

$("#preset-add").addEventListener("click", () => {
  $("#preset-editor").append(presetRow({ name: "", label: "", system: "d6", sides: 6, count: 2, spec: { count: 2, kind: "D6" } }));
});

$("#preset-save").addEventListener("click", async () => {
  const presets = [];
  for (const row of document.querySelectorAll("#preset-editor .preset-row")) {
    let rest;
    try { rest = JSON.parse($(".p-spec", row).value || "{}"); } catch (err) {
      // The browser's parser speaks English only: say it in the page's language.
      toast(t("Error: {reason}", { reason: t("The rule settings are not valid JSON: fix them first.") }));
      $(".p-spec", row).focus();
      return;
    }
    const typed = $(".p-label", row).value.trim();
    const label = typed && typed === row.dataset.labelText.trim() ? row.dataset.label : typed;
    Object.assign(rest, { name: $(".p-name", row).value.trim(), label });
    if (!label) delete rest.label;   // the rules make one (an empty label is refused)
    presets.push(rest);
  }
  const settings = await act(api.post(API.settings, { presets }));
  if (settings) { showSettings(settings); toast(t("Saved")); }
});

$("#preset-restore").addEventListener("click", async () => {
  if (!window.confirm(t("Replace the rolls with the configured ones?"))) return;
  const settings = await act(api.post(API.settings, { presets: null }));
  if (settings) { showSettings(settings); toast(t("Saved")); }
});

$("#pin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const pin = $("#pin-new").value;
  const settings = await act(api.post(API.settings, { pin }));
  if (settings) {
    $("#pin-new").value = "";
    showSettings(settings);
    toast(t("Saved"));
  }
});

$("#pin-clear").addEventListener("click", async () => {
  const settings = await act(api.post(API.settings, { pin: null }));
  if (settings) { showSettings(settings); toast(t("Saved")); }
});

$("#clear-history").addEventListener("click", async () => {
  if (!window.confirm(t("Delete all rolls from the history?"))) return;
  if (await act(api.post(API.clear))) toast(t("Saved"));
});

(async () => {
  const [settings, state] = await Promise.all([act(api.get(API.settings)), act(api.get(API.state))]);
  if (settings) showSettings(settings);
  if (state) cameraPill(state.camera);
  showExamples();
  if (!HAS_FRAME) return;  // #frame-none and #setup-none say so already
  loadFrame();
  showSetup();
})();
