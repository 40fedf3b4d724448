// @ts-check
// Consumers' rates as the page measures them from the live views: each
// group member's processed count over the last five simulated seconds.

/** @typedef {import("./types.js").View} View */

/**
 * Rates are, per consumer, samples [t, processed] of the live views.
 * @typedef {Record<string, Array<[number, number]>>} Rates
 */

/**
 * sampleRates adds v's counts to rates, keeping about five seconds of
 * samples; a count or a time that went back (a reset, a new world) starts
 * the consumer's samples again.
 * @param {Rates} rates
 * @param {View} v
 */
export function sampleRates(rates, v) {
  for (const c of v.consumers || []) {
    if (!c.group) continue;
    const s = rates[c.name] ||= [];
    if (s.length && (v.t < s[s.length - 1][0] || c.processed < s[s.length - 1][1])) s.length = 0;
    if (!s.length || s[s.length - 1][0] !== v.t) s.push([v.t, c.processed]);
    while (s.length > 2 && v.t - s[1][0] >= 5000) s.shift();
  }
}

/**
 * rate is the records a consumer processed per simulated second lately
 * ("" before a second of samples).
 * @param {Rates} rates
 * @param {string} name
 */
export function rate(rates, name) {
  const s = rates[name];
  if (!s || s.length < 2) return "";
  const dt = s[s.length - 1][0] - s[0][0];
  if (dt < 1000) return "";
  const r = (s[s.length - 1][1] - s[0][1]) * 1000 / dt;
  return `${r < 10 ? r.toFixed(1).replace(/\.0$/, "") : Math.round(r)}/s`;
}

/**
 * sampleLags adds v's committed lags to lags, per group and partition,
 * keeping about five seconds of samples (as sampleRates).
 * @param {Rates} lags
 * @param {View} v
 */
export function sampleLags(lags, v) {
  for (const g of v.groups || []) {
    for (const o of g.offsets || []) {
      if (o.lag < 0) continue;
      const s = lags[`${g.name}/${o.topic}-${o.partition}`] ||= [];
      if (s.length && v.t < s[s.length - 1][0]) s.length = 0;
      if (!s.length || s[s.length - 1][0] !== v.t) s.push([v.t, o.lag]);
      while (s.length > 2 && v.t - s[1][0] >= 5000) s.shift();
    }
  }
}

/**
 * lagGrows says whether a group's lag on a partition grew over the
 * samples kept, spanning at least three seconds.
 * @param {Rates} lags
 * @param {string} group
 * @param {string} topic
 * @param {number} partition
 */
export function lagGrows(lags, group, topic, partition) {
  const s = lags[`${group}/${topic}-${partition}`];
  if (!s || s.length < 2) return false;
  const [t0, l0] = s[0], [t1, l1] = s[s.length - 1];
  return t1 - t0 >= 3000 && l1 > l0;
}
