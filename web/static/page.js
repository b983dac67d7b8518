/* dicelens: what every page does (base.html): the dialogs' Cancel, the language switch,
 * the camera status in the header, and the player's name this phone remembers. */
import { $ } from "./dom.js";
import { t } from "./i18n.js";

const PLAYER_KEY = "dicelens.player";

/** The player's name typed on this phone (live page), or null. */
export function player() {
  return (localStorage.getItem(PLAYER_KEY) || "").trim() || null;
}

/** Remember the player's name on this phone; an empty one forgets it. */
export function rememberPlayer(name) {
  if (name) localStorage.setItem(PLAYER_KEY, name);
  else localStorage.removeItem(PLAYER_KEY);
}

/** The camera status in the header: ok, no camera or reconnecting, with its message as a title. */
export function cameraPill(camera) {
  const pill = $("#camera");
  const status = (camera && camera.status) || "no camera";
  pill.dataset.status = status.replace(/\s/g, "-");
  pill.textContent = { ok: t("Camera ok"), reconnecting: t("Camera reconnecting") }[status] || t("No camera");
  pill.title = (camera && camera.text) || "";  // why it is away, in the page's language
}

// Cancel is a plain button, so that Enter in a dialog's field means OK.
for (const button of document.querySelectorAll("dialog [data-close]")) {
  button.addEventListener("click", () => button.closest("dialog").close("cancel"));
}
const select = $("#lang-select");
select.addEventListener("change", () => {
  const url = new URL(window.location.href);
  url.searchParams.set("lang", select.value);
  window.location.assign(url.toString());
});
