// Pages brought up to date from the server without a reload.
//  - The table's page (window.EntryRefresh.tablePage(config), used by queue.js):
//      apply(fresh)       put in the server's parts of the page (the status line, the
//                         sheet, the confirmation form, undo) and its settings
//                         (config.version, status, nextNumber, roefel are updated)
//      fetch(then)        read the server's page for those parts, then(fresh)
//      keep()             the service worker keeps the page as it is now
//      copy()             this is an offline copy of the page (the worker's)
//      pollWhileCopy(busy, then) an offline copy looks for the server now and then
//      announceClosed()   the game is complete: its confirmation is said and focused
//      keepForOffline()   register the service worker and give it the page's files
//    "fresh" is the page of an answer of hands.json: { fragments: {id: html},
//    config, save_label, keeper_known }.
//  - The evening overview (window.EntryRefresh.overview(section), started for every
//    [data-refresh-url]): the tables' progress reloads every 15 seconds.
(function () {
  "use strict";
  var LOOK = 5000; // ms between looks for the server from an offline copy of the page

  function tablePage(config) {
    var copy = document.documentElement.hasAttribute("data-offline-copy");
    if (copy) document.querySelectorAll(".messages").forEach(function (node) { node.hidden = true; });

    function apply(fresh) {
      Object.keys(fresh.fragments).forEach(function (id) {
        var node = document.getElementById(id);
        if (node) node.innerHTML = fresh.fragments[id];
      });
      ["version", "status", "nextNumber", "roefel"].forEach(function (name) { config[name] = fresh.config[name]; });
    }

    // No answer to go by (an offline copy of the page): the server's page, read for its parts
    // (asked with its ETag: a 304 while the evening has not changed).
    function fetchPage(then) {
      fetch(config.pageUrl, { credentials: "same-origin", cache: "no-cache" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html) return;
          var fresh = new DOMParser().parseFromString(html, "text/html");
          var settings = fresh.getElementById("entry-config");
          if (!settings || !fresh.getElementById("hand-form")) { location.assign(config.pageUrl); return; }
          var parts = {};
          ["hand-status", "score-sheet", "entry-confirm", "entry-undo"].forEach(function (id) {
            var node = fresh.getElementById(id);
            parts[id] = node ? node.innerHTML : "";
          });
          var save = fresh.querySelector("#hand-form button.save");
          if (copy) { copy = false; document.documentElement.removeAttribute("data-offline-copy"); }
          then({ fragments: parts, config: JSON.parse(settings.textContent),
            save_label: save ? save.textContent : "", keeper_known: !fresh.querySelector("fieldset.keeper") });
        })
        .catch(function () { /* the next answer brings the page */ });
    }

    function pollWhileCopy(busy, then) {
      if (!copy) return;
      setInterval(function () {
        if (busy()) return;
        if (copy) fetchPage(then);
      }, LOOK);
    }

    // The service worker keeps the page as it is now, for a reload without a connection.
    function keep() {
      if (!("serviceWorker" in navigator) || copy) return;
      navigator.serviceWorker.getRegistration(config.swScope).then(function (registration) {
        var worker = registration && registration.active;
        if (worker) worker.postMessage({ type: "cache", urls: [config.pageUrl] });
      }).catch(function () { /* no worker: the queue still keeps the hands */ });
    }

    // The bar went with the form: the last hand's confirmation is said here.
    function announceClosed() {
      var done = document.getElementById("entry-done-news");
      var news = document.getElementById("entry-news");
      if (done && news) done.textContent = news.textContent;
      var confirm = document.querySelector("#entry-confirm h2");
      if (confirm) { confirm.tabIndex = -1; confirm.focus({ preventScroll: true }); }
    }

    // A service worker (static/js/entry-sw.js, served at /t/sw.js) keeps the last page
    // of this table and its files. It needs a secure context (https, or localhost): on
    // the club laptop's plain http there is none, and the queue still keeps the
    // hands; a reload without a connection then shows the browser's offline page.
    function keepForOffline() {
      if (!("serviceWorker" in navigator)) return;
      var controlled = !!navigator.serviceWorker.controller;
      function ready() { document.documentElement.setAttribute("data-offline-ready", ""); }
      navigator.serviceWorker.register(config.swUrl, { scope: config.swScope })
        .then(function () { return navigator.serviceWorker.ready; })
        .then(function (registration) {
          if (controlled) { ready(); return; } // this page came through the worker: it is kept
          var urls = [config.pageUrl];
          document.querySelectorAll("link[rel=stylesheet][href], script[src]").forEach(function (node) {
            urls.push(node.href || node.src);
          });
          var channel = new MessageChannel();
          channel.port1.onmessage = function (event) { if (event.data === "cached") ready(); };
          registration.active.postMessage({ type: "cache", urls: urls }, [channel.port2]);
        })
        .catch(function () { /* no worker: the queue still keeps the hands */ });
    }

    return {
      apply: apply,
      fetch: fetchPage,
      keep: keep,
      copy: function () { return copy; },
      pollWhileCopy: pollWhileCopy,
      announceClosed: announceClosed,
      keepForOffline: keepForOffline,
    };
  }

  // "updated 21:04:05" in the summary says when the numbers were last asked for.
  function clock(section) {
    var muted = section.querySelector(".summary .muted");
    if (!muted) return;
    var now = new Date(), pad = function (n) { return (n < 10 ? "0" : "") + n; };
    var time = pad(now.getHours()) + ":" + pad(now.getMinutes()) + ":" + pad(now.getSeconds());
    muted.textContent = muted.textContent.replace(/\d\d:\d\d:\d\d/, time);
  }

  // The evening overview: new numbers every 15 s; a screen reader hears only the tables
  // that changed (the live region beside the table), never the whole table again.
  function overview(section) {
    var url = section.dataset.refreshUrl;
    var news = document.getElementById(section.dataset.news || "");
    function rows(root) {
      var seen = {};
      root.querySelectorAll("tr[id]").forEach(function (row) {
        var cells = row.querySelectorAll("td.hands, td .badge, td.num");
        seen[row.id] = { row: row, text: Array.prototype.map.call(cells, function (cell) { return cell.textContent.trim(); }).join(" ") };
      });
      return seen;
    }
    function describe(row) {
      var wrap = row.closest(".table-wrap"), head = row.closest("table").querySelector("thead th");
      var badge = row.querySelector("td .badge"), hands = row.querySelector("td.hands");
      return [wrap && wrap.getAttribute("aria-label"), (head ? head.textContent.trim() + " " : "") + row.querySelector("th").textContent.trim()]
        .filter(Boolean).join(", ") + ": " + [hands && hands.textContent.trim(), badge && badge.textContent.trim()].filter(Boolean).join(", ");
    }
    setInterval(function () {
      if (document.hidden || section.contains(document.activeElement)) return;
      // Asked with the fragment's ETag: a 304 until the evening changes, and then the
      // browser's copy comes back (its time the render's: the clock is set here).
      fetch(url, { credentials: "same-origin", cache: "no-cache" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (html === null) return;
          var fresh = document.createElement("div");
          fresh.innerHTML = html;
          var before = rows(section), after = rows(fresh), changed = [];
          Object.keys(after).forEach(function (id) {
            if (!before[id] || before[id].text !== after[id].text) changed.push(describe(after[id].row));
          });
          if (!changed.length && Object.keys(before).length === Object.keys(after).length) {
            var summary = section.querySelector(".summary"), newer = fresh.querySelector(".summary");
            if (summary && newer) summary.innerHTML = newer.innerHTML;
            clock(section);
            return;
          }
          section.innerHTML = html;
          clock(section);
          if (news) news.textContent = changed.join(". ");
        })
        .catch(function () { /* try again in 15 s */ });
    }, 15000);
  }

  window.EntryRefresh = { tablePage: tablePage, overview: overview };
  document.querySelectorAll("[data-refresh-url]").forEach(overview);
})();
