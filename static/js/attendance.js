// Attendance without reloading the page: a tap on a member's button is sent with
// fetch, and only that member's row and the present count change. Without this
// file (or when fetch fails) the buttons are plain form posts.
(function () {
  "use strict";
  var list = document.getElementById("attendance");
  var count = document.getElementById("present-count");
  if (!list || !window.fetch || !window.FormData) return;

  function plain(form, button) {
    form.dataset.plain = "1";
    if (form.requestSubmit) form.requestSubmit(button);
    else form.submit();
  }

  list.addEventListener("submit", function (event) {
    var form = event.target;
    var button = event.submitter;
    if (form.dataset.plain || !button) return;
    event.preventDefault();
    var row = form.closest("li");
    var data = new FormData(form);
    data.append(button.name, button.value);
    row.setAttribute("aria-busy", "true");
    fetch(window.location.pathname, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { Accept: "application/json" }
    })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then(function (answer) {
        var holder = document.createElement("ul");
        holder.innerHTML = answer.row.trim();
        var fresh = holder.firstElementChild;
        fresh.hidden = row.hidden;
        row.replaceWith(fresh);
        if (count) count.textContent = answer.present;
        var next = fresh.querySelector("button");
        if (next) next.focus();
      })
      .catch(function () { plain(form, button); }); // the page shows why, after a reload
  });
})();
