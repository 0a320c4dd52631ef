// The hand form of the table's page, made quicker (the page works as a plain form
// without it): roem buttons (or, for declared roem, buttons that write what each
// team declared: "50+20+stuk"), the other team's card points filled in (162 minus),
// pit fills 162, verzaakt empties the card points (162/0 follow) and pit, a live
// preview of what each team banks, no double submit; the roefel (hand 1 of a roefel
// game) keeps its team and clubs fixed.
//
// window.EntryForm.start(node, options) sets the form up. Without options.queued
// the form posts as a plain form (once) and start returns null. With it, start
// returns what the phone's queue (queue.js) may do with the form:
//   onSave(callback)       a submit is checked here (the shape: the server checks the
//                          rules) and a hand that passes goes to callback(hand)
//   fill(hand | null)      the form holds that hand, or is empty for the next one
//   snapshot(), restore(s) what the scorer had typed, taken and given back
//   showProblems(list)     [[field name, message], ...] next to their fields
//   edited()               typed in since the last fill
//   forHand(number, roefel) the hand's number, the roefel's choices locked or not
//   setVersion(version)    the game's version as the page last saw it
//   hide(hidden)           shown or not (nothing new behind a refused hand)
//   hideKeeper(), dropKeeper() the scorer's team is known / stored
//   focusNext()            on to the next hand's first choice
//   saveButton             the Save button (its label says the hand's number)
(function () {
  "use strict";
  var TOTAL = 162;
  var gettext = window.gettext || function (text) { return text; };

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

  // A row of buttons (shown only with this script) that writes into its field
  // (data-for) as if typed: write(button, value) gives the field's new value.
  function writeButtons(form, selector, write) {
    form.querySelectorAll(selector).forEach(function (group) {
      var input = document.getElementById(group.dataset.for);
      group.hidden = false;
      group.addEventListener("click", function (event) {
        var button = event.target.closest("button");
        if (!button || !input) return;
        input.value = write(button, input.value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
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

  function start(form, options) {
    var queued = !!(options && options.queued);
    var saved = function () {}; // the queue's, once it has started (onSave)
    var a = form.querySelector("[name=points_a]");
    var b = form.querySelector("[name=points_b]");
    var output = form.querySelector("output.preview");
    var save = form.querySelector("button.save");
    var timer = null;
    var asked = 0;
    var dirty = false; // typed in since the form was last filled
    pairPoints(a, b);

    // Roem buttons add to the team's roem (or set it).
    writeButtons(form, ".roem-buttons", function (button, value) {
      return button.dataset.set !== undefined ? button.dataset.set : String((whole(value) || 0) + parseInt(button.dataset.add, 10));
    });
    // Declared roem (match-1500): each button adds a run or stuk to the team's
    // written declarations ("50+20+stuk"); the server counts them in the preview.
    writeButtons(form, ".declare-buttons", function (button, value) {
      var item = button.dataset.declare, now = value.trim();
      return !item ? "" : now ? now + "+" + item : item;
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
    function previewAfresh() {
      clearTimeout(timer);
      ++asked; // an answer still on its way is for what the form held before
      if (!output) return;
      output.classList.remove("is-nat", "is-error");
      output.textContent = "";
      if (a.value || b.value) timer = setTimeout(preview, 50);
    }

    if (!queued) {
      form.addEventListener("submit", function (event) {
        if (form.dataset.sending) { event.preventDefault(); return; }
        form.dataset.sending = "1";
        if (save) setTimeout(function () { save.disabled = true; }, 0);
      });
      window.addEventListener("pageshow", function () {
        form.dataset.sending = "";
        if (save) save.disabled = false;
      });
      return null;
    }

    // --- Read, check the shape (the server checks the rules), reset.
    function field(name) { return form.querySelector("[name=" + name + "]"); }
    function keeperAsked() {
      var keeper = form.querySelector("fieldset.keeper");
      return keeper && !keeper.hidden ? keeper : null;
    }
    // The hand as entered; its keeper is "" when none is chosen here (the queue knows the last one).
    function read() {
      var data = new FormData(form), problems = [];
      function number(name) {
        var value = (data.get(name) || "").trim();
        if (value === "") return null;
        if (!/^\d{1,4}$/.test(value)) { problems.push([name, gettext("Enter a whole number.")]); return 0; }
        return parseInt(value, 10);
      }
      var hand = {
        keeper: data.get("keeper") || "", playing: data.get("playing") || "",
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
      var general = [];
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
      note = document.createElement("p");
      note.className = "field-error";
      note.textContent = message;
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
      previewAfresh(); // the live result of what the form holds now
      dirty = false;
    }

    // The next hand: the team that played first (the card points when the roefel
    // fixes it), without moving the page.
    function focusNext() {
      if (form.hidden) return;
      var team = form.querySelector("[name=playing]:not(:disabled):not([data-roefel-locked])");
      var locked = form.querySelector("[name=playing][data-roefel-locked]:disabled");
      var target = locked ? field("points_a") : team;
      if (target) target.focus({ preventScroll: true });
    }

    form.addEventListener("input", function () { dirty = true; });
    form.addEventListener("change", function () { dirty = true; });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var entered = read();
      if (entered.problems.length) { showProblems(entered.problems); return; }
      saved(entered.hand);
    });
    form.addEventListener("input", clearOnChange);
    form.addEventListener("change", clearOnChange);
    // After a plain form's save (the page without this script came back at #hand-form):
    // the next hand's team, at the top of the page.
    if (location.hash === "#hand-form") {
      window.addEventListener("load", function () { window.scrollTo(0, 0); focusNext(); });
    }
    keepBarInView();

    return {
      onSave: function (callback) { saved = callback; },
      saveButton: save,
      fill: fill,
      snapshot: snapshot,
      restore: restore,
      showProblems: showProblems,
      edited: function () { return dirty; },
      forHand: function (number, roefel) {
        field("number").value = String(number);
        lockRoefel(form, roefel);
      },
      setVersion: function (version) {
        var input = field("version");
        if (input) input.value = String(version);
      },
      hide: function (hidden) { form.hidden = hidden; },
      hideKeeper: function () {
        var keeper = form.querySelector("fieldset.keeper");
        if (keeper) keeper.hidden = true;
      },
      dropKeeper: function () {
        var keeper = form.querySelector("fieldset.keeper");
        if (keeper) keeper.remove();
      },
      focusNext: focusNext,
    };
  }

  window.EntryForm = { start: start };
})();
