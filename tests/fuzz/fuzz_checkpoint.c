/* The checkpoint reader (archive/checkpoint) on any file: the input is
 * written to a temporary file and read by checkpoint_read, as a resume does.
 * A failure needs a message; an accepted checkpoint must keep the reader's
 * promises: the identity strings present, every array as long as the state's
 * own sizes say (each element is read here, so ASan reports a short one) and
 * gen_hash one hash per archived generation. Then ga_snapshot_fits, the one
 * check a resume applies, runs on it against its own shape on the widest
 * lattice: it may refuse, but must not read past an array. HDF5 1.10 itself
 * can crash on damaged files: see README.md (run.sh sorts such crashes out by
 * their stack). */
#include <stdint.h>

#include "archive/checkpoint.h"
#include "fuzz_common.h"

/* Where the folded reads go, so the compiler keeps them. */
static volatile uint64_t sink;

/* Every byte of each array field, folded, so a short allocation is read past. */
static uint64_t touch_arrays(const ga_snapshot_t *s)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < ga_snapshot_n_fields; i++) {
        const ga_snapshot_field_t *f = &ga_snapshot_fields[i];
        const unsigned char *a = ga_snapshot_array(s, f);
        uint64_t dims[2], bytes;
        size_t elem = 0;
        ga_snapshot_dims(s, f, dims);
        switch (f->kind) {
        case GA_FIELD_GENES: elem = sizeof(uint16_t); break;
        case GA_FIELD_PARENTS: elem = sizeof(int32_t); break;
        case GA_FIELD_PLANS: elem = sizeof(uint32_t); break; /* [islands][4] */
        case GA_FIELD_RANKED: elem = sizeof(ranked_genome_t); break;
        default: continue;
        }
        bytes = dims[0] * (dims[1] ? dims[1] : 1) * elem;
        FZ_ASSERT(bytes == 0 || a, "field %s: %llu bytes promised, no array", f->name, (unsigned long long)bytes);
        for (uint64_t b = 0; b < bytes; b++)
            sum += a[b];
    }
    return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_path(0, "run.h5.partial.ckpt");
    static uint32_t widest[EV_MAX_PARAMS];
    checkpoint_t c;
    ev_error err;
    ev_status st;
    char why[256];
    for (int k = 0; k < EV_MAX_PARAMS; k++)
        widest[k] = UINT16_MAX;
    fz_write(path, data, size);
    fz_err_reset(&err);
    memset(&c, 0, sizeof c);
    st = checkpoint_read(path, &c, &err);
    fz_check_status(st, &err, "checkpoint_read");
    if (st != EV_OK)
        return 0;
    FZ_ASSERT(c.id.config_text && c.id.tool_version && c.id.backend, "an identity string missing");
    sink += touch_arrays(&c.ga);
    FZ_ASSERT(c.ga.generation == 0 || c.gen_hash, "generation %u without its generation hashes", c.ga.generation);
    for (uint32_t g = 0; g < c.ga.generation; g++)
        sink += c.gen_hash[g];
    if (c.ga.n_genes <= EV_MAX_PARAMS)
        sink += (uint64_t)ga_snapshot_fits(&c.ga, &c.ga, widest, why, sizeof why);
    checkpoint_free(&c);
    return 0;
}
