#define _GNU_SOURCE
#include "host_shims.h"

#include <fcntl.h>
#include <spawn.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int host_spawn_add_closefrom(void *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, from);
}

int host_accept_cloexec(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC); }

int host_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int host_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

void host_end_own_group(void) {
    kill(0, SIGKILL); /* every process of this one's group, this one included */
    _exit(0);         /* not reached */
}

/* CoreFoundation's (in Foundation, linked into every Swift host): the process path it takes the main
 * bundle from, computed once and kept here. */
extern const char **_CFGetProcessPath(void);

void host_set_main_bundle_executable(const char *path) {
    const char **kept = _CFGetProcessPath();
    if (kept) *kept = strdup(path);
}
