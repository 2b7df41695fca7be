/* What the emulation layer's parts share (not seen by the emulated code). */
#ifndef EVOLVE_CUDA_EMU_INTERNAL_H
#define EVOLVE_CUDA_EMU_INTERNAL_H

#include <cstdint>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_emu/support.h"

namespace emu
{

/* The schedule (EVOLVE_EMU_SCHEDULE=forward | reverse | random[:seed]):
 * the order of n blocks of a launch or of a block's threads after each
 * barrier (schedule_draw: support.h). */
void schedule_order(uint64_t n, std::vector<uint64_t> &out);

} // namespace emu

#endif
