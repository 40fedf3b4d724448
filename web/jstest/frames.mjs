// Applies the frames of real update streams with the page's own store
// (static/js/viewstore.js): each line of standard input is a stream, a
// JSON array of steps written by web's TestPageStoreAppliesTheServersFrames
// (a frame the page gets and the server's whole update it must make, a
// frame it misses, or one it must refuse because it follows a missed
// one), and each gets a line back: "ok", or what went wrong. Run by that
// Go test; not a test of node's runner.
import {deepStrictEqual} from "node:assert/strict";
import {createInterface} from "node:readline";

import {Resync, applyFrame} from "../static/js/viewstore.js";

/**
 * check applies a stream's steps and returns what went wrong ("" when
 * nothing did).
 * @param {{frame: string, whole?: string, lost?: boolean, resync?: boolean}[]} steps
 */
function check(steps) {
  let store = null;
  for (const [i, s] of steps.entries()) {
    if (s.lost) continue;
    const frame = JSON.parse(s.frame);
    if (s.resync) {
      try {
        applyFrame(store, frame);
      } catch (e) {
        if (e instanceof Resync) { store = null; continue; }
        return `step ${i}: ${e}`;
      }
      return `step ${i}: frame ${frame.seq} follows a frame the page missed, and the store took it`;
    }
    try {
      store = applyFrame(store, frame);
      deepStrictEqual(store.view, JSON.parse(s.whole || ""));
    } catch (e) {
      return `step ${i}, frame ${frame.seq}: ${e instanceof Error ? e.message : e}\nframe: ${s.frame.slice(0, 2000)}`;
    }
  }
  return "";
}

for await (const line of createInterface({input: process.stdin})) {
  const why = check(JSON.parse(line));
  process.stdout.write(why ? JSON.stringify(why) + "\n" : "ok\n");
}
