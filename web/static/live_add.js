/* The live page's die the reader missed (issue 17): on a finished roll's photo, "Add a die the
 * reader missed", a tap on its place, then its value on the keypad; the server adds it where the
 * rules allow (RULES T-3) and keeps it as an example of the table's dice. */
import { $, setChildren } from "./dom.js";
import { API, api } from "./api.js";
import { t } from "./i18n.js";
import { keys } from "./keypad.js";
import { player } from "./page.js";
import { sidesOf } from "./roll.js";
import { toast } from "./toast.js";

/** Wire the photo's "add a die" to the page: receive(roll, tell) takes the roll the server answers.
 *  Returns { show(roll) }: the button for the roll shown (a finished roll with a photo that can take a die). */
export function tapToAdd({ receive }) {
  let roll = null;
  let tapped = null;  // {x, y} photo pixels, while its value is asked

  function adding(on) {
    $("#photo-box").classList.toggle("tap", on);
    $("#photo-add").setAttribute("aria-pressed", String(on));
    $("#photo-add-hint").hidden = !on;
    if (on) showPhotoAndHint();
  }

  // The hint above the fixed bar (style.css), then the whole photo below the sticky header:
  // a tap on a part the header covered would hit the header.
  function showPhotoAndHint() {
    $("#photo-add-hint").scrollIntoView({ block: "nearest", behavior: "instant" });
    const covered = document.querySelector(".top").getBoundingClientRect().bottom
      - $("#photo-box").getBoundingClientRect().top;
    if (covered > 0) window.scrollBy({ top: -covered - 8, behavior: "instant" });
  }

  function show(shown) {
    if (!shown || shown.id !== (roll && roll.id)) adding(false);
    roll = shown;
    // RULES T-3 adds a die missing from a throw: a complete D6 roll has every die it takes
    // (the rules would refuse one more); a free roll takes any number (D6-2a)
    $("#photo-add").hidden = !(shown && shown.photo && shown.finished && !(shown.system === "d6" && shown.complete));
  }

  $("#photo-add").addEventListener("click", () => adding($("#photo-add").getAttribute("aria-pressed") !== "true"));

  // While adding, a tap on the photo is the missed die's place, not "open full screen" (capture: first).
  $("#photo-box").addEventListener("click", (event) => {
    if (!$("#photo-box").classList.contains("tap") || !roll) return;
    event.preventDefault();
    event.stopPropagation();
    const img = $("#photo");
    const box = img.getBoundingClientRect();
    tapped = { x: Math.round((event.clientX - box.left) * img.naturalWidth / box.width),
      y: Math.round((event.clientY - box.top) * img.naturalHeight / box.height) };
    const zero = sidesOf(roll) === 10;
    setChildren($("#add-keypad"), keys(sidesOf(roll), send, { zeroForTen: zero }));
    $("#add-dialog").showModal();
  }, true);

  async function send(value) {
    try {
      const updated = await api.post(API.rolls + "/" + roll.id + "/dice",
        { x: tapped.x, y: tapped.y, value, who: player() });
      $("#add-dialog").close();
      adding(false);
      receive(updated, true);
    } catch (err) {
      $("#add-dialog").close();
      toast(t("Error: {reason}", { reason: err.message }));
    }
  }

  return { show };
}
