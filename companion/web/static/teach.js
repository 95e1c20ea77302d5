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

function render() {
  if (!summary || !summary.present) return;
  document.getElementById("teach-tray").textContent = T("teach_tray", { count: summary.in_tray });
  const faces = document.getElementById("teach-faces");
  faces.replaceChildren(...summary.faces.map((face) => el("div", { class: "teach-face" },
    el("button", { type: "button", class: "face-button", "data-face": face, title: faceName(face),
      onclick: async () => {
        const added = await act("/api/teach/face", { face });
        if (added !== undefined) result.textContent = T("taught", { count: added, face: faceName(face) });
      } }, dieIcon(face, { size: 64 })),
    el("span", { class: "taught-count", "data-face": face }, T("taught_count", { count: summary.taught[face] || 0 })))));
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
