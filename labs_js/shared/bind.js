/*
 * bind_lab — the one piece of DOM wiring the lab UIs share.
 * Classic script, browser only; needs shared/format.js and shared/controls.js loaded first.
 *
 * Inside each panel [data-lab="<namespace>"] (rendered by templates/labs/panel.html.j2):
 *  - [data-param="<name>"] inputs (number, select, checkbox; made from the page's text of
 *    them by shared/controls.js as the panel is wired) and sliders sharing the
 *    name; a slider with data-scale="log" maps its 0…max positions onto
 *    data-min…data-max logarithmically. The number box (or select) holds the value;
 *    its HTML value / checked / selected attributes are the lab's defaults;
 *  - [data-output="<name>"] elements, written with textContent only, formatted from
 *    data-digits / data-percent / data-suffix / data-signed / data-duration(="group") /
 *    data-labels; a following .lab-unit with data-one switches to the singular at "1";
 *  - preset buttons [data-preset] with data-preset-values (JSON) and data-preset-note,
 *    and [data-preset-reset]: a preset restores every default first, then sets its
 *    values, so what it shows never depends on what was clicked before;
 *    a <select data-preset-select> applies the preset named by its value; a preset that
 *    keeps every default is marked pressed as the lab loads (the scenario it starts in);
 *  - [data-lab-error]: when an input is out of range (or the model finds no result)
 *    every output is replaced by "—" and this box says which input and why;
 *  - [data-lab-summary]: copies of the key outputs pinned on phones (CSS); in a lab
 *    with groups it shows those of the group being edited;
 *  - [data-lab-live] (aria-live="polite") announces changes of opts.announce outputs;
 *  - data-state-output on the panel: that output's code is mirrored as a data
 *    attribute (data-status="OOM") for the colours of labs.css.
 * Outputs recompute on every `input` event; charts redraw when their box's width changes
 * (shared/chart.js watch: the charts draw at the width the layout last reported, never asking it).
 */
(function (root) {
  'use strict';
  const AtlasLabs = root.AtlasLabs = root.AtlasLabs || {};
  const F = function () { return AtlasLabs.format; };

  // ── inputs ────────────────────────────────────────────────────────────────
  function is_slider(el) { return el.type === 'range'; }
  function is_log(el) { return el.getAttribute('data-scale') === 'log'; }

  function log_bounds(el) {
    return { lo: Math.log(Number(el.getAttribute('data-min'))), hi: Math.log(Number(el.getAttribute('data-max'))), steps: Number(el.max) };
  }

  /** Three significant digits, then the number box's step: slider values read like typed ones. */
  function snap(value, box) {
    const magnitude = Math.pow(10, Math.floor(Math.log10(value)) - 2);
    let v = Math.round(value / magnitude) * magnitude;
    const step = Number(box.getAttribute('step'));
    if (step > 0) v = Math.round(v / step) * step;
    const clean = F().round_half_away(v, 6); // no binary noise such as 0.30000000000000004
    return Math.min(Number(box.max), Math.max(Number(box.min), clean));
  }

  function read_slider(el, box) {
    if (!is_log(el)) return Number(el.value);
    const b = log_bounds(el);
    return snap(Math.exp(b.lo + Number(el.value) / b.steps * (b.hi - b.lo)), box);
  }

  function write_slider(el, value) {
    if (!is_log(el)) { el.value = String(value); return; }
    const b = log_bounds(el);
    const position = value > 0 ? Math.round((Math.log(value) - b.lo) / (b.hi - b.lo) * b.steps) : 0;
    el.value = String(Math.min(b.steps, Math.max(0, position)));
  }

  function read_box(el) {
    if (el.type === 'checkbox') return el.checked;
    if (el.type === 'number') return el.value === '' ? NaN : Number(el.value);
    return el.value;
  }

  function write_box(el, value) {
    if (el.type === 'checkbox') el.checked = value === true || value === 'on';
    else el.value = String(value);
  }

  function reset_box(el) {
    if (el.type === 'checkbox') el.checked = el.defaultChecked;
    else if (el.tagName === 'SELECT') for (const option of el.options) option.selected = option.defaultSelected;
    else el.value = el.defaultValue;
  }

  /** A label's words before its unit, its subscripts written back as "_kv" (H<sub>kv</sub> -> "H_kv"). */
  function label_text(panel, el) {
    const label = el.id && panel.querySelector('label[for="' + el.id + '"]');
    if (!label) return el.getAttribute('data-param');
    let text = '';
    for (const node of label.childNodes) {
      if (node.nodeType === 1 && node.classList.contains('lab-unit')) break;
      text += (node.nodeName === 'SUB' ? '_' : '') + node.textContent;
    }
    return text.trim();
  }

  /* A symbol with its subscript, as the labs' strings write it: "H_kv", "C_v(k)", "BW_eff" (a letter,
     or two or three capitals, before the underscore; a name in code such as "max_num" is none). */
  const SCRIPT = /(^|[^A-Za-z0-9_])([A-Za-z]|[A-Z]{2,3})_([A-Za-z0-9]+)(?![A-Za-z0-9_])/g;
  /** `text` as [words, subscript] pieces ("M / BW_eff is" -> ["M / BW", "eff"], [" is", ""]). */
  function script_pieces(text) {
    const pieces = [];
    let at = 0;
    let match;
    SCRIPT.lastIndex = 0;
    while ((match = SCRIPT.exec(text))) {
      const base = match.index + match[1].length + match[2].length;
      pieces.push([text.slice(at, base), match[3]]);
      at = SCRIPT.lastIndex;
    }
    pieces.push([text.slice(at), '']);
    return pieces;
  }
  /** `text` into `node` (emptied first), each subscript as <sub> (review 31-x #7: a lab's outputs
      and charts showed "BW_eff" where its form shows BW<sub>eff</sub>). */
  function set_text(node, text) {
    AtlasLabs.clear(node);
    for (const [words, script] of script_pieces(text)) {
      if (words) node.appendChild(document.createTextNode(words));
      if (script) node.appendChild(document.createElement('sub')).textContent = script;
    }
  }

  /** Why a number box holds no usable value: null, or {kind, label, min, max}. */
  function problem(panel, el) {
    if (el.type !== 'number') return null;
    const found = { label: label_text(panel, el), min: el.min, max: el.max };
    const value = read_box(el);
    if (!Number.isFinite(value)) found.kind = 'empty';
    else if ((el.min !== '' && value < Number(el.min)) || (el.max !== '' && value > Number(el.max))) found.kind = 'range';
    else if (Number(el.step) >= 1 && Number.isInteger(Number(el.step)) && !Number.isInteger(value)) found.kind = 'integer';
    return found.kind ? found : null;
  }

  // ── outputs ───────────────────────────────────────────────────────────────
  function output_spec(el) {
    const spec = {};
    if (el.hasAttribute('data-digits')) spec.digits = Number(el.getAttribute('data-digits'));
    if (el.hasAttribute('data-percent')) spec.percent = true;
    if (el.hasAttribute('data-suffix')) spec.suffix = el.getAttribute('data-suffix');
    if (el.hasAttribute('data-signed')) spec.signed = true;
    if (el.hasAttribute('data-duration')) spec.duration = true;
    /* durations of one group (data-duration="ttft": a P50 and its P99) share one unit */
    if (el.getAttribute('data-duration')) spec.unit_group = el.getAttribute('data-duration');
    if (el.hasAttribute('data-labels')) spec.labels = JSON.parse(el.getAttribute('data-labels'));
    return spec;
  }

  function unit_of(el) {
    const next = el.nextElementSibling;
    return next && next.classList.contains('lab-unit') ? next : null;
  }

  function label_of(el) {
    const box = el.closest('.lab-out');
    const label = box && box.querySelector('.lab-out-label');
    return label ? label.textContent.trim() : el.getAttribute('data-output');
  }

  /** Text of a message template such as "{label} must lie between {min} and {max}.". */
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return values[key]; });
  }

  /**
   * opts: {compute(params) -> outputs, render(panel, outputs, params)?,
   *        announce: [output names]?, relevant: {param: (params) -> bool}?}
   */
  /** The inputs a lab address names: #<panel id>?name=value&name=value (null: it names none). */
  function state_in_address(panel) {
    const hash = root.location ? decodeURIComponent(root.location.hash.slice(1)) : '';
    const at = hash.indexOf('?');
    if (at < 0 || hash.slice(0, at) !== panel.id) return null;
    const values = {};
    for (const pair of hash.slice(at + 1).split('&')) {
      const eq = pair.indexOf('=');
      if (eq > 0) values[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    return values;
  }

  function setup(panel, opts) {
    AtlasLabs.place_controls(panel); // shared/controls.js: the inputs arrive as text
    const all_inputs = Array.prototype.slice.call(panel.querySelectorAll('[data-param]'));
    const boxes = all_inputs.filter(function (el) { return !is_slider(el); });
    const sliders = all_inputs.filter(is_slider);
    const box_of = {};
    for (const el of boxes) box_of[el.getAttribute('data-param')] = el;
    const outputs = Array.prototype.slice.call(panel.querySelectorAll('[data-output]'));
    // the scenarios (toggle buttons: aria-pressed says which one the lab shows) and the reset, an
    // action with no state of its own (review 31-p #13: announced "Reset to defaults, pressed")
    const presets = Array.prototype.slice.call(panel.querySelectorAll('[data-preset]'));
    const reset_button = panel.querySelector('[data-preset-reset]');
    const live = panel.querySelector('[data-lab-live]');
    const preset_status = panel.querySelector('[data-preset-status]');
    const error_box = panel.querySelector('[data-lab-error]');
    const summary = panel.querySelector('[data-lab-summary]');
    const summary_items = Array.prototype.slice.call(panel.querySelectorAll('[data-lab-summary] .lab-summary-group'));
    const state_output = panel.getAttribute('data-state-output');
    const units = JSON.parse(panel.getAttribute('data-units') || '{}');
    const announced = {};
    let first = true;
    let last = null; // the last valid {out, params}, redrawn when the width changes

    for (const el of outputs) {
      const unit = unit_of(el);
      if (unit && unit.hasAttribute('data-one')) unit.setAttribute('data-other', unit.textContent);
    }

    function sync_sliders(name) {
      for (const el of sliders) {
        const box = box_of[el.getAttribute('data-param')];
        if (name && el.getAttribute('data-param') !== name) continue;
        const value = read_box(box);
        if (Number.isFinite(value)) write_slider(el, value);
        el.setAttribute('aria-valuetext', box.value);
      }
    }

    function mark_relevance(p) {
      const relevant = opts.relevant || {};
      for (const el of boxes) {
        const test = relevant[el.getAttribute('data-param')];
        const field = el.closest('.lab-field');
        if (field) field.classList.toggle('lab-field-idle', test ? !test(p) : false);
      }
    }

    /* The unit each group of durations shares: the one its largest value picks. */
    function group_units(out) {
      const largest = {};
      for (const el of outputs) {
        const group = el.getAttribute('data-duration');
        const value = out[el.getAttribute('data-output')];
        if (!group || !Number.isFinite(value)) continue;
        largest[group] = Math.max(largest[group] || 0, Math.abs(value));
      }
      const picked = {};
      for (const group of Object.keys(largest)) picked[group] = AtlasLabs.format.duration_unit(largest[group]);
      return picked;
    }

    function write_output(el, value, shared) {
      const spec = output_spec(el);
      if (spec.unit_group && shared) spec.unit = shared[spec.unit_group];
      const text = AtlasLabs.format.format_output(value, spec);
      set_text(el, text);
      const unit = unit_of(el);
      if (!unit) return text;
      if (spec.duration) unit.textContent = units[AtlasLabs.format.format_duration(value, spec.digits, spec.unit).unit];
      else if (unit.hasAttribute('data-one')) {
        unit.textContent = unit.getAttribute(text === '1' ? 'data-one' : 'data-other');
      }
      return text;
    }

    /* A block above the inputs on a narrow panel keeps its height while it empties (the outputs
       refused, a preset's note gone), and gives it back when it fills again: emptied, it moved the
       field being typed in ~700 px up under the header and back (review 31-x #1). */
    function keep_room(el) { el.style.minHeight = el.offsetHeight + 'px'; }
    function free_room(el) { el.style.minHeight = ''; }

    /** Replace every output by "—" and say what is wrong, next to the outputs it replaces. */
    function show_invalid(problems, at) {
      if (!panel.hasAttribute('data-invalid')) panel.querySelectorAll('.lab-results').forEach(keep_room);
      panel.setAttribute('data-invalid', 'true');
      for (const el of outputs) el.textContent = '—';
      for (const box of panel.querySelectorAll('[data-lab-chart]')) AtlasLabs.clear(box);
      last = null;
      /* the outputs said last are gone: once the inputs are mended they are said again */
      for (const name of Object.keys(announced)) delete announced[name];
      if (!error_box) { if (live) live.textContent = ''; return; }
      AtlasLabs.clear(error_box);
      const title = document.createElement('p');
      title.textContent = error_box.getAttribute('data-title');
      error_box.appendChild(title);
      const list = document.createElement('ul');
      for (const found of problems) {
        const item = document.createElement('li');
        set_text(item, message(found));
        list.appendChild(item);
        if (found.field) note_at_field(found.field, found);
      }
      error_box.appendChild(list);
      name_invalid(problems, at);
      const results = (at && at.closest('.lab-body') || panel).querySelector('.lab-results');
      if (results && error_box.parentNode !== results) results.insertBefore(error_box, results.firstChild);
      error_box.hidden = false;
      /* a screen reader hears what went wrong, not the last verdict (review 31-n #10: "FIT" while
         every output showed "—") */
      if (live) live.textContent = title.textContent + ' ' + problems.map(message).join('; ');
    }

    function message(found) {
      if (found.kind === 'model') return error_box.getAttribute('data-model');
      return fill(error_box.getAttribute('data-' + found.kind), {
        label: found.label, min: AtlasLabs.format.format_plain(Number(found.min)), max: AtlasLabs.format.format_plain(Number(found.max)),
        other: found.other || '',
      });
    }

    /* The message is also written under the field at fault (its aria-describedby): the list by the
       outputs is often off screen while the reader is at the field, and the field's own red frame
       does not say which values it takes. */
    function note_at_field(el, found) {
      const field = el.closest('.lab-field');
      if (!field) return;
      let note = field.querySelector('.lab-field-note');
      if (!note) {
        note = document.createElement('p');
        note.className = 'lab-field-note';
        note.id = el.id + '-note';
        field.appendChild(note);
      }
      set_text(note, message(found));
      el.setAttribute('aria-describedby', note.id);
    }
    function clear_field_notes() {
      for (const note of panel.querySelectorAll('.lab-field-note')) {
        const el = note.id && panel.querySelector('[aria-describedby="' + note.id + '"]');
        if (el) el.removeAttribute('aria-describedby');
        note.remove();
      }
    }

    /* The pinned summary names the first field at fault; a tap on the name takes the reader to it
       (the message itself sits by the outputs, often off screen). */
    let invalid_field = null;
    function name_invalid(problems, at) {
      const named = summary && summary.querySelector('[data-lab-summary-field]');
      if (!named) return;
      const found = problems.filter(function (p) { return p.label; })[0];
      set_text(named, found ? found.label : '');
      invalid_field = at;
    }

    /* A model that refuses a combination of inputs (GQA's KV heads that do not divide the query
       heads) names the input and the kind of message (err.problem): that input is marked and the
       message says what is wrong with it; any other failure gets the general message. */
    function model_field(err) {
      const param = err && err.problem && err.problem.param;
      return (param && box_of[param]) || null;
    }
    function model_problem(err) {
      const found = err && err.problem;
      const field = model_field(err);
      if (!found || !field || !error_box || !error_box.hasAttribute('data-' + found.kind)) return { kind: 'model' };
      field.setAttribute('aria-invalid', 'true');
      const other = found.other && box_of[found.other];
      return { kind: found.kind, label: label_text(panel, field), min: found.min, max: found.max, field: field,
        other: other ? label_text(panel, other) : '' };
    }

    function clear_invalid() {
      panel.removeAttribute('data-invalid');
      panel.querySelectorAll('.lab-results').forEach(free_room);
      if (error_box) error_box.hidden = true;
    }

    /* the lab in its present state, as an address's fragment: <panel id>?name=value&… */
    function state_address() {
      const pairs = boxes.map(function (el) {
        return el.getAttribute('data-param') + '=' + encodeURIComponent(String(read_box(el)));
      });
      return panel.id + '?' + pairs.join('&');
    }

    function update(source) {
      /* the language switch carries a lab the reader changed (or opened in a state), as it is
         (site.js data-carry; review 31-z #1: it carried the section above, and the other language
         opened Lab A at its defaults); a lab at its defaults, only scrolled past, is not carried */
      if (source || restored || panel.hasAttribute('data-carry')) panel.setAttribute('data-carry', state_address());
      const problems = [];
      const p = {};
      let at = null;
      clear_field_notes();
      for (const el of boxes) {
        const found = problem(panel, el);
        el.setAttribute('aria-invalid', found ? 'true' : 'false');
        if (found) { found.field = el; problems.push(found); at = at || el; }
      }
      /* a slider cannot show a value outside its range: it says its number box is invalid too */
      for (const el of sliders) {
        const box = box_of[el.getAttribute('data-param')];
        el.setAttribute('aria-invalid', box && box.getAttribute('aria-invalid') === 'true' ? 'true' : 'false');
      }
      for (const el of boxes) if (el.getAttribute('aria-invalid') !== 'true') p[el.getAttribute('data-param')] = read_box(el);
      if (problems.length) { show_invalid(problems, at); return; }
      let out;
      try {
        out = opts.compute(p);
      } catch (err) {
        show_invalid([model_problem(err)], model_field(err) || source);
        return;
      }
      clear_invalid();
      mark_relevance(p);
      const changes = [];
      const shared = group_units(out);
      for (const el of outputs) {
        const name = el.getAttribute('data-output');
        if (!(name in out)) continue;
        const text = write_output(el, out[name], shared);
        if ((opts.announce || []).indexOf(name) >= 0 && !el.closest('[data-lab-summary]')) {
          if (!first && announced[name] !== text) changes.push(label_of(el) + ': ' + text);
          announced[name] = text;
        }
      }
      if (state_output) panel.setAttribute('data-' + state_output.replace(/_/g, '-'), String(out[state_output]));
      last = { out: out, params: p };
      if (opts.render) { opts.render(panel, out, p); legend_what_is_drawn(); }
      if (live && changes.length) live.textContent = changes.join('; ');
      first = false;
    }

    /* A chart's legend names only what the chart draws (review 31-l: Lab B listed "KV hand-off"
       under a timeline with no hand-off, its strategy not PD): an entry whose swatch's mark is
       nowhere in the drawn chart is put away until it is. */
    function legend_what_is_drawn() {
      for (const legend of panel.querySelectorAll('.lab-legend')) {
        const box = legend.nextElementSibling;
        if (!box || !box.hasAttribute('data-lab-chart') || !box.querySelector('svg')) continue;
        for (const entry of legend.children) {
          const swatch = entry.querySelector('.lab-swatch');
          const mark = swatch && Array.prototype.filter.call(swatch.classList, function (name) { return name.indexOf('lab-seg-') === 0; })[0];
          if (mark) entry.hidden = !box.querySelector('.' + mark);
        }
      }
    }

    function apply_preset(button) {
      for (const el of boxes) reset_box(el);
      const values = JSON.parse(button.getAttribute('data-preset-values') || '{}');
      for (const name of Object.keys(values)) if (box_of[name]) write_box(box_of[name], values[name]);
      sync_sliders();
      if (button === reset_button) press_the_shown();
      else for (const b of presets) b.setAttribute('aria-pressed', b === button ? 'true' : 'false');
      if (preset_status) { free_room(preset_status); set_text(preset_status, button.getAttribute('data-preset-note') || ''); }
      /* the pinned summary shows the group the preset sets (review 31-l #3: Lab D's hit-boundary
         preset left it on the routing outputs, its answer screens further down) */
      const set = Object.keys(values).map(function (name) { return box_of[name] && box_of[name].closest('.lab-body[data-group]'); })
        .filter(Boolean)[0];
      if (set && summary_items.length) show_group(set.getAttribute('data-group'));
      update(button);
    }

    let shown_group = null;
    let aside = function () {}; // watch_summary: does the summary stand aside for the group now shown?
    function show_group(group) {
      for (const item of summary_items) item.classList.toggle('lab-summary-off', item.getAttribute('data-group') !== group);
      shown_group = group;
      aside();
    }

    for (const el of all_inputs) {
      // `input` fires for typing, dragging, selects and checkboxes alike.
      el.addEventListener('input', function () {
        const name = el.getAttribute('data-param');
        const box = box_of[name];
        if (is_slider(el)) write_box(box, read_slider(el, box));
        sync_sliders(name);
        if (box.hasAttribute('data-preset-select')) {
          const preset = presets.filter(function (b) { return b.getAttribute('data-preset') === box.value; })[0];
          if (preset) { apply_preset(preset); return; }
        }
        for (const b of presets) b.setAttribute('aria-pressed', 'false');
        if (preset_status && preset_status.textContent) {
          keep_room(preset_status); /* until the next preset */
          preset_status.textContent = '';
        }
        update(el);
      });
    }
    // A preset whose values are the defaults' own is the scenario the lab starts in (and returns
    // to on reset): pressed then, so pressing it again visibly changes nothing for a reason the
    // reader can see.
    function press_the_shown() {
      for (const b of presets) {
        const values = JSON.parse(b.getAttribute('data-preset-values') || 'null');
        const current = values !== null && Object.keys(values).every(function (name) {
          return box_of[name] && String(read_box(box_of[name])) === String(values[name]);
        });
        b.setAttribute('aria-pressed', current ? 'true' : 'false');
      }
    }
    press_the_shown();
    for (const b of presets.concat(reset_button ? [reset_button] : [])) {
      b.addEventListener('click', function () { apply_preset(b); });
    }
    if (summary_items.length) {
      panel.addEventListener('focusin', function (event) {
        const body = event.target.closest('[data-group]');
        if (body && !body.closest('[data-lab-summary]')) show_group(body.getAttribute('data-group'));
      });
      show_group(summary_items[0].getAttribute('data-group'));
    }
    if (summary) watch_summary();
    function watch_summary() {
      const named = summary.querySelector('[data-lab-summary-field]');
      if (named) {
        named.addEventListener('click', function () {
          if (!invalid_field) return;
          invalid_field.scrollIntoView({ block: 'center' });
          invalid_field.focus({ preventScroll: true });
        });
      }
      if (typeof IntersectionObserver !== 'function') return;
      // The summary copies outputs: while the outputs themselves are on screen it stands aside
      // (hidden, its room kept, so nothing below moves).
      // Only the outputs it copies: another group's outputs on screen leave it in place.
      const in_view = new Set();
      aside = function () {
        let copied = false;
        for (const el of in_view) {
          const group = el.closest('[data-group]');
          if (!group || !summary_items.length || group.getAttribute('data-group') === shown_group) copied = true;
        }
        summary.classList.toggle('lab-summary-aside', copied);
      };
      const outputs_seen = new IntersectionObserver(function (entries) {
        for (const entry of entries) {
          if (entry.isIntersecting) in_view.add(entry.target); else in_view.delete(entry.target);
        }
        aside();
      }, { rootMargin: '0px 0px -20% 0px' });
      for (const el of panel.querySelectorAll('.lab-outputs')) outputs_seen.observe(el);
      // It shows the group being read or edited: the one crossing the middle of the window
      // (a focused field's own group wins, focusin above).
      if (summary_items.length < 2) return;
      const group_seen = new IntersectionObserver(function (entries) {
        const focused = root.document.activeElement;
        if (focused && panel.contains(focused) && focused.closest('.lab-body[data-group]')) return;
        for (const entry of entries) {
          if (entry.isIntersecting) show_group(entry.target.getAttribute('data-group'));
        }
      }, { rootMargin: '-45% 0px -45% 0px' });
      for (const el of panel.querySelectorAll('.lab-body[data-group]')) group_seen.observe(el);
    }
    if (opts.render && AtlasLabs.chart) {
      const redraw = function () { if (last) { opts.render(panel, last.out, last.params); legend_what_is_drawn(); } };
      for (const box of panel.querySelectorAll('[data-lab-chart]')) AtlasLabs.chart.watch(box, redraw);
    }
    // A lab's state lives in the page address: restored here, and copied by "link to this state".
    const restored = state_in_address(panel);
    if (restored) {
      for (const name of Object.keys(restored)) {
        const box = box_of[name];
        if (box) write_box(box, box.type === 'checkbox' ? restored[name] === 'true' : restored[name]);
      }
      for (const b of presets) b.setAttribute('aria-pressed', 'false');
      const tab = panel.getAttribute('role') === 'tabpanel' && document.getElementById(panel.getAttribute('aria-labelledby'));
      if (tab && tab.getAttribute('aria-selected') !== 'true') tab.click();
    }
    const link = panel.querySelector('[data-lab-link]');
    if (link) {
      const status = panel.querySelector('[data-lab-link-status]');
      link.hidden = false;
      link.addEventListener('click', function () {
        const hash = '#' + state_address();
        root.history.replaceState(null, '', hash); // the address bar holds the link too
        const address = root.location.href;
        const said = function () { if (status) status.textContent = link.getAttribute('data-copied'); };
        if (root.navigator.clipboard && root.navigator.clipboard.writeText) root.navigator.clipboard.writeText(address).then(said, said);
        else said();
      });
    }
    panel.classList.add('lab-js');
    sync_sliders();
    update(null);
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
  AtlasLabs.script_pieces = script_pieces;
  AtlasLabs.clear = function (node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  };
})(typeof globalThis !== 'undefined' ? globalThis : this);
