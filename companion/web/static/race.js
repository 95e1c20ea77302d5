// The game-over screen, for every game: the standings and a chart of the race, both from /api/race. The game's
// package says what they hold (its present.py: standings, chart_point, the ui keys of their texts); this draws them.
// Loaded after common.js and before table.js; table.js calls renderRaceOver() on every render.
"use strict";

const RACE = { key: null, summary: null, luck: null };

function renderRaceOver() {
  let box = document.getElementById("race-over");
  const over = Boolean(S.state && S.state.game && S.state.game.over);
  if (!over) {
    if (box) box.remove();
    RACE.key = null;
    return;
  }
  if (!box) {
    box = el("div", { id: "race-over", class: "race-over" });
    document.getElementById("turn-body").after(box);
  }
  const key = `${S.state.game.number}:${S.state.seq}`;
  if (RACE.key !== key) {
    RACE.key = key;
    RACE.summary = null;
    RACE.luck = null;
    fetch("/api/race").then((r) => r.json()).then((summary) => {
      if (RACE.key !== key) return;  // the table moved on while we waited
      RACE.summary = summary;
      drawRaceOver(box);
    }).catch(() => {});
    raceLuck(key, S.state.game.number, box);
  }
  drawRaceOver(box);
}

function drawRaceOver(box) {
  const nodes = [];
  if (control) {
    const number = S.state.game.number;
    nodes.push(el("div", { class: "race-over-actions" },
      el("button", { type: "button", class: "primary big rematch", onclick: async () => {
        const answer = await post(`/api/games/${number}/rematch`, { current: number });
        showError(answer.ok ? "" : refusalText(answer));
      } }, T("rematch")),
      el("a", { class: "button big new-game", href: "/new" }, T("new_game"))));
  }
  const summary = RACE.summary;
  if (summary && summary.standings.length) {
    const colours = colourOf(summary.standings);
    nodes.push(el("h3", {}, T("standings")), el("ol", { class: "standings" }, summary.standings.map((row) =>
      el("li", { class: `standing ${row.why}` },
        el("span", { class: "place" }, T("place", { place: row.place })),
        el("span", { class: `swatch colour-${colours[row.actor] || "none"}` }),
        el("span", { class: "who" }, actorName(row.actor)),
        el("span", { class: "why" }, T(row.text, row.values))))));
  }
  if (summary && summary.chart && summary.chart.x.length > 1) {
    nodes.push(el("h3", {}, T("race_chart")));
    for (const metric of summary.chart.metrics) nodes.push(raceChart(summary, metric));
  }
  nodes.push(luckSection(RACE.luck));
  box.replaceChildren(...nodes.filter(Boolean));
}

// Who was lucky in this game (luck.js); asked again while the companion, just started, still reads the log.
function raceLuck(key, number, box) {
  fetchLuck(number).then((luck) => {
    if (RACE.key !== key) return;
    if (luck && !luck.complete) { setTimeout(() => raceLuck(key, number, box), 1000); return; }
    RACE.luck = luck;
    drawRaceOver(box);
  }).catch(() => {});
}

// An actor's colour from its standings row; two actors of one colour (a second chariot) get a dashed line.
function colourOf(standings) {
  return Object.fromEntries(standings.filter((row) => row.colour).map((row) => [row.actor, row.colour]));
}

// One metric over the race: a line per actor, the axis's steps along the bottom. Plain SVG, no library.
function raceChart(summary, metric) {
  const { x, series } = summary.chart;
  const lines = series[metric] || {};
  const values = Object.values(lines).flat().filter((v) => v !== null);
  const top = Math.max(1, ...values);
  const W = 480, H = 200, L = 40, B = 28, R = 12, TOP = 12;
  const px = (i) => L + (W - L - R) * (x.length > 1 ? i / (x.length - 1) : 0);
  const py = (v) => H - B - (H - B - TOP) * (v / top);
  const colours = colourOf(summary.standings);
  const seen = {};
  const parts = [
    svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }),
    svg("line", { x1: L, y1: TOP, x2: L, y2: H - B, class: "axis" }),
    svg("text", { x: L - 6, y: TOP + 12, class: "tick", "text-anchor": "end" }, String(Math.round(top * 10) / 10)),
    svg("text", { x: L - 6, y: H - B, class: "tick", "text-anchor": "end" }, "0"),
    svg("text", { x: W - R, y: H - 6, class: "tick", "text-anchor": "end" }, `${T(summary.chart.axis)} ${x[x.length - 1]}`),
    svg("text", { x: L, y: H - 6, class: "tick" }, `${T(summary.chart.axis)} ${x[0]}`),
  ];
  for (const [actor, line] of Object.entries(lines)) {
    const colour = colours[actor] || "none";
    const dashed = seen[colour];
    seen[colour] = true;
    let d = "";
    line.forEach((v, i) => {
      if (v === null) return;
      d += `${d && line[i - 1] !== null ? "L" : "M"}${px(i).toFixed(1)},${py(v).toFixed(1)} `;
    });
    if (!d) continue;
    parts.push(svg("path", { d, class: `series colour-${colour}${dashed ? " second" : ""}` },
      svg("title", {}, actorName(actor))));
  }
  return el("figure", { class: "race-chart" }, el("figcaption", {}, T(metric)),
    svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": T(metric) }, parts));
}
