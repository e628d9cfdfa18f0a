// The job graph: Cytoscape.js with the dagre layout (both from WebJars), nodes coloured by status. Built from
// the page's JSON ('graph': id, status, parents); recoloured on every refresh. Clicking a job opens it when the
// container names a link base (instances). Labels are canvas text: no HTML is built from names. The colours
// are ui.css's status properties (--st-<status>-bg/-fg/-edge), read again when the theme changes, so badges,
// graph and timeline agree in both themes. A node's label is its name and status: never colour alone.
(function () {
  'use strict';
  var container = document.getElementById('graph');
  if (!container || typeof cytoscape === 'undefined') { return; }
  // The cytoscape-dagre WebJar (bower build) registers the 'dagre' layout on the global cytoscape by itself.
  var layoutName = typeof dagre !== 'undefined' ? 'dagre' : 'breadthfirst';
  var palette = {};
  var link = container.getAttribute('data-link');
  var cy = null;

  // The CSS properties of a status: UPSTREAM_FAILED reads --st-upstream-failed-bg.
  function readPalette() {
    var css = getComputedStyle(document.documentElement);
    function get(name) { return css.getPropertyValue(name).trim(); }
    palette = { edge: get('--graph-edge'), selected: get('--graph-selected'), text: get('--bs-body-color') };
    ['WAITING', 'RUNNABLE', 'RUNNING', 'SUCCESS', 'FAILURE', 'DISABLED', 'ABORTED', 'UPSTREAM_FAILED', 'PAUSED',
      'DRAINED'].forEach(function (status) {
      var key = status === 'PAUSED' || status === 'DRAINED' ? 'held' : status.toLowerCase().replace('_', '-');
      palette[status] = { bg: get('--st-' + key + '-bg'), fg: get('--st-' + key + '-fg'), edge: get('--st-' + key + '-edge') };
    });
  }

  function colour(status, part) { return (palette[status] || palette.WAITING)[part]; }

  function styles() {
    return [
      { selector: 'node', style: { 'label': 'data(label)', 'shape': 'round-rectangle', 'width': 'label',
        'height': link ? 34 : 24, 'padding': '8px', 'text-valign': 'center', 'font-size': 12, 'border-width': 1.5,
        'text-wrap': 'wrap', 'line-height': 1.25,
        'background-color': function (e) { return colour(e.data('status'), 'bg'); },
        'border-color': function (e) { return colour(e.data('status'), 'edge'); },
        'color': function (e) { return colour(e.data('status'), 'fg'); } } },
      { selector: 'node.condition', style: { 'shape': 'octagon' } },
      { selector: 'node[status = "DISABLED"]', style: { 'border-style': 'dashed' } },
      { selector: 'node.picked', style: { 'border-width': 4, 'border-color': palette.selected } },
      { selector: 'edge', style: { 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'width': 1.5,
        'line-color': palette.edge, 'target-arrow-color': palette.edge } }
    ];
  }

  // An instance's jobs say their status in words too; a definition's are all WAITING.
  function label(n) { return link ? n.id + '\n' + n.status.toLowerCase().replace('_', ' ') : n.id; }

  // What the canvas shows, said in words for screen readers (the jobs table lists the same).
  function describe(nodes) {
    var counts = {};
    nodes.forEach(function (n) { counts[n.status] = (counts[n.status] || 0) + 1; });
    var parts = Object.keys(counts).sort().map(function (s) { return counts[s] + ' ' + s; });
    container.setAttribute('aria-label', 'Job graph of ' + nodes.length + ' jobs'
      + (parts.length ? ': ' + parts.join(', ') : ''));
  }

  // Shift-click: selects the job and everything downstream of it in the action bar's selection (actions.js).
  function selectWithDependents(id) {
    var node = cy.getElementById(id);
    if (window.flipper.selection) { window.flipper.selection.add(node.union(node.successors('node')).map(function (n) { return n.id(); })); }
  }

  function build(nodes) {
    var elements = [];
    var ids = {};
    nodes.forEach(function (n) { ids[n.id] = true; });
    nodes.forEach(function (n) {
      elements.push({ group: 'nodes', data: { id: n.id, label: label(n), status: n.status },
        classes: n.condition ? 'condition' : '' });
      n.parents.forEach(function (p) {
        if (ids[p]) { elements.push({ group: 'edges', data: { id: p + '->' + n.id, source: p, target: n.id } }); }
      });
    });
    cy = cytoscape({
      container: container,
      elements: elements,
      maxZoom: 1.5,
      autounselectify: true, // the action bar's selection (class 'picked') is the only one
      layout: { name: layoutName, rankDir: 'TB',
        directed: true, nodeSep: 30, rankSep: 50 },
      style: styles()
    });
    container.setAttribute('data-ready', 'true');
    if (link) {
      // With the action bar, a click toggles the job in its selection and a double click opens the job.
      cy.on('tap', 'node', function (event) {
        var selection = window.flipper.selection;
        if (!selection) { location.href = link + encodeURIComponent(event.target.id()); return; }
        if (event.originalEvent && event.originalEvent.shiftKey) { selectWithDependents(event.target.id()); return; }
        selection.toggle(event.target.id());
      });
      cy.on('dbltap', 'node', function (event) { location.href = link + encodeURIComponent(event.target.id()); });
    }
    window.flipper.graph = cy;
    window.flipper.selectWithDependents = selectWithDependents;
  }

  document.addEventListener('flipper:data', function (event) {
    var nodes = event.detail.graph || [];
    describe(nodes);
    if (!cy) { readPalette(); build(nodes); return; }
    nodes.forEach(function (n) {
      var node = cy.getElementById(n.id);
      if (node.nonempty() && node.data('status') !== n.status) { node.data({ status: n.status, label: label(n) }); }
    });
    cy.style().update();
  });

  document.addEventListener('flipper:theme', function () {
    if (!cy) { return; }
    readPalette();
    cy.style(styles());
  });
})();
