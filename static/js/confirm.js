// Asks before a form that destroys or closes something is sent: a form, or the
// button that sends it, with data-confirm="the question" shows the question
// first and sends nothing unless it is answered OK. Without this file the
// forms are sent at once, and the server still refuses what cannot be done.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    var question = (button && button.dataset.confirm) || event.target.dataset.confirm;
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
})();
