/**
 * Guest players (issue 22): a visitor who presses Start becomes a guest, a player with no name
 * or password yet, bound to this browser by its session cookie (POST /api/auth/guest/, under
 * the sign-up throttle). Its result is verified and shows the rank it would have; "Keep this
 * result" gives it a name, a password and, if it likes, an email address (POST /api/auth/keep/,
 * the sign-up's rules), and the
 * result then goes on its board, if its day is not final yet.
 */

import { h, post } from "../../lib/api.js";
import { saveGame } from "./saved-game.js";
import { TEXT } from "./text.js";
import { $ } from "./view.js";

/** A guest is made and signed in on this browser; the page's user becomes it. */
export async function becomeGuest(play) {
  const account = await post("/api/auth/guest/");
  play.user = { username: account.username, authenticated: true, guest: true };
  $("hint").textContent = TEXT.hint;
}

/**
 * "Keep this result": a button that opens a name and a password, sent to keep the account.
 * `onKept` runs once the guest has its name (play.js: the result asked for again, now ranked).
 */
export function keepForm(play, onKept) {
  const box = h("div", { class: "keep", "data-testid": "keep-box" });
  const note = h("p", { class: "keep-note" }, TEXT.keepNote);
  const open = h("button", { type: "button", class: "share-button", "data-testid": "keep-result" }, TEXT.keepResult);
  const error = h("p", { class: "form-error", "data-testid": "keep-error", role: "alert" });
  const username = h("input", { id: "keep-username", name: "username", autocomplete: "username", required: true,
    maxlength: "150", "data-testid": "keep-username" });
  const password = h("input", { id: "keep-password", name: "password", type: "password", autocomplete: "new-password",
    required: true, "data-testid": "keep-password" });
  const email = h("input", { id: "keep-email", name: "email", type: "email", autocomplete: "email",
    "data-testid": "keep-email" });
  const submit = h("button", { type: "submit", class: "share-button", "data-testid": "keep-submit" }, TEXT.keepSubmit);
  const form = h("form", { class: "keep-form", "data-testid": "keep-form", hidden: true },
    h("label", { for: "keep-username" }, TEXT.username), username,
    h("label", { for: "keep-password" }, TEXT.password), password,
    h("label", { for: "keep-email" }, TEXT.emailOptional), email, submit);
  open.addEventListener("click", () => {
    form.hidden = false;
    open.hidden = true;
    username.focus();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.textContent = "";
    try {
      const body = { username: username.value, password: password.value };
      if (email.value) body.email = email.value; // optional: sent a link to confirm it
      const account = await post("/api/auth/keep/", body);
      play.user = { username: account.username, authenticated: true, guest: false };
      if (play.record) play.record.attemptUser = account.username; // the same attempt, now named
      saveGame(play);
      namedInNav(account.username);
      onKept();
    } catch (exc) {
      error.textContent = exc.message;
      submit.disabled = false;
    }
  });
  box.append(note, open, form, error);
  return box;
}

/** The page's header after keeping: the guest's mark (or, on a page drawn before the visitor
 * became a guest, "Log in") becomes the player's name, linked to its page, and "Log in" and
 * "Sign up" go (the other links of a named player come with the next page). */
function namedInNav(username) {
  const mark = document.querySelector('[data-testid="nav-guest"]') ?? document.querySelector('[data-testid="nav-login"]');
  if (!mark) return;
  const me = h("a", { href: `/players/${encodeURIComponent(username)}/`, class: "me", "data-testid": "nav-me" },
    username);
  mark.replaceWith(me);
  for (const id of ["nav-login", "nav-signup"]) document.querySelector(`[data-testid="${id}"]`)?.remove();
}
