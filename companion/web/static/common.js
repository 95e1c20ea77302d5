// Shared by every page: texts in three languages, tiny DOM helpers, the die icons, PIN login, language switch.
"use strict";

window.CATALOG = JSON.parse(document.getElementById("catalog").textContent);
const SVGNS = "http://www.w3.org/2000/svg";
const onLanguageChange = [];

// A screen's text with its {fields}; "{n|die|dice}" is the form the count n needs (German, Dutch and English have
// one form for 1 and another for every other count; companion/texts.py's plural does the same for the log).
function T(key, fields = {}) {
  const text = (CATALOG.ui && CATALOG.ui[key]) || key;
  return text.replace(/\{(\w+)\|((?:[^{}|]|\{\w+\})*)\|((?:[^{}|]|\{\w+\})*)\}/g,
    (_, name, one, other) => (Math.abs(Number(fields[name])) === 1 ? one : other))
    .replace(/\{(\w+)\}/g, (_, name) => (name in fields ? String(fields[name]) : "?"));
}
const faceName = (face) => (CATALOG.faces && CATALOG.faces[face]) || String(face);
const colourName = (colour) => (CATALOG.colours && CATALOG.colours[colour]) || colour;
const csrf = () => document.querySelector('meta[name="csrf-token"]').content;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// ---- game modules: each game's browser module registers itself; the table page dispatches to it by game id --------

const GAME_UI = {};
function registerGame(id, ui) { GAME_UI[id] = ui; }

async function post(path, body = {}) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
      body: JSON.stringify(body),
    });
    let answer = {};
    try { answer = await response.json(); } catch (_) { /* not JSON */ }
    return { ok: response.ok, status: response.status, body: answer };
  } catch (error) {
    return { ok: false, status: 0, body: { code: "offline" } };
  }
}

// What a refusal says to the player, in their language: the server's `code` and `values` (its English `error` is for
// scripts and the log), so no player reads English, a rule id or a Python list.
function refusalText(answer) {
  const { code, values } = answer.body || {};
  if (code && CATALOG.ui && CATALOG.ui[`err_${code}`]) return T(`err_${code}`, values || {});
  return T("err_status", { status: answer.status });
}

// ---- die icons: our own drawings, inline SVG, one per face --------------------------------------------------------

const PIPS = { 1: [[20, 20]], 2: [[12, 12], [28, 28]], 3: [[11, 11], [20, 20], [29, 29]],
  4: [[12, 12], [28, 12], [12, 28], [28, 28]], 5: [[11, 11], [29, 11], [20, 20], [11, 29], [29, 29]],
  6: [[12, 10], [28, 10], [12, 20], [28, 20], [12, 30], [28, 30]] };

function faceSymbol(face) {
  const ink = { class: "ink", fill: "none", "stroke-width": 3.4, "stroke-linecap": "round", "stroke-linejoin": "round" };
  switch (face) {
    case "drive": return [svg("path", { ...ink, d: "M20 8v13M13.5 14.5h13M13.5 29.5h13" })];
    case "gallop": return [svg("path", { ...ink, d: "M11 21l9-8 9 8M11 31l9-8 9 8" })];
    case "steer": return [svg("path", { ...ink, d: "M12 31c0-11 5-17 15-17" }),
      svg("path", { ...ink, d: "M22 9l6 5-6 5" })];
    case "attack": return [svg("path", { ...ink, d: "M10 30l15-15" }),
      svg("path", { class: "ink-fill", d: "M31 9l-3 10-7-7z" })];
    case "fortune": {
      const rays = [];
      for (let k = 0; k < 8; k++) {
        const a = (k * Math.PI) / 4;
        rays.push(`M${20 + 8.5 * Math.cos(a)} ${20 + 8.5 * Math.sin(a)}L${20 + 13 * Math.cos(a)} ${20 + 13 * Math.sin(a)}`);
      }
      return [svg("circle", { class: "ink-fill", cx: 20, cy: 20, r: 5.5 }),
        svg("path", { ...ink, "stroke-width": 2.6, d: rays.join("") })];
    }
    default:
      if (PIPS[face]) return PIPS[face].map(([cx, cy]) => svg("circle", { class: "ink-fill", cx, cy, r: 3.4 }));
      return [svg("text", { x: 20, y: 26, "text-anchor": "middle", class: "ink-text" }, face ? faceName(face) : "?")];
  }
}

function dieIcon(face, { size = 56, unknown = false } = {}) {
  return svg("svg", { class: `die-icon face-${face}`, viewBox: "0 0 40 40", width: size, height: size,
    role: "img", "aria-label": faceName(face) },
  svg("rect", { class: "die-body", x: 2, y: 2, width: 36, height: 36, rx: 8 }),
  unknown ? svg("text", { x: 20, y: 27, "text-anchor": "middle", class: "ink-text" }, "?") : faceSymbol(face));
}

// ---- help: what a card, ability or space does, one tap from the choice ------------------------------------------

// Which helps are open, by title: a screen re-renders on every move at the table, an open text stays open.
const HELP_OPEN = new Set();

// A "?" button that opens `help` ({title, text, reference}) below the control it stands beside: in the page's flow,
// so it covers nothing; the same button, its close button or Escape close it. Every game uses this one.
function helpTip(help) {
  if (!help || !help.text) return null;
  const box = el("div", { class: "help-text", role: "note", hidden: !HELP_OPEN.has(help.title) },
    el("strong", {}, help.title), el("p", {}, help.text),
    help.reference ? el("p", { class: "help-reference", "data-reference": "true" }, `★ ${T("help_reference")}`) : null);
  const toggle = el("button", { type: "button", class: "help-toggle", "aria-expanded": String(!box.hidden),
    "aria-label": T("help_open", { name: help.title }), title: T("help_open", { name: help.title }) }, "?");
  const show = (open) => {
    box.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) HELP_OPEN.add(help.title); else HELP_OPEN.delete(help.title);
  };
  const close = el("button", { type: "button", class: "help-close", "aria-label": T("help_close"),
    title: T("help_close"), onclick: () => { show(false); toggle.focus(); } }, "✕");
  box.append(close);
  toggle.addEventListener("click", () => show(box.hidden));
  const tip = el("span", { class: "help", onkeydown: (e) => {
    if (e.key === "Escape" && !box.hidden) { show(false); toggle.focus(); e.stopPropagation(); }
  } }, toggle, box);
  return tip;
}

// A control with its help beside it (the control alone when there is none to give).
function withHelp(control, help) {
  const tip = helpTip(help);
  return tip ? el("span", { class: "with-help" }, control, tip) : control;
}

// ---- language ---------------------------------------------------------------------------------------------------

function applyStaticTexts() {
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = T(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) {
    node.placeholder = T(node.dataset.i18nPlaceholder);
  }
  for (const node of document.querySelectorAll("[data-i18n-aria]")) node.setAttribute("aria-label", T(node.dataset.i18nAria));
  // The pages' links fold into a menu where the top bar has no room for them (the kiosk, a phone, a tablet).
const menu = document.getElementById("menu");
if (menu) {
  const toggle = menu.querySelector(".menu-toggle");
  toggle.addEventListener("click", () => {
    const open = menu.classList.toggle("open");
    toggle.setAttribute("aria-expanded", String(open));
  });
}

for (const button of document.querySelectorAll("[data-lang]")) {
    button.classList.toggle("active", button.dataset.lang === CATALOG.lang);
    button.setAttribute("aria-pressed", button.dataset.lang === CATALOG.lang ? "true" : "false");
  }
  const pin = document.getElementById("kiosk-pin");
  if (pin) pin.textContent = T("kiosk_pin", { pin: pin.dataset.pin });
}

async function switchLanguage(lang) {
  const response = await fetch(`/i18n/${lang}.json`);
  if (!response.ok) return;
  window.CATALOG = await response.json();
  document.cookie = `lang=${lang}; path=/; max-age=31536000; samesite=strict`;
  document.documentElement.lang = lang;
  applyStaticTexts();
  for (const callback of onLanguageChange) callback(lang);
}

for (const button of document.querySelectorAll("[data-lang]")) {
  button.addEventListener("click", () => switchLanguage(button.dataset.lang));
}

// ---- control: the table PIN ---------------------------------------------------------------------------------------

let control = document.body.dataset.control === "yes";
const onControlChange = [];

function setControl(value) {
  control = value;
  document.body.dataset.control = value ? "yes" : "no";
  const role = document.getElementById("role");
  if (role) { role.dataset.i18n = value ? "control" : "spectator"; role.textContent = T(role.dataset.i18n); }
  const login = document.getElementById("login");
  if (login) { login.hidden = true; login.classList.remove("attention"); }
  const open = document.getElementById("login-open");
  if (open) open.hidden = value;
  const logout = document.getElementById("logout");
  if (logout) logout.hidden = !value;
  for (const callback of onControlChange) callback(value);
}

// A spectator is one tap from control: every "Take control" button (in the top bar, beside a read-only prompt)
// opens the PIN field, focused; so does a refused tap.
function showLogin() {
  const login = document.getElementById("login");
  if (!login || control) return;
  login.hidden = false;
  login.classList.add("attention");
  const open = document.getElementById("login-open");
  if (open) open.hidden = true;
  login.querySelector("input").focus();
}
for (const button of document.querySelectorAll(".take-control")) button.addEventListener("click", showLogin);

const loginForm = document.getElementById("login");
if (loginForm) {
  loginForm.addEventListener("submit", async (submit) => {
    submit.preventDefault();
    const input = loginForm.querySelector("input[name=pin]");
    const answer = await post("/api/login", { pin: input.value });
    const error = document.getElementById("login-error");
    if (!answer.ok) { error.textContent = refusalText(answer); return; }
    error.textContent = "";
    input.value = "";
    if (answer.body.csrf) document.querySelector('meta[name="csrf-token"]').content = answer.body.csrf;
    setControl(true);
  });
}
const logoutButton = document.getElementById("logout");
if (logoutButton) {
  logoutButton.addEventListener("click", async () => {
    const answer = await post("/api/logout");
    if (answer.ok) setControl(false);
  });
}
applyStaticTexts();
