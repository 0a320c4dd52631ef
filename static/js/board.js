// The TV board (an evening's result with ?board=1): fits the screen and runs by itself.
//
// Paging: the result table shows the rows that fit below its header, then the next
// rows every few seconds (data-board-page), round and round, with "page n of m" under
// it. Refreshing: while the evening is open (data-board-refresh), the same address is
// fetched every few seconds and the block is replaced in place when it changed: no
// reload, no jump to the top, the page shown stays. Without this file the page is the plain result.
(function () {
  "use strict";
  var root = document.querySelector("[data-board]");
  if (!root || !window.fetch || !window.DOMParser) return;

  var pages = [];
  var current = 0;
  var refreshTimer = null;
  // On a phone the board is the plain result that scrolls (every row, no paging):
  // the style sheet leaves out the detail columns below the same width.
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 40em)") : null;

  function seconds(name, fallback) {
    var value = Number(root.getAttribute(name));
    return value > 0 ? value : fallback;
  }

  function resultTable() {
    return root.querySelector(".table-wrap table");
  }

  function indicator() {
    var found = root.querySelector(".board-page");
    if (!found) {
      found = document.createElement("p");
      found.className = "board-page";
      var wrap = root.querySelector(".table-wrap");
      if (wrap) wrap.insertAdjacentElement("afterend", found);
    }
    return found;
  }

  // Split the rows into pages that fit between the table's header and the bottom of
  // the window (rows may differ in height).
  function paginate() {
    var table = resultTable();
    var rows = table && table.tBodies[0] ? Array.prototype.slice.call(table.tBodies[0].rows) : [];
    rows.forEach(function (row) { row.hidden = false; });
    var label = indicator();
    label.textContent = "";
    pages = [];
    if (!rows.length || (narrow && narrow.matches)) return;
    window.scrollTo(0, 0);
    var bottom = rows[0].getBoundingClientRect().top;
    var room = Math.max(window.innerHeight - bottom - label.offsetHeight - 24, rows[0].offsetHeight);
    var page = [];
    var used = 0;
    rows.forEach(function (row) {
      var height = row.offsetHeight;
      if (page.length && used + height > room) {
        pages.push(page);
        page = [];
        used = 0;
      }
      page.push(row);
      used += height;
    });
    pages.push(page);
    current = Math.min(current, pages.length - 1);
    show();
  }

  function show() {
    pages.forEach(function (page, index) {
      page.forEach(function (row) { row.hidden = index !== current; });
    });
    var label = indicator();
    if (pages.length > 1) {
      label.textContent = (root.getAttribute("data-board-label") || "{page} / {pages}")
        .replace("{page}", String(current + 1))
        .replace("{pages}", String(pages.length));
    } else {
      label.textContent = "";
    }
  }

  function next() {
    if (pages.length > 1) {
      current = (current + 1) % pages.length;
      show();
    }
  }

  // The browser asks with the page's ETag ("no-cache": always asked, never a stale
  // copy); the server answers 304 until the evening changes, and the same text comes
  // back from the browser's cache: nothing to do then.
  var shown = null;
  function refresh() {
    fetch(window.location.href, { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        if (html === shown) return;
        shown = html;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-board]");
        if (!fresh) return;
        root.innerHTML = fresh.innerHTML;
        if (!fresh.hasAttribute("data-board-refresh")) {
          // The evening is closed: the result is final, nothing more to fetch.
          root.removeAttribute("data-board-refresh");
          window.clearInterval(refreshTimer);
        }
        paginate();
      })
      .catch(function () { /* keep what is shown; the next refresh tries again */ });
  }

  paginate();
  window.setInterval(next, seconds("data-board-page", 8) * 1000);
  if (root.hasAttribute("data-board-refresh")) {
    refreshTimer = window.setInterval(refresh, seconds("data-board-refresh", 15) * 1000);
  }
  var resizing = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(paginate, 200);
  });
  root.setAttribute("data-board-ready", "");
})();
