// @ts-check
// The wire panel's loop: while its <details> is open, it asks the server
// for the exchanges after the last it has (GET /api/wire), once a second,
// which also keeps the server recording the client it shows; closed, it
// asks nothing and the server stops recording within seconds.
import {morph} from "./morph.js";
import {wireControlsHTML, wireRowsHTML} from "./render/wire.js";

/** @typedef {import("./transport.js").Transport} Transport */
/** @typedef {import("./types.js").WireExchange} WireExchange */
/** @typedef {import("./types.js").WireView} WireView */

/** MaxShown bounds the exchanges the panel keeps. */
export const MaxShown = 200;

/**
 * A WirePanel is a running panel: show opens it at the exchange numbered
 * seq (a record's journey links there), held still from it until the
 * reader goes back to the newest.
 * @typedef {object} WirePanel
 * @property {(seq: number) => void} show
 */

/**
 * wirePanel builds the panel in el and runs it over t; clients returns
 * the client ids the page knows (the Kafka clients panel's).
 * @param {Transport} t
 * @param {HTMLDetailsElement} el
 * @param {() => string[]} clients
 * @returns {WirePanel}
 */
export function wirePanel(t, el, clients) {
  el.innerHTML = `<summary><b>The wire</b> <span class="muted">each request and response of a client, decoded</span></summary>
    <div class="wire-controls"></div><div class="wire-rows"></div>`;
  const controls = /** @type {HTMLElement} */ (el.querySelector(".wire-controls"));
  const rows = /** @type {HTMLElement} */ (el.querySelector(".wire-rows"));
  const f = {client: "", api: ""};
  /** @type {WireExchange[]} */
  let shown = [];
  let next = 0, dropped = 0;
  // held: the exchange a journey's link chose (0: none), shown from it on
  // without newer ones until the reader goes back to the newest
  let held = 0, asking = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const draw = () => {
    morph(controls, wireControlsHTML(clients(), f));
    morph(rows, (held ? `<p class="wire-held" data-key="held">From the exchange the journey chose (#${held}), held still. <button type="button" class="linkish" data-wire-latest>back to the newest</button></p>` : "") +
      wireRowsHTML(shown, dropped));
    if (!held) return;
    const x = rows.querySelector(`[data-key="w-${held}"]`);
    if (x instanceof HTMLElement) {
      for (const o of rows.querySelectorAll(".wire-x.hl")) o.classList.remove("hl");
      x.classList.add("hl");
      x.scrollIntoView({block: "nearest"});
    }
  };
  const ask = async () => {
    timer = undefined;
    if (!el.open || asking) return;
    asking = true;
    const q = new URLSearchParams({client: f.client, api: f.api, since: String(next)});
    if (held) { q.set("from", String(held)); q.set("limit", String(MaxShown)); }
    try {
      /** @type {WireView} */
      const w = await t.get(`/api/wire?${q}`);
      shown = shown.concat(w.exchanges || []).slice(-MaxShown);
      next = w.next;
      if (!held) dropped += w.dropped;
      draw();
    } catch (e) {
      morph(rows, `<div class="unavailable">${String(e).replace(/[&<>"']/g, "")}</div>`);
    } finally {
      asking = false;
    }
    if (el.open && !held) timer = setTimeout(ask, 1000);
  };
  /** restart asks again from the start of what the server kept. */
  const restart = () => {
    shown = []; dropped = 0; // the server keeps what it recorded: ask again from the start
    next = 0;
    clearTimeout(timer); timer = undefined;
    draw();
    ask();
  };
  controls.addEventListener("change", (e) => {
    const s = /** @type {HTMLSelectElement} */ (e.target);
    if (s.dataset.wire === "client") f.client = s.value;
    if (s.dataset.wire === "api") f.api = s.value;
    held = 0;
    restart();
  });
  rows.addEventListener("click", (e) => {
    if (!(/** @type {HTMLElement} */ (e.target).closest("[data-wire-latest]"))) return;
    held = 0;
    restart();
  });
  el.addEventListener("toggle", () => {
    if (el.open && timer === undefined && !held) ask();
    if (!el.open && timer !== undefined) { clearTimeout(timer); timer = undefined; }
  });
  draw();
  return {
    show(seq) {
      f.client = ""; f.api = "";
      held = seq;
      el.open = true;
      restart();
      el.scrollIntoView({block: "nearest"});
    },
  };
}
