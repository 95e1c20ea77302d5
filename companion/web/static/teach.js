// The teach page: show one face to the camera and tap it, or learn the dice players corrected during play.
"use strict";

const badge = document.getElementById("connection");
const result = document.getElementById("teach-result");
let summary = null;

async function act(path, body) {
  const answer = await post(path, body);
  if (!answer.ok) {
    result.textContent = refusalText(answer);
    if (answer.status === 401) showLogin();
    return;
  }
  summary = answer.body;
  render();
  return answer.body.done;
}

// A face as the table's dice show it: in its die type's own colour where it has one (a coloured die, a cube) with
// the marks its game draws on it (the server's face_looks); plain dice as every page draws them.
function teachIcon(face, size) {
  const look = (summary.looks || {})[face];
  if (!look || !look.body) return dieIcon(face, { size });
  const marks = look.marks || [];
  const node = svg("svg", { class: "die-icon teach-die", viewBox: "0 0 40 40", width: size, height: size, role: "img",
    "aria-label": faceName(face), "data-body": look.body },
  svg("rect", { x: 2, y: 2, width: 36, height: 36, rx: 8, fill: look.body, stroke: "#6b6b6b", "stroke-width": 1.5 }));
  marks.forEach((mark, k) => node.append(svg("text", { class: `mark ${mark.kind}`,
    x: 20, y: marks.length === 1 ? 27 : k === 0 ? 18 : 33, "text-anchor": "middle", fill: look.ink,
    "font-size": marks.length === 1 ? 18 : 13 }, mark.text)));
  return node;
}

function render() {
  if (!summary || !summary.present) return;
  document.getElementById("teach-tray").textContent = T("teach_tray", { count: summary.in_tray });
  const goal = summary.goal || 10;
  const done = summary.faces.filter((face) => (summary.taught[face] || 0) >= goal).length;
  document.getElementById("teach-progress").textContent = T("teach_progress", { done, total: summary.faces.length });
  const estimate = summary.estimate;
  const percent = (share) => Math.round(share * 1000) / 10;
  document.getElementById("teach-estimate").textContent = estimate ? T("teach_estimate",
    { dice: estimate.dice, taught: percent(estimate.taught), untaught: percent(estimate.untaught) }) : "";
  const faces = document.getElementById("teach-faces");
  faces.replaceChildren(...summary.faces.map((face) => {
    const count = summary.taught[face] || 0;
    return el("div", { class: `teach-face${count >= goal ? " done" : ""}`, "data-face": face },
      el("button", { type: "button", class: "face-button", "data-face": face, title: faceName(face),
        onclick: async () => {
          const added = await act("/api/teach/face", { face });
          if (added !== undefined) result.textContent = T("taught", { count: added, face: faceName(face) });
        } }, teachIcon(face, 64)),
      el("span", { class: "face-name", "data-face": face }, faceName(face)),
      el("progress", { class: "face-progress", max: goal, value: Math.min(count, goal) }),
      el("span", { class: "taught-count", "data-face": face }, T("taught_of", { count, goal })));
  }));
  const list = document.getElementById("corrections");
  list.replaceChildren(...(summary.corrections.length ? summary.corrections.map((c) => el("figure", { class: "correction", "data-id": c.id },
    el("img", { src: `/api/teach/crops/${c.id}.png`, alt: faceName(c.label), width: 64, height: 64 }),
    el("figcaption", {}, T("correction_caption", { was: faceName(c.was), label: faceName(c.label) })),
    el("div", { class: "pair" },
      el("button", { type: "button", class: "quiet", onclick: () => act("/api/teach/learn", { ids: [c.id] }) }, T("learn")),
      el("button", { type: "button", class: "quiet", onclick: () => act("/api/teach/discard", { ids: [c.id] }) }, T("discard"))),
  )) : [el("p", { class: "hint" }, T("no_corrections"))]));
  document.getElementById("learn-all").disabled = !summary.corrections.length;
  document.getElementById("discard-all").disabled = !summary.corrections.length;
}

async function refresh() {
  try {
    const response = await fetch("/api/teach");
    summary = await response.json();
    badge.textContent = T("live"); badge.className = "badge live";
    render();
  } catch (_) {
    badge.textContent = T("reconnecting"); badge.className = "badge down";
  }
}

if (document.getElementById("teach-faces")) {
  document.getElementById("learn-all").addEventListener("click", async () => {
    const n = await act("/api/teach/learn", {});
    if (n !== undefined) result.textContent = T("learned", { count: n });
  });
  document.getElementById("discard-all").addEventListener("click", () => act("/api/teach/discard", {}));
  document.getElementById("forget-all").addEventListener("click", async () => {
    if (!window.confirm(T("forget_confirm"))) return;
    if (await act("/api/teach/forget", {}) !== undefined) result.textContent = T("forgotten");
  });
  onLanguageChange.push(render);
  refresh();
  setInterval(refresh, 3000);
}
