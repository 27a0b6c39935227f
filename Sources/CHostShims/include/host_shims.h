/*
 * glibc calls the host needs that <spawn.h>, <sys/socket.h> and <unistd.h> declare only under
 * _GNU_SOURCE, which Swift's Glibc module does not define. Thin wrappers, nothing more.
 */
#ifndef HOST_SHIMS_H
#define HOST_SHIMS_H

/* posix_spawn_file_actions_addclosefrom_np (glibc 2.34): close every descriptor >= `from` in the
 * child. `actions` is a posix_spawn_file_actions_t *. */
int host_spawn_add_closefrom(void *actions, int from);

/* accept4(fd, NULL, NULL, SOCK_CLOEXEC): the accepted descriptor is close-on-exec from the start. */
int host_accept_cloexec(int fd);

/* pipe2(fds, O_CLOEXEC). */
int host_pipe_cloexec(int fds[2]);

/* pidfd_open(pid, 0) (Linux 5.3): a close-on-exec descriptor that polls readable once the process
 * has exited; -1 where the kernel has none. */
int host_pidfd_open(int pid);

/* For a worker whose host is gone or done with it: ends its whole process group, itself included,
 * so nothing a bundle forked outlives it. Does not return. */
void host_end_own_group(void) __attribute__((noreturn));

#endif
