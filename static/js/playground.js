// The gateway playground (form[data-playground], views/playground.templ).
// The conversation lives here, in memory: each Send posts the whole thread
// as JSON to the form's data-endpoint with the CSRF token from data-csrf,
// and reads the answer, a stream of Messages events (text/event-stream),
// drawing each text and thinking delta as it arrives. Stop aborts the
// fetch: the server sees the client leave and records the call as cut,
// with the tokens delivered. A turn joins the history only when its stream
// completed; a failed or stopped one is shown and left out. Model and user
// text is only ever set with textContent.
(function () {
  "use strict";

  // MAX_IMAGE_BYTES is Anthropic's limit for one image.
  var MAX_IMAGE_BYTES = 5 * 1024 * 1024;
  var IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
  var MIN_THINKING_BUDGET = 1024;

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
    var stop = form.querySelector("[data-chat-stop]");
    if (stop) stop.hidden = !busy;
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

  // "1 input token", "37 output tokens".
  function tokenCount(n, kind) {
    return formatInt(n) + " " + kind + (Number(n) === 1 ? " token" : " tokens");
  }

  // The quota shown beside the chat counts down with each reply's usage.
  function spend(form, tokens) {
    var left = form.querySelector("[data-tokens-left]");
    if (!left || !(tokens > 0)) return;
    var n = Math.max(0, parseInt(left.dataset.tokensLeft, 10) - tokens);
    left.dataset.tokensLeft = String(n);
    left.textContent = formatInt(n);
  }

  // copyButton copies what text() returns when pressed, and says so.
  function copyButton(form, text, label) {
    var b = el("button", "chat-copy secondary outline", "Copy");
    b.type = "button";
    b.setAttribute("aria-label", label);
    b.dataset.testid = "copy-message";
    b.addEventListener("click", function () { copy(text(), function (m) { status(form, m); }); });
    return b;
  }

  // copy puts text on the clipboard and tells the outcome to say.
  function copy(text, say) {
    if (!navigator.clipboard) { say("Copying needs a secure (HTTPS) page."); return; }
    navigator.clipboard.writeText(text).then(function () { say("Copied."); },
      function () { say("The browser refused to copy."); });
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
    var temp = form.querySelector("[name=temperature]");
    if (temp && temp.value !== "") {
      var t = parseFloat(temp.value);
      if (!isNaN(t)) body.temperature = t;
    }
    var thinking = form.querySelector("[name=thinking]");
    if (thinking && thinking.checked) {
      body.thinking = { type: "enabled", budget_tokens: Math.max(MIN_THINKING_BUDGET, Math.floor((body.max_tokens || 0) / 2)) };
    }
    var system = form.querySelector("[name=system]");
    if (system && system.value.trim()) body.system = system.value;
    return body;
  }

  // readImage resolves to the chosen file as a base64 image block, or
  // null when there is none; it rejects with a message for a bad file.
  function readImage(form) {
    var input = form.querySelector("[data-chat-image]");
    var file = input && input.files && input.files[0];
    if (!file) return Promise.resolve(null);
    if (IMAGE_TYPES.indexOf(file.type) < 0) return Promise.reject(new Error("The image must be PNG, JPEG, GIF or WebP."));
    if (file.size > MAX_IMAGE_BYTES) return Promise.reject(new Error("The image is larger than 5 MB."));
    return new Promise(function (resolve, reject) {
      var r = new FileReader();
      r.onload = function () {
        var url = String(r.result);
        resolve({ name: file.name, block: { type: "image", source: { type: "base64", media_type: file.type, data: url.slice(url.indexOf(",") + 1) } } });
      };
      r.onerror = function () { reject(new Error("The image could not be read.")); };
      r.readAsDataURL(file);
    });
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
    setBusy(form, true);
    readImage(form).then(function (image) {
      stream(form, input, text, image);
    }, function (err) {
      setBusy(form, false);
      showError(form, err.message, "");
    });
  }

  function stream(form, input, text, image) {
    var s = stateOf(form);
    var turn = { role: "user", content: image ? [image.block, { type: "text", text: text }] : text };
    var body = settings(form);
    body.messages = s.history.concat([turn]);

    var userMsg = append(form, el("div", "chat-msg chat-user"));
    userMsg.dataset.testid = "chat-user";
    if (image) {
      var att = userMsg.appendChild(el("div", "chat-attachment muted small", "Image: " + image.name));
      att.dataset.testid = "chat-attachment";
    }
    userMsg.appendChild(el("span", "chat-text", text));
    userMsg.appendChild(copyButton(form, function () { return text; }, "Copy your message"));
    input.value = "";
    var fileInput = form.querySelector("[data-chat-image]");
    if (fileInput) fileInput.value = "";

    var bubble = null; // the assistant's, made with the first event
    var out = null;
    var thought = null; // the folded thinking, made with its first delta
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

    function ensureThought() {
      ensureBubble();
      if (thought) return;
      var details = el("details", "chat-thinking");
      details.dataset.testid = "chat-thinking";
      details.appendChild(el("summary", "", "Thinking"));
      thought = details.appendChild(el("div", "chat-thinking-text"));
      bubble.insertBefore(details, out);
    }

    function onEvent(name, data) {
      var type = data && data.type ? data.type : name;
      var t = thread(form);
      var stick = nearBottom(t);
      switch (type) {
        case "message_start":
          ensureBubble();
          if (data.message) {
            usage.model = data.message.model || "";
            if (data.message.usage) usage.input = data.message.usage.input_tokens;
          }
          break;
        case "content_block_start":
          if (data.content_block && data.content_block.type === "thinking") {
            ensureThought();
            thought.textContent += data.content_block.thinking || "";
          }
          break;
        case "content_block_delta":
          if (data.delta && data.delta.type === "text_delta") {
            ensureBubble();
            reply += data.delta.text;
            out.textContent = reply;
          } else if (data.delta && data.delta.type === "thinking_delta") {
            ensureThought();
            thought.textContent += data.delta.thinking;
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
      if (stick) toBottom(t);
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
          if (reply && failure.code === "stopped") {
            var note = bubble.appendChild(el("div", "chat-meta", "Stopped: this reply is not sent with the next message."));
            note.dataset.testid = "chat-stopped";
            bubble.classList.add("chat-failed");
          } else if (reply) bubble.classList.add("chat-failed");
          else bubble.remove();
        }
        if (failure.code !== "aborted" && failure.code !== "stopped") {
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
        var final = reply;
        bubble.appendChild(copyButton(form, function () { return final; }, "Copy the reply"));
        var meta = el("div", "chat-meta");
        meta.dataset.testid = "usage";
        var parts = [];
        if (usage.model) parts.push(usage.model);
        if (usage.input != null) parts.push(tokenCount(usage.input, "input"));
        if (usage.output != null) parts.push(tokenCount(usage.output, "output"));
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

    // Stop marks the failure before aborting, so the reply so far stays
    // on the page, marked stopped, rather than vanishing as on Clear.
    s.stop = function () {
      if (s.controller !== controller) return;
      failure = failure || { code: "stopped", message: "" };
      controller.abort();
    };
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

  // The same call as code: the history, the message being written and the
  // settings, sent to the Messages endpoint with a key from the
  // environment. An attached image's bytes stand as a placeholder.
  function codeRequest(form) {
    var body = settings(form);
    if (!body.max_tokens) body.max_tokens = 1024;
    var msgs = stateOf(form).history.concat([]);
    var input = form.querySelector("[data-chat-input]");
    var fileInput = form.querySelector("[data-chat-image]");
    var file = fileInput && fileInput.files && fileInput.files[0];
    var text = input ? input.value.trim() : "";
    if (text || file) {
      var content = text;
      if (file) {
        content = [{ type: "image", source: { type: "base64", media_type: file.type || "image/png", data: "BASE64_OF_" + file.name.replace(/[^A-Za-z0-9._-]/g, "_") } }];
        if (text) content.push({ type: "text", text: text });
      }
      msgs.push({ role: "user", content: content });
    }
    if (!msgs.length) msgs.push({ role: "user", content: "Hello" });
    // Images already sent stand as placeholders too: their bytes would
    // fill the dialog.
    body.messages = msgs.map(function (m) {
      if (typeof m.content === "string") return m;
      return { role: m.role, content: m.content.map(function (b) {
        if (b.type !== "image" || b.source.data.indexOf("BASE64_OF_") === 0) return b;
        return { type: "image", source: { type: "base64", media_type: b.source.media_type, data: "BASE64_OF_IMAGE" } };
      }) };
    });
    return body;
  }

  function shellQuote(s) { return "'" + s.replace(/'/g, "'\\''") + "'"; }

  function pyValue(v, indent) {
    var pad = new Array(indent + 1).join("    ");
    if (v === null) return "None";
    if (v === true) return "True";
    if (v === false) return "False";
    if (Array.isArray(v)) {
      return "[\n" + v.map(function (x) { return pad + "    " + pyValue(x, indent + 1); }).join(",\n") + ",\n" + pad + "]";
    }
    if (typeof v === "object") {
      return "{\n" + Object.keys(v).map(function (k) { return pad + "    " + JSON.stringify(k) + ": " + pyValue(v[k], indent + 1); }).join(",\n") + ",\n" + pad + "}";
    }
    return JSON.stringify(v);
  }

  function samples(form) {
    var body = codeRequest(form);
    var base = location.origin + "/gateway";
    var json = JSON.stringify(body, null, 2);
    var curl = "curl " + base + "/v1/messages \\\n" +
      "  -H \"x-api-key: $PARAPET_API_KEY\" \\\n" +
      "  -H \"anthropic-version: 2023-06-01\" \\\n" +
      "  -H \"content-type: application/json\" \\\n" +
      "  -d " + shellQuote(json);
    var py = "import os\n\nimport anthropic\n\n" +
      "client = anthropic.Anthropic(base_url=" + JSON.stringify(base) + ", api_key=os.environ[\"PARAPET_API_KEY\"])\n\n" +
      "message = client.messages.create(\n" +
      Object.keys(body).map(function (k) { return "    " + k + "=" + pyValue(body[k], 1) + ",\n"; }).join("") +
      ")\nprint(message.content)\n";
    var js = "import Anthropic from \"@anthropic-ai/sdk\";\n\n" +
      "const client = new Anthropic({ baseURL: " + JSON.stringify(base) + ", apiKey: process.env.PARAPET_API_KEY });\n\n" +
      "const message = await client.messages.create(" + json + ");\n" +
      "console.log(message.content);\n";
    return { curl: curl, Python: py, JavaScript: js };
  }

  function showCode(form) {
    var dialog = document.querySelector("[data-code-dialog]");
    if (!dialog) return;
    var code = samples(form);
    Object.keys(code).forEach(function (lang) {
      var box = dialog.querySelector("[data-code=\"" + lang + "\"]");
      if (box) box.textContent = code[lang];
    });
    if (dialog.showModal) dialog.showModal();
    else dialog.setAttribute("open", "");
  }

  function currentForm() { return document.querySelector("form[data-playground]"); }

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
    if (!(ev.target instanceof Element)) return;
    var form = ev.target.closest("form[data-playground]");
    if (ev.target.closest("[data-chat-clear]") && form) clear(form);
    else if (ev.target.closest("[data-chat-stop]") && form) {
      var s = stateOf(form);
      if (s.stop) s.stop();
    } else if (ev.target.closest("[data-chat-code]") && form) showCode(form);
    else if (ev.target.closest("[data-code-close]")) {
      var d = ev.target.closest("dialog");
      if (d.close) d.close(); else d.removeAttribute("open");
      var f = currentForm();
      var btn = f && f.querySelector("[data-chat-code]");
      if (btn) btn.focus();
    } else {
      var c = ev.target.closest("[data-copy-code]");
      var box = c && document.querySelector("[data-code=\"" + c.dataset.copyCode + "\"]");
      var said = c && c.closest("dialog").querySelector("[data-code-status]");
      if (box) copy(box.textContent, function (m) { if (said) said.textContent = m; });
    }
  });
})();
