/*
 * place_controls — makes a lab's input controls where the page has their text.
 * Classic script, browser only.
 *
 * The page carries each input as a row of a [data-lab-static] list: its label (<dt>, with a
 * .lab-unit), its default as text (<dd>) and, in data-control, what its control is (JSON:
 * kind number / select / checkbox, value, min, max, step, slider "linear" or "log" with
 * slider_min, options with their labels, preset_select). So the page loads with no form
 * control (templates/labs/_macros.html.j2 says why) and without script the list is the
 * static view. Here each list becomes the controls bind.js wires, in the same order:
 *   <div class="lab-field"> <label for=id> <input type=number | select> [<input type=range>]
 * with id lab-<lab>-<param>; the HTML value / checked / selected attributes are the defaults.
 * Elements are made one by one (createElement, textContent): no markup strings.
 */
(function (root) {
  'use strict';
  const AtlasLabs = root.AtlasLabs = root.AtlasLabs || {};
  const LOG_STEPS = '240'; // positions of a log slider (bind.js maps them onto data-min…data-max)

  function make(name, attrs, parent) {
    const el = document.createElement(name);
    for (const key of Object.keys(attrs)) if (attrs[key] !== null) el.setAttribute(key, attrs[key]);
    if (parent) parent.appendChild(el);
    return el;
  }

  /** A label longer than a half-width column holds in two lines (a Chinese character counts twice):
   *  its field takes the whole row rather than wrap to four or five lines beside an empty cell. */
  const WIDE_LABEL = 34;
  function label_width(text) {
    let width = 0;
    for (const char of text.trim()) width += /[\u2e80-\u9fff\uff00-\uffef]/.test(char) ? 2 : 1;
    return width;
  }

  function field(row, spec, id) {
    const dt = row.querySelector('dt');
    const wide = spec.kind !== 'checkbox' && label_width(dt.textContent) > WIDE_LABEL;
    const box = make('div', { class: 'lab-field' + (spec.slider ? ' lab-field-slider' : '') + (spec.kind === 'checkbox' ? ' lab-field-check' : '') + (wide ? ' lab-field-wide' : '') });
    const label = make('label', { for: id, id: spec.kind === 'checkbox' ? null : id + '-label' });
    for (const node of dt.childNodes) label.appendChild(node.cloneNode(true));
    const common = { id: id, 'data-param': spec.param };
    if (spec.kind === 'checkbox') {
      make('input', Object.assign({ type: 'checkbox', checked: spec.value ? '' : null }, common), box);
      box.appendChild(label);
      return box;
    }
    box.appendChild(label);
    if (spec.kind === 'select') {
      const select = make('select', Object.assign({}, common, { 'data-preset-select': spec.preset_select ? '' : null }), box);
      spec.options.forEach(function (value, index) {
        make('option', { value: value, selected: value === spec.value ? '' : null }, select).textContent = spec.labels[index];
      });
      return box;
    }
    make('input', Object.assign({ type: 'number' }, common, { min: spec.min, max: spec.max, step: spec.step, value: spec.value, inputmode: 'decimal' }), box);
    const slider = { 'data-param': spec.param, 'aria-labelledby': id + '-label' };
    if (spec.slider === 'log') {
      make('input', Object.assign({ type: 'range', class: 'lab-slider lab-slider-log' }, slider,
        { 'data-scale': 'log', 'data-min': spec.slider_min, 'data-max': spec.max, min: '0', max: LOG_STEPS, step: '1' }), box);
    } else if (spec.slider) {
      make('input', Object.assign({ type: 'range', class: 'lab-slider' }, slider,
        { min: spec.min, max: spec.max, step: spec.step, value: spec.value }), box);
    }
    return box;
  }

  /** Replace every [data-lab-static] list of a panel by the controls its rows describe. */
  AtlasLabs.place_controls = function (panel) {
    const lab = panel.getAttribute('data-lab');
    for (const list of panel.querySelectorAll('[data-lab-static]')) {
      const controls = document.createDocumentFragment();
      for (const row of list.querySelectorAll('[data-control]')) {
        const spec = JSON.parse(row.getAttribute('data-control'));
        controls.appendChild(field(row, spec, 'lab-' + lab + '-' + spec.param));
      }
      list.parentNode.replaceChild(controls, list);
    }
  };
})(typeof globalThis !== 'undefined' ? globalThis : this);
