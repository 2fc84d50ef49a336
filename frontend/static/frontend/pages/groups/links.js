// A list of groups, each a link to its page (on a day: that day's board): the groups page,
// the boards page ("your groups") and a player's page (the groups the viewer shares).
import { h } from "../../lib/api.js";
import { TEXT } from "./text.js";

/** The group's page; with `day` ("YYYY-MM-DD"), opened on that day's board. */
export function groupHref(group, day = null) {
  return `/groups/${group.id}/${day ? `?date=${day}` : ""}`;
}

/** The code of an invite link (".../groups/join/<code>/"), or the code itself; null for
 * anything else. */
export function inviteCode(typed) {
  const text = typed.trim();
  const link = text.match(/\/groups\/join\/([A-Za-z0-9_-]+)\/?/);
  if (link) return link[1];
  return /^[A-Za-z0-9_-]+$/.test(text) ? text : null;
}

/** A <ul> of `groups` (the API's rows): name, size, owner. */
export function groupList(groups, { day = null } = {}) {
  return h("ul", { class: "group-list", "data-testid": "group-list" }, groups.map((group) => h("li", {
    "data-group": group.id,
  },
  h("a", { href: groupHref(group, day) }, group.name), " · ", TEXT.members(group.members), " · ",
  group.is_owner ? TEXT.youOwn : TEXT.ownedBy(group.owner))));
}
