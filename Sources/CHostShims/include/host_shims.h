/*
 * glibc calls the host needs that <spawn.h>, <sys/socket.h> and <unistd.h> declare only under
 * _GNU_SOURCE, which Swift's Glibc module does not define. Thin wrappers, nothing more.
 */
#ifndef HOST_SHIMS_H
#define HOST_SHIMS_H

#include <stdbool.h>
#include <stddef.h>

/* posix_spawn_file_actions_addclosefrom_np (glibc 2.34): close every descriptor >= `from` in the
 * child. `actions` is a posix_spawn_file_actions_t *. */
int host_spawn_add_closefrom(void *actions, int from);

/* posix_spawn_file_actions_addchdir_np (glibc 2.29): the child starts in `path`. */
int host_spawn_add_chdir(void *actions, const char *path);

/* pthread_setname_np and pthread_getname_np of the calling thread (15 bytes of name at most). */
int host_thread_set_name(const char *name);
int host_thread_name(char *buffer, size_t size);

/* accept4(fd, NULL, NULL, SOCK_CLOEXEC): the accepted descriptor is close-on-exec from the start. */
int host_accept_cloexec(int fd);

/* pipe2(fds, O_CLOEXEC). */
int host_pipe_cloexec(int fds[2]);

/* pidfd_open(pid, 0) (Linux 5.3): a close-on-exec descriptor that polls readable once the process
 * has exited; -1 where the kernel has none. */
int host_pidfd_open(int pid);

/* pidfd_send_signal(pidfd, signal, NULL, 0) (Linux 5.1): a signal to the process the descriptor is of,
 * never to another that took its pid after it was reaped; -1 with errno. */
int host_pidfd_send_signal(int pidfd, int signal);

/* For a worker whose host is gone or done with it: ends every descendant (those that left its group
 * with setsid too, adopted by it as a subreaper) and its whole process group, itself included, so
 * nothing a bundle forked outlives it. Does not return. */
void host_end_own_group(void) __attribute__((noreturn));

/* prctl(PR_SET_CHILD_SUBREAPER): a descendant whose parent ends is adopted by this process, not by
 * init, so what a bundle starts can still be found and ended. */
int host_become_subreaper(void);

/* POSIX_SPAWN_SETSID (glibc 2.26): the spawned process leads a session of its own. */
short host_spawn_setsid_flag(void);

/* SIGKILL to every descendant of `root` (read from /proc), in rounds until none is left; reaps those
 * that are this process's children (never waiting for one it could not kill). Returns how many were
 * killed. */
int host_kill_descendants(int root);

/* For a subreaper host whose workers each lead a session: SIGKILL to each child of this process that
 * is not in `keep` and is in another session (a bundle's process, adopted when its worker ended) or
 * in this process's own group (forked by a bundle loaded in this process), and to its descendants;
 * reaps them, and any other adopted child that has ended. An adopted process in a group of its own
 * in this session (an application a desktop opener started) is left to run, and reaped once it ends;
 * a child leading its own group (as `Subprocess` and Foundation's Process start one) is left to its
 * owner. A
 * process that cannot be killed (a setuid program) is never waited for. Returns how many were
 * killed. */
int host_kill_adopted(const int *keep, int keep_count);

/* The exit guard of a host that runs bundles in its own process (queue isolation), where a bundle
 * calling exit() would end the host quietly. Installed, an exit the host did not announce with
 * host_exit_guard_deliberate() is reported on standard error as the bundle's doing (the bundle is
 * found on the calling thread's stack, else named by the thread's current activity), the control
 * socket set with host_exit_guard_socket() is removed, and the process ends with status 70. A fatal
 * signal (a crash, an abort, a trap) on a thread marked as working for a bundle is reported the
 * same way, naming the signal, before the process ends as that signal; each such thread has an
 * alternate signal stack, so a stack overflow is reported too. */
void host_exit_guard_install(void);
/* The host itself is exiting now: the guard lets it. */
void host_exit_guard_deliberate(void);
/* The socket to remove if a bundle ends the process (NULL: none). The text is copied. */
void host_exit_guard_socket(const char *path);
/* Text written to standard output first if a bundle ends the process (NULL: none): what puts a
 * terminal back as it was. The text is copied. */
void host_exit_guard_restore(const char *text);
/* What the calling thread does for a bundle ("loading", "answering timeline"), named in the report;
 * NULL when done. The text must outlive the call (a string literal, or one kept by the caller). */
void host_exit_guard_activity(const char *bundle, const char *activity);

/* Makes Foundation's `Bundle.main` the bundle of the executable at `path` (a worker's
 * NAME.widgetbundle/NAME.so), as it is an iOS extension's own: CoreFoundation takes the main bundle
 * from the process path, which this sets. Only before anything has asked for the main bundle. */
void host_set_main_bundle_executable(const char *path);

/* The uid owning the other end of an accepted TCP connection whose peer is on this machine, asked
 * of the kernel by the connection's addresses and ports (NETLINK_SOCK_DIAG, one exact lookup, as
 * `ss` does): 0 and *uid set when the kernel knows it; -1 otherwise (another machine's peer, or no
 * socket diagnostics). */
int host_tcp_peer_uid(int fd, unsigned int *uid);

/* Whether libswiftCore.so is among this process's loaded objects (a statically linked Swift
 * runtime is not). */
bool host_has_shared_swift_runtime(void);

/* The worker zygote (WorkerZygote.swift). Serves the host on `channel`, a SOCK_SEQPACKET socket,
 * from a thread of its own, until the host closes it; returns 0 then (an error number if the
 * thread could not start). Each message is one byte of kind and its body:
 *   'S' + the worker's start (opaque here), with three descriptors: the worker's channel, output and
 *       memory report. The zygote forks; the child leads a session of its own, has default signal
 *       handling, /dev/null as 0, the output as 1 and 2, the three as 3 and 4, nothing else open,
 *       and calls child_main(body, length), which must not return. Answered 'P' + int32 pid, or
 *       'P' + -errno.
 *   'R' + int32 pid: reaps that child, which has ended (the host saw its pidfd). Answered 'W' +
 *       int32 wait status, or 'E' + errno.
 * Anything else is answered 'E' + EINVAL. */
typedef void (*host_zygote_child_main)(const char *body, unsigned long length);
int host_zygote_serve(int channel, host_zygote_child_main child_main);

/* In a worker forked by the zygote: its command line as `ps` and /proc/PID/cmdline show it (cut to
 * the length of the zygote's own, which is started with room). */
void host_set_process_title(const char *title);

/* SCM_RIGHTS for sendmsg: the control buffer's length for `count` descriptors, and the header and
 * descriptors written into a buffer of that length. */
unsigned long host_cmsg_space(int count);
void host_cmsg_put_rights(void *control, const int *fds, int count);

/* dlopen(RTLD_NOW | RTLD_GLOBAL) of the library `name` in the directory Foundation was loaded from
 * (the toolchain's or the installed runtime's): 0, or -1 when it could not be loaded. */
int host_preload_beside_foundation(const char *name);

/* An idle worker's pages of files it maps read-only (every loaded object's read-only segments),
 * dropped from its page tables: the next touch maps them again from the page cache (idle_memory.c).
 * Returns the length of the ranges given up (mapped or not). */
unsigned long host_release_file_pages(void);

/* How many descriptors above `highest` this process has open; -1 if unknown. */
int host_descriptors_above(int highest);

/* The threads this process runs now (from /proc/self/status); -1 if unknown. */
int host_thread_count(void);

#endif
