// Injected into a report page by html_chromium.sh: after load, every SVG text label whose
// rendered box leaves its plot (clipped) or overlaps another label's, one line each, in a
// <pre id="boxcheck"> that --dump-dom then shows.  A label's box is its getBBox() corners
// mapped through its transform (getCTM), so rotated labels are tested as drawn; two boxes
// overlap when no side of either separates them (separating axis test) by more than 1 px.
window.addEventListener('load', function () {
  var out = [];
  function corners(t) {
    var b = t.getBBox(), m = t.getCTM(), svg = t.ownerSVGElement, pts = [];
    [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
      .forEach(function (c) {
        var p = svg.createSVGPoint();
        p.x = c[0]; p.y = c[1];
        p = p.matrixTransform(m);
        pts.push([p.x, p.y]);
      });
    return pts;
  }
  function project(pts, ax) {
    var lo = Infinity, hi = -Infinity;
    pts.forEach(function (p) { var v = p[0] * ax[0] + p[1] * ax[1]; lo = Math.min(lo, v); hi = Math.max(hi, v); });
    return [lo, hi];
  }
  function overlap(a, b) {
    var polys = [a, b];
    for (var k = 0; k < 2; k++) {
      var q = polys[k];
      for (var i = 0; i < 4; i++) {
        var dx = q[(i + 1) % 4][0] - q[i][0], dy = q[(i + 1) % 4][1] - q[i][1];
        var len = Math.hypot(dx, dy);
        if (len === 0) continue;
        var ax = [-dy / len, dx / len];
        var pa = project(a, ax), pb = project(b, ax);
        if (Math.min(pa[1], pb[1]) - Math.max(pa[0], pb[0]) <= 1) return false;
      }
    }
    return true;
  }
  var svgs = document.querySelectorAll('svg');
  for (var si = 0; si < svgs.length; si++) {
    var svg = svgs[si];
    var vb = svg.viewBox.baseVal, w = vb && vb.width ? vb.width : svg.width.baseVal.value;
    var h = vb && vb.height ? vb.height : svg.height.baseVal.value;
    var first = svg.querySelector('text');
    var title = first ? first.textContent : '';
    var texts = [], boxes = [];
    svg.querySelectorAll('text').forEach(function (t) {
      if (t.textContent.trim() === '') return;
      var b = t.getBBox();
      if (b.width === 0 && b.height === 0) return;
      texts.push(t.textContent.trim());
      boxes.push(corners(t));
    });
    for (var i = 0; i < boxes.length; i++) {
      var clipped = boxes[i].some(function (p) { return p[0] < -0.5 || p[1] < -0.5 || p[0] > w + 0.5 || p[1] > h + 0.5; });
      if (clipped)
        out.push('plot ' + (si + 1) + ' (' + title + '): clipped: "' + texts[i] + '"');
      for (var j = i + 1; j < boxes.length; j++)
        if (overlap(boxes[i], boxes[j]))
          out.push('plot ' + (si + 1) + ' (' + title + '): overlap: "' + texts[i] + '" and "' + texts[j] + '"');
    }
  }
  var pre = document.createElement('pre');
  pre.id = 'boxcheck';
  pre.textContent = 'BOXCHECK\n' + (out.length ? out.join('\n') : 'none') + '\nEND';
  document.body.appendChild(pre);
});
