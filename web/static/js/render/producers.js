// @ts-check
// The simulated producers: settings, counts, and the buttons that send one
// record and edit them.
import {esc} from "../html.js";
import {countsHTML} from "./counts.js";

/** @typedef {import("../types.js").View} View */

/**
 * producersHTML draws every producer.
 * @param {View} v
 */
export function producersHTML(v) {
  return (v.producers || []).map((p) => `<div class="producer" data-key="p-${esc(p.name)}" data-producer="${esc(p.name)}">
      <div class="top"><b>${esc(p.name)}</b> <span class="muted">→ ${esc(p.topic)}</span>
        <button type="button" data-produce="${esc(p.name)}" title="send one record now">send one</button>
        <button type="button" data-edit-producer="${esc(p.name)}" title="change the rate, acks and keys">edit</button></div>
      <div class="muted">${p.rate}/s · acks=${esc(p.acks)} · linger.ms=${p.linger_ms} · ${p.keys && p.keys.length ? `keys ${p.keys.map(esc).join(", ")}` : "no keys (sticky partitioner)"}</div>
      <div class="counts">${countsHTML(p, p.acks === "0")}</div>
    </div>`).join("");
}
