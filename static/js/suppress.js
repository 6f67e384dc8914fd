// The scanner's "Suppress" (views/scan.templ): a finding's button opens the
// page's own dialog asking a reason and an optional expiry; the suppression
// is added to the input — made an envelope ({document, suppressions}) if it
// was a bare document, JSON or YAML alike — and the document is scanned
// again, so the finding moves to the suppressed ones. "Download
// suppressions" saves the input's suppressions as a file. Loaded as a file:
// the CSP forbids inline scripts.
(function () {
  "use strict";

  var input = function () { return document.querySelector("#scan-input"); };

  // envelope reads the input as an envelope; a bare document (any JSON
  // that is not an envelope, or text that is not JSON: YAML) becomes its
  // document. A YAML envelope stays text the scanner reads, so it is
  // wrapped as a string too.
  function envelope(text) {
    var v;
    try { v = JSON.parse(text); } catch (e) { return { document: text, suppressions: [] }; }
    if (v && typeof v === "object" && !Array.isArray(v) && "document" in v) {
      if (!Array.isArray(v.suppressions)) v.suppressions = [];
      return v;
    }
    return { document: v, suppressions: [] };
  }

  function open(btn) {
    var dialog = document.querySelector("#suppress-dialog");
    if (!dialog) return;
    var form = dialog.querySelector("form");
    form.reset();
    form.elements.rule.value = btn.dataset.rule;
    form.elements.resource.value = btn.dataset.resource;
    dialog.querySelector("[data-suppress-what]").textContent = btn.dataset.rule + " on " + btn.dataset.resource;
    dialog.showModal();
  }

  function suppress(form) {
    var area = input(), scanForm = document.querySelector("[data-testid=scan-form]");
    if (!area || !scanForm) return;
    var env = envelope(area.value);
    var s = { rule: form.elements.rule.value, resource: form.elements.resource.value, reason: form.elements.reason.value.trim() };
    if (form.elements.expires.value) s.expires = form.elements.expires.value;
    env.suppressions.push(s);
    area.value = JSON.stringify(env, null, 2);
    // A chosen file would win over the textarea (app/web/scan.go).
    var file = scanForm.querySelector("input[type=file]");
    if (file) file.value = "";
    form.closest("dialog").close();
    scanForm.requestSubmit();
  }

  function download() {
    var area = input();
    if (!area) return;
    var text = JSON.stringify({ suppressions: envelope(area.value).suppressions }, null, 2) + "\n";
    var url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    var a = document.createElement("a");
    a.href = url;
    a.download = "parapet-suppressions.json";
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  document.addEventListener("click", function (ev) {
    if (!(ev.target instanceof Element)) return;
    var el = ev.target.closest("[data-suppress]");
    if (el) open(el);
    else if (ev.target.closest("[data-download-suppressions]")) download();
  });
  document.addEventListener("submit", function (ev) {
    if (!(ev.target instanceof HTMLFormElement) || !ev.target.matches("[data-suppress-form]")) return;
    ev.preventDefault();
    suppress(ev.target);
  });
})();
