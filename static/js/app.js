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

  // data-copy-text="value": copy that value (a long id cut short on the
  // page, views/layout.templ's clippedValue).
  function copyText(btn) {
    var label = btn.dataset.label || btn.textContent;
    btn.dataset.label = label;
    var done = function (word) {
      btn.textContent = word;
      setTimeout(function () { btn.textContent = label; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(btn.dataset.copyText).then(function () { done("Copied"); }, function () { done("Not copied"); });
    } else {
      done("Not copied");
    }
  }

  // data-dialog-open="#dialog": the page's own confirmation, modal (focus
  // kept inside, Escape closes it); the row menu that opened it folds.
  function openDialog(btn) {
    var dialog = document.querySelector(btn.dataset.dialogOpen);
    if (!dialog) return;
    var menu = btn.closest("details");
    if (menu) menu.open = false;
    dialog.showModal();
  }

  // data-shown-when="#select" + data-shown-value="v": shown only while
  // that select holds v (the key form's date, for "On a date").
  function showWhen(select) {
    document.querySelectorAll("[data-shown-when]").forEach(function (el) {
      if (document.querySelector(el.dataset.shownWhen) === select) el.hidden = select.value !== el.dataset.shownValue;
    });
  }

  // data-fill="#textarea" + data-source="#template": put the sample text in.
  // Both may be comma lists, paired in order (compare fills two logs).
  function fill(btn) {
    var sources = btn.dataset.source.split(",");
    btn.dataset.fill.split(",").forEach(function (sel, i) {
      var target = document.querySelector(sel);
      var source = document.querySelector(sources[i] || "");
      if (target && source) {
        target.value = source.content ? source.content.textContent : source.textContent;
        target.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
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

  // data-download="#template" + data-filename + data-type: save the
  // template's text as a file, made in the browser (no second request).
  function download(btn) {
    var src = document.querySelector(btn.dataset.download);
    if (!src) return;
    var text = src.content ? src.content.textContent : src.textContent;
    var url = URL.createObjectURL(new Blob([text], { type: btn.dataset.type || "application/octet-stream" }));
    var a = document.createElement("a");
    a.href = url;
    a.download = btn.dataset.filename || "download";
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
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
    // Decode as the server does: UTF-16 with a byte-order mark (what
    // Windows PowerShell writes) as UTF-16, anything else as UTF-8, so the
    // textarea shows the text rather than NUL bytes the server refuses.
    file.arrayBuffer().then(function (buf) {
      var b = new Uint8Array(buf), enc = "utf-8";
      if (b[0] === 0xff && b[1] === 0xfe) enc = "utf-16le";
      else if (b[0] === 0xfe && b[1] === 0xff) enc = "utf-16be";
      target.value = new TextDecoder(enc).decode(b);
      if (note) note.textContent = "Loaded " + file.name + ".";
    });
  }

  // htmx swaps only 2xx answers and a form's 422 (views/chrome.go): any
  // other failure of an htmx request (an expired form, a 403, a 429, a
  // server error, a lost connection) is shown here, at the top of the page,
  // in the server's own words, rather than the click doing nothing.
  function requestError(text) {
    // A confirmation dialog that sent the request would hide the message.
    document.querySelectorAll("dialog[open]").forEach(function (d) { d.close(); });
    var main = document.querySelector("main");
    if (!main) return;
    var box = main.querySelector("[data-request-error]");
    if (!box) {
      box = document.createElement("div");
      box.className = "flash flash-error";
      box.setAttribute("role", "alert");
      box.setAttribute("tabindex", "-1");
      box.dataset.requestError = "";
      box.dataset.testid = "request-error";
      main.insertBefore(box, main.firstChild);
    }
    box.textContent = text;
    box.focus();
  }
  document.addEventListener("htmx:responseError", function (ev) {
    var xhr = ev.detail.xhr;
    var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
    // Every error the server writes carries data-error-message: an error
    // page, an inline error, a form's.
    var said = doc.querySelector("[data-error-message]");
    requestError(said && said.textContent.trim() ?
      said.textContent.trim() :
      "The server answered " + xhr.status + " and nothing was changed. Reload the page and try again.");
  });
  document.addEventListener("htmx:sendError", function () {
    requestError("The request did not reach the server. Check your connection and try again.");
  });

  document.addEventListener("click", function (ev) {
    var el;
    if ((el = closest(ev, "[data-copy]"))) copy(el);
    else if ((el = closest(ev, "[data-copy-text]"))) copyText(el);
    else if ((el = closest(ev, "[data-dialog-open]"))) openDialog(el);
    else if ((el = closest(ev, "[data-dialog-close]"))) el.closest("dialog").close();
    else if ((el = closest(ev, "[data-fill]"))) fill(el);
    else if ((el = closest(ev, "[data-filter]"))) filter(el);
    else if ((el = closest(ev, "[data-download]"))) download(el);
  });
  document.addEventListener("change", function (ev) {
    if (ev.target instanceof HTMLSelectElement) showWhen(ev.target);
    var input = closest(ev, "[data-dropzone] input[type=file]");
    if (input && input.files.length) load(input.closest("[data-dropzone]"), input.files[0]);
  });
  // Terraform source chosen as files or a folder (input[data-source-files],
  // views/scan.templ): htmx's FormData names a folder's files by their
  // base name, so each is sent again under its path in the folder, and
  // files Terraform does not read (a .git directory, images) are left out.
  var sourceFile = /\.(tf|tf\.json|tfvars|tfvars\.json|json|tpl|tftpl|ya?ml|txt|sh)$/;
  document.addEventListener("htmx:configRequest", function (ev) {
    var inputs = ev.detail.elt.querySelectorAll ? ev.detail.elt.querySelectorAll("input[data-source-files]") : [];
    if (!inputs.length) return;
    var fd = ev.detail.formData;
    fd.delete("source");
    inputs.forEach(function (input) {
      Array.prototype.forEach.call(input.files, function (f) {
        var path = f.webkitRelativePath || f.name;
        if (!sourceFile.test(path) || /(^|\/)\./.test(path)) return;
        fd.append("source", f, path);
      });
    });
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

  // On a phone the section tabs scroll sideways in one row: show the
  // current one (it may be past the screen's edge).
  document.querySelectorAll(".console-tabs ul").forEach(function (ul) {
    var cur = ul.querySelector("[aria-current=page]");
    if (cur && ul.scrollWidth > ul.clientWidth) {
      ul.scrollLeft = cur.offsetLeft - ul.offsetLeft - (ul.clientWidth - cur.offsetWidth) / 2;
    }
  });
})();
