/* CUB under emulation: the host twins of tests/cuda_emu/include/cuda_emu/cub.h. */
#include "cuda_emu/cub.h"
