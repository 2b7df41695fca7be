/* evolve doctor's report of what is installed: build, libraries, CUDA driver, runtime and devices. */
#ifndef EVOLVE_DOCTOR_VERSIONS_H
#define EVOLVE_DOCTOR_VERSIONS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The build (version, compiler, CUDA architectures) and library versions. */
void doctor_print_build(void);

#ifdef EVOLVE_HAVE_CUDA
/* Driver, runtime and devices; 0 when device 0 can be used, else prints why
 * (and what to do about a driver too old for this build). */
int doctor_print_cuda(void);
#endif

#ifdef __cplusplus
}
#endif
#endif
