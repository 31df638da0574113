// guji studio: what the page asks of guji, through one small interface (no library, no build
// step). The page (studio.js) reaches guji only through a backend's calls, each a Promise:
//   state()                         the open texts (no bodies) and the shipped editions
//   text(key)                       one open text: {key, name, text}
//   paste(text)                     a new text, read by guji's scanner (named pasted-N.txt)
//   edit(key, text)                 the text *key* edited, read again
//   open(name, bytes)               a file's bytes, decoded as guji decodes files (with its text)
//   view(request)                   the drawings, alignments, schedules, commands of the readings
//   audio(request, index)           ArrayBuffer: the WAV of reading *index* (guji render's)
//   modeAudio(request, mode)        ArrayBuffer: the WAV of a compare mode (guji compare's)
//   exportFile(request, kind, mode) {name, blob}: the file the command writes
// gujiHttpBackend is the one that asks the studio's server on 127.0.0.1. Another (guji run in
// the browser itself, a test's stand-in) is put in place by defining, before studio.js runs,
// window.gujiBackendFor(token, answered) returning an object with the same calls.
(function () {
  "use strict";
  // *answered(status)*: the page's words for an error answer that says nothing itself.
  window.gujiHttpBackend = function (token, answered) {
    function call(path, body) {
      var options = { method: body === undefined ? "GET" : "POST", headers: { "X-Guji-Token": token } };
      if (body !== undefined) {
        if (body instanceof ArrayBuffer || body instanceof Blob) { options.body = body; }
        else { options.body = JSON.stringify(body); options.headers["Content-Type"] = "application/json"; }
      }
      return fetch(path, options).then(function (r) {
        if (r.ok) { return r; }
        return r.json().catch(function () { return {}; })
          .then(function (e) { throw new Error(e.error || answered(r.status)); });
      });
    }
    function json(path, body) { return call(path, body).then(function (r) { return r.json(); }); }
    function bytes(path, body) { return call(path, body).then(function (r) { return r.arrayBuffer(); }); }
    function named(response) {          // the file's name, as the server gave it
      var said = response.headers.get("Content-Disposition") || "";
      var utf8 = /filename\*=UTF-8''([^;]+)/.exec(said), plain = /filename="([^"]+)"/.exec(said);
      return utf8 ? decodeURIComponent(utf8[1]) : plain ? plain[1] : "guji-export";
    }
    return {
      state: function () { return json("/api/state"); },
      text: function (key) { return json("/api/text?key=" + encodeURIComponent(key)); },
      paste: function (text) { return json("/api/paste", { text: text }); },
      edit: function (key, text) { return json("/api/edit", { key: key, text: text }); },
      open: function (name, data) { return json("/api/open?name=" + encodeURIComponent(name), data); },
      view: function (request) { return json("/api/view", request); },
      audio: function (request, index) {
        return bytes("/api/audio", Object.assign({ index: index }, request));
      },
      modeAudio: function (request, mode) {
        return bytes("/api/mode-audio", Object.assign({ mode: mode }, request));
      },
      exportFile: function (request, kind, mode) {
        return call("/api/export", Object.assign({ kind: kind, mode: mode }, request)).then(function (r) {
          return r.blob().then(function (blob) { return { name: named(r), blob: blob }; });
        });
      }
    };
  };
})();
