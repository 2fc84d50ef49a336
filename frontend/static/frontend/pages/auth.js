// /login/ and /signup/: one form, two API endpoints; back to ?next= on success.
import { pageData, post } from "../lib/api.js";

const page = pageData();
const form = document.getElementById("auth-form");
const error = document.getElementById("auth-error");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  const data = new FormData(form);
  const body = { username: String(data.get("username") || "").trim(), password: String(data.get("password") || "") };
  const email = String(data.get("email") || "").trim();
  if (page.mode === "signup" && email) body.email = email;
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    await post(page.mode === "signup" ? "/api/auth/signup/" : "/api/auth/login/", body);
    window.location.assign(page.next || "/");
  } catch (exc) {
    error.textContent = exc.message;
    button.disabled = false;
  }
});
