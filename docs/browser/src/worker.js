// The Python side of a practice page, in a Web Worker so the page never freezes: Pyodide,
// the wheels listed in manifest.json (this package, pytest, Hypothesis), and the package's
// solitaire_ds.course.browser module, which runs the checks and the games. Every file comes
// from the folder this script is in. The page ends a runaway run by terminating the worker.
//
// The first run loads all of it, which takes seconds: it says each step as it starts
// ({kind: "progress", step, of, text}), so the page can show "2/4 installing packages…".

import { loadPyodide } from "./pyodide/pyodide.mjs";

const base = new URL("./", self.location.href).href;
const STEPS = 4;
let ready = null;
const prepared = new Set(); // what step 3 has imported: "check" (pytest, the judge) or "play" (games, boards)

function megabytes(bytes) {
  return (bytes / 1e6).toFixed(1) + " MB";
}

async function start(say) {
  const manifest = await (await fetch(base + "manifest.json")).json();
  const size = Object.values(manifest.bytes).reduce((a, b) => a + b, 0);
  say(1, "loading Python (Pyodide " + manifest.pyodide + ", " + megabytes(size) + " in all, once)");
  const pyodide = await loadPyodide({ indexURL: base + "pyodide/" });
  say(2, "installing packages (" + manifest.wheels.length + ": solitaire-ds, pytest, Hypothesis and what they need)");
  await pyodide.loadPackage(manifest.wheels.map((wheel) => base + "wheels/" + wheel),
                            { messageCallback: () => {} });
  return pyodide;
}

// Step 3: import what a run of this kind needs, once per worker.
const IMPORTS = {
  check: ["loading the tests", "import solitaire_ds.course.browser, pytest, hypothesis"],
  play: ["loading the games", "import solitaire_ds.course.browser, solitaire_ds.boards, solitaire_ds.players"],
};
const RUNNING = { check: "running the checks", play: "playing a game on your code" };

self.onmessage = async (event) => {
  const { id, kind, exercise, source, seed } = event.data;
  let loading = false;
  const say = (step, text) => {
    loading = true;
    self.postMessage({ id, kind: "progress", step, of: STEPS, text });
  };
  try {
    ready = ready || start(say).catch((error) => { ready = null; throw error; }); // the next run tries again
    const pyodide = await ready;
    if (IMPORTS[kind] && !prepared.has(kind)) {
      if (loading) say(3, IMPORTS[kind][0]);
      pyodide.runPython(IMPORTS[kind][1]);
      prepared.add(kind);
    }
    if (loading) say(4, RUNNING[kind]);
    const browser = pyodide.pyimport("solitaire_ds.course.browser");
    if (kind === "load") {
      self.postMessage({ id, kind });
    } else if (kind === "check") {
      const reply = browser.check_page(exercise, source);
      const plain = reply.toJs({ dict_converter: Object.fromEntries });
      reply.destroy();
      self.postMessage({ id, kind, text: plain.text, passed: plain.passed });
    } else if (kind === "play") {
      // "": the game the exercise's tutorial plays
      const reply = browser.play_page(exercise, source, "", seed);
      const plain = reply.toJs({ dict_converter: Object.fromEntries });
      reply.destroy();
      if (plain.error !== undefined) self.postMessage({ id, kind: "stopped-game", text: plain.error });
      else self.postMessage({ id, kind, frames: plain.frames });
    }
    browser.destroy();
  } catch (error) {
    self.postMessage({ id, kind: "error", text: String((error && error.message) || error) });
  }
};
