/* dicelens pages: live table, history and settings. Plain JS, no build step.
 *
 * The JSON API (README) does the work; this file renders it. Strings come
 * translated from the page (<script id="i18n">), so the script holds no English
 * the player sees except the seed's own words (Rolagem Perfeita, Falha Crítica).
 */
(function () {
  "use strict";

  const CATALOGUE = JSON.parse(document.getElementById("i18n").textContent);
  const { $, el, setChildren, toast } = window.dicelensDom;
  const t = window.dicelensDom.translator(CATALOGUE);
  const API = JSON.parse(document.getElementById("api").textContent);
  const PLAYER_KEY = "dicelens.player";
  const WAKE_RECONNECT_MS = 20000; // longer than a heartbeat: the stream may have died meanwhile
  const POLL_MS = 5000; // how often a page the server has no stream for asks for the state

  function percent(p) {
    const value = p * 100;
    const digits = value !== 0 && Math.abs(value) < 10 ? 1 : 0;
    return value.toLocaleString(document.documentElement.lang, {
      minimumFractionDigits: digits, maximumFractionDigits: digits }) + " %";
  }

  function number(n, digits) {
    return n.toLocaleString(document.documentElement.lang, { maximumFractionDigits: digits || 0 });
  }

  function when(iso) {
    if (!iso) return "";
    const date = new Date(iso);
    return date.toLocaleString(document.documentElement.lang, {
      day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  }

  // --- API ----------------------------------------------------------------
  class ApiError extends Error {
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
   *  sends the request again; a wrong PIN asks again, Cancel gives up. */
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

  const api = {
    get: (url) => request("GET", url),
    post: (url, body) => request("POST", url, body === undefined ? {} : body),
  };

  async function act(promise) {
    try {
      return await promise;
    } catch (err) {
      toast(t("Error: {reason}", { reason: err.message }));
      return null;
    }
  }

  function player() {
    return (localStorage.getItem(PLAYER_KEY) || "").trim() || null;
  }

  // --- what a roll says -----------------------------------------------------
  const SEED_WORDS = {
    perfect: "Rolagem Perfeita!",
    botch: "Falha Crítica",
  };

  /** Sides of the physical dice of a roll: d10 for a pool, d6 for a D6 test or a free roll. */
  function sidesOf(roll) {
    return roll.system === "pool" ? 10 : 6;
  }

  /** A number as text; "–" when there is none (never "null"). */
  function shown(value) {
    return value === null || value === undefined ? "–" : String(value);
  }

  /** {big, unit, outcome, detail} for a roll, in the seed's words where players use them. */
  /** A label the rules made ("pool 5 · difficulty 2", "random 2D6", "Free roll") in the page's
   *  language, part by part, for the settings page's label field (the live page's labels come
   *  worded by the server: label_text); a label a table wrote itself stays as it is. */
  function labelText(label) {
    const words = [
      [/^pool (\d+)$/, "pool {n}"], [/^difficulty (\d+)$/, "difficulty {n}"],
      [/^target (\d+)$/, "target {n}"], [/^random (\w+)$/, "random {n}"],
      [/^(no rule of ten|no rule of one|Free roll)$/, null],
    ];
    return String(label || "").split(" · ").map((part) => {
      for (const [pattern, text] of words) {
        const match = pattern.exec(part);
        if (match) return text ? t(text, { n: match[1] }) : t(part);
      }
      return part;
    }).join(" · ");
  }

  /** Whether a roll waits for a tap on its principal die (RULES D6-2a: a D6 or free roll's
   *  first throw of several dice, none of them marked principal). */
  function asksPrincipal(roll) {
    const first = roll.dice.filter((die) => !die.step);
    return ["d6", "free"].includes(roll.system) && !roll.complete && !roll.finished && first.length > 1 &&
      !first.some((die) => die.principal || die.role === "principal");
  }

  function describeRoll(roll) {
    const result = roll.result || {};
    if (!roll.complete && roll.finished) {
      // Closed before it was complete (another preset armed, a restart): no result, nothing awaited.
      return { big: "–", unit: "", outcome: t("abandoned"), detail: "", tone: "plain" };
    }
    if (!roll.complete) {
      // A perfect roll is known before its extra dice are: say so while waiting. A first throw
      // with no principal die waits for a tap, not for dice (RULES D6-2a).
      return { big: "…", unit: asksPrincipal(roll) ? t("tap the principal die") : t("waiting for dice"), outcome: roll.perfect ? SEED_WORDS.perfect : "",
        detail: "", tone: roll.perfect ? "good" : "plain" };
    }
    if (roll.system === "pool") {
      const out = { big: shown(roll.successes), unit: t("successes"), outcome: "", detail: "" };
      const details = [];
      if (result.difficulty) {
        details.push(t("difficulty {n}", { n: result.difficulty }) +
          (result.difficulty_name ? " (" + result.difficulty_name + ")" : ""));
      }
      if (roll.outcome === "botch" || roll.botch) out.outcome = SEED_WORDS.botch;
      else if (roll.outcome === "automatic failure") {
        out.outcome = t("Automatic failure");
        details.push(t("no dice left after penalties"));
      } else if (roll.outcome === "success") {
        const degree = result.degree_name;
        out.outcome = degree ? "Sucesso " + degree : t("Success");
        if (result.margin !== null && result.margin !== undefined) details.push(t("margin {n}", { n: result.margin }));
      } else if (roll.outcome === "failure") out.outcome = t("Failure");
      out.detail = details.join(" · ");
      out.tone = roll.botch ? "bad" : roll.outcome === "success" ? "good" : "plain";
      return out;
    }
    const out = { big: shown(roll.total), unit: t("total"), outcome: "", detail: "", tone: "plain" };
    if (roll.perfect) { out.outcome = SEED_WORDS.perfect; out.tone = "good"; }
    const details = [];
    if (result.modifier) details.push(t("modifier {n}", { n: (result.modifier > 0 ? "+" : "") + result.modifier }));
    out.detail = details.join(" · ");
    return out;
  }

  function announceText(roll) {
    const d = describeRoll(roll);
    return [d.big, d.unit, d.outcome].filter(Boolean).join(" ");
  }

  /** Role words of a die (principal, extra, success, cancelled…), then how it was read. */
  function dieTags(roll, die, index) {
    const tags = [];
    const ruled = ((roll.result || {}).dice || [])[index] || {};
    if (die.surplus) tags.push("not counted");
    else if (die.role) tags.push(die.role);
    else if (die.principal) tags.push("principal");
    if (ruled.reroll) tags.push("reroll");
    if (die.natural === null || die.natural === undefined) tags.push(die.unreadable || "cocked");
    if (die.source === "hand") tags.push("by hand");
    if (die.corrected) tags.push("corrected");
    return tags;
  }

  /** "Die 2: 4 → 6": a correction as the record keeps it (what was read, what it became). */
  function correctionText(c) {
    const word = (v) => (v === null || v === undefined ? "?" : typeof v === "string" ? t(v) : String(v));
    return t("Die {n}: {from} → {to}", { n: c.index + 1, from: word(c.from), to: word(c.to) });
  }

  function poolSummary(roll) {
    const dice = (roll.result || {}).dice || [];
    if (!dice.length) return "";
    const count = (pred) => dice.filter(pred).length;
    const parts = [
      t("successes: {n}", { n: roll.successes === null ? "–" : roll.successes }),
      t("cancelled: {n}", { n: count((d) => d.role === "cancelled" || d.role === "canceller") }),
      t("tens: {n}", { n: count((d) => d.natural === 10 && !d.reroll) }),
      t("rerolls: {n}", { n: count((d) => d.reroll) }),
    ];
    return parts.join(" · ");
  }

  // --- live page ------------------------------------------------------------
  function livePage() {
    const store = {
      state: null,
      presets: [],
      rolls: new Map(),   // id → roll, the freshest seq wins
      shownId: null,      // a roll the player tapped in the recent list; null = newest
    };
    let keypadSides = 6;
    let keypadValues = [];
    let fixing = null;

    const playerInput = $("#player");
    playerInput.value = player() || "";
    playerInput.addEventListener("input", () => {
      const name = playerInput.value.trim();
      if (name) localStorage.setItem(PLAYER_KEY, name);
      else localStorage.removeItem(PLAYER_KEY);
    });

    function newestId() {
      let best = null;
      for (const id of store.rolls.keys()) if (best === null || id > best) best = id;
      return best;
    }

    /** Keep a roll unless a copy as new or newer is already here; true when it changed. */
    function upsert(roll) {
      if (!roll || roll.id === undefined) return false;
      const known = store.rolls.get(roll.id);
      if (known && known.seq >= roll.seq) return false;
      store.rolls.set(roll.id, roll);
      return known ? "changed" : "new";
    }

    /** tell: say the change to screen readers: a live event, or this phone's own correction
     *  (its reply and the live event race; whichever comes first is told, the other is a copy). */
    function receive(roll, tell) {
      const before = newestId();
      const known = store.rolls.get(roll.id) || {};
      const wasComplete = known.complete;
      const corrections = (known.corrections || []).length;
      const change = upsert(roll);
      if (!change) return;
      let arrived = false;
      if (tell) {
        if (change === "new" && (before === null || roll.id > before)) {
          arrived = true;
          store.shownId = null;
          const card = $("#current");
          card.classList.remove("arrived");
          void card.offsetWidth; // restart the arrival animation
          card.classList.add("arrived");
          announce(t("New roll: {result}", { result: announceText(roll) }));
        } else if (change === "changed") {
          // The extra dice a roll waited for resolve it: that is its result arriving.
          arrived = roll.complete && !wasComplete && roll.id === newestId() && store.shownId === null;
          // "corrected" only when a correction was made; dice entered for it are not one.
          const corrected = (roll.corrections || []).length > corrections;
          announce(t(corrected ? "Roll {id} corrected: {result}" : "Roll {id}: {result}",
            { id: roll.id, result: announceText(roll) }));
        }
      }
      render();
      if (arrived) keepInSight(roll.complete);
    }

    // --- the result in sight ----------------------------------------------------
    // On a phone the presets sit below the result card: after this phone armed,
    // threw or sent dice, the result (or the prompt asking for more dice) is
    // scrolled into sight when it arrives. A roll from elsewhere is too, unless
    // the player is reading the recent rolls. Scrolling by hand stops the following.
    let following = false;
    const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);
    const stopFollowing = () => { following = false; };
    window.addEventListener("wheel", stopFollowing, { passive: true });
    window.addEventListener("touchmove", stopFollowing, { passive: true });
    window.addEventListener("keydown", (event) => {
      if (SCROLL_KEYS.has(event.key) && !event.target.closest("input, select, textarea, button, dialog")) stopFollowing();
    });

    /** Wholly between the sticky header and the action bar. */
    function inSight(node) {
      const box = node.getBoundingClientRect();
      return box.top >= $(".top").getBoundingClientRect().bottom &&
        box.bottom <= $(".actions").getBoundingClientRect().top;
    }

    function keepInSight(done) {
      const reading = $("#recent").getBoundingClientRect().top < $(".actions").getBoundingClientRect().top;
      if (following || !reading) {
        const wanted = [$("#big")].concat($("#prompt").hidden ? [] : [$("#prompt")]);
        if (!wanted.every(inSight)) {
          const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
          $("#current").scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
        }
      }
      if (done) following = false;
    }

    let announcing = null;
    function announce(text) {
      // Re-setting the same text would be silent; clear first so readers speak it. Events
      // that come at once (a phone waking with a minute of them) say only the newest.
      const box = $("#announce");
      box.textContent = "";
      clearTimeout(announcing);
      announcing = setTimeout(() => { box.textContent = text; }, 50);
    }

    function presetOf(name) {
      return store.presets.find((p) => p.name === name) || null;
    }

    function presetLabel(name, fallback) {
      const preset = presetOf(name);
      return preset ? preset.label_text : fallback || name || "";  // label_text: worded by the server
    }

    function renderCamera(camera) {
      cameraPill(camera);
      // Why the camera is away, in words, where the table sees it (the pill only names the status).
      const note = $("#camera-note");
      note.hidden = !camera || camera.status === "ok" || !camera.message;
      note.textContent = note.hidden ? "" : camera.message;
      $("#throw").hidden = !(camera && camera.can_throw);
      // With no roll armed there is nothing to throw or enter (the controller would refuse).
      const armed = Boolean(store.state && store.state.preset);
      $("#throw").disabled = !armed;
      $("#hand-open").disabled = !armed;
    }

    function renderState() {
      const state = store.state;
      if (!state) return;
      renderCamera(state.camera);
      const words = {
        idle: t("Idle"), armed: t("Armed"), waiting: t("Waiting for the dice"), reading: t("Reading the dice"),
        prompting: state.prompt_asks === "dice" ? t("More dice needed") : t("Check the dice"), resolved: t("Resolved"),
      };
      const line = [words[state.state] || state.state];
      if (state.preset) line.push(presetLabel(state.preset));
      if (state.roller) line.push(t("by {name}", { name: state.roller }));
      const past = pastRoll();
      // An earlier roll the player tapped is shown under its own header, without the live prompt.
      $("#machine-state").textContent = past ? pastHeader(past) : line.join(" · ");
      $("#machine-state").dataset.state = past ? "past" : state.state;
      const prompt = $("#prompt");
      // The server words the prompt in this page's language (web/messages.py prompt_text).
      const text = past ? "" : state.prompt_text || "";
      const asks = Boolean(text) && state.prompt_asks !== "throw" && (prompt.hidden || prompt.textContent !== text);
      prompt.hidden = !text;
      prompt.textContent = text;
      prompt.dataset.urgent = String(state.state === "prompting");
      // RULES T-5 accept_leaning: the die whose top face the prompt asks for (state.problem, as data)
      const leaning = !past && state.problem && state.problem.code === "leaning" ? state.problem.die - 1 : null;
      $("#lean-open").hidden = leaning === null;
      $("#lean-open").dataset.index = leaning === null ? "" : String(leaning);
      for (const item of document.querySelectorAll("#presets button")) {
        item.setAttribute("aria-pressed", String(item.dataset.preset === state.preset));
      }
      renderOdds(state.odds, state.preset);
      if (asks) keepInSight(false);
      // A keypad opened before the armed state arrived shows the die it asks for now.
      if ($("#keypad-dialog").open && keypadValues.length === 0) {
        keypadSides = sidesWanted(state);
        renderKeypad();
      }
    }

    /** The roll the player tapped in the recent list, unless it is the newest. */
    function pastRoll() {
      return store.shownId !== null && store.shownId !== newestId() ? store.rolls.get(store.shownId) || null : null;
    }

    /** "Roll 3 · Resolved · 2D6 · by Nara": an earlier roll's own preset and player. */
    function pastHeader(roll) {
      return [t("Roll {id}", { id: roll.id }), roll.complete ? t("Resolved") : t("waiting for dice"),
        presetLabel(roll.preset, roll.label), roll.roller ? t("by {name}", { name: roll.roller }) : ""]
        .filter(Boolean).join(" · ");
    }

    function renderOdds(odds, preset) {
      const box = $("#odds");
      if (!odds) { box.hidden = true; return; }
      box.hidden = false;
      $("#odds-heading").textContent = t("Odds of {preset}", { preset: presetLabel(preset) });
      const figures = [];
      let bars = [];
      if (odds.system === "pool") {
        figures.push(t("Success {p}", { p: percent(odds.p_success) }));
        figures.push(t("Botch {p}", { p: percent(odds.p_botch) }));
        if (odds.mean_successes !== undefined) figures.push(t("Average {n}", { n: number(odds.mean_successes, 2) }));
        bars = (odds.successes || []).map((p, k) => [String(k), p]);
      } else {
        if (odds.mean !== undefined) figures.push(t("Average {n}", { n: number(odds.mean, 2) }));
        if (odds.p_perfect !== undefined) figures.push(t("Perfect roll {p}", { p: percent(odds.p_perfect) }));
        bars = Object.entries(odds.distribution || {}).filter(([, p]) => p >= 0.001);
      }
      $("#odds-figures").textContent = figures.join(" · ");
      const top = Math.max(...bars.map(([, p]) => p), 0.0001);
      setChildren($("#odds-bars"), bars.slice(0, 24).map(([label, p]) =>
        el("div", { class: "bar", title: label + ": " + percent(p) }, [
          el("span", { class: "fill", style: "height:" + Math.round((p / top) * 100) + "%" }),
          el("span", { class: "tick", text: label }),
        ])));
    }

    function renderPresets() {
      const list = $("#presets");
      setChildren(list, store.presets.map((preset) => el("li", {}, el("button", {
        type: "button", class: "preset", "aria-pressed": "false", dataset: { preset: preset.name },
        text: preset.label_text,
        onclick: () => arm(preset.name),
      }))));
      renderState();
    }

    function shownRoll() {
      const id = store.shownId !== null ? store.shownId : newestId();
      return id === null ? null : store.rolls.get(id);
    }

    function renderRoll() {
      const roll = shownRoll();
      const big = $("#big");
      if (!roll) {
        big.textContent = "–";
        $("#big-unit").textContent = "";
        $("#outcome").textContent = t("No roll yet");
        $("#outcome-detail").textContent = t("Pick a roll below, then throw the dice into the tray.");
        $("#roll-meta").textContent = "";
        $("#summary").textContent = "";
        $("#roll-note").hidden = true;
        setChildren($("#dice"), []);
        setChildren($("#corrections"), []);
        $("#photo-box").hidden = true;
        return;
      }
      const d = describeRoll(roll);
      big.textContent = d.big;
      big.dataset.rollId = roll.id;
      big.dataset.waiting = String(!roll.complete && !roll.finished);
      $("#current").dataset.tone = d.tone || "plain";
      $("#big-unit").textContent = d.unit;
      $("#outcome").textContent = d.outcome;
      $("#outcome-detail").textContent = d.detail;
      const meta = [presetLabel(roll.preset, roll.label)];
      if (roll.roller) meta.push(t("by {name}", { name: roll.roller }));
      meta.push(when(roll.finished || roll.started));
      $("#roll-meta").textContent = meta.filter(Boolean).join(" · ");
      renderDice(roll);
      $("#summary").textContent = roll.system === "pool" ? poolSummary(roll)
        : (roll.dice.some((die) => die.role === "extra" && !die.surplus)
          ? t("extra dice: {n}", { n: roll.dice.filter((die) => die.role === "extra" && !die.surplus).length }) : "");
      const note = $("#roll-note");
      note.hidden = !roll.note;
      note.textContent = roll.note || "";
      setChildren($("#corrections"), (roll.corrections || []).map((c) => el("li", {
        text: [correctionText(c), c.who, when(c.at)].filter(Boolean).join(" · "),
      })));
      const photoBox = $("#photo-box");
      if (roll.photo) {
        const img = $("#photo");
        const src = API.rolls + "/" + roll.id + "/photo?seq=" + roll.seq;
        if (img.getAttribute("src") !== src) img.src = src;
        img.alt = t("Photo of roll {id}", { id: roll.id });
        photoBox.hidden = false;
      } else photoBox.hidden = true;
      // The controller could not tell the principal die (RULES D6-2a, a free roll too): the player points at it.
      const askPrincipal = asksPrincipal(roll);
      const pick = $("#pick-principal");
      pick.hidden = !askPrincipal;
      pick.textContent = askPrincipal ? t("Which die is the principal? Tap it.") : "";
    }

    /** The dice in the order players read them: the principal die first (RULES D6-2), then the
     *  rest as the tray had them. Each keeps its number (the API's index + 1), which prompts
     *  and corrections name. */
    function readingOrder(roll) {
      const isPrincipal = (die) => !die.step && (die.principal || die.role === "principal");
      return roll.dice.map((die, index) => ({ die, index: die.index !== undefined ? die.index : index }))
        .sort((a, b) => Number(isPrincipal(b.die)) - Number(isPrincipal(a.die)) || a.index - b.index);
    }

    function renderDice(roll) {
      const list = $("#dice");
      setChildren(list, readingOrder(roll).map(({ die, index }) => {
        const tags = dieTags(roll, die, index);
        const unread = die.natural === null || die.natural === undefined;
        const counted = !unread && die.value !== undefined && die.value !== null && die.value !== die.natural
          ? el("span", { class: "counted", text: t("counts {n}", { n: die.value }) }) : null;
        // an unread die's reason (cocked, cut off…) is among its tags
        const label = [t("Die {n}", { n: index + 1 })].concat(unread ? [] : [String(die.natural)])
          .concat(tags.map((tag) => t(tag))).join(", ");
        return el("li", {}, el("button", {
          type: "button", class: "die", "aria-label": label,
          dataset: { index: String(index), role: tags[0] || "", color: die.color || "" },
          onclick: () => openFix(roll, die, index),
        }, [
          el("span", { class: "face", text: unread ? "?" : String(die.natural) }),
          counted,
          el("span", { class: "tags", text: tags.map((tag) => t(tag)).join(" · ") }),
        ]));
      }));
    }

    function renderRecent() {
      const rolls = [...store.rolls.values()].sort((a, b) => b.id - a.id).slice(0, 12);
      setChildren($("#recent"), rolls.map((roll) => {
        const d = describeRoll(roll);
        return el("li", { dataset: { rollId: String(roll.id) } }, el("button", {
          type: "button", class: "recent-roll", "aria-current": roll.id === (shownRoll() || {}).id ? "true" : null,
          onclick: () => { store.shownId = roll.id === newestId() ? null : roll.id; render(); window.scrollTo({ top: 0 }); },
        }, [
          el("span", { class: "recent-big", text: d.big }),
          el("span", { class: "recent-text" }, [
            el("strong", { text: [presetLabel(roll.preset), d.outcome].filter(Boolean).join(" · ") }),
            el("span", { text: [roll.roller, when(roll.finished || roll.started)].filter(Boolean).join(" · ") }),
          ]),
        ]));
      }));
      const names = new Set([...store.rolls.values()].map((r) => r.roller).filter(Boolean));
      setChildren($("#players"), [...names].map((name) => el("option", { value: name })));
    }

    function render() {
      renderRoll();
      renderRecent();
      renderState();
    }

    /** The state an action answered with. While the stream is open it brings the
     *  same state, in order with everything else; an answer that arrives late
     *  must not undo a newer event (a camera that went away meanwhile). */
    function answered(state) {
      if (!state || stream.connected) return;
      store.state = state;
      if (state.latest_roll) receive(state.latest_roll, true);
      renderState();
    }

    async function arm(name) {
      following = true;
      answered(await act(api.post(API.arm, { preset: name, roller: player() })));
    }

    // --- keypad for dice by hand ---------------------------------------------
    function keypadButtons(sides, onPick) {
      // A d10 shows 0 for ten (RULES P-1): its keypad reads 1–9 then 0.
      const faces = sides === 10 ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 0] : Array.from({ length: sides }, (_, i) => i + 1);
      return faces.map((face) => el("button", {
        type: "button", class: "key", text: String(face),
        "aria-label": sides === 10 && face === 0 ? "10" : String(face),
        onclick: () => onPick(face === 0 ? 10 : face),
      }));
    }

    function expectedCount() {
      const state = store.state || {};
      if (state.needs) return state.needs.count;
      const preset = presetOf(state.preset);
      return preset && preset.count ? preset.count : null;
    }

    function renderKeypad() {
      const pad = $("#keypad");
      pad.dataset.sides = keypadSides;
      // Only the kind of die the armed roll takes is offered.
      for (const chip of document.querySelectorAll("#keypad-dialog [data-sides]")) {
        chip.hidden = Number(chip.dataset.sides) !== sidesWanted(store.state || {});
      }
      setChildren(pad, keypadButtons(keypadSides, (value) => { keypadValues.push(value); renderKeypad(); }));
      for (const chip of document.querySelectorAll("#keypad-dialog [data-sides]")) {
        chip.setAttribute("aria-checked", String(Number(chip.dataset.sides) === keypadSides));
      }
      setChildren($("#keypad-values"), keypadValues.map((value, i) => el("li", {}, el("button", {
        type: "button", class: "chip", text: String(value), "aria-label": t("Remove") + " " + value,
        onclick: () => { keypadValues.splice(i, 1); renderKeypad(); },
      }))));
      const count = expectedCount();
      // the roll takes this many dice: a further tap would only be refused
      const full = Boolean(count) && keypadValues.length >= count;
      for (const key of pad.querySelectorAll(".key")) key.disabled = full;
      const hints = [];
      if (count) hints.push(count === 1 ? t("Enter one die") : t("Enter {n} dice", { n: count }));
      if (keypadSides === 10) hints.push(t("0 = 10"));
      $("#keypad-hint").textContent = hints.join(" · ");
      // Send once the roll's dice are all there (any number when it takes any).
      $("#keypad-send").disabled = count ? keypadValues.length !== count : keypadValues.length === 0;
    }

    function sidesWanted(state) {
      const preset = presetOf(state.preset);
      return (state.needs && state.needs.sides) || (preset && preset.sides) || 6;
    }

    function openKeypad() {
      keypadSides = sidesWanted(store.state || {});
      keypadValues = [];
      renderKeypad();
      $("#keypad-dialog").showModal();
    }

    for (const chip of document.querySelectorAll("#keypad-dialog [data-sides]")) {
      chip.addEventListener("click", () => { keypadSides = Number(chip.dataset.sides); keypadValues = []; renderKeypad(); });
    }
    $("#hand-open").addEventListener("click", openKeypad);
    $("#keypad-clear").addEventListener("click", () => { keypadValues = []; renderKeypad(); });
    $("#keypad-send").addEventListener("click", async () => {
      following = true;
      const state = await act(api.post(API.dice, { values: keypadValues, roller: player() }));
      if (state) {
        $("#keypad-dialog").close();
        answered(state);
      }
    });
    $("#throw").addEventListener("click", async () => {
      following = true;
      answered(await act(api.post(API.throw)));
    });

    // --- corrections -----------------------------------------------------------
    function openFix(roll, die, index) {
      const dieIndex = die.index !== undefined ? die.index : index;
      const askPrincipal = !$("#pick-principal").hidden;
      if (askPrincipal) { setPrincipal(roll, dieIndex); return; }
      fixing = { roll, index: dieIndex, more: [] };
      const read = die.natural === null || die.natural === undefined
        ? t(die.unreadable || "cocked") : t("read {n}", { n: die.natural });
      $("#fix-title").textContent = t("Die {n}", { n: index + 1 }) + " · " + read;
      $("#fix-hint").textContent = t("Set the value");
      $("#fix-cocked").hidden = false;
      setChildren($("#fix-keypad"), keypadButtons(sidesOf(roll), (value) => fix({ value })));
      $("#fix-principal").hidden = !["d6", "free"].includes(roll.system) || Boolean(die.step) ||
        die.principal || die.role === "principal" || die.role === "extra";
      $("#fix-dialog").showModal();
    }

    async function fix(change) {
      const { roll, index, more } = fixing;
      const body = Object.assign({ who: player() }, change, more.length ? { more } : {});
      try {
        const updated = await api.post(API.rolls + "/" + roll.id + "/dice/" + index, body);
        $("#fix-dialog").close();
        receive(updated, true);
      } catch (err) {
        if (err.needs) askMore(change, err.needs);
        else toast(t("Error: {reason}", { reason: err.message }));
      }
    }

    /** A finished roll the correction leaves waiting for dice (an extra die corrected to 6
     *  asks for the next, RULES D6-4): its next dice are entered here and sent with it. */
    function askMore(change, needs) {
      const wanted = fixing.more.length + needs.count;
      $("#fix-title").textContent = needs.text;
      $("#fix-hint").textContent = t("This correction needs more dice: enter them.");
      $("#fix-cocked").hidden = true;
      $("#fix-principal").hidden = true;
      setChildren($("#fix-keypad"), keypadButtons(needs.sides === 10 ? 10 : 6, (value) => {
        fixing.more.push(value);
        if (fixing.more.length >= wanted) fix(change);
      }));
    }

    async function setPrincipal(roll, index) {
      const updated = await act(api.post(API.rolls + "/" + roll.id + "/principal", { index, who: player() }));
      if (updated) { $("#fix-dialog").close(); receive(updated, true); }
    }

    $("#photo-open").addEventListener("click", () => {
      const full = $("#photo-full");
      full.src = $("#photo").src;
      full.alt = $("#photo").alt;
      $("#photo-dialog").showModal();
    });

    $("#fix-cocked").addEventListener("click", () => fix({ cocked: true }));
    // RULES T-5 accept_leaning: the keypad for the one die that leans, its top face entered by hand
    $("#lean-open").addEventListener("click", () => {
      const roll = shownRoll();
      const index = Number($("#lean-open").dataset.index);
      if (!roll || !roll.dice[index]) return;
      openFix(roll, roll.dice[index], index);
      $("#fix-title").textContent = t("Die {n} leans: enter its top face.", { n: index + 1 });
      $("#fix-hint").textContent = t("Its top face, as the table sees it");
      $("#fix-cocked").hidden = true;
      $("#fix-principal").hidden = true;
    });
    $("#fix-principal").addEventListener("click", () => setPrincipal(fixing.roll, fixing.index));

    // --- live updates ------------------------------------------------------------
    function onState(state) {
      store.state = state;
      if (state.latest_roll) receive(state.latest_roll, true);
      else if (store.rolls.size) {  // the history was cleared: its rolls go from every page
        store.rolls.clear();
        store.shownId = null;
        render();
      }
      renderState();
    }

    const stream = liveStream({
      roll: (roll) => receive(roll, true),
      // The server's history is not the one this page knew (a new one, after a damaged database).
      reload: (state) => {
        store.rolls.clear();
        store.shownId = null;
        onState(state);
        loadRecent();
      },
      state: onState,
      camera: (camera) => { if (store.state) store.state.camera = camera; renderCamera(camera); },
      reopened: () => loadRecent(),
    });

    async function loadRecent() {
      const page = await act(api.get(API.rolls + "?limit=12"));
      if (page) { for (const roll of page.rolls) upsert(roll); render(); }
    }

    async function start() {
      // The server put the state and the presets in the page; the stream and the
      // recent rolls follow. Opening the stream first means nothing falls between.
      const initial = JSON.parse($("#initial").textContent);
      store.presets = initial.presets;
      store.state = initial.state;
      if (initial.state.latest_roll) upsert(initial.state.latest_roll);
      renderPresets();
      render();
      stream.open();
      await loadRecent();
      // A roll opened from the history (/?roll=ID): shown, its dice ready to correct.
      const asked = new URLSearchParams(window.location.search).get("roll");
      if (asked && /^[0-9]+$/.test(asked)) {
        const roll = await act(api.get(API.rolls + "/" + asked));
        if (roll) { upsert(roll); store.shownId = roll.id; render(); }
      }
    }
    start();
    window.dicelens = { store, stream };
  }

  /** An EventSource that comes back by itself: the browser retries dropped
   *  streams (sending Last-Event-ID, so the server replays missed rolls); when the
   *  browser gives up, the phone goes offline or wakes up, a new stream is opened
   *  with the last seq in the URL and the recent rolls are fetched again. When the
   *  server has no stream left for this page (event "full", web/events.py), the page
   *  asks for the state every POLL_MS and says so, until the browser gets a stream again. */
  function liveStream(handlers) {
    let source = null;
    let pollTimer = null;
    let lastSeq = null;
    let retryTimer = null;
    let delay = 1000;
    let everOpened = false;
    const link = $("#link");

    function setLink(status) {
      if (pollTimer !== null && status !== "offline") status = "polling";  // until a stream comes
      const words = { live: t("Live"), reconnecting: t("Reconnecting…"), offline: t("Offline"),
        polling: t("Many pages open: updated every 5 s") };
      link.dataset.link = status;
      link.title = words[status] || "";
      $(".text", link).textContent = words[status] || "";
    }

    async function poll() {
      try {
        const response = await fetch(API.state, { headers: { Accept: "application/json" } });
        if (response.ok) handlers.state(await response.json());
      } catch (err) { /* offline: the next poll tries again */ }
    }

    function startPolling() {
      if (pollTimer === null) pollTimer = setInterval(poll, POLL_MS);
      setLink("polling");
      poll();
    }

    function stopPolling() {
      clearInterval(pollTimer);
      pollTimer = null;
    }

    function parse(event) {
      if (event.lastEventId) {
        const seq = Number(event.lastEventId);
        // A reload's id is the new history's: lower than the old one's, and it wins.
        if (!Number.isNaN(seq)) lastSeq = lastSeq === null || event.type === "reload" ? seq : Math.max(lastSeq, seq);
      }
      try { return JSON.parse(event.data); } catch (err) { return null; }
    }

    function open() {
      clearTimeout(retryTimer);
      if (source) source.close();
      const url = API.events + (lastSeq !== null ? "?last_event_id=" + lastSeq : "");
      source = new EventSource(url);
      source.addEventListener("open", () => {
        delay = 1000;
        setLink("live");
        if (everOpened) handlers.reopened();
        everOpened = true;
      });
      source.addEventListener("error", () => {
        if (!navigator.onLine) { setLink("offline"); return; }
        setLink("reconnecting");
        if (source.readyState === EventSource.CLOSED) schedule();
      });
      for (const kind of ["roll", "state", "reload", "camera"]) {
        source.addEventListener(kind, (event) => {
          const data = parse(event);
          if (kind === "state" && pollTimer !== null) { stopPolling(); setLink("live"); }  // a stream at last
          if (data) handlers[kind](data);
        });
      }
      source.addEventListener("full", startPolling);
    }

    function schedule() {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(open, delay);
      delay = Math.min(delay * 2, 15000);
    }

    function close(status) {
      clearTimeout(retryTimer);
      if (source) source.close();
      source = null;
      setLink(status);
    }

    window.addEventListener("offline", () => close("offline"));
    window.addEventListener("online", () => { delay = 1000; open(); });
    // A phone that slept may hold a stream that looks open but is dead (Wi-Fi
    // dropped without a word): after a long sleep, start a fresh one from lastSeq.
    let hiddenAt = null;
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") { hiddenAt = Date.now(); return; }
      const slept = hiddenAt !== null && Date.now() - hiddenAt > WAKE_RECONNECT_MS;
      hiddenAt = null;
      if (slept || !source || source.readyState === EventSource.CLOSED) open();
    });
    return {
      open, close,
      get lastSeq() { return lastSeq; },
      get source() { return source; },
      get connected() { return Boolean(source) && source.readyState === EventSource.OPEN; },
    };
  }

  // --- history page ------------------------------------------------------------
  /** The history is rendered by the server (paged, filtered); here: local times,
   *  filters that apply as soon as they change, and the camera status. */
  function historyPage() {
    for (const time of document.querySelectorAll("time[datetime]")) {
      time.textContent = when(time.getAttribute("datetime"));
    }
    $("#filter-preset").addEventListener("change", () => $("#filters").requestSubmit());
    act(api.get(API.state)).then((state) => { if (state) cameraPill(state.camera); });
  }

  /** The camera status in the header: ok, no camera or reconnecting, with its message as a title. */
  function cameraPill(camera) {
    const pill = $("#camera");
    const status = (camera && camera.status) || "no camera";
    pill.dataset.status = status.replace(/\s/g, "-");
    pill.textContent = { ok: t("Camera ok"), reconnecting: t("Camera reconnecting") }[status] || t("No camera");
    pill.title = (camera && camera.message) || "";
  }

  // --- settings page -------------------------------------------------------------
  function settingsPage() {
    let reading = null;
    let frameSize = null;

    function showSettings(settings) {
      $("#principal-color").textContent = t("Principal colour: {color}", { color: settings.principal_color ? t(settings.principal_color) : "–" });
      $("#pin-state").textContent = settings.pin_set ? t("PIN set") : t("No PIN");
      $("#pin-clear").disabled = !settings.pin_set;
      const list = $("#preset-editor");
      setChildren(list, (settings.presets || []).map(presetRow));
      for (const choice of document.querySelectorAll("#cocked-form input[name=cocked]")) {  // RULES T-5
        choice.checked = choice.value === settings.cocked_dice;
      }
      const house = settings.house_rules;  // RULES P-5b
      $("#house-ten").checked = house.rule_of_ten;
      $("#house-one").checked = house.rule_of_one;
      $("#house-target").value = String(house.target_number);
    }

    $("#cocked-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const chosen = $("#cocked-form input[name=cocked]:checked");
      const settings = await act(api.post(API.settings, { cocked_dice: chosen ? chosen.value : null }));
      if (settings) { showSettings(settings); toast(t("Saved")); }
    });

    $("#house-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const house_rules = { rule_of_ten: $("#house-ten").checked, rule_of_one: $("#house-one").checked,
        target_number: Number($("#house-target").value) };
      const settings = await act(api.post(API.settings, { house_rules }));
      if (settings) { showSettings(settings); toast(t("Saved")); }
    });

    function presetRow(preset) {
      const row = $("#preset-row").content.firstElementChild.cloneNode(true);
      const rest = Object.assign({}, preset);
      delete rest.name;
      delete rest.label;
      $(".p-name", row).value = preset.name || "";
      // A label the rules made ("pool 5 · difficulty 1") in the page's language, as the live page
      // shows it; kept as it is stored unless it is edited.
      row.dataset.label = preset.label || "";
      $(".p-label", row).value = labelText(preset.label || "");
      $(".p-spec", row).value = JSON.stringify(rest);
      $(".p-remove", row).addEventListener("click", () => row.remove());
      if (preset.system === "pool") poolSteppers(row, preset);
      return row;
    }

    /** The pool's dice, difficulty, penalty and bonus as steppers; each change is written into
     *  the row's JSON. A label the rules made ("pool 5 · difficulty 2") is dropped then, so that
     *  the server makes the new one. */
    function poolSteppers(row, preset) {
      const box = $(".p-pool", row);
      box.hidden = false;
      const spec = () => { try { return JSON.parse($(".p-spec", row).value || "{}"); } catch (err) { return null; } };
      for (const stepper of box.querySelectorAll(".stepper")) {
        const key = stepper.dataset.key;
        const low = Number(stepper.dataset.min);
        const input = $(".p-number", stepper);
        input.value = ((spec() || {}).spec || {})[key] ?? low;
        const write = (value) => {
          const rest = spec();
          if (!rest) { toast(t("The rule settings are not valid JSON: fix them first.")); $(".p-spec", row).focus(); return; }
          input.value = Math.min(100, Math.max(low, value));
          rest.spec = Object.assign({}, rest.spec, { [key]: Number(input.value) });
          $(".p-spec", row).value = JSON.stringify(rest);
          if (/^pool \d+ · difficulty \d+/.test(preset.label || "") && $(".p-label", row).value === labelText(preset.label || "")) {
            $(".p-label", row).value = "";
          }
        };
        input.addEventListener("change", () => write(/^[0-9]+$/.test(input.value) ? Number(input.value) : low));
        for (const button of stepper.querySelectorAll(".step")) {
          button.addEventListener("click", () => write(Number(input.value) + Number(button.dataset.by)));
        }
      }
    }

    async function loadFrame() {
      // 404 until the camera has taken a frame: that is "no photo yet", not an error.
      const frame = await api.get(API.frame).catch(() => null);
      reading = frame && frame.reading;
      const has = Boolean(frame && reading);
      $("#frame-box").hidden = !has;
      $("#frame-none").hidden = has;
      if (has) { frameSize = { width: frame.width, height: frame.height }; $("#frame").src = frame.image; }
    }

    $("#frame").addEventListener("click", async (event) => {
      const img = event.currentTarget;
      const [width, height] = [frameSize.width, frameSize.height];
      const x = (event.offsetX / img.clientWidth) * width;
      const y = (event.offsetY / img.clientHeight) * height;
      const die = reading.dice.find((d) => x >= d.box[0] && x <= d.box[2] && y >= d.box[1] && y <= d.box[3]);
      if (!die) { toast(t("No die there: tap inside a die.")); return; }
      const settings = await act(api.post(API.settings, { principal_color: die.color }));
      if (settings) { showSettings(settings); toast(t("Saved")); }
    });

    $("#preset-add").addEventListener("click", () => {
      $("#preset-editor").append(presetRow({ name: "", label: "", system: "d6", sides: 6, count: 2, spec: { count: 2, kind: "D6" } }));
    });

    $("#preset-save").addEventListener("click", async () => {
      const presets = [];
      for (const row of document.querySelectorAll("#preset-editor .preset-row")) {
        let rest;
        try { rest = JSON.parse($(".p-spec", row).value || "{}"); } catch (err) {
          toast(t("Error: {reason}", { reason: err.message }));
          $(".p-spec", row).focus();
          return;
        }
        const typed = $(".p-label", row).value.trim();
        const label = typed && typed === labelText(row.dataset.label).trim() ? row.dataset.label : typed;
        Object.assign(rest, { name: $(".p-name", row).value.trim(), label });
        if (!label) delete rest.label;   // the rules make one (an empty label is refused)
        presets.push(rest);
      }
      const settings = await act(api.post(API.settings, { presets }));
      if (settings) { showSettings(settings); toast(t("Saved")); }
    });

    $("#preset-restore").addEventListener("click", async () => {
      if (!window.confirm(t("Replace the rolls with the configured ones?"))) return;
      const settings = await act(api.post(API.settings, { presets: null }));
      if (settings) { showSettings(settings); toast(t("Saved")); }
    });

    $("#pin-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const pin = $("#pin-new").value;
      const settings = await act(api.post(API.settings, { pin }));
      if (settings) {
        $("#pin-new").value = "";
        showSettings(settings);
        toast(t("Saved"));
      }
    });

    $("#pin-clear").addEventListener("click", async () => {
      const settings = await act(api.post(API.settings, { pin: null }));
      if (settings) { showSettings(settings); toast(t("Saved")); }
    });

    $("#clear-history").addEventListener("click", async () => {
      if (!window.confirm(t("Delete all rolls from the history?"))) return;
      if (await act(api.post(API.clear))) toast(t("Saved"));
    });

    (async () => {
      const [settings, state] = await Promise.all([act(api.get(API.settings)), act(api.get(API.state))]);
      if (settings) showSettings(settings);
      if (state) cameraPill(state.camera);
      loadFrame();
    })();
  }

  // --- every page ------------------------------------------------------------------
  // Cancel is a plain button, so that Enter in a dialog's field means OK.
  for (const button of document.querySelectorAll("dialog [data-close]")) {
    button.addEventListener("click", () => button.closest("dialog").close("cancel"));
  }
  const select = $("#lang-select");
  select.addEventListener("change", () => {
    const url = new URL(window.location.href);
    url.searchParams.set("lang", select.value);
    window.location.assign(url.toString());
  });

  const page = document.body.dataset.page;
  if (page === "live") livePage();
  else if (page === "history") historyPage();
  else if (page === "settings") settingsPage();
  else act(api.get(API.state)).then((state) => { if (state) cameraPill(state.camera); });
})();
