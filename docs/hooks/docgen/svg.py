"""SVG drawing: arrays and linked nodes, bar and line charts (game boards: ``solitaire_ds.boards``)."""

from __future__ import annotations

from typing import Any

from docgen.common import _esc, _item_text

_CELL_W, _CELL_H = 46, 34


def _svg(width: float, height: float, body: list[str], title: str) -> str:
    return (f'<svg class="ds-diagram" data-search-exclude xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
            f'aria-label="{_esc(title)}" font-family="sans-serif" font-size="14">'
            f"<title>{_esc(title)}</title>" + "".join(body) + "</svg>")


_ARROW_DEFS = ('<defs><marker id="ah" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
               'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
               'fill="#37474f"/></marker></defs>')


def _array_svg(obj: Any, title: str) -> str:
    slots = obj._slots
    size = obj._size
    front = getattr(obj, "_front", 0)
    cap = len(slots)
    used = {(front + k) % cap for k in range(size)}
    x0, y0 = 10, 34
    body = [_ARROW_DEFS]
    for i, item in enumerate(slots):
        x = x0 + i * _CELL_W
        fill = "#c8e6c9" if i in used else "#f5f5f5"
        body.append(f'<rect x="{x}" y="{y0}" width="{_CELL_W}" height="{_CELL_H}" fill="{fill}" '
                    'stroke="#37474f"/>')
        text = _item_text(item) if i in used else "·"
        body.append(f'<text x="{x + _CELL_W / 2}" y="{y0 + 22}" text-anchor="middle">{_esc(text)}</text>')
        body.append(f'<text x="{x + _CELL_W / 2}" y="{y0 + _CELL_H + 15}" text-anchor="middle" '
                    f'font-size="11" fill="#607d8b">{i}</text>')
    marks: dict[int, list[str]] = {}
    if hasattr(obj, "_front"):
        marks.setdefault(front, []).append("front")
        if size:
            marks.setdefault((front + size - 1) % cap, []).append("rear" if hasattr(obj, "add_front") else "back")
    elif size:
        marks.setdefault(size - 1, []).append("top")
    for i, names in marks.items():
        x = x0 + i * _CELL_W + _CELL_W / 2
        body.append(f'<text x="{x}" y="12" text-anchor="middle" font-size="12" fill="#bf360c">'
                    f'{_esc(" / ".join(names))}</text>')
        body.append(f'<line x1="{x}" y1="16" x2="{x}" y2="{y0 - 2}" stroke="#bf360c" marker-end="url(#ah)"/>')
    info = f"size = {size}, capacity = {cap}" + (f", front = {front}" if hasattr(obj, "_front") else "")
    body.append(f'<text x="{x0}" y="{y0 + _CELL_H + 34}" font-size="12" fill="#37474f">{_esc(info)}</text>')
    width = max(x0 * 2 + cap * _CELL_W, 220)
    return _svg(width, y0 + _CELL_H + 42, body, title)


def _node_box(x: float, y: float, text: str, fill: str = "#bbdefb") -> str:
    return (f'<rect x="{x}" y="{y}" width="{_CELL_W}" height="{_CELL_H}" rx="6" fill="{fill}" '
            f'stroke="#37474f"/><text x="{x + _CELL_W / 2}" y="{y + 22}" text-anchor="middle">'
            f"{_esc(text)}</text>")


def _linked_svg(obj: Any, title: str) -> str:
    gap = 30
    x0, y0 = 10, 34
    body = [_ARROW_DEFS]
    if hasattr(obj, "_sentinel"):  # a ring: sentinel, front ... rear, back to the sentinel
        nodes = [obj._sentinel]
        node = obj._sentinel.next
        while node is not obj._sentinel:
            nodes.append(node)
            node = node.next
        labels = ["S"] + [_item_text(n.item) for n in nodes[1:]]
        for i, text in enumerate(labels):
            x = x0 + i * (_CELL_W + gap)
            body.append(_node_box(x, y0, text, "#eeeeee" if i == 0 else "#bbdefb"))
            if i:
                xa = x - gap
                body.append(f'<line x1="{xa}" y1="{y0 + 11}" x2="{x - 1}" y2="{y0 + 11}" stroke="#37474f" '
                            'marker-end="url(#ah)"/>')
                body.append(f'<line x1="{x}" y1="{y0 + 24}" x2="{xa + 1}" y2="{y0 + 24}" stroke="#37474f" '
                            'marker-end="url(#ah)"/>')
        last = x0 + (len(labels) - 1) * (_CELL_W + gap) + _CELL_W / 2
        first = x0 + _CELL_W / 2
        yb = y0 + _CELL_H
        body.append(f'<path d="M{last},{yb} C{last},{yb + 30} {first},{yb + 30} {first},{yb + 1}" fill="none" '
                    'stroke="#78909c" stroke-dasharray="4 3" marker-end="url(#ah)"/>')
        body.append(f'<text x="{x0}" y="{y0 - 12}" font-size="12" fill="#bf360c">sentinel</text>')
        if len(labels) > 1:
            body.append(f'<text x="{x0 + _CELL_W + gap}" y="{y0 - 12}" font-size="12" fill="#bf360c">front</text>')
            body.append(f'<text x="{x0 + (len(labels) - 1) * (_CELL_W + gap)}" y="{y0 + _CELL_H + 44}" '
                        'font-size="12" fill="#bf360c">rear (sentinel.prev)</text>')
        width = x0 * 2 + len(labels) * (_CELL_W + gap) + 60
        return _svg(max(width, 240), y0 + _CELL_H + 52, body, title)
    head = obj._top if hasattr(obj, "_top") else obj._head
    items = []
    node = head
    while node is not None:
        items.append(_item_text(node.item))
        node = node.next
    for i, text in enumerate(items):
        x = x0 + i * (_CELL_W + gap)
        body.append(_node_box(x, y0, text))
        body.append(f'<line x1="{x + _CELL_W}" y1="{y0 + _CELL_H / 2}" x2="{x + _CELL_W + gap - 1}" '
                    f'y2="{y0 + _CELL_H / 2}" stroke="#37474f" marker-end="url(#ah)"/>')
    xn = x0 + len(items) * (_CELL_W + gap)
    body.append(f'<text x="{xn}" y="{y0 + 22}" font-size="12" fill="#607d8b">None</text>')
    if items:
        label = "top" if hasattr(obj, "_top") else "head (front)"
        body.append(f'<text x="{x0}" y="{y0 - 12}" font-size="12" fill="#bf360c">{label}</text>')
        if hasattr(obj, "_tail"):
            xt = x0 + (len(items) - 1) * (_CELL_W + gap)
            body.append(f'<text x="{xt}" y="{y0 + _CELL_H + 18}" font-size="12" fill="#bf360c">'
                        "tail (back)</text>")
    else:
        body.append(f'<text x="{x0}" y="{y0 - 12}" font-size="12" fill="#bf360c">'
                    f'{"top" if hasattr(obj, "_top") else "head, tail"} = None</text>')
    body.append(f'<text x="{x0}" y="{y0 + _CELL_H + 36}" font-size="12" fill="#37474f">size = {obj._size}</text>')
    return _svg(max(xn + 50, 220), y0 + _CELL_H + 44, body, title)


def state_svg(obj: Any, title: str = "state") -> str:
    """Draw a structure's real internal state: array slots, or linked nodes."""
    return _array_svg(obj, title) if hasattr(obj, "_slots") else _linked_svg(obj, title)


_SERIES_COLOURS = ["#2e7d32", "#1565c0", "#ef6c00", "#6a1b9a", "#c62828", "#00838f"]


def _clip(points: dict[int, float], keep: float = 0.995) -> dict[int, float]:
    """Drop the far right tail: the values past the first ``keep`` of the share."""
    out: dict[int, float] = {}
    seen = 0.0
    for x, y in sorted(points.items()):
        out[x] = y
        seen += y
        if seen >= keep:
            break
    return out


def bar_chart(series: list[tuple[str, dict[int, float]]], xlabel: str, title: str = "") -> str:
    """Grouped bars: the twelve values most common over all series, one bar per series."""
    totals: dict[int, float] = {}
    for _, pts in series:
        for x, y in pts.items():
            totals[x] = totals.get(x, 0.0) + y
    xs = sorted(sorted(totals, key=lambda x: -totals[x])[:12])
    y_max = max(pts.get(x, 0.0) for _, pts in series for x in xs) * 1.1 or 1.0
    width, left, top, ph = 680, 56, 30, 200
    group = (width - left - 16) / len(xs)
    bar = group * 0.8 / len(series)
    body = [f'<text x="{left}" y="18" font-size="13" fill="#37474f">{_esc(title)}</text>',
            f'<line x1="{left}" y1="{top + ph}" x2="{width - 16}" y2="{top + ph}" stroke="#37474f"/>']
    for k in range(5):
        y = y_max * k / 4
        yy = top + ph - ph * y / y_max
        body.append(f'<text x="{left - 4}" y="{yy + 4:.1f}" text-anchor="end" font-size="10">{y:.0%}</text>')
        body.append(f'<line x1="{left}" y1="{yy:.1f}" x2="{width - 16}" y2="{yy:.1f}" stroke="#eceff1"/>')
    for g, x in enumerate(xs):
        gx = left + g * group + group * 0.1
        for i, (_, pts) in enumerate(series):
            h = ph * pts.get(x, 0.0) / y_max
            colour = _SERIES_COLOURS[i % len(_SERIES_COLOURS)]
            body.append(f'<rect x="{gx + i * bar:.1f}" y="{top + ph - h:.1f}" width="{bar:.1f}" '
                        f'height="{h:.1f}" fill="{colour}"/>')
        body.append(f'<text x="{gx + group * 0.4:.1f}" y="{top + ph + 14}" text-anchor="middle" '
                    f'font-size="10">{x}</text>')
    body.append(f'<text x="{left + (width - left) / 2}" y="{top + ph + 30}" text-anchor="middle" '
                f'font-size="12">{_esc(xlabel)} (the twelve most common values)</text>')
    for i, (label, _) in enumerate(series):
        colour = _SERIES_COLOURS[i % len(_SERIES_COLOURS)]
        lx = left + (i % 2) * 320
        ly = top + ph + 46 + (i // 2) * 14
        body.append(f'<rect x="{lx}" y="{ly - 9}" width="12" height="8" fill="{colour}"/>')
        body.append(f'<text x="{lx + 16}" y="{ly - 2}" font-size="11">{_esc(label)}</text>')
    height = top + ph + 46 + ((len(series) + 1) // 2) * 14
    return _svg(width, height, body, title)


def line_chart(series: list[tuple[str, dict[int, float]]], xlabel: str, bins: int = 0, title: str = "") -> str:
    """Draw ``series`` (label, {x: share}) as lines on shared axes; ``bins`` > 1 groups x values."""
    if bins > 1:
        series = [(label, _binned(points, bins)) for label, points in series]
    xs = [x for _, pts in series for x in pts]
    x_min, x_max = min(xs), max(xs)
    y_max = max(y for _, pts in series for y in pts.values()) * 1.1 or 1.0
    width, height, left, right, top, bottom = 680, 300, 56, 16, 30, 70
    pw, ph = width - left - right, height - top - bottom

    def px(x: float) -> float:
        return left + (pw * (x - x_min) / (x_max - x_min) if x_max > x_min else pw / 2)

    def py(y: float) -> float:
        return top + ph - ph * y / y_max

    body = [f'<text x="{left}" y="18" font-size="13" fill="#37474f">{_esc(title)}</text>',
            f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="#37474f"/>',
            f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="#37474f"/>']
    for k in range(5):
        y = y_max * k / 4
        body.append(f'<text x="{left - 4}" y="{py(y) + 4:.1f}" text-anchor="end" font-size="10">{y:.0%}</text>')
        body.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{left + pw}" y2="{py(y):.1f}" stroke="#eceff1"/>')
    for k in range(6):
        x = x_min + (x_max - x_min) * k / 5
        body.append(f'<text x="{px(x):.1f}" y="{top + ph + 14}" text-anchor="middle" font-size="10">{x:.0f}</text>')
    body.append(f'<text x="{left + pw / 2}" y="{top + ph + 30}" text-anchor="middle" font-size="12">'
                f"{_esc(xlabel)}{f' (groups of {bins})' if bins > 1 else ''}</text>")
    for i, (label, pts) in enumerate(series):
        colour = _SERIES_COLOURS[i % len(_SERIES_COLOURS)]
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in sorted(pts.items()))
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.8"/>')
        lx = left + (i % 2) * 320
        ly = top + ph + 46 + (i // 2) * 14
        body.append(f'<rect x="{lx}" y="{ly - 9}" width="12" height="4" fill="{colour}"/>')
        body.append(f'<text x="{lx + 16}" y="{ly - 4}" font-size="11">{_esc(label)}</text>')
    height = top + ph + 46 + ((len(series) + 1) // 2) * 14
    return _svg(width, height, body, title or xlabel)


def _binned(points: dict[int, float], bins: int) -> dict[int, float]:
    out: dict[int, float] = {}
    for x, y in points.items():
        key = (x // bins) * bins
        out[key] = out.get(key, 0.0) + y
    return out
