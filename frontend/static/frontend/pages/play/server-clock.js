/**
 * One clock (issue 22, item 3): the time a game shows is the server's. An attempt's time is
 * what the server will measure, from its `started_at` to the submission, so during an attempt
 * the page reads the device's clock corrected by the offset between the two clocks, measured
 * from an answer's `server_time`; once the submission is verified, its `duration_ms` is the
 * time everywhere (the game, the result, the board and the share text). "Same deal" on today's
 * try starts the log again, not this clock. Pure: the clocks are parameters.
 */

/**
 * The server's clock minus the device's, in ms: `serverTime` (ISO 8601) was written between
 * `sentAt` and `receivedAt` (the device's Date.now() around the request), taken as halfway.
 * null when any of them is unknown.
 */
export function clockOffset(serverTime, sentAt, receivedAt) {
  const server = typeof serverTime === "string" ? Date.parse(serverTime) : NaN;
  if (!Number.isFinite(server) || !Number.isFinite(sentAt) || !Number.isFinite(receivedAt)) return null;
  return Math.round(server - (sentAt + receivedAt) / 2);
}

/** The ms of an attempt started at `startedAt` (the server's ISO time) at the device's `now`, by the server's clock. */
export function attemptElapsed(startedAt, offset, now) {
  const start = typeof startedAt === "string" ? Date.parse(startedAt) : NaN;
  if (!Number.isFinite(start) || !Number.isFinite(offset) || !Number.isFinite(now)) return null;
  return Math.max(0, now + offset - start);
}

/**
 * A game's time in ms (null before it has one): the verified submission's duration, else the
 * attempt's by the server's clock (until the game ended), else the page's own count for a game
 * the server has no attempt of (signed out).
 */
export function gameTime(record, now) {
  const sub = record.submission;
  if (sub && Number.isInteger(sub.duration_ms)) return sub.duration_ms;
  const end = record.finishedAt || now;
  const byServer = record.attemptStartedAt ? attemptElapsed(record.attemptStartedAt, record.clockOffset, end) : null;
  if (byServer !== null) return byServer;
  return record.startedAt ? Math.max(0, end - record.startedAt) : null;
}

/** An API answer with the offset of the server's clock: `request` is the call, e.g. () => get(path). */
export async function timed(request, deviceNow = Date.now) {
  const sentAt = deviceNow();
  const answer = await request();
  return { answer, offset: clockOffset(answer && answer.server_time, sentAt, deviceNow()) };
}
