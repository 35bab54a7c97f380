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
 * A URL fragment naming a panel (#lab-batch-panel) or anything inside one
 * (#lab-fleet-title) selects that tab, on load and on a hashchange.
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

    /* the tab whose panel holds the address's target: the panel itself (#lab-batch-panel, also with
       a lab's inputs: #lab-batch-panel?batch=8) or anything inside it (a lab's heading,
       #lab-fleet-title); null when the target is not in one of these panels */
    function addressed() {
      let id = root.location && root.location.hash ? root.location.hash.slice(1).split('?')[0] : '';
      try { id = decodeURIComponent(id); } catch (e) { /* a malformed escape: the id as written */ }
      const target = id ? document.getElementById(id) : null;
      if (!target) return null;
      const tab = tabs.filter(function (t) {
        const panel = panel_of(t);
        return panel && panel.contains(target);
      })[0];
      return tab ? { tab: tab, target: target } : null;
    }

    const wanted = addressed();
    const initial = (wanted && wanted.tab) ||
      tabs.filter(function (t) { return t.getAttribute('aria-selected') === 'true'; })[0] || tabs[0];
    select(initial, false);
    container.classList.add('lab-tabs-ready');
    /* a target the hidden panel held could not be scrolled to: now that its panel shows, it is */
    if (wanted && wanted.target !== panel_of(wanted.tab)) wanted.target.scrollIntoView();

    /* a link within the page to a target in another panel (#lab-fleet-title) selects its tab first */
    root.addEventListener('hashchange', function () {
      const now = addressed();
      if (!now || now.tab.getAttribute('aria-selected') === 'true') return;
      select(now.tab, false);
      now.target.scrollIntoView();
    });
  }

  function wire_all() {
    Array.prototype.forEach.call(document.querySelectorAll('[data-lab-tabs]'), wire);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', wire_all);
  else wire_all();
})(typeof globalThis !== 'undefined' ? globalThis : this);
