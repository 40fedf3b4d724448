// @ts-check
// The wire: the requests and responses of the real Kafka clients the
// brokers' listeners serve, decoded (web.Wire). The server records a
// client only while this panel asks for it.
import {esc} from "../html.js";

/** @typedef {import("../types.js").WireExchange} WireExchange */

/**
 * WireFilter is what the panel shows: one client's exchanges ("" every
 * client's) of one API ("" every API).
 * @typedef {object} WireFilter
 * @property {string} client
 * @property {string} api
 */

/** The APIs a filter offers first: a producer's, a consumer's, a group member's. */
export const wireAPIs = ["Produce", "Fetch", "ListOffsets", "Metadata", "OffsetCommit", "OffsetFetch", "FindCoordinator", "JoinGroup", "SyncGroup", "Heartbeat", "ApiVersions"];

/**
 * wireControlsHTML draws the filters: the clients connected, the APIs.
 * @param {string[]} clients the client ids to offer
 * @param {WireFilter} f
 */
export function wireControlsHTML(clients, f) {
  const opt = (/** @type {string} */ v, /** @type {string} */ label, /** @type {string} */ cur) =>
    `<option value="${esc(v)}"${v === cur ? " selected" : ""}>${esc(label)}</option>`;
  const ids = [...new Set(clients.concat(f.client ? [f.client] : []))].sort();
  return `<label>client <select data-wire="client">${opt("", "every client", f.client)}${ids.map((c) => opt(c, c || "(no client.id)", f.client)).join("")}</select></label>
    <label>API <select data-wire="api">${opt("", "every API", f.api)}${wireAPIs.map((a) => opt(a, a, f.api)).join("")}</select></label>`;
}

/**
 * wireRowsHTML draws the exchanges, newest first: when, which client on
 * which broker, the API and version, what mattered of the request and of
 * the response (or why there was none), the errors, the latency.
 * @param {WireExchange[]} xs oldest first
 * @param {number} dropped exchanges that fell off the server's record before they were shown
 */
export function wireRowsHTML(xs, dropped) {
  if (!xs.length) return `<div class="muted">no request yet: the brokers record a client's requests while this panel is open</div>`;
  const rows = xs.slice().reverse().map((x) => {
    const errs = (x.errors || []).map((e) => `<span class="err">${esc(e)}</span>`).join(" ");
    const answer = x.closed ? `<span class="offline">no response: ${esc(x.closed)}</span>` :
      x.response === undefined || x.response === "" ? (x.api === "Produce" ? `<span class="muted">no response (acks=0)</span>` : "") : esc(x.response);
    const at = x.at.length >= 23 ? x.at.slice(11, 23) : x.at;
    return `<div class="wire-x" data-key="w-${x.seq}">
      <div class="top"><span class="muted">${esc(at)}</span> <b>${esc(x.api)} v${x.version}</b> <span class="muted">${esc(x.client || "(no client.id)")} → broker ${x.broker} · corr ${x.correlation} · ${latency(x.latency_us)}</span> ${errs}</div>
      ${x.request ? `<div class="wire-req">→ ${esc(x.request)}</div>` : ""}
      ${answer ? `<div class="wire-resp">← ${answer}</div>` : ""}
    </div>`;
  }).join("");
  return rows + (dropped ? `<div class="muted">${dropped} older exchange${dropped === 1 ? "" : "s"} fell off before they were shown</div>` : "");
}

/**
 * latency prints microseconds readably.
 * @param {number} us
 */
function latency(us) {
  return us < 1000 ? `${us} µs` : us < 10_000_000 ? `${(us / 1000).toFixed(1)} ms` : `${(us / 1e6).toFixed(1)} s`;
}
