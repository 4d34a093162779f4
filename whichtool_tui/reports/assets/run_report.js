(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("whichtool-data").textContent);
  var surface = new Set(data.metrics.byTool.map(function (t) { return t.tool; }));
  var prompts = new Map(data.tasks.list.map(function (t) { return [t.id, t.prompt]; }));
  var LIMIT = 200;

  function column(trial) {
    if (trial.callCount > 1) return "(multiple calls)";
    if (trial.callCount === 0) return "(none)";
    if (trial.pick === null || !surface.has(trial.pick)) return "(phantom)";
    return trial.pick;
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function describeCall(call) {
    var name = call.name === null ? "(no name)" : call.name;
    var args = call.rawArguments !== undefined ? call.rawArguments
      : (call.arguments === null ? "null" : JSON.stringify(call.arguments));
    return name + " " + args;
  }

  function renderTrial(trial) {
    var box = el("article", "trial");
    box.setAttribute("data-task", trial.taskId);
    var head = el("div");
    head.appendChild(el("strong", "mono", trial.taskId + " #" + trial.trialIndex));
    head.appendChild(document.createTextNode(" "));
    head.appendChild(el("span", "pill", trial.verdict));
    box.appendChild(head);
    var position = trial.expectedPosition < 0 ? "distractor"
      : "expected tool shown at position " + (trial.expectedPosition + 1) + " of " + trial.order.length;
    box.appendChild(el("div", "meta", position));
    box.appendChild(el("div", "meta", "Prompt"));
    box.appendChild(el("pre", "prompt", prompts.get(trial.taskId) || ""));
    box.appendChild(el("div", "meta", trial.calls.length + (trial.calls.length === 1 ? " call" : " calls")));
    var list = el("ol", "calls");
    trial.calls.forEach(function (call) { list.appendChild(el("li", "mono", describeCall(call))); });
    if (trial.calls.length) box.appendChild(list);
    box.appendChild(el("div", "meta", "Reply"));
    box.appendChild(el("pre", "reply", trial.text === "" ? "(empty)" : trial.text));
    return box;
  }

  var panel = document.getElementById("cell-trials");
  var buttons = Array.prototype.slice.call(document.querySelectorAll("table.heatmap button"));

  function show(button) {
    buttons.forEach(function (b) { b.setAttribute("aria-pressed", b === button ? "true" : "false"); });
    var row = button.getAttribute("data-row");
    var col = button.getAttribute("data-col");
    var matches = data.trials.filter(function (t) {
      return t.verdict !== "error" && (t.expected === null ? "(none)" : t.expected) === row && column(t) === col;
    });
    panel.textContent = "";
    var rowLabel = row === "(none)" ? "a distractor" : row;
    panel.appendChild(el("h3", null, matches.length + " trial" + (matches.length === 1 ? "" : "s") +
      ": expected " + rowLabel + ", picked " + col));
    matches.slice(0, LIMIT).forEach(function (t) { panel.appendChild(renderTrial(t)); });
    if (matches.length > LIMIT) {
      panel.appendChild(el("p", "hint", (matches.length - LIMIT) + " more not shown."));
    }
  }

  buttons.forEach(function (button) {
    button.addEventListener("click", function () { show(button); });
    button.addEventListener("keydown", function (event) {
      var r = Number(button.getAttribute("data-r"));
      var c = Number(button.getAttribute("data-c"));
      var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      var move = moves[event.key];
      if (!move) return;
      var next = document.querySelector('table.heatmap button[data-r="' + (r + move[0]) + '"][data-c="' + (c + move[1]) + '"]');
      if (next) {
        event.preventDefault();
        button.setAttribute("tabindex", "-1");
        next.setAttribute("tabindex", "0");
        next.focus();
      }
    });
  });
})();
