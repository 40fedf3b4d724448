// Each panel's renderer, fed a view typed after the server's JSON: what
// it draws, and nothing undefined.
import assert from "node:assert/strict";
import {test} from "node:test";

import {brokersHTML, controllerNote} from "../static/js/render/brokers.js";
import {clientsHTML} from "../static/js/render/clients.js";
import {metaHTML, segfilesHTML, tracksHTML, tracksView} from "../static/js/render/detail.js";
import {eventsHTML} from "../static/js/render/events.js";
import {groupsHTML} from "../static/js/render/groups.js";
import {journeyHTML} from "../static/js/render/journey.js";
import {learnerHTML, yourPart} from "../static/js/render/learner.js";
import {pageText, paged, partsHTML, topicsHTML} from "../static/js/render/partitions.js";
import {producersHTML} from "../static/js/render/producers.js";
import {listHTML, playHTML} from "../static/js/render/scenarios.js";
import {marksHTML} from "../static/js/render/timeline.js";
import {fragment} from "./fakedom.mjs";
import {update} from "./fixtures.mjs";

/** clean fails when a renderer wrote a value it did not have. */
function clean(html, what) {
  for (const bad of ["undefined", "NaN", "[object Object]", "null"]) {
    assert.ok(!html.includes(bad), `${what} wrote ${bad}:\n${html}`);
  }
  return fragment(html);
}

test("brokers: one card each, with the controller's badge and the buttons", () => {
  const v = update();
  const el = clean(brokersHTML(v), "brokersHTML");
  assert.deepEqual(el.querySelectorAll(".broker").map((b) => b.dataset.broker), ["1", "2", "3"]);
  assert.equal(el.querySelectorAll(".ctl-badge").length, 1);
  assert.ok(el.querySelector('.broker[data-broker="1"] .ctl-badge'));
  assert.deepEqual(el.querySelectorAll('.broker[data-broker="2"] button').map((b) => b.dataset.cmd), ["stop 2", "kill 2", "power-cut 2", "start 2"]);
  assert.equal(controllerNote(v), "controller: broker 1 (KRaft, voters 1-3)");
});

test("brokers: the partitions a broker's cleaner marked uncleanable, on its card only", () => {
  const v = update();
  const brokers = /** @type {NonNullable<typeof v.brokers>} */ (v.brokers);
  brokers[1].uncleanable = ["__consumer_offsets-0", "profiles-1"];
  const el = clean(brokersHTML(v), "brokersHTML");
  assert.deepEqual(el.querySelectorAll(".uncleanable").map((d) => d.textContent), ["Uncleanable__consumer_offsets-0, profiles-1"]);
  assert.ok(el.querySelector('.broker[data-broker="2"] .uncleanable'));
});

test("producers: settings and counts, an acks=0 send never counted acknowledged, a lost write shown", () => {
  const el = clean(producersHTML(update()), "producersHTML");
  const p = el.querySelector('.producer[data-producer="checkout"]');
  assert.match(p.textContent, /3\/s · acks=all · linger.ms=5 · keys alice, bob/);
  assert.match(p.textContent, /sent 9 · acked 7 · failed 0/);
  const clicks = el.querySelector('.producer[data-producer="clicks"]').textContent;
  assert.match(clicks, /no keys \(sticky partitioner\)/);
  assert.match(clicks, /sent 4 · acked 4 · lost after ack 1 · failed 0/);
  const metrics = el.querySelector('.producer[data-producer="metrics"]').textContent;
  assert.match(metrics, /sent 219 · sent without ack 219 · failed 0/);
  assert.doesNotMatch(metrics, /acked/, "acks=0 sends are never counted as acked");
  const mirror = el.querySelector('.producer[data-producer="mirror"]');
  assert.match(mirror.textContent, /profiles-0 → orders/);
  assert.match(mirror.textContent, /copies profiles-0 at read_committed, at offset 5; commits group mirror's offsets in its transactions · 4 copied in committed transactions/);
  assert.deepEqual(mirror.querySelectorAll("button").map((b) => b.dataset.cmd), ["abort-transaction mirror"], "a copier is aborted, never sent to or edited");
});

test("producers: a copier reading its committed offset says so", () => {
  const v = update();
  v.producers = [{name: "mirror", topic: "orders", rate: 0, acks: "all", sent: 0, acked: 0, lost_after_ack: 0, sent_no_ack: 0, failed: 0, linger_ms: 5,
    copy: {from: "profiles-0", group: "g", position: -1, copied: 0}}];
  const el = clean(producersHTML(v), "producersHTML");
  assert.match(el.textContent, /copies profiles-0 at read_committed, reading its committed offset; commits group g's offsets/);
});

test("partitions: a row each, the one in detail pressed", () => {
  const el = clean(partsHTML(update()), "partsHTML");
  assert.deepEqual(el.querySelectorAll("tbody tr").map((r) => r.getAttribute("aria-pressed") ?? r.querySelector("button").getAttribute("aria-pressed")), ["true", "false", "false"]);
});

test("partitions: a table of one page needs no tools; one of many pages is paged and its topics summed up", () => {
  const v = update();
  const t = /** @type {NonNullable<typeof v.table>} */ (v.table);
  assert.equal(paged(t), false, "the default world's table fits a page");
  assert.equal(paged({...t, sort: "lag"}), true, "an order chosen keeps the tools shown");
  const big = {topic: "", page: 3, pages: 80, rows: 25, matching: 2000, total: 2004,
    topics: [{topic: "big", n: 2000, urp: 1200, unavailable: 3, under_min_isr: 5, lag: 4321, records: 10000}, {topic: "orders", n: 3, records: 18}], topics_hidden: 1};
  assert.equal(paged(big), true);
  assert.equal(pageText(big), "76–100 of 2,000 matching of 2,004 · page 4 of 80");
  assert.equal(pageText({...big, matching: 2004, page: 80, pages: 81}), "2,001–2,004 of 2,004 partitions · page 81 of 81");
  assert.equal(pageText({...big, matching: 0, pages: 1, page: 0}), "no partition of 2,004 matches");
  const el = clean(topicsHTML(big), "topicsHTML");
  const lines = el.querySelectorAll("li");
  assert.equal(lines.length, 2);
  assert.match(lines[0].textContent, /big 2,000 partitions · 10,000 records · 3 unavailable · 1,200 under-replicated · 5 under min ISR · lag up to 4,321/);
  assert.equal(lines[0].querySelector("button").dataset.tableTopic, "big");
  assert.match(lines[1].textContent, /orders 3 partitions · 18 records$/);
  assert.match(el.textContent, /and 1 more topic: type a name/);
  const only = fragment(topicsHTML({...big, topic: "big"})).querySelector("li button");
  assert.equal(only.getAttribute("aria-pressed"), "true");
  assert.equal(only.dataset.tableTopic, "", "pressed again, it shows every topic");
  const none = clean(partsHTML({...v, parts: [], table: {...t, matching: 0, total: 3}}), "partsHTML");
  assert.match(none.textContent, /No partition of the 3 matches/);
});

test("partitions: a replica behind shows its lag on the row", () => {
  const v = update();
  const parts = /** @type {NonNullable<typeof v.parts>} */ (v.parts);
  parts[1].lag = 12;
  const el = clean(partsHTML(v), "partsHTML");
  assert.equal(el.querySelector('tr[data-partition="1"] td.num').textContent, "12");
  assert.equal(el.querySelector('tr[data-partition="0"] td.num').textContent, "0");
});

test("groups: a group of many partitions lists some and counts the rest", () => {
  const v = update();
  const g = /** @type {NonNullable<typeof v.groups>} */ (v.groups)[0];
  g.offsets_hidden = 1980;
  g.hidden_lag = 12345;
  const members = /** @type {NonNullable<typeof g.members>} */ (g.members);
  members[0].partitions_hidden = 48;
  const el = clean(groupsHTML(v, () => ""), "groupsHTML");
  assert.match(el.querySelector('tr[data-key="o-hidden"]').textContent, /and 1980 more partitions \(kafka-consumer-groups --describe lists them all\)12345/);
  assert.match(el.querySelector('[data-member="billing-1"]').textContent, /orders-0, orders-1 and 48 more/);
});

test("groups: members, their partitions and rates, lag, and simple consumers", () => {
  const el = clean(groupsHTML(update(), (n) => n === "billing-1" ? "3/s" : ""), "groupsHTML");
  const g = el.querySelector('.group[data-group="billing"]');
  assert.match(g.textContent, /gen 2 · range · coordinator b2/);
  assert.match(g.querySelector('[data-member="billing-1"]').textContent, /3\/s[\s\S]*orders-0, orders-1/);
  assert.match(g.querySelector('[data-member="billing-2"]').textContent, /No partitions \(more members than partitions\)/);
  assert.equal(g.querySelector("button[data-cmd^=\"add-consumer\"]").dataset.cmd, "add-consumer billing-3 --group billing --topics orders");
  assert.match(el.querySelector("table.grid:not(.lag)").textContent, /tail/);
});

test("groups: a KIP-848 group shows its epochs, each member its epoch, what it waits for and gives up", () => {
  const v = update();
  const groups = /** @type {NonNullable<typeof v.groups>} */ (v.groups);
  const consumers = /** @type {NonNullable<typeof v.consumers>} */ (v.consumers);
  consumers.push({name: "fast-1", group: "fast", partition: 0, position: 0, read: 0, processed: 5, duplicates: 0},
    {name: "fast-2", group: "fast", partition: 0, position: 0, read: 0, processed: 0, duplicates: 0});
  groups.push({name: "fast", state: "Reconciling", generation: 3, assignment_epoch: 3, group_protocol: "consumer", protocol: "cooperative", assignor: "uniform", coordinator: 1,
    members: [
      {id: "Xq1", client_id: "fast-1", host: "/10.0.0.100", member_epoch: 2, partitions: [{topic: "orders", partition: 0}, {topic: "orders", partition: 1}],
        assignment: [{topic: "orders", partition: 0}, {topic: "orders", partition: 1}], target: [{topic: "orders", partition: 0}], revoking: [{topic: "orders", partition: 1}]},
      {id: "Yq2", client_id: "fast-2", host: "/10.0.0.100", member_epoch: 3, partitions: [], assignment: [], target: [{topic: "orders", partition: 1}],
        pending: [{topic: "orders", partition: 1}], idle: "epoch 3: waits for [orders-1], which their owners give up first"},
    ],
    offsets: [{topic: "orders", partition: 0, committed: 4, log_end_offset: 6, lag: 2, member: "Xq1"}]});
  const el = clean(groupsHTML(v, () => "2/s"), "groupsHTML");
  const g = el.querySelector('.group[data-group="fast"]');
  assert.match(g.textContent, /Reconciling/);
  assert.match(g.textContent, /KIP-848 · epoch 3 · target epoch 3 · uniform · coordinator b1/);
  assert.match(g.querySelector('[data-member="fast-1"]').textContent, /epoch 2[\s\S]*gives up orders-1/);
  assert.match(g.querySelector('[data-member="fast-2"]').textContent, /epoch 3[\s\S]*waits for orders-1/);
  assert.equal(g.querySelector("button[data-cmd^=\"add-consumer\"]").dataset.cmd, "add-consumer fast-3 --group fast --topics orders --protocol consumer");
  assert.doesNotMatch(el.querySelector('.group[data-group="billing"]').textContent, /epoch/, "a classic group shows its generation only");
});

test("detail: every replica's track, its lines, and the segment files", () => {
  const v = update();
  const d = /** @type {NonNullable<typeof v.detail>} */ (v.detail);
  assert.match(clean(metaHTML(d), "metaHTML").textContent, /High watermark6/);
  const el = clean(tracksHTML(d, {room: 10, cell: 46, selected: null, mine: ""}), "tracksHTML");
  assert.deepEqual(el.querySelectorAll(".logrow").map((r) => r.dataset.role), ["leader", "follower", "follower"]);
  assert.equal(el.querySelectorAll('.logrow[data-log="1"] .rec').length, 7);
  assert.equal(el.querySelectorAll('.logrow[data-log="1"] .rec.cached').length, 1, "offset 6 is above the HW: only in the page cache");
  assert.ok(el.querySelector('.logrow[data-log="2"] .hwline.own'));
  const segs = clean(segfilesHTML(d, ""), "segfilesHTML");
  assert.equal(segs.querySelectorAll(".segbox").length, 3);
  const small = clean(segfilesHTML({...d, segment_bytes: 1024}, ""), "segfilesHTML");
  assert.match(small.querySelector(".segnote").textContent, /segment\.bytes = 1(\.0)? KiB\. Kafka 4 refuses segment\.bytes below 1 MiB \(KIP-1030\)/);
  const big = clean(segfilesHTML({...d, segment_bytes: 1073741824}, ""), "segfilesHTML");
  assert.doesNotMatch(big.querySelector(".segnote").textContent, /refuses/, "a Kafka-sized segment needs no excuse");
});

test("detail: an open transaction holds the last stable offset below the high watermark", () => {
  const v = update();
  const d = /** @type {NonNullable<typeof v.detail>} */ (v.detail);
  const open = {...d, stable: 2, open_txns: [{producer_id: 10000, first_offset: 2}]};
  assert.match(clean(metaHTML(open), "metaHTML").textContent, /Last stable offset2 \(read_committed waits: producer 10000's transaction is open from offset 2\)/);
  const el = clean(tracksHTML(open, {room: 10, cell: 46, selected: null, mine: ""}), "tracksHTML");
  assert.equal(el.querySelectorAll('.logrow[data-role="leader"] .lsoline').length, 1);
  assert.equal(el.querySelectorAll('.logrow[data-role="follower"] .lsoline').length, 0);
  assert.doesNotMatch(clean(metaHTML(d), "metaHTML").textContent, /Last stable offset/, "no transactional producer: no LSO line");
  const settled = clean(tracksHTML({...d, stable: d.hw, open_txns: null}, {room: 10, cell: 46, selected: null, mine: ""}), "tracksHTML");
  assert.equal(settled.querySelectorAll(".lsoline").length, 0, "at the HW the LSO line is the HW's");
});

test("detail: transactions drawn on the records, markers as markers", () => {
  const v = update();
  const d = /** @type {NonNullable<typeof v.detail>} */ (v.detail);
  const outcomes = ["committed", "committed", "", "aborted", "", "open", "open"];
  const logs = d.logs.map((l) => ({...l, recs: (l.recs || []).map((r, i) => {
    if (i === 2) return {...r, v: "⟨COMMIT⟩", k: "", m: "COMMIT", pid: 10000};
    if (i === 4) return {...r, v: "⟨ABORT⟩", k: "", m: "ABORT", pid: 10000};
    return outcomes[i] ? {...r, t: outcomes[i], pid: 10000} : r;
  })}));
  const el = clean(tracksHTML({...d, logs, stable: 5, open_txns: [{producer_id: 10000, first_offset: 5}]}, {room: 10, cell: 46, selected: null, mine: ""}), "tracksHTML");
  const leader = '.logrow[data-role="leader"] ';
  assert.deepEqual(el.querySelectorAll(leader + ".rec.marker").map((r) => r.dataset.offset), ["2", "4"]);
  assert.ok(el.querySelector(leader + '.rec.marker.commit[data-offset="2"]'));
  assert.match(el.querySelector(leader + '.rec[data-offset="2"]').getAttribute("title"), /COMMIT marker \(a control record\) that commits producer 10000's transaction[\s\S]*no consumer is ever handed it[\s\S]*lag stays at 1/);
  assert.deepEqual(el.querySelectorAll(leader + ".rec.txn-committed").map((r) => r.dataset.offset), ["0", "1"]);
  assert.deepEqual(el.querySelectorAll(leader + ".rec.txn-aborted").map((r) => r.dataset.offset), ["3"]);
  assert.match(el.querySelector(leader + '.rec[data-offset="3"]').getAttribute("title"), /aborted: it stays in the log, read_committed consumers skip it/);
  assert.deepEqual(el.querySelectorAll(leader + ".rec.txn-open").map((r) => r.dataset.offset), ["5", "6"]);
  assert.match(el.querySelector(leader + '.rec[data-offset="5"]').getAttribute("title"), /open: read_committed consumers wait at the last stable offset/);
  const plain = clean(tracksHTML(d, {room: 10, cell: 46, selected: null, mine: ""}), "tracksHTML");
  assert.equal(plain.querySelectorAll('[class*="txn-"], .rec.marker').length, 0, "no transaction: nothing marked");
});

test("detail: a chosen record older than the window stays drawn", () => {
  const v = update();
  const d = /** @type {NonNullable<typeof v.detail>} */ (v.detail);
  const el = clean(tracksHTML(d, {room: 4, cell: 46, selected: {topic: "orders", p: 0, offset: 1, value: "checkout-1"}, mine: ""}), "tracksHTML");
  assert.ok(el.querySelector('.logrow[data-log="1"] .rec.sel[data-offset="1"]'));
  assert.match(el.querySelector(".newer").textContent, /newer offsets to the right/);
});

test("journey: the server's lines for the record followed, a lost one marked", () => {
  const v = update();
  v.journey = {topic: "orders", p: 0, offset: 1, value: "b", lines: [
    {kind: "producer", text: "producer p sent it to the leader (acks=1): acknowledged at offset 1"},
    {kind: "lost", text: "lost after its acknowledgement: broker 2 leads epoch 1 from offset 1 (t=9010 ms)"},
    {kind: "replica", b: 2, holds: "other", text: "b2 (leader): holds another record at offset 1 (c)"},
    {kind: "committed", text: "the leader, b2, does not hold it"}]};
  const el = clean(journeyHTML(v, {topic: "orders", p: 0, offset: 1, value: "b"}), "journeyHTML");
  assert.match(el.textContent, /Journey of b at offset 1 of orders-0 lost after its acknowledgement/);
  assert.equal(el.querySelectorAll("li").length, 4);
  assert.ok(el.querySelector('li.lost[data-kind="lost"]'));
  assert.equal(journeyHTML(v, {topic: "orders", p: 0, offset: 1, value: "c"}), "", "another record at the same offset has another journey");
  assert.equal(journeyHTML(v, {topic: "orders", p: 1, offset: 1, value: "b"}), "");
});

test("detail: a record acknowledged and lost stays drawn where it was, as a ghost", () => {
  const v = update();
  const d = /** @type {NonNullable<typeof v.detail>} */ (v.detail);
  d.lost = [{o: 5, v: "checkout-5x", producer: "clicks"}];
  const el = clean(tracksHTML(d, {room: 10, cell: 46, selected: {topic: "orders", p: 0, offset: 5, value: "checkout-5x"}, mine: ""}), "tracksHTML");
  const g = el.querySelector('.lostrow .rec.ghost[data-offset="5"]');
  assert.ok(g, "a ghost tile at offset 5");
  assert.match(g.getAttribute("title"), /acknowledged to producer clicks, then lost/);
  assert.ok(g.classList.contains("sel"), "the ghost is the record followed");
  assert.ok(!el.querySelector('.logrow[data-log="1"] .rec[data-offset="5"]').classList.contains("sel"), "the record now at offset 5 is another");
});

test("events, newest first; timeline marks", () => {
  const v = update();
  const el = clean(eventsHTML(v), "eventsHTML");
  assert.match(el.querySelector("li").textContent, /t=4150/);
  const m = clean(marksHTML(v.marks || [], v.now, v.start), "marksHTML");
  assert.equal(m.querySelector("i").dataset.at, "1900");
  assert.equal(marksHTML(v.marks || [], 0, 0), "");
});

test("the learner's panel: parts with their tests and scenarios, the first fault of each part with its note and command, repeated marks counted", () => {
  /** @type {import("../static/js/types.js").LearnerView} */
  const l = {parts: [
      {part: "ch01/batch", runs: "your code", calls: 3, used: "producers encode", tests: "fail: AppendBatch: the CRC is wrong", command: "go test ./exercises/ch01/batch/", scenarios: ["your-batch"],
        divergence: {scenario: "your-batch", step: "2", title: "t", reference: "a", your_code: "b"}},
      {part: "ch02/index", runs: "your code", calls: 9, used: "fetches", tests: "pass", command: "go test ./exercises/ch02/index/", changed: true},
      {part: "ch04/recovery", runs: "reference", why: "not written yet", calls: 0, used: "broker starts", command: "go test ./exercises/ch04/recovery/"}],
    faults: [{part: "ch01/batch", kind: "panic", call: "AppendBatch(...)", value: "index out of range", more: 4, command: "go test ./exercises/ch01/batch/"}],
    marks: [{part: "ch02/index", event: "t=5 #1 consume: g fetched 3", count: 6, last_ms: 900}],
    verdict: {scenario: "your-batch", part: "ch01/batch", runs: "your code", matches: false, difference: {step: "2", title: "t", reference: "a", your_code: "b"}}};
  const el = clean(learnerHTML(l, ["00-why-a-log", "01-records-on-disk", "02-offsets-and-the-index"]), "learnerHTML");
  assert.deepEqual(el.querySelectorAll(".learner-parts li").map((li) => li.dataset.runs), ["your code", "your code", "reference"]);
  const batch = el.querySelector('li[data-part="ch01/batch"]').textContent;
  assert.match(batch, /your code, its tests fail/, "a part whose tests fail is not simply your code");
  assert.match(batch, /go test \.\/exercises\/ch01\/batch\//);
  assert.match(batch, /played by your-batch/);
  assert.match(batch, /first divergence, in your-batch step 2/);
  const index = el.querySelector('li[data-part="ch02/index"]').textContent;
  assert.doesNotMatch(index, /tests fail/);
  assert.match(index, /run go run \.\/exercises\/live again/, "a changed part says to restart");
  const fault = el.querySelector('.learner-fault[data-part="ch01/batch"]');
  assert.match(fault.textContent, /index out of range \(and 4 more\)/);
  assert.equal(fault.querySelector("a").getAttribute("href"), "#note/01-records-on-disk");
  assert.match(fault.textContent, /run go test \.\/exercises\/ch01\/batch\//);
  assert.match(el.querySelector(".learner-marks li").textContent, /×6 \(to t=900\)/);
  assert.equal(el.querySelector(".learner-verdict").dataset.matches, "false");
  assert.match(el.querySelector(".learner-verdict").textContent, /after a fix, stop it \(Ctrl-C\) and run go run \.\/exercises\/live again/, "a verdict that differs says a fix needs a restart");
  assert.match(el.querySelector(".learner-restart").textContent, /run go run \.\/exercises\/live again/, "the panel says, before any change, that a fix needs a restart");
  const same = clean(learnerHTML({...l, verdict: {...l.verdict, matches: true, difference: undefined}}), "learnerHTML");
  assert.doesNotMatch(same.querySelector(".learner-verdict").textContent, /after a fix/);
  assert.equal(yourPart(l, "record", "orders"), "ch01/batch");
  assert.equal(yourPart(l, "record", "__consumer_offsets"), "");
  assert.equal(yourPart(l, "segment", "orders"), "");
  assert.equal(yourPart(null, "record", "orders"), "");
});

test("Kafka clients: where to point one, and each client's counts", () => {
  const el = clean(clientsHTML({listeners: ["1 127.0.0.1:9092", "2 127.0.0.1:9093"], connections: 1,
    clients: [{n: 1, client_id: "kcat", remote: "127.0.0.1:5555", connections: 1, acks: "1", sent: 5, acked: 5, failed: 0, fetched_bytes: 0}]}), "clientsHTML");
  assert.match(el.textContent, /point a client at 127\.0\.0\.1:9092/);
  assert.match(el.textContent, /sent 5 · acked 5/);
});

test("scenarios: the list by group, and a step about to be played", () => {
  const el = clean(listHTML([
    {name: "kip101-part1", group: "kip101", group_title: "KIP-101: leader epochs", title: "Part 1", summary: "s1", source: "KIP-101", steps: 7},
    {name: "acks1", group: "durability", group_title: "Durability", title: "acks=1", summary: "s2", source: "Kafka 3.7", steps: 5},
    {name: "kip101-part2", group: "kip101", group_title: "KIP-101: leader epochs", title: "Part 2", summary: "s3", source: "KIP-101", steps: 6},
  ]), "listHTML");
  assert.deepEqual(el.querySelectorAll("h3").map((h) => h.textContent), ["KIP-101: leader epochs", "Durability"]);
  assert.deepEqual(el.querySelectorAll(".scen-group")[0].querySelectorAll("[data-scenario]").map((b) => b.dataset.scenario), ["kip101-part1", "kip101-part2"]);
  assert.match(el.querySelector('[data-scenario="acks1"]').textContent, /acks=1s2 · 5 steps/);
  const yours = clean(listHTML([{name: "your-lookup", group: "your code", group_title: "Your code in the cluster", title: "Your index lookup", summary: "s", source: "Kafka 3.7", steps: 2, part: "ch02/index"}]), "listHTML");
  assert.match(yours.querySelector('[data-scenario="your-lookup"]').textContent, /s · plays your ch02\/index · 2 steps/, "a guided scenario on the learner's code names the part it plays");
  const yoursPlay = clean(playHTML({scenario: "your-lookup", title: "Your index lookup", steps: 2, done: false, intro: ["One broker."], next: {id: "1", title: "t"}}, {summary: "s", part: "ch02/index"}, "", false), "playHTML");
  assert.match(yoursPlay.textContent, /Plays your ch02\/index/);
  const play = clean(playHTML({scenario: "kip101-part1", title: "KIP-101, part 1", steps: 7, done: false, intro: ["Two brokers."],
    next: {id: "1", title: "P sends m1", narration: ["B appends m1."], question: "What HW?", choices: ["0", "1"]}}, {summary: "A summary."}, "", false), "playHTML");
  assert.deepEqual(play.querySelectorAll(".choice").map((c) => c.textContent), ["0", "1"]);
  assert.ok(play.querySelector("#scen-next"));
});

test("guess, then watch: before a step is played only its situation shows; after, what happened and why", () => {
  /** @type {import("../static/js/types.js").StepView} */
  const before = {scenario: "s", title: "S", steps: 3, done: false,
    next: {id: "2", title: "broker 1 restarts", narration: ["Broker 1 restarts."], question: "What happens to b?", choices: ["It is copied", "Broker 1 deletes it"]}};
  const b = clean(playHTML(before, {}, "", false), "playHTML");
  assert.equal(b.querySelector("#scen-outcome"), null);
  assert.equal(b.querySelectorAll(".choice:not([disabled])").length, 2);
  /** @type {import("../static/js/types.js").StepView} */
  const after = {scenario: "s", title: "S", steps: 3, done: true, lesson: "b is on no replica.",
    played: {id: "2", title: "broker 1 restarts", actions: ["start 1"], question: "What happens to b?", choices: ["It is copied", "Broker 1 deletes it"],
      chosen: 1, answer: 2, why: "It truncates.", outcome: "Broker 1 truncates b", reveal: ["Epoch 0 ends at 1."], events: ["t=1 x"]}};
  const a = clean(playHTML(after, {}, "", false), "playHTML");
  assert.match(a.querySelector("#scen-outcome").textContent, /Not quite\. Step 2: Broker 1 truncates b/);
  assert.match(a.textContent, /Epoch 0 ends at 1\.[\s\S]*It truncates\./);
  assert.ok(a.querySelector(".choice.right"), "the right choice is marked");
  assert.ok(a.querySelector(".choice.wrong"), "the guess is marked");
  const done = a.querySelector("#scen-done").textContent;
  assert.match(done, /b is on no replica\./, "the lesson at the end");
  assert.match(done, /all scenarios" goes back to the live cluster as you left it; Reset starts a fresh one/);
});

test("a step waiting for the user's Kafka client says where to point it and what the brokers saw", () => {
  /** @type {import("../static/js/types.js").StepView} */
  const s = {scenario: "your-producer-power-cut", title: "Y", steps: 4, done: false,
    next: {id: "1", title: "t", narration: ["kcat -b 127.0.0.1:39092"], question: "q", choices: ["Yes", "No"],
      wait: {topic: "clicks", records: 5, have: 2, bootstrap: "127.0.0.1:39092", clients: ["rdkafka from 127.0.0.1:5555"]}}};
  let el = clean(playHTML(s, {}, "", false), "playHTML");
  assert.match(el.querySelector("#scen-wait").textContent, /2 of 5 records in clicks\. Broker 1 listens on 127\.0\.0\.1:39092\.[\s\S]*Seen by the brokers: rdkafka from 127\.0\.0\.1:5555/);
  assert.ok(el.querySelector("#scen-standin"), "a simulated producer is offered");
  const next = /** @type {NonNullable<typeof s.next>} */ (s.next);
  next.wait = {topic: "clicks", records: 5, have: 2, bootstrap: "127.0.0.1:39092", held: 2};
  el = clean(playHTML(s, {}, "", false), "playHTML");
  assert.match(el.querySelector("#scen-wait").textContent, /Your guess is in/);
  assert.equal(el.querySelectorAll(".choice[disabled]").length, 2, "the guess is made");
  assert.ok(el.querySelector('.choice.held[data-guess="2"]'));
  next.wait = {topic: "clicks", records: 5, have: 0};
  el = clean(playHTML(s, {}, "", false), "playHTML");
  assert.match(el.querySelector("#scen-wait").textContent, /no Kafka listeners/);
});

test("a step the world refused (changed by hand) offers a replay to it, not its question", () => {
  /** @type {import("../static/js/types.js").StepView} */
  const s = {scenario: "kip101-part3", title: "K", steps: 9, done: false,
    next: {id: "5", title: "B restarts", narration: ["B restarts."], question: "q", choices: ["Yes", "No"],
      refused: "Step 5 cannot be played: the world refused its action \"start 2\" (broker 2 is running)."}};
  const el = clean(playHTML(s, {}, "", false), "playHTML");
  assert.match(el.querySelector("#scen-refused").textContent, /refused its action "start 2"/);
  assert.match(el.querySelector("#scen-replay").textContent, /Replay the scenario to step 5/);
  assert.equal(el.querySelector(".choice"), null, "no guess on a step that cannot be played");
  assert.equal(el.querySelector("#scen-next"), null);
});

test("a broker's buttons: start only when it is not running, stop and kill only when it is", () => {
  const v = update();
  const brokers = /** @type {NonNullable<typeof v.brokers>} */ (v.brokers);
  brokers[1].state = "crashed";
  brokers[2].state = "off";
  const el = clean(brokersHTML(v), "brokersHTML");
  /** @param {number} id */
  const disabled = (id) => el.querySelectorAll(`.broker[data-broker="${id}"] button`).filter((b) => b.hasAttribute("disabled")).map((b) => b.dataset.cmd);
  assert.deepEqual(disabled(1), ["start 1"], "a running broker cannot be started");
  assert.deepEqual(disabled(2), ["stop 2", "kill 2"]);
  assert.deepEqual(disabled(3), ["stop 3", "kill 3", "power-cut 3"]);
});

test("groups: a crashed member says so, a member without partitions shows no rate, lag cues", () => {
  const v = update();
  const consumers = /** @type {NonNullable<typeof v.consumers>} */ (v.consumers);
  consumers[0].status = "crashed";
  const groups = /** @type {NonNullable<typeof v.groups>} */ (v.groups);
  const offsets = /** @type {NonNullable<typeof groups[0]["offsets"]>} */ (groups[0].offsets);
  offsets[0].lso = 9; // retention deleted 4..8, which billing never read
  const el = clean(groupsHTML(v, () => "7/s", (g, topic, p) => g === "billing" && topic === "orders" && p === 0), "groupsHTML");
  const m1 = el.querySelector('[data-member="billing-1"]');
  assert.equal(m1.dataset.status, "crashed");
  assert.match(m1.textContent, /crashed, still a member/);
  assert.doesNotMatch(m1.textContent, /7\/s/, "a crashed member shows no rate");
  const m2 = el.querySelector('[data-member="billing-2"]');
  assert.match(m2.textContent, /No partitions/);
  assert.doesNotMatch(m2.textContent, /7\/s/, "a member without partitions shows no rate");
  const row = el.querySelector('tr[data-key="o-orders-0"]').textContent;
  assert.match(row, /growing/);
  assert.match(row, /5 deleted unread/);
});

test("the records hold still under the pointer: the window does not slide while held", () => {
  const v = update();
  const d = /** @type {NonNullable<typeof v.detail>} */ (v.detail);
  const free = tracksView(d, {room: 4, cell: 46, selected: null, mine: ""});
  assert.equal(free.lo, 4, "newest last: offsets 4 to 7");
  const held = tracksView(d, {room: 4, cell: 46, selected: null, mine: "", held: 2});
  assert.equal(held.lo, 2);
  assert.ok(fragment(held.html).querySelector('.logrow[data-log="1"] .rec[data-offset="2"]'));
  assert.match(fragment(held.html).querySelector(".newer").textContent, /hold still while the pointer is over them/);
});

test("a high watermark frozen under min.insync.replicas is cued on the row and in the detail", () => {
  const v = update();
  const parts = /** @type {NonNullable<typeof v.parts>} */ (v.parts);
  parts[0].isr = [1];
  parts[0].min_isr = 2;
  const el = clean(partsHTML(v), "partsHTML");
  assert.match(el.querySelector('tr[data-partition="0"]').textContent, /frozen: ISR 1 < min.insync.replicas 2/);
  assert.doesNotMatch(el.querySelector('tr[data-partition="1"]').textContent, /frozen/);
  const d = /** @type {NonNullable<typeof v.detail>} */ (v.detail);
  d.isr = [1];
  d.min_isr = 2;
  assert.match(clean(metaHTML(d), "metaHTML").textContent, /High watermark6 frozen/);
});

test("detail: Kafka 4's eligible leader replicas and last known leader, shown only when there are any", () => {
  const v = update();
  const d = /** @type {NonNullable<typeof v.detail>} */ (v.detail);
  assert.doesNotMatch(clean(metaHTML(d), "metaHTML").textContent, /Eligible|Last known/);
  d.leader = -1;
  d.isr = [];
  d.elr = [1, 2];
  d.last_known_elr = [1];
  const text = clean(metaHTML(d), "metaHTML").textContent;
  assert.match(text, /In-sync replicas—/);
  assert.match(text, /Eligible leader replicas1, 2/);
  assert.match(text, /Last known leader1/);
});

test("consumers: a read_committed consumer is badged, and a simple one says where it waits", () => {
  const v = update();
  const waiting = {name: "audit", topic: "orders", partition: 0, position: 4, read: 3, processed: 0, duplicates: 0, isolation: "read_committed", stable: 4, hw: 7};
  const caughtUp = {...waiting, name: "audit2", stable: 7, position: 7};
  const plain = {...waiting, name: "reader", isolation: undefined, stable: undefined, hw: undefined, position: 7};
  const el = clean(groupsHTML({...v, consumers: [...(v.consumers || []), waiting, caughtUp, plain]}, () => ""), "groupsHTML");
  const row = (n) => el.querySelector(`tr[data-key="c-${n}"]`);
  assert.match(row("audit").textContent, /read_committed[\s\S]*waits at LSO 4 \(HW 7\)/);
  assert.match(row("audit").querySelector(".iso").getAttribute("title"), /lag, counted to the high watermark[\s\S]*read_uncommitted[\s\S]*stays above 0 while a transaction is open/);
  assert.match(row("audit2").textContent, /read_committed/);
  assert.doesNotMatch(row("audit2").textContent, /waits/, "at the HW nothing holds it");
  assert.equal(row("reader").querySelector(".iso"), null, "read_uncommitted is the default: no badge");
});
