// @ts-check
// The panels of the shared page where it shows a real cluster observed
// from outside (kafkalive observe --addr; View.observed is set): the
// brokers as a client sees them, each replica's log as offsets and bytes
// (its records are never read), the metadata quorum, the partition's
// producers and configs, and what the observer cannot see. A figure the
// cluster did not tell (-1) is printed "not observed", never a number.
// Nothing here offers an action.
import {bytes, esc} from "../html.js";

/** @typedef {import("../types.js").View} View */
/** @typedef {import("../types.js").DetailView} DetailView */
/** @typedef {import("../types.js").ObservedView} ObservedView */

/** NotObserved is the value of a figure the cluster did not tell. */
export const NotObserved = -1;

/**
 * nobs prints n with fmt, or "not observed" when the cluster did not tell
 * it.
 * @param {number | null | undefined} n
 * @param {(n: number) => string} [fmt]
 */
export function nobs(n, fmt = String) {
  return n == null || n < 0 ? `<span class="nobs" title="not observed: the cluster does not tell it to a client">not observed</span>` : fmt(n);
}

/** @type {Record<string, string>} */
export const observedStateText = {up: "Up", unreachable: "Unreachable", fenced: "Fenced", down: "Down"};

/**
 * observedClock is the header's clock: the sample shown and its time.
 * @param {ObservedView} o
 */
export function observedClock(o) {
  return `sample ${o.seq} · ${new Date(o.at).toLocaleTimeString()}`;
}

/**
 * observedBannerHTML says what the page shows and why nothing on it acts:
 * the cluster, the sample and what its poll cost, what the cluster did
 * not answer, and what no observer can see.
 * @param {ObservedView} o
 * @param {boolean} past
 */
export function observedBannerHTML(o, past) {
  const unanswered = (o.unanswered || []).length ?
    `<p class="offline" data-key="unanswered">Not answered in this poll: ${(o.unanswered || []).map(esc).join("; ")}</p>` : "";
  return `<p data-key="what"><b>Your cluster, observed</b>${o.cluster_id ? ` (cluster ${esc(o.cluster_id)})` : ""}: sample ${o.seq} of ${o.first}–${o.last}${past ? " (the past)" : ""},
    polled with ${o.requests} request${o.requests === 1 ? "" : "s"} in ${o.took_ms.toFixed(1)} ms.</p>
    <p data-key="ro" class="ro">${esc(o.read_only)}</p>${unanswered}
    <details data-key="nobs"><summary>What an observer cannot see (shown as "not observed")</summary><ul>${(o.not_observable || []).map((u) => `<li>${esc(u)}</li>`).join("")}</ul></details>`;
}

/**
 * quorumNote is the metadata quorum in a line: its leader, epoch, high
 * watermark and each voter's log end offset.
 * @param {ObservedView} o
 */
export function quorumNote(o) {
  const q = o.quorum;
  if (!q) return `metadata quorum: <span class="nobs">not observed</span>`;
  const voters = (q.voters || []).map((r) => `${r.id}${r.id === q.leader_id ? " (leader)" : ""} LEO ${nobs(r.leo)}`).join(", ");
  return `metadata quorum: leader ${q.leader_id}, epoch ${q.leader_epoch}, high watermark ${q.high_watermark} · voters ${voters}` +
    ((q.observers || []).length ? ` · observers ${(q.observers || []).map((r) => r.id).join(", ")}` : "");
}

/**
 * observedBrokersHTML draws every broker's card as a client sees it: its
 * state (listed, fenced, gone, or not answering), listener, rack, log dir,
 * the bytes of its replicas and its volume; its page cache and traffic are
 * not observed. No card has a button.
 * @param {View} v
 */
export function observedBrokersHTML(v) {
  return (v.brokers || []).map((b) => `<div class="broker" data-key="b${b.id}" data-broker="${b.id}" data-state="${esc(b.state)}">
      <div class="top"><span class="name">Broker ${b.id}</span>
        ${v.controller === b.id ? `<span class="ctl-badge" title="the broker the cluster names its controller">Controller</span>` : ""}
        <span class="state obs-${esc(b.state)}">${observedStateText[b.state] || esc(b.state)}</span>
        ${b.ctl !== "unfenced" ? `<span class="muted ctlview" title="the controller's view of this broker: ${esc(b.ctl)}">${esc(b.ctl)}</span>` : ""}</div>
      <div class="obs-where muted">${esc(b.listener || "no listener")}${b.rack ? ` · rack ${esc(b.rack)}` : ""}${b.log_dir ? ` · ${esc(b.log_dir)}` : ""}</div>
      <dl class="figs">
        <div class="big" title="the bytes of its replicas' logs, as DescribeLogDirs tells them"><dt>Logs</dt><dd>${nobs(b.disk, bytes)}</dd></div>
        <div title="its volume's free space (DescribeLogDirs v4)${b.disk_cap ? ` of ${bytes(b.disk_cap)}` : ""}"><dt>Free</dt><dd>${nobs(b.free ?? NotObserved, bytes)}</dd></div></dl>
      <div class="obs-nobs">Page cache, traffic, fetches: ${nobs(b.cache)}</div>
    </div>`).join("");
}

/**
 * observedMetaHTML lists the partition's figures as the cluster told
 * them, with the topic's configs that are not the defaults.
 * @param {DetailView} d
 * @param {ObservedView} o
 */
export function observedMetaHTML(d, o) {
  const elr = (/** @type {number[] | null | undefined} */ xs) => o.elr_observed ? ((xs || []).join(", ") || "none") : nobs(NotObserved);
  /** @type {Array<[string, string | number]>} */
  const meta = [["Leader", d.leader < 0 ? "none" : d.leader], ["Leader epoch", d.epoch], ["Replicas", (d.replicas || []).join(", ")],
    ["In-sync replicas", (d.isr || []).join(", ") || "—"], ["Eligible leader replicas", elr(d.elr)], ["Last known leader", elr(d.last_known_elr)],
    ["Log start offset", nobs(d.lso)], ["High watermark", nobs(d.hw)], ["Last stable offset", nobs(d.stable ?? NotObserved)],
    ["Log end offset (leader)", nobs(d.leo)]];
  const cfgs = (o.configs || []).map((c) => `${esc(c.name)}=${esc(c.value)}`).join(", ");
  meta.push(["Configs (not defaults)", o.configs ? cfgs || "all defaults" : nobs(NotObserved)]);
  return meta.map(([k, val]) => `<div><dt>${k}</dt><dd>${val}</dd></div>`).join("");
}

/**
 * observedTracksHTML draws each replica's log as the offsets the cluster
 * told: a bar from the leader's log start offset to the replica's own log
 * end offset, the high watermark marked on the leader's, and the bytes of
 * its segments. Its records are not drawn: an observer sends no Fetch, and
 * a follower's records between the high watermark and its log end are
 * counted, never seen.
 * @param {DetailView} d
 */
export function observedTracksHTML(d) {
  const logs = d.logs || [];
  const lo = Math.max(0, d.lso);
  let hi = lo + 1;
  for (const l of logs) hi = Math.max(hi, l.leo, l.hw);
  const pct = (/** @type {number} */ n) => `${(100 * (Math.max(lo, n) - lo) / (hi - lo)).toFixed(2)}%`;
  let h = `<p class="muted nobs-note" data-key="note">Records not observed: an observer counts each replica's offsets and bytes, it never reads them (no Fetch). Offsets ${lo} to ${hi}.</p>`;
  for (const l of logs) {
    const role = l.role === "leader" ? "L" : l.role === "follower" ? "F" : l.role;
    const behind = d.leo >= 0 && l.leo >= 0 && l.role !== "leader" && d.leo > l.leo ? ` · ${d.leo - l.leo} behind the leader` : "";
    h += `<div class="logrow obs-log" data-key="l${l.b}" data-log="${l.b}" data-role="${esc(l.role)}" data-in-isr="${l.inIsr}">
      <div class="who"><span class="${l.inIsr ? "" : "out"}">b${l.b}</span><span class="role ${esc(l.role)}">${esc(role)}</span>${l.inIsr ? "" : `<span class="role outisr" title="out of the ISR">×</span>`}
        <span class="sub">${nobs(l.bytes ?? NotObserved, bytes)}</span></div>
      <div class="obs-track">${l.leo >= 0 ? `<div class="obs-fill" style="width:${pct(l.leo)}"></div>` : ""}
        ${l.role === "leader" && l.hw >= 0 ? `<div class="hwline" style="left:${pct(l.hw)}" title="high watermark ${l.hw}"></div>` : ""}
        <span class="obs-label">LEO ${nobs(l.leo)}${l.role === "leader" ? ` · HW ${nobs(l.hw)}` : ` · own HW ${nobs(NotObserved)}`}${behind}</span></div>
    </div>`;
  }
  return h;
}

/**
 * observedProducersHTML lists the producers with state on the partition
 * shown, as its leader's DescribeProducers told them at sample
 * producers_seq (the observer asks a bounded number of partitions a poll,
 * in turn).
 * @param {ObservedView} o
 */
export function observedProducersHTML(o) {
  if (!o.producers_seq) return `<p class="muted" data-key="prod">Producers: <span class="nobs">not observed yet</span> (DescribeProducers asks a few partitions a poll, in turn).</p>`;
  const rows = (o.producers || []).map((p) => `<tr data-key="p${p.producer_id}"><td>${p.producer_id}</td><td>${p.producer_epoch}</td><td>${p.last_sequence}</td>
    <td>${p.last_timestamp < 0 ? "—" : esc(new Date(p.last_timestamp).toLocaleTimeString())}</td><td>${p.current_txn_start_offset < 0 ? "none" : p.current_txn_start_offset}</td></tr>`).join("");
  return `<h3 data-key="prodh">Producers on this partition <small class="muted">as of sample ${o.producers_seq}</small></h3>` +
    (rows ? `<table class="grid" data-key="prod"><thead><tr><th scope="col">producer id</th><th scope="col">epoch</th><th scope="col">last sequence</th><th scope="col">last write</th><th scope="col">open transaction from</th></tr></thead><tbody>${rows}</tbody></table>` :
      `<p class="muted" data-key="prod">none with state on it</p>`);
}

/**
 * lagChartSVG draws a lag over time, one point a sample (times in ms on
 * the timeline, lags -1 where a poll could not tell it: a gap), as a small
 * line chart scaled to its largest value.
 * @param {number[] | null | undefined} times
 * @param {number[] | null | undefined} lags
 * @param {string} label what the lag is of
 */
export function lagChartSVG(times, lags, label) {
  const t = times || [], l = lags || [];
  if (t.length < 2 || l.length !== t.length) return "";
  const w = 120, h = 24, t0 = t[0], span = Math.max(1, t[t.length - 1] - t0);
  const top = Math.max(1, ...l);
  /** @type {string[]} */
  const paths = [];
  let cur = "";
  l.forEach((v, i) => {
    if (v < 0) { if (cur) paths.push(cur); cur = ""; return; }
    const x = (w * (t[i] - t0) / span).toFixed(1), y = (h - 1 - (h - 2) * v / top).toFixed(1);
    cur += `${cur ? "L" : "M"}${x} ${y}`;
  });
  if (cur) paths.push(cur);
  const last = l[l.length - 1];
  const title = `${label}: ${last < 0 ? "not observed" : last} now, at most ${Math.max(0, ...l)} over the last ${Math.round(span / 1000)} s`;
  return `<svg class="lagchart" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>${paths.map((d) => `<path d="${d}"/>`).join("")}</svg>`;
}
