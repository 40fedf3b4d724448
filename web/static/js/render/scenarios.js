// @ts-check
// The guided scenarios: the list, grouped, and the scenario being played
// (the step played with its answer and events, the next step's question).
import {esc} from "../html.js";

/** @typedef {import("../types.js").ScenarioInfo} ScenarioInfo */
/** @typedef {import("../types.js").StepView} StepView */

export const groupTitles = {basics: "Basics", durability: "Durability", kip101: "KIP-101: leader epochs", consumers: "Consumer groups", keys: "Keys and the log"};

// scenarioCards are the scenarios' titles and subtitles in the list; the
// scenario's own title and summary, longer, show once it is chosen.
export const scenarioCards = {
  "life-of-a-record": ["The life of one record", "Follow one record from the producer to three brokers to a consumer."],
  "acks1-loses-acked-writes": ["acks=1 loses acked writes", "The leader confirms a write no follower has, then dies."],
  "acks-all-and-the-isr": ["acks=all is only as strong as the ISR", "With min.insync.replicas=1, \"all\" can mean one broker."],
  "unclean-leader-election": ["Unclean leader election", "Availability or durability, when the only in-sync replica dies."],
  "your-producer-power-cut": ["Your producer, acks=1, and a power cut", "Point kcat at the brokers, send five records, then cut the leader's power."],
  "kip101-part1": ["KIP-101, part 1: a restart loses an acked record (Kafka 0.10)", "Followers used to cut back to their own high watermark. Watch why that was wrong."],
  "kip101-part2": ["KIP-101, part 2: the same restart with leader epochs (Kafka 0.11+)", "Followers ask the leader where their epoch ended instead of trusting their own HW."],
  "kip101-part3": ["KIP-101, part 3: logs diverge after a power cut (Kafka 0.10)", "Two replicas end up with different records at the same offset, and both look in sync."],
  "kip101-part4": ["KIP-101, part 4: the power cut with leader epochs", "Epochs keep the replicas identical, though the unflushed write is still gone."],
  "kip279-two-rounds": ["KIP-279: two rounds of truncation (Kafka 2.0)", "After fast unclean elections a returning follower must ask twice to find where the logs part."],
  "eager-vs-cooperative": ["Eager vs cooperative rebalancing", "Two groups get a new member at the same moment. One stops, one keeps reading."],
  "crash-is-not-a-goodbye": ["A crash is not a goodbye", "Clean shutdown vs crash, and why at-least-once means duplicates."],
  "keys-order-partitions": ["Keys, order and partitions", "Same key, same partition; until the partition count changes."],
  "retention-and-compaction": ["Retention and compaction", "Old data is deleted on a schedule, read or not; compaction keeps the latest per key."],
};

/**
 * listHTML lists the scenarios under their groups' titles, in the order
 * the server gives them.
 * @param {ScenarioInfo[]} list
 */
export function listHTML(list) {
  /** @type {Record<string, ScenarioInfo[]>} */
  const groups = {};
  for (const s of list) (groups[s.group] ||= []).push(s);
  /** @type {Record<string, string>} */
  const titles = groupTitles;
  /** @type {Record<string, string[]>} */
  const cards = scenarioCards;
  let h = "";
  for (const g of Object.keys(groups)) {
    h += `<div class="scen-group"><h3>${esc(titles[g] || g)}</h3>` + groups[g].map((s) => {
      const [title, sub] = cards[s.name] || [s.title, s.summary];
      return `<button type="button" class="scen" data-scenario="${esc(s.name)}"><b>${esc(title)}</b><span>${esc(sub)} · ${s.steps} steps</span></button>`;
    }).join("") + `</div>`;
  }
  return h;
}

/**
 * playHTML draws the scenario being played: s is the server's step view,
 * info its entry in the list, note why the session last changed, and
 * cmdsOpen whether the reader opened the step's commands.
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
    for (const p of s.intro) h += `<p>${esc(p)}</p>`;
  }
  if (s.played) {
    const p = s.played;
    if (p.question) {
      // the question just answered, the choice made and the right one
      h += `<div class="q answered"><b>${esc(p.question)}</b>` + (p.choices || []).map((c, i) =>
        `<button type="button" class="choice ${i + 1 === p.answer ? "right" : i + 1 === p.chosen ? "wrong" : ""}" disabled>${esc(c)}</button>`).join("") + `</div>`;
    }
    if (p.answer) {
      h += `<p class="why"><b>${p.chosen === p.answer ? "Right." : p.chosen ? "Not quite." : ""}</b> ${esc(p.why || "")}</p>`;
    }
    if (p.actions && p.actions.length) {
      h += `<details class="cmds"><summary>the commands step ${esc(p.id)} ran</summary><ol class="actions">${p.actions.map((a) => `<li>${esc(a)}</li>`).join("")}</ol></details>`;
    }
    h += `<div class="evs" tabindex="0" aria-label="what happened">${(p.events || []).map(esc).join("\n") || "(nothing happened)"}</div>`;
    if (p.failed && p.failed.length) h += `<p class="muted">The simulation differs from the reference here: ${p.failed.map(esc).join("; ")}</p>`;
  }
  if (s.done || !s.next) {
    h += `<p class="done" id="scen-done">The end of the scenario. The page shows its final state; Reset goes back to the live cluster.</p>`;
  } else {
    const n = s.next;
    h += `<h4>Step ${esc(n.id)}${n.title ? ": " + esc(n.title) : ""}${n.branch ? ` (branch ${esc(n.branch)})` : ""}</h4>`;
    for (const p of n.fork || []) h += `<p><i>${esc(p)}</i></p>`;
    for (const p of n.narration || []) h += `<p>${esc(p)}</p>`;
    if (n.actions && n.actions.length) {
      h += `<details class="cmds"${cmdsOpen ? " open" : ""}><summary>show the commands</summary><ol class="actions">${n.actions.map((a) => `<li>${esc(a)}</li>`).join("")}</ol></details>`;
    }
    if (n.question) {
      h += `<div class="q"><b>What will happen?</b> ${esc(n.question)}` +
        (n.choices || []).map((c, i) => `<button type="button" class="choice" data-guess="${i + 1}">${esc(c)}</button>`).join("") + `</div>`;
      h += `<button type="button" id="scen-next">skip the question and play</button>`;
    } else {
      h += `<button type="button" id="scen-next">Play this step</button>`;
    }
  }
  return h + `</div>`;
}
