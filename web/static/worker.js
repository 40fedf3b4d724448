// The Web Worker of the static site (kafkalive static): it runs the live
// cluster, built for the browser (kafkalive.wasm, package web/tab), off the
// page's main thread, and passes the page's messages to it. The page talks
// to it through js/worker-transport.js.
//
// Go's js/wasm runtime gives the event loop back only when every goroutine
// is blocked: here that stalls only this Worker, never the page's drawing,
// and the world yields between the steps of a long run so that the page's
// messages are answered meanwhile.
"use strict";
importScripts("wasm_exec.js");

// The page's messages that came before the world started, in order.
const early = [];
/** @type {((m: any) => void) | null} */
let receive = null;
/** @type {WebAssembly.Memory | null} */
let memory = null;

self.onmessage = (e) => {
  if (receive) receive(e.data);
  else early.push(e.data);
};

// kafkaliveStarted is called by the world (tab.Serve) with its receiver.
self.kafkaliveStarted = (fn) => {
  receive = fn;
  for (const m of early.splice(0)) fn(m);
};

// kafkaliveMemory is the WebAssembly memory's size in bytes (Stats).
self.kafkaliveMemory = () => (memory ? memory.buffer.byteLength : 0);

/** fatal tells the page the world cannot run, and why. */
function fatal(why) {
  self.postMessage({op: "fatal", body: String(why)});
}

async function instantiate(go) {
  const url = "kafkalive.wasm";
  if (WebAssembly.instantiateStreaming) {
    try {
      return await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
    } catch (e) {
      // a host that does not send application/wasm: compile from the bytes
    }
  }
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status} ${r.statusText}`);
  return WebAssembly.instantiate(await r.arrayBuffer(), go.importObject);
}

(async () => {
  if (typeof WebAssembly !== "object") {
    fatal("this browser has no WebAssembly: the world cannot run in it");
    return;
  }
  try {
    const go = new Go();
    const {instance} = await instantiate(go);
    memory = /** @type {WebAssembly.Memory} */ (instance.exports.mem);
    await go.run(instance);
    fatal("the world stopped (the browser's console says why): reload the page to start a new one");
  } catch (e) {
    fatal(`the world could not start: ${e && e.message ? e.message : e}`);
  }
})();
