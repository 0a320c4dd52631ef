/* The trick checker's rules: a JavaScript twin of the scoring core (scoring/rules/).
 *
 * Plain ES2015, no dependencies, no build step. In the browser it attaches itself
 * as window.TrickCheckCore; under Node it is module.exports (the agreement test in
 * tests/scoring/trickcheck/ runs it on thousands of simulated deals and compares
 * every answer with the Python core).
 *
 * Vocabulary and encoding are the Python core's (scoring/rules/cards.py):
 *   a card is an int 0..31 = suit * 8 + rank; suits 0..3 = clubs, diamonds, hearts,
 *   spades; ranks 0..7 in the natural order 7 8 9 10 J Q K A. A card set is a
 *   32-bit mask (bit 1 << card). Seats 0..3 = North, East, South, West clockwise;
 *   team A (wij) is North + South, team B (zij) East + West.
 *
 * What "legal given what the player showed" means here
 * -----------------------------------------------------
 * The page only knows the cards that were played. The cards a player held when
 * playing to trick k are exactly the cards that player plays in tricks k, k+1, ...,
 * 8. So at any moment the player provably held, at trick k, at least the set
 *     shown(k) = the player's card in trick k + every card they played after it.
 * Every obligation of play is "if you hold a card of kind X you must play one":
 * follow suit, beat the highest trump on a trump lead, trump when void, overtrump,
 * and (Amsterdam) no undertrump while holding another card. Holding more cards only
 * adds obligations, never removes one (the agreement test checks this property on
 * the Python core's legal_cards), so:
 *   - a card is a PROVEN RENEGE (verzaakt) when it is not legal even for the
 *     smallest hand the player can have held, shown(k): legalMask(shown(k), ...)
 *     does not contain it. The cards of legalMask(shown(k)) are the evidence: the
 *     cards the player held then and had to play instead, each played later.
 *   - a card is LEGAL (final) once the player has played all eight cards: shown(k)
 *     is then the whole hand at that moment, and the verdict is exactly the core's
 *     legal_cards.
 *   - otherwise it is OPEN: no renege shown so far; a card the player plays later
 *     may still prove one (e.g. a diamond after failing to follow diamonds).
 * Nothing else is inferred: the page never guesses at cards nobody played.
 */
(function (root, factory) {
  "use strict";
  var core = factory(root);
  if (typeof module === "object" && module.exports) {
    module.exports = core;
  } else {
    root.TrickCheckCore = core;
  }
})(typeof self !== "undefined" ? self : this, function (root) {
  "use strict";

  // --- Translation: Django's JavaScript catalog (jsi18n) in the browser, English in
  // Node. Strings are literal gettext()/pgettext() calls so makemessages finds them.
  function gettext(text) {
    return root && typeof root.gettext === "function" ? root.gettext(text) : text;
  }
  function pgettext(context, text) {
    return root && typeof root.pgettext === "function" ? root.pgettext(context, text) : text;
  }
  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  // --- Cards -----------------------------------------------------------------------
  var SUIT_LETTERS = "CDHS";
  var SUIT_SYMBOLS = ["♣", "♦", "♥", "♠"];
  var RANK_LETTERS = "789TJQKA";
  var RANK_LABELS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
  var SEVEN = 0, NINE = 2, TEN = 3, JACK = 4, QUEEN = 5, KING = 6;

  // Trick-taking power, by natural rank: trumps J 9 A 10 K Q 8 7, plain A 10 K Q J 9 8 7.
  var TRUMP_POWER = [0, 1, 6, 4, 7, 2, 3, 5];
  var PLAIN_POWER = [0, 1, 2, 6, 3, 4, 5, 7];
  var TRUMP_POINTS = [0, 0, 14, 10, 20, 3, 4, 11];
  var PLAIN_POINTS = [0, 0, 0, 10, 2, 3, 4, 11];
  var LAST_TRICK_BONUS = 10;
  var HAND_TOTAL = 162;

  function suitOf(card) { return card >> 3; }
  function rankOf(card) { return card & 7; }
  function bit(card) { return (1 << card) >>> 0; }
  function suitMask(suit) { return (0xff << (8 * suit)) >>> 0; }
  function has(mask, card) { return ((mask >>> card) & 1) === 1; }

  function cardCode(card) { return RANK_LETTERS[rankOf(card)] + SUIT_LETTERS[suitOf(card)]; }
  function rankLabel(rank) {
    // Dutch players write B, V, H for the jack, queen and king.
    return [
      "7", "8", "9", "10",
      pgettext("card rank", "J"), pgettext("card rank", "Q"), pgettext("card rank", "K"), pgettext("card rank", "A"),
    ][rank];
  }
  function cardLabel(card) { return rankLabel(rankOf(card)) + SUIT_SYMBOLS[suitOf(card)]; }
  function parseCard(code) {
    var text = String(code).trim().toUpperCase().replace("10", "T");
    var rank = RANK_LETTERS.indexOf(text.charAt(0));
    var suitText = text.charAt(1);
    var suit = SUIT_LETTERS.indexOf(suitText);
    if (suit < 0) suit = SUIT_SYMBOLS.indexOf(suitText);
    if (rank < 0 || suit < 0 || text.length !== 2) throw new Error("not a card: " + code);
    return suit * 8 + rank;
  }
  function maskOf(cards) {
    var mask = 0;
    for (var i = 0; i < cards.length; i++) mask = (mask | bit(cards[i])) >>> 0;
    return mask;
  }
  function cardsOf(mask) {
    var out = [];
    for (var c = 0; c < 32; c++) if (has(mask, c)) out.push(c);
    return out;
  }

  function points(card, trump) {
    return (suitOf(card) === trump ? TRUMP_POINTS : PLAIN_POINTS)[rankOf(card)];
  }
  /** How strongly a card bids for a trick: trumps 9..16, the led suit 1..8, else 0. */
  function strength(card, trump, led) {
    var suit = suitOf(card);
    if (suit === trump) return 9 + TRUMP_POWER[rankOf(card)];
    if (suit === led) return 1 + PLAIN_POWER[rankOf(card)];
    return 0;
  }
  /** Mask of the trumps that beat ``card`` (a card of the trump suit). */
  function higherTrumps(card) {
    var mask = 0;
    var base = card & ~7;
    for (var r = 0; r < 8; r++) {
      if (TRUMP_POWER[r] > TRUMP_POWER[rankOf(card)]) mask = (mask | bit(base | r)) >>> 0;
    }
    return mask;
  }

  // --- Tricks ----------------------------------------------------------------------
  /** Index (0 = leader) of the card that takes the trick, or is winning so far. */
  function trickWinner(cards, trump) {
    var led = suitOf(cards[0]);
    var win = 0;
    var best = strength(cards[0], trump, led);
    for (var i = 1; i < cards.length; i++) {
      var s = strength(cards[i], trump, led);
      if (s > best) { best = s; win = i; }
    }
    return win;
  }
  /** Card points in the cards; never the 10 for the last trick. */
  function trickPoints(cards, trump) {
    var total = 0;
    for (var i = 0; i < cards.length; i++) total += points(cards[i], trump);
    return total;
  }

  var KIND_POINTS = {
    run_of_three: 20, run_of_four: 50, run_of_five_or_more: 100,
    stuk: 20, four_of_a_kind: 100, four_jacks: 200,
  };

  /** Maximal runs of three or more in one suit, low to high, suits in order. */
  function runsIn(cards) {
    var sorted = cards.slice().sort(function (a, b) { return a - b; });
    var runs = [];
    var start = 0;
    for (var i = 1; i <= sorted.length; i++) {
      if (i === sorted.length || sorted[i] !== sorted[i - 1] + 1 || suitOf(sorted[i]) !== suitOf(sorted[i - 1])) {
        if (i - start >= 3) runs.push(sorted.slice(start, i));
        start = i;
      }
    }
    return runs;
  }
  function stukIn(cards, trump) {
    var king = trump * 8 + KING, queen = trump * 8 + QUEEN;
    return cards.indexOf(king) >= 0 && cards.indexOf(queen) >= 0 ? [king, queen] : null;
  }
  function roemItem(kind, cards) {
    return { kind: kind, points: KIND_POINTS[kind], cards: cards };
  }

  /** The roem combinations in a trick (up to four distinct cards), as the core's
   * in_trick_roem: a four of a kind alone, else the runs and then stuk.
   * ``lowFours`` (the rule set's low_fours): four 7s, 8s or 9s are 100 too. */
  function trickRoemDetail(cards, trump, lowFours) {
    var items = [];
    if (cards.length === 4) {
      var rank = rankOf(cards[0]);
      var same = cards.every(function (c) { return rankOf(c) === rank; });
      if (same) {
        var sorted = cards.slice().sort(function (a, b) { return a - b; });
        if (rank === JACK) items.push(roemItem("four_jacks", sorted));
        else if (rank >= TEN || lowFours) items.push(roemItem("four_of_a_kind", sorted));
        return items;
      }
    }
    runsIn(cards).forEach(function (run) {
      items.push(roemItem(run.length === 3 ? "run_of_three" : "run_of_four", run));
    });
    var stuk = stukIn(cards, trump);
    if (stuk) items.push(roemItem("stuk", stuk));
    return items;
  }
  function roemTotal(items) {
    return items.reduce(function (sum, item) { return sum + item.points; }, 0);
  }
  function trickRoem(cards, trump, lowFours) { return roemTotal(trickRoemDetail(cards, trump, lowFours)); }

  /** One combination as a score-sheet note: "run of three ♥ 9-10-J", "stuk". */
  function describeItem(item) {
    if (item.kind === "stuk") return gettext("stuk");
    if (item.kind === "four_jacks") return gettext("four jacks");
    if (item.kind === "four_of_a_kind") {
      var rank = rankOf(item.cards[0]);
      return rank === 7 ? gettext("four aces") : rank === TEN ? gettext("four tens")
        : rank === KING ? gettext("four kings") : rank === QUEEN ? gettext("four queens")
        : rank === NINE ? gettext("four nines") : rank === 1 ? gettext("four eights")
        : gettext("four sevens");
    }
    var ranks = item.cards.map(function (c) { return rankLabel(rankOf(c)); }).join("-");
    var patterns = [
      gettext("run of three %(suit)s %(ranks)s"),
      gettext("run of four %(suit)s %(ranks)s"),
      gettext("run of five %(suit)s %(ranks)s"),
      gettext("run of six %(suit)s %(ranks)s"),
      gettext("run of seven %(suit)s %(ranks)s"),
      gettext("run of eight %(suit)s %(ranks)s"),
    ];
    return fmt(patterns[item.cards.length - 3], { suit: SUIT_SYMBOLS[suitOf(item.cards[0])], ranks: ranks });
  }
  /** "run of three ♥ 9-10-J + stuk"; an empty string for no roem. */
  function describeRoem(items) { return items.map(describeItem).join(" + "); }

  // --- Legal play (docs/rules.md, "Legal play"; scoring/rules/tricks.py legal_mask) ---

  /** Which rule decides the legal cards of ``hand`` (a mask) on ``trick`` (0..3 cards
   * played, leader first), and the legal mask. ``rule`` names the obligation that
   * restricts the player (null when any card goes):
   *   follow_suit, trump_led_overtrump, must_trump, must_overtrump,
   *   partner_trump_no_undertrump, opponent_must_trump, opponent_must_overtrump,
   *   opponent_no_undertrump. */
  function legalPlay(hand, trick, trump, amsterdam) {
    hand = hand >>> 0;
    if (!trick.length) return { mask: hand, rule: null };
    var led = suitOf(trick[0]);
    var follow = (hand & suitMask(led)) >>> 0;
    var win = trickWinner(trick, trump);
    var best = trick[win];
    if (led === trump) {
      if (follow) {
        var higher = (follow & higherTrumps(best)) >>> 0;
        return higher ? { mask: higher, rule: "trump_led_overtrump" } : { mask: follow, rule: "follow_suit" };
      }
      return { mask: hand, rule: null };
    }
    if (follow) return { mask: follow, rule: "follow_suit" };
    var trumps = (hand & suitMask(trump)) >>> 0;
    if (!trumps) return { mask: hand, rule: null };
    var trumped = suitOf(best) === trump;
    var over = trumped ? (trumps & higherTrumps(best)) >>> 0 : trumps;
    if (!amsterdam) {
      if (over) return { mask: over, rule: trumped ? "must_overtrump" : "must_trump" };
      return { mask: trumps, rule: "must_trump" };
    }
    var others = (hand & ~suitMask(trump)) >>> 0;
    if (win === trick.length - 2) {
      // Partner winning: anything; over a partner's trump no undertrump while
      // holding anything else (a non-trump or a higher trump).
      var allowed = trumped ? (others | over) >>> 0 : 0;
      if (allowed) return { mask: allowed, rule: "partner_trump_no_undertrump" };
      return { mask: hand, rule: null };
    }
    if (over) return { mask: over, rule: trumped ? "opponent_must_overtrump" : "opponent_must_trump" };
    if (others) return { mask: others, rule: "opponent_no_undertrump" };
    return { mask: hand, rule: null };
  }
  /** The legal cards of ``hand`` (mask) on ``trick``, as a mask: the core's legal_mask. */
  function legalMask(hand, trick, trump, amsterdam) {
    return legalPlay(hand, trick, trump, amsterdam).mask;
  }

  function seatName(seat) {
    return [gettext("North"), gettext("East"), gettext("South"), gettext("West")][seat];
  }
  function teamOfSeat(seat) { return seat & 1 ? "B" : "A"; }

  /** An English sentence (translated) for a renege: the rule that was broken. */
  function describeRule(rule, info) {
    var values = {
      seat: info.seat === undefined ? "" : seatName(info.seat),
      suit: SUIT_SYMBOLS[info.led],
      trump: SUIT_SYMBOLS[info.trump],
      best: info.best === undefined ? "" : cardLabel(info.best),
    };
    var texts = {
      follow_suit: function () { return gettext("%(suit)s was led: follow suit when you can."); },
      trump_led_overtrump: function () { return gettext("Trump (%(trump)s) was led: beat the highest trump in the trick (%(best)s) when you can."); },
      must_trump: function () { return gettext("Rotterdam rule: void in %(suit)s, you must trump, even when your partner wins the trick."); },
      must_overtrump: function () { return gettext("Rotterdam rule: void in %(suit)s, you must overtrump the highest trump (%(best)s) when you can."); },
      partner_trump_no_undertrump: function () { return gettext("Amsterdam rule: over your partner's trump (%(best)s) you may not undertrump while you hold a non-trump or a higher trump."); },
      opponent_must_trump: function () { return gettext("Amsterdam rule: void in %(suit)s with an opponent winning, you must trump."); },
      opponent_must_overtrump: function () { return gettext("Amsterdam rule: void in %(suit)s with an opponent winning, you must overtrump (%(best)s) when you can."); },
      opponent_no_undertrump: function () { return gettext("Amsterdam rule: you may not undertrump (%(best)s) while you hold a non-trump."); },
    };
    return texts[rule] ? fmt(texts[rule](), values) : "";
  }

  // --- Declared roem (match-1500: RoemRule.DECLARED) --------------------------------
  function handDeclarations(cards, trump) {
    var items = runsIn(cards).map(function (run) {
      var kind = run.length === 3 ? "run_of_three" : run.length === 4 ? "run_of_four" : "run_of_five_or_more";
      return roemItem(kind, run);
    });
    var stuk = stukIn(cards, trump);
    if (stuk) items.push(roemItem("stuk", stuk));
    return items;
  }
  /** The declarations that score per team {A: [...], B: [...]} from the four dealt
   * hands by seat: "no trick, no roem" first (against a ``pit`` the other team
   * scores nothing and has no run to compare), then only the team with the single
   * highest run scores its runs (equal goes to ``playing``); stuk scores for its
   * holder (scoring/rules/roem.py declared_roem). */
  function declaredRoem(hands, trump, playing, pit) {
    var runs = { A: [], B: [] }, stuks = { A: [], B: [] };
    hands.forEach(function (hand, seat) {
      handDeclarations(hand, trump).forEach(function (item) {
        (item.kind === "stuk" ? stuks : runs)[teamOfSeat(seat)].push(item);
      });
    });
    if (pit) {
      var noTrick = pit === "A" ? "B" : "A";
      runs[noTrick] = [];
      stuks[noTrick] = [];
    }
    var best = {};
    ["A", "B"].forEach(function (team) {
      best[team] = runs[team].reduce(function (m, r) { return Math.max(m, r.points); }, 0);
    });
    var defenders = playing === "A" ? "B" : "A";
    if (best[defenders] > best[playing]) runs[playing] = [];
    else runs[defenders] = [];
    return { A: runs.A.concat(stuks.A), B: runs.B.concat(stuks.B) };
  }

  // --- Scoring a hand (scoring/rules/hands.py score_hand, without the entry checks) --
  /** ``ruleset``: {nat_basis, nat_roem, pit_bonus}; ``points``, ``roem``: [A, B];
   * ``pit``: "A", "B" or null. Returns {outcome: "made"|"nat", nat, scores: [A, B]}. */
  function scoreHand(ruleset, playing, pts, roem, pit) {
    var a = playing === "A";
    var own = a ? pts[0] : pts[1], other = a ? pts[1] : pts[0];
    var ownRoem = a ? roem[0] : roem[1], otherRoem = a ? roem[1] : roem[0];
    var nat = ruleset.nat_basis === "points_and_roem"
      ? own + ownRoem <= other + otherRoem
      : own <= other;
    var scores;
    if (!nat) {
      scores = [pts[0] + roem[0], pts[1] + roem[1]];
      if (pit === "A") scores[0] += ruleset.pit_bonus;
      if (pit === "B") scores[1] += ruleset.pit_bonus;
    } else {
      var playingScore, defendersScore;
      if (ruleset.nat_roem === "to_defenders") {
        playingScore = 0; defendersScore = HAND_TOTAL + roem[0] + roem[1];
      } else if (ruleset.nat_roem === "kept_by_each") {
        playingScore = ownRoem; defendersScore = HAND_TOTAL + otherRoem;
      } else {
        playingScore = 0; defendersScore = HAND_TOTAL + otherRoem;
      }
      if (pit && pit !== playing) defendersScore += ruleset.pit_bonus;
      scores = a ? [playingScore, defendersScore] : [defendersScore, playingScore];
    }
    return { outcome: nat ? "nat" : "made", nat: nat, scores: scores };
  }

  // --- A hand as tapped in -----------------------------------------------------------
  /** Everything the page shows about a hand entered card by card.
   *
   * ``input``: {trump: 0..3, leader: seat of the first trick's leader, plays: the
   * cards in play order (up to 32), amsterdam: bool, ruleset (optional, for the
   * score): {nat_basis, nat_roem, pit_bonus, roem_rule, low_fours}, playing: "A"|"B"|null}.
   *
   * Returns {tricks: [...], next: {trick, seat} or null, complete, points, roem,
   * tricksWon, pit, declarations, result, reneges}. Each trick: {number, leader,
   * cards, seats, winner (seat, or the seat winning so far), complete, points (the
   * last trick's with its 10), roem, roemItems, roemText, verdicts}; a verdict per
   * card: {seat, card, status: "legal"|"open"|"renege", legal (mask of the cards
   * legal for shown(k); the exact legal set once final), rule, ruleText, evidence:
   * [{card, trick}] (cards the player had to play, and where they played them)}.
   */
  function analyseHand(input) {
    var trump = input.trump;
    var plays = input.plays || [];
    var amsterdam = !!input.amsterdam;
    var tricks = [];
    var leader = input.leader;
    var lowFours = !!(input.ruleset && input.ruleset.low_fours);
    // Where each seat played each of its cards: seatPlays[seat] = [{card, trick}]
    var seatPlays = [[], [], [], []];
    for (var start = 0; start < plays.length; start += 4) {
      var cards = plays.slice(start, start + 4);
      var seats = cards.map(function (_, i) { return (leader + i) % 4; });
      var win = trickWinner(cards, trump);
      var number = start / 4 + 1;
      var complete = cards.length === 4;
      var trickPts = trickPoints(cards, trump) + (complete && number === 8 ? LAST_TRICK_BONUS : 0);
      var items = input.roem_rule === "declared" ? [] : trickRoemDetail(cards, trump, lowFours);
      tricks.push({
        number: number, leader: leader, cards: cards, seats: seats,
        winner: seats[win], complete: complete, points: trickPts,
        roem: roemTotal(items), roemItems: items, roemText: describeRoem(items), verdicts: [],
      });
      cards.forEach(function (card, i) { seatPlays[seats[i]].push({ card: card, trick: number }); });
      if (complete) leader = seats[win];
    }

    var reneges = [];
    tricks.forEach(function (trick) {
      trick.cards.forEach(function (card, i) {
        var seat = trick.seats[i];
        var shown = 0;
        var where = {};
        seatPlays[seat].forEach(function (p) {
          if (p.trick >= trick.number) { shown = (shown | bit(p.card)) >>> 0; where[p.card] = p.trick; }
        });
        var before = trick.cards.slice(0, i);
        var play = legalPlay(shown, before, trump, amsterdam);
        var verdict = {
          seat: seat, card: card, legal: play.mask, status: "open",
          rule: null, ruleText: "", evidence: [],
        };
        if (!has(play.mask, card)) {
          var led = suitOf(before[0]);
          verdict.status = "renege";
          verdict.rule = play.rule;
          verdict.ruleText = describeRule(play.rule, {
            seat: seat, led: led, trump: trump, best: before[trickWinner(before, trump)],
          });
          verdict.evidence = cardsOf(play.mask).map(function (c) { return { card: c, trick: where[c] }; });
          reneges.push({ trick: trick.number, verdict: verdict });
        } else if (seatPlays[seat].length === 8) {
          verdict.status = "legal";
        }
        trick.verdicts.push(verdict);
      });
    });

    var complete = plays.length === 32;
    var pts = [0, 0], roem = [0, 0], won = [0, 0];
    tricks.forEach(function (trick) {
      if (!trick.complete) return;
      var t = trick.winner & 1;
      pts[t] += trick.points;
      roem[t] += trick.roem;
      won[t] += 1;
    });
    var next = null;
    if (!complete) {
      var last = tricks[tricks.length - 1];
      if (!last || last.complete) next = { trick: tricks.length + 1, seat: leader };
      else next = { trick: last.number, seat: (last.leader + last.cards.length) % 4 };
    }
    var out = {
      tricks: tricks, next: next, complete: complete, points: pts, roem: roem,
      tricksWon: won, pit: null, declarations: null, result: null, reneges: reneges,
      lastTrickDecides: false,
    };
    if (!complete) return out;

    out.pit = won[0] === 8 ? "A" : won[1] === 8 ? "B" : null;
    var declaredRaw = null;
    if (input.roem_rule === "declared" && input.playing) {
      var hands = seatPlays.map(function (list) { return list.map(function (p) { return p.card; }); });
      declaredRaw = declaredRoem(hands, trump, input.playing, out.pit);
      out.declarations = { A: declaredRaw.A, B: declaredRaw.B };
      out.roem = [roemTotal(out.declarations.A), roemTotal(out.declarations.B)];
    }
    if (input.ruleset && input.playing) {
      out.result = scoreHand(input.ruleset, input.playing, out.points, out.roem, out.pit);
      // Did the last trick decide nat? Had the other team taken it (its card points,
      // the 10 for the last trick and its roem), would the playing team's outcome
      // (made or nat) have been different?
      var last = tricks[7];
      var from = last.winner & 1, to = 1 - from;
      var movedPoints = out.points.slice(), movedWon = won.slice(), movedRoem = out.roem.slice();
      movedPoints[from] -= last.points; movedPoints[to] += last.points;
      movedWon[from] -= 1; movedWon[to] += 1;
      var movedPit = movedWon[0] === 8 ? "A" : movedWon[1] === 8 ? "B" : null;
      if (declaredRaw) {
        var moved = declaredRoem(hands, trump, input.playing, movedPit);
        movedRoem = [roemTotal(moved.A), roemTotal(moved.B)];
      } else {
        movedRoem[from] -= last.roem; movedRoem[to] += last.roem;
      }
      var other = scoreHand(input.ruleset, input.playing, movedPoints, movedRoem, movedPit);
      out.lastTrickDecides = other.nat !== out.result.nat;
    }
    return out;
  }

  return {
    SUIT_LETTERS: SUIT_LETTERS,
    SUIT_SYMBOLS: SUIT_SYMBOLS,
    RANK_LABELS: RANK_LABELS,
    HAND_TOTAL: HAND_TOTAL,
    LAST_TRICK_BONUS: LAST_TRICK_BONUS,
    cardCode: cardCode,
    cardLabel: cardLabel,
    rankLabel: rankLabel,
    parseCard: parseCard,
    maskOf: maskOf,
    cardsOf: cardsOf,
    points: points,
    trickWinner: trickWinner,
    trickPoints: trickPoints,
    trickRoem: trickRoem,
    trickRoemDetail: trickRoemDetail,
    describeRoem: describeRoem,
    legalMask: legalMask,
    legalPlay: legalPlay,
    describeRule: describeRule,
    handDeclarations: handDeclarations,
    declaredRoem: declaredRoem,
    scoreHand: scoreHand,
    analyseHand: analyseHand,
    seatName: seatName,
    teamOfSeat: teamOfSeat,
  };
});
