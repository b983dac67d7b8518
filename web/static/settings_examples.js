/* The settings page's examples of the table's dice (issue 17): what the adaptation reports,
 * the examples per kind, and each example's crop with a button to remove it (its roll stays
 * as it is). */
import { $, el, setChildren } from "./dom.js";
import { API, act, api } from "./api.js";
import { percent } from "./format.js";
import { t } from "./i18n.js";
import { toast } from "./toast.js";

/** "Your dice: N examples; read right X % vs Y % without", or why the reader does not use them yet. */
function adaptationText(fitted) {
  if (fitted && fitted.used) {
    return t("Your dice: {n} examples; read right {right} vs {shipped} without",
      { n: fitted.examples, right: percent(fitted.right), shipped: percent(fitted.shipped) });
  }
  // fitted.why comes worded in the page's language (GET /api/examples)
  return t("Not used yet: {why}", { why: (fitted && fitted.why) || t("not fitted yet") });
}

export async function showExamples() {
  const listed = await act(api.get(API.examples));
  if (!listed) return;
  $("#examples-adaptation").textContent = adaptationText(listed.adaptation);
  $("#examples-adaptation").hidden = listed.examples.length === 0;  // "No examples yet." says it all
  $("#examples-counts").textContent = Object.entries(listed.counts)
    .map(([kind, n]) => listed.names[kind] + ": " + n).join(" · ");
  $("#examples-none").hidden = listed.examples.length > 0;
  setChildren($("#examples-list"), listed.examples.map((example) => el("li", { class: "example",
    dataset: { exampleId: String(example.id) } }, [
    el("img", { src: API.examples + "/" + example.id + "/crop", width: "48", height: "48",
      alt: t("Example {id}: a {kind} showing {value}", { ...example, kind: example.name }) }),
    el("span", { text: [example.name + " " + example.value,
      example.roll ? t("Roll {id}", { id: example.roll }) : null, example.who].filter(Boolean).join(" · ") }),
    el("button", { type: "button", class: "ghost", text: t("Remove"),
      "aria-label": t("Remove example {id}", { id: example.id }),
      onclick: async () => {
        if (await act(api.delete(API.examples + "/" + example.id))) { toast(t("Removed")); showExamples(); }
      } }),
  ])));
}
