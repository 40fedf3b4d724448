// @ts-check
// The partition table: one row a partition, the one shown in detail
// pressed.
import {esc} from "../html.js";

/** @typedef {import("../types.js").View} View */

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
      <td>${(p.isr || []).join(",")}</td><td>${p.lso}</td><td>${p.hw}</td><td>${p.leo}</td></tr>`;
  });
  return `<thead><tr><th scope="col">partition</th><th scope="col">leader</th><th scope="col">epoch</th><th scope="col">replicas</th><th scope="col">ISR</th><th scope="col">log start</th><th scope="col">HW</th><th scope="col">LEO</th></tr></thead><tbody>${rows.join("")}</tbody>`;
}
