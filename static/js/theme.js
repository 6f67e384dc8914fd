// Loaded in the page's head, not deferred (the CSP forbids inline
// scripts): the remembered theme applies before the first paint. Without a
// choice the page follows the system's (prefers-color-scheme, in Pico and
// static/css/app.css). Also the phone header's menu button.
(function () {
  "use strict";
  var KEY = "parapet-theme";
  var root = document.documentElement;
  var dark = window.matchMedia("(prefers-color-scheme: dark)");

  // "js": the menu button works, so the phone header may fold its links.
  root.classList.add("js");
  var saved = null;
  try { saved = localStorage.getItem(KEY); } catch (e) { /* storage off: follow the system */ }
  if (saved === "dark" || saved === "light") root.dataset.theme = saved;

  function isDark() { return root.dataset.theme ? root.dataset.theme === "dark" : dark.matches; }
  function show() {
    document.querySelectorAll("[data-theme-switch]").forEach(function (b) {
      b.hidden = false;
      b.setAttribute("aria-pressed", isDark() ? "true" : "false");
    });
  }
  dark.addEventListener("change", show);
  document.addEventListener("DOMContentLoaded", show);

  document.addEventListener("click", function (ev) {
    if (!(ev.target instanceof Element)) return;
    if (ev.target.closest("[data-theme-switch]")) {
      var next = isDark() ? "light" : "dark";
      root.dataset.theme = next;
      try { localStorage.setItem(KEY, next); } catch (e) { /* this page only */ }
      show();
      return;
    }
    var toggle = ev.target.closest("[data-menu-toggle]");
    if (toggle) {
      var open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      toggle.closest(".site-header").classList.toggle("menu-open", open);
    }
  });
})();
