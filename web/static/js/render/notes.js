// @ts-check
// The notes' list.
import {esc} from "../html.js";

/** @typedef {import("../types.js").NoteInfo} NoteInfo */

/**
 * notesListHTML lists the notes with their summaries.
 * @param {NoteInfo[]} list
 */
export function notesListHTML(list) {
  return list.length ? list.map((n) => `<li><a href="#note/${esc(n.name)}">${esc(n.title)}</a>${n.summary ? `<p>${esc(n.summary)}</p>` : ""}</li>`).join("") :
    `<li class="muted">No notes in this build.</li>`;
}
