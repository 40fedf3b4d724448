// @ts-check
// The guided scenarios: the list, grouped, and the scenario being played
// (the step played with its answer and events, the next step's question).
import {esc} from "../html.js";

/** @typedef {import("../types.js").ScenarioInfo} ScenarioInfo */
/** @typedef {import("../types.js").StepView} StepView */

/**
 * listHTML lists the scenarios under their groups' headings, in the order
 * the server gives them (the scenario files': their titles, the lines
 * under them and the groups' headings); a guided scenario on the
 * learner's code names the part it plays.
 * @param {ScenarioInfo[]} list
 */
export function listHTML(list) {
  /** @type {Map<string, ScenarioInfo[]>} */
  const groups = new Map();
  for (const s of list) groups.set(s.group, [...(groups.get(s.group) || []), s]);
  let h = "";
  for (const [, ss] of groups) {
    h += `<div class="scen-group"><h3>${esc(ss[0].group_title || ss[0].group)}</h3>` + ss.map((s) =>
      `<button type="button" class="scen" data-scenario="${esc(s.name)}"><b>${esc(s.title)}</b><span>${esc(s.summary)}${s.part ? ` · plays your ${esc(s.part)}` : ""} · ${s.steps} steps</span></button>`).join("") + `</div>`;
  }
  return h;
}

/**
 * waitHTML says what a step that waits for the user's Kafka client waits
 * for: where to point the client, what the brokers have seen of it, and
 * the guess kept until its records are there.
 * @param {import("../types.js").WaitView} w
 */
export function waitHTML(w) {
  let h = `<div class="wait" id="scen-wait" role="status">`;
  if (!w.bootstrap) {
    h += `<p>The brokers here have no Kafka listeners (kafkalive serve --no-kafka, or the world running in your browser): a simulated producer sends the ${w.records} records when you play the step.</p>`;
    return h + `</div>`;
  }
  h += `<p><b>Waiting for your Kafka client:</b> ${w.have} of ${w.records} records in ${esc(w.topic)}. Broker 1 listens on <code>${esc(w.bootstrap)}</code>.</p>`;
  const clients = w.clients || [];
  h += clients.length ? `<p>Seen by the brokers: ${clients.map(esc).join("; ")}.</p>` : `<p class="muted">No Kafka client has spoken to the brokers yet.</p>`;
  if (w.held) h += `<p class="held">Your ${w.held > 0 ? "guess is" : "choice to play without a guess is"} in: the step plays as soon as the records are there.</p>`;
  h += `<button type="button" id="scen-standin">No Kafka client? A simulated producer sends them</button>`;
  return h + `</div>`;
}

/**
 * playedHTML tells the step just played: the question with the choice
 * made and the right one, what happened and why, the commands it ran and
 * its events.
 * @param {import("../types.js").PlayedStep} p
 */
export function playedHTML(p) {
  let h = "";
  if (p.question) {
    h += `<div class="q answered"><b>${esc(p.question)}</b>` + (p.choices || []).map((c, i) =>
      `<button type="button" class="choice ${i + 1 === p.answer ? "right" : i + 1 === p.chosen ? "wrong" : ""}" disabled>${esc(c)}${i + 1 === p.answer ? ` <span class="sr">(the answer)</span>` : i + 1 === p.chosen ? ` <span class="sr">(your guess)</span>` : ""}</button>`).join("") + `</div>`;
  }
  h += `<p class="outcome" id="scen-outcome"><b>${p.answer ? (p.chosen === p.answer ? "Right. " : p.chosen ? "Not quite. " : "") : ""}Step ${esc(p.id)}: ${esc(p.outcome || p.title)}</b></p>`;
  for (const r of p.reveal || []) h += `<p>${esc(r)}</p>`;
  if (p.why) h += `<p class="why">${esc(p.why)}</p>`;
  if (p.stand_in) h += `<p class="muted">A simulated producer sent the records in place of your Kafka client.</p>`;
  if (p.actions && p.actions.length) {
    h += `<details class="cmds played"><summary>the commands step ${esc(p.id)} ran</summary><ol class="actions">${p.actions.map((a) => `<li>${esc(a)}</li>`).join("")}</ol></details>`;
  }
  h += `<div class="evs" tabindex="0" aria-label="what happened">${(p.events || []).map(esc).join("\n") || "(nothing happened)"}</div>`;
  if (p.failed && p.failed.length) h += `<p class="muted">The simulation differs from the reference here: ${p.failed.map(esc).join("; ")}</p>`;
  return h;
}

/**
 * playHTML draws the scenario being played: s is the server's step view,
 * info its entry in the list, note why the session last changed, and
 * cmdsOpen whether the reader opened the step's commands. Guess, then
 * watch: before a step is played it shows only its situation and its
 * question; what happened and why come with the step played.
 * @param {StepView} s
 * @param {Partial<ScenarioInfo>} info
 * @param {string} note
 * @param {boolean} cmdsOpen
 */
export function playHTML(s, info, note, cmdsOpen) {
  let h = `<div class="play"><button type="button" id="scen-leave">← all scenarios</button><h3>${esc(s.title)}</h3>`;
  if (note) h += `<p class="offline" id="scen-note" role="status">${esc(note)}</p>`;
  if (s.intro) {
    if (info.summary) h += `<p class="summary">${esc(info.summary)}</p>`;
    if (info.source) h += `<p class="source">Based on ${esc(info.source)}</p>`;
    if (info.part) h += `<p class="source">Plays your ${esc(info.part)}, or the reference where it does not run: the panel "Your code in the cluster" says which, and compares the outcome with the reference's at the end.</p>`;
    for (const p of s.intro) h += `<p>${esc(p)}</p>`;
  }
  if (s.played) h += playedHTML(s.played);
  if (s.done || !s.next) {
    h += `<div class="done" id="scen-done"><p><b>The end of the scenario.</b>${s.lesson ? " " + esc(s.lesson) : ""}</p>
      <p>The page keeps its final state: look around, drag the timeline back to see any moment of it again, or type commands. "← all scenarios" goes back to the live cluster as you left it; Reset starts a fresh one.</p></div>`;
  } else {
    const n = s.next;
    h += `<h4>Step ${esc(n.id)}${n.title ? ": " + esc(n.title) : ""}${n.branch ? ` (branch ${esc(n.branch)})` : ""}</h4>`;
    for (const p of n.fork || []) h += `<p><i>${esc(p)}</i></p>`;
    for (const p of n.narration || []) h += `<p>${esc(p)}</p>`;
    if (n.actions && n.actions.length) {
      h += `<details class="cmds"${cmdsOpen ? " open" : ""}><summary>show the commands</summary><ol class="actions">${n.actions.map((a) => `<li>${esc(a)}</li>`).join("")}</ol></details>`;
    }
    if (n.refused) {
      h += `<p class="offline" id="scen-refused" role="alert">${esc(n.refused)}</p>` +
        `<button type="button" id="scen-replay">Replay the scenario to step ${esc(n.id)}</button>`;
      return h + `</div>`;
    }
    if (n.wait) h += waitHTML(n.wait);
    const held = n.wait && n.wait.held;
    if (n.question) {
      h += `<div class="q"><b>What will happen?</b> ${esc(n.question)}` +
        (n.choices || []).map((c, i) => `<button type="button" class="choice${held === i + 1 ? " held" : ""}" data-guess="${i + 1}"${held ? " disabled" : ""}>${esc(c)}</button>`).join("") + `</div>`;
      h += `<button type="button" id="scen-next"${held ? " disabled" : ""}>skip the question and play</button>`;
    } else {
      h += `<button type="button" id="scen-next"${held ? " disabled" : ""}>Play this step</button>`;
    }
  }
  return h + `</div>`;
}
