// @ts-check
// The terminal's history: ↑ and ↓ go through the lines typed, ↓ past the
// newest gives back the line being written.

export class History {
  constructor() {
    /** @type {string[]} */
    this.lines = [];
    this.at = 0;
    this.draft = "";
  }

  /**
   * remember keeps a line typed (once, if typed twice in a row).
   * @param {string} line
   */
  remember(line) {
    if (line && this.lines[this.lines.length - 1] !== line) this.lines.push(line);
    this.at = this.lines.length;
    this.draft = "";
  }

  /**
   * move goes back (-1) or forward (+1) from the input's current value,
   * and answers the value to show.
   * @param {-1 | 1} d
   * @param {string} current
   */
  move(d, current) {
    if (this.at === this.lines.length) this.draft = current;
    this.at = Math.max(0, Math.min(this.lines.length, this.at + d));
    return this.at === this.lines.length ? this.draft : this.lines[this.at];
  }
}
