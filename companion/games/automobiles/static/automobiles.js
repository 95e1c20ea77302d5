// Automobiles on the table screen: the track with its lanes and fields in their gear colours, the cars and this turn's
// cubes on it; each player's bag, active area, used area and discard as coloured cubes; the cards in play with their
// costs; the turn: what each drawn cube can do now, where a gear cube can go and the wear each landing costs, the buy
// with what is affordable, the draw (answered by the camera or typed colours, like a roll) with its exact odds.
// table.js owns the page (stream, log, undo, roll box); it calls into the module this file registers for
// "automobiles" (registerGame) whenever that is the game on the table.
// Loaded before table.js: everything here reads table.js's globals (S, view, options, ...) only when called.
"use strict";

const Automobiles = (() => {
  const COLOURS = ["white", "light_grey", "dark_grey", "black", "yellow", "red", "purple", "blue", "green", "brown"];
  const ZONES = ["active", "used", "discard"];
  const STEPS = ["action", "buy", "movement", "wear", "end"];
  const STEP_OF = { deferred: 0, action: 0, effect: 0, boost: 0, buy: 1, movement: 2, wear: 3, end: 4, advance: 4 };
  const LANE = 1;        // a lane's width in track units
  const INNER = 2.4;     // the infield's radius at the curves
  const ui = { key: "", dest: null, open: new Set() };  // open: the cards whose texts show
  // A phone gets shorter straights: the oval fills more of a narrow screen, and its cars are bigger.
  const narrow = window.matchMedia("(max-width: 700px)");
  narrow.addEventListener("change", () => { if (gameUI() === Automobiles) { drawBoard(); drawOverlay(); } });
  const straight = () => (narrow.matches ? 2.4 : 5.2);  // half the length of a straight

  const v = () => view();
  const players = () => v().players || [];
  const player = (colour) => players().find((p) => p.colour === colour);
  const track = () => (S.layout && S.layout.track) || { fields: [], segments: [], lap_length: 32, start_positions: [] };
  const cards = () => (S.layout && S.layout.cards) || {};
  const segmentById = () => {
    if (S.auSegments && S.auSegments.track === track()) return S.auSegments.byId;
    const byId = Object.fromEntries(track().segments.map((s) => [s.id, s]));
    S.auSegments = { track: track(), byId };
    return byId;
  };
  const percent = (p) => `${Math.round(100 * p)} %`;
  const cubeName = (colour) => faceName(colour);
  const lapName = (mark) => ((CATALOG.ui || {})[`au_lap_${mark}`] ? T(`au_lap_${mark}`) : mark);

  // ---- names ------------------------------------------------------------------------------------------------------

  function name(colour) {
    const p = player(colour);
    return p ? p.name : colour || "";
  }

  // ---- geometry: the lap as a stadium, lane 0 inside; a track coordinate s is the same fraction of every lane ----

  function point(radius, s) {
    const q = (((s / track().lap_length) + 0.125) % 1 + 1) % 1;  // 0 at the left end of the bottom straight
    if (q < 0.25) return [-straight() + (q / 0.25) * 2 * straight(), radius];
    if (q < 0.5) {
      const a = Math.PI / 2 - ((q - 0.25) / 0.25) * Math.PI;
      return [straight() + radius * Math.cos(a), radius * Math.sin(a)];
    }
    if (q < 0.75) return [straight() - ((q - 0.5) / 0.25) * 2 * straight(), -radius];
    const a = -Math.PI / 2 - ((q - 0.75) / 0.25) * Math.PI;
    return [-straight() + radius * Math.cos(a), radius * Math.sin(a)];
  }

  const laneRadius = (lane, at = 0.5) => INNER + (lane + at) * LANE;
  const lanes = () => Math.max(1, ...track().segments.map((s) => s.lane + 1));

  // The band of a lane between two coordinates, from ``inner`` to ``outer`` of its width.
  function band(lane, back, front, inner = 0.04, outer = 0.96) {
    const steps = Math.max(2, Math.ceil((front - back) * 4));
    const side = (at) => Array.from({ length: steps + 1 }, (_, k) => point(laneRadius(lane, at),
      back + ((front - back) * k) / steps));
    const pts = [...side(inner), ...side(outer).reverse()];
    return pts.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" ");
  }

  const centre = (segment) => point(laneRadius(segment.lane), (segment.back + segment.front) / 2);

  // ---- the track --------------------------------------------------------------------------------------------------

  function drawTrack(box) {
    const t = track();
    const r = laneRadius(lanes() - 1, 1) + 0.35;
    const half = straight() + r;
    const [x, y, w, h] = [-half, -r, 2 * half, 2 * r].map((n) => n.toFixed(2));
    box.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
    box.classList.add("au-track");
    const ground = svg("g", { class: "au-ground" });
    for (const field of t.fields) {
      const group = svg("g", { class: "au-field", "data-field": field.id });
      const colours = field.colours.length ? field.colours : ["white"];
      colours.forEach((colour, k) => group.append(svg("polygon", { class: `au-fill cube-${colour}`,
        points: band(field.lane, field.back, field.front, 0.04 + (0.92 * k) / colours.length,
          0.04 + (0.92 * (k + 1)) / colours.length) })));
      group.append(svg("polygon", { class: "au-edge", points: band(field.lane, field.back, field.front) }));
      ground.append(group);
    }
    for (const segment of t.segments) {  // a field of two segments shows where they part
      if (segment.back <= (t.fields.find((f) => f.id === segment.field) || segment).back) continue;
      const [x1, y1] = point(laneRadius(segment.lane, 0.15), segment.back);
      const [x2, y2] = point(laneRadius(segment.lane, 0.85), segment.back);
      ground.append(svg("line", { class: "au-split", x1, y1, x2, y2 }));
    }
    const [lx1, ly1] = point(INNER - 0.1, 0);
    const [lx2, ly2] = point(laneRadius(lanes() - 1, 1) + 0.1, 0);
    ground.append(svg("line", { class: "au-finish", x1: lx1, y1: ly1, x2: lx2, y2: ly2 }));
    for (const start of t.start_positions) {
      const segment = segmentById()[start.segment];
      if (!segment) continue;
      const [x, y] = centre(segment);
      ground.append(svg("text", { class: "au-start", x, y: y + 0.32, "text-anchor": "middle" }, start.id));
    }
    const title = (CATALOG.ui || {})[`au_track_${t.id}`] ? T(`au_track_${t.id}`) : t.name;
    ground.append(svg("text", { class: "au-name", x: 0, y: -0.4, "text-anchor": "middle" }, title));
    if (t.reference) {
      ground.append(svg("text", { class: "au-reference", x: 0, y: 0.35, "text-anchor": "middle" },
        `★ ${T("au_reference_track")}`));
    }
    box.replaceChildren(ground, svg("g", { id: "overlay" }));
    S.spaceById = null;  // the chariot overlay must not draw here
  }

  // The options that land somewhere on the track (a cube's or the car's step, the car's destination on a tie).
  const landings = () => options().map((o, i) => [o, i]).filter(([o]) => (o.type === "step" || o.type === "drive")
    && segmentById()[o.to]);

  function drawOverlay() {
    const overlay = document.getElementById("overlay");
    if (!overlay) return;
    overlay.replaceChildren();
    const byId = segmentById();
    const wear = v().landing_wear || {};
    const seen = new Set();
    for (const [o, i] of landings()) {
      if (seen.has(o.to)) continue;
      seen.add(o.to);
      const segment = byId[o.to];
      const [x, y] = centre(segment);
      const chosen = ui.dest === o.to;
      overlay.append(svg("g", { class: `au-dest${chosen ? " selected" : ""}`, "data-dest": o.to,
        role: "button", "aria-label": optionLabel(o), onclick: () => onDestination(o.to, i) },
      svg("polygon", { points: band(segment.lane, segment.back, segment.front, -0.02, 1.02) }),
      o.to in wear ? svg("g", { class: "au-wear-badge", transform: `translate(${x} ${y})` },
        svg("circle", { r: 0.3 }), svg("text", { y: 0.11, "text-anchor": "middle" }, String(wear[o.to]))) : null));
    }
    const placed = v().placed || [];
    placed.forEach((cube, k) => {
      const segment = byId[cube.segment];
      if (!segment) return;
      const [x, y] = centre(segment);
      const shift = (placed.slice(0, k).filter((c) => c.segment === cube.segment).length) * 0.22;
      overlay.append(svg("rect", { class: `au-cube cube-${cube.colour}`, "data-cube": cube.colour,
        "data-segment": cube.segment, x: x - 0.2 + shift, y: y - 0.2, width: 0.4, height: 0.4, rx: 0.06 }));
    });
    for (const p of players()) {
      const segment = byId[p.segment];
      if (!segment) continue;
      const [x, y] = centre(segment);
      const classes = ["au-car", `colour-${p.colour}`];
      if (p.colour === v().current) classes.push("current");
      if (p.slipstream) classes.push("slipstream");
      overlay.append(svg("g", { class: classes.join(" "), "data-car": p.colour, transform: `translate(${x} ${y})` },
        svg("rect", { class: "halo", x: -0.5, y: -0.36, width: 1, height: 0.72, rx: 0.3 }),
        svg("rect", { class: "body", x: -0.38, y: -0.26, width: 0.76, height: 0.52, rx: 0.18 }),
        svg("text", { y: 0.12, "text-anchor": "middle" }, (p.name || "?").slice(0, 1).toUpperCase()),
        p.slipstream ? svg("text", { class: "au-stream", x: -0.62, y: 0.12, "text-anchor": "middle" }, "≋") : null));
    }
  }

  function onDestination(to, index) {
    if (!control) { showLogin(); return; }
    const same = landings().filter(([o]) => o.to === to);
    if (same.length === 1) { confirmOption(index); return; }
    ui.dest = to;  // several ways to get there (from the car or a cube, as one colour or another): the panel asks
    render();
  }

  // ---- cubes ------------------------------------------------------------------------------------------------------

  function cube(colour, n = 1, extra = "") {
    return el("span", { class: `au-cubes cube-${colour}${extra}`, "data-colour": colour, "data-n": n,
      title: cubeName(colour) }, el("i", { class: "au-cube-icon" }), n > 1 ? el("b", {}, `×${n}`) : null);
  }

  function cubeRow(zone, { hiddenCount = null } = {}) {
    if (hiddenCount !== null) return el("span", { class: "au-hidden" }, T("au_bag_count", { n: hiddenCount }));
    const present = COLOURS.filter((c) => (zone || {})[c]);
    if (!present.length) return el("span", { class: "au-empty" }, "–");
    return present.map((c) => cube(c, zone[c]));
  }

  function oddsLine(odds) {
    if (!odds) return null;
    const wear = odds.wear.length ? odds.wear.slice(0, 3).map((p, k) => el("span", { class: "au-odd wear",
      "data-at-least": k + 1 }, T("au_odds_wear", { k: k + 1, p: percent(p) })))
      : [el("span", { class: "au-odd wear", "data-at-least": 1 }, T("au_odds_no_wear"))];
    return el("div", { class: "au-odds", "data-n": odds.n },
      el("span", { class: "au-odds-title" }, T("au_odds_title", { n: odds.drawn })), ...wear,
      odds.from_bag < odds.drawn ? el("span", { class: "au-odd refill" },
        T("au_odds_refill", { n: odds.drawn - odds.from_bag })) : null);
  }

  function oddsTable(odds) {
    if (!odds) return null;
    const colours = COLOURS.filter((c) => c in odds.any);
    return el("div", { class: "au-odds-box", id: "au-odds" }, oddsLine(odds),
      el("div", { class: "au-any" }, el("span", { class: "au-odds-title" }, T("au_odds_any")),
        colours.map((c) => el("span", { class: "au-odd any", "data-colour": c }, cube(c), percent(odds.any[c])))));
  }

  // ---- the turn panel ---------------------------------------------------------------------------------------------

  function heading() {
    const prompt = S.state.prompt;
    const phase = T(`au_phase_${prompt.phase}`);
    return prompt.actor ? `${name(prompt.actor)}: ${phase}` : phase;
  }

  const button = (o, i, label = optionLabel(o), cls = "") => withHelp(el("button", { type: "button",
    class: `option ${cls}`.trim(), "data-option": i, "data-type": o.type, onclick: () => confirmOption(i) }, label),
  optionHelp(i));

  function stageLine() {
    const stage = v().stage;
    if (!stage || !stage.card) return null;
    const card = Object.values(cards()).find((c) => c.id === stage.card);
    const what = card ? T(card.name) : stage.card.replace("driver_", T("au_driver") + " ");
    const count = stage.at_most > 1 && stage.at_most < 99 ? ` (${stage.done}/${stage.at_most})` : "";
    return el("p", { class: "au-stage" }, T("au_stage", { card: what }) + count);
  }

  function drawPanel(rolls) {
    const [o, i] = rolls[0];
    const nodes = [el("p", { class: "big" }, T("au_draw_now", { n: o.roll, name: name(S.state.prompt.actor) }))];
    const next = v().next_draw;
    if (next) nodes.push(oddsTable(next));
    else nodes.push(el("p", { class: "hint" }, T("au_bag_closed_odds")));
    const box = rollBox(o.roll, i);
    box.querySelector("p.hint").textContent = T("au_draw_hint", { n: o.roll });
    const hint = box.querySelector("details.manual > p");
    if (hint) hint.textContent = T("au_manual_hint", { n: o.roll });
    nodes.push(box);
    return nodes;
  }

  // AU-20: each cube of the active area with its card and what it can do now (the listed activations).
  function cubePanel() {
    const me = player(v().current) || { active: {} };
    const rows = COLOURS.filter((c) => me.active[c]).map((colour) => {
      const card = cards()[colour];
      const mine = options().map((o, i) => [o, i]).filter(([o]) => o.type === "activate" && o.colour === colour);
      return el("div", { class: `au-cube-row${mine.length ? "" : " idle"}`, "data-colour": colour },
        cube(colour, me.active[colour]),
        el("span", { class: "au-card-name" }, card ? T(card.name) : cubeName(colour)),
        mine.length ? el("span", { class: "au-choices" }, mine.map(([o, i]) => button(o, i)))
          : el("span", { class: "au-idle" }, T("au_cube_idle")));
    });
    return el("div", { class: "au-cube-panel", id: "au-cubes" }, el("h3", {}, T("au_cubes_now")), rows);
  }

  // AU-36: every card in play with its cost; the ones the money reaches are the listed buys.
  function buyPanel() {
    const money = (S.state.prompt.info || {}).money ?? (v().turn || {}).money;
    const buys = new Map(options().map((o, i) => [o, i]).filter(([o]) => o.type === "buy")
      .map(([o, i]) => [o.colour, i]));
    const costs = v().costs || {};
    const rows = COLOURS.filter((c) => c in costs).map((colour) => {
      const card = cards()[colour] || {};
      const index = buys.get(colour);
      const label = [cube(colour), el("span", { class: "au-card-name" }, card.name ? T(card.name) : cubeName(colour)),
        el("b", { class: "au-cost" }, `$${costs[colour]}`,
          card.cost_is_reference ? el("sup", { class: "au-ref" }, "★") : null)];
      return index === undefined
        ? el("span", { class: "au-buy too-dear", "data-colour": colour }, label, el("small", {}, T("au_too_dear")))
        : withHelp(el("button", { type: "button", class: "option au-buy", "data-colour": colour, "data-option": index,
          onclick: () => confirmOption(index) }, label), optionHelp(index));
    });
    const startMoney = S.state.prompt.phase === "opening_buy" && track().reference;  // AU-13: a placeholder
    return el("div", { class: "au-buy-panel", id: "au-buy" },
      money !== undefined && money !== null ? el("p", { class: "big au-money" }, T("au_money", { money }),
        startMoney ? el("sup", { class: "au-ref", "data-reference": "true" }, "★") : null) : null,
      el("div", { class: "au-buys" }, rows), referenceNote(startMoney || (rows.length && Object.values(cards())
        .some((c) => c.cost_is_reference))));
  }

  function referenceNote(shown) {
    return shown ? el("p", { class: "au-ref-note" }, `★ ${T("au_reference_note")}`) : null;
  }

  function movePanel() {
    const moves = landings();
    const wear = v().landing_wear || {};
    if (ui.dest && !moves.some(([o]) => o.to === ui.dest)) ui.dest = null;
    const shown = ui.dest ? moves.filter(([o]) => o.to === ui.dest) : moves;
    const title = Object.keys(wear).length ? T("au_landings_wear", { now: (v().turn || {}).wear_table || 0 })
      : T("au_landings");
    return el("div", { class: "au-move-panel", id: "au-moves" }, el("p", { class: "hint" }, title),
      el("div", { class: "choices" }, shown.map(([o, i]) => button(o, i, optionLabel(o), "au-step"))));
  }

  function body() {
    const prompt = S.state.prompt;
    const phase = prompt.phase;
    const nodes = [];
    if (phase === "over") {
      nodes.push(el("p", { class: "winner big" }, winnerText()));
      return nodes;
    }
    nodes.push(stageLine());
    const rolls = options().map((o, i) => [o, i]).filter(([o]) => "roll" in o);
    const done = new Set(rolls.map(([, i]) => i));
    if (rolls.length) nodes.push(...drawPanel(rolls));
    else if (phase === "action") {
      nodes.push(cubePanel());
      options().forEach((o, i) => { if (o.type === "activate") done.add(i); });
      const me = player(v().current);
      if (me && me.slipstream) nodes.push(el("p", { class: "au-slip-note" }, `≋ ${T("au_slipstream_now")}`));
    } else if (options().some((o) => o.type === "buy") && (phase === "buy" || phase === "opening_buy")) {
      nodes.push(buyPanel());
      options().forEach((o, i) => { if (o.type === "buy") done.add(i); });
    }
    if (landings().length) {
      nodes.push(movePanel());
      for (const [, i] of landings()) done.add(i);
    }
    const rest = options().map((o, i) => [o, i]).filter(([, i]) => !done.has(i));
    if (rest.length) nodes.push(el("div", { class: "choices au-rest" }, rest.map(([o, i]) => button(o, i))));
    return nodes;
  }

  function winnerText() {
    const winners = v().winners || [];
    if (!winners.length) return T("au_phase_over");
    return T("au_winner", { names: winners.map(name).join(" & ") });
  }

  function banner() {
    if (S.state.game.over) return [el("span", { class: "winner" }, winnerText())];
    const current = v().current;
    const prompt = S.state.prompt;
    const nodes = [el("span", { class: `swatch colour-${current}` }),
      el("span", { class: "who" }, T("turn_of", { name: name(current) })),
      el("span", { class: "round" }, T(v().season && v().season.length ? "au_race_round" : "au_round",
        { round: v().round, race: v().race }))];
    if (prompt.actor && prompt.actor !== current) {
      nodes.push(el("span", { class: `decider colour-${prompt.actor}` }, el("span", { class: "swatch" }),
        T("au_decides", { name: name(prompt.actor) })));
    }
    return nodes;
  }

  // The turn order, then the lap track with every car's lap marker (AU-19).
  function order() {
    const current = v().current;
    const laps = v().lap_track || [];
    return [el("span", { class: "order-label" }, T("turn_order")),
      ...(v().order || []).map((colour) => el("span", { class: `order-chip colour-${colour}`
        + `${colour === current ? " now" : ""}`, "data-colour": colour }, el("span", { class: "swatch" }),
      name(colour))),
      el("div", { class: "au-laps", id: "au-laps" }, el("span", { class: "order-label" }, T("au_lap_track")),
        laps.map((mark) => el("span", { class: "au-lap", "data-marker": mark }, el("b", {}, lapName(mark)),
          players().filter((p) => p.marker === mark)
          .map((p) => el("span", { class: `swatch colour-${p.colour}`, title: p.name })))))];
  }

  function phases() {
    const at = STEP_OF[S.state.prompt.phase] ?? -1;
    return STEPS.map((step, k) => el("li", { class: k === at ? "now" : k < at ? "done" : "" }, T(`au_step_${step}`)));
  }

  function setup() {
    const phase = S.state.prompt.phase;
    if (S.state.game.over || !["driver", "opening_buy", "opening_draw"].includes(phase)) return null;
    return el("div", { class: "setup" }, el("h3", {}, T("au_setup_title")), el("p", {}, T("au_setup_text")));
  }

  // ---- the players' boards -----------------------------------------------------------------------------------------

  function boards() {
    const current = v().current;
    const decides = S.state.prompt && S.state.prompt.actor;
    const open = (v().variants || {}).open_bags;
    const list = players().map((p) => el("article", { class: `au-board colour-${p.colour}`
      + `${p.colour === current ? " current" : ""}${p.colour === decides && p.colour !== current ? " deciding" : ""}`,
    "data-colour": p.colour, "data-seat": p.colour },
    el("header", {}, el("span", { class: "swatch" }), el("strong", {}, p.name),
      p.slipstream ? el("span", { class: "au-slip", title: T("au_slipstream_hint") }, "≋ ",
        el("span", { class: "au-slip-word" }, T("au_slipstream")))
        : null,
      el("span", { class: "au-value au-place", "data-position": p.position }, `${p.position}.`),
      el("span", { class: "au-value au-marker", "data-marker": p.marker }, `⚑${lapName(p.marker)}`)),
    el("div", { class: "au-zones" },
      el("div", { class: "au-zone bag", "data-zone": "bag", "data-count": p.bag_count },
        el("span", { class: "au-zone-name" }, T("au_zone_bag")),
        el("span", { class: "au-zone-cubes" }, open ? cubeRow(p.bag) : cubeRow(null, { hiddenCount: p.bag_count }),
          open ? el("small", { class: "au-count" }, `(${p.bag_count})`) : null)),
      ZONES.map((zone) => el("div", { class: `au-zone ${zone}`, "data-zone": zone },
        el("span", { class: "au-zone-name" }, T(`au_zone_${zone}`)),
        el("span", { class: "au-zone-cubes" }, cubeRow(p[zone])))),
      Object.keys(p.aside || {}).length ? el("div", { class: "au-zone aside", "data-zone": "aside" },
        el("span", { class: "au-zone-name" }, T("au_zone_aside")), el("span", { class: "au-zone-cubes" },
          cubeRow(p.aside))) : null),
    el("div", { class: "au-info" }, el("p", { class: `au-facts${v().season && v().season.length ? " season" : ""}` },
      T("au_distance", { n: p.distance }),
      v().season && v().season.length ? ` · ${T("au_points", { n: p.points })}` : ""),
    S.state.game.over ? null : oddsLine(p.odds)),  // the odds of a draw that will never come: none
    p.driver ? cardDetails(p.driver, { class: "au-driver", "data-driver": p.driver },
      `${T("au_driver")} ${p.driver.replace("driver_", "")}`, ((S.layout || {}).drivers || {})[p.driver]) : null));
    return [...list, cardsBoard()];
  }

  // A card (or a driver) that a tap opens to what it does, in the screen's language (present.py sends the text's
  // key); it stays open while the table plays on.
  function cardDetails(id, attrs, head, textKey) {
    return el("details", { ...attrs, open: ui.open.has(id),
      ontoggle: (e) => (e.target.open ? ui.open.add(id) : ui.open.delete(id)) },
    el("summary", { title: T("au_what_it_does") }, head), el("p", { class: "au-card-text" }, T(textKey)));
  }

  // The cards in play (AU-3, AU-9) with cost and value; a value not printed in the rules is marked as reference.
  function cardsBoard() {
    const list = COLOURS.filter((c) => cards()[c]).map((colour) => {
      const card = cards()[colour];
      return el("li", { class: "au-card", "data-colour": colour }, cardDetails(card.id, {}, [cube(colour),
        el("span", { class: "au-card-name" }, card.name ? T(card.name) : cubeName(colour)),
        card.cost !== null && card.cost !== undefined ? el("span", { class: "au-cost" }, `$${card.cost}`,
          card.cost_is_reference ? el("sup", { class: "au-ref", "data-reference": "true" }, "★") : null) : null,
        el("span", { class: "au-card-value" }, T("au_value", { n: card.value }))], card.text));
    });
    const reference = Object.values(cards()).some((c) => c.cost_is_reference);
    return el("article", { class: "au-board au-cards", id: "au-cards" }, el("header", {},
      el("strong", {}, T("au_cards_title"))), el("ul", {}, list), referenceNote(reference));
  }

  function reset(key) {
    if (key === ui.key) return;
    ui.key = key;
    ui.dest = null;
  }

  // The New game page: 2-5 players with car colours, the reference oval, card pool, and the open-bags variant.
  const fieldState = { pool: "base", open: true };
  const newGame = {
    palette: ["red", "blue", "yellow", "green", "white"],
    maxPlayers: 5,
    hint: "au_players_hint",
    startLabel: "au_start_game",
    fields: () => [el("fieldset", { "data-game-fields": "automobiles" },
      el("legend", { "data-i18n": "au_setup_cards" }, T("au_setup_cards")),
      el("div", { class: "choices" }, ["base", "racing_season", "both"].map((pool) => el("label", { class: "au-pool" },
        el("input", { type: "radio", name: "au-pool", value: pool, checked: fieldState.pool === pool,
          onchange: () => { fieldState.pool = pool; } }), T(`au_pool_${pool}`)))),
      el("label", { class: "au-open" }, el("input", { type: "checkbox", name: "au-open-bags", checked: fieldState.open,
        onchange: (e) => { fieldState.open = e.target.checked; } }), T("au_open_bags")),
      el("p", { class: "hint" }, `★ ${T("au_reference_track_hint")}`))],
    playersChanged: () => {},
    restore: (options) => {
      if (["base", "racing_season", "both"].includes(options.card_pool)) fieldState.pool = options.card_pool;
      if (typeof options.open_bags === "boolean") fieldState.open = options.open_bags;
    },
    options: (list) => ({ players: list, track: "reference_oval", card_pool: fieldState.pool,
      open_bags: fieldState.open }),
  };

  return { name, drawTrack, drawOverlay, heading, body, banner, order, phases, setup, boards, reset, newGame };
})();
registerGame("automobiles", Automobiles);
