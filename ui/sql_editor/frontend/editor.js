// The SQL editor component: Ace, plus the Streamlit component protocol in plain JavaScript.
//
// The editor keeps its text in the browser and hands it to Python only on an action (run,
// format), on Ctrl+Enter, on a debounce after typing stops, and when it asks for completions:
// typing does not rerun the page on every keystroke. Completion candidates come from the gateway's
// engine (the one REST's complete-statement uses), one request per completion context, cached here:
// with fetch() when Python hands over a session credential (args.completion_api): a POST to the route on
// Streamlit's own server (ui/completion_route.py, same origin, the default) or a GET of REST's
// complete-statement; else, visibly, through a Streamlit rerun (setComponentValue -> script run ->
// args.completions), 150-330 ms.
(function () {
  "use strict";

  // --- Streamlit component protocol (what streamlit-component-lib does, without React) -------
  function send(type, data) {
    window.parent.postMessage(Object.assign({ isStreamlitMessage: true, type: type }, data || {}), "*");
  }
  function setFrameHeight() {
    send("streamlit:setFrameHeight", { height: document.body.scrollHeight + 4 });
  }

  const nonce = Math.random().toString(36).slice(2, 8);
  let counter = 0;
  // Streamlit keeps only a component's latest value, and values sent while a rerun is busy
  // collapse into one: so every value carries the last few events, and Python acts on the
  // ones it has not seen yet. A run right before a completion request is never lost.
  const recent = [];
  let currentTab = null;
  function post(value) {
    recent.push(value);
    while (recent.length > 6) recent.shift();
    send("streamlit:setComponentValue", { value: { events: recent.slice(), dict_fp: dictFp, tab: currentTab },
                                           dataType: "json" });
  }

  function emit(action, extra) {
    const selection = editor.getSelectionRange();
    const doc = editor.session.doc;
    const value = Object.assign({
      id: nonce + "-" + (++counter),
      action: action,
      text: editor.getValue(),
      cursor: doc.positionToIndex(editor.getCursorPosition()),
      selection_start: doc.positionToIndex(selection.start),
      selection_end: doc.positionToIndex(selection.end),
    }, extra || {});
    value.tab = currentTab;
    if (action !== "change" && debounceTimer) { clearTimeout(debounceTimer); debounceTimer = null; }
    lastSentText = value.text;
    if (/^run_/.test(action)) { localRunId = value.id; hideLastResult(true); showRunning(true, 0); }
    sentTexts.push({ id: value.id, text: value.text });
    while (sentTexts.length > 20) sentTexts.shift();
    post(value);
  }

  // The text Python has acted on last (for tests: a draft is saved once Python has it).
  const sentTexts = [];
  let savedText = null;
  window.sqlEditorSaved = function () { return savedText; };
  window.sqlEditorDictionary = function () { return dictionary; };
  window.sqlEditorTab = function () { return currentTab; };  // null in the start-up editor (ui/startup.py)

  // --- the running state, shown here at the click (before Python's rerun draws it) -------------
  // From the click until Python has seen it, the page's result area (st.container key "editor_result")
  // is hidden: the last result must never look like the answer to the statement just sent. Python
  // draws the result area before this component, so when the component hears back the area already
  // shows the new run. Cleared also when this frame goes away, and after PENDING_MAX_MS at worst.
  const PENDING_CLASS = "wb-editor-run-pending", PENDING_MAX_MS = 20000;
  let pendingTimer = null;
  function hostDocument() {
    try { return window.parent.document; } catch (e) { return null; }  // another origin: nothing to hide
  }
  function hideLastResult(on) {
    const host = hostDocument();
    if (!host || !host.body) return;
    if (on && !host.getElementById("wb-editor-run-pending-style")) {
      const style = host.createElement("style");
      style.id = "wb-editor-run-pending-style";
      style.textContent = "body." + PENDING_CLASS + " .st-key-editor_result { visibility: hidden; }";
      host.head.appendChild(style);
    }
    host.body.classList.toggle(PENDING_CLASS, !!on);
    if (pendingTimer) { clearTimeout(pendingTimer); pendingTimer = null; }
    if (on) pendingTimer = setTimeout(function () { hideLastResult(false); }, PENDING_MAX_MS);
  }
  window.addEventListener("pagehide", function () { hideLastResult(false); });
  let localRunId = null;
  let runningSince = null;
  let runningTimer = null;
  function showRunning(on) {
    const badge = document.getElementById("status");
    if (on) {
      if (runningSince === null) runningSince = Date.now();
      badge.style.display = "inline-block";
      const tick = function () {
        badge.textContent = "\u23F3 Running\u2026 " + ((Date.now() - runningSince) / 1000).toFixed(1) + " s";
      };
      tick();
      if (!runningTimer) runningTimer = setInterval(tick, 100);
    } else {
      runningSince = null;
      if (runningTimer) { clearInterval(runningTimer); runningTimer = null; }
      badge.style.display = "none";
    }
  }

  // --- the editor --------------------------------------------------------------------------
  ace.config.set("basePath", "ace");
  const editor = ace.edit("editor", {
    mode: "ace/mode/sql",
    theme: "ace/theme/sqlserver",
    fontSize: 14,
    fontFamily: "'DejaVu Sans Mono', 'Source Code Pro', Menlo, Consolas, monospace",
    showPrintMargin: false,
    enableBasicAutocompletion: true,
    enableLiveAutocompletion: true,
    enableSnippets: false,
    tabSize: 2,
    useSoftTabs: true,
    wrap: false,
    minLines: 8,
  });
  window.sqlEditor = editor;  // for end-to-end tests and the browser console

  let knownVersion = -1;
  let height = 240;
  let debounceTimer = null;
  let debounceMs = 800;
  let lastSentText = null;

  // --- completion ------------------------------------------------------------------------------
  // The session's dictionary (tables, views, databases, catalogs, functions with signatures, table
  // functions, keywords) is handed over once per change (args.dictionary, fingerprint args.dict_fp)
  // and kept here: the popups that do not depend on the statement (tables after FROM, USE) need no
  // round trip. Every other context asks Python's completion engine (the one REST uses) once and
  // keeps the answer.
  let dictionary = null;
  let dictFp = null;
  const columnCache = new Map();       // lower-case table name -> candidates, or null (no such table)
  const completionCache = new Map();   // context key -> candidates (round-trip contexts only)
  let pending = null;                  // a round-trip completion {ids, key, callback, timer}
  let pendingColumns = null;           // {id, tables, waiters: [fn]}

  const KIND_SCORE = { "suggestion": 8000, "alias": 7000, "column": 6000, "field": 6000, "cte": 5000,
                       "table": 5000, "view": 5000, "temporary view": 5000, "table alias": 4800,
                       "table function": 4500, "database": 4000, "catalog": 3500, "function": 3000,
                       "keyword": 2000 };
  // The popup shows the kind and the short detail (a column's type, a function's argument list); the
  // tooltip the whole detail (a function's one-line description too). ``ranked``: the engine's order
  // (answers from Python) is kept as it is; local lists are ordered by kind.
  function toAce(items, extraScore, ranked) {
    const total = items.length;
    return items.map(function (item, index) {
      const short = item.detail ? item.detail.split(" \u2014 ")[0] : "";
      return {
        caption: item.value,
        value: item.value,
        meta: short ? item.kind + " · " + short : item.kind,
        score: (ranked ? 10000 : (KIND_SCORE[item.kind] || 0)) + (extraScore || 0) + (total - index) / (total + 1),
        docText: item.detail ? item.value + " — " + item.kind + ": " + item.detail : undefined,
      };
    });
  }

  const IDENT = "(?:`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)";
  function unquote(name) { return name.replace(/`/g, ""); }
  function statementAround(text, cursor) {
    const start = text.lastIndexOf(";", cursor - 1) + 1;
    let end = text.indexOf(";", cursor);
    if (end < 0) end = text.length;
    return { text: text.slice(start, end), cursor: cursor - start };
  }
  function receiveColumns(answer) {
    if (!answer || !answer.columns) return;
    Object.keys(answer.columns).forEach(function (name) {
      columnCache.set(name.toLowerCase(), answer.columns[name]);
    });
    if (pendingColumns && pendingColumns.id === answer.id) {
      const waiters = pendingColumns.waiters;
      pendingColumns = null;
      waiters.forEach(function (w) { w(); });
    }
  }
  // Where the cursor is: "dot" (after x.), "table" (a name of a table expected), "use", or "any".
  const TABLE_WORDS = /^(from|join|into|table|update|describe|desc|overwrite)$/i;
  function contextAt(text, cursor, prefix) {
    const around = statementAround(text, cursor - prefix.length);
    const before = around.text.slice(0, around.cursor);
    const dotted = before.match(new RegExp("(" + IDENT + "(?:\\." + IDENT + ")*)\\.$"));
    if (dotted) return { kind: "dot", qualifier: unquote(dotted[1]), statement: around.text };
    const words = before.trim().split(/\s+/);
    const last = words.length ? words[words.length - 1] : "";
    if (TABLE_WORDS.test(last)) return { kind: "table", tvf: /^(from|join)$/i.test(last) };
    if (/,$/.test(last) && /\bfrom\b(?![\s\S]*\b(select|where|on|group|order|having)\b)/i.test(before)) {
      return { kind: "table", tvf: true };
    }
    if (/^use$/i.test(last)) return { kind: "use" };
    return { kind: "any", statement: around.text };
  }

  const localCompleter = {
    id: "dictionary",
    identifierRegexps: [/[a-zA-Z_0-9$\u00A2-\u2000\u2070-\uFFFF]/],
    getCompletions: function (ed, session, pos, prefix, callback) {
      if (/^[0-9]/.test(prefix)) { callback(null, []); return; }  // a number, not a name
      const cursor = session.doc.positionToIndex(pos);
      const text = ed.getValue();
      if (!dictionary) { roundTrip(text, cursor, prefix, callback); return; }
      const ctx = contextAt(text, cursor, prefix);
      const d = dictionary;
      // Context-free lists come from the dictionary at once; everything that depends on the statement
      // (aliases, CTEs, subqueries, struct fields, join conditions, …) from the gateway's engine, the
      // same one REST's complete-statement uses, one round trip per context (answers kept).
      if (ctx.kind === "table" && !/\bwith\b/i.test(statementAround(text, cursor).text)) {
        callback(null, toAce(d.relations.concat(d.databases, ctx.tvf ? d.table_functions : [])));
        renderPopupSoon();
      } else if (ctx.kind === "use") {
        callback(null, toAce(d.databases.concat(d.catalogs)));
        renderPopupSoon();
      } else if (d.offline) {
        callback(null, toAce(d.functions.concat(d.keywords)));  // Spark is starting: no engine to ask yet
        renderPopupSoon();
      } else {
        roundTrip(text, cursor, prefix, callback);
      }
    },
  };
  // The round trip for a context the dictionary cannot answer: one request, its answer kept.
  function contextOf(text, cursor, prefix) {
    const start = cursor - prefix.length;
    const context = { text: text.slice(0, start) + text.slice(cursor), position: start };
    context.key = context.position + "\u0000" + context.text;
    return context;
  }
  function roundTrip(text, cursor, prefix, callback) {
    const context = contextOf(text, cursor, prefix);
    const key = context.key;
    const mark = traceMark(key);
    if (completionCache.has(key)) { mark.cached = true; answerWith(mark, callback, completionCache.get(key)); return; }
    if (pending) finishPending([]);  // a newer context supersedes the old request
    if (completionApi) { directRequest(context, key, function (e, items) { answerWith(mark, callback, items); }); return; }
    rerunRequest(context, key, callback, null);
  }

  // --- where a popup's time goes: performance.now() marks per request, read by benchmarks/browser_latency.py ---
  // asked: Ace asked for candidates; sent: the request went; response: its headers came; parsed: its JSON;
  // answered: the candidates handed to Ace (the popup renders next). Requests dropped or aborted say so.
  const completionTrace = [];
  window.sqlEditorCompletionTrace = function () { return completionTrace.slice(); };
  function traceMark(key) {
    const mark = { key: key, asked: performance.now() };
    completionTrace.push(mark);
    while (completionTrace.length > 200) completionTrace.shift();
    return mark;
  }
  function answerWith(mark, callback, items) {
    mark.answered = performance.now();
    mark.items = items ? items.length : 0;
    callback(null, items);
    renderPopupSoon();
  }
  // Ace draws an opened popup's rows at its next animation frame; drawn at once instead (right after Ace has
  // opened it), the popup is on screen a frame sooner (~17 ms of the keystroke-to-popup time).
  function renderPopupSoon() {
    queueMicrotask(function () {
      try {
        const popup = editor.completer && editor.completer.popup;
        if (popup && popup.isOpen) popup.renderer.updateFull(true);
      } catch (e) { /* Ace draws it at its next frame */ }
    });
  }

  // An answer without the columns of tables still loading on the server (``loading``): asked again a little
  // later, and once it is whole, the popup is opened again if the cursor is still in that context.
  // Up to ~7 s for a load, then every 2.5-5 s for a minute: a table a running statement creates (a CTAS) is
  // "loading" until the statement ends. The first two at once: the answer came after the server's bounded wait
  // for that load (ANSWER_WAIT_S), so asking again at once is a wait continued, not a poll.
  const REFRESH_AFTER_MS = [0, 0, 10, 15, 15, 20, 30, 40, 60, 100, 150, 250, 400, 700, 1000, 1500, 2500,
                            2500, 2500, 2500, 2500, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000];
  let refreshing = null;   // {key, timer}
  function refreshWhenLoaded(context, tries) {
    if (refreshing && refreshing.key !== context.key) clearTimeout(refreshing.timer);
    if (tries >= REFRESH_AFTER_MS.length || !completionApi) { refreshing = null; return; }
    refreshing = { key: context.key, timer: setTimeout(function () {
      if (!refreshing || refreshing.key !== context.key || !stillAt(context.key)) { refreshing = null; return; }
      directRequest(context, context.key, function () {
        if (!refreshing || refreshing.key !== context.key) return;
        if (completionCache.has(context.key)) {   // whole now: show it, if the user is still there
          refreshing = null;
          if (stillAt(context.key)) editor.execCommand("startAutocomplete");
        } else {
          refreshWhenLoaded(context, tries + 1);
        }
      }, true);
    }, REFRESH_AFTER_MS[tries]) };
  }
  function stillAt(key) {
    const pos = editor.getCursorPosition();
    const before = editor.session.getLine(pos.row).slice(0, pos.column).match(/[a-zA-Z_0-9$\u00A2-\u2000\u2070-\uFFFF]*$/);
    const cursor = editor.session.doc.positionToIndex(pos);
    return contextOf(editor.getValue(), cursor, before ? before[0] : "").key === key;
  }

  // --- the direct path: fetch(), no rerun ------------------------------------------------------------------
  // Python hands over {route, url, session, token}: the completion route on Streamlit's own server (same
  // origin; POST with a JSON body, so a statement of any length fits) and/or the REST API of this process
  // (GET complete-statement), and a credential that allows completion of this session only. The route is
  // taken when there is one. When it fails (refused, expired, unreachable) the popup is answered through a
  // rerun, and the toolbar and the console say why; a refused credential is not used again until a render
  // brings a new one (the rerun asks Python for one).
  const MAX_QUERY_CHARS = 6000;     // REST's GET: the request line stays well inside what servers accept
  const MAX_POST_CHARS = 200000;    // the route's POST: a longer script sends the statement at the cursor
  const DIRECT_TIMEOUT_MS = 8000;   // an unreachable API (another machine's 127.0.0.1) must not hold the popup
  let completionApi = null;         // {route, url, session, token} or null: reruns only
  let completionApiToken = null;    // the token last handed over (a new one re-enables the direct path)
  let directInFlight = null;        // {controller, callback} of the latest direct request
  let directFailure = null;         // why the direct path failed, until a render brings a new credential
  const completionRoutes = { direct: 0, rerun: 0, direct_errors: 0, last_error: null, rerun_reason: null };
  window.sqlEditorCompletionRoutes = function () {
    return Object.assign({ configured: !!completionApi,
                           path: completionApi ? (completionApi.route ? "route" : "rest") : null }, completionRoutes);
  };
  function toolbarNote(id, text) {   // a short note in the toolbar (its whole text as the tooltip), or none
    const note = document.getElementById(id);
    if (!note) return;
    note.textContent = text || "";
    note.title = text || "";
    note.style.display = text ? "inline-block" : "none";
  }
  function completionNote(text) { toolbarNote("completion-note", text); }
  const completionClient = nonce + Math.random().toString(36).slice(2, 10);  // this editor, to the route
  let completionSeq = 0;   // rising: the route drops a request a later one of this editor supersedes
  function directRequest(context, key, callback, refresh) {
    if (directInFlight && directInFlight.key === key) {   // the same context still on its way: wait for it
      const earlier = directInFlight.callback;
      directInFlight.callback = callback;
      if (!directInFlight.refresh) earlier(null, []);
      directInFlight.refresh = !!refresh;
      return;
    }
    if (directInFlight) { directInFlight.controller.abort(); directInFlight.callback(null, []); directInFlight = null; }
    const api = completionApi;
    let statement = context.text, position = context.position;
    const tooLong = api.route ? function (t) { return t.length > MAX_POST_CHARS; }
                              : function (t) { return encodeURIComponent(t).length > MAX_QUERY_CHARS; };
    if (tooLong(statement)) {
      const around = statementAround(statement, position);  // a long script: its statement at the cursor
      statement = around.text; position = around.cursor;
    }
    if (tooLong(statement)) {
      console.info("SQL editor: this statement is too long for a completion request's address (REST's GET); " +
                   "asking through the page");
      rerunRequest(context, key, callback, null);
      return;
    }
    const controller = new AbortController();
    const mine = { controller: controller, callback: callback, key: key, refresh: !!refresh,
                   trace: completionTrace.length ? completionTrace[completionTrace.length - 1] : {} };
    if (refresh || mine.trace.key !== key) mine.trace = traceMark(key);
    directInFlight = mine;
    const timer = setTimeout(function () { controller.abort(); }, DIRECT_TIMEOUT_MS);
    let request;
    if (api.route) {   // same origin: the page's own server (ui/completion_route.py)
      request = fetch(api.route, { method: "POST", signal: controller.signal, cache: "no-store",
                                   credentials: "same-origin",
                                   headers: { "Authorization": "Bearer " + api.token, "Content-Type": "application/json" },
                                   body: JSON.stringify({ statement: statement, position: position, details: true,
                                                          wait: false, client: completionClient,
                                                          seq: ++completionSeq }) });
      mine.trace.seq = completionSeq;
    } else {
      const address = api.url + "/v2/sessions/" + encodeURIComponent(api.session) + "/complete-statement?details=true" +
        "&position=" + position + "&statement=" + encodeURIComponent(statement);
      request = fetch(address, { headers: { "Authorization": "Bearer " + api.token }, signal: controller.signal,
                                 cache: "no-store", credentials: "omit" });
    }
    mine.trace.sent = performance.now();
    request
      .then(function (response) {
        mine.trace.response = performance.now();
        if (response.status === 409) return { superseded: true };   // a later request of ours overtook it
        if (response.ok) return response.json();
        return response.json().catch(function () { return {}; }).then(function (body) {
          const error = new Error("HTTP " + response.status + ": " + ((body && body.root_cause) || response.statusText));
          error.status = response.status;
          throw error;
        });
      })
      .then(function (body) {
        clearTimeout(timer);
        mine.trace.parsed = performance.now();
        if (directInFlight !== mine) { mine.trace.dropped = true; return; }
        directInFlight = null;
        if (body.superseded) { mine.trace.dropped = true; mine.callback(null, []); return; }
        completionRoutes.direct += 1;
        completionNote("");
        const items = toAce((body.candidateDetails || []).slice(0, 3000), 0, true);
        if (body.loading && body.loading.length) {   // answered without columns still loading: asked again
          mine.trace.loading = body.loading;
          if (!mine.refresh) refreshWhenLoaded({ text: context.text, position: context.position, key: key }, 0);
        } else {
          completionCache.set(key, items);
        }
        mine.callback(null, items);
      })
      .catch(function (error) {
        clearTimeout(timer);
        if (directInFlight !== mine) { mine.trace.dropped = true; return; }  // superseded (aborted): answered
        directInFlight = null;
        completionRoutes.direct_errors += 1;
        completionRoutes.last_error = String(error.message || error);
        if (error.name === "AbortError") completionRoutes.last_error = "no answer in " + DIRECT_TIMEOUT_MS / 1000 + " s";
        completionApi = null;  // not used again until a render brings a new credential (the rerun asks for one)
        directFailure = completionRoutes.last_error;
        console.warn("SQL editor: direct completion (" + (api.route ? "the page's completion route" : "REST complete-statement") +
                     ") failed: " + completionRoutes.last_error +
                     "; answered through the page instead");
        completionNote("\u26A0 Completion: the direct path failed (" + completionRoutes.last_error.slice(0, 120) +
                       "); answered through the page");
        rerunRequest(context, key, mine.callback, completionRoutes.last_error);
      });
  }

  // --- columns fetched ahead: a table typed after FROM or JOIN ----------------------------------------------
  // The first popup over a table (its alias's dot) needs the table's columns: one catalog lookup, 20-50 ms at
  // 10,000 tables and more under load. The engine starts it when a request names the table; the editor starts it
  // sooner, on the keystroke that completes a name after FROM or JOIN that is a table of the dictionary: one
  // request {"prefetch": [names]} to the route (not numbered, so it supersedes nothing), its answer not awaited.
  const NAMED_AFTER_FROM = new RegExp("\\b(?:from|join)\\s+(" + IDENT + "(?:\\." + IDENT + ")?)", "gi");
  let relationNames = null;          // lower-case names of the dictionary's relations, bare and as db.name
  const prefetched = new Set();      // lower-case names asked for since the dictionary came
  window.sqlEditorPrefetched = function () { return Array.from(prefetched); };
  function prefetchNamed() {
    const api = completionApi;
    if (!api || !api.route || !dictionary || dictionary.offline) return;
    if (relationNames === null) {
      relationNames = new Set();
      dictionary.relations.forEach(function (r) {
        const name = r.value.toLowerCase();
        relationNames.add(name);
        if (r.detail && r.detail !== "temporary") relationNames.add(r.detail.toLowerCase().split(".").pop() + "." + name);
      });
    }
    const cursor = editor.session.doc.positionToIndex(editor.getCursorPosition());
    const text = statementAround(editor.getValue(), cursor).text;
    const names = [];
    let found;
    NAMED_AFTER_FROM.lastIndex = 0;
    while ((found = NAMED_AFTER_FROM.exec(text)) !== null && names.length < 16) {
      const name = unquote(found[1]), key = name.toLowerCase();
      if (relationNames.has(key) && !prefetched.has(key) && !columnCache.has(key)) { prefetched.add(key); names.push(name); }
    }
    if (!names.length) return;
    fetch(api.route, { method: "POST", cache: "no-store", credentials: "same-origin",
                       headers: { "Authorization": "Bearer " + api.token, "Content-Type": "application/json" },
                       body: JSON.stringify({ prefetch: names }) })
      .then(function (response) {
        if (!response.ok) console.warn("SQL editor: fetching columns ahead failed (HTTP " + response.status + "); " +
                                       "the popup asks for them itself");
        return response.text();   // read to its end: the connection is free for the next request
      })
      .catch(function (error) {
        console.warn("SQL editor: fetching columns ahead failed (" + (error.message || error) + "); the popup asks " +
                     "for them itself");
      });
  }

  // --- the rerun path: the request goes to Python as the component's value, the answer in args ----------
  function rerunRequest(context, key, callback, directFailed) {
    if (pending) finishPending([]);
    if (directInFlight) { directInFlight.controller.abort(); directInFlight.callback(null, []); directInFlight = null; }
    completionRoutes.rerun += 1;
    const id = nonce + "-c" + (++counter);
    const value = { id: id, action: "complete", text: context.text, cursor: context.position,
                    selection_start: context.position, selection_end: context.position };
    // Python acts on the newest request only: each one says the direct path failed, until a new credential.
    if (directFailed || directFailure) value.direct_failed = directFailed || directFailure;
    pending = { ids: [id], key: key, callback: callback, tries: 0 };
    const mine = pending;
    post(value);  // wrapped in {events: [...]} like every other event
    // Streamlit keeps only a component's latest value and collapses values sent during a rerun;
    // the events list carries this request along, and a bounded resend covers the rest.
    pending.timer = setInterval(function () {
      if (pending !== mine) { clearInterval(mine.timer); return; }
      mine.tries += 1;
      if (mine.tries > 12) { finishPending([]); return; }
      if (mine.tries === 2 || mine.tries === 6) {
        const again = Object.assign({}, value, { id: id + "-r" + mine.tries });
        mine.ids.push(again.id);
        post(again);
      }
    }, 1000);
  }

  function finishPending(items) {
    const done = pending;
    pending = null;
    if (done) {
      clearInterval(done.timer);
      done.callback(null, items);
    }
  }
  editor.completers = [localCompleter];

  // The direct path's settings come with every render; a new token re-enables it after a failure.
  function receiveCompletionApi(api) {
    if (!api) { completionApi = null; return; }  // the start-up editor (ui/startup.py): no engine to ask yet
    if (!api.token || !(api.route || api.url)) {
      const reason = api.reason || "the workbench handed over no completion credential";
      if (completionRoutes.rerun_reason !== reason) {
        completionRoutes.rerun_reason = reason;
        console.info("SQL editor: no direct completion path (" + reason + "); completion that needs the engine " +
                     "goes through page reruns");
        completionNote("\u24D8 Completion through page reruns: " + reason.slice(0, 160));
      }
      completionApi = null;
      return;
    }
    if (completionRoutes.rerun_reason !== null) { completionRoutes.rerun_reason = null; completionNote(""); }
    if (api.token === completionApiToken && completionApi === null) return;  // refused before: wait for a new one
    if (api.token !== completionApiToken) directFailure = null;  // the note stays until a direct answer comes
    completionApiToken = api.token;
    completionApi = api;
  }

  function receiveCompletions(answer) {
    if (!answer || !pending || pending.ids.indexOf(answer.id) < 0) return;
    const items = toAce(answer.items, 0, true);
    completionCache.set(pending.key, items);
    finishPending(items);
  }

  // While the dictionary is loading (a cold session, or a new listing after DDL), ask again now and
  // then: each ask is a rerun that ships it once it is there. Meanwhile the old dictionary (or, before the
  // first one, the engine per context) answers. The asks slow down to one per 15 s and end after
  // DICTIONARY_GIVE_UP_MS (10,000 tables on a loaded machine took over 3.5 minutes, when 30 asks had run
  // out and the editor gave up silently); past 10 s the toolbar says the catalog is still loading, and
  // when the editor stops asking, that a reload asks again.
  const DICTIONARY_GIVE_UP_MS = 20 * 60 * 1000;
  let dictionaryAsks = 0;
  let dictionaryTimer = null;
  let dictionaryAskSince = null;
  function dictionaryNote(text) { toolbarNote("dictionary-note", text); }
  window.sqlEditorDictionaryWait = function () {
    return { asks: dictionaryAsks, waiting_ms: dictionaryAskSince === null ? null : Date.now() - dictionaryAskSince };
  };
  function askForDictionary() {
    if (dictionaryTimer) return;
    if (dictionaryAskSince === null) dictionaryAskSince = Date.now();
    const waited = Date.now() - dictionaryAskSince;
    if (waited > DICTIONARY_GIVE_UP_MS) {
      dictionaryNote("\u26A0 Completion: the catalog's list did not arrive in " + Math.round(waited / 60000) +
                     " min; names come from the engine per context. Reload the page to ask again");
      console.warn("SQL editor: stopped asking for the completion dictionary after " + dictionaryAsks + " asks");
      return;
    }
    if (waited > 10000) {
      dictionaryNote("\u23F3 Completion: loading the catalog's list (" + Math.round(waited / 1000) +
                     " s); meanwhile names come from the engine per context");
    }
    dictionaryTimer = setTimeout(function () {
      dictionaryTimer = null;
      dictionaryAsks += 1;
      post({ id: nonce + "-d" + (++counter), action: "dictionary" });
    }, Math.min(15000, 500 * Math.pow(1.6, dictionaryAsks)));  // 0.5 s, 0.8 s, 1.3 s, … 15 s
  }

  function receiveDictionary(args) {
    if (args.dict_fp && dictionaryAskSince !== null) {  // Python has it (shipped now, or held here already)
      dictionaryAsks = 0;
      dictionaryAskSince = null;
      dictionaryNote("");
    }
    if (!args.dictionary) { if (!args.dict_fp) askForDictionary(); return; }
    if (args.dict_fp === dictFp) return;
    dictionaryAsks = 0;
    dictionaryAskSince = null;
    dictionaryNote("");
    dictionary = args.dictionary;
    dictFp = args.dict_fp;
    relationNames = null;
    prefetched.clear();
    columnCache.clear();
    completionCache.clear();
    Object.keys(dictionary.columns || {}).forEach(function (name) {
      columnCache.set(name.toLowerCase(), dictionary.columns[name]);
    });
    post({ id: nonce + "-d" + (++counter), action: "dictionary", dict_fp: dictFp });  // no need to send it again
  }

  // Open the popup where a name is expected even before a letter is typed.
  const TABLE_CONTEXT = /\b(from|join|into|table|update|describe|use|on|by)\s+$/i;
  editor.commands.on("afterExec", function (event) {
    if (event.command.name !== "insertstring") return;
    const pos = editor.getCursorPosition();
    const line = editor.session.getLine(pos.row).slice(0, pos.column);
    if (event.args === "." || (event.args === " " && TABLE_CONTEXT.test(line))) {
      editor.execCommand("startAutocomplete");
    }
  });

  // --- keys and buttons ----------------------------------------------------------------------
  function runAtCursor() {
    if (!editor.getSelection().isEmpty()) emit("run_selection");
    else emit("run_statement");
  }
  editor.commands.addCommand({
    name: "runStatement", bindKey: { win: "Ctrl-Enter", mac: "Command-Enter" }, exec: runAtCursor,
  });
  editor.commands.addCommand({
    name: "runAll", bindKey: { win: "Ctrl-Shift-Enter", mac: "Command-Shift-Enter" },
    exec: function () { emit("run_all"); },
  });
  document.getElementById("run-all").onclick = function () { emit("run_all"); };
  document.getElementById("run-statement").onclick = function () { emit("run_statement"); };
  document.getElementById("run-selection").onclick = function () { emit("run_selection"); };
  document.getElementById("format").onclick = function () { emit("format"); };
  editor.selection.on("changeSelection", function () {
    document.getElementById("run-selection").disabled = editor.getSelection().isEmpty();
  });

  // --- drafts kept up to the last keystroke ------------------------------------------------------
  // Keystrokes in the debounce before a reload or a closed tab were lost: the page goes before its
  // last value reaches Python. Each edit is also kept, synchronously, in this browser's localStorage
  // for its tab ("text", and "base": the tab's text in the workbench it was typed over); when the same
  // tab loads again and the workbench still holds that base, the kept text comes back and is handed
  // over. Once Python has the text (or holds something newer, from elsewhere) the copy goes.
  const DRAFT_PREFIX = "workbench-draft:";
  let settingText = false;      // the editor's text is being set from Python's, not typed
  let tabBase = null;           // the tab's text as the workbench last gave or saved it
  function draftKey() { return currentTab ? DRAFT_PREFIX + currentTab : null; }
  function keepLocally() {
    const key = draftKey();
    if (!key || settingText) return;
    try {
      const text = editor.getValue();
      if (text === tabBase) { localStorage.removeItem(key); return; }
      const held = JSON.parse(localStorage.getItem(key) || "null");
      localStorage.setItem(key, JSON.stringify({ text: text, base: held ? held.base : tabBase }));
    } catch (e) { /* storage full or off: the debounce still saves */ }
  }
  function takeBackKept(givenText) {
    const key = draftKey();
    if (!key) return;
    try {
      const held = JSON.parse(localStorage.getItem(key) || "null");
      if (!held || held.text === givenText || held.base !== givenText) { localStorage.removeItem(key); return; }
      settingText = true;
      editor.session.doc.setValue(held.text);
      settingText = false;
      editor.navigateFileEnd();
      emit("change");
    } catch (e) { settingText = false; }
  }
  function savedByPython(text) {
    tabBase = text;
    const key = draftKey();
    try {
      const held = key && JSON.parse(localStorage.getItem(key) || "null");
      if (held && held.text === text) localStorage.removeItem(key);
    } catch (e) { /* nothing kept */ }
  }

  // Hand the text over after typing stops (not per keystroke); clear error marks on edit.
  editor.session.on("change", function () {
    keepLocally();
    if (!settingText) prefetchNamed();
    clearMarkers();
    if (debounceTimer) clearTimeout(debounceTimer);
    debounceTimer = setTimeout(function handOver() {
      debounceTimer = null;
      if (editor.getValue() !== lastSentText) emit("change");
    }, debounceMs);
  });

  // Leaving the page (another page of the app, a reload, a closed tab): hand over what is unsaved.
  window.addEventListener("pagehide", function () {
    if (editor.getValue() !== lastSentText) emit("change");
  });

  // --- error marks ---------------------------------------------------------------------------
  let markerIds = [];
  function clearMarkers() {
    markerIds.forEach(function (id) { editor.session.removeMarker(id); });
    markerIds = [];
    editor.session.clearAnnotations();
  }
  function showMarkers(markers) {
    clearMarkers();
    if (!markers || !markers.length) return;
    const Range = ace.require("ace/range").Range;
    const annotations = [];
    markers.forEach(function (m) {
      const lineText = editor.session.getLine(m.row) || "";
      const rest = lineText.slice(m.column).match(/^\S+/);
      const end = m.column + Math.max(1, rest ? rest[0].length : 1);
      markerIds.push(editor.session.addMarker(new Range(m.row, m.column, m.row, end), "sql-error-marker", "text", false));
      annotations.push({ row: m.row, column: m.column, text: m.text, type: "error" });
    });
    editor.session.setAnnotations(annotations);
    editor.scrollToLine(markers[0].row, true, true, function () {});
  }

  // --- render ----------------------------------------------------------------------------------
  window.addEventListener("message", function (event) {
    const data = event.data;
    if (!data || data.type !== "streamlit:render") return;
    const args = data.args || {};
    if (args.height && args.height !== height) {
      height = args.height;
      document.getElementById("editor").style.height = height + "px";
      editor.resize();
    }
    if (args.debounce_ms) debounceMs = args.debounce_ms;
    if (typeof args.version === "number" && args.version !== knownVersion) {
      const firstRender = knownVersion === -1;
      if (!firstRender && args.tab !== currentTab && editor.getValue() !== lastSentText) {
        emit("change");  // the old tab's last keystrokes are saved before its text is replaced
      }
      currentTab = args.tab === undefined ? null : args.tab;
      knownVersion = args.version;
      tabBase = args.text || "";
      if (editor.getValue() !== args.text) {
        settingText = true;
        editor.session.doc.setValue(args.text || "");
        settingText = false;
        lastSentText = args.text || "";
        editor.clearSelection();
        editor.navigateFileEnd();
      } else if (firstRender) {
        lastSentText = args.text || "";
      }
      takeBackKept(args.text || "");
      completionCache.clear();
      if (firstRender) editor.focus();
    }
    // Running while Python says so, or from our click until Python has seen that click.
    // Then one more event, "ran": Python redraws History (the click reran only the result and this editor).
    if (localRunId !== null && (args.seen || []).indexOf(localRunId) >= 0) {
      localRunId = null;
      hideLastResult(false);
      post({ id: nonce + "-" + (++counter), action: "ran", tab: currentTab });
    }
    sentTexts.forEach(function (sent) {
      if ((args.seen || []).indexOf(sent.id) >= 0) { savedText = sent.text; savedByPython(sent.text); }
    });
    showRunning(!!args.running || localRunId !== null);
    receiveCompletionApi(args.completion_api);
    receiveDictionary(args);
    receiveColumns(args.columns);
    receiveCompletions(args.completions);
    showMarkers(args.markers);
    setFrameHeight();
  });

  document.getElementById("editor").style.height = height + "px";
  editor.resize();
  send("streamlit:componentReady", { apiVersion: 1 });
  setFrameHeight();
})();
