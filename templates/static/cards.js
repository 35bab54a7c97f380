/* Citation cards: hover, keyboard focus or tap on a citation shows title, year, evidence class,
   ledger numbers, when the source was last verified and how far it was read, the claim's setting
   when the citation belongs to a claim, and a link to the entry.
   Escape closes it. Built with DOM nodes and textContent only (no HTML strings).
   Without script, a citation is a plain link to its bibliography entry. */
(function () {
  "use strict";
  var data = window.AtlasSources || {};
  var card = null;
  var owner = null;
  var hideTimer = null;
  var NARROW = 600;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text) node.textContent = text;
    return node;
  }

  function ensureCard() {
    if (card) return card;
    card = el("div", "cite-card");
    card.id = "cite-card";
    card.setAttribute("role", "tooltip");
    card.hidden = true;
    card.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
    card.addEventListener("mouseleave", scheduleHide);
    document.body.appendChild(card);
    return card;
  }

  function fill(link) {
    var info = data[link.getAttribute("data-cite")];
    var box = ensureCard();
    while (box.firstChild) box.removeChild(box.firstChild);
    if (!info) return false;
    box.appendChild(el("p", "cite-card-title", info.title + (info.year ? " (" + info.year + ")" : "")));
    box.appendChild(el("p", "cite-card-meta", info.evidence + " · " + info.numbers.join(" · ")));
    box.appendChild(el("p", "cite-card-meta", info.verified));
    if (info.scope) box.appendChild(el("p", "cite-card-scope", info.scope));
    var claim = link.closest(".claim");
    var setting = claim && claim.querySelector(".claim-setting");
    if (setting) box.appendChild(el("p", "cite-card-setting", setting.textContent));
    var more = el("a", "cite-card-link", info.open);
    more.href = link.getAttribute("href");
    box.appendChild(more);
    return true;
  }

  function place(link) {
    var box = ensureCard();
    if (window.innerWidth < NARROW) {
      box.classList.add("cite-card-sheet"); /* docked at the bottom: never over the line being read */
      box.style.left = ""; box.style.top = "";
      return;
    }
    box.classList.remove("cite-card-sheet");
    var rect = link.getBoundingClientRect();
    var width = Math.min(360, window.innerWidth - 16);
    var left = Math.max(8, Math.min(rect.left + window.scrollX, window.scrollX + window.innerWidth - width - 8));
    box.style.left = left + "px";
    box.style.top = (rect.bottom + window.scrollY + 6) + "px";
  }

  function show(link) {
    clearTimeout(hideTimer);
    if (!fill(link)) return;
    if (owner && owner !== link) owner.removeAttribute("aria-describedby");
    owner = link;
    link.setAttribute("aria-describedby", "cite-card");
    card.hidden = false;
    place(link);
  }

  function hide() {
    if (!card) return;
    card.hidden = true;
    if (owner) owner.removeAttribute("aria-describedby");
    owner = null;
  }

  function scheduleHide() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, 300);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var links = document.querySelectorAll("a.cite[data-cite]");
    Array.prototype.forEach.call(links, function (link) {
      link.addEventListener("mouseenter", function () { show(link); });
      link.addEventListener("mouseleave", scheduleHide);
      link.addEventListener("focus", function () { show(link); });
      link.addEventListener("blur", scheduleHide);
      /* touch: the first tap opens the card (focus and emulated mouse events may already have shown it
         during that same tap), a second tap on the same citation follows the link */
      var touched = false;
      var openBeforeTap = false;
      link.addEventListener("pointerdown", function (event) {
        touched = event.pointerType === "touch";
        openBeforeTap = touched && owner === link && card !== null && !card.hidden;
      });
      link.addEventListener("click", function (event) {
        if (touched && !openBeforeTap) {
          event.preventDefault();
          show(link);
        }
        touched = openBeforeTap = false;
      });
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") hide();
    });
    document.addEventListener("click", function (event) {
      if (card && !card.hidden && !card.contains(event.target) && !(event.target.closest && event.target.closest("a.cite"))) hide();
    });
  });
})();
