/* dicelens: the few DOM helpers every page script shares (app.js, combat.js). */
window.dicelensDom = (function () {
  "use strict";

  /** A translator over a catalogue: t("Hello {name}", {name}) → the translated string, filled in. */
  function translator(catalogue) {
    return function t(text, params) {
      const found = catalogue[text] || text;
      return found.replace(/\{(\w+)\}/g, (_, k) => (params && k in params ? params[k] : "{" + k + "}"));
    };
  }

  const $ = (sel, root) => (root || document).querySelector(sel);

  /** A new element: attrs (class, text, on<event>, dataset, plain attributes) and children. */
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(node.dataset, v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of [].concat(children || [])) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  return { translator, $, el };
})();
