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
 * wirePanel builds the panel in el and runs it over t; clients returns
 * the client ids the page knows (the Kafka clients panel's).
 * @param {Transport} t
 * @param {HTMLDetailsElement} el
 * @param {() => string[]} clients
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
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const draw = () => {
    morph(controls, wireControlsHTML(clients(), f));
    morph(rows, wireRowsHTML(shown, dropped));
  };
  const ask = async () => {
    timer = undefined;
    if (!el.open) return;
    const q = new URLSearchParams({client: f.client, api: f.api, since: String(next)});
    try {
      /** @type {WireView} */
      const w = await t.get(`/api/wire?${q}`);
      shown = shown.concat(w.exchanges || []).slice(-MaxShown);
      next = w.next;
      dropped += w.dropped;
      draw();
    } catch (e) {
      morph(rows, `<div class="unavailable">${String(e).replace(/[&<>"']/g, "")}</div>`);
    }
    if (el.open) timer = setTimeout(ask, 1000);
  };
  controls.addEventListener("change", (e) => {
    const s = /** @type {HTMLSelectElement} */ (e.target);
    if (s.dataset.wire === "client") f.client = s.value;
    if (s.dataset.wire === "api") f.api = s.value;
    shown = []; dropped = 0; // the server keeps what it recorded: ask again from the start
    next = 0;
    draw();
  });
  el.addEventListener("toggle", () => {
    if (el.open && timer === undefined) ask();
    if (!el.open && timer !== undefined) { clearTimeout(timer); timer = undefined; }
  });
  draw();
}
