#include "report/chart.h"
#include "report/out_file.h"

#include <math.h>
#include <string.h>

#include "report/svg.h"

#define W 880.0
#define H 520.0
#define LEFT 92.0
#define TOP 96.0
#define BOTTOM 72.0
#define GRID_COLOR "#e3e3e3"
#define AXIS_COLOR "#555555"

static double nice_step(double raw)
{
    double mag = pow(10.0, floor(log10(raw))), f = raw / mag;
    return (f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 2.5 ? 2.5 : f <= 5.0 ? 5.0 : 10.0) * mag;
}

int chart_nice_ticks(double *lo, double *hi, int want, double *ticks)
{
    double step, first;
    int n = 0;
    if (!(*hi > *lo)) { /* one value: a unit around it */
        double pad = fabs(*lo) > 0 ? fabs(*lo) * 0.1 : 1.0;
        *lo -= pad;
        *hi += pad;
    }
    step = nice_step((*hi - *lo) / (want > 1 ? want - 1 : 1));
    first = floor(*lo / step) * step;
    *lo = first;
    *hi = ceil(*hi / step - 1e-9) * step;
    for (double t = first; t <= *hi + step * 0.5 && n < 32; t = first + step * ++n)
        ticks[n] = fabs(t) < step * 1e-9 ? 0.0 : t;
    return n;
}

static void format_tick(char *buf, size_t n, double v)
{
    snprintf(buf, n, "%.6g", v);
}

static void titles(FILE *f, const char *title, const char *subtitle)
{
    svg_text(f, LEFT, 32, title, 20, SVG_START, 1, 0, "#111111");
    if (subtitle)
        svg_text(f, LEFT, 54, subtitle, 13, SVG_START, 0, 0, "#555555");
}

static void y_axis_label(FILE *f, const char *label, double top, double height)
{
    svg_text(f, 24, top + height / 2, label, 14, SVG_MIDDLE, 0, -90, AXIS_COLOR);
}

/* ---- lines ---- */

static void lines_range(const line_chart_t *c, double *lo, double *hi)
{
    *lo = HUGE_VAL;
    *hi = -HUGE_VAL;
    for (int s = 0; s < c->n_series; s++)
        for (size_t i = 0; i < c->n; i++)
            if (isfinite(c->series[s].y[i])) {
                *lo = fmin(*lo, c->series[s].y[i]);
                *hi = fmax(*hi, c->series[s].y[i]);
            }
    if (*lo > *hi)
        *lo = *hi = 0.0;
}

/* 1 when some value is +inf (sign > 0) / -inf (sign < 0). */
static int lines_have_inf(const line_chart_t *c, int sign)
{
    for (int s = 0; s < c->n_series; s++)
        for (size_t i = 0; i < c->n; i++)
            if (isinf(c->series[s].y[i]) && (c->series[s].y[i] > 0) == (sign > 0))
                return 1;
    return 0;
}

/* A band for an infinite value beyond the finite axis: a dashed rule and
 * the label "inf" / "-inf" on the y axis. */
static void lines_inf_band(FILE *f, double y, double pw, const char *label)
{
    svg_line(f, LEFT, y, LEFT + pw, y, GRID_COLOR, 1, 1);
    svg_text(f, LEFT - 8, y + 4, label, 12, SVG_END, 1, 0, AXIS_COLOR);
}

/* Draws the points gathered so far (a dot for a lone one) and starts over. */
static void lines_flush(FILE *f, const chart_series_t *s, const double *px, const double *py, size_t *m)
{
    svg_polyline(f, px, py, *m, s->color, 2.4, s->dashed);
    if (*m == 1)
        svg_circle(f, px[0], py[0], 3, s->color);
    *m = 0;
}

#define SHADE_COLOR "#fde3c8"

/* The shaded spans behind the lines: each run of shaded points from half
 * way to its left neighbour to half way to its right one. */
static void lines_shade(FILE *f, const line_chart_t *c, double xlo, double xhi, double pw, double ph)
{
    for (size_t i = 0; c->shade && i < c->n; i++) {
        size_t j = i;
        double a, b;
        if (!c->shade[i])
            continue;
        while (j + 1 < c->n && c->shade[j + 1])
            j++;
        a = i > 0 ? (c->x[i - 1] + c->x[i]) / 2 : c->x[i] - 0.5;
        b = j + 1 < c->n ? (c->x[j] + c->x[j + 1]) / 2 : c->x[j] + 0.5;
        a = fmax(a, xlo);
        b = fmin(b, xhi);
        svg_rect(f, LEFT + (a - xlo) / (xhi - xlo) * pw, TOP, (b - a) / (xhi - xlo) * pw, ph, SHADE_COLOR, "none", 0);
        i = j;
    }
}

/* The legend as one row above the plot, where it can never hide a line. */
static void lines_legend(FILE *f, const line_chart_t *c, double y)
{
    double x = LEFT;
    if (c->shade && c->shade_label) {
        svg_rect(f, x, y - 10, 28, 12, SHADE_COLOR, "none", 0);
        svg_text(f, x + 34, y, c->shade_label, 12.5, SVG_START, 0, 0, "#222222");
        x += 34 + 7.0 * (double)strlen(c->shade_label) + 28;
    }
    for (int s = 0; s < c->n_series; s++) {
        svg_line(f, x, y - 4, x + 28, y - 4, c->series[s].color, 3, c->series[s].dashed);
        svg_text(f, x + 34, y, c->series[s].name, 12.5, SVG_START, 0, 0, "#222222");
        x += 34 + 7.0 * (double)strlen(c->series[s].name) + 28;
    }
}

void chart_lines(FILE *f, const line_chart_t *c)
{
    double pw = W - LEFT - 30, ph = H - TOP - BOTTOM, xt[32], yt[32];
    double xlo = c->n ? c->x[0] : 0, xhi = c->n ? c->x[c->n - 1] : 1, ylo, yhi;
    double px[4096], py[4096], top_band, bottom_band, ph_f;
    int nx, ny;
    char buf[64];
    if (c->fixed_y) {
        ylo = c->y_min;
        yhi = c->y_max;
    } else {
        lines_range(c, &ylo, &yhi);
    }
    if (c->bars) { /* bars grow from 0 */
        ylo = fmin(ylo, 0.0);
        yhi = fmax(yhi, 0.0);
    }
    top_band = lines_have_inf(c, 1) ? 30 : 0;
    bottom_band = lines_have_inf(c, -1) ? 30 : 0;
    ph_f = ph - top_band - bottom_band;
    if (c->bars) { /* the first and last bars whole inside the frame */
        xlo -= 0.5;
        xhi += 0.5;
    }
    nx = c->x_text ? 0 : chart_nice_ticks(&xlo, &xhi, 8, xt);
    ny = chart_nice_ticks(&ylo, &yhi, 6, yt);
    svg_begin(f, W, H, c->title);
    titles(f, c->title, c->subtitle);
    lines_shade(f, c, xlo, xhi, pw, ph);
#define MAPX(v) (LEFT + ((v)-xlo) / (xhi - xlo) * pw)
/* +inf / -inf (a profit factor without losses, a sharpe without variance)
 * get a band of their own above / below the finite axis */
#define MAPY(v) (isinf(v) ? ((v) > 0 ? TOP : TOP + ph) : TOP + top_band + ph_f - ((v)-ylo) / (yhi - ylo) * ph_f)
    for (int i = 0; i < ny; i++) {
        svg_line(f, LEFT, MAPY(yt[i]), LEFT + pw, MAPY(yt[i]), GRID_COLOR, 1, 0);
        format_tick(buf, sizeof buf, yt[i]);
        svg_text(f, LEFT - 8, MAPY(yt[i]) + 4, buf, 12, SVG_END, 0, 0, AXIS_COLOR);
    }
    if (top_band > 0)
        lines_inf_band(f, TOP, pw, "inf");
    if (bottom_band > 0)
        lines_inf_band(f, TOP + ph, pw, "-inf");
    for (int i = 0; i < nx; i++) {
        svg_line(f, MAPX(xt[i]), TOP + ph, MAPX(xt[i]), TOP + ph + 5, AXIS_COLOR, 1, 0);
        format_tick(buf, sizeof buf, xt[i]);
        svg_text(f, MAPX(xt[i]), TOP + ph + 20, buf, 12, SVG_MIDDLE, 0, 0, AXIS_COLOR);
    }
    for (size_t i = 0, k = c->n / 8 + 1; c->x_text && i < c->n; i += k) {
        svg_line(f, MAPX(c->x[i]), TOP + ph, MAPX(c->x[i]), TOP + ph + 5, AXIS_COLOR, 1, 0);
        svg_text(f, MAPX(c->x[i]), TOP + ph + 20, c->x_text[i], 12, SVG_MIDDLE, 0, 0, AXIS_COLOR);
    }
    svg_line(f, LEFT, TOP + ph, LEFT + pw, TOP + ph, AXIS_COLOR, 1.2, 0);
    svg_line(f, LEFT, TOP, LEFT, TOP + ph, AXIS_COLOR, 1.2, 0);
    svg_text(f, LEFT + pw / 2, H - 22, c->x_label, 14, SVG_MIDDLE, 0, 0, AXIS_COLOR);
    y_axis_label(f, c->y_label, TOP, ph);
    for (int s = 0; c->bars && s < c->n_series; s++) {
        double bw = fmax(1.0, 0.8 * pw / (xhi - xlo));
        for (size_t i = 0; i < c->n; i++) {
            double y = c->series[s].y[i];
            if (isfinite(y))
                svg_rect(f, MAPX(c->x[i]) - bw / 2, fmin(MAPY(y), MAPY(0.0)), bw, fabs(MAPY(y) - MAPY(0.0)),
                         c->series[s].color, "none", 0);
        }
    }
    for (int s = 0; !c->bars && s < c->n_series; s++) {
        /* one polyline per run of finite values, thinned to ~4000 points */
        size_t m = 0, stride = c->n / 4000 + 1;
        for (size_t i = 0; i < c->n; i = (i + stride < c->n || i + 1 == c->n) ? i + stride : c->n - 1) {
            if (!isnan(c->series[s].y[i]) && m < 4096) {
                px[m] = MAPX(c->x[i]);
                py[m++] = MAPY(c->series[s].y[i]);
            } else {
                lines_flush(f, &c->series[s], px, py, &m);
            }
        }
        lines_flush(f, &c->series[s], px, py, &m);
    }
#undef MAPX
#undef MAPY
    lines_legend(f, c, TOP - 18);
    svg_end(f);
}

/* ---- heatmap ---- */

static void value_range(const heatmap_chart_t *c, double *lo, double *hi)
{
    *lo = HUGE_VAL;
    *hi = -HUGE_VAL;
    for (uint64_t i = 0; i < (uint64_t)c->nx * c->ny; i++)
        if (isfinite(c->v[i])) {
            *lo = fmin(*lo, c->v[i]);
            *hi = fmax(*hi, c->v[i]);
        }
}

/* Labels every k-th tick so that they do not overlap (room: pixels per cell). */
static uint32_t tick_every(double room, double need)
{
    uint32_t k = 1;
    while (room * k < need)
        k++;
    return k;
}

/* A vertical colour bar: viridis from lo (bottom) to hi, with round ticks. */
static void heatmap_colorbar(FILE *f, double x, double top, double h, double lo, double hi, const char *label)
{
    double ticks[32], tlo = lo, thi = hi;
    int n = chart_nice_ticks(&tlo, &thi, 5, ticks);
    char col[8], buf[64];
    fputs("<defs><linearGradient id=\"viridis\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">", f);
    for (int i = 0; i <= 8; i++) {
        svg_viridis(i / 8.0, col);
        fprintf(f, "<stop offset=\"%.3f\" stop-color=\"%s\"/>", i / 8.0, col);
    }
    fputs("</linearGradient></defs>\n", f);
    svg_rect(f, x, top, 18, h, "url(#viridis)", "#888888", 1);
    for (int i = 0; i < n; i++) {
        double y = top + h - (hi > lo ? (ticks[i] - lo) / (hi - lo) : 0.5) * h;
        if (y < top - 0.5 || y > top + h + 0.5)
            continue; /* the outer nice ticks may lie past the data */
        svg_line(f, x + 18, y, x + 23, y, AXIS_COLOR, 1, 0);
        snprintf(buf, sizeof buf, "%.6g", ticks[i]);
        svg_text(f, x + 26, y + 4, buf, 11.5, SVG_START, 0, 0, AXIS_COLOR);
    }
    svg_text(f, x - 6, top - 10, label, 12, SVG_START, 1, 0, AXIS_COLOR);
}

void chart_heatmap(FILE *f, const heatmap_chart_t *c)
{
    double pw = W - LEFT - 150, ph = H - TOP - BOTTOM - (c->note ? 14 : 0), lo, hi;
    double cw = pw / c->nx, chh = ph / c->ny;
    uint32_t kx = tick_every(cw, 44), ky = tick_every(chh, 16), bx = 0, by = 0;
    int labels = cw >= 46 && chh >= 18 && (uint64_t)c->nx * c->ny <= 400, any = 0;
    char col[8], buf[64];
    value_range(c, &lo, &hi);
    if (lo > hi) /* only infinite values */
        lo = hi = 0.0;
    svg_begin(f, W, H, c->title);
    titles(f, c->title, c->subtitle);
    for (uint32_t x = 0; x < c->nx; x++)
        for (uint32_t y = 0; y < c->ny; y++) {
            double v = c->v[(uint64_t)x * c->ny + y], t = hi > lo ? (v - lo) / (hi - lo) : 1.0;
            double rx = LEFT + x * cw, ry = TOP + ph - (y + 1) * chh;
            if (isinf(v)) /* beyond every finite value: the end of the scale */
                t = v > 0 ? 1.0 : 0.0;
            if (isnan(v)) {
                svg_rect(f, rx, ry, cw, chh, "#eeeeee", "#ffffff", cw > 12 && chh > 12 ? 1 : 0);
                continue;
            }
            if (!any || v > c->v[(uint64_t)bx * c->ny + by])
                bx = x, by = y;
            any = 1;
            svg_viridis(t, col);
            svg_rect(f, rx, ry, cw, chh, col, "#ffffff", cw > 12 && chh > 12 ? 1 : 0);
            if (labels) {
                if (isinf(v))
                    snprintf(buf, sizeof buf, "%s", v > 0 ? "inf" : "-inf");
                else
                    snprintf(buf, sizeof buf, "%.4g", v);
                svg_text(f, rx + cw / 2, ry + chh / 2 + 4, buf, cw >= 70 ? 12 : 10.5, SVG_MIDDLE, 0, 0,
                         svg_viridis_is_light(t) ? "#111111" : "#ffffff");
            }
        }
    if (any) /* the best cell, outlined */
        svg_rect(f, LEFT + bx * cw + 1.5, TOP + ph - (by + 1) * chh + 1.5, cw - 3, chh - 3, "none", "#d62728", 3);
    for (uint32_t x = 0; x < c->nx; x += kx)
        svg_text(f, LEFT + (x + 0.5) * cw, TOP + ph + 18, c->x_ticks[x], 12, SVG_MIDDLE, 0, 0, AXIS_COLOR);
    for (uint32_t y = 0; y < c->ny; y += ky)
        svg_text(f, LEFT - 8, TOP + ph - (y + 0.5) * chh + 4, c->y_ticks[y], 12, SVG_END, 0, 0, AXIS_COLOR);
    svg_text(f, LEFT + pw / 2, TOP + ph + 42, c->x_label, 14, SVG_MIDDLE, 0, 0, AXIS_COLOR);
    y_axis_label(f, c->y_label, TOP, ph);
    if (any)
        heatmap_colorbar(f, LEFT + pw + 30, TOP + 16, ph - 16, lo, hi, c->value_label);
    svg_rect(f, LEFT + pw + 30, TOP + ph + 30, 14, 14, "none", "#d62728", 3);
    svg_text(f, LEFT + pw + 50, TOP + ph + 42, "best cell", 12, SVG_START, 0, 0, AXIS_COLOR);
    if (c->note)
        svg_text(f, LEFT, H - 12, c->note, 12, SVG_START, 0, 0, "#666666");
    svg_end(f);
}

static const char *const chart_marks[] = {SVG_MARK, NULL};

ev_status chart_check(const char *dir, const char *name, ev_error *err)
{
    return out_file_check(dir, name, "--out chart", chart_marks, err);
}

typedef struct {
    int heat;
    const void *chart;
} chart_body_t;

static void chart_body(FILE *f, const void *ctx)
{
    const chart_body_t *b = (const chart_body_t *)ctx;
    if (b->heat)
        chart_heatmap(f, (const heatmap_chart_t *)b->chart);
    else
        chart_lines(f, (const line_chart_t *)b->chart);
}

ev_status chart_write(const char *dir, const char *name, int heat, const void *chart, FILE *log, ev_error *err)
{
    chart_body_t b = {heat, chart};
    return out_file_write(dir, name, "--out chart", chart_marks, chart_body, &b, log, err);
}
