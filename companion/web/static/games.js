// The games list: every game the table has played (newest first) with its players, whose turn it is or that it is
// over, and its last move, from /api/games; an unfinished game is resumed, any game played again as a rematch. Above
// it, for whoever has control, the players of the game on the table: renamed, or a seat handed to a bot and back
// (/api/seats/<n>: each change is an event in the log). Spectators see the list without any control. The list follows
// the table live (the stream's messages only say when to read it again).
"use strict";

const GAMES = { list: null, state: null };
const BOTS_PLAY = document.getElementById("games-page").hasAttribute("data-bots");

// A reload sent before a seat change was answered can come back after it: its table is older than the one the change
// left, and the next change made on it would be refused as stale.
const olderThanKnown = (state) => Boolean(GAMES.state && GAMES.state.game && state.game
  && state.game.number === GAMES.state.game.number && state.seq < GAMES.state.seq);

async function loadGames() {
  const [list, state] = await Promise.all([
    fetch(`/api/games?lang=${CATALOG.lang}`).then((r) => r.json()),
    fetch("/api/state").then((r) => r.json())]);
  GAMES.list = list;
  if (!olderThanKnown(state)) GAMES.state = state;
  renderGames();
  renderSeats();
}

// The game on the table when a choice was made: the server refuses it (stale) if another is on the table now.
const currentNumber = () => (GAMES.state && GAMES.state.game ? GAMES.state.game.number : 0);

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(CATALOG.lang, { dateStyle: "medium", timeStyle: "short" });
}

function gameItem(game) {
  const status = game.over ? T("games_over") : game.turn ? T("turn_of", { name: game.turn }) : "";
  return el("li", { class: `game-item${game.current ? " current" : ""}${game.over ? " over" : ""}`,
    "data-game": game.number },
  el("div", { class: "game-head" },
    el("strong", { class: "game-title" }, `${game.title} · ${game.number}`),
    game.current ? el("span", { class: "badge live" }, T("games_on_table")) : null,
    el("span", { class: "game-status" }, status)),
  el("div", { class: "game-players" }, game.players.join(", ")),
  el("div", { class: "game-last hint" }, game.last ? T("games_last", { move: game.last }) : T("games_no_moves")),
  el("div", { class: "game-when hint" }, T("games_started", { when: when(game.started) })),
  el("div", { class: "game-actions" },
    !game.over && !game.current ? el("button", { type: "button", class: "primary control-only resume",
      onclick: () => choose(`/api/games/${game.number}/resume`) }, T("resume")) : null,
    el("button", { type: "button", class: "control-only rematch",
      onclick: () => askThenChoose(`/api/games/${game.number}/rematch`) }, T("rematch")),
    el("a", { class: "button quiet export", href: `/api/games/${game.number}/export`, download: "" }, T("export"))));
}

function renderGames() {
  const box = document.getElementById("games");
  const games = (GAMES.list && GAMES.list.games) || [];
  box.replaceChildren(...(games.length ? games.map(gameItem) : [el("li", { class: "hint" }, T("games_none"))]));
}

// A rematch is a new game: over a running game it asks first, as New game does (the running game stays listed).
function askThenChoose(path) {
  const question = document.getElementById("games-question");
  const running = GAMES.state && GAMES.state.game && !GAMES.state.game.over ? GAMES.state.game : null;
  if (!running) { choose(path); return; }
  question.replaceChildren(
    el("p", {}, T("replace_question", { title: running.title, number: running.number })),
    el("div", { class: "actions" },
      el("button", { type: "button", class: "primary", id: "games-question-confirm",
        onclick: () => { question.hidden = true; choose(path); } }, T("replace_confirm")),
      el("button", { type: "button", class: "quiet", onclick: () => { question.hidden = true; } }, T("cancel"))));
  question.hidden = false;
  question.scrollIntoView({ block: "nearest" });
}

// Resume or rematch: the table page shows the game as soon as it is on the table.
async function choose(path) {
  const error = document.getElementById("games-error");
  const answer = await post(path, { current: currentNumber() });
  if (answer.ok) { window.location.href = "/"; return; }
  error.textContent = refusalText(answer);
  if (answer.status === 401) showLogin();
  loadGames();  // stale or over: show the table as it is now
}

// ---- the seats of the game on the table ---------------------------------------------------------------------------

// Drawn again only when the seats change (not on every move), so a name being typed is not wiped by the stream.
function renderSeats() {
  const panel = document.getElementById("seats");
  const state = GAMES.state;
  const players = state && state.game && !state.game.over ? (state.game.options.players || []) : [];
  const key = JSON.stringify([state && state.game && state.game.number, players, CATALOG.lang]);
  if (key === GAMES.seatsKey) return;
  GAMES.seatsKey = key;
  panel.hidden = !players.length;
  document.getElementById("seat-rows").replaceChildren(...players.map((entry, seat) => {
    const player = typeof entry === "string" ? { name: entry } : entry;
    const input = el("input", { type: "text", name: `seat-${seat}`, value: player.name, maxlength: 24,
      "aria-label": T("player_name") });
    const rename = el("button", { type: "button", class: "rename", onclick: () => {
      if (input.value.trim() !== player.name) changeSeat(seat, { name: input.value });
    } }, T("rename"));
    input.addEventListener("keydown", (key) => { if (key.key === "Enter") rename.click(); });
    const bot = Boolean(player.bot);
    return el("div", { class: "player-row seat-row", "data-seat": seat },
      player.colour ? el("span", { class: `swatch colour-${player.colour}`, title: colourName(player.colour) }) : null,
      input, rename,
      BOTS_PLAY ? el("span", { class: "seat-kind", role: "group", "aria-label": T("seat_kind") }, [false, true].map(
        (kind) => el("button", { type: "button", class: bot === kind ? "chosen" : "", "data-kind": kind ? "bot"
          : "person", "aria-pressed": String(bot === kind), onclick: () => bot !== kind && changeSeat(seat,
          { bot: kind }) }, T(kind ? "seat_bot" : "seat_person")))) : null);
  }));
}

async function changeSeat(seat, change) {
  const error = document.getElementById("seats-error");
  const state = GAMES.state;
  const answer = await post(`/api/seats/${seat}`, { ...change, seq: state.seq, game: state.game.number });
  error.textContent = answer.ok ? "" : refusalText(answer);
  // The player's next choice is made on the table their change left, even before the reload below comes back.
  if (answer.ok) GAMES.state = { ...state, seq: answer.body.seq };
  if (answer.status === 401) showLogin();
  loadGames();
}

// Live: whatever changes the table (a move, a game started or resumed on another tablet) reloads the list, at most
// once per moment however many messages come at once.
function connect() {
  const badge = document.getElementById("connection");
  const source = new EventSource("/api/stream");
  let pending = null;
  const changed = () => { clearTimeout(pending); pending = setTimeout(loadGames, 250); };
  for (const kind of ["event", "new_game", "resumed"]) source.addEventListener(kind, changed);
  source.onopen = () => {
    badge.dataset.i18n = "live"; badge.textContent = T("live"); badge.className = "badge live";
    changed();
  };
  source.onerror = () => {
    badge.dataset.i18n = "reconnecting"; badge.textContent = T("reconnecting"); badge.className = "badge down";
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
  };
}

onLanguageChange.push(() => loadGames());
onControlChange.push(() => { GAMES.seatsKey = null; renderSeats(); });
loadGames();
connect();
