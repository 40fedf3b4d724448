// @ts-check
// The timeline's slider: dragged with the mouse or a finger, or moved with
// the keys, it shows a moment of the past; at its right end, the live
// cluster. While it is held, the live updates leave it alone (its range
// stays what it was when it was pressed), so that a drag that starts at
// "live" is not pulled back to the present by the next update.

/**
 * KeySteps are how far the keys move the timeline, in simulated ms: an
 * arrow a second, a page ten.
 * @type {Record<string, number>}
 */
export const KeySteps = {ArrowLeft: -1000, ArrowDown: -1000, ArrowRight: 1000, ArrowUp: 1000, PageDown: -10000, PageUp: 10000};

/**
 * keyMoment is the moment a key moves the timeline to from at (null:
 * live) on a timeline that spans start to now: null for live, undefined
 * for a key that does not move it. Home goes to the oldest moment kept,
 * End to live.
 * @param {string} key
 * @param {number | null} at
 * @param {number} now
 * @param {number} start
 * @returns {number | null | undefined}
 */
export function keyMoment(key, at, now, start) {
  if (key === "Home") return now > start ? start : null;
  if (key === "End") return null;
  const d = KeySteps[key];
  if (d === undefined) return undefined;
  const to = Math.max(start, (at ?? now) + d);
  return to >= now ? null : to;
}

/**
 * momentOf is the moment, in whole milliseconds, a slider's value shows
 * on a range that ends at max: null (live) at its right end.
 * @param {number} value
 * @param {number} max
 */
export const momentOf = (value, max) => value >= max ? null : Math.floor(value);

/**
 * A Timeline drives the slider el; show is called with the moment chosen
 * (null: live).
 * @param {HTMLInputElement} el
 * @param {(at: number | null) => void} show
 */
export function timeline(el, show) {
  let held = false;
  let heldMax = 0;
  /** @type {number | null} */
  let at = null;
  /** @param {number | null} m */
  const choose = (m) => { at = m; show(m); };
  const release = () => {
    if (!held) return;
    held = false;
    choose(momentOf(Number(el.value), heldMax));
  };
  el.addEventListener("pointerdown", () => { held = true; heldMax = Number(el.max); });
  window.addEventListener("pointerup", release);
  window.addEventListener("pointercancel", release);
  el.addEventListener("input", () => {
    const m = momentOf(Number(el.value), held ? heldMax : Number(el.max));
    // while held, the right end is not yet a choice: the release decides
    // (a finger's drag can pass there between two moves)
    if (m === null && held) return;
    choose(m);
  });
  el.addEventListener("keydown", (e) => {
    const m = keyMoment(e.key, at, Number(el.max), Number(el.min));
    if (m === undefined) return;
    e.preventDefault();
    el.value = String(m ?? el.max);
    choose(m);
  });
  return {
    /**
     * update spans the slider from start to now, the moment shown being
     * shown (null: live); nothing changes while it is held.
     * @param {number} now
     * @param {number} start
     * @param {number | null} shown
     */
    update(now, start, shown) {
      at = shown;
      if (held) return;
      el.min = String(start);
      el.max = String(now);
      if (shown === null) el.value = String(now);
    },
    /** held says whether a pointer holds the slider. */
    get held() { return held; },
  };
}
