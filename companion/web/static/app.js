// The live table page: one EventSource, full state in every message, so a missed message heals itself.
"use strict";

const csrf = () => document.querySelector('meta[name="csrf-token"]').content;
let control = document.body.dataset.control === "yes";
let lastState = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

function describe(value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) return value.map(describe).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}: ${describe(v)}`).join(", ");
  return String(value);
}

function renderView(state) {
  const view = document.getElementById("view");
  view.replaceChildren();
  if (!state.game) { view.append(el("p", {}, "No game yet.")); return; }
  document.getElementById("title").textContent = state.game.title + (state.game.over ? " – finished" : "");
  const rows = state.view.players || state.view.chariots || [];
  if (rows.length) {
    const keys = Object.keys(rows[0]);
    const table = el("table", {}, el("tr", {}, ...keys.map((k) => el("th", {}, k))));
    for (const row of rows) {
      const current = (row.name || row.id) === state.view.current;
      table.append(el("tr", current ? { class: "current" } : {}, ...keys.map((k) => el("td", {}, describe(row[k])))));
    }
    view.append(table);
  }
  for (const [key, value] of Object.entries(state.view)) {
    if (key === "players" || key === "chariots" || value === null || typeof value === "object") continue;
    view.append(el("p", {}, `${key}: ${describe(value)}`));
  }
}

function optionLabel(option) {
  const { type, ...rest } = option;
  return Object.keys(rest).length ? `${type} (${describe(rest)})` : type;
}

function renderPrompt(state) {
  const prompt = document.getElementById("prompt");
  const options = document.getElementById("options");
  const pending = document.getElementById("pending");
  options.replaceChildren();
  pending.textContent = state.pending ? "Dice read: " + state.pending.dice.map((d) => d.label).join(" ") : "";
  if (!state.game) { prompt.textContent = ""; return; }
  if (state.game.over) { prompt.textContent = "The game is over."; return; }
  prompt.textContent = `${state.prompt.actor}: ${state.prompt.phase}`;
  if (!control) return;
  state.prompt.options.slice(0, 40).forEach((option) => {
    const button = el("button", { type: "button" }, optionLabel(option));
    button.addEventListener("click", () => send(option));
    options.append(button);
  });
  if (state.seq > 0) {
    const undo = el("button", { type: "button" }, "Undo");
    undo.addEventListener("click", () => send({ type: "undo" }));
    options.append(undo);
  }
}

async function send(option) {
  const action = { ...option, actor: lastState.prompt.actor };
  if ("roll" in action) {
    const typed = window.prompt(`Faces of ${action.roll} dice, separated by spaces`);
    if (!typed) return;
    action.dice = typed.trim().split(/\s+/);
    delete action.roll;
  }
  const response = await fetch("/api/action", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
    body: JSON.stringify(action),
  });
  const body = await response.json();
  document.getElementById("action-error").textContent = response.ok ? "" : body.error;
}

function renderEvent(event) {
  const { action, events } = event.payload;
  const what = event.type === "undo" ? `undo of #${event.payload.undoes}` : optionLabel(action);
  const consequences = (events || []).map((e) => optionLabel(e)).join("; ");
  return el("li", { value: event.seq }, `${event.actor}: ${what}${consequences ? " → " + consequences : ""}`);
}

async function reloadLog(state) {
  const list = document.getElementById("events");
  if (!state.game) { list.replaceChildren(); return; }
  const response = await fetch("/api/events?after=0");
  const body = await response.json();
  list.replaceChildren(...body.events.reverse().map(renderEvent));
}

function render(state) {
  const newGame = !lastState || !lastState.game || !state.game || lastState.game.number !== state.game.number;
  const changed = newGame || lastState.seq !== state.seq;
  lastState = state;
  renderView(state);
  renderPrompt(state);
  if (changed) reloadLog(state);
}

function connect() {
  const badge = document.getElementById("connection");
  const source = new EventSource("/api/stream");
  const onMessage = (message) => render(JSON.parse(message.data).state);
  for (const kind of ["hello", "event", "new_game", "resumed", "pending", "status", "cursor"]) {
    source.addEventListener(kind, onMessage);
  }
  source.onopen = () => { badge.textContent = "live"; badge.className = "badge live"; };
  // EventSource reconnects by itself after a server restart; the hello message then brings the full state.
  source.onerror = () => { badge.textContent = "reconnecting…"; badge.className = "badge down"; };
}

document.getElementById("login").addEventListener("submit", async (submit) => {
  submit.preventDefault();
  const pin = new FormData(submit.target).get("pin");
  const response = await fetch("/api/login", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
    body: JSON.stringify({ pin }),
  });
  const body = await response.json();
  if (!response.ok) { document.getElementById("login-error").textContent = body.error; return; }
  control = true;
  submit.target.hidden = true;
  document.getElementById("role").textContent = "control";
  if (lastState) renderPrompt(lastState);
});

connect();
