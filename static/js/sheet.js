// The director's paper-sheet grid, made quicker. The page works as a plain form
// without this file (the server then derives the other side of a changed row).
//  - type one team's card points: the other team's follow (162 minus), on a new
//    row and on a stored one alike, until that side is typed by hand too (then
//    both are a cross-check and must add up to 162);
//  - Enter goes to the next row, Ctrl+Enter saves.
(function () {
  "use strict";
  var TOTAL = 162;

  function whole(value) {
    value = (value || "").trim();
    return /^\d{1,3}$/.test(value) ? parseInt(value, 10) : null;
  }

  function pairPoints(a, b) {
    // A stored row's values were not typed on this page: both may follow.
    a.dataset.derived = "1";
    b.dataset.derived = "1";
    function follow(source, target) {
      source.addEventListener("input", function () {
        source.dataset.derived = "";
        if (!target.dataset.derived) return;
        var value = whole(source.value);
        target.value = value !== null && value <= TOTAL ? String(TOTAL - value) : "";
      });
    }
    follow(a, b);
    follow(b, a);
  }

  function submit(form) {
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  }

  function sheetGrid(form) {
    var rows = Array.prototype.slice.call(form.querySelectorAll(".sheet-grid tbody tr:not(.row-errors)"));
    // A refused save: the keyboard starts at the first wrong field, not at the top.
    var wrong = form.querySelector("[aria-invalid=true]") || form.querySelector("tr.invalid input, tr.invalid select");
    if (wrong) wrong.focus();
    rows.forEach(function (row) {
      var a = row.querySelector("[name$=-points_a]");
      var b = row.querySelector("[name$=-points_b]");
      if (a && b) pairPoints(a, b);
    });
    form.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.target.tagName === "BUTTON") return;
      if (event.ctrlKey || event.metaKey) { event.preventDefault(); submit(form); return; }
      var index = rows.indexOf(event.target.closest("tr"));
      if (index < 0) return; // the reason field: Enter saves, as in any form
      event.preventDefault();
      var next = rows[index + 1];
      if (!next) { submit(form); return; }
      var first = next.querySelector("select, input");
      if (first) first.focus();
    });
  }

  var sheet = document.getElementById("sheet-form");
  if (sheet) sheetGrid(sheet);
})();
