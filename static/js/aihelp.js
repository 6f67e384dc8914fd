// The tools' AI help (views/aihelp.templ): a log's Explain and a finding's
// Suggest a fix. Each button posts JSON to the panel's data-endpoint with
// the CSRF token from data-csrf; an explanation is read as a stream of
// events (meta, delta…, done or error) and drawn as it arrives; a fix comes
// back whole, with a verdict per finding and a unified diff. Model text is
// untrusted: it is only ever set with textContent, and the small Markdown
// subset it may use (headings, lists, **bold**, `code`) becomes elements
// built here, never HTML, never a link.
(function () {
  "use strict";

  var busy = false;

  function panel() { return document.getElementById("ai-help"); }
  function part(p, name) { return p.querySelector("[data-ai-" + name + "]"); }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Buttons say why they cannot be used, once per page and after every
  // swap that brings new ones.
  function mark() {
    var p = panel();
    if (!p || !p.dataset.disabled) return;
    var buttons = document.querySelectorAll("[data-ai-explain], [data-ai-fix], [data-ai-fix-all]");
    Array.prototype.forEach.call(buttons, function (b) {
      b.disabled = true;
      b.title = p.dataset.disabled;
      b.setAttribute("aria-describedby", "ai-help-why");
    });
  }
  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:afterSwap", mark);

  // inline appends text to node with **bold** and `code` as elements.
  function inline(node, text) {
    var re = /(\*\*[^*]+\*\*|`[^`]+`)/g, last = 0, m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > last) node.appendChild(document.createTextNode(text.slice(last, m.index)));
      var t = m[0];
      node.appendChild(t.charAt(0) === "`" ? el("code", "", t.slice(1, -1)) : el("strong", "", t.slice(2, -2)));
      last = m.index + t.length;
    }
    if (last < text.length) node.appendChild(document.createTextNode(text.slice(last)));
  }

  // markdown draws text's Markdown subset into out.
  function markdown(out, text) {
    out.textContent = "";
    var list = null, para = null;
    text.split("\n").forEach(function (line) {
      var h = /^#{1,6}\s+(.*)$/.exec(line), li = /^\s*[-*]\s+(.*)$/.exec(line);
      if (h) {
        list = para = null;
        inline(out.appendChild(el("h3", "ai-heading")), h[1]);
      } else if (li) {
        para = null;
        if (!list) list = out.appendChild(el("ul"));
        inline(list.appendChild(el("li")), li[1]);
      } else if (line.trim() === "") {
        list = para = null;
      } else {
        list = null;
        if (para) para.appendChild(document.createTextNode(" "));
        else para = out.appendChild(el("p"));
        inline(para, line);
      }
    });
  }

  function start(p, status) {
    busy = true;
    p.hidden = false;
    part(p, "error").hidden = true;
    part(p, "masked").textContent = "";
    part(p, "output").textContent = "";
    part(p, "status").textContent = status;
    p.setAttribute("aria-busy", "true");
    part(p, "title").focus();
  }

  function finish(p, status) {
    busy = false;
    p.removeAttribute("aria-busy");
    part(p, "status").textContent = status || "";
  }

  function fail(p, message) {
    var e = part(p, "error");
    e.textContent = message;
    e.hidden = false;
    finish(p, "");
  }

  function errorOf(res) {
    return res.json().then(function (b) {
      return b && b.error && b.error.message ? b.error.message : "The request failed (" + res.status + ").";
    }, function () { return "The request failed (" + res.status + ")."; });
  }

  function post(p, body, stream) {
    return fetch(p.dataset.endpoint, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "Accept": stream ? "text/event-stream" : "application/json",
        "X-CSRF-Token": p.dataset.csrf || ""
      },
      body: JSON.stringify(body)
    });
  }

  function showMasked(p, masked) {
    var out = part(p, "masked");
    if (!masked || !masked.length) {
      out.textContent = "Nothing secret was found in what was sent.";
      return;
    }
    var kinds = {};
    masked.forEach(function (m) { kinds[m.kind] = (kinds[m.kind] || 0) + 1; });
    out.textContent = "Masked before sending: " + Object.keys(kinds).map(function (k) {
      return kinds[k] + " × " + k.replace(/_/g, " ");
    }).join(", ") + ".";
  }

  // "1 input token", "37 output tokens".
  function tokenCount(n, kind) {
    return n + " " + kind + (n === 1 ? " token" : " tokens");
  }

  function usageText(model, usage) {
    var parts = [];
    if (model) parts.push(model);
    if (usage) parts.push(tokenCount(usage.input_tokens, "input"), tokenCount(usage.output_tokens, "output"));
    return parts.join(" · ");
  }

  // Server-sent events from a fetch body: name and parsed data.
  function readEvents(res, onEvent) {
    var reader = res.body.getReader(), decoder = new TextDecoder(), buf = "";
    function pump() {
      return reader.read().then(function (r) {
        buf += decoder.decode(r.value || new Uint8Array(), { stream: !r.done });
        var at;
        while ((at = buf.indexOf("\n\n")) >= 0) {
          var block = buf.slice(0, at), name = "", data = "";
          buf = buf.slice(at + 2);
          block.split("\n").forEach(function (l) {
            if (l.indexOf("event: ") === 0) name = l.slice(7);
            else if (l.indexOf("data: ") === 0) data += l.slice(6);
          });
          if (data) onEvent(name, JSON.parse(data));
        }
        if (!r.done) return pump();
      });
    }
    return pump();
  }

  function explain(button) {
    var p = panel(), input = document.getElementById("logs-input");
    if (!p || busy || !input) return;
    var id = button.dataset.aiExplain, ids = id ? [parseInt(id, 10)] : [];
    start(p, id ? "Explaining template " + id + "…" : "Explaining this log…");
    var text = "", done = false, failure = "", model = "";
    var out = part(p, "output");
    post(p, { text: input.value, template_ids: ids }, true).then(function (res) {
      if (!res.ok) return errorOf(res).then(function (m) { failure = m; });
      return readEvents(res, function (name, data) {
        switch (name) {
          case "meta":
            model = data.model;
            showMasked(p, data.masked);
            break;
          case "delta":
            text += data.text;
            markdown(out, text);
            break;
          case "done":
            done = true;
            part(p, "status").textContent = usageText(model, data.usage);
            break;
          case "error":
            failure = data.error && data.error.message || "The explanation failed.";
            break;
        }
      });
    }).catch(function () {
      failure = failure || "The connection failed before the explanation finished. Try again.";
    }).then(function () {
      if (!failure && !done) failure = "The explanation was cut off before it finished. Try again.";
      if (failure) fail(p, failure);
      else finish(p, part(p, "status").textContent);
    });
  }

  // The scanner's textarea holds a document, or an envelope around one.
  function fixBody(text, fingerprints) {
    try {
      var v = JSON.parse(text);
      if (v && typeof v === "object" && !Array.isArray(v) && "document" in v) {
        v.fingerprints = fingerprints;
        return v;
      }
    } catch (e) { /* YAML, or not an envelope */ }
    return { document: text, fingerprints: fingerprints };
  }

  // Terraform source chosen as files or a folder is what the page scanned
  // (it wins over the textarea, as on the server): a fix sends those files,
  // each under its path, filtered as static/js/app.js sends them.
  var sourceFile = /\.(tf|tf\.json|tfvars|tfvars\.json|json|tpl|tftpl|ya?ml|txt|sh)$/;
  function sourceFiles() {
    var files = [];
    document.querySelectorAll("input[data-source-files]").forEach(function (input) {
      Array.prototype.forEach.call(input.files, function (f) {
        var path = f.webkitRelativePath || f.name;
        if (sourceFile.test(path) && !/(^|\/)\./.test(path)) files.push({ file: f, path: path });
      });
    });
    return files;
  }

  function fixRequest(text, fingerprints) {
    var files = sourceFiles();
    if (!files.length) return Promise.resolve(fixBody(text, fingerprints));
    return Promise.all(files.map(function (s) {
      return s.file.text().then(function (content) { return { path: s.path, content: content }; });
    })).then(function (list) { return { files: list, fingerprints: fingerprints }; });
  }

  function drawDiff(diff) {
    var pre = el("pre", "ai-diff");
    pre.dataset.testid = "fix-diff";
    pre.tabIndex = 0;
    diff.split("\n").forEach(function (line) {
      var c = line.charAt(0), cls = "";
      if (line.indexOf("@@") === 0) cls = "diff-hunk";
      else if (c === "+" && line.indexOf("+++") !== 0) cls = "diff-add";
      else if (c === "-" && line.indexOf("---") !== 0) cls = "diff-del";
      pre.appendChild(el("span", cls, line + "\n"));
    });
    return pre;
  }

  function drawFix(p, data) {
    var out = part(p, "output");
    showMasked(p, data.masked);
    var list = out.appendChild(el("ul", "ai-verdicts"));
    data.findings.forEach(function (f) {
      var li = list.appendChild(el("li"));
      li.dataset.testid = "fix-verdict";
      li.dataset.verdict = f.verdict;
      li.appendChild(el("span", "badge " + (f.verdict === "verified" ? "badge-verified" : "badge-not-verified"),
        f.verdict === "verified" ? "verified" : "not verified"));
      li.appendChild(document.createTextNode(" " + f.rule + " on " + f.resource.name + (f.reason ? ": " + f.reason : "")));
    });
    if (data.diff) {
      var verified = data.findings.every(function (f) { return f.verdict === "verified"; });
      out.appendChild(el("h3", "ai-heading", verified ? "Diff (verified: the scanner no longer finds it)" : "Diff (not verified)"));
      out.appendChild(drawDiff(data.diff));
    } else {
      out.appendChild(el("p", "muted", "The answer changed nothing in the document."));
    }
    if (data.answer) {
      var d = out.appendChild(el("details"));
      d.appendChild(el("summary", "", "The model's answer"));
      d.appendChild(el("pre", "ai-answer", data.answer));
    }
  }

  function fix(fingerprints) {
    var p = panel(), input = document.getElementById("scan-input");
    if (!p || busy || !input || !fingerprints.length) return;
    start(p, fingerprints.length === 1 ? "Asking for a fix and scanning it…" : "Asking for fixes of " + fingerprints.length + " findings and scanning them…");
    fixRequest(input.value, fingerprints).then(function (body) {
      return post(p, body, false);
    }).then(function (res) {
      if (!res.ok) return errorOf(res).then(function (m) { fail(p, m); });
      return res.json().then(function (b) {
        drawFix(p, b.data);
        finish(p, usageText(b.data.model, b.data.model ? b.data.usage : null));
      });
    }).catch(function () {
      fail(p, "The connection failed before the fix came back. Try again.");
    });
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target instanceof Element ? ev.target : null;
    if (!t) return;
    var b = t.closest("[data-ai-explain]");
    if (b) return explain(b);
    b = t.closest("[data-ai-fix]");
    if (b) return fix([b.dataset.aiFix]);
    b = t.closest("[data-ai-fix-all]");
    if (b) {
      var rows = document.querySelectorAll("tr[data-severity='" + b.dataset.aiFixAll + "'] [data-ai-fix]");
      // At most 20 findings are fixed at once (toolsai.MaxFixFindings).
      fix(Array.prototype.slice.call(rows, 0, 20).map(function (r) { return r.dataset.aiFix; }));
    }
  });
})();
