/*
 * Lab D · Cache & Fleet — UI wiring. Browser only; needs shared/format.js,
 * shared/bind.js and fleet/model.js loaded first. AtlasLabs.fleet.lab
 * gives the fleet policy model, the K3-style hit boundary and the radix-tree
 * prefix state of seed 004's three-request example in one object.
 */
(function (root) {
  'use strict';
  const A = root.AtlasLabs;

  A.bind_lab('fleet', {
    compute: function (p) { return A.fleet.lab(p); },
    announce: ['recommendation'],
    relevant: {
      hot_share: function (p) { return p.routing === 'cache_affinity'; },
    },
    render: function (panel, out) {
      panel.setAttribute('data-recommendation', out.recommendation);
    },
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
