// Cubitos on the table screen: the track drawn from the layout's x/y (runners, red lines, water, bonuses, specials,
// the finish), every player's zones as small dice in their type's colour (active dice with their face), coins, steps,
// credits and fans, the fan track, the cards in play with their dice faces, costs and stock, and the turn phase by
// phase: the roll (typed in die by die, grouped by type), push or pass with the exact bust chance of the next roll and
// what a push brings on average, a bust's resting, moving by a tap on the track, and buying.
// Entries the data marks as reference values (not from the printed game) carry a small marker and a note.
// table.js owns the page (stream, log, undo, roll box); it calls into the module registered for "cubitos".
// Loaded before table.js: everything here reads table.js's globals (S, view, options, ...) only when called.
"use strict";

const Cubitos = (() => {
  const STEPS = ["refill", "roll", "push", "end", "support", "move", "buy", "rest"];
  const STEP_OF = { roll: 1, choice: 2, push: 2, event: 2, busting: 2, bust: 3, support: 4, adjust: 4, again: 4,
    move_start: 5, move: 5, shortcut: 5, bonus: 5, end6: 5, before7: 6, buy: 6, over: 8 };
  const ROLL_SECTION = new Set(["roll", "choice", "push", "event", "busting", "bust"]);
  const ZONES = ["draw", "ready", "active", "rest"];
  const R = 0.62;            // a space's radius in track units (neighbouring spaces are about 2 apart)
  const GAP = 3;             // between two tracks of a chained race
  const ui = { key: "", dest: null, roll: null, rest: {}, open: new Set() };  // open: the cards whose texts show

  const v = () => view();
  const players = () => v().players || [];
  const player = (colour) => players().find((p) => p.colour === colour);
  const layout = () => S.layout || {};
  const dieTypes = () => layout().dice || {};
  // Die types in the order the box has them: the start dice, the lead die, then the colours.
  const RANK = { grey: 0, black: 1 };
  const typeOrder = (types) => [...types].sort((a, b) => (RANK[dieTypes()[a].colour] ?? 2)
    - (RANK[dieTypes()[b].colour] ?? 2) || a.localeCompare(b));
  const name = (colour) => (player(colour) ? player(colour).name : colour || "");

  // ---- numbers as the players' language writes them -------------------------------------------------------------

  const number = (x, digits) => Number(x).toLocaleString(CATALOG.lang, { minimumFractionDigits: digits,
    maximumFractionDigits: digits });
  // The bust chance exactly as the rules give it, to one decimal; below 1 % to two, so a risk never reads as 0 %.
  const percent = (p) => (p === 0 ? "0 %" : `${number(100 * p, 100 * p < 1 ? 2 : 1)} %`);

  // ---- dice -------------------------------------------------------------------------------------------------------

  function faceOf(type, label) {
    const kind = dieTypes()[type];
    return (kind && kind.faces.find((f) => f.label === label)) || null;
  }

  // One die: its type's colour, and the face it shows (none for a die not rolled).
  function die(type, label = null, size = 22) {
    const face = label ? faceOf(type, label) : null;
    const marks = face ? face.marks : [];  // what it shows, drawn small (present.py's face marks, CU-6)
    const title = label ? faceName(`${type}/${label}`) : dieName(type);
    const node = svg("svg", { class: `cu-die t-${type}${label === "blank" ? " blank" : ""}`, viewBox: "0 0 20 20",
      width: size, height: size, role: "img", "aria-label": title, "data-die": type, "data-face": label },
    svg("rect", { class: "body", x: 1, y: 1, width: 18, height: 18, rx: 4 }));
    marks.forEach((mark, k) => {
      const y = marks.length === 1 ? 14.5 : k === 0 ? 9 : 17;
      node.append(svg("text", { class: `mark ${mark.kind}`, x: 10, y, "text-anchor": "middle",
        style: `font-size:${marks.length === 1 ? 12 : 8.5}px` }, mark.text));
    });
    return node;
  }
  // Die types and faces as the log names them (one copy of each word: the catalogue's log section).
  const word = (key) => (CATALOG.log && CATALOG.log[key]) || key;
  const dieName = (type) => word(`cu_die_${type}`);
  const faceWord = (label) => word(`cu_face_${label}`);

  // The table page's drawing of a face ("<die type>/<label>", table.js faceIcon): the die in its colour.
  function dieIcon(face, { size = 56, unknown = false } = {}) {
    const [type, label] = String(face).split("/");
    const node = die(type, unknown ? null : label, size);
    if (unknown) node.append(svg("text", { class: "mark", x: 10, y: 14.5, "text-anchor": "middle" }, "?"));
    return node;
  }

  // A zone's dice, type by type (dice of a type are alike), the active ones with their faces.
  function diceRow(zone, entries) {
    const dice = entries.map((entry) => (zone === "active" ? entry.split("/") : [entry, null]));
    return el("span", { class: `cu-dice zone-${zone}`, "data-zone": zone, "data-count": dice.length },
      dice.length ? dice.map(([type, label]) => die(type, label)) : el("span", { class: "none" }, "–"));
  }

  // ---- reference values ------------------------------------------------------------------------------------------

  const refMark = () => el("sup", { class: "cu-ref", title: T("cu_ref_note") }, "*");

  // ---- the track --------------------------------------------------------------------------------------------------

  function tracks() { return layout().tracks || []; }

  // Each track's offset: a chained race's tracks stand side by side.
  function placed() {
    let left = 0;
    return tracks().map((track) => {
      const xs = track.spaces.map((s) => s.x);
      const ys = track.spaces.map((s) => s.y);
      const box = { minX: Math.min(...xs) - 1.2, maxX: Math.max(...xs) + 1.2, minY: Math.min(...ys) - 1.4,
        maxY: Math.max(...ys) + 1.2 };
      const dx = left - box.minX;
      left += box.maxX - box.minX + GAP;
      return { track, dx, box };
    });
  }

  function spaceAt(segment, id) {
    const entry = placed()[segment];
    if (!entry) return null;
    const space = entry.track.spaces.find((s) => s.id === id);
    return space ? [space.x + entry.dx, space.y] : null;
  }

  function bonusText(bonus) {
    if (bonus.type === "credits") return `+${bonus.n}▣`;
    if (bonus.type === "fans") return `+${bonus.n}♥`;
    if (bonus.type === "give_back") return "−⚀";
    return `+⚀${bonus.max_cost !== undefined && bonus.max_cost !== null ? `≤${bonus.max_cost}` : ""}`;
  }

  function drawTrack(box) {
    box.classList.add("cu-track");
    const all = placed();
    if (!all.length) return;
    const width = all.reduce((w, e) => w + e.box.maxX - e.box.minX, 0) + GAP * (all.length - 1);
    const top = Math.min(...all.map((e) => e.box.minY));
    const bottom = Math.max(...all.map((e) => e.box.maxY));
    box.setAttribute("viewBox", `0 ${top.toFixed(2)} ${width.toFixed(2)} ${(bottom - top).toFixed(2)}`);
    const ground = svg("g", { class: "cu-ground" });
    all.forEach(({ track, dx, box: b }, segment) => {
      const at = Object.fromEntries(track.spaces.map((s) => [s.id, s]));
      const g = svg("g", { class: "cu-segment", "data-track": track.id, transform: `translate(${dx} 0)` });
      g.append(svg("text", { class: "cu-track-name", x: b.minX + 0.2, y: b.minY + 0.7 },
        `${T(track.name)}${track.reference ? " *" : ""}`));
      for (const [a, c] of track.edges) {
        const p = at[a];
        const q = at[c];
        g.append(svg("line", { class: "cu-edge", x1: p.x, y1: p.y, x2: q.x, y2: q.y }));
        if (p.red_lines_passed !== q.red_lines_passed && p.kind !== "finish" && q.kind !== "finish") {
          // a red line across the way between the two spaces (CU-26, CU-69)
          const mx = (p.x + q.x) / 2;
          const my = (p.y + q.y) / 2;
          const len = Math.hypot(q.x - p.x, q.y - p.y) || 1;
          const nx = (-(q.y - p.y) / len) * 0.55;
          const ny = ((q.x - p.x) / len) * 0.55;
          g.append(svg("line", { class: "cu-red-line", x1: mx - nx, y1: my - ny, x2: mx + nx, y2: my + ny }));
        }
      }
      for (const space of track.spaces) {
        if (!space.special || space.special.type !== "shortcut") continue;
        const to = at[space.special.to];
        const [kind, amount] = Object.entries(space.special.pay)[0];
        g.append(svg("path", { class: "cu-shortcut", d: `M${space.x} ${space.y}L${to.x} ${to.y}` }),
          svg("text", { class: "cu-shortcut-pay", x: (space.x + to.x) / 2, y: (space.y + to.y) / 2 + 0.2,
            "text-anchor": "middle" }, `${amount}${kind === "coins" ? "●" : "»"}`));
      }
      for (const space of track.spaces) {
        const classes = ["cu-space", `kind-${space.kind}`];
        if (space.special) classes.push(`special-${space.special.type}`);
        if (space.bonuses.length) classes.push("bonus");
        const node = svg("g", { class: classes.join(" "), "data-space": space.id, "data-segment": segment,
          onclick: () => onSpaceTap(segment, space.id) },
        svg("circle", { cx: space.x, cy: space.y, r: ["start", "finish"].includes(space.kind) ? R * 1.3 : R }));
        if (space.kind === "start" || space.kind === "finish") {
          node.append(svg("text", { class: "cu-label", x: space.x, y: space.y + 0.18, "text-anchor": "middle" },
            T(space.kind === "start" ? "cu_start" : "cu_finish")));
        } else if (space.special && space.special.type === "jet") {
          node.append(svg("text", { class: "cu-glyph", x: space.x, y: space.y + 0.2, "text-anchor": "middle" }, "×2"));
        } else if (space.bonuses.length) {
          node.append(svg("text", { class: "cu-glyph", x: space.x, y: space.y + 0.2, "text-anchor": "middle" },
            space.bonuses.map(bonusText).join(" ")));
        }
        g.append(node);
      }
      ground.append(g);
    });
    box.append(ground, svg("g", { id: "overlay" }));
    S.spaceById = null;  // the chariot overlay must not draw here
  }

  function drawOverlay() {
    const overlay = document.getElementById("overlay");
    if (!overlay) return;
    overlay.replaceChildren();
    const prompt = S.state.prompt || {};
    const me = prompt.actor ? player(prompt.actor) : null;
    if (me && prompt.phase === "move") {
      for (const [o, i] of moves()) {
        const to = o.path[o.path.length - 1];
        const at = spaceAt(me.track, to) || spaceAt(me.track + 1, to);
        if (!at) continue;
        overlay.append(svg("g", { class: `cu-dest${ui.dest === i ? " selected" : ""}`, "data-dest": to,
          onclick: () => pick(i) }, svg("circle", { class: "tap", cx: at[0], cy: at[1], r: 1 }),
        svg("circle", { cx: at[0], cy: at[1], r: R * 1.25 })));
      }
      if (ui.dest !== null && options()[ui.dest]) {
        const path = [me.space, ...options()[ui.dest].path].map((id) => spaceAt(me.track, id)).filter(Boolean);
        overlay.append(svg("polyline", { class: "cu-path", points: path.map((p) => p.join(",")).join(" ") }));
      }
    }
    // The runners: several on one space stand around its centre.
    const where = {};
    for (const p of players()) (where[`${p.track}:${p.space}`] = where[`${p.track}:${p.space}`] || []).push(p);
    for (const group of Object.values(where)) {
      group.forEach((p, k) => {
        const at = spaceAt(p.track, p.space);
        if (!at) return;
        const angle = (2 * Math.PI * k) / group.length - Math.PI / 2;
        const off = group.length > 1 ? 0.42 : 0;
        const x = at[0] + off * Math.cos(angle);
        const y = at[1] + off * Math.sin(angle);
        const current = p.colour === v().current;
        overlay.append(svg("g", { class: `cu-runner colour-${p.colour}${current ? " current" : ""}`,
          "data-player": p.colour, "data-space": p.space, transform: `translate(${x} ${y})` },
        svg("circle", { class: "halo", r: 0.5 }), svg("circle", { class: "body", r: 0.36 }),
        svg("text", { y: 0.14, "text-anchor": "middle" }, p.name.slice(0, 1))));
      });
    }
  }

  // ---- taps -------------------------------------------------------------------------------------------------------

  const moves = () => options().map((o, i) => [o, i]).filter(([o]) => o.type === "move");

  function pick(index) {
    ui.dest = index;
    render();
  }

  function onSpaceTap(segment, id) {
    const found = moves().find(([o]) => o.path[o.path.length - 1] === id);
    if (found) pick(found[1]);
  }

  // ---- the banner, the order, the phases --------------------------------------------------------------------------

  function heading() {
    const prompt = S.state.prompt;
    const phase = T(`cu_phase_${prompt.phase}`);
    return prompt.actor ? `${name(prompt.actor)}: ${phase}` : phase;
  }

  function winnerText() {
    const winners = v().winners || [];
    return winners.length ? T("cu_winner", { name: winners.map(name).join(" & ") }) : T("cu_phase_over");
  }

  function banner() {
    if (S.state.game.over) return [el("span", { class: "winner" }, winnerText())];
    const current = v().current;
    const section = ROLL_SECTION.has(S.state.prompt.phase) ? "cu_section_roll" : "cu_section_race";
    return [el("span", { class: `swatch colour-${current}` }),
      el("span", { class: "who" }, T("turn_of", { name: name(current) })),
      el("span", { class: "round" }, `${T("cu_round", { n: v().round })} · ${T(section)}`)];
  }

  function order() {
    const current = v().current;
    const lead = v().lead;
    const fans = layout().fan_track || [];
    const chips = (v().racing || []).map((colour) => {
      const p = player(colour);
      const status = statusOf(p);
      return el("span", { class: `order-chip colour-${colour}${colour === current ? " now" : ""}`
        + `${p.done_rolling && ROLL_SECTION.has(S.state.prompt.phase) ? " done" : ""}`, "data-player": colour },
      el("span", { class: "swatch" }), p.name, colour === lead ? el("small", { class: "cu-lead" }, T("cu_lead")) : null,
      status ? el("small", { class: `cu-status ${status}` }, T(`cu_state_${status}`)) : null);
    });
    // The fan track: each space with its rewards, the players' markers on theirs.
    const fanTrack = el("div", { class: "cu-fans", id: "fan-track" },
      el("span", { class: "order-label" }, T("cu_fan_track"), layout().fan_track_reference ? refMark() : null),
      fans.map((reward, n) => el("span", { class: `cu-fan${n === 0 ? " stand" : ""}`, "data-fans": n },
        el("b", {}, String(n)),
        el("small", {}, n === 0 ? "" : reward.credits ? `${reward.credits}▣` : reward.limit_tokens ? "+1⚀" : ""),
        el("span", { class: "markers" }, players().filter((p) => p.fans === n).map((p) => el("i", {
          class: `swatch colour-${p.colour}`, title: p.name, "data-player": p.colour }))))));
    // What the marker means, once for the track, the fan track, the dice faces and the costs
    const note = el("p", { class: "cu-ref-note", id: "cu-ref-note" }, el("sup", { class: "cu-ref" }, "*"), " ",
      T("cu_ref_note"));
    return [el("span", { class: "order-label" }, T("turn_order")), ...chips, fanTrack, note];
  }

  // A player's state in this round: still rolling, passed, busted (CU-34), in danger (CU-32), at the finish.
  function statusOf(p) {
    if (p.reached) return "finished";
    if (!ROLL_SECTION.has(S.state.prompt.phase)) return null;
    if (p.busted) return "busted";
    if (p.done_rolling) return "passed";
    return p.danger ? "danger" : "rolling";
  }

  function phases() {
    const phase = S.state.prompt.phase;
    const at = STEP_OF[phase] ?? -1;
    const me = player(S.state.prompt.actor);
    // A roll that still refills (it shows more dice than the ready zone holds) is phases 1 and 2 at once.
    const refilling = phase === "roll" && me && options().some((o) => o.type === "roll" && o.roll > me.ready.length);
    return STEPS.map((step, k) => el("li", { class: k === at || (k === 0 && refilling) ? "now" : k < at ? "done" : "",
      "data-step": step }, T(`cu_step_${step}`)));
  }

  function setup() {
    if (S.state.seq !== 0 || S.state.game.over) return null;
    return el("div", { class: "setup" }, el("h3", {}, T("cu_setup_title")), el("p", {}, T("cu_setup_text")));
  }

  // ---- the players' boards and the cards in play ------------------------------------------------------------------

  function value(key, n, extra = null) {
    return el("span", { class: `cu-value v-${key}`, "data-value": key },
      el("b", {}, String(n)), el("small", {}, T(`cu_v_${key}`)), extra);
  }

  function boards() {
    const current = v().current;
    const cards = players().map((p) => {
      const status = statusOf(p);
      return el("article", { class: `cu-board colour-${p.colour}${p.colour === current ? " current" : ""}`,
        "data-player": p.colour, "data-seat": p.colour },
      el("header", {}, el("span", { class: "swatch" }), el("strong", {}, p.name),
        status ? el("span", { class: `cu-status ${status}` }, T(`cu_state_${status}`)) : null,
        el("span", { class: "cu-where" }, T("cu_where", { space: p.space, lines: p.lines_passed }))),
      el("div", { class: "cu-values" }, value("coins", p.coins), value("steps", p.steps),
        value("credits", p.credits), value("fans", p.fans), value("limit", p.draw_limit)),
      el("div", { class: "cu-zones" }, ZONES.map((zone) => el("div", { class: "cu-zone" },
        el("span", { class: "cu-zone-name" }, `${T(`cu_zone_${zone}`)} (${p[zone].length})`),
        diceRow(zone, p[zone])))));
    });
    return [...cards, market()];
  }

  // The cards in play: each colour's card with its name, cost, the faces of its dice and how many are left.
  function market({ buying = false } = {}) {
    const costs = v().costs || {};
    const stock = v().stock || {};
    const me = player(S.state.prompt.actor);
    const cards = Object.entries(layout().cards || {}).map(([colour, card]) => {
      const kind = dieTypes()[colour];
      const option = buying ? options().findIndex((o) => o.type === "buy" && o.die === colour) : -1;
      const left = stock[colour] || 0;
      let why = null;
      if (buying && option < 0) {
        why = !left ? "cu_none_left" : me && me.bought.includes(colour) ? "cu_bought_already"
          : me && me.bought.length >= 2 ? "cu_two_bought" : "cu_too_dear";
      }
      const faces = kind ? [...new Set(kind.faces.map((f) => f.label))] : [];
      const body = [el("span", { class: "cu-card-name" }, el("span", { class: `swatch colour-${colour}` }), T(card.name)),
        el("span", { class: "cu-cost", "data-cost": costs[colour] }, `${costs[colour]}●`,
          card.cost_is_reference ? refMark() : null),
        el("span", { class: "cu-faces" }, faces.map((label) => die(colour, label, 20)),
          kind && kind.reference ? refMark() : null),
        el("span", { class: "cu-left", "data-left": left }, T("cu_left", { n: left })),
        why ? el("small", { class: "cu-why" }, T(why)) : null];
      if (option >= 0 && control) {
        return withHelp(el("button", { type: "button", class: "cu-card buyable", "data-colour": colour,
          "data-option": option, onclick: () => confirmOption(option) }, body), optionHelp(option));
      }
      if (buying) return el("div", { class: `cu-card${why ? " unaffordable" : ""}`, "data-colour": colour }, body);
      // A tap on a card in play opens what it does, in the screen's language; it stays open while the table plays on.
      return el("details", { class: "cu-card", "data-colour": colour, open: ui.open.has(colour),
        ontoggle: (e) => (e.target.open ? ui.open.add(colour) : ui.open.delete(colour)) },
      el("summary", { title: T("cu_card_texts") }, body), abilityTexts(card));
    });
    return el("article", { class: `cu-market${buying ? " buying" : ""}`, id: buying ? "cu-buy" : "cu-market" },
      el("h3", {}, T(buying ? "cu_buy_title" : "cu_cards")), el("div", { class: "cu-cards" }, cards));
  }

  // What a card's abilities do (present.py sends each one's text key, the catalogue holds it in every language).
  function abilityTexts(card) {
    return el("ul", { class: "cu-card-texts" }, (card.abilities || []).map((a) => el("li", { "data-ability": a.id },
      T(a.text))));
  }

  // ---- the turn panel ---------------------------------------------------------------------------------------------

  // The dice the roller may show, grouped by type: what they own outside the active zone.
  function rollerTypes(p) {
    const owned = new Set([...p.draw, ...p.ready, ...p.rest]);
    return typeOrder(Object.keys(dieTypes()).filter((type) => owned.has(type)));
  }

  // The shared roll box with the faces to type in grouped by die type: the types the roller owns (``p``), or every
  // type for an ability's roll, which may take dice from the stock.
  function cubitosRollBox(needed, index, p) {
    const box = rollBox(needed, index);
    const palette = box.querySelector(".palette");
    if (palette) {
      const types = p ? rollerTypes(p) : typeOrder(Object.keys(dieTypes()));
      const faceButton = (type, label) => el("button", { type: "button", class: "face-btn",
        "data-face": `${type}/${label}`, onclick: () => addDraft(`${type}/${label}`, needed) },
      die(type, label, 34), el("span", {}, faceWord(label)));
      palette.replaceChildren(...types.map((type) => el("div", { class: "cu-palette-row", "data-die": type },
        el("span", { class: "cu-palette-type" }, dieName(type)),
        [...new Set(dieTypes()[type].faces.map((f) => f.label))].map((label) => faceButton(type, label)))));
    }
    return box;
  }

  // The roll the table waits for (the ready zone, with its refill), or an ability's roll once its button is tapped
  // (Obatzda, Granatananas ...: using it is a choice, so no roll box asks for it before).
  function rollPanel(me) {
    const nodes = [];
    const rolls = options().map((o, i) => [o, i]).filter(([o]) => "roll" in o);
    const direct = rolls.filter(([o]) => o.type === "roll");
    if (ui.roll !== null && !rolls.some(([, i]) => i === ui.roll)) ui.roll = null;
    if (ui.roll === null && direct.length) ui.roll = direct[0][1];
    if (rolls.length > 1 || !direct.length) {
      nodes.push(el("div", { class: "choices cu-rolls" }, rolls.map(([o, i]) => el("button", { type: "button",
        class: `option${i === ui.roll ? " selected" : ""}`, "data-option": i,
        onclick: () => { ui.roll = i; S.draft = []; render(); } }, optionLabel(o)))));
    }
    if (ui.roll === null) return nodes;
    const [chosen, index] = rolls.find(([, i]) => i === ui.roll);
    if (S.state.prompt.phase === "roll" && me) {
      const refill = chosen.roll - me.ready.length;
      nodes.push(el("p", { class: "big cu-roll-info" }, refill > 0
        ? T("cu_roll_refill", { ready: me.ready.length, refill, limit: me.draw_limit, n: chosen.roll })
        : T("cu_roll_ready", { n: chosen.roll })));
    }
    nodes.push(cubitosRollBox(chosen.roll, index, chosen.type === "roll" ? me : null));
    return nodes;
  }

  // Push or pass (CU-37): the exact chance that the next roll busts, and what a push brings on average.
  function oddsPanel(me) {
    const odds = me.push || { bust: 0, coins: 0, steps: 0 };
    return el("div", { class: `cu-odds${me.danger ? " danger" : ""}`, id: "cu-odds", "data-bust": odds.bust,
      "data-steps": odds.steps, "data-coins": odds.coins },
    el("p", { class: "cu-bust big" }, me.danger
      ? [T("cu_bust_chance"), " ", el("b", { id: "cu-bust-chance" }, percent(odds.bust))]
      : T("cu_no_bust", { n: me.active.length })),
    el("p", { class: "cu-expect" }, T("cu_expect", { n: me.ready.length, steps: number(odds.steps, 2),
      coins: number(odds.coins, 2) })),
    el("div", { class: "cu-dice-line" }, el("span", {}, T("cu_zone_ready")), diceRow("ready", me.ready)),
    el("div", { class: "cu-dice-line" }, el("span", {}, T("cu_zone_active")), diceRow("active", me.active)));
  }

  // After a bust (CU-34 (3)): any of the ready zone's dice to the rest zone, counted per type.
  function bustPanel(me) {
    const counts = {};
    for (const type of me.ready) counts[type] = (counts[type] || 0) + 1;
    for (const type of Object.keys(ui.rest)) if (!(type in counts)) delete ui.rest[type];
    const chosen = Object.fromEntries(Object.entries(ui.rest).filter(([, n]) => n > 0));
    const index = findOption((o) => o.type === "rest" && same(Object.fromEntries(Object.entries(o.rest).sort()),
      Object.fromEntries(Object.entries(chosen).sort())));
    const rows = Object.entries(counts).map(([type, n]) => {
      const k = ui.rest[type] || 0;
      const change = (by) => { ui.rest[type] = Math.max(0, Math.min(n, k + by)); render(); };
      return el("div", { class: "cu-rest-row", "data-die": type }, die(type, null, 28),
        el("span", { class: "cu-rest-name" }, `${dieName(type)}: ${k} / ${n}`),
        el("button", { type: "button", class: "quiet", "data-less": type, disabled: k === 0,
          onclick: () => change(-1) }, "−"),
        el("button", { type: "button", class: "quiet", "data-more": type, disabled: k === n,
          onclick: () => change(1) }, "+"));
    });
    return [el("p", { class: "big warn" }, T("cu_bust_rest")), el("div", { class: "cu-rest" }, rows),
      el("button", { type: "button", id: "cu-rest-confirm", class: "primary big", "data-option": index,
        disabled: index < 0, onclick: () => confirmOption(index) },
      index >= 0 ? optionLabel(options()[index]) : T("cu_phase_bust"))];
  }

  function movePanel(me) {
    const nodes = [el("p", { class: "big cu-move-info" }, T("cu_move_info", { steps: me.steps, water: me.water,
      space: me.space }))];
    const list = moves();
    if (ui.dest !== null && !list.some(([, i]) => i === ui.dest)) ui.dest = null;
    if (list.length) {
      nodes.push(el("p", { class: "hint" }, T("cu_move_pick")));
      // Each destination with what the spaces on its way do (water, jet, shortcut, the bonus where it ends).
      nodes.push(el("div", { class: "choices cu-moves" }, list.map(([o, i]) => withHelp(el("button", {
        type: "button", class: `option cu-move${ui.dest === i ? " selected" : ""}`, "data-option": i,
        "data-dest": o.path[o.path.length - 1], onclick: () => pick(i) }, optionLabel(o)), optionHelp(i)))));
    }
    if (ui.dest !== null) {
      const o = options()[ui.dest];
      nodes.push(el("div", { class: "move-summary" }, el("p", { class: "big" }, optionLabel(o)),
        el("p", { class: "path" }, [me.space, ...o.path].join(" → ")),
        el("button", { type: "button", id: "cu-confirm-move", class: "primary big", "data-option": ui.dest,
          onclick: () => confirmOption(ui.dest) }, T("cu_move_confirm"))));
    }
    return nodes;
  }

  // The special action of the runner's space (CU-61..CU-64): a jet doubles steps and water entries, a shortcut
  // follows its line for a price.
  function specialInfo(me) {
    const entry = placed()[me.track];
    const space = entry && entry.track.spaces.find((s) => s.id === me.space);
    const special = space && space.special;
    if (!special) return null;
    if (special.type === "jet") return el("p", { class: "big cu-special" }, T("cu_jet_info", { steps: me.steps }));
    const [kind, amount] = Object.entries(special.pay)[0];
    return el("p", { class: "big cu-special" }, T("cu_shortcut_info", { from: me.space, to: special.to, amount,
      pay: T(`cu_v_${kind}`) }));
  }

  // The space's bonus waiting for a choice (CU-66): give back a die, or take one (at most of a cost).
  function bonusInfo() {
    const bonus = (v().bonuses || [])[0];
    if (!bonus) return null;
    const key = bonus.type === "give_back" ? "cu_bonus_give_back"
      : bonus.max_cost !== null && bonus.max_cost !== undefined ? "cu_bonus_take_max" : "cu_bonus_take";
    return el("p", { class: "big cu-bonus" }, T(key, { n: bonus.max_cost }));
  }

  // The options no panel of the phase shows, as buttons (done, go, convert, abilities ...).
  function otherButtons(shown) {
    const kind = (o) => (o.type === "adjust" && "die" in o ? "adjust-die" : o.type);
    const rest = options().map((o, i) => [o, i]).filter(([o]) => !shown.has(kind(o)) && !("roll" in o));
    if (!rest.length) return null;
    return el("div", { class: "choices cu-options" }, rest.map(([o, i]) => actionButton(optionLabel(o), i,
      `cu-opt-${o.type}`)));
  }

  function body() {
    const prompt = S.state.prompt;
    const phase = prompt.phase;
    const me = player(prompt.actor);
    const nodes = [];
    if (phase === "over") return [el("p", { class: "winner big" }, winnerText())];
    if (options().some((o) => "roll" in o)) nodes.push(...rollPanel(me));
    if (phase === "choice" && me) {
      nodes.push(oddsPanel(me));
      const pass = findOption((o) => o.type === "pass");
      const push = findOption((o) => o.type === "push");
      nodes.push(el("div", { class: "choices cu-push-pass" },
        pass >= 0 ? actionButton(optionLabel(options()[pass]), pass, "cu-pass big") : null,
        push >= 0 ? actionButton(optionLabel(options()[push]), push, "cu-push big") : null));
      nodes.push(otherButtons(new Set(["push", "pass"])));
      return nodes;
    }
    if (phase === "bust" && me) {
      nodes.push(...bustPanel(me));
      return nodes;
    }
    if (["move", "move_start", "shortcut"].includes(phase) && me) {
      if (phase === "move") nodes.push(...movePanel(me));
      else nodes.push(specialInfo(me));
      nodes.push(otherButtons(new Set(["move"])));
      return nodes;
    }
    if (phase === "buy" && me) {
      nodes.push(el("p", { class: "big cu-buy-info" }, T("cu_buy_info", { coins: me.coins, credits: me.credits,
        n: 2 - me.bought.length })));
      nodes.push(market({ buying: true }));
      nodes.push(otherButtons(new Set(["buy"])));
      return nodes;
    }
    if (phase === "bonus") nodes.push(bonusInfo());
    if (phase === "adjust") {
      // CU-89: a resource by one, or a die between the stock and the zones (folded away: there are many)
      const dice = options().map((o, i) => [o, i]).filter(([o]) => o.type === "adjust" && "die" in o);
      nodes.push(otherButtons(new Set(dice.length ? ["adjust-die"] : [])), el("details", { class: "cu-adjust-dice" },
        el("summary", {}, T("cu_adjust_dice")), el("div", { class: "choices" }, dice.map(([o, i]) =>
          actionButton(optionLabel(o), i, "cu-opt-adjust-die")))));
      return nodes;
    }
    if (phase === "support" && me) {
      nodes.push(el("div", { class: "cu-dice-line" }, el("span", {}, T("cu_zone_active")),
        diceRow("active", me.active)));
    }
    nodes.push(otherButtons(new Set()));
    return nodes;
  }

  function reset(key) {
    if (key === ui.key) return;
    ui.key = key;
    ui.dest = null;
    ui.roll = null;
    ui.rest = {};
  }

  // The New game page: 2-4 players, each a colour of the box (CU-1), and one of the blue series' races.
  const RACES = ["race_1", "race_2", "race_3", "race_4", "race_5", "race_6", "race_7"];
  const chosen = { race: "race_1" };
  const newGame = {
    palette: ["blue", "yellow", "red", "white"],
    maxPlayers: 4,
    hint: "cu_players_hint",
    startLabel: "cu_start_game",
    fields: () => [el("fieldset", { "data-game-fields": "cubitos" },
      el("legend", { "data-i18n": "cu_race" }, T("cu_race")),
      el("div", { class: "radio-row" }, RACES.map((race, k) => el("label", {}, el("input", { type: "radio",
        name: "race", value: race, checked: chosen.race === race || null,
        onchange: () => { chosen.race = race; } }), " ", T("cu_race_n", { n: k + 1 })))))],
    playersChanged: () => {},
    restore: (options) => { if (RACES.includes(options.race)) chosen.race = options.race; },
    options: (list) => ({ players: list, race: chosen.race }),
  };

  return { name, dieIcon, drawTrack, drawOverlay, heading, body, banner, order, phases, setup, boards, reset, newGame };
})();
registerGame("cubitos", Cubitos);
