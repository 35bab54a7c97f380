/*
 * define — the one module wrapper of labs_js, and the argument helpers the
 * model and formula modules share. Classic script, no dependencies. In a page
 * it must run before any model.js (render/site.py loads it first); in Node a
 * module gets it through require.
 *
 * Every model / formula module is one expression (no top-level declarations,
 * so several classic scripts can share the page's global scope):
 *
 *   (typeof module === 'object' ? module : {}).exports = (typeof require === 'function'
 *     ? require('../shared/define.js') : globalThis.AtlasLabs.define)('memory', function (lib) {
 *     'use strict';
 *     const num = lib.num;
 *     function weight_bytes(args) { … }
 *     return { weight_bytes: weight_bytes };
 *   });
 *
 * define(namespace, factory) calls factory(lib) once, registers the returned
 * api as globalThis.AtlasLabs[namespace] and returns it (for module.exports).
 * `lib` holds the helpers, bound to the namespace so errors name it:
 *   lib.finite(value, name)        value if it is a finite number, else a TypeError;
 *   lib.num(args, key, fallback)   the finite number args[key] (fallback when absent);
 *   lib.model(name)                another module's api: AtlasLabs[name] when it is
 *                                  registered, else labs_js/<name>/model.js or
 *                                  labs_js/formulas/<name>.js through require;
 *   lib.pick(source, names)        {name: source[name]} for each name: the outputs a result
 *                                  passes on from a part it computed;
 *   lib.refuse(text, problem)      a RangeError for a combination of inputs the model does not
 *                                  take; `problem` ({kind, param, min?, max?, other?}) names the
 *                                  input at fault and the lab's message (labs.invalid.<kind>),
 *                                  `other` the input it is measured against (shared/bind.js).
 */
(function (root) {
  'use strict';
  const AtlasLabs = root.AtlasLabs = root.AtlasLabs || {};

  /**
   * Another module's api, e.g. lib.model('memory') or lib.model('bottleneck'). Looked up at call
   * time, not at load. A page loads the modules a lab model names here before it
   * (render/site.py reads these calls); Node finds labs_js/<name>/model.js or labs_js/formulas/<name>.js.
   */
  function model(name) {
    if (AtlasLabs[name]) return AtlasLabs[name];
    if (typeof require === 'function') {
      try {
        return require('../' + name + '/model.js');
      } catch (err) {
        if (err.code !== 'MODULE_NOT_FOUND' || err.message.indexOf(name + '/model.js') < 0) throw err;
      }
      return require('../formulas/' + name + '.js');
    }
    throw new Error('labs_js: the ' + name + ' module must be loaded first');
  }

  function pick(source, names) {
    const out = {};
    for (const name of names) out[name] = source[name];
    return out;
  }

  function helpers(namespace) {
    // A missing or non-numeric input is a ledger or form typo: fail loudly
    // instead of printing NaN into a page.
    function finite(v, name) {
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new TypeError(namespace + ': input "' + name + '" must be a finite number');
      }
      return v;
    }
    function num(args, key, fallback) {
      return finite(args && args[key] !== undefined ? args[key] : fallback, key);
    }
    function refuse(text, problem) {
      const error = new RangeError(namespace + ': ' + text);
      error.problem = problem;
      return error;
    }
    return { finite: finite, num: num, model: model, pick: pick, refuse: refuse };
  }

  function define(namespace, factory) {
    const api = factory(helpers(namespace));
    AtlasLabs[namespace] = api;
    return api;
  }

  AtlasLabs.define = define;
  if (typeof module === 'object' && module.exports) module.exports = define;
})(typeof globalThis !== 'undefined' ? globalThis : this);
