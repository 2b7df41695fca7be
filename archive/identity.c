#include "archive/identity.h"

#include <stdlib.h>
#include <string.h>

#include "io/h5_util.h"

ev_status identity_write(const char *path, hid_t loc, const run_identity_t *id, ev_error *err)
{
    const char *strs[][2] = {
        {"config_text", id->config_text}, {"tool_version", id->tool_version}, {"backend", id->backend}};
    const struct {
        const char *name;
        uint64_t v;
    } nums[] = {{"seed", id->seed}, {"top", id->top}, {"dataset_hash", id->dataset_hash}};
    ev_status st = EV_OK;
    for (size_t i = 0; i < sizeof strs / sizeof strs[0] && st == EV_OK; i++)
        st = h5u_write_attr_str(path, loc, strs[i][0], strs[i][1], err);
    for (size_t i = 0; i < sizeof nums / sizeof nums[0] && st == EV_OK; i++)
        st = h5u_write_attr(path, loc, nums[i].name, H5T_NATIVE_UINT64, H5T_STD_U64LE, &nums[i].v, err);
    return st;
}

static ev_status read_str(const char *path, hid_t loc, const char *name, const char **out, ev_error *err)
{
    char *s = NULL;
    ev_status st = h5u_read_attr_str(path, loc, name, &s, err);
    *out = s;
    return st;
}

ev_status identity_read(const char *path, hid_t loc, run_identity_t *id, ev_error *err)
{
    ev_status st;
    memset(id, 0, sizeof *id);
    if ((st = read_str(path, loc, "config_text", &id->config_text, err)) != EV_OK ||
        (st = read_str(path, loc, "tool_version", &id->tool_version, err)) != EV_OK ||
        (st = read_str(path, loc, "backend", &id->backend, err)) != EV_OK ||
        (st = h5u_read_attr(path, loc, "seed", H5T_NATIVE_UINT64, &id->seed, err)) != EV_OK ||
        (st = h5u_read_attr(path, loc, "top", H5T_NATIVE_UINT64, &id->top, err)) != EV_OK)
        return st;
    return h5u_read_attr(path, loc, "dataset_hash", H5T_NATIVE_UINT64, &id->dataset_hash, err);
}

void identity_free(run_identity_t *id)
{
    const char *s[] = {id->config_text, id->tool_version, id->backend};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        free((void *)(uintptr_t)s[i]);
    memset(id, 0, sizeof *id);
}
