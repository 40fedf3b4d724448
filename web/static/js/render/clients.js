// @ts-check
// Real Kafka clients talking to the brokers' listeners (kafkalive serve
// with listeners): where to point one, and each client as the brokers saw
// it; or, where the world can have no listeners (in the browser, the
// static site), why and how to get them.
import {bytes, esc} from "../html.js";
import {countsHTML} from "./counts.js";

/** @typedef {import("../types.js").KafkaView} KafkaView */

/**
 * clientsHTML draws the Kafka clients panel.
 * @param {KafkaView} k
 */
export function clientsHTML(k) {
  const first = (k.listeners || [])[0];
  const head = `<div class="top"><b>Kafka clients</b> <span class="muted">${k.connections} connection${k.connections === 1 ? "" : "s"}</span></div>` +
    (k.unavailable ? `<p class="unavailable">${esc(k.unavailable)}</p>` :
      `<div class="muted">${first ? `point a client at ${esc(first.split(" ")[1])} (brokers ${(k.listeners || []).map(esc).join(", ")})` : "no listeners"}</div>`) +
    (k.paused_note ? `<div class="offline">${esc(k.paused_note)}</div>` : "") +
    (k.notice ? `<div class="muted">${esc(k.notice)}</div>` : "");
  const rows = (k.clients || []).map((c) => `<div class="producer" data-key="kc-${c.n}">
      <div class="top"><b>client ${c.n}</b> <span class="muted">${esc(c.client_id || "(no client.id)")} · ${esc(c.remote)} · ${c.connections} conn.</span>
        <button type="button" data-cmd="cut client ${c.n}" title="cut the links between this client and every broker: its connections hang">cut</button></div>
      ${c.acks ? `<div class="muted">acks=${esc(c.acks)} · ${c.idempotent ? "idempotent" : "not idempotent"}${c.cut && c.cut.length ? ` · cut from ${c.cut.join(",")}` : ""}</div>` : ""}
      <div class="counts">${countsHTML(c, c.acks === "0")} · fetched ${bytes(c.fetched_bytes)}${c.last_error ? ` · last error ${esc(c.last_error)}` : ""}</div>
    </div>`).join("") +
    (k.hidden ? `<div class="muted">and ${k.hidden} more client${k.hidden === 1 ? "" : "s"} the brokers have seen, not connected now</div>` : "");
  return head + rows;
}
