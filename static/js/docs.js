// The documentation's behaviour (views/docs.templ): copy buttons on code
// blocks, client tabs (curl / Python / JavaScript) and the side menus that
// are open on a wide screen. A file of its own, as the CSP forbids inline
// scripts; behaviour hangs on data- attributes.
(function () {
  "use strict";

  var LANG_KEY = "parapet-docs-client";

  // The copy button beside a code block copies the block's text.
  function copyCode(btn) {
    var code = btn.parentElement.querySelector("pre");
    if (!code) return;
    var text = code.textContent;
    var done = function (word) {
      btn.textContent = word;
      setTimeout(function () { btn.textContent = "Copy"; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done("Copied"); }, function () { done("Select and copy"); });
    } else {
      // Plain HTTP on another host than localhost has no clipboard API:
      // select the text so that Ctrl+C copies it.
      var range = document.createRange();
      range.selectNodeContents(code);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      done(document.execCommand("copy") ? "Copied" : "Press Ctrl+C");
    }
  }

  // Selecting a client shows its block in every group of the page, and is
  // remembered for the next page.
  function selectTab(label, focusIn) {
    document.querySelectorAll("[data-tabs]").forEach(function (group) {
      var tabs = group.querySelectorAll("[role=tab]");
      var has = Array.prototype.some.call(tabs, function (t) { return t.dataset.tab === label; });
      if (!has) return;
      tabs.forEach(function (t) {
        var on = t.dataset.tab === label;
        t.setAttribute("aria-selected", on ? "true" : "false");
        t.tabIndex = on ? 0 : -1;
        var panel = document.getElementById(t.getAttribute("aria-controls"));
        if (panel) panel.hidden = !on;
        if (on && group === focusIn) t.focus();
      });
    });
    try { localStorage.setItem(LANG_KEY, label); } catch (e) { /* storage off: fine */ }
  }

  document.addEventListener("click", function (ev) {
    if (!(ev.target instanceof Element)) return;
    var btn = ev.target.closest("[data-copy-code]");
    if (btn) { copyCode(btn); return; }
    var tab = ev.target.closest("[data-tabs] [role=tab]");
    if (tab) selectTab(tab.dataset.tab, null);
  });

  // Arrow keys move between tabs, as the ARIA tabs pattern has it.
  document.addEventListener("keydown", function (ev) {
    var tab = ev.target instanceof Element ? ev.target.closest("[data-tabs] [role=tab]") : null;
    if (!tab || (ev.key !== "ArrowRight" && ev.key !== "ArrowLeft" && ev.key !== "Home" && ev.key !== "End")) return;
    var group = tab.closest("[data-tabs]");
    var tabs = Array.prototype.slice.call(group.querySelectorAll("[role=tab]"));
    var i = tabs.indexOf(tab);
    if (ev.key === "ArrowRight") i = (i + 1) % tabs.length;
    else if (ev.key === "ArrowLeft") i = (i - 1 + tabs.length) % tabs.length;
    else if (ev.key === "Home") i = 0;
    else i = tabs.length - 1;
    ev.preventDefault();
    selectTab(tabs[i].dataset.tab, group);
  });

  function init() {
    var wide = window.matchMedia("(min-width: 1024px)");
    var menus = document.querySelectorAll("details[data-open-wide]");
    var fit = function () { menus.forEach(function (d) { d.open = wide.matches; }); };
    fit();
    wide.addEventListener("change", fit);
    var saved = null;
    try { saved = localStorage.getItem(LANG_KEY); } catch (e) { /* storage off */ }
    if (saved) selectTab(saved, null);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
