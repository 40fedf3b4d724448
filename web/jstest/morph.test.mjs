// morph keeps the nodes that stay, so that a pressed button, a focused
// control or a hovered record survives the page's ten updates a second.
import assert from "node:assert/strict";
import {test} from "node:test";

import {morph} from "../static/js/morph.js";
import {Document} from "./fakedom.mjs";
import {mulberry32, replay, seeds} from "./rand.mjs";

function host() {
  const doc = new Document();
  const el = doc.createElement("div");
  doc.body.appendChild(el);
  return {doc, el};
}

test("morph writes the HTML, and the same HTML again changes nothing", () => {
  const {doc, el} = host();
  morph(el, `<p class="a">one</p><ul><li data-key="x">x</li></ul>`);
  assert.equal(el.querySelector("p").textContent, "one");
  const before = doc.mutations;
  morph(el, `<p class="a">one</p><ul><li data-key="x">x</li></ul>`);
  assert.equal(doc.mutations, before, "the same HTML twice rewrote the tree");
});

test("morph keeps an element that stays and writes only what changed", () => {
  const {el} = host();
  morph(el, `<button type="button" data-cmd="stop 1" title="a">stop</button><span>1 B</span>`);
  const btn = el.querySelector("button");
  morph(el, `<button type="button" data-cmd="stop 1" title="b">stop</button><span>2 B</span>`);
  assert.equal(el.querySelector("button"), btn, "the button under the pointer was replaced");
  assert.equal(btn.getAttribute("title"), "b");
  assert.equal(el.querySelector("span").textContent, "2 B");
  morph(el, `<button type="button" data-cmd="stop 1">stop</button>`);
  assert.equal(btn.hasAttribute("title"), false, "an attribute gone from the HTML stayed");
  assert.equal(el.querySelector("span"), null, "an element gone from the HTML stayed");
});

test("morph matches keyed children by key, whatever their order", () => {
  const {el} = host();
  morph(el, `<i data-key="a">a</i><i data-key="b">b</i><i data-key="c">c</i>`);
  const [a, b, c] = el.children;
  morph(el, `<i data-key="c">c</i><i data-key="a">a2</i><i data-key="d">d</i>`);
  assert.deepEqual(el.children.map((n) => n.getAttribute("data-key")), ["c", "a", "d"]);
  assert.equal(el.children[0], c);
  assert.equal(el.children[1], a);
  assert.equal(a.textContent, "a2");
  assert.equal(b.parentNode, null, "b, gone from the HTML, is still in the tree");
});

test("a keyed child whose tag changed is a new element", () => {
  const {el} = host();
  morph(el, `<i data-key="a">a</i>`);
  const a = el.children[0];
  morph(el, `<b data-key="a">a</b>`);
  assert.notEqual(el.children[0], a);
  assert.equal(el.children[0].tagName, "B");
});

// randomList draws a list of keyed and unkeyed items with nested content.
function randomList(rnd) {
  const n = Math.floor(rnd() * 8);
  let h = "";
  for (let i = 0; i < n; i++) {
    const keyed = rnd() < 0.7;
    const key = "k" + Math.floor(rnd() * 10);
    const tag = rnd() < 0.8 ? "div" : "span";
    const attr = rnd() < 0.5 ? ` title="t${Math.floor(rnd() * 3)}"` : "";
    const inner = rnd() < 0.5 ? `<b>${Math.floor(rnd() * 4)}</b>` : String(Math.floor(rnd() * 4));
    h += `<${tag}${keyed ? ` data-key="${key}"` : ""}${attr}>${inner}</${tag}>`;
  }
  return h;
}

// Over random sequences of HTML, the tree morph leaves is the tree the
// HTML parses to, and every keyed element present before and after (same
// key, same tag, unique) is the same node.
test("morph: random updates leave the parsed tree and keep keyed nodes", () => {
  for (const seed of seeds(20)) {
    const rnd = mulberry32(seed);
    const {doc, el} = host();
    for (let step = 0; step < 40; step++) {
      const html = randomList(rnd);
      const before = new Map();
      const count = (h) => [...h.matchAll(/data-key="(\w+)"/g)].reduce((m, x) => m.set(x[1], (m.get(x[1]) || 0) + 1), new Map());
      const old = count(el.__html || "");
      for (const c of el.children) if (c.hasAttribute("data-key") && old.get(c.getAttribute("data-key")) === 1) before.set(c.getAttribute("data-key") + c.tagName, c);
      morph(el, html);
      const fresh = doc.createElement("div");
      fresh.innerHTML = html;
      assert.equal(el.outerHTML, fresh.outerHTML, `step ${step}: the tree is not the HTML's\n${replay(seed, "morph.test.mjs")}`);
      const now = count(html);
      for (const c of el.children) {
        const k = c.getAttribute("data-key");
        if (k === null || now.get(k) !== 1) continue;
        const was = before.get(k + c.tagName);
        if (was) assert.equal(c, was, `step ${step}: keyed element ${k} was replaced\n${replay(seed, "morph.test.mjs")}`);
      }
    }
  }
});
