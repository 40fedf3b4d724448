// kafkalive's page. It renders what the server sends (the cluster's state,
// summarised); it decides nothing about Kafka.
"use strict";
window.__errs = [];
window.addEventListener("error", (e) => window.__errs.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.__errs.push(String(e.reason)));

const $ = (s) => document.querySelector(s);
// setHTML replaces an element's content only when it changed, so that
// buttons under the pointer survive the updates that do not touch them.
function setHTML(sel, html) {
  const el = $(sel);
  if (el.__html !== html) { el.innerHTML = html; el.__html = html; }
}
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

const ui = {
  focus: {topic: "orders", partition: 0},
  at: null,          // the moment of the timeline shown (null: live)
  view: null,        // the last view rendered
  liveNow: 0,
  selected: null,    // {offset, value} of the record whose journey is shown
  stream: null,
  mode: "live",
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
  return r.json();
}

// ---- rendering ----

// renderInternal shows the world's internal error (a bug of the
// simulation, never the user's doing) with the commands that replay it;
// hiding it lasts until the next one.
function renderInternal(v) {
  const ie = v.internal, el = $("#internal-banner");
  if (!ie || ui.hiddenInternal === ie.count) { el.hidden = true; return; }
  el.hidden = false;
  setHTML("#internal-banner .ie-text", `<b>Internal error</b> at t=${ie.t} ms${ie.count > 1 ? ` (${ie.count} so far)` : ""}: ${esc(ie.error)}. ` +
    (ie.stopped ? "The world stopped: Reset starts a new one." : "The world goes on.") + " Please report it with this replay:");
  setHTML("#internal-banner .ie-replay", esc(ie.replay));
}
$("#internal-banner .ie-hide").addEventListener("click", () => {
  ui.hiddenInternal = ui.view && ui.view.internal && ui.view.internal.count;
  $("#internal-banner").hidden = true;
});

function render(v) {
  ui.view = v;
  document.body.dataset.time = v.t;
  $("#clock").textContent = `t = ${(v.t / 1000).toFixed(1)} s`;
  $("#mode").textContent = v.mode === "scenario" ? "playing a guided scenario" : (v.paused ? "paused" : `rules ${v.rules}`);
  $("#pause").textContent = v.paused ? "Resume" : "Pause";
  if (document.activeElement !== $("#speed")) $("#speed").value = String(v.speed || 1);
  renderBrokers(v);
  renderProducers(v);
  renderGroups(v);
  renderParts(v);
  renderDetail(v);
  renderEvents(v);
  renderInternal(v);
  if (ui.selected) renderJourney(v);
}

function bytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1048576).toFixed(2)} MiB`;
}

function renderBrokers(v) {
  setHTML("#ctl-note", v.controller > 0 ? `controller: broker ${v.controller} (KRaft, voters 1-3)`
    : v.controller < 0 ? `controller: none, the voters are electing one` : "controller: KRaft node 0");
  setHTML("#brokers", (v.brokers || []).map((b) => `
    <div class="broker" data-broker="${b.id}" data-state="${b.state}">
      <div class="top"><span class="name">broker ${b.id}</span>
        <span class="state ${b.state}">${b.state === "off" ? "powered off" : b.state}</span>
        ${v.controller === b.id ? `<span class="ctl-badge" title="the active controller (KRaft quorum leader) runs in this broker">controller</span>` : ""}
        <span class="muted" title="the controller's view of this broker">${esc(b.ctl)}</span></div>
      <div class="figs">in ${bytes(b.in)}/s · out ${bytes(b.out)}/s<br>
        on disk ${bytes(b.disk)} · only in page cache ${bytes(b.cache)}</div>
      <div class="acts">
        <button data-cmd="stop ${b.id}">stop</button>
        <button data-cmd="kill ${b.id}" class="danger">kill</button>
        <button data-cmd="power-cut ${b.id}" class="danger">cut power</button>
        <button data-cmd="start ${b.id}">start</button>
      </div>
    </div>`).join(""));
}

function renderProducers(v) {
  setHTML("#producers", (v.producers || []).map((p) => `<div class="producer" data-producer="${esc(p.name)}">
      <div class="top"><b>${esc(p.name)}</b> <span class="muted">→ ${esc(p.topic)}</span>
        <button data-produce="${esc(p.name)}" title="send one record now">send one</button>
        <button data-edit-producer="${esc(p.name)}" title="change the rate, acks and keys">edit</button></div>
      <div class="muted">${p.rate}/s · acks=${esc(p.acks)} · ${p.keys && p.keys.length ? `keys ${p.keys.map(esc).join(", ")}` : "no keys (sticky partitioner)"}</div>
      <div class="counts">sent <b>${p.sent}</b> · acked <b>${p.acked}</b> · failed <b class="${p.failed ? "offline" : ""}">${p.failed}</b></div>
    </div>`).join(""));
}

function renderGroups(v) {
  const consumers = v.consumers || [];
  const byName = Object.fromEntries(consumers.map((c) => [c.name, c]));
  let h = "";
  if (!v.groups || !v.groups.length) h += `<p class="muted">No consumer groups.</p>`;
  for (const g of v.groups || []) {
    const topics = [...new Set((g.offsets || []).map((o) => o.topic))];
    let n = (g.members || []).length + 1;
    while (byName[`${g.name}-${n}`]) n++;
    const add = topics.length ? `<button data-cmd="add-consumer ${esc(g.name)}-${n} --group ${esc(g.name)} --topics ${esc(topics.join(","))}">add a member</button>` : "";
    h += `<div class="group" data-group="${esc(g.name)}">
      <div class="top"><b>${esc(g.name)}</b> <span class="state ${g.state === "Stable" ? "running" : "crashed"}">${esc(g.state)}</span>
        <span class="muted">gen ${g.generation} · ${esc(g.assignor || g.protocol)} · coordinator ${g.coordinator < 0 ? "none" : "b" + g.coordinator}</span></div>`;
    for (const m of g.members || []) {
      const c = byName[m.client_id] || {};
      const parts = (m.partitions || []).map((p) => `${esc(p.topic)}-${p.partition}`).join(", ");
      h += `<div class="member" data-member="${esc(m.client_id)}"><b>${esc(m.client_id)}</b>
        <span class="${parts ? "" : "muted"}">${parts || "no partitions" + (m.idle ? ": " + esc(m.idle) : "")}</span>
        <span class="muted">${c.processed ?? 0} processed${c.duplicates ? `, ${c.duplicates} twice` : ""}</span>
        <button data-cmd="remove-consumer ${esc(m.client_id)}" title="close it cleanly: it leaves the group">remove</button></div>`;
    }
    const lag = (g.offsets || []).map((o) => `<td>${esc(o.topic)}-${o.partition}</td><td class="num">${o.committed < 0 ? "-" : o.committed}</td><td class="num">${o.lag < 0 ? "-" : o.lag}</td>`);
    if (lag.length) h += `<table class="grid lag"><tr><th>partition</th><th class="num">committed</th><th class="num">lag</th></tr>${lag.map((r) => `<tr>${r}</tr>`).join("")}</table>`;
    h += `<div class="gacts">${add}</div></div>`;
  }
  const simple = consumers.filter((c) => !c.group);
  if (simple.length) {
    h += `<table class="grid"><tr><th>consumer</th><th>partition</th><th>position</th><th>read</th></tr>` +
      simple.map((c) => `<tr><td>${esc(c.name)}</td><td>${esc(c.topic)}-${c.partition}</td><td>${c.position}</td><td>${c.read}</td></tr>`).join("") + `</table>`;
  }
  setHTML("#groups", h);
}

function renderParts(v) {
  const rows = (v.parts || []).map((p) => {
    const sel = v.detail && p.topic === v.detail.topic && p.p === v.detail.p ? "sel" : "";
    const leader = p.leader < 0 ? `<span class="offline">none</span>` : p.leader;
    return `<tr class="${sel}" data-topic="${esc(p.topic)}" data-partition="${p.p}">
      <td>${esc(p.topic)}-${p.p}</td><td>${leader}</td><td>${p.epoch}</td><td>${(p.replicas || []).join(",")}</td>
      <td>${(p.isr || []).join(",")}</td><td>${p.lso}</td><td>${p.hw}</td><td>${p.leo}</td></tr>`;
  });
  setHTML("#parts", `<tr><th>partition</th><th>leader</th><th>epoch</th><th>replicas</th><th>ISR</th><th>log start</th><th>HW</th><th>LEO</th></tr>${rows.join("")}`);
}

function hue(key) {
  if (!key) return null;
  let h = 0;
  for (const c of key) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return (h * 47) % 360;
}

function renderDetail(v) {
  const d = v.detail;
  if (!d) { setHTML("#detail", `<p class="muted">No partition yet.</p>`); return; }
  const cell = 26;
  $("#detail-title").textContent = `Partition ${d.topic}-${d.p} in detail`;
  let hi = 0;
  for (const l of d.logs || []) hi = Math.max(hi, l.leo);
  // as many offsets as fit beside the labels, newest last
  const room = Math.max(8, Math.floor(($("#detail").clientWidth - 150) / cell));
  const lo = Math.max(0, hi - Math.min(room, 40) + 1);
  const width = (hi - lo + 1) * cell;
  const leader = (d.logs || []).find((l) => l.role === "leader");
  const x = (o) => (o - lo) * cell;
  let h = `<div class="meta">leader <b>${d.leader < 0 ? "none" : d.leader}</b> · leader epoch <b>${d.epoch}</b> ·
    replicas <b>${(d.replicas || []).join(",")}</b> · ISR <b>${(d.isr || []).join(",") || "—"}</b> · log start <b>${d.lso}</b> ·
    high watermark <b>${d.hw}</b> · log end offset <b>${d.leo}</b></div>`;
  h += `<div class="axis" style="width:${width}px">`;
  for (let o = lo; o <= hi; o += 5) h += `<span style="left:${x(o)}px">${o}</span>`;
  h += `</div>`;
  for (const l of d.logs || []) {
    const out = !l.inIsr ? "out" : "";
    const file = `${l.count} record${l.count === 1 ? "" : "s"}`;
    const segs = (l.segs || []).map((g) => `<span title="${g.active ? "the active segment: appends go here" : "a rolled segment"}">${g.file} · ${bytes(g.size)} · ${g.n} rec${g.active ? " · active" : ""}</span>`).join("");
    h += `<div class="logrow" data-log="${l.b}" data-role="${l.role}" data-in-isr="${l.inIsr}">
      <div class="who"><span class="${out}">b${l.b}</span><span class="role ${l.role}">${l.role}</span>
        <span class="file">${esc(file)}</span></div>
      <div class="track" style="width:${width}px">`;
    for (const r of l.recs || []) {
      if (r.o < lo) continue;
      const hh = hue(r.k);
      const cls = ["rec", hh === null ? "nokey" : "", r.c ? "cached" : "", r.x ? "differs" : "",
        ui.selected && ui.selected.offset === r.o ? "sel" : ""].join(" ");
      const title = `offset ${r.o}${r.k ? ` key ${r.k}` : " no key"} value ${r.v} epoch ${r.e}${r.c ? " (page cache only)" : ""}${r.x ? " (differs from the leader)" : ""}`;
      h += `<div class="${cls}" style="left:${x(r.o)}px;--h:${hh ?? 0}" data-offset="${r.o}" data-value="${esc(r.v)}" title="${esc(title)}">${r.o}<small>${r.e >= 0 ? "e" + r.e : ""}</small></div>`;
    }
    if (l.role === "leader" || !leader) {
      h += `<div class="hwline" style="left:${x(l.hw) - 1}px" title="high watermark ${l.hw}"></div>`;
    } else {
      if (leader) h += `<div class="hwline" style="left:${x(leader.hw) - 1}px;opacity:.35" title="leader's high watermark ${leader.hw}"></div>`;
      h += `<div class="hwline own" style="left:${x(l.hw) - 1}px" title="b${l.b}'s own high watermark ${l.hw}"></div>`;
    }
    h += `<div class="leoline" style="left:${x(l.leo) + 1}px" title="log end offset ${l.leo}"></div>`;
    h += `</div></div><div class="segs">${segs || (l.role === "down" ? "segments: read back when it starts" : "")}</div>`;
  }
  setHTML("#detail", h);
}

// The journey of a record: where the cluster's state says it is now.
function renderJourney(v) {
  const s = ui.selected, d = v.detail;
  if (!d) return;
  const j = $("#journey");
  const holders = (d.logs || []).map((l) => {
    const r = (l.recs || []).find((r) => r.o === s.offset);
    if (!r) return `<li>b${l.b} (${l.role}): does not have offset ${s.offset}${l.leo <= s.offset ? ` (its log ends at ${l.leo})` : ""}</li>`;
    const same = r.v === s.value ? "has it" : `has a different record there (${esc(r.v)})`;
    return `<li>b${l.b} (${l.role}): ${same}${r.c ? ", only in the page cache" : ", on disk"}; its own HW is ${l.hw}${l.hw > s.offset ? " (past it)" : " (not past it yet)"}</li>`;
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
  j.innerHTML = `<b>Journey of ${esc(s.value)}</b> at offset ${s.offset} of ${esc(d.topic)}-${d.p}
    <ol><li>producer ${producer ? esc(producer.name) + ` (acks=${esc(producer.acks)})` : "(typed in the terminal or a scenario)"} sent it to the leader</li>
    ${holders}
    <li>high watermark ${d.hw}: ${d.hw > s.offset ? "committed, consumers may read it" : "not committed yet, consumers cannot see it"}</li>
    ${consumers || "<li>no consumer reads this partition</li>"}</ol>`;
  j.hidden = false;
}

function renderEvents(v) {
  setHTML("#events", (v.events || []).slice().reverse().map((e) => `<li>${esc(e)}</li>`).join(""));
}

// ---- the timeline ----

// updateSlider spans the timeline kept: from the oldest snapshot (older
// moments fell off) to now.
function updateSlider(now, start) {
  const tl = $("#tl");
  tl.min = start;
  tl.max = now;
  $("#tl").title = start > 0 ? `the timeline keeps t=${(start / 1000).toFixed(0)} s to now; older moments fell off` : "";
  if (ui.at === null) tl.value = now;
}

// drawMarks puts a tick on the timeline for each action (a crash, a
// command...); clicking one shows the moment just before it.
function drawMarks(marks, now, start) {
  const key = `${marks.length}:${now}:${start}`;
  if (ui.marksKey === key) return;
  ui.marksKey = key;
  $("#tl-marks").innerHTML = now <= start ? "" : marks.filter((m) => m.t > start).map((m) =>
    `<i style="left:${(100 * (m.t - start) / (now - start)).toFixed(2)}%" data-at="${Math.max(start, m.t - 100)}" title="t=${(m.t / 1000).toFixed(1)} s: ${esc(m.text)}"></i>`).join("");
}

$("#tl-marks").addEventListener("click", (e) => {
  const m = e.target.closest("[data-at]");
  if (!m) return;
  $("#tl").value = m.dataset.at;
  onSlide();
});

let tlTimer = null;
function onSlide() {
  const tl = $("#tl");
  const at = Number(tl.value);
  if (at >= ui.liveNow - 100) return goLive();
  ui.at = at;
  $("#tl-label").textContent = `t = ${(at / 1000).toFixed(1)} s (past)`;
  $("#tl-live").hidden = false;
  $("#past-banner").hidden = false;
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

async function exec(line, echo = true) {
  const body = {line};
  if (ui.at !== null) body.at = ui.at;
  const r = await post("/api/exec", body);
  const res = await r.json();
  const out = $("#term-out");
  if (echo) out.insertAdjacentHTML("beforeend", `<span class="cmd">$ ${esc(line)}</span>\n`);
  out.insertAdjacentHTML("beforeend", res.ok ? esc(res.output) : `<span class="err">${esc(res.output)}</span>`);
  out.scrollTop = out.scrollHeight;
  if (ui.at !== null && ui.mode !== "scenario") goLive();   // acting from the past forked a new future
  else render(await fetchView(ui.at));
  return res;
}

document.addEventListener("click", (e) => {
  const b = e.target.closest("[data-cmd]");
  if (b) { exec(b.dataset.cmd); return; }
  const ed = e.target.closest("[data-edit-producer]");
  if (ed) { editProducer(ed.dataset.editProducer); return; }
  const pb = e.target.closest("[data-produce]");
  if (pb) { ui.sent = (ui.sent || 0) + 1; exec(`produce ${pb.dataset.produce} ${pb.dataset.produce}-typed-${ui.sent}`); return; }
  const row = e.target.closest("tr[data-topic]");
  if (row) {
    ui.focus = {topic: row.dataset.topic, partition: Number(row.dataset.partition)};
    ui.selected = null; $("#journey").hidden = true;
    connect();
    fetchView(ui.at).then(render);
    return;
  }
  const rec = e.target.closest(".rec[data-offset]");
  if (rec) {
    ui.selected = {offset: Number(rec.dataset.offset), value: rec.dataset.value};
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
}

$("#producer-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const keys = $("#pf-keys").value.trim().replace(/\s+/g, "") || "none";
  $("#producer-form").hidden = true;
  exec(`set-producer ${$("#pf-name").textContent} --rate ${Number($("#pf-rate").value) || 0} --acks ${$("#pf-acks").value} --keys ${keys}`);
});
$("#pf-cancel").addEventListener("click", () => { $("#producer-form").hidden = true; });

const history = {lines: [], at: 0};
$("#term-input").addEventListener("keydown", (e) => {
  if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
  e.preventDefault();
  history.at = Math.max(0, Math.min(history.lines.length, history.at + (e.key === "ArrowUp" ? -1 : 1)));
  e.target.value = history.lines[history.at] || "";
});

$("#term-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const inp = $("#term-input");
  const line = inp.value.trim();
  inp.value = "";
  if (line) { history.lines.push(line); history.at = history.lines.length; }
  if (line === "clear") { $("#term-out").textContent = ""; return; }
  if (line) exec(line);
});

$("#pause").addEventListener("click", async () => {
  await post("/api/pause", {paused: !(ui.view && ui.view.paused)});
  render(await fetchView(ui.at));
});
$("#reset").addEventListener("click", async () => {
  await post("/api/reset");
  ui.mode = "live"; $("#scen-play").hidden = true; $("#scen-list").hidden = false;
  goLive();
});
$("#tl").addEventListener("input", onSlide);
$("#speed").addEventListener("change", (e) =>
  post("/api/speed", {speed: Number(e.target.value)}));
$("#tl-live").addEventListener("click", goLive);

for (const t of document.querySelectorAll(".tabs button")) {
  t.addEventListener("click", () => showTab(t.dataset.tab));
}
function showTab(name) {
  for (const b of document.querySelectorAll(".tabs button")) b.classList.toggle("on", b.dataset.tab === name);
  for (const p of document.querySelectorAll(".tab")) p.classList.toggle("on", p.id === `tab-${name}`);
}

// ---- guided scenarios ----

const groupTitles = {basics: "Basics", durability: "Durability", kip101: "KIP-101", consumers: "Consumer groups", keys: "Keys and the log"};

async function loadScenarios() {
  const list = await (await fetch("/api/scenarios")).json();
  const groups = {};
  for (const s of list) (groups[s.group] ||= []).push(s);
  let h = "";
  for (const g of Object.keys(groups)) {
    h += `<div class="scen-group"><h3>${esc(groupTitles[g] || g)}</h3>` + groups[g].map((s) =>
      `<button class="scen" data-scenario="${esc(s.name)}"><b>${esc(s.title)}</b><span>${esc(s.summary)} · ${s.steps} steps · ${esc(s.source)}</span></button>`).join("") + `</div>`;
  }
  $("#scen-list").innerHTML = h;
}

const play = {state: null, guess: null};

$("#scen-list").addEventListener("click", async (e) => {
  const b = e.target.closest("[data-scenario]");
  if (!b) return;
  const r = await post("/api/scenario/start", {name: b.dataset.scenario});
  play.state = await r.json(); play.guess = null;
  ui.mode = "scenario"; ui.selected = null;
  if (ui.at !== null) goLive();
  $("#scen-list").hidden = true; $("#scen-play").hidden = false;
  renderPlay();
  render(await fetchView(null));
});

function renderPlay() {
  const s = play.state;
  let h = `<div class="play"><button id="scen-leave">← all scenarios</button><h3>${esc(s.title)}</h3>`;
  for (const p of s.intro || []) h += `<p>${esc(p)}</p>`;
  if (s.played) {
    const p = s.played;
    if (p.answer) {
      h += `<p class="why"><b>${play.guess === p.answer ? "Right." : play.guess ? "Not quite." : ""}</b> ${esc(p.why || "")}</p>`;
    }
    h += `<div class="evs">${(p.events || []).map(esc).join("\n") || "(nothing happened)"}</div>`;
    if (p.failed && p.failed.length) h += `<p class="muted">The simulation differs from the reference here: ${p.failed.map(esc).join("; ")}</p>`;
  }
  if (s.done || !s.next) {
    h += `<p class="done" id="scen-done">The end of the scenario. The page shows its final state; Reset goes back to the live cluster.</p>`;
  } else {
    const n = s.next;
    h += `<h4>Step ${esc(n.id)}${n.title ? ": " + esc(n.title) : ""}${n.branch ? ` (branch ${esc(n.branch)})` : ""}</h4>`;
    for (const p of n.fork || []) h += `<p><i>${esc(p)}</i></p>`;
    for (const p of n.narration || []) h += `<p>${esc(p)}</p>`;
    if (n.actions && n.actions.length) h += `<p class="actions">${n.actions.map(esc).join(" · ")}</p>`;
    if (n.question) {
      h += `<div class="q"><b>What will happen?</b> ${esc(n.question)}` +
        (n.choices || []).map((c, i) => `<button class="choice" data-guess="${i + 1}">${esc(c)}</button>`).join("") + `</div>`;
      h += `<button id="scen-next" class="muted">skip the question and play</button>`;
    } else {
      h += `<button id="scen-next">Play this step</button>`;
    }
  }
  h += `</div>`;
  $("#scen-play").innerHTML = h;
}

$("#scen-play").addEventListener("click", async (e) => {
  if (e.target.id === "scen-leave") {
    await post("/api/scenario/leave");
    ui.mode = "live"; $("#scen-play").hidden = true; $("#scen-list").hidden = false;
    goLive();
    return;
  }
  const g = e.target.closest("[data-guess]");
  if (!g && e.target.id !== "scen-next") return;
  play.guess = g ? Number(g.dataset.guess) : null;
  const r = await post("/api/scenario/step");
  if (!r.ok) { $("#scen-play").insertAdjacentHTML("beforeend", `<p class="offline">${esc(await r.text())}</p>`); return; }
  const prev = play.state;
  play.state = await r.json();
  play.state.intro = null;
  renderPlay();
  if (play.guess && play.state.played && play.state.played.answer) {
    // mark the guess on the question just answered
    const q = document.createElement("div");
    q.className = "q";
    q.innerHTML = `<b>${esc(prev.next.question)}</b>` + (prev.next.choices || []).map((c, i) =>
      `<button class="choice ${i + 1 === play.state.played.answer ? "right" : i + 1 === play.guess ? "wrong" : ""}" disabled>${esc(c)}</button>`).join("");
    $("#scen-play .play h3").after(q);
  }
  render(await fetchView(null));
});

// ---- notes ----

async function loadNotes() {
  const list = await (await fetch("/api/notes")).json();
  $("#notes-list").innerHTML = list.length ? list.map((n) => `<a class="notes-item" href="#note/${esc(n.name)}">${esc(n.title)}</a>`).join("") :
    `<p class="muted">No notes in this build.</p>`;
  ui.notes = list;
}

async function showNote(name) {
  const r = await fetch(`/api/note?name=${encodeURIComponent(name)}`);
  if (!r.ok) return;
  const n = (ui.notes || []).find((x) => x.name === name);
  const link = n && n.scenario ? `<p><button data-scenario-link="${esc(n.scenario)}">See it happen: play the scenario</button></p>` : "";
  $("#note").innerHTML = `<p><a href="#notes">← all notes</a></p>${link}${await r.text()}`;
  $("#note").hidden = false; $("#notes-list").hidden = true;
  showTab("notes");
}

window.addEventListener("hashchange", route);
function route() {
  const h = location.hash.slice(1);
  if (h.startsWith("note/")) showNote(h.slice(5));
  else if (h === "notes") { $("#note").hidden = true; $("#notes-list").hidden = false; showTab("notes"); }
}
$("#note").addEventListener("click", (e) => {
  const b = e.target.closest("[data-scenario-link]");
  if (!b) return;
  showTab("scen");
  const s = document.querySelector(`[data-scenario="${CSS.escape(b.dataset.scenarioLink)}"]`);
  if (s) s.click();
});

// ---- start ----

fetchView(null).then(render);
connect();
loadScenarios();
loadNotes().then(route);
