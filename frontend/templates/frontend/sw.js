// Easy Harp Daily's service worker, served at /sw.js (frontend/views.py) so that its scope is
// the whole site. It keeps a game page's static files, the game page's shell, the JavaScript
// catalogue and the manifest (frontend/offline.py lists them), so that a numbered deal's page
// opens and plays offline: the engine is in the browser. So does the start page, the installed
// app's: offline, the shell deals a practice deal there and says today's needs a connection. Nothing else goes through it: the API,
// the other pages and every request but a GET reach the server as if it were not there.
//
// The cache is named by a hash of the files it keeps: a deploy that changes one changes this
// script, the browser installs it afresh, and the old cache is deleted once it takes over.
"use strict";

const VERSION = {{ version|safe }};
const CACHE = `easy-harp-${VERSION}`;
const PRECACHE = {{ precache|safe }};
const SHELL = {{ shell|safe }};
const CATALOGUE = {{ catalogue|safe }};
const MANIFEST = {{ manifest|safe }};
/** Asked for from the network first (they follow the reader's language), the cache offline. */
const FRESH_FIRST = new Set([CATALOGUE, MANIFEST]);
/** The static files, kept until the next version: they change only with a deploy. */
const KEPT = new Set(PRECACHE.filter((path) => path !== SHELL && !FRESH_FIRST.has(path)));
/** A numbered deal's page: offline, the shell plays the deal its address names. */
const NUMBERED = /^\/play\/EH1-N-[A-Z]{7}\/$/;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Past the browser's HTTP cache: this version's files, not the last one's.
    await cache.addAll(PRECACHE.map((path) => new Request(path, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("easy-harp-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.search) return;
  if (request.mode === "navigate") {
    if (NUMBERED.test(url.pathname) || url.pathname === "/") event.respondWith(numberedPage(event));
  } else if (FRESH_FIRST.has(url.pathname)) {
    event.respondWith(freshFirst(request, url.pathname));
  } else if (KEPT.has(url.pathname)) {
    event.respondWith(kept(request, url.pathname));
  }
});

async function cached(path) {
  // The catalogue and the pages vary by language cookie, which a cache cannot compare.
  return caches.match(path, { cacheName: CACHE, ignoreVary: true });
}

/** The page from the server; offline, the shell (whose script reads the deal from the address). */
async function numberedPage(event) {
  let response;
  try {
    response = await fetch(event.request);
  } catch (offline) {
    return (await cached(SHELL)) || Response.error();
  }
  event.waitUntil(shellInLanguage(response.headers.get("Content-Language")));
  return response;
}

/** The shell again when the reader has changed language since it was kept. */
async function shellInLanguage(language) {
  const shell = await cached(SHELL);
  if (!language || (shell && shell.headers.get("Content-Language") === language)) return;
  try {
    const fresh = await fetch(SHELL, { cache: "reload" });
    if (fresh.ok) await (await caches.open(CACHE)).put(SHELL, fresh);
  } catch {
    // Offline again: the shell kept stays.
  }
}

async function freshFirst(request, path) {
  try {
    const response = await fetch(request);
    if (response.ok) await (await caches.open(CACHE)).put(path, response.clone());
    return response;
  } catch (offline) {
    return (await cached(path)) || Response.error();
  }
}

async function kept(request, path) {
  return (await cached(path)) || fetch(request);
}
