// @ts-check
// The consumer groups: state, generation, members with their partitions
// and rates, the committed offsets and lag, and the simple consumers. A
// group of the consumer group protocol (KIP-848) shows its group epoch and
// target assignment epoch, and each member its epoch and the partitions it
// waits for or must give up.
import {esc} from "../html.js";
import {lagChartSVG} from "./observed.js";

/** @typedef {import("../types.js").PartitionRef} PartitionRef */

/**
 * names lists partitions, and how many more the update left out.
 * @param {Array<PartitionRef> | null | undefined} ps
 * @param {number} [hidden]
 */
function names(ps, hidden = 0) {
  return (ps || []).map((p) => `${esc(p.topic)}-${p.partition}`).join(", ") + (hidden ? ` and ${hidden} more` : "");
}

/**
 * epochsHTML is what a consumer-protocol member is on its way to: its
 * epoch, the partitions it waits for (others still own them) and those it
 * must give up first.
 * @param {import("../types.js").MemberView} m
 */
function epochsHTML(m) {
  let h = `<span class="muted epoch" title="its member epoch: the target assignment epoch it has reached">epoch ${m.member_epoch ?? 0}</span>`;
  if (m.revoking && m.revoking.length) h += ` <span class="cue revoking" title="no longer in its target: it commits and gives them up, then says so in its next heartbeat">gives up ${names(m.revoking, m.revoking_hidden)}</span>`;
  if (m.pending && m.pending.length) h += ` <span class="cue pending" title="in its target, but another member still owns them: they come at its next heartbeat after they are released">waits for ${names(m.pending, m.pending_hidden)}</span>`;
  return h;
}

/** @typedef {import("../types.js").View} View */

/**
 * groupsHTML draws the groups. rateOf gives a member's measured rate ("" in
 * the past, where the page measured none); lagGrows says whether a
 * partition's lag has grown over the last few seconds.
 * @param {View} v
 * @param {(name: string) => string} rateOf
 * @param {(group: string, topic: string, partition: number) => boolean} [lagGrows]
 */
export function groupsHTML(v, rateOf, lagGrows = () => false) {
  // an observed cluster's groups: no button, members as the coordinator
  // describes them, the lag over time drawn
  const obs = !!v.observed;
  const consumers = v.consumers || [];
  const byName = Object.fromEntries(consumers.map((c) => [c.name, c]));
  let h = "";
  if (!v.groups || !v.groups.length) h += `<p class="muted">No consumer groups.</p>`;
  for (const g of v.groups || []) {
    const topics = [...new Set((g.offsets || []).map((o) => o.topic))];
    let n = (g.members || []).length + 1;
    while (byName[`${g.name}-${n}`]) n++;
    const kip848 = g.group_protocol === "consumer";
    const add = topics.length && !obs ? `<button type="button" data-cmd="add-consumer ${esc(g.name)}-${n} --group ${esc(g.name)} --topics ${esc(topics.join(","))}${kip848 ? " --protocol consumer" : ""}">add a member</button>` : "";
    const stable = g.state === "Stable";
    const gen = kip848 ?
      `<span title="the consumer group protocol (KIP-848): the broker assigns, each member moves to its target on its own heartbeats">KIP-848</span> · epoch ${g.generation} · target epoch ${g.assignment_epoch ?? 0}` :
      g.generation < 0 ? `<span title="DescribeGroups does not tell a group's generation">generation not observed</span>` : `gen ${g.generation}`;
    h += `<div class="group" data-key="g-${esc(g.name)}" data-group="${esc(g.name)}">
      <div class="top"><b>${esc(g.name)}</b> <span class="state ${stable ? "running" : "crashed"}">${stable ? "Stable" : g.state === "PreparingRebalance" || g.state === "CompletingRebalance" ? "Rebalancing" : esc(g.state)}</span>
        <span class="muted">${gen} · ${esc(g.assignor || g.protocol)} · coordinator ${g.coordinator < 0 ? "none" : "b" + g.coordinator}</span></div>`;
    for (const m of g.members || []) {
      const c = byName[m.client_id];
      const parts = names(m.partitions, m.partitions_hidden);
      const idle = `<span class="${parts ? "" : "muted"}">${parts || "No partitions (" + (m.idle ? esc(m.idle) : "more members than partitions, or rebalancing") + ")"}</span>` +
        (kip848 ? " " + epochsHTML(m) : "");
      if (obs) {
        h += `<div class="member external" data-key="m-${esc(m.id)}" data-member="${esc(m.client_id)}"><b>${esc(m.client_id)}</b>
          <span class="muted" title="member id ${esc(m.id)}">member${m.host ? " at " + esc(m.host.replace(/^\//, "")) : ""}</span> ${idle}</div>`;
        continue;
      }
      if (!c) { // a Kafka client of the user's own, joined over the wire: the page cannot remove it
        h += `<div class="member external" data-key="m-${esc(m.id)}" data-member="${esc(m.client_id)}"><b>${esc(m.client_id)}</b>
          <span class="muted" title="a Kafka client connected to the brokers' listeners">your client${m.host ? " at " + esc(m.host.replace(/^\//, "")) : ""}</span> ${idle}</div>`;
        continue;
      }
      // a crashed process is still a member until its session expires:
      // the coordinator does not know yet
      const crashed = c.status === "crashed";
      h += `<div class="member${crashed ? " crashed" : ""}" data-key="m-${esc(m.client_id)}" data-member="${esc(m.client_id)}" data-status="${esc(c.status || "running")}"><b>${esc(m.client_id)}</b>
        ${crashed ? `<span class="state crashed" title="its process crashed: the coordinator counts it a member, and its partitions wait, until session.timeout.ms passes without a heartbeat">crashed, still a member</span>` :
          `<span class="rate" title="records it processed per simulated second, over the last few seconds">${parts ? rateOf(m.client_id) : ""}</span>`}
        ${idle}
        <span class="muted">${c.processed ?? 0} processed${c.duplicates ? `, ${c.duplicates} twice` : ""}</span>${isolationHTML(c)}
        <button type="button" data-cmd="remove-consumer ${esc(m.client_id)}" title="close it cleanly: it leaves the group">remove</button></div>`;
    }
    const lag = (g.offsets || []).map((o) => {
      const start = o.lso;
      // retention deleted records the group never read
      const deleted = o.committed >= 0 && start >= 0 && o.committed < start ?
        ` <span class="cue" title="retention deleted offsets ${o.committed} to ${start - 1} before the group read them: its next fetch is out of range">${start - o.committed} deleted unread</span>` : "";
      const grows = o.lag > 0 && lagGrows(g.name, o.topic, o.partition) ? ` <span class="cue" title="the lag has grown over the last few seconds: the group reads slower than the producers write">growing</span>` : "";
      const chart = obs ? `<td class="chart">${lagChartSVG(g.lag_t, o.lags, `the lag of ${g.name} on ${o.topic}-${o.partition}`)}</td>` : "";
      return `<tr data-key="o-${esc(o.topic)}-${o.partition}"><td>${esc(o.topic)}-${o.partition}</td><td class="num">${o.committed < 0 ? "-" : o.committed}</td><td class="num">${o.lag < 0 ? "-" : o.lag}${grows}${deleted}</td>${chart}</tr>`;
    });
    if (g.offsets_hidden) {
      lag.push(`<tr data-key="o-hidden"><td colspan="2" class="muted">and ${g.offsets_hidden} more partition${g.offsets_hidden === 1 ? "" : "s"} (kafka-consumer-groups --describe lists them all)</td><td class="num">${g.hidden_lag || 0}</td>${obs ? "<td></td>" : ""}</tr>`);
    }
    if (obs && g.lags && g.lags.length > 1) {
      h += `<div class="lagtotal" data-key="lagtotal">lag over time ${lagChartSVG(g.lag_t, g.lags, `the lag of ${g.name}, all its partitions`)}</div>`;
    }
    if (lag.length) h += `<table class="grid lag"><thead><tr><th scope="col">partition</th><th scope="col" class="num">committed</th><th scope="col" class="num">lag</th>${obs ? `<th scope="col">over time</th>` : ""}</tr></thead><tbody>${lag.join("")}</tbody></table>`;
    h += `<div class="gacts">${add}</div></div>`;
  }
  if (v.groups_hidden) h += `<p class="muted">and ${v.groups_hidden} more group${v.groups_hidden === 1 ? "" : "s"} without members (kafka-consumer-groups --list lists them all)</p>`;
  const simple = consumers.filter((c) => !c.group);
  if (simple.length) {
    h += `<table class="grid"><thead><tr><th scope="col">consumer</th><th scope="col">partition</th><th scope="col">position</th><th scope="col">read</th></tr></thead><tbody>` +
      simple.map((c) => `<tr data-key="c-${esc(c.name)}"><td>${esc(c.name)}${isolationHTML(c)}</td><td>${esc(c.topic)}-${c.partition}</td><td>${c.position}${waitsHTML(c)}</td><td>${c.read}</td></tr>`).join("") + `</tbody></table>`;
  }
  return h;
}

/** @typedef {import("../types.js").ConsumerView} ConsumerView */

/**
 * isolationHTML badges a read_committed consumer, saying why its lag
 * need not reach zero ("" for read_uncommitted).
 * @param {ConsumerView} c
 */
export function isolationHTML(c) {
  if (c.isolation !== "read_committed") return "";
  const why = "isolation.level=read_committed: it reads up to the last stable offset, skips aborted transactions and is never handed a transaction marker; " +
    "its lag, counted to the high watermark (kafka-consumer-groups --describe asks ListOffsets for the latest offset, read_uncommitted), " +
    "stays above 0 while a transaction is open, and after a marker when the offset it commits is its last record's plus one";
  return ` <span class="iso" title="${esc(why)}">read_committed</span>`;
}

/**
 * waitsHTML says where a read_committed simple consumer waits, when its
 * partition's last stable offset holds it below the high watermark.
 * @param {ConsumerView} c
 */
export function waitsHTML(c) {
  if (c.isolation !== "read_committed" || c.stable == null || c.hw == null || c.stable >= c.hw || c.position < c.stable) return "";
  return ` <span class="cue" title="an open transaction holds the last stable offset at ${c.stable}: read_committed reads nothing from there to the high watermark ${c.hw} until its marker">waits at LSO ${c.stable} (HW ${c.hw})</span>`;
}
