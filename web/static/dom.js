/* dicelens: the few DOM helpers every page script shares (app.js, combat.js). */
window.dicelensDom = (function () {
  "use strict";

  /** A value that is there: null and undefined are nothing to show (never the words "null", "undefined"). */
  const present = (value) => value !== null && value !== undefined;

  /** A translator over a catalogue: t("Hello {name}", {name}) → the translated string, filled in;
   *  a value that is not there shows as "–". */
  function translator(catalogue) {
    return function t(text, params) {
      const found = catalogue[text] || text;
      return found.replace(/\{(\w+)\}/g, (_, k) => (params && k in params ? (present(params[k]) ? params[k] : "–") : "{" + k + "}"));
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
    node.append(...[].concat(children || []).filter(present));
    return node;
  }

  /** Replace a node's children; a child that is not there (null, undefined) is left out,
   *  where replaceChildren would write it as the text "null". */
  function setChildren(node, children) {
    node.replaceChildren(...[].concat(children || []).filter(present));
    return node;
  }

  // --- toasts: a refusal or a "Saved", over everything -------------------------
  // A modal dialog makes the rest of the page inert and covers it with its backdrop:
  // a toast outside it would be greyed out and unheard. It is shown inside the open
  // modal dialog (the last one in the page is the one opened over the others), and
  // goes back to the page when that dialog closes.
  let toastTimer = null;

  function toastHost() {
    const modal = [...document.querySelectorAll("dialog[open]")].filter((d) => d.matches(":modal"));
    return modal.length ? modal[modal.length - 1] : document.body;
  }

  /** Show a message for 4 s in #toast (role="alert": screen readers read it out). */
  function toast(message) {
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

  return { translator, $, el, setChildren, toast };
})();
