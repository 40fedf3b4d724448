// @ts-check
// Views for the page's unit tests, typed with the JSON types generated from
// the Go structs (static/js/types.js): the type check (tsc -p
// web/jsconfig.json) fails on a field the server no longer sends.

/** @typedef {import("../static/js/types.js").Update} Update */
/** @typedef {import("../static/js/types.js").LogView} LogView */

/**
 * log is one replica's log with records at offsets from..to-1 written by
 * producer "orders-app", keyed by k.
 * @param {number} b
 * @param {string} role
 * @param {number} from
 * @param {number} to
 * @param {number} hw
 * @returns {LogView}
 */
export function log(b, role, from, to, hw) {
  /** @type {LogView["recs"]} */
  const recs = [];
  for (let o = from; o < to; o++) recs.push({o, k: o % 2 ? "alice" : "bob", v: `checkout-${o}`, e: 0, c: o >= hw});
  return {b, role, inIsr: role !== "down", leo: to, hw, first: 0, count: to, recs,
    segs: [{file: "00000000000000000000.log", size: 70 * to, n: to, active: true, idx: 10485760, tidx: 10485756}]};
}

/**
 * update is the live default world, at t=4200 ms, showing orders-0.
 * @returns {Update}
 */
export function update() {
  return {
    t: 4200, now: 4200, start: 0, mode: "live", speed: 1, rules: "v4", controller: 1,
    brokers: [1, 2, 3].map((id) => ({id, state: "running", ctl: "unfenced", disk: 0, cache: 4096, in: 512, out: 1024,
      fetch_reads: 3, fetch_scanned: 1, fetch_scanned_bytes: 70, last_fetch: 5, last_first_batch: 4})),
    parts: [0, 1, 2].map((p) => ({topic: "orders", p, leader: p + 1, epoch: 0, replicas: [1, 2, 3], isr: [1, 2, 3], lso: 0, hw: 6, leo: 7, lag: 0})),
    table: {page: 0, pages: 1, rows: 25, matching: 3, total: 3, topics: [{topic: "orders", n: 3, records: 18}]},
    detail: {topic: "orders", p: 0, leader: 1, epoch: 0, replicas: [1, 2, 3], isr: [1, 2, 3], lso: 0, hw: 6, leo: 7, lag: 0,
      logs: [log(1, "leader", 0, 7, 6), log(2, "follower", 0, 7, 6), log(3, "follower", 0, 6, 6)]},
    producers: [
      {name: "checkout", topic: "orders", rate: 3, acks: "all", keys: ["alice", "bob"], sent: 9, acked: 7, lost_after_ack: 0, sent_no_ack: 0, failed: 0, linger_ms: 5},
      {name: "clicks", topic: "orders", rate: 2, acks: "1", sent: 4, acked: 4, lost_after_ack: 1, sent_no_ack: 0, failed: 0, linger_ms: 5},
      {name: "metrics", topic: "orders", rate: 50, acks: "0", sent: 219, acked: 0, lost_after_ack: 0, sent_no_ack: 219, failed: 0, linger_ms: 5},
      {name: "mirror", topic: "orders", rate: 0, acks: "all", sent: 6, acked: 6, lost_after_ack: 0, sent_no_ack: 0, failed: 0, linger_ms: 5,
        copy: {from: "profiles-0", group: "mirror", position: 5, copied: 4}},
    ],
    consumers: [
      {name: "billing-1", group: "billing", partition: 0, position: 0, read: 0, processed: 12, duplicates: 0},
      {name: "billing-2", group: "billing", partition: 0, position: 0, read: 0, processed: 3, duplicates: 1},
      {name: "tail", topic: "orders", partition: 0, position: 5, read: 5, processed: 0, duplicates: 0},
    ],
    groups: [{name: "billing", state: "Stable", generation: 2, protocol: "eager", assignor: "range", coordinator: 2,
      members: [
        {id: "billing-1-aaaa", client_id: "billing-1", host: "/10.0.0.100", partitions: [{topic: "orders", partition: 0}, {topic: "orders", partition: 1}]},
        {id: "billing-2-bbbb", client_id: "billing-2", host: "/10.0.0.100", partitions: [], idle: "more members than partitions"},
      ],
      offsets: [{topic: "orders", partition: 0, committed: 4, log_end_offset: 6, lag: 2, member: "billing-1-aaaa", lso: 0}]}],
    events: ["t=4100 broker 1: orders-0 HW 5 -> 6", "t=4150 producer checkout: ACK orders-0@6"],
    marks: [{t: 2000, text: "kill 2"}],
    session: {id: 1, step: 0},
  };
}

/**
 * observedUpdate is a real cluster observed from outside, at its fifth
 * sample: what a client cannot see is -1 (not observed), the records are
 * not read, the group's lag is drawn over the samples.
 * @returns {Update}
 */
export function observedUpdate() {
  const v = update();
  v.mode = "observed";
  v.rules = "observed";
  v.producers = [];
  delete v.consumers;
  v.brokers = [1, 2, 3].map((id) => ({id, state: id === 3 ? "down" : "up", ctl: id === 3 ? "unregistered" : "unfenced", disk: id === 3 ? -1 : 2048,
    cache: -1, in: -1, out: -1, fetch_reads: -1, fetch_scanned: -1, fetch_scanned_bytes: -1, last_fetch: -1, last_first_batch: -1,
    listener: `127.0.0.1:909${id + 1}`, log_dir: "/var/lib/kafka", free: -1}));
  v.detail = {topic: "orders", p: 0, leader: 1, epoch: 3, replicas: [1, 2, 3], isr: [1, 2], elr: [3], lso: 0, hw: 6, leo: 9, stable: 6, lag: 4,
    logs: [{b: 1, role: "leader", inIsr: true, leo: 9, hw: 6, first: 0, count: 0, recs: [], bytes: 700},
      {b: 2, role: "follower", inIsr: true, leo: 7, hw: -1, first: -1, count: 0, recs: [], bytes: 560},
      {b: 3, role: "down", inIsr: false, leo: -1, hw: -1, first: -1, count: 0, recs: [], bytes: -1}]};
  const g = /** @type {NonNullable<Update["groups"]>} */ (v.groups)[0];
  g.generation = -1;
  g.lag_t = [1000, 2000, 3000, 4000, 5000];
  g.lags = [0, 2, -1, 5, 2];
  /** @type {NonNullable<typeof g.offsets>} */ (g.offsets)[0].lags = [0, 2, -1, 5, 2];
  v.observed = {cluster_id: "abc", seq: 5, first: 1, last: 5, at: 1765000000000, requests: 23, took_ms: 4.2,
    not_observable: ["the page cache"], read_only: "This page only looks.", elr_observed: true,
    quorum: {leader_id: 1, leader_epoch: 2, high_watermark: 90, voters: [{id: 1, leo: 90}, {id: 2, leo: -1}]},
    configs: [{name: "min.insync.replicas", value: "2", source: "DYNAMIC_TOPIC_CONFIG"}],
    producers: [{producer_id: 4000, producer_epoch: 0, last_sequence: 41, last_timestamp: 1765000000000, coordinator_epoch: -1, current_txn_start_offset: -1}],
    producers_seq: 4};
  return v;
}
