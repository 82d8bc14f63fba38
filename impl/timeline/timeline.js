// The timeline page's script (responses_oracle.timeline): axis, zoom, detail panel.
// It only reads the page: the data block is parsed with JSON.parse and every value
// from the stream is written with textContent, never as markup.  Links are the rule
// pages the generator put in the data's "rules" map, never anything from the stream.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("timeline-data").textContent);
  var marks = data.marks;
  var rules = data.rules;
  var panel = document.getElementById("panel");
  var SVG = "http://www.w3.org/2000/svg";
  var charts = Array.prototype.slice.call(document.querySelectorAll("svg.chart"));
  var zoom = 1;
  var pinned = null;

  function node(tag, cls, text) {
    var element = document.createElement(tag);
    if (cls) element.className = cls;
    if (text !== undefined && text !== null) element.textContent = String(text);
    return element;
  }

  function ruleNode(id) {
    var rule = rules[id];
    var element;
    if (rule && rule.h) {
      element = node("a", "rule", id);
      element.href = rule.h;
      element.target = "_top";
    } else {
      element = node("span", "rule", id);
    }
    if (rule) element.title = rule.s;
    return element;
  }

  function line(parent, label, value) {
    var row = node("div", "line");
    row.appendChild(node("span", "label", label));
    if (typeof value === "string") row.appendChild(node("span", "value", value));
    else row.appendChild(value);
    parent.appendChild(row);
  }

  function show(key) {
    var mark = marks[key];
    if (!mark) return;
    while (panel.firstChild) panel.removeChild(panel.firstChild);
    var where = mark.k === "end_of_input" ? "end of input" : "#" + mark.i;
    if (mark.n > 1) where = "#" + mark.i + "–#" + mark.z + " (" + mark.n + " events folded)";
    var title = node("h3", null, where + "  " + (mark.t || mark.k));
    panel.appendChild(title);
    var facts = node("div", "facts");
    var lane = mark.lane + (mark.slot !== null ? " · slot " + mark.slot : "");
    line(facts, "response", String(mark.response + 1));
    line(facts, "lane", lane);
    if (mark.d !== null) line(facts, "route / decision", mark.d);
    if (mark.b !== null && mark.a !== null) line(facts, "transition", mark.b + " → " + mark.a);
    if (mark.n > 1) line(facts, "payload", mark.c + " characters in " + mark.n + " events");
    var ruleList = node("span", "value");
    mark.r.forEach(function (id, index) {
      if (index) ruleList.appendChild(document.createTextNode(" "));
      ruleList.appendChild(ruleNode(id));
      if (rules[id]) ruleList.appendChild(node("span", "summary", rules[id].s));
    });
    if (mark.r.length) line(facts, "rules", ruleList);
    panel.appendChild(facts);
    if (mark.g.length) {
      var list = node("ul", "codes");
      mark.g.forEach(function (d) {
        var item = node("li");
        item.appendChild(node("span", "sev sev-" + d[1], d[1]));
        item.appendChild(node("code", null, d[0]));
        item.appendChild(document.createTextNode(" "));
        item.appendChild(ruleNode(d[3]));
        item.appendChild(node("span", "detail", d[2]));
        list.appendChild(item);
      });
      panel.appendChild(list);
    }
    if (mark.j) panel.appendChild(node("pre", "json", mark.j));
  }

  function chartOf(key) {
    return charts[marks[key].response];
  }

  function place(key) {
    var chart = chartOf(key);
    if (!chart) return;
    var mark = marks[key];
    Array.prototype.forEach.call(document.querySelectorAll(".cursor.on"), function (line) {
      line.classList.remove("on");
    });
    var cursor = chart.querySelector(".cursor");
    var x = mark.i - Number(chart.dataset.first) + 0.5;
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
    cursor.classList.add("on");
  }

  function select(key, scroll) {
    var old = document.querySelector("[data-e].selected");
    if (old) old.classList.remove("selected");
    pinned = key;
    show(key);
    place(key);
    var target = document.querySelector('g[data-e="' + key + '"]');
    if (target) {
      target.classList.add("selected");
      if (scroll) target.scrollIntoView({ block: "nearest", inline: "center" });
    }
  }

  function fitStep(chart) {
    var width = chart.parentNode.clientWidth - 2 * data.pad;
    var columns = Number(chart.dataset.columns);
    return Math.max(Math.min(data.maxStep, width / columns), 0.0001);
  }

  function niceInterval(step) {
    var wanted = 70 / step;
    var interval = 1;
    while (interval < wanted) {
      if (interval * 2 >= wanted) return interval * 2;
      if (interval * 5 >= wanted) return interval * 5;
      interval *= 10;
    }
    return interval;
  }

  function drawAxis(chart, step) {
    var axis = chart.querySelector(".axis");
    while (axis.firstChild) axis.removeChild(axis.firstChild);
    var first = Number(chart.dataset.first);
    var columns = Number(chart.dataset.columns);
    var interval = niceInterval(step);
    var start = Math.ceil(first / interval) * interval;
    for (var index = start; index < first + columns; index += interval) {
      var x = data.pad + (index - first + 0.5) * step;
      var text = document.createElementNS(SVG, "text");
      text.setAttribute("x", x);
      text.setAttribute("y", data.axis - 7);
      text.textContent = "#" + index;
      axis.appendChild(text);
      var tick = document.createElementNS(SVG, "line");
      tick.setAttribute("x1", x);
      tick.setAttribute("x2", x);
      tick.setAttribute("y1", data.axis - 4);
      tick.setAttribute("y2", data.axis);
      axis.appendChild(tick);
    }
  }

  function layout() {
    charts.forEach(function (chart) {
      var columns = Number(chart.dataset.columns);
      var step = Math.min(fitStep(chart) * zoom, 4e6 / columns);
      chart.setAttribute("width", (2 * data.pad + columns * step).toFixed(1));
      chart.querySelector("g.x").setAttribute(
        "transform", "translate(" + data.pad + ",0) scale(" + step + ",1)");
      drawAxis(chart, step);
    });
  }

  document.addEventListener("mouseover", function (event) {
    var target = event.target.closest("[data-e]");
    if (target && pinned === null) show(Number(target.dataset.e));
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-zoom]");
    if (button) {
      var how = button.dataset.zoom;
      zoom = how === "in" ? zoom * 2 : how === "out" ? Math.max(zoom / 2, 1 / 8) : 1;
      layout();
      return;
    }
    var target = event.target.closest("[data-e]");
    if (target) select(Number(target.dataset.e), target.tagName === "TR");
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      pinned = null;
      return;
    }
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    if (!marks.length) return;
    var next = pinned === null ? 0 : pinned + (event.key === "ArrowRight" ? 1 : -1);
    if (next >= 0 && next < marks.length) select(next, true);
    event.preventDefault();
  });
  window.addEventListener("resize", layout);
  layout();
})();
