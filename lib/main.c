/* The evolve executable: the command line of libevolve (evolve_main, which
 * is cli/main.c's dispatcher), so the command and the library run one code. */
#include "include/evolve.h"

int main(int argc, char **argv)
{
    return evolve_main(argc, argv);
}
