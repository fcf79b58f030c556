// The Python side of a practice page, in a Web Worker so the page never freezes: Pyodide,
// the wheels listed in manifest.json (this package, pytest, Hypothesis), and the package's
// solitaire_ds.course.browser module, which runs the checks and the games. Every file comes
// from the folder this script is in. The page ends a runaway run by terminating the worker.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const base = new URL("./", self.location.href).href;
let ready = null;

async function start() {
  const pyodide = await loadPyodide({ indexURL: base + "pyodide/" });
  const manifest = await (await fetch(base + "manifest.json")).json();
  await pyodide.loadPackage(manifest.wheels.map((wheel) => base + "wheels/" + wheel),
                            { messageCallback: () => {} });
  pyodide.runPython("import solitaire_ds.course.browser");
  return pyodide;
}

self.onmessage = async (event) => {
  const { id, kind, exercise, source, seed } = event.data;
  try {
    ready = ready || start();
    const pyodide = await ready;
    const browser = pyodide.pyimport("solitaire_ds.course.browser");
    if (kind === "load") {
      self.postMessage({ id, kind });
    } else if (kind === "check") {
      self.postMessage({ id, kind, text: browser.run_checks(exercise, source) });
    } else if (kind === "play") {
      const frames = browser.play(exercise, source, "", seed); // "": the game the exercise's tutorial plays
      const plain = frames.toJs({ dict_converter: Object.fromEntries });
      frames.destroy();
      self.postMessage({ id, kind, frames: plain });
    }
    browser.destroy();
  } catch (error) {
    self.postMessage({ id, kind: "error", text: String((error && error.message) || error) });
  }
};
