// Service worker of the tables' entry pages, served at /t/sw.js: its scope is /t/.
// Network first, always: a table's page, or a script or style sheet it loads, comes
// from the cache only when the network fails (or has not answered in a few seconds),
// so a reload without a connection shows the last page this phone loaded. That copy
// is marked (data-offline-copy on <html>): the page's script then says so, shows the
// hands kept on the phone and loads the page again once the server answers.
// Hands, previews and every other request go to the network, never to the cache.
"use strict";

var CACHE = "klaverjas-entry-1";
var PAGE = /^\/t\/[-\w]+\/$/;
var FILES = ["script", "style", "font", "image"];
var PATIENCE = 5000; // ms before a cached copy answers a request the network has not

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("klaverjas-entry-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// The page asks to be kept: its first load came before this worker (it sends its own
// address and files), or it was saved in place and the kept copy is behind.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  var port = event.ports && event.ports[0];
  if (data.type !== "cache" || !Array.isArray(data.urls)) return;
  var urls = data.urls.filter(function (url) {
    return new URL(url, self.location.href).origin === self.location.origin;
  });
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(urls); }).then(
    function () { if (port) port.postMessage("cached"); },
    function () { if (port) port.postMessage("failed"); }
  ));
});

function offlineCopy(response) {
  return response.text().then(function (html) {
    return new Response(html.replace("<html", "<html data-offline-copy"), {
      status: 200,
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  });
}

function networkFirst(request, key, isPage) {
  return caches.open(CACHE).then(function (cache) {
    function cached() {
      return cache.match(key, { ignoreVary: true }).then(function (hit) {
        if (!hit) throw new Error("not cached");
        return isPage ? offlineCopy(hit) : hit;
      });
    }
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () { cached().then(resolve, function () {}); }, PATIENCE);
      fetch(request).then(function (response) {
        clearTimeout(timer);
        if (response.ok && response.type === "basic") cache.put(key, response.clone());
        resolve(response);
      }, function (error) {
        clearTimeout(timer);
        cached().then(resolve, function () { reject(error); });
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET" && request.mode === "navigate" && PAGE.test(url.pathname)) {
    event.respondWith(networkFirst(request, url.origin + url.pathname, true));
  } else if (request.method === "GET" && FILES.indexOf(request.destination) >= 0) {
    event.respondWith(networkFirst(request, request.url, false));
  } else {
    // Hands, previews, forms: the network only, never the cache. Fetched here rather
    // than left to the browser, because Chromium's offline emulation (the browser
    // tests) misses requests that a worker lets fall through after a reload.
    event.respondWith(fetch(request));
  }
});
