// The page's small pure parts: escaping, sizes, key colours, consumers'
// rates, the session in the URL, the terminal's history.
import assert from "node:assert/strict";
import {test} from "node:test";

import {History} from "../static/js/history.js";
import {bytes, esc, hue, short} from "../static/js/html.js";
import {rate, sampleRates} from "../static/js/rates.js";
import {isStale, sessionURL, wantedSession} from "../static/js/session.js";
import {fragment} from "./fakedom.mjs";
import {mulberry32, replay, seeds} from "./rand.mjs";

test("esc escapes what HTML would read as markup, in text and in attributes", () => {
  for (const s of [`<b>"x" & 'y'</b>`, "plain", "", "&amp;"]) {
    const el = fragment(`<p title="${esc(s)}">${esc(s)}</p>`).querySelector("p");
    assert.equal(el.textContent, s);
    assert.equal(el.getAttribute("title"), s);
  }
});

test("bytes prints sizes as the page shows them", () => {
  assert.deepEqual([-1, 0, 1023, 1024, 1536, 1048576 * 3].map(bytes), ["—", "0 B", "1023 B", "1.0 KiB", "1.5 KiB", "3.00 MiB"]);
});

test("a key's colour is stable and a record without a key has none", () => {
  assert.equal(hue(undefined), null);
  assert.equal(hue(""), null);
  assert.equal(hue("alice"), hue("alice"));
  assert.notEqual(hue("alice"), hue("bob"));
  for (const k of ["a", "alice", "ü", "x".repeat(1000)]) {
    const h = hue(k);
    assert.ok(h !== null && h >= 0 && h < 360, `hue(${k}) = ${h}`);
  }
});

test("a record's cell shows a short value whole and the start of a long one", () => {
  assert.equal(short("m1"), "m1");
  assert.equal(short("abcdef"), "abcdef");
  assert.equal(short("checkout-123"), "check…");
});

test("a consumer's rate is measured over the last seconds of live views", () => {
  /** @type {import("../static/js/rates.js").Rates} */
  const rates = {};
  const v = (t, processed) => ({t, consumers: [{name: "c", group: "g", processed}]});
  sampleRates(rates, v(0, 0));
  assert.equal(rate(rates, "c"), "", "one sample gives no rate");
  sampleRates(rates, v(500, 5));
  assert.equal(rate(rates, "c"), "", "half a second gives no rate");
  for (let t = 1000; t <= 10000; t += 500) sampleRates(rates, v(t, t / 100));
  assert.equal(rate(rates, "c"), "10/s");
  assert.ok(rates.c.length <= 12, `kept ${rates.c.length} samples, want about five seconds' worth`);
  sampleRates(rates, v(200, 0)); // a reset: time went back
  assert.equal(rate(rates, "c"), "");
  assert.equal(rate(rates, "nobody"), "");
});

test("the session's URL keeps the rest of the address and reads back as it was written", () => {
  for (const seed of seeds(10)) {
    const rnd = mulberry32(seed);
    for (let i = 0; i < 50; i++) {
      const step = Math.floor(rnd() * 9);
      const answers = Array.from({length: step}, () => Math.floor(rnd() * 4));
      const s = rnd() < 0.2 ? {id: 3, step: 0} : {id: 3, scenario: "kip101-part" + (1 + Math.floor(rnd() * 4)), step, answers};
      const other = rnd() < 0.5 ? "?speed=2&x=a%20b" : "";
      const url = sessionURL({pathname: "/", search: other, hash: rnd() < 0.5 ? "#note/05-leader-epochs" : ""}, s);
      const u = new URL(url, "http://h");
      const w = wantedSession(u.search);
      const msg = `${url}\n${replay(seed, "pure.test.mjs")}`;
      assert.equal(w.scenario, s.scenario || null, msg);
      if (s.scenario) {
        assert.equal(w.step, s.step, msg);
        assert.deepEqual(w.answers, answers.some((a) => a) ? answers : [], msg);
      }
      if (other) assert.equal(u.searchParams.get("x"), "a b", msg);
    }
  }
});

test("an older session or step arriving late is stale", () => {
  assert.equal(isStale(null, {id: 1, step: 0}), false);
  assert.equal(isStale({id: 2, step: 3}, {id: 1, step: 9}), true);
  assert.equal(isStale({id: 2, step: 3}, {id: 2, step: 2}), true);
  assert.equal(isStale({id: 2, step: 3}, {id: 2, step: 3}), false);
  assert.equal(isStale({id: 2, step: 3}, {id: 3, step: 0}), false);
});

test("the terminal's history goes back and forth and gives back the line being written", () => {
  const h = new History();
  h.remember("kafka-topics --list");
  h.remember("kafka-consumer-groups --list");
  h.remember("kafka-consumer-groups --list");
  let v = "kafka-top";
  const seen = [];
  for (const d of [-1, -1, -1, 1, 1, 1]) seen.push(v = h.move(/** @type {-1|1} */ (d), v));
  assert.deepEqual(seen, ["kafka-consumer-groups --list", "kafka-topics --list", "kafka-topics --list", "kafka-consumer-groups --list", "kafka-top", "kafka-top"]);
});

test("the timeline's keys: a second, ten, the oldest moment kept, live", async () => {
  const {keyMoment, momentOf} = await import("../static/js/timeline.js");
  // live at 60 s, the timeline keeping 20 s to now
  assert.equal(keyMoment("ArrowLeft", null, 60000, 20000), 59000, "the left arrow from live goes a second back");
  assert.equal(keyMoment("ArrowLeft", 59000, 60500, 20000), 58000, "from the past it counts from the moment shown, not from now");
  assert.equal(keyMoment("PageDown", 30000, 60000, 20000), 20000);
  assert.equal(keyMoment("PageDown", 21000, 60000, 20000), 20000, "never before the oldest moment kept");
  assert.equal(keyMoment("ArrowRight", 59500, 60000, 20000), null, "past the present is live");
  assert.equal(keyMoment("Home", null, 60000, 20000), 20000);
  assert.equal(keyMoment("End", 30000, 60000, 20000), null);
  assert.equal(keyMoment("a", 30000, 60000, 20000), undefined);
  assert.equal(momentOf(60000, 60000), null);
  assert.equal(momentOf(59999.7, 60000), 59999, "a moment is a whole millisecond");
});

test("a group's lag is growing when it rose over three seconds of live views", async () => {
  const {lagGrows, sampleLags} = await import("../static/js/rates.js");
  /** @type {import("../static/js/rates.js").Rates} */
  const lags = {};
  const v = (t, lag) => ({t, groups: [{name: "g", offsets: [{topic: "o", partition: 0, lag}]}]});
  sampleLags(lags, v(0, 5));
  sampleLags(lags, v(1000, 9));
  assert.equal(lagGrows(lags, "g", "o", 0), false, "a second is too short to tell");
  for (let t = 2000; t <= 4000; t += 1000) sampleLags(lags, v(t, 5 + t / 250));
  assert.equal(lagGrows(lags, "g", "o", 0), true);
  for (let t = 5000; t <= 11000; t += 1000) sampleLags(lags, v(t, 20));
  assert.equal(lagGrows(lags, "g", "o", 0), false, "a steady lag is not growing");
  assert.equal(lagGrows(lags, "h", "o", 0), false);
});

test("a record's cell shows a producer's record by its number, another value by its start", async () => {
  const {cellText} = await import("../static/js/html.js");
  assert.equal(cellText("checkout-12", ["clicks", "checkout"]), "12");
  assert.equal(cellText("checkout-typed-3", ["checkout"]), "typed…");
  assert.equal(cellText("alice=$10", ["p"]), "alice…");
  assert.equal(cellText("m1", ["p"]), "m1");
  assert.equal(cellText("p-", ["p"]), "p-");
});
