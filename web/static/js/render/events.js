// @ts-check
// The events list, newest first.
import {esc} from "../html.js";

/** @typedef {import("../types.js").View} View */

/**
 * eventsHTML lists the view's events, newest first.
 * @param {View} v
 */
export function eventsHTML(v) {
  return (v.events || []).slice().reverse().map((e) => `<li>${esc(e)}</li>`).join("");
}
