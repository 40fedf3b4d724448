// The shared page's panels on an observed cluster: every figure the
// cluster did not tell is "not observed", never a number; no panel offers
// an action; the lag over time is a chart with gaps where a poll could
// not tell it.
import assert from "node:assert/strict";
import {test} from "node:test";

import {brokersHTML, controllerNote} from "../static/js/render/brokers.js";
import {groupsHTML} from "../static/js/render/groups.js";
import {lagChartSVG, nobs, observedBannerHTML, observedMetaHTML, observedProducersHTML, observedTracksHTML} from "../static/js/render/observed.js";
import {fragment} from "./fakedom.mjs";
import {observedUpdate} from "./fixtures.mjs";

/** clean fails when a renderer wrote a value it did not have, or a -1. */
function clean(html, what) {
  for (const bad of ["undefined", "NaN", "[object Object]", "null", ">-1<", " -1"]) {
    assert.ok(!html.includes(bad), `${what} wrote ${bad}:\n${html}`);
  }
  return fragment(html);
}

test("observed brokers: state as a client sees it, what is not told not observed, no button", () => {
  const v = observedUpdate();
  const el = clean(brokersHTML(v), "brokersHTML");
  assert.equal(el.querySelectorAll(".broker").length, 3);
  assert.equal(el.querySelectorAll("button").length, 0);
  const down = el.querySelectorAll(".broker")[2].textContent;
  assert.match(down, /Down/);
  assert.match(down, /Logs\s*not observed/);
  assert.match(el.querySelectorAll(".broker")[0].textContent, /Page cache, traffic, fetches: not observed/);
  assert.match(el.querySelectorAll(".broker")[0].textContent, /127.0.0.1:9092 · \/var\/lib\/kafka/);
  assert.match(clean(controllerNote(v), "controllerNote").textContent, /leader 1, epoch 2, high watermark 90 · voters 1 \(leader\) LEO 90, 2 LEO not observed/);
});

test("observed groups: members described, the lag over time drawn, no button", () => {
  const v = observedUpdate();
  const el = clean(groupsHTML(v, () => ""), "groupsHTML");
  assert.equal(el.querySelectorAll("button").length, 0);
  assert.equal(el.querySelectorAll("svg.lagchart").length, 2, "the group's total and its partition's");
  assert.match(el.textContent, /generation not observed/);
  assert.doesNotMatch(el.textContent, /your client/);
});

test("lag chart: a gap where a poll did not tell the lag, nothing for fewer than two samples", () => {
  const svg = lagChartSVG([0, 1000, 2000, 3000], [1, -1, 4, 2], "lag");
  assert.equal((svg.match(/<path /g) || []).length, 2, svg);
  assert.match(svg, /2 now, at most 4 over the last 3 s/);
  assert.equal(lagChartSVG([0], [1], "lag"), "");
  assert.equal(lagChartSVG([0, 1], [1], "lag"), "", "times and lags must pair");
});

test("observed detail: offsets and bytes, records never drawn, a follower's HW not observed", () => {
  const v = observedUpdate();
  const d = /** @type {any} */ (v.detail), o = /** @type {any} */ (v.observed);
  const meta = clean(observedMetaHTML(d, o), "observedMetaHTML").textContent;
  assert.match(meta, /Eligible leader replicas3/);
  assert.match(meta, /Last stable offset6/);
  assert.match(meta, /min.insync.replicas=2/);
  const tracks = clean(observedTracksHTML(d), "observedTracksHTML");
  assert.equal(tracks.querySelectorAll(".rec").length, 0);
  assert.equal(tracks.querySelectorAll(".logrow").length, 3);
  assert.match(tracks.querySelectorAll(".logrow")[1].textContent, /LEO 7 · own HW not observed · 2 behind the leader/);
  assert.match(tracks.querySelectorAll(".logrow")[2].textContent, /LEO not observed/);
  assert.match(clean(observedProducersHTML(o), "observedProducersHTML").textContent, /as of sample 4/);
  assert.match(observedProducersHTML({...o, producers_seq: 0, producers: null}), /not observed yet/);
  const noELR = observedMetaHTML(d, {...o, elr_observed: false});
  assert.match(noELR, /Eligible leader replicas<\/dt><dd><span class="nobs"/, "without DescribeTopicPartitions the ELR is not observed, not empty");
});

test("observed banner: the sample, the poll's cost, why nothing acts", () => {
  const o = /** @type {any} */ (observedUpdate().observed);
  const el = clean(observedBannerHTML(o, true), "observedBannerHTML");
  assert.match(el.textContent, /sample 5 of 1–5 \(the past\)/);
  assert.match(el.textContent, /23 requests in 4.2 ms/);
  assert.match(el.textContent, /This page only looks/);
  assert.equal(nobs(-1).includes("not observed"), true);
  assert.equal(nobs(0), "0");
});
