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

/** restartText says that the page runs the code it started with. */
const restartText = "This page runs your code as it was when the page started: after a fix, stop it (Ctrl-C) and run go run ./exercises/live again.";

/**
 * verdictText says how the outcome of a guided scenario on the learner's
 * code compares with the reference's, and, when it differs, that a fix
 * needs a restart.
 * @param {NonNullable<LearnerView["verdict"]>} v
 */
export function verdictText(v) {
  if (v.matches) return `The outcome of ${v.scenario} on your code matches Kafka's (the reference's), step by step.`;
  const d = v.difference || {step: "", title: "", reference: "", your_code: ""};
  return `The outcome of ${v.scenario} on your code differs from Kafka's. First difference at step ${d.step} (${d.title}): Kafka: "${d.reference}"; your code: "${d.your_code}". ${restartText}`;
}

/**
 * noteOf is the chapter's note of a part: ch02/index is the note whose
 * name starts with 02- ("" when the page has none).
 * @param {string} part
 * @param {string[]} notes the notes' names
 */
export function noteOf(part, notes) {
  const m = /^ch(\d+)\//.exec(part);
  return (m && notes.find((n) => n.startsWith(m[1] + "-"))) || "";
}

/**
 * partHTML is one part's line: what runs it (your code only when its
 * tests pass), its tests, the scenarios that play it, its first
 * divergence, and whether its files changed since the page started.
 * @param {import("../types.js").LearnerPart} p
 */
function partHTML(p) {
  const failing = p.runs === "your code" && (p.tests || "").startsWith("fail");
  const runs = failing ? "your code, its tests fail" : p.runs === "your code" && p.tests === "running" ? "your code (its tests are running)" : p.runs;
  let h = `<li data-part="${esc(p.part)}" data-runs="${esc(p.runs)}" data-tests="${esc(p.tests || "")}"><b>${esc(p.part)}: </b><span class="${p.runs !== "your code" ? "mark-reference" : failing ? "mark-failing" : "mark-yours"}">${esc(runs)}</span><span>${esc(" — " + p.used + (p.why ? " (" + p.why + ")" : ""))}</span>`;
  if (failing) h += `<div class="learner-sub mark-failing">${esc((p.tests || "").replace(/^fail: /, ""))} · <code>${esc(p.command)}</code></div>`;
  if ((p.scenarios || []).length) h += `<div class="learner-sub">played by ${(p.scenarios || []).map((s) => `<button type="button" class="linkish" data-scenario-link="${esc(s)}">${esc(s)}</button>`).join(", ")}</div>`;
  if (p.divergence) h += `<div class="learner-sub mark-failing">first divergence, in ${esc(p.divergence.scenario)} step ${esc(p.divergence.step)}: Kafka "${esc(p.divergence.reference)}", your code "${esc(p.divergence.your_code)}"</div>`;
  if (p.changed) h += `<div class="learner-sub cue">its files changed since this page started, which runs the code it started with: stop it (Ctrl-C) and run <code>go run ./exercises/live</code> again to run the new code</div>`;
  return h + `</li>`;
}

/**
 * learnerHTML draws the learner's panel; notes are the notes' names, for
 * the links from a fault to its chapter.
 * @param {LearnerView} l
 * @param {string[]} [notes]
 */
export function learnerHTML(l, notes = []) {
  let h = `<h2>Your code in the cluster</h2><p class="learner-restart">Under each part, the guided scenarios that play it. This page runs your code as it was when the page started: after a fix, stop it (Ctrl-C) and run <code>go run ./exercises/live</code> again.</p>` +
    `<ul class="learner-parts">` + (l.parts || []).map(partHTML).join("") + `</ul>`;
  if (l.verdict) h += `<p class="learner-verdict" data-matches="${l.verdict.matches}">${esc(verdictText(l.verdict))}</p>`;
  for (const f of l.faults || []) {
    const note = noteOf(f.part, notes);
    h += `<details class="learner-fault" data-part="${esc(f.part)}"><summary>${esc(`${f.part}: ${f.kind}: ${f.value}`)}${f.more ? ` (and ${f.more} more)` : ""}</summary>` +
      `<p>${note ? `Read <a href="#note/${esc(note)}">the chapter's note</a>, then ` : ""}run <code>${esc(f.command)}</code>: the tests show the smallest input that fails.</p>` +
      `<pre>${esc(f.call + (f.stack ? "\n\n" + f.stack : ""))}</pre></details>`;
  }
  if ((l.marks || []).length) {
    h += `<h3>Decided by your code</h3><ul class="learner-marks">` +
      (l.marks || []).map((m) => `<li data-part="${esc(m.part)}">${esc(`[your code: ${m.part}] ${m.event}`)}${m.count ? ` <b>×${m.count}</b> (to t=${m.last_ms})` : ""}</li>`).join("") + `</ul>`;
  }
  return h;
}
