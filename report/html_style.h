/* The report page's style sheet (screen and A4 print) and its table sorter. */
#ifndef EVOLVE_HTML_STYLE_H
#define EVOLVE_HTML_STYLE_H

#ifdef __cplusplus
extern "C" {
#endif

extern const char html_style[];
extern const char html_script[];

#ifdef __cplusplus
}
#endif
#endif
