// The account's pages: its settings (/account/), a confirmation link, a forgotten password, a
// reset link. Each form names its job (data-form) and posts it to the API; the answer is
// written in the form's status line.
import { pageData, post } from "../lib/api.js";
import { gettext, interpolate } from "../lib/i18n.js";

const page = pageData();

const jobs = {
  async email(data) {
    const answer = await post("/api/auth/email/", { email: String(data.get("email") || "").trim() });
    return answer && answer.sent
      ? gettext("We sent a link to this address: open it to confirm the address.")
      : gettext("Your account has no email address now.");
  },
  async password(data) {
    await post("/api/auth/password/", {
      old_password: String(data.get("old_password") || ""), password: String(data.get("password") || ""),
    });
    return gettext("Your password is changed; you are logged out everywhere else.");
  },
  async name(data) {
    const answer = await post("/api/auth/name/", { username: String(data.get("username") || "").trim() });
    window.location.reload();
    return interpolate(gettext("Your name is %(username)s now."), answer);
  },
  async delete(data) {
    await post("/api/auth/delete/", { password: String(data.get("password") || "") });
    window.location.assign("/");
    return gettext("Your account is deleted.");
  },
  async "email-confirm"() {
    const answer = await post("/api/auth/email/confirm/", { token: page.token });
    return interpolate(gettext("Confirmed: %(email)s is your account's address."), answer);
  },
  async forgot(data) {
    await post("/api/auth/password/forgot/", { email: String(data.get("email") || "").trim() });
    return gettext("If an account has this confirmed address, a link to choose a new password is on its way.");
  },
  async reset(data) {
    await post("/api/auth/password/reset/", { uid: page.uid, token: page.token, password: String(data.get("password") || "") });
    window.location.assign("/login/");
    return gettext("Your new password is set: log in with it.");
  },
};

for (const form of document.querySelectorAll("form[data-form]")) {
  const job = jobs[form.dataset.form];
  if (!job) continue;
  const status = form.querySelector(".form-status");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    status.textContent = "";
    status.classList.remove("form-error");
    try {
      status.textContent = await job(new FormData(form), form);
      form.dataset.done = "true";
    } catch (exc) {
      status.textContent = exc.message;
      status.classList.add("form-error");
    } finally {
      button.disabled = false;
    }
  });
}
document.body.dataset.ready = "true";
