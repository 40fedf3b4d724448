// @ts-check
// The page: it renders what its transport sends (the cluster's state,
// summarised) and sends what the reader does; it decides nothing about
// Kafka. boot wires it to a transport.
import {History} from "./history.js";
import {esc} from "./html.js";
import {morph} from "./morph.js";
import {lagGrows, rate, sampleLags, sampleRates} from "./rates.js";
import {brokersHTML, controllerNote} from "./render/brokers.js";
import {clientsHTML} from "./render/clients.js";
import {wirePanel} from "./wire.js";
import {metaHTML, segfilesHTML, tracksView} from "./render/detail.js";
import {eventsHTML} from "./render/events.js";
import {groupsHTML} from "./render/groups.js";
import {internalText} from "./render/internal.js";
import {journeyHTML} from "./render/journey.js";
import {learnerHTML, yourPart} from "./render/learner.js";
import {notesListHTML} from "./render/notes.js";
import {pageText, paged, partsHTML, topicsHTML} from "./render/partitions.js";
import {producersHTML} from "./render/producers.js";
import {listHTML, playHTML} from "./render/scenarios.js";
import {blockHTML} from "./render/terminal.js";
import {marksHTML} from "./render/timeline.js";
import {observedBannerHTML, observedClock, observedMetaHTML, observedProducersHTML, observedTracksHTML} from "./render/observed.js";
import {isStale, sessionURL, wantedSession} from "./session.js";
import {timeline} from "./timeline.js";

/** @typedef {import("./types.js").Update} Update */
/** @typedef {import("./types.js").Session} Session */
/** @typedef {import("./types.js").ScenarioInfo} ScenarioInfo */
/** @typedef {import("./types.js").NoteInfo} NoteInfo */
/** @typedef {import("./transport.js").Transport} Transport */
/** @typedef {import("./render/detail.js").Selected} Selected */

/**
 * $ finds the element sel names.
 * @param {string} sel
 * @returns {any}
 */
const $ = (sel) => document.querySelector(sel);

/** MaxTermBlocks is how many commands' outputs the terminal keeps. */
const MaxTermBlocks = 200;

/**
 * setText writes s as the text of the element sel names, if it changed.
 * @param {string} sel
 * @param {string} s
 */
function setText(sel, s) {
  const el = $(sel);
  if (el.textContent !== s) el.textContent = s;
}

/**
 * cssPx reads a length custom property of the page in px.
 * @param {string} name
 */
function cssPx(name) {
  return parseFloat(getComputedStyle(document.documentElement).getPropertyValue(name)) || 0;
}

/**
 * boot starts the page over transport t: it follows the update stream,
 * renders each update, and sends what the reader does.
 * @param {Transport} t
 */
export function boot(t) {
  const ui = {
    focus: {topic: "orders", partition: 0},
    // the partition table's page: its filters, order and page (TableQuery)
    table: {topic: "", status: "", leader: "", sort: "", page: 0},
    /** @type {number | null} the moment of the timeline shown (null: live) */
    at: null,
    /** @type {Update | null} the last update rendered */
    view: null,
    liveNow: 0,
    /** @type {Selected | null} the record whose journey is shown */
    selected: null,
    /** @type {(() => void) | null} */
    closeStream: null,
    /** @type {import("./wire.js").WirePanel | null} the wire panel, once the page has one */
    wire: null,
    mode: "live",
    /** @type {import("./rates.js").Rates} */
    rates: {},
    /** @type {import("./rates.js").Rates} */
    lags: {},
    /** @type {number | undefined} */
    hiddenInternal: undefined,
    /** @type {Session | null} */
    session: null,
    ownSession: false,
    /** @type {Record<string, ScenarioInfo>} */
    scenarios: {},
    /** @type {NoteInfo[]} */
    notes: [],
    /** @type {string | null} */
    noteShown: null,
    sent: 0,
    // the pointer is over the records (they hold still), the first offset
    // drawn, and of which partition
    overTracks: false,
    tracksLo: 0,
    tracksFor: "",
  };
  /** @type {{state: import("./types.js").StepView | null, cmds: boolean, key: string, note: string, json: string}} */
  const play = {state: null, cmds: false, key: "", note: "", json: ""};
  const history = new History();

  // ---- the update stream ----

  /**
   * focusQuery names the partition shown and the record followed, for
   * the server.
   * @returns {URLSearchParams}
   */
  function focusQuery() {
    const q = new URLSearchParams({topic: ui.focus.topic, partition: String(ui.focus.partition)});
    const s = ui.selected;
    if (s && s.topic === ui.focus.topic && s.p === ui.focus.partition) {
      q.set("offset", String(s.offset));
      q.set("value", s.value);
    }
    const tq = ui.table;
    if (tq.topic) q.set("parts_topic", tq.topic);
    if (tq.status) q.set("parts_status", tq.status);
    if (tq.leader) q.set("parts_leader", tq.leader);
    if (tq.sort) q.set("parts_sort", tq.sort);
    if (tq.page) q.set("parts_page", String(tq.page));
    return q;
  }

  function connect() {
    if (ui.closeStream) ui.closeStream();
    const q = focusQuery();
    ui.closeStream = t.stream((v, size) => {
      const t0 = performance.now();
      $("#stream-note").hidden = true;
      ui.liveNow = v.now;
      followSession(v.session);
      sayDiscard();
      updateSlider(v.now, v.start || 0);
      morph($("#tl-marks"), marksHTML(v.marks || [], v.now, v.start || 0));
      if (ui.at === null) render(v);
      // figures for the browser tests: updates received, their bytes, render time
      const w = /** @type {any} */ (window);
      const m = w.__stats ||= {updates: 0, bytes: 0, ms: 0};
      m.updates++; m.bytes += size; m.ms += performance.now() - t0;
    }, (e) => {
      // refused or cut: say why while the stream is tried again
      if (!(e instanceof Error)) return;
      const note = $("#stream-note");
      note.textContent = `No live updates: ${e.message}`;
      note.hidden = false;
    }, `/api/stream?${q}`);
  }

  /**
   * fetchView gets the update of the moment at (null: now).
   * @param {number | null} at
   * @returns {Promise<Update>}
   */
  async function fetchView(at) {
    const q = focusQuery();
    if (at !== null) q.set("at", String(at));
    const v = await t.get(`/api/view?${q}`);
    followSession(v.session);
    return v;
  }

  // ---- rendering ----

  /** @param {Update} v */
  function renderInternal(v) {
    const ie = v.internal, el = $("#internal-banner");
    if (!ie || ui.hiddenInternal === ie.count) { el.hidden = true; return; }
    el.hidden = false;
    morph($("#internal-banner .ie-text"), internalText(ie));
    morph($("#internal-banner .ie-replay"), esc(ie.replay));
  }
  $("#internal-banner .ie-hide").addEventListener("click", () => {
    ui.hiddenInternal = ui.view && ui.view.internal ? ui.view.internal.count : undefined;
    $("#internal-banner").hidden = true;
  });

  /** @param {Update} v */
  function render(v) {
    ui.view = v;
    document.body.dataset.time = String(v.t);
    const obs = v.observed || null;
    document.body.classList.toggle("observed", !!obs);
    setText("#clock", obs ? observedClock(obs) : `t = ${(v.t / 1000).toFixed(1)} s`);
    setText("#mode", obs ? "observing, read-only" : v.mode === "scenario" ? "playing a guided scenario" : (v.paused ? "paused" : `rules ${v.rules}`));
    renderObserved(v);
    renderIntro(v);
    setText("#pause", v.paused ? "Resume" : "Pause");
    if (document.activeElement !== $("#speed")) $("#speed").value = String(v.speed || 1);
    const live = ui.at === null && !v.past;
    if (live) {
      sampleRates(ui.rates, v);
      sampleLags(ui.lags, v);
    }
    morph($("#ctl-note"), controllerNote(v));
    morph($("#brokers"), brokersHTML(v));
    morph($("#producers"), producersHTML(v));
    morph($("#groups"), groupsHTML(v, (name) => live ? rate(ui.rates, name) : "", (g, topic, p) => live && lagGrows(ui.lags, g, topic, p)));
    morph($("#parts"), partsHTML(v));
    renderTable(v);
    renderDetail(v);
    morph($("#events"), eventsHTML(v));
    renderInternal(v);
    renderJourney(v);
    renderKafka(v);
    renderLearner(v);
  }

  /**
   * renderIntro says what the page shows: the live cluster, or the world of
   * the scenario being played (its own brokers and topics).
   * @param {Update} v
   */
  function renderIntro(v) {
    const el = $("#intro-text");
    if (!el.dataset.live) el.dataset.live = el.innerHTML;
    if (v.observed) {
      const n = (v.brokers || []).length, t = v.table || {total: 0, topics: []};
      setText("#intro-title", "Your cluster, observed");
      morph(el, `A real Kafka cluster seen from outside, as any client could see it: ${n} broker${n === 1 ? "" : "s"}, ${t.total} partition${t.total === 1 ? "" : "s"}. ` +
        `The page shows a sample a second; drag the timeline back to an earlier one (it begins when the observer started). Kafka's read-only tools run in the terminal.`);
      return;
    }
    const play = v.session && v.session.play;
    if (v.mode !== "scenario" || !play) {
      morph(el, el.dataset.live);
      return;
    }
    const n = (v.brokers || []).length, topics = ((v.table && v.table.topics) || []).map((t) => t.topic);
    morph(el, `Playing <b>${esc(play.title)}</b> on a cluster of its own: ${n} broker${n === 1 ? "" : "s"}${topics.length ? `, topic${topics.length === 1 ? "" : "s"} ${topics.map(esc).join(", ")}` : ""}. ` +
      `The live cluster waits meanwhile; "← all scenarios" goes back to it.`);
  }

  /**
   * renderTable shows the partition table's tools when it has more
   * partitions than a page, or a filter is chosen: the filters, the
   * topics summed up, and the pages.
   * @param {Update} v
   */
  function renderTable(v) {
    const t = v.table, on = paged(t);
    $("#parts-tools").hidden = !on;
    $("#parts-topics").hidden = !on;
    $("#parts-pager").hidden = !on;
    if (!on) return;
    ui.table.page = t.page; // the server's: the last page when the one asked for is gone
    morph($("#parts-topics"), topicsHTML(t));
    setText("#pt-page", pageText(t));
    // not disabled: a button that is focused stays so (keyboard)
    const first = t.page <= 0, last = t.page >= t.pages - 1;
    for (const sel of ["#pt-first", "#pt-prev"]) $(sel).setAttribute("aria-disabled", String(first));
    for (const sel of ["#pt-next", "#pt-last"]) $(sel).setAttribute("aria-disabled", String(last));
    const leaders = ["", ...(v.brokers || []).map((b) => String(b.id))];
    const sel = $("#pt-leader");
    if ([...sel.options].map((/** @type {HTMLOptionElement} */ o) => o.value).join() !== leaders.join()) {
      sel.innerHTML = leaders.map((id) => `<option value="${id}">${id ? `broker ${id}` : "any"}</option>`).join("");
    }
    // the controls say the query in force, but while one is being used
    const shown = {"#pt-topic": t.topic || "", "#pt-status": t.status || "", "#pt-leader": t.leader ? String(t.leader) : "", "#pt-sort": t.sort || ""};
    for (const [id, val] of Object.entries(shown)) {
      if (document.activeElement !== $(id) && $(id).value !== val) $(id).value = val;
    }
  }

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let tableTimer;
  /**
   * showTable shows the partition table's page q asks for (the stream
   * follows it).
   * @param {Partial<typeof ui.table>} q
   */
  function showTable(q) {
    ui.table = {...ui.table, page: 0, ...q};
    clearTimeout(tableTimer);
    connect();
    fetchView(ui.at).then((v) => { if (ui.at === null || v.past) render(v); });
  }
  $("#parts-tools").addEventListener("submit", (/** @type {Event} */ e) => e.preventDefault());
  $("#pt-topic").addEventListener("input", () => {
    clearTimeout(tableTimer);
    tableTimer = setTimeout(() => showTable({topic: $("#pt-topic").value.trim()}), 250);
  });
  $("#pt-topic").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => { if (e.key === "Enter") showTable({topic: $("#pt-topic").value.trim()}); });
  $("#pt-status").addEventListener("change", () => showTable({status: $("#pt-status").value}));
  $("#pt-leader").addEventListener("change", () => showTable({leader: $("#pt-leader").value}));
  $("#pt-sort").addEventListener("change", () => showTable({sort: $("#pt-sort").value}));
  /**
   * turnPage shows page to of the table, unless its button is off.
   * @param {string} sel
   * @param {(t: import("./types.js").TableView) => number} to
   */
  function turnPage(sel, to) {
    $(sel).addEventListener("click", () => {
      const t = ui.view && ui.view.table;
      if (!t || $(sel).getAttribute("aria-disabled") === "true") return;
      showTable({page: Math.max(0, Math.min(t.pages - 1, to(t)))});
    });
  }
  turnPage("#pt-first", () => 0);
  turnPage("#pt-prev", (t) => t.page - 1);
  turnPage("#pt-next", (t) => t.page + 1);
  turnPage("#pt-last", (t) => t.pages - 1);

  /**
   * renderObserved shows, on an observed cluster's page, the banner that
   * says what the page shows and why nothing on it acts.
   * @param {Update} v
   */
  function renderObserved(v) {
    let el = $("#observed-banner");
    if (!v.observed) { if (el) el.hidden = true; return; }
    if (!el) {
      el = document.createElement("section");
      el.id = "observed-banner";
      el.className = "observed-banner";
      el.setAttribute("aria-label", "the cluster observed");
      $("#timeline").after(el);
    }
    el.hidden = false;
    morph(el, observedBannerHTML(v.observed, !!v.past));
    // without its buttons the left column has nothing to focus: a
    // keyboard reaches it to scroll it
    const left = $(".col.left");
    if (left && left.tabIndex < 0) left.tabIndex = 0;
  }

  /** @param {Update} v */
  function renderDetail(v) {
    const d = v.detail;
    if (!d) { morph($("#tracks"), `<p class="muted">No partition yet.</p>`); morph($("#detail-meta"), ""); morph($("#segfiles"), ""); return; }
    setText("#detail-title", `${d.topic} · partition ${d.p}`);
    if (v.observed) {
      morph($("#detail-meta"), observedMetaHTML(d, v.observed));
      morph($("#tracks"), observedTracksHTML(d));
      morph($("#segfiles"), observedProducersHTML(v.observed));
      return;
    }
    morph($("#detail-meta"), metaHTML(d));
    const cell = cssPx("--cell") || 46, who = cssPx("--who") || 104;
    const room = Math.max(4, Math.floor(($("#tracks").clientWidth - who - 8) / cell));
    const t = tracksView(d, {room, cell, selected: ui.selected, mine: yourPart(v.learner, "record", d.topic),
      held: ui.overTracks && ui.tracksFor === `${d.topic}-${d.p}` ? ui.tracksLo : null, producers: (v.producers || []).map((p) => p.name)});
    ui.tracksLo = t.lo;
    ui.tracksFor = `${d.topic}-${d.p}`;
    morph($("#tracks"), t.html);
    morph($("#segfiles"), segfilesHTML(d, yourPart(v.learner, "segment", d.topic)));
  }

  /** @param {Update} v */
  function renderJourney(v) {
    const h = journeyHTML(v, ui.selected), j = $("#journey");
    if (!h) { j.hidden = true; return; }
    morph(j, h);
    j.hidden = false;
  }

  /** @param {Update} v */
  function renderLearner(v) {
    const l = v.learner;
    let box = $("#learner");
    if (!l) { if (box) box.hidden = true; return; }
    if (!box) {
      box = document.createElement("section");
      box.id = "learner";
      box.className = "learner";
      box.setAttribute("aria-label", "your code in the cluster");
      // in the middle column, above the partitions: the scenarios and the
      // terminal stay beside it
      (document.querySelector(".col.mid") || document.body).prepend(box);
    }
    box.hidden = false;
    morph(box, learnerHTML(l, ui.notes.map((n) => n.name)));
  }

  /** @param {Update} v */
  function renderKafka(v) {
    const k = v.kafka;
    let el = $("#kafka-clients");
    if (!k) { if (el) el.hidden = true; return; }
    if (!el) {
      el = document.createElement("div");
      el.id = "kafka-clients";
      el.className = "kafka-clients";
      $("#producers").after(el);
    }
    el.hidden = false;
    morph(el, clientsHTML(k));
    let wire = /** @type {HTMLDetailsElement | null} */ ($("#wire"));
    if (!wire && !k.unavailable) {
      wire = document.createElement("details");
      wire.id = "wire";
      wire.className = "wire";
      el.after(wire);
      ui.wire = wirePanel(t, wire, () => ((ui.view && ui.view.kafka && ui.view.kafka.clients) || []).map((c) => c.client_id));
    }
    if (wire) wire.hidden = !!k.unavailable;
  }

  $("#tracks").addEventListener("pointerenter", () => { ui.overTracks = true; });
  $("#tracks").addEventListener("pointerleave", () => {
    ui.overTracks = false;
    if (ui.view && ui.at === null) render(ui.view);
  });

  // ---- the timeline ----

  const slider = timeline($("#tl"), (at) => at === null ? goLive() : showPast(at));

  /**
   * updateSlider spans the timeline kept: from the oldest snapshot (older
   * moments fell off) to now.
   * @param {number} now
   * @param {number} start
   */
  function updateSlider(now, start) {
    const title = start > 0 ? `the timeline keeps t=${(start / 1000).toFixed(0)} s to now; older moments fell off` : "";
    if ($("#tl").title !== title) $("#tl").title = title;
    slider.update(now, start, ui.at);
  }

  /** @param {Event} e */
  function chooseMark(e) {
    const m = /** @type {HTMLElement} */ (e.target).closest("[data-at]");
    if (!(m instanceof HTMLElement)) return;
    $("#tl").value = m.dataset.at;
    showPast(Number(m.dataset.at));
  }
  $("#tl-marks").addEventListener("click", chooseMark);
  $("#tl-marks").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); chooseMark(e); } });

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let tlTimer;
  /**
   * showPast shows the moment at of the timeline.
   * @param {number} at
   */
  function showPast(at) {
    if (at >= ui.liveNow) return goLive();
    ui.at = at;
    $("#tl-label").textContent = `t = ${(at / 1000).toFixed(1)} s (past)`;
    if (document.body.classList.contains("observed")) {
      $("#past-banner").textContent = "You are looking at an earlier sample of the cluster. The whole page shows it as it was then; the terminal's tools read that sample.";
    }
    $("#tl").setAttribute("aria-valuetext", `t = ${(at / 1000).toFixed(1)} s, in the past`);
    $("#tl-live").hidden = false;
    $("#past-banner").hidden = false;
    sayDiscard();
    clearTimeout(tlTimer);
    tlTimer = setTimeout(async () => {
      const v = await fetchView(at);
      if (ui.at === at) render(v);
    }, 120);
  }

  function goLive() {
    ui.at = null;
    clearTimeout(tlTimer);
    $("#tl-label").textContent = "live";
    $("#tl").setAttribute("aria-valuetext", "live");
    $("#tl-live").hidden = true;
    $("#past-banner").hidden = true;
    fetchView(null).then((v) => { if (ui.at === null) render(v); });
  }

  // sayDiscard says, while the page shows the past, how much of the future
  // acting there discards.
  function sayDiscard() {
    if (document.body.classList.contains("observed")) return; // nothing here acts: no future to discard
    const b = $("#past-banner");
    let sp = $("#past-discard");
    if (!sp) { sp = document.createElement("b"); sp.id = "past-discard"; b.append(" ", sp); }
    sp.textContent = ui.at === null ? "" : `Acting here discards the ${((ui.liveNow - ui.at) / 1000).toFixed(1)} s after it.`;
  }

  // ---- acting ----

  /**
   * termPrint adds a command's block to the terminal.
   * @param {string} line
   * @param {{output?: string, ok?: boolean}} res
   * @param {boolean} echo
   */
  function termPrint(line, res, echo) {
    const out = $("#term-out");
    const blk = document.createElement("div");
    blk.className = "blk";
    blk.innerHTML = blockHTML(line, res, echo);
    out.appendChild(blk);
    while (out.querySelectorAll(".blk").length > MaxTermBlocks) out.querySelector(".blk").remove();
    out.scrollTop = out.scrollHeight;
    out.scrollLeft = 0;
  }

  /**
   * exec runs a terminal line at the moment shown.
   * @param {string} line
   * @param {boolean} [echo]
   */
  async function exec(line, echo = true) {
    /** @type {{line: string, at?: number}} */
    const body = {line};
    if (ui.at !== null) body.at = ui.at;
    const r = await t.post("/api/exec", body);
    const res = r.body || {output: "", ok: false};
    termPrint(line, res, echo);
    if (ui.at !== null && res.forked) goLive();   // acting from the past forked a new future
    else render(await fetchView(ui.at));        // a line that failed there left the future as it was
    return res;
  }

  function unselect() {
    ui.selected = null;
    $("#journey").hidden = true;
    connect();
    if (ui.view) render(ui.view);
  }

  document.addEventListener("click", (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    /** @param {string} sel @returns {HTMLElement | null} */
    const near = (sel) => target.closest(sel);
    const b = near("[data-cmd]");
    if (b) { exec(/** @type {string} */ (b.dataset.cmd)); return; }
    const ed = near("[data-edit-producer]");
    if (ed) { editProducer(/** @type {string} */ (ed.dataset.editProducer)); return; }
    const pb = near("[data-produce]");
    if (pb) { ui.sent++; exec(`produce ${pb.dataset.produce} ${pb.dataset.produce}-typed-${ui.sent}`); return; }
    const ex = near("[data-term-example]");
    if (ex) { history.remember(/** @type {string} */ (ex.dataset.termExample)); exec(/** @type {string} */ (ex.dataset.termExample)); return; }
    if (near("[data-unselect]")) { unselect(); return; }
    const ws = near("[data-wire-seq]");
    if (ws && ui.wire) { ui.wire.show(Number(ws.dataset.wireSeq)); return; }
    const tt = near("[data-table-topic]");
    if (tt) { showTable({topic: tt.dataset.tableTopic || ""}); return; }
    const row = near("tr[data-topic]");
    if (row) {
      ui.focus = {topic: /** @type {string} */ (row.dataset.topic), partition: Number(row.dataset.partition)};
      ui.selected = null; $("#journey").hidden = true;
      connect();
      fetchView(ui.at).then(render);
      return;
    }
    const rec = near(".rec[data-offset]");
    if (rec && ui.view && ui.view.detail) {
      const d = ui.view.detail;
      ui.selected = {topic: d.topic, p: d.p, offset: Number(rec.dataset.offset), value: rec.dataset.value || ""};
      // the partition drawn (the server falls back to the first one when
      // the partition asked for is not there: a scenario's world)
      ui.focus = {topic: d.topic, partition: d.p};
      render(ui.view);
      // the journey comes with the updates of the record followed
      connect();
      fetchView(ui.at).then(render);
    }
  });

  /**
   * editProducer fills the producer form (outside the redrawn panel) with
   * the producer's settings; applying it types set-producer.
   * @param {string} name
   */
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

  $("#producer-form").addEventListener("submit", (/** @type {Event} */ e) => {
    e.preventDefault();
    const keys = $("#pf-keys").value.trim().replace(/\s+/g, "") || "none";
    $("#producer-form").hidden = true;
    exec(`set-producer ${$("#pf-name").textContent} --rate ${Number($("#pf-rate").value) || 0} --acks ${$("#pf-acks").value} --keys ${keys}`);
  });
  $("#pf-cancel").addEventListener("click", () => { $("#producer-form").hidden = true; });

  $("#term-input").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
    if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
    e.preventDefault();
    const inp = /** @type {HTMLInputElement} */ (e.target);
    inp.value = history.move(e.key === "ArrowUp" ? -1 : 1, inp.value);
    const n = inp.value.length;
    inp.setSelectionRange(n, n);
  });

  $("#term-form").addEventListener("submit", (/** @type {Event} */ e) => {
    e.preventDefault();
    const inp = $("#term-input");
    const line = inp.value.trim();
    inp.value = "";
    history.remember(line);
    if (line === "clear") { for (const b of document.querySelectorAll("#term-out .blk")) b.remove(); return; }
    if (line) exec(line);
  });
  $("#term-wrap").addEventListener("change", (/** @type {Event} */ e) => $("#term-out").classList.toggle("wrap", /** @type {HTMLInputElement} */ (e.target).checked));

  $("#pause").addEventListener("click", async () => {
    await t.post("/api/pause", {paused: !(ui.view && ui.view.paused)});
    render(await fetchView(ui.at));
  });
  // Reset asks first: it discards the cluster and its timeline
  /** @param {boolean} open */
  function askReset(open) {
    $("#reset-confirm").hidden = !open;
    $("#reset").setAttribute("aria-expanded", String(open));
    if (open) $("#reset-yes").focus();
  }
  $("#reset").addEventListener("click", () => askReset($("#reset-confirm").hidden));
  $("#reset-no").addEventListener("click", () => { askReset(false); $("#reset").focus(); });
  $("#reset-confirm").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => { if (e.key === "Escape") { askReset(false); $("#reset").focus(); } });
  $("#reset-yes").addEventListener("click", async () => {
    askReset(false);
    ui.ownSession = true;   // the new session is this tab's doing
    await t.post("/api/reset");
    ui.mode = "live"; ui.rates = {}; ui.lags = {}; $("#scen-play").hidden = true; $("#scen-list").hidden = false;
    goLive();
  });
  $("#speed").addEventListener("change", (/** @type {Event} */ e) =>
    t.post("/api/speed", {speed: Number(/** @type {HTMLSelectElement} */ (e.target).value)}));
  $("#tl-live").addEventListener("click", goLive);

  /** @type {HTMLElement[]} */
  const tabs = [...document.querySelectorAll(".tabs button")].map((b) => /** @type {HTMLElement} */ (b));
  for (const tb of tabs) {
    tb.addEventListener("click", () => showTab(/** @type {string} */ (tb.dataset.tab)));
    tb.addEventListener("keydown", (e) => {
      const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!d) return;
      const n = tabs[(tabs.indexOf(tb) + d + tabs.length) % tabs.length];
      showTab(/** @type {string} */ (n.dataset.tab));
      n.focus();
    });
  }
  /** @param {string} name */
  function showTab(name) {
    // the address names the note shown only while the notes are: a reload
    // in the middle of a scenario opens the scenario, not an old note
    if (name !== "notes" && location.hash.startsWith("#note")) window.history.replaceState(null, "", location.pathname + location.search);
    for (const b of tabs) {
      b.classList.toggle("on", b.dataset.tab === name);
      b.setAttribute("aria-selected", String(b.dataset.tab === name));
    }
    for (const p of document.querySelectorAll(".tab")) p.classList.toggle("on", p.id === `tab-${name}`);
  }
  // the first screen: a scenario to play beside the cluster, the terminal
  // one click away; on an observed cluster's page, which has no scenario,
  // the terminal and its read-only tools
  if (document.body.classList.contains("observed")) {
    showTab("term");
    $("#term-out .term-welcome").innerHTML = `Kafka's read-only tools run on the sample shown; a command that would change the cluster is refused and never sent. Type <b>help</b> for the list, or try one:
<button type="button" data-term-example="kafka-topics --describe">kafka-topics --describe</button><button type="button" data-term-example="kafka-consumer-groups --list">kafka-consumer-groups --list</button><button type="button" data-term-example="kafka-metadata-quorum --describe --status">kafka-metadata-quorum --describe --status</button>`;
  } else {
    showTab("scen");
  }

  // Reading mode: the right column (terminal, scenarios, notes) takes the
  // whole width.
  /** @param {boolean} on */
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

  async function loadScenarios() {
    /** @type {ScenarioInfo[]} */
    const list = await t.get("/api/scenarios");
    ui.scenarios = Object.fromEntries(list.map((s) => [s.name, s]));
    $("#scen-groups").innerHTML = listHTML(list);
  }

  $("#scen-list").addEventListener("click", async (/** @type {Event} */ e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest("[data-scenario]");
    if (!(b instanceof HTMLElement)) return;
    ui.ownSession = true;
    const r = await t.post("/api/scenario/start", {name: b.dataset.scenario});
    ui.selected = null;
    connect();
    followSession(r.ok ? r.body : r.body.session, r.ok ? "" : r.body.error, true);
    if (ui.at !== null) goLive();
    render(await fetchView(null));
  });

  function renderPlay() {
    const s = play.state;
    if (!s) return;
    // patched in place: the wait for the user's client updates it while
    // the reader is choosing
    morph($("#scen-play"), playHTML(s, ui.scenarios[s.scenario] || {}, play.note, play.cmds));
  }
  // toggle does not bubble: caught on its way down
  $("#scen-play").addEventListener("toggle", (/** @type {Event} */ e) => {
    const d = e.target;
    if (d instanceof HTMLDetailsElement && d.matches(".play > details.cmds:not(.played)")) play.cmds = d.open;
  }, true);

  $("#scen-play").addEventListener("click", async (/** @type {Event} */ e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    if (target.id === "scen-leave") {
      ui.ownSession = true;
      const r = await t.post("/api/scenario/leave");
      followSession(r.body, "", true);
      goLive();
      return;
    }
    if (target.id === "scen-replay" && ui.session) {
      // the world refused the step (changed by hand): the scenario again,
      // replayed to the step with the answers given
      const s = ui.session;
      ui.ownSession = true;
      const r = await t.post("/api/scenario/start", {name: s.scenario, step: s.step, answers: (s.answers || []).slice(0, s.step)});
      followSession(r.ok ? r.body : r.body.session, r.ok ? "" : r.body.error, true);
      if (ui.at !== null) goLive();
      render(await fetchView(null));
      return;
    }
    const g = target.closest("[data-guess]");
    const standIn = target.id === "scen-standin";
    if (!(g instanceof HTMLElement) && target.id !== "scen-next" && !standIn) return;
    const cur = ui.session || {id: 0, step: 0};
    const next = play.state && play.state.next;
    const wait = next && next.wait;
    const answer = g instanceof HTMLElement ? Number(g.dataset.guess) : standIn && wait && wait.held ? Math.max(wait.held, 0) : 0;
    // a step that waits for the user's Kafka client: the guess is kept
    // until its records are there (hold), or a simulated producer sends
    // them (stand_in; at once on a page without listeners)
    const r = await t.post("/api/scenario/step", {session: cur.id, step: cur.step, answer,
      hold: !!wait && !standIn && !!wait.bootstrap, stand_in: standIn || (!!wait && !wait.bootstrap)});
    // refused (another tab reset, left or played first): the server's
    // session, and why; a held guess is no refusal
    const held = !r.ok && r.status === 409 && r.body && r.body.session && r.body.session.play && r.body.session.play.next && r.body.session.play.next.wait;
    followSession(r.ok ? r.body : r.body.session, r.ok || held ? "" : r.body.error, true);
    render(await fetchView(null));
  });

  // ---- the session ----

  const wanted = wantedSession(location.search);

  /**
   * followSession shows the server's session s: the scenario panel and the
   * URL. note says why it changed; a change this tab did not ask for (own
   * false) that ends the scenario says so.
   * @param {Session | undefined} s
   * @param {string} [note]
   * @param {boolean} [own]
   */
  function followSession(s, note = "", own = false) {
    if (!s) return;
    const key = `${s.id}:${s.step}`;
    const prev = ui.session;
    if (isStale(prev, s)) return;
    if (prev && prev.id !== s.id) { own = own || ui.ownSession; ui.ownSession = false; }
    ui.session = s;
    const url = sessionURL(location, s);
    if (url !== location.pathname + location.search + location.hash) window.history.replaceState(null, "", url);
    if (s.scenario) {
      const json = JSON.stringify(s.play);
      if (play.key === key && !note && play.json === json) return;
      play.key = key; play.state = s.play || null; play.note = note; play.json = json;
      ui.mode = "scenario";
      $("#scen-list").hidden = true; $("#scen-play").hidden = false;
      renderPlay();
      return;
    }
    play.key = key;
    const ended = !!prev && !!prev.scenario && prev.id !== s.id;
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
      p.textContent = note || (own || !prev ? "" : `The scenario ${prev.scenario} ended in another tab (Reset or "all scenarios"): this page shows the live cluster again.`);
      p.hidden = !p.textContent;
    }
  }

  // restoreSession plays the URL's scenario again to its step when the
  // server plays none (it restarted); while it plays one, the server wins.
  async function restoreSession() {
    let v = await fetchView(null);
    if (wanted.scenario && !(v.session && v.session.scenario)) {
      const r = await t.post("/api/scenario/start", {name: wanted.scenario, step: wanted.step, answers: wanted.answers.slice(0, wanted.step)});
      followSession(r.ok ? r.body : r.body.session, r.ok ? "" : r.body.error, true);
      v = await fetchView(null);
    }
    if (v.session && v.session.scenario) showTab("scen");
    return v;
  }

  // ---- notes ----

  async function loadNotes() {
    /** @type {NoteInfo[]} */
    const list = await t.get("/api/notes");
    $("#notes-list").innerHTML = notesListHTML(list);
    ui.notes = list;
  }

  /**
   * showNote shows the note called name, then its section id (if any).
   * @param {string} name
   * @param {string | null} id
   */
  async function showNote(name, id) {
    if (ui.noteShown !== name) {
      const r = await t.text(`/api/note?name=${encodeURIComponent(name)}`);
      if (!r.ok) return;
      const n = ui.notes.find((x) => x.name === name);
      const link = n && n.scenario ? `<button type="button" data-scenario-link="${esc(n.scenario)}">See it happen: play the scenario</button>` : "";
      $("#note").innerHTML = `<div class="note-tools"><a href="#notes">← all notes</a>${link}</div>${r.text}`;
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
  // a note's "play the scenario" and the learner's scenario names
  document.addEventListener("click", (/** @type {Event} */ e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest("[data-scenario-link]");
    if (!(b instanceof HTMLElement)) return;
    showTab("scen");
    const s = document.querySelector(`[data-scenario="${CSS.escape(b.dataset.scenarioLink || "")}"]`);
    if (s instanceof HTMLElement) s.click();
  });

  // ---- start ----

  restoreSession().then(render);
  connect();
  loadScenarios();
  loadNotes().then(route);
}
