// Hexen Rennen on the table screen: the track of 48 tiles as far as it is turned over, the witches, the finish
// fields, the cards each player has left, and the turn: roll, choose a witch, tell the companion what a hidden tile
// shows (a tap on its colour, then on its number), the card decisions (whose, and which cards can be played).
// table.js owns the page (stream, log, undo, roll box); it calls into the module this file registers for
// "hexenrennen" (registerGame) whenever that is the game on the table.
// Loaded before table.js: everything here reads table.js's globals (S, view, options, ...) only when called.
"use strict";

const Hexen = (() => {
  const P = 1.14;           // tile pitch in track units (a tile is 1 wide)
  const ROW = 1.8;          // distance between the rows (one row per stage)
  const X0 = 2.05;          // left edge of the first column (the start box is left of it)
  const Y0 = 0.95;          // centre of the first row
  const START_W = 1.4;      // the start box: left of the first two rows
  const FIELD = 1.34;       // a finish field's size
  const STEPS = ["roll", "move", "tile", "card"];
  const STEP_OF = { roll: 0, move: 1, reveal: 2, own_magic: 3, foreign_magic: 3, draw: 3, over: 4 };
  const BY_CLASS = { die: "by-die", tile: "by-tile", card: "by-card", magic: "by-magic", draw: "by-draw" };
  const ui = { colour: null, witch: null, key: "" };
  // A phone gets two rows per stage (8 tiles a row) instead of one row of 16: tiles twice as big.
  const narrow = window.matchMedia("(max-width: 700px)");
  narrow.addEventListener("change", () => { if (gameUI() === Hexen) { drawBoard(); drawOverlay(); } });
  const columns = () => (narrow.matches ? kit().stage_length / 2 : kit().stage_length);
  const rows = () => Math.ceil(trackLength() / columns());

  const kit = () => (S.layout && S.layout.kit) || { clans: ["orange", "blue", "yellow", "green"],
    witches_per_clan: 3, tile_numbers: [2, 3, 4, 5, 6, 7, 8, 9, 10], card_numbers: [2, 3, 4, 5, 6, 7, 8, 9, 10],
    stages: 3, stage_length: 16, finish_points: [2, 3, 4] };
  const trackLength = () => kit().stages * kit().stage_length;
  const v = () => view();
  const players = () => v().players || [];
  const player = (clan) => players().find((p) => p.clan === clan);
  const witchNo = (id) => String(id || "").split("-").pop();
  const clanOf = (id) => String(id || "").split("-")[0];

  // ---- names ------------------------------------------------------------------------------------------------------

  function name(clan) {
    const p = player(clan);
    if (p) return p.name;
    return clan ? `${colourName(clan)} (${T("hx_neutral")})` : "";
  }
  const witchName = (id) => T("hx_witch", { name: name(clanOf(id)), n: witchNo(id) });
  function place(space) {
    if (!space) return T("hx_place_start");
    if (space > trackLength()) return T("hx_place_finish", { points: kit().finish_points[space - trackLength() - 1] });
    return T("hx_place_space", { n: space });
  }
  const cardText = (card) => (card === "magic" ? `✶ ${T("hx_magic")}` : String(card));
  const tileText = (tile) => (tile ? `${colourName(tile.clan)} ${tile.value === "magic" ? T("hx_magic")
    : tile.value}` : "?");

  const witchSpace = (id) => { const w = (v().witches || []).find((x) => x.id === id); return w ? w.space : 0; };

  // ---- geometry ---------------------------------------------------------------------------------------------------

  function tileCentre(space) {
    const n = columns();
    const row = Math.floor((space - 1) / n);
    const col = (space - 1) % n;
    const x = X0 + 0.5 + (row % 2 === 0 ? col : n - 1 - col) * P;
    return [x, Y0 + row * ROW];
  }

  // The finish fields stand in a column right of the track: the 2-point field beside space 48, then upwards.
  function fieldCentre(k) {
    return [X0 + columns() * P + 0.2 + FIELD / 2, Y0 + (rows() - 1 - k) * ROW];
  }

  function startCentre() { return [0.1 + START_W / 2, Y0 + ROW / 2]; }
  const startHeight = () => ROW + 1.1;

  function spaceCentre(space) {
    if (!space) return startCentre();
    if (space > trackLength()) return fieldCentre(space - trackLength() - 1);
    return tileCentre(space);
  }

  // Where the k-th of n tokens sits inside a box of size w x h centred on (cx, cy).
  function slot(cx, cy, k, n, w, h, most = 4) {
    const cols = Math.min(most, n <= 1 ? 1 : n <= 4 ? 2 : n <= 9 ? 3 : 4);
    const rows = Math.ceil(n / cols);
    const col = k % cols;
    const row = Math.floor(k / cols);
    return [cx - w / 2 + (col + 0.5) * (w / cols), cy - h / 2 + (row + 0.5) * (h / rows)];
  }

  // ---- the track --------------------------------------------------------------------------------------------------

  function drawTrack(track) {
    const k = kit();
    const n = k.stage_length;
    const right = fieldCentre(0)[0] + FIELD / 2 + 0.1;
    track.classList.toggle("narrow", narrow.matches);
    const bottom = Y0 + (rows() - 1) * ROW + 0.85;
    track.setAttribute("viewBox", `0 0 ${right.toFixed(2)} ${bottom.toFixed(2)}`);
    track.classList.add("hexen-track");
    // The road: one line through every tile in order, round at the turns.
    const road = [startCentre()];
    for (let s = 1; s <= trackLength(); s++) road.push(tileCentre(s));
    k.finish_points.forEach((_, i) => road.push(fieldCentre(i)));
    const ground = svg("g", { class: "hx-ground" },
      svg("polyline", { class: "hx-road", points: road.map((p) => p.join(",")).join(" ") }));
    for (let s = 0; s < k.stages; s++) {
      const y = tileCentre(s * n + 1)[1];
      ground.append(svg("text", { class: "hx-stage", x: X0 - 0.2, y: y + 0.14, "text-anchor": "middle" },
        String(s + 1)));
    }
    const [sx, sy] = startCentre();
    ground.append(svg("rect", { class: "hx-start", x: sx - START_W / 2, y: sy - startHeight() / 2, width: START_W,
      height: startHeight(), rx: 0.2 }),
    svg("text", { class: "hx-start-label", x: sx, y: sy - startHeight() / 2 + 0.3, "text-anchor": "middle" },
      T("hx_start")));
    k.finish_points.forEach((points, i) => {
      const [fx, fy] = fieldCentre(i);
      ground.append(svg("g", { class: "hx-field", "data-space": trackLength() + 1 + i },
        svg("rect", { x: fx - FIELD / 2, y: fy - FIELD / 2, width: FIELD, height: FIELD, rx: 0.18 }),
        svg("text", { class: "hx-points", x: fx, y: fy - 0.28, "text-anchor": "middle" }, String(points))));
    });
    const top = fieldCentre(k.finish_points.length - 1);
    ground.append(svg("text", { class: "hx-start-label", x: top[0], y: top[1] - FIELD / 2 - 0.08,
      "text-anchor": "middle" }, T("hx_finish")));
    track.append(ground, svg("g", { id: "hx-tiles" }), svg("g", { id: "overlay" }));
    S.spaceById = null;  // the chariot overlay must not draw here
  }

  function magicSign(x, y, r = 0.27) {
    const points = [];
    for (let i = 0; i < 5; i++) {
      const a = -Math.PI / 2 + (i * 4 * Math.PI) / 5;
      points.push(`${(x + r * Math.cos(a)).toFixed(3)},${(y + r * Math.sin(a)).toFixed(3)}`);
    }
    return svg("polygon", { class: "hx-magic", points: points.join(" ") });
  }

  function drawTiles() {
    const box = document.getElementById("hx-tiles");
    if (!box) return;
    box.replaceChildren();
    const state = S.state;
    const prompt = state.prompt || {};
    const asking = prompt.phase === "reveal" ? prompt.info.space : null;
    for (const entry of v().track || []) {
      const [x, y] = tileCentre(entry.space);
      const tile = entry.tile;
      const classes = ["hx-tile", tile ? `revealed colour-${tile.clan}` : "hidden"];
      if (entry.space === asking) classes.push("asking");
      if (tile && tile.value === "magic") classes.push("magic");
      const group = svg("g", { class: classes.join(" "), "data-space": entry.space,
        "data-tile": tile ? `${tile.clan}-${tile.value}` : "hidden", onclick: () => onSpaceTap(entry.space) },
      svg("rect", { x: x - 0.5, y: y - 0.5, width: 1, height: 1, rx: 0.12 }),
      svg("text", { class: "hx-no", x: x - 0.42, y: y - 0.3 }, String(entry.space)));
      if (!tile) group.append(svg("text", { class: "hx-q", x: x - 0.1, y: y + 0.12, "text-anchor": "middle" }, "?"));
      else if (tile.value === "magic") group.append(magicSign(x - 0.1, y - 0.04, 0.25));
      else group.append(svg("text", { class: "hx-value", x: x - 0.1, y: y + 0.12, "text-anchor": "middle" },
        String(tile.value)));
      box.append(group);
    }
  }

  function arrow(from, to, cls, label) {
    const [x1, y1] = spaceCentre(from);
    const [x2, y2] = spaceCentre(to);
    const back = to < from;
    const lift = Math.min(1.2, 0.35 + Math.hypot(x2 - x1, y2 - y1) * 0.08) * (back ? 1 : -1);
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2 + lift;
    return svg("g", { class: `hx-arrow ${cls}` },
      svg("path", { d: `M${x1} ${y1 - 0.15}Q${mx} ${my} ${x2} ${y2 - 0.15}`, "marker-end": "url(#hx-head)" }),
      label ? svg("text", { x: mx, y: (y1 + y2) / 4 + my / 2 - 0.02, "text-anchor": "middle" }, label) : null);
  }

  function witchToken(witch, x, y, r, extra = "") {
    const classes = ["hx-witch", `colour-${witch.clan}`];
    if (extra) classes.push(extra);
    return svg("g", { class: classes.join(" "), "data-witch": witch.id, transform: `translate(${x} ${y})`,
      onclick: () => onWitchTap(witch.id) },
    svg("circle", { class: "halo", r: r + 0.1 }),
    svg("path", { class: "hat", d: `M${-r * 0.9} ${-r * 0.55}L0 ${-r * 1.75}L${r * 0.9} ${-r * 0.55}z` }),
    svg("circle", { class: "body", r }),
    svg("text", { class: "no", y: r * 0.38, "text-anchor": "middle", style: `font-size:${(r * 1.1).toFixed(2)}px` },
      witchNo(witch.id)));
  }

  function drawOverlay() {
    const overlay = document.getElementById("overlay");
    if (!overlay) return;
    drawTiles();
    overlay.replaceChildren(svg("defs", {}, svg("marker", { id: "hx-head", viewBox: "0 0 10 10", refX: 7, refY: 5,
      markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, svg("path", { d: "M0 0L10 5L0 10z" }))));
    const prompt = S.state.prompt || {};
    const moving = v().moving;
    const movable = new Map();
    if (prompt.phase === "move") {
      for (const option of options()) if (option.type === "move") movable.set(option.witch, option);
      for (const [id, option] of movable) {
        if (option.to > trackLength()) continue;
        const [x, y] = spaceCentre(option.to);
        overlay.append(svg("g", { class: `hx-dest${ui.witch === id ? " selected" : ""}`, "data-dest": option.to,
          onclick: () => select(id) }, svg("rect", { x: x - 0.55, y: y - 0.55, width: 1.1, height: 1.1, rx: 0.16 })));
      }
    }
    if (prompt.phase === "own_magic" || prompt.phase === "foreign_magic") {
      for (const option of options()) {
        if (option.type !== "play" || option.to > trackLength()) continue;
        const [x, y] = spaceCentre(option.to);
        overlay.append(svg("g", { class: "hx-card-dest", "data-card-dest": option.to },
          svg("rect", { x: x - 0.55, y: y - 0.55, width: 1.1, height: 1.1, rx: 0.16 })));
      }
    }
    // This turn's chain as arrows, numbered in order.
    const chain = v().chain || [];
    chain.forEach((step, i) => {
      const label = step.by === "die" ? `${step.value}` : step.by === "magic" ? "✶" : String(step.value ?? "");
      overlay.append(arrow(step.from, step.to, BY_CLASS[step.by] || "", chain.length > 1 ? `${i + 1}·${label}` : label));
    });
    // The witches: on the track, at the start, in the finish.
    const witches = v().witches || [];
    const atStart = witches.filter((w) => w.where === "start");
    const [sx, sy] = startCentre();
    atStart.forEach((w, k) => {
      const [x, y] = slot(sx, sy + 0.25, k, atStart.length, START_W, startHeight() - 0.6, 2);
      overlay.append(witchToken(w, x, y, 0.22, tokenClass(w, moving, movable)));
    });
    for (const w of witches.filter((x) => x.where === "track")) {
      const [x, y] = tileCentre(w.space);
      // in the tile's bottom-right corner, beside its number (drawn left of centre), never over it
      overlay.append(witchToken(w, x + 0.3, y + 0.31, 0.19, tokenClass(w, moving, movable)));
    }
    (v().finish || []).forEach((field, i) => {
      const [fx, fy] = fieldCentre(i);
      field.witches.forEach((id, k) => {
        const [x, y] = slot(fx, fy + 0.2, k, field.witches.length, FIELD - 0.1, FIELD * 0.6);
        overlay.append(witchToken(witches.find((w) => w.id === id) || { id, clan: clanOf(id) }, x, y,
          field.witches.length > 4 ? 0.13 : 0.2, "home"));
      });
    });
  }

  function tokenClass(w, moving, movable) {
    const classes = [];
    if (w.id === moving) classes.push("moving");
    if (movable.has(w.id)) classes.push("movable");
    if (ui.witch === w.id) classes.push("selected");
    return classes.join(" ");
  }

  // ---- taps on the track -------------------------------------------------------------------------------------------

  function select(id) {
    if (!S.state.prompt || S.state.prompt.phase !== "move") return;
    ui.witch = id;
    render();
  }

  function onWitchTap(id) {
    const prompt = S.state.prompt || {};
    if (prompt.phase !== "move") return;
    if (options().some((o) => o.type === "move" && o.witch === id)) { select(id); return; }
    // A tap on a witch at the start stands for "a witch from the start" (they are interchangeable).
    const w = (v().witches || []).find((x) => x.id === id);
    if (w && w.where === "start") {
      const fromStart = options().find((o) => o.type === "move" && witchSpace(o.witch) === 0);
      if (fromStart) select(fromStart.witch);
    }
  }

  function onSpaceTap(space) {
    const prompt = S.state.prompt || {};
    if (prompt.phase === "move") {
      const option = options().find((o) => o.type === "move" && o.to === space);
      if (option) select(option.witch);
    }
  }

  // ---- the turn panel ---------------------------------------------------------------------------------------------

  function heading() {
    const prompt = S.state.prompt;
    const phase = T(`hx_phase_${prompt.phase}`);
    return prompt.actor ? `${name(prompt.actor)}: ${phase}` : phase;
  }

  function tileButton(clan, value, index) {
    return el("button", { type: "button", class: `hx-value-btn colour-${clan}`, "data-value": value,
      onclick: () => confirmOption(index) }, value === "magic" ? el("span", { class: "star" }, "✶") : String(value),
    value === "magic" ? el("small", {}, T("hx_magic")) : null);
  }

  function revealPicker() {
    const list = options().map((o, i) => [o, i]).filter(([o]) => o.type === "reveal");
    const clans = kit().clans.filter((clan) => list.some(([o]) => o.clan === clan));
    if (ui.colour && !clans.includes(ui.colour)) ui.colour = null;
    const info = S.state.prompt.info;
    const box = el("div", { class: "hx-reveal", id: "reveal-picker" },
      el("p", { class: "big" }, T("hx_reveal_title", { witch: witchName(info.witch), space: info.space })),
      el("p", { class: "hint control-only" }, T("hx_reveal_colour")),
      el("div", { class: "hx-colours" }, clans.map((clan) => el("button", { type: "button",
        class: `hx-colour-btn colour-${clan}${ui.colour === clan ? " chosen" : ""}`, "data-clan": clan,
        "aria-pressed": ui.colour === clan ? "true" : "false",
        onclick: () => { ui.colour = clan; render(); } }, el("span", { class: "swatch" }), colourName(clan)))));
    if (ui.colour) {
      const values = list.filter(([o]) => o.clan === ui.colour)
        .sort(([a], [b]) => (a.value === "magic" ? 99 : a.value) - (b.value === "magic" ? 99 : b.value));
      box.append(el("p", { class: "hint control-only" }, T("hx_reveal_number")),
        el("div", { class: "hx-values" }, values.map(([o, i]) => tileButton(o.clan, o.value, i))));
    }
    return box;
  }

  function handRow(clan, { playable = new Map() } = {}) {
    const p = player(clan);
    if (!p) return null;
    const left = [...p.cards];
    const deck = [...Array(kit().card_magic ?? 3).fill("magic"), ...kit().card_numbers];
    return el("div", { class: "hx-hand", "data-clan": clan }, deck.map((card) => {
      const at = left.indexOf(card);
      const have = at >= 0;
      if (have) left.splice(at, 1);
      const index = have && control ? playable.get(card) : undefined;  // a spectator's cards are pictures
      const classes = ["hx-card", `colour-${clan}`, have ? "left" : "played"];
      if (index !== undefined) {
        playable.delete(card);  // a second magic card is the same choice
        return el("button", { type: "button", class: `${classes.join(" ")} playable`, "data-card": card,
          title: optionLabel(options()[index]), onclick: () => confirmOption(index) },
        el("b", {}, card === "magic" ? "✶" : String(card)), el("small", {}, `→ ${place(options()[index].to)}`));
      }
      return el("span", { class: classes.join(" "), "data-card": card }, el("b", {}, card === "magic" ? "✶"
        : String(card)));
    }));
  }

  function chainList() {
    const chain = v().chain || [];
    if (!chain.length) return null;
    const by = (step) => {
      const fields = { value: step.value === "magic" ? T("hx_magic") : step.value, name: name(step.player) };
      return T(`hx_by_${step.by}`, fields);
    };
    const last = S.state.prompt.phase === "roll";
    return el("div", { class: "hx-chain", id: "chain" }, el("h3", {}, T(last ? "hx_chain_last" : "hx_chain_title")),
      el("ol", {}, chain.map((step) => el("li", { class: BY_CLASS[step.by] || "" },
        el("span", { class: `swatch colour-${clanOf(step.witch)}` }),
        `${witchName(step.witch)}: ${place(step.from)} → `, el("b", {}, place(step.to)), ` · ${by(step)}`))));
  }

  function body() {
    const prompt = S.state.prompt;
    const info = prompt.info || {};
    const nodes = [];
    const phase = prompt.phase;
    if (phase === "over") {
      nodes.push(el("p", { class: "winner big" }, winnerText()));
      nodes.push(chainList());
      return nodes;
    }
    if (phase === "roll") {
      nodes.push(el("p", {}, T("hx_roll_line")));
      const box = rollBox(1, 0);
      box.querySelector("p.hint").textContent = T("hx_roll_now");
      const hint = box.querySelector("details.manual > p");
      if (hint) hint.textContent = T("hx_manual_hint");
      nodes.push(box);
      nodes.push(chainList());
      return nodes;
    }
    if (phase === "move") {
      nodes.push(el("p", { class: "big" }, T("hx_move_choice", { roll: info.roll })));
      const moves = options().map((o, i) => [o, i]).filter(([o]) => o.type === "move");
      if (ui.witch && !moves.some(([o]) => o.witch === ui.witch)) ui.witch = null;
      nodes.push(el("div", { class: "choices" }, moves.map(([o]) => el("button", { type: "button",
        class: `option hx-move${ui.witch === o.witch ? " selected" : ""}`, "data-witch": o.witch,
        onclick: () => select(o.witch) }, el("span", { class: `swatch colour-${clanOf(o.witch)}` }), optionLabel(o)))));
      if (ui.witch) {
        const [o, i] = moves.find(([m]) => m.witch === ui.witch);
        nodes.push(el("div", { class: "move-summary" }, el("p", { class: "big" }, optionLabel(o)),
          el("button", { type: "button", id: "hx-confirm-move", class: "primary big", "data-option": i,
            onclick: () => confirmOption(i) }, T("hx_move_confirm"))));
      }
      return nodes;
    }
    if (phase === "reveal") {
      nodes.push(revealPicker());
      nodes.push(chainList());
      return nodes;
    }
    if (phase === "own_magic" || phase === "foreign_magic") {
      const decides = info.decides || prompt.actor;
      const key = phase === "own_magic" ? "hx_own_magic" : info.forced ? "hx_forced" : "hx_foreign_magic";
      nodes.push(el("p", { class: `decides colour-${decides}` }, el("span", { class: "swatch" }),
        el("b", {}, T(info.forced ? "hx_must" : "hx_decides", { name: name(decides) }))));
      nodes.push(el("p", { class: "big" }, T(key, { witch: witchName(info.witch), name: name(decides) })));
      const playable = new Map();
      options().forEach((o, i) => { if (o.type === "play" && !playable.has(o.card)) playable.set(o.card, i); });
      nodes.push(el("p", { class: "hint" }, T("hx_hand")),
        helpRow(options().map((o, i) => (o.type === "play" ? i : -1)).filter((i) => i >= 0)),
        handRow(decides, { playable }));
      const stay = findOption((o) => o.type === "stay");
      if (stay >= 0) nodes.push(el("div", { class: "choices" }, withHelp(el("button", { type: "button", id: "hx-stay",
        class: "option", "data-option": stay, onclick: () => confirmOption(stay) }, T("hx_stay")), optionHelp(stay))));
      nodes.push(chainList());
      return nodes;
    }
    if (phase === "draw") {
      nodes.push(el("p", { class: "big" }, T("hx_draw", { witch: witchName(info.witch),
        colour: colourName(info.pile), n: info.pile_left })));
      nodes.push(el("div", { class: "hx-values" }, options().map((o, i) => tileButton(info.pile, o.card, i))));
      nodes.push(chainList());
      return nodes;
    }
    nodes.push(el("div", { class: "choices" }, options().map((o, i) => actionButton(optionLabel(o), i))));
    return nodes;
  }

  function winnerText() {
    const winners = v().winners || [];
    if (!winners.length) return T("hx_phase_over");
    const points = (v().scores || {})[winners[0]] || 0;
    const names = winners.map(name).join(" & ");
    return T(winners.length > 1 ? "hx_winners" : "hx_winner", { names, points });
  }

  function banner() {
    const prompt = S.state.prompt;
    const current = v().current;
    if (S.state.game.over) return [el("span", { class: "winner" }, winnerText())];
    const nodes = [el("span", { class: `swatch colour-${current}` }),
      el("span", { class: "who" }, T("turn_of", { name: name(current) })),
      el("span", { class: "round" }, T("hx_turn", { turn: v().turn }))];
    if (prompt.actor && prompt.actor !== current) {
      nodes.push(el("span", { class: `decider colour-${prompt.actor}` }, el("span", { class: "swatch" }),
        T(prompt.info && prompt.info.forced ? "hx_must" : "hx_decides", { name: name(prompt.actor) })));
    }
    return nodes;
  }

  function order() {
    const current = v().current;
    return [el("span", { class: "order-label" }, T("turn_order")),
      ...players().map((p) => el("span", { class: `order-chip colour-${p.clan}${p.clan === current ? " now" : ""}`,
        "data-clan": p.clan }, el("span", { class: "swatch" }), p.name)),
      el("span", { class: "hx-revealed" }, T("hx_revealed", { n: v().revealed || 0, total: trackLength() }))];
  }

  function phases() {
    const at = STEP_OF[S.state.prompt.phase] ?? -1;
    return STEPS.map((step, k) => el("li", { class: k === at ? "now" : k < at ? "done" : "" }, T(`hx_step_${step}`)));
  }

  function setup() {
    if (S.state.seq !== 0 || S.state.game.over) return null;
    return el("div", { class: "setup" }, el("h3", {}, T("hx_setup_title")), el("p", {}, T("hx_setup_text")));
  }

  // ---- the players' boards -----------------------------------------------------------------------------------------

  function boards() {
    const current = v().current;
    const decides = S.state.prompt && S.state.prompt.actor;
    const cards = players().map((p) => {
      const witches = (v().witches || []).filter((w) => w.clan === p.clan);
      return el("article", { class: `hx-board colour-${p.clan}${p.clan === current ? " current" : ""}`
        + `${p.clan === decides && p.clan !== current ? " deciding" : ""}`, "data-clan": p.clan, "data-seat": p.clan },
      el("header", {}, el("span", { class: "swatch" }), el("strong", {}, p.name),
        el("span", { class: "hx-score", "data-score": p.score }, T("hx_points", { n: p.score }))),
      el("div", { class: "hx-witches" }, witches.map((w) => el("span", { class: `hx-where ${w.where}`,
        "data-witch": w.id }, el("i", { class: "dot" }, witchNo(w.id)), place(w.space)))),
      el("div", { class: "hx-cards-line" }, el("span", { class: "hx-home" }, T("hx_home", { n: p.home })), " · ",
        el("span", { class: "hx-cards-left", "data-left": p.cards_left }, T("hx_cards_left", { n: p.cards_left }))),
      handRow(p.clan));
    });
    const piles = (v().neutrals || []).map((n) => el("article", { class: `hx-board neutral colour-${n.clan}`,
      "data-clan": n.clan }, el("header", {}, el("span", { class: "swatch" }),
      el("strong", {}, `${colourName(n.clan)} (${T("hx_neutral")})`)),
    el("p", { class: "hx-pile", "data-left": n.pile_left }, T("hx_pile", { colour: colourName(n.clan),
      n: n.pile_left }))));
    return [...cards, ...piles];
  }

  function reset(key) {
    if (key === ui.key) return;
    ui.key = key;
    ui.colour = null;
    ui.witch = null;
  }

  // The New game page: 2-4 players in turn order, each with a clan colour; the track tiles lie face down.
  const newGame = {
    palette: ["orange", "blue", "yellow", "green"],
    maxPlayers: 4,
    hint: "hx_players_hint",
    startLabel: "hx_start_game",
    fields: () => [el("fieldset", { "data-game-fields": "hexenrennen" },
      el("legend", { "data-i18n": "hx_tiles" }, T("hx_tiles")),
      el("p", { class: "hint big", "data-i18n": "hx_tiles_hidden" }, T("hx_tiles_hidden")))],
    playersChanged: () => {},
    restore: () => {},  // the tiles lie face down in every game: nothing to carry over
    options: (players) => ({ players, tiles: "hidden" }),
  };

  return { name, witchName, drawTrack, drawOverlay, heading, body, banner, order, phases, setup,
    boards, reset, place, newGame };
})();
registerGame("hexenrennen", Hexen);
