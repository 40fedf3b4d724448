// @ts-check
// One block of the terminal: the command typed and what it printed.
import {esc} from "../html.js";

/**
 * LongLine is the length past which a line of output is wrapped (a
 * megabyte value), whatever the wrap setting: tables stay unwrapped and
 * scroll sideways inside the terminal.
 */
export const LongLine = 400;

/**
 * blockHTML is a command's block: its echo (when echo) and its output,
 * marked as an error when the command failed.
 * @param {string} line
 * @param {{output?: string, ok?: boolean}} res
 * @param {boolean} echo
 */
export function blockHTML(line, res, echo) {
  const text = res.output || "";
  const long = text.split("\n").some((l) => l.length > LongLine);
  const shown = line.length > LongLine ? `${line.slice(0, LongLine)}… (${line.length} characters)` : line;
  return (echo ? `<div class="cmd">$ ${esc(shown)}</div>` : "") +
    (text ? `<pre class="${[res.ok ? "" : "err", long ? "long" : ""].filter(Boolean).join(" ")}">${esc(text)}</pre>` : "");
}
