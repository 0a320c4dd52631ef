// The error summary of every form page (one home, loaded by base.html): when the
// server sends a form back with errors, a box before that form lists each error,
// each with a link to its field, and takes the focus, so a keyboard or screen-reader
// user hears what went wrong and can go straight to the field. It is built from the
// errors Django renders beside the fields (<ul class="errorlist" id="id_x_error">,
// the field being #id_x) and from a page's own [data-error-summary] box, which is
// focused as it is. Without JavaScript the errors stay beside their fields.
(function () {
  "use strict";
  var main = document.getElementById("main");
  var template = document.getElementById("error-summary-template");
  if (!main || !template) return;

  var own = main.querySelector("[data-error-summary]");
  if (own) { own.focus(); return; }

  function visible(el) { return !!(el && el.getClientRects().length); }
  function fieldOf(id) {
    if (!id) return null;
    var field = document.getElementById(id);
    if (visible(field)) return field;
    // A group of radio buttons or checkboxes: id_x_0, id_x_1, ...
    field = document.getElementById(id + "_0");
    return visible(field) ? field : null;
  }
  function labelOf(field, id) {
    var label = document.querySelector('label[for="' + id + '"]');
    var group = field.closest("fieldset");
    if (!label && group) label = group.querySelector("legend");
    if (!label && field.getAttribute("aria-label")) return field.getAttribute("aria-label");
    return label ? label.textContent.trim().replace(/:$/, "") : "";
  }

  var items = [];
  main.querySelectorAll(".errorlist").forEach(function (list) {
    list.querySelectorAll(":scope > li").forEach(function (item) {
      var own = /_error$/.test(item.id) ? item.id : list.id;
      var id = own ? own.replace(/_error$/, "") : "";
      var field = fieldOf(id);
      var text = item.textContent.trim();
      if (!text) return;
      items.push({ text: text, field: field, label: field ? labelOf(field, field.id) : "",
                   list: list });
    });
  });
  if (!items.length) return;

  var summary = template.content.firstElementChild.cloneNode(true);
  var ul = summary.querySelector("ul");
  items.forEach(function (error) {
    var li = document.createElement("li");
    if (error.field) {
      var link = document.createElement("a");
      link.href = "#" + error.field.id;
      var said = error.text;
      if (error.label && error.text.indexOf(error.label) === -1) said = error.label + ": " + error.text;
      link.textContent = said;
      link.addEventListener("click", function (event) {
        event.preventDefault();
        error.field.focus();
        var label = document.querySelector('label[for="' + error.field.id + '"]');
        (label || error.field).scrollIntoView({ block: "center" });
      });
      li.appendChild(link);
    } else {
      li.textContent = error.text;
    }
    ul.appendChild(li);
  });
  // Just before the form with the first error (the page's title and text stay above),
  // or at the top of the page.
  var form = items[0].list.closest("form");
  var before = form && main.contains(form) ? form : main.firstElementChild;
  if (before) before.parentNode.insertBefore(summary, before);
  else main.appendChild(summary);
  document.title = summary.dataset.titlePrefix + " " + document.title;
  summary.focus();
})();
