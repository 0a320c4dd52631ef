// The table's page (scoring/table_entry.html) starts here, after the modules it joins
// (all loaded deferred, in this order):
//   entry/form.js    the hand form (EntryForm): checks a hand, fills and empties the form
//   entry/refresh.js the page brought up to date from the server (EntryRefresh)
//   entry/queue.js   the hands kept on the phone and sent in order (EntryQueue)
// Without fetch (or without the page's entry-config) the form posts as a plain form.
(function () {
  "use strict";
  var node = document.getElementById("hand-form");
  var config = document.getElementById("entry-config");
  config = config && window.fetch && window.JSON ? JSON.parse(config.textContent) : null;
  var form = node ? window.EntryForm.start(node, { queued: !!config }) : null;
  if (!config) return;
  var page = window.EntryRefresh.tablePage(config);
  window.EntryQueue.start(config, form, page);
  page.keepForOffline();
})();
