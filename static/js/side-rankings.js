// The side rankings on the competition form: each kind's own numbers (best N
// evenings, minimum attendance) show only while its side_rankings box is ticked.
// The template marks their wrappers with data-side-ranking="<kind>"; the kinds are
// not named here. Without JavaScript every number stays visible, and the server
// keeps no numbers of a kind not ticked (tournaments/forms.py CompetitionForm).
(function () {
  "use strict";
  var wrappers = document.querySelectorAll("[data-side-ranking]");
  if (!wrappers.length) return;

  function boxFor(wrapper) {
    var kind = wrapper.getAttribute("data-side-ranking");
    var form = wrapper.closest("form");
    if (!form) return null;
    var boxes = form.querySelectorAll("input[type=checkbox][name=side_rankings]");
    for (var i = 0; i < boxes.length; i++) {
      if (boxes[i].value === kind) return boxes[i];
    }
    return null;
  }

  // A hidden number is also disabled: the browser neither sends it nor refuses
  // the form for a value nobody can see (the server ignores it either way).
  function show(wrapper, shown) {
    wrapper.hidden = !shown;
    var inputs = wrapper.querySelectorAll("input, select, textarea");
    for (var i = 0; i < inputs.length; i++) inputs[i].disabled = !shown;
  }

  Array.prototype.forEach.call(wrappers, function (wrapper) {
    var box = boxFor(wrapper);
    if (!box || box.disabled) return;
    show(wrapper, box.checked);
    box.addEventListener("change", function () { show(wrapper, box.checked); });
  });
})();
