// Score entry, made quicker. Every page works as a plain form without this file.
//  - hand form: roem buttons (or, for declared roem, buttons that write what each team
//    declared: "50+20+stuk"), the other team's card points filled in (162 minus),
//    pit fills 162, verzaakt empties the card points (162/0 follow) and pit, a
//    live preview of what each team banks, no double submit; the roefel (hand 1
//    of a roefel game) keeps its team and clubs fixed;
//  - the table's page: a hand is saved in place (posted as JSON; the answer brings
//    the sheet, the status line and the confirmation form as they are now, put
//    in without a reload), hands are kept on the phone while the connection is
//    down and sent in order when it returns (see phoneQueue), and a service
//    worker keeps the page for a reload without a connection (see offlineShell);
//  - evening overview: the tables' progress reloads every 15 seconds.
(function () {
  "use strict";
  var TOTAL = 162;
  var RETRY = 5000; // ms between tries while the server cannot be reached
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, count) { return count === 1 ? one : many; };

  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, key) { return String(values[key]); });
  }

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

  // Verzaakt: the hand ended, its card points follow (162 for the other team, 0 for
  // the team that reneged) and there is no pit; those inputs are emptied and locked.
  // Where the hand counts as played (the player pays personally, or no penalty:
  // data-verzaken-played) the card points stay to be entered.
  function syncVerzaakt(form) {
    var chosen = form.querySelector("[name=verzaakt]:checked");
    var played = !!form.querySelector("[data-verzaken-played]");
    var on = !!(chosen && chosen.value) && !played;
    form.querySelectorAll("[name=points_a], [name=points_b], [name=pit]").forEach(function (input) {
      if (on && input.type !== "radio") { input.value = ""; input.dataset.derived = ""; }
      if (on && input.type === "radio") input.checked = input.value === "";
      input.disabled = on;
    });
  }

  // The roefel: the choices the server locked (data-roefel-locked) stay locked only
  // while the form is for that hand (a phone offline moves on to the next hand).
  function lockRoefel(form, on) {
    var notice = document.getElementById("roefel-notice");
    if (notice) notice.hidden = !on;
    form.querySelectorAll("[data-roefel-locked]").forEach(function (node) {
      node.disabled = on;
      if (on && node.selected) node.selected = false;
    });
    if (!on) return;
    form.querySelectorAll("[name=playing]").forEach(function (radio) {
      if (!radio.hasAttribute("data-roefel-locked")) radio.checked = true;
    });
    var trump = form.querySelector("[name=trump]");
    var free = trump && trump.querySelector("option:not([data-roefel-locked])");
    if (free) trump.value = free.value;
  }

  function handForm(form, queued) {
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

    // Declared roem (match-1500): each button adds a run or stuk to the team's
    // written declarations ("50+20+stuk"); the server counts them in the preview.
    form.querySelectorAll(".declare-buttons").forEach(function (group) {
      var input = document.getElementById(group.dataset.for);
      group.hidden = false;
      group.addEventListener("click", function (event) {
        var button = event.target.closest("button");
        if (!button || !input) return;
        var item = button.dataset.declare, now = input.value.trim();
        input.value = !item ? "" : now ? now + "+" + item : item;
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });

    // A tap on the team that played goes on to the card points: team, digits, save.
    var playing = form.querySelector("fieldset.playing");
    if (playing) playing.addEventListener("click", function (event) {
      if (event.detail > 0 && event.target.name === "playing" && !a.value && !b.value) a.focus();
    });

    form.querySelectorAll("[name=pit]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        if (radio.value === "A") { a.value = String(TOTAL); b.value = "0"; }
        if (radio.value === "B") { b.value = String(TOTAL); a.value = "0"; }
        a.dataset.derived = b.dataset.derived = "";
      });
    });
    form.querySelectorAll("[name=verzaakt]").forEach(function (radio) {
      radio.addEventListener("change", function () { syncVerzaakt(form); });
    });
    syncVerzaakt(form); // a form filled by the trick checker's link may start verzaakt

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
        .catch(function () {
          if (ticket !== asked || !(a.value || b.value)) return;
          output.classList.remove("is-nat", "is-error");
          output.textContent = gettext("No connection: the hand is checked when it is sent.");
        });
    }
    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(preview, 250);
    });
    form.addEventListener("change", function () {
      clearTimeout(timer);
      timer = setTimeout(preview, 100);
    });
    // The form was filled or emptied by the script (the next hand, a refused hand back).
    form.addEventListener("entry:preview", function () {
      clearTimeout(timer);
      ++asked; // an answer still on its way is for what the form held before
      if (!output) return;
      output.classList.remove("is-nat", "is-error");
      output.textContent = "";
      if (a.value || b.value) timer = setTimeout(preview, 50);
    });

    if (queued) return; // the phone's queue sends the hand (phoneQueue)
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

  // --- Hands kept on the phone ------------------------------------------------------
  // A saved hand first goes into a queue in localStorage (one per table link) with an
  // entry id made here, then is posted as JSON; it leaves the queue only when the
  // server answers that it has it. So a hand typed without a connection, or whose
  // answer was lost, is sent again until it is stored, and the entry id makes a
  // second send harmless. One hand at a time, in order. A hand the server refuses
  // (a mistake, a closed evening) stops the queue and comes back to the form or is
  // shown with its reason. When another phone entered that hand number differently,
  // both versions are shown with what they bank and the table chooses which is the
  // hand: keep the stored one, or replace it with this phone's (sent with the game's
  // version as seen, so nothing changed meanwhile is overwritten); storing this
  // phone's as the next hand is a plain third choice. Each answer brings the page's
  // parts as they are now (applyPage): the page moves on without a reload.

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

  function phoneQueue(config, form) {
    var KEY = "klaverjas.entry." + config.token;
    var section = document.getElementById("on-phone");
    var statusLine = document.getElementById("on-phone-status");
    var list = document.getElementById("on-phone-hands");
    var refusal = document.getElementById("on-phone-refusal");
    var copy = document.documentElement.hasAttribute("data-offline-copy");
    var memory = null, sending = false, unreachable = false, dirty = false, editing = null, retry = null;
    var draft = null; // the next hand as typed when a refused hand came back to the form
    var page = null; // the page as the server's last answer made it (applyPage)
    var closed = false; // the game is complete or confirmed: no more hands on this page
    var news = document.getElementById("entry-news");
    var save = form && form.querySelector("button.save");
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

    // --- The form: read, check the shape (the server checks the rules), reset.
    function field(name) { return form.querySelector("[name=" + name + "]"); }
    function keeperAsked() {
      var keeper = form.querySelector("fieldset.keeper");
      return keeper && !keeper.hidden ? keeper : null;
    }
    function readForm() {
      var data = new FormData(form), problems = [];
      function number(name) {
        var value = (data.get(name) || "").trim();
        if (value === "") return null;
        if (!/^\d{1,4}$/.test(value)) { problems.push([name, gettext("Enter a whole number.")]); return 0; }
        return parseInt(value, 10);
      }
      var hand = {
        keeper: data.get("keeper") || store.keeper || "", playing: data.get("playing") || "",
        pit: data.get("pit") || "", trump: data.get("trump") || "", verzaakt: data.get("verzaakt") || "",
        offender: data.get("offender") || "",
        points_a: number("points_a"), points_b: number("points_b"),
        roem_a: number("roem_a") || 0, roem_b: number("roem_b") || 0,
        declared_a: (data.get("declared_a") || "").trim(), declared_b: (data.get("declared_b") || "").trim(),
      };
      if (keeperAsked() && !data.get("keeper")) problems.push(["keeper", gettext("Choose the team that keeps score.")]);
      if (!hand.playing) problems.push(["playing", gettext("Choose the team that played (wij or zij).")]);
      if (hand.points_a === null && hand.points_b === null && hand.verzaakt && !form.querySelector("[data-verzaken-played]")) {
        hand.points_a = hand.verzaakt === "A" ? 0 : TOTAL;
        hand.points_b = TOTAL - hand.points_a;
      }
      if (hand.points_a === null && hand.points_b === null && hand.pit) {
        hand.points_a = hand.pit === "A" ? TOTAL : 0;
        hand.points_b = TOTAL - hand.points_a;
      }
      if (hand.points_a === null && hand.points_b === null) {
        problems.push(["points_a", gettext("Enter the card points of one team.")]);
      } else {
        if (hand.points_a === null) hand.points_a = TOTAL - hand.points_b;
        if (hand.points_b === null) hand.points_b = TOTAL - hand.points_a;
        if (hand.points_a > TOTAL || hand.points_b > TOTAL || hand.points_a < 0 || hand.points_b < 0) {
          problems.push(["points_a", gettext("Card points are between 0 and 162.")]);
        } else if (hand.points_a + hand.points_b !== TOTAL) {
          problems.push(["points_a", gettext("The card points of both teams must add up to 162.")]);
        }
      }
      return { hand: hand, problems: problems };
    }
    // A mistake is shown next to its field, announced, and cleared when the field changes.
    function showProblems(problems) {
      form.querySelectorAll(".invalid").forEach(clearProblem);
      var output = form.querySelector("output.preview"), general = [];
      problems.forEach(function (problem) {
        var input = field(problem[0]);
        var wrap = input && input.closest(".field, fieldset");
        if (wrap) markProblem(wrap, problem[0], problem[1]);
        else general.push(problem[1]);
      });
      if (output) {
        output.classList.toggle("is-error", general.length > 0);
        output.textContent = general.join(" ");
      }
      if (problems.length) {
        var first = form.querySelector(".invalid input:not([type=hidden]), .invalid select") || field(problems[0][0]);
        if (first) first.focus();
      }
    }
    function markProblem(wrap, name, message) {
      var id = "problem-" + name, note = document.getElementById(id);
      wrap.classList.add("invalid");
      if (note) { note.textContent += " " + message; return; }
      note = element("p", "field-error", message);
      note.id = id;
      note.setAttribute("role", "alert");
      var segments = wrap.querySelector(".segments");
      var input = wrap.querySelector("input:not([type=hidden]):not([type=radio]), select");
      var after = segments || input;
      after.parentNode.insertBefore(note, after.nextSibling);
      if (segments) { wrap.setAttribute("aria-describedby", id); return; }
      input.setAttribute("aria-invalid", "true");
      if (!input.hasAttribute("data-described")) input.dataset.described = input.getAttribute("aria-describedby") || "";
      input.setAttribute("aria-describedby", (input.dataset.described + " " + id).trim());
    }
    function clearProblem(wrap) {
      wrap.classList.remove("invalid");
      wrap.querySelectorAll(".field-error, .errorlist").forEach(function (note) { note.remove(); });
      wrap.removeAttribute("aria-describedby");
      wrap.querySelectorAll("[aria-invalid]").forEach(function (input) {
        input.removeAttribute("aria-invalid");
        var before = input.dataset.described || "";
        before = before.split(" ").filter(function (id) { return id && document.getElementById(id); }).join(" ");
        if (before) input.setAttribute("aria-describedby", before); else input.removeAttribute("aria-describedby");
      });
    }
    // Changing a field clears its mistake (both card points fields go together).
    function clearOnChange(event) {
      var wrap = event.target.closest && event.target.closest(".invalid");
      if (wrap && form.contains(wrap)) clearProblem(wrap);
      if (/^points_/.test(event.target.name)) {
        form.querySelectorAll("[name=points_a], [name=points_b]").forEach(function (input) {
          var other = input.closest(".invalid");
          if (other) clearProblem(other);
        });
      }
    }
    // What the scorer had typed when a refused hand came back to the form.
    function snapshot() {
      return Array.prototype.map.call(form.querySelectorAll("input:not([type=hidden]), select"), function (input) {
        return [input, input.type === "radio" ? input.checked : input.value];
      });
    }
    function restore(values) {
      values.forEach(function (pair) {
        if (pair[0].type === "radio") pair[0].checked = pair[1]; else pair[0].value = pair[1];
      });
      syncVerzaakt(form); // the draft's verzaakt choice locks its card points again
      dirty = true;
    }
    function fill(hand) {
      ["declared_a", "declared_b"].forEach(function (name) {
        var input = field(name);
        if (input) input.value = hand && hand[name] ? hand[name] : "";
      });
      ["points_a", "points_b", "roem_a", "roem_b"].forEach(function (name) {
        var input = field(name), value = hand ? hand[name] : null;
        if (!input) return; // declared roem: no roem totals on the form
        input.value = value || (value === 0 && name.indexOf("points") === 0) ? String(value) : "";
        input.dataset.derived = "";
      });
      form.querySelectorAll("[name=playing], [name=pit], [name=keeper], [name=verzaakt]").forEach(function (radio) {
        var blankable = radio.name === "pit" || radio.name === "verzaakt";
        radio.checked = hand ? (hand[radio.name] || (blankable ? "" : null)) === radio.value : blankable && radio.value === "";
      });
      field("trump").value = hand ? hand.trump : "";
      syncVerzaakt(form);
      showProblems([]);
      var more = form.querySelector("details.more-fields");
      if (more && hand && (hand.pit || hand.verzaakt || hand.trump)) more.open = true;
      form.dispatchEvent(new Event("entry:preview")); // the live result of what the form holds now
      dirty = false;
    }

    // --- What the page shows: the hands on the phone, the refusal, the next hand.
    function render() {
      var queue = store.queue, refused = queue.length && queue[0].refused;
      var text = "";
      if (form) form.hidden = closed || !!(refused && !editing); // nothing new behind a refused hand
      if (refused && editing) text = gettext("Hand %(number)s is not stored: correct it below and save it again.");
      else if (refused) text = gettext("Sending has stopped: hand %(number)s needs your choice.");
      else if (queue.length && (unreachable || navigator.onLine === false)) {
        text = ngettext(
          "No connection: %(count)s hand is kept on this phone and sent when the connection returns.",
          "No connection: %(count)s hands are kept on this phone and sent when the connection returns.",
          queue.length);
      } else if (queue.length) text = ngettext("Sending %(count)s hand…", "Sending %(count)s hands…", queue.length);
      else if (copy) text = gettext("No connection: this page is as it was last loaded on this phone. It refreshes when the connection returns.");
      else if (store.sent.length) text = dirty ? gettext("All hands are sent; the page refreshes after this hand.") : gettext("All hands are sent.");
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
      field("number").value = String(next);
      lockRoefel(form, !!config.roefel && next === config.roefel);
      var keeper = form.querySelector("fieldset.keeper");
      if (keeper && store.keeper && (queue.length || store.sent.length)) keeper.hidden = true;
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
      if (action !== "correct") nextHandInView(); // the button is gone: on to the next hand
      if (store.queue.length) flush(); else settled();
    });

    function correct(hand) {
      if (dirty && !editing) draft = snapshot();
      editing = hand.id;
      fill(hand);
      var problems = [];
      Object.keys(hand.refused.errors || {}).forEach(function (name) {
        hand.refused.errors[name].forEach(function (error) { problems.push([name, error.message]); });
      });
      render();
      showProblems(problems);
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
          if (body.page) page = body.page;
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
      if (page) { applyPage(page); page = null; keepPage(); return; }
      fetchPage();
    }

    // The service worker keeps the page as it is now, for a reload without a connection.
    function keepPage() {
      if (!("serviceWorker" in navigator) || copy) return;
      navigator.serviceWorker.getRegistration(config.swScope).then(function (registration) {
        var worker = registration && registration.active;
        if (worker) worker.postMessage({ type: "cache", urls: [config.pageUrl] });
      }).catch(function () { /* no worker: the queue still keeps the hands */ });
    }

    // The parts of the page that change with a hand, from an answer of hands.json.
    function applyPage(fresh) {
      Object.keys(fresh.fragments).forEach(function (id) {
        var node = document.getElementById(id);
        if (node) node.innerHTML = fresh.fragments[id];
      });
      ["version", "status", "nextNumber", "roefel"].forEach(function (name) { config[name] = fresh.config[name]; });
      served.save = fresh.save_label;
      served.line = fresh.fragments["hand-status"];
      // Hands the page now shows are done.
      store.sent = store.sent.filter(function (hand) { return hand.version > config.version; });
      write();
      if (form) {
        var version = field("version");
        if (version) version.value = String(config.version);
        var keeper = form.querySelector("fieldset.keeper");
        if (keeper && fresh.keeper_known) keeper.remove();
        closed = config.status !== "open";
      }
      render();
      if (closed) {
        // The bar went with the form: the last hand's confirmation is said here.
        var done = document.getElementById("entry-done-news");
        if (done && news) done.textContent = news.textContent;
        var confirm = document.querySelector("#entry-confirm h2");
        if (confirm) { confirm.tabIndex = -1; confirm.focus({ preventScroll: true }); }
      }
    }

    // No answer to go by (an offline copy of the page): the server's page, read for its parts.
    function fetchPage() {
      fetch(config.pageUrl, { credentials: "same-origin", cache: "no-store" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html) return;
          var fresh = new DOMParser().parseFromString(html, "text/html");
          var settings = fresh.getElementById("entry-config");
          if (!settings || !fresh.getElementById("hand-form")) { location.assign(config.pageUrl); return; }
          var parts = {};
          ["hand-status", "score-sheet", "entry-confirm", "entry-undo"].forEach(function (id) {
            var node = fresh.getElementById(id);
            parts[id] = node ? node.innerHTML : "";
          });
          var save = fresh.querySelector("#hand-form button.save");
          if (copy) { copy = false; document.documentElement.removeAttribute("data-offline-copy"); }
          applyPage({ fragments: parts, config: JSON.parse(settings.textContent),
            save_label: save ? save.textContent : "", keeper_known: !fresh.querySelector("fieldset.keeper") });
        })
        .catch(function () { /* the next answer brings the page */ });
    }

    if (form) {
      form.addEventListener("input", function () { dirty = true; });
      form.addEventListener("change", function () { dirty = true; });
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var entered = readForm();
        if (entered.problems.length) { showProblems(entered.problems); return; }
        var hand = entered.hand;
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
        fill(null);
        if (restoring) restore(restoring);
        render();
        if (!restoring) nextHandInView(); // the next hand, ready for the team (also offline)
        flush();
      });
      form.addEventListener("input", clearOnChange);
      form.addEventListener("change", clearOnChange);
    }

    // The next hand: the team that played first (the card points when the roefel
    // fixes it), without moving the page.
    function nextHandInView() {
      if (!form || form.hidden) return;
      var team = form.querySelector("[name=playing]:not(:disabled):not([data-roefel-locked])");
      var locked = form.querySelector("[name=playing][data-roefel-locked]:disabled");
      var target = locked ? field("points_a") : team;
      if (target) target.focus({ preventScroll: true });
    }
    window.addEventListener("online", flush);
    window.addEventListener("offline", render);
    window.addEventListener("storage", function (event) {
      if (event.key === KEY) { store = read(); render(); }
    });
    // An offline copy of the page: look for the server now and then, and show its page.
    if (copy) {
      document.querySelectorAll(".messages").forEach(function (node) { node.hidden = true; });
      setInterval(function () {
        if (store.queue.length || dirty || editing) return; // flush() puts the page in when done
        if (copy) fetchPage();
      }, RETRY);
    }
    render();
    // After a plain form's save (the page without this script came back at #hand-form):
    // the next hand's team, at the top of the page.
    if (form && location.hash === "#hand-form") {
      window.addEventListener("load", function () { window.scrollTo(0, 0); nextHandInView(); });
    }
    keepBarInView();
    flush();
  }

  // The bar with the live result and the Save button stays at the bottom of what is
  // visible: above an on-screen keyboard too (iOS keeps fixed elements behind it).
  function keepBarInView() {
    var bar = document.getElementById("entry-bar"), view = window.visualViewport;
    if (!bar || !view) return;
    function place() {
      var hidden = window.innerHeight - view.height - view.offsetTop;
      bar.style.bottom = hidden > 1 ? hidden + "px" : "";
    }
    view.addEventListener("resize", place);
    view.addEventListener("scroll", place);
  }

  // --- The page without a connection ---------------------------------------------------
  // A service worker (static/js/entry-sw.js, served at /t/sw.js) keeps the last page
  // of this table and its files. It needs a secure context (https, or localhost): on
  // the club laptop's plain http there is none, and the queue above still keeps the
  // hands; a reload without a connection then shows the browser's offline page.
  function offlineShell(config) {
    if (!("serviceWorker" in navigator)) return;
    var controlled = !!navigator.serviceWorker.controller;
    function ready() { document.documentElement.setAttribute("data-offline-ready", ""); }
    navigator.serviceWorker.register(config.swUrl, { scope: config.swScope })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        if (controlled) { ready(); return; } // this page came through the worker: it is kept
        var urls = [config.pageUrl];
        document.querySelectorAll("link[rel=stylesheet][href], script[src]").forEach(function (node) {
          urls.push(node.href || node.src);
        });
        var channel = new MessageChannel();
        channel.port1.onmessage = function (event) { if (event.data === "cached") ready(); };
        registration.active.postMessage({ type: "cache", urls: urls }, [channel.port2]);
      })
      .catch(function () { /* no worker: the queue still keeps the hands */ });
  }

  // The evening overview: new numbers every 15 s; a screen reader hears only the tables
  // that changed (the live region beside the table), never the whole table again.
  function refresher(section) {
    var url = section.dataset.refreshUrl;
    var news = document.getElementById(section.dataset.news || "");
    function rows(root) {
      var seen = {};
      root.querySelectorAll("tr[id]").forEach(function (row) {
        var cells = row.querySelectorAll("td.hands, td .badge, td.num");
        seen[row.id] = { row: row, text: Array.prototype.map.call(cells, function (cell) { return cell.textContent.trim(); }).join(" ") };
      });
      return seen;
    }
    function describe(row) {
      var wrap = row.closest(".table-wrap"), head = row.closest("table").querySelector("thead th");
      var badge = row.querySelector("td .badge"), hands = row.querySelector("td.hands");
      return [wrap && wrap.getAttribute("aria-label"), (head ? head.textContent.trim() + " " : "") + row.querySelector("th").textContent.trim()]
        .filter(Boolean).join(", ") + ": " + [hands && hands.textContent.trim(), badge && badge.textContent.trim()].filter(Boolean).join(", ");
    }
    setInterval(function () {
      if (document.hidden || section.contains(document.activeElement)) return;
      fetch(url, { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (html === null) return;
          var fresh = document.createElement("div");
          fresh.innerHTML = html;
          var before = rows(section), after = rows(fresh), changed = [];
          Object.keys(after).forEach(function (id) {
            if (!before[id] || before[id].text !== after[id].text) changed.push(describe(after[id].row));
          });
          if (!changed.length && Object.keys(before).length === Object.keys(after).length) {
            var summary = section.querySelector(".summary"), newer = fresh.querySelector(".summary");
            if (summary && newer) summary.innerHTML = newer.innerHTML; // only the time
            return;
          }
          section.innerHTML = html;
          if (news) news.textContent = changed.join(". ");
        })
        .catch(function () { /* try again in 15 s */ });
    }, 15000);
  }

  var hand = document.getElementById("hand-form");
  var config = document.getElementById("entry-config");
  config = config && window.fetch && window.JSON ? JSON.parse(config.textContent) : null;
  if (hand) handForm(hand, !!config);
  if (config) {
    phoneQueue(config, hand);
    offlineShell(config);
  }
  document.querySelectorAll("[data-refresh-url]").forEach(refresher);
})();
