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

#endif
