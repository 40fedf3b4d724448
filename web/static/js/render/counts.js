// @ts-check
// A producer's counts, as the producer and Kafka clients cards show them:
// what the brokers answered, and what became of it.

/**
 * Counts are a producer's or a client's records by outcome.
 * @typedef {object} Counts
 * @property {number} sent
 * @property {number} acked
 * @property {number} lost_after_ack
 * @property {number} sent_no_ack
 * @property {number} failed
 */

/**
 * countsHTML says how a producer's records ended: sent, acknowledged,
 * lost after the acknowledgement (an acknowledged record the partition no
 * longer holds), sent without acknowledgement (acks=0: no answer comes, so
 * never counted acknowledged) and failed. acks0 leaves "acked" out for a
 * producer that only ever sent with acks=0.
 * @param {Counts} c
 * @param {boolean} acks0
 */
export function countsHTML(c, acks0) {
  const parts = [`sent <b>${c.sent}</b>`];
  if (!acks0 || c.acked) parts.push(`acked <b>${c.acked}</b>`);
  if (c.lost_after_ack) parts.push(`<span class="lost" title="acknowledged, and the partition no longer holds them: a replica that lacked them became the leader">lost after ack <b>${c.lost_after_ack}</b></span>`);
  if (c.sent_no_ack || acks0) parts.push(`<span title="sent with acks=0: no answer comes, so nobody knows whether they were stored">sent without ack <b>${c.sent_no_ack}</b></span>`);
  parts.push(`failed <b class="${c.failed ? "offline" : ""}">${c.failed}</b>`);
  return parts.join(" · ");
}
