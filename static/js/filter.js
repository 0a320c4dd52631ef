// Filter a list by typing: <input data-filter="#list li">, items carry data-name.
(function () {
  "use strict";
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    input.addEventListener("input", function () {
      // Looked up on every keystroke: a page may replace its items (attendance.js).
      var items = document.querySelectorAll(input.getAttribute("data-filter"));
      var query = input.value.trim().toLowerCase();
      items.forEach(function (item) {
        var name = item.getAttribute("data-name") || "";
        item.hidden = query !== "" && name.indexOf(query) === -1;
      });
    });
  });
})();
