// @ts-check
// The learner's code in the world (go run ./exercises/live): per part
// "your code" or "reference", the failed calls with their input and
// stack, the latest events their code decided, and at the end of a guided
// scenario on their code its verdict.
import {esc} from "../html.js";

/** @typedef {import("../types.js").LearnerView} LearnerView */

/**
 * yourPart names the part of the learner's code that made what the page
 * draws of topic (kind "record": its batches, encoded by ch01/batch or,
 * inside the reference encoder, ch01/varint; kind "segment": its
 * segments, recovered at each broker start by ch04/recovery), "" when the
 * reference did or no learner's code runs.
 * @param {LearnerView | null | undefined} l
 * @param {"record" | "segment"} kind
 * @param {string} topic
 */
export function yourPart(l, kind, topic) {
  if (!l || !topic || topic.startsWith("__")) return "";
  /** @param {string} part */
  const runs = (part) => (l.parts || []).some((p) => p.part === part && p.runs === "your code");
  if (kind === "record") return runs("ch01/batch") ? "ch01/batch" : runs("ch01/varint") ? "ch01/varint" : "";
  return runs("ch04/recovery") ? "ch04/recovery" : "";
}

/**
 * verdictText says how the outcome of a guided scenario on the learner's
 * code compares with the reference's.
 * @param {NonNullable<LearnerView["verdict"]>} v
 */
export function verdictText(v) {
  if (v.matches) return `The outcome of ${v.scenario} on your code matches Kafka's (the reference's), step by step.`;
  const d = v.difference || {step: "", title: "", reference: "", your_code: ""};
  return `The outcome of ${v.scenario} on your code differs from Kafka's. First difference at step ${d.step} (${d.title}): Kafka: "${d.reference}"; your code: "${d.your_code}".`;
}

/**
 * learnerHTML draws the learner's panel.
 * @param {LearnerView} l
 */
export function learnerHTML(l) {
  let h = `<h2>Your code in the cluster</h2><ul class="learner-parts">` + (l.parts || []).map((p) =>
    `<li data-part="${esc(p.part)}" data-runs="${esc(p.runs)}"><b>${esc(p.part)}: </b><span class="${p.runs === "your code" ? "mark-yours" : "mark-reference"}">${esc(p.runs)}</span><span>${esc(" — " + p.used + (p.why ? " (" + p.why + ")" : ""))}</span></li>`).join("") + `</ul>`;
  if (l.verdict) h += `<p class="learner-verdict" data-matches="${l.verdict.matches}">${esc(verdictText(l.verdict))}</p>`;
  for (const f of l.faults || []) {
    h += `<details class="learner-fault"><summary>${esc(`${f.part}: ${f.kind}: ${f.value}`)}</summary><pre>${esc(f.call + (f.stack ? "\n\n" + f.stack : ""))}</pre></details>`;
  }
  if ((l.marks || []).length) {
    h += `<h3>Decided by your code</h3><ul class="learner-marks">` +
      (l.marks || []).map((m) => `<li data-part="${esc(m.part)}">${esc(`[your code: ${m.part}] ${m.event}`)}</li>`).join("") + `</ul>`;
  }
  return h;
}
