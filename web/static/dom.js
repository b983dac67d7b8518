/* dicelens: the few DOM helpers every page module shares. */

/** A value that is there: null and undefined are nothing to show (never the words "null", "undefined"). */
export const present = (value) => value !== null && value !== undefined;

const plurals = new Intl.PluralRules(document.documentElement.lang || "en");

/** A translator over a catalogue: t("Hello {name}", {name}) → the translated string, filled in;
 *  a value that is not there shows as "–". A count's entry is its forms by CLDR plural category
 *  ({"one", "many", "other"}, the server's ngettext): params.n picks one in the page's language. */
export function translator(catalogue) {
  return function t(text, params) {
    let found = catalogue[text] || text;
    if (typeof found === "object") found = found[plurals.select(Number(params.n))] || found.other;
    return found.replace(/\{(\w+)\}/g, (_, k) => (params && k in params ? (present(params[k]) ? params[k] : "–") : "{" + k + "}"));
  };
}

export const $ = (sel, root) => (root || document).querySelector(sel);

/** A new element: attrs (class, text, on<event>, dataset, plain attributes) and children. */
export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...[].concat(children || []).filter(present));
  return node;
}

/** Replace a node's children; a child that is not there (null, undefined) is left out,
 *  where replaceChildren would write it as the text "null". */
export function setChildren(node, children) {
  node.replaceChildren(...[].concat(children || []).filter(present));
  return node;
}
