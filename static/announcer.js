// The room hears the clock: the speaker screen plays a sound and speaks when a level
// starts, N minutes before its end, at a break and its end, at a colour-up, at hand-for-hand, at the
// bubble, at the final table, with two players left and when the director types an announcement.
// Each event is configured on the screen (on/off, a sound, spoken or not, a text of one's own).
// The sounds are synthesised here (Web Audio); the words are read by the browser's speech synthesis
// in the page's language, with the numbers in words (written by the server), where the TV's browser
// has a voice for it, and left out where it has none. An event fires once: what was announced is remembered for the
// page's session, so a reconnect or a reload never says it again. The page keeps its own log
// (#announcer-log): what fired, its text, whether it was spoken.
window.TDMAnnouncer = function (opts) {
  const cfg = opts.sounds || { warn_minutes: 1, events: {} }, T = opts.T, lang = (opts.lang || "en").slice(0, 2);
  const STORE = "tdm-announced:" + (opts.key || "preview");
  const logBox = opts.log;
  let memory;
  try { memory = JSON.parse(sessionStorage.getItem(STORE) || "{}"); } catch (e) { memory = {}; }
  memory.fired = memory.fired || [];
  memory.log = memory.log || [];
  const fired = new Set(memory.fired);
  const prev = {};
  let audio = null;

  function save() {
    memory.fired = [...fired].slice(-500);
    memory.log = memory.log.slice(-100);
    try { sessionStorage.setItem(STORE, JSON.stringify(memory)); } catch (e) { /* private mode: this page only */ }
  }
  function showLog(entry) {
    if (!logBox) return;
    const li = document.createElement("li");
    li.dataset.event = entry.event; li.dataset.spoken = String(entry.spoken); li.dataset.sound = entry.sound;
    li.textContent = entry.text;
    logBox.append(li);
  }
  memory.log.forEach(showLog);

  // --- numbers in words --------------------------------------------------------------------
  // The server writes them (num2words, in the speaker's language): every number of the screen's
  // structures, and the sentences whose words follow a number's plural (the warning, each break).
  // A number it did not write (a structure changed since the page loaded, until the page's next
  // look at its configuration reloads it) is said in digits, which the voice reads in its language.
  const S = opts.spoken || { numbers: {}, breaks: {} };
  function words(n) {
    const said = (S.numbers || {})[String(n)];
    return said === undefined ? String(n) : said;
  }
  const fill = (s, vals) => s.replace(/\{(\w+)\}/g, (_, k) => (k in vals ? vals[k] : "{" + k + "}"));

  // --- sounds ---------------------------------------------------------------------------------
  const TONES = {
    chime: [[880, 0, 0.25, "sine"], [1320, 0.25, 0.35, "sine"]],
    bell: [[660, 0, 1.2, "sine"], [1320, 0, 0.8, "sine"]],
    beep: [[1000, 0, 0.2, "square"]],
    horn: [[220, 0, 0.6, "sawtooth"], [277, 0, 0.6, "sawtooth"]],
    triple: [[660, 0, 0.15, "sine"], [880, 0.18, 0.15, "sine"], [1100, 0.36, 0.25, "sine"]],
  };
  function ctx() {
    try {
      if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
      return audio;
    } catch (e) { return null; }
  }
  function play(name) {
    // the second speaker (another language, opts.second) plays nothing: it waits for the first's sound
    if (opts.second) return TONES[name] ? Math.max(...TONES[name].map(([, at, len]) => at + len)) * 1000 + 100 : 100;
    const tones = TONES[name], a = tones && ctx();
    if (!a) return 0;
    const t0 = a.currentTime + 0.02;
    let end = 0;
    tones.forEach(([freq, at, len, type]) => {
      const o = a.createOscillator(), g = a.createGain();
      o.type = type; o.frequency.value = freq;
      g.gain.setValueAtTime(0.25, t0 + at);
      g.gain.exponentialRampToValueAtTime(0.001, t0 + at + len);
      o.connect(g); g.connect(a.destination);
      o.start(t0 + at); o.stop(t0 + at + len + 0.05);
      end = Math.max(end, at + len);
    });
    return end * 1000;
  }
  function voice() {
    const synth = window.speechSynthesis;
    if (!synth || typeof SpeechSynthesisUtterance === "undefined") return null;
    return synth.getVoices().find((v) => (v.lang || "").toLowerCase().startsWith(lang)) || null;
  }
  function say(text, delay) {
    const v = voice();
    if (!v || !text) return false;
    setTimeout(() => {
      const u = new SpeechSynthesisUtterance(text);
      u.voice = v; u.lang = v.lang;
      window.speechSynthesis.speak(u);
    }, delay + 150);
    return true;
  }

  // An event announced now: its sound, then its words, and a line of the page's log.
  function fire(event, key, text, vals) {
    if (key && fired.has(key)) return;
    if (key) fired.add(key);
    const c = (cfg.events || {})[event];
    if (key && (!c || !c.on)) { save(); return; }
    const spokenText = c && c.text ? fill(c.text, vals || {}) : text;
    const sound = c ? c.sound : "chime";
    const delay = sound !== "none" ? play(sound) : 0;
    const spoken = !!(!c || c.speak) && say(spokenText, delay);
    const entry = { event, text: spokenText, spoken, sound, at: Date.now() };
    memory.log.push(entry);
    showLog(entry);
    save();
  }

  function levelVals(c) {
    return { level: words(c.level_number || 1), small: words(c.small_blind || 0), big: words(c.big_blind || 0), ante: words(c.ante || 0) };
  }
  function levelText(c, afterBreak) {
    const v = levelVals(c);
    // whole sentences, each translated as one
    if (afterBreak) return fill(c.ante ? T.sayBreakEndLevelAnte : T.sayBreakEndLevel, v);
    return fill(c.ante ? T.sayLevelAnte : T.sayLevel, v);
  }

  // A new state of the tournament: what changed since the last one is announced. The first state
  // a page sees is only remembered (a page that opens says nothing of what happened before).
  function observe(s) {
    const c = s.clock || {}, tid = s.tournament && s.tournament.id;
    if (!tid) return;
    const before = prev[tid];
    const now = {
      item: c.item_index, brk: !!c.is_break, h4h: c.status === "HAND_FOR_HAND", players: s.players_left, tables: s.tables_in_play,
      ann: (s.announcements || []).slice(), running: s.tournament.status === "RUNNING",
    };
    prev[tid] = now;
    if (!before || !now.running) return;
    const k = tid + ":";
    if (now.item !== before.item && c.status !== "NOT_STARTED") {
      if (now.brk) {
        fire("break_start", k + "break:" + now.item, (S.breaks || {})[String(c.minutes)] || T.sayBreakNow, { minutes: words(c.minutes || 0) });
        const chips = c.color_up || (c.removes_denominations || []).map(words).join(", ");
        if (chips) fire("colour_up", k + "colour:" + now.item, fill(T.sayColourUp, { chips }), { chips });
      } else if (before.brk) {
        fire("break_end", k + "breakend:" + now.item, levelText(c, true), levelVals(c));
      } else {
        fire("level", k + "level:" + now.item, levelText(c), levelVals(c));
      }
    }
    if (now.h4h && !before.h4h) fire("hand_for_hand", k + "h4h:" + now.players, T.sayH4h);
    const paid = s.places_paid;
    if (paid && before.players > paid && now.players <= paid && now.players > 0) fire("bubble", k + "bubble", T.sayBubble);
    if (before.tables > 1 && now.tables === 1 && now.players > 1) fire("final_table", k + "final", T.sayFinal);
    if (before.players > 2 && now.players === 2) fire("last_two", k + "lasttwo", T.sayLastTwo);
    now.ann.filter((a) => !before.ann.includes(a)).forEach((a) => fire("announcement", k + "ann:" + a, a, { text: a }));
  }

  // Each tick: N minutes before the level's end (N: warn_minutes), once a level.
  function tick(s, secondsLeft) {
    const c = s && s.clock;
    if (!c || c.status !== "RUNNING" || c.is_break || secondsLeft === null || secondsLeft === undefined) return;
    const n = cfg.warn_minutes || 1, at = n * 60;
    if (secondsLeft <= at && secondsLeft > at - 5) {
      fire("minutes_left", s.tournament.id + ":warn:" + c.item_index, S.warning || T.sayLevelEnding, { minutes: words(n) });
    }
  }

  // The test button: unlocks the TV's audio (a browser plays nothing before a press) and says a
  // sample, the level now shown.
  function test(s) {
    ctx();
    const c = (s && s.clock) || { level_number: 1, small_blind: 100, big_blind: 200 };
    fire("test", null, fill(T.sayTest, levelVals(c)));
  }

  return { observe, tick, test, words };
};
