/* dicelens: a server-sent event stream that comes back by itself, for every page that
 * shows live updates (the live table: /api/events, web/events.py; the fight:
 * /api/combat/events, web/combat.py), with its state in the #link pill. */
import { $ } from "./dom.js";
import { t } from "./i18n.js";

export const WAKE_RECONNECT_MS = 20000; // longer than a heartbeat: the stream may have died meanwhile
const POLL_MS = 5000; // how often a page the server has no stream for asks for the state

/** An EventSource that comes back by itself: the browser retries dropped streams
 *  (sending Last-Event-ID); when the browser gives up, the phone goes offline or wakes up
 *  from a sleep longer than WAKE_RECONNECT_MS, a new stream is opened (``url()`` may carry
 *  the last id, ``lastSeq``) and ``opened(true)`` is called. When the server has no stream
 *  left for this page (event "full", web/events.py), the page asks ``poll.url`` for the
 *  state every POLL_MS and says so, until the browser gets a stream again.
 *
 *  @param url () → the URL to open.
 *  @param events {kind: (data, first)}: each event's JSON; ``first``: the stream's first event.
 *  @param opened (reopened) → called on each open; ``reopened`` after the first.
 *  @param poll {url, state}: where to ask for the state when the streams are full (optional).
 *  @returns {open, close(status), lastSeq, source, connected}. */
export function eventStream({ url, events, opened, poll }) {
  let source = null;
  let pollTimer = null;
  let lastSeq = null;
  let retryTimer = null;
  let delay = 1000;
  let everOpened = false;
  let first = true;
  const link = $("#link");

  function setLink(status) {
    if (pollTimer !== null && status !== "offline") status = "polling";  // until a stream comes
    const words = { live: t("Live"), reconnecting: t("Reconnecting…"), offline: t("Offline"),
      polling: t("Many pages open: updated every 5 s") };
    link.dataset.link = status;
    link.title = words[status] || "";
    $(".text", link).textContent = words[status] || "";
  }

  async function pollOnce() {
    try {
      const response = await fetch(poll.url, { headers: { Accept: "application/json" } });
      if (response.ok) poll.state(await response.json());
    } catch (err) { /* offline: the next poll tries again */ }
  }

  function startPolling() {
    if (pollTimer === null) pollTimer = setInterval(pollOnce, POLL_MS);
    setLink("polling");
    pollOnce();
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
    try { return JSON.parse(event.data); } catch (err) { return null; }  // a broken message: the next one carries more
  }

  function open() {
    clearTimeout(retryTimer);
    if (source) source.close();
    source = new EventSource(url());
    first = true;
    source.addEventListener("open", () => {
      delay = 1000;
      first = true;
      setLink("live");
      if (opened) opened(everOpened);
      everOpened = true;
    });
    source.addEventListener("error", () => {
      if (!navigator.onLine) { setLink("offline"); return; }
      setLink("reconnecting");
      if (source.readyState === EventSource.CLOSED) schedule();
    });
    for (const [kind, handler] of Object.entries(events)) {
      source.addEventListener(kind, (event) => {
        const data = parse(event);
        const wasFirst = first;
        first = false;
        if (kind === "state" && pollTimer !== null) { stopPolling(); setLink("live"); }  // a stream at last
        if (data) handler(data, wasFirst);
      });
    }
    if (poll) source.addEventListener("full", startPolling);
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
  // dropped without a word): after a long sleep, start a fresh one.
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
