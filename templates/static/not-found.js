/* The 404 page. A host serves it for a missing address at any depth (/en/ch15.html as well as
   /ch15.html), and without the book's site_url its links cannot know where the site's root is. This
   script is linked from the root ("assets/…") and from one and two folders down ("../assets/…"); the
   copy that loads knows the root from its own address and points each link there (review 31-r #1:
   under /en/ both home links led to further 404 pages). Without script the links stay relative to
   the root. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !script.src) return;
  var root = script.src.replace(/assets\/not-found\.js(?:[?#].*)?$/, "");
  var links = document.querySelectorAll("a[data-site-path]");
  for (var i = 0; i < links.length; i++) {
    links[i].href = root + links[i].getAttribute("data-site-path");
  }
})();
