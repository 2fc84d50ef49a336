// The colour theme, on every page. A classic script in <head> (base.html), not a module, so it
// runs before the first paint: the theme chosen is on <html data-theme> before anything is
// drawn, and no page flashes light before going dark. Without a choice, the system's
// (prefers-color-scheme, app.css). The header's switch (data-testid="theme") flips it and
// keeps the choice in localStorage.
(function theme() {
  const KEY = "eh:theme";
  const root = document.documentElement;
  const systemDark = () => Boolean(window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  let chosen = null;
  try {
    chosen = localStorage.getItem(KEY);
  } catch {
    // Storage off: the system's theme, every visit.
  }
  if (chosen === "dark" || chosen === "light") root.dataset.theme = chosen;

  const isDark = () => (root.dataset.theme ? root.dataset.theme === "dark" : systemDark());

  function bindSwitch() {
    const button = document.getElementById("theme-switch");
    if (!button) return;
    const show = () => button.setAttribute("aria-pressed", String(isDark()));
    show();
    button.addEventListener("click", () => {
      root.dataset.theme = isDark() ? "light" : "dark";
      try {
        localStorage.setItem(KEY, root.dataset.theme);
      } catch {
        // Not remembered: this page keeps it.
      }
      show();
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bindSwitch);
  else bindSwitch();
})();
