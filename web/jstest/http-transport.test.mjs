// The HTTP transport's update stream against a fake EventSource and
// fetch: frames make the update, a stream the server refuses (503: as
// many are open as it serves) is told to the page with the server's
// reason and asked for again after RetryMs, and a closed stream is not.
import assert from "node:assert/strict";
import {mock, test} from "node:test";

import {RetryMs, httpTransport} from "../static/js/transport.js";

/** FakeEventSource stands for the browser's EventSource. */
class FakeEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  /** @type {FakeEventSource[]} */
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeEventSource.CONNECTING;
    this.listeners = {};
    FakeEventSource.made.push(this);
  }
  addEventListener(name, f) { (this.listeners[name] ||= []).push(f); }
  emit(name, e) { for (const f of this.listeners[name] || []) f(e); }
  close() { this.readyState = FakeEventSource.CLOSED; }
}
globalThis.EventSource = FakeEventSource;

const refusal = "web: too many update streams: 1 of 1 in use, one a page (kafkalive serve --max-streams 1)";
globalThis.fetch = async () => ({ok: false, status: 503, text: async () => refusal + "\n"});

/** settle lets the transport's promises run. */
const settle = () => new Promise((r) => setImmediate(r));

test("a refused stream says why, is asked again after RetryMs, and a closed one is not", async () => {
  mock.timers.enable({apis: ["setTimeout"]});
  try {
    FakeEventSource.made = [];
    const updates = [], errors = [];
    const close = httpTransport("").stream((v) => updates.push(v), (e) => errors.push(e), "/api/stream?topic=orders");
    assert.equal(FakeEventSource.made.length, 1);
    const first = FakeEventSource.made[0];
    assert.equal(first.url, "/api/stream?topic=orders");
    first.emit("frame", {data: JSON.stringify({seq: 1, full: {t: 5, brokers: [], parts: [], producers: [], groups: []}})});
    assert.equal(updates.length, 1);
    assert.equal(updates[0].t, 5);

    // a network error the EventSource retries itself: passed on, no new stream
    first.emit("error", new Event("error"));
    assert.equal(errors.length, 1);
    assert.ok(!(errors[0] instanceof Error));

    // refused: the EventSource closes; the page is told why
    first.readyState = FakeEventSource.CLOSED;
    first.emit("error", new Event("error"));
    await settle();
    assert.equal(errors.length, 2);
    assert.ok(errors[1] instanceof Error);
    assert.equal(errors[1].message, `${refusal.replace(/^web: /, "")}; asking again in ${RetryMs / 1000} s`);
    mock.timers.tick(RetryMs - 1);
    assert.equal(FakeEventSource.made.length, 1, "asked again before RetryMs");
    mock.timers.tick(1);
    assert.equal(FakeEventSource.made.length, 2, "asked again after RetryMs");

    // refused again, then closed by the page before RetryMs: never again
    const second = FakeEventSource.made[1];
    second.readyState = FakeEventSource.CLOSED;
    second.emit("error", new Event("error"));
    await settle();
    close();
    mock.timers.tick(2 * RetryMs);
    assert.equal(FakeEventSource.made.length, 2, "a closed stream is not asked for again");
  } finally {
    mock.timers.reset();
  }
});
