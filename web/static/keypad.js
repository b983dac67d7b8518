/* dicelens: the keypads dice are entered by hand with, one key per face. */
import { el } from "./dom.js";

/** The keys of a die of ``sides`` faces, 1 to sides; each tap gives its value to ``onPick``.
 *  @param zeroForTen a d10 that shows 0 for ten (RULES P-1): keys 1–9 then 0, the 0 giving 10.
 *  @param chosen the value shown pressed (aria-pressed on every key); undefined: no key is. */
export function keys(sides, onPick, { zeroForTen = false, chosen } = {}) {
  const zero = zeroForTen && sides === 10;
  const faces = zero ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 0] : Array.from({ length: sides }, (_, i) => i + 1);
  return faces.map((face) => el("button", {
    type: "button", class: "key", text: String(face),
    "aria-label": zero && face === 0 ? "10" : null,
    "aria-pressed": chosen === undefined ? null : String(chosen === face),
    onclick: () => onPick(zero && face === 0 ? 10 : face),
  }));
}

/** A group of the keys of a d``sides``, named ``label`` (default "d<sides>"), ``chosen`` pressed. */
export function keypad(sides, chosen, onPick, label) {
  return el("div", { class: "keypad", dataset: { sides: String(sides) }, role: "group", "aria-label": label || "d" + sides },
    keys(sides, onPick, { chosen }));
}
