// @ts-check
// The page's transport when no server is behind it (the static site of
// kafkalive static): the world runs in a Web Worker (worker.js), and every
// call and update goes to it by messages. It has the shape of
// httpTransport (transport.js), and its answers are the server's: the same
// routes, statuses and bodies (package web/tab answers them with the
// server's own API).
import {Resync, applyFrame} from "./viewstore.js";

/** @typedef {import("./transport.js").Transport} Transport */

/**
 * A message of the Worker: a reply to a call, a frame of a watch's update
 * stream, the end of a watch, the memory's stats, a log line, or why the
 * world cannot run.
 * @typedef {object} Out
 * @property {"ready" | "reply" | "update" | "end" | "stats" | "log" | "fatal"} op
 * @property {number} id
 * @property {number} status
 * @property {string} type
 * @property {string} body
 */

/**
 * The memory of the world in the Worker (tab.Stats).
 * @typedef {object} Stats
 * @property {number} heap_bytes
 * @property {number} sys_bytes
 * @property {number} wasm_bytes
 * @property {number} t
 */

/**
 * A TabTransport is a Transport over the Worker, which also says how much
 * memory the world takes.
 * @typedef {Transport & {stats: () => Promise<Stats>}} TabTransport
 */

/**
 * workerTransport starts the world in a Web Worker (url: worker.js) and
 * returns the transport to it. When the world cannot run (no WebAssembly,
 * the download failed, it stopped), every call fails, every stream's
 * onError is told, and so is onFatal.
 * @param {string} [url]
 * @param {(why: string) => void} [onFatal]
 * @returns {TabTransport}
 */
export function workerTransport(url = "worker.js", onFatal) {
  const worker = new Worker(url);
  let next = 1;
  /** @type {string | null} why the world cannot run */
  let dead = null;
  /** @type {Map<number, {resolve: (m: Out) => void, reject: (e: Error) => void}>} */
  const pending = new Map();
  /** @type {Map<number, {onFrame: (body: string) => void, onError?: (e: unknown) => void}>} */
  const watches = new Map();

  /** @param {string} why */
  function die(why) {
    if (dead) return;
    dead = why;
    for (const p of pending.values()) p.reject(new Error(why));
    pending.clear();
    for (const w of watches.values()) if (w.onError) w.onError(new Error(why));
    if (onFatal) onFatal(why);
  }

  worker.onmessage = (e) => {
    /** @type {Out} */
    const m = e.data;
    switch (m.op) {
    case "reply":
    case "stats": {
      const p = pending.get(m.id);
      if (p) { pending.delete(m.id); p.resolve(m); }
      break;
    }
    case "update": {
      const w = watches.get(m.id);
      if (w) w.onFrame(m.body);
      break;
    }
    case "end": {
      const w = watches.get(m.id);
      watches.delete(m.id);
      if (w && w.onError) w.onError(new Error(m.body));
      break;
    }
    case "log":
      console.error(m.body);
      break;
    case "fatal":
      die(m.body);
      break;
    }
  };
  worker.onerror = (e) => die(`the world's Worker failed: ${e.message || "it could not be loaded"}`);

  /**
   * ask sends one message that gets one answer.
   * @param {object} msg
   * @returns {Promise<Out>}
   */
  function ask(msg) {
    if (dead) return Promise.reject(new Error(dead));
    const id = next++;
    return new Promise((resolve, reject) => {
      pending.set(id, {resolve, reject});
      worker.postMessage({...msg, id});
    });
  }

  /**
   * call asks an API route, as fetch asks the server.
   * @param {string} method
   * @param {string} path
   * @param {string} [body]
   */
  const call = (method, path, body) => ask({op: "call", method, path, body});

  return {
    async get(path) {
      const r = await call("GET", path);
      if (r.status >= 300) throw new Error(`${path}: ${r.status} ${r.body}`);
      return JSON.parse(r.body);
    },
    async post(path, body = {}) {
      const r = await call("POST", path, JSON.stringify(body));
      let parsed = null;
      try { parsed = r.body ? JSON.parse(r.body) : null; } catch (_) { parsed = {error: r.body}; }
      return {ok: r.status >= 200 && r.status < 300, status: r.status, body: parsed};
    },
    async text(path) {
      const r = await call("GET", path);
      return {ok: r.status >= 200 && r.status < 300, text: r.body};
    },
    stream(onUpdate, onError, path = "/api/stream") {
      /** @type {import("./viewstore.js").Store | null} */
      let store = null;
      let id = 0;
      // a frame that does not apply starts the watch again: its first
      // frame is the whole update
      const open = () => {
        store = null;
        id = next++;
        watches.set(id, {onFrame, onError});
        if (dead) { if (onError) onError(new Error(dead)); }
        else worker.postMessage({op: "watch", id, path});
      };
      const close = () => {
        watches.delete(id);
        if (!dead) worker.postMessage({op: "unwatch", id});
      };
      /** @param {string} body */
      const onFrame = (body) => {
        try {
          store = applyFrame(store, JSON.parse(body));
        } catch (err) {
          if (!(err instanceof Resync)) throw err;
          console.warn(`the update stream starts again: ${err.message}`);
          close();
          open();
          return;
        }
        onUpdate(store.view, body.length);
      };
      open();
      return close;
    },
    async stats() {
      return JSON.parse((await ask({op: "stats"})).body);
    },
  };
}

/**
 * keepOffline registers the static site's service worker (sw.js), which
 * keeps the site's files so that it opens without a network after the
 * first visit. A browser without service workers, or a page not served
 * over https or from localhost, simply goes without.
 * @param {string} [url]
 */
export function keepOffline(url = "sw.js") {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(url).catch((e) => console.warn(`no offline copy: ${e}`));
}
