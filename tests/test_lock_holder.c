#define _DEFAULT_SOURCE /* flock, usleep */
/* A refused lock names its holder (common/plat_lock.c): the second taker of
 * a held lock gets EV_EBUSY and the holder's process id; on POSIX also when
 * the holder writes its id only just after it took the lock (the window
 * between flock and write, where a refusal once read an empty file and said
 * "another process"), and "another process" when no id ever comes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/plat_lock.h"
#include "common/platform.h"
#include "tests/check.h"

#ifndef _WIN32
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#define LOCK "tmp_lock_holder.lock"

/* The lock held by this process: a second take is refused and names it. */
static void held_by_us(void)
{
    plat_lock_t *mine = NULL, *other = NULL;
    long holder = -2;
    ev_error err;
    CHECK_EQ_I64(EV_OK, plat_lock_take(LOCK, &mine, &holder, &err));
    CHECK_EQ_I64(EV_EBUSY, plat_lock_take(LOCK, &other, &holder, &err));
    CHECK_EQ_I64(plat_pid(), holder);
    CHECK(other == NULL);
    plat_lock_release(mine);
}

#ifndef _WIN32
/* A holder that locks an empty file and writes `pid` after `delay_us` (never
 * when pid is 0): what a second taker reports. */
static void late_holder(long pid, unsigned delay_us, long expect, const char *says)
{
    plat_lock_t *other = NULL;
    long holder = -2;
    ev_error err;
    int fd = open(LOCK, O_RDWR | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0);
    pid_t child = fork();
    if (child == 0) {
        char text[32];
        usleep(delay_us);
        snprintf(text, sizeof text, "%ld\n", pid);
        if (pid > 0 && pwrite(fd, text, strlen(text), 0) != (ssize_t)strlen(text))
            _exit(1);
        _exit(0);
    }
    CHECK(child > 0);
    CHECK_EQ_I64(EV_EBUSY, plat_lock_take(LOCK, &other, &holder, &err));
    CHECK_EQ_I64(expect, holder);
    CHECK(strstr(err.msg, says) != NULL);
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(fd);
    unlink(LOCK);
}
#endif

int main(void)
{
    remove(LOCK);
    held_by_us();
#ifndef _WIN32
    late_holder(4242, 20000, 4242, "process 4242"); /* written 20 ms after the lock */
    late_holder(0, 0, 0, "another process");        /* never written */
#endif
    remove(LOCK);
    return check_exit();
}
