// Hands kept on the phone (the table's page). A saved hand first goes into a queue
// in localStorage (one per table link) with an entry id made here, then is posted as
// JSON; it leaves the queue only when the server answers that it has it. So a hand
// typed without a connection, or whose answer was lost, is sent again until it is
// stored, and the entry id makes a second send harmless. One hand at a time, in
// order. A hand the server refuses (a mistake, a closed evening) stops the queue and
// comes back to the form or is shown with its reason. When another phone entered
// that hand number differently, both versions are shown with what they bank and the
// table chooses which is the hand: keep the stored one, or replace it with this
// phone's (sent with the game's version as seen, so nothing changed meanwhile is
// overwritten); storing this phone's as the next hand is a plain third choice. Each
// answer brings the page's parts as they are now: the page moves on without a reload.
//
// window.EntryQueue.start(config, form, page): config is the page's entry-config,
// form what EntryForm.start returned (null when the page has no hand form), page
// what EntryRefresh.tablePage returned. The form's checked hands come here
// (form.onSave); the queue fills and empties the form, and asks the page to put in
// the server's parts (page.apply, page.fetch), to keep itself for a reload without
// a connection (page.keep) and whether it is such a copy (page.copy).
(function () {
  "use strict";
  var RETRY = 5000; // ms between tries while the server cannot be reached
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, count) { return count === 1 ? one : many; };

  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, key) { return String(values[key]); });
  }

  function newId() {
    var crypto = window.crypto;
    if (crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    if (crypto && crypto.getRandomValues) crypto.getRandomValues(bytes); // plain http has no randomUUID
    else for (var i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    var field = document.querySelector("[name=csrfmiddlewaretoken]");
    return match ? decodeURIComponent(match[1]) : (field ? field.value : "");
  }

  function hasFieldErrors(errors) {
    return Object.keys(errors || {}).some(function (name) {
      return ["__all__", "number", "client_id"].indexOf(name) < 0;
    });
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function start(config, form, page) {
    var KEY = "klaverjas.entry." + config.token;
    var section = document.getElementById("on-phone");
    var statusLine = document.getElementById("on-phone-status");
    var list = document.getElementById("on-phone-hands");
    var refusal = document.getElementById("on-phone-refusal");
    var memory = null, sending = false, unreachable = false, editing = null, retry = null;
    var draft = null; // the next hand as typed when a refused hand came back to the form
    var latest = null; // the page as the server's last answer made it (applyPage)
    var closed = false; // the game is complete or confirmed: no more hands on this page
    var news = document.getElementById("entry-news");
    var save = form && form.saveButton;
    var handLine = document.getElementById("hand-status");
    var served = { save: save && save.innerHTML, line: handLine && handLine.innerHTML };
    var store = read();
    // Hands this page already shows (it is as new as their save, or newer) are done.
    store.sent = store.sent.filter(function (hand) { return hand.version > config.version; });
    write();

    function read() {
      var data = memory;
      try { data = JSON.parse(localStorage.getItem(KEY)) || data; } catch (error) { /* no storage: memory */ }
      data = data || {};
      return { queue: data.queue || [], sent: data.sent || [], keeper: data.keeper || "" };
    }
    function write() {
      memory = store;
      try {
        if (store.queue.length || store.sent.length) localStorage.setItem(KEY, JSON.stringify(store));
        else localStorage.removeItem(KEY); // nothing left to keep for this table
      } catch (error) { /* kept in memory */ }
    }

    function nextNumber() {
      var next = config.nextNumber || 1;
      store.sent.concat(store.queue).forEach(function (hand) { if (hand.number >= next) next = hand.number + 1; });
      return next;
    }

    function describe(hand) {
      var text = hand.declared_a || hand.declared_b ?
        fmt(gettext("%(team)s played, card points %(a)s–%(b)s, declared %(da)s–%(db)s"), {
          team: config.teams[hand.playing], a: hand.points_a, b: hand.points_b,
          da: hand.declared_a || "–", db: hand.declared_b || "–",
        }) :
        fmt(gettext("%(team)s played, card points %(a)s–%(b)s, roem %(ra)s–%(rb)s"), {
          team: config.teams[hand.playing], a: hand.points_a, b: hand.points_b, ra: hand.roem_a, rb: hand.roem_b,
        });
      if (hand.pit) text += ", " + fmt(gettext("pit %(team)s"), { team: config.teams[hand.pit] });
      if (hand.verzaakt) text += ", " + fmt(gettext("%(team)s verzaakt"), { team: config.teams[hand.verzaakt] });
      return text;
    }

    // --- What the page shows: the hands on the phone, the refusal, the next hand.
    function render() {
      var queue = store.queue, refused = queue.length && queue[0].refused;
      var copy = page.copy();
      var text = "";
      if (form) form.hide(closed || !!(refused && !editing)); // nothing new behind a refused hand
      if (refused && editing) text = gettext("Hand %(number)s is not stored: correct it below and save it again.");
      else if (refused) text = gettext("Sending has stopped: hand %(number)s needs your choice.");
      else if (queue.length && (unreachable || navigator.onLine === false)) {
        text = ngettext(
          "No connection: %(count)s hand is kept on this phone and sent when the connection returns.",
          "No connection: %(count)s hands are kept on this phone and sent when the connection returns.",
          queue.length);
      } else if (queue.length) text = ngettext("Sending %(count)s hand…", "Sending %(count)s hands…", queue.length);
      else if (copy) text = gettext("No connection: this page is as it was last loaded on this phone. It refreshes when the connection returns.");
      else if (store.sent.length) text = form && form.edited() ? gettext("All hands are sent; the page refreshes after this hand.") : gettext("All hands are sent.");
      statusLine.textContent = fmt(text, { count: queue.length, number: queue.length ? queue[0].number : "" });
      section.hidden = !text;
      section.classList.toggle("is-offline", !!(queue.length && (unreachable || navigator.onLine === false)) || copy);

      list.textContent = "";
      store.sent.concat(queue).forEach(function (hand) {
        var state = hand.refused ? "refused" : (store.sent.indexOf(hand) >= 0 ? "sent" : "queued");
        var item = element("li", "hand " + state);
        item.dataset.number = hand.number;
        item.dataset.state = state;
        item.appendChild(element("strong", "", fmt(gettext("Hand %(number)s"), { number: hand.number })));
        item.appendChild(document.createTextNode(" " + (hand.text || describe(hand)) + " "));
        var badge = { queued: gettext("not yet sent"), sent: gettext("stored"), refused: gettext("not stored") }[state];
        item.appendChild(element("span", "badge " + state, badge));
        list.appendChild(item);
      });
      renderRefusal(refused ? queue[0] : null);

      if (!form) return;
      var next = refused ? queue[0].number : nextNumber();
      form.forHand(next, !!config.roefel && next === config.roefel);
      if (store.keeper && (queue.length || store.sent.length)) form.hideKeeper();
      if (next === config.nextNumber) { // the page as the server made it
        if (save) save.innerHTML = served.save;
        if (handLine) handLine.innerHTML = served.line;
        return;
      }
      if (save) save.textContent = fmt(gettext("Save hand %(number)s"), { number: next });
      if (handLine) handStatus(next);
    }

    function handStatus(number) {
      var text;
      if (config.length && number > config.length) {
        text = gettext("Hand %(number)s: an extra hand, only when the totals are equal");
      } else if (config.length) text = gettext("Hand %(number)s of %(length)s");
      else text = gettext("Hand %(number)s · playing to %(target)s");
      var dealer = config.dealers[(number - 1) % 4];
      text += " · " + gettext("deals: %(name)s (%(seat)s)");
      handLine.textContent = fmt(text, { number: number, length: config.length, target: config.target, name: dealer[0], seat: dealer[1] });
    }

    function renderRefusal(hand) {
      refusal.textContent = "";
      refusal.hidden = !hand || editing === hand.id;
      if (refusal.hidden) return;
      var answer = hand.refused, state = answer.state || {}, fields = hasFieldErrors(answer.errors);
      var stored = answer.current, mine = answer.mine;
      var open = state.status === "open" || state.status === "complete";
      var values = { number: hand.number, next: state.next_number };
      // Two phones, one hand: the table chooses which version is this hand.
      var twoVersions = answer.status === 409 && stored && stored.number === hand.number;
      var title = twoVersions ?
        gettext("Hand %(number)s was entered differently on two phones. Which version is hand %(number)s?") :
        gettext("Hand %(number)s is not stored.");
      refusal.appendChild(element("p", "", "")).appendChild(element("strong", "", fmt(title, values)));
      if (!twoVersions) {
        var reasons = refusal.appendChild(element("ul"));
        Object.keys(answer.errors || {}).forEach(function (name) {
          answer.errors[name].forEach(function (error) { reasons.appendChild(element("li", "", error.message)); });
        });
      }
      var versions = refusal.appendChild(element("dl", "versions"));
      if (stored) {
        versions.appendChild(element("dt", "", gettext("Stored (entered on another device)")));
        versions.appendChild(element("dd", "stored", stored.text + " · " + fmt(gettext("wij %(a)s, zij %(b)s"),
          { a: stored.score_a, b: stored.score_b })));
      }
      versions.appendChild(element("dt", "", gettext("On this phone")));
      versions.appendChild(element("dd", "mine", describe(hand) + (mine ? " · " + fmt(gettext("wij %(a)s, zij %(b)s"),
        { a: mine.score_a, b: mine.score_b }) : "")));
      var actions = refusal.appendChild(element("div", "actions"));
      function button(label, action, className) {
        var node = actions.appendChild(element("button", className || "", label));
        node.type = "button";
        node.dataset.action = action;
      }
      if (fields && form) button(gettext("Correct mine"), "correct", "primary");
      if (twoVersions) {
        button(fmt(gettext("Keep the stored hand %(number)s"), values), "drop", "primary");
        if (mine && open) button(fmt(gettext("Replace hand %(number)s with mine"), values), "replace", "primary");
      }
      var renumber = (answer.status === 409 || (answer.status === 422 && !fields)) &&
        state.status === "open" && state.next_number && state.next_number !== hand.number;
      if (twoVersions && renumber) {
        var plain = refusal.appendChild(element("p", "other-choice"));
        actions = plain;
        button(fmt(gettext("Save mine as a new hand %(next)s (hand %(number)s stays as stored)"), values), "renumber", "link");
      } else if (renumber) {
        button(fmt(gettext("Save mine as hand %(number)s"), { number: state.next_number }), "renumber", "primary");
      }
      if (!twoVersions) {
        if (stored) refusal.appendChild(element("p", "helptext", gettext("A stored hand is only changed by the tournament director.")));
        button(gettext("Drop mine"), "drop", "danger");
      }
    }

    refusal.addEventListener("click", function (event) {
      var action = event.target.closest("button") && event.target.closest("button").dataset.action;
      var hand = store.queue[0];
      if (!action || !hand || !hand.refused) return;
      delete hand.replace; // a choice made before (a replace refused since) no longer holds
      delete hand.version;
      if (action === "drop") store.queue.shift();
      if (action === "renumber") {
        var shift = hand.refused.state.next_number - hand.number;
        store.queue.forEach(function (queued) { queued.number += shift; });
        delete hand.refused;
      }
      if (action === "replace") {
        hand.replace = true; // the server replaces its hand of this number, if the game is as seen
        hand.version = hand.refused.state.version;
        delete hand.refused;
      }
      if (action === "correct") correct(hand);
      write();
      render();
      if (action !== "correct" && form) form.focusNext(); // the button is gone: on to the next hand
      if (store.queue.length) flush(); else settled();
    });

    function correct(hand) {
      if (form.edited() && !editing) draft = form.snapshot();
      editing = hand.id;
      form.fill(hand);
      var problems = [];
      Object.keys(hand.refused.errors || {}).forEach(function (name) {
        hand.refused.errors[name].forEach(function (error) { problems.push([name, error.message]); });
      });
      render();
      form.showProblems(problems);
    }

    // --- Sending, one hand at a time.
    function payload(hand) {
      var data = {};
      ["keeper", "playing", "points_a", "points_b", "roem_a", "roem_b", "pit", "trump", "verzaakt", "number"].forEach(function (name) {
        data[name] = hand[name];
      });
      if (hand.offender) data.offender = hand.offender;
      if (hand.declared_a || hand.declared_b) { data.declared_a = hand.declared_a; data.declared_b = hand.declared_b; }
      if (hand.replace) { data.replace = true; data.version = hand.version; }
      data.client_id = hand.id;
      return data;
    }

    function later(renewCookie, retryAfter) {
      clearTimeout(retry);
      if (renewCookie) fetch(config.pageUrl, { credentials: "same-origin", cache: "no-store" }).catch(function () {});
      // A busy server (503) says when to try again, in seconds.
      var seconds = parseInt(retryAfter, 10);
      retry = setTimeout(flush, seconds > 0 && seconds < 600 ? seconds * 1000 : RETRY);
    }

    function flush() {
      clearTimeout(retry);
      var hand = store.queue[0];
      if (sending || editing || !hand || hand.refused) return;
      sending = true;
      render();
      fetch(config.handsUrl, {
        method: "POST",
        credentials: "same-origin",
        cache: "no-store",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(payload(hand)),
      }).then(function (response) {
        var retryAfter = response.headers.get("Retry-After");
        return response.json().then(
          function (body) { return { status: response.status, body: body, retryAfter: retryAfter }; },
          function () { return { status: response.status, body: null, retryAfter: retryAfter }; });
      }).then(function (answer) {
        sending = false;
        unreachable = false;
        store = read(); // another tab of this table may have sent or dropped hands
        var first = store.queue[0];
        if (!first || first.id !== hand.id) { render(); flush(); return; }
        var body = answer.body;
        if (body && body.ok && (answer.status === 200 || answer.status === 201)) {
          store.queue.shift();
          store.sent.push({ id: hand.id, number: body.hand.number, version: body.version, text: body.hand.text });
          write();
          if (body.page) latest = body.page;
          if (news && body.message) news.textContent = body.message; // "Hand 5 saved: wij 102, zij 60."
          render();
          if (store.queue.length) flush(); else settled();
        } else if (body && body.errors && [403, 409, 422].indexOf(answer.status) >= 0) {
          first.refused = { status: answer.status, errors: body.errors, state: body.state, current: body.current, mine: body.mine };
          write();
          if (body.page) applyPage(body.page); // another device's hands on the sheet
          if (news) news.textContent = "";
          if (hasFieldErrors(body.errors) && form) correct(first);
          else { render(); refusal.focus(); }
        } else if (answer.status === 404) {
          first.refused = { status: 404, errors: { __all__: [{ message: gettext("This table's link no longer exists; ask the tournament director.") }] } };
          write();
          render();
        } else {
          render();
          later(answer.status === 403, answer.retryAfter); // 403: a stale security cookie, fetch the page for a new one
        }
      }).catch(function () {
        sending = false;
        unreachable = true;
        render();
        later(false);
      });
    }

    // Everything is stored: put in the server's page as its last answer made it
    // (totals, dealer, the confirmation form), without a reload.
    function settled() {
      if (latest) { applyPage(latest); latest = null; page.keep(); return; }
      page.fetch(applyPage);
    }

    // The parts of the page that change with a hand (refresh.js puts them in), and
    // what they mean for the hands here and the form.
    function applyPage(fresh) {
      page.apply(fresh);
      served.save = fresh.save_label;
      served.line = fresh.fragments["hand-status"];
      // Hands the page now shows are done.
      store.sent = store.sent.filter(function (hand) { return hand.version > config.version; });
      write();
      if (form) {
        form.setVersion(config.version);
        if (fresh.keeper_known) form.dropKeeper();
        closed = config.status !== "open";
      }
      render();
      if (closed) page.announceClosed();
    }

    // The form's checked hand: into the queue, then sent.
    function queueHand(hand) {
      hand.keeper = hand.keeper || store.keeper || "";
      var restoring = null;
      if (editing) {
        var queued = store.queue[0];
        Object.keys(hand).forEach(function (name) { queued[name] = hand[name]; });
        delete queued.refused;
        editing = null;
        restoring = draft;
        draft = null;
      } else if (store.queue.length && store.queue[0].refused) {
        render(); // a refused hand waits for the scorer's choice: nothing behind it
        refusal.focus();
        return;
      } else {
        hand.id = newId();
        hand.number = nextNumber();
        store.queue.push(hand);
      }
      if (hand.keeper) store.keeper = hand.keeper;
      write();
      form.fill(null);
      if (restoring) form.restore(restoring);
      render();
      if (!restoring) form.focusNext(); // the next hand, ready for the team (also offline)
      flush();
    }

    if (form) form.onSave(queueHand);
    window.addEventListener("online", flush);
    window.addEventListener("offline", render);
    window.addEventListener("storage", function (event) {
      if (event.key === KEY) { store = read(); render(); }
    });
    // An offline copy of the page: the page looks for the server now and then
    // (flush() puts the page in when the queue is done).
    page.pollWhileCopy(function () { return store.queue.length || (form && form.edited()) || editing; }, applyPage);
    render();
    flush();
  }

  window.EntryQueue = { start: start };
})();
