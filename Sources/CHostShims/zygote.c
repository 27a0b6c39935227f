/*
 * The worker zygote's side of its channel with the host (see WorkerZygote.swift for the design).
 *
 * Forking happens on a thread of its own that has never run Swift or Dispatch code: the runtime
 * caches a thread's id in thread-local storage (libdispatch in its per-thread data, Swift's Mutex in
 * a thread-local), and those caches would be stale in a child forked from a thread that filled
 * them; a stale id in a priority-inheriting futex makes the kernel refuse its unlock. A fresh
 * thread's caches are empty, so the forked worker's only thread computes its own. glibc's fork()
 * updates its own records of the thread; the child calls libdispatch's fork handler, which binds
 * the main queue to its thread, and sets CoreFoundation's record of the main thread.
 */
#define _GNU_SOURCE
#include "host_shims.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* CoreFoundation's record of the main thread (Thread.isMainThread compares with it), in the
 * Foundation the worker links; looked up when the zygote starts serving (`widgets` has none). */
static pthread_t *cf_main_thread;
/* libdispatch's handler for a forked child, which it does not register with pthread_atfork on
 * Linux: binds the main queue to the calling thread (by its id, computed afresh on this thread). */
extern void dispatch_atfork_child(void);

struct zygote_loop {
    int channel;
    host_zygote_child_main child_main;
};

static int reply(int channel, char kind, int32_t value) {
    char message[5];
    message[0] = kind;
    memcpy(message + 1, &value, sizeof value);
    ssize_t sent;
    do { sent = send(channel, message, sizeof message, MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
    return sent == (ssize_t)sizeof message ? 0 : -1;
}

/* Moves a descriptor above the five a worker is given, so that no dup2 below lands on it. */
static int raise_descriptor(int fd) {
    if (fd > 4) return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 5);
    close(fd);
    return moved;
}

/* The zygote's mappings below its initial stack, read once from /proc/self/maps when it starts
 * serving: its serving loop maps and unmaps nothing (it allocates nothing, and starts no thread),
 * so every child it forks inherits exactly these. Each child reading the file was a twentieth of
 * the CPU of a cold listing (the kernel formats a line, with its path, for each of some 270). */
enum { most_mappings = 4096 };
static unsigned long layout_starts[most_mappings], layout_ends[most_mappings];
static int layout_count;

static void read_layout(void) {
    layout_count = 0;
    FILE *maps = fopen("/proc/self/maps", "re");
    if (!maps) return;
    int count = 0;
    int stack = 0;
    char line[512];
    while (count < most_mappings && fgets(line, sizeof line, maps)) {
        unsigned long start, end;
        if (sscanf(line, "%lx-%lx", &start, &end) != 2) continue;
        if (strstr(line, "[stack]")) { stack = 1; break; }
        if (strstr(line, "[vsyscall]")) break;
        layout_starts[count] = start;
        layout_ends[count] = end;
        count++;
    }
    fclose(maps);
    layout_count = stack ? count : 0;
}

static int reserve(unsigned long start, unsigned long length) {
    long made = syscall(SYS_mmap, start, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    return made == (long)start ? 0 : -1;
}

/* Fills the gaps among the mmap area's mappings, as `read_layout` found them, with reservations,
 * and makes one of `length` bytes below the lowest. -1 when a reservation cannot be made where a
 * gap was: the mappings are not those read. */
static int reserve_layout(unsigned long length) {
    if (layout_count < 2) return -1;
    /* The mmap area: the mappings above the largest gap (the one between the executable and its
     * heap, low, and the libraries, high). */
    int first = 1;
    unsigned long widest = 0;
    for (int index = 1; index < layout_count; index++) {
        if (layout_starts[index] - layout_ends[index - 1] > widest) { widest = layout_starts[index] - layout_ends[index - 1]; first = index; }
    }
    for (int index = first + 1; index < layout_count; index++) {
        if (layout_starts[index] > layout_ends[index - 1] && reserve(layout_ends[index - 1], layout_starts[index] - layout_ends[index - 1]) != 0) return -1;
    }
    return reserve(layout_starts[first] - length, length);
}

/* Shifts where the next mappings go (the bundle, its libraries, thread stacks, heap arenas) by a
 * random number of pages. The kernel places a mapping in the highest free gap below its mmap base
 * that fits, and a forked child inherits that base and every gap, so each would land where it does
 * in every sibling. The gaps among the mappings inherited are filled with reservations, and one of
 * random length (up to 1 GiB) is made below the lowest: the next mappings go below it. Reservations
 * are never made accessible, so they cost no memory and count toward no limit. (The brk heap is not
 * moved.) Should the mappings not be those the zygote read (a reservation finds its gap taken), the
 * child reads its own and reserves again. */
static void shift_layout(void) {
    uint32_t pages = 0;
    if (getrandom(&pages, sizeof pages, 0) != (ssize_t)sizeof pages) return;
    unsigned long length = ((unsigned long)(pages % (1u << 18)) + 1) * 4096;
    if (reserve_layout(length) == 0) return;
    read_layout();
    (void)reserve_layout(length);
}

/* In the child: becomes a worker as posix_spawn would start one, then runs the worker's main. */
static void become_worker(const struct zygote_loop *loop, int fds[3], const char *body, unsigned long length) __attribute__((noreturn));
static void become_worker(const struct zygote_loop *loop, int fds[3], const char *body, unsigned long length) {
    dispatch_atfork_child();
    setsid();
    sigset_t none;
    sigemptyset(&none);
    for (int signal = 1; signal < NSIG; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = SIG_DFL;
        (void)sigaction(signal, &action, NULL);
    }
    pthread_sigmask(SIG_SETMASK, &none, NULL);
    int channel = raise_descriptor(fds[0]), output = raise_descriptor(fds[1]), exceeded = raise_descriptor(fds[2]);
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (channel < 0 || output < 0 || exceeded < 0 || null < 0) _exit(71);
    null = raise_descriptor(null);
    if (dup2(null, 0) < 0 || dup2(output, 1) < 0 || dup2(output, 2) < 0 || dup2(channel, 3) < 0 || dup2(exceeded, 4) < 0) _exit(71);
    /* Nothing else of the zygote's reaches the worker: its channel to the host, anything else. */
    closefrom(5);
    shift_layout();
    if (cf_main_thread) *cf_main_thread = pthread_self();
    loop->child_main(body, length);
    _exit(70);
}

static void *serve(void *argument) {
    struct zygote_loop *loop = argument;
    static char body[64 << 10];
    read_layout();
    for (;;) {
        char control[CMSG_SPACE(3 * sizeof(int))];
        struct iovec part = {.iov_base = body, .iov_len = sizeof body - 1};
        struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
        ssize_t length = recvmsg(loop->channel, &message, MSG_CMSG_CLOEXEC);
        if (length < 0 && errno == EINTR) continue;
        if (length <= 0) return NULL; /* the host is gone or done: so is the zygote */
        int fds[3] = {-1, -1, -1};
        int count = 0;
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
            if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
            int received = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            int *descriptors = (int *)CMSG_DATA(header);
            for (int index = 0; index < received; index++) {
                if (count < 3) fds[count] = descriptors[index];
                else close(descriptors[index]);
                count++;
            }
        }
        if (body[0] == 'S' && count == 3 && !(message.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
            body[length] = 0;
            pid_t pid = fork();
            if (pid == 0) become_worker(loop, fds, body + 1, (unsigned long)length - 1);
            int error = errno;
            for (int index = 0; index < 3; index++) close(fds[index]);
            if (reply(loop->channel, 'P', pid > 0 ? pid : -error) < 0) return NULL;
        } else if (body[0] == 'R' && length == 5 && count == 0) {
            int32_t pid;
            memcpy(&pid, body + 1, sizeof pid);
            int status = 0;
            pid_t reaped;
            do { reaped = waitpid(pid, &status, 0); } while (reaped < 0 && errno == EINTR);
            if (reply(loop->channel, reaped == pid ? 'W' : 'E', reaped == pid ? status : errno) < 0) return NULL;
        } else {
            for (int index = 0; index < count && index < 3; index++) close(fds[index]);
            if (reply(loop->channel, 'E', EINVAL) < 0) return NULL;
        }
    }
}

/* The zygote's command line, which its children rewrite to their own (as sshd and PostgreSQL
 * title their processes): its arguments' strings lie one after another from argv[0]. */
static char *title_area;
static size_t title_length;

void host_set_process_title(const char *title) {
    if (!title_area || title_length == 0) return;
    memset(title_area, 0, title_length);
    strncpy(title_area, title, title_length - 1);
}

int host_zygote_serve(int channel, host_zygote_child_main child_main) {
    cf_main_thread = (pthread_t *)dlsym(RTLD_DEFAULT, "_CFMainPThread");
    FILE *cmdline = fopen("/proc/self/cmdline", "re");
    if (cmdline) {
        size_t length = 0;
        char chunk[512];
        size_t count;
        while ((count = fread(chunk, 1, sizeof chunk, cmdline)) > 0) length += count;
        fclose(cmdline);
        title_area = program_invocation_name;
        title_length = length;
    }
    struct zygote_loop loop = {.channel = channel, .child_main = child_main};
    /* Each forked worker runs on this thread alone and loads its bundle on it (static initializers,
     * initialize): the 8 MiB a loader thread has, whatever RLIMIT_STACK says. */
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 8 << 20);
    pthread_t thread;
    int error = pthread_create(&thread, &attributes, serve, &loop);
    pthread_attr_destroy(&attributes);
    if (error != 0) return error;
    pthread_join(thread, NULL);
    return 0;
}

int host_thread_count(void) {
    char line[256];
    int threads = -1;
    FILE *status = fopen("/proc/self/status", "re");
    if (!status) return -1;
    while (fgets(line, sizeof line, status)) {
        if (strncmp(line, "Threads:", 8) == 0) {
            threads = atoi(line + 8);
            break;
        }
    }
    fclose(status);
    return threads;
}

unsigned long host_cmsg_space(int count) { return CMSG_SPACE((size_t)count * sizeof(int)); }

void host_cmsg_put_rights(void *control, const int *fds, int count) {
    struct cmsghdr *header = (struct cmsghdr *)control;
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN((size_t)count * sizeof(int));
    memcpy(CMSG_DATA(header), fds, (size_t)count * sizeof(int));
}

int host_preload_beside_foundation(const char *name) {
    void *foundation = dlsym(RTLD_DEFAULT, "_CFGetProcessPath");
    Dl_info information;
    if (!foundation || dladdr(foundation, &information) == 0 || !information.dli_fname) return -1;
    const char *slash = strrchr(information.dli_fname, '/');
    if (!slash) return -1;
    char path[4096];
    int length = snprintf(path, sizeof path, "%.*s/%s", (int)(slash - information.dli_fname), information.dli_fname, name);
    if (length <= 0 || (size_t)length >= sizeof path) return -1;
    return dlopen(path, RTLD_NOW | RTLD_GLOBAL) ? 0 : -1;
}

int host_descriptors_above(int highest) {
    DIR *directory = opendir("/proc/self/fd");
    if (!directory) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(directory))) {
        if (entry->d_name[0] == '.') continue;
        int fd = atoi(entry->d_name);
        if (fd > highest && fd != dirfd(directory)) count++;
    }
    closedir(directory);
    return count;
}
