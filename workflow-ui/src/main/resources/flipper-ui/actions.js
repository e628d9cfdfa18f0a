// The instance page's action bar and the workflow page's start form (docs/ui.md, "Actions").
// Action bar: the jobs ticked in the table (the primary control) or clicked in the graph (graph.js) are one
// selection; each job action is enabled when the server's per-job availability (the page JSON's 'actions')
// allows it for every selected job, else it shows the server's reason. The selection survives the live refresh,
// which re-renders the table. Start form: rows of parameters added and removed. No markup is built from data.
(function () {
  'use strict';
  var flipper = window.flipper = window.flipper || {};

  function setReason(button, reason) {
    var tip = document.getElementById('reason-' + button.getAttribute('data-op'));
    button.setAttribute('aria-disabled', reason ? 'true' : 'false');
    button.title = reason || button.textContent;
    if (tip) { tip.textContent = reason || ''; }
  }

  function actionBar(bar) {
    var selected = {};
    var rules = null;
    var executions = {}; // job name to its number of executions: redo's default is the last one
    var execution = document.getElementById('action-execution');

    function boxes() { return Array.prototype.slice.call(document.querySelectorAll('input.job-pick')); }
    // In the table's order (parents first), whatever order they were picked in.
    function picked() { return boxes().filter(function (b) { return selected[b.value]; }).map(function (b) { return b.value; }); }

    function jobReason(rule, jobs) {
      if (jobs.length === 0) { return rule.label + ': no job selected'; }
      if (rule.oneJob && jobs.length !== 1) { return rule.label + ': select exactly one job'; }
      for (var i = 0; i < jobs.length; i++) {
        var refusal = rule.refusals[jobs[i]];
        if (refusal) { return rule.label + ': ' + refusal; }
      }
      return null;
    }

    function render() {
      var all = boxes();
      var jobs = picked();
      all.forEach(function (b) {
        b.checked = !!selected[b.value];
        var row = b.closest('tr');
        if (row) { row.classList.toggle('picked', b.checked); }
      });
      var pickAll = document.getElementById('pick-all');
      if (pickAll) {
        pickAll.checked = all.length > 0 && jobs.length === all.length;
        pickAll.indeterminate = jobs.length > 0 && jobs.length < all.length;
      }
      document.getElementById('selection-count').textContent =
        jobs.length === 0 ? 'none selected' : jobs.length + ' selected: ' + jobs.join(', ');
      if (rules) {
        rules.jobs.forEach(function (rule) {
          var button = document.getElementById('action-' + rule.op);
          if (button) { setReason(button, jobReason(rule, jobs)); }
        });
        rules.instance.forEach(function (action) {
          var button = document.getElementById('action-' + action.op);
          if (button) { setReason(button, action.reason); }
        });
      }
      if (execution && !execution.getAttribute('data-edited')) {
        execution.value = jobs.length === 1 && executions[jobs[0]] ? executions[jobs[0]] : '';
      }
      if (flipper.graph) {
        flipper.graph.nodes().forEach(function (n) { n.toggleClass('picked', !!selected[n.id()]); });
      }
    }

    function set(names, on) {
      names.forEach(function (name) { if (on) { selected[name] = true; } else { delete selected[name]; } });
      render();
    }

    document.addEventListener('change', function (event) {
      var target = event.target;
      if (target.classList && target.classList.contains('job-pick')) { set([target.value], target.checked); }
      if (target.id === 'pick-all') { set(boxes().map(function (b) { return b.value; }), target.checked); }
    });
    if (execution) { execution.addEventListener('input', function () { execution.setAttribute('data-edited', 'true'); }); }
    // A disabled action stays focusable (its reason is read out and shown) but does not submit.
    bar.addEventListener('click', function (event) {
      var button = event.target.closest('button[aria-disabled="true"]');
      if (button) { event.preventDefault(); button.focus(); }
    });
    document.addEventListener('flipper:data', function (event) {
      rules = event.detail.actions || null;
      executions = {};
      (event.detail.jobs || []).forEach(function (j) { executions[j.name] = j.executions; });
      var present = {};
      boxes().forEach(function (b) { present[b.value] = true; });
      Object.keys(selected).forEach(function (name) { if (!present[name]) { delete selected[name]; } });
      render();
      bar.setAttribute('data-ready', 'true');
    });
    flipper.selection = {
      toggle: function (name) { set([name], !selected[name]); },
      add: function (names) { set(names, true); },
      selected: picked
    };
    render();
  }

  function startForm(form) {
    var body = form.querySelector('#param-rows tbody');
    function renumber() {
      Array.prototype.forEach.call(body.rows, function (row, i) {
        row.querySelector('.param-key').setAttribute('aria-label', 'parameter ' + (i + 1) + ' name');
        row.querySelector('.param-value').setAttribute('aria-label', 'parameter ' + (i + 1) + ' value');
      });
    }
    document.getElementById('param-add').addEventListener('click', function () {
      var row = body.rows[body.rows.length - 1].cloneNode(true);
      row.querySelectorAll('input').forEach(function (input) { input.value = ''; });
      body.appendChild(row);
      renumber();
      row.querySelector('.param-key').focus();
    });
    body.addEventListener('click', function (event) {
      var remove = event.target.closest('.param-remove');
      if (!remove) { return; }
      var row = remove.closest('tr');
      if (body.rows.length > 1) { row.remove(); renumber(); } else { row.querySelectorAll('input').forEach(function (i) { i.value = ''; }); }
    });
  }

  var bar = document.getElementById('action-bar');
  if (bar) { actionBar(bar); }
  var form = document.getElementById('start-form');
  if (form) { startForm(form); }
})();
