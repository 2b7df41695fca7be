/* A few SVG primitives, hand-written (no library): enough for the report's
 * charts. Coordinates are user units (pixels at 100 %). Text is escaped. */
#ifndef EVOLVE_SVG_H
#define EVOLVE_SVG_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SVG_START, SVG_MIDDLE, SVG_END } svg_anchor;

/* The first bytes of every SVG svg_begin writes: how evolve knows a chart
 * it may replace (io/output_guard.h). */
#define SVG_MARK "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- drawn by evolve report -->\n"

/* s with & < > " ' as XML entities (SVG and HTML text and attributes). */
void svg_escape(FILE *f, const char *s);

void svg_begin(FILE *f, double width, double height, const char *title);
void svg_end(FILE *f);

/* fill / stroke: colours ("#1f77b4", "none"); stroke_width 0: no stroke. */
void svg_rect(FILE *f, double x, double y, double w, double h, const char *fill, const char *stroke,
              double stroke_width);
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double width, int dashed);
/* An open polyline through n points. */
void svg_polyline(FILE *f, const double *x, const double *y, size_t n, const char *stroke, double width, int dashed);
void svg_circle(FILE *f, double cx, double cy, double r, const char *fill);
/* size in px; bold; rotate: degrees about (x, y). */
void svg_text(FILE *f, double x, double y, const char *text, double size, svg_anchor anchor, int bold, double rotate,
              const char *fill);

/* "#rrggbb" of the viridis colour map at t in [0, 1] (clamped), into buf[8]. */
void svg_viridis(double t, char *buf);
/* 1 when black text reads better than white on that viridis colour. */
int svg_viridis_is_light(double t);

#ifdef __cplusplus
}
#endif
#endif
