// The SQL editor component: Ace, plus the Streamlit component protocol in plain JavaScript.
//
// The editor keeps its text in the browser and hands it to Python only on an action (run,
// format), on Ctrl+Enter, on a debounce after typing stops, and when it asks for completions:
// typing does not rerun the page on every keystroke. Completion candidates come from Python
// (GatewayService.complete_candidates) through one round trip per completion context, cached here.
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
  function post(value) {
    recent.push(value);
    while (recent.length > 6) recent.shift();
    send("streamlit:setComponentValue", { value: { events: recent.slice() }, dataType: "json" });
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
    if (action !== "change" && debounceTimer) { clearTimeout(debounceTimer); debounceTimer = null; }
    lastSentText = value.text;
    post(value);
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

  // --- completion: one request per context, answered on the next render ---------------------
  const completionCache = new Map();   // context key -> candidates
  let pending = null;                  // {id, key, callback}

  function contextOf(text, cursor, prefix) {
    const start = cursor - prefix.length;
    return { text: text.slice(0, start) + text.slice(cursor), position: start };
  }

  const gatewayCompleter = {
    id: "gateway",
    identifierRegexps: [/[a-zA-Z_0-9$\u00A2-\u2000\u2070-\uFFFF]/],
    getCompletions: function (ed, session, pos, prefix, callback) {
      if (/^[0-9]/.test(prefix)) { callback(null, []); return; }  // a number, not a name
      const context = contextOf(ed.getValue(), session.doc.positionToIndex(pos), prefix);
      const key = context.position + "\u0000" + context.text;
      if (completionCache.has(key)) {
        callback(null, completionCache.get(key));
        return;
      }
      if (pending) finishPending([]);  // a newer context supersedes the old request
      const id = nonce + "-c" + (++counter);
      const value = { id: id, action: "complete", text: context.text, cursor: context.position,
                      selection_start: context.position, selection_end: context.position };
      pending = { ids: [id], key: key, callback: callback, value: value, tries: 1 };
      const mine = pending;
      send("streamlit:setComponentValue", { value: value, dataType: "json" });
      // Streamlit keeps only a component's latest value: if another event overtook this request
      // before Python saw it, ask again (bounded), then give up quietly.
      // The answer is kept on the Python side, so resending is rarely needed; a cold Spark can
      // take many seconds for the first catalog call, hence the patient schedule.
      pending.timer = setInterval(function () {
        if (pending !== mine) { clearInterval(mine.timer); return; }
        pending.tries += 1;
        if (pending.tries > 12) { finishPending([]); return; }
        if (pending.tries === 2 || pending.tries === 5) {
          pending.value = Object.assign({}, pending.value, { id: id + "-r" + pending.tries });
          pending.ids.push(pending.value.id);
          post(pending.value);
        }
      }, 5000);
    },
  };

  function finishPending(items) {
    const done = pending;
    pending = null;
    if (done) {
      clearInterval(done.timer);
      done.callback(null, items);
    }
  }
  editor.completers = [gatewayCompleter];

  function receiveCompletions(answer) {
    if (!answer || !pending || pending.ids.indexOf(answer.id) < 0) return;
    const total = answer.items.length;
    const items = answer.items.map(function (item, index) {
      return {
        caption: item.value,
        value: item.value,
        meta: item.detail ? item.kind + " · " + item.detail : item.kind,
        score: total - index,
        docText: item.detail ? item.value + " — " + item.kind + ": " + item.detail : undefined,
      };
    });
    completionCache.set(pending.key, items);
    finishPending(items);
  }

  // Open the popup where a name is expected even before a letter is typed.
  const TABLE_CONTEXT = /\b(from|join|into|table|update|describe|use)\s+$/i;
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

  // Hand the text over after typing stops (not per keystroke); clear error marks on edit.
  editor.session.on("change", function () {
    clearMarkers();
    if (debounceTimer) clearTimeout(debounceTimer);
    debounceTimer = setTimeout(function handOver() {
      if (pending) { debounceTimer = setTimeout(handOver, debounceMs); return; }  // let completion finish
      if (editor.getValue() !== lastSentText) emit("change");
    }, debounceMs);
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
      knownVersion = args.version;
      if (editor.getValue() !== args.text) {
        editor.session.doc.setValue(args.text || "");
        lastSentText = args.text || "";
        editor.clearSelection();
        editor.navigateFileEnd();
      } else if (firstRender) {
        lastSentText = args.text || "";
      }
      completionCache.clear();
      if (firstRender) editor.focus();
    }
    if (args.schema_generation !== undefined && args.schema_generation !== window._schemaGeneration) {
      window._schemaGeneration = args.schema_generation;  // the catalog changed: ask again
      completionCache.clear();
    }
    receiveCompletions(args.completions);
    showMarkers(args.markers);
    setFrameHeight();
  });

  document.getElementById("editor").style.height = height + "px";
  editor.resize();
  send("streamlit:componentReady", { apiVersion: 1 });
  setFrameHeight();
})();
