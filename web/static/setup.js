/* dicelens Settings: the camera's setup view (issue 23). The latest frame with its dice's boxes
 * drawn and what the device says of their size (GET /api/setup, already in the page's language);
 * imported by settings.js. */
import { API } from "./api.js";

/** Show GET /api/setup in #setup-box, or #setup-none before the camera's first frame. */
export async function showSetup() {
  const box = document.getElementById("setup-box");
  const advice = document.getElementById("setup-advice");
  // 404 until the camera has taken a frame: the page says so, not an error.
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
