// @ts-check
// A stable DOM.
//
// The panels are written as HTML and patched into the page: an element
// that is still there keeps its node (only its changed attributes and
// text are written), so a button under the pointer, a focused control or
// a hovered record survives the ten updates a second. Children with a
// data-key are matched by key, the others by position and tag.

/**
 * morph makes the children of el those of html. The same html twice in a
 * row writes nothing.
 * @param {Element} el
 * @param {string} html
 */
export function morph(el, html) {
  const m = /** @type {Element & {__html?: string}} */ (el);
  if (m.__html === html) return;
  m.__html = html;
  const t = /** @type {HTMLTemplateElement} */ (el.ownerDocument.createElement("template"));
  t.innerHTML = html;
  patchChildren(el, t.content);
}

/**
 * patchChildren makes to's children those of from, keeping the nodes that
 * match (by data-key, else by position and tag) and moving from's new
 * nodes in.
 * @param {Node} to
 * @param {Node} from
 */
export function patchChildren(to, from) {
  /** @type {Map<string, Element>} */
  const keyed = new Map();
  for (let c = to.firstChild; c; c = c.nextSibling) {
    if (isElement(c) && c.hasAttribute("data-key")) keyed.set(/** @type {string} */ (c.getAttribute("data-key")), c);
  }
  let cur = to.firstChild;
  for (let n = from.firstChild; n;) {
    const next = n.nextSibling;
    /** @type {Node | null} */
    let match = null;
    const key = isElement(n) ? n.getAttribute("data-key") : null;
    if (key !== null) {
      const k = keyed.get(key) || null;
      if (k && isElement(n) && k.tagName === n.tagName) {
        match = k;
        keyed.delete(key);
      }
    } else if (cur && sameKind(cur, n)) {
      match = cur;
    }
    if (match) {
      if (match === cur) cur = cur.nextSibling;
      else to.insertBefore(match, cur);
      patchNode(match, n);
    } else {
      to.insertBefore(n, cur);
    }
    n = next;
  }
  while (cur) {
    const nx = cur.nextSibling;
    to.removeChild(cur);
    cur = nx;
  }
}

/**
 * sameKind says whether an unkeyed node a can stand for b: the same node
 * type, and for elements the same tag.
 * @param {Node} a
 * @param {Node} b
 */
function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (!isElement(a) || !isElement(b)) return true;
  return a.tagName === b.tagName && !a.hasAttribute("data-key");
}

/**
 * patchNode makes a like b: its text, or its attributes and children.
 * @param {Node} a
 * @param {Node} b
 */
export function patchNode(a, b) {
  if (!isElement(a) || !isElement(b)) {
    if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
    return;
  }
  for (const at of [...a.attributes]) if (!b.hasAttribute(at.name)) a.removeAttribute(at.name);
  for (const at of [...b.attributes]) if (a.getAttribute(at.name) !== at.value) a.setAttribute(at.name, at.value);
  patchChildren(a, b);
}

/**
 * @param {Node} n
 * @returns {n is Element}
 */
const isElement = (n) => n.nodeType === 1;
