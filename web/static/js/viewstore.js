// @ts-check
// The page's copy of the update stream: both transports read the stream's
// frames (web.Frame) and keep here the update they make, the whole one of
// the first frame, patched by each one after (package web's documentation,
// "The update stream", says the format; web.Store is the same in Go).

/** @typedef {import("./types.js").Update} Update */

/**
 * A ListPatch patches one list of entities: put are the entities new or
 * changed, by id; ids, when the list's ids or their order changed, are
 * its ids in order.
 * @typedef {object} ListPatch
 * @property {Record<string, any>} [put]
 * @property {string[]} [ids]
 */

/**
 * A Frame is one message of the update stream: a whole update (full), or
 * a patch of the update of frame base.
 * @typedef {object} Frame
 * @property {number} seq
 * @property {Update} [full]
 * @property {number} [base]
 * @property {Record<string, any>} [set]
 * @property {string[]} [del]
 * @property {Record<string, ListPatch>} [lists]
 */

/**
 * A Store is the update of the last frame applied, and its number.
 * @typedef {object} Store
 * @property {number} seq
 * @property {Update} view
 */

/** Lists are the update's lists of entities with an id and a version. */
export const Lists = ["brokers", "parts", "producers", "groups"];

/**
 * Resync means a frame does not apply to the store: the stream must start
 * again (its first frame is the whole update).
 */
export class Resync extends Error {}

/**
 * keyOf is an entity's id in the list called list: a broker's id, a
 * partition's topic and partition ("orders-0"), a producer's or a
 * group's name.
 * @param {string} list
 * @param {any} e
 * @returns {string}
 */
export function keyOf(list, e) {
  switch (list) {
  case "brokers": return String(e.id);
  case "parts": return `${e.topic}-${e.p}`;
  default: return e.name;
  }
}

/**
 * applyFrame returns the store frame makes of store (null: none yet). A
 * whole update replaces it; a patch makes a new update that shares the
 * entities and fields it leaves as they were (the store given is not
 * changed). A patch that does not follow the store's frame, or that does
 * not apply, throws Resync.
 * @param {Store | null} store
 * @param {Frame} frame
 * @returns {Store}
 */
export function applyFrame(store, frame) {
  if (frame.full) return {seq: frame.seq, view: frame.full};
  if (!store || frame.base !== store.seq) {
    throw new Resync(`frame ${frame.seq} patches frame ${frame.base}; the page holds ${store ? `frame ${store.seq}` : "none"}`);
  }
  /** @type {Record<string, any>} */
  const view = {...store.view};
  for (const [name, lp] of Object.entries(frame.lists || {})) {
    if (!Lists.includes(name)) throw new Resync(`frame ${frame.seq} patches ${name}, which is no list`);
    view[name] = applyList(name, view[name] || [], lp);
  }
  for (const [k, v] of Object.entries(frame.set || {})) {
    if (Lists.includes(k)) throw new Resync(`frame ${frame.seq} sets the list ${k} as a field`);
    view[k] = v;
  }
  for (const k of frame.del || []) delete view[k];
  return {seq: frame.seq, view: /** @type {Update} */ (view)};
}

/**
 * applyList returns the list name, old, patched by lp.
 * @param {string} name
 * @param {any[]} old
 * @param {ListPatch} lp
 * @returns {any[]}
 */
function applyList(name, old, lp) {
  const byId = new Map(old.map((e) => [keyOf(name, e), e]));
  const put = lp.put || {};
  let ids = lp.ids;
  if (!ids) {
    for (const id of Object.keys(put)) {
      if (!byId.has(id)) throw new Resync(`${name} ${id} is new but the patch does not place it`);
    }
    ids = [...byId.keys()];
  }
  return ids.map((id) => {
    const e = Object.hasOwn(put, id) ? put[id] : byId.get(id);
    if (e === undefined) throw new Resync(`${name} ${id} is neither held nor sent`);
    return e;
  });
}
