// /groups/join/<code>/: what the invite link leads to, and a button that joins the group.
import { get, h, pageData, post } from "../../lib/api.js";
import { groupHref } from "./links.js";
import { TEXT } from "./text.js";

const page = pageData();
const $ = (id) => document.getElementById(id);

async function start() {
  const summary = $("invite-summary");
  const button = $("join");
  try {
    const invite = await get(`/api/groups/invites/${encodeURIComponent(page.code)}/`);
    if (invite.member) {
      summary.replaceChildren(TEXT.alreadyMember, " ", h("a", { href: groupHref(invite) }, TEXT.openGroup));
    } else {
      summary.textContent = TEXT.invite(invite.name, invite.owner, invite.members);
      button.hidden = false;
    }
  } catch (exc) {
    $("join-error").textContent = exc.message;
  }
  document.body.dataset.ready = "true";
}

$("join").addEventListener("click", async () => {
  const button = $("join");
  button.disabled = true;
  $("join-error").textContent = "";
  try {
    const group = await post("/api/groups/join/", { code: page.code });
    window.location.assign(groupHref(group));
  } catch (exc) {
    $("join-error").textContent = exc.message;
    button.disabled = false;
  }
});

start();
