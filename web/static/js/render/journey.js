// @ts-check
// The journey of a record: where the cluster's state says it is now.
import {esc} from "../html.js";
import {firstOffset} from "./detail.js";

/** @typedef {import("../types.js").View} View */
/** @typedef {import("./detail.js").Selected} Selected */

/**
 * journeyHTML follows the selected record s through the view v, or
 * answers "" when v does not show its partition.
 * @param {View} v
 * @param {Selected | null} s
 */
export function journeyHTML(v, s) {
  const d = v.detail;
  if (!s || !d || s.topic !== d.topic || s.p !== d.p) return "";
  const gone = s.offset < firstOffset(d);
  const holders = gone ? `<li>offset ${s.offset} is older than the newest records this page receives of each replica; choose a newer one</li>` : (d.logs || []).map((l) => {
    const r = (l.recs || []).find((r) => r.o === s.offset);
    if (!r) return `<li data-key="h${l.b}">b${l.b} (${l.role}): does not have offset ${s.offset}${l.leo <= s.offset ? ` (its log ends at ${l.leo})` : ""}</li>`;
    const same = r.v === s.value ? "has it" : `has a different record there (${esc(r.v)})`;
    return `<li data-key="h${l.b}">b${l.b} (${l.role}): ${same}${r.c ? ", only in the page cache" : ", on disk"}; its own HW is ${l.hw}${l.hw > s.offset ? " (past it)" : " (not past it yet)"}</li>`;
  }).join("");
  const producer = (v.producers || []).find((p) => s.value.startsWith(p.name + "-"));
  let consumers = (v.consumers || []).filter((c) => !c.group && c.topic === d.topic && c.partition === d.p)
    .map((c) => `<li>consumer ${esc(c.name)}: position ${c.position}${c.position > s.offset ? " (has read it)" : " (not yet)"}</li>`).join("");
  for (const g of v.groups || []) {
    for (const o of g.offsets || []) {
      if (o.topic !== d.topic || o.partition !== d.p) continue;
      consumers += `<li>group ${esc(g.name)}${o.member ? ` (member ${esc(o.member)})` : ""}: committed offset ${o.committed < 0 ? "none yet" : o.committed}${o.committed > s.offset ? " (processed and committed past it)" : " (not committed past it yet)"}</li>`;
    }
  }
  return `<button type="button" class="close" data-unselect>close</button><b>Journey of ${esc(s.value)}</b> at offset ${s.offset} of ${esc(d.topic)}-${d.p}
    <ol><li>producer ${producer ? esc(producer.name) + ` (acks=${esc(producer.acks)})` : "(typed in the terminal or a scenario)"} sent it to the leader</li>
    ${holders}
    <li>high watermark ${d.hw}: ${d.hw > s.offset ? "committed, consumers may read it" : "not committed yet, consumers cannot see it"}</li>
    ${consumers || "<li>no consumer reads this partition</li>"}</ol>`;
}
