/**
 * Every text a person reads on the group pages (and in the groups' lists on the boards and
 * player pages), in one place, in the page's language: each is marked for the catalogue
 * (gettext, ngettext; locale/<lang>/djangojs.po) and translated by /jsi18n/ (lib/i18n.js).
 * The server's messages (a full group, a revoked link) come from the server, translated there.
 */

import { formatDay, formatNumber, gettext, interpolate, ngettext } from "../../lib/i18n.js";

/** A counted text (its form chosen by `n`, from ngettext) with %(count)s and `values` filled. */
const counted = (text, n, values = {}) => interpolate(text, { count: formatNumber(n), ...values });

export const TEXT = {
  // Lists of groups.
  noGroups: gettext("You are in no group yet: create one, or join one by its invite link."),
  members: (n) => counted(ngettext("%(count)s member", "%(count)s members", n), n),
  ownedBy: (owner) => interpolate(gettext("owner %(player)s"), { player: owner }),
  youOwn: gettext("you own it"),
  groupsUsed: (n, max) => counted(ngettext("You are in %(count)s group of at most %(max)s.",
    "You are in %(count)s groups of at most %(max)s.", n), n, { max: formatNumber(max) }),
  badLink: gettext("Paste the invite link you were given (or its code)."),

  // A group's page.
  loading: gettext("Loading…"),
  meta: (owner, n, created) => counted(ngettext("Owner %(owner)s · %(count)s member · since %(day)s",
    "Owner %(owner)s · %(count)s members · since %(day)s", n), n, { owner, day: formatDay(created.slice(0, 10)) }),
  today: gettext("Today"),
  boardMeta: (day, played, members) => counted(ngettext("%(day)s: %(played)s of %(count)s member played",
    "%(day)s: %(played)s of %(count)s members played", members), members, { day, played: formatNumber(played) }),
  yourPlace: (place) => interpolate(gettext(" · your place #%(place)s"), { place: formatNumber(place) }),
  placeNow: (place) => interpolate(gettext("Your place in the group is now #%(place)s."), { place: formatNumber(place) }),
  emptyBoard: gettext("No member has a ranked result on this day yet."),
  player: gettext("Player"),
  result: gettext("Result"),
  moves: gettext("Moves"),
  score: gettext("Score"),
  time: gettext("Time"),
  dayRank: gettext("Day's rank"),
  dayRankTitle: gettext("The result's rank on the day's board, among every player."),
  won: gettext("won"),
  notWon: gettext("not won"),
  hints: (n) => counted(ngettext("%(count)s hint", "%(count)s hints", n), n),
  hintsTitle: gettext("Played with hints: ranked after every game without hints."),
  replay: gettext("replay"),

  // Standings.
  points: gettext("Points"),
  firsts: gettext("1st places"),
  wonDays: gettext("Won"),
  played: gettext("Played"),
  averagePlace: gettext("Average place"),
  pointsNote: (points, played) => interpolate(gettext(
    "Each day's place in the group earns points: %(points)s from 1st place on; any later place %(played)s."),
  { points: points.map((p) => formatNumber(p)).join(", "), played: formatNumber(played) }),
  noStandings: gettext("No member has played a deal of the day in this month yet."),

  // Members and the owner's tools.
  joined: (iso) => interpolate(gettext("joined %(day)s"), { day: formatDay(iso.slice(0, 10)) }),
  owner: gettext("owner"),
  remove: gettext("Remove"),
  handOn: gettext("Make owner"),
  confirmRemove: (name) => interpolate(gettext("Remove %(player)s from the group?"), { player: name }),
  confirmHandOn: (name) => interpolate(gettext("Make %(player)s the group's owner? You stay a member."),
    { player: name }),
  confirmLeave: gettext("Leave this group?"),
  confirmDelete: gettext("Delete this group for every member?"),
  copy: gettext("Copy"),
  copied: gettext("Copied"),
  newLink: gettext("New link"),
  revoke: gettext("Revoke"),
  revoked: gettext("No invite link: nobody can join until you make a new one."),
  makeLink: gettext("Make a link"),
  inviteLabel: gettext("Invite link"),

  // The invite page.
  invite: (name, owner, n) => counted(ngettext("%(group)s, the group of %(owner)s, with %(count)s member.",
    "%(group)s, the group of %(owner)s, with %(count)s members.", n), n, { group: name, owner }),
  alreadyMember: gettext("You are a member of this group."),
  openGroup: gettext("Open the group"),
};
