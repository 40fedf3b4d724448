// @ts-check
// Small pure helpers the renderers share: escaping, sizes, key colours.

/** @type {Record<string, string>} */
const entities = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"};

/**
 * esc escapes s for HTML text and attribute values.
 * @param {unknown} s
 * @returns {string}
 */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => entities[c]);

/**
 * bytes prints a size in bytes as the page does ("—" for an unknown one).
 * @param {number} n
 * @returns {string}
 */
export function bytes(n) {
  if (n < 0) return "—";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1048576).toFixed(2)} MiB`;
}

/**
 * hue is the colour of a record's key on the colour wheel, null for a
 * record without a key.
 * @param {string | undefined} key
 * @returns {number | null}
 */
export function hue(key) {
  if (!key) return null;
  let h = 0;
  for (const c of key) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return (h * 47) % 360;
}

/**
 * short is the start of a value, as much as a record's cell shows (its
 * whole text is in the cell's title).
 * @param {string} s
 * @returns {string}
 */
export const short = (s) => s.length <= 6 ? s : s.slice(0, 5) + "…";

/**
 * cellText is what a record's cell shows of its value: without the name
 * of the producer that wrote it ("checkout-12" shows 12: the producer's
 * records are numbered), then its start (short).
 * @param {string} value
 * @param {string[]} producers
 */
export function cellText(value, producers) {
  for (const p of producers) {
    if (p && value.startsWith(p + "-") && value.length > p.length + 1) return short(value.slice(p.length + 1));
  }
  return short(value);
}

/**
 * plural is "n thing" or "n things".
 * @param {number} n
 * @param {string} one
 * @param {string} [many]
 * @returns {string}
 */
export const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;
