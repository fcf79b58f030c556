// A practice page: the student's file in a CodeMirror editor (kept in the browser's local
// storage), and buttons that run the exercise's checks or play a game on it in a Web Worker
// (worker.js). The page itself runs no Python, so it never freezes; "Stop" ends the worker.

import { EditorView, basicSetup } from "codemirror";
import { python } from "@codemirror/lang-python";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";

// Colours with at least 4.5:1 contrast on the editor's white (WCAG AA); the default
// style's orange strings reach only 3.8:1.
const readable = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.definitionKeyword], color: "#7b1fa2" },
  { tag: [tags.string, tags.special(tags.string)], color: "#a31515" },
  { tag: [tags.comment, tags.lineComment, tags.blockComment, tags.docString], color: "#5f5f5f", fontStyle: "italic" },
  { tag: [tags.number, tags.bool, tags.null], color: "#116644" },
  { tag: [tags.definition(tags.variableName), tags.function(tags.definition(tags.variableName)),
          tags.definition(tags.className)], color: "#0b4f8a" },
  { tag: [tags.className, tags.typeName], color: "#0b5e6b" },
  { tag: tags.self, color: "#7b1fa2" },
]);

const runtime = new URL("./", import.meta.url).href;

function megabytes(bytes) {
  return (bytes / 1e6).toFixed(1) + " MB";
}

function setUp(root) {
  const exercise = Number(root.dataset.exercise);
  const file = root.dataset.file;
  const key = "solitaire-ds:exercise-" + exercise;
  const skeleton = root.querySelector(".ds-practice__skeleton").value;
  const status = root.querySelector(".ds-practice__status");
  const clock = root.querySelector(".ds-practice__clock"); // seconds so far: seen, not announced
  const output = root.querySelector(".ds-practice__output");
  const buttons = Object.fromEntries(
    Array.from(root.querySelectorAll("button[data-action]")).map((b) => [b.dataset.action, b]));
  const board = root.querySelector(".ds-practice__board");
  const caption = root.querySelector(".ds-practice__step");
  // shown when every check passes: after the widget, in Markdown (the builder checks its links)
  const onward = document.querySelector(".ds-practice__next[data-exercise='" + exercise + "']");

  const editor = new EditorView({
    doc: localStorage.getItem(key) ?? skeleton,
    extensions: [
      basicSetup,
      python(),
      syntaxHighlighting(readable, { fallback: false }),
      EditorView.lineWrapping, // long lines wrap: the editor scrolls one way only
      EditorView.contentAttributes.of({ "aria-label": "Your file, " + file }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        localStorage.setItem(key, update.state.doc.toString());
        if (onward) onward.hidden = true; // the link onward is for the file that passed, not an edit of it
      }),
    ],
    parent: root.querySelector(".ds-practice__editor"),
  });
  root.editor = editor; // for the site's browser test, which types into it
  // The editor scrolls inside its box; a keyboard user can reach that scrolling region too.
  editor.scrollDOM.setAttribute("tabindex", "0");
  editor.scrollDOM.setAttribute("aria-label", "Your file, scrollable");
  const text = () => editor.state.doc.toString();

  let worker = null;
  let next = 1;
  let pending = null;
  let size = 0;
  let loadedOnce = false;

  fetch(runtime + "manifest.json").then((r) => r.json()).then((manifest) => {
    size = Object.values(manifest.bytes).reduce((a, b) => a + b, 0);
    status.textContent = "Ready. The first run loads Python (Pyodide " + manifest.pyodide + ", "
      + megabytes(size) + ", once; your browser keeps it).";
    for (const b of Object.values(buttons)) b.disabled = b.dataset.action === "stop";
  }).catch(() => {
    status.textContent = "This copy of the site has no practice runtime.";
    root.querySelector(".ds-practice__missing").hidden = false;
  });

  function busy(on) {
    for (const b of Object.values(buttons)) b.disabled = b.dataset.action === "stop" ? !on : on;
    buttons.download.disabled = false;
    buttons.reset.disabled = on;
  }

  function call(message) {
    if (!worker) {
      worker = new Worker(runtime + "worker.js", { type: "module" });
      worker.onmessage = (event) => {
        if (pending && event.data.id === pending.id && event.data.kind === "progress") {
          status.textContent = event.data.step + "/" + event.data.of + " " + event.data.text + "…";
        } else if (pending && event.data.id === pending.id) {
          const done = pending;
          pending = null;
          done.resolve(event.data);
        }
      };
    }
    const id = next++;
    worker.postMessage({ id, ...message });
    return new Promise((resolve) => { pending = { id, resolve }; });
  }

  async function run(kind, label) {
    busy(true);
    const started = performance.now();
    const loading = !loadedOnce;
    // the first run loads Python: the worker says each of its steps ("2/4 installing packages…")
    status.textContent = loading ? "Starting Python…" : label[0].toUpperCase() + label.slice(1) + "…";
    const elapsed = () => (performance.now() - started) / 1000;
    clock.textContent = "";
    const ticking = setInterval(() => { clock.textContent = Math.floor(elapsed()) + " s so far"; }, 1000);
    const reply = await call({ kind, exercise, source: text(), seed: 1 });
    clearInterval(ticking);
    clock.textContent = "";
    const seconds = elapsed().toFixed(1);
    loadedOnce = true;
    busy(false);
    if (reply.kind === "error" || reply.kind === "stopped" || reply.kind === "stopped-game") {
      status.textContent = reply.kind === "stopped" ? "Stopped after " + seconds + " s."
        : reply.kind === "stopped-game" ? "Your code stopped the game (" + seconds + " s); Run checks finds the bug."
        : "The run stopped with an error (" + seconds + " s).";
      output.textContent = reply.text;
      return null;
    }
    status.textContent = "Done in " + seconds + " s" + (loading ? ", loading included." : ".");
    return reply;
  }

  buttons.check.addEventListener("click", async () => {
    output.textContent = "";
    if (onward) onward.hidden = true;
    const reply = await run("check", "running the checks");
    if (!reply) return;
    output.textContent = reply.text;
    if (onward) onward.hidden = !reply.passed;
  });

  buttons.stop.addEventListener("click", () => {
    if (worker) worker.terminate();
    worker = null;
    loadedOnce = false;
    if (pending) {
      pending.resolve({ kind: "stopped", text: "Stopped: the run was ended (an infinite loop?). "
        + "The next run loads Python again." });
      pending = null;
    }
  });

  if (buttons.play) setUpPlay(); // exercises 7 and 12 have no game to play

  function setUpPlay() {
    let frames = [];
    let shown = 0;
    let timer = null;
    function show(k) {
      shown = Math.max(0, Math.min(frames.length - 1, k));
      board.innerHTML = frames[shown].svg; // drawn by the package: card labels are escaped
      caption.textContent = "Step " + shown + " of " + (frames.length - 1) + ": " + frames[shown].text;
    }
    function clear() { // a game that stopped leaves no board of an earlier one up
      frames = [];
      board.innerHTML = "";
      caption.textContent = "";
      root.querySelector(".ds-practice__game").hidden = true;
    }
    function pause() {
      clearInterval(timer);
      timer = null;
      buttons.auto.textContent = "Play through";
    }
    buttons.play.addEventListener("click", async () => {
      pause();
      const reply = await run("play", "playing a game on your code");
      if (!reply) return clear();
      frames = reply.frames;
      root.querySelector(".ds-practice__game").hidden = false;
      show(0);
    });
    buttons.prev.addEventListener("click", () => { pause(); show(shown - 1); });
    buttons.next.addEventListener("click", () => { pause(); show(shown + 1); });
    buttons.auto.addEventListener("click", () => {
      if (timer) return pause();
      buttons.auto.textContent = "Pause";
      timer = setInterval(() => (shown + 1 < frames.length ? show(shown + 1) : pause()), 700);
    });
  }

  buttons.reset.addEventListener("click", () => {
    if (!confirm("Put the skeleton back? Your changes to this file will be lost.")) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: skeleton } });
    localStorage.removeItem(key);
  });

  buttons.download.addEventListener("click", () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text()], { type: "text/x-python" }));
    link.download = file.split("/").pop();
    link.click();
    URL.revokeObjectURL(link.href);
  });
}

for (const root of document.querySelectorAll(".ds-practice")) setUp(root);
