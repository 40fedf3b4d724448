// @ts-check
// The panels of an observed cluster's page: what a poll saw (observe.Sample
// as JSON), "–" for what it was not told. No panel offers an action.
import {bytes, esc} from "../html.js";

const NotObserved = -1;

/** o prints an offset or a size, "–" (not observed) for -1. */
const o = (/** @type {number} */ n) => n === NotObserved ? `<span class="muted" title="not observed in this poll">–</span>` : String(n);
const ids = (/** @type {number[] | null} */ xs) => (xs || []).join(",");

/**
 * observedSummaryHTML is the cluster's line: its id, controller, quorum,
 * counts and what the poll cost.
 * @param {any} s a sample
 * @param {any} sum its summary
 */
export function observedSummaryHTML(s, sum) {
  const q = s.quorum ? `metadata quorum leader ${s.quorum.leader_id}, epoch ${s.quorum.leader_epoch}, high watermark ${s.quorum.high_watermark}` : "metadata quorum not observed";
  return `<p>cluster ${esc(s.cluster_id || "–")} · controller ${s.controller_id} · ${q}</p>
    <p>${sum.brokers_up} of ${(s.brokers || []).length} brokers up · ${(s.partitions || []).length} partitions, ${sum.under_replicated} under-replicated, ${sum.offline} offline ·
    groups' lag ${o(sum.lag)} · this poll: ${s.requests} requests in ${(s.took_ns / 1e6).toFixed(1)} ms</p>` +
    ((s.unanswered || []).length ? `<p class="offline">unanswered: ${s.unanswered.map(esc).join("; ")}</p>` : "");
}

/**
 * observedBrokersHTML is a row a broker: its state as seen from outside,
 * its listener, rack and log dir.
 * @param {any} s
 */
export function observedBrokersHTML(s) {
  const rows = (s.brokers || []).map((/** @type {any} */ b) => `<tr data-key="b-${b.id}" class="obs-${esc(b.state)}"><td>${b.id}</td><td>${esc(b.state)}</td><td>${esc(b.host)}:${b.port}</td><td>${esc(b.rack || "–")}</td><td>${esc(b.log_dir || "–")}</td><td>${b.usable_bytes === NotObserved ? o(-1) : bytes(b.usable_bytes)}</td></tr>`).join("");
  return `<table class="obs-table"><thead><tr><th>broker</th><th>state</th><th>listener</th><th>rack</th><th>log dir</th><th>usable</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * observedPartsHTML is a row a partition: leader, epoch, replicas, ISR,
 * the leader's offsets and each replica's own log end.
 * @param {any} s
 */
export function observedPartsHTML(s) {
  const rows = (s.partitions || []).map((/** @type {any} */ p) => {
    const under = p.leader < 0 ? "obs-offline" : (p.isr || []).length < (p.replicas || []).length ? "obs-under" : "";
    const leos = (p.logs || []).map((/** @type {any} */ l) => `${l.broker}:${o(l.log_end_offset)}`).join(" ");
    return `<tr data-key="p-${esc(p.topic)}-${p.partition}" class="${under}"><td>${esc(p.topic)}</td><td>${p.partition}</td><td>${p.leader < 0 ? "none" : p.leader}</td><td>${p.leader_epoch}</td><td>${ids(p.replicas)}</td><td>${ids(p.isr)}</td><td>${o(p.log_start_offset)}</td><td>${o(p.high_watermark)}</td><td>${o(p.last_stable_offset)}</td><td>${leos}</td></tr>`;
  }).join("");
  return `<table class="obs-table"><thead><tr><th>topic</th><th>partition</th><th>leader</th><th>epoch</th><th>replicas</th><th>ISR</th><th>log start</th><th>HW</th><th>LSO</th><th>log end (broker:LEO)</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * observedGroupsHTML is a group: its state, members, and a row a
 * committed offset with its lag.
 * @param {any} s
 */
export function observedGroupsHTML(s) {
  const gs = s.groups || [];
  if (!gs.length) return `<p class="muted">no group listed</p>`;
  return gs.map((/** @type {any} */ g) => `<div data-key="g-${esc(g.name)}"><p><b>${esc(g.name)}</b> · ${esc(g.state || "–")} · coordinator ${g.coordinator} · ${(g.members || []).length} member(s)</p>
    <table class="obs-table"><thead><tr><th>topic</th><th>partition</th><th>committed</th><th>HW</th><th>lag</th><th>member</th></tr></thead><tbody>${(g.offsets || []).map((/** @type {any} */ x) =>
      `<tr><td>${esc(x.topic)}</td><td>${x.partition}</td><td>${o(x.committed)}</td><td>${o(x.log_end_offset)}</td><td>${o(x.lag)}</td><td>${esc(x.member_id || "–")}</td></tr>`).join("")}</tbody></table></div>`).join("");
}

/**
 * observedEventsHTML lists the events, newest first.
 * @param {any[]} evs oldest first
 */
export function observedEventsHTML(evs) {
  return evs.slice().reverse().map((e) => `<li data-key="e-${e.seq}-${esc(e.text).length}">${esc(new Date(e.at).toLocaleTimeString())} ${esc(e.text)}</li>`).join("");
}
