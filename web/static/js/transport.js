// @ts-check
// The page's way to its cluster: every call the page makes to /api goes
// through a transport, and nothing else in the page calls fetch or
// EventSource. httpTransport talks to a kafkalive server; a transport that
// runs the world in the page itself has the same shape.
import {Resync, applyFrame} from "./viewstore.js";

/**
 * A Transport carries the page's requests to the cluster and its updates
 * back.
 *
 * get and post answer the decoded JSON body with the response's status
 * (ok false for a refusal, whose body is the server's explanation: the
 * session refused, an error); text answers a body as text. stream calls
 * onUpdate with each update of the view of path (its query names the
 * partition shown) as it comes, and the bytes of the frame that brought
 * it (the stream sends the whole update, then what changed: viewstore.js),
 * and returns a function that closes it.
 *
 * @typedef {object} Transport
 * @property {(path: string) => Promise<any>} get
 * @property {(path: string, body?: object) => Promise<Reply>} post
 * @property {(path: string) => Promise<{ok: boolean, text: string}>} text
 * @property {(onUpdate: (u: import("./types.js").Update, size: number) => void, onError?: (e: unknown) => void, path?: string) => () => void} stream
 */

/**
 * A Reply is a POST's answer: whether the server took it (its HTTP
 * status), and its body.
 * @typedef {object} Reply
 * @property {boolean} ok
 * @property {number} status
 * @property {any} body
 */

/** RetryMs is how long the page waits before asking again for a stream refused. */
export const RetryMs = 10_000;

/**
 * httpTransport talks to the kafkalive server at base ("" for the page's
 * own): JSON over fetch, the updates over Server-Sent Events. A POST
 * carries a JSON body, which the server takes from this page only. A frame
 * of the stream that does not apply (one was missed) opens the stream
 * again, which starts with the whole update; so does the EventSource's own
 * reconnection after a network error. A stream the server refuses (503:
 * as many are open as it serves) is asked again every RetryMs, and onError
 * is told why.
 * @param {string} [base]
 * @returns {Transport}
 */
export function httpTransport(base = "") {
  return {
    async get(path) {
      const r = await fetch(base + path);
      if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      return r.json();
    },
    async post(path, body = {}) {
      const r = await fetch(base + path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      const text = await r.text();
      let parsed = null;
      try { parsed = text ? JSON.parse(text) : null; } catch (_) { parsed = {error: text}; }
      return {ok: r.ok, status: r.status, body: parsed};
    },
    async text(path) {
      const r = await fetch(base + path);
      return {ok: r.ok, text: await r.text()};
    },
    stream(onUpdate, onError, path = "/api/stream") {
      /** @type {import("./viewstore.js").Store | null} */
      let store = null;
      /** @type {EventSource} */
      let es;
      let closed = false;
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let retry;
      // refused: the EventSource gives up without saying why; ask, and
      // try again later
      const refused = async () => {
        let why = "the update stream was refused";
        try {
          const ctl = new AbortController();
          const r = await fetch(base + path, {signal: ctl.signal});
          // the server's reason without its package's prefix
          if (!r.ok) why = (await r.text()).trim().replace(/^web: /, "") || `${r.status} ${r.statusText}`;
          ctl.abort();
        } catch (_) { /* the server is gone: the error says so */ }
        if (closed) return;
        if (onError) onError(new Error(`${why}; asking again in ${RetryMs / 1000} s`));
        retry = setTimeout(() => { if (!closed) open(); }, RetryMs);
      };
      const open = () => {
        store = null;
        es = new EventSource(base + path);
        es.addEventListener("frame", (e) => {
          try {
            store = applyFrame(store, JSON.parse(e.data));
          } catch (err) {
            if (!(err instanceof Resync)) throw err;
            console.warn(`the update stream starts again: ${err.message}`);
            es.close();
            open();
            return;
          }
          onUpdate(store.view, e.data.length);
        });
        es.addEventListener("error", (e) => {
          if (es.readyState === EventSource.CLOSED) refused();
          else if (onError) onError(e);
        });
      };
      open();
      return () => { closed = true; clearTimeout(retry); es.close(); };
    },
  };
}
