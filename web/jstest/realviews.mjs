// Renders every panel of each update in the JSON file given (an array of
// the server's real updates, written by web's TestPageRendersRealUpdates,
// or an observed cluster's, by web/observed's
// TestSharedPageRendersObservedUpdates)
// and fails on a value a renderer did not have: undefined, NaN, an object
// printed as text. Run by that Go test; not a test of node's runner.
import {readFileSync} from "node:fs";

import {brokersHTML, controllerNote} from "../static/js/render/brokers.js";
import {clientsHTML} from "../static/js/render/clients.js";
import {metaHTML, segfilesHTML, tracksHTML} from "../static/js/render/detail.js";
import {eventsHTML} from "../static/js/render/events.js";
import {groupsHTML} from "../static/js/render/groups.js";
import {internalText} from "../static/js/render/internal.js";
import {journeyHTML} from "../static/js/render/journey.js";
import {learnerHTML, yourPart} from "../static/js/render/learner.js";
import {pageText, partsHTML, topicsHTML} from "../static/js/render/partitions.js";
import {producersHTML} from "../static/js/render/producers.js";
import {playHTML} from "../static/js/render/scenarios.js";
import {observedBannerHTML, observedMetaHTML, observedProducersHTML, observedTracksHTML} from "../static/js/render/observed.js";
import {marksHTML} from "../static/js/render/timeline.js";

const updates = JSON.parse(readFileSync(process.argv[2], "utf8"));
let bad = 0;
for (const [i, v] of updates.entries()) {
  const out = {
    controller: controllerNote(v), brokers: brokersHTML(v), producers: producersHTML(v), groups: groupsHTML(v, () => "1/s"),
    parts: partsHTML(v), events: eventsHTML(v), marks: marksHTML(v.marks || [], v.now, v.start || 0),
  };
  if (v.observed) out.observed = observedBannerHTML(v.observed, !!v.past);
  if (v.detail && v.observed) {
    const d = v.detail;
    out.meta = observedMetaHTML(d, v.observed);
    out.tracks = observedTracksHTML(d);
    out.segfiles = observedProducersHTML(v.observed);
  } else if (v.detail) {
    const d = v.detail;
    out.meta = metaHTML(d);
    out.tracks = tracksHTML(d, {room: 12, cell: 46, selected: null, mine: yourPart(v.learner, "record", d.topic)});
    out.segfiles = segfilesHTML(d, yourPart(v.learner, "segment", d.topic));
    if (v.journey) {
      out.journey = journeyHTML(v, {topic: v.journey.topic, p: v.journey.p, offset: v.journey.offset, value: v.journey.value});
      if (!out.journey) { bad++; console.error(`update ${i}: the journey of the record followed is not drawn`); }
    }
  }
  if (v.table) { out.topics = topicsHTML(v.table); out.page = pageText(v.table); }
  if (v.kafka) out.kafka = clientsHTML(v.kafka);
  if (v.learner) out.learner = learnerHTML(v.learner);
  if (v.internal) out.internal = internalText(v.internal);
  if (v.session && v.session.play) out.play = playHTML(v.session.play, {}, "", false);
  for (const [panel, html] of Object.entries(out)) {
    for (const word of ["undefined", "NaN", "[object Object]"]) {
      if (html.includes(word)) {
        bad++;
        console.error(`update ${i} (t=${v.t}): the ${panel} panel wrote ${word}:\n${html.slice(Math.max(0, html.indexOf(word) - 300), html.indexOf(word) + 100)}`);
      }
    }
  }
}
console.log(`${updates.length} updates rendered`);
process.exit(bad ? 1 : 0);
