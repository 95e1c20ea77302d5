// New game: players and colours, board side, variants, start positions drawn or chosen. Posts to /api/game.
// Each seat is a person's or a bot's ("bot": true in its players entry), where bots play (the demo): they play
// only theirs. A table without bots offers no bot seats: nobody would move them.
// Hexen Rennen: 2-4 players in turn order, each with a clan colour; the track tiles lie face down ("hidden").
"use strict";

const PALETTES = {
  "chariot-race": ["green", "red", "blue", "yellow", "purple", "black"],
  hexenrennen: ["orange", "blue", "yellow", "green"],
};
const MAX_PLAYERS = { "chariot-race": 6, hexenrennen: 4 };
const setup = { players: [{ name: "", colour: "green", bot: false }, { name: "", colour: "red", bot: false }],
  order: [] };

const BOTS_PLAY = document.getElementById("new-game").hasAttribute("data-bots");
const chosenGame = () => document.querySelector("input[name=game]:checked").value;
const palette = () => PALETTES[chosenGame()] || PALETTES["chariot-race"];
const maxPlayers = () => MAX_PLAYERS[chosenGame()] || 6;
const startMode = () => document.querySelector("input[name=start]:checked").value;

function chariotIds() {
  const two = setup.players.length <= 3;
  return setup.players.flatMap((p) => (two ? [p.colour, `${p.colour}-2`] : [p.colour]));
}

function chariotLabel(id) {
  const player = setup.players.find((p) => id === p.colour || id === `${p.colour}-2`);
  const name = (player && player.name) || colourName(player ? player.colour : id);
  return setup.players.length <= 3 ? `${name} (${colourName(player.colour)}${id.endsWith("-2") ? " 2" : ""})` : name;
}

function renderPlayers() {
  const box = document.getElementById("players");
  box.replaceChildren(...setup.players.map((player, k) => el("div", { class: "player-row", "data-player": k },
    el("input", { type: "text", name: `player-${k}`, value: player.name, "aria-label": T("player_name"),
      placeholder: `${T("player_name")} ${k + 1}`, oninput: (e) => { player.name = e.target.value; renderOrder(); } }),
    el("span", { class: "colour-pick" }, palette().map((colour) => el("button", {
      type: "button", class: `colour-${colour}${player.colour === colour ? " chosen" : ""}`, "data-colour": colour,
      title: colourName(colour), "aria-label": colourName(colour),
      disabled: setup.players.some((p, j) => j !== k && p.colour === colour),
      onclick: () => { player.colour = colour; setup.order = []; renderPlayers(); } }))),
    BOTS_PLAY ? el("span", { class: "seat-kind", role: "group", "aria-label": T("seat_kind") }, [false, true].map(
      (bot) => el("button", { type: "button", class: player.bot === bot ? "chosen" : "", "data-kind": bot ? "bot"
        : "person", "aria-pressed": String(player.bot === bot), onclick: () => { player.bot = bot; renderPlayers(); } },
      T(bot ? "seat_bot" : "seat_person")))) : null,
    setup.players.length > 2 ? el("button", { type: "button", class: "quiet", onclick: () => {
      setup.players.splice(k, 1); setup.order = []; renderPlayers(); } }, T("remove")) : null)));
  document.getElementById("add-player").disabled = setup.players.length >= maxPlayers();
  renderOrder();
}

function renderOrder() {
  const box = document.getElementById("start-order");
  const hint = document.getElementById("start-order-hint");
  if (startMode() !== "chosen") { box.replaceChildren(); hint.textContent = ""; return; }
  box.replaceChildren(...chariotIds().map((id) => {
    const at = setup.order.indexOf(id);
    const colour = id.replace(/-2$/, "");
    return el("button", { type: "button", class: `option colour-${colour}${at >= 0 ? " selected" : ""}`,
      "data-chariot": id, onclick: () => {
        if (at >= 0) setup.order.splice(at, 1); else setup.order.push(id);
        renderOrder();
      } }, el("span", { class: "swatch" }), at >= 0 ? `${at + 1}. ` : "", chariotLabel(id));
  }));
  hint.textContent = T("start_order_hint", { order: setup.order.map((id, k) => `${k + 1} ${chariotLabel(id)}`)
    .join(", ") || "–" });
}

function renderGame() {
  const chariot = chosenGame() === "chariot-race";
  const hexen = chosenGame() === "hexenrennen";
  for (const node of document.querySelectorAll(".chariot-only")) node.hidden = !chariot;
  for (const node of document.querySelectorAll(".hexen-only")) node.hidden = !hexen;
  // Each game has its own colours: keep what fits, give the others a free colour of this game.
  setup.players = setup.players.slice(0, maxPlayers());
  for (const player of setup.players) {
    const taken = (colour) => setup.players.some((p) => p !== player && p.colour === colour);
    if (!palette().includes(player.colour) || taken(player.colour)) {
      player.colour = palette().find((colour) => !taken(colour));
    }
  }
  setup.order = [];
  const start = document.getElementById("start-game");
  start.dataset.i18n = hexen ? "hx_start_game" : "start_game";
  start.textContent = T(start.dataset.i18n);
  renderPlayers();
}

document.getElementById("add-player").addEventListener("click", () => {
  const free = palette().find((c) => !setup.players.some((p) => p.colour === c));
  setup.players.push({ name: "", colour: free, bot: false });
  setup.order = [];
  renderPlayers();
});
for (const input of document.querySelectorAll("input[name=start]")) input.addEventListener("change", renderOrder);
for (const input of document.querySelectorAll("input[name=game]")) input.addEventListener("change", renderGame);

document.getElementById("new-game").addEventListener("submit", async (submit) => {
  submit.preventDefault();
  const error = document.getElementById("setup-error");
  const players = setup.players.map((p, k) => ({ name: p.name.trim() || `${T("player_name")} ${k + 1}`,
    colour: p.colour, ...(BOTS_PLAY ? { bot: p.bot } : {}) }));
  let body;
  if (chosenGame() === "chariot-race") {
    const options = {
      players,
      board: document.querySelector("input[name=board]:checked").value,
      variants: {
        no_damage_after_finish: document.querySelector("input[name=no_damage_after_finish]").checked,
        alternative_chariots: document.querySelector("input[name=alternative_chariots]").checked,
      },
      start: startMode() === "chosen" ? { order: setup.order } : "random",
    };
    body = { game: "chariot-race", options };
  } else if (chosenGame() === "hexenrennen") {
    body = { game: "hexenrennen", options: { players, tiles: "hidden" } };
  } else {
    body = { game: chosenGame(), options: { players: players.map(({ colour, ...p }) => p) } };  // no colours
  }
  const answer = await post("/api/game", body);
  if (!answer.ok) {
    error.textContent = answer.body.error || T("error");
    if (answer.status === 401) showLogin();
    return;
  }
  window.location.href = "/";
});

document.getElementById("connection").hidden = true;  // no live stream on this page
onLanguageChange.push(() => renderPlayers());
renderPlayers();
renderGame();
