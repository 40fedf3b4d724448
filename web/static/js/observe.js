// @ts-check
// The page of a real cluster an observer watches (kafkalive observe
// --addr): it draws the sample the timeline's slider picks (the newest,
// once a second, while live), and runs Kafka's read-only tools. It offers
// nothing that acts on the cluster.
import {morph} from "./morph.js";
import {observedBrokersHTML, observedEventsHTML, observedGroupsHTML, observedPartsHTML, observedSummaryHTML} from "./render/observed.js";

const $ = (/** @type {string} */ s) => /** @type {HTMLElement} */ (document.querySelector(s));
/** @type {number} the sample shown, 0 while live */
let seq = 0;

async function refresh() {
  const r = await fetch(`/api/observed${seq ? `?seq=${seq}` : ""}`);
  if (!r.ok) return;
  /** @type {any} */
  const v = await r.json();
  const slider = /** @type {HTMLInputElement} */ ($("#obs-tl"));
  slider.min = String(v.first || 0);
  slider.max = String(v.last || 0);
  if (!seq) slider.value = String(v.last || 0);
  $("#obs-live").hidden = v.live;
  const s = v.sample;
  $("#obs-tl-label").textContent = v.live ? "live" : `sample ${s ? s.seq : ""}`;
  slider.setAttribute("aria-valuetext", $("#obs-tl-label").textContent || "");
  $("#obs-clock").textContent = s ? `sample ${s.seq} · ${new Date(s.at).toLocaleTimeString()}` : "no poll yet";
  if (!s) return;
  morph($("#obs-summary"), observedSummaryHTML(s, v.summary));
  morph($("#obs-brokers"), observedBrokersHTML(s));
  morph($("#obs-parts"), observedPartsHTML(s));
  morph($("#obs-groups"), observedGroupsHTML(s));
  morph($("#obs-events"), observedEventsHTML(v.events || []));
  morph($("#obs-unobs"), (v.unobservable || []).map((/** @type {string} */ u) => `<li>${u.replace(/[&<>]/g, "")}</li>`).join(""));
}

$("#obs-tl").addEventListener("input", () => {
  const slider = /** @type {HTMLInputElement} */ ($("#obs-tl"));
  seq = slider.value === slider.max ? 0 : Number(slider.value);
  refresh();
});
$("#obs-live").addEventListener("click", () => { seq = 0; refresh(); });
$("#obs-term").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($("#obs-term-input"));
  const line = input.value.trim();
  if (!line) return;
  input.value = "";
  const r = await fetch("/api/observed/exec", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({line, seq})});
  const res = await r.json();
  const out = $("#obs-term-out");
  out.textContent += `$ ${line}\n${res.output || ""}${res.error ? res.error + "\n" : ""}`;
  out.scrollTop = out.scrollHeight;
});

refresh();
setInterval(() => { if (!seq) refresh(); }, 1000);
