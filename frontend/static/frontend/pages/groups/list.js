// /groups/: the player's groups, a form that creates one and one that joins by invite link.
import { get, h, post } from "../../lib/api.js";
import { groupHref, groupList, inviteCode } from "./links.js";
import { TEXT } from "./text.js";

const $ = (id) => document.getElementById(id);

async function showGroups() {
  const box = $("my-groups");
  try {
    const data = await get("/api/groups/");
    box.replaceChildren(data.results.length ? groupList(data.results) : h("p", { class: "empty" }, TEXT.noGroups),
      h("p", { class: "muted" }, TEXT.groupsUsed(data.results.length, data.max_groups)));
  } catch (exc) {
    box.replaceChildren(h("p", { class: "form-error" }, exc.message));
  }
}

function submitting(form, errorBox, work) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.textContent = "";
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await work();
    } catch (exc) {
      errorBox.textContent = exc.message;
    } finally {
      button.disabled = false;
    }
  });
}

submitting($("create-form"), $("create-error"), async () => {
  const group = await post("/api/groups/", { name: $("group-name-input").value });
  window.location.assign(groupHref(group));
});

submitting($("join-form"), $("join-error"), async () => {
  const code = inviteCode($("join-link").value);
  if (!code) {
    $("join-error").textContent = TEXT.badLink;
    return;
  }
  const group = await post("/api/groups/join/", { code });
  window.location.assign(groupHref(group));
});

showGroups().then(() => { document.body.dataset.ready = "true"; });
