/* dicelens history page. The history is rendered by the server (paged, filtered); here:
 * local times, filters that apply as soon as they change, and the camera status. */
import { $ } from "./dom.js";
import { API, act, api } from "./api.js";
import { when } from "./format.js";
import { cameraPill } from "./page.js";

for (const time of document.querySelectorAll("time[datetime]")) {
  time.textContent = when(time.getAttribute("datetime"));
}
$("#filter-preset").addEventListener("change", () => $("#filters").requestSubmit());
act(api.get(API.state)).then((state) => { if (state) cameraPill(state.camera); });
