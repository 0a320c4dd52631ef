// Score entry, made quicker. Every page works as a plain form without this file.
//  - hand form: roem buttons, the other team's card points filled in (162 minus),
//    pit fills 162, a live preview of what each team banks, no double submit;
//  - paper-sheet grid: Enter goes to the next row, Ctrl+Enter saves;
//  - evening overview: the tables' progress reloads every 15 seconds.
(function () {
  "use strict";
  var TOTAL = 162;

  function whole(value) {
    value = (value || "").trim();
    return /^\d{1,3}$/.test(value) ? parseInt(value, 10) : null;
  }

  // Type one team's card points: the other field follows unless typed by hand.
  function pairPoints(a, b) {
    function follow(source, target) {
      source.addEventListener("input", function () {
        source.dataset.derived = "";
        var value = whole(source.value);
        if (target.value === "" || target.dataset.derived) {
          target.value = value !== null && value <= TOTAL ? String(TOTAL - value) : "";
          target.dataset.derived = target.value ? "1" : "";
        }
      });
    }
    follow(a, b);
    follow(b, a);
  }

  function handForm(form) {
    var a = form.querySelector("[name=points_a]");
    var b = form.querySelector("[name=points_b]");
    var output = form.querySelector("output.preview");
    var save = form.querySelector("button.save");
    var timer = null;
    var asked = 0;
    pairPoints(a, b);

    form.querySelectorAll(".roem-buttons").forEach(function (group) {
      var input = document.getElementById(group.dataset.for);
      group.hidden = false;
      group.addEventListener("click", function (event) {
        var button = event.target.closest("button");
        if (!button || !input) return;
        var now = whole(input.value) || 0;
        input.value = button.dataset.set !== undefined ? button.dataset.set : String(now + parseInt(button.dataset.add, 10));
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });

    form.querySelectorAll("[name=pit]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        if (radio.value === "A") { a.value = String(TOTAL); b.value = "0"; }
        if (radio.value === "B") { b.value = String(TOTAL); a.value = "0"; }
        a.dataset.derived = b.dataset.derived = "";
      });
    });

    // A laptop's keyboard starts at the first mistake or the first choice (after
    // the browser has gone to #hand-form); a phone keeps its place.
    window.addEventListener("load", function () {
      if (document.activeElement !== document.body || window.matchMedia("(pointer: coarse)").matches) return;
      var first = form.querySelector(".invalid input, .invalid select") ||
        form.querySelector("fieldset input, input:not([type=hidden])");
      if (first) first.focus({ preventScroll: true });
    });

    var previewButton = form.querySelector(".preview-button");
    if (previewButton && output) previewButton.hidden = true;

    function preview() {
      if (!output || !form.dataset.previewUrl) return;
      var params = new URLSearchParams();
      new FormData(form).forEach(function (value, name) {
        if (name !== "csrfmiddlewaretoken") params.append(name, value);
      });
      var ticket = ++asked;
      fetch(form.dataset.previewUrl + "?" + params.toString(), { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (answer) {
          if (ticket !== asked || !answer) return;
          output.classList.toggle("is-nat", !!answer.nat);
          output.classList.toggle("is-error", !answer.ok);
          if (answer.ok) { output.textContent = answer.text; return; }
          var message = "";
          Object.keys(answer.errors || {}).forEach(function (field) {
            answer.errors[field].forEach(function (error) {
              if (!message && error.code !== "required") message = error.message;
            });
          });
          output.textContent = message;
        })
        .catch(function () { /* offline: the server checks on save */ });
    }
    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(preview, 250);
    });
    form.addEventListener("change", function () {
      clearTimeout(timer);
      timer = setTimeout(preview, 100);
    });

    form.addEventListener("submit", function (event) {
      if (form.dataset.sending) { event.preventDefault(); return; }
      form.dataset.sending = "1";
      if (save) setTimeout(function () { save.disabled = true; }, 0);
    });
    window.addEventListener("pageshow", function () {
      form.dataset.sending = "";
      if (save) save.disabled = false;
    });
  }

  function sheetGrid(form) {
    var rows = Array.prototype.slice.call(form.querySelectorAll(".sheet-grid tbody tr:not(.row-errors)"));
    rows.forEach(function (row) {
      var a = row.querySelector("[name$=-points_a]");
      var b = row.querySelector("[name$=-points_b]");
      if (a && b) pairPoints(a, b);
    });
    form.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.target.tagName === "BUTTON") return;
      if (event.ctrlKey || event.metaKey) return; // Ctrl+Enter: the browser submits
      var row = event.target.closest("tr");
      var index = rows.indexOf(row);
      if (index < 0) return;
      event.preventDefault();
      var next = rows[index + 1];
      if (!next) { form.requestSubmit ? form.requestSubmit() : form.submit(); return; }
      var first = next.querySelector("select, input");
      if (first) first.focus();
    });
    form.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        form.requestSubmit ? form.requestSubmit() : form.submit();
      }
    });
  }

  function refresher(section) {
    var url = section.dataset.refreshUrl;
    setInterval(function () {
      if (document.hidden || section.contains(document.activeElement)) return;
      fetch(url, { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) { if (html !== null) section.innerHTML = html; })
        .catch(function () { /* try again in 15 s */ });
    }, 15000);
  }

  var hand = document.getElementById("hand-form");
  if (hand) handForm(hand);
  var sheet = document.getElementById("sheet-form");
  if (sheet) sheetGrid(sheet);
  document.querySelectorAll("[data-refresh-url]").forEach(refresher);
})();
