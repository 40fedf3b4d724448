// @ts-check
// The world's internal error (a bug of the simulation, never the user's
// doing), with the commands that replay it.
import {esc} from "../html.js";

/** @typedef {import("../types.js").InternalError} InternalError */

/**
 * internalText is the banner's sentence about ie.
 * @param {InternalError} ie
 */
export function internalText(ie) {
  return `<b>Internal error</b> at t=${ie.t} ms${ie.count > 1 ? ` (${ie.count} so far)` : ""}: ${esc(ie.error)}. ` +
    (ie.stopped ? "The world stopped: Reset starts a new one." : "The world goes on.") + " Please report it with this replay:";
}
