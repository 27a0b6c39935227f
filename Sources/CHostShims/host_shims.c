#define _GNU_SOURCE
#include <errno.h>
#include "host_shims.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
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

int host_spawn_add_chdir(void *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np((posix_spawn_file_actions_t *)actions, path);
}

int host_thread_set_name(const char *name) { return pthread_setname_np(pthread_self(), name); }

int host_thread_name(char *buffer, size_t size) { return pthread_getname_np(pthread_self(), buffer, size); }

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

int host_pidfd_send_signal(int pidfd, int signal) {
#ifdef SYS_pidfd_send_signal
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
#else
    (void)pidfd, (void)signal;
    errno = ENOSYS;
    return -1;
#endif
}


/* CoreFoundation's (in the Foundation a worker links): the process path it takes the main bundle
 * from, computed once and kept here. Looked up, not linked: `widgets` has no Foundation. */
void host_set_main_bundle_executable(const char *path) {
    const char **(*process_path)(void) = (const char **(*)(void))dlsym(RTLD_DEFAULT, "_CFGetProcessPath");
    const char **kept = process_path ? process_path() : NULL;
    if (kept) *kept = strdup(path);
}

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/time.h>

int host_tcp_peer_uid(int fd, unsigned int *uid) {
    struct sockaddr_storage peer, local;
    socklen_t peer_length = sizeof peer, local_length = sizeof local;
    if (getpeername(fd, (struct sockaddr *)&peer, &peer_length) != 0) return -1;
    if (getsockname(fd, (struct sockaddr *)&local, &local_length) != 0) return -1;
    if (peer.ss_family != local.ss_family || (peer.ss_family != AF_INET && peer.ss_family != AF_INET6)) return -1;

    struct {
        struct nlmsghdr header;
        struct inet_diag_req_v2 request;
    } message;
    memset(&message, 0, sizeof message);
    message.header.nlmsg_len = sizeof message;
    message.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    message.header.nlmsg_flags = NLM_F_REQUEST;
    message.request.sdiag_family = (unsigned char)peer.ss_family;
    message.request.sdiag_protocol = IPPROTO_TCP;
    message.request.idiag_states = ~0u;
    /* The peer's socket: its source is the peer's address, its destination ours. */
    if (peer.ss_family == AF_INET) {
        const struct sockaddr_in *them = (const struct sockaddr_in *)&peer, *us = (const struct sockaddr_in *)&local;
        message.request.id.idiag_sport = them->sin_port;
        message.request.id.idiag_dport = us->sin_port;
        memcpy(message.request.id.idiag_src, &them->sin_addr, 4);
        memcpy(message.request.id.idiag_dst, &us->sin_addr, 4);
    } else {
        const struct sockaddr_in6 *them = (const struct sockaddr_in6 *)&peer, *us = (const struct sockaddr_in6 *)&local;
        message.request.id.idiag_sport = them->sin6_port;
        message.request.id.idiag_dport = us->sin6_port;
        memcpy(message.request.id.idiag_src, &them->sin6_addr, 16);
        memcpy(message.request.id.idiag_dst, &us->sin6_addr, 16);
    }
    message.request.id.idiag_if = 0;
    message.request.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
    message.request.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;

    int diag = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (diag < 0) return -1;
    struct timeval limit = {.tv_sec = 1, .tv_usec = 0};
    setsockopt(diag, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    int found = -1;
    if (sendto(diag, &message, sizeof message, 0, (struct sockaddr *)&kernel, sizeof kernel) == (ssize_t)sizeof message) {
        long buffer[1024];
        ssize_t length = recv(diag, buffer, sizeof buffer, 0);
        for (struct nlmsghdr *reply = (struct nlmsghdr *)buffer; length > 0 && NLMSG_OK(reply, (size_t)length); reply = NLMSG_NEXT(reply, length)) {
            if (reply->nlmsg_type != SOCK_DIAG_BY_FAMILY) break; /* NLMSG_ERROR: not found, or no diagnostics */
            const struct inet_diag_msg *answer = NLMSG_DATA(reply);
            *uid = answer->idiag_uid;
            found = 0;
            break;
        }
    }
    close(diag);
    return found;
}
