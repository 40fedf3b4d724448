// The wire panel's rows and filters, fed exchanges typed after the
// server's JSON (web.WireExchange): what they draw, escaped, and nothing
// undefined.
import assert from "node:assert/strict";
import {test} from "node:test";

import {wireControlsHTML, wireRowsHTML} from "../static/js/render/wire.js";
import {fragment} from "./fakedom.mjs";

/** @returns {import("../static/js/types.js").WireExchange} */
function exchange(seq, over = {}) {
  return {seq, conn: 1, broker: 2, client: "app", api: "Produce", key: 0, version: 9, correlation: seq,
    request: "acks=all orders-0 3 record(s) 85 B", response: "orders-0 base offset 41", at: "2026-12-06T07:00:01.123456Z", latency_us: 1500, ...over};
}

test("wire: newest first, request and response lines, errors, latency, a closed exchange and acks=0", () => {
  const xs = [
    exchange(1),
    exchange(2, {api: "Fetch", response: "orders-0 hw 44 0 record(s) 0 B", errors: ["NOT_LEADER_OR_FOLLOWER"], latency_us: 250}),
    exchange(3, {response: "", closed: "the broker is down"}),
    exchange(4, {response: undefined, client: "<b>x</b>"}),
  ];
  const html = wireRowsHTML(xs, 2);
  for (const bad of ["undefined", "NaN", "[object Object]", "null", "<b>x</b>"]) assert.ok(!html.includes(bad), `wrote ${bad}:\n${html}`);
  const el = fragment(html);
  assert.deepEqual(el.querySelectorAll(".wire-x").map((x) => x.dataset.key), ["w-4", "w-3", "w-2", "w-1"]);
  assert.ok(html.includes("no response (acks=0)"));
  assert.ok(html.includes("no response: the broker is down"));
  assert.ok(html.includes('<span class="err">NOT_LEADER_OR_FOLLOWER</span>'));
  assert.ok(html.includes("250 µs") && html.includes("1.5 ms"));
  assert.ok(html.includes("07:00:01.123"));
  assert.ok(html.includes("2 older exchanges fell off"));
});

test("wire: an empty record says why; the filters offer every client and keep the one chosen", () => {
  assert.ok(wireRowsHTML([], 0).includes("while this panel is open"));
  const el = fragment(wireControlsHTML(["b", "a"], {client: "gone", api: "Fetch"}));
  const clients = el.querySelectorAll('select[data-wire="client"] option');
  assert.deepEqual(clients.map((o) => o.getAttribute("value")), ["", "a", "b", "gone"]);
  assert.ok(el.querySelector('select[data-wire="api"] option[value="Fetch"]').hasAttribute("selected"));
});

test("journey: links to the wire panel's entries that carried the record, or says how to have them", async () => {
  const {wireLinksHTML} = await import("../static/js/render/journey.js");
  const {update} = await import("./fixtures.mjs");
  const v = update();
  v.journey = {topic: "orders", p: 0, offset: 5, value: "checkout-5", lines: [],
    wire: [{seq: 17, api: "Produce", client: "writer", broker: 1, correlation: 4, first: 3, last: 6, at: "2026-12-06T07:00:01Z"},
      {seq: 20, api: "Fetch", client: "<i>r</i>", broker: 2, correlation: 9, first: 0, last: 8, at: "2026-12-06T07:00:02Z"}]};
  const html = wireLinksHTML(v);
  for (const bad of ["undefined", "NaN", "<i>r</i>"]) assert.ok(!html.includes(bad), `wrote ${bad}:\n${html}`);
  const el = fragment(html);
  assert.deepEqual(el.querySelectorAll("[data-wire-seq]").map((b) => b.getAttribute("data-wire-seq")), ["17", "20"]);
  assert.match(el.textContent, /Produce corr 4 of writer → broker 1 \(offsets 3–6\)/);
  v.journey.wire = null;
  assert.equal(wireLinksHTML(v), "", "no real client: nothing to say");
  v.kafka = {connections: 1, clients: [{number: 1, client_id: "writer", connections: 1, sent: 1, acked: 1, lost_after_ack: 0, sent_no_ack: 0, failed: 0, fetched: 0, requests: 3}]};
  assert.match(wireLinksHTML(v), /Open the wire panel/);
});
