/* The live page's result kept in sight and told to screen readers.
 * On a phone the presets sit below the result card: after this phone armed,
 * threw or sent dice, the result (or the prompt asking for more dice) is
 * scrolled into sight when it arrives. A roll from elsewhere is too, unless
 * the player is reading the recent rolls. Scrolling by hand stops the following. */
import { $ } from "./dom.js";

let following = false;
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);
const stopFollowing = () => { following = false; };
window.addEventListener("wheel", stopFollowing, { passive: true });
window.addEventListener("touchmove", stopFollowing, { passive: true });
window.addEventListener("keydown", (event) => {
  if (SCROLL_KEYS.has(event.key) && !event.target.closest("input, select, textarea, button, dialog")) stopFollowing();
});

/** This phone acted (armed, threw, sent dice): its result is followed into sight. */
export function follow() {
  following = true;
}

/** Wholly between the sticky header and the action bar. */
function inSight(node) {
  const box = node.getBoundingClientRect();
  return box.top >= $(".top").getBoundingClientRect().bottom &&
    box.bottom <= $(".actions").getBoundingClientRect().top;
}

/** done: the roll is complete, the following ends with it. */
export function keepInSight(done) {
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
export function announce(text) {
  // Re-setting the same text would be silent; clear first so readers speak it. Events
  // that come at once (a phone waking with a minute of them) say only the newest.
  const box = $("#announce");
  box.textContent = "";
  clearTimeout(announcing);
  announcing = setTimeout(() => { box.textContent = text; }, 50);
}
