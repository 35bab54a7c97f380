/*
 * bind_lab — the one piece of DOM wiring the four lab UIs share.
 * Classic script, browser only; needs shared/format.js loaded first.
 *
 * Inside each panel [data-lab="<namespace>"]:
 *  - [data-param="<name>"] inputs (number, range, select, checkbox); several
 *    inputs with the same name stay in sync (a number box and its slider);
 *  - [data-output="<name>"] elements, written with textContent only, formatted
 *    from data-digits / data-percent / data-labels (JSON map code -> text);
 *  - <button data-preset="<id>" data-preset-values='{…}' data-preset-note="…">;
 *    a <select data-preset-select> applies the preset named by its value;
 *  - [data-preset-status] shows the note of the preset last applied;
 *  - [data-lab-live] (aria-live="polite") announces changes of the outputs
 *    listed in opts.announce, prefixed by their .lab-out-label text.
 * Outputs recompute on every `input` event; no button needed.
 */
(function (root) {
  'use strict';
  const AtlasLabs = root.AtlasLabs = root.AtlasLabs || {};

  function read_input(el) {
    if (el.type === 'checkbox') return el.checked;
    if (el.type === 'number' || el.type === 'range') return el.value === '' ? NaN : Number(el.value);
    return el.value;
  }

  function in_range(el, value) {
    if (typeof value !== 'number') return true;
    if (!Number.isFinite(value)) return false;
    const min = el.getAttribute('min');
    const max = el.getAttribute('max');
    return (min === null || value >= Number(min)) && (max === null || value <= Number(max));
  }

  function write_input(el, value) {
    if (el.type === 'checkbox') el.checked = value === true || value === 'on';
    else el.value = String(value);
  }

  function output_spec(el) {
    const spec = {};
    if (el.hasAttribute('data-digits')) spec.digits = Number(el.getAttribute('data-digits'));
    if (el.hasAttribute('data-percent')) spec.percent = true;
    if (el.hasAttribute('data-labels')) spec.labels = JSON.parse(el.getAttribute('data-labels'));
    return spec;
  }

  function label_of(el) {
    const box = el.closest('.lab-out');
    const label = box && box.querySelector('.lab-out-label');
    return label ? label.textContent.trim() : el.getAttribute('data-output');
  }

  /**
   * opts: {compute(params) -> outputs, render(panel, outputs, params)?,
   *        announce: [output names]?, relevant: {param: (params) -> bool}?}
   */
  function setup(panel, opts) {
    const inputs = Array.prototype.slice.call(panel.querySelectorAll('[data-param]'));
    const outputs = Array.prototype.slice.call(panel.querySelectorAll('[data-output]'));
    const presets = Array.prototype.slice.call(panel.querySelectorAll('[data-preset]'));
    const live = panel.querySelector('[data-lab-live]');
    const preset_status = panel.querySelector('[data-preset-status]');
    const announced = {};
    let first = true;

    function params() {
      const p = {};
      let valid = true;
      for (const el of inputs) {
        const value = read_input(el);
        const ok = in_range(el, value);
        el.setAttribute('aria-invalid', ok ? 'false' : 'true');
        if (!ok) valid = false;
        else p[el.getAttribute('data-param')] = value;
      }
      return valid ? p : null;
    }

    function mark_relevance(p) {
      const relevant = opts.relevant || {};
      for (const el of inputs) {
        const test = relevant[el.getAttribute('data-param')];
        const field = el.closest('.lab-field');
        if (field) field.classList.toggle('lab-field-idle', test ? !test(p) : false);
      }
    }

    function update() {
      const p = params();
      if (!p) return; // keep the last good outputs while an input is out of range
      let out;
      try {
        out = opts.compute(p);
      } catch (err) {
        if (live) live.textContent = err.message;
        return;
      }
      mark_relevance(p);
      const changes = [];
      for (const el of outputs) {
        const name = el.getAttribute('data-output');
        if (!(name in out)) continue;
        const text = AtlasLabs.format.format_output(out[name], output_spec(el));
        el.textContent = text;
        if ((opts.announce || []).indexOf(name) >= 0) {
          if (!first && announced[name] !== text) changes.push(label_of(el) + ': ' + text);
          announced[name] = text;
        }
      }
      if (opts.render) opts.render(panel, out, p);
      if (live && changes.length) live.textContent = changes.join('; ');
      first = false;
    }

    function apply_preset(id) {
      const button = presets.filter(function (b) { return b.getAttribute('data-preset') === id; })[0];
      if (!button) { update(); return; }
      const values = JSON.parse(button.getAttribute('data-preset-values') || '{}');
      for (const el of inputs) {
        const name = el.getAttribute('data-param');
        if (Object.prototype.hasOwnProperty.call(values, name)) write_input(el, values[name]);
      }
      for (const b of presets) b.setAttribute('aria-pressed', b === button ? 'true' : 'false');
      if (preset_status) preset_status.textContent = button.getAttribute('data-preset-note') || '';
      update();
    }

    for (const el of inputs) {
      // `input` fires for typing, dragging, selects and checkboxes alike.
      el.addEventListener('input', function () {
        const name = el.getAttribute('data-param');
        for (const other of inputs) {
          if (other !== el && other.getAttribute('data-param') === name) write_input(other, read_input(el));
        }
        if (el.hasAttribute('data-preset-select')) { apply_preset(el.value); return; }
        for (const b of presets) b.setAttribute('aria-pressed', 'false');
        if (preset_status) preset_status.textContent = '';
        update();
      });
    }
    for (const b of presets) {
      b.setAttribute('aria-pressed', 'false');
      b.addEventListener('click', function () { apply_preset(b.getAttribute('data-preset')); });
    }
    panel.classList.add('lab-js');
    update();
    return { update: update, apply_preset: apply_preset };
  }

  /** Wire every panel of one lab on the page; returns their controllers. */
  AtlasLabs.bind_lab = function (namespace, opts) {
    const panels = document.querySelectorAll('[data-lab="' + namespace + '"]');
    return Array.prototype.map.call(panels, function (panel) { return setup(panel, opts); });
  };

  /** SVG element helper for the small charts (no markup strings anywhere). */
  AtlasLabs.svg = function (name, attrs, parent) {
    const el = document.createElementNS('http://www.w3.org/2000/svg', name);
    for (const key of Object.keys(attrs || {})) el.setAttribute(key, String(attrs[key]));
    if (parent) parent.appendChild(el);
    return el;
  };

  /** Remove every child of a node (used before redrawing a chart). */
  AtlasLabs.clear = function (node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  };
})(typeof globalThis !== 'undefined' ? globalThis : this);
