// The header's "Log out" button and, on a phone, its menu button (every page).
import { post } from "./api.js";

const button = document.getElementById("logout");
if (button) {
  button.addEventListener("click", async () => {
    try { await post("/api/auth/logout/"); } catch { /* signed out anyway, or already */ }
    window.location.reload();
  });
}

const toggle = document.getElementById("nav-toggle");
if (toggle) {
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    toggle.closest(".site-header").classList.toggle("nav-open", open);
  });
}
