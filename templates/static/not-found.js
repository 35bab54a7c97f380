/* The 404 page. A host serves it for a missing address at any depth (/en/ch15.html as well as
   /ch15.html), and without the book's site_url its links cannot know where the site's root is. This
   script is linked from the root ("assets/…") and from one and two folders down ("../assets/…"); the
   copy that loads knows the root from its own address and points each link there (review 31-r #1:
   under /en/ both home links led to further 404 pages). Without script the links stay relative to
   the root.

   It also guesses the page the reader meant (review 31-v #1: a stale chapter address with a
   #section that moved to a part page, a typed glossary.htm): the page of the address's language that holds its #fragment, else the page whose
   file name is nearest the missing one, offered in each language's block, the address's language
   first. Built with text nodes only: nothing the address holds is ever read as markup. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !script.src) return;
  var root = script.src.replace(/assets\/not-found\.js(?:[?#].*)?$/, "");
  var links = document.querySelectorAll("a[data-site-path]");
  for (var i = 0; i < links.length; i++) {
    links[i].href = root + links[i].getAttribute("data-site-path");
  }

  // the page links this script from the root and from one and two folders down: where two of
  // those resolve to the same file (under /zh/, "../" and "../../"), it runs twice, and guesses once
  var main = document.querySelector("main[data-recovery]:not([data-guessed])");
  if (!main) return;
  main.setAttribute("data-guessed", "");
  var recovery;
  try { recovery = JSON.parse(main.getAttribute("data-recovery")); } catch (e) { return; }

  // the missing address, relative to the site's root: "zh/ch3-old.html", its fragment "q3"
  var here = location.href.split("#")[0].split("?")[0].replace(/\/+$/, "");  /* "ch3.html/" is ch3.html */
  var missing = here.indexOf(root) === 0 ? here.slice(root.length) : here.replace(/^.*\//, "");
  try { missing = decodeURIComponent(missing); } catch (e) { /* keep it as it came */ }
  var fragment = location.hash.slice(1);
  try { fragment = decodeURIComponent(fragment); } catch (e) { /* keep it as it came */ }
  function own(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }  // "__proto__" is no language
  var parts = missing.split("/");
  var lang = own(recovery, parts[0]) ? parts[0] : "";
  var name = parts[parts.length - 1].replace(/\..*$/, "");  /* glossary.htm, glossary.html.bak */

  function distance(a, b) {  // Levenshtein, on file names (a few dozen characters)
    var row = [];
    for (var j = 0; j <= b.length; j++) row.push(j);
    for (var k = 1; k <= a.length; k++) {
      var diagonal = row[0];
      row[0] = k;
      for (var m = 1; m <= b.length; m++) {
        var above = row[m];
        row[m] = Math.min(row[m] + 1, row[m - 1] + 1, diagonal + (a[k - 1] === b[m - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length];
  }
  function stem(path) { return path.replace(/^.*\//, "").replace(/\.html$/, ""); }
  function nearest(paths) {  // the path whose file name is nearest the missing one
    var best = null, bestDistance = Infinity;
    for (var n = 0; n < paths.length; n++) {
      var d = distance(name, stem(paths[n]));
      if (d < bestDistance) { best = paths[n]; bestDistance = d; }
    }
    return { path: best, distance: bestDistance };
  }

  // the guess, as a language-neutral place: a page's file name and, maybe, a section id
  function guess(language) {
    var map = recovery[language];
    var holders = fragment && own(map.ids, fragment) && map.ids[fragment];
    if (holders && holders.length) {
      var pick = nearest(holders.map(function (h) { return h[0]; }));
      return { file: stem(pick.path), id: fragment };
    }
    var page = nearest(Object.keys(map.pages));
    // a name too far from every page's is no guess (half its length, and never more than 4 edits)
    if (!page.path || page.distance > Math.min(4, Math.ceil(name.length / 2))) return null;
    return { file: stem(page.path), id: "" };
  }
  var place = guess(lang || Object.keys(recovery)[0]);

  var sections = main.querySelectorAll(".not-found-lang[data-lang]");
  for (var s = 0; s < sections.length; s++) {
    var section = sections[s];
    var code = section.getAttribute("data-lang");
    if (code === lang && s > 0) main.insertBefore(section, main.firstElementChild);
    if (!place || !own(recovery, code)) continue;
    var path = code + "/" + place.file + ".html";
    if (!own(recovery[code].pages, path)) continue;  // no twin of that page in this language
    var title = recovery[code].pages[path];
    if (place.id) {
      var heading = (own(recovery[code].ids, place.id) ? recovery[code].ids[place.id] : []).filter(function (h) { return h[0] === path; })[0];
      /* the section, then the page it is on (the page's own name: its title's last part) */
      if (heading) title = heading[1] + " · " + title.split(" · ").pop();
    }
    var line = document.createElement("p");
    line.className = "not-found-guess";
    line.appendChild(document.createTextNode(section.getAttribute("data-guess")));
    var link = document.createElement("a");
    link.href = root + path + (place.id ? "#" + encodeURIComponent(place.id) : "");
    link.textContent = title;
    line.appendChild(link);
    var heading1 = section.querySelector("h1");
    heading1.parentNode.insertBefore(line, heading1.nextSibling);
  }
})();
