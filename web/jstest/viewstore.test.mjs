// The page's store of the update stream (viewstore.js): random sequences
// of updates, each sent as the patch of the one before (made here the way
// the server makes them: web.Frame), give the page every update whole; a
// page that misses a frame is told to start again. TestPageStoreAppliesTheServersFrames
// (Go) runs the same store on the server's own frames.
import assert from "node:assert/strict";
import {test} from "node:test";

import {Lists, Resync, applyFrame, keyOf} from "../static/js/viewstore.js";
import {mulberry32, replay, seeds} from "./rand.mjs";

/**
 * entity draws an entity of the list called list, id n, version v.
 * @param {() => number} r
 * @param {string} list
 * @param {number} n
 * @param {number} v
 */
function entity(r, list, n, v) {
  const x = Math.floor(r() * 5);
  switch (list) {
  case "brokers": return {v, id: n, state: ["running", "stopped"][x % 2], disk: x * 100};
  case "parts": return {v, topic: ["orders", "a-1", "big"][n % 3], p: Math.floor(n / 3), leader: x % 4, isr: [1, 2, 3].slice(0, 1 + x % 3)};
  default: return {v, name: `${list}-${n}`, sent: x};
  }
}

/**
 * nextUpdate draws an update after u: lists whose entities come, go,
 * change (a new version) or move, and fields that change or go.
 * @param {() => number} r
 * @param {any} u
 * @param {{v: number}} clock
 */
function nextUpdate(r, u, clock) {
  const out = {...u, t: u.t + 100};
  if (r() < 0.3) out.detail = {topic: "orders", p: Math.floor(r() * 3)};
  if (r() < 0.2) delete out.journey; else if (r() < 0.2) out.journey = {offset: Math.floor(r() * 9)};
  for (const list of Lists) {
    let l = [...u[list]];
    if (r() < 0.4) l = l.map((e) => r() < 0.3 ? entity(r, list, idOf(list, e), ++clock.v) : e);
    if (r() < 0.2) l.splice(Math.floor(r() * (l.length + 1)), 1);
    if (r() < 0.3) {
      const n = Math.floor(r() * 12);
      if (!l.some((e) => idOf(list, e) === n)) l.splice(Math.floor(r() * (l.length + 1)), 0, entity(r, list, n, ++clock.v));
    }
    if (r() < 0.1) l.reverse();
    out[list] = l;
  }
  return out;
}

/** idOf is the number an entity was drawn with. */
function idOf(list, e) {
  if (list === "brokers") return e.id;
  if (list === "parts") return ["orders", "a-1", "big"].indexOf(e.topic) + 3 * e.p;
  return Number(e.name.split("-").at(-1));
}

/**
 * patch is the frame seq that turns from into to, as web's frames.next
 * makes it.
 */
function patch(seq, from, to) {
  const f = {seq, base: seq - 1, set: {}, del: [], lists: {}};
  for (const [k, v] of Object.entries(to)) {
    if (Lists.includes(k)) continue;
    if (JSON.stringify(from[k]) !== JSON.stringify(v)) f.set[k] = v;
  }
  for (const k of Object.keys(from)) if (!(k in to)) f.del.push(k);
  for (const list of Lists) {
    const had = new Map(from[list].map((e) => [keyOf(list, e), e.v]));
    const ids = to[list].map((e) => keyOf(list, e));
    const lp = {};
    for (const e of to[list]) {
      if (had.get(keyOf(list, e)) !== e.v) (lp.put ||= {})[keyOf(list, e)] = e;
    }
    if (ids.join("\n") !== from[list].map((e) => keyOf(list, e)).join("\n")) lp.ids = ids;
    if (lp.put || lp.ids) f.lists[list] = lp;
  }
  return f;
}

test("patches make every update whole; a missed frame makes the page start again", () => {
  for (const seed of seeds(40)) {
    const r = mulberry32(seed);
    const clock = {v: 0};
    let u = {t: 0, mode: "live", brokers: [], parts: [], producers: [], groups: []};
    let store = applyFrame(null, {seq: 1, full: /** @type {any} */ (u)});
    let seq = 1;
    try {
      for (let step = 0; step < 60; step++) {
        const next = nextUpdate(r, u, clock);
        const f = patch(++seq, u, next);
        u = next;
        if (r() < 0.1) {
          // the page misses this frame: the next one cannot apply
          const g = patch(++seq, u, u = nextUpdate(r, u, clock));
          assert.throws(() => applyFrame(store, /** @type {any} */ (g)), Resync, `step ${step}: a frame after a missed one applied`);
          seq = 1;
          store = applyFrame(store, {seq, full: /** @type {any} */ (structuredClone(u))});
          continue;
        }
        const before = JSON.stringify(store.view);
        const after = applyFrame(store, /** @type {any} */ (f));
        assert.equal(JSON.stringify(store.view), before, `step ${step}: applying a frame changed the store it was given`);
        store = after;
        assert.deepEqual(store.view, u, `step ${step}: the store is not the update`);
        assert.equal(store.seq, seq);
      }
    } catch (e) {
      throw new Error(`${e instanceof Error ? e.message : e}\n${replay(seed, "viewstore.test.mjs")}`);
    }
  }
});

test("a patch that places an entity nowhere, names one neither held nor sent, or patches no list, is refused", () => {
  const store = applyFrame(null, {seq: 1, full: /** @type {any} */ ({t: 1, brokers: [{v: 1, id: 1}], parts: [], producers: [], groups: []})});
  for (const f of [
    {seq: 2, base: 1, lists: {brokers: {put: {2: {v: 2, id: 2}}}}},
    {seq: 2, base: 1, lists: {brokers: {ids: ["1", "3"]}}},
    {seq: 2, base: 1, lists: {topics: {ids: []}}},
    {seq: 2, base: 1, set: {brokers: []}},
    {seq: 2, base: 7, set: {t: 2}},
  ]) {
    assert.throws(() => applyFrame(store, /** @type {any} */ (f)), Resync, JSON.stringify(f));
  }
  assert.throws(() => applyFrame(null, {seq: 2, base: 1}), Resync, "a patch with no store before it");
  const moved = applyFrame(store, /** @type {any} */ ({seq: 2, base: 1, lists: {brokers: {put: {2: {v: 2, id: 2}}, ids: ["2", "1"]}}}));
  assert.deepEqual(moved.view.brokers, [{v: 2, id: 2}, {v: 1, id: 1}]);
  assert.equal(moved.view.brokers[1], store.view.brokers[0], "an entity the patch leaves is shared, not copied");
});
