/* Placeholder until the command lands. */
#include <stdio.h>

#include "ga/commands.h"

int cmd_ingest(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "evolve: this command is not implemented yet\n");
    return 1;
}
