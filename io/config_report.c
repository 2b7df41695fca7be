/* The config's `report:` block: the heatmap's two parameters, which the
 * grid also needs while it runs (it records the best fitness per cell of
 * that pair), and `diverse` (a GA run reports each basin's best genome). */
#include <stdio.h>
#include <string.h>

#include "io/config_internal.h"

static const char *const report_keys[] = {"heatmap", "diverse", NULL};

ev_status config_parse_report(const ymap_t *root, const lattice_t *lat, char **heatmap, int *diverse, ev_error *err)
{
    char path[YDOC_PATH_MAX], ipath[YDOC_PATH_MAX], names[1024];
    yaml_node_t *seq;
    ymap_t m;
    int present = 0;
    ev_status st;
    *diverse = 1;
    if ((st = ymap_submap(root, "report", report_keys, &m, &present, err)) != EV_OK || !present ||
        (st = ymap_bool(&m, "diverse", diverse, err)) != EV_OK || !(seq = ymap_get(&m, "heatmap")))
        return st;
    ymap_path(&m, "heatmap", path);
    if ((st = ydoc_get_sequence(m.doc, seq, path, "two parameter names [x, y]", err)) != EV_OK)
        return st;
    if (ydoc_length(seq) != 2)
        return ydoc_fail(m.doc, err, seq, path, "expected two parameter names [x, y], found a list of %zu",
                         ydoc_length(seq));
    lattice_names_text(lat, names, sizeof names);
    for (size_t i = 0; i < 2; i++) {
        yaml_node_t *item = ydoc_item(m.doc, seq, i);
        int32_t k = 0;
        ydoc_path_index(ipath, path, i);
        if ((st = ydoc_get_string(m.doc, item, ipath, &heatmap[i], err)) != EV_OK)
            return st;
        while (k < lat->n_params && strcmp(lat->params[k].name, heatmap[i]) != 0)
            k++;
        if (k == lat->n_params)
            return ydoc_fail(m.doc, err, item, ipath, "unknown parameter '%s'; the parameters are: %s", heatmap[i],
                             names);
    }
    if (!strcmp(heatmap[0], heatmap[1]))
        return ydoc_fail(m.doc, err, seq, path, "the heatmap needs two different parameters, found '%s' twice",
                         heatmap[0]);
    return EV_OK;
}
