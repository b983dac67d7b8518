/* dicelens "Your dice" page: one card per kind of die from GET /api/dice-stats (its words
 * already in the page's language; the counts formatted here), and the camera status. */
import { $, el } from "./dom.js";
import { API, act, api } from "./api.js";
import { number } from "./format.js";
import { cameraPill } from "./page.js";

function card(kind) {
  const node = $("#kind-card").content.firstElementChild.cloneNode(true);
  node.dataset.kind = kind.kind;
  $(".kind-name", node).textContent = kind.words.name;
  $(".verdict", node).textContent = kind.words.verdict;
  const few = $(".few", node);
  few.hidden = !kind.words.few;
  few.textContent = kind.words.few || "";
  for (const dd of node.querySelectorAll("[data-count]")) dd.textContent = number(kind[dd.dataset.count]);
  $(".right", node).textContent = kind.words.right || "";
  $(".right", node).hidden = !kind.words.right;
  $(".faces tbody", node).append(...kind.faces.map((count, face) =>
    el("tr", {}, [el("th", { scope: "row", text: String(face + 1) }), el("td", { text: number(count) })])));
  $(".faces", node).hidden = !kind.dice;
  $(".detectable", node).textContent = kind.words.detectable || "";
  $(".detectable", node).hidden = !kind.words.detectable;
  return node;
}

const player = new URLSearchParams(location.search).get("player");
const url = API.dice_stats + (player ? "?" + new URLSearchParams({ player }) : "");
act(api.get(url)).then((stats) => { if (stats) $("#dice-kinds").replaceChildren(...stats.kinds.map(card)); });
act(api.get(API.state)).then((state) => { if (state) cameraPill(state.camera); });
