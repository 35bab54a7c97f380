/*
 * WAI-ARIA tabs for every [data-lab-tabs] container (automatic activation).
 * Classic script, browser only, no dependencies.
 *
 * Markup (rendered by templates/labs/tablist.html.j2):
 *   [data-lab-tabs] > [role=tablist] > [role=tab][aria-controls=<panel id>]
 *   [data-lab-tabs] > [role=tabpanel]
 * Without JS every panel stays visible and the tab row is hidden by CSS;
 * once wired, the container gets .lab-tabs-ready, one panel is shown and
 * the others get `hidden`. Roving tabindex: only the selected tab is in the
 * Tab order; Left/Right (wrapping), Home and End move focus AND activate.
 * A URL fragment naming a panel (#lab-batch-panel) selects that tab.
 */
(function (root) {
  'use strict';

  function wire(container) {
    const tablist = container.querySelector('[role="tablist"]');
    if (!tablist) return;
    const tabs = Array.prototype.slice.call(tablist.querySelectorAll('[role="tab"]'));
    const panel_of = function (tab) { return document.getElementById(tab.getAttribute('aria-controls')); };

    function select(tab, focus) {
      for (const t of tabs) {
        const on = t === tab;
        t.setAttribute('aria-selected', on ? 'true' : 'false');
        t.setAttribute('tabindex', on ? '0' : '-1');
        const panel = panel_of(t);
        if (panel) panel.hidden = !on;
      }
      if (focus) tab.focus();
    }

    tablist.addEventListener('click', function (event) {
      const tab = event.target.closest('[role="tab"]');
      if (tab && tabs.indexOf(tab) >= 0) select(tab, true);
    });

    tablist.addEventListener('keydown', function (event) {
      const index = tabs.indexOf(document.activeElement);
      if (index < 0) return;
      let next = null;
      if (event.key === 'ArrowRight') next = tabs[(index + 1) % tabs.length];
      else if (event.key === 'ArrowLeft') next = tabs[(index - 1 + tabs.length) % tabs.length];
      else if (event.key === 'Home') next = tabs[0];
      else if (event.key === 'End') next = tabs[tabs.length - 1];
      if (!next) return;
      event.preventDefault();
      select(next, true);
    });

    const wanted = root.location && root.location.hash ? root.location.hash.slice(1) : '';
    const initial = tabs.filter(function (t) { return t.getAttribute('aria-controls') === wanted; })[0] ||
      tabs.filter(function (t) { return t.getAttribute('aria-selected') === 'true'; })[0] || tabs[0];
    select(initial, false);
    container.classList.add('lab-tabs-ready');
  }

  function wire_all() {
    Array.prototype.forEach.call(document.querySelectorAll('[data-lab-tabs]'), wire);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', wire_all);
  else wire_all();
})(typeof globalThis !== 'undefined' ? globalThis : this);
