/* The report's two kinds of chart, drawn with report/svg.h: lines over a
 * numeric x axis (fitness and diversity per generation), and a heatmap of
 * values over two categorical axes (best fitness per parameter pair). Each
 * has a title, a subtitle, labelled axes with ticks, and a legend (lines) or
 * colour bar (heatmap). */
#ifndef EVOLVE_CHART_H
#define EVOLVE_CHART_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *name; /* legend label */
    const double *y;  /* [n]; NaN leaves a gap */
    const char *color;
    int dashed;
} chart_series_t;

typedef struct {
    const char *title, *subtitle, *x_label, *y_label;
    const double *x; /* [n], increasing */
    size_t n;
    const chart_series_t *series;
    int n_series;
    int fixed_y; /* 1: the y axis spans [y_min, y_max] */
    double y_min, y_max;
    const uint8_t *shade;      /* [n] or NULL: 1 shades point i's span of x (e.g. holdout trades) */
    const char *shade_label;   /* the shaded spans' legend entry */
    int bars;                  /* 1: each point is a bar from 0 (NaN: none), not a line */
    const char *const *x_text; /* [n] or NULL: label the x axis with these (every k-th point), not numbers */
} line_chart_t;

typedef struct {
    const char *title, *subtitle, *x_label, *y_label, *value_label;
    uint32_t nx, ny;
    const char *const *x_ticks; /* [nx]: the x parameter's value texts */
    const char *const *y_ticks; /* [ny] */
    const double *v;            /* [nx * ny] at x * ny + y; NaN: no value */
    const char *note;           /* a line under the chart (what grey cells mean), or NULL */
} heatmap_chart_t;

void chart_lines(FILE *f, const line_chart_t *c);
/* EV_OK when dir/name may be written: absent, or a chart evolve drew
 * (SVG_MARK); else EV_EIO naming the path (io/output_guard.h). */
ev_status chart_check(const char *dir, const char *name, ev_error *err);
/* Writes a chart (heat: a heatmap_chart_t, else a line_chart_t) to dir/name
 * under a temporary name, then renames it (chart_check first); prints the path to log. */
ev_status chart_write(const char *dir, const char *name, int heat, const void *chart, FILE *log, ev_error *err);
void chart_heatmap(FILE *f, const heatmap_chart_t *c);

/* Axis ticks: "nice" round steps (1, 2, 5 x 10^k) covering [lo, hi],
 * about `want` of them. Widens lo/hi to the outer ticks; returns the count
 * (<= 32) written to ticks. */
int chart_nice_ticks(double *lo, double *hi, int want, double *ticks);

#ifdef __cplusplus
}
#endif
#endif
