// @ts-check
// The scenario session in the page's URL.
//
// The server holds the session every tab follows (the scenario played, its
// step, the answers chosen); the URL keeps the same
// (?scenario=NAME&step=N&answers=A,B), so that a reload after the server
// restarted plays the scenario again to the same step.

/** @typedef {import("./types.js").Session} Session */

/**
 * Wanted is the session a URL asks for.
 * @typedef {object} Wanted
 * @property {string | null} scenario
 * @property {number} step
 * @property {number[]} answers
 */

/**
 * wantedSession reads the session a URL's query string asks for.
 * @param {string} search
 * @returns {Wanted}
 */
export function wantedSession(search) {
  const q = new URLSearchParams(search);
  const answers = (q.get("answers") || "").split(",").filter((a) => a !== "").map(Number);
  return {scenario: q.get("scenario"), step: Number(q.get("step")) || 0, answers};
}

/**
 * sessionURL is the page's address (path, query and hash) showing session
 * s, keeping the query's other parts.
 * @param {{pathname: string, search: string, hash: string}} loc
 * @param {Session} s
 */
export function sessionURL(loc, s) {
  const q = new URLSearchParams(loc.search);
  for (const k of ["scenario", "step", "answers"]) q.delete(k);
  if (s.scenario) {
    q.set("scenario", s.scenario);
    q.set("step", String(s.step));
    if ((s.answers || []).some((a) => a)) q.set("answers", (s.answers || []).join(","));
  }
  const qs = q.toString();
  return loc.pathname + (qs ? "?" + qs : "") + loc.hash;
}

/**
 * isStale says whether s arrived after a newer session prev: ids only
 * grow, and so do a session's steps.
 * @param {Session | null} prev
 * @param {Session} s
 */
export function isStale(prev, s) {
  return !!prev && (s.id < prev.id || (s.id === prev.id && s.step < prev.step));
}
