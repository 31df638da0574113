// guji studio: the page's script (no library, no network beyond its own server).
// The text is read by guji's own scanner; the sound is guji's own render of each reading,
// played on one Web Audio clock; the light follows that clock. Everything asked of guji goes
// through the backend (backend.js: the studio's server, or another with the same calls).
(function () {
  "use strict";
  var TOKEN = document.querySelector('meta[name="guji-token"]').content;
  var $ = function (id) { return document.getElementById(id); };
  var LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  var state = { doc: null, docs: {}, editions: [], chosen: [], view: null, mode: "ab" };
  // The page's words: English here, looked up in the chosen language's table, which the
  // server puts in the page (guji/studio/words.py); {name} is filled from *values*.
  var WORDS = JSON.parse(document.getElementById("guji-words").textContent || "{}");
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) {
      return values && Object.prototype.hasOwnProperty.call(values, k) ? String(values[k]) : m;
    });
  }
  function T(message, values) {
    var found = WORDS[message];
    return fill(typeof found === "string" && found ? found : message, values);
  }
  function TN(singular, plural, n, values) {
    var forms = WORDS[singular];      // Chinese has one form
    return fill(Array.isArray(forms) && forms[0] ? forms[0] : (n === 1 ? singular : plural), values);
  }

  // -- talking to guji: only through the backend (backend.js), the server's or another's ----
  function answered(status) { return T("the studio answered {status}", { status: status }); }
  var backend = (window.gujiBackendFor || window.gujiHttpBackend)(TOKEN, answered);
  function say(text) {
    var m = $("message");
    m.textContent = text || "";
    m.hidden = !text;
  }
  function failed(e) { say(e && e.message ? e.message : String(e)); }
  // *text* as nodes, its runs of Chinese (and the drums' glyphs) marked lang="zh-Hant".
  function zh(text) {
    var frag = document.createDocumentFragment(), re = /[\u3000-\u9fff\uf900-\ufaff○□―·]+/g;
    var at = 0, m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > at) { frag.appendChild(document.createTextNode(text.slice(at, m.index))); }
      var span = document.createElement("span");
      span.setAttribute("lang", "zh-Hant");
      span.textContent = m[0];
      frag.appendChild(span);
      at = m.index + m[0].length;
    }
    if (at < text.length) { frag.appendChild(document.createTextNode(text.slice(at))); }
    return frag;
  }

  // -- the text ---------------------------------------------------------------------
  // Typing re-reads the text once it pauses for DEBOUNCE ms (each answer older than the
  // last question is dropped).
  var DEBOUNCE = 40, timer = 0, reading = 0, lastText = null, inputAt = 0;
  function textChanged() {
    inputAt = inputAt || performance.now();
    window.clearTimeout(timer);
    timer = window.setTimeout(readText, DEBOUNCE);
  }
  function readText() {
    var text = $("editor").value;
    if (text === lastText) { return; }
    lastText = text;
    var asked = ++reading;
    $("status").textContent = T("reading…");
    var started = performance.now();
    var call = state.doc ? backend.edit(state.doc, text)
                         : backend.paste(text);                  // named pasted-N.txt by the studio
    call.then(function (doc) {
      if (asked !== reading) { return; }
      showDocument(doc);
      var now = performance.now();
      window.gujiStudio.lastRead = { server: now - started, sinceKey: inputAt ? now - inputAt : null };
      inputAt = 0;
    }).catch(failed);
  }
  function addDocOption(doc) {
    var select = $("doc");
    var option = select.querySelector('option[value="' + doc.key + '"]');
    if (!option) {
      option = document.createElement("option");
      option.value = doc.key;
      select.appendChild(option);
    }
    option.textContent = doc.name + " (" + doc.key + ")";
    select.value = doc.key;
  }
  function showDocument(doc) {
    state.docs[doc.key] = doc;
    state.doc = doc.key;
    addDocOption(doc);
    say("");
    var n = doc.patterns.length;
    var k = doc.notices.length;
    var found = TN("{n} pattern found", "{n} patterns found", n, { n: n });
    var warned = TN("{n} warning", "{n} warnings", k, { n: k });
    $("status").textContent = doc.error ? T("1 error") :
      T("{patterns}, {warnings} ({encoding})", { patterns: found, warnings: warned, encoding: doc.encoding });
    showProblems(doc);
    showMarked(doc, $("editor").value);
    showFound(doc);
    showReadings();
    window.gujiStudio.document = doc;
  }
  function showProblems(doc) {
    var box = $("problems");
    box.textContent = "";
    if (doc.error) {
      var p = document.createElement("div");
      p.className = "problem error";
      p.setAttribute("data-line", doc.error.line);
      p.setAttribute("data-column", doc.error.column);
      p.textContent = T("error: {message}", { message: doc.error.headline });
      var pre = null;
      if (doc.error.caret) {
        pre = document.createElement("pre");
        pre.setAttribute("lang", "zh-Hant");
        pre.textContent = doc.error.caret;
        p.appendChild(pre);
      }
      box.appendChild(p);
      if (pre) {                          // the caret in view, on a narrow screen too
        var text = pre.firstChild, at = doc.error.caret.lastIndexOf("^"), r = document.createRange();
        r.setStart(text, at);
        r.setEnd(text, at + 1);
        pre.scrollLeft += r.getBoundingClientRect().left - pre.getBoundingClientRect().left - pre.clientWidth / 2;
      }
    }
    doc.notices.forEach(function (n) {
      var w = document.createElement("div");
      w.className = "problem warning";
      w.setAttribute("data-line", n.line);
      w.setAttribute("data-column", n.column);
      w.textContent = n.text;
      box.appendChild(w);
    });
  }
  // The text with each character classed: patterns (with their ids before them), the
  // strokes (lit when they sound), notes, the error and the warnings.
  function showMarked(doc, text) {
    var cls = new Array(text.length), stroke = {}, badge = {};
    function mark(from, to, name) {
      for (var i = Math.max(0, from); i < Math.min(to, text.length); i++) {
        cls[i] = cls[i] ? cls[i] + " " + name : name;
      }
    }
    doc.patterns.forEach(function (p, k) {
      var first = p.strokes[0][0], last = p.strokes[p.strokes.length - 1];
      mark(first, last[0] + last[1], "pattern");
      badge[first] = p.short + (p.variants.length ? " ~" + p.variants.map(function (v) { return v.witness; }).join(" ~") : "");
      p.strokes.forEach(function (s, i) { mark(s[0], s[0] + s[1], "stroke"); stroke[s[0]] = p.ref + "#" + i; });
      p.notes.forEach(function (n) { mark(n.offset, n.offset + n.text.length, "note"); });
    });
    doc.notices.forEach(function (n) { if (n.offset !== null) { mark(n.offset, n.offset + 1, "warn"); } });
    if (doc.error && doc.error.offset !== null) { mark(doc.error.offset, doc.error.offset + 1, "error"); }
    var out = $("marked"), frag = document.createDocumentFragment(), run = "", runCls;
    function flush() {
      if (!run) { return; }
      if (runCls) {
        var span = document.createElement("span");
        span.className = runCls;
        span.textContent = run;
        frag.appendChild(span);
      } else { frag.appendChild(document.createTextNode(run)); }
      run = "";
    }
    for (var i = 0; i < text.length; i++) {
      if (badge[i] !== undefined) {
        flush();
        var b = document.createElement("span");
        b.className = "pid";
        b.setAttribute("lang", "en");
        b.textContent = badge[i];
        frag.appendChild(b);
      }
      if (stroke[i] !== undefined || (cls[i] || "") !== (runCls || "") || (cls[i] && cls[i].indexOf("stroke") >= 0)) {
        flush();
        runCls = cls[i];
      }
      run += text[i];
      if (stroke[i] !== undefined) {
        var s = document.createElement("span");
        s.className = cls[i];
        s.setAttribute("data-text-stroke", stroke[i]);
        s.textContent = run;
        frag.appendChild(s);
        run = "";
      }
    }
    flush();
    out.textContent = "";
    out.appendChild(frag);
  }
  function showFound(doc) {
    var list = $("found");
    list.textContent = "";
    doc.patterns.forEach(function (p) {
      var li = document.createElement("li");
      li.setAttribute("data-id", p.id);
      li.innerHTML = "<code></code> <span lang=\"zh-Hant\"></span> ";
      li.querySelector("code").textContent = p.id;
      li.querySelector("span").textContent = p.label + " " + p.notation;
      li.appendChild(document.createTextNode(T("at line {line}, column {column}",
                                                { line: p.line, column: p.column })));
      if (p.variants.length || p.unread.length) {
        var ul = document.createElement("ul");
        p.variants.forEach(function (v) {
          var w = document.createElement("li");
          w.innerHTML = "<span class=\"what\"></span> <span lang=\"zh-Hant\"></span>: <code></code> <span lang=\"zh-Hant\"></span>";
          w.querySelector(".what").textContent = T("witness");
          w.children[1].textContent = v.witness;
          w.children[2].textContent = v.id;
          w.children[3].textContent = v.notation;
          ul.appendChild(w);
        });
        p.unread.forEach(function (n) {
          var w = document.createElement("li");
          w.textContent = T("note at line {line}, column {column} not read: {reason}",
                            { line: n.line, column: n.column, reason: n.reason });
          ul.appendChild(w);
        });
        li.appendChild(ul);
      }
      list.appendChild(li);
    });
  }

  // -- the readings -------------------------------------------------------------------
  function readingGroups() {
    var groups = [];
    Object.keys(state.docs).forEach(function (key) {
      var d = state.docs[key];
      groups.push({ title: d.name, patterns: d.patterns });
    });
    state.editions.forEach(function (e) { groups.push({ title: e.title + " (" + e.slug + ")", patterns: e.patterns }); });
    return groups;
  }
  function showReadings() {
    var box = $("readings");
    box.textContent = "";
    readingGroups().forEach(function (g, gi) {
      if (!g.patterns.length) { return; }
      var fs = document.createElement("fieldset");
      fs.className = "readings-group";
      var legend = document.createElement("legend");
      legend.appendChild(zh(g.title));
      fs.appendChild(legend);
      g.patterns.forEach(function (p) {
        addChoice(fs, p.ref, p.id, p.label);
        p.variants.forEach(function (v) { addChoice(fs, v.ref, v.id, p.label + " ~" + v.witness); });
      });
      box.appendChild(fs);
    });
    state.chosen = state.chosen.filter(function (ref) { return box.querySelector('input[value="' + cssEscape(ref) + '"]'); });
    syncChoices();
  }
  function cssEscape(s) { return s.replace(/["\\]/g, "\\$&"); }
  function addChoice(parent, ref, id, label) {
    var l = document.createElement("label");
    var box = document.createElement("input");
    box.type = "checkbox";
    box.value = ref;
    box.setAttribute("data-id", id);
    box.addEventListener("change", function () {
      var at = state.chosen.indexOf(ref);
      if (box.checked && at < 0) { state.chosen.push(ref); }
      if (!box.checked && at >= 0) { state.chosen.splice(at, 1); }
      syncChoices();
      refreshView();
    });
    var text = document.createElement("span");
    text.setAttribute("lang", "zh-Hant");
    text.textContent = label;
    l.appendChild(box);
    l.appendChild(document.createTextNode(" " + id + " "));
    l.appendChild(text);
    parent.appendChild(l);
  }
  function syncChoices() {
    document.querySelectorAll("#readings input[type=checkbox]").forEach(function (b) {
      b.checked = state.chosen.indexOf(b.value) >= 0;
    });
    $("chosen").textContent = state.chosen.length ? T("Chosen: {readings}", { readings: state.chosen.map(function (ref, i) {
      var b = document.querySelector('#readings input[value="' + cssEscape(ref) + '"]');
      return LETTERS[i] + " " + (b ? b.getAttribute("data-id") : ref);
    }).join(T(", ")) }) : T("Nothing chosen yet.");
  }

  // -- timing and the view ---------------------------------------------------------------
  function request() {
    var drums = $("drums").value.split(":");
    var r = { readings: state.chosen.slice(),
              timing: { rite: $("rite").value, interval: $("interval").value,
                        repeat: $("repeat").value, count_in: $("count-in").value } };
    if (drums[0] === "mute") { r.mute = drums[1]; }
    if (drums[0] === "solo") { r.solo = drums[1]; }
    return r;
  }
  var viewAsked = 0;
  function refreshView() {
    player.stop();
    if (!state.chosen.length) {
      state.view = null;
      $("source").textContent = ""; $("timeline").textContent = ""; $("alignments").textContent = "";
      $("switch").textContent = ""; $("command").textContent = "";
      return Promise.resolve(null);
    }
    var asked = ++viewAsked, req = request();
    return backend.view(req).then(function (view) {
      if (asked !== viewAsked) { return null; }
      say("");
      state.view = view;
      state.request = req;
      $("source").innerHTML = view.source_svg;
      $("timeline").innerHTML = view.timeline_svg;
      var al = $("alignments");
      al.textContent = "";
      view.alignments.forEach(function (a) {
        var h = document.createElement("h3");
        h.textContent = T("A against {letter}: {summary}", { letter: a.letter, summary: a.summary });
        var div = document.createElement("div");
        div.className = "scroll";
        div.tabIndex = 0;
        div.setAttribute("role", "region");
        div.setAttribute("aria-label", T("A against {letter}, stroke by stroke", { letter: a.letter }));
        div.setAttribute("lang", "zh-Hant");
        div.innerHTML = a.table;
        al.appendChild(h);
        al.appendChild(div);
      });
      showSwitch(view);
      showSchedule();
      player.load(view, req);
      return view;
    }).catch(failed);
  }
  function showSwitch(view) {
    var box = $("switch");
    box.textContent = "";
    view.readings.forEach(function (r, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = r.letter + ": " + r.id;
      b.setAttribute("aria-pressed", i === player.active ? "true" : "false");
      b.setAttribute("aria-keyshortcuts", r.letter);
      b.addEventListener("click", function () { player.switchTo(i); });
      box.appendChild(b);
    });
  }
  function showSchedule() {
    var pre = $("schedule"), view = state.view;
    var mode = view && view.modes[state.mode];
    pre.hidden = !mode;
    pre.textContent = "";
    if (mode) { pre.appendChild(zh(mode.schedule.join("\n"))); }
    showCommand();
  }
  // The command that writes what is chosen (as a WAV), as the exports run it.
  function showCommand() {
    var commands = state.view && state.view.commands;
    $("command").textContent = "";
    if (commands) { $("command").appendChild(zh(commands[state.mode] || commands.ab)); }
  }

  // -- hearing them: one clock ---------------------------------------------------------
  // guji's 16-bit WAV as an AudioBuffer, sample for sample (n / 32768, as soundfile and
  // libsndfile read it; decodeAudioData would scale by 1/32767 and resample).
  function wavBuffer(ctx, data) {
    var view = new DataView(data), at = 12, channels = 0, rate = 0, bits = 0, body = null;
    if (view.getUint32(0, false) !== 0x52494646 || view.getUint32(8, false) !== 0x57415645) {
      throw new Error(T("the studio's audio is not a WAV file"));
    }
    while (at + 8 <= data.byteLength) {
      var id = view.getUint32(at, false), size = view.getUint32(at + 4, true);
      if (id === 0x666d7420) {            // "fmt "
        channels = view.getUint16(at + 10, true);
        rate = view.getUint32(at + 12, true);
        bits = view.getUint16(at + 22, true);
      } else if (id === 0x64617461) {     // "data"
        body = [at + 8, Math.min(size, data.byteLength - at - 8)];
        break;
      }
      at += 8 + size + (size & 1);
    }
    if (!body || bits !== 16 || !channels) { throw new Error(T("the studio's audio is not 16-bit PCM")); }
    var frames = Math.floor(body[1] / (2 * channels));
    var buffer = ctx.createBuffer(channels, Math.max(frames, 1), rate);
    var pcm = new Int16Array(data, body[0], frames * channels);
    for (var c = 0; c < channels; c++) {
      var out = buffer.getChannelData(c);
      for (var i = 0; i < frames; i++) { out[i] = pcm[i * channels + c] / 32768; }
    }
    return buffer;
  }

  var player = {
    ctx: null, buffers: [], modeBuffers: {}, sources: [], gains: [], active: 0, startAt: 0,
    playing: false, loopFrames: 0, switches: [], frame: 0, lit: [], log: [],
    context: function () {
      if (!this.ctx) {
        var Ctx = window.AudioContext || window.webkitAudioContext;
        this.ctx = new Ctx({ sampleRate: state.view ? state.view.rate : 48000, latencyHint: "interactive" });
      }
      return this.ctx;
    },
    // Everything the page plays passes here on its way out (a tap may listen to it).
    output: function () {
      if (!this.master) {
        this.master = this.ctx.createGain();
        this.master.connect(this.ctx.destination);
      }
      return this.master;
    },
    load: function (view, req) {
      var self = this, ctx = this.context();
      this.view = view;
      this.active = Math.min(this.active, view.readings.length - 1);
      this.buffers = [];
      this.modeBuffers = {};
      this.ready = Promise.all(view.readings.map(function (r, i) {
        return backend.audio(req, i).then(function (data) { self.buffers[i] = wavBuffer(ctx, data); });
      }));
      this.ready.catch(failed);
      return this.ready;
    },
    modeBuffer: function (mode) {
      var self = this;
      if (!this.modeBuffers[mode]) {
        this.modeBuffers[mode] = backend.modeAudio(state.request, mode).then(function (data) { return wavBuffer(self.context(), data); });
      }
      return this.modeBuffers[mode];
    },
    // The graph of one playing: every reading's buffer from frame 0 at *startAt*, through a
    // gain of its own that is 1 for the reading sounding and 0 for the others, switched on
    // exact frames (*switches*). The same for the page's clock and an offline rendering.
    build: function (ctx, buffers, startAt, switches, first) {
      var rate = ctx.sampleRate, sources = [], gains = [];
      var out = ctx === this.ctx ? this.output() : ctx.destination;
      buffers.forEach(function (buffer, i) {
        var src = ctx.createBufferSource(), gain = ctx.createGain();
        src.buffer = buffer;
        gain.gain.setValueAtTime(i === first ? 1 : 0, 0);
        switches.forEach(function (s) {
          gain.gain.setValueAtTime(i === s.to ? 1 : 0, startAt + (s.frame - 0.5) / rate);
        });
        src.connect(gain);
        gain.connect(out);
        src.start(startAt);
        sources.push(src);
        gains.push(gain);
      });
      return { sources: sources, gains: gains };
    },
    play: function () {
      var self = this;
      if (!this.view) { return Promise.resolve(); }
      var ctx = this.context();
      if (this.playing && ctx.state === "suspended") { return ctx.resume().then(function () { self.follow(); }); }
      if (this.playing) { return ctx.suspend(); }
      var pressed = performance.now();
      var mode = state.mode;
      var ready = mode === "ab" || this.view.readings.length < 2 ? this.ready.then(function () { return self.buffers; })
        : this.modeBuffer(mode).then(function (b) { return [b]; });
      return Promise.all([ready, ctx.resume()]).then(function (got) {
        var buffers = got[0];
        var rate = ctx.sampleRate;
        self.playBuffers = buffers;
        self.playMode = buffers.length === 1 && mode !== "ab" ? mode : "ab";
        self.loopFrames = $("loop").checked ? self.loopLength() : 0;
        // Start 40 ms ahead, on a frame whose time is exact in binary (a multiple of the rate's
        // odd part: 375 at 48 kHz, k/128 s): Chromium starts a source between samples when
        // when × rate is not a whole number, and would interpolate every sample (by ~1e-13).
        var odd = rate;
        while (odd % 2 === 0) { odd /= 2; }
        self.startFrame = Math.ceil((Math.round(ctx.currentTime * rate) + Math.round(0.04 * rate)) / odd) * odd;
        self.startAt = self.startFrame / rate;
        self.switches = [];
        self.first = self.playMode === "ab" ? self.active : 0;
        var g = self.build(ctx, buffers, self.startAt, [], self.first);
        self.sources = g.sources;
        self.gains = g.gains;
        self.passes = 1;
        // late: the audio thread passed the start before it was scheduled (too loaded)
        self.lateStart = Math.round(ctx.currentTime * rate) >= self.startFrame - 128;
        self.playing = true;
        self.log = [];
        if (self.loopFrames) { self.extendLoop(); }
        else { self.sources[0].onended = function () { if (self.sources === g.sources) { self.ended(); } }; }
        window.gujiStudio.playLatency = { pressed: pressed, startAt: self.startAt,
          scheduledAt: performance.now(), contextTime: ctx.currentTime,
          outputLatency: ctx.outputLatency || 0, baseLatency: ctx.baseLatency || 0 };
        $("play").textContent = T("Pause");
        self.follow();
      });
    },
    // Looping: each pass plays the whole of each reading's buffer from the pass's first
    // frame, so the last stroke rings on into the next pass (a looped source would cut its
    // decay at the loop's end). The passes are scheduled 2 loops (and 1 s) ahead, from each
    // animation frame and a timer (animation frames stop in a hidden tab).
    extendLoop: function () {
      var self = this, ctx = this.ctx, rate = ctx.sampleRate;
      if (!this.playing || !this.loopFrames) { return; }
      var ahead = ctx.currentTime + 2 * this.loopFrames / rate + 1;
      while ((this.startFrame + this.passes * this.loopFrames) / rate < ahead) {
        var at = (this.startFrame + this.passes * this.loopFrames) / rate;
        this.playBuffers.forEach(function (buffer, i) {
          var src = ctx.createBufferSource();
          src.buffer = buffer;
          src.connect(self.gains[i]);
          src.start(at);
          src.onended = function () {
            var k = self.sources.indexOf(src);
            if (k >= 0) { self.sources.splice(k, 1); }
          };
          self.sources.push(src);
        });
        this.passes++;
      }
      window.clearTimeout(this.loopTimer);
      this.loopTimer = window.setTimeout(function () { self.extendLoop(); }, 500);
    },
    loopLength: function () {
      var v = this.view, longest = 0;
      v.readings.forEach(function (r) { longest = Math.max(longest, r.duration); });
      return Math.round(longest * v.rate);
    },
    stop: function () {
      this.sources.forEach(function (s) { try { s.stop(); } catch (e) { /* not started */ } });
      this.sources = [];
      this.playing = false;
      window.clearTimeout(this.loopTimer);
      if (this.ctx && this.ctx.state === "suspended") { this.ctx.resume(); }
      $("play").textContent = T("Play");
      this.light([]);
    },
    ended: function () { this.playing = false; $("play").textContent = T("Play"); this.light([]); },
    // Frames since the start that are heard now: the audio clock, less its output latency.
    heard: function () {
      var ctx = this.ctx, t = ctx.currentTime - (ctx.outputLatency || 0);
      return { time: t, frame: (t - this.startAt) * ctx.sampleRate };
    },
    switchTo: function (i) {
      if (!this.view || i >= this.view.readings.length) { return null; }
      var previous = this.active;
      this.active = i;
      document.querySelectorAll("#switch button").forEach(function (b, k) {
        b.setAttribute("aria-pressed", k === i ? "true" : "false");
      });
      if (!this.playing || this.playMode !== "ab" || previous === i) { return null; }
      var ctx = this.ctx, rate = ctx.sampleRate;
      // the next stroke of any reading far enough ahead to be scheduled surely (40 ms: the
      // audio thread renders ahead of currentTime by at most a callback's buffer)
      var now = Math.round(ctx.currentTime * rate) - this.startFrame + Math.round(0.04 * rate);
      var frame = this.nextOnset(now);
      if (frame === null) { return null; }
      var at = this.startAt + (frame - 0.5) / rate;
      this.gains.forEach(function (g, k) { g.gain.setValueAtTime(k === i ? 1 : 0, at); });
      // late: the audio thread had already passed the frame (a machine too loaded to keep
      // time); the gains then changed as soon as it could
      var s = { frame: frame, to: i, from: previous,
                late: Math.round(ctx.currentTime * rate) - this.startFrame >= frame - 128 };
      this.switches.push(s);
      return s;
    },
    nextOnset: function (after) {
      var loop = this.loopFrames, base = 0, best = null;
      if (loop) { base = Math.floor(after / loop) * loop; }
      for (var round = 0; round < 2; round++) {
        this.view.readings.forEach(function (r) {
          r.onsets.forEach(function (f) {
            var at = base + f;
            if (at > after && (best === null || at < best)) { best = at; }
          });
        });
        if (best !== null || !loop) { break; }
        base += loop;
      }
      return best;
    },
    // The stroke heard now in each part that sounds, as the keys of the drawings' shapes.
    soundingKeys: function (frame) {
      var v = this.view, rate = v.rate, keys = [];
      if (frame < 0) { return keys; }
      // where the pass is (a loop starts again every loopFrames); the switches are frames
      // counted from the start, as the gains were switched
      var t = (this.loopFrames ? frame % this.loopFrames : frame) / rate, parts;
      if (this.playMode === "ab") {
        var who = this.first;
        this.switches.forEach(function (s) { if (s.frame <= frame) { who = s.to; } });
        parts = v.readings[who].follow;
      } else { parts = v.modes[this.playMode].follow; }
      parts.forEach(function (p) {
        var i = Math.floor((t - p.start) / p.interval + 1e-9);
        if (i < p.count_in || i >= p.events) { return; }
        keys.push(p.row + "-" + p.strokes[(i - p.count_in) % p.strokes.length]);
      });
      return keys;
    },
    follow: function () {
      var self = this;
      window.cancelAnimationFrame(this.frame);
      var shown = null;
      function step() {
        if (!self.playing) { return; }
        var h = self.heard(), keys = self.soundingKeys(h.frame), key = keys.join(" ");
        if (key !== shown) {
          shown = key;
          self.light(keys);
          self.log.push({ time: h.time, frame: h.frame, keys: keys, latency: self.ctx.outputLatency || 0 });
        }
        if (self.loopFrames) { self.extendLoop(); }
        if (self.ctx.state === "running") { self.frame = window.requestAnimationFrame(step); }
      }
      step();
    },
    light: function (keys) {
      this.lit.forEach(function (el) { el.classList.remove("sounding"); });
      this.lit = [];
      var self = this, v = this.view;
      keys.forEach(function (key) {
        document.querySelectorAll('[data-stroke="' + key + '"]').forEach(function (el) {
          el.classList.add("sounding"); self.lit.push(el);
        });
        var parts = key.split("-"), r = v && v.readings[+parts[0]];
        if (r) {
          document.querySelectorAll('[data-text-stroke="' + cssEscape(r.ref + "#" + parts[1]) + '"]').forEach(function (el) {
            el.classList.add("sounding"); self.lit.push(el);
          });
        }
      });
      // in words: "A · stroke 5 · □ 鼓"
      var said = keys.map(function (key) {
        var parts = key.split("-"), r = v && v.readings[+parts[0]], d = r && r.drums[+parts[1]];
        return d ? T("{letter} · stroke {n} · {glyph} {drum}", { letter: r.letter, n: +parts[1] + 1,
                                                               glyph: d[0], drum: d[1] }) : key;
      });
      $("sounding").textContent = "";
      if (said.length) { $("sounding").appendChild(zh(T("sounding: {strokes}", { strokes: said.join(T(", ")) }))); }
    },
    // The same schedule rendered offline (same graph, same switches): what the page plays.
    renderOffline: function () {
      var v = this.view, rate = v.rate, buffers = this.playBuffers || this.buffers;
      var frames = 0;
      buffers.forEach(function (b) { frames = Math.max(frames, b.length); });
      var off = new OfflineAudioContext(2, frames, rate);
      this.build(off, buffers, 0, this.switches, this.first);
      return off.startRendering();
    }
  };

  // -- exports -------------------------------------------------------------------------
  function exportKind(kind) {
    if (!state.chosen.length) { say(T("choose a reading first")); return Promise.resolve(); }
    $("status").textContent = T("writing {kind}…", { kind: kind });
    return backend.exportFile(state.request || request(), kind, state.mode).then(function (made) {
      var a = document.createElement("a");
      a.href = URL.createObjectURL(made.blob);
      a.download = made.name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      $("status").textContent = T("wrote {name}", { name: a.download });
    }).catch(failed);
  }

  // -- wiring ----------------------------------------------------------------------------
  function wire() {
    $("editor").addEventListener("input", textChanged);
    $("doc").addEventListener("change", function () {
      var key = $("doc").value;
      state.doc = key || null;
      lastText = null;
      $("editor").value = "";
      if (key) {                  // its text, read again: its marks and patterns shown
        backend.text(key).then(function (d) {
          $("editor").value = d.text;
          readText();
        }).catch(failed);
      }
    });
    $("open").addEventListener("change", function () {
      var file = $("open").files[0];
      if (!file) { return; }
      file.arrayBuffer().then(function (data) {
        return backend.open(file.name, data);
      }).then(function (doc) {
        $("editor").value = doc.text;
        lastText = doc.text;
        showDocument(doc);
      }).catch(failed);
    });
    $("play").addEventListener("click", function () { player.play().catch(failed); });
    $("stop").addEventListener("click", function () { player.stop(); });
    ["rite", "repeat", "count-in", "drums", "loop"].forEach(function (id) {
      $(id).addEventListener("change", refreshView);
    });
    $("interval").addEventListener("change", function () {
      $("bpm").value = Math.round(60 / parseFloat($("interval").value) * 1000) / 1000;
      refreshView();
    });
    $("bpm").addEventListener("change", function () {
      $("interval").value = Math.round(60 / parseFloat($("bpm").value) * 1e6) / 1e6;
      refreshView();
    });
    document.querySelectorAll("input[name=mode]").forEach(function (r) {
      r.addEventListener("change", function () { state.mode = r.value; player.stop(); showSchedule(); });
    });
    document.querySelectorAll("#exports button").forEach(function (b) {
      b.addEventListener("click", function () { exportKind(b.getAttribute("data-kind")); });
    });
    document.addEventListener("keydown", function (e) {
      var tag = (e.target.tagName || "").toLowerCase();
      // Space is a control's own (it ticks a checkbox, picks a radio button, presses a
      // button); elsewhere it plays and pauses
      var control = ["textarea", "input", "select", "button"].indexOf(tag) >= 0 || e.target.isContentEditable;
      if (e.key === " ") {
        if (!control) { e.preventDefault(); player.play().catch(failed); }
        return;
      }
      if (tag === "textarea" || tag === "input" && e.target.type !== "checkbox" && e.target.type !== "radio" || tag === "select") { return; }
      var k = e.key.toUpperCase(), i = LETTERS.indexOf(k);
      if (i < 0 && /^[1-8]$/.test(e.key)) { i = +e.key - 1; }
      if (i >= 0 && k.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && player.view &&
          i < player.view.readings.length) { e.preventDefault(); player.switchTo(i); }
    });
  }

  window.gujiStudio = { state: state, player: player, refreshView: refreshView, readText: readText,
                        exportKind: exportKind, backend: backend };
  wire();
  backend.state().then(function (s) {
    state.editions = s.editions;
    s.documents.forEach(function (d) { state.docs[d.key] = d; addDocOption(d); });
    if (!s.documents.length) {
      showReadings();
      $("doc").value = "";
      window.gujiStudio.ready = true;
      return null;
    }
    var d = s.documents[0];                    // the texts' bodies come one at a time
    return backend.text(d.key).then(function (t) {
      state.doc = d.key;
      $("editor").value = t.text;
      lastText = t.text;
      showDocument(d);
      window.gujiStudio.ready = true;
    });
  }).catch(failed);
})();
