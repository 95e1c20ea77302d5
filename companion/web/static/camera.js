// The live camera page: the MJPEG stream (reopened when it ends), the camera status and the dice moved after
// they were read, the calibration wizard.
"use strict";

const frame = document.getElementById("camera-frame");
const badge = document.getElementById("connection");

// A camera state (vision.camera_state.CameraState) in the page's language; an unknown one as it is.
const stateText = (state) => (CATALOG.ui && CATALOG.ui[`camera_state_${state}`]) || state || "?";

async function refreshStatus() {
  try {
    const response = await fetch("/api/camera");
    const status = await response.json();
    badge.textContent = T("live"); badge.className = "badge live";
    const line = document.getElementById("camera-status");
    const why = status.message ? ` (${status.message})` : "";
    if (line) line.textContent = T("camera_status", { state: stateText(status.state) }) + why;
    // Dice of the confirmed roll moved after they were read: said here as on the table's screens.
    const tray = document.getElementById("camera-tray");
    if (tray) {
      tray.hidden = !status.tray;
      tray.textContent = status.tray ? T("tray_moved", { n: status.tray.moved.length }) : "";
    }
  } catch (_) {
    badge.textContent = T("reconnecting"); badge.className = "badge down";
  }
}

if (frame) {
  // Started after the page has loaded: an endless stream would otherwise keep the page "loading" forever.
  window.addEventListener("load", () => { frame.src = "/camera.mjpg"; });
  // A stream ends after a while or when the server restarts: open it again.
  frame.addEventListener("error", () => setTimeout(() => { frame.src = `/camera.mjpg?t=${Date.now()}`; }, 2000));
  document.getElementById("calibrate").addEventListener("click", async () => {
    const result = document.getElementById("calibrate-result");
    const answer = await post("/api/calibrate");
    if (!answer.ok) {
      result.textContent = refusalText(answer);
      if (answer.status === 401) showLogin();
      return;
    }
    const summary = typeof answer.body.summary === "object"
      ? Object.entries(answer.body.summary).map(([k, v]) => `${k}: ${v}`).join(", ") : String(answer.body.summary);
    result.textContent = T("calibrated", { summary });
  });
}
refreshStatus();
setInterval(refreshStatus, 5000);
