/* dicelens: a refusal or a "Saved", over everything, in #toast (base.html: role="alert",
 * so screen readers read it out at once). */
import { $ } from "./dom.js";

// A modal dialog makes the rest of the page inert and covers it with its backdrop:
// a toast outside it would be greyed out and unheard. It is shown inside the open
// modal dialog (the last one in the page is the one opened over the others), and
// goes back to the page when that dialog closes.
let toastTimer = null;

function toastHost() {
  const modal = [...document.querySelectorAll("dialog[open]")].filter((d) => d.matches(":modal"));
  return modal.length ? modal[modal.length - 1] : document.body;
}

/** Show a message for 4 s. */
export function toast(message) {
  const box = $("#toast");
  const host = toastHost();
  if (box.parentNode !== host) host.append(box);
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

// "close" does not bubble: caught on its way down.
document.addEventListener("close", (event) => {
  const box = $("#toast");
  if (box && event.target.contains(box)) toastHost().append(box);
}, true);
