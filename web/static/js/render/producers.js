// @ts-check
// The simulated producers: settings, counts, and the buttons that send one
// record and edit them.
import {esc} from "../html.js";
import {countsHTML} from "./counts.js";

/** @typedef {import("../types.js").View} View */

/** @typedef {import("../types.js").ProducerView} ProducerView */
/** @typedef {import("../types.js").CopyView} CopyView */

/**
 * producersHTML draws every producer: a copier (consume-transform-produce)
 * says what it copies instead of offering to send or edit.
 * @param {View} v
 */
export function producersHTML(v) {
  return (v.producers || []).map((p) => `<div class="producer" data-key="p-${esc(p.name)}" data-producer="${esc(p.name)}">
      <div class="top"><b>${esc(p.name)}</b> <span class="muted">${p.copy ? `${esc(p.copy.from)} ` : ""}→ ${esc(p.topic)}</span>
        ${p.copy ? copierButtons(p) : `<button type="button" data-produce="${esc(p.name)}" title="send one record now">send one</button>
        <button type="button" data-edit-producer="${esc(p.name)}" title="change the rate, acks and keys">edit</button>`}</div>
      <div class="muted">${p.copy ? copierLine(p.copy) : `${p.rate}/s · acks=${esc(p.acks)} · linger.ms=${p.linger_ms} · ${p.keys && p.keys.length ? `keys ${p.keys.map(esc).join(", ")}` : "no keys (sticky partitioner)"}`}</div>
      <div class="counts">${countsHTML(p, p.acks === "0")}</div>
    </div>`).join("");
}

/**
 * copierButtons are a copier's: abort its open transaction (it then reads
 * again from its group's committed offset).
 * @param {ProducerView} p
 */
function copierButtons(p) {
  return `<button type="button" data-cmd="abort-transaction ${esc(p.name)}" title="abort its open transaction: it reads again from its group's committed offset">abort</button>`;
}

/**
 * copierLine says what a copier reads and commits.
 * @param {CopyView} c
 */
function copierLine(c) {
  const at = c.position < 0 ? "reading its committed offset" : `at offset ${c.position}`;
  return `copies ${esc(c.from)} at read_committed, ${at}; commits group ${esc(c.group)}'s offsets in its transactions · ${c.copied} copied in committed transactions`;
}
