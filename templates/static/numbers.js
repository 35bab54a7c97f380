/* The numbers page: a filter box (every word typed must appear in the row) and a sort button in
   each sortable column header (aria-sort says the order: at first the "used in" head's, ascending,
   set in the markup, as the rows come in the order readers meet them). The table is complete
   without script. */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var table = document.querySelector("[data-numbers]");
    var tools = document.querySelector("[data-numbers-tools]");
    if (!table || !tools) return;
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    /* the filter reads every table of the page: the sourced numbers and the worked examples below
       them (review 31-w #2: a word found only in an example's row showed "0 of 53") */
    var filtered = Array.prototype.slice.call(document.querySelectorAll(".numbers-table tbody tr"));
    var input = tools.querySelector("[data-numbers-filter]");
    var count = tools.querySelector("[data-numbers-count]");
    var texts = filtered.map(function (row) { return row.textContent.toLowerCase(); });
    tools.hidden = false;

    /* A filter that matches nothing here may be in the other language ("显存" on the English page:
       review 31-v #3): the same filter is offered on each twin page, which starts filtered by its
       address's ?filter=. Built with text nodes; the typed words only ever go into a URL. */
    var elsewhere = tools.querySelector("[data-numbers-elsewhere]");
    var twins = Array.prototype.slice.call(document.querySelectorAll("a[data-lang-switch]"));
    function offerTwins(query) {
      while (elsewhere.firstChild) elsewhere.removeChild(elsewhere.firstChild);
      elsewhere.hidden = !query || !twins.length;
      if (elsewhere.hidden) return;
      elsewhere.appendChild(document.createTextNode(elsewhere.getAttribute("data-msg")));
      twins.forEach(function (twin, index) {
        var link = document.createElement("a");
        var address = new URL(twin.href.split("#")[0]);
        address.searchParams.set("filter", query);
        link.href = address.href;
        link.hreflang = twin.hreflang;
        link.lang = twin.lang;
        link.textContent = twin.textContent;
        if (index) elsewhere.appendChild(document.createTextNode(" · "));
        elsewhere.appendChild(link);
      });
    }

    function filter() {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      filtered.forEach(function (row, index) {
        var match = words.every(function (word) { return texts[index].indexOf(word) >= 0; });
        row.hidden = !match;
        if (match) shown += 1;
      });
      count.textContent = count.getAttribute("data-msg").replace("{n}", String(shown)).replace("{total}", String(filtered.length));
      offerTwins(shown ? "" : input.value.trim());
    }
    input.addEventListener("input", filter);
    var asked = new URLSearchParams(window.location.search).get("filter");
    if (asked) input.value = asked;
    filter();

    /* keys are strings, numbers or [unit, number] pairs */
    function compare(a, b) {
      if (Array.isArray(a)) return compare(a[0], b[0]) || compare(a[1], b[1]);
      return a < b ? -1 : a > b ? 1 : 0;
    }
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    headers.forEach(function (th, column) {
      var kind = th.getAttribute("data-sort");
      if (!kind) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort-button";
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var key = function (row) {
          var cell = row.cells[column];
          /* numbers of one unit together, each unit in order (review 31-w #2: token/s, × and % sorted
             as one magnitude read as nonsense) */
          if (kind === "number") return [cell.getAttribute("data-unit") || "", parseFloat(cell.getAttribute("data-value")) || 0];
          if (kind === "order") return parseInt(cell.getAttribute("data-order"), 10) || 0; /* where readers meet it */
          return cell.textContent.trim().toLowerCase();
        };
        var order = rows.map(function (row, index) { return [key(row), index, row]; });
        order.sort(function (a, b) {
          var result = compare(a[0], b[0]) || a[1] - b[1];
          return ascending ? result : -result;
        });
        order.forEach(function (entry) { body.appendChild(entry[2]); });
      });
    });
  });
})();
