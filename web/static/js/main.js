// @ts-check
// The page's entry: it boots the page over its transport, the kafkalive
// server that served it, or, in the static site (kafkalive static marks
// its index.html with <meta name="kafkalive-world" content="tab">), the
// world in a Web Worker of its own. Errors the page meets are kept in
// window.__errs for the browser tests to report.
import {boot} from "./page.js";
import {httpTransport} from "./transport.js";
import {keepOffline, workerTransport} from "./worker-transport.js";

const w = /** @type {any} */ (window);
w.__errs = [];
window.addEventListener("error", (e) => w.__errs.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => w.__errs.push(String(e.reason)));

const world = document.querySelector('meta[name="kafkalive-world"]');
if (world && world.getAttribute("content") === "observed") {
  // a real cluster observed from outside (kafkalive observe --addr): the
  // same page over the observer's server, read-only from the first paint
  document.body.classList.add("observed");
  boot(httpTransport());
} else if (world && world.getAttribute("content") === "tab") {
  const t = workerTransport("worker.js", (why) => {
    w.__errs.push(why);
    const el = document.getElementById("internal-banner"), text = el && el.querySelector(".ie-text");
    if (el && text) { el.hidden = false; text.textContent = why; }
  });
  w.__tabStats = t.stats; // the memory of the world, for the browser tests
  const clock = document.getElementById("clock"); // until the first update: the download takes a moment
  if (clock) clock.textContent = "starting the world in your browser…";
  keepOffline();
  boot(t);
} else {
  boot(httpTransport());
}
