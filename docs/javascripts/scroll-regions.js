// A wide table scrolls sideways inside its own box: make that box reachable with the
// keyboard (Tab, then the arrow keys), as WCAG asks of any scrollable region.
document$.subscribe(function () {
  document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (region) {
    region.setAttribute("tabindex", "0");
  });
});
