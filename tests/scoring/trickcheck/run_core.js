// Runs static/js/trickcheck-core.js on the cases in a JSON file (argv[2]) and prints
// what it computed, as JSON, for tests/scoring/trickcheck/test_agreement.py to
// compare with the Python scoring core.
"use strict";
const fs = require("fs");
const path = require("path");

const core = require(path.resolve(__dirname, "../../../static/js/trickcheck-core.js"));
const cases = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));

function hand(input) {
  const out = core.analyseHand(input);
  return {
    tricks: out.tricks.map((t) => [t.winner, t.points, t.roem]),
    status: out.tricks.map((t) => t.verdicts.map((v) => v.status[0].toUpperCase()).join("")).join(""),
    legal: [].concat(...out.tricks.map((t) => t.verdicts.map((v) => v.legal >>> 0))),
    rules: [].concat(...out.tricks.map((t) => t.verdicts.map((v) => v.rule))),
    next: out.next,
    points: out.points,
    roem: out.roem,
    pit: out.pit,
    scores: out.result ? out.result.scores : null,
    nat: out.result ? out.result.nat : null,
    last_trick_decides: out.lastTrickDecides,
    declared: out.declarations ? [core.describeRoem(out.declarations.A), core.describeRoem(out.declarations.B)] : null,
  };
}

const result = {
  hands: cases.hands.map(hand),
  roem: cases.roem.map(([cards, trump, lowFours]) => {
    const items = core.trickRoemDetail(cards, trump, lowFours);
    return [core.trickRoem(cards, trump, lowFours), core.describeRoem(items), core.trickWinner(cards, trump),
      core.trickPoints(cards, trump)];
  }),
  legal: cases.legal.map(([hand, trick, trump, amsterdam]) => core.legalMask(core.maskOf(hand), trick, trump, amsterdam) >>> 0),
  positions: cases.positions.map(([hand, trick, trump, amsterdam]) => {
    const play = core.legalPlay(core.maskOf(hand), trick, trump, amsterdam);
    return [play.mask >>> 0, play.rule];
  }),
};
process.stdout.write(JSON.stringify(result));
