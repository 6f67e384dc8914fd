// Passkeys (WebAuthn): registering one on the account page, and signing
// in with one (instead of a password, or as the second factor). A file,
// not an inline script, so the CSP stays strict. Each ceremony is two
// POSTs: begin (the server's options, with its challenge) and finish (the
// authenticator's answer); the CSRF token goes in a header. Without
// WebAuthn (or JavaScript) the sign-in buttons stay hidden.
(function () {
  "use strict";

  if (!window.PublicKeyCredential || !navigator.credentials) return;

  function toBytes(b64url) {
    var b64 = b64url.replace(/-/g, "+").replace(/_/g, "/");
    while (b64.length % 4) b64 += "=";
    var bin = atob(b64);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out.buffer;
  }

  function toB64url(buf) {
    var bytes = new Uint8Array(buf);
    var bin = "";
    for (var i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function descriptors(list) {
    return (list || []).map(function (d) {
      return Object.assign({}, d, { id: toBytes(d.id) });
    });
  }

  // post sends a step of the ceremony and gives its JSON; an error in the
  // spec's shape (or any other answer) becomes an Error with its message.
  function post(url, csrf, body, type) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRF-Token": csrf, "Content-Type": type, Accept: "application/json" },
      body: body,
    }).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = JSON.parse(text); } catch (e) { /* a page, not JSON */ }
        if (!res.ok) {
          var msg = data && data.error && data.error.message;
          throw new Error(msg || "The server refused the request (" + res.status + "). Reload the page and try again.");
        }
        return data;
      });
    });
  }

  function credentialJSON(cred) {
    var r = cred.response;
    var out = { id: cred.id, rawId: toB64url(cred.rawId), type: cred.type,
      clientExtensionResults: cred.getClientExtensionResults(), response: {
        clientDataJSON: toB64url(r.clientDataJSON) } };
    if (cred.authenticatorAttachment) out.authenticatorAttachment = cred.authenticatorAttachment;
    if (r.attestationObject) {
      out.response.attestationObject = toB64url(r.attestationObject);
      if (r.getTransports) out.response.transports = r.getTransports();
    } else {
      out.response.authenticatorData = toB64url(r.authenticatorData);
      out.response.signature = toB64url(r.signature);
      if (r.userHandle) out.response.userHandle = toB64url(r.userHandle);
    }
    return JSON.stringify(out);
  }

  // explain turns the browser's refusals into words for the status line.
  function explain(err) {
    if (err && err.name === "NotAllowedError") return "The passkey request was cancelled or timed out.";
    if (err && err.name === "InvalidStateError") return "This device already holds a passkey for your account.";
    return (err && err.message) || "The passkey did not work.";
  }

  function register(form) {
    var status = form.querySelector("[data-passkey-status]");
    var button = form.querySelector("button");
    var csrf = form.dataset.csrf;
    var name = new URLSearchParams({ name: form.elements.name.value, proof: form.elements.proof.value });
    button.disabled = true;
    status.textContent = "Follow your browser's prompt…";
    post(form.dataset.passkeyRegister, csrf, name.toString(), "application/x-www-form-urlencoded")
      .then(function (opts) {
        var pk = opts.publicKey;
        pk.challenge = toBytes(pk.challenge);
        pk.user.id = toBytes(pk.user.id);
        pk.excludeCredentials = descriptors(pk.excludeCredentials);
        return navigator.credentials.create({ publicKey: pk });
      })
      .then(function (cred) {
        return post(form.dataset.finish, csrf, credentialJSON(cred), "application/json");
      })
      .then(function (done) { window.location.assign(done.redirect); })
      .catch(function (err) {
        status.textContent = explain(err);
        button.disabled = false;
      });
  }

  function signIn(box) {
    var status = box.querySelector("[data-passkey-status]");
    var button = box.querySelector("button");
    var csrf = box.dataset.csrf;
    button.disabled = true;
    status.textContent = "Follow your browser's prompt…";
    post(box.dataset.passkeySignin, csrf, "", "application/x-www-form-urlencoded")
      .then(function (opts) {
        var pk = opts.publicKey;
        pk.challenge = toBytes(pk.challenge);
        pk.allowCredentials = descriptors(pk.allowCredentials);
        return navigator.credentials.get({ publicKey: pk });
      })
      .then(function (cred) {
        return post(box.dataset.finish, csrf, credentialJSON(cred), "application/json");
      })
      .then(function (done) { window.location.assign(done.redirect); })
      .catch(function (err) {
        status.textContent = explain(err);
        button.disabled = false;
      });
  }

  document.querySelectorAll("form[data-passkey-register]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      register(form);
    });
  });
  document.querySelectorAll("[data-passkey-signin]").forEach(function (box) {
    box.hidden = false;
    box.querySelector("button").addEventListener("click", function () { signIn(box); });
  });
})();
