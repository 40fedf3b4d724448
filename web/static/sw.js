// The static site's service worker (kafkalive static writes it with the
// site's manifest before this code: self.KAFKALIVE_SITE = {version, files}).
// It keeps every file of the site in a cache named after the version at
// install, and answers the site's requests from it, so that after the
// first visit the site opens without a network. A site with new files has
// a new version: its service worker installs the new files, takes over,
// and drops the caches of the old.
//
// Served without a manifest (by a kafkalive server, at an address where a
// static site once ran), it removes the site's caches and itself, so that
// the server's page is the one shown from then on.
"use strict";
const site = self.KAFKALIVE_SITE;
const cacheName = site ? `kafkalive-${site.version}` : "";

self.addEventListener("install", (e) => {
  e.waitUntil((async () => {
    if (site) {
      const cache = await caches.open(cacheName);
      // fresh from the network, not from the browser's HTTP cache
      await cache.addAll(site.files.map((f) => new Request(f, {cache: "reload"})));
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (e) => {
  e.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("kafkalive-") && name !== cacheName) await caches.delete(name);
    }
    if (!site) {
      await self.registration.unregister();
      // the pages it served are the site's: load them again, from the server
      for (const c of await self.clients.matchAll({type: "window"})) c.navigate(c.url);
      return;
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (e) => {
  const req = e.request;
  if (!site || req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  e.respondWith((async () => {
    const cache = await caches.open(cacheName);
    // a shared link's query (?scenario=...&step=...) is the page's: the
    // file is the same
    const hit = await cache.match(req, {ignoreSearch: req.mode === "navigate"});
    return hit || fetch(req);
  })());
});
