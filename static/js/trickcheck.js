// The trick checker's page: taps in, verdicts out. All rules are in
// trickcheck-core.js; this file only keeps the state and draws it. Nothing goes
// to the server while tapping: the state lives in the page (and in localStorage,
// so a reload keeps the hand).
(function () {
  "use strict";
  var C = window.TrickCheckCore;
  var root = document.getElementById("trickcheck");
  var dataNode = document.getElementById("ruleset");
  if (!C || !root || !dataNode) return;
  var data = JSON.parse(dataNode.textContent);

  // Django's JavaScript catalog (jsi18n) defines gettext and pgettext; English without it.
  var gettext = typeof window.gettext === "function" ? window.gettext : function (text) { return text; };
  var pgettext = typeof window.pgettext === "function" ? window.pgettext : function (context, text) { return text; };
  var ngettext = typeof window.ngettext === "function" ? window.ngettext
    : function (one, many, count) { return count === 1 ? one : many; };
  function f(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      var value = attrs[key];
      if (value === null || value === undefined || value === false) return;
      if (key === "text") node.textContent = value;
      else if (key === "className") node.className = value;
      else if (key === "dataset") Object.keys(value).forEach(function (k) { node.dataset[k] = value[k]; });
      else node.setAttribute(key, value === true ? "" : value);
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function $(id) { return document.getElementById(id); }

  var SEAT_LETTERS = ["N", "E", "S", "W"];
  function suitName(suit) {
    return [gettext("clubs"), gettext("diamonds"), gettext("hearts"), gettext("spades")][suit];
  }
  var table = data.table;
  var rulesets = {};
  data.rulesets.forEach(function (r) { rulesets[r.key] = r; });

  // --- State ---------------------------------------------------------------------
  // One saved hand per page (and per hand of a table's game).
  var KEY = "trickcheck:" + location.pathname + location.search + (table && table.hand ? ":" + table.hand : "");
  function fresh() {
    return {
      rules: data.selected, trump: null, leader: table && table.leader !== null ? table.leader : null,
      playing: null, plays: [], roemTrump: null, roemCards: [], tab: "hand",
    };
  }
  var state = fresh();
  try {
    var saved = JSON.parse(localStorage.getItem(KEY) || "null");
    if (saved && Array.isArray(saved.plays)) state = Object.assign(state, saved);
  } catch (e) { /* no storage: the page still works */ }
  // Whatever was saved, keep only what can be: 0..3 for a suit or seat, distinct cards.
  function oneOf(value, count) { return Number.isInteger(value) && value >= 0 && value < count ? value : null; }
  function cards(list, most) {
    return (Array.isArray(list) ? list : []).filter(function (c, i, all) {
      return oneOf(c, 32) !== null && all.indexOf(c) === i;
    }).slice(0, most);
  }
  state.trump = oneOf(state.trump, 4);
  state.leader = oneOf(state.leader, 4);
  state.roemTrump = oneOf(state.roemTrump, 4);
  state.playing = state.playing === "A" || state.playing === "B" ? state.playing : null;
  state.plays = cards(state.plays, 32);
  state.roemCards = cards(state.roemCards, 4);
  if (data.fixed || !rulesets[state.rules]) state.rules = data.selected;
  if (location.hash === "#roem") state.tab = "roem";
  function save() {
    try { localStorage.setItem(KEY, JSON.stringify(state)); } catch (e) { /* private mode */ }
  }

  function ruleset() { return rulesets[state.rules]; }
  function amsterdam() { return ruleset().play_rule === "amsterdam"; }

  // --- Words ---------------------------------------------------------------------
  function seatLetter(seat) {
    return [pgettext("seat", "N"), pgettext("seat", "E"), pgettext("seat", "S"), pgettext("seat", "W")][seat];
  }
  function playerName(seat) { return table && table.names[String(seat)] ? table.names[String(seat)] : ""; }
  function seatLabel(seat) {
    var name = playerName(seat);
    return name ? C.seatName(seat) + " (" + name + ")" : C.seatName(seat);
  }
  function teamLabel(team) { return team === "A" ? gettext("wij") : gettext("zij"); }
  function teamOf(seat) { return C.teamOfSeat(seat); }
  function isRed(card) { var s = card >> 3; return s === 1 || s === 2; }
  function cardNode(card, className) {
    return el("span", { className: (className || "card-label") + (isRed(card) ? " red" : "") }, [C.cardLabel(card)]);
  }
  function suitNode(suit) {
    return el("span", { className: "suit" + (suit === 1 || suit === 2 ? " red" : "") }, [C.SUIT_SYMBOLS[suit]]);
  }
  function evidenceText(evidence) {
    return evidence.map(function (e) {
      return f(gettext("%(card)s (played in trick %(trick)s)"), { card: C.cardLabel(e.card), trick: e.trick });
    }).join(", ");
  }

  // --- Setup: rule set, trump, first lead, who played ------------------------------
  function playRuleText() {
    var r = ruleset();
    var parts = [r.play_rule === "amsterdam"
      ? gettext("Play rule: Amsterdam. Void in the led suit, you need not trump while your partner wins the trick (but not undertrump your partner's trump while holding another card); against an opponent you must trump and overtrump, and if you cannot overtrump you discard rather than undertrump.")
      : gettext("Play rule: Rotterdam. Void in the led suit, you must trump, even when your partner wins the trick, and overtrump when you can; if you cannot, you still trump.")];
    if (r.roem_rule === "declared") {
      parts.push(gettext("Roem is declared from the hand under this rule set: the checker counts it from the eight cards each player played, once the hand is complete."));
    }
    return parts.join(" ");
  }

  function segButton(attrs, label, sub, pressed) {
    attrs.type = "button";
    attrs["aria-pressed"] = pressed ? "true" : "false";
    return el("button", attrs, [label, sub ? el("small", {}, [sub]) : null]);
  }

  function drawSetup() {
    var select = $("tc-rules");
    if (select && !select.options.length) {
      data.rulesets.forEach(function (r) { select.appendChild(el("option", { value: r.key, text: r.label })); });
      select.addEventListener("change", function () { state.rules = select.value; save(); draw(); });
    }
    if (select) select.value = state.rules;
    var label = $("tc-rules-label");
    if (label) label.textContent = ruleset().label;
    $("tc-play-rule").textContent = playRuleText();

    var summary = $("tc-setup-summary");
    summary.textContent = "";
    if (state.trump === null || state.leader === null) {
      summary.appendChild(document.createTextNode(gettext("Trump, first lead and who played")));
    } else {
      summary.appendChild(suitNode(state.trump));
      summary.appendChild(document.createTextNode(" " + gettext("trump") + " · " + f(gettext("%(seat)s leads"), { seat: C.seatName(state.leader) }) + " · "
        + (state.playing ? f(gettext("%(team)s played"), { team: teamLabel(state.playing) }) : gettext("who played?"))));
      summary.appendChild(el("span", { className: "muted tc-setup-rules" }, [ruleset().label]));
    }

    var trump = $("tc-trump");
    trump.textContent = "";
    for (var s = 0; s < 4; s++) {
      trump.appendChild(segButton(
        { dataset: { trump: C.SUIT_LETTERS[s] }, "aria-label": suitName(s) },
        suitNode(s), suitName(s), state.trump === s));
    }
    var leader = $("tc-leader");
    leader.textContent = "";
    drawLeaders(leader);
    var playing = $("tc-playing");
    playing.textContent = "";
    ["A", "B"].forEach(function (team) {
      playing.appendChild(segButton(
        { dataset: { playing: team }, className: team === "B" ? "team-b" : "team-a" },
        teamLabel(team), team === "A" ? gettext("North + South") : gettext("East + West"), state.playing === team));
    });
  }
  function drawLeaders(leader) {
    for (var seat = 0; seat < 4; seat++) {
      leader.appendChild(segButton(
        { dataset: { leader: String(seat) }, "aria-label": seatLabel(seat) },
        C.seatName(seat), playerName(seat) || teamLabel(teamOf(seat)), state.leader === seat));
    }
  }

  // --- The tricks ------------------------------------------------------------------
  function analyse() {
    var r = ruleset();
    return C.analyseHand({
      trump: state.trump, leader: state.leader, plays: state.plays, amsterdam: amsterdam(),
      ruleset: r, roem_rule: r.roem_rule, playing: state.playing,
    });
  }

  function renegeText(trick, verdict) {
    return f(gettext("Renege (verzaakt) by %(seat)s with %(card)s in trick %(trick)s."), {
      seat: seatLabel(verdict.seat), card: C.cardLabel(verdict.card), trick: trick.number,
    }) + " " + verdict.ruleText + " " + f(gettext("%(seat)s still held %(cards)s."), {
      seat: C.seatName(verdict.seat), cards: evidenceText(verdict.evidence),
    });
  }

  function drawTrick(trick, declared) {
    var reneges = trick.verdicts.filter(function (v) { return v.status === "renege"; });
    var plays = el("ol", { className: "tc-plays" });
    for (var i = 0; i < 4; i++) {
      var seat = (trick.leader + i) % 4;
      var verdict = trick.verdicts[i];
      if (!verdict) {
        plays.appendChild(el("li", { className: "tc-play empty" }, [
          el("span", { className: "seat" }, [seatLetter(seat)]), el("span", { className: "card-label" }, ["·"]),
        ]));
        continue;
      }
      var mark = verdict.status === "legal" ? "✓ " + gettext("legal")
        : verdict.status === "renege" ? "✗ " + gettext("renege") : "✓ " + gettext("so far");
      plays.appendChild(el("li", {
        className: "tc-play " + verdict.status + (trick.winner === seat ? " winner" : "") + (teamOf(seat) === "B" ? " team-b" : ""),
        dataset: { seat: SEAT_LETTERS[seat], card: C.cardCode(verdict.card), verdict: verdict.status },
      }, [
        el("span", { className: "seat" }, [seatLetter(seat) + (playerName(seat) ? " " + playerName(seat) : "")]),
        cardNode(verdict.card),
        el("span", { className: "mark" }, [mark]),
      ]));
    }
    var lines = [];
    var team = teamOf(trick.winner);
    if (trick.complete) {
      var pointsText = trick.number === 8
        ? f(gettext("%(points)s points, 10 of them for the last trick"), { points: trick.points })
        : f(gettext("%(points)s points"), { points: trick.points });
      lines.push(el("p", { className: "tc-line result", dataset: { winner: SEAT_LETTERS[trick.winner] } }, [
        el("strong", {}, [f(gettext("%(seat)s wins"), { seat: seatLabel(trick.winner) })]),
        " · " + teamLabel(team) + " · ",
        el("span", { className: "tc-points", dataset: { points: String(trick.points) } }, [pointsText]),
      ]));
    } else {
      lines.push(el("p", { className: "tc-line result" }, [f(gettext("%(seat)s is winning so far"), { seat: seatLabel(trick.winner) })]));
    }
    if (declared) {
      if (trick.complete) {
        lines.push(el("p", { className: "tc-line no-roem", dataset: { roem: "0" } }, [
          gettext("Roem is declared from the hands under this rule set: see the hand's result."),
        ]));
      }
    } else if (trick.roem) {
      var roemText = trick.complete
        ? f(gettext("Roem %(roem)s for %(team)s: %(reason)s"), { roem: trick.roem, team: teamLabel(team), reason: trick.roemText })
        : f(gettext("Roem so far %(roem)s: %(reason)s"), { roem: trick.roem, reason: trick.roemText });
      lines.push(el("p", { className: "tc-line roem", dataset: { roem: String(trick.roem) } }, [roemText]));
    } else if (trick.complete) {
      lines.push(el("p", { className: "tc-line no-roem", dataset: { roem: "0" } }, [gettext("No roem")]));
    }
    reneges.forEach(function (v) {
      lines.push(el("p", { className: "tc-line renege", dataset: { renege: SEAT_LETTERS[v.seat], rule: v.rule } }, [renegeText(trick, v)]));
    });
    if (!reneges.length && trick.complete) {
      var allLegal = trick.verdicts.every(function (v) { return v.status === "legal"; });
      lines.push(allLegal
        ? el("p", { className: "tc-line ok" }, [gettext("All four cards legal.")])
        : el("p", { className: "tc-line open" }, [gettext("No renege shown so far; later cards can still show one.")]));
    }
    return el("li", { className: "tc-trick" + (reneges.length ? " has-renege" : ""), dataset: { trick: String(trick.number) } }, [
      el("div", { className: "tc-trick-head" }, [
        el("strong", {}, [f(gettext("Trick %(number)s"), { number: trick.number })]),
        el("span", {}, [f(gettext("%(seat)s leads"), { seat: seatLabel(trick.leader) })]),
      ]),
      plays,
    ].concat(lines));
  }

  // --- The card picker ---------------------------------------------------------------
  function drawGrid(container, chosen, disabled, attr) {
    container.textContent = "";
    for (var s = 0; s < 4; s++) {
      var row = el("div", { className: "tc-row" + (s === (attr === "roem" ? state.roemTrump : state.trump) ? " trump" : "") });
      for (var r = 0; r < 8; r++) {
        var card = s * 8 + r;
        var used = chosen.indexOf(card) >= 0;
        row.appendChild(el("button", {
          type: "button",
          className: (isRed(card) ? "red" : "") + (used && attr === "roem" ? " chosen" : ""),
          dataset: { card: C.cardCode(card) },
          "aria-label": C.cardLabel(card),
          disabled: disabled || (used && attr !== "roem"),
          "aria-pressed": attr === "roem" ? (used ? "true" : "false") : null,
        }, [C.rankLabel(r), el("span", { className: "suit" }, [C.SUIT_SYMBOLS[s]])]));
      }
      container.appendChild(row);
    }
  }

  function drawPicker(analysis) {
    var prompt = $("tc-prompt");
    var ready = state.trump !== null && state.leader !== null;
    if (state.trump === null) prompt.textContent = gettext("Choose trump first.");
    else if (state.leader === null) prompt.textContent = gettext("Who leads the first trick? Choose the first lead.");
    else if (analysis.complete) prompt.textContent = gettext("All eight tricks are in.");
    else {
      var next = analysis.next;
      prompt.textContent = f(gettext("Trick %(number)s: %(seat)s to play"), { number: next.trick, seat: seatLabel(next.seat) });
    }
    prompt.dataset.next = analysis.next && ready ? SEAT_LETTERS[analysis.next.seat] : "";
    $("tc-grid").hidden = analysis.complete;
    drawGrid($("tc-grid"), state.plays, !ready || analysis.complete, "hand");
    $("tc-undo").disabled = !state.plays.length;
  }

  // --- The hand's result ---------------------------------------------------------------
  function entryUrl(params) {
    if (table.hand) params.push(["hand", table.hand]);
    return table.entry_url + "?" + params.map(function (p) {
      return encodeURIComponent(p[0]) + "=" + encodeURIComponent(p[1]);
    }).join("&");
  }

  function copyUrl(analysis) {
    return entryUrl(withDeclarations(analysis, [
      ["playing", state.playing],
      ["points_a", analysis.points[0]],
      ["points_b", analysis.points[1]],
      ["roem_a", analysis.roem[0]],
      ["roem_b", analysis.roem[1]],
      ["pit", analysis.pit || ""],
      ["trump", C.SUIT_LETTERS[state.trump]],
    ]));
  }

  // Declared roem: the declarations that count, as the entry page writes them.
  function withDeclarations(analysis, params) {
    if (analysis.declarations) {
      params.push(["declared_a", declaredText(analysis.declarations.A)]);
      params.push(["declared_b", declaredText(analysis.declarations.B)]);
    }
    return params;
  }

  // A renege ends the hand in verzaken: the entry page opens with the offending team
  // as verzaakt and the roem of the tricks so far (all of it goes to the other team);
  // the card points follow there (162 for the other team).
  function verzakenUrl(analysis, team) {
    var params = [
      ["verzaakt", team],
      ["roem_a", analysis.roem[0]],
      ["roem_b", analysis.roem[1]],
      ["trump", C.SUIT_LETTERS[state.trump]],
    ];
    if (state.playing) params.unshift(["playing", state.playing]);
    return entryUrl(withDeclarations(analysis, params));
  }

  function drawVerzaken(analysis) {
    var box = $("tc-verzaken");
    if (!box) {
      box = el("div", { className: "tc-verzaken", id: "tc-verzaken" });
      var alert = $("tc-alert");
      alert.parentNode.insertBefore(box, alert.nextSibling);
    }
    box.textContent = "";
    var first = analysis.reneges[0];
    box.hidden = !(first && table && table.can_copy);
    if (box.hidden) return;
    var team = teamOf(first.verdict.seat);
    box.appendChild(el("a", { className: "button tc-record-verzaken", href: verzakenUrl(analysis, team), id: "tc-record-verzaken", dataset: { team: team } }, [
      table.hand
        ? f(gettext("Record hand %(number)s as verzaken by %(team)s"), { number: table.hand, team: teamLabel(team) })
        : f(gettext("Record as verzaken by %(team)s"), { team: teamLabel(team) }),
    ]));
    box.appendChild(el("p", { className: "muted" }, [
      gettext("The first renege ends the hand: the other team gets 162 + all roem + the penalty. The score entry opens filled in; you still check and save it there."),
    ]));
  }

  /** "50+20+stuk": runs by points from high to low, then stuk (format_declarations). */
  function declaredText(items) {
    var runs = [], stuk = false;
    (items || []).forEach(function (item) {
      if (item.kind === "stuk") stuk = true;
      else runs.push(item.points);
    });
    runs.sort(function (x, y) { return y - x; });
    if (stuk) runs.push("stuk");
    return runs.join("+");
  }

  function sideText(points, roem, basis) {
    if (basis === "card_points") return f(gettext("%(points)s card points"), { points: points });
    return roem ? f(gettext("%(points)s + %(roem)s roem = %(total)s"), { points: points, roem: roem, total: points + roem })
      : String(points);
  }

  function drawSummary(analysis) {
    var box = $("tc-summary");
    box.hidden = !analysis.complete;
    box.textContent = "";
    if (!analysis.complete) return;
    var r = ruleset();
    var result = analysis.result;
    function row(label, a, b, className, key) {
      return el("tr", { className: className || "", dataset: key ? { row: key } : {} }, [
        el("th", { scope: "row" }, [label]),
        el("td", { className: "wij", dataset: { team: "A" } }, [String(a)]),
        el("td", { className: "zij", dataset: { team: "B" } }, [String(b)]),
      ]);
    }
    var rows = [
      row(gettext("Card points"), analysis.points[0], analysis.points[1], "", "points"),
      row(gettext("Roem"), analysis.roem[0], analysis.roem[1], "", "roem"),
      row(gettext("Tricks"), analysis.tricksWon[0], analysis.tricksWon[1], "", "tricks"),
      row(gettext("Pit (mars)"), analysis.pit === "A" ? "+" + r.pit_bonus : "", analysis.pit === "B" ? "+" + r.pit_bonus : "", "", "pit"),
    ];
    if (result) rows.push(row(gettext("Banked"), result.scores[0], result.scores[1], "banked", "banked"));
    box.appendChild(el("h2", {}, [gettext("The hand")]));
    box.appendChild(el("table", { className: "tc-score" }, [
      el("thead", {}, [el("tr", {}, [
        el("th", {}, [""]),
        el("th", { className: "wij", scope: "col" }, [gettext("wij") + " (" + gettext("N + S") + ")"]),
        el("th", { className: "zij", scope: "col" }, [gettext("zij") + " (" + gettext("E + W") + ")"]),
      ])]),
      el("tbody", {}, rows),
    ]));
    box.appendChild(el("p", { className: "muted" }, [
      f(gettext("Card points together: %(total)s (152 in the cards + 10 for the last trick)."), { total: analysis.points[0] + analysis.points[1] }),
    ]));
    if (analysis.declarations) {
      ["A", "B"].forEach(function (team) {
        var items = analysis.declarations[team];
        if (items.length) {
          box.appendChild(el("p", {}, [f(gettext("Declared by %(team)s: %(reason)s"), { team: teamLabel(team), reason: C.describeRoem(items) })]));
        }
      });
    }
    if (!result) {
      box.appendChild(el("p", { className: "tc-outcome" }, [gettext("Choose who played (named trump) to see whether the hand was made or nat, and what each team banks.")]));
      return;
    }
    var own = state.playing === "A" ? 0 : 1;
    var playing = teamLabel(state.playing);
    var defenders = teamLabel(state.playing === "A" ? "B" : "A");
    var ownText = sideText(analysis.points[own], analysis.roem[own], r.nat_basis);
    var otherText = sideText(analysis.points[1 - own], analysis.roem[1 - own], r.nat_basis);
    var outcome = result.nat
      ? f(gettext("NAT: %(team)s played and did not get more than %(defenders)s: %(own)s against %(other)s."), { team: playing, defenders: defenders, own: ownText, other: otherText })
      : f(gettext("Made: %(team)s played and got more than %(defenders)s: %(own)s against %(other)s."), { team: playing, defenders: defenders, own: ownText, other: otherText });
    box.appendChild(el("p", { className: "tc-outcome " + result.outcome, dataset: { outcome: result.outcome } }, [outcome]));
    box.appendChild(el("p", { className: "tc-banked" }, [
      f(gettext("%(a_team)s bank %(a)s, %(b_team)s bank %(b)s."), { a_team: gettext("wij"), a: result.scores[0], b_team: gettext("zij"), b: result.scores[1] }),
    ]));
    if (analysis.pit) {
      box.appendChild(el("p", { className: "pit" }, [f(gettext("Pit (mars) for %(team)s: all eight tricks, +%(bonus)s."), { team: teamLabel(analysis.pit), bonus: r.pit_bonus })]));
    }
    var last = analysis.tricks[7];
    var lastTeam = teamOf(last.winner);
    var lastText = f(gettext("The last trick (%(points)s points with the 10 for the last trick) went to %(seat)s, %(team)s."), {
      points: last.points, seat: seatLabel(last.winner), team: teamLabel(lastTeam),
    });
    if (analysis.lastTrickDecides) {
      var values = { team: playing, other: teamLabel(lastTeam === "A" ? "B" : "A") };
      lastText += " " + (result.nat
        ? f(gettext("It decided the hand: had %(other)s taken the last trick, %(team)s would have made it."), values)
        : f(gettext("It decided the hand: had %(other)s taken the last trick, %(team)s would have been nat."), values));
    }
    box.appendChild(el("p", { className: "tc-last", dataset: { decides: analysis.lastTrickDecides ? "yes" : "no" } }, [lastText]));
    if (analysis.reneges.length) {
      box.appendChild(el("p", { className: "tc-warning" }, [
        f(ngettext(
          "%(count)s renege shown above. The score here is the hand as played; the penalty for verzaken is the tournament director's call.",
          "%(count)s reneges shown above. The score here is the hand as played; the penalty for verzaken is the tournament director's call.",
          analysis.reneges.length), { count: analysis.reneges.length }),
      ]));
    }
    if (table && table.can_copy) {
      box.appendChild(el("a", { className: "button primary tc-copy", href: copyUrl(analysis), id: "tc-copy" }, [
        table.hand ? f(gettext("Copy into the score entry of hand %(number)s"), { number: table.hand }) : gettext("Copy into the score entry"),
      ]));
      box.appendChild(el("p", { className: "muted" }, [gettext("The score entry opens filled in; you still check and save the hand there.")]));
    }
  }

  // --- The roem calculator -----------------------------------------------------------
  function drawRoem() {
    var trump = $("tc-roem-trump");
    trump.textContent = "";
    for (var s = 0; s < 4; s++) {
      trump.appendChild(segButton({ dataset: { roemTrump: C.SUIT_LETTERS[s] }, "aria-label": suitName(s) },
        suitNode(s), suitName(s), state.roemTrump === s));
    }
    var slots = $("tc-roem-cards");
    slots.textContent = "";
    for (var i = 0; i < 4; i++) {
      var card = state.roemCards[i];
      slots.appendChild(el("li", {}, [card === undefined
        ? el("span", { className: "empty" }, [String(i + 1)])
        : el("button", { type: "button", className: isRed(card) ? "red" : "", dataset: { remove: C.cardCode(card) },
          "aria-label": f(gettext("Remove %(card)s"), { card: C.cardLabel(card) }) }, [C.cardLabel(card)])]));
    }
    var out = $("tc-roem-result");
    out.className = "tc-roem-result";
    out.dataset.roem = "";
    if (state.roemTrump === null) out.textContent = gettext("Choose trump (for stuk).");
    else if (state.roemCards.length < 4) {
      out.textContent = f(gettext("%(count)s of 4 cards"), { count: state.roemCards.length });
    } else {
      var items = C.trickRoemDetail(state.roemCards, state.roemTrump, ruleset().low_fours);
      var roem = C.trickRoem(state.roemCards, state.roemTrump, ruleset().low_fours);
      out.dataset.roem = String(roem);
      if (roem) {
        out.classList.add("has-roem");
        out.textContent = f(gettext("Roem %(roem)s: %(reason)s"), { roem: roem, reason: C.describeRoem(items) });
      } else {
        out.textContent = gettext("No roem in these four cards.");
      }
    }
    drawGrid($("tc-roem-grid"), state.roemCards, state.roemTrump === null, "roem");
  }

  // --- Tabs and drawing ------------------------------------------------------------
  function drawTabs() {
    var roem = state.tab === "roem";
    $("tc-tab-hand").setAttribute("aria-selected", roem ? "false" : "true");
    $("tc-tab-roem").setAttribute("aria-selected", roem ? "true" : "false");
    $("tc-panel-hand").hidden = roem;
    $("tc-panel-roem").hidden = !roem;
  }

  var knownReneges = [];
  function draw(tapped) {
    drawTabs();
    drawSetup();
    var analysis = state.trump !== null && state.leader !== null
      ? analyse()
      : { tricks: [], next: null, complete: false, reneges: [] };
    var list = $("tc-tricks");
    list.textContent = "";
    // The latest trick first: it sits right under the picker while tapping.
    analysis.tricks.slice().reverse().forEach(function (trick) {
      list.appendChild(drawTrick(trick, ruleset().roem_rule === "declared"));
    });
    drawPicker(analysis);
    drawSummary(analysis);
    drawVerzaken(analysis);
    drawRoem();
    // A tap that proves an earlier renege says so where the thumb is.
    var alert = $("tc-alert");
    var keys = analysis.reneges.map(function (r) { return r.trick + ":" + r.verdict.seat; });
    var found = analysis.reneges.filter(function (r, i) { return knownReneges.indexOf(keys[i]) < 0; });
    if (tapped && found.length) {
      alert.textContent = found.map(function (r) { return renegeText(analysis.tricks[r.trick - 1], r.verdict); }).join(" ");
      alert.hidden = false;
    } else if (tapped !== undefined) {
      alert.hidden = true;
    }
    knownReneges = keys;
  }

  // --- Taps ----------------------------------------------------------------------------
  root.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || !root.contains(button)) return;
    var d = button.dataset;
    var tapped = false;
    if (button.id === "tc-tab-hand" || button.id === "tc-tab-roem") {
      state.tab = button.id === "tc-tab-roem" ? "roem" : "hand";
      if (state.tab === "roem" && state.roemTrump === null) state.roemTrump = state.trump;
    } else if (d.trump) {
      state.trump = C.SUIT_LETTERS.indexOf(d.trump);
    } else if (d.leader) {
      state.leader = parseInt(d.leader, 10);
    } else if (d.playing) {
      state.playing = d.playing;
    } else if (d.roemTrump) {
      state.roemTrump = C.SUIT_LETTERS.indexOf(d.roemTrump);
    } else if (d.remove) {
      var gone = C.parseCard(d.remove);
      state.roemCards = state.roemCards.filter(function (c) { return c !== gone; });
    } else if (d.card && button.closest("#tc-roem-grid")) {
      var card = C.parseCard(d.card);
      var at = state.roemCards.indexOf(card);
      if (at >= 0) state.roemCards.splice(at, 1);
      else if (state.roemCards.length < 4) state.roemCards.push(card);
    } else if (d.card && button.closest("#tc-grid")) {
      var played = C.parseCard(d.card);
      if (state.plays.indexOf(played) < 0 && state.plays.length < 32) {
        state.plays.push(played);
        tapped = true;
        // The first card folds the setup away: the phone's screen is for the cards now.
        if (state.plays.length === 1) $("tc-setup").open = false;
      }
    } else if (button.id === "tc-undo") {
      state.plays.pop();
    } else if (button.id === "tc-reset") {
      if (state.plays.length && !window.confirm(gettext("Start a new hand? The cards entered are cleared."))) return;
      var keep = { rules: state.rules, tab: state.tab, roemTrump: state.roemTrump, roemCards: state.roemCards };
      state = Object.assign(fresh(), keep);
      $("tc-setup").open = true;
    } else if (button.id === "tc-roem-clear") {
      state.roemCards = [];
    } else {
      return;
    }
    save();
    draw(tapped);
  });

  $("tc-setup").open = !state.plays.length;
  draw();

  // --- Offline: cache this page and its files for the service worker ---------------
  function offline(status) { root.dataset.offline = status; }
  if ("serviceWorker" in navigator && "caches" in window && root.dataset.sw) {
    navigator.serviceWorker.register(root.dataset.sw, { scope: root.dataset.swScope })
      .then(function () { return caches.open("trickcheck-v1"); })
      .then(function (cache) {
        var urls = [location.href];
        document.querySelectorAll("script[src], link[rel=stylesheet]").forEach(function (node) {
          urls.push(node.src || node.href);
        });
        return cache.addAll(urls);
      })
      .then(function () { offline("ready"); }, function () { offline("unavailable"); });
  } else {
    offline("unavailable");
  }
})();
