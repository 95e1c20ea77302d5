// The stats page: are our dice fair (per kind of die, how often each face came up against the band a fair die keeps
// to, and the verdict), who was lucky tonight, wins by player, and every game. From /api/stats; the charts are plain
// SVG drawn here and in luck.js.
"use strict";

const STATS = { data: null, luck: {} };
const MAX_GAMES_SHOWN = 100;
const LUCK_PICTURES = 3;

// One row per face: its count as a bar, the band a fair die's count falls in 95 % of the time behind it, the
// expected count as a line; a count outside its band is marked.
function histogram(verdict) {
  const faces = verdict.faces;
  const ROW = 44, LABEL = 250, BAR = 380, RIGHT = 90, TOP = 6;
  const W = LABEL + BAR + RIGHT, H = TOP + faces.length * ROW;
  const top = Math.max(1, ...faces.map((f) => Math.max(f.count, f.band[1])));
  const x = (value) => LABEL + (BAR * value) / top;
  const rows = faces.map((f, i) => {
    const y = TOP + i * ROW;
    const out = f.count < f.band[0] || f.count > f.band[1];
    return svg("g", { class: `face-row${out ? " out" : ""}`, "data-face": f.face },
      svg("text", { x: LABEL - 12, y: y + 27, "text-anchor": "end", class: "label" }, faceName(f.face)),
      svg("rect", { x: x(f.band[0]), y: y + 2, width: Math.max(3, x(f.band[1]) - x(f.band[0])), height: ROW - 8,
        class: "band" }, svg("title", {}, T("stats_band_of", { low: f.band[0], high: f.band[1] }))),
      svg("rect", { x: LABEL, y: y + 10, width: Math.max(0, x(f.count) - LABEL), height: ROW - 24, class: "bar" }),
      svg("line", { x1: x(f.expected), x2: x(f.expected), y1: y, y2: y + ROW - 4, class: "expected" }),
      svg("text", { x: x(Math.max(f.count, f.band[1])) + 8, y: y + 27, class: "count" }, String(f.count)));
  });
  return svg("svg", { class: "histogram", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
    "aria-label": verdictText(verdict) }, rows);
}

function legend() {
  return el("p", { class: "legend hint" },
    el("span", { class: "key band" }), T("stats_band"), " ",
    el("span", { class: "key expected" }), T("stats_expected"));
}

function diceSet(set) {
  const notes = [];
  if (set.typed) notes.push(T("stats_typed", { typed: set.typed }));
  if (set.corrected) notes.push(T("stats_corrected", { corrected: set.corrected }));
  // A kind of die nobody has rolled yet has nothing to show (Cubitos has eleven; a table plays with a few).
  const kinds = set.kinds.filter((kind) => kind.verdict.rolls).map((kind) => {
    const verdict = kind.verdict;
    return el("div", { class: `dice-kind verdict-${verdict.code}`, "data-kind": kind.kind }, histogram(verdict),
      el("p", { class: "verdict big" }, verdictText(verdict)),
      verdict.code === "too_few" ? null : el("p", { class: "hint" }, T("stats_needed", { needed: verdict.needed })));
  });
  return el("section", { class: "dice-set", "data-dice-set": set.dice_set },
    el("h3", {}, T("stats_dice_of", { games: set.titles.join(" · ") })),
    notes.length ? el("p", { class: "hint" }, notes.join(" ")) : null,
    kinds.length ? [legend(), ...kinds] : el("p", { class: "hint" }, T("stats_no_dice")));
}

function titles() {
  return Object.fromEntries(STATS.data.games.map((g) => [g.game, g.title]));
}

// Wins by player: the games each played as a pale bar, the wins as a gold one over it.
function players() {
  const list = STATS.data.players;
  if (!list.length) return el("p", { class: "hint" }, T("stats_no_games"));
  const names = titles();
  const ROW = 52, LABEL = 200, BAR = 420, RIGHT = 20;
  const W = LABEL + BAR + RIGHT, H = list.length * ROW;
  const most = Math.max(1, ...list.map((p) => p.games));
  const rows = list.map((p, i) => {
    const y = i * ROW;
    const byGame = Object.entries(p.by_game).map(([game, n]) => `${names[game] || game} ${n.wins}/${n.games}`).join(" · ");
    return svg("g", { class: "player-row", "data-player": p.name },
      svg("text", { x: LABEL - 12, y: y + 24, "text-anchor": "end", class: "label" }, p.name),
      svg("rect", { x: LABEL, y: y + 6, width: (BAR * p.games) / most, height: 24, class: "games" }),
      svg("rect", { x: LABEL, y: y + 6, width: (BAR * p.wins) / most, height: 24, class: "wins" }),
      svg("text", { x: LABEL + 8, y: y + 48, class: "detail" },
        `${T("stats_wins", { wins: p.wins, games: p.games })}${byGame ? ` — ${byGame}` : ""}`));
  });
  return svg("svg", { class: "wins-chart", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
    "aria-label": T("stats_players_title") }, rows);
}

function games() {
  const list = STATS.data.games;
  if (!list.length) return el("p", { class: "hint" }, T("stats_no_games"));
  const when = (seconds) => new Date(seconds * 1000).toLocaleString(CATALOG.lang,
    { dateStyle: "medium", timeStyle: "short" });
  const rows = list.slice(0, MAX_GAMES_SHOWN).map((g) => el("tr", { "data-game": g.number },
    el("td", {}, when(g.started)), el("td", {}, g.title), el("td", {}, g.players.join(", ")),
    el("td", { class: "winners" }, g.over ? (g.winners.join(", ") || "—") : T("stats_unfinished")),
    el("td", {}, T("stats_minutes", { minutes: Math.round(g.duration / 60) })),
    el("td", {}, g.rounds === null ? "" : `${T(g.axis)} ${g.rounds}`),
    el("td", { class: "game-luck" }, g.luck.map((row) => `${row.player} ${luckSigned(row.luck)}`).join(" · "))));
  const more = list.length - MAX_GAMES_SHOWN;
  return [el("table", { class: "history" },
    el("thead", {}, el("tr", {}, ["stats_date", "stats_game", "stats_players", "stats_winners", "stats_duration",
      "stats_rounds", "stats_luck"].map((key) => el("th", {}, T(key))))),
    el("tbody", {}, rows)),
  more > 0 ? el("p", { class: "hint" }, T("stats_more", { more })) : null];
}

// Tonight's luck per player, then luck over each of the evening's latest games (their lines fetched once a change).
function luck() {
  const evening = STATS.data.luck;
  const shown = STATS.data.games.filter((g) => evening.games.includes(g.number) && g.luck.length)
    .slice(0, LUCK_PICTURES);
  for (const g of shown) {
    const key = `${g.number}:${g.duration}`;
    if (STATS.luck[g.number] && STATS.luck[g.number].key === key) continue;
    STATS.luck[g.number] = { key, luck: null };
    fetchLuck(g.number).then((answer) => { STATS.luck[g.number] = { key, luck: answer }; render(); }).catch(() => {});
  }
  return [luckList(evening.players), ...shown.map((g) => {
    const answer = STATS.luck[g.number].luck;
    return answer && answer.complete ? el("section", { class: "luck-game", "data-game": g.number },
      el("h3", {}, T("luck_game", { number: g.number, title: g.title })),
      g.luck_counted ? el("p", { class: "hint luck-counted" }, T(g.luck_counted)) : null, luckCharts(answer)) : null;
  })];
}

function render() {
  if (!STATS.data) return;
  document.getElementById("luck").replaceChildren(...luck().flat().filter(Boolean));
  const sets = STATS.data.dice;
  const counting = STATS.data.complete ? null : el("p", { class: "hint", id: "stats-counting" }, T("stats_counting"));
  document.getElementById("dice-sets").replaceChildren(
    ...[counting, ...(sets.length ? sets.map(diceSet) : [el("p", { class: "hint" }, T("stats_no_dice"))])].filter(Boolean));
  document.getElementById("players").replaceChildren(players());
  document.getElementById("games").replaceChildren(...[games()].flat().filter(Boolean));
}

// Every 10 s; every second while the companion, just started, is still reading the log.
async function refresh() {
  const badge = document.getElementById("connection");
  let again = 10000;
  try {
    const response = await fetch("/api/stats");
    STATS.data = await response.json();
    badge.textContent = T("live"); badge.className = "badge live";
    render();
    if (!STATS.data.complete) again = 1000;
  } catch (_) {
    badge.textContent = T("reconnecting"); badge.className = "badge down";
  }
  setTimeout(refresh, again);
}

onLanguageChange.push(render);
refresh();
