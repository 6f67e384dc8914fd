// The password fields' show/hide toggle (ASVS 2.1.12) and strength meter
// (ASVS 2.1.8). A file, not an inline script, so the CSP stays strict.
// Without JavaScript the fields are plain password fields: the toggle and
// the meter stay hidden.
(function () {
  "use strict";

  // strength grades a password the server accepts 2-4 ("Fair" to
  // "Strong") from its length and variety: a guide within the rules.
  function strength(pw) {
    var kinds = 0;
    [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].forEach(function (re) {
      if (re.test(pw)) kinds++;
    });
    var score = 2;
    if (pw.length >= 16 || kinds >= 3) score++;
    if (pw.length >= 20 && kinds >= 2) score++;
    if (new Set(pw).size < 6) score = 2;
    return Math.min(score, 4);
  }

  var words = ["", "Too weak", "Fair", "Good", "Strong"];
  var seq = 0;
  var timer = null;

  // emailOf is the address the password must not contain: the form's
  // email field (sign-up, reset); signed in, the server knows it.
  function emailOf(input) {
    var f = input.form && input.form.querySelector("input[name=email]");
    return f ? f.value : "";
  }

  // localProblem mirrors the rules of auth.CheckNewPassword that need no
  // list (length, the email's name), to answer at once.
  function localProblem(pw, email) {
    var n = Array.from(pw).length;
    if (n < 12) return "at least 12 characters";
    if (n > 128) return "at most 128 characters";
    var local = email.toLowerCase().split("@")[0];
    if (local.length >= 3 && pw.toLowerCase().indexOf(local) >= 0) return "it contains your email's name";
    return "";
  }

  function show(input, score, label) {
    var meter = document.getElementById(input.dataset.strengthMeter);
    if (!meter) return;
    var text = document.getElementById(input.dataset.strengthMeter + "-text");
    meter.value = score;
    if (text) text.textContent = label;
  }

  // update grades the password: the rules first, the common-password list
  // on the server (the same check the form makes), and only then a grade,
  // so the meter never calls "Fair" what the form refuses.
  function update(input) {
    var pw = input.value;
    var mine = ++seq;
    clearTimeout(timer);
    if (pw === "") return show(input, 0, "");
    var problem = localProblem(pw, emailOf(input));
    if (problem) return show(input, 1, "Too weak: " + problem);
    show(input, 0, "Checking…");
    timer = setTimeout(function () { check(input, pw, mine); }, 250);
  }

  function check(input, pw, mine) {
    var body = new URLSearchParams();
    body.set("password", pw);
    body.set("email", emailOf(input));
    var tok = input.form && input.form.querySelector("input[name=_csrf]");
    if (tok) body.set("_csrf", tok.value);
    fetch(input.dataset.check, { method: "POST", body: body, credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (v) {
        if (mine !== seq) return;
        if (!v) return show(input, 0, "");
        if (!v.ok) return show(input, 1, "Too weak: " + (v.problem === "common" ? "one of the most common passwords" : v.message));
        var s = strength(pw);
        show(input, s, words[s]);
      })
      .catch(function () { if (mine === seq) show(input, 0, ""); });
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
