// @ts-check
// The partition table: one row a partition, the one shown in detail
// pressed.
import {esc} from "../html.js";

/** @typedef {import("../types.js").View} View */
/** @typedef {import("../types.js").PartRow} PartRow */

/**
 * frozen cues a high watermark that cannot move: the ISR is smaller than
 * min.insync.replicas, and acks=all writes wait.
 * @param {PartRow} p
 */
export function frozen(p) {
  if (!p.min_isr) return "";
  const n = (p.isr || []).length;
  return ` <span class="cue" title="the ISR has ${n} replica${n === 1 ? "" : "s"}, fewer than min.insync.replicas ${p.min_isr}: the high watermark does not move (Kafka 3.7+) and acks=all writes wait">frozen: ISR ${n} &lt; min.insync.replicas ${p.min_isr}</span>`;
}

/**
 * partsHTML draws the partition table.
 * @param {View} v
 */
export function partsHTML(v) {
  const rows = (v.parts || []).map((p) => {
    const sel = !!v.detail && p.topic === v.detail.topic && p.p === v.detail.p;
    const leader = p.leader < 0 ? `<span class="offline">none</span>` : p.leader;
    return `<tr class="${sel ? "sel" : ""}" data-key="${esc(p.topic)}-${p.p}" data-topic="${esc(p.topic)}" data-partition="${p.p}">
      <td><button type="button" aria-pressed="${sel}" title="show ${esc(p.topic)}-${p.p} in detail">${esc(p.topic)}-${p.p}</button></td><td>${leader}</td><td>${p.epoch}</td><td>${(p.replicas || []).join(",")}</td>
      <td>${(p.isr || []).join(",")}</td><td>${p.lso}</td><td>${p.hw}${frozen(p)}</td><td>${p.leo}</td></tr>`;
  });
  return `<thead><tr><th scope="col">partition</th><th scope="col">leader</th><th scope="col">epoch</th><th scope="col">replicas</th><th scope="col">ISR</th><th scope="col">log start</th><th scope="col">HW</th><th scope="col">LEO</th></tr></thead><tbody>${rows.join("")}</tbody>`;
}
