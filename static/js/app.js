// Parapet's small client script. Loaded as a file so the CSP can forbid
// inline scripts; behaviour is attached by data- attributes, and re-attached
// after htmx swaps content in.
(function () {
  "use strict";

  function on(root, selector, event, fn) {
    root.querySelectorAll(selector).forEach(function (el) {
      if (el.dataset.bound) return;
      el.dataset.bound = "1";
      el.addEventListener(event, fn);
    });
  }

  // data-copy="#id": copy that input's value to the clipboard.
  function bindCopy(root) {
    on(root, "[data-copy]", "click", function (ev) {
      var btn = ev.currentTarget;
      var src = document.querySelector(btn.dataset.copy);
      if (!src) return;
      var text = src.value !== undefined ? src.value : src.textContent;
      var done = function () {
        var label = btn.textContent;
        btn.textContent = "Copied";
        setTimeout(function () { btn.textContent = label; }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { src.select(); document.execCommand("copy"); done(); });
      } else {
        src.select();
        document.execCommand("copy");
        done();
      }
    });
  }

  // data-fill="#textarea" + data-source="#template": put the sample text in.
  function bindFill(root) {
    on(root, "[data-fill]", "click", function (ev) {
      var btn = ev.currentTarget;
      var target = document.querySelector(btn.dataset.fill);
      var source = document.querySelector(btn.dataset.source);
      if (target && source) {
        target.value = source.content ? source.content.textContent : source.textContent;
        target.dispatchEvent(new Event("input"));
      }
    });
  }

  // A file picker or a dropped file fills the textarea it points at.
  function bindFiles(root) {
    var maxBytes = function (el) { return parseInt(el.dataset.maxBytes || "0", 10); };
    var load = function (zone, file) {
      var target = document.querySelector(zone.dataset.target);
      var note = zone.querySelector("[data-file-note]");
      if (!target || !file) return;
      if (maxBytes(zone) && file.size > maxBytes(zone)) {
        if (note) note.textContent = file.name + " is too large: the limit is " + zone.dataset.maxLabel + ".";
        return;
      }
      file.text().then(function (text) {
        target.value = text;
        if (note) note.textContent = "Loaded " + file.name + ".";
      });
    };
    on(root, "[data-dropzone]", "dragover", function (ev) { ev.preventDefault(); ev.currentTarget.classList.add("dragover"); });
    on(root, "[data-dropzone]", "dragleave", function (ev) { ev.currentTarget.classList.remove("dragover"); });
    on(root, "[data-dropzone]", "drop", function (ev) {
      ev.preventDefault();
      ev.currentTarget.classList.remove("dragover");
      if (ev.dataTransfer.files.length) load(ev.currentTarget, ev.dataTransfer.files[0]);
    });
    root.querySelectorAll("[data-dropzone] input[type=file]").forEach(function (input) {
      if (input.dataset.bound) return;
      input.dataset.bound = "1";
      input.addEventListener("change", function () {
        if (input.files.length) load(input.closest("[data-dropzone]"), input.files[0]);
      });
    });
  }

  // data-filter-group: buttons with data-filter="x" show only rows of
  // [data-filter-item] whose data-kind is x ("" shows all).
  function bindFilters(root) {
    on(root, "[data-filter]", "click", function (ev) {
      var btn = ev.currentTarget;
      var group = btn.closest("[data-filter-scope]");
      if (!group) return;
      var kind = btn.dataset.filter;
      group.querySelectorAll("[data-filter]").forEach(function (b) {
        b.classList.toggle("secondary", b !== btn);
        b.setAttribute("aria-pressed", b === btn ? "true" : "false");
      });
      group.querySelectorAll("[data-filter-item]").forEach(function (row) {
        row.classList.toggle("hidden", kind !== "" && row.dataset.kind !== kind);
      });
    });
  }

  function bindAll(root) {
    bindCopy(root);
    bindFill(root);
    bindFiles(root);
    bindFilters(root);
  }

  document.addEventListener("DOMContentLoaded", function () { bindAll(document); });
  document.addEventListener("htmx:afterSwap", function (ev) { bindAll(ev.detail.target || document); });
  window.Parapet = { bindAll: bindAll };
})();
