// The table screen: one EventSource with the full state in every message, so a missed message heals itself.
// Each game's browser module (its package's static/<package>.js, served as /games/<id>.js; it calls registerGame)
// draws its track, its boards and its turn panel;
// this page dispatches to the one of the game on the table. A game without one gets a plain table of its view and
// its options. The page itself owns the stream, the roll box, the buttons, the log and undo.
"use strict";

const $ = (selector) => document.querySelector(selector);
const S = {
  state: null, layout: null, layoutFor: null, boards: {},
  entries: [], logFor: null, lastLogSeq: 0, logChain: Promise.resolve(),
  selection: [], draft: [], dest: null, alt: 0, turnKey: "", armed: null, pickerIndex: null, seenAt: {},
  seatsByGame: {},
};

// ---- helpers ------------------------------------------------------------------------------------------------------

// The game's own browser module (registerGame), or null: a game without one gets the plain table of its view.
const gameUI = () => (S.state && S.state.game && GAME_UI[S.state.game.id]) || null;
const view = () => (S.state && S.state.view) || {};

const actorName = (id) => (gameUI() ? gameUI().name(id) : id);

// A die face as the game draws its own dice (its module's dieIcon, same arguments), else common.js's drawing.
const faceIcon = (face, opts) => (gameUI() && gameUI().dieIcon ? gameUI().dieIcon(face, opts)
  : dieIcon(face, opts));

function options() { return (S.state && S.state.prompt && S.state.prompt.options) || []; }
function findOption(test) { return options().findIndex(test); }
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// An option's text as the server names it in this screen's language (prompt.labels, from the game's present.py:
// the buttons say the same words); an option it does not name shows its type and fields.
function plainLabel(option) {
  const { type, ...rest } = option;
  const extra = Object.entries(rest).map(([k, v]) => `${k} ${v}`).join(", ");
  return extra ? `${type} (${extra})` : type;
}
function optionLabel(option) {
  const prompt = (S.state && S.state.prompt) || {};
  const labels = (prompt.labels && prompt.labels[CATALOG.lang]) || [];
  const index = (prompt.options || []).findIndex((o) => same(o, option));
  return (index >= 0 && labels[index]) || plainLabel(option);
}

// A refusal is about the tap that was refused: it goes after a while, and soon once the table has moved on (but
// never at once: a refusal that arrives just after the new state must still be read).
const ERROR_SECONDS = 10;
const ERROR_AFTER_A_CHANGE = 3;

function showError(text) {
  $("#action-error").textContent = text || "";
  clearTimeout(S.errorTimer);
  S.errorAt = text ? Date.now() : 0;
  if (text) S.errorTimer = setTimeout(() => showError(""), ERROR_SECONDS * 1000);
}

function errorOnAChange() {
  if (!S.errorAt) return;
  clearTimeout(S.errorTimer);
  S.errorTimer = setTimeout(() => showError(""), Math.max(0, S.errorAt + ERROR_AFTER_A_CHANGE * 1000 - Date.now()));
}

// Every change names the state it was chosen on (seq) and, for dice, the reading it saw: if the table has moved on
// (another tablet, a button, a late second tap), the server refuses it and we say so instead of doing anything.
// One request at a time: the controls are locked while it is on its way.
async function send(path, body) {
  if (S.busy) return { ok: false, status: 0, body: {} };
  S.busy = true;
  S.sentAt = Date.now();  // the new state may come before the answer: it is this screen's own move all the same
  lockControls();
  const reading = S.state.pending ? S.state.pending.reading : undefined;
  let answer;
  try {
    answer = await post(path, { ...body, seq: S.state.seq, game: S.state.game ? S.state.game.number : undefined,
      ...(body.reading === null ? { reading } : {}) });
  } finally {
    S.busy = false;
    lockControls();
  }
  if (answer.ok) showError("");
  else {
    showError(refusalText(answer));
    if (answer.status === 401) showLogin();
  }
  return answer;
}

function lockControls() {
  document.body.classList.toggle("busy", Boolean(S.busy));
  for (const button of document.querySelectorAll("#turn button, #undo, #face-picker-faces button")) {
    if (S.busy && !button.disabled) { button.disabled = true; button.dataset.busy = "1"; }
    else if (!S.busy && button.dataset.busy) { button.disabled = false; delete button.dataset.busy; }
  }
}

// A spectator's tap on the track (a destination, a target) asks for the PIN instead of being refused.
const confirmOption = (index) => (control ? send("/api/confirm", { option: index, actor: S.state.prompt.actor,
  reading: null }) : showLogin());

// ---- this device's seat -------------------------------------------------------------------------------------------

// A phone or tablet may take a seat (or two: a player may drive two chariots). It is remembered in this browser per
// game number, never on the server: a spectator may follow a seat too, and a seat is not a right to play. A seated
// screen shows its own boards and the turn first, folds the other seats and says "your turn" unmistakably. The kiosk
// (no #seat-bar) stays the whole table. Seat ids are the actors the server lists in state.seats (Game.seats), and a
// game's module marks each seat's board with data-seat: this page names no game.
const seatKey = () => `seat:${S.state.game.number}`;
const tableSeats = () => (S.state && S.state.game && !S.state.game.over && S.state.seats) || [];

function mySeats() {
  if (!$("#seat-bar") || !tableSeats().length) return [];
  const key = seatKey();
  if (!(key in S.seatsByGame)) {
    try { S.seatsByGame[key] = JSON.parse(localStorage.getItem(key) || "[]"); } catch (_) { S.seatsByGame[key] = []; }
  }
  const saved = S.seatsByGame[key];
  return Array.isArray(saved) ? tableSeats().map((seat) => seat.id).filter((id) => saved.includes(id)) : [];
}

function setMySeats(ids) {
  S.seatsByGame[seatKey()] = ids;
  try {
    if (ids.length) localStorage.setItem(seatKey(), JSON.stringify(ids));
    else localStorage.removeItem(seatKey());
  } catch (_) { /* storage refused (a private window): the seat lasts as long as the page */ }
  render();
}

const isMine = (actor) => Boolean(actor) && mySeats().includes(actor);

function renderSeatBar() {
  const bar = $("#seat-bar");
  if (!bar) return;
  const seats = tableSeats();
  const mine = mySeats();
  document.body.classList.toggle("seated", mine.length > 0);
  if (!seats.length) { bar.replaceChildren(); return; }
  if (S.choosingSeat) {
    bar.replaceChildren(el("p", { class: "hint" }, T("seat_choose")), el("div", { class: "seat-choices" },
      seats.map((seat) => el("button", { type: "button", class: "seat-choice", "data-seat": seat.id,
        "aria-pressed": mine.includes(seat.id) ? "true" : "false",
        onclick: () => setMySeats(mine.includes(seat.id) ? mine.filter((id) => id !== seat.id) : [...mine, seat.id]) },
      actorName(seat.id), seat.bot ? el("small", { class: "tag" }, T("seat_bot")) : null))),
    el("button", { type: "button", class: "primary", id: "seat-done",
      onclick: () => { S.choosingSeat = false; render(); } }, T("seat_done")),
    mine.length ? el("button", { type: "button", class: "quiet", id: "seat-give-back",
      onclick: () => { S.choosingSeat = false; setMySeats([]); } }, T("seat_give_back")) : null);
    return;
  }
  const choose = () => { S.choosingSeat = true; render(); };
  if (!mine.length) {
    bar.replaceChildren(el("button", { type: "button", class: "quiet", id: "seat-take", onclick: choose },
      T("seat_take")));
    return;
  }
  bar.replaceChildren(el("span", { class: "seat-mine" }, T("seat_yours", { name: mine.map(actorName).join(", ") })),
    el("button", { type: "button", class: "quiet", id: "seat-change", onclick: choose }, T("seat_change")));
}

// "Your turn": a banner over the turn, the panel in the seat's light, and a vibration where the browser allows it,
// once each time a decision comes to one of this screen's seats (not again for each step of the same turn).
function renderYourTurn() {
  const box = $("#your-turn");
  if (!box) return;
  const mine = mySeats();
  const actor = S.state.game && !S.state.game.over ? S.state.prompt.actor : null;
  const myTurn = isMine(actor);
  document.body.classList.toggle("my-turn", myTurn);
  box.hidden = !mine.length || !actor;
  box.classList.toggle("mine", myTurn);
  box.textContent = myTurn ? T("your_turn", { name: actorName(actor) }) : actor ? T("seat_waiting",
    { name: actorName(actor) }) : "";
  const turnStarts = myTurn && actor !== S.lastActor && S.lastActor !== undefined;
  S.lastActor = actor;
  if (!turnStarts) return;
  if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
  bringIntoView("#your-turn", { fromBelow: true });
}

// A part scrolled up out of sight (the next decision after a long roll box confirmed at its foot) comes back into
// view; one below the screen only where the player is called (their turn), not after every tap on the track.
function bringIntoView(selector, { fromBelow = false } = {}) {
  const node = $(selector);
  if (!node || window.TABLE.kiosk) return;
  const box = node.getBoundingClientRect();
  if (box.top < 0 || (fromBelow && box.top > window.innerHeight - 40)) node.scrollIntoView({ block: "start" });
}

// ---- the track ---------------------------------------------------------------------------------------------------

function drawBoard() {
  const track = $("#track");
  track.replaceChildren();
  track.removeAttribute("class");  // a game's module sets its own
  const ui = gameUI();
  const shown = Boolean(ui && S.layout && S.layout.game === S.state.game.id);
  track.toggleAttribute("hidden", !shown);  // an <svg> has no .hidden property
  if (shown) ui.drawTrack(track);
}

function drawOverlay() {
  if (gameUI()) gameUI().drawOverlay();
}

// ---- the game's boards -------------------------------------------------------------------------------------------

function renderBoards() {
  const container = $("#boards");
  const ui = gameUI();
  container.hidden = !ui;
  const nodes = ui ? ui.boards() : [];
  const mine = mySeats();
  if (!mine.length) { container.replaceChildren(...nodes); return; }
  // A seated screen: its own boards first, the other seats folded (one tap opens them), then the rest (the cards).
  const seat = (node) => (node.dataset ? node.dataset.seat : undefined);
  const others = nodes.filter((node) => seat(node) && !mine.includes(seat(node)));
  const fold = others.length ? el("details", { class: "other-seats", id: "other-seats", open: Boolean(S.othersOpen),
    ontoggle: (event) => { S.othersOpen = event.target.open; } },
  el("summary", {}, T("seat_others", { n: others.length })), el("div", { class: "other-boards" }, others)) : null;
  container.replaceChildren(...nodes.filter((node) => mine.includes(seat(node))), ...(fold ? [fold] : []),
    ...nodes.filter((node) => !seat(node)));
}

// ---- the turn -----------------------------------------------------------------------------------------------------

function plainBanner() {
  const v = view();
  if (S.state.game.over) {
    return [el("span", { class: "winner" }, v.winner ? T("winner", { name: actorName(v.winner) }) : T("no_winner"))];
  }
  return [el("span", { class: "who" }, T("turn_of", { name: actorName(S.state.prompt.actor) }))];
}

function renderBanner() {
  const banner = $("#turn-banner");
  if (!S.state.game) { banner.replaceChildren(); return; }
  banner.replaceChildren(...(gameUI() ? gameUI().banner() : plainBanner()));
}

function renderOrder() {
  $("#order").replaceChildren(...(gameUI() ? gameUI().order() : []));
}

function renderPhases() {
  $("#phases").replaceChildren(...(gameUI() ? gameUI().phases() : []));
}

function dieButton(face, { index, selected = false, pending = null, onclick = null } = {}) {
  const classes = ["die"];
  if (selected) classes.push("selected");
  if (pending && pending.low) classes.push("low");
  if (pending && pending.corrected) classes.push("corrected");
  const caption = [];
  if (pending) {
    if (pending.corrected) caption.push(el("small", { class: "tag" }, T(pending.ref ? "corrected_kept" : "corrected")));
    else if (pending.manual) caption.push(el("small", { class: "tag" }, T("by_hand")));
    else caption.push(el("small", { class: "conf" }, T("confidence", { p: Math.round(100 * pending.confidence) })));
  }
  // A spectator's dice are a picture, not a control.
  const tappable = control && onclick;
  return el(tappable ? "button" : "span", { type: tappable ? "button" : null, class: classes.join(" "),
    "data-index": index, "data-face": face, "aria-pressed": selected ? "true" : null, onclick: tappable ? onclick : null },
  faceIcon(face, { unknown: pending && pending.low }), el("span", { class: "face" }, faceName(face)), caption);
}

function openPicker(index) {
  const dialog = $("#face-picker");
  S.pickerIndex = index;
  $("#face-picker-title").textContent = T("choose_face", { n: index + 1 });
  const faces = (S.layout && S.layout.faces) || [];
  $("#face-picker-faces").replaceChildren(...faces.map((face) => el("button", { type: "button", class: "face-btn",
    "data-face": face, onclick: async () => {
      dialog.close();
      await send(`/api/dice/${index}`, { label: face, actor: S.state.prompt.actor, reading: null });
    } }, faceIcon(face, { size: 64 }), el("span", {}, faceName(face)))));
  if (!dialog.open) dialog.showModal();
}
$("#face-picker-cancel").addEventListener("click", () => $("#face-picker").close());

// The camera's state as the session publishes it (vision.camera_state.CameraState): lost or off reads no dice.
const cameraState = () => ((S.state.status || {}).camera || {}).state;
const cameraReads = () => window.TABLE.camera && !["lost", "off"].includes(cameraState());

function rollBox(needed, optionIndex, { reroll = false } = {}) {
  const pending = S.state.pending;
  const box = el("div", { class: "roll-box", "data-needed": needed });
  box.append(el("p", { class: "hint big" }, T(reroll ? "reroll_now" : "roll_now", { n: needed })));
  const dice = pending ? pending.dice : [];
  if (dice.length) {
    box.append(el("p", { class: "source" }, T(pending.source === "manual" ? "entered_by_hand" : "read_by_camera")));
    // The camera read the tray again before anyone confirmed: these are other dice than a moment ago.
    if (pending.replaces) box.append(el("p", { id: "tray-changed", class: "warn" }, T("tray_changed")));
    const manual = pending.source === "manual";  // typed in: no confidence to show
    box.append(el("div", { id: "pending", class: "dice-row" }, dice.map((die, i) => dieButton(die.label, {
      index: i, pending: { ...die, manual }, onclick: () => openPicker(i) }))));
    const low = dice.filter((d) => d.low).length;
    if (low) box.append(el("p", { class: "warn" }, T(low > 1 ? "low_waiting_many" : "low_waiting", { n: low })));
    if (dice.length !== needed) {
      box.append(el("p", { class: "warn" }, T("wrong_count", { have: dice.length, need: needed })));
    }
  } else {
    // A player is told the dice can be typed in too; a spectator, who cannot, only that the camera is awaited.
    const camera = control ? "waiting_camera_or_hand" : "waiting_camera";
    const waiting = cameraReads() ? camera : cameraState() === "lost" ? "camera_lost" : "camera_off";
    box.append(el("p", { class: "waiting" }, T(waiting)));
  }
  const ready = dice.length === needed && !dice.some((d) => d.low);
  box.append(el("button", { type: "button", id: "confirm-roll", class: "primary big", disabled: !ready,
    onclick: () => confirmOption(optionIndex) }, T("confirm_roll")));
  const faces = (S.layout && S.layout.faces) || [];
  const manual = el("details", { class: "manual", open: !cameraReads() || S.draft.length > 0 },
    el("summary", {}, T("manual_entry")),
    el("p", {}, T("manual_hint", { n: needed })),
    el("div", { class: "face-row palette" }, faces.map((face) => el("button", { type: "button", class: "face-btn",
      "data-face": face, onclick: () => addDraft(face, needed) }, faceIcon(face, { size: 44 }),
    el("span", {}, faceName(face))))),
    el("div", { class: "dice-row draft" }, S.draft.map((face, i) => dieButton(face, { index: i,
      onclick: () => { S.draft.splice(i, 1); render(); } }))),
    S.draft.length ? el("button", { type: "button", class: "quiet", onclick: () => { S.draft = []; render(); } },
      T("clear")) : null);
  box.append(manual);
  return box;
}

async function addDraft(face, needed) {
  if (S.draft.length >= needed) S.draft = [];
  S.draft.push(face);
  if (S.draft.length === needed) {
    const dice = S.draft;
    S.draft = [];
    await send("/api/dice", { dice });
  }
  render();
}

// What option `index` does (its card, ability or space), as the game's present.py says it in this screen's language.
function optionHelp(index) {
  const help = (S.state && S.state.prompt && S.state.prompt.help) || {};
  return (help[CATALOG.lang] || [])[index] || null;
}

// The helps of options that have no button of their own to stand beside (cards in a hand, dice to tap), in a row.
function helpRow(indices) {
  const tips = indices.map(optionHelp).filter(Boolean).map(helpTip);
  return tips.length ? el("div", { class: "help-row" }, tips) : null;
}

function actionButton(label, index, cls = "") {
  return withHelp(el("button", { type: "button", class: `option ${cls}`, "data-option": index,
    onclick: () => confirmOption(index) }, label), optionHelp(index));
}

function renderSetup() {
  const setup = gameUI() ? gameUI().setup() : null;
  $("#setup-card").replaceChildren(...(setup ? [setup] : []));
}

function renderTurn() {
  const heading = $("#prompt");
  const turnBody = $("#turn-body");
  const optionsBox = $("#options");
  optionsBox.replaceChildren();
  turnBody.replaceChildren();
  if (!S.state.game) {
    heading.textContent = T("no_game");
    turnBody.append(el("a", { class: "button primary big", href: "/new" }, T("start_one")));
    return;
  }
  const prompt = S.state.prompt;
  if (gameUI()) {
    heading.textContent = gameUI().heading();
    turnBody.append(...gameUI().body().filter(Boolean));
  } else {
    heading.textContent = S.state.game.over ? T("no_winner").split(":")[0] : T("turn_of", { name: prompt.actor });
    if (S.state.game.over) return;
    const rolls = options().map((o, i) => [o, i]).filter(([o]) => "roll" in o);
    for (const [o, i] of rolls) turnBody.append(rollBox(o.roll, i));
    if (control) {
      options().forEach((o, i) => { if (!("roll" in o)) optionsBox.append(actionButton(optionLabel(o), i)); });
    }
  }
  if (!control) {
    turnBody.append(el("p", { class: "read-only" }, T("read_only"), " ", el("button", { type: "button",
      class: "take-control", id: "take-control", onclick: showLogin }, T("take_control"))));
  }
}

function renderGenericView() {
  const box = $("#view");
  box.replaceChildren();
  if (!S.state.game || gameUI()) return;
  const rows = view().players || [];
  if (!rows.length) return;
  const keys = Object.keys(rows[0]);
  // A column's name from the game's texts (view_<key>), else the key itself.
  const heading = (key) => ((CATALOG.ui || {})[`view_${key}`] ? T(`view_${key}`) : key);
  box.append(el("table", {}, el("tr", {}, keys.map((k) => el("th", {}, heading(k)))),
    rows.map((row) => el("tr", row.name === view().current ? { class: "current" } : {},
      keys.map((k) => el("td", {}, String(row[k])))))));
}

// More options than this and the wired Next is no way to choose: the panel says to tap the choice (or hold Next).
const NEXT_PRESSES = 8;

function renderButtons() {
  const panel = $("#buttons-panel");
  if (!S.state.game || S.state.game.over) { panel.replaceChildren(); return; }
  const prompt = S.state.prompt;
  const list = options();
  const cursor = prompt.cursor || 0;
  const current = list[cursor];
  const next = list.length > 1 ? list[(cursor + 1) % list.length] : null;
  const press = (name, hold = false) => send(`/api/buttons/${name}`, { hold });
  panel.replaceChildren(el("h3", {}, T("buttons")), el("div", { class: "hw-buttons" },
    el("button", { type: "button", class: "hw confirm", id: "button-confirm", onclick: () => press("confirm") },
      el("span", { class: "knob" }), el("span", { class: "name" }, T("button_confirm")),
      el("span", { class: "what" }, current ? optionLabel(current) : T("does_nothing"))),
    el("button", { type: "button", class: "hw next", id: "button-next", onclick: () => press("next") },
      el("span", { class: "knob" }), el("span", { class: "name" }, T("button_next")),
      el("span", { class: "what" }, next ? `${T("option_n", { i: ((cursor + 1) % list.length) + 1, n: list.length })}`
        + `: ${optionLabel(next)}` : T("does_nothing"))),
    el("button", { type: "button", class: `hw back${S.armed === "button-back" ? " armed" : ""}`, id: "button-back",
      onclick: () => twoTaps("button-back", () => press("back", true)) },
    el("span", { class: "knob" }), el("span", { class: "name" }, T("button_back")),
    el("span", { class: "what" }, S.armed === "button-back" ? T("back_confirm")
      : S.state.undoable ? T("undo") : T("does_nothing")))),
  ...(list.length > NEXT_PRESSES ? [el("p", { class: "hint" }, T("next_many", { n: list.length }))] : []));
}

// An undo on screen takes two taps: the first arms the button (it asks, translated), a second within 4 s undoes.
const ARMED_SECONDS = 4;

function twoTaps(id, action) {
  clearTimeout(S.armedTimer);
  if (S.armed === id) {
    S.armed = null;
    renderArmed();
    return action();
  }
  S.armed = id;
  S.armedTimer = setTimeout(() => { S.armed = null; renderArmed(); }, ARMED_SECONDS * 1000);
  renderArmed();
  return null;
}

function renderArmed() {
  const undo = $("#undo");
  undo.textContent = T(S.armed === "undo" ? "undo_confirm" : "undo");
  undo.classList.toggle("armed", S.armed === "undo");
  if (!S.busy) undo.disabled = !(S.state && S.state.undoable);
  if (S.state) renderButtons();
}

// ---- the log ------------------------------------------------------------------------------------------------------

function renderLog() {
  const list = $("#events");
  list.replaceChildren(...[...S.entries].reverse().map((entry) => el("li", {
    value: entry.seq, class: `entry${entry.undone ? " undone" : ""}${entry.type === "undo" ? " undo" : ""}`,
    "data-seq": entry.seq },
  entry.lines.map((line) => el("span", { class: `line${line.forced ? " forced" : ""} ev-${line.event}` }, line.text)),
  entry.undone ? el("small", { class: "tag" }, T("undone")) : null)));
  renderMessages();
}

// "Just now": the newest lines of the log in a box of fixed height beside the prompt, so a message never covers a
// control nor pushes one away, and the line of a decision is replaced by the line of the decision taken. A line
// that just came (a ram, a spear, an undo) is marked fresh for a few seconds.
const MESSAGE_LINES = 2;
const FRESH_SECONDS = 8;

function renderMessages() {
  const box = $("#just-now");
  const lines = S.entries.flatMap((entry) => entry.lines.map((line) => ({ ...line, seq: entry.seq,
    undo: entry.type === "undo" }))).slice(-MESSAGE_LINES);
  const now = Date.now();
  const seenAt = {};  // only the lines shown are remembered: a line that left the box does not come back
  box.replaceChildren(...lines.map((line) => {
    const key = `${S.logFor}:${line.seq}:${line.text}`;
    seenAt[key] = S.seenAt[key] || now;
    const fresh = now - seenAt[key] < FRESH_SECONDS * 1000;
    return el("p", { class: `line${line.forced ? " forced" : ""}${line.undo ? " undo" : ""}${fresh ? " fresh" : ""}`,
      "data-seq": line.seq }, line.text);
  }));
  S.seenAt = seenAt;
  clearTimeout(S.messagesTimer);
  if (box.querySelector(".fresh")) S.messagesTimer = setTimeout(renderMessages, FRESH_SECONDS * 1000);
}

// A new entry as an event message brings it: an undo marks what it took back.
function addEntry(entry) {
  S.logChain = S.logChain.then(() => {
    if (S.entries.some((e) => e.seq === entry.seq)) return;
    if (entry.type === "undo") for (const e of S.entries) if (e.seq === entry.undoes) e.undone = true;
    S.entries.push(entry);
    S.lastLogSeq = entry.seq;
    renderLog();
  });
  return S.logChain;
}

function updateLog({ full = false } = {}) {
  S.logChain = S.logChain.then(async () => {
    if (!S.state || !S.state.game) { S.entries = []; S.lastLogSeq = 0; renderLog(); return; }
    const fresh = full || S.logFor !== S.state.game.number;
    const after = fresh ? 0 : S.lastLogSeq;
    let answer;
    try {
      const response = await fetch(`/api/log?lang=${CATALOG.lang}&after=${after}`);
      answer = await response.json();
    } catch (_) { return; }
    if (fresh) S.entries = [];
    const known = new Set(S.entries.map((e) => e.seq));
    const added = answer.entries.filter((e) => !known.has(e.seq));
    S.entries.push(...added);
    const undone = new Set(answer.undone || []);
    for (const entry of S.entries) entry.undone = undone.has(entry.seq);
    S.logFor = answer.game;
    S.lastLogSeq = S.entries.length ? S.entries[S.entries.length - 1].seq : 0;
    renderLog();
  });
  return S.logChain;
}

// ---- undo ---------------------------------------------------------------------------------------------------------

$("#undo").addEventListener("click", () => twoTaps("undo", () => send("/api/action", { type: "undo", actor: "table" })));

// ---- putting it together ------------------------------------------------------------------------------------------

async function ensureLayout() {
  const number = S.state.game ? S.state.game.number : null;
  if (S.layoutFor === number && S.layout) return;
  try {
    const response = await fetch("/api/layout");
    S.layout = await response.json();
  } catch (_) { return; }
  S.layoutFor = S.layout.number;
  drawBoard();
}

// The game log's trouble, on every screen until it passes: a full card, or a damaged log moved aside at the start.
function renderStoreAlert() {
  const store = (S.state.status || {}).store;
  const alert = $("#store-alert");
  alert.hidden = !store;
  alert.textContent = !store ? "" : store.state === "full" ? T("store_full") : T("store_moved_aside", { file: store.file });
}

// Dice of the confirmed roll moved in the tray before they were picked up (companion.session.TableSession.die_moved):
// said on every screen, beside the controls, until the next roll; the roll counts as it was confirmed.
function renderTrayNotice() {
  const tray = (S.state.status || {}).tray;
  const notice = $("#tray-notice");
  notice.hidden = !tray;
  notice.textContent = tray ? T("tray_moved", { n: tray.moved.length }) : "";
}

function render() {
  if (!S.state) return;
  const state = S.state;
  const key = state.game ? `${state.game.number}:${state.seq}:${state.prompt.phase}:${state.prompt.actor}` : "";
  const turnChanged = key !== S.turnKey;
  if (turnChanged) {
    S.turnKey = key;
    errorOnAChange();
    if (S.armed) { clearTimeout(S.armedTimer); S.armed = null; renderArmed(); }  // asked about another state
    S.selection = [];
    S.dest = null;
    S.alt = 0;
  }
  if (gameUI()) gameUI().reset(key);
  for (const id of Object.keys(GAME_UI)) {
    document.body.classList.toggle(id, Boolean(S.state.game) && S.state.game.id === id);
  }
  document.getElementById("title").textContent = state.game ? state.game.title : T("title");
  renderBanner();
  renderStoreAlert();
  renderTrayNotice();
  renderOrder();
  renderPhases();
  renderSetup();
  renderTurn();
  renderRaceOver();
  renderGenericView();
  renderBoards();
  renderArmed();
  drawOverlay();
  lockControls();
  renderSeatBar();
  renderYourTurn();
  // This screen's own tap moved the table on: its next decision comes into view, not above the screen.
  if (turnChanged && Date.now() - (S.sentAt || 0) < 10000) bringIntoView("#turn");
}

async function onMessage(kind, message) {
  const previous = S.state;
  S.state = message.state;
  const newGame = !previous || !previous.game || !S.state.game || previous.game.number !== S.state.game.number;
  if (newGame) {
    S.draft = [];  // dice typed in for the game before are not the new game's roll
    S.choosingSeat = false;
    await ensureLayout();
  }
  render();
  const entry = kind === "event" && message.log && message.log[CATALOG.lang];
  if (entry && !newGame && S.logFor === S.state.game.number && entry.seq === S.lastLogSeq + 1) {
    addEntry(entry);  // the message carries its own lines
  } else if (newGame || previous.seq !== S.state.seq || kind === "hello") {
    await updateLog({ full: newGame || kind === "hello" });
  }
  if (kind === "event" && message.event && gameUI() && gameUI().onEvent) gameUI().onEvent(message.event);
}

function connect() {
  const badge = $("#connection");
  const source = new EventSource("/api/stream");
  S.source = source;
  const handler = (message) => onMessage(message.type, JSON.parse(message.data));
  for (const kind of ["hello", "event", "new_game", "resumed", "pending", "status", "cursor"]) {
    source.addEventListener(kind, handler);
  }
  source.onopen = () => {
    badge.dataset.i18n = "live"; badge.textContent = T("live"); badge.className = "badge live";
  };
  // EventSource reconnects by itself after a restart (the hello message brings the full state); if the server
  // answered with an error instead, it gives up, so we start a new one.
  source.onerror = () => {
    badge.dataset.i18n = "reconnecting"; badge.textContent = T("reconnecting"); badge.className = "badge down";
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
  };
}

onLanguageChange.push(() => { render(); updateLog({ full: true }); });
onControlChange.push(() => render());
connect();
