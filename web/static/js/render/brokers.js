// @ts-check
// The brokers' cards: state, the controller's view, traffic and disk, and
// the buttons that stop, kill, cut the power of and start each.
import {bytes, esc} from "../html.js";
import {observedBrokersHTML, quorumNote} from "./observed.js";

/** @typedef {import("../types.js").View} View */

/** @type {Record<string, string>} */
export const stateText = {running: "Running", stopped: "Stopped", crashed: "Crashed", off: "Powered off", failed: "Failed to start"};

/**
 * controllerNote says where the active controller runs.
 * @param {View} v
 */
export function controllerNote(v) {
  if (v.observed) return `controller: ${v.controller < 0 ? "none named" : `broker ${v.controller}`} · ${quorumNote(v.observed)}`;
  return v.controller > 0 ? `controller: broker ${v.controller} (KRaft, voters 1-3)`
    : v.controller < 0 ? `controller: none, the voters are electing one` : "controller: KRaft node 0";
}

/**
 * uncleanableHTML is the figure of the partitions a broker's log cleaner
 * marked uncleanable (none: nothing).
 * @param {import("../types.js").BrokerView} b
 */
function uncleanableHTML(b) {
  if (!b.uncleanable || b.uncleanable.length === 0) return "";
  const names = b.uncleanable.join(", ");
  return `
        <div class="uncleanable" title="its log cleaner met a batch it cannot parse in ${esc(names)} and passes them over (no compaction, no deletion of old segments) until the broker restarts, as Kafka's LogCleaner does (metric uncleanable-partitions-count)"><dt>Uncleanable</dt><dd>${esc(names)}</dd></div>`;
}

/**
 * brokersHTML draws every broker's card.
 * @param {View} v
 */
export function brokersHTML(v) {
  if (v.observed) return observedBrokersHTML(v);
  return (v.brokers || []).map((b) => `<div class="broker" data-key="b${b.id}" data-broker="${b.id}" data-state="${b.state}">
      <div class="top"><span class="name">Broker ${b.id}</span>
        ${v.controller === b.id ? `<span class="ctl-badge" title="the active controller (KRaft quorum leader) runs in this broker">Controller</span>` : ""}
        <span class="state ${b.state}">${stateText[b.state] || esc(b.state)}</span>
        ${b.ctl !== "unfenced" ? `<span class="muted ctlview" title="the controller's view of this broker: ${esc(b.ctl)}">${esc(b.ctl)}</span>` : ""}</div>
      <dl class="figs">
        <div><dt>In</dt><dd>${bytes(b.in)}/s</dd></div><div><dt>Out</dt><dd>${bytes(b.out)}/s</dd></div>
        <div class="big" title="bytes of its files on disk: they survive a power cut${b.disk_cap ? `; the disk holds ${bytes(b.disk_cap)}, and a broker whose disk is full halts` : ""}"><dt>Disk</dt><dd>${bytes(b.disk)}</dd></div>
        <div class="big" title="bytes only in the page cache: a power cut loses them"><dt>Cache</dt><dd>${bytes(b.cache)}</dd></div>
        <div title="reads of its logs for consumers' fetches${b.fetch_reads ? `; the latest asked for offset ${b.last_fetch} and began ${b.last_first_batch < 0 ? "with no batch" : `at the batch at offset ${b.last_first_batch}`}` : ""}"><dt>Fetches</dt><dd>${b.fetch_reads}</dd></div>
        <div title="what the fetches' scans walked past, from the offset index entry to the batch they read: ${b.fetch_scanned} batch headers"><dt>Scanned</dt><dd>${bytes(b.fetch_scanned_bytes)}</dd></div>${uncleanableHTML(b)}</dl>
      <div class="acts">
        <button type="button" data-cmd="stop ${b.id}" title="clean shutdown"${b.state === "running" ? "" : " disabled"}>stop</button>
        <button type="button" data-cmd="kill ${b.id}" class="danger" title="the process crashes; the page cache survives"${b.state === "running" ? "" : " disabled"}>kill</button>
        <button type="button" data-cmd="power-cut ${b.id}" class="danger" title="the machine loses power: what was only in the page cache is gone"${b.state === "off" ? " disabled" : ""}>cut power</button>
        <button type="button" data-cmd="start ${b.id}" title="start the broker: it recovers its logs from its disk"${b.state === "running" ? " disabled" : ""}>start</button>
      </div>
    </div>`).join("");
}
