// Filter a list by typing: <input data-filter="#list li">, items carry data-name.
(function () {
  "use strict";
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    var items = document.querySelectorAll(input.getAttribute("data-filter"));
    input.addEventListener("input", function () {
      var query = input.value.trim().toLowerCase();
      items.forEach(function (item) {
        var name = item.getAttribute("data-name") || "";
        item.hidden = query !== "" && name.indexOf(query) === -1;
      });
    });
  });
})();
