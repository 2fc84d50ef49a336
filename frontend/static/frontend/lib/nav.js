// The header's "Log out" button (every page).
import { post } from "./api.js";

const button = document.getElementById("logout");
if (button) {
  button.addEventListener("click", async () => {
    try { await post("/api/auth/logout/"); } catch { /* signed out anyway, or already */ }
    window.location.reload();
  });
}
