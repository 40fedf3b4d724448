// @ts-check
// The timeline's ticks: one for each action (a crash, a command...);
// choosing one shows the moment just before it.
import {esc} from "../html.js";

/** @typedef {import("../types.js").Mark} Mark */

/**
 * marksHTML places a tick for each mark after start on a timeline that
 * spans start to now.
 * @param {Mark[]} marks
 * @param {number} now
 * @param {number} start
 */
export function marksHTML(marks, now, start) {
  if (now <= start) return "";
  return marks.filter((m) => m.t > start).map((m) => {
    const label = `t=${(m.t / 1000).toFixed(1)} s: ${esc(m.text)}`;
    return `<i role="button" tabindex="0" data-key="${m.t}-${esc(m.text)}" style="left:${(100 * (m.t - start) / (now - start)).toFixed(2)}%" data-at="${Math.max(start, m.t - 100)}" title="${label}" aria-label="the moment before ${label}"></i>`;
  }).join("");
}
