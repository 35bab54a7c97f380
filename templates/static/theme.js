/* Loaded in <head> without defer, so it runs before the first paint: the reader's stored theme
   is on <html> before anything is drawn (no white flash in dark mode). site.js has the toggle. */
(function () {
  /* scripts run: controls that need them (side-by-side reading) take their place before the first
     paint instead of pushing the text down when they appear */
  document.documentElement.setAttribute("data-js", "");
  try {
    var theme = window.localStorage.getItem("atlas-theme");
    if (theme === "dark" || theme === "light") document.documentElement.setAttribute("data-theme", theme);
  } catch (e) { /* storage unavailable: the system preference applies */ }
})();
