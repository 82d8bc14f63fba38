/* The Real agents page's matrix filters (impl/docsite/agent_matrix.py writes the HTML):
   client and scenario by name, outcome, a verdict that broke, direct or via proxy.
   It only hides columns and rows and dims cells, from their data attributes; without
   it the whole matrix shows.  It loads on every page of the site and does nothing
   where there is no matrix. */
(function () {
  "use strict";

  function contains(text, wanted) {
    return !wanted || text.toLowerCase().indexOf(wanted) >= 0;
  }

  function setUp(matrix) {
    var form = matrix.querySelector("form.ra-filters");
    var grid = matrix.querySelector("table.ra-grid");
    var shown = matrix.querySelector(".ra-shown");
    var heads = Array.prototype.slice.call(grid.tHead.rows[0].cells, 1);
    var rows = Array.prototype.slice.call(grid.tBodies[0].rows);

    function apply() {
      var client = form.elements.client.value.trim().toLowerCase();
      var scenario = form.elements.scenario.value.trim().toLowerCase();
      var outcome = form.elements.outcome.value;
      var verdict = form.elements.verdict.value;
      var proxy = form.elements.proxy.value;
      var kept = heads.map(function (head) {
        var behind = head.getAttribute("data-proxy") === "1";
        return contains(head.textContent, client) &&
          (proxy === "" || (proxy === "proxy") === behind);
      });
      heads.forEach(function (head, i) { head.hidden = !kept[i]; });
      var count = 0;
      var total = 0;
      rows.forEach(function (row) {
        var named = contains(row.getAttribute("data-scenario"), scenario) ||
          contains(row.getAttribute("data-what"), scenario);
        var matching = 0;
        var cells = 0;
        Array.prototype.slice.call(row.cells, 1).forEach(function (cell, i) {
          var given = cell.getAttribute("data-o");
          var broke = (cell.getAttribute("data-v") || "").split("|");
          cell.hidden = !kept[i];
          var hit = kept[i] && given !== null && (!outcome || given === outcome) &&
            (!verdict || broke.indexOf(verdict) >= 0);
          cell.classList.toggle("ra-dim", kept[i] && given !== null && !hit);
          if (kept[i] && given !== null) { cells += 1; }
          if (hit) { matching += 1; }
        });
        row.hidden = !named || ((outcome !== "" || verdict !== "") && matching === 0);
        if (!row.hidden) { count += matching; total += cells; }
      });
      keys.forEach(function (key) {
        key.setAttribute("aria-pressed", String(key.getAttribute("data-o") === outcome));
      });
      shown.textContent = count + " of " + total + " cells shown match";
    }

    var keys = Array.prototype.slice.call(matrix.querySelectorAll(".ra-key button"));
    keys.forEach(function (key) {
      key.addEventListener("click", function () {
        var wanted = key.getAttribute("data-o");
        form.elements.outcome.value = form.elements.outcome.value === wanted ? "" : wanted;
        apply();
      });
    });

    form.addEventListener("input", apply);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    apply();
  }

  Array.prototype.forEach.call(document.querySelectorAll(".ra-matrix"), setUp);
})();
