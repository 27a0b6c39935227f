#define _GNU_SOURCE
#include "host_shims.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int deliberate;
static pthread_mutex_t socket_lock = PTHREAD_MUTEX_INITIALIZER;
static char socket_path[4096];
static char restore_text[256];
static __thread const char *current_bundle;
static __thread const char *current_activity;

void host_exit_guard_deliberate(void) { atomic_store(&deliberate, 1); }

void host_exit_guard_socket(const char *path) {
    pthread_mutex_lock(&socket_lock);
    snprintf(socket_path, sizeof socket_path, "%s", path ? path : "");
    pthread_mutex_unlock(&socket_lock);
}

void host_exit_guard_restore(const char *text) {
    pthread_mutex_lock(&socket_lock);
    snprintf(restore_text, sizeof restore_text, "%s", text ? text : "");
    pthread_mutex_unlock(&socket_lock);
}

/* Each thread that runs a bundle's code gets an alternate signal stack, so that the crash guard
 * runs even when the bundle overflowed the thread's own stack; freed when the thread ends. */
enum { ALTERNATE_STACK_SIZE = 64 * 1024 };
static pthread_key_t alternate_stack_key;
static pthread_once_t alternate_stack_once = PTHREAD_ONCE_INIT;
static __thread int has_alternate_stack;

static void free_alternate_stack(void *stack) {
    stack_t disable = {.ss_flags = SS_DISABLE};
    sigaltstack(&disable, NULL);
    munmap(stack, ALTERNATE_STACK_SIZE);
}

static void make_alternate_stack_key(void) { pthread_key_create(&alternate_stack_key, free_alternate_stack); }

static void ensure_alternate_stack(void) {
    if (has_alternate_stack) return;
    has_alternate_stack = 1;
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return; /* one already */
    void *stack = mmap(NULL, ALTERNATE_STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack == MAP_FAILED) return;
    stack_t alternate = {.ss_sp = stack, .ss_size = ALTERNATE_STACK_SIZE, .ss_flags = 0};
    if (sigaltstack(&alternate, NULL) != 0) {
        munmap(stack, ALTERNATE_STACK_SIZE);
        return;
    }
    pthread_once(&alternate_stack_once, make_alternate_stack_key);
    pthread_setspecific(alternate_stack_key, stack);
}

void host_exit_guard_activity(const char *bundle, const char *activity) {
    if (bundle) ensure_alternate_stack();
    current_bundle = bundle;
    current_activity = activity;
}

/* The bundle file whose code is on this thread's stack: the host loads each from /proc/self/fd/N,
 * which still names the file. */
static int bundle_on_stack(char *file, size_t capacity) {
    void *frames[128];
    int count = backtrace(frames, 128);
    for (int i = 0; i < count; i++) {
        Dl_info info;
        if (!dladdr(frames[i], &info) || !info.dli_fname) continue;
        if (strncmp(info.dli_fname, "/proc/self/fd/", 14) != 0) continue;
        ssize_t length = readlink(info.dli_fname, file, capacity - 1);
        if (length <= 0) snprintf(file, capacity, "%s", info.dli_fname);
        else file[length] = 0;
        return 1;
    }
    return 0;
}

static void guard(int status, void *unused) {
    (void)unused;
    if (atomic_load(&deliberate)) return;
    char file[4096];
    const char *bundle = bundle_on_stack(file, sizeof file) ? file : current_bundle;
    pthread_mutex_lock(&socket_lock);
    if (restore_text[0]) {
        ssize_t restored = write(STDOUT_FILENO, restore_text, strlen(restore_text));
        (void)restored;
    }
    pthread_mutex_unlock(&socket_lock);
    char message[8192];
    const char *activity = current_activity ? current_activity : "running";
    if (bundle) {
        snprintf(message, sizeof message,
                 "widgets: error: %s ended the host process: it called exit(%d) while %s. A bundle must never end its "
                 "process; in queue isolation its process is the host's (process isolation would have ended only its "
                 "worker)\n",
                 bundle, status, activity);
    } else {
        snprintf(message, sizeof message,
                 "widgets: error: the host process was ended by a call to exit(%d) it did not make, from a thread "
                 "of a bundle's (queue isolation runs bundles in the host's process; process isolation would "
                 "have ended only a worker)\n",
                 status);
    }
    ssize_t written = write(STDERR_FILENO, message, strlen(message));
    (void)written;
    pthread_mutex_lock(&socket_lock);
    if (socket_path[0]) unlink(socket_path);
    pthread_mutex_unlock(&socket_lock);
    _exit(70);
}

/* The fatal signals a bundle's fault raises, with their names as a report gives them. */
static const struct {
    int number;
    const char *name;
} fatal_signals[] = {
    {SIGSEGV, "SIGSEGV (segmentation fault)"}, {SIGBUS, "SIGBUS (bus error)"},
    {SIGILL, "SIGILL (illegal instruction, as a Swift runtime trap is)"}, {SIGFPE, "SIGFPE (arithmetic error)"},
    {SIGABRT, "SIGABRT (abort)"}, {SIGTRAP, "SIGTRAP (trap)"}, {SIGSYS, "SIGSYS (bad system call)"},
};
enum { FATAL_SIGNAL_COUNT = sizeof fatal_signals / sizeof fatal_signals[0] };
static struct sigaction previous_actions[FATAL_SIGNAL_COUNT];
static atomic_int crash_reported;

static void write_text(int descriptor, const char *text) {
    ssize_t written = write(descriptor, text, strlen(text));
    (void)written;
}

/* A fatal signal in queue isolation: when a bundle's code is what faulted (the thread is marked as
 * working for it), one line names the bundle, the signal and what it was doing; the terminal is put
 * back and the control socket removed. Then the signal goes on to what handled it before (Swift's
 * backtracer, or the default action), which ends the process as that signal. A fault of the host's
 * own is not blamed on a bundle: nothing is written. */
static void crash_guard(int number, siginfo_t *info, void *context) {
    int index = 0;
    while (index < FATAL_SIGNAL_COUNT && fatal_signals[index].number != number) index++;
    if (index == FATAL_SIGNAL_COUNT) return;
    const char *bundle = current_bundle;
    if (bundle && !atomic_exchange(&crash_reported, 1) && !atomic_load(&deliberate)) {
        if (restore_text[0]) write_text(STDOUT_FILENO, restore_text);
        char message[8192];
        snprintf(message, sizeof message,
                 "widgets: error: %s crashed the host process: %s while %s. In queue isolation a bundle's crash "
                 "ends the host; process isolation (the default) would have ended only its worker\n",
                 bundle, fatal_signals[index].name, current_activity ? current_activity : "running");
        write_text(STDERR_FILENO, message);
        if (socket_path[0]) unlink(socket_path);
    }
    /* On to the handler before this one: a fault re-faults on return; a signal sent (abort's) or a
     * trap (which resumes after its instruction) is raised again, blocked until this returns. */
    sigaction(number, &previous_actions[index], NULL);
    if (!info || info->si_code <= 0 || number == SIGTRAP) raise(number);
    (void)context;
}

void host_exit_guard_install(void) {
    /* backtrace() loads its unwinder on first use: done now, not inside a dying process. */
    void *frame[1];
    backtrace(frame, 1);
    on_exit(guard, NULL);
    struct sigaction action = {0};
    action.sa_sigaction = crash_guard;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < FATAL_SIGNAL_COUNT; i++) sigaction(fatal_signals[i].number, &action, &previous_actions[i]);
}
