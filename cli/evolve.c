/* The evolve executable: main() is the command line's dispatcher (cli/main.c),
 * over the application (runs/) that libevolve's evolve_run uses too. */
#include "cli/main.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
