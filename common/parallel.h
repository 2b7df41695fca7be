/* When an OpenMP region is worth starting: a parallel region costs a fork, a
 * join and, on a loaded machine, a scheduler slice per waiting thread, so
 * loops below this many simple operations run on one thread. */
#ifndef EVOLVE_PARALLEL_H
#define EVOLVE_PARALLEL_H

#define EV_PARALLEL_MIN_WORK 200000.0

#endif
