// Chariot Race on the table screen: the board drawn from /api/layout with the chariots, caltrops and the legal
// destinations, each chariot's board (damage, speed, fortune, laps), and the turn phase by phase with only the rules'
// options. table.js owns the page (stream, log, undo, roll box); it calls into the module this file registers for
// "chariot-race" (registerGame). Loaded before table.js: it reads table.js's globals only when called.
"use strict";

const Chariot = (() => {
  const STEPS = ["repair", "speed", "roll", "fortune", "move", "attack"];

  const STEP_OF = { repair: 0, roll: 2, reroll: 2, fortune: 3, drive: 4, move: 4, attack: 5, over: 6 };

  const HITS = new Set(["rammed", "curve_damage", "caltrop_hit", "spear", "gallop_damage", "wrecked", "rocks"]);

  const chariots = () => view().chariots || [];

  const chariotById = (id) => chariots().find((c) => c.id === id);

  function name(id) {
    const car = chariotById(id);
    if (!car) return id || "";
    const same = chariots().filter((c) => c.player === car.player).length;
    if (same < 2) return car.player;
    return `${car.player} (${colourName(car.colour)}${car.id.endsWith("-2") ? " 2" : ""})`;
  }

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

  function drawTrack(track) {
    const layout = S.layout.board;
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
    const overlay = document.getElementById("overlay");
    if (!overlay || !S.spaceById) return;
    overlay.replaceChildren();
    const v = view();
    const prompt = S.state.prompt || {};
    // A caltrop under a standing chariot (a wreck's, CR-22) is drawn beside it, on top, where it can be seen.
    const standing = new Set(chariots().filter((c) => !c.wrecked && c.space).map((c) => c.space));
    const besides = [];
    for (const id of v.caltrops || []) {
      const space = S.spaceById[id];
      if (!space) continue;
      if (standing.has(id)) besides.push(space);
      else overlay.append(caltropIcon(space.x, space.y));
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
      svg("circle", { class: "tap-area", r: 0.5 }),
      svg("circle", { class: "halo", r: 0.5 }),
      svg("rect", { class: "body", x: -0.36, y: -0.3, width: 0.62, height: 0.6, rx: 0.14 }),
      svg("path", { class: "pole", d: "M.26 0h.18" }),
      svg("text", { class: "initial", y: 0.13, x: -0.05, "text-anchor": "middle",
        transform: `rotate(${-space.angle} -0.05 0)` }, car.player.slice(0, 1).toUpperCase()
        + (car.id.endsWith("-2") ? "²" : "")));
      overlay.append(group);
    }
    overlay.append(...besides.map(caltropBeside));
  }

  function caltropBeside(space) {
    return svg("g", { class: "caltrop-beside", "data-caltrop": space.id,
      transform: `translate(${space.x} ${space.y}) rotate(${space.angle}) translate(-0.34 -0.3)` },
    svg("circle", { r: 0.2 }), caltropIcon(0, 0));
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

  // The kiosk's scoreboard: every chariot's damage, speed, fortune, dice and laps in one table, in turn order,
  // large enough to read from two metres (its style shows it on the kiosk only; other screens show the boards).
  function scoreboard() {
    const v = view();
    const order = [...(v.order || []), ...chariots().map((c) => c.id).filter((id) => !(v.order || []).includes(id))];
    const head = ["chariot", "damage", "speed_short", "fortune_short", "dice_short", "laps"];
    return el("table", { class: "scoreboard" }, el("thead", {}, el("tr", {}, head.map((key) => el("th", {}, T(key))))),
      el("tbody", {}, order.map(chariotById).filter(Boolean).map((car) => el("tr", {
        class: `colour-${car.colour}${car.id === v.current ? " current" : ""}${car.wrecked ? " wrecked" : ""}`
          + `${car.finished ? " finished" : ""}`, "data-chariot": car.id },
      el("td", { class: "who" }, el("span", { class: "swatch" }), el("span", { class: "name" }, name(car.id)),
        car.wrecked || car.finished ? el("small", { class: "status" }, T(car.wrecked ? "wrecked" : "finished")) : null),
      el("td", { class: "value damage", "data-value": car.damage }, String(car.damage),
        el("small", {}, `/${car.max_damage}`)),
      el("td", { class: "value speed", "data-value": car.speed }, String(car.speed),
        car.speed_cap < car.max_speed ? el("small", { class: "cap" }, T("cap", { cap: car.speed_cap })) : null),
      el("td", { class: "value fortune", "data-value": car.fortune }, String(car.fortune)),
      el("td", { class: "value dice", "data-value": car.dice_count }, String(car.dice_count)),
      el("td", { class: "value laps", "data-value": car.laps }, `${Math.min(car.laps, 2)}/2`)))));
  }

  function boards() {
    return [scoreboard(), ...cards()];
  }

  function cards() {
    const v = view();
    return chariots().map((car) => {
      const kind = ((S.layout && S.layout.chariot_boards) || {})[car.chariot_board] || {};
      const laps = Math.min(car.laps, 2);
      const status = car.wrecked ? T("wrecked") : car.finished ? T("finished") : "";
      const card = el("article", { class: `chariot-card colour-${car.colour}${car.id === v.current ? " current" : ""}`
        + `${car.wrecked ? " wrecked" : ""}${car.finished ? " finished" : ""}`, "data-chariot": car.id,
        "data-seat": car.id },
      el("header", {},
        el("span", { class: "swatch" }),
        el("strong", {}, name(car.id)),
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
    });
  }

  function banner() {
    const v = view();
    if (S.state.game.over) return plainBanner();
    const car = chariotById(S.state.prompt.actor);
    return [
      car ? el("span", { class: `swatch colour-${car.colour}` }) : null,
      el("span", { class: "who" }, T("turn_of", { name: actorName(S.state.prompt.actor) })),
      v.round ? el("span", { class: "round" }, T("round", { round: v.round })) : null];
  }

  function order() {
    const v = view();
    const at = v.order.indexOf(v.current);
    return [el("span", { class: "order-label" }, T("turn_order")),
      ...v.order.map((id, k) => {
        const car = chariotById(id);
        return el("span", { class: `order-chip colour-${car.colour}${k === at ? " now" : ""}${k < at ? " done" : ""}`,
          "data-chariot": id }, el("span", { class: "swatch" }), name(id));
      })];
  }

  function phases() {
    const at = STEP_OF[S.state.prompt.phase] ?? -1;
    return STEPS.map((step, k) => el("li", {
      class: k === at ? "now" : k < at ? "done" : "" }, T(`phase_${step}`)));
  }

  function setup() {
    if (S.state.seq !== 0 || S.state.game.over) return null;
    const cars = [...chariots()].sort((a, b) => a.start_position - b.start_position);
    return el("div", { class: "setup" }, el("h3", {}, T("setup_title")),
      el("ol", {}, cars.map((car) => el("li", { class: `colour-${car.colour}` }, el("span", { class: "swatch" }),
        `${T("setup_position", { n: car.start_position })}: ${name(car.id)} → ${car.space}`))));
  }

  function heading() {
    const prompt = S.state.prompt;
    const phaseName = prompt.phase === "over" ? T("phase_over") : T(`phase_${prompt.phase}`);
    return prompt.actor ? `${name(prompt.actor)}: ${phaseName}` : phaseName;
  }

  function body() {
    const prompt = S.state.prompt;
    const v = view();
    const car = chariotById(prompt.actor);
    const nodes = [];
    const phase = prompt.phase;
    if (phase === "over") {
      nodes.push(el("p", { class: "winner big" }, v.winner ? T("winner", { name: name(v.winner) })
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
      nodes.push(el("p", {}, paid ? T("fortune_spend", { fortune: car.fortune }) : T("free_reroll")),
        helpRow(options().map((o, i) => (o.type === "reroll" || o.type === "turn" ? i : -1)).filter((i) => i >= 0)));
      nodes.push(el("div", { id: "current-dice", class: "dice-row" }, v.dice.map((face, i) => dieButton(face, {
        index: i, selected: S.selection.includes(i), onclick: () => toggleDie(i) }))));
      nodes.push(el("p", { class: "hint control-only" }, T("select_dice")));
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
        nodes.push(el("p", { class: "hint control-only" }, T("turn_hint")));
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
          // What the spaces on the way do (curve, rocks, caltrop, ram); a way whose text another way to the same
          // space already gave has none of its own, so it borrows that one.
          withHelp(el("button", { type: "button", id: "confirm-move", class: "primary big", "data-option": index,
            onclick: () => confirmOption(index) }, T("confirm_move")),
          optionHelp(index) || list.map((o) => optionHelp(options().indexOf(o))).find(Boolean) || null),
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

  // Who a forced event hit shakes on the track (a ram, a spear, a caltrop ...).
  function onEvent(event) {
    flash((event.payload.events || []).filter((e) => HITS.has(e.type)).flatMap((e) => [e.chariot, e.target])
      .filter(Boolean));
  }

  // ---- the New game page: board side, variants, start positions drawn or chosen (CR-5, CR-8, the variants) ------

  const chosen = { board: "A", variants: { no_damage_after_finish: false, alternative_chariots: false },
    start: "random", order: [], players: [] };

  function chariotIds() {
    const two = chosen.players.length <= 3;
    return chosen.players.flatMap((p) => (two ? [p.colour, `${p.colour}-2`] : [p.colour]));
  }

  function chariotLabel(id) {
    const player = chosen.players.find((p) => id === p.colour || id === `${p.colour}-2`);
    const label = (player && player.name) || colourName(player ? player.colour : id);
    return chosen.players.length <= 3 ? `${label} (${colourName(player.colour)}${id.endsWith("-2") ? " 2" : ""})`
      : label;
  }

  function radio(group, value, key, checked, onchange) {
    return el("label", {}, el("input", { type: "radio", name: group, value, checked: checked || null,
      onchange }), " ", el("span", { "data-i18n": key }, T(key)));
  }

  function renderStartOrder() {
    const box = document.getElementById("start-order");
    const hint = document.getElementById("start-order-hint");
    if (!box) return;
    document.dispatchEvent(new Event("setup-change"));  // the New game page checks the set-up again
    if (chosen.start !== "chosen") { box.replaceChildren(); hint.textContent = ""; return; }
    box.replaceChildren(...chariotIds().map((id) => {
      const at = chosen.order.indexOf(id);
      return el("button", { type: "button", class: `option colour-${id.replace(/-2$/, "")}${at >= 0 ? " selected" : ""}`,
        "data-chariot": id, onclick: () => {
          if (at >= 0) chosen.order.splice(at, 1); else chosen.order.push(id);
          renderStartOrder();
        } }, el("span", { class: "swatch" }), at >= 0 ? `${at + 1}. ` : "", chariotLabel(id));
    }));
    hint.textContent = T("start_order_hint", { order: chosen.order.map((id, k) => `${k + 1} ${chariotLabel(id)}`)
      .join(", ") || "–" });
  }

  const newGame = {
    palette: ["green", "red", "blue", "yellow", "purple", "black"],
    maxPlayers: 6,
    hint: "two_chariots",
    startLabel: "start_game",
    fields: () => [
      el("fieldset", { "data-game-fields": "chariot-race" }, el("legend", { "data-i18n": "board" }, T("board")),
        el("div", { class: "radio-row" }, ["A", "B"].map((side) => radio("board", side, `board_${side.toLowerCase()}`,
          chosen.board === side, () => { chosen.board = side; })))),
      el("fieldset", {}, el("legend", { "data-i18n": "variants" }, T("variants")),
        Object.keys(chosen.variants).map((variant) => el("label", { class: "check" }, el("input", {
          type: "checkbox", name: variant, checked: chosen.variants[variant] || null,
          onchange: (e) => { chosen.variants[variant] = e.target.checked; } }), " ",
        el("span", { "data-i18n": `variant_${variant}` }, T(`variant_${variant}`))))),
      el("fieldset", {}, el("legend", { "data-i18n": "start_positions" }, T("start_positions")),
        el("div", { class: "radio-row" }, ["random", "chosen"].map((mode) => radio("start", mode, `start_${mode}`,
          chosen.start === mode, () => { chosen.start = mode; renderStartOrder(); }))),
        el("div", { id: "start-order", class: "choices" }),
        el("p", { id: "start-order-hint", class: "hint" })),
    ],
    playersChanged: (players) => {
      const ids = (list) => list.map((p) => p.colour).join();
      if (ids(players) !== ids(chosen.players) || players.length !== chosen.players.length) chosen.order = [];
      chosen.players = players.map((p) => ({ ...p }));
      renderStartOrder();
    },
    // The last game's board, variants and start; a chosen order only with the same chariots (playersChanged)
    restore: (options) => {
      if (["A", "B"].includes(options.board)) chosen.board = options.board;
      for (const variant of Object.keys(chosen.variants)) {
        chosen.variants[variant] = Boolean(options.variants && options.variants[variant]);
      }
      const order = options.start && Array.isArray(options.start.order) ? options.start.order : null;
      chosen.start = order ? "chosen" : "random";
      chosen.order = order ? [...order] : [];
      chosen.players = (options.players || []).map((p) => ({ ...p }));
    },
    // CR-8: a chosen start order lists every chariot once
    problem: () => {
      const left = chariotIds().length - chosen.order.length;
      return chosen.start === "chosen" && left > 0 ? { key: "start_order_incomplete", fields: { n: left } } : null;
    },
    options: (players) => ({ players, board: chosen.board, variants: { ...chosen.variants },
      start: chosen.start === "chosen" ? { order: chosen.order } : "random" }),
  };

  return { name, drawTrack, drawOverlay, heading, body, banner, order, phases, setup, boards, onEvent,
    newGame, reset: () => {} };
})();
registerGame("chariot-race", Chariot);
