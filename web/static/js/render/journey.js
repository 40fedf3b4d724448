// @ts-check
// The journey of a record, as the server reads it from the cluster's state
// and event log at the moment shown (web's JourneyView): the page only
// draws it.
import {esc} from "../html.js";

/** @typedef {import("../types.js").View} View */
/** @typedef {import("./detail.js").Selected} Selected */

/**
 * journeyHTML draws the journey of the selected record s, or answers ""
 * when the view carries none for it (another partition, or not yet).
 * @param {View} v
 * @param {Selected | null} s
 */
export function journeyHTML(v, s) {
  const j = v.journey;
  if (!s || !j || j.topic !== s.topic || j.p !== s.p || j.offset !== s.offset || j.value !== s.value) return "";
  const lost = (j.lines || []).some((l) => l.kind === "lost");
  return `<button type="button" class="close" data-unselect>close</button><b>Journey of ${esc(j.value)}</b> at offset ${j.offset} of ${esc(j.topic)}-${j.p}${lost ? ` <span class="lost">lost after its acknowledgement</span>` : ""}
    <ol>${(j.lines || []).map((l, i) => `<li data-key="j${i}" data-kind="${esc(l.kind)}"${l.kind === "lost" ? ` class="lost"` : ""}>${esc(l.text)}</li>`).join("")}</ol>${wireLinksHTML(v)}`;
}

/**
 * wireLinksHTML links the journey to the wire panel's entries of the
 * requests that carried the record (the Produce that wrote it, the
 * Fetches that read it); on a cluster with real clients and none kept,
 * it says how to have them.
 * @param {View} v
 */
export function wireLinksHTML(v) {
  const j = v.journey, ws = (j && j.wire) || [];
  if (!ws.length) {
    const clients = v.kafka && (v.kafka.clients || []).length;
    return clients ? `<p class="jwire muted" data-key="jwire">On the wire: no Produce or Fetch of it kept. Open the wire panel: it records the clients' requests while it is open.</p>` : "";
  }
  return `<p class="jwire" data-key="jwire">On the wire: ${ws.map((x) =>
    `<button type="button" class="linkish" data-wire-seq="${x.seq}" title="show it in the wire panel">${esc(x.api)} corr ${x.correlation} of ${esc(x.client || "(no client.id)")} → broker ${x.broker}</button> <span class="muted">(offsets ${x.first}–${x.last})</span>`).join(", ")}</p>`;
}
