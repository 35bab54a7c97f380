/* The language chooser. The root index.html lists one link per language; the reader's choice is
   remembered (localStorage), and a later visit to the root goes straight to that language's home.
   A language's home records itself as the choice. The root never redirects when opened as
   index.html#choose (the homes link there), so there is no loop; without script, plain links. */
(function () {
  "use strict";
  var KEY = "atlas-lang";

  function remember(code) {
    try { window.localStorage.setItem(KEY, code); } catch (e) { /* private mode: not remembered */ }
  }
  function remembered() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }

  var home = document.querySelector("[data-home-lang]");
  if (home) {
    remember(home.getAttribute("data-home-lang"));
    return;
  }
  var links = document.querySelectorAll("[data-choose-lang]");
  var choice = remembered();
  if (choice && window.location.hash !== "#choose") {
    for (var i = 0; i < links.length; i++) {
      if (links[i].getAttribute("data-choose-lang") === choice) {
        window.location.replace(links[i].href);
        return;
      }
    }
  }
  Array.prototype.forEach.call(links, function (link) {
    link.addEventListener("click", function () { remember(link.getAttribute("data-choose-lang")); });
  });
})();
