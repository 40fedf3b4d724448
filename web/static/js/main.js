// @ts-check
// The page's entry: it boots the page over its transport, the kafkalive
// server that served it. Errors the page meets are kept in window.__errs
// for the browser tests to report.
import {boot} from "./page.js";
import {httpTransport} from "./transport.js";

const w = /** @type {any} */ (window);
w.__errs = [];
window.addEventListener("error", (e) => w.__errs.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => w.__errs.push(String(e.reason)));

boot(httpTransport());
