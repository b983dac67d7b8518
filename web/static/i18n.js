/* dicelens: the page's strings, translated by the server (web/translations) and handed over
 * as JSON: base.html's catalogue (<script id="i18n">), and a page's own where it has one
 * (combat.html: <script id="combat-i18n">), which wins. */
import { translator } from "./dom.js";

const read = (id) => {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : {};
};

export const catalogue = { ...read("i18n"), ...read("combat-i18n") };
export const t = translator(catalogue);
