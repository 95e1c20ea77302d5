// The table screen: one EventSource with the full state in every message, so a missed message heals itself.
// Chariot Race gets its track, chariot boards and a turn panel that offers only the rules' options; Hexen Rennen gets
// its own track and turn panel from hexen.js; any other game gets a plain table of its view and its options.
"use strict";

const $ = (selector) => document.querySelector(selector);
const S = {
  state: null, layout: null, layoutFor: null, boards: {},
  entries: [], logFor: null, lastLogSeq: 0, logChain: Promise.resolve(),
  selection: [], draft: [], dest: null, alt: 0, turnKey: "", undoArmed: null, pickerIndex: null,
};
const STEPS = ["repair", "speed", "roll", "fortune", "move", "attack"];
const STEP_OF = { repair: 0, roll: 2, reroll: 2, fortune: 2, drive: 4, move: 4, attack: 5, over: 6 };
const HITS = new Set(["rammed", "curve_damage", "caltrop_hit", "spear", "gallop_damage", "wrecked", "rocks"]);

// ---- helpers ------------------------------------------------------------------------------------------------------

const isChariot = () => S.state && S.state.game && S.state.game.id === "chariot-race";
// The game's own browser module (registerGame), or null: a game without one gets the plain table of its view.
const gameUI = () => (S.state && S.state.game && GAME_UI[S.state.game.id]) || null;
const view = () => (S.state && S.state.view) || {};
const chariots = () => view().chariots || [];
const chariotById = (id) => chariots().find((c) => c.id === id);

function chariotName(id) {
  const car = chariotById(id);
  if (!car) return id || "";
  const same = chariots().filter((c) => c.player === car.player).length;
  if (same < 2) return car.player;
  return `${car.player} (${colourName(car.colour)}${car.id.endsWith("-2") ? " 2" : ""})`;
}
const actorName = (id) => (isChariot() ? chariotName(id) : gameUI() ? gameUI().name(id) : id);

function options() { return (S.state && S.state.prompt && S.state.prompt.options) || []; }
function findOption(test) { return options().findIndex(test); }
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function signsText(signs) { return signs.map((s) => (s > 0 ? "+1" : "−1")).join(" "); }

function stepsText(path) {
  const parts = [];
  for (const step of path) {
    const last = parts[parts.length - 1];
    if (last && last.step === step) last.n += 1; else parts.push({ step, n: 1 });
  }
  return parts.map((p) => (p.n > 1 ? `${p.n}× ` : "") + T(`step_${p.step}`)).join(", ");
}

function damageText(option) {
  if (option.wrecked) return T("move_wreck");
  return option.damage ? T("move_damage", { damage: option.damage }) : T("move_safe");
}

function speedAfter(signs) {
  const car = chariotById(S.state.prompt.actor);
  const gallops = view().dice.filter((d) => d === "gallop").length;
  const sum = signs.reduce((a, b) => a + b, 0) + 2 * gallops;
  return Math.max(0, Math.min(car.max_speed, car.speed + sum));
}

function optionLabel(option) {
  if (gameUI()) return gameUI().optionLabel(option);
  const phase = S.state.prompt.phase;
  switch (option.type) {
    case "repair": {
      const car = chariotById(S.state.prompt.actor);
      return T("repair", { n: car ? Math.min(3, car.max_damage - car.damage) : 3 });
    }
    case "skip_repair": return T("skip_repair");
    case "roll": return T("confirm_roll");
    case "reroll": return `${T(option.cost ? "reroll_paid" : "reroll_selected", { n: option.reroll.length })}: `
      + option.reroll.map((i) => `${i + 1}`).join(", ");
    case "turn": return `${T("turn_die", { n: option.die + 1 })} ${faceName(option.face)}`;
    case "done": return T({ reroll: "keep_dice", fortune: "no_more_fortune", attack: "no_attack" }[phase] || "done");
    case "drive": return T("drive_option", { signs: signsText(option.signs), speed: speedAfter(option.signs) });
    case "move": return option.wrecked ? `${stepsText(option.path)}: ${T("move_wreck")}`
      : `${T("move_to", { to: option.to })} · ${damageText(option)}`;
    case "caltrop": return T("drop_caltrop", { space: option.space });
    case "spear": return T("throw_spear", { name: chariotName(option.target) });
    default: {
      const { type, ...rest } = option;
      const extra = Object.entries(rest).map(([k, v]) => `${k} ${v}`).join(", ");
      return extra ? `${type} (${extra})` : type;
    }
  }
}

function showError(text) {
  $("#action-error").textContent = text || "";
}

// Every change names the state it was chosen on (seq) and, for dice, the reading it saw: if the table has moved on
// (another tablet, a button, a late second tap), the server refuses it and we say so instead of doing anything.
// One request at a time: the controls are locked while it is on its way.
async function send(path, body) {
  if (S.busy) return { ok: false, status: 0, body: {} };
  S.busy = true;
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
  else if (answer.status === 409 && answer.body.error === "stale") showError(T("moved_on"));
  else {
    showError(answer.body.error || `${T("error")} (${answer.status})`);
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

const confirmOption = (index) => send("/api/confirm", { option: index, actor: S.state.prompt.actor, reading: null });

// ---- the track ---------------------------------------------------------------------------------------------------

function drawBoard() {
  const track = $("#track");
  track.replaceChildren();
  track.classList.remove("hexen-track");
  if (gameUI() && S.layout && S.layout.game === S.state.game.id) {
    track.hidden = false; gameUI().drawTrack(track); return;
  }
  const layout = S.layout && S.layout.board;
  track.hidden = !layout;
  if (!layout) return;
  track.setAttribute("viewBox", layout.viewBox.join(" "));
  const pts = (points) => points.map((p) => p.join(",")).join(" ");
  const arena = svg("g", { class: "arena" },
    svg("polygon", { class: "outer", points: pts(layout.outer) }),
    svg("polygon", { class: "spina", points: pts(layout.spina) }));
  const spaces = svg("g", { class: "spaces" });
  const marks = svg("g", { class: "marks" });
  S.spaceById = {};
  for (const space of layout.spaces) {
    S.spaceById[space.id] = space;
    const classes = ["space", `lane-${space.lane}`];
    if (space.max_speed) classes.push("curve");
    if (space.rocks) classes.push("rocks");
    spaces.append(svg("polygon", { class: classes.join(" "), points: pts(space.points), "data-id": space.id,
      onclick: () => onSpaceTap(space.id) }));
    if (space.max_speed) {
      marks.append(svg("g", { class: "limit", transform: `translate(${space.x} ${space.y})` },
        svg("circle", { r: 0.3 }), svg("text", { y: 0.11, "text-anchor": "middle" }, String(space.max_speed))));
    }
    if (space.rocks) {
      marks.append(svg("path", { class: "rock", transform: `translate(${space.x} ${space.y})`,
        d: "M-.32 .2l.1-.28.16-.07.12.1.14-.18.16.12.06.31z" }));
    }
    if (space.start) {
      marks.append(svg("text", { class: "start-no", x: space.x, y: space.y + 0.36, "text-anchor": "middle" },
        String(space.start)));
    }
  }
  if (layout.finish) {
    const [a, b] = layout.finish;
    marks.append(svg("line", { class: "finish-a", x1: a[0], y1: a[1], x2: b[0], y2: b[1] }),
      svg("line", { class: "finish-b", x1: a[0], y1: a[1], x2: b[0], y2: b[1] }));
  }
  track.append(svg("defs", {},
    svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4,
      orient: "auto-start-reverse" }, svg("path", { d: "M0 0L10 5L0 10z", class: "arrow-head" }))),
  arena, spaces, marks, svg("g", { id: "overlay" }));
}

function pathPoints(from, path) {
  const points = [];
  let here = S.spaceById[from];
  if (!here) return points;
  points.push([here.x, here.y]);
  for (const step of path) {
    const next = S.spaceById[step === "straight" ? here.ahead : here[step]];
    if (!next) break;
    points.push([next.x, next.y]);
    here = next;
  }
  return points;
}

function caltropIcon(x, y, cls = "caltrop") {
  return svg("path", { class: cls, transform: `translate(${x} ${y})`,
    d: "M0-.24L.07-.07.24 0 .07.07 0 .24-.07.07-.24 0-.07-.07z" });
}

function drawOverlay() {
  if (gameUI()) { gameUI().drawOverlay(); return; }
  const overlay = document.getElementById("overlay");
  if (!overlay || !S.spaceById) return;
  overlay.replaceChildren();
  const v = view();
  const prompt = S.state.prompt || {};
  for (const id of v.caltrops || []) {
    const space = S.spaceById[id];
    if (space) overlay.append(caltropIcon(space.x, space.y));
  }
  const mine = control || true;  // spectators see the same highlights; the server refuses their taps
  if (mine && prompt.phase === "move") {
    const best = destinations();
    for (const [to, list] of Object.entries(best)) {
      const space = S.spaceById[to];
      if (!space) continue;
      const option = list[0];
      const selected = S.dest === to;
      overlay.append(svg("g", { class: `dest${selected ? " selected" : ""}${option.damage ? " costly" : ""}`,
        "data-dest": to, onclick: () => selectDest(to) },
      svg("polygon", { points: space.points.map((p) => p.join(",")).join(" ") }),
      svg("text", { x: space.x, y: space.y - 0.12, "text-anchor": "middle", class: "dest-label" },
        option.damage ? `−${option.damage}` : "✓")));
    }
    const shown = selectedMove() || (S.dest ? null : options()[prompt.cursor || 0]);
    const car = chariotById(prompt.actor);
    if (shown && car) {
      const points = pathPoints(car.space, shown.path);
      if (points.length > 1) {
        overlay.append(svg("polyline", { class: `path-preview${selectedMove() ? "" : " cursor"}`,
          points: points.map((p) => p.join(",")).join(" "), "marker-end": "url(#arrow)" }));
      }
    }
  }
  if (prompt.phase === "attack") {
    for (const option of options()) {
      if (option.type !== "caltrop") continue;
      const space = S.spaceById[option.space];
      if (!space) continue;
      overlay.append(svg("g", { class: "caltrop-target", "data-caltrop": option.space,
        onclick: () => confirmOption(options().indexOf(option)) },
      svg("polygon", { points: space.points.map((p) => p.join(",")).join(" ") }),
      caltropIcon(space.x, space.y, "caltrop-ghost")));
    }
  }
  const targets = new Set(options().filter((o) => o.type === "spear").map((o) => o.target));
  for (const car of chariots()) {
    if (car.wrecked || !car.space || !S.spaceById[car.space]) continue;
    const space = S.spaceById[car.space];
    const current = car.id === v.current;
    const classes = ["chariot", `colour-${car.colour}`];
    if (current) classes.push("current");
    if (car.finished) classes.push("finished");
    if (targets.has(car.id)) classes.push("spear-target");
    const group = svg("g", { class: classes.join(" "), "data-chariot": car.id,
      transform: `translate(${space.x} ${space.y}) rotate(${space.angle})`,
      onclick: () => onChariotTap(car.id) },
    svg("circle", { class: "halo", r: 0.5 }),
    svg("rect", { class: "body", x: -0.36, y: -0.3, width: 0.62, height: 0.6, rx: 0.14 }),
    svg("path", { class: "pole", d: "M.26 0h.18" }),
    svg("text", { class: "initial", y: 0.13, x: -0.05, "text-anchor": "middle",
      transform: `rotate(${-space.angle} -0.05 0)` }, car.player.slice(0, 1).toUpperCase()
      + (car.id.endsWith("-2") ? "²" : "")));
    overlay.append(group);
  }
}

function flash(ids) {
  for (const id of ids) {
    const node = document.querySelector(`#overlay [data-chariot="${id}"]`);
    if (!node) continue;
    node.classList.remove("hit");
    void node.getBoundingClientRect();
    node.classList.add("hit");
  }
}

function destinations() {
  const groups = {};
  for (const option of options()) {
    if (option.type !== "move" || option.wrecked || !option.to) continue;
    (groups[option.to] = groups[option.to] || []).push(option);
  }
  for (const list of Object.values(groups)) list.sort((a, b) => a.damage - b.damage);
  return groups;
}

function selectedMove() {
  if (!S.dest) return null;
  const list = destinations()[S.dest];
  return list ? list[Math.min(S.alt, list.length - 1)] : null;
}

function selectDest(to) {
  if (S.state.prompt.phase !== "move") return;
  S.dest = to;
  S.alt = 0;
  render();
}

function onSpaceTap(id) {
  if (!S.state || !S.state.prompt) return;
  if (S.state.prompt.phase === "move" && destinations()[id]) selectDest(id);
  if (S.state.prompt.phase === "attack") {
    const index = findOption((o) => o.type === "caltrop" && o.space === id);
    if (index >= 0) confirmOption(index);
  }
}

function onChariotTap(id) {
  if (!S.state || !S.state.prompt) return;
  if (S.state.prompt.phase === "attack") {
    const index = findOption((o) => o.type === "spear" && o.target === id);
    if (index >= 0) confirmOption(index);
  } else if (S.state.prompt.phase === "move") {
    const car = chariotById(id);
    if (car && destinations()[car.space]) selectDest(car.space);
  }
}

// ---- chariot boards -----------------------------------------------------------------------------------------------

function trackRow(kind, label, max, value, extra = () => ({})) {
  const cells = [];
  for (let n = 0; n <= max; n++) {
    const more = extra(n);
    cells.push(el("span", { class: `cell${n === value ? " peg" : ""}${more.cls ? " " + more.cls : ""}`,
      title: more.title || null }, String(n), more.sub ? el("small", {}, more.sub) : null));
  }
  return el("div", { class: `track-row ${kind}`, "data-value": value },
    el("span", { class: "track-label" }, label, el("b", {}, String(value))), el("div", { class: "cells" }, cells));
}

function dolphin(active) {
  return svg("svg", { class: `dolphin${active ? "" : " spent"}`, viewBox: "0 0 32 20", width: 30, height: 19 },
    svg("path", { d: "M2 14c6-9 16-11 24-6l4-3-1 5c1 2 1 3 0 4-6-3-13-2-19 2l1-4c-3 1-6 2-9 2z" }));
}

function renderBoards() {
  const container = $("#boards");
  if (gameUI()) { container.hidden = false; container.replaceChildren(...gameUI().boards()); return; }
  if (!isChariot()) { container.replaceChildren(); container.hidden = true; return; }
  container.hidden = false;
  const v = view();
  container.replaceChildren(...chariots().map((car) => {
    const kind = S.boards[car.chariot_board] || {};
    const laps = Math.min(car.laps, 2);
    const status = car.wrecked ? T("wrecked") : car.finished ? T("finished") : "";
    const card = el("article", { class: `chariot-card colour-${car.colour}${car.id === v.current ? " current" : ""}`
      + `${car.wrecked ? " wrecked" : ""}${car.finished ? " finished" : ""}`, "data-chariot": car.id },
    el("header", {},
      el("span", { class: "swatch" }),
      el("strong", {}, chariotName(car.id)),
      el("span", { class: "laps", title: T("lap_of", { lap: Math.min(laps + 1, 2) }) },
        dolphin(laps < 2), dolphin(laps < 1)),
      status ? el("span", { class: "status" }, status) : null),
    trackRow("damage", T("damage"), car.max_damage, car.damage,
      (n) => ({ cls: n === 0 ? "zero" : n > car.damage ? "lost" : "" })),
    trackRow("speed", T("speed_short"), car.max_speed, car.speed, (n) => ({
      cls: n > car.speed_cap ? "over-cap" : "",
      sub: kind.dice_by_speed ? String(kind.dice_by_speed[n]) : "",
    })),
    trackRow("fortune", T("fortune_short"), car.max_fortune, car.fortune),
    el("div", { class: "dice-line" }, el("span", {}, T("dice_count", { n: car.dice_count })),
      el("span", { class: "mini-dice" }, Array.from({ length: car.dice_count }, () => el("i", {}))),
      car.speed_cap < car.max_speed ? el("span", { class: "cap" }, T("cap", { cap: car.speed_cap })) : null));
    return card;
  }));
}

// ---- the turn -----------------------------------------------------------------------------------------------------

function renderBanner() {
  const banner = $("#turn-banner");
  const v = view();
  if (!S.state.game) { banner.replaceChildren(); return; }
  if (gameUI()) { banner.replaceChildren(...gameUI().banner()); return; }
  if (S.state.game.over) {
    const winner = v.winner;
    banner.replaceChildren(el("span", { class: "winner" }, winner ? T("winner", { name: actorName(winner) })
      : T("no_winner")));
    return;
  }
  const car = chariotById(S.state.prompt.actor);
  banner.replaceChildren(
    car ? el("span", { class: `swatch colour-${car.colour}` }) : null,
    el("span", { class: "who" }, T("turn_of", { name: actorName(S.state.prompt.actor) })),
    v.round ? el("span", { class: "round" }, T("round", { round: v.round })) : null);
}

function renderOrder() {
  const box = $("#order");
  const v = view();
  if (gameUI()) { box.replaceChildren(...gameUI().order()); return; }
  if (!isChariot()) { box.replaceChildren(); return; }
  const at = v.order.indexOf(v.current);
  box.replaceChildren(el("span", { class: "order-label" }, T("turn_order")),
    ...v.order.map((id, k) => {
      const car = chariotById(id);
      return el("span", { class: `order-chip colour-${car.colour}${k === at ? " now" : ""}${k < at ? " done" : ""}`,
        "data-chariot": id }, el("span", { class: "swatch" }), chariotName(id));
    }));
}

function renderPhases() {
  const list = $("#phases");
  if (gameUI()) { list.replaceChildren(...gameUI().phases()); return; }
  if (!isChariot()) { list.replaceChildren(); return; }
  const at = STEP_OF[S.state.prompt.phase] ?? -1;
  list.replaceChildren(...STEPS.map((step, k) => el("li", {
    class: k === at ? "now" : k < at ? "done" : "" }, T(`phase_${step}`))));
}

function dieButton(face, { index, selected = false, pending = null, onclick = null } = {}) {
  const classes = ["die"];
  if (selected) classes.push("selected");
  if (pending && pending.low) classes.push("low");
  if (pending && pending.corrected) classes.push("corrected");
  const caption = [];
  if (pending) {
    if (pending.corrected) caption.push(el("small", { class: "tag" }, T(pending.ref ? "corrected_kept" : "corrected")));
    else caption.push(el("small", { class: "conf" }, T("confidence", { p: Math.round(100 * pending.confidence) })));
  }
  return el("button", { type: "button", class: classes.join(" "), "data-index": index, "data-face": face,
    "aria-pressed": selected ? "true" : null, onclick },
  dieIcon(face, { unknown: pending && pending.low }), el("span", { class: "face" }, faceName(face)), caption);
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
    } }, dieIcon(face, { size: 64 }), el("span", {}, faceName(face)))));
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
    box.append(el("div", { id: "pending", class: "dice-row" }, dice.map((die, i) => dieButton(die.label, {
      index: i, pending: die, onclick: () => openPicker(i) }))));
    const low = dice.filter((d) => d.low).length;
    if (low) box.append(el("p", { class: "warn" }, T(low > 1 ? "low_waiting_many" : "low_waiting", { n: low })));
    if (dice.length !== needed) {
      box.append(el("p", { class: "warn" }, T("wrong_count", { have: dice.length, need: needed })));
    }
  } else {
    const waiting = cameraReads() ? "waiting_camera" : cameraState() === "lost" ? "camera_lost" : "camera_off";
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
      "data-face": face, onclick: () => addDraft(face, needed) }, dieIcon(face, { size: 44 }),
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

function actionButton(label, index, cls = "") {
  return el("button", { type: "button", class: `option ${cls}`, "data-option": index,
    onclick: () => confirmOption(index) }, label);
}

function body() {
  const prompt = S.state.prompt;
  const v = view();
  const car = chariotById(prompt.actor);
  const nodes = [];
  const phase = prompt.phase;
  if (phase === "over") {
    nodes.push(el("p", { class: "winner big" }, v.winner ? T("winner", { name: chariotName(v.winner) })
      : T("no_winner")));
    return nodes;
  }
  if (phase === "repair") {
    nodes.push(el("p", {}, T("repair_offer", { fortune: car.fortune, damage: car.damage, max: car.max_damage })));
    nodes.push(el("div", { class: "choices" }, options().map((o, i) => actionButton(optionLabel(o), i,
      o.type === "repair" ? "primary" : ""))));
    return nodes;
  }
  if (phase === "roll") {
    nodes.push(el("p", { class: "speed-line" }, T("speed_line", { speed: car.speed, cap: car.speed_cap,
      damage: car.damage, n: car.dice_count })));
    nodes.push(rollBox(options()[0].roll, 0));
    return nodes;
  }
  if (phase === "reroll" || phase === "fortune") {
    const paid = phase === "fortune";
    nodes.push(el("p", {}, paid ? T("fortune_spend", { fortune: car.fortune }) : T("free_reroll")));
    nodes.push(el("div", { id: "current-dice", class: "dice-row" }, v.dice.map((face, i) => dieButton(face, {
      index: i, selected: S.selection.includes(i), onclick: () => toggleDie(i) }))));
    nodes.push(el("p", { class: "hint" }, T("select_dice")));
    const doneIndex = findOption((o) => o.type === "done");
    if (S.selection.length) {
      const chosen = [...S.selection].sort((a, b) => a - b);
      const index = findOption((o) => o.type === "reroll" && same(o.reroll, chosen));
      if (index >= 0) nodes.push(rollBox(chosen.length, index, { reroll: true }));
      if (paid && chosen.length === 1) {
        const die = chosen[0];
        const turns = options().map((o, i) => [o, i]).filter(([o]) => o.type === "turn" && o.die === die);
        nodes.push(el("div", { class: "turn-die" }, el("p", {}, T("turn_die", { n: die + 1 })),
          el("div", { class: "face-row" }, turns.map(([o, i]) => el("button", { type: "button", class: "face-btn",
            "data-turn": o.face, onclick: () => confirmOption(i) }, dieIcon(o.face, { size: 44 }),
          el("span", {}, faceName(o.face)))))));
      }
    } else if (paid) {
      nodes.push(el("p", { class: "hint" }, T("turn_hint")));
    }
    nodes.push(el("div", { class: "choices" }, actionButton(optionLabel(options()[doneIndex]), doneIndex, "primary")));
    return nodes;
  }
  if (phase === "drive") {
    nodes.push(el("div", { class: "dice-row small" }, v.dice.map((face, i) => dieButton(face, { index: i }))));
    nodes.push(el("p", {}, T("drive_choice")));
    const gallops = v.dice.filter((d) => d === "gallop").length;
    if (gallops) nodes.push(el("p", { class: "warn" }, T("gallop_note", { n: gallops, speed: 2 * gallops,
      damage: gallops })));
    nodes.push(el("div", { class: "choices" }, options().map((o, i) => actionButton(optionLabel(o), i))));
    return nodes;
  }
  if (phase === "move") {
    nodes.push(el("p", { class: "big" }, T("move_choice", { speed: car.speed })));
    const chosen = selectedMove();
    if (chosen) {
      const list = destinations()[S.dest];
      const index = options().indexOf(chosen);
      nodes.push(el("div", { class: "move-summary" },
        el("p", { class: "big" }, T("move_to", { to: chosen.to }), " · ",
          el("b", { class: chosen.damage ? "bad" : "good" }, damageText(chosen))),
        el("p", { class: "path" }, stepsText(chosen.path)),
        el("button", { type: "button", id: "confirm-move", class: "primary big", "data-option": index,
          onclick: () => confirmOption(index) }, T("confirm_move")),
        list.length > 1 ? el("details", { class: "alternatives" },
          el("summary", {}, T("path_alternatives", { to: chosen.to })),
          list.map((o, k) => el("button", { type: "button", class: `option${k === S.alt ? " selected" : ""}`,
            onclick: () => { S.alt = k; render(); } }, `${stepsText(o.path)} · ${damageText(o)}`))) : null));
    }
    const groups = Object.entries(destinations()).sort((a, b) => a[1][0].damage - b[1][0].damage
      || a[0].localeCompare(b[0]));
    nodes.push(el("div", { class: "choices dests" }, groups.map(([to, list]) => el("button", { type: "button",
      class: `option dest-btn${S.dest === to ? " selected" : ""}${list[0].damage ? " costly" : ""}`,
      "data-dest": to, onclick: () => selectDest(to) }, `${to} · ${damageText(list[0])}`))));
    const wrecks = options().map((o, i) => [o, i]).filter(([o]) => o.type === "move" && o.wrecked);
    if (wrecks.length) {
      nodes.push(el("details", { class: "wrecks" }, el("summary", {}, T("move_wreck_paths", { n: wrecks.length })),
        wrecks.map(([o, i]) => actionButton(optionLabel(o), i, "danger"))));
    }
    return nodes;
  }
  if (phase === "attack") {
    nodes.push(el("p", { class: "big" }, T("attack_choice", { n: v.attacks_left })));
    nodes.push(el("div", { class: "choices" }, options().map((o, i) => actionButton(optionLabel(o), i,
      o.type === "done" ? "" : "attack"))));
    return nodes;
  }
  nodes.push(el("div", { class: "choices" }, options().map((o, i) => actionButton(optionLabel(o), i))));
  return nodes;
}

function toggleDie(i) {
  const at = S.selection.indexOf(i);
  if (at >= 0) S.selection.splice(at, 1); else S.selection.push(i);
  render();
  highlightSelection();
}

// The table's highlight follows the dice chosen for a reroll, so the green Confirm (on screen or wired) rerolls
// them instead of keeping the old dice.
function highlightSelection() {
  if (!control) return;
  const chosen = [...S.selection].sort((a, b) => a - b);
  const index = chosen.length ? findOption((o) => o.type === "reroll" && same(o.reroll, chosen))
    : findOption((o) => o.type === "done");
  if (index >= 0 && index !== S.state.prompt.cursor) {
    post("/api/highlight", { option: index, seq: S.state.seq, game: S.state.game.number });
  }
}

function renderSetup() {
  const card = $("#setup-card");
  if (gameUI()) { const setup = gameUI().setup(); card.replaceChildren(...(setup ? [setup] : [])); return; }
  if (!isChariot() || S.state.seq !== 0 || S.state.game.over) { card.replaceChildren(); return; }
  const cars = [...chariots()].sort((a, b) => a.start_position - b.start_position);
  card.replaceChildren(el("div", { class: "setup" }, el("h3", {}, T("setup_title")),
    el("ol", {}, cars.map((car) => el("li", { class: `colour-${car.colour}` }, el("span", { class: "swatch" }),
      `${T("setup_position", { n: car.start_position })}: ${chariotName(car.id)} → ${car.space}`)))));
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
  if (isChariot()) {
    const phaseName = prompt.phase === "over" ? T("phase_over") : T(`phase_${prompt.phase}`);
    heading.textContent = prompt.actor ? `${chariotName(prompt.actor)}: ${phaseName}` : phaseName;
    turnBody.append(...body());
  } else if (gameUI()) {
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
  if (!control) turnBody.append(el("p", { class: "read-only" }, T("read_only")));
}

function renderGenericView() {
  const box = $("#view");
  box.replaceChildren();
  if (!S.state.game || isChariot() || gameUI()) return;
  const rows = view().players || [];
  if (!rows.length) return;
  const keys = Object.keys(rows[0]);
  box.append(el("table", {}, el("tr", {}, keys.map((k) => el("th", {}, k))),
    rows.map((row) => el("tr", row.name === view().current ? { class: "current" } : {},
      keys.map((k) => el("td", {}, String(row[k])))))));
}

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
    el("button", { type: "button", class: "hw back", id: "button-back", onclick: () => press("back", true) },
      el("span", { class: "knob" }), el("span", { class: "name" }, T("button_back")),
      el("span", { class: "what" }, S.state.seq > 0 ? T("undo") : T("does_nothing")))));
}

// ---- the log ------------------------------------------------------------------------------------------------------

function renderLog() {
  const list = $("#events");
  list.replaceChildren(...[...S.entries].reverse().map((entry) => el("li", {
    value: entry.seq, class: `entry${entry.undone ? " undone" : ""}${entry.type === "undo" ? " undo" : ""}`,
    "data-seq": entry.seq },
  entry.lines.map((line) => el("span", { class: `line${line.forced ? " forced" : ""} ev-${line.event}` }, line.text)),
  entry.undone ? el("small", { class: "tag" }, T("undone")) : null)));
  const last = [...S.entries].reverse().find((e) => e.type !== "undo") || null;
  const justNow = $("#just-now");
  const lastEntry = S.entries[S.entries.length - 1];
  justNow.replaceChildren(...(lastEntry ? lastEntry.lines.map((line) => el("p", {
    class: `line${line.forced ? " forced" : ""}` }, line.text)) : []));
  justNow.hidden = !lastEntry;
  return last;
}

function toast(text, forced) {
  const box = $("#toasts");
  const node = el("div", { class: `toast${forced ? " forced" : ""}` }, text);
  box.append(node);
  setTimeout(() => node.remove(), 4500);
  while (box.children.length > 4) box.firstChild.remove();
}

function updateLog({ full = false, live = false } = {}) {
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
    if (live && !fresh) {
      for (const entry of added) for (const line of entry.lines) if (line.forced || entry.type === "undo") {
        toast(line.text, line.forced);
      }
    }
  });
  return S.logChain;
}

// ---- undo ---------------------------------------------------------------------------------------------------------

$("#undo").addEventListener("click", async () => {
  const button = $("#undo");
  if (!S.undoArmed) {
    S.undoArmed = setTimeout(() => { S.undoArmed = null; button.textContent = T("undo"); button.classList.remove("armed"); },
      4000);
    button.textContent = T("undo_confirm");
    button.classList.add("armed");
    return;
  }
  clearTimeout(S.undoArmed);
  S.undoArmed = null;
  button.textContent = T("undo");
  button.classList.remove("armed");
  await send("/api/action", { type: "undo", actor: "table" });
});

// ---- putting it together ------------------------------------------------------------------------------------------

async function ensureLayout() {
  const number = S.state.game ? S.state.game.number : null;
  if (S.layoutFor === number && S.layout) return;
  try {
    const response = await fetch("/api/layout");
    S.layout = await response.json();
  } catch (_) { return; }
  S.boards = (S.layout && S.layout.chariot_boards) || {};
  S.layoutFor = S.layout.number;
  drawBoard();
}

function render() {
  if (!S.state) return;
  const state = S.state;
  const key = state.game ? `${state.game.number}:${state.seq}:${state.prompt.phase}:${state.prompt.actor}` : "";
  if (key !== S.turnKey) {
    S.turnKey = key;
    S.selection = [];
    S.dest = null;
    S.alt = 0;
  }
  if (gameUI()) gameUI().reset(key);
  for (const id of ["chariot-race", ...Object.keys(GAME_UI)]) {
    document.body.classList.toggle(id, Boolean(S.state.game) && S.state.game.id === id);
  }
  document.getElementById("title").textContent = state.game
    ? state.game.title + (state.game.over ? " 🏁" : "") : T("title");
  renderBanner();
  renderOrder();
  renderPhases();
  renderSetup();
  renderTurn();
  renderGenericView();
  renderBoards();
  renderButtons();
  drawOverlay();
  lockControls();
}

async function onMessage(kind, message) {
  const previous = S.state;
  S.state = message.state;
  const newGame = !previous || !previous.game || !S.state.game || previous.game.number !== S.state.game.number;
  if (newGame) await ensureLayout();
  render();
  if (newGame || previous.seq !== S.state.seq || kind === "hello") {
    await updateLog({ full: newGame || kind === "hello", live: kind === "event" });
  }
  if (kind === "event" && message.event) {
    const hit = (message.event.payload.events || []).filter((e) => HITS.has(e.type))
      .flatMap((e) => [e.chariot, e.target]).filter(Boolean);
    flash(hit);
  }
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
