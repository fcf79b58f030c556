// Starts a practice page: loads the page script (editor, buttons, worker) from the site's
// practice runtime, found from this file's own address, so the page works at any depth and
// on any static host. On other pages it does nothing.
(function () {
  const root = document.querySelector(".ds-practice");
  if (!root) return;
  const site = new URL("../", document.currentScript.src);
  import(new URL("practice/runtime/app.js", site).href).catch(() => {
    // the page says the one command that adds the runtime (docs/hooks/docgen/browser.py)
    root.querySelector(".ds-practice__status").textContent = "This copy of the site has no practice runtime.";
    root.querySelector(".ds-practice__missing").hidden = false;
  });
})();
