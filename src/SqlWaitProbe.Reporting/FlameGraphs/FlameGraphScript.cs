namespace SqlWaitProbe.Reporting.FlameGraphs;

/// <summary>
/// The script embedded in every flame graph: hover details, click to zoom, search with highlight and matched share.
/// Search reads the graph's own text box as the user types: report.html shows each graph in a sandboxed frame, where
/// <c>prompt()</c> is blocked, and the browser's find (Ctrl+F) is left to the browser.
/// </summary>
internal static class FlameGraphScript
{
    /// <summary>The script text; <c>FONT_W</c>, <c>PAD</c> and <c>INNER_W</c> are replaced by the layout's values.</summary>
    public const string Text = """
"use strict";
var fontW = FONT_W, pad = PAD, innerW = INNER_W, frames = [], details, matched, reset, box_ = null, zoomed = null, term = null;
function init() {
  details = document.getElementById("details"); matched = document.getElementById("matched"); reset = document.getElementById("reset");
  var gs = document.getElementById("frames").getElementsByTagName("g");
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], r = g.getElementsByTagName("rect")[0], t = g.getElementsByTagName("text")[0];
    var lines = g.getElementsByTagName("title")[0].textContent.split("\n");
    frames.push({ g: g, r: r, t: t, x: +r.getAttribute("x"), w: +r.getAttribute("width"), y: +r.getAttribute("y"),
      name: lines[0], mod: lines[1], stats: lines[2], fill: r.getAttribute("fill") });
    g.setAttribute("data-i", i);
  }
  var box = document.getElementById("frames");
  box.addEventListener("click", function (e) { var f = frameOf(e); if (f) zoom(f); });
  box.addEventListener("mouseover", function (e) { var f = frameOf(e); if (f) details.textContent = f.name + (f.mod ? " (" + f.mod + ")" : "") + " \u2014 " + f.stats; });
  box.addEventListener("mouseout", function () { details.textContent = " "; });
  box_ = document.getElementById("term");
  if (box_) {
    box_.addEventListener("input", function () { search(box_.value); });
    box_.addEventListener("keydown", function (e) { if (e.key === "Escape") { box_.value = ""; search(""); e.stopPropagation(); } });
  }
  reset.addEventListener("click", unzoom);
  window.addEventListener("keydown", function (e) { if (e.key === "Escape") unzoom(); });
}
function frameOf(e) { var g = e.target.closest ? e.target.closest("g") : e.target.parentNode; return g && g.hasAttribute("data-i") ? frames[+g.getAttribute("data-i")] : null; }
function label(f, w) { var n = Math.floor((w - 6) / fontW); if (n < 3) return ""; return f.name.length <= n ? f.name : f.name.substring(0, n - 2) + ".."; }
function place(f, x, w) { f.r.setAttribute("x", x); f.r.setAttribute("width", w); f.t.setAttribute("x", x + 3); f.t.textContent = label(f, w); f.g.style.display = ""; }
function zoom(z) {
  var scale = innerW / z.w, eps = 1e-6;
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i];
    if (f.y >= z.y) {
      if (f.x <= z.x + eps && f.x + f.w >= z.x + z.w - eps) { place(f, pad, innerW); f.g.style.opacity = f === z ? "" : "0.6"; }
      else f.g.style.display = "none";
    } else if (f.x >= z.x - eps && f.x + f.w <= z.x + z.w + eps) { place(f, pad + (f.x - z.x) * scale, f.w * scale); f.g.style.opacity = ""; }
    else f.g.style.display = "none";
  }
  zoomed = z; reset.style.opacity = "1";
}
function unzoom() {
  for (var i = 0; i < frames.length; i++) { var f = frames[i]; place(f, f.x, f.w); f.g.style.opacity = ""; }
  zoomed = null; reset.style.opacity = "0";
}
function search(t) {
  term = t || null; var re = null, spans = [];
  if (term) { try { re = new RegExp(term, "i"); } catch (e) { re = null; } }
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i], full = (f.mod ? f.mod + "!" : "") + f.name;
    var hit = term !== null && (re ? re.test(full) : full.toLowerCase().indexOf(term.toLowerCase()) >= 0);
    f.r.setAttribute("fill", hit ? "rgb(230,0,230)" : f.fill);
    if (hit) spans.push([f.x, f.x + f.w]);
  }
  spans.sort(function (a, b) { return a[0] - b[0]; });
  var total = 0, end = -1;
  for (var j = 0; j < spans.length; j++) {
    var s = Math.max(spans[j][0], end);
    if (spans[j][1] > s) total += spans[j][1] - s;
    end = Math.max(end, spans[j][1]);
  }
  matched.textContent = term ? "Matched: " + (100 * total / innerW).toFixed(1) + "%" : " ";
}
""";
}
