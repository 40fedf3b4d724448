// @ts-check
// The partition table: one row a partition of the page shown, the one
// shown in detail pressed; a topic of thousands of partitions is paged
// (the server sends one page: TableView), and summed up a line a topic.
import {esc} from "../html.js";

/** @typedef {import("../types.js").View} View */
/** @typedef {import("../types.js").PartRow} PartRow */
/** @typedef {import("../types.js").TableView} TableView */
/** @typedef {import("../types.js").TopicSummary} TopicSummary */

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
 * partsHTML draws the partition table: the rows of the page shown.
 * @param {View} v
 */
export function partsHTML(v) {
  // an observed cluster's offsets its brokers did not tell (-1)
  const off = (/** @type {number} */ n) => v.observed && n < 0 ? `<span class="nobs" title="not observed: its broker did not answer">–</span>` : String(n);
  const rows = (v.parts || []).map((p) => {
    const sel = !!v.detail && p.topic === v.detail.topic && p.p === v.detail.p;
    const leader = p.leader < 0 ? `<span class="offline">none</span>` : p.leader;
    const lag = p.lag ? `<span class="cue" title="its slowest replica lacks ${p.lag} record${p.lag === 1 ? "" : "s"} of the leader's log">${p.lag}</span>` : "0";
    return `<tr class="${sel ? "sel" : ""}" data-key="${esc(p.topic)}-${p.p}" data-topic="${esc(p.topic)}" data-partition="${p.p}">
      <td><button type="button" aria-pressed="${sel}" title="show ${esc(p.topic)}-${p.p} in detail">${esc(p.topic)}-${p.p}</button></td><td>${leader}</td><td>${p.epoch}</td><td>${(p.replicas || []).join(",")}</td>
      <td>${(p.isr || []).join(",")}</td><td>${off(p.lso)}</td><td>${off(p.hw)}${frozen(p)}</td><td>${off(p.leo)}</td><td class="num">${lag}</td></tr>`;
  });
  const t = v.table;
  if (!rows.length && t && t.total > 0) {
    rows.push(`<tr data-key="none"><td colspan="9" class="muted">No partition of the ${t.total} matches: change or clear the filters above.</td></tr>`);
  }
  return `<thead><tr><th scope="col">partition</th><th scope="col">leader</th><th scope="col">epoch</th><th scope="col">replicas</th><th scope="col">ISR</th><th scope="col">log start</th><th scope="col">HW</th><th scope="col">LEO</th>` +
    `<th scope="col" class="num" title="records the slowest replica lacks of the leader's log">lag</th></tr></thead><tbody>${rows.join("")}</tbody>`;
}

/**
 * paged says whether the table needs its tools: more partitions than a
 * page holds, or a filter or an order chosen.
 * @param {TableView | undefined} t
 */
export function paged(t) {
  return !!t && (t.total > t.rows || !!t.topic || !!t.status || !!t.leader || !!t.sort);
}

/**
 * count writes n with thousands separated: 10,000.
 * @param {number} n
 */
function count(n) {
  return n.toLocaleString("en-US");
}

/**
 * topicsHTML sums up the topics a line each: partitions, and those in
 * trouble; the button of each shows its partitions only.
 * @param {TableView} t
 */
export function topicsHTML(t) {
  const line = (/** @type {TopicSummary} */ s) => {
    const trouble = [];
    if (s.unavailable) trouble.push(`<span class="offline">${count(s.unavailable)} unavailable</span>`);
    if (s.urp) trouble.push(`<span class="cue">${count(s.urp)} under-replicated</span>`);
    if (s.under_min_isr) trouble.push(`${count(s.under_min_isr)} under min ISR`);
    if (s.lag) trouble.push(`lag up to ${count(s.lag)}`);
    const only = t.topic === s.topic;
    return `<li data-key="t-${esc(s.topic)}"><button type="button" data-table-topic="${only ? "" : esc(s.topic)}" aria-pressed="${only}" title="${only ? "show every topic's partitions" : `show ${esc(s.topic)}'s partitions only`}">${esc(s.topic)}</button>` +
      ` <span class="muted">${count(s.n)} partition${s.n === 1 ? "" : "s"} · ${count(s.records)} record${s.records === 1 ? "" : "s"}</span>${trouble.length ? " · " + trouble.join(" · ") : ""}</li>`;
  };
  let h = `<ul class="topic-sums">${(t.topics || []).map(line).join("")}</ul>`;
  if (t.topics_hidden) h += `<p class="muted">and ${count(t.topics_hidden)} more topic${t.topics_hidden === 1 ? "" : "s"}: type a name to find one</p>`;
  return h;
}

/**
 * pageText says which rows of how many the table shows.
 * @param {TableView} t
 */
export function pageText(t) {
  if (!t.matching) return `no partition of ${count(t.total)} matches`;
  const from = t.page * t.rows + 1, to = Math.min(t.matching, (t.page + 1) * t.rows);
  const of = t.matching === t.total ? `${count(t.total)} partitions` : `${count(t.matching)} matching of ${count(t.total)}`;
  return `${count(from)}–${count(to)} of ${of} · page ${count(t.page + 1)} of ${count(t.pages)}`;
}
