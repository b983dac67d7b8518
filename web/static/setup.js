/* dicelens Settings: the camera's setup view (issue 23). The latest frame with its dice's boxes
 * drawn and what the device says of their size (GET /api/setup, already in the page's language);
 * imported by settings.js. */
import { API } from "./api.js";

/** Show GET /api/setup in #setup-box (asked for once the camera has sent a frame: settings.js),
 *  or #setup-none if it has none after all. */
export async function showSetup() {
  const box = document.getElementById("setup-box");
  const advice = document.getElementById("setup-advice");
  const answer = await fetch(API.setup, { headers: { Accept: "application/json" } }).catch(() => null);
  const view = answer && answer.ok ? await answer.json() : null;
  box.hidden = !view;
  document.getElementById("setup-none").hidden = Boolean(view);
  advice.hidden = !view;
  if (!view) return;
  document.getElementById("setup-frame").src = view.image;
  advice.textContent = view.advice;
  advice.dataset.fit = view.fit;
}
