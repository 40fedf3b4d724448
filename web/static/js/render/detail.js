// @ts-check
// The partition shown in detail: its figures, every replica's track of
// records with the high watermark and log end lines, and each replica's
// segment files.
import {bytes, cellText, esc, hue} from "../html.js";
import {frozen} from "./partitions.js";

/** @typedef {import("../types.js").DetailView} DetailView */
/** @typedef {import("../types.js").LogView} LogView */

/**
 * A Selected record is the one whose journey is shown.
 * @typedef {object} Selected
 * @property {string} topic
 * @property {number} p
 * @property {number} offset
 * @property {string} value
 */

/**
 * metaHTML lists the partition's figures.
 * @param {DetailView} d
 */
export function metaHTML(d) {
  /** @type {Array<[string, string | number]>} */
  const meta = [["Leader", d.leader < 0 ? "none" : d.leader], ["Leader epoch", d.epoch], ["Replicas", (d.replicas || []).join(", ")],
    ["In-sync replicas", (d.isr || []).join(", ") || "—"]];
  // Kafka 4's eligible leader replicas (KIP-966): shown while there are any
  if (d.elr) meta.push(["Eligible leader replicas", d.elr.join(", ")]);
  if (d.last_known_elr) meta.push(["Last known leader", d.last_known_elr.join(", ")]);
  meta.push(["Log start offset", d.lso], ["High watermark", `${d.hw}${frozen(d)}`], ["Log end offset", d.leo]);
  if (d.stable != null) meta.push(["Last stable offset", stableText(d)]);
  return meta.map(([k, val]) => `<div><dt>${k}</dt><dd>${val}</dd></div>`).join("");
}

/**
 * stableText says where read_committed consumers stop, and why when it is
 * below the high watermark: the earliest transaction still open.
 * @param {DetailView} d
 */
export function stableText(d) {
  const open = d.open_txns || [];
  if (!open.length) return `${d.stable}`;
  const first = open[0];
  return `${d.stable} (read_committed waits: producer ${first.producer_id}'s transaction is open from offset ${first.first_offset}${open.length > 1 ? `, ${open.length - 1} more open` : ""})`;
}

/** @typedef {import("../types.js").RecordView} RecordView */

/**
 * txnNote says what read_committed does with a record of a transaction
 * ("" for a record of none).
 * @param {RecordView} r
 */
export function txnNote(r) {
  switch (r.t) {
    case "committed": return ` · producer ${r.pid}'s transaction committed: read_committed consumers get it`;
    case "aborted": return ` · producer ${r.pid}'s transaction aborted: it stays in the log, read_committed consumers skip it (the .txnindex lists the transaction)`;
    case "open": return ` · producer ${r.pid}'s transaction is open: read_committed consumers wait at the last stable offset until its marker`;
  }
  return "";
}

/**
 * markerTitle describes a transaction marker (a control record).
 * @param {RecordView} r
 */
export function markerTitle(r) {
  const ends = r.m === "COMMIT" ? "commits" : "aborts";
  return `offset ${r.o}: ${r.m} marker (a control record) that ${ends} producer ${r.pid}'s transaction, leader epoch ${r.e}; ` +
    `it takes an offset but no consumer is ever handed it, so a read_committed group's committed offset stops before it and its lag stays at 1`;
}

/**
 * roleLabel names a replica's part as the segment-file blocks say it, and
 * its class.
 * @param {LogView} l
 * @returns {[string, string]}
 */
export function roleLabel(l) {
  if (l.role === "leader") return ["Leader", "leader"];
  if (l.role === "down") return [l.inIsr ? "Down (still in the ISR)" : "Down, out of ISR", "down"];
  return l.inIsr ? ["ISR", "follower"] : ["out of ISR", "outisr"];
}

/**
 * firstOffset is the lowest offset any replica's records in the view
 * start at (Infinity when none carries records).
 * @param {DetailView} d
 */
export function firstOffset(d) {
  let first = Infinity;
  for (const l of d.logs || []) if (l.recs && l.recs.length) first = Math.min(first, l.recs[0].o);
  return first;
}

/**
 * tracksView draws every replica's records: as many offsets as room
 * cells, newest last; a chosen record stays in view while the view
 * carries it. mine names the learner's part that encoded the batches ("":
 * the reference). held, while the pointer is over the records, is the
 * first offset drawn before: the records stay where they are under the
 * pointer instead of sliding left as new ones arrive. producers are the
 * names of the producers, whose records' cells show their numbers.
 * @param {DetailView} d
 * @param {{room: number, cell: number, selected: Selected | null, mine: string, held?: number | null, producers?: string[]}} o
 * @returns {{html: string, lo: number}}
 */
export function tracksView(d, {room, cell, selected: s, mine, held = null, producers = []}) {
  const logs = d.logs || [];
  let hi = 0;
  for (const l of logs) hi = Math.max(hi, l.leo);
  const first = firstOffset(d);
  let lo = Math.max(0, hi - room + 1);
  let pinned = false;
  if (s && s.topic === d.topic && s.p === d.p && s.offset < lo && s.offset >= first) {
    lo = Math.max(0, s.offset - 1);
    pinned = true;
  }
  let still = false;
  if (held !== null && held < lo && held >= first && !pinned) {
    lo = held;
    still = true;
  }
  const top = lo + room - 1;
  const width = room * cell;
  const leader = logs.find((l) => l.role === "leader");
  /** @param {number} o */
  const x = (o) => (o - lo) * cell;
  let h = `<div class="axis" style="width:${width}px">`;
  for (let o = Math.ceil(lo / 5) * 5; o <= top; o += 5) h += `<span data-key="a${o}" style="left:${x(o)}px">${o}</span>`;
  h += `</div>`;
  for (const l of logs) {
    const [label] = roleLabel(l);
    h += `<div class="logrow" data-key="l${l.b}" data-log="${l.b}" data-role="${l.role}" data-in-isr="${l.inIsr}">
      <div class="who"><span class="${l.inIsr ? "" : "out"}">b${l.b}</span><span class="role ${l.role}" title="${esc(label)}">${l.role === "leader" ? "L" : l.role === "follower" ? "F" : l.role}</span>${l.inIsr ? "" : `<span class="role outisr" title="out of the ISR">×</span>`}
        <span class="sub">${l.count} record${l.count === 1 ? "" : "s"}</span></div>
      <div class="track" style="width:${width}px">`;
    for (const r of l.recs || []) {
      if (r.o < lo || r.o > top) continue;
      const hh = hue(r.k);
      const cls = ["rec", hh === null ? "nokey" : "", r.c ? "cached" : "", r.x ? "differs" : "", mine ? "mark-yours" : "",
        r.m ? `marker ${r.m.toLowerCase()}` : "", r.t ? `txn-${r.t}` : "",
        s && s.topic === d.topic && s.p === d.p && s.offset === r.o && s.value === r.v ? "sel" : ""].filter(Boolean).join(" ");
      const title = r.m ? markerTitle(r) + `${r.c ? " (page cache only)" : ""}${r.x ? " (differs from the leader)" : ""}`
        : `offset ${r.o}${r.k ? ` key ${r.k}` : " no key"} value ${r.v} leader epoch ${r.e}${txnNote(r)}${r.c ? " (page cache only)" : ""}${r.x ? " (differs from the leader)" : ""}${mine ? ` (its batch encoded by your code, ${mine})` : ""}`;
      h += `<button type="button" data-key="r${r.o}" class="${cls}" style="left:${x(r.o)}px;--h:${hh ?? 0}" data-offset="${r.o}" data-value="${esc(r.v)}" title="${esc(title)}"><span class="o">${r.o}${r.e >= 0 ? `<small> e${r.e}</small>` : ""}</span><span class="v">${esc(r.m || cellText(r.v, producers))}</span><span class="sr">: ${esc(title)}</span></button>`;
    }
    /** @param {string} cls @param {number} o @param {string} title */
    const line = (cls, o, title) => o >= lo && o <= top + 1 ? `<div data-key="${cls}" class="${cls}" style="left:${x(o) - 1}px" title="${title}"></div>` : "";
    if (l.role === "leader" && d.stable != null && d.stable < l.hw) {
      h += line("lsoline", d.stable, `last stable offset ${d.stable}: read_committed consumers read up to here`);
    }
    if (l.role === "leader" || !leader) {
      h += line("hwline", l.hw, `high watermark ${l.hw}`);
    } else {
      h += line("hwline lead", leader.hw, `the leader's high watermark ${leader.hw}`);
      h += line("hwline own", l.hw, `b${l.b}'s own high watermark ${l.hw}`);
    }
    h += line("leoline", l.leo, `log end offset ${l.leo}`);
    h += `</div></div>`;
  }
  const lost = (d.lost || []).filter((r) => r.o >= lo && r.o <= top);
  if (lost.length) {
    // acknowledged to a producer, then lost: drawn where they were, as
    // ghosts, on a row of their own
    h += `<div class="logrow lostrow" data-key="lost" data-log="lost"><div class="who"><span>lost</span><span class="sub">acked, then gone</span></div><div class="track" style="width:${width}px">`;
    for (const r of lost) {
      const title = `offset ${r.o} value ${r.v}: acknowledged to producer ${r.producer}, then lost (the partition no longer holds it)`;
      h += `<button type="button" data-key="g${r.o}-${esc(r.v)}" class="${["rec ghost", s && s.topic === d.topic && s.p === d.p && s.offset === r.o && s.value === r.v ? "sel" : ""].filter(Boolean).join(" ")}" style="left:${x(r.o)}px" data-offset="${r.o}" data-value="${esc(r.v)}" title="${esc(title)}"><span class="o">${r.o} <small>lost</small></span><span class="v">${esc(cellText(r.v, producers))}</span><span class="sr">: ${esc(title)}</span></button>`;
    }
    h += `</div></div>`;
  }
  if (pinned && s && hi > top) {
    h += `<p class="newer">${hi - top} newer offset${hi - top === 1 ? "" : "s"} to the right, not drawn while offset ${s.offset} is chosen. <button type="button" data-unselect>show the newest</button></p>`;
  } else if (still && hi > top) {
    h += `<p class="newer">${hi - top} newer offset${hi - top === 1 ? "" : "s"} to the right: the records hold still while the pointer is over them.</p>`;
  }
  return {html: h, lo};
}

/**
 * tracksHTML is tracksView's HTML.
 * @param {DetailView} d
 * @param {{room: number, cell: number, selected: Selected | null, mine: string, held?: number | null, producers?: string[]}} o
 */
export function tracksHTML(d, o) {
  return tracksView(d, o).html;
}

/** Kafka 4's smallest segment.bytes (KIP-1030; LogConfig in 4.0). */
export const KAFKA4_MIN_SEGMENT_BYTES = 1048576;

/**
 * segmentNote says at what size the topic's segments roll, and, below
 * Kafka 4's floor, that this world allows it so that segments roll in
 * view.
 * @param {DetailView} d
 */
export function segmentNote(d) {
  const n = d.segment_bytes;
  if (!n) return "";
  const small = n < KAFKA4_MIN_SEGMENT_BYTES ? ` Kafka 4 refuses segment.bytes below 1 MiB (KIP-1030); this world allows smaller segments so that you can watch them roll.` : "";
  return `<p class="segnote" data-key="segnote">Segments roll at segment.bytes = ${bytes(n)}.${small}</p>`;
}

/**
 * segfilesHTML draws each replica's segment files: its role, its own high
 * watermark, and each segment's .log with its records and bytes and its
 * .index and .timeindex. mine names the learner's part that recovers
 * them ("": the reference).
 * @param {DetailView} d
 * @param {string} mine
 */
export function segfilesHTML(d, mine) {
  return segmentNote(d) + (d.logs || []).map((l) => {
    const [label, cls] = roleLabel(l);
    const segs = (l.segs || []).map((g) => `<li data-key="${esc(g.file)}"${mine ? ` class="mark-yours"` : ""} title="${g.active ? "the active segment: appends go here" : "a rolled segment: it never changes"}${mine ? ` (recovered at every start of broker ${l.b} by your code, ${mine})` : ""}">
        <span class="f">${esc(g.file)}</span><span>${g.n < 0 ? "records read back when it starts" : `${g.n} record${g.n === 1 ? "" : "s"}`}</span><span>${bytes(g.size)}</span>
        <span class="idx">.index ${bytes(g.idx)}</span><span class="idx">.timeindex ${bytes(g.tidx)}</span>${g.active ? `<span class="idx">active</span>` : ""}</li>`).join("");
    return `<div class="segbox" data-key="s${l.b}" data-segfiles="${l.b}">
      <h3>Segment files on broker ${l.b} <span class="role ${cls}">${esc(label)}</span></h3>
      <div class="ownhw">${l.role === "leader" ? `HW ${l.hw}` : `own HW ${l.hw}`} · LEO ${l.leo}</div>
      <ul>${segs || `<li>no files</li>`}</ul></div>`;
  }).join("");
}
