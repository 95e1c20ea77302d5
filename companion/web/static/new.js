// New game: the game, its players (names, colours, a person's or a bot's seat) and the game's own settings, posted
// to /api/game. The game's browser module (registerGame) gives its part of the form as `newGame`: its colours, how
// many players, a hint, its own fieldsets and the options it sends; a game without one gets players by name only.
// Each seat is a person's or a bot's ("bot": true in its players entry) where bots play (the demo): they play only
// theirs. A table without bots offers no bot seats: nobody would move them.
// The form starts from the last set-up (the game on the table, its players and its settings: the game's `restore`).
// A game still running is not replaced unasked: the page says it stays in the games list, where it can be resumed.
"use strict";

// The game modules' screen-size listeners ask which game the table page draws; this page draws none.
const gameUI = () => null;

const PLAIN = { palette: ["green", "red", "blue", "yellow", "purple", "black"], maxPlayers: 6, hint: null,
  startLabel: "start_game", fields: () => [], playersChanged: () => {}, restore: () => {}, problem: () => null,
  options: (players) => ({ players: players.map(({ colour, ...p }) => p) }) };  // no colours
const setup = { players: [{ name: "", colour: "green", bot: false }, { name: "", colour: "red", bot: false }] };

const BOTS_PLAY = document.getElementById("new-game").hasAttribute("data-bots");
const chosenGame = () => document.querySelector("input[name=game]:checked").value;
const form = () => (GAME_UI[chosenGame()] && GAME_UI[chosenGame()].newGame) || PLAIN;
const palette = () => form().palette;
const maxPlayers = () => form().maxPlayers;

function renderPlayers() {
  const box = document.getElementById("players");
  box.replaceChildren(...setup.players.map((player, k) => el("div", { class: "player-row", "data-player": k },
    el("input", { type: "text", name: `player-${k}`, value: player.name, "aria-label": T("player_name"), maxlength: 24,
      placeholder: `${T("player_name")} ${k + 1}`, oninput: (e) => {
        player.name = e.target.value; form().playersChanged(setup.players); checkSetup(); } }),
    el("span", { class: "colour-pick" }, palette().map((colour) => el("button", {
      type: "button", class: `colour-${colour}${player.colour === colour ? " chosen" : ""}`, "data-colour": colour,
      title: colourName(colour), "aria-label": colourName(colour),
      disabled: setup.players.some((p, j) => j !== k && p.colour === colour),
      onclick: () => { player.colour = colour; renderPlayers(); } }))),
    BOTS_PLAY ? el("span", { class: "seat-kind", role: "group", "aria-label": T("seat_kind") }, [false, true].map(
      (bot) => el("button", { type: "button", class: player.bot === bot ? "chosen" : "", "data-kind": bot ? "bot"
        : "person", "aria-pressed": String(player.bot === bot), onclick: () => { player.bot = bot; renderPlayers(); } },
      T(bot ? "seat_bot" : "seat_person")))) : null,
    setup.players.length > 2 ? el("button", { type: "button", class: "quiet", onclick: () => {
      setup.players.splice(k, 1); renderPlayers(); } }, T("remove")) : null)));
  document.getElementById("add-player").disabled = setup.players.length >= maxPlayers();
  form().playersChanged(setup.players);
  checkSetup();
}

// The players as they will be sent: a seat without a name is called by its number.
const namedPlayers = () => setup.players.map((p, k) => ({ name: p.name.trim() || `${T("player_name")} ${k + 1}`,
  colour: p.colour, ...(BOTS_PLAY ? { bot: p.bot } : {}) }));

// What keeps this set-up from being played, as { key, fields } of a text, or null: the same colour or name twice,
// or what the game's own part of the form says (its `problem`, e.g. a start order that misses a chariot).
function setupProblem() {
  const players = namedPlayers();
  const colours = players.map((p) => p.colour);
  if (new Set(colours).size < colours.length) return { key: "setup_same_colour" };
  const names = players.map((p) => p.name.toLowerCase());
  const twice = names.find((name, k) => names.indexOf(name) !== k);
  if (twice !== undefined) return { key: "setup_same_name", fields: { name: players[names.indexOf(twice)].name } };
  return (form().problem || PLAIN.problem)(players);
}

// Start is pressed only on a set-up that can be played; why not is said beside it, in the player's language.
function checkSetup() {
  const problem = setupProblem();
  const start = document.getElementById("start-game");
  const why = document.getElementById("setup-problem");
  start.disabled = Boolean(problem);
  why.hidden = !problem;
  why.textContent = problem ? T(problem.key, problem.fields || {}) : "";
}
document.addEventListener("setup-change", checkSetup);

function renderGame() {
  const hint = document.getElementById("players-hint");
  hint.hidden = !form().hint;
  hint.textContent = form().hint ? T(form().hint) : "";
  const fields = document.getElementById("game-fields");
  fields.replaceChildren(...form().fields());
  fields.dataset.game = chosenGame();
  // Each game has its own colours: keep what fits, give the others a free colour of this game.
  setup.players = setup.players.slice(0, maxPlayers());
  for (const player of setup.players) {
    const taken = (colour) => setup.players.some((p) => p !== player && p.colour === colour);
    if (!palette().includes(player.colour) || taken(player.colour)) {
      player.colour = palette().find((colour) => !taken(colour));
    }
  }
  const start = document.getElementById("start-game");
  start.dataset.i18n = form().startLabel;
  start.textContent = T(start.dataset.i18n);
  renderPlayers();
}

document.getElementById("add-player").addEventListener("click", () => {
  const free = palette().find((c) => !setup.players.some((p) => p.colour === c));
  setup.players.push({ name: "", colour: free, bot: false });
  renderPlayers();
});
for (const input of document.querySelectorAll("input[name=game]")) input.addEventListener("change", renderGame);

const tableNow = () => fetch("/api/state").then((r) => r.json()).catch(() => null);

document.getElementById("new-game").addEventListener("submit", async (submit) => {
  submit.preventDefault();
  if (setupProblem()) return;
  const state = await tableNow();
  const running = state && state.game && !state.game.over ? state.game : null;
  if (running) askToReplace(running);
  else start(state && state.game ? state.game.number : 0);
});

// A running game is replaced only when the player says so; it stays in the games list, resumable.
function askToReplace(running) {
  const question = document.getElementById("replace-question");
  question.replaceChildren(
    el("p", {}, T("replace_question", { title: running.title, number: running.number })),
    el("div", { class: "actions" },
      el("button", { type: "button", class: "primary big", id: "replace-confirm",
        onclick: () => { question.hidden = true; start(running.number); } }, T("replace_confirm")),
      el("button", { type: "button", class: "quiet", onclick: () => { question.hidden = true; } }, T("cancel"))));
  question.hidden = false;
  question.scrollIntoView({ block: "nearest" });
}

// `current`: the game on the table when the player chose (0: none); a game started meanwhile refuses it (stale).
async function start(current) {
  const error = document.getElementById("setup-error");
  const answer = await post("/api/game", { game: chosenGame(), options: form().options(namedPlayers()), current });
  if (!answer.ok) {
    error.textContent = refusalText(answer);
    if (answer.status === 401) showLogin();
    return;
  }
  window.location.href = "/";
}

// The last set-up: the game on the table (or the one just over) and its players, as a rematch would seat them.
async function startFromLastSetup() {
  const state = await tableNow();
  const last = state && state.game;
  const radio = last && document.querySelector(`input[name=game][value="${CSS.escape(last.id)}"]`);
  const players = last && Array.isArray(last.options.players) ? last.options.players : [];
  const untouched = setup.players.every((p) => !p.name);  // what the player typed meanwhile stays
  if (radio && players.length >= 2 && untouched) {
    radio.checked = true;
    setup.players = players.map((p) => (typeof p === "string" ? { name: p } : p)).map((p) => ({
      name: String(p.name || ""), colour: p.colour, bot: BOTS_PLAY && Boolean(p.bot) }));
    form().restore(last.options);  // the game's own settings: its board, race, variants, as a rematch keeps them
  }
  renderGame();
  document.getElementById("new-game").dataset.lastSetup = "loaded";  // for a test to wait on
}

document.getElementById("connection").hidden = true;  // no live stream on this page
onLanguageChange.push(() => renderGame());
renderGame();
startFromLastSetup();
