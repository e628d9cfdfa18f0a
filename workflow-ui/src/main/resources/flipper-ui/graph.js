// The job graph: Cytoscape.js with the dagre layout (both from WebJars), nodes coloured by status. Built from
// the page's JSON ('graph': id, status, parents); recoloured on every refresh. Clicking a job opens it when the
// container names a link base (instances). Labels are canvas text: no HTML is built from names.
(function () {
  'use strict';
  var container = document.getElementById('graph');
  if (!container || typeof cytoscape === 'undefined') { return; }
  // The cytoscape-dagre WebJar (bower build) registers the 'dagre' layout on the global cytoscape by itself.
  var layoutName = typeof dagre !== 'undefined' ? 'dagre' : 'breadthfirst';
  var colours = { WAITING: '#dddddd', RUNNABLE: '#fff1a8', RUNNING: '#66ccff', SUCCESS: '#89e894',
    FAILURE: '#ff3333', DISABLED: '#ffffff', ABORTED: '#ff3333', UPSTREAM_FAILED: '#f4a8a8' };
  var link = container.getAttribute('data-link');
  var cy = null;

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
      elements.push({ group: 'nodes', data: { id: n.id, label: n.id, status: n.status },
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
      style: [
        { selector: 'node', style: { 'label': 'data(label)', 'shape': 'round-rectangle', 'width': 'label',
          'height': 26, 'padding': '8px', 'text-valign': 'center', 'font-size': 12, 'border-width': 1,
          'border-color': '#555', 'background-color': function (e) { return colours[e.data('status')] || '#000'; } } },
        { selector: 'node.condition', style: { 'shape': 'octagon' } },
        { selector: 'node.picked', style: { 'border-width': 4, 'border-color': '#0d47a1' } },
        { selector: 'edge', style: { 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'width': 1.5,
          'line-color': '#888', 'target-arrow-color': '#888' } }
      ]
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
    if (!cy) { build(nodes); return; }
    nodes.forEach(function (n) {
      var node = cy.getElementById(n.id);
      if (node.nonempty() && node.data('status') !== n.status) { node.data('status', n.status); }
    });
    cy.style().update();
  });
})();
