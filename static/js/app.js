// Parapet's small client script. Loaded as a file so the CSP can forbid
// inline scripts. Behaviour hangs on data- attributes through event
// delegation on the document, so content htmx swaps in works without
// re-binding.
(function () {
  "use strict";

  function closest(ev, selector) {
    return ev.target instanceof Element ? ev.target.closest(selector) : null;
  }

  // data-copy="#id": copy that input's value to the clipboard.
  function copy(btn) {
    var src = document.querySelector(btn.dataset.copy);
    if (!src) return;
    var done = function () {
      var label = btn.dataset.label || btn.textContent;
      btn.dataset.label = label;
      btn.textContent = "Copied";
      setTimeout(function () { btn.textContent = label; }, 1500);
    };
    var fallback = function () {
      src.select();
      document.execCommand("copy");
      done();
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(src.value).then(done, fallback);
    } else {
      fallback();
    }
  }

  // data-fill="#textarea" + data-source="#template": put the sample text in.
  function fill(btn) {
    var target = document.querySelector(btn.dataset.fill);
    var source = document.querySelector(btn.dataset.source);
    if (target && source) {
      target.value = source.content ? source.content.textContent : source.textContent;
      target.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }

  // data-filter="x" inside a data-filter-scope: show only the
  // data-filter-item rows whose data-kind is x ("" shows all).
  function filter(btn) {
    var scope = btn.closest("[data-filter-scope]");
    if (!scope) return;
    var kind = btn.dataset.filter;
    scope.querySelectorAll("[data-filter]").forEach(function (b) {
      b.classList.toggle("secondary", b !== btn);
      b.setAttribute("aria-pressed", b === btn ? "true" : "false");
    });
    scope.querySelectorAll("[data-filter-item]").forEach(function (row) {
      row.classList.toggle("hidden", kind !== "" && row.dataset.kind !== kind);
    });
  }

  // A file picked or dropped into a data-dropzone fills its data-target.
  function load(zone, file) {
    var target = document.querySelector(zone.dataset.target);
    var note = zone.querySelector("[data-file-note]");
    if (!target || !file) return;
    var max = parseInt(zone.dataset.maxBytes || "0", 10);
    if (max && file.size > max) {
      if (note) note.textContent = file.name + " is too large: the limit is " + zone.dataset.maxLabel + ".";
      return;
    }
    file.text().then(function (text) {
      target.value = text;
      if (note) note.textContent = "Loaded " + file.name + ".";
    });
  }

  document.addEventListener("click", function (ev) {
    var el;
    if ((el = closest(ev, "[data-copy]"))) copy(el);
    else if ((el = closest(ev, "[data-fill]"))) fill(el);
    else if ((el = closest(ev, "[data-filter]"))) filter(el);
  });
  document.addEventListener("change", function (ev) {
    var input = closest(ev, "[data-dropzone] input[type=file]");
    if (input && input.files.length) load(input.closest("[data-dropzone]"), input.files[0]);
  });
  document.addEventListener("dragover", function (ev) {
    var zone = closest(ev, "[data-dropzone]");
    if (zone) { ev.preventDefault(); zone.classList.add("dragover"); }
  });
  document.addEventListener("dragleave", function (ev) {
    var zone = closest(ev, "[data-dropzone]");
    if (zone) zone.classList.remove("dragover");
  });
  document.addEventListener("drop", function (ev) {
    var zone = closest(ev, "[data-dropzone]");
    if (!zone) return;
    ev.preventDefault();
    zone.classList.remove("dragover");
    if (ev.dataTransfer.files.length) load(zone, ev.dataTransfer.files[0]);
  });
})();
