// kafkalive's page. It renders what the server sends (the cluster's state,
// summarised); it decides nothing about Kafka.
"use strict";
window.__errs = [];
window.addEventListener("error", (e) => window.__errs.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.__errs.push(String(e.reason)));

const $ = (s) => document.querySelector(s);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

// ---- a stable DOM ----
//
// The panels are written as HTML and patched into the page: an element
// that is still there keeps its node (only its changed attributes and
// text are written), so a button under the pointer, a focused control or
// a hovered record survives the ten updates a second. Children with a
// data-key are matched by key, the others by position and tag.

// morph makes the children of the element sel names (or el) those of html.
function morph(sel, html) {
  const el = typeof sel === "string" ? $(sel) : sel;
  if (el.__html === html) return;
  el.__html = html;
  const t = document.createElement("template");
  t.innerHTML = html;
  patchChildren(el, t.content);
}

function patchChildren(to, from) {
  const keyed = new Map();
  for (let c = to.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && c.hasAttribute("data-key")) keyed.set(c.getAttribute("data-key"), c);
  }
  let cur = to.firstChild;
  for (let n = from.firstChild; n;) {
    const next = n.nextSibling;
    let match = null;
    const key = n.nodeType === 1 ? n.getAttribute("data-key") : null;
    if (key !== null) {
      match = keyed.get(key) || null;
      if (match && match.tagName !== n.tagName) match = null;
      if (match) keyed.delete(key);
    } else if (cur && cur.nodeType === n.nodeType && (n.nodeType !== 1 || (cur.tagName === n.tagName && !cur.hasAttribute("data-key")))) {
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

function patchNode(a, b) {
  if (a.nodeType !== 1) {
    if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
    return;
  }
  for (const at of [...a.attributes]) if (!b.hasAttribute(at.name)) a.removeAttribute(at.name);
  for (const at of b.attributes) if (a.getAttribute(at.name) !== at.value) a.setAttribute(at.name, at.value);
  patchChildren(a, b);
}

const ui = {
  focus: {topic: "orders", partition: 0},
  at: null,          // the moment of the timeline shown (null: live)
  view: null,        // the last view rendered
  liveNow: 0,
  selected: null,    // {topic, p, offset, value} of the record whose journey is shown
  stream: null,
  mode: "live",
  rates: {},         // consumer name -> [[t, processed]...] of the live views
};

// ---- the update stream ----

function connect() {
  if (ui.stream) ui.stream.close();
  const q = `topic=${encodeURIComponent(ui.focus.topic)}&partition=${ui.focus.partition}`;
  ui.stream = new EventSource(`/api/stream?${q}`);
  ui.stream.addEventListener("view", (e) => {
    const t0 = performance.now();
    const v = JSON.parse(e.data);
    ui.liveNow = v.now;
    followSession(v.session);
    sayDiscard();
    updateSlider(v.now, v.start || 0);
    drawMarks(v.marks || [], v.now, v.start || 0);
    if (ui.at === null) render(v);
    // figures for the browser tests: updates received, their bytes, render time
    const m = window.__stats ||= {updates: 0, bytes: 0, ms: 0};
    m.updates++; m.bytes += e.data.length; m.ms += performance.now() - t0;
  });
}

// post sends a state-changing request: a POST with a JSON body, which the
// server takes from this page only.
function post(path, body = {}) {
  return fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
}

async function fetchView(at) {
  const q = new URLSearchParams({topic: ui.focus.topic, partition: ui.focus.partition});
  if (at !== null) q.set("at", at);
  const r = await fetch(`/api/view?${q}`);
  if (!r.ok) throw new Error(await r.text());
  const v = await r.json();
  followSession(v.session);
  return v;
}

// ---- rendering ----

// renderInternal shows the world's internal error (a bug of the
// simulation, never the user's doing) with the commands that replay it;
// hiding it lasts until the next one.
function renderInternal(v) {
  const ie = v.internal, el = $("#internal-banner");
  if (!ie || ui.hiddenInternal === ie.count) { el.hidden = true; return; }
  el.hidden = false;
  morph("#internal-banner .ie-text", `<b>Internal error</b> at t=${ie.t} ms${ie.count > 1 ? ` (${ie.count} so far)` : ""}: ${esc(ie.error)}. ` +
    (ie.stopped ? "The world stopped: Reset starts a new one." : "The world goes on.") + " Please report it with this replay:");
  morph("#internal-banner .ie-replay", esc(ie.replay));
}
$("#internal-banner .ie-hide").addEventListener("click", () => {
  ui.hiddenInternal = ui.view && ui.view.internal && ui.view.internal.count;
  $("#internal-banner").hidden = true;
});

function setText(sel, s) {
  const el = $(sel);
  if (el.textContent !== s) el.textContent = s;
}

function render(v) {
  ui.view = v;
  document.body.dataset.time = v.t;
  setText("#clock", `t = ${(v.t / 1000).toFixed(1)} s`);
  setText("#mode", v.mode === "scenario" ? "playing a guided scenario" : (v.paused ? "paused" : `rules ${v.rules}`));
  setText("#pause", v.paused ? "Resume" : "Pause");
  if (document.activeElement !== $("#speed")) $("#speed").value = String(v.speed || 1);
  if (ui.at === null && !v.past) sampleRates(v);
  renderBrokers(v);
  renderProducers(v);
  renderGroups(v);
  renderParts(v);
  renderDetail(v);
  renderEvents(v);
  renderInternal(v);
  renderJourney(v);
  renderKafka(v);
  renderLearner(v);
}

// yourPart names the part of the learner's code that made what the page
// draws of topic (kind "record": its batches, encoded by ch01/batch or, inside
// the reference encoder, ch01/varint; kind "segment": its segments, recovered
// at each broker start by ch04/recovery), "" when the reference did
// (go run ./exercises/live; the view's learner parts).
function yourPart(kind, topic) {
  const l = ui.view && ui.view.learner;
  if (!l || !topic || topic.startsWith("__")) return "";
  const runs = (part) => (l.parts || []).some((p) => p.part === part && p.runs === "your code");
  if (kind === "record") return runs("ch01/batch") ? "ch01/batch" : runs("ch01/varint") ? "ch01/varint" : "";
  return runs("ch04/recovery") ? "ch04/recovery" : "";
}

// renderLearner shows the learner's code in the world (go run
// ./exercises/live; v.learner): per part "your code" or "reference", the
// failed calls with their input and stack, the latest events their code
// decided, and at the end of a guided scenario on their code its verdict.
function renderLearner(v) {
  const l = v.learner;
  let box = document.getElementById("learner");
  if (!l) { if (box) box.hidden = true; return; }
  if (!box) {
    box = document.createElement("section");
    box.id = "learner";
    box.className = "panel";
    (document.querySelector("main") || document.body).prepend(box);
  }
  box.hidden = false;
  const key = JSON.stringify(l);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  const add = (parent, tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    parent.append(e);
    return e;
  };
  add(box, "h2", "Your code in the cluster");
  const ul = add(box, "ul", undefined, "learner-parts");
  for (const p of l.parts) {
    const li = add(ul, "li");
    li.dataset.part = p.part;
    li.dataset.runs = p.runs;
    add(li, "b", p.part + ": ");
    add(li, "span", p.runs, p.runs === "your code" ? "mark-yours" : "mark-reference");
    add(li, "span", " — " + p.used + (p.why ? " (" + p.why + ")" : ""));
  }
  if (l.verdict) {
    const vd = add(box, "p", undefined, "learner-verdict");
    vd.dataset.matches = String(l.verdict.matches);
    vd.textContent = l.verdict.matches
      ? `The outcome of ${l.verdict.scenario} on your code matches Kafka's (the reference's), step by step.`
      : `The outcome of ${l.verdict.scenario} on your code differs from Kafka's. First difference at step ${l.verdict.difference.step} (${l.verdict.difference.title}): Kafka: "${l.verdict.difference.reference}"; your code: "${l.verdict.difference.your_code}".`;
  }
  for (const f of l.faults || []) {
    const d = add(box, "details", undefined, "learner-fault");
    add(d, "summary", `${f.part}: ${f.kind}: ${f.value}`);
    add(d, "pre", f.call + (f.stack ? "\n\n" + f.stack : ""));
  }
  if ((l.marks || []).length) {
    add(box, "h3", "Decided by your code");
    const ml = add(box, "ul", undefined, "learner-marks");
    for (const m of l.marks) {
      const li = add(ml, "li", `[your code: ${m.part}] ${m.event}`);
      li.dataset.part = m.part;
    }
  }
}

// renderKafka shows real Kafka clients talking to the brokers (v.kafka:
// the listeners, each client as the brokers saw it), under the producers.
function renderKafka(v) {
  const k = v.kafka;
  let el = document.getElementById("kafka-clients");
  if (!k) { if (el) el.hidden = true; return; }
  if (!el) {
    el = document.createElement("div");
    el.id = "kafka-clients";
    el.className = "kafka-clients";
    $("#producers").after(el);
  }
  el.hidden = false;
  const first = (k.listeners || [])[0];
  const head = `<div class="top"><b>Kafka clients</b> <span class="muted">${k.connections} connection${k.connections === 1 ? "" : "s"}</span></div>` +
    `<div class="muted">${first ? `point a client at ${esc(first.split(" ")[1])} (brokers ${(k.listeners || []).map(esc).join(", ")})` : "no listeners"}</div>` +
    (k.paused_note ? `<div class="offline">${esc(k.paused_note)}</div>` : "") +
    (k.notice ? `<div class="muted">${esc(k.notice)}</div>` : "");
  const rows = (k.clients || []).map((c) => `<div class="producer" data-key="kc-${c.n}">
      <div class="top"><b>client ${c.n}</b> <span class="muted">${esc(c.client_id || "(no client.id)")} · ${esc(c.remote)} · ${c.connections} conn.</span>
        <button type="button" data-cmd="cut client ${c.n}" title="cut the links between this client and every broker: its connections hang">cut</button></div>
      ${c.acks ? `<div class="muted">acks=${esc(c.acks)} · ${c.idempotent ? "idempotent" : "not idempotent"}${c.cut && c.cut.length ? ` · cut from ${c.cut.join(",")}` : ""}</div>` : ""}
      <div class="counts">sent <b>${c.sent}</b> · acked <b>${c.acked}</b> · failed <b class="${c.failed ? "offline" : ""}">${c.failed}</b> · fetched ${bytes(c.fetched_bytes)}${c.last_error ? ` · last error ${esc(c.last_error)}` : ""}</div>
    </div>`).join("") +
    (k.hidden ? `<div class="muted">and ${k.hidden} more client${k.hidden === 1 ? "" : "s"} the brokers have seen, not connected now</div>` : "");
  morph("#kafka-clients", head + rows);
}

function bytes(n) {
  if (n < 0) return "—";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1048576).toFixed(2)} MiB`;
}

const stateText = {running: "Running", stopped: "Stopped", crashed: "Crashed", off: "Powered off", failed: "Failed to start"};

function renderBrokers(v) {
  morph("#ctl-note", v.controller > 0 ? `controller: broker ${v.controller} (KRaft, voters 1-3)`
    : v.controller < 0 ? `controller: none, the voters are electing one` : "controller: KRaft node 0");
  morph("#brokers", (v.brokers || []).map((b) => `<div class="broker" data-key="b${b.id}" data-broker="${b.id}" data-state="${b.state}">
      <div class="top"><span class="name">Broker ${b.id}</span>
        ${v.controller === b.id ? `<span class="ctl-badge" title="the active controller (KRaft quorum leader) runs in this broker">Controller</span>` : ""}
        <span class="state ${b.state}">${stateText[b.state] || esc(b.state)}</span>
        ${b.ctl !== "unfenced" ? `<span class="muted ctlview" title="the controller's view of this broker: ${esc(b.ctl)}">${esc(b.ctl)}</span>` : ""}</div>
      <dl class="figs">
        <div><dt>In</dt><dd>${bytes(b.in)}/s</dd></div><div><dt>Out</dt><dd>${bytes(b.out)}/s</dd></div>
        <div class="big" title="bytes of its files on disk: they survive a power cut${b.disk_cap ? `; the disk holds ${bytes(b.disk_cap)}, and a broker whose disk is full halts` : ""}"><dt>Disk</dt><dd>${bytes(b.disk)}</dd></div>
        <div class="big" title="bytes only in the page cache: a power cut loses them"><dt>Cache</dt><dd>${bytes(b.cache)}</dd></div>
        <div title="reads of its logs for consumers' fetches${b.fetch_reads ? `; the latest asked for offset ${b.last_fetch} and began ${b.last_first_batch < 0 ? "with no batch" : `at the batch at offset ${b.last_first_batch}`}` : ""}"><dt>Fetches</dt><dd>${b.fetch_reads}</dd></div>
        <div title="what the fetches' scans walked past, from the offset index entry to the batch they read: ${b.fetch_scanned} batch headers"><dt>Scanned</dt><dd>${bytes(b.fetch_scanned_bytes)}</dd></div></dl>
      <div class="acts">
        <button type="button" data-cmd="stop ${b.id}" title="clean shutdown">stop</button>
        <button type="button" data-cmd="kill ${b.id}" class="danger" title="the process crashes; the page cache survives">kill</button>
        <button type="button" data-cmd="power-cut ${b.id}" class="danger" title="the machine loses power: what was only in the page cache is gone">cut power</button>
        <button type="button" data-cmd="start ${b.id}">start</button>
      </div>
    </div>`).join(""));
}

function renderProducers(v) {
  morph("#producers", (v.producers || []).map((p) => `<div class="producer" data-key="p-${esc(p.name)}" data-producer="${esc(p.name)}">
      <div class="top"><b>${esc(p.name)}</b> <span class="muted">→ ${esc(p.topic)}</span>
        <button type="button" data-produce="${esc(p.name)}" title="send one record now">send one</button>
        <button type="button" data-edit-producer="${esc(p.name)}" title="change the rate, acks and keys">edit</button></div>
      <div class="muted">${p.rate}/s · acks=${esc(p.acks)} · ${p.keys && p.keys.length ? `keys ${p.keys.map(esc).join(", ")}` : "no keys (sticky partitioner)"}</div>
      <div class="counts">sent <b>${p.sent}</b> · acked <b>${p.acked}</b> · failed <b class="${p.failed ? "offline" : ""}">${p.failed}</b></div>
    </div>`).join(""));
}

// sampleRates keeps each consumer's processed count over the last five
// simulated seconds of the live views, for its rate.
function sampleRates(v) {
  for (const c of v.consumers || []) {
    if (!c.group) continue;
    const s = ui.rates[c.name] ||= [];
    if (s.length && (v.t < s[s.length - 1][0] || c.processed < s[s.length - 1][1])) s.length = 0; // a reset or a new world
    if (!s.length || s[s.length - 1][0] !== v.t) s.push([v.t, c.processed]);
    while (s.length > 2 && v.t - s[1][0] >= 5000) s.shift();
  }
}

// rate is the records a consumer processed per simulated second lately,
// as measured from the views ("" before a second of them).
function rate(name) {
  const s = ui.rates[name];
  if (!s || s.length < 2) return "";
  const dt = s[s.length - 1][0] - s[0][0];
  if (dt < 1000) return "";
  const r = (s[s.length - 1][1] - s[0][1]) * 1000 / dt;
  return `${r < 10 ? r.toFixed(1).replace(/\.0$/, "") : Math.round(r)}/s`;
}

function renderGroups(v) {
  const consumers = v.consumers || [];
  const byName = Object.fromEntries(consumers.map((c) => [c.name, c]));
  const live = ui.at === null && !v.past;
  let h = "";
  if (!v.groups || !v.groups.length) h += `<p class="muted">No consumer groups.</p>`;
  for (const g of v.groups || []) {
    const topics = [...new Set((g.offsets || []).map((o) => o.topic))];
    let n = (g.members || []).length + 1;
    while (byName[`${g.name}-${n}`]) n++;
    const add = topics.length ? `<button type="button" data-cmd="add-consumer ${esc(g.name)}-${n} --group ${esc(g.name)} --topics ${esc(topics.join(","))}">add a member</button>` : "";
    const stable = g.state === "Stable";
    h += `<div class="group" data-key="g-${esc(g.name)}" data-group="${esc(g.name)}">
      <div class="top"><b>${esc(g.name)}</b> <span class="state ${stable ? "running" : "crashed"}">${stable ? "Stable" : g.state === "PreparingRebalance" || g.state === "CompletingRebalance" ? "Rebalancing" : esc(g.state)}</span>
        <span class="muted">gen ${g.generation} · ${esc(g.assignor || g.protocol)} · coordinator ${g.coordinator < 0 ? "none" : "b" + g.coordinator}</span></div>`;
    for (const m of g.members || []) {
      const c = byName[m.client_id];
      const parts = (m.partitions || []).map((p) => `${esc(p.topic)}-${p.partition}`).join(", ");
      const idle = `<span class="${parts ? "" : "muted"}">${parts || "No partitions (" + (m.idle ? esc(m.idle) : "more members than partitions, or rebalancing") + ")"}</span>`;
      if (!c) { // a Kafka client of the user's own, joined over the wire: the page cannot remove it
        h += `<div class="member external" data-key="m-${esc(m.id)}" data-member="${esc(m.client_id)}"><b>${esc(m.client_id)}</b>
          <span class="muted" title="a Kafka client connected to the brokers' listeners">your client${m.host ? " at " + esc(m.host.replace(/^\//, "")) : ""}</span> ${idle}</div>`;
        continue;
      }
      const r = live ? rate(m.client_id) : "";
      h += `<div class="member" data-key="m-${esc(m.client_id)}" data-member="${esc(m.client_id)}"><b>${esc(m.client_id)}</b>
        <span class="rate" title="records it processed per simulated second, over the last few seconds">${r}</span>
        ${idle}
        <span class="muted">${c.processed ?? 0} processed${c.duplicates ? `, ${c.duplicates} twice` : ""}</span>
        <button type="button" data-cmd="remove-consumer ${esc(m.client_id)}" title="close it cleanly: it leaves the group">remove</button></div>`;
    }
    const lag = (g.offsets || []).map((o) => `<tr data-key="o-${esc(o.topic)}-${o.partition}"><td>${esc(o.topic)}-${o.partition}</td><td class="num">${o.committed < 0 ? "-" : o.committed}</td><td class="num">${o.lag < 0 ? "-" : o.lag}</td></tr>`);
    if (lag.length) h += `<table class="grid lag"><thead><tr><th scope="col">partition</th><th scope="col" class="num">committed</th><th scope="col" class="num">lag</th></tr></thead><tbody>${lag.join("")}</tbody></table>`;
    h += `<div class="gacts">${add}</div></div>`;
  }
  if (v.groups_hidden) h += `<p class="muted">and ${v.groups_hidden} more group${v.groups_hidden === 1 ? "" : "s"} without members (kafka-consumer-groups --list lists them all)</p>`;
  const simple = consumers.filter((c) => !c.group);
  if (simple.length) {
    h += `<table class="grid"><thead><tr><th scope="col">consumer</th><th scope="col">partition</th><th scope="col">position</th><th scope="col">read</th></tr></thead><tbody>` +
      simple.map((c) => `<tr data-key="c-${esc(c.name)}"><td>${esc(c.name)}</td><td>${esc(c.topic)}-${c.partition}</td><td>${c.position}</td><td>${c.read}</td></tr>`).join("") + `</tbody></table>`;
  }
  morph("#groups", h);
}

function renderParts(v) {
  const rows = (v.parts || []).map((p) => {
    const sel = v.detail && p.topic === v.detail.topic && p.p === v.detail.p;
    const leader = p.leader < 0 ? `<span class="offline">none</span>` : p.leader;
    return `<tr class="${sel ? "sel" : ""}" data-key="${esc(p.topic)}-${p.p}" data-topic="${esc(p.topic)}" data-partition="${p.p}">
      <td><button type="button" aria-pressed="${sel}" title="show ${esc(p.topic)}-${p.p} in detail">${esc(p.topic)}-${p.p}</button></td><td>${leader}</td><td>${p.epoch}</td><td>${(p.replicas || []).join(",")}</td>
      <td>${(p.isr || []).join(",")}</td><td>${p.lso}</td><td>${p.hw}</td><td>${p.leo}</td></tr>`;
  });
  morph("#parts", `<thead><tr><th scope="col">partition</th><th scope="col">leader</th><th scope="col">epoch</th><th scope="col">replicas</th><th scope="col">ISR</th><th scope="col">log start</th><th scope="col">HW</th><th scope="col">LEO</th></tr></thead><tbody>${rows.join("")}</tbody>`);
}

function hue(key) {
  if (!key) return null;
  let h = 0;
  for (const c of key) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return (h * 47) % 360;
}

// short is the end of a value, as much as a record's cell shows.
const short = (s) => s.length <= 6 ? s : "…" + s.slice(-5);

function cssPx(name) {
  return parseFloat(getComputedStyle(document.documentElement).getPropertyValue(name)) || 0;
}

// roleLabel names a replica's part as the segment-file blocks say it.
function roleLabel(l) {
  if (l.role === "leader") return ["Leader", "leader"];
  if (l.role === "down") return [l.inIsr ? "Down (still in the ISR)" : "Down, out of ISR", "down"];
  return l.inIsr ? ["ISR", "follower"] : ["out of ISR", "outisr"];
}

function renderDetail(v) {
  const d = v.detail;
  if (!d) { morph("#tracks", `<p class="muted">No partition yet.</p>`); morph("#detail-meta", ""); morph("#segfiles", ""); return; }
  setText("#detail-title", `${d.topic} · partition ${d.p}`);
  const meta = [["Leader", d.leader < 0 ? "none" : d.leader], ["Leader epoch", d.epoch], ["Replicas", (d.replicas || []).join(", ")],
    ["In-sync replicas", (d.isr || []).join(", ") || "—"], ["Log start offset", d.lso], ["High watermark", d.hw], ["Log end offset", d.leo]];
  morph("#detail-meta", meta.map(([k, val]) => `<div><dt>${k}</dt><dd>${val}</dd></div>`).join(""));

  const cell = cssPx("--cell") || 46, who = cssPx("--who") || 104;
  const logs = d.logs || [];
  let hi = 0, first = Infinity;
  for (const l of logs) {
    hi = Math.max(hi, l.leo);
    if (l.recs && l.recs.length) first = Math.min(first, l.recs[0].o);
  }
  // as many offsets as fit beside the labels, newest last; a chosen record
  // stays in view while it is among the records the view carries
  const room = Math.max(4, Math.floor(($("#tracks").clientWidth - who - 8) / cell));
  let lo = Math.max(0, hi - room + 1);
  const s = ui.selected;
  let pinned = false;
  if (s && s.topic === d.topic && s.p === d.p && s.offset < lo && s.offset >= first) {
    lo = Math.max(0, s.offset - 1);
    pinned = true;
  }
  const top = lo + room - 1;
  const width = room * cell;
  const leader = logs.find((l) => l.role === "leader");
  const x = (o) => (o - lo) * cell;
  let h = `<div class="axis" style="width:${width}px">`;
  for (let o = Math.ceil(lo / 5) * 5; o <= top; o += 5) h += `<span data-key="a${o}" style="left:${x(o)}px">${o}</span>`;
  h += `</div>`;
  for (const l of logs) {
    const [label] = roleLabel(l);
    h += `<div class="logrow" data-key="l${l.b}" data-log="${l.b}" data-role="${l.role}" data-in-isr="${l.inIsr}">
      <div class="who"><span class="${l.inIsr ? "" : "out"}">b${l.b}</span><span class="role ${l.role}" title="${esc(label)}">${l.role === "leader" ? "L" : l.role === "follower" ? "F" : l.role}</span>${l.inIsr ? "" : `<span class="role outisr" title="out of the ISR">×</span>`}
        <span class="sub">${l.count} record${l.count === 1 ? "" : "s"}</span></div>
      <div class="track" style="width:${width}px">`;
    const mine = yourPart("record", d.topic);
    for (const r of l.recs || []) {
      if (r.o < lo || r.o > top) continue;
      const hh = hue(r.k);
      const cls = ["rec", hh === null ? "nokey" : "", r.c ? "cached" : "", r.x ? "differs" : "", mine ? "mark-yours" : "",
        s && s.topic === d.topic && s.p === d.p && s.offset === r.o ? "sel" : ""].filter(Boolean).join(" ");
      const title = `offset ${r.o}${r.k ? ` key ${r.k}` : " no key"} value ${r.v} leader epoch ${r.e}${r.c ? " (page cache only)" : ""}${r.x ? " (differs from the leader)" : ""}${mine ? ` (its batch encoded by your code, ${mine})` : ""}`;
      h += `<button type="button" data-key="r${r.o}" class="${cls}" style="left:${x(r.o)}px;--h:${hh ?? 0}" data-offset="${r.o}" data-value="${esc(r.v)}" title="${esc(title)}"><span class="o">${r.o}${r.e >= 0 ? `<small> e${r.e}</small>` : ""}</span><span class="v">${esc(short(r.v))}</span><span class="sr">: ${esc(title)}</span></button>`;
    }
    const line = (cls, o, title) => o >= lo && o <= top + 1 ? `<div data-key="${cls}" class="${cls}" style="left:${x(o) - 1}px" title="${title}"></div>` : "";
    if (l.role === "leader" || !leader) {
      h += line("hwline", l.hw, `high watermark ${l.hw}`);
    } else {
      h += line("hwline lead", leader.hw, `the leader's high watermark ${leader.hw}`);
      h += line("hwline own", l.hw, `b${l.b}'s own high watermark ${l.hw}`);
    }
    h += line("leoline", l.leo, `log end offset ${l.leo}`);
    h += `</div></div>`;
  }
  if (pinned && hi > top) {
    h += `<p class="newer">${hi - top} newer offset${hi - top === 1 ? "" : "s"} to the right, not drawn while offset ${s.offset} is chosen. <button type="button" data-unselect>show the newest</button></p>`;
  }
  morph("#tracks", h);
  renderSegFiles(d);
}

// renderSegFiles draws each replica's segment files: its role, its own
// high watermark, and each segment's .log with its records and bytes and
// its .index and .timeindex.
function renderSegFiles(d) {
  morph("#segfiles", (d.logs || []).map((l) => {
    const [label, cls] = roleLabel(l);
    const mine = yourPart("segment", d.topic);
    const segs = (l.segs || []).map((g) => `<li data-key="${esc(g.file)}"${mine ? ` class="mark-yours"` : ""} title="${g.active ? "the active segment: appends go here" : "a rolled segment: it never changes"}${mine ? ` (recovered at every start of broker ${l.b} by your code, ${mine})` : ""}">
        <span class="f">${esc(g.file)}</span><span>${g.n < 0 ? "records read back when it starts" : `${g.n} record${g.n === 1 ? "" : "s"}`}</span><span>${bytes(g.size)}</span>
        <span class="idx">.index ${bytes(g.idx)}</span><span class="idx">.timeindex ${bytes(g.tidx)}</span>${g.active ? `<span class="idx">active</span>` : ""}</li>`).join("");
    return `<div class="segbox" data-key="s${l.b}" data-segfiles="${l.b}">
      <h3>Segment files on broker ${l.b} <span class="role ${cls}">${esc(label)}</span></h3>
      <div class="ownhw">${l.role === "leader" ? `HW ${l.hw}` : `own HW ${l.hw}`} · LEO ${l.leo}</div>
      <ul>${segs || `<li>no files</li>`}</ul></div>`;
  }).join(""));
}

// The journey of a record: where the cluster's state says it is now.
function renderJourney(v) {
  const s = ui.selected, d = v.detail, j = $("#journey");
  if (!s || !d || s.topic !== d.topic || s.p !== d.p) { j.hidden = true; return; }
  let first = Infinity;
  for (const l of d.logs || []) if (l.recs && l.recs.length) first = Math.min(first, l.recs[0].o);
  const gone = s.offset < first;
  const holders = gone ? `<li>offset ${s.offset} is older than the newest records this page receives of each replica; choose a newer one</li>` : (d.logs || []).map((l) => {
    const r = (l.recs || []).find((r) => r.o === s.offset);
    if (!r) return `<li data-key="h${l.b}">b${l.b} (${l.role}): does not have offset ${s.offset}${l.leo <= s.offset ? ` (its log ends at ${l.leo})` : ""}</li>`;
    const same = r.v === s.value ? "has it" : `has a different record there (${esc(r.v)})`;
    return `<li data-key="h${l.b}">b${l.b} (${l.role}): ${same}${r.c ? ", only in the page cache" : ", on disk"}; its own HW is ${l.hw}${l.hw > s.offset ? " (past it)" : " (not past it yet)"}</li>`;
  }).join("");
  const producer = (v.producers || []).find((p) => s.value.startsWith(p.name + "-"));
  let consumers = (v.consumers || []).filter((c) => !c.group && c.topic === d.topic && c.partition === d.p)
    .map((c) => `<li>consumer ${esc(c.name)}: position ${c.position}${c.position > s.offset ? " (has read it)" : " (not yet)"}</li>`).join("");
  for (const g of v.groups || []) {
    for (const o of g.offsets || []) {
      if (o.topic !== d.topic || o.partition !== d.p) continue;
      consumers += `<li>group ${esc(g.name)}${o.member ? ` (member ${esc(o.member)})` : ""}: committed offset ${o.committed < 0 ? "none yet" : o.committed}${o.committed > s.offset ? " (processed and committed past it)" : " (not committed past it yet)"}</li>`;
    }
  }
  morph(j, `<button type="button" class="close" data-unselect>close</button><b>Journey of ${esc(s.value)}</b> at offset ${s.offset} of ${esc(d.topic)}-${d.p}
    <ol><li>producer ${producer ? esc(producer.name) + ` (acks=${esc(producer.acks)})` : "(typed in the terminal or a scenario)"} sent it to the leader</li>
    ${holders}
    <li>high watermark ${d.hw}: ${d.hw > s.offset ? "committed, consumers may read it" : "not committed yet, consumers cannot see it"}</li>
    ${consumers || "<li>no consumer reads this partition</li>"}</ol>`);
  j.hidden = false;
}

function renderEvents(v) {
  morph("#events", (v.events || []).slice().reverse().map((e) => `<li>${esc(e)}</li>`).join(""));
}

// ---- the timeline ----

// updateSlider spans the timeline kept: from the oldest snapshot (older
// moments fell off) to now.
function updateSlider(now, start) {
  const tl = $("#tl");
  tl.min = start;
  tl.max = now;
  const title = start > 0 ? `the timeline keeps t=${(start / 1000).toFixed(0)} s to now; older moments fell off` : "";
  if (tl.title !== title) tl.title = title;
  if (ui.at === null) tl.value = now;
}

// drawMarks puts a tick on the timeline for each action (a crash, a
// command...); choosing one shows the moment just before it.
function drawMarks(marks, now, start) {
  morph("#tl-marks", now <= start ? "" : marks.filter((m) => m.t > start).map((m) => {
    const label = `t=${(m.t / 1000).toFixed(1)} s: ${esc(m.text)}`;
    return `<i role="button" tabindex="0" data-key="${m.t}-${esc(m.text)}" style="left:${(100 * (m.t - start) / (now - start)).toFixed(2)}%" data-at="${Math.max(start, m.t - 100)}" title="${label}" aria-label="the moment before ${label}"></i>`;
  }).join(""));
}

function chooseMark(e) {
  const m = e.target.closest("[data-at]");
  if (!m) return;
  $("#tl").value = m.dataset.at;
  onSlide();
}
$("#tl-marks").addEventListener("click", chooseMark);
$("#tl-marks").addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); chooseMark(e); } });

let tlTimer = null;
function onSlide() {
  const tl = $("#tl");
  const at = Number(tl.value);
  if (at >= ui.liveNow - 100) return goLive();
  ui.at = at;
  $("#tl-label").textContent = `t = ${(at / 1000).toFixed(1)} s (past)`;
  $("#tl-live").hidden = false;
  $("#past-banner").hidden = false;
  sayDiscard();
  clearTimeout(tlTimer);
  tlTimer = setTimeout(async () => render(await fetchView(ui.at)), 120);
}

function goLive() {
  ui.at = null;
  $("#tl-label").textContent = "live";
  $("#tl-live").hidden = true;
  $("#past-banner").hidden = true;
  fetchView(null).then(render);
}

// ---- acting ----

// MaxTermBlocks is how many commands' outputs the terminal keeps.
const MaxTermBlocks = 200;
// LongLine is the length past which a line of output is wrapped (a
// megabyte value), whatever the wrap setting: tables stay unwrapped and
// scroll sideways inside the terminal.
const LongLine = 400;

function termPrint(line, res, echo) {
  const out = $("#term-out");
  const blk = document.createElement("div");
  blk.className = "blk";
  const text = res.output || "";
  const long = text.split("\n").some((l) => l.length > LongLine);
  const shown = line.length > LongLine ? `${line.slice(0, LongLine)}… (${line.length} characters)` : line;
  blk.innerHTML = (echo ? `<div class="cmd">$ ${esc(shown)}</div>` : "") +
    (text ? `<pre class="${[res.ok ? "" : "err", long ? "long" : ""].filter(Boolean).join(" ")}">${esc(text)}</pre>` : "");
  out.appendChild(blk);
  while (out.querySelectorAll(".blk").length > MaxTermBlocks) out.querySelector(".blk").remove();
  out.scrollTop = out.scrollHeight;
  out.scrollLeft = 0;
}

async function exec(line, echo = true) {
  const body = {line};
  if (ui.at !== null) body.at = ui.at;
  const r = await post("/api/exec", body);
  const res = await r.json();
  termPrint(line, res, echo);
  if (ui.at !== null && res.forked) goLive();   // acting from the past forked a new future
  else render(await fetchView(ui.at));        // a line that failed there left the future as it was
  return res;
}

function unselect() {
  ui.selected = null;
  $("#journey").hidden = true;
  if (ui.view) render(ui.view);
}

document.addEventListener("click", (e) => {
  const b = e.target.closest("[data-cmd]");
  if (b) { exec(b.dataset.cmd); return; }
  const ed = e.target.closest("[data-edit-producer]");
  if (ed) { editProducer(ed.dataset.editProducer); return; }
  const pb = e.target.closest("[data-produce]");
  if (pb) { ui.sent = (ui.sent || 0) + 1; exec(`produce ${pb.dataset.produce} ${pb.dataset.produce}-typed-${ui.sent}`); return; }
  const ex = e.target.closest("[data-term-example]");
  if (ex) { remember(ex.dataset.termExample); exec(ex.dataset.termExample); return; }
  if (e.target.closest("[data-unselect]")) { unselect(); return; }
  const row = e.target.closest("tr[data-topic]");
  if (row) {
    ui.focus = {topic: row.dataset.topic, partition: Number(row.dataset.partition)};
    ui.selected = null; $("#journey").hidden = true;
    connect();
    fetchView(ui.at).then(render);
    return;
  }
  const rec = e.target.closest(".rec[data-offset]");
  if (rec && ui.view && ui.view.detail) {
    const d = ui.view.detail;
    ui.selected = {topic: d.topic, p: d.p, offset: Number(rec.dataset.offset), value: rec.dataset.value};
    render(ui.view);
  }
});

// editProducer fills the producer form (outside the redrawn panel) with
// the producer's settings; applying it types set-producer.
function editProducer(name) {
  const p = ((ui.view && ui.view.producers) || []).find((q) => q.name === name);
  if (!p) return;
  $("#pf-name").textContent = name;
  $("#pf-rate").value = p.rate;
  $("#pf-acks").value = p.acks;
  $("#pf-keys").value = (p.keys || []).join(",");
  $("#producer-form").hidden = false;
  $("#pf-rate").focus();
}

$("#producer-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const keys = $("#pf-keys").value.trim().replace(/\s+/g, "") || "none";
  $("#producer-form").hidden = true;
  exec(`set-producer ${$("#pf-name").textContent} --rate ${Number($("#pf-rate").value) || 0} --acks ${$("#pf-acks").value} --keys ${keys}`);
});
$("#pf-cancel").addEventListener("click", () => { $("#producer-form").hidden = true; });

// The terminal's history: ↑ and ↓ go through the lines typed, ↓ past the
// newest gives back the line being written.
const history = {lines: [], at: 0, draft: ""};
function remember(line) {
  if (line && history.lines[history.lines.length - 1] !== line) history.lines.push(line);
  history.at = history.lines.length;
  history.draft = "";
}
$("#term-input").addEventListener("keydown", (e) => {
  if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
  e.preventDefault();
  if (history.at === history.lines.length) history.draft = e.target.value;
  history.at = Math.max(0, Math.min(history.lines.length, history.at + (e.key === "ArrowUp" ? -1 : 1)));
  e.target.value = history.at === history.lines.length ? history.draft : history.lines[history.at];
  const n = e.target.value.length;
  e.target.setSelectionRange(n, n);
});

$("#term-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const inp = $("#term-input");
  const line = inp.value.trim();
  inp.value = "";
  remember(line);
  if (line === "clear") { for (const b of document.querySelectorAll("#term-out .blk")) b.remove(); return; }
  if (line) exec(line);
});
$("#term-wrap").addEventListener("change", (e) => $("#term-out").classList.toggle("wrap", e.target.checked));

$("#pause").addEventListener("click", async () => {
  await post("/api/pause", {paused: !(ui.view && ui.view.paused)});
  render(await fetchView(ui.at));
});
$("#reset").addEventListener("click", async () => {
  ui.ownSession = true;   // the new session is this tab's doing
  await post("/api/reset");
  ui.mode = "live"; ui.rates = {}; $("#scen-play").hidden = true; $("#scen-list").hidden = false;
  goLive();
});
$("#tl").addEventListener("input", onSlide);
$("#speed").addEventListener("change", (e) =>
  post("/api/speed", {speed: Number(e.target.value)}));
$("#tl-live").addEventListener("click", goLive);

const tabs = [...document.querySelectorAll(".tabs button")];
for (const t of tabs) {
  t.addEventListener("click", () => showTab(t.dataset.tab));
  t.addEventListener("keydown", (e) => {
    const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (!d) return;
    const n = tabs[(tabs.indexOf(t) + d + tabs.length) % tabs.length];
    showTab(n.dataset.tab);
    n.focus();
  });
}
function showTab(name) {
  for (const b of tabs) {
    b.classList.toggle("on", b.dataset.tab === name);
    b.setAttribute("aria-selected", String(b.dataset.tab === name));
  }
  for (const p of document.querySelectorAll(".tab")) p.classList.toggle("on", p.id === `tab-${name}`);
}
showTab("term");

// Reading mode: the right column (terminal, scenarios, notes) takes the
// whole width.
function setWide(on) {
  document.body.classList.toggle("wide", on);
  $("#wide").setAttribute("aria-pressed", String(on));
  $("#wide").textContent = on ? "Back to the cluster" : "Full width";
  if (!on && ui.view) render(ui.view);
}
$("#wide").addEventListener("click", () => setWide(!document.body.classList.contains("wide")));

// The legend stays folded once folded.
try {
  if (localStorage.getItem("kafkalive.legend") === "closed") $("#legend").open = false;
  $("#legend").addEventListener("toggle", () => localStorage.setItem("kafkalive.legend", $("#legend").open ? "open" : "closed"));
} catch (_) { /* no storage: the legend starts open */ }

// ---- guided scenarios ----

const groupTitles = {basics: "Basics", durability: "Durability", kip101: "KIP-101: leader epochs", consumers: "Consumer groups", keys: "Keys and the log"};

// scenarioCards are the scenarios' titles and subtitles in the list; the
// scenario's own title and summary, longer, show once it is chosen.
const scenarioCards = {
  "life-of-a-record": ["The life of one record", "Follow one record from the producer to three brokers to a consumer."],
  "acks1-loses-acked-writes": ["acks=1 loses acked writes", "The leader confirms a write no follower has, then dies."],
  "acks-all-and-the-isr": ["acks=all is only as strong as the ISR", "With min.insync.replicas=1, \"all\" can mean one broker."],
  "unclean-leader-election": ["Unclean leader election", "Availability or durability, when the only in-sync replica dies."],
  "your-producer-power-cut": ["Your producer, acks=1, and a power cut", "Point kcat at the brokers, send five records, then cut the leader's power."],
  "kip101-part1": ["KIP-101, part 1: a restart loses an acked record (Kafka 0.10)", "Followers used to cut back to their own high watermark. Watch why that was wrong."],
  "kip101-part2": ["KIP-101, part 2: the same restart with leader epochs (Kafka 0.11+)", "Followers ask the leader where their epoch ended instead of trusting their own HW."],
  "kip101-part3": ["KIP-101, part 3: logs diverge after a power cut (Kafka 0.10)", "Two replicas end up with different records at the same offset, and both look in sync."],
  "kip101-part4": ["KIP-101, part 4: the power cut with leader epochs", "Epochs keep the replicas identical, though the unflushed write is still gone."],
  "kip279-two-rounds": ["KIP-279: two rounds of truncation (Kafka 2.0)", "After fast unclean elections a returning follower must ask twice to find where the logs part."],
  "eager-vs-cooperative": ["Eager vs cooperative rebalancing", "Two groups get a new member at the same moment. One stops, one keeps reading."],
  "crash-is-not-a-goodbye": ["A crash is not a goodbye", "Clean shutdown vs crash, and why at-least-once means duplicates."],
  "keys-order-partitions": ["Keys, order and partitions", "Same key, same partition; until the partition count changes."],
  "retention-and-compaction": ["Retention and compaction", "Old data is deleted on a schedule, read or not; compaction keeps the latest per key."],
};

async function loadScenarios() {
  const list = await (await fetch("/api/scenarios")).json();
  ui.scenarios = Object.fromEntries(list.map((s) => [s.name, s]));
  const groups = {};
  for (const s of list) (groups[s.group] ||= []).push(s);
  let h = "";
  for (const g of Object.keys(groups)) {
    h += `<div class="scen-group"><h3>${esc(groupTitles[g] || g)}</h3>` + groups[g].map((s) => {
      const [title, sub] = scenarioCards[s.name] || [s.title, s.summary];
      return `<button type="button" class="scen" data-scenario="${esc(s.name)}"><b>${esc(title)}</b><span>${esc(sub)} · ${s.steps} steps</span></button>`;
    }).join("") + `</div>`;
  }
  $("#scen-groups").innerHTML = h;
}

const play = {state: null, guess: null, cmds: false};

$("#scen-list").addEventListener("click", async (e) => {
  const b = e.target.closest("[data-scenario]");
  if (!b) return;
  ui.ownSession = true;
  const r = await post("/api/scenario/start", {name: b.dataset.scenario});
  const res = await r.json();
  ui.selected = null;
  followSession(r.ok ? res : res.session, r.ok ? "" : res.error, true);
  if (ui.at !== null) goLive();
  render(await fetchView(null));
});

function renderPlay() {
  const s = play.state;
  const info = (ui.scenarios || {})[s.scenario] || {};
  let h = `<div class="play"><button type="button" id="scen-leave">← all scenarios</button><h3>${esc(s.title)}</h3>`;
  if (play.note) h += `<p class="offline" id="scen-note" role="status">${esc(play.note)}</p>`;
  if (s.intro) {
    if (info.summary) h += `<p class="summary">${esc(info.summary)}</p>`;
    if (info.source) h += `<p class="source">Based on ${esc(info.source)}</p>`;
    for (const p of s.intro) h += `<p>${esc(p)}</p>`;
  }
  if (s.played) {
    const p = s.played;
    if (p.question) {
      // the question just answered, the choice made and the right one
      h += `<div class="q answered"><b>${esc(p.question)}</b>` + (p.choices || []).map((c, i) =>
        `<button type="button" class="choice ${i + 1 === p.answer ? "right" : i + 1 === p.chosen ? "wrong" : ""}" disabled>${esc(c)}</button>`).join("") + `</div>`;
    }
    if (p.answer) {
      h += `<p class="why"><b>${p.chosen === p.answer ? "Right." : p.chosen ? "Not quite." : ""}</b> ${esc(p.why || "")}</p>`;
    }
    if (p.actions && p.actions.length) {
      h += `<details class="cmds"><summary>the commands step ${esc(p.id)} ran</summary><ol class="actions">${p.actions.map((a) => `<li>${esc(a)}</li>`).join("")}</ol></details>`;
    }
    h += `<div class="evs" tabindex="0" aria-label="what happened">${(p.events || []).map(esc).join("\n") || "(nothing happened)"}</div>`;
    if (p.failed && p.failed.length) h += `<p class="muted">The simulation differs from the reference here: ${p.failed.map(esc).join("; ")}</p>`;
  }
  if (s.done || !s.next) {
    h += `<p class="done" id="scen-done">The end of the scenario. The page shows its final state; Reset goes back to the live cluster.</p>`;
  } else {
    const n = s.next;
    h += `<h4>Step ${esc(n.id)}${n.title ? ": " + esc(n.title) : ""}${n.branch ? ` (branch ${esc(n.branch)})` : ""}</h4>`;
    for (const p of n.fork || []) h += `<p><i>${esc(p)}</i></p>`;
    for (const p of n.narration || []) h += `<p>${esc(p)}</p>`;
    if (n.actions && n.actions.length) {
      h += `<details class="cmds"${play.cmds ? " open" : ""}><summary>show the commands</summary><ol class="actions">${n.actions.map((a) => `<li>${esc(a)}</li>`).join("")}</ol></details>`;
    }
    if (n.question) {
      h += `<div class="q"><b>What will happen?</b> ${esc(n.question)}` +
        (n.choices || []).map((c, i) => `<button type="button" class="choice" data-guess="${i + 1}">${esc(c)}</button>`).join("") + `</div>`;
      h += `<button type="button" id="scen-next">skip the question and play</button>`;
    } else {
      h += `<button type="button" id="scen-next">Play this step</button>`;
    }
  }
  h += `</div>`;
  $("#scen-play").innerHTML = h;
  const c = $("#scen-play details.cmds");
  if (c) c.addEventListener("toggle", () => { play.cmds = c.open; });
}

$("#scen-play").addEventListener("click", async (e) => {
  if (e.target.id === "scen-leave") {
    ui.ownSession = true;
    const r = await post("/api/scenario/leave");
    followSession(await r.json(), "", true);
    goLive();
    return;
  }
  const g = e.target.closest("[data-guess]");
  if (!g && e.target.id !== "scen-next") return;
  const cur = ui.session || {};
  const r = await post("/api/scenario/step", {session: cur.id, step: cur.step, answer: g ? Number(g.dataset.guess) : 0});
  const res = await r.json();
  // refused (another tab reset, left or played first): the server's
  // session, and why
  followSession(r.ok ? res : res.session, r.ok ? "" : res.error, true);
  render(await fetchView(null));
});

// ---- the session ----

// The server holds the session every tab follows (the scenario played, its
// step, the answers chosen); the URL keeps the same
// (?scenario=NAME&step=N&answers=A,B), so that a reload after the server
// restarted plays the scenario again to the same step.
const wanted = (() => {
  const q = new URLSearchParams(location.search);
  const answers = (q.get("answers") || "").split(",").filter((a) => a !== "").map(Number);
  return {scenario: q.get("scenario"), step: Number(q.get("step")) || 0, answers};
})();

// followSession shows the server's session s: the scenario panel and the
// URL. note says why it changed; a change this tab did not ask for (own
// false) that ends the scenario says so.
function followSession(s, note = "", own = false) {
  if (!s) return;
  const key = `${s.id}:${s.step}`;
  const prev = ui.session;
  // an answer that left before a newer one arrived (ids only grow, and a
  // session's steps): the newer one stays
  if (prev && (s.id < prev.id || (s.id === prev.id && s.step < prev.step))) return;
  if (prev && prev.id !== s.id) { own = own || ui.ownSession; ui.ownSession = false; }
  ui.session = s;
  syncURL(s);
  if (s.scenario) {
    if (play.key === key && !note) return;
    play.key = key; play.state = s.play; play.note = note;
    ui.mode = "scenario";
    $("#scen-list").hidden = true; $("#scen-play").hidden = false;
    renderPlay();
    return;
  }
  play.key = key;
  const ended = prev && prev.scenario && prev.id !== s.id;
  if (ui.mode === "scenario" || ended) {
    ui.mode = "live"; $("#scen-play").hidden = true; $("#scen-list").hidden = false;
  }
  if (ended || note) {
    let p = $("#scen-note-live");
    if (!p) {
      p = document.createElement("p");
      p.id = "scen-note-live"; p.className = "offline"; p.setAttribute("role", "status");
      $("#scen-list").prepend(p);
    }
    p.textContent = note || (own ? "" : `The scenario ${prev.scenario} ended in another tab (Reset or "all scenarios"): this page shows the live cluster again.`);
    p.hidden = !p.textContent;
  }
}

// syncURL writes the session into the URL, keeping its other parts.
function syncURL(s) {
  const q = new URLSearchParams(location.search);
  for (const k of ["scenario", "step", "answers"]) q.delete(k);
  if (s.scenario) {
    q.set("scenario", s.scenario);
    q.set("step", String(s.step));
    if ((s.answers || []).some((a) => a)) q.set("answers", s.answers.join(","));
  }
  const qs = q.toString();
  const url = location.pathname + (qs ? "?" + qs : "") + location.hash;
  if (url !== location.pathname + location.search + location.hash) window.history.replaceState(null, "", url);
}

// restoreSession plays the URL's scenario again to its step when the
// server plays none (it restarted); while it plays one, the server wins.
async function restoreSession() {
  let v = await fetchView(null);
  if (wanted.scenario && !(v.session && v.session.scenario)) {
    const r = await post("/api/scenario/start", {name: wanted.scenario, step: wanted.step, answers: wanted.answers.slice(0, wanted.step)});
    const res = await r.json();
    followSession(r.ok ? res : res.session, r.ok ? "" : res.error, true);
    v = await fetchView(null);
  }
  if (v.session && v.session.scenario) showTab("scen");
  return v;
}

// sayDiscard says, while the page shows the past, how much of the future
// acting there discards.
function sayDiscard() {
  const b = $("#past-banner");
  let sp = $("#past-discard");
  if (!sp) { sp = document.createElement("b"); sp.id = "past-discard"; b.append(" ", sp); }
  sp.textContent = ui.at === null ? "" : `Acting here discards the ${((ui.liveNow - ui.at) / 1000).toFixed(1)} s after it.`;
}

// ---- notes ----

async function loadNotes() {
  const list = await (await fetch("/api/notes")).json();
  $("#notes-list").innerHTML = list.length ? list.map((n) => `<li><a href="#note/${esc(n.name)}">${esc(n.title)}</a>${n.summary ? `<p>${esc(n.summary)}</p>` : ""}</li>`).join("") :
    `<li class="muted">No notes in this build.</li>`;
  ui.notes = list;
}

// showNote shows the note called name, then its section id (if any).
async function showNote(name, id) {
  if (ui.noteShown !== name) {
    const r = await fetch(`/api/note?name=${encodeURIComponent(name)}`);
    if (!r.ok) return;
    const n = (ui.notes || []).find((x) => x.name === name);
    const link = n && n.scenario ? `<button type="button" data-scenario-link="${esc(n.scenario)}">See it happen: play the scenario</button>` : "";
    $("#note").innerHTML = `<div class="note-tools"><a href="#notes">← all notes</a>${link}</div>${await r.text()}`;
    // wide code and tables scroll inside themselves: a keyboard reaches them
    for (const el of $("#note").querySelectorAll("pre, table")) el.tabIndex = 0;
    ui.noteShown = name;
  }
  $("#note").hidden = false; $("#notes-index").hidden = true;
  showTab("notes");
  const target = id && document.getElementById(id);
  if (target) target.scrollIntoView({block: "start"});
  else $("#tab-notes").scrollTop = 0;
}

window.addEventListener("hashchange", route);
function route() {
  const h = decodeURIComponent(location.hash.slice(1));
  if (h.startsWith("note/")) {
    const [name] = h.slice(5).split("/");
    showNote(name, h.includes("/", 5) ? h : null);
  } else if (h === "notes") { $("#note").hidden = true; $("#notes-index").hidden = false; showTab("notes"); }
}
$("#note").addEventListener("click", (e) => {
  const b = e.target.closest("[data-scenario-link]");
  if (!b) return;
  showTab("scen");
  const s = document.querySelector(`[data-scenario="${CSS.escape(b.dataset.scenarioLink)}"]`);
  if (s) s.click();
});

// ---- start ----

restoreSession().then(render);
connect();
loadScenarios();
loadNotes().then(route);
