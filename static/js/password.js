// The password fields' show/hide toggle (ASVS 2.1.12) and strength meter
// (ASVS 2.1.8). A file, not an inline script, so the CSP stays strict.
// Without JavaScript the fields are plain password fields: the toggle and
// the meter stay hidden.
(function () {
  "use strict";

  // strength scores a password 0-4 from its length and variety. It is a
  // guide only: the server enforces the rules (length, common passwords).
  function strength(pw) {
    if (pw.length < 12) return pw.length === 0 ? 0 : 1;
    var kinds = 0;
    [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].forEach(function (re) {
      if (re.test(pw)) kinds++;
    });
    var unique = new Set(pw).size;
    var score = 2;
    if (pw.length >= 16 || kinds >= 3) score++;
    if (pw.length >= 20 && kinds >= 2) score++;
    if (unique < 6) score = Math.min(score, 1);
    return Math.min(score, 4);
  }

  var words = ["", "Too weak", "Fair", "Good", "Strong"];

  function update(input) {
    var meter = document.getElementById(input.dataset.strengthMeter);
    if (!meter) return;
    var text = document.getElementById(input.dataset.strengthMeter + "-text");
    var s = strength(input.value);
    meter.value = s;
    if (text) text.textContent = words[s];
  }

  function init(root) {
    root.querySelectorAll("[data-password-toggle]").forEach(function (btn) {
      btn.hidden = false;
    });
    root.querySelectorAll("[data-strength-meter]").forEach(function (input) {
      var box = document.getElementById(input.dataset.strengthMeter);
      if (box && box.parentElement) box.parentElement.hidden = false;
      update(input);
    });
  }

  document.addEventListener("click", function (ev) {
    var btn = ev.target instanceof Element ? ev.target.closest("[data-password-toggle]") : null;
    if (!btn) return;
    var input = document.getElementById(btn.dataset.passwordToggle);
    if (!input) return;
    var show = input.type === "password";
    input.type = show ? "text" : "password";
    btn.textContent = show ? "Hide" : "Show";
    btn.setAttribute("aria-pressed", show ? "true" : "false");
  });

  document.addEventListener("input", function (ev) {
    if (ev.target instanceof HTMLInputElement && ev.target.dataset.strengthMeter) update(ev.target);
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
})();
