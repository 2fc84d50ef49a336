/**
 * A won game's celebration: the Kings and Queens leap off the foundations one after another
 * and bounce down the window, a few seconds of cascade over the board. Only a picture: it sits
 * in its own layer that takes no pointer events and no screen reader's attention, and goes
 * away by itself. Not shown when the reader asks for reduced motion. Called by deal.js when
 * an action wins the game (not when a won game is merely opened again).
 */

import { cardElement } from "../../lib/table.js";
import { motionAllowed } from "./motion.js";
import { $ } from "./view.js";

const RANKS = ["K", "Q"];     // the cards that leap, from each foundation
const STAGGER_MS = 130;       // between two cards' leaps
const FLIGHT_MS = 2200;       // one card's flight
const FRAME_MS = 40;          // the flight's keyframes: one every FRAME_MS
const GRAVITY = 0.0018;       // px per ms², downwards
const BOUNCE = 0.72;          // what is left of the speed after hitting the window's bottom

/**
 * The path of a card leaping from (x, y) with speed (vx, vy) in px/ms, bouncing on the floor
 * at `floor` (px, the card's top): one [dx, dy] offset per frame. Pure.
 */
export function bouncePath(x, y, vx, vy, floor, duration = FLIGHT_MS, frame = FRAME_MS) {
  const points = [];
  let px = 0;
  let py = 0;
  let speed = vy;
  for (let t = 0; t <= duration; t += frame) {
    points.push([Math.round(px), Math.round(py)]);
    px += vx * frame;
    speed += GRAVITY * frame;
    py += speed * frame;
    if (y + py > floor) {
      py = floor - y;
      speed = -Math.abs(speed) * BOUNCE;
    }
  }
  return points;
}

/** The cascade over the board, when the reader lets things move. */
export function celebrate() {
  if (!motionAllowed()) return;
  const tableEl = $("table");
  const slots = [...tableEl.querySelectorAll("[data-foundation]")];
  if (!slots.length) return;
  const layer = document.createElement("div");
  layer.className = "celebration";
  layer.dataset.testid = "celebration";
  layer.setAttribute("aria-hidden", "true");
  for (const name of ["--w", "--h"]) layer.style.setProperty(name, tableEl.style.getPropertyValue(name));
  document.body.append(layer);
  const floor = window.innerHeight;
  const flights = [];
  RANKS.forEach((rank, round) => {
    slots.forEach((slot, f) => {
      const from = slot.getBoundingClientRect();
      const card = cardElement(`${rank}${slot.dataset.suit}`);
      card.style.left = `${from.left}px`;
      card.style.top = `${from.top}px`;
      layer.prepend(card); // under the cards that leap before it
      const vx = (f % 2 ? 1 : -1) * (0.12 + 0.05 * ((f + round) % 4));
      const vy = -0.25 - 0.1 * ((f * 3 + round) % 5);
      const path = bouncePath(from.left, from.top, vx, vy, floor - from.height);
      const flight = card.animate(path.map(([dx, dy]) => ({ transform: `translate(${dx}px, ${dy}px)` })), {
        duration: FLIGHT_MS, delay: (round * slots.length + f) * STAGGER_MS, fill: "both", id: "celebrate",
      });
      flights.push(flight.finished.catch(() => {}));
    });
  });
  Promise.all(flights).then(() => layer.remove());
}

/** The cascade, if one is on, ends at once: the cards are dealt again. */
export function endCelebration() {
  for (const layer of document.querySelectorAll(".celebration")) layer.remove();
}
