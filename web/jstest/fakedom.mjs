// A tiny DOM for the page's unit tests: elements, text, attributes, a
// template whose innerHTML parses the HTML the renderers write, and
// querySelector for simple selectors (tag, #id, .class, [attr], [attr="v"],
// joined by spaces for descendants). It is enough for morph and for
// reading what a renderer drew; it is not a browser.

const voids = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const named = {amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: "\u00a0"};

/** decode replaces the character references the renderers write. */
export function decode(s) {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, n) => {
    if (named[n] !== undefined) return named[n];
    if (n[0] === "#") return String.fromCodePoint(n[1] === "x" || n[1] === "X" ? parseInt(n.slice(2), 16) : parseInt(n.slice(1), 10));
    return m;
  });
}

export class Node {
  constructor(doc, type) {
    this.ownerDocument = doc;
    this.nodeType = type;
    this.parentNode = null;
    this.childNodes = [];
  }
  get firstChild() { return this.childNodes[0] || null; }
  get lastChild() { return this.childNodes[this.childNodes.length - 1] || null; }
  get nextSibling() {
    if (!this.parentNode) return null;
    const s = this.parentNode.childNodes;
    return s[s.indexOf(this) + 1] || null;
  }
  insertBefore(n, ref) {
    if (n.nodeType === 11) {
      for (const c of [...n.childNodes]) this.insertBefore(c, ref);
      return n;
    }
    if (n.parentNode) n.parentNode.removeChild(n);
    const i = ref ? this.childNodes.indexOf(ref) : -1;
    if (ref && i < 0) throw new Error("insertBefore: the reference node is not a child");
    if (i < 0) this.childNodes.push(n);
    else this.childNodes.splice(i, 0, n);
    n.parentNode = this;
    this.ownerDocument.mutations++;
    return n;
  }
  appendChild(n) { return this.insertBefore(n, null); }
  removeChild(n) {
    const i = this.childNodes.indexOf(n);
    if (i < 0) throw new Error("removeChild: not a child");
    this.childNodes.splice(i, 1);
    n.parentNode = null;
    this.ownerDocument.mutations++;
    return n;
  }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(""); }
}

export class Text extends Node {
  constructor(doc, value) {
    super(doc, 3);
    this._value = value;
  }
  get nodeValue() { return this._value; }
  set nodeValue(v) { this._value = v; this.ownerDocument.mutations++; }
  get textContent() { return this._value; }
}

export class Element extends Node {
  constructor(doc, tag) {
    super(doc, 1);
    this.tagName = tag.toUpperCase();
    this._attrs = new Map();
    if (this.tagName === "TEMPLATE") this.content = new Fragment(doc);
  }
  get attributes() { return [...this._attrs].map(([name, value]) => ({name, value})); }
  hasAttribute(n) { return this._attrs.has(n); }
  getAttribute(n) { return this._attrs.has(n) ? this._attrs.get(n) : null; }
  setAttribute(n, v) { this._attrs.set(n, String(v)); this.ownerDocument.mutations++; }
  removeAttribute(n) { this._attrs.delete(n); this.ownerDocument.mutations++; }
  get id() { return this.getAttribute("id") || ""; }
  get className() { return this.getAttribute("class") || ""; }
  get classList() { return {contains: (c) => this.className.split(/\s+/).includes(c)}; }
  get dataset() {
    const out = {};
    for (const [k, v] of this._attrs) if (k.startsWith("data-")) out[k.slice(5).replace(/-([a-z])/g, (_, c) => c.toUpperCase())] = v;
    return out;
  }
  get children() { return this.childNodes.filter((c) => c.nodeType === 1); }
  set innerHTML(html) {
    const target = this.tagName === "TEMPLATE" ? this.content : this;
    for (const c of [...target.childNodes]) target.removeChild(c);
    parse(this.ownerDocument, html, target);
  }
  get outerHTML() {
    const attrs = [...this._attrs].map(([k, v]) => ` ${k}="${v.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"`).join("");
    const tag = this.tagName.toLowerCase();
    if (voids.has(tag)) return `<${tag}${attrs}>`;
    return `<${tag}${attrs}>${this.childNodes.map((c) => c.nodeType === 1 ? c.outerHTML : c.textContent.replace(/&/g, "&amp;").replace(/</g, "&lt;")).join("")}</${tag}>`;
  }
  querySelectorAll(sel) { return selectAll(this, sel); }
  querySelector(sel) { return selectAll(this, sel)[0] || null; }
}

export class Fragment extends Node {
  constructor(doc) { super(doc, 11); }
  querySelectorAll(sel) { return selectAll(this, sel); }
  querySelector(sel) { return selectAll(this, sel)[0] || null; }
}

export class Document {
  constructor() {
    // mutations counts the changes made to the tree, for tests of what
    // an update rewrote.
    this.mutations = 0;
    this.body = new Element(this, "body");
  }
  createElement(tag) { return new Element(this, tag); }
  createTextNode(s) { return new Text(this, s); }
}

/** parse appends the nodes of html to parent. */
function parse(doc, html, parent) {
  const stack = [parent];
  const top = () => stack[stack.length - 1];
  const re = /<!--[\s\S]*?-->|<\/([a-zA-Z0-9-]+)\s*>|<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>|([^<]+|<)/g;
  for (let m; (m = re.exec(html));) {
    if (m[0].startsWith("<!--")) continue;
    if (m[1]) {
      const tag = m[1].toUpperCase();
      for (let i = stack.length - 1; i > 0; i--) {
        if (stack[i].tagName === tag) { stack.length = i; break; }
      }
      continue;
    }
    if (m[2]) {
      const el = doc.createElement(m[2]);
      const attrRe = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
      for (let a; (a = attrRe.exec(m[3]));) el._attrs.set(a[1], decode(a[2] ?? a[3] ?? a[4] ?? ""));
      top().appendChild(el);
      if (!voids.has(m[2].toLowerCase()) && !m[4]) stack.push(el.tagName === "TEMPLATE" ? el.content : el);
      continue;
    }
    top().appendChild(doc.createTextNode(decode(m[5])));
  }
}

/** matches says whether el matches one compound selector. */
function matches(el, compound) {
  const re = /([a-zA-Z][a-zA-Z0-9-]*)|#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:([~^$*]?=)"([^"]*)")?\]|(:not\(([^)]*)\))/g;
  let rest = compound;
  for (let m; (m = re.exec(compound));) {
    rest = rest.replace(m[0], "");
    if (m[1] && el.tagName !== m[1].toUpperCase()) return false;
    if (m[2] && el.id !== m[2]) return false;
    if (m[3] && !el.classList.contains(m[3])) return false;
    if (m[4]) {
      const v = el.getAttribute(m[4]);
      if (v === null) return false;
      if (m[5] === "=" && v !== m[6]) return false;
      if (m[5] === "^=" && !v.startsWith(m[6])) return false;
      if (m[5] === "*=" && !v.includes(m[6])) return false;
    }
    if (m[7] && matches(el, m[8])) return false;
  }
  if (rest.trim() !== "") throw new Error(`fakedom: unsupported selector ${compound}`);
  return true;
}

/** selectAll finds the descendants of root matching sel (descendant combinators only). */
function selectAll(root, sel) {
  const parts = sel.trim().split(/\s+/);
  const out = [];
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (c.nodeType !== 1) continue;
      if (matches(c, parts[parts.length - 1]) && ancestorsMatch(c, parts.slice(0, -1), root)) out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

function ancestorsMatch(el, parts, root) {
  let i = parts.length - 1;
  for (let a = el.parentNode; a && a !== root && i >= 0; a = a.parentNode) {
    if (a.nodeType === 1 && matches(a, parts[i])) i--;
  }
  return i < 0;
}

/** fragment parses html into a fresh element of a fresh document. */
export function fragment(html) {
  const doc = new Document();
  const el = doc.createElement("div");
  el.innerHTML = html;
  return el;
}
