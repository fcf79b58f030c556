// Starts a practice page: loads the page script (editor, buttons, worker) from the site's
// practice runtime, found from this file's own address, so the page works at any depth and
// on any static host. On other pages it does nothing.
(function () {
  const root = document.querySelector(".ds-practice");
  if (!root) return;
  const site = new URL("../", document.currentScript.src);
  import(new URL("practice/runtime/app.js", site).href).catch(() => {
    root.querySelector(".ds-practice__status").textContent =
      "This build of the site has no practice runtime (the site's build adds it). "
      + "Work on your own machine instead: see Getting started.";
  });
})();
