// The worker transport (static site) against a fake Worker that answers
// as web/tab does: the same shape and answers as the HTTP transport, the
// update stream until closed, and every caller told when the world cannot
// run. And the Kafka clients panel of a world with no listeners.
import assert from "node:assert/strict";
import {test} from "node:test";

import {clientsHTML} from "../static/js/render/clients.js";
import {workerTransport} from "../static/js/worker-transport.js";
import {fragment} from "./fakedom.mjs";

/**
 * FakeWorker stands for worker.js with the world in it: answer(m) gives
 * the reply to a call, and the test drives the rest through the last
 * worker made.
 */
class FakeWorker {
  static last = null;
  static answer = () => ({status: 200, type: "application/json", body: "{}"});
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.onmessage = null;
    this.onerror = null;
    FakeWorker.last = this;
  }
  postMessage(m) {
    this.sent.push(m);
    if (m.op === "call") queueMicrotask(() => this.emit({op: "reply", id: m.id, ...FakeWorker.answer(m)}));
    if (m.op === "stats") queueMicrotask(() => this.emit({op: "stats", id: m.id, type: "application/json", body: `{"heap_bytes":1,"sys_bytes":2,"wasm_bytes":3,"t":4}`}));
  }
  emit(m) { this.onmessage({data: m}); }
}
globalThis.Worker = FakeWorker;

test("calls: get answers the body, post the status and body, text the text; a refusal of get throws", async () => {
  FakeWorker.answer = (m) => {
    if (m.path === "/api/view?topic=orders") return {status: 200, type: "application/json", body: `{"t":5}`};
    if (m.path === "/api/exec") return {status: 200, type: "application/json", body: JSON.stringify({output: JSON.parse(m.body).line, ok: true})};
    if (m.path === "/api/scenario/step") return {status: 409, type: "application/json", body: `{"error":"stale","session":{"id":2,"step":0}}`};
    if (m.path === "/api/note?name=x") return {status: 200, type: "text/html; charset=utf-8", body: "<h1>x</h1>"};
    if (m.path === "/api/reset") return {status: 204, type: "", body: ""};
    return {status: 404, type: "text/plain; charset=utf-8", body: "404 page not found\n"};
  };
  const t = workerTransport("worker.js");
  assert.equal(FakeWorker.last.url, "worker.js");
  assert.deepEqual(await t.get("/api/view?topic=orders"), {t: 5});
  assert.deepEqual(await t.post("/api/exec", {line: "stop 2"}), {ok: true, status: 200, body: {output: "stop 2", ok: true}});
  assert.deepEqual(await t.post("/api/scenario/step", {}), {ok: false, status: 409, body: {error: "stale", session: {id: 2, step: 0}}});
  assert.deepEqual(await t.post("/api/reset"), {ok: true, status: 204, body: null});
  assert.deepEqual(await t.text("/api/note?name=x"), {ok: true, text: "<h1>x</h1>"});
  await assert.rejects(t.get("/api/nope"), /404/);
  const calls = FakeWorker.last.sent.filter((m) => m.op === "call");
  assert.deepEqual(calls.map((m) => m.method), ["GET", "POST", "POST", "POST", "GET", "GET"]);
  assert.equal(new Set(calls.map((m) => m.id)).size, calls.length, "every call has an id of its own");
  assert.deepEqual(await t.stats(), {heap_bytes: 1, sys_bytes: 2, wasm_bytes: 3, t: 4});
});

test("the stream: the updates its watch's frames make, its own only, until closed", () => {
  const t = workerTransport();
  const w = FakeWorker.last;
  const got = [];
  const close = t.stream((u, size) => got.push([u.t, size]), undefined, "/api/stream?topic=orders&partition=1");
  const watch = w.sent.find((m) => m.op === "watch");
  assert.equal(watch.path, "/api/stream?topic=orders&partition=1");
  const full = `{"seq":1,"full":{"t":100,"brokers":[],"parts":[],"producers":[],"groups":[]}}`;
  w.emit({op: "update", id: watch.id, body: full});
  w.emit({op: "update", id: watch.id + 1000, body: `{"seq":1,"full":{"t":999}}`});
  const patch = `{"seq":2,"base":1,"set":{"t":200}}`;
  w.emit({op: "update", id: watch.id, body: patch});
  close();
  assert.deepEqual(w.sent.at(-1), {op: "unwatch", id: watch.id});
  w.emit({op: "update", id: watch.id, body: `{"seq":3,"base":2,"set":{"t":300}}`});
  assert.deepEqual(got, [[100, full.length], [200, patch.length]]);
});

test("the stream: a frame that does not follow starts the watch again, whose first frame is whole", () => {
  const t = workerTransport();
  const w = FakeWorker.last;
  const got = [];
  t.stream((u) => got.push(u.t), undefined, "/api/stream");
  const first = w.sent.find((m) => m.op === "watch");
  w.emit({op: "update", id: first.id, body: `{"seq":1,"full":{"t":100,"parts":[]}}`});
  w.emit({op: "update", id: first.id, body: `{"seq":3,"base":2,"set":{"t":300}}`}); // frame 2 was missed
  assert.deepEqual(w.sent.slice(-2).map((m) => m.op), ["unwatch", "watch"]);
  const again = w.sent.at(-1);
  assert.notEqual(again.id, first.id);
  assert.equal(again.path, "/api/stream");
  w.emit({op: "update", id: first.id, body: `{"seq":4,"base":3,"set":{"t":400}}`}); // the old watch's: ignored
  w.emit({op: "update", id: again.id, body: `{"seq":1,"full":{"t":500,"parts":[]}}`});
  assert.deepEqual(got, [100, 500]);
});

test("the stream: a watch the world refuses ends, and says why", () => {
  const t = workerTransport();
  const w = FakeWorker.last;
  const errs = [];
  t.stream(() => assert.fail("an update of a refused watch"), (e) => errs.push(String(e)), "/api/stream?parts_sort=x");
  const watch = w.sent.find((m) => m.op === "watch");
  w.emit({op: "end", id: watch.id, status: 400, body: "web: bad partition table query: parts_sort=\"x\""});
  assert.deepEqual(errs, ['Error: web: bad partition table query: parts_sort="x"']);
});

test("a world that cannot run fails every call and stream, and says why once", async () => {
  FakeWorker.answer = () => null; // never answers: the world is still loading
  const whys = [];
  const t = workerTransport("worker.js", (why) => whys.push(why));
  const w = FakeWorker.last;
  w.postMessage = (m) => w.sent.push(m);
  const pending = t.get("/api/view");
  const errs = [];
  t.stream(() => assert.fail("an update from a dead world"), (e) => errs.push(String(e)));
  w.emit({op: "fatal", body: "the world could not start: no WebAssembly"});
  await assert.rejects(pending, /no WebAssembly/);
  await assert.rejects(t.post("/api/reset"), /no WebAssembly/);
  assert.deepEqual(errs, ["Error: the world could not start: no WebAssembly"]);
  w.onerror({message: "again"});
  assert.deepEqual(whys, ["the world could not start: no WebAssembly"]);
  const late = [];
  t.stream(() => {}, (e) => late.push(String(e)));
  assert.equal(late.length, 1, "a stream opened after the world died is told at once");
});

test("Kafka clients in a world with no listeners: why, and how to get them", () => {
  const html = clientsHTML({listeners: null, connections: 0, unavailable: "In your browser the brokers cannot listen for Kafka clients."});
  const el = fragment(html);
  assert.match(el.textContent, /cannot listen for Kafka clients/);
  assert.doesNotMatch(el.textContent, /no listeners/);
  assert.ok(!html.includes("undefined"));
});
