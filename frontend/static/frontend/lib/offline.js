/**
 * Every page registers the service worker (/sw.js, frontend/offline.py), whose scope is the
 * whole site: it keeps what a numbered deal's page needs to open and play offline. After the
 * page has loaded, so that its own requests go first. A browser without service workers, or
 * one that refuses this one, has the site as before, online only.
 */

function register() {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* online only, as before */ });
}

if ("serviceWorker" in navigator) {
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
