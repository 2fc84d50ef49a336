/**
 * The JSON API, as the browser uses it: session cookie + CSRF header, one error shape.
 * Every failure throws ApiError with the server's {"error": {code, message, detail}} (its
 * message in the page's language: the request carries the language cookie).
 */

import { gettext, interpolate } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, detail = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/** fetch() a path of the API; `body` is sent as JSON. Returns the parsed JSON (or null). */
export async function api(path, { method = "GET", body, keepalive = false } = {}) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    const token = cookie("csrftoken");
    if (token) headers["X-CSRFToken"] = token;
  }
  let response;
  try {
    response = await fetch(path, {
      method, headers, credentials: "same-origin", keepalive,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network", gettext("The server cannot be reached: check your connection."));
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) {
    const err = data && data.error;
    throw new ApiError(
      response.status,
      err ? err.code : `http_${response.status}`,
      err ? err.message : interpolate(gettext("The server answered %(status)s."), { status: response.status }),
      err ? err.detail : null,
    );
  }
  return data;
}

export const get = (path) => api(path);
export const post = (path, body = {}) => api(path, { method: "POST", body });

/** The page's data from the server (json_script "page-data"). */
export function pageData() {
  const el = document.getElementById("page-data");
  return el ? JSON.parse(el.textContent) : {};
}

/** 83_456 ms -> "1:23"; an hour or more -> "1:02:03". */
export function clock(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "–";
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** A tiny element builder: h("td", {class: "x", dataset: {a: 1}}, "text", child). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}
