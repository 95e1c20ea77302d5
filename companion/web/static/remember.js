// What the table remembers (companion/stats.py), drawn for every screen that shows it: the stats page, the game-over
// screen (race.js) and the kiosk's evening (attract.js). A dice verdict in words; who was lucky: each player's
// confirmed rolls against what the odds gave, as lines of text and a picture of luck over a game (each player's
// running sum of actual minus expected). Plain SVG drawn here.
"use strict";

const number = (value, digits = 3) => Number(value).toLocaleString(CATALOG.lang, { maximumSignificantDigits: digits });
// A p-value as people quote it, with its sign: two significant digits ("= 0.003"), "< 0.0001" below that.
const pText = (p) => (p < 0.0001 ? `< ${number(0.0001)}` : `= ${number(p, 2)}`);

function verdictText(verdict) {
  const { code, rolls, needed } = verdict;
  if (code === "too_few") return T("stats_too_few", { rolls, needed });
  if (code === "fair") return T("stats_fair", { rolls });
  const face = verdict.faces.find((f) => f.face === verdict.face);
  return T(`stats_${code}`, { rolls, face: faceName(verdict.face), p: pText(Math.min(verdict.p, face.p)) });
}

const luckNumber = (value) => Number(value).toLocaleString(CATALOG.lang, { maximumFractionDigits: 1 });
const luckSigned = (value) => `${value > 0 ? "+" : value < 0 ? "−" : "±"}${luckNumber(Math.abs(value))}`;
const luckWord = (luck) => (luck > 0 ? "lucky" : luck < 0 ? "unlucky" : "even");

// One row per player and kind, luckiest first: the name, how lucky (signed, in the kind's own unit), the counts.
function luckList(rows) {
  if (!rows.length) return el("p", { class: "hint luck-none" }, T("luck_none"));
  const kinds = [...new Set(rows.map((row) => row.kind))];
  return kinds.map((kind) => el("div", { class: "luck-kind", "data-kind": kind },
    kinds.length > 1 ? el("h4", {}, T(`luck_kind_${kind}`)) : null,
    el("ol", { class: "luck-list" }, rows.filter((row) => row.kind === kind).map((row) =>
      el("li", { class: `luck-row ${luckWord(row.luck)}`, "data-player": row.player },
        el("span", { class: "who" }, row.player),
        el("span", { class: "luck-value" }, `${luckSigned(row.luck)} ${T(`luck_${luckWord(row.luck)}`)}`),
        el("span", { class: "luck-detail" }, T(`luck_row_${kind}`,
          { actual: luckNumber(row.actual), expected: luckNumber(row.expected), rolls: row.rolls })))))));
}

// Luck over one game, one picture per kind (a game counts one): a line per player from 0, its name at its end.
// Drawn about as wide as the kiosk's turn panel, so its 20 px text stays 20 px there.
function luckCharts(luck) {
  return luck.kinds.filter((kind) => kind.x > 0).map((kind) => {
    const names = Object.keys(kind.series);
    const values = Object.values(kind.series).flat();
    const top = Math.max(1, ...values.map(Math.abs));
    const W = 460, H = 260, L = 56, R = 110, TOP = 16, B = 34;
    const px = (i) => L + ((W - L - R) * i) / kind.x;
    const py = (v) => TOP + ((H - TOP - B) * (top - v)) / (2 * top);
    const parts = [
      svg("line", { x1: L, y1: py(0), x2: W - R, y2: py(0), class: "zero" }),
      svg("line", { x1: L, y1: TOP, x2: L, y2: H - B, class: "axis" }),
      svg("text", { x: L - 8, y: py(top) + 8, class: "tick", "text-anchor": "end" }, luckSigned(top)),
      svg("text", { x: L - 8, y: py(0) + 8, class: "tick", "text-anchor": "end" }, "0"),
      svg("text", { x: L - 8, y: py(-top), class: "tick", "text-anchor": "end" }, luckSigned(-top)),
      svg("text", { x: W - R, y: H - 6, class: "tick", "text-anchor": "end" }, T("luck_rolls_axis", { rolls: kind.x })),
    ];
    names.forEach((name, n) => {
      const line = kind.series[name];
      const d = line.map((v, i) => `${i ? "L" : "M"}${px(i).toFixed(1)},${py(v).toFixed(1)}`).join(" ");
      const last = line[line.length - 1];
      parts.push(svg("path", { d, class: `luck-line line-${n % 6}`, "data-player": name }, svg("title", {}, name)),
        svg("text", { x: W - R + 8, y: py(last) + 7, class: `luck-name line-${n % 6}` }, name));
    });
    const caption = T("luck_over_game", { kind: T(`luck_kind_${kind.kind}`) });
    return el("figure", { class: "luck-chart", "data-kind": kind.kind },
      el("figcaption", {}, caption, el("br"), el("small", {}, T(kind.lucky > 0 ? "luck_up_is_lucky"
        : "luck_down_is_lucky"))),
      svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": caption }, parts));
  });
}

// A game's luck as the game-over screen and the stats page show it: the list, then the picture.
function luckSection(luck) {
  if (!luck || !luck.complete) return null;
  return el("section", { class: "luck", "data-game": luck.number },
    el("h3", {}, T("luck_title")), luckList(luck.totals), luckCharts(luck));
}

async function fetchLuck(number) {
  const response = await fetch(`/api/stats/games/${number}/luck`);
  return response.ok ? response.json() : null;
}
