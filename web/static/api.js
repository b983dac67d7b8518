/* dicelens: JSON requests to the API (README), with the PIN asked for on a 401
 * (base.html's #pin-dialog) and a refusal shown as a toast. */
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { toast } from "./toast.js";

/** The API's URLs (web/__init__.py _page_context: state, events, arm, rolls, login…). */
export const API = JSON.parse(document.getElementById("api").textContent);

export class ApiError extends Error {
  constructor(status, reason, needs) { super(reason); this.status = status; this.needs = needs || null; }
}

function askPin(wrong) {
  const dialog = $("#pin-dialog");
  const input = $("#pin-input");
  $(".pin-error", dialog).hidden = !wrong;
  input.value = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok" && input.value ? input.value : null);
    }, { once: true });
    dialog.showModal();
  });
}

async function send(method, url, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  const data = await response.json().catch(() => null);
  return { response, data };
}

/** A JSON request. A 401 (a PIN is set) asks for the PIN, logs this phone in and
 *  sends the request again; a wrong PIN asks again, Cancel gives up.
 *  @throws {ApiError} status, the server's reason, and what a correction ``needs`` (409). */
async function request(method, url, body) {
  let { response, data } = await send(method, url, body);
  let wrong = false;
  while (response.status === 401 && url !== API.login) {
    const pin = await askPin(wrong);
    if (pin === null) throw new ApiError(401, t("Enter the PIN"));
    const login = await send("POST", API.login, { pin });
    if (login.response.status === 401) { wrong = true; continue; }
    if (!login.response.ok) {
      throw new ApiError(login.response.status, (login.data && login.data.error) || login.response.statusText);
    }
    ({ response, data } = await send(method, url, body));
  }
  if (!response.ok) {
    const needs = data && data.needs && { ...data.needs, text: data.needs_text };  // text: in the page's language
    throw new ApiError(response.status, (data && data.error) || response.statusText, needs);
  }
  return data;
}

export const api = {
  get: (url) => request("GET", url),
  post: (url, body) => request("POST", url, body === undefined ? {} : body),
  delete: (url) => request("DELETE", url),
};

/** The answer of a request, or null once its refusal is shown as a toast. */
export async function act(promise) {
  try {
    return await promise;
  } catch (err) {
    toast(t("Error: {reason}", { reason: err.message }));
    return null;
  }
}
