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
})();

// The gateway playground (form[data-playground], views/playground.templ).
// The conversation lives here, in memory: each Send posts the whole thread
// as JSON to the form's data-endpoint with the CSRF token from data-csrf,
// and reads the answer, a stream of Messages events (text/event-stream),
// drawing each text delta as it arrives. A turn joins the history only
// when its stream completed; a failed one is shown and left out. Model and
// user text is only ever set with textContent.
(function () {
  "use strict";

  var chats = new WeakMap(); // form -> {history, busy, controller}

  function stateOf(form) {
    var s = chats.get(form);
    if (!s) {
      s = { history: [], busy: false, controller: null };
      chats.set(form, s);
    }
    return s;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function thread(form) { return form.querySelector("[data-chat-thread]"); }

  // Stick to the bottom while the user has not scrolled up to read.
  function nearBottom(t) { return t.scrollHeight - t.scrollTop - t.clientHeight < 48; }
  function toBottom(t) { t.scrollTop = t.scrollHeight; }

  function append(form, node) {
    var t = thread(form);
    var empty = t.querySelector("[data-chat-empty]");
    if (empty) empty.hidden = true;
    t.appendChild(node);
    toBottom(t);
    return node;
  }

  function status(form, text) {
    var s = form.querySelector("[data-chat-status]");
    if (s) s.textContent = text;
  }

  function setBusy(form, busy) {
    var s = stateOf(form);
    s.busy = busy;
    var send = form.querySelector("[data-chat-send]");
    if (send) {
      send.disabled = busy;
      send.setAttribute("aria-busy", busy ? "true" : "false");
    }
    status(form, busy ? "Streaming the reply…" : "");
  }

  function showError(form, message, code) {
    var box = el("div", "chat-msg chat-error flash flash-error");
    box.setAttribute("role", "alert");
    box.dataset.testid = "chat-error";
    box.appendChild(el("strong", "", "Not sent: "));
    box.appendChild(document.createTextNode(message || "Something went wrong. Try again."));
    if (code === "unauthenticated") {
      box.appendChild(document.createTextNode(" "));
      var a = el("a", "", "Sign in");
      a.href = "/console/signin?next=" + encodeURIComponent(location.pathname);
      box.appendChild(a);
    }
    append(form, box);
  }

  function formatInt(n) {
    return Number(n).toLocaleString("en-US");
  }

  // The quota shown beside the chat counts down with each reply's usage.
  function spend(form, tokens) {
    var left = form.querySelector("[data-tokens-left]");
    if (!left || !(tokens > 0)) return;
    var n = Math.max(0, parseInt(left.dataset.tokensLeft, 10) - tokens);
    left.dataset.tokensLeft = String(n);
    left.textContent = formatInt(n);
  }

  // settings reads the optional fields; empty ones are left to the
  // server's defaults.
  function settings(form) {
    var body = {};
    var model = form.querySelector("[name=model]");
    if (model && model.value.trim()) body.model = model.value.trim();
    var max = form.querySelector("[name=max_tokens]");
    if (max && max.value !== "") {
      var n = parseInt(max.value, 10);
      if (!isNaN(n)) body.max_tokens = n;
    }
    var system = form.querySelector("[name=system]");
    if (system && system.value.trim()) body.system = system.value;
    return body;
  }

  // readEvents calls onEvent(name, data) for each server-sent event of the
  // response body as it arrives.
  function readEvents(res, onEvent) {
    var reader = res.body.getReader();
    var decoder = new TextDecoder();
    var buf = "";
    function frame(text) {
      var name = "message";
      var data = [];
      text.split("\n").forEach(function (line) {
        if (line === "" || line.charAt(0) === ":") return;
        var i = line.indexOf(":");
        var field = i < 0 ? line : line.slice(0, i);
        var value = i < 0 ? "" : line.slice(i + 1);
        if (value.charAt(0) === " ") value = value.slice(1);
        if (field === "event") name = value;
        else if (field === "data") data.push(value);
      });
      if (!data.length) return;
      var parsed;
      try { parsed = JSON.parse(data.join("\n")); } catch (e) { return; }
      onEvent(name, parsed);
    }
    function pump() {
      return reader.read().then(function (r) {
        if (r.done) {
          buf += decoder.decode();
          if (buf.trim()) frame(buf.replace(/\r\n?/g, "\n"));
          return;
        }
        buf = (buf + decoder.decode(r.value, { stream: true })).replace(/\r\n?/g, "\n");
        var at;
        while ((at = buf.indexOf("\n\n")) >= 0) {
          var text = buf.slice(0, at);
          buf = buf.slice(at + 2);
          frame(text);
        }
        return pump();
      });
    }
    return pump();
  }

  function errorOf(res) {
    return res.text().then(function (text) {
      var e = {};
      try { e = JSON.parse(text).error || {}; } catch (x) { /* not JSON */ }
      return {
        code: e.code || "",
        message: e.message || ("The server answered " + res.status + " " + res.statusText + ".")
      };
    });
  }

  function send(form) {
    var s = stateOf(form);
    var input = form.querySelector("[data-chat-input]");
    if (s.busy || !input) return;
    var text = input.value.trim();
    if (!text) { input.focus(); return; }

    var turn = { role: "user", content: text };
    var body = settings(form);
    body.messages = s.history.concat([turn]);

    var userMsg = append(form, el("div", "chat-msg chat-user", text));
    userMsg.dataset.testid = "chat-user";
    input.value = "";
    setBusy(form, true);

    var bubble = null; // the assistant's, made with the first event
    var out = null;
    var reply = "";
    var usage = { input: null, output: null, model: "", stop: "" };
    var done = false;
    var failure = null;
    var controller = window.AbortController ? new AbortController() : null;
    s.controller = controller;

    function ensureBubble() {
      if (bubble) return;
      bubble = append(form, el("div", "chat-msg chat-assistant chat-streaming"));
      bubble.dataset.testid = "chat-assistant";
      out = bubble.appendChild(el("span", "chat-text"));
    }

    function onEvent(name, data) {
      var type = data && data.type ? data.type : name;
      switch (type) {
        case "message_start":
          ensureBubble();
          if (data.message) {
            usage.model = data.message.model || "";
            if (data.message.usage) usage.input = data.message.usage.input_tokens;
          }
          break;
        case "content_block_delta":
          if (data.delta && data.delta.type === "text_delta") {
            ensureBubble();
            var t = thread(form);
            var stick = nearBottom(t);
            reply += data.delta.text;
            out.textContent = reply;
            if (stick) toBottom(t);
          }
          break;
        case "message_delta":
          if (data.usage) {
            usage.output = data.usage.output_tokens;
            if (data.usage.input_tokens) usage.input = data.usage.input_tokens;
          }
          if (data.delta && data.delta.stop_reason) usage.stop = data.delta.stop_reason;
          break;
        case "message_stop":
          done = true;
          break;
        case "error":
          failure = {
            code: data.error && data.error.type || "error",
            message: data.error && data.error.message || "The reply failed."
          };
          break;
      }
    }

    fetch(form.dataset.endpoint, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "Accept": "text/event-stream",
        "X-CSRF-Token": form.dataset.csrf || ""
      },
      body: JSON.stringify(body),
      signal: controller ? controller.signal : undefined
    }).then(function (res) {
      var type = res.headers.get("Content-Type") || "";
      if (!res.ok) {
        return errorOf(res).then(function (e) { failure = e; });
      }
      if (type.indexOf("text/event-stream") < 0 || !res.body) {
        failure = { code: "", message: "The server did not answer with a stream." };
        return;
      }
      return readEvents(res, onEvent);
    }).catch(function (err) {
      if (err && err.name === "AbortError") {
        failure = failure || { code: "aborted", message: "" };
      } else {
        failure = failure || { code: "", message: "The connection failed before the reply finished. Check your network and try again." };
      }
    }).then(function () {
      if (s.controller === controller) s.controller = null;
      if (!failure && !done) {
        failure = { code: "", message: "The reply was cut off before it finished. Try again." };
      }
      if (bubble) bubble.classList.remove("chat-streaming");
      if (failure) {
        // Not part of the conversation: the next message is sent without it.
        userMsg.classList.add("chat-failed");
        if (bubble) {
          if (reply) bubble.classList.add("chat-failed");
          else bubble.remove();
        }
        if (failure.code !== "aborted") {
          showError(form, failure.message, failure.code);
          if (!input.value) input.value = text; // to send again
        }
      } else {
        ensureBubble();
        // A blank reply is not replayed: every endpoint refuses an empty
        // turn, and the conversation could not go on. Two user turns in a
        // row are fine.
        s.history.push(turn);
        if (reply.trim()) s.history.push({ role: "assistant", content: reply });
        var meta = el("div", "chat-meta");
        meta.dataset.testid = "usage";
        var parts = [];
        if (usage.model) parts.push(usage.model);
        if (usage.input != null) parts.push(formatInt(usage.input) + " input tokens");
        if (usage.output != null) parts.push(formatInt(usage.output) + " output tokens");
        if (usage.stop === "max_tokens") parts.push("stopped at max tokens");
        else if (usage.stop === "stop_sequence") parts.push("stopped at a stop sequence");
        meta.textContent = parts.join(" · ");
        bubble.appendChild(meta);
        spend(form, (usage.input || 0) + (usage.output || 0));
        var t = thread(form);
        if (nearBottom(t)) toBottom(t);
      }
      setBusy(form, false);
      // Focus returns to the message box unless a phone's keyboard would
      // jump up over the reply.
      if (!window.matchMedia || !window.matchMedia("(pointer: coarse)").matches) input.focus();
    });
  }

  function clear(form) {
    var s = stateOf(form);
    if (s.controller) s.controller.abort();
    s.history = [];
    var t = thread(form);
    Array.prototype.slice.call(t.children).forEach(function (c) {
      if (!c.hasAttribute("data-chat-empty")) c.remove();
    });
    var empty = t.querySelector("[data-chat-empty]");
    if (empty) empty.hidden = false;
    var input = form.querySelector("[data-chat-input]");
    if (input) input.focus();
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target instanceof Element ? ev.target.closest("form[data-playground]") : null;
    if (!form) return;
    ev.preventDefault();
    send(form);
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" || ev.shiftKey || ev.isComposing || ev.keyCode === 229) return;
    var input = ev.target instanceof Element ? ev.target.closest("form[data-playground] [data-chat-input]") : null;
    if (!input) return;
    ev.preventDefault();
    var form = input.closest("form[data-playground]");
    if (form.requestSubmit) form.requestSubmit();
    else send(form);
  });
  document.addEventListener("click", function (ev) {
    var btn = ev.target instanceof Element ? ev.target.closest("form[data-playground] [data-chat-clear]") : null;
    if (btn) clear(btn.closest("form[data-playground]"));
  });
})();
