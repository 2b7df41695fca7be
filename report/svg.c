#include "report/svg.h"

#include <math.h>

#define SVG_FONT "DejaVu Sans, Helvetica, Arial, sans-serif"

void svg_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(*s, f); break;
        }
    }
}

void svg_begin(FILE *f, double width, double height, const char *title)
{
    fputs(SVG_MARK, f);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "font-family=\"%s\">\n<title>",
            width, height, width, height, SVG_FONT);
    svg_escape(f, title);
    fputs("</title>\n", f);
    svg_rect(f, 0, 0, width, height, "#ffffff", "none", 0);
}

void svg_end(FILE *f)
{
    fputs("</svg>\n", f);
}

void svg_rect(FILE *f, double x, double y, double w, double h, const char *fill, const char *stroke,
              double stroke_width)
{
    fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"", x, y, w, h, fill);
    if (stroke_width > 0)
        fprintf(f, " stroke=\"%s\" stroke-width=\"%.2f\"", stroke, stroke_width);
    fputs("/>\n", f);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double width, int dashed)
{
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"%.2f\"%s/>\n", x1,
            y1, x2, y2, stroke, width, dashed ? " stroke-dasharray=\"6 4\"" : "");
}

void svg_polyline(FILE *f, const double *x, const double *y, size_t n, const char *stroke, double width, int dashed)
{
    if (n == 0)
        return;
    fputs("<polyline points=\"", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%.2f,%.2f", i ? " " : "", x[i], y[i]);
    fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.2f\" stroke-linejoin=\"round\"%s/>\n", stroke, width,
            dashed ? " stroke-dasharray=\"6 4\"" : "");
}

void svg_circle(FILE *f, double cx, double cy, double r, const char *fill)
{
    fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\"/>\n", cx, cy, r, fill);
}

void svg_text(FILE *f, double x, double y, const char *text, double size, svg_anchor anchor, int bold, double rotate,
              const char *fill)
{
    static const char *const anchors[] = {"start", "middle", "end"};
    fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" text-anchor=\"%s\" fill=\"%s\"%s", x, y, size,
            anchors[anchor], fill ? fill : "#222222", bold ? " font-weight=\"bold\"" : "");
    if (rotate != 0)
        fprintf(f, " transform=\"rotate(%.1f %.2f %.2f)\"", rotate, x, y);
    fputc('>', f);
    svg_escape(f, text);
    fputs("</text>\n", f);
}

/* viridis, 9 stops (matplotlib's), interpolated linearly */
static const unsigned char viridis[9][3] = {{68, 1, 84},    {71, 44, 122},  {59, 81, 139},
                                            {44, 113, 142}, {33, 144, 141}, {39, 173, 129},
                                            {92, 200, 99},  {170, 220, 50}, {253, 231, 37}};

void svg_viridis(double t, char *buf)
{
    double pos;
    int i;
    unsigned c[3];
    if (!(t >= 0))
        t = 0;
    if (t > 1)
        t = 1;
    pos = t * 8.0;
    i = pos >= 8.0 ? 7 : (int)pos;
    for (int k = 0; k < 3; k++)
        c[k] = (unsigned)lround(viridis[i][k] + (pos - i) * (viridis[i + 1][k] - viridis[i][k]));
    snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

int svg_viridis_is_light(double t)
{
    return t > 0.55;
}
